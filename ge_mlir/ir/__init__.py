"""Re-export of ``mlir.ir``: the generated enum bindings import ``..ir``."""

from mlir.ir import *  # noqa: F401,F403
from mlir.ir import register_attribute_builder  # noqa: F401
