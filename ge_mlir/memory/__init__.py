"""Static memory planning: buffers with live ranges get offsets in one arena.

The algorithms here see only :class:`Buffer` records (size, live range), never IR, so
the same planner serves every target: a pass (``ge-plan-memory``) turns a function's
buffers into records, plans them, and rewrites the IR with the offsets.
"""
