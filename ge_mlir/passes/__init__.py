"""The ge pass registry and pipeline construction.

A ge pass is a Python class registered with :func:`register_pass`; it has a
name ``ge-<verb>-<object>``, a summary, typed options, a pipeline stage, a
priority and the targets it applies to. Pipelines mix ge passes and upstream
MLIR passes by name::

    ge_mlir.run_pipeline(module, "builtin.module(ge-verify-graph, ge-canonicalize{cse=false}, func.func(cse))")
"""

from .fusion import FusionPass, FusionPattern, fusion_pass
from .pipeline import PipelineElement, build_pass_manager, parse_pipeline
from .registry import (
    STAGES,
    Option,
    Pass,
    PassFailure,
    get_pass,
    list_passes,
    register_pass,
)
from .report import PassReport, PassReportEntry

__all__ = [
    "STAGES",
    "FusionPass",
    "FusionPattern",
    "Option",
    "Pass",
    "PassFailure",
    "PassReport",
    "PassReportEntry",
    "PipelineElement",
    "build_pass_manager",
    "fusion_pass",
    "get_pass",
    "list_passes",
    "parse_pipeline",
    "register_pass",
]


def _load_builtin_passes() -> None:
    # Importing the modules registers their passes; one pass per file.
    # Every ge_<pass>.py module of ge_mlir/optimize registers its pass, so a
    # new pass file joins the registry (and the default pipelines) on its own.
    import importlib
    import pkgutil

    from .. import optimize
    from ..lowering import ge_lower_to_linalg  # noqa: F401
    from ..target.ascendc import ge_lower_to_ascendc  # noqa: F401
    from ..optimize import ge_canonicalize, ge_verify_graph  # noqa: F401

    for info in pkgutil.iter_modules(optimize.__path__):
        if info.name.startswith("ge_"):
            importlib.import_module(f"{optimize.__name__}.{info.name}")


_load_builtin_passes()
