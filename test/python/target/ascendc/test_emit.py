"""The Ascend C emitter (ge_mlir.target.ascendc.emit) end to end: hand-written ascendc IR is emitted as
an Ascend C project, compiled with g++ -Wall -Werror against the clean-room CPU shim, run through
ShimExecutable and compared with numpy. Shim check failures must surface as Python exceptions carrying
the shim's message, and ops the emitter does not know must be refused by name."""

import shutil

import numpy as np
import pytest
from mlir import ir

import ge_mlir  # noqa: F401
from ge_mlir.api import parse_module
from ge_mlir.memory.buffers import Buffer, Plan
from ge_mlir.target.ascendc.emit import EmitError, emit_project, write_project
from ge_mlir.target.ascendc.shim_runner import (
    ShimBuildError,
    ShimCheckError,
    ShimExecutable,
    build_shared_library,
)
from ge_mlir.tools.ge_translate import main as ge_translate

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not found")

# z = relu(2x + y) on 1000 f32 over 2 blocks (500 each), tiles of 64 in double-buffered queues; the last
# tile of each block (52 elements, 208 bytes) goes through DataCopyPad. The host runs the kernel twice:
# t = k(x, y), z = k(t, 0.5) with the 0.5 splat shipped in the constant blob.
ELTWISE = """
module {
  ascendc.kernel @fused_0 kind(<vector>) blocks(2) tiling({block_len = 500 : i64, tile_len = 64 : i64, tile_num = 8 : i64}) attributes {arg_names = ["x", "y", "z"]} {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
    %blockLen = ascendc.tiling_get "block_len" : index
    %tileLen = ascendc.tiling_get "tile_len" : index
    %tileNum = ascendc.tiling_get "tile_num" : index
    %bid = ascendc.block_idx : index
    %base = arith.muli %bid, %blockLen : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f32
    %p = ascendc.pipe : !ascendc.pipe
    %qx = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecin, 2>
    %qy = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecin, 2>
    %qz = ascendc.queue %p num(2) bytes(256) : !ascendc.que<vecout, 2>
    scf.for %i = %c0 to %tileNum step %c1 {
      %start = arith.muli %i, %tileLen : index
      %rest = arith.subi %blockLen, %start : index
      %cnt = arith.minsi %rest, %tileLen : index
      %off = arith.addi %base, %start : index
      %full = arith.cmpi eq, %cnt, %tileLen : index
      %tx = ascendc.alloc_tensor %qx : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
      %ty = ascendc.alloc_tensor %qy : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
      scf.if %full {
        ascendc.copy_gm_to_local %tx, %x[%off], %cnt : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
        ascendc.copy_gm_to_local %ty, %y[%off], %cnt : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
      } else {
        ascendc.copy_pad_gm_to_local %tx, %x[%off], %cnt : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
        ascendc.copy_pad_gm_to_local %ty, %y[%off], %cnt : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
      }
      ascendc.enque %qx, %tx : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
      ascendc.enque %qy, %ty : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
      %ux = ascendc.deque %qx : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
      %uy = ascendc.deque %qy : !ascendc.que<vecin, 2> -> !ascendc.local<f32, 64, vecin>
      %tz = ascendc.alloc_tensor %qz : !ascendc.que<vecout, 2> -> !ascendc.local<f32, 64, vecout>
      ascendc.vscalar <muls> %tz, %ux, %two, %cnt : !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, vecin>, f32
      ascendc.vbinary <add> %tz, %tz, %uy, %cnt : !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, vecin>
      ascendc.vunary <relu> %tz, %tz, %cnt : !ascendc.local<f32, 64, vecout>, !ascendc.local<f32, 64, vecout>
      ascendc.enque %qz, %tz : !ascendc.que<vecout, 2>, !ascendc.local<f32, 64, vecout>
      ascendc.free_tensor %qx, %ux : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
      ascendc.free_tensor %qy, %uy : !ascendc.que<vecin, 2>, !ascendc.local<f32, 64, vecin>
      %uz = ascendc.deque %qz : !ascendc.que<vecout, 2> -> !ascendc.local<f32, 64, vecout>
      scf.if %full {
        ascendc.copy_local_to_gm %z[%off], %uz, %cnt : !ascendc.gm<f32>, !ascendc.local<f32, 64, vecout>
      } else {
        ascendc.copy_pad_local_to_gm %z[%off], %uz, %cnt : !ascendc.gm<f32>, !ascendc.local<f32, 64, vecout>
      }
      ascendc.free_tensor %qz, %uz : !ascendc.que<vecout, 2>, !ascendc.local<f32, 64, vecout>
    }
  }
  ascendc.host @graph inputs(2) bytes([4000, 4000, 4000]) attributes {arg_names = ["x", "y", "z"], arg_shapes = [[10, 100], [10, 100], [10, 100]]} {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
    %t = ascendc.gm_alloc bytes(4000) : !ascendc.gm<f32>
    %w = ascendc.gm_constant dense<0.5> : tensor<1000xf32> : !ascendc.gm<f32>
    ascendc.launch @fused_0(%x, %y, %t) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @fused_0(%t, %w, %z) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}
"""

