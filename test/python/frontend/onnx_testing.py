"""Helpers shared by the ONNX converter tests."""

from __future__ import annotations

from mlir import ir


def main_func(module: ir.Module):
    (fn,) = [op for op in module.body.operations if op.operation.name == "func.func"]
    return fn


def result_types(module: ir.Module) -> list[str]:
    return [str(t) for t in main_func(module).type.results]


def ge_ops(module: ir.Module) -> list[ir.Operation]:
    """The ge ops of the function (keep ``module`` alive while using them)."""
    return [op.operation for op in main_func(module).regions[0].blocks[0].operations if op.operation.name.startswith("ge.")]
