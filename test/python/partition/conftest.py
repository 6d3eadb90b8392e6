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

pytest.importorskip("mpi4py")
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
    from torch import nn

    from models import BasicBlock, BertEncoder, Gpt2Decoder  # noqa: E402

    import ge_mlir
    from ge_mlir.frontend.torch import export_onnx

    torch.manual_seed(0)
    ids = torch.randint(0, 512, (4, 16))
    mask = torch.ones(4, 16, dtype=torch.int64)
    mask[1, 10:] = 0

    class SmallResNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.MaxPool2d(2))
            self.layers = nn.Sequential(BasicBlock(16, 16, 1), BasicBlock(16, 32, 2))
            self.pool, self.fc = nn.AdaptiveAvgPool2d(1), nn.Linear(32, 10)

        def forward(self, x):
            return self.fc(torch.flatten(self.pool(self.layers(self.stem(x))), 1))

    specs = {
        "bert": (BertEncoder(vocab=512, d=64, heads=4, ff=256, layers=2, seq=16).eval(), (ids, mask),
                 ["input_ids", "attention_mask"]),
        "gpt2": (Gpt2Decoder(vocab=512, d=64, heads=4, layers=2, seq=16).eval(), (ids,), ["input_ids"]),
        "cnn": (SmallResNet().eval(), (torch.randn(4, 3, 32, 32),), ["image"]),
    }
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