# 32x32x32 fp16 matmul with fp32 accumulation: Nd2Nz into L1, LoadData per 16-row block (B transposed),
# Mmad, Fixpipe, explicit set/wait flags between MTE2, MTE1, M and FIX.
MATMUL = """
module {
  ascendc.kernel @matmul_0 kind(<cube>) blocks(1) attributes {arg_names = ["a", "b", "c"]} {
  ^bb0(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %c: !ascendc.gm<f32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c512 = arith.constant 512 : index
    %true = arith.constant true
    %p = ascendc.pipe : !ascendc.pipe
    %a1buf = ascendc.tbuf %p bytes(2048) : !ascendc.tbuf<a1>
    %b1buf = ascendc.tbuf %p bytes(2048) : !ascendc.tbuf<b1>
    %a2buf = ascendc.tbuf %p bytes(2048) : !ascendc.tbuf<a2>
    %b2buf = ascendc.tbuf %p bytes(2048) : !ascendc.tbuf<b2>
    %cbuf = ascendc.tbuf %p bytes(4096) : !ascendc.tbuf<co1>
    %a1 = ascendc.tbuf_get %a1buf : !ascendc.tbuf<a1> -> !ascendc.local<f16, 1024, a1>
    %b1 = ascendc.tbuf_get %b1buf : !ascendc.tbuf<b1> -> !ascendc.local<f16, 1024, b1>
    %a2 = ascendc.tbuf_get %a2buf : !ascendc.tbuf<a2> -> !ascendc.local<f16, 1024, a2>
    %b2 = ascendc.tbuf_get %b2buf : !ascendc.tbuf<b2> -> !ascendc.local<f16, 1024, b2>
    %cl = ascendc.tbuf_get %cbuf : !ascendc.tbuf<co1> -> !ascendc.local<f32, 1024, co1>
    ascendc.copy_nd2nz %a1, %a[%c0] rows(%c32) cols(%c32) {src_d_value = 32, dst_nz_c0_stride = 32} : !ascendc.local<f16, 1024, a1>, !ascendc.gm<f16>
    ascendc.copy_nd2nz %b1, %b[%c0] rows(%c32) cols(%c32) {src_d_value = 32, dst_nz_c0_stride = 32} : !ascendc.local<f16, 1024, b1>, !ascendc.gm<f16>
    ascendc.set_flag <mte2_mte1>, 0
    ascendc.wait_flag <mte2_mte1>, 0
    %a2hi = ascendc.local_slice %a2[%c512] : !ascendc.local<f16, 1024, a2> -> !ascendc.local<f16, 512, a2>
    ascendc.load_data_2d %a2, %a1 start(%c0) repeat(%c2) stride(%c2) : !ascendc.local<f16, 1024, a2>, !ascendc.local<f16, 1024, a1>
    ascendc.load_data_2d %a2hi, %a1 start(%c1) repeat(%c2) stride(%c2) : !ascendc.local<f16, 512, a2>, !ascendc.local<f16, 1024, a1>
    %b2hi = ascendc.local_slice %b2[%c512] : !ascendc.local<f16, 1024, b2> -> !ascendc.local<f16, 512, b2>
    ascendc.load_data_2d %b2, %b1 start(%c0) repeat(%c2) stride(%c2) {if_transpose = true} : !ascendc.local<f16, 1024, b2>, !ascendc.local<f16, 1024, b1>
    ascendc.load_data_2d %b2hi, %b1 start(%c1) repeat(%c2) stride(%c2) {if_transpose = true} : !ascendc.local<f16, 512, b2>, !ascendc.local<f16, 1024, b1>
    ascendc.set_flag <mte1_m>, 0
    ascendc.wait_flag <mte1_m>, 0
    ascendc.mmad %cl, %a2, %b2, %true m(%c32) n(%c32) k(%c32) : !ascendc.local<f32, 1024, co1>, !ascendc.local<f16, 1024, a2>, !ascendc.local<f16, 1024, b2>
    ascendc.set_flag <m_fix>, 0
    ascendc.wait_flag <m_fix>, 0
    ascendc.fixpipe %c[%c0], %cl rows(%c32) cols(%c32) src_stride(%c32) {dst_stride = 32} : !ascendc.gm<f32>, !ascendc.local<f32, 1024, co1>
  }
  ascendc.host @graph inputs(2) bytes([2048, 2048, 4096]) attributes {arg_names = ["a", "b", "c"], arg_shapes = [[32, 32], [32, 32], [32, 32]]} {
  ^bb0(%a: !ascendc.gm<f16>, %b: !ascendc.gm<f16>, %c: !ascendc.gm<f32>):
    ascendc.launch @matmul_0(%a, %b, %c) : !ascendc.gm<f16>, !ascendc.gm<f16>, !ascendc.gm<f32>
  }
}
"""

