"""One FX graph of AOTAutograd -> a boxed callable running it on the CPU target."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["compile_graph", "GraphRunner"]

#: (op, node) pairs already warned about: a graph recompiled for the same reason warns once.
_WARNED: set[tuple[str, str]] = set()


def _symbolic(example_inputs: Sequence[Any]) -> bool:
    import torch

    for x in example_inputs:
        if isinstance(x, torch.SymInt):
            return True
        if isinstance(x, torch.Tensor) and any(not isinstance(d, int) for d in x.shape):
            return True
    return False


class GraphRunner:
    """Runs a compiled ge graph on torch tensors: inputs shared with numpy (no copy), outputs
    wrapped as tensors (no copy), the graph's non-tensor outputs (None, sizes) put back in place."""

    def __init__(self, compiled: Any, fixed_outputs: dict[int, Any], n_outputs: int) -> None:
        self.compiled = compiled
        self.fixed_outputs = fixed_outputs
        self.n_outputs = n_outputs

    def __call__(self, args: list[Any]) -> list[Any]:
        import torch

        arrays = [a.detach().numpy() if isinstance(a, torch.Tensor) else a for a in args]
        args.clear()  # boxed calling convention: the caller's list is ours to free early
        outs = iter(self.compiled(*arrays))
        fixed = self.fixed_outputs
        return [fixed[i] if i in fixed else torch.from_numpy(next(outs)) for i in range(self.n_outputs)]


def _output_count(gm: Any) -> int:
    import torch.utils._pytree as pytree

    out = next(n for n in gm.graph.nodes if n.op == "output")
    return len(pytree.tree_leaves(out.args[0], is_leaf=lambda x: x is None))


def compile_graph(gm: Any, example_inputs: Sequence[Any], opts: Any, kind: str) -> Callable[..., Any]:
    """A boxed callable for one AOTAutograd graph (``kind``: forward, backward, inference)."""
    from functorch.compile import make_boxed_func

    if _symbolic(example_inputs):
        return make_boxed_func(_Specializing(gm, opts, kind))
    runner = _compile_static(gm, opts, kind)
    if runner is None:
        return make_boxed_func(gm.forward)
    runner.__dict__["_boxed_call"] = True
    return runner


def _compile_static(gm: Any, opts: Any, kind: str) -> GraphRunner | None:
    """The graph compiled, or None (eager) when it has an op ge-mlir cannot convert."""
    import ge_mlir
    from ..api import Context
    from ..frontend.fx import UnsupportedFxOpsError, import_fx

    with Context():
        try:
            module, nones = import_fx(gm, func_name=kind)
        except UnsupportedFxOpsError as e:
            if opts.strict:
                raise
            new = [(op, node, why) for op, node, why in e.problems if (op, node) not in _WARNED]
            _WARNED.update((op, node) for op, node, _ in new)
            if new:
                listed = "; ".join(f"{op} at node '{node}' ({why})" for op, node, why in new)
                warnings.warn(f"ge_mlir: the {kind} graph runs in eager: {listed}", RuntimeWarning, stacklevel=4)
            return None
        compiled = ge_mlir.compile(module, options=dict(opts.compile_options), progress=False, cache=opts.cache)
    return GraphRunner(compiled, nones, _output_count(gm))


class _Specializing:
    """A graph with symbolic sizes, compiled per concrete shape signature on first call: the
    graph is re-traced with the call's tensors (every size then static) and compiled."""

    def __init__(self, gm: Any, opts: Any, kind: str) -> None:
        self.gm, self.opts, self.kind = gm, opts, kind
        self.compiled: dict[tuple[Any, ...], Callable[[list[Any]], list[Any]]] = {}

    def __call__(self, *args: Any) -> list[Any]:
        import torch

        key = tuple((tuple(a.shape), a.dtype) if isinstance(a, torch.Tensor) else ("int", int(a)) for a in args)
        fn = self.compiled.get(key)
        if fn is None:
            fn = self.compiled[key] = self._specialize(list(args))
        return fn(list(args))

    def _specialize(self, args: list[Any]) -> Callable[[list[Any]], list[Any]]:
        from torch.fx.experimental.proxy_tensor import make_fx

        tensor_positions = [i for i, a in enumerate(args) if hasattr(a, "shape")]

        def with_sizes(*tensors: Any) -> Any:
            # the call's sizes (the graph's SymInt inputs) become constants of the trace
            full = list(args)
            for i, t in zip(tensor_positions, tensors):
                full[i] = t
            return self.gm(*full)

        static = make_fx(with_sizes)(*[args[i] for i in tensor_positions])
        runner = _compile_static(static, self.opts, self.kind)
        if runner is None:
            return lambda a: self.gm(*a)

        def run(a: list[Any]) -> list[Any]:
            return runner([a[i] for i in tensor_positions])

        return run
