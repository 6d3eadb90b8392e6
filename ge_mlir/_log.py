"""ge-mlir's logging: silent by default, ``GE_MLIR_LOG=debug`` (or ``info``, ``warning``) to see it.

Loggers live under ``ge_mlir`` (``ge_mlir.fusion``: which fusion matched where and why a pattern
was rejected, with ONNX node names; ``ge_mlir.profile``: what ``ge-instrument-ops`` timed). The
first :func:`get_logger` call reads ``GE_MLIR_LOG`` once and, when it names a level, sends the
``ge_mlir`` records of that level and above to stderr; without it a ``NullHandler`` keeps the
library quiet (Python's last-resort handler would print warnings). Applications may configure
the ``ge_mlir`` logger themselves instead (``logging.getLogger("ge_mlir")``).
"""

from __future__ import annotations

import logging
import os
import sys

__all__ = ["LOG_ENV", "configure", "get_logger"]

#: The environment variable naming the log level (``debug``, ``info``, ``warning``, ``error``).
LOG_ENV = "GE_MLIR_LOG"
_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "warn": logging.WARNING,
           "error": logging.ERROR}
_configured = False
_handler: logging.Handler | None = None


def configure(level: str | None = None) -> None:
    """Sets up the ``ge_mlir`` logger from ``level`` (default: ``GE_MLIR_LOG``); an empty or unknown
    value leaves it silent (an unknown one says so once on stderr). Calling it again reconfigures."""
    global _configured, _handler
    _configured = True
    root = logging.getLogger("ge_mlir")
    if _handler is not None:
        root.removeHandler(_handler)
        _handler = None
    text = (os.environ.get(LOG_ENV, "") if level is None else level).strip().lower()
    if not text:
        if not any(isinstance(h, logging.NullHandler) for h in root.handlers):
            root.addHandler(logging.NullHandler())
        return
    if text not in _LEVELS:
        sys.stderr.write(f"ge-mlir: ignoring {LOG_ENV}={text!r} (levels: {', '.join(_LEVELS)})\n")
        root.addHandler(logging.NullHandler())
        return
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("ge-mlir %(levelname)s [%(name)s] %(message)s"))
    root.addHandler(_handler)
    root.setLevel(_LEVELS[text])


def get_logger(name: str) -> logging.Logger:
    """The logger ``ge_mlir.<name>`` (configured from ``GE_MLIR_LOG`` on the first call)."""
    if not _configured:
        configure()
    return logging.getLogger(f"ge_mlir.{name}")