# DeQue twice after one EnQue: the second DeQue finds the queue empty at run time.
DEQUE_TWICE = """
module {
  ascendc.kernel @bad_0 kind(<vector>) blocks(1) {
  ^bb0(%x: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %p = ascendc.pipe : !ascendc.pipe
    %q = ascendc.queue %p num(1) bytes(256) : !ascendc.que<vecin, 1>
    %t = ascendc.alloc_tensor %q : !ascendc.que<vecin, 1> -> !ascendc.local<f32, 64, vecin>
    ascendc.copy_gm_to_local %t, %x[%c0], %c64 : !ascendc.local<f32, 64, vecin>, !ascendc.gm<f32>
    ascendc.enque %q, %t : !ascendc.que<vecin, 1>, !ascendc.local<f32, 64, vecin>
    %u = ascendc.deque %q : !ascendc.que<vecin, 1> -> !ascendc.local<f32, 64, vecin>
    %v = ascendc.deque %q : !ascendc.que<vecin, 1> -> !ascendc.local<f32, 64, vecin>
    ascendc.free_tensor %q, %u : !ascendc.que<vecin, 1>, !ascendc.local<f32, 64, vecin>
  }
  ascendc.host @graph inputs(1) bytes([256, 256]) {
  ^bb0(%x: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
    ascendc.launch @bad_0(%x, %z) : !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}
"""

UNSUPPORTED = """
ascendc.kernel @neg_0 kind(<vector>) blocks(1) {
^bb0(%x: !ascendc.gm<f32>):
  %one = arith.constant 1.0 : f32
  %m = arith.negf %one : f32
}
"""


def _project(text, tmp_path):
    with ir.Context():
        return write_project(parse_module(text), tmp_path / "proj")


