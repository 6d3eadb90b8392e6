"""Small torch-exported models (the bench's BERT-style, GPT-2-style and a ResNet-style CNN) and
a helper running ``ge-run`` jobs under MPI with a timeout."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[3] / "bench"

# mpi4py and Open MPI are pinned in requirements-dev.txt: a missing install fails here, not skips.
import mpi4py  # noqa: E402,F401

torch = pytest.importorskip("torch")


@dataclass
class Model:
    name: str
    path: Path
    inputs: Path
    arrays: dict[str, np.ndarray]
    single: list[np.ndarray]  # one-device ge-mlir outputs
    ort: list[np.ndarray]  # onnxruntime outputs


def _export(tmp: Path) -> dict[str, Model]:
    sys.path.insert(0, str(BENCH))
    from models import parallel_models  # noqa: E402

    import ge_mlir
    from ge_mlir.frontend.torch import export_onnx

    specs = {name: (module, args, names) for name, module, args, names in parallel_models()}
    import onnxruntime as ort

    out = {}
    for name, (module, args, names) in specs.items():
        path = tmp / f"{name}.onnx"
        path.write_bytes(export_onnx(module, args, input_names=names).SerializeToString())
        arrays = {n: a.numpy() for n, a in zip(names, args)}
        np.savez(tmp / f"{name}.npz", **arrays)
        single = ge_mlir.compile(str(path), cache=False)(*arrays.values())
        sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        out[name] = Model(name, path, tmp / f"{name}.npz", arrays, single, sess.run(None, arrays))
    return out


@pytest.fixture(scope="session")
def models(tmp_path_factory) -> dict[str, Model]:
    return _export(tmp_path_factory.mktemp("parallel_models"))


def run_job(np_: int, argv: list[str], timeout: float = 240.0) -> subprocess.CompletedProcess:
    """``ge-run`` as a user runs it: mpiexec with ``np_`` ranks, killed whole on timeout."""
    from ge_mlir.tools.ge_run import mpi_command

    cmd, env = mpi_command(np_, argv)
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, start_new_session=True)
