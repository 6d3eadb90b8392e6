"""TensorFlow front end through tf2onnx (an optional extra).

    import_saved_model("model_dir")              # a SavedModel signature
    import_function(tf_function, input_signature) # a tf.function
    import_graph_def(graph_def, ["x:0"], ["y:0"]) # a frozen GraphDef

Each converts with tf2onnx to ONNX, then imports with
:func:`ge_mlir.frontend.onnx.import_onnx`. TensorFlow and tf2onnx are not
dependencies of ge-mlir; a missing one raises TensorFlowImportError saying so.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from mlir import ir

from ..errors import ImportError_
from .onnx import import_onnx

DEFAULT_OPSET = 17


class TensorFlowImportError(ImportError_):
    """TensorFlow/tf2onnx are missing or the conversion failed."""


def _modules():
    try:
        import tensorflow as tf
        import tf2onnx
    except ImportError as e:
        raise TensorFlowImportError(
            f"the TensorFlow front end needs tensorflow and tf2onnx ({e}); "
            "pip install tensorflow-cpu tf2onnx"
        ) from e
    return tf, tf2onnx


def _convert(fn, *args, **kwargs):
    try:
        proto, _ = fn(*args, **kwargs)
    except TensorFlowImportError:
        raise
    except Exception as e:
        raise TensorFlowImportError(f"tf2onnx conversion failed: {type(e).__name__}: {e}") from e
    return proto


def import_function(
    function: Any,
    input_signature: Sequence[Any],
    *,
    opset: int = DEFAULT_OPSET,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    context: ir.Context | None = None,
) -> ir.Module:
    """Imports a ``tf.function`` traced with ``input_signature`` (tf.TensorSpec list)."""
    _, tf2onnx = _modules()
    proto = _convert(tf2onnx.convert.from_function, function, input_signature=input_signature, opset=opset)
    return import_onnx(proto, input_shapes=input_shapes, context=context)


def import_saved_model(
    path: str,
    *,
    signature: str = "serving_default",
    opset: int = DEFAULT_OPSET,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    context: ir.Context | None = None,
) -> ir.Module:
    """Imports one signature of a SavedModel directory."""
    tf, tf2onnx = _modules()
    try:
        loaded = tf.saved_model.load(path)
        fn = loaded.signatures[signature]
    except KeyError:
        raise TensorFlowImportError(f"SavedModel {path} has no signature {signature!r}") from None
    except Exception as e:
        raise TensorFlowImportError(f"cannot load SavedModel {path}: {e}") from e
    _, kwargs = fn.structured_input_signature
    specs = [tf.TensorSpec(s.shape, s.dtype, name=name) for name, s in sorted(kwargs.items())]

    @tf.function(input_signature=specs)
    def call(*args):
        return fn(**{s.name: a for s, a in zip(specs, args)})

    proto = _convert(tf2onnx.convert.from_function, call, input_signature=specs, opset=opset)
    return import_onnx(proto, input_shapes=input_shapes, context=context)


def import_graph_def(
    graph_def: Any,
    input_names: Sequence[str],
    output_names: Sequence[str],
    *,
    opset: int = DEFAULT_OPSET,
    input_shapes: Mapping[str, Sequence[int]] | None = None,
    context: ir.Context | None = None,
) -> ir.Module:
    """Imports a frozen GraphDef (tensor names like ``"x:0"``)."""
    _, tf2onnx = _modules()
    proto = _convert(
        tf2onnx.convert.from_graph_def, graph_def, input_names=list(input_names), output_names=list(output_names), opset=opset
    )
    return import_onnx(proto, input_shapes=input_shapes, context=context)
