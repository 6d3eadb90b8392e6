import pytest

import ge_mlir  # noqa: F401  (registers the ge dialect before any Context exists)
from mlir import ir


@pytest.fixture
def ctx():
    with ir.Context() as c, ir.Location.unknown():
        yield c