@needs_gxx
def test_double_buffered_elementwise(tmp_path):
    exe = ShimExecutable(_project(ELTWISE, tmp_path))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10, 100)).astype(np.float32)
    y = rng.standard_normal((10, 100)).astype(np.float32)
    (z,) = exe(x, y)
    assert z.shape == (10, 100) and z.dtype == np.float32
    t = np.maximum(np.float32(2) * x + y, np.float32(0))
    ref = np.maximum(np.float32(2) * t + np.float32(0.5), np.float32(0))
    np.testing.assert_allclose(z, ref, rtol=1e-6)
    # Every element written, ragged tails included (the shim fills GM with NaN bytes).
    assert np.isfinite(z).all()
    # The same library called in this process through ctypes.
    (z2,) = ShimExecutable(exe.project, in_process=True)(x, y)
    np.testing.assert_array_equal(z2, z)


@needs_gxx
def test_fp16_cube_matmul(tmp_path):
    exe = ShimExecutable(_project(MATMUL, tmp_path))
    rng = np.random.default_rng(1)
    a = rng.standard_normal((32, 32)).astype(np.float16)
    b = rng.standard_normal((32, 32)).astype(np.float16)
    (c,) = exe(a, b)
    assert c.shape == (32, 32) and c.dtype == np.float32
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(c, ref, rtol=1e-3, atol=1e-3)


@needs_gxx
def test_queue_protocol_violation_is_a_python_error(tmp_path):
    exe = ShimExecutable(_project(DEQUE_TWICE, tmp_path))
    with pytest.raises(ShimCheckError) as info:
        exe(np.zeros(64, np.float32))
    msg = str(info.value)
    assert msg.startswith("ascendc-shim: error [bad_0 block 0/1]:")
    assert "DeQue" in msg and "empty" in msg
    assert info.value.returncode == 86


def test_unsupported_op_is_refused_by_name():
    with ir.Context():
        module = parse_module(UNSUPPORTED, source_name="neg.mlir")
        with pytest.raises(EmitError) as info:
            emit_project(module)
    assert "arith.negf" in str(info.value)
    assert info.value.op == "arith.negf"
    assert ":5:8:" in str(info.value)  # the op's line and column


_HOST1 = """
ascendc.host @graph inputs(1) bytes([16]) attributes {{{attrs}}} {{
^bb0(%x: !ascendc.gm<{elem}>):
  {body}
}}
"""


@pytest.mark.parametrize("attrs, elem, body, message", [
    ("arg_names = [1]", "f32", "", "arg_names must be an array of strings"),
    ("arg_shapes = 7", "f32", "", "arg_shapes must be an array of shapes"),
    ('arg_shapes = [["a"]]', "f32", "", 'arg_shapes[0] = ["a"] is not a list of integers'),
    ("", "bf16", "", "host argument 0 has unsupported type !ascendc.gm<bf16>"),
    # Not a dense_resource: must not reach the C API resource reader (which aborts on it).
    ("", "f32", "%w = ascendc.gm_constant sparse<[[0]], [1.0]> : tensor<4xf32> : !ascendc.gm<f32>",
     "cannot read the constant's data"),
])
def test_malformed_host_is_an_emit_error(attrs, elem, body, message):
    with ir.Context():
        module = parse_module(_HOST1.format(attrs=attrs, elem=elem, body=body))
        with pytest.raises(EmitError) as info:
            emit_project(module)
    assert message in str(info.value)


def test_i1_constant_bytes():
    text = _HOST1.format(attrs="", elem="f32", body="%w = ascendc.gm_constant dense<[true, false, true]> : "
                                                    "tensor<3xi1> : !ascendc.gm<i1>")
    with ir.Context():
        files = emit_project(parse_module(text))
    assert files["constants.bin"] == b"\x01\x00\x01"


