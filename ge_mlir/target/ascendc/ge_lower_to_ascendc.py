"""ge-lower-to-ascendc: a ge graph (one function, static shapes) -> ascendc kernels + host program.

The function becomes an ``ascendc.host`` whose arguments are the graph's
inputs then outputs, and one ``ascendc.kernel`` per scheduled step, launched
in program order:

* chains of elementwise ops (single-use producers of the same shape) fuse
  into one vector kernel (:mod:`.lowering.chain`); constants that are
  scalars become immediate operands, operands that broadcast along rows or
  columns are read once per block;
* ``matmul``/``gemm``: a cube kernel on ``A`` and ``B^T`` (constant weights
  are transposed at compile time, ``transpose(X)`` of the last two axes is
  read as ``X``, other B get a transpose kernel), then an epilogue vector
  kernel for bias, alpha/beta and the fused activation;
* ``conv2d`` (groups 1, constant filter): im2col kernel, cube matmul, and the
  epilogue (per-channel bias, residual, activation); NCHW and NHWC;
* ``softmax``, ``layer_norm`` and ``rms_norm`` over the last axes: row kernels;
* ``transpose``: row copies when the last axis stays, a through-UB kernel
  when only the last two axes swap; ``trans_data`` NCHW <-> NHWC likewise;
* ``batch_norm`` with constant statistics: a per-channel affine vector kernel;
* reductions (sum/mean/max/min) over trailing or contiguous middle axes,
  global pools (NCHW rows, NHWC columns), max/avg pooling (on channel
  vectors; NCHW through two transposes), float casts;
* reshape-like ops and identity alias their input's global memory.

Anything else fails the pass naming the op and why (a clear
``PassFailedError`` from the pipeline), never an approximate lowering.

The lowerings live in :mod:`.lowering`, one module per op family; the kernel
templates they build with in :mod:`.kernels`.
"""

from __future__ import annotations

from mlir import ir

from ...dialects.ascendc import TargetAttr
from ...passes.registry import Option, Pass, PassFailure, register_pass
from .kernel_builder import cores, ub_budget
from .lowering.driver import lower_function
from .lowering.host_op import build_host, share_identical_kernels
from .socs import DEFAULT_SOC, SOCS, UB_HEADROOM, soc_info


@register_pass
class GeLowerToAscendCPass(Pass):
    name = "ge-lower-to-ascendc"
    summary = "Lower a ge graph to ascendc kernels (vector and cube) and a host program that launches them"
    description = __doc__
    stage = "lowering"
    targets = ("ascendc",)
    options = (
        Option("host-name", str, "graph", "symbol of the generated ascendc.host"),
        Option("soc", str, "", "target SoC (Ascend910B1, Ascend310P3); empty: the module's "
               "ascendc.target, else Ascend910B1"),
    )

    def run(self, module: ir.Operation) -> None:
        mblock = module.regions[0].blocks[0]
        fns = [op.operation for op in mblock.operations if op.operation.name == "func.func"]
        if len(fns) != 1:
            raise PassFailure(f"the ascendc target compiles one function per module, found {len(fns)}", at=module)
        fn = fns[0]
        regions = [op for op in fn.regions[0].blocks[0].operations if len(op.operation.regions)]
        if regions:
            raise PassFailure(f"'{regions[0].operation.name}' (ONNX If/Loop): the ascendc target compiles "
                              "straight-line graphs only; control flow is not supported", at=regions[0].operation)
        soc = self.opt("soc")
        if soc and soc not in SOCS:
            raise PassFailure(f"unknown soc '{soc}' (known: {', '.join(SOCS)})", at=module)
        if soc or "ascendc.target" not in module.attributes:
            module.attributes["ascendc.target"] = SOCS[soc or DEFAULT_SOC].target_attr()
        target = TargetAttr(module.attributes["ascendc.target"])
        # Vector kernels run on the AIV cores, cube kernels on the AIC cores (a SoC without separate
        # vector cores runs both on its AI cores).
        vector_cores = target.aiv or target.aic
        with module.context, fn.location, ub_budget(target.ub - UB_HEADROOM), cores(vector_cores, target.aic):
            low = lower_function(fn, soc_info(target.soc).gm_bytes)
            kernels = low.kernels
            # A template bug is an internal error naming the kernel here, as when the
            # kernels were text to parse. Like then, the scratch module has no
            # ascendc.target (default sizes); the pass manager verifies them in place.
            scratch = ir.Module.create()
            for kop in kernels:
                scratch.body.append(kop)
            try:
                scratch.operation.verify()
            except ir.MLIRError as e:
                raise PassFailure(f"internal error: generated ascendc IR does not verify: {e}", at=fn) from None
        kernels, shared = share_identical_kernels(low)
        for kop in kernels:
            kop.move_before(fn)
        build_host(low, mblock, self.opt("host-name"), fn.location)
        fn.erase()
        self.bump("kernels", len(kernels))
        self.bump("shared-kernels", shared)
        self.bump("rewrites", len(kernels))
