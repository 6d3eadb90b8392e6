import os

import pytest

# The compile cache (ge_mlir.runtime.cache) stays off in the tests: each test sees a real compile and
# nothing is written under ~/.cache; test_cache.py turns it on in a temporary directory.
os.environ["GE_MLIR_CACHE"] = "0"

import ge_mlir  # noqa: E402,F401  (registers the ge dialect before any Context exists)
from mlir import ir  # noqa: E402


@pytest.fixture
def ctx():
    with ir.Context() as c, ir.Location.unknown():
        yield c