@needs_gxx
def test_compile_errors_carry_the_compiler_output(tmp_path):
    proj = _project(MATMUL, tmp_path)
    src = proj / "matmul_0.cpp"
    src.write_text(src.read_text().replace("AscendC::Mmad(", "AscendC::Mmadd("))
    with pytest.raises(ShimBuildError) as info:
        build_shared_library(proj)
    assert "matmul_0.cpp" in str(info.value) and "Mmadd" in str(info.value)


def test_project_files_and_manifest():
    with ir.Context():
        files = emit_project(parse_module(ELTWISE))
    assert set(files) == {"fused_0.cpp", "tiling.h", "kernels.h", "host.cpp", "runner.cpp", "constants.bin",
                          "graph.json", "CMakeLists.txt", "README.md"}
    assert files["constants.bin"] == np.full(1000, 0.5, np.float32).tobytes()
    assert "struct fused_0_Tiling {\n  int64_t block_len;\n  int64_t tile_len;\n  int64_t tile_num;\n};" \
        in files["tiling.h"]
    assert "const fused_0_Tiling fused_0Tiling{500, 64, 8};" in files["host.cpp"]
    for name, text in files.items():
        if isinstance(text, str):
            assert not any(line != line.rstrip() for line in text.splitlines()), f"trailing space in {name}"
            assert "\t" not in text


def test_ge_translate_cli(tmp_path, capsys):
    src = tmp_path / "m.mlir"
    src.write_text(MATMUL)
    assert ge_translate(["--ascendc-to-cpp", str(src)]) == 0
    out = capsys.readouterr().out
    assert "// ----- file: matmul_0.cpp\n" in out and "// ----- file: host.cpp\n" in out
    assert ge_translate(["--ascendc-to-cpp", str(src), "-o", str(tmp_path / "p")]) == 0
    assert (tmp_path / "p" / "CMakeLists.txt").exists()
    bad = tmp_path / "bad.mlir"
    bad.write_text(UNSUPPORTED)
    assert ge_translate(["--ascendc-to-cpp", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:5:8: the Ascend C emitter does not support 'arith.negf'" in err


@needs_gxx
def test_golden_inputs_compile_against_the_shim(tmp_path):
    """The kernels (and host code) emitted for the lit golden tests are valid C++ for the shim."""
    import subprocess
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from ge_mlir.target.ascendc.shim_runner import SHIM_DIR

    inputs = sorted((Path(__file__).resolve().parents[3] / "Target" / "AscendC").glob("emit-*.mlir"))
    assert len(inputs) >= 7
    jobs = []
    for src in inputs:
        with ir.Context():
            proj = write_project(parse_module(src.read_text()), tmp_path / src.stem)
        for cpp in sorted(proj.glob("*.cpp")):
            if cpp.name != "runner.cpp":
                jobs.append([shutil.which("g++"), "-std=c++17", "-Wall", "-Werror", "-fsyntax-only",
                             "-DASCENDC_CPU_DEBUG", f"-I{SHIM_DIR / 'include'}", f"-I{proj}", str(cpp)])
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda cmd: subprocess.run(cmd, check=False, capture_output=True, text=True), jobs))
    failures = [f"{cmd[-1]}:\n{r.stderr}" for cmd, r in zip(jobs, results) if r.returncode != 0]
    assert not failures, "\n".join(failures)


# ----------------------------------------------------------------------------- the device arena

