"""The clean-room Ascend C CPU shim (ge_mlir/target/ascendc/shim): kernels written against
kernel_operator.h compile with plain g++ -Wall -Werror, run on CPU, and every documented rule the shim
checks stops the process with exit code 86 and a message that names the API and the numbers."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[4]
SHIM_INCLUDE = ROOT / "ge_mlir" / "target" / "ascendc" / "shim" / "include"
CASES = Path(__file__).resolve().parent / "shim_cases"
GXX = shutil.which("g++")
FLAGS = ["-std=c++17", "-Wall", "-Werror", "-O1", f"-I{SHIM_INCLUDE}"]
EXIT_CODE = 86
PROGRAMS = ["vec_pipeline", "matmul", "reduce_cast", "explicit_sync", "negative"]

pytestmark = pytest.mark.skipif(GXX is None, reason="g++ not found: the Ascend C shim tests compile C++ kernels")


@pytest.fixture(scope="module")
def binaries(tmp_path_factory):
    # One compile per program, one at a time (2-core machine, shared with other builds).
    out = tmp_path_factory.mktemp("ascendc_shim")
    exes = {}
    for name in PROGRAMS:
        exe = out / name
        r = subprocess.run([GXX, *FLAGS, str(CASES / f"{name}.cpp"), "-o", str(exe)],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            pytest.fail(f"{name}.cpp does not compile against the shim:\n{r.stderr}")
        exes[name] = exe
    return exes


def _run(exe, *args, env=None):
    e = {k: v for k, v in os.environ.items() if not k.startswith("GE_ASCENDC_SHIM_")}
    e.update(env or {})
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True, timeout=60, env=e)


def _ok(r):
    assert r.returncode == 0, f"exit {r.returncode}\nstdout: {r.stdout}\nstderr: {r.stderr}"
    assert r.stderr == ""
    return r.stdout


# ---------------------------------------------------------------- positive kernels

@pytest.mark.parametrize("dtype", ["float", "half"])
def test_double_buffered_vector_kernel(binaries, tmp_path, dtype):
    out = _ok(_run(binaries["vec_pipeline"], dtype, tmp_path))
    assert "5003 elements on 4 blocks" in out
    np_t = np.float32 if dtype == "float" else np.float16
    x, y, z = (np.fromfile(tmp_path / f"{n}.bin", dtype=np_t) for n in "xyz")
    assert x.shape == y.shape == z.shape == (5003,)
    # Every element written (GmAlloc fills with NaN bytes), ragged tails included.
    assert np.isfinite(z).all()
    if dtype == "float":
        ref = np.exp(x * np.float32(2) + y)
        np.testing.assert_allclose(z, ref, rtol=1e-6)
    else:
        # Each vector op rounds to fp16, as the shim (and the hardware) does.
        t = (x * np.float16(2)).astype(np.float16)
        t = (t + y).astype(np.float16)
        ref = np.exp(t.astype(np.float32)).astype(np.float16)
        np.testing.assert_allclose(z.astype(np.float32), ref.astype(np.float32), rtol=1e-3)
        # and close to the exact result
        exact = np.exp(2 * x.astype(np.float64) + y.astype(np.float64))
        np.testing.assert_allclose(z.astype(np.float64), exact, rtol=4e-3)


def test_cube_matmul_fp16_explicit_flags(binaries, tmp_path):
    out = _ok(_run(binaries["matmul"], "f16", tmp_path))
    assert "30x20x40 x2" in out
    a = np.fromfile(tmp_path / "a.bin", dtype=np.float16).reshape(2, 30, 40).astype(np.float64)
    b = np.fromfile(tmp_path / "b.bin", dtype=np.float16).reshape(40, 20).astype(np.float64)
    c = np.fromfile(tmp_path / "c.bin", dtype=np.float32).reshape(2, 30, 20)
    assert np.isfinite(c).all()
    np.testing.assert_allclose(c, a @ b, rtol=1e-6, atol=1e-6)
    assert not np.allclose(c[0], c[1])  # the blocks really used their own A


def test_cube_matmul_fp32_queues(binaries, tmp_path):
    out = _ok(_run(binaries["matmul"], "f32", tmp_path))
    assert "f32 30x20x40" in out
    a = np.fromfile(tmp_path / "a.bin", dtype=np.float32).reshape(30, 40).astype(np.float64)
    bt = np.fromfile(tmp_path / "bt.bin", dtype=np.float32).reshape(20, 40).astype(np.float64)
    c = np.fromfile(tmp_path / "c.bin", dtype=np.float32).reshape(30, 20)
    np.testing.assert_allclose(c, a @ bt.T, rtol=1e-5, atol=1e-5)


def _lines(out):
    """Result lines keyed by their tag: "reduce", "select", or "i32 MODE" / "f16 MODE"."""
    lines = {}
    for line in out.strip().splitlines():
        words = line.split()
        key = " ".join(words[:2]) if words[0] in ("i32", "f16") else words[0]
        lines[key] = words
    return lines


def test_reduce_cast_compare_select(binaries, tmp_path):
    lines = _lines(_ok(_run(binaries["reduce_cast"], tmp_path)))
    x = np.fromfile(tmp_path / "x.bin", dtype=np.float32)
    assert x.shape == (1000,)

    _, s, mx, imx, mn, imn = lines["reduce"]
    np.testing.assert_allclose(float(s), x.astype(np.float64).sum(), rtol=1e-6)
    assert float(mx) == x.max() and int(imx) == int(np.argmax(x))
    assert float(mn) == x.min() and int(imn) == int(np.argmin(x))

    ties = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1.25, -1.75])
    expected_int = {
        "RINT": np.rint(ties),
        "FLOOR": np.floor(ties),
        "CEIL": np.ceil(ties),
        "ROUND": np.sign(ties) * np.floor(np.abs(ties) + 0.5),
        "TRUNC": np.trunc(ties),
    }
    for mode, want in expected_int.items():
        got = [int(v) for v in lines[f"i32 {mode}"][2:]]
        assert got == [int(v) for v in want], mode

    a, b = 1 + 2.0**-11, 1 + 3 * 2.0**-11   # a: exact tie; b: tie with an odd lower neighbour
    u = 2.0**-10
    sub = 2.0**-24  # smallest fp16 subnormal; the input 2^-25 is half of it
    inf = float("inf")
    expected_f16 = {
        "RINT": [1, 1 + 2 * u, -1, -(1 + 2 * u), inf, -inf, 0, 3],
        "NONE": [1, 1 + 2 * u, -1, -(1 + 2 * u), inf, -inf, 0, 3],
        "FLOOR": [1, 1 + u, -(1 + u), -(1 + 2 * u), 65504, -inf, 0, 3],
        "CEIL": [1 + u, 1 + 2 * u, -1, -(1 + u), inf, -65504, sub, 3],
        "ROUND": [1 + u, 1 + 2 * u, -(1 + u), -(1 + 2 * u), inf, -inf, sub, 3],
        "TRUNC": [1, 1 + u, -1, -(1 + u), 65504, -65504, 0, 3],
        "ODD": [1 + u, 1 + u, -(1 + u), -(1 + u), 65504, -65504, sub, 3],
    }
    for mode, want in expected_f16.items():
        got = [float(v) for v in lines[f"f16 {mode}"][2:]]
        assert got == want, mode
    # RINT agrees with IEEE round-to-nearest-even as numpy implements it.
    src = np.array([a, b, -a, -b, 65520, -65520, 2.0**-25, 3], dtype=np.float32)
    with np.errstate(over="ignore"):
        assert [float(v) for v in src.astype(np.float16)] == expected_f16["RINT"]

    got = [float(v) for v in lines["select"][1:]]
    assert got == [float(v) for v in np.where(x[:8] > 0.5, x[:8], -1.0)]


def test_explicit_flags_and_sync_all(binaries):
    out = _ok(_run(binaries["explicit_sync"]))
    m = re.fullmatch(r"total (\S+) ref (\S+) squares ok\n", out)
    assert m, out
    assert float(m.group(1)) == pytest.approx(float(m.group(2)), rel=1e-6)


# ---------------------------------------------------------------- negative kernels

NEGATIVE = {
    "misaligned": ["DataCopy: 48 bytes is not a multiple of 32 (count=12, sizeof=4)"],
    "ub_overflow": ["TPipe::InitBuffer: UB overflow: 200704 bytes requested, capacity 196608"],
    "double_free": ["TQue::FreeTensor: double free"],
    "alloc_beyond_depth": ["TQue::AllocTensor: alloc beyond depth", "all 2 buffers"],
    "deque_empty": ["TQue::DeQue: DeQue on an empty VECIN queue"],
    "unbalanced": ["unbalanced EnQue/DeQue at kernel end", "1 enqueued tensor(s)"],
    "use_after_free": ["Duplicate: use after free"],
    "missing_sync": ["Add: RAW hazard", "PIPE_V", "DataCopy on PIPE_MTE2", "SetFlag/WaitFlag<HardEvent::MTE2_V>"],
    "war_hazard": ["Duplicate: WAR hazard", "DataCopy on PIPE_MTE3", "HardEvent::MTE3_V"],
    "vector_on_l1": ["Add: dst is in position A1 (L1)", "must be in VECIN/VECOUT/VECCALC"],
    "out_of_bounds": ["Duplicate: out of bounds", "UB[0, 512)", "UB[0, 256)"],
    "wait_without_set": ["WaitFlag<HardEvent::MTE2_V>(3) has no preceding SetFlag"],
    "syncall_mismatch": ["SyncAll: block 1 returned without reaching SyncAll()"],
    # Multi-core: blocks run concurrently, so no GM byte may be written by two of them, and a launch's split
    # must cover its output (an intermediate read before it is written, an output read back with gaps).
    "blocks_overlap": ["ICPU_RUN_KF: kernel c.fn: blocks 0 and 1 both write GM bytes [0, 256)"],
    "arena_unwritten_read": ["DataCopy: reads bytes [0, 256) of tensor 'a' that no kernel wrote since it became "
                             "live"],
    "output_not_covered": ["GmExpectWritten: no kernel wrote bytes [128, 256) of 'y' (256 bytes)"],
    # The vector Cast's documented conversion table (Atlas A2) and Select's 8 KB UB reservation.
    "cast_not_in_table": ["Cast: converting float to int32_t with round mode 0 is not in the documented Cast table"],
    "select_without_reserve": ["Select: modes 1 and 2 need 8 KB of the unified buffer reserved"],
    # A device arena keeps the per-allocation GM checks per tensor, and refuses overlapping live tensors.
    "arena_past_tensor": ["DataCopy: GM access of 512 bytes at offset 0 runs past the end of tensor 'a' "
                          "(256 bytes at arena offset 0) into arena bytes it does not own"],
    "arena_dead_tensor": ["DataCopy: GM access of 256 bytes at arena offset 0 lies in no tensor live at this "
                          "launch"],
    "arena_overlap": ["GmTensorBegin: tensor 'b' at arena bytes [128, 416) overlaps tensor 'a' at [0, 288), "
                      "which is live at the same launch: a wrong memory plan"],
}


def test_every_negative_case_is_checked(binaries):
    assert set(_ok(_run(binaries["negative"], "list")).split()) == set(NEGATIVE)


@pytest.mark.parametrize("case", sorted(NEGATIVE))
def test_negative_case_fails_with_exit_86(binaries, case):
    r = _run(binaries["negative"], case)
    assert r.returncode == EXIT_CODE, f"exit {r.returncode}\nstdout: {r.stdout}\nstderr: {r.stderr}"
    assert "completed" not in r.stdout
    assert r.stderr.startswith("ascendc-shim: error")
    assert r.stderr.count("\n") == 1  # one line, the first failure
    for text in NEGATIVE[case]:
        assert text in r.stderr


def test_sync_check_can_be_switched_off(binaries):
    assert "completed missing_sync" in _ok(_run(binaries["negative"], "missing_sync",
                                                env={"GE_ASCENDC_SHIM_SYNC_CHECK": "0"}))


def test_ascend310p_capacities_selectable(binaries):
    # 2 x 98 KiB overflows the 192 KiB UB of Ascend910B but fits the 310P preset.
    assert "completed ub_overflow" in _ok(_run(binaries["negative"], "ub_overflow",
                                               env={"GE_ASCENDC_SHIM_SOC": "Ascend310P3"}))


# ---------------------------------------------------------------- signature manifest

def _syntax_check(path_or_code):
    cmd = [GXX, *FLAGS, "-fsyntax-only"]
    if isinstance(path_or_code, Path):
        return subprocess.run([*cmd, str(path_or_code)], capture_output=True, text=True, timeout=120)
    return subprocess.run([*cmd, "-x", "c++", "-"], input=path_or_code, capture_output=True, text=True, timeout=120)


def test_signature_manifest_compiles():
    r = _syntax_check(CASES / "signatures.cpp")
    assert r.returncode == 0, r.stderr


def test_signature_probe_rejects_a_drifted_signature():
    # The probe mechanism must be able to fail: Add takes `const int32_t& count`, not `uint32_t`.
    code = ('#include "kernel_operator.h"\n'
            "using namespace AscendC;\n"
            "using LF = LocalTensor<float>;\n"
            "static_assert(static_cast<void (*)(const LF&, const LF&, const LF&, uint32_t)>(&Add<float>) != nullptr);\n")
    r = _syntax_check(code)
    assert r.returncode != 0
    assert "static_cast" in r.stderr and "unsigned int" in r.stderr


# ---------------------------------------------------------------- CANN rules the shim mirrors

@pytest.mark.parametrize("code, why", [
    # Corrections 1: no tiling macros in kernel direct-call builds.
    ('#include "kernel_operator.h"\nstruct T { int n; };\n'
     'extern "C" __global__ __aicore__ void k(GM_ADDR tiling) { REGISTER_TILING_DEFAULT(T); GET_TILING_DATA(t, tiling); }\n',
     "REGISTER_TILING_DEFAULT"),
    # Corrections 2: QuantMode_t is not in namespace AscendC.
    ('#include "kernel_operator.h"\nauto q = AscendC::QuantMode_t::F322F16;\n', "QuantMode_t"),
])
def test_the_shim_refuses_what_cann_would(code, why):
    r = _syntax_check(code)
    assert r.returncode != 0 and why in r.stderr


def test_quant_mode_outside_the_namespace_compiles():
    r = _syntax_check('#include "kernel_operator.h"\nauto q = QuantMode_t::F322F16;\n')
    assert r.returncode == 0, r.stderr


_EVENT_KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
  GlobalTensor<float> xGm;
  xGm.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> inQ;
  pipe.InitBuffer(inQ, 1, 256);
  LocalTensor<float> t = inQ.AllocTensor<float>();
  DataCopy(t, xGm, 64);
  inQ.EnQue(t);
  LocalTensor<float> u = inQ.DeQue<float>();
  EVENT_SETUP
  SetFlag<HardEvent::V_S>(EVENT);
  WaitFlag<HardEvent::V_S>(EVENT);
  inQ.FreeTensor(u);
}
int main() {
  float* x = static_cast<float*>(GmAlloc(64 * sizeof(float)));
  for (int i = 0; i < 64; ++i) x[i] = 1.0f;
  ICPU_RUN_KF(k, 1, x);
  GmFree(x);
  std::printf("completed\n");
  return 0;
}
'''


@pytest.mark.parametrize("setup, event, ok", [
    ("", "EVENT_ID0", False),  # a literal id while TQue queues are in use
    ("TEventID e = pipe.FetchEventID<HardEvent::V_S>();", "e", True),
    ("TEventID e = pipe.AllocEventID<HardEvent::V_S>();", "e", True),
])
def test_flags_take_event_ids_from_the_pipe_when_queues_are_in_use(tmp_path, setup, event, ok):
    """ASCENDC_API.md Corrections 5: with TPipe/TQue in use, hand-written SetFlag/WaitFlag ids come
    from AllocEventID/FetchEventID; the shim refuses a literal id there."""
    src = tmp_path / "k.cpp"
    src.write_text(_EVENT_KERNEL.replace("EVENT_SETUP", setup).replace("EVENT)", f"{event})"))
    exe = tmp_path / "k"
    r = subprocess.run([GXX, *FLAGS, "-Wno-unused-variable", str(src), "-o", str(exe)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    r = _run(exe)
    if ok:
        assert "completed" in _ok(r)
    else:
        assert r.returncode == EXIT_CODE
        assert "was not obtained from TPipe::AllocEventID/FetchEventID" in r.stderr
