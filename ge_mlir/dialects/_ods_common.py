"""The generated op modules import ``._ods_common``: reuse upstream's helpers."""

from mlir.dialects import _ods_common as _upstream

globals().update({k: getattr(_upstream, k) for k in dir(_upstream) if not k.startswith("__")})
