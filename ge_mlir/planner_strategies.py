"""The memory planner's strategy names, below both the configuration that checks them and the
planner that runs them (one source for both; a loaded model reads neither)."""

#: The planner's strategies by name (ge_mlir.memory.planner).
PLANNER_STRATEGIES: tuple[str, ...] = ("greedy-by-size", "greedy-by-breadth", "best-fit", "exact")
#: Every strategy, keeping the smallest arena.
AGGRESSIVE = "aggressive"
