"""Multi-threaded CPU code (CompileOptions.num_threads): same bits as one thread, on the CPU
target's thread team (OpenMP regions whose runtime calls lib/Runtime/ParallelRuntime.cpp
implements); the number of threads is checked, and the option is the cpu target's."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from mlir import ir
from onnx import TensorProto, helper, numpy_helper

import ge_mlir
from ge_mlir.errors import CompileError, ExecutionError
from ge_mlir.target.cpu.runner import CpuExecutable


def _model() -> onnx.ModelProto:
    """A conv (shifted matmuls), a linear layer and an attention-like batched matmul; the linear
    layer (6.3M multiply-adds) is above the size the strategy parallelizes (2^19)."""
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((64, 16, 3, 3)).astype(np.float32), "w")
    fc = numpy_helper.from_array(rng.standard_normal((1024, 96)).astype(np.float32), "fc")
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1], name="conv"),
        helper.make_node("Relu", ["c"], ["r"], name="relu"),
        helper.make_node("Reshape", ["r", "shape"], ["flat"], name="flat"),  # [64, 1024]
        helper.make_node("MatMul", ["flat", "fc"], ["y"], name="fc"),  # [64, 96]
        helper.make_node("Reshape", ["y", "heads"], ["h"], name="split_heads"),  # [4, 16, 96]
        helper.make_node("Transpose", ["h"], ["ht"], perm=[0, 2, 1], name="t"),  # [4, 96, 16]
        helper.make_node("MatMul", ["ht", "h"], ["z"], name="bmm"),  # [4, 96, 96]
    ]
    shape = numpy_helper.from_array(np.array([64, 1024], np.int64), "shape")
    heads = numpy_helper.from_array(np.array([4, 16, 96], np.int64), "heads")
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 32, 32])],
                              [helper.make_tensor_value_info("z", TensorProto.FLOAT, [4, 96, 96])],
                              initializer=[w, fc, shape, heads])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_two_threads_give_the_bits_of_one_and_match_onnxruntime(tmp_path):
    import onnxruntime as ort

    proto = _model()
    x = np.random.default_rng(1).standard_normal((1, 16, 32, 32)).astype(np.float32)
    one = ge_mlir.compile(proto, options={"num_threads": 1})
    two = ge_mlir.compile(proto, options={"num_threads": 2})
    (a,), (b,) = one(x), two(x)
    np.testing.assert_array_equal(a, b)
    (want,) = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    np.testing.assert_allclose(b, want, rtol=1e-4, atol=1e-4 * float(np.max(np.abs(want))))
    # The parallel loops are OpenMP regions on the team; one thread has none.
    assert "scf.parallel" in two.ir("bufferized") and "omp.parallel" in two.ir("llvm")
    assert "scf.parallel" not in one.ir("bufferized") and "omp." not in one.ir("llvm")
    # Saved and loaded, the threaded code keeps its bits (its __kmpc_* calls renamed to the team's).
    path = two.save(tmp_path / "two.gem")
    loaded = ge_mlir.load(path)
    np.testing.assert_array_equal(loaded(x)[0], a)
    for _ in range(20):  # repeated calls reuse the runtime's worker pool
        np.testing.assert_array_equal(two(x)[0], a)


def test_thread_count_is_checked():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(CompileError, match="num_threads must be a positive integer"):
            ge_mlir.compile(_model(), options={"num_threads": bad})
    with ir.Context():
        m = ge_mlir.parse_module("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                                 "  %0 = ge.relu %x : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}")
        with pytest.raises(ExecutionError, match="num_threads must be a positive integer"):
            CpuExecutable(m, num_threads=0)


def test_threads_are_a_cpu_option():
    with pytest.raises(CompileError, match="num_threads is a cpu option"):
        ge_mlir.compile(_model(), target="ascendc", options={"num_threads": 2}, run_on="none")


def test_a_freed_threaded_model_leaves_the_others_running():
    """The thread team is one per process: freeing a threaded model must not tear it down under
    another (it did with the MLIR async runtime when the JIT owned its library)."""
    import gc

    proto = _model()
    x = np.random.default_rng(2).standard_normal((1, 16, 32, 32)).astype(np.float32)
    first = ge_mlir.compile(proto, options={"num_threads": 2})
    want = first(x)[0]
    second = ge_mlir.compile(proto, options={"num_threads": 2})
    del first
    gc.collect()
    for _ in range(10):
        np.testing.assert_array_equal(second(x)[0], want)
    third = ge_mlir.compile(proto, options={"num_threads": 2})
    np.testing.assert_array_equal(third(x)[0], want)


def test_python_threads_may_share_a_compiled_model():
    """Calls from several Python threads are serialized on the model's workspace (the native call
    releases the GIL): every thread gets the outputs of its own inputs."""
    from concurrent.futures import ThreadPoolExecutor

    model = ge_mlir.compile(_model(), options={"num_threads": 2})
    rng = np.random.default_rng(3)
    xs = [rng.standard_normal((1, 16, 32, 32)).astype(np.float32) for _ in range(8)]
    want = [model(x)[0] for x in xs]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda x: model(x)[0], xs * 4))
    for i, g in enumerate(got):
        np.testing.assert_array_equal(g, want[i % len(xs)])


def _team_library():
    import ctypes

    from ge_mlir._dialect import library_path

    return ctypes.CDLL(str(library_path()))


@pytest.mark.parametrize("trip", [1, 2, 3, 7, 64, 1001])
def test_team_shares_iterations_statically(trip):
    """The runtime entry points directly: a microtask forked on the team takes its static share
    (contiguous, disjoint, covering [0, trip), the first trip % team threads one more), meets the
    others at the barrier, and the same thread gets the same share on every call."""
    import ctypes
    import threading

    lib = _team_library()
    team = lib.ge_rt_parallel_max_threads()
    i32p, u64p, i64p = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int64)
    lib.ge_rt_kmpc_for_static_init_8u.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, i32p, u64p, u64p,
                                                  i64p, ctypes.c_int64, ctypes.c_int64]
    lib.ge_rt_kmpc_barrier.argtypes = [ctypes.c_void_p, ctypes.c_int32]
    lib.ge_rt_kmpc_global_thread_num.argtypes = [ctypes.c_void_p]
    microtask_t = ctypes.CFUNCTYPE(None, i32p, i32p, ctypes.c_void_p)
    lock = threading.Lock()

    def run_once() -> dict[int, tuple[int, int, int]]:
        shares: dict[int, tuple[int, int, int]] = {}

        def body(gtid, _btid, _arg):
            me = gtid[0]
            assert lib.ge_rt_kmpc_global_thread_num(None) == me
            last, lo, hi, stride = ctypes.c_int32(), ctypes.c_uint64(0), ctypes.c_uint64(trip - 1), ctypes.c_int64(1)
            lib.ge_rt_kmpc_for_static_init_8u(None, me, 34, ctypes.byref(last), ctypes.byref(lo), ctypes.byref(hi),
                                              ctypes.byref(stride), 1, 0)
            count = (hi.value - lo.value + 1) % (1 << 64)
            with lock:
                shares[me] = (lo.value, count, last.value)
            lib.ge_rt_kmpc_barrier(None, me)

        fn = microtask_t(body)
        lib.ge_rt_kmpc_push_num_threads(None, 0, team)
        lib.ge_rt_kmpc_fork_call(None, 1, fn, ctypes.c_void_p(0))
        return shares

    shares = run_once()
    assert sorted(shares) == list(range(team))
    covered = []
    for me in range(team):
        lo, count, last = shares[me]
        want = trip // team + (1 if me < trip % team else 0)
        assert count == want
        covered += list(range(lo, lo + count))
        assert last == (count > 0 and lo + count == trip)
    assert covered == list(range(trip))
    assert run_once() == shares


def test_python_threads_may_run_different_threaded_models_at_once():
    """Two models called at the same time from two Python threads: one gets the team, the
    other runs its regions on its own thread (never waiting for the team): same bits either way."""
    from concurrent.futures import ThreadPoolExecutor

    proto = _model()
    a = ge_mlir.compile(proto, options={"num_threads": 2})
    b = ge_mlir.compile(proto, options={"num_threads": 2})
    rng = np.random.default_rng(4)
    xs = [rng.standard_normal((1, 16, 32, 32)).astype(np.float32) for _ in range(6)]
    want = [a(x)[0] for x in xs]
    with ThreadPoolExecutor(2) as pool:
        got = list(pool.map(lambda ix: (a if ix[0] % 2 else b)(ix[1])[0], enumerate(xs * 5)))
    for i, g in enumerate(got):
        np.testing.assert_array_equal(g, want[i % len(xs)])


def test_split_elementwise_window_and_row_ops_give_the_bits_of_one_thread():
    """Large generics (a depthwise conv's tap sum, a max pool, an epilogue, a softmax's row
    reductions) are split over the threads along a parallel loop: same bits as one thread."""
    import onnxruntime as ort

    rng = np.random.default_rng(5)
    dw = numpy_helper.from_array(rng.standard_normal((64, 1, 3, 3)).astype(np.float32), "dw")
    nodes = [
        helper.make_node("Conv", ["x", "dw"], ["d"], group=64, pads=[1, 1, 1, 1], name="depthwise"),
        helper.make_node("Relu", ["d"], ["r"], name="relu"),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], name="pool"),
        helper.make_node("Reshape", ["p", "rows"], ["m"], name="rows"),  # [2048, 32]
        helper.make_node("Softmax", ["m"], ["y"], axis=-1, name="softmax"),
    ]
    rows = numpy_helper.from_array(np.array([2048, 32], np.int64), "rows")
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, 64, 64])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2048, 32])],
                              initializer=[dw, rows])
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = rng.standard_normal((1, 64, 64, 64)).astype(np.float32)
    one = ge_mlir.compile(proto, options={"num_threads": 1})
    two = ge_mlir.compile(proto, options={"num_threads": 2})
    assert two.ir("bufferized").count("scf.parallel") >= 3
    (a,), (b,) = one(x), two(x)
    np.testing.assert_array_equal(a, b)
    (want,) = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    np.testing.assert_allclose(b, want, rtol=1e-5, atol=1e-6)


def test_a_forked_child_runs_threaded_code_on_a_team_of_its_own():
    """fork() copies the team's state but none of its threads: the child must not wait for the
    parent's workers (it would hang); it starts its own team and gets the parent's bits."""
    import multiprocessing as mp

    proto = _model()
    x = np.random.default_rng(6).standard_normal((1, 16, 32, 32)).astype(np.float32)
    model = ge_mlir.compile(proto, options={"num_threads": 2})
    want = model(x)[0]  # the parent's team is running
    ctx = mp.get_context("fork")
    queue = ctx.Queue()

    def child() -> None:
        queue.put(bool(np.array_equal(model(x)[0], want)))

    proc = ctx.Process(target=child)
    proc.start()
    proc.join(60)
    alive = proc.is_alive()
    if alive:
        proc.kill()
    assert not alive, "the forked child hung in the thread team"
    assert proc.exitcode == 0 and queue.get(timeout=5)
