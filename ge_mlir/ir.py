"""``mlir.ir`` under this package's name, as upstream's ``mlir/ir.py`` is: the generated enum
bindings (``dialects/_*_enum_gen.py``) import ``..ir``. ge-mlir's own IR helpers are
``ge_mlir.irutils``."""

from mlir.ir import *  # noqa: F401,F403
from mlir.ir import register_attribute_builder  # noqa: F401
