"""ONNX backend API (``onnx.backend.base``) over ge-mlir's CPU target.

    from ge_mlir import onnx_backend
    rep = onnx_backend.prepare(model)            # import + compile, once
    outputs = rep.run([x, y])                    # list of numpy arrays, graph-output order
    outputs = onnx_backend.run_model(model, [x, y])
    outputs = onnx_backend.run_node(node, [x, y])

This is what ``onnx.backend.test`` (the ONNX conformance suite) drives; see
``test/python/onnx_backend``. Every prepared model gets an MLIR context of its
own. Import and compilation errors propagate unchanged (``OnnxImportError``,
``UnsupportedOpsError``, ``ExecutionError``, ...): nothing is swallowed.

Graph inputs that are also initializers (ONNX IR < 4 style "inputs with
defaults") are constants for ``import_onnx``, so they are not arguments of the
compiled function: ``run`` accepts values for them only when they equal the
initializer (anything else would be silently ignored, so it raises).
Models whose inputs have unknown dimensions are compiled on first ``run``,
for the actual input shapes (one compilation per distinct shape set).

Value specialization: when the importer needs a graph input as a constant
(a Reshape shape, Reduce axes, Pad pads, Resize scales, ... given as a graph
input; ``UnsupportedOpsError.needs_constant``) and nothing else blocks the
model, compilation waits for ``run`` and freezes those inputs to the values
given (``CompileOptions.constant_inputs``); other values compile again (one
compilation per distinct value set). ``rep.specialized_inputs`` names them.
``prepare(model, specialize_inputs=False)`` turns this off (the import error
is then raised by ``prepare``).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np
import onnx
from onnx.backend.base import Backend, BackendRep

import ge_mlir
from ge_mlir.errors import UnsupportedOpsError

__all__ = ["GeMlirBackend", "GeMlirBackendRep", "prepare", "run_model", "run_node", "supports_device"]


def _compile(model: onnx.ModelProto, input_shapes: Mapping[str, Sequence[int]] | None = None,
             options: Mapping[str, Any] | None = None, constant_inputs: Mapping[str, Any] | None = None) -> Any:
    """Imports and compiles ``model`` for the CPU (``ge_mlir.compile`` uses a fresh MLIR context).

    Returns a ``ge_mlir.CompiledModel``: called with the inputs by name, it
    returns the graph outputs in order.
    """
    opts = {**(options or {}), "input_shapes": input_shapes}
    if constant_inputs:
        opts["constant_inputs"] = constant_inputs
    return ge_mlir.compile(model, target="cpu", options=opts, progress=False)


def _has_unknown_dims(vi: onnx.ValueInfoProto) -> bool:
    """A ranked tensor input with some unknown dimension (known once inputs arrive).

    Non-tensor and unranked inputs are not deferred: the importer rejects them
    at ``prepare``, where the error belongs.
    """
    t = vi.type
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return False
    return not all(d.HasField("dim_value") and d.dim_value >= 0 for d in t.tensor_type.shape.dim)


class GeMlirBackendRep(BackendRep):
    """A model imported and compiled for the CPU; ``run`` may be called repeatedly."""

    def __init__(self, model: onnx.ModelProto, options: Mapping[str, Any] | None = None,
                 specialize_inputs: bool = True) -> None:
        self.model = model
        self.options = dict(options or {})
        self.specialize = specialize_inputs
        #: graph inputs compiled in as constants (their values at ``run``; see the module doc)
        self.specialized_inputs: list[str] = []
        graph = model.graph
        self._initializers = {i.name: i for i in graph.initializer}
        #: all graph inputs (ONNX order), including initializer-backed ones
        self.input_names = [i.name for i in graph.input]
        #: the inputs ``run`` takes: graph inputs that are not initializers
        self.runtime_inputs = [i.name for i in graph.input if i.name not in self._initializers]
        self.output_names = [o.name for o in graph.output]
        self._compiled: dict[tuple, Any] = {}
        vis = [i for i in graph.input if i.name not in self._initializers]
        self._dynamic = any(_has_unknown_dims(i) for i in vis) and all(
            i.type.HasField("tensor_type") and i.type.tensor_type.HasField("shape") for i in vis
        )
        if not self._dynamic:
            try:
                self._compiled[((), ())] = _compile(model, None, self.options)
            except UnsupportedOpsError as e:
                if not self._needs_values(e):
                    raise

    def _needs_values(self, e: UnsupportedOpsError) -> bool:
        """Records inputs to specialize; False when that cannot help."""
        new = [n for n in getattr(e, "needs_constant", ()) if n in self.runtime_inputs and n not in self.specialized_inputs]
        if not self.specialize or e.unsupported or not new:
            return False
        self.specialized_inputs += new
        return True

    # --- input binding ----------------------------------------------------
    def _bind(self, inputs: Any) -> list[np.ndarray]:
        if isinstance(inputs, Mapping):
            named = dict(inputs)
        else:
            if isinstance(inputs, (np.ndarray, np.generic)):
                inputs = [inputs]
            inputs = list(inputs)
            if len(inputs) == len(self.runtime_inputs):
                named = dict(zip(self.runtime_inputs, inputs))
            elif len(inputs) == len(self.input_names):
                named = dict(zip(self.input_names, inputs))
            else:
                raise ValueError(
                    f"model takes {len(self.runtime_inputs)} input(s) ({', '.join(self.runtime_inputs)})"
                    + (
                        f" or {len(self.input_names)} counting initializer-backed inputs"
                        if len(self.input_names) != len(self.runtime_inputs)
                        else ""
                    )
                    + f", got {len(inputs)}"
                )
        for name, value in named.items():
            if name in self._initializers:
                init = onnx.numpy_helper.to_array(self._initializers[name])
                v = np.asarray(value)
                if v.shape != init.shape or v.dtype != init.dtype or not np.array_equal(v, init, equal_nan=True):
                    raise NotImplementedError(
                        f"input {name!r} is an initializer, compiled in as a constant; "
                        "feeding a different value is not supported"
                    )
            elif name not in self.runtime_inputs:
                raise ValueError(f"{name!r} is not an input of the model (inputs: {', '.join(self.runtime_inputs)})")
        missing = [n for n in self.runtime_inputs if n not in named]
        if missing:
            raise ValueError(f"missing model input(s): {', '.join(missing)}")
        return [np.asarray(named[n]) for n in self.runtime_inputs]

    def _executable(self, named: Mapping[str, np.ndarray]) -> Any:
        shapes = tuple(tuple(named[n].shape) for n in self.runtime_inputs) if self._dynamic else ()
        while True:
            frozen = {n: named[n] for n in self.specialized_inputs}
            key = (shapes, tuple((n, a.dtype.str, a.shape, a.tobytes()) for n, a in frozen.items()))
            if key in self._compiled:
                return self._compiled[key]
            input_shapes = (
                {n: list(named[n].shape) for n in self.runtime_inputs if n not in frozen} if self._dynamic else None
            )
            try:
                exe = _compile(self.model, input_shapes, self.options, frozen)
            except UnsupportedOpsError as e:
                if self._needs_values(e):  # more inputs turned out to be needed as constants
                    continue
                raise
            self._compiled[key] = exe
            return exe

    def run(self, inputs: Any, **kwargs: Any) -> tuple[np.ndarray, ...]:
        """Runs the model; returns the outputs in graph-output order."""
        named = dict(zip(self.runtime_inputs, self._bind(inputs)))
        exe = self._executable(named)
        return tuple(exe(**{n: named[n] for n in exe.input_names}))


class GeMlirBackend(Backend):
    """The ``onnx.backend`` entry points for ge-mlir (CPU only)."""

    @classmethod
    def is_compatible(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> bool:
        return cls.supports_device(device)

    @classmethod
    def prepare(cls, model: onnx.ModelProto | bytes | str, device: str = "CPU", **kwargs: Any) -> GeMlirBackendRep:
        """Imports and compiles ``model``. Keyword arguments that are
        ``ge_mlir.CompileOptions`` fields (``optimize``, ``opt_level``) are passed
        on, ``specialize_inputs=False`` turns value specialization off; others
        (e.g. the ONNX runner's ``rtol``/``atol``) are ignored."""
        if not cls.supports_device(device):
            raise RuntimeError(f"ge-mlir's ONNX backend runs on CPU only, not {device!r}")
        if isinstance(model, (bytes, bytearray)):
            model = onnx.load_from_string(bytes(model))
        elif isinstance(model, str):
            model = onnx.load(model)
        from .config import CompileOptions

        options = {k: v for k, v in kwargs.items() if k in ("optimize", "opt_level")}
        assert set(options) <= set(CompileOptions.__dataclass_fields__)
        return GeMlirBackendRep(model, options, specialize_inputs=kwargs.get("specialize_inputs", True))

    @classmethod
    def run_model(cls, model: onnx.ModelProto, inputs: Any, device: str = "CPU", **kwargs: Any) -> tuple[Any, ...]:
        return cls.prepare(model, device, **kwargs).run(inputs)

    @classmethod
    def run_node(
        cls,
        node: onnx.NodeProto,
        inputs: Any,
        device: str = "CPU",
        outputs_info: Sequence[tuple[np.dtype, tuple[int, ...]]] | None = None,
        **kwargs: Any,
    ) -> tuple[Any, ...]:
        """Runs one node: wraps it into a one-node model (inputs typed from the arrays)."""
        super().run_node(node, inputs, device=device, outputs_info=outputs_info, **kwargs)
        present = [n for n in node.input if n]
        if isinstance(inputs, Mapping):
            arrays = [np.asarray(inputs[n]) for n in present]
        else:
            arrays = [np.asarray(a) for a in inputs]
        if len(arrays) != len(present):
            raise ValueError(f"node {node.op_type} has {len(present)} present input(s), got {len(arrays)} array(s)")
        in_vis = [
            onnx.helper.make_tensor_value_info(n, onnx.helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
            for n, a in zip(present, arrays)
        ]
        outs = [n for n in node.output if n]
        if outputs_info is not None:
            out_vis = [
                onnx.helper.make_tensor_value_info(n, onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dt)), shape)
                for n, (dt, shape) in zip(outs, outputs_info)
            ]
        else:
            out_vis = [onnx.helper.make_empty_tensor_value_info(n) for n in outs]
        graph = onnx.helper.make_graph([node], f"{node.op_type or 'node'}_graph", in_vis, out_vis)
        opset = kwargs.get("opset_version", onnx.defs.onnx_opset_version())
        domain = node.domain if node.domain not in ("", "ai.onnx") else ""
        opsets = [onnx.helper.make_opsetid("", opset)]
        if domain:
            opsets.append(onnx.helper.make_opsetid(domain, 1))
        model = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="ge-mlir-run-node")
        return cls.prepare(model, device).run(arrays)

    @classmethod
    def supports_device(cls, device: str) -> bool:
        return str(device).upper().split(":")[0] == "CPU"


prepare = GeMlirBackend.prepare
run_model = GeMlirBackend.run_model
run_node = GeMlirBackend.run_node
supports_device = GeMlirBackend.supports_device