# ELTWISE's kernel k(a, b) = relu(2a + b) in a chain of four launches over three intermediates:
# t0 = k(x, y) lives at launches 0-1, t1 = k(t0, w) at 1-3, t2 = k(t1, t1) at 2-3, z = k(t2, t1);
# ge-plan-device-memory puts t2 on t0's bytes.
ARENA_CHAIN = ELTWISE[:ELTWISE.index("  ascendc.host @graph")] + """\
  ascendc.host @graph inputs(2) bytes([4000, 4000, 4000]) attributes {arg_names = ["x", "y", "z"], arg_shapes = [[10, 100], [10, 100], [10, 100]]} {
  ^bb0(%x: !ascendc.gm<f32>, %y: !ascendc.gm<f32>, %z: !ascendc.gm<f32>):
    %w = ascendc.gm_constant dense<0.5> : tensor<1000xf32> : !ascendc.gm<f32>
    %t0 = ascendc.gm_alloc bytes(4000) : !ascendc.gm<f32>
    ascendc.launch @fused_0(%x, %y, %t0) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    %t1 = ascendc.gm_alloc bytes(4000) : !ascendc.gm<f32>
    ascendc.launch @fused_0(%t0, %w, %t1) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    %t2 = ascendc.gm_alloc bytes(4000) : !ascendc.gm<f32>
    ascendc.launch @fused_0(%t1, %t1, %t2) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
    ascendc.launch @fused_0(%t2, %t1, %z) : !ascendc.gm<f32>, !ascendc.gm<f32>, !ascendc.gm<f32>
  }
}
"""


def _chain_reference(x, y):
    def k(a, b):
        return np.maximum(np.float32(2) * a + b, np.float32(0))

    t0 = k(x, y)
    t1 = k(t0, np.float32(0.5))
    return k(k(t1, t1), t1)


def _planned(text, pipeline="builtin.module(ge-plan-device-memory)"):
    """``text`` parsed in the current context, with the device memory planned."""
    from ge_mlir.passes.pipeline import run_elements

    module = parse_module(text)
    run_elements(module, pipeline)
    return module


def _host_op(module):
    return next(o.operation for o in module.body.operations if o.operation.name == "ascendc.host")


def _allocs(module):
    return [o.operation for o in _host_op(module).regions[0].blocks[0].operations
            if o.operation.name == "ascendc.gm_alloc"]


def _device_allocations(host_cpp):
    """The variables given their own device allocation (one aclrtMalloc each on the NPU path)."""
    import re

    return re.findall(r"uint8_t\* (\w+) = buffers\.Alloc\(", host_cpp)


def test_planned_host_allocates_one_arena():
    from ge_mlir.memory.checker import check_plan
    from ge_mlir.memory.ge_plan_memory import read_memory_plan
    from ge_mlir.target.ascendc.socs import gm_segment_bytes

    with ir.Context():
        module = _planned(ARENA_CHAIN)
        plan = read_memory_plan(_host_op(module))
        host_cpp = emit_project(module)["host.cpp"]
        unplanned_cpp = emit_project(parse_module(ARENA_CHAIN))["host.cpp"]
    # Before: every intermediate its own allocation; after: one for all three.
    assert _device_allocations(unplanned_cpp) == ["xDev", "yDev", "zDev", "cst0", "buf0",
                                                  "buf1", "buf2"]
    assert _device_allocations(host_cpp) == ["xDev", "yDev", "zDev", "cst0", "arena"]
    assert "uint8_t* arena = buffers.Alloc(8064);" in host_cpp
    assert [line.strip() for line in host_cpp.splitlines() if "= arena +" in line] == [
        "uint8_t* buf0 = arena + 0;", "uint8_t* buf1 = arena + 4032;", "uint8_t* buf2 = arena + 0;"]
    assert host_cpp.count("aclrtMalloc(") == 1  # the one DeviceAlloc; the calls are the Alloc lines above
    # The recorded plan passes the independent checker on the exact sizes and on the reserved pieces.
    assert [(b["name"], b["start"], b["end"], b["offset"]) for b in plan["buffers"]] == [
        ("fused_0.z", 0, 1, 0), ("fused_0.z (launch 1)", 1, 3, 4032), ("fused_0.z (launch 2)", 2, 3, 0)]
    for size in (lambda b: b["size"], lambda b: gm_segment_bytes(b["size"])):
        buffers = [Buffer(i, size(b), b["start"], b["end"], b["name"]) for i, b in enumerate(plan["buffers"])]
        check_plan(buffers, Plan({i: b["offset"] for i, b in enumerate(plan["buffers"])}, plan["arena"], 64,
                                 plan["strategy"]))
    # Each 4000-byte tensor reserves ALIGN_UP(4000, 32) + 32 = 4032 bytes (a multiple of 64).
    assert plan["arena"] == 8064 and plan["no_reuse"] == 3 * 4032


