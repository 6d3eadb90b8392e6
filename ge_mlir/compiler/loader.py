"""Loading a model: any form ``ge_mlir.compile`` takes -> a verified ge module."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from collections.abc import Sequence

from mlir import ir

from ..api import parse_module
from ..errors import CompileError
from ..config import CompileOptions

__all__ = ["load_graph"]


def load_graph(model: Any, options: CompileOptions, example_inputs: Sequence[Any] | None = None,
               config: Any = None) -> ir.Module:
    """Any supported model form -> a verified ge module in the current context (``config``: the
    loaded config, whose ``constantFolding`` precision also rules the ONNX importer's folding)."""
    if isinstance(model, ir.Module):
        return parse_module(model.operation.get_asm(enable_debug_info=True), source_name="<module>")
    if isinstance(model, str) and ("func.func" in model or model.lstrip().startswith("module")):
        return parse_module(model)
    if isinstance(model, (str, Path)):
        path = Path(model)
        if not path.is_file():
            raise CompileError(f"no such model file: {path}")
        if path.suffix == ".mlir":
            from ..api import parse_file

            return parse_file(path)
    if type(model).__module__.startswith("torch") or hasattr(model, "forward"):
        if example_inputs is None:
            raise CompileError("compiling a torch module needs example_inputs (a tuple of tensors)")
        from ..frontend.torch import import_module

        return import_module(model, example_inputs, input_shapes=options.input_shapes)
    try:
        import onnx
    except ImportError:  # pragma: no cover - onnx is a dependency
        onnx = None
    if isinstance(model, (str, Path, bytes)) or (onnx is not None and isinstance(model, onnx.ModelProto)):
        from ..frontend.onnx import import_onnx

        fold_in_f32 = config is not None and config.constant_folding.fp_mode == "FP32"
        return import_onnx(model, input_shapes=options.input_shapes, constant_inputs=options.constant_inputs,
                           fold_in_f32=fold_in_f32)
    raise CompileError(
        f"cannot compile a {type(model).__name__}: expected an ONNX path/bytes/ModelProto, "
        "a .mlir path, ge IR text, an mlir.ir.Module or a torch.nn.Module"
    )
