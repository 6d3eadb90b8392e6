"""A ge graph written back as an ONNX model (open it in Netron, run it in onnxruntime).

Every ge op maps to the standard ONNX op the importer made it from (``ge.conv2d`` -> Conv,
``ge.reduce_mean`` -> ReduceMean, ...), with attributes and constant inputs (axes, shapes,
pads) rebuilt from the op's attributes and result type. The ops the optimizer creates have no
single ONNX counterpart; with ``fused="expand"`` (default) they are expanded into standard ops:

* conv2d / matmul / gemm with a fused bias, residual or activation: Conv (bias as its B input)
  or MatMul/Gemm, then Add for the bias and the residual, then the activation (Relu, Clip for
  relu6, LeakyRelu, Sigmoid, Tanh, Gelu, x*Sigmoid(x) for silu, HardSigmoid, HardSwish);
* ops computing in NHWC (``data_format``): Transpose to NCHW, the op, Transpose back;
* trans_data: Transpose between NCHW/NHWC/HWCN; Pad + Reshape + Transpose into NC1HWC0 and
  FRACTAL_NZ, Transpose + Reshape + Slice out of them;
* rsqrt (Sqrt, Reciprocal), silu, rms_norm (ReduceMean of squares, Add, Sqrt, Div, Mul).

With ``fused="custom"`` a fused op or trans_data stays one node in the custom domain ``ge``
(op type: the ge op name, attributes: the ge attributes, ``fused`` listing the epilogue), as
do ge ops with no mapping: Netron shows them, onnxruntime cannot run them.

Graph inputs and outputs keep their ONNX names; nodes are named after the ONNX node they came
from (the op's location), expanded parts get a ``/bias``, ``/relu``, ... suffix; weights become
initializers under their blob names; every tensor gets its shape in ``value_info``.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from mlir import ir

from ..errors import GraphExportError
from ..irutils.attrs import attribute_value, is_resource
from ..irutils.constants import read_resource_bytes
from ..irutils.functions import io_names
from ..irutils.locations import location_info
from ..irutils.types import NUMPY_DTYPES
from ..irutils.windows import end_adjustment, window_divisors
from .model import fused_parts, operand_names

__all__ = ["DEFAULT_OPSET", "FUSED_MODES", "SUPPORTED_OPS", "to_onnx"]

#: ONNX opset of the exported models (Gelu needs 20; onnxruntime runs 21).
DEFAULT_OPSET = 21
#: IR version written (onnx 1.16+; onnxruntime 1.18+ read it).
IR_VERSION = 10
FUSED_MODES = ("expand", "custom")
CUSTOM_DOMAIN = "ge"

_UNARY = {"abs": "Abs", "ceil": "Ceil", "cos": "Cos", "erf": "Erf", "exp": "Exp", "floor": "Floor",
          "identity": "Identity", "log": "Log", "neg": "Neg", "not": "Not", "reciprocal": "Reciprocal",
          "relu": "Relu", "round": "Round", "sigmoid": "Sigmoid", "sign": "Sign", "sin": "Sin", "sqrt": "Sqrt",
          "tanh": "Tanh", "softplus": "Softplus", "hard_swish": "HardSwish", "acos": "Acos", "asin": "Asin",
          "atan": "Atan", "bitwise_not": "BitwiseNot"}
_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "pow": "Pow", "max": "Max", "min": "Min",
           "and": "And", "or": "Or", "xor": "Xor", "equal": "Equal", "greater": "Greater",
           "greater_equal": "GreaterOrEqual", "less": "Less", "less_equal": "LessOrEqual", "where": "Where",
           "gather": "Gather", "gather_elements": "GatherElements", "bitwise_and": "BitwiseAnd",
           "bitwise_or": "BitwiseOr", "bitwise_xor": "BitwiseXor"}
_REDUCE = {"reduce_sum": "ReduceSum", "reduce_mean": "ReduceMean", "reduce_max": "ReduceMax",
           "reduce_min": "ReduceMin", "reduce_prod": "ReduceProd", "reduce_l2": "ReduceL2"}
_TO_NCHW, _TO_NHWC = [0, 3, 1, 2], [0, 2, 3, 1]


def _onnx():
    try:
        import onnx
    except ImportError as e:  # pragma: no cover - onnx is a dependency
        raise GraphExportError("ONNX export needs the onnx package: pip install onnx") from e
    return onnx


def _elem_dtype(elem: ir.Type) -> np.dtype:
    name = str(elem)
    if name not in NUMPY_DTYPES:
        raise GraphExportError(f"element type {name} has no ONNX counterpart")
    return np.dtype(NUMPY_DTYPES[name])


def _tensor_proto_type(elem: ir.Type) -> int:
    onnx = _onnx()
    return int(onnx.helper.np_dtype_to_tensor_dtype(_elem_dtype(elem)))


def constant_value(op: ir.Operation) -> np.ndarray:
    """The value of a ``ge.constant`` as numpy, any element type (dense or dense_resource)."""
    t = ir.RankedTensorType(op.results[0].type)
    dtype = _elem_dtype(t.element_type)
    shape = list(t.shape)
    attr = op.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        dense = ir.DenseElementsAttr(attr)
        if dense.is_splat:
            return np.full(shape, attribute_value(dense.get_splat_value(), summary=True), dtype=dtype)
        try:
            return np.array(dense).astype(dtype, copy=False).reshape(shape)
        except Exception:  # noqa: BLE001 - bf16/f16 through Python floats
            n = int(np.prod(shape)) if shape else 1
            return np.array([float(attribute_value(dense[i], summary=True)) for i in range(n)]).astype(dtype).reshape(shape)
    if is_resource(attr):
        blob = read_resource_bytes(attr)
        n = int(np.prod(shape)) if shape else 1
        if blob is None or len(blob) < n * dtype.itemsize:
            raise GraphExportError(f"the weights of {str(attr)[:80]} are not in the module (elided or missing "
                                   "blob): export a module printed with its resources")
        return np.frombuffer(blob[: n * dtype.itemsize], dtype=dtype).reshape(shape).copy()
    raise GraphExportError(f"cannot read constant {str(attr)[:80]}")


def _onnx_attr_value(value: Any) -> Any:
    """A JSON-like attribute value as something onnx.helper.make_attribute accepts."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, list):
        if all(isinstance(v, bool) for v in value):
            return [int(v) for v in value]
        if all(isinstance(v, int) for v in value):
            return value
        if all(isinstance(v, (int, float)) for v in value):
            return [float(v) for v in value]
    import json

    return json.dumps(value, sort_keys=True)