@needs_gxx
def test_planned_chain_runs_with_outputs_unchanged(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((10, 100)).astype(np.float32)
    y = rng.standard_normal((10, 100)).astype(np.float32)
    with ir.Context():
        planned = write_project(_planned(ARENA_CHAIN), tmp_path / "planned")
        unplanned = write_project(parse_module(ARENA_CHAIN), tmp_path / "unplanned")
    (z,) = ShimExecutable(planned)(x, y)
    np.testing.assert_array_equal(z, ShimExecutable(unplanned)(x, y)[0])
    np.testing.assert_allclose(z, _chain_reference(x, y), rtol=1e-6)
    # Run twice in one process: the arena's tensor registrations end with each run.
    lib = ShimExecutable(planned, in_process=True)
    for _ in range(2):
        np.testing.assert_array_equal(lib(x, y)[0], z)


@needs_gxx
def test_wrong_plan_in_the_host_program_is_caught_by_the_shim(tmp_path):
    """A plan that bypasses every compile-time check (host.cpp edited: t2 onto t1, live at the same
    launches) stops at run time: the shim refuses two live tensors sharing bytes."""
    with ir.Context():
        proj = write_project(_planned(ARENA_CHAIN), tmp_path / "proj")
    host = proj / "host.cpp"
    text = host.read_text()
    assert "uint8_t* buf2 = arena + 0;" in text
    host.write_text(text.replace("uint8_t* buf2 = arena + 0;", "uint8_t* buf2 = arena + 4032;"))
    exe = ShimExecutable(proj, build=True)
    with pytest.raises(ShimCheckError) as info:
        exe(np.zeros((10, 100), np.float32), np.zeros((10, 100), np.float32))
    assert ("GmTensorBegin: tensor 'fused_0.z (launch 2)' at arena bytes [4032, 8064) overlaps tensor "
            "'fused_0.z (launch 1)' at [4032, 8064), which is live at the same launch: a wrong memory plan"
            ) in str(info.value)


@pytest.mark.parametrize("edit, message", [
    # t2 moved onto t1 (both live at launches 2-3).
    (lambda allocs: allocs[2].attributes.__setitem__("offset", ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                                                  4032)),
     "the device memory plan (ge.memory_plan) is wrong: buffer 2 (fused_0.z (launch 2)) [4032, 8064) and "
     "buffer 1 (fused_0.z (launch 1)) [4032, 8064) share bytes while both are live at program point 2"),
    # Misaligned for aclrtMalloc's documented 64-byte rule.
    (lambda allocs: allocs[1].attributes.__setitem__("offset", ir.IntegerAttr.get(ir.IntegerType.get_signless(64),
                                                                                  4000)),
     "buffer 1 (fused_0.z (launch 1)) is at offset 4000, not a multiple of the alignment 64"),
    # A gm_alloc added after planning: the plan is stale.
    (lambda allocs: allocs[0].attributes.__delitem__("offset"), "gm_alloc has no integer arena 'offset'"),
])
def test_wrong_plan_in_the_ir_is_an_emit_error(edit, message):
    with ir.Context():
        module = _planned(ARENA_CHAIN)
        edit(_allocs(module))
        with pytest.raises(EmitError) as info:
            emit_project(module)
    assert message in str(info.value)


def test_offset_without_plan_is_an_emit_error():
    with ir.Context():
        module = _planned(ARENA_CHAIN)
        del _host_op(module).attributes["ge.memory_plan"]
        with pytest.raises(EmitError, match="gm_alloc has an arena 'offset' but the host program has no "
                                            "ge.memory_plan"):
            emit_project(module)


