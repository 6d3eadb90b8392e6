"""``python -m ge_mlir.fuzz``: the ge-fuzz command (see :mod:`ge_mlir.fuzz.cli`)."""

from .cli import entry

if __name__ == "__main__":
    entry()