class _Exporter:
    def __init__(self, fn: ir.Operation, opset: int, fused: str, locations: list[str] | None = None) -> None:
        self.fn, self.opset, self.fused, self.locations = fn, opset, fused, locations
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self.value_info: list[Any] = []
        self.names: dict[Any, str] = {}
        self.taken: set[str] = set()
        self.node_names: set[str] = set()
        self.custom_used = False
        self.counter = 0

    # --- names and values ------------------------------------------------
    def unique(self, base: str, taken: set[str]) -> str:
        base = base or "t"
        name, k = base, 1
        while name in taken:
            name = f"{base}_{k}"
            k += 1
        taken.add(name)
        return name

    def node_name(self, base: str) -> str:
        return self.unique(base, self.node_names)

    def tensor(self, base: str) -> str:
        return self.unique(base, self.taken)

    def const(self, array: np.ndarray, base: str) -> str:
        onnx = _onnx()
        name = self.tensor(base)
        self.initializers.append(onnx.numpy_helper.from_array(np.asarray(array), name))
        return name

    def i64(self, values: list[int] | int, base: str) -> str:
        return self.const(np.array(values, dtype=np.int64), base)

    def scalar_like(self, value: float, elem: ir.Type, base: str) -> str:
        dtype = _elem_dtype(elem)
        if dtype.kind in "iub":
            value = int(value)
        return self.const(np.array(value, dtype=dtype), base)

    def add(self, op_type: str, inputs: list[str], outputs: list[str], name: str, domain: str = "",
            **attrs: Any) -> list[str]:
        onnx = _onnx()
        attrs = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(onnx.helper.make_node(op_type, inputs, outputs, name=self.node_name(name), domain=domain,
                                                **attrs))
        return outputs

    def one(self, op_type: str, inputs: list[str], name: str, out: str | None = None, **attrs: Any) -> str:
        out = out or self.tensor(f"{name}_output")
        return self.add(op_type, inputs, [out], name, **attrs)[0]

    def info(self, name: str, t: ir.Type) -> None:
        onnx = _onnx()
        rt = ir.RankedTensorType(t)
        shape = [None if rt.is_dynamic_dim(i) else rt.get_dim_size(i) for i in range(rt.rank)]
        self.value_info.append(onnx.helper.make_tensor_value_info(name, _tensor_proto_type(rt.element_type), shape))

    # --- the walk -----------------------------------------------------------
    def run(self) -> Any:
        onnx = _onnx()
        fn = self.fn
        in_names, out_names = io_names(fn)
        ftype = ir.FunctionType(ir.TypeAttr(fn.attributes["function_type"]).value)
        block = fn.regions[0].blocks[0]
        inputs = []
        for arg, name, t in zip(block.arguments, in_names, ftype.inputs):
            self.names[arg] = self.unique(name, self.taken)
            inputs.append(self._value_info(self.names[arg], t))
        ret = list(block.operations)[-1].operation
        # A returned op result takes the output's name directly (first return of it only).
        direct: dict[Any, str] = {}
        for v, name in zip(ret.operands, out_names):
            owner = v.owner
            if isinstance(owner, (ir.OpView, ir.Operation)) and owner.operation.name != "ge.constant" \
                    and v not in direct:
                direct[v] = name
        self.direct = direct
        self.taken.update(direct.values())
        for i, o in enumerate(list(block.operations)[:-1]):
            loc = self.locations[i] if self.locations is not None and i < len(self.locations) else None
            self._op(o.operation, loc)
        outputs = []
        for v, name, t in zip(ret.operands, out_names, ftype.results):
            src = self.names[v]
            if src != name:
                final = self.unique(name, self.taken)
                self.one("Identity", [src], f"{name}/identity", out=final)
                src = final
            outputs.append(self._value_info(src, t))
        graph = onnx.helper.make_graph(self.nodes, ir.StringAttr(fn.attributes["sym_name"]).value, inputs, outputs,
                                       self.initializers, value_info=self.value_info)
        opsets = [onnx.helper.make_opsetid("", self.opset)]
        if self.custom_used:
            opsets.append(onnx.helper.make_opsetid(CUSTOM_DOMAIN, 1))
        model = onnx.helper.make_model(graph, opset_imports=opsets, producer_name="ge-mlir")
        model.ir_version = IR_VERSION
        return model

    def _value_info(self, name: str, t: ir.Type) -> Any:
        onnx = _onnx()
        rt = ir.RankedTensorType(t)
        shape = [None if rt.is_dynamic_dim(i) else rt.get_dim_size(i) for i in range(rt.rank)]
        return onnx.helper.make_tensor_value_info(name, _tensor_proto_type(rt.element_type), shape)

    def _result_name(self, op: ir.Operation, i: int, base: str) -> str:
        v = op.results[i]
        if v in self.direct:
            name = self.direct[v]
        else:
            name = self.tensor(f"{base}_output_{i}" if len(op.results) > 1 else f"{base}_output")
            self.info(name, v.type)
        self.names[v] = name
        return name

    def _op(self, op: ir.Operation, loc: str | None = None) -> None:
        if not op.name.startswith("ge."):
            raise GraphExportError(f"ONNX export reads ge graphs (stages ge and optimized); this module has "
                                   f"{op.name} at {op.location}")
        name, _, _ = location_info(loc if loc is not None else str(op.location))
        short = op.name[3:]
        self.counter += 1
        base = name or f"{short}_{self.counter}"
        if short == "constant":
            self.names[op.results[0]] = self.const(constant_value(op), self._const_name(op, base))
            if op.results[0] in self.direct:  # a graph output straight from a constant
                self.names[op.results[0]] = self.one("Identity", [self.names[op.results[0]]], f"{base}/identity",
                                                     out=self.direct[op.results[0]])
            return
        ins = [self.names[v] for v in op.operands]
        attrs = {op.attributes[i].name: attribute_value(op.attributes[i].attr, summary=True)
                 for i in range(len(op.attributes))}
        handler = getattr(self, f"_op_{short}", None)
        if short in _UNARY:
            self.one(_UNARY[short], ins, base, out=self._result_name(op, 0, base))
        elif short in _BINARY:
            extra = {"axis": attrs.get("axis", 0)} if short in ("gather", "gather_elements") else {}
            self.one(_BINARY[short], ins, base, out=self._result_name(op, 0, base), **extra)
        elif short in _REDUCE:
            axes = attrs.get("axes", [])
            inputs = ins + ([self.i64(axes, f"{base}/axes")] if axes else [])
            self.one(_REDUCE[short], inputs, base, out=self._result_name(op, 0, base),
                     keepdims=int(attrs.get("keepdims", True)))
        elif handler is not None and not (self.fused == "custom" and self._custom_wanted(op, short, attrs)):
            handler(op, ins, attrs, base)
        else:
            self._custom(op, ins, attrs, base)

    def _const_name(self, op: ir.Operation, base: str) -> str:
        m = re.search(r"dense_resource<\s*([^>]*)>", str(op.attributes["value"])) if is_resource(
            op.attributes["value"]) else None
        return m.group(1).strip().strip('"') if m else f"{base}/const"

    def _custom_wanted(self, op: ir.Operation, short: str, attrs: dict[str, Any]) -> bool:
        """``fused="custom"``: the ops the expansion would split up stay whole."""
        if short == "trans_data" or attrs.get("data_format", "NCHW") == "NHWC":
            return True
        if short in ("conv2d", "matmul", "gemm"):
            segs = None
            if "operandSegmentSizes" in op.attributes:
                segs = [int(x) for x in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
            names = operand_names(op.name, len(op.operands), segs)
            parts = [p for p in ("bias", "residual") if p in names and not (short == "conv2d" and p == "bias")]
            return bool(parts) or attrs.get("activation", "none") != "none"
        return short in ("rsqrt", "silu", "rms_norm")

    def _custom(self, op: ir.Operation, ins: list[str], attrs: dict[str, Any], base: str) -> None:
        self.custom_used = True
        outs = [self._result_name(op, i, base) for i in range(len(op.results))]
        segs = None
        if "operandSegmentSizes" in op.attributes:
            segs = [int(x) for x in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
            attrs.pop("operandSegmentSizes", None)
        names = operand_names(op.name, len(op.operands), segs)
        onnx_attrs = {k: _onnx_attr_value(v) for k, v in attrs.items()}
        onnx_attrs["operand_names"] = ",".join(names)
        self.add(op.name[3:], ins, outs, base, domain=CUSTOM_DOMAIN, **onnx_attrs)

    # --- activations and layouts --------------------------------------------
    def _activation(self, x: str, act: str, alpha: float | None, elem: ir.Type, base: str, out: str) -> str:
        n = f"{base}/{act}"
        if act == "relu":
            return self.one("Relu", [x], n, out=out)
        if act == "relu6":
            return self.one("Clip", [x, self.scalar_like(0.0, elem, f"{n}/min"),
                                     self.scalar_like(6.0, elem, f"{n}/max")], n, out=out)
        if act == "leaky_relu":
            return self.one("LeakyRelu", [x], n, out=out, alpha=0.01 if alpha is None else float(alpha))
        if act == "sigmoid":
            return self.one("Sigmoid", [x], n, out=out)
        if act == "tanh":
            return self.one("Tanh", [x], n, out=out)
        if act == "gelu":
            return self.one("Gelu", [x], n, out=out)
        if act == "silu":
            s = self.one("Sigmoid", [x], f"{n}/sigmoid")
            return self.one("Mul", [x, s], n, out=out)
        if act == "hard_sigmoid":
            return self.one("HardSigmoid", [x], n, out=out, alpha=0.2 if alpha is None else float(alpha), beta=0.5)
        if act == "hard_swish":
            return self.one("HardSwish", [x], n, out=out)
        raise GraphExportError(f"unknown fused activation {act!r} at {base}")

    def _epilogue(self, op: ir.Operation, y: str, adds: list[tuple[str, str]], attrs: dict[str, Any],
                  base: str, nhwc: bool = False) -> None:
        """``y`` (+ each ``(what, tensor)`` of ``adds``) (activation) -> the op's result."""
        out = self._result_name(op, 0, base)
        act = attrs.get("activation", "none")
        elem = ir.RankedTensorType(op.results[0].type).element_type
        steps: list[tuple[str, Any]] = []
        if nhwc:
            steps.append(("nhwc", None))
        steps += [("add", a) for a in adds]
        if act != "none":
            steps.append(("act", act))
        for k, (kind, what) in enumerate(steps):
            last = k == len(steps) - 1
            target = out if last else None
            if kind == "nhwc":
                y = self.one("Transpose", [y], f"{base}/to_nhwc", out=target, perm=_TO_NHWC)
            elif kind == "add":
                y = self.one("Add", [y, what[1]], f"{base}/{what[0]}", out=target)
            else:
                y = self._activation(y, what, attrs.get("activation_alpha"), elem, base,
                                     out=target or self.tensor(f"{base}/{what}_output"))

    def _nchw(self, x: str, attrs: dict[str, Any], base: str) -> tuple[str, bool]:
        if attrs.get("data_format", "NCHW") == "NHWC":
            return self.one("Transpose", [x], f"{base}/to_nchw", perm=_TO_NCHW), True
        return x, False

    def _layout_op(self, op: ir.Operation, op_type: str, ins: list[str], attrs: dict[str, Any], base: str,
                   **onnx_attrs: Any) -> None:
        x, nhwc = self._nchw(ins[0], attrs, base)
        if not nhwc:
            self.one(op_type, [x, *ins[1:]], base, out=self._result_name(op, 0, base), **onnx_attrs)
            return
        y = self.one(op_type, [x, *ins[1:]], base, **onnx_attrs)
        self.one("Transpose", [y], f"{base}/to_nhwc", out=self._result_name(op, 0, base), perm=_TO_NHWC)

    # --- ops ----------------------------------------------------------------
    def _op_conv2d(self, op, ins, attrs, base):
        segs = [int(s) for s in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])]
        x, w = ins[0], ins[1]
        bias = ins[2] if segs[2] else None
        residual = ins[2 + segs[2]] if segs[3] else None
        wt = ir.RankedTensorType(op.operands[1].type)
        x, nhwc = self._nchw(x, attrs, base)
        conv_in = [x, w]
        adds = []
        if bias is not None:
            bt = ir.RankedTensorType(op.operands[2].type)
            if bt.rank == 1 and bt.shape[0] == wt.shape[0]:
                conv_in.append(bias)
            else:
                adds.append(("bias", bias))
        if residual is not None:
            adds.append(("residual", residual))
        plain = not adds and not nhwc and attrs.get("activation", "none") == "none"
        y = self.one("Conv", conv_in, base, out=self._result_name(op, 0, base) if plain else self.tensor(f"{base}/pre_epilogue"),
                     kernel_shape=list(wt.shape[2:]), strides=attrs.get("strides", [1, 1]),
                     pads=attrs.get("pads", [0, 0, 0, 0]), dilations=attrs.get("dilations", [1, 1]),
                     group=attrs.get("groups", 1))
        if not plain:
            self._epilogue(op, y, adds, attrs, base, nhwc=nhwc)

    def _op_matmul(self, op, ins, attrs, base):
        adds = [("bias", ins[2])] if len(ins) > 2 else []
        plain = not adds and attrs.get("activation", "none") == "none"
        y = self.one("MatMul", ins[:2], base, out=self._result_name(op, 0, base) if plain else self.tensor(f"{base}/pre_epilogue"))
        if not plain:
            self._epilogue(op, y, adds, attrs, base)

    def _op_gemm(self, op, ins, attrs, base):
        plain = attrs.get("activation", "none") == "none"
        y = self.one("Gemm", ins, base, out=self._result_name(op, 0, base) if plain else self.tensor(f"{base}/pre_epilogue"),
                     alpha=float(attrs.get("alpha", 1.0)), beta=float(attrs.get("beta", 1.0)),
                     transA=int(attrs.get("trans_a", False)), transB=int(attrs.get("trans_b", False)))
        if not plain:
            self._epilogue(op, y, [], attrs, base)

    def _op_conv_transpose2d(self, op, ins, attrs, base):
        wt = ir.RankedTensorType(op.operands[1].type)
        self._layout_op(op, "ConvTranspose", ins, attrs, base, kernel_shape=list(wt.shape[2:]),
                        strides=attrs.get("strides", [1, 1]), pads=attrs.get("pads", [0, 0, 0, 0]),
                        dilations=attrs.get("dilations", [1, 1]), output_padding=attrs.get("output_padding"),
                        group=attrs.get("groups", 1))

    # The gradient ops have no ONNX operator: each is exported as its exact expansion, the one
    # ge-decompose-gradient-ops builds (its docstring says why each is exact).
    def _op_conv2d_backprop_input(self, op, ins, attrs, base):
        k = list(ir.RankedTensorType(op.operands[0].type).shape[2:])
        out = list(ir.RankedTensorType(op.operands[1].type).shape[2:])
        size, s, p = attrs["input_size"], attrs.get("strides", [1, 1]), attrs.get("pads", [0, 0, 0, 0])
        d = attrs.get("dilations", [1, 1])
        ends, out_pad = zip(*(end_adjustment(size[2 + i], out[i], k[i], s[i], d[i], p[i]) for i in range(2)))
        self.one("ConvTranspose", [ins[1], ins[0]], base, out=self._result_name(op, 0, base), kernel_shape=k,
                 strides=s, pads=[p[0], p[1], ends[0], ends[1]], dilations=d, output_padding=list(out_pad),
                 group=attrs.get("groups", 1))

    def _op_conv2d_backprop_filter(self, op, ins, attrs, base):
        n, cin, h, w = ir.RankedTensorType(op.operands[0].type).shape
        out = list(ir.RankedTensorType(op.operands[1].type).shape[2:])
        cout, cig, kh, kw = attrs["filter_size"]
        s, p, d, g = (attrs.get("strides", [1, 1]), attrs.get("pads", [0, 0, 0, 0]),
                      attrs.get("dilations", [1, 1]), attrs.get("groups", 1))
        x5 = self.one("Reshape", [ins[0], self.i64([n, g, cig, h, w], f"{base}/x5")], f"{base}/x5")
        xt = self.one("Transpose", [x5], f"{base}/xt", perm=[2, 1, 0, 3, 4])
        xr = self.one("Reshape", [xt, self.i64([cig, g * n, h, w], f"{base}/xr")], f"{base}/xr")
        dyt = self.one("Transpose", [ins[1]], f"{base}/dyt", perm=[1, 0, 2, 3])
        ends = [max(0, end_adjustment((h, w)[i], out[i], (kh, kw)[i], s[i], d[i], p[i])[0]) for i in range(2)]
        y = self.one("Conv", [xr, dyt], f"{base}/conv", kernel_shape=out, strides=d, dilations=s,
                     pads=[p[0], p[1], ends[0], ends[1]], group=g)
        yt = self.one("Transpose", [y], f"{base}/yt", perm=[1, 0, 2, 3])
        self.one("Slice", [yt, self.i64([0, 0], f"{base}/starts"), self.i64([kh, kw], f"{base}/ends"),
                           self.i64([2, 3], f"{base}/axes")], base, out=self._result_name(op, 0, base))

    def _op_avg_pool_grad(self, op, ins, attrs, base):
        dyt = ir.RankedTensorType(op.operands[0].type)
        n, c, oh, ow = dyt.shape
        size, k = attrs["input_size"], attrs["kernel_shape"]
        s, p = attrs.get("strides", [1, 1]), attrs.get("pads", [0, 0, 0, 0])
        include = bool(attrs.get("count_include_pad", False))
        dtype = _elem_dtype(dyt.element_type)
        divisor = np.outer(window_divisors(oh, size[2], k[0], s[0], p[0], p[2], include),
                           window_divisors(ow, size[3], k[1], s[1], p[1], p[3], include)).reshape(1, 1, oh, ow)
        flat = self.one("Reshape", [ins[0], self.i64([n * c, 1, oh, ow], f"{base}/flat")], f"{base}/flat")
        scaled = self.one("Div", [flat, self.const(divisor.astype(dtype), f"{base}/divisor")], f"{base}/scaled")
        ends, out_pad = zip(*(end_adjustment(size[2 + i], (oh, ow)[i], k[i], s[i], 1, p[i]) for i in range(2)))
        dx = self.one("ConvTranspose", [scaled, self.const(np.ones((1, 1, k[0], k[1]), dtype), f"{base}/window")],
                      f"{base}/spread", kernel_shape=k, strides=s, pads=[p[0], p[1], ends[0], ends[1]],
                      output_padding=list(out_pad))
        self.one("Reshape", [dx, self.i64(list(size), f"{base}/shape")], base, out=self._result_name(op, 0, base))

    def _pool(self, op, op_type, ins, attrs, base, **extra):
        dil = attrs.get("dilations", [1, 1])
        self._layout_op(op, op_type, ins, attrs, base, kernel_shape=attrs["kernel_shape"],
                        strides=attrs.get("strides", [1, 1]), pads=attrs.get("pads", [0, 0, 0, 0]),
                        dilations=None if dil == [1, 1] else dil, ceil_mode=int(attrs.get("ceil_mode", False)),
                        **extra)

    def _op_max_pool2d(self, op, ins, attrs, base):
        self._pool(op, "MaxPool", ins, attrs, base)

    def _op_avg_pool2d(self, op, ins, attrs, base):
        self._pool(op, "AveragePool", ins, attrs, base, count_include_pad=int(attrs.get("count_include_pad", False)))

    def _op_global_avg_pool(self, op, ins, attrs, base):
        self._layout_op(op, "GlobalAveragePool", ins, attrs, base)

    def _op_global_max_pool(self, op, ins, attrs, base):
        self._layout_op(op, "GlobalMaxPool", ins, attrs, base)

    def _op_batch_norm(self, op, ins, attrs, base):
        self._layout_op(op, "BatchNormalization", ins, attrs, base, epsilon=float(attrs.get("epsilon", 1e-5)))

    def _op_instance_norm(self, op, ins, attrs, base):
        self.one("InstanceNormalization", ins, base, out=self._result_name(op, 0, base),
                 epsilon=float(attrs.get("epsilon", 1e-5)))

    def _op_layer_norm(self, op, ins, attrs, base):
        self.one("LayerNormalization", ins, base, out=self._result_name(op, 0, base), axis=attrs.get("axis", -1),
                 epsilon=float(attrs.get("epsilon", 1e-5)))

    def _op_rms_norm(self, op, ins, attrs, base):
        rank = ir.RankedTensorType(op.operands[0].type).rank
        elem = ir.RankedTensorType(op.operands[0].type).element_type
        axis = attrs.get("axis", -1) % rank
        x = ins[0]
        sq = self.one("Mul", [x, x], f"{base}/square")
        ms = self.one("ReduceMean", [sq, self.i64(list(range(axis, rank)), f"{base}/axes")], f"{base}/mean",
                      keepdims=1)
        eps = self.one("Add", [ms, self.scalar_like(attrs.get("epsilon", 1e-6), elem, f"{base}/epsilon")],
                       f"{base}/add_epsilon")
        rms = self.one("Sqrt", [eps], f"{base}/sqrt")
        y = self.one("Div", [x, rms], f"{base}/normalize")
        self.one("Mul", [y, ins[1]], f"{base}/scale", out=self._result_name(op, 0, base))

    def _op_rsqrt(self, op, ins, attrs, base):
        s = self.one("Sqrt", ins, f"{base}/sqrt")
        self.one("Reciprocal", [s], base, out=self._result_name(op, 0, base))

    def _op_silu(self, op, ins, attrs, base):
        s = self.one("Sigmoid", ins, f"{base}/sigmoid")
        self.one("Mul", [ins[0], s], base, out=self._result_name(op, 0, base))

    def _op_gelu(self, op, ins, attrs, base):
        self.one("Gelu", ins, base, out=self._result_name(op, 0, base),
                 approximate="tanh" if attrs.get("tanh_approx", False) else "none")

    def _op_leaky_relu(self, op, ins, attrs, base):
        self.one("LeakyRelu", ins, base, out=self._result_name(op, 0, base), alpha=float(attrs.get("alpha", 0.01)))

    def _op_hard_sigmoid(self, op, ins, attrs, base):
        self.one("HardSigmoid", ins, base, out=self._result_name(op, 0, base), alpha=float(attrs.get("alpha", 0.2)),
                 beta=float(attrs.get("beta", 0.5)))

    def _op_clip(self, op, ins, attrs, base):
        elem = ir.RankedTensorType(op.operands[0].type).element_type
        lo = self.scalar_like(attrs["min"], elem, f"{base}/min") if "min" in attrs else ""
        hi = self.scalar_like(attrs["max"], elem, f"{base}/max") if "max" in attrs else ""
        inputs = [ins[0], lo, hi]
        while inputs and inputs[-1] == "":
            inputs.pop()
        self.one("Clip", inputs, base, out=self._result_name(op, 0, base))

    def _op_cumsum(self, op, ins, attrs, base):
        self.one("CumSum", [ins[0], self.i64(attrs["axis"], f"{base}/axis")], base,
                 out=self._result_name(op, 0, base), exclusive=int(attrs.get("exclusive", False)),
                 reverse=int(attrs.get("reverse", False)))

    def _op_bit_shift(self, op, ins, attrs, base):
        self.one("BitShift", ins, base, out=self._result_name(op, 0, base),
                 direction="RIGHT" if attrs.get("right", False) else "LEFT")

    def _op_cumprod(self, op, ins, attrs, base):
        # ONNX CumProd needs opset 26; at the export opset it is a log-depth scan: y *= y shifted by
        # 1, 2, 4, ... along the axis (Pad with 1 in front, Slice back to size). Exclusive shifts the
        # result by one more; reverse flips before and after (Slice with step -1).
        rt = ir.RankedTensorType(op.results[0].type)
        rank, elem = rt.rank, rt.element_type
        axis = attrs["axis"] % rank
        n = rt.get_dim_size(axis)
        one = self.scalar_like(1, elem, f"{base}/one")
        flip = [self.i64([-1], f"{base}/fs"), self.i64([-(2 ** 62)], f"{base}/fe"), self.i64([axis], f"{base}/fa"),
                self.i64([-1], f"{base}/fst")]

        def shifted(y: str, k: int, tag: str) -> str:
            pads = [0] * (2 * rank)
            pads[axis] = k
            padded = self.one("Pad", [y, self.i64(pads, f"{base}/{tag}_pads"), one], f"{base}/{tag}_pad")
            return self.one("Slice", [padded, self.i64([0], f"{base}/{tag}_s"), self.i64([n], f"{base}/{tag}_e"),
                                      self.i64([axis], f"{base}/{tag}_a")], f"{base}/{tag}_slice")

        y = ins[0]
        if attrs.get("reverse", False):
            y = self.one("Slice", [y, *flip], f"{base}/flip_in")
        k = 1
        while k < n:
            y = self.one("Mul", [y, shifted(y, k, f"k{k}")], f"{base}/mul{k}")
            k *= 2
        if attrs.get("exclusive", False):
            y = shifted(y, 1, "excl")
        if attrs.get("reverse", False):
            y = self.one("Slice", [y, *flip], f"{base}/flip_out")
        self.one("Identity", [y], base, out=self._result_name(op, 0, base))

    def _op_softmax(self, op, ins, attrs, base):
        self.one("Softmax", ins, base, out=self._result_name(op, 0, base), axis=attrs.get("axis", -1))

    def _op_log_softmax(self, op, ins, attrs, base):
        self.one("LogSoftmax", ins, base, out=self._result_name(op, 0, base), axis=attrs.get("axis", -1))

    def _op_cast(self, op, ins, attrs, base):
        to = _tensor_proto_type(ir.RankedTensorType(op.results[0].type).element_type)
        self.one("Cast", ins, base, out=self._result_name(op, 0, base), to=to)

    def _op_bitcast(self, op, ins, attrs, base):
        if self.opset < 26:  # ONNX has BitCast from opset 26 on; nothing standard reinterprets bits before
            self._custom(op, ins, attrs, base)
            return
        to = _tensor_proto_type(ir.RankedTensorType(op.results[0].type).element_type)
        self.one("BitCast", ins, base, out=self._result_name(op, 0, base), to=to)

    def _op_mod(self, op, ins, attrs, base):
        is_float = _elem_dtype(ir.RankedTensorType(op.operands[0].type).element_type).kind == "f"
        self.one("Mod", ins, base, out=self._result_name(op, 0, base),
                 fmod=int(bool(attrs.get("fmod", False)) or is_float))

    def _arg(self, op, op_type, ins, attrs, base):
        self.one(op_type, ins, base, out=self._result_name(op, 0, base), axis=attrs["axis"],
                 keepdims=int(attrs.get("keepdims", True)), select_last_index=int(attrs.get("select_last_index", False)))

    def _op_argmax(self, op, ins, attrs, base):
        self._arg(op, "ArgMax", ins, attrs, base)

    def _op_argmin(self, op, ins, attrs, base):
        self._arg(op, "ArgMin", ins, attrs, base)

    def _op_reshape(self, op, ins, attrs, base):
        shape = list(ir.RankedTensorType(op.results[0].type).shape)
        self.one("Reshape", [ins[0], self.i64(shape, f"{base}/shape")], base, out=self._result_name(op, 0, base),
                 allowzero=1 if 0 in shape else None)

    def _op_transpose(self, op, ins, attrs, base):
        self.one("Transpose", ins, base, out=self._result_name(op, 0, base), perm=attrs["perm"])

    def _op_concat(self, op, ins, attrs, base):
        self.one("Concat", ins, base, out=self._result_name(op, 0, base), axis=attrs["axis"])

    def _op_split(self, op, ins, attrs, base):
        outs = [self._result_name(op, i, base) for i in range(len(op.results))]
        self.add("Split", [ins[0], self.i64(attrs["split_sizes"], f"{base}/split")], outs, base, axis=attrs["axis"])

    def _op_slice(self, op, ins, attrs, base):
        inputs = [ins[0], self.i64(attrs["starts"], f"{base}/starts"), self.i64(attrs["ends"], f"{base}/ends")]
        if attrs.get("axes") or attrs.get("steps"):
            rank = ir.RankedTensorType(op.operands[0].type).rank
            axes = attrs.get("axes") or list(range(len(attrs["starts"])))
            inputs.append(self.i64(axes, f"{base}/axes"))
            if attrs.get("steps"):
                inputs.append(self.i64(attrs["steps"], f"{base}/steps"))
            del rank
        self.one("Slice", inputs, base, out=self._result_name(op, 0, base))

    def _op_scatter_elements(self, op, ins, attrs, base):
        red = attrs.get("reduction", "none")
        self.one("ScatterElements", ins, base, out=self._result_name(op, 0, base), axis=attrs.get("axis", 0),
                 reduction=None if red == "none" else red)

    def _op_expand(self, op, ins, attrs, base):
        shape = attrs.get("shape") or list(ir.RankedTensorType(op.results[0].type).shape)
        self.one("Expand", [ins[0], self.i64(shape, f"{base}/shape")], base, out=self._result_name(op, 0, base))

    def _op_tile(self, op, ins, attrs, base):
        self.one("Tile", [ins[0], self.i64(attrs["repeats"], f"{base}/repeats")], base,
                 out=self._result_name(op, 0, base))

    def _op_pad(self, op, ins, attrs, base):
        mode = attrs.get("mode", "constant")
        inputs = [ins[0], self.i64(attrs["pads"], f"{base}/pads")]
        if mode == "constant":
            elem = ir.RankedTensorType(op.operands[0].type).element_type
            inputs.append(self.scalar_like(attrs.get("value", 0.0), elem, f"{base}/value"))
        self.one("Pad", inputs, base, out=self._result_name(op, 0, base), mode=mode)

    def _op_flatten(self, op, ins, attrs, base):
        self.one("Flatten", ins, base, out=self._result_name(op, 0, base), axis=attrs.get("axis", 1))

    def _op_squeeze(self, op, ins, attrs, base):
        axes = attrs.get("axes", [])
        self.one("Squeeze", ins + ([self.i64(axes, f"{base}/axes")] if axes else []), base,
                 out=self._result_name(op, 0, base))

    def _op_unsqueeze(self, op, ins, attrs, base):
        self.one("Unsqueeze", [ins[0], self.i64(attrs["axes"], f"{base}/axes")], base,
                 out=self._result_name(op, 0, base))

    def _op_shape(self, op, ins, attrs, base):
        self.one("Shape", ins, base, out=self._result_name(op, 0, base), start=attrs.get("start", 0),
                 end=attrs.get("end"))

    def _op_one_hot(self, op, ins, attrs, base):
        elem = ir.RankedTensorType(op.results[0].type).element_type
        dtype = _elem_dtype(elem)
        values = np.array([attrs.get("off_value", 0.0), attrs.get("on_value", 1.0)]).astype(dtype)
        self.one("OneHot", [ins[0], self.i64([attrs["depth"]], f"{base}/depth"), self.const(values, f"{base}/values")],
                 base, out=self._result_name(op, 0, base), axis=attrs.get("axis", -1))

    def _op_dynamic_reshape(self, op, ins, attrs, base):
        self.one("Reshape", ins, base, out=self._result_name(op, 0, base), allowzero=int(attrs.get("allowzero", False)))

    def _op_fill(self, op, ins, attrs, base):
        # Expand of the one-element value to the shape: ConstantOfShape's result, for any value.
        self.one("Expand", ins, base, out=self._result_name(op, 0, base))

    def _op_range(self, op, ins, attrs, base):
        self.one("Range", ins, base, out=self._result_name(op, 0, base))

    def _op_top_k(self, op, ins, attrs, base):
        outs = [self._result_name(op, i, base) for i in range(2)]
        self.add("TopK", [ins[0], self.i64([attrs["k"]], f"{base}/k")], outs, base, axis=attrs.get("axis", -1),
                 largest=int(attrs.get("largest", True)), sorted=int(attrs.get("sorted", True)))

    def _op_resize(self, op, ins, attrs, base):
        scales = attrs.get("scales")
        if scales:
            inputs = [ins[0], "", self.const(np.array(scales, dtype=np.float32), f"{base}/scales")]
        else:
            sizes = list(ir.RankedTensorType(op.results[0].type).shape)
            inputs = [ins[0], "", "", self.i64(sizes, f"{base}/sizes")]
        self.one("Resize", inputs, base, out=self._result_name(op, 0, base), mode=attrs.get("mode", "nearest"),
                 coordinate_transformation_mode=attrs.get("coordinate_transformation_mode", "half_pixel"),
                 nearest_mode=attrs.get("nearest_mode", "round_prefer_floor"),
                 cubic_coeff_a=float(attrs.get("cubic_coeff_a", -0.75)))

    def _op_trans_data(self, op, ins, attrs, base):
        src, dst = attrs.get("src_format", "ND"), attrs.get("dst_format", "ND")
        xt, rt = ir.RankedTensorType(op.operands[0].type), ir.RankedTensorType(op.results[0].type)
        et = xt.element_type
        c0 = 32 // max(1, _elem_dtype(et).itemsize)
        shape, out = list(xt.shape), self._result_name(op, 0, base)
        plain = ("NCHW", "NHWC", "HWCN")
        x = ins[0]
        if src == dst:
            self.one("Identity", [x], base, out=out)
        elif src in plain and dst in plain:
            self.one("Transpose", [x], base, out=out, perm=[src.index(ch) for ch in dst])
        elif src in plain and dst == "NC1HWC0":
            n, c, h, w = (shape[src.index(ch)] for ch in "NCHW")
            c1 = -(-c // c0)
            y = x if src == "NCHW" else self.one("Transpose", [x], f"{base}/to_nchw", perm=[src.index(ch) for ch in "NCHW"])
            if c1 * c0 != c:
                y = self.one("Pad", [y, self.i64([0, 0, 0, 0, 0, c1 * c0 - c, 0, 0], f"{base}/pads")], f"{base}/pad")
            y = self.one("Reshape", [y, self.i64([n, c1, c0, h, w], f"{base}/shape")], f"{base}/reshape")
            self.one("Transpose", [y], base, out=out, perm=[0, 1, 3, 4, 2])
        elif src == "NC1HWC0" and dst in plain:
            n, c1, h, w, _ = shape
            c = rt.shape[dst.index("C")]
            y = self.one("Transpose", [x], f"{base}/transpose", perm=[0, 1, 4, 2, 3])
            y = self.one("Reshape", [y, self.i64([n, c1 * c0, h, w], f"{base}/shape")], f"{base}/reshape",
                         out=out if (c == c1 * c0 and dst == "NCHW") else None)
            if c != c1 * c0:
                y = self.one("Slice", [y, self.i64([0], f"{base}/starts"), self.i64([c], f"{base}/ends"),
                                       self.i64([1], f"{base}/axes")], f"{base}/slice",
                             out=out if dst == "NCHW" else None)
            if dst != "NCHW":
                self.one("Transpose", [y], base, out=out, perm=["NCHW".index(ch) for ch in dst])
        elif src == "ND" and dst == "FRACTAL_NZ":
            b, (m, nn) = shape[:-2], shape[-2:]
            m1, n1, k = -(-m // 16), -(-nn // c0), len(shape) - 2
            y = x
            if (m1 * 16, n1 * c0) != (m, nn):
                y = self.one("Pad", [y, self.i64([0] * (k + 2) + [0] * k + [m1 * 16 - m, n1 * c0 - nn],
                                                 f"{base}/pads")], f"{base}/pad")
            y = self.one("Reshape", [y, self.i64([*b, m1, 16, n1, c0], f"{base}/shape")], f"{base}/reshape")
            self.one("Transpose", [y], base, out=out, perm=[*range(k), k + 2, k, k + 1, k + 3])
        elif src == "FRACTAL_NZ" and dst == "ND":
            k = len(shape) - 4
            b, n1, m1 = shape[:k], shape[k], shape[k + 1]
            m, nn = rt.shape[-2:]
            y = self.one("Transpose", [x], f"{base}/transpose", perm=[*range(k), k + 1, k + 2, k, k + 3])
            full = (m, nn) == (m1 * 16, n1 * c0)
            y = self.one("Reshape", [y, self.i64([*b, m1 * 16, n1 * c0], f"{base}/shape")], f"{base}/reshape",
                         out=out if full else None)
            if not full:
                self.one("Slice", [y, self.i64([0, 0], f"{base}/starts"), self.i64([m, nn], f"{base}/ends"),
                                   self.i64([k, k + 1], f"{base}/axes")], f"{base}/slice", out=out)
        else:
            self._custom(op, ins, attrs, base)


def to_onnx(module: ir.Module | ir.Operation, *, fused: str = "expand", opset: int = DEFAULT_OPSET,
            func_name: str | None = None, doc: str | None = None, locations: list[str] | None = None) -> Any:
    """The ge function of ``module`` (``func_name``, else the only public one) as an
    ``onnx.ModelProto`` (``fused``: ``expand`` or ``custom``, see the module docstring).

    Raises GraphExportError for a module that is not a ge graph (a lowered stage) or holds
    weights that were elided from its text. ``locations``: the op locations of the module
    this one was printed from (:func:`~ge_mlir.graph.model.op_locations`), naming the nodes.
    """
    if fused not in FUSED_MODES:
        raise GraphExportError(f"fused must be one of {', '.join(FUSED_MODES)}, got {fused!r}")
    if opset < 20:
        raise GraphExportError(f"opset {opset} is too old: the export uses Gelu (opset 20)")
    top = module.operation if isinstance(module, ir.Module) else module
    try:
        fn = _pick(top, func_name)
    except LookupError as e:
        raise GraphExportError(str(e)) from None
    from .model import function_locations

    fn_locs = function_locations(top, locations).get(ir.StringAttr(fn.attributes["sym_name"]).value)
    model = _Exporter(fn, opset, fused, fn_locs).run()
    if doc:
        model.doc_string = doc
    return model


def _pick(top: ir.Operation, func_name: str | None) -> ir.Operation:
    """The function named ``func_name``, else the only public one (as ``compile`` picks it)."""
    fns = [o.operation for o in top.regions[0].blocks[0].operations if o.operation.name == "func.func"
           and len(o.operation.regions[0].blocks)]
    names = [ir.StringAttr(f.attributes["sym_name"]).value for f in fns]
    if func_name is not None:
        if func_name not in names:
            raise LookupError(f"no function @{func_name} in the module (functions: {', '.join(names) or 'none'})")
        return fns[names.index(func_name)]
    public = [f for f in fns if "sym_visibility" not in f.attributes
              or ir.StringAttr(f.attributes["sym_visibility"]).value == "public"]
    if len(public) != 1:
        raise LookupError(f"the module has {len(public)} public functions; name the one to export (func_name)")
    return public[0]


#: The ge ops :func:`to_onnx` maps to standard ONNX ops (every other ge op becomes a ``ge``-domain node).
SUPPORTED_OPS: frozenset[str] = frozenset(
    {f"ge.{k}" for k in (*_UNARY, *_BINARY, *_REDUCE)}
    | {"ge." + m[len("_op_"):] for m in dir(_Exporter) if m.startswith("_op_")}
    | {"ge.constant"}
)