def test_planner_bug_fails_the_pass(monkeypatch):
    """The pass checks every plan with the independent checker before writing it."""
    from ge_mlir.errors import PassFailedError
    from ge_mlir.target.ascendc import ge_plan_device_memory as pdm

    def overlapping(buffers, **kw):
        return Plan({b.id: 0 for b in buffers}, max(b.size for b in buffers), kw["alignment"], "greedy-by-size")

    monkeypatch.setattr(pdm, "plan", overlapping)
    with ir.Context():
        with pytest.raises(PassFailedError) as info:
            _planned(ARENA_CHAIN)
    text = str(info.value) + "".join(str(d) for d in info.value.diagnostics)
    assert "internal error: the device memory plan of @graph is wrong" in text and "share bytes" in text


# ---------------------------------------------------------------- CANN rules (issue: second step)

def test_emitted_code_follows_the_direct_call_rules():
    """ASCENDC_API.md Corrections 1-3 and 6, on a real emitted project: no tiling macros (the
    struct is a by-value kernel parameter), QuantMode_t outside AscendC, documented launches, and
    the ASC-flow CMake settings for a shared library launching kernels of other files."""
    from ge_mlir.target.ascendc.emit.launch_check import check_launches

    with ge_mlir.Context():
        files = emit_project(parse_module(ARENA_CHAIN))
    sources = "".join(v for k, v in files.items() if k.endswith((".cpp", ".h")))
    assert "GET_TILING_DATA(" not in sources and "REGISTER_TILING_DEFAULT(" not in sources
    assert "AscendC::QuantMode_t" not in sources
    assert "<<<" in files["host.cpp"] and check_launches(files["host.cpp"]) == []
    assert "nullptr, gStream>>>" not in files["host.cpp"]
    cmake = files["CMakeLists.txt"]
    asc = cmake[cmake.index('STREQUAL "asc"'):cmake.index('STREQUAL "legacy"')]
    assert "LINKER_LANGUAGE ASC" in asc and "POSITION_INDEPENDENT_CODE ON" in asc and "-dc" in asc


def test_the_launch_check_refuses_undocumented_launches():
    from ge_mlir.target.ascendc.emit.launch_check import check_launches

    bad = check_launches("  k<<<2, nullptr, s>>>(a);\n  k<<<0, 0, s>>>(a);\n  k<<<1, 0>>>(a);\n  j<<<1, 0, s>>>(a, b);\n",
                         {"k": 1, "j": 1})
    assert any("l2ctrl" in p for p in bad)
    assert any("outside 1..65535" in p for p in bad)
    assert any("got 2 argument(s)" in p for p in bad)
    assert any("2 argument(s) for a kernel of 1 parameter(s)" in p for p in bad)
    assert check_launches("  k<<<blocks, 0, stream>>>(a);\n", {"k": 1}) == []


@needs_gxx
def test_precompiled_shim_header_is_shared_by_projects_and_bounded(tmp_path, monkeypatch):
    """The shim's precompiled header does not depend on the project's directory: two projects
    share one (it was keyed by the project's include path and built again for each, 62 MB a
    time, until a disk filled); at most PCH_KEEP are kept."""
    from ge_mlir.target.ascendc import shim_runner

    monkeypatch.setenv("GE_MLIR_CACHE_DIR", str(tmp_path / "cache"))
    for name in ("a", "b"):
        with ir.Context():
            proj = write_project(parse_module(ELTWISE), tmp_path / name)
        build_shared_library(proj)
    pchs = list((tmp_path / "cache" / "shim-pch").glob("*/kernel_operator.h.gch"))
    assert len(pchs) == 1, pchs
    # Other flags (another optimization level) build another header; with PCH_KEEP = 1 only the
    # most recent stays.
    monkeypatch.setattr(shim_runner, "PCH_KEEP", 1)
    build_shared_library(tmp_path / "a", opt="-O0")
    remaining = list((tmp_path / "cache" / "shim-pch").glob("*/kernel_operator.h.gch"))
    assert len(remaining) == 1 and remaining != pchs, remaining
