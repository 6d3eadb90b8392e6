"""Emit a module in the ``ascendc`` dialect as an Ascend C project.

    files = emit_project(module)          # {"add_0.cpp": "...", "tiling.h": "...", "constants.bin": b"..."}
    write_project(module, "out/")         # the same, written to a directory

Project layout:

* ``<kernel>.cpp``  one per ``ascendc.kernel``: ``extern "C" __global__ __aicore__ void <kernel>(GM_ADDR ...)``;
  one Ascend C API call per op.
* ``tiling.h``      one ``struct <kernel>_Tiling { int64_t field; ... };`` per kernel with a tiling attribute
  (fields in attribute order); the host fills it and passes it by value at each launch.
* ``kernels.h``     the kernels' ``extern "C"`` prototypes, for the host code.
* ``host.cpp``      ``extern "C" int ge_graph_run(const void* const* inputs, void* const* outputs)`` from the
  ``ascendc.host`` op; a CPU-shim path (``ASCENDC_CPU_DEBUG``) and an ACL runtime path. With a
  ``ge.memory_plan`` on the host (``ge-plan-device-memory``) all intermediates share one allocation.
* ``constants.bin`` the ``gm_constant`` values, each at a 64-byte aligned offset; the host reads it from
  the path given to ``ge_graph_set_constants_path`` (default: ``GE_GRAPH_CONSTANTS_PATH``, set by CMake).
  A file rather than an embedded array so that large weights do not go through the C++ compiler.
* ``runner.cpp``    a command-line driver of ``ge_graph_run`` (inputs and outputs as raw files), used by
  ``shim_runner`` to run the graph in a child process.
* ``graph.json``    names, dtypes, shapes and byte sizes of the graph's inputs and outputs.
* ``CMakeLists.txt``, ``README.md``.

Optional attributes read by the emitter (discardable, in the ops' attribute dictionaries):

* ``arg_names = ["x", "y", "z"]`` on ``ascendc.kernel`` and ``ascendc.host``: C++ names of the arguments
  (default ``a0, a1, ...``) and, on the host, the input/output names in ``graph.json``.
* ``arg_shapes = [[2, 32], [64], ...]`` on ``ascendc.host``: the shapes in ``graph.json`` (default:
  1-D, ``bytes / sizeof(T)`` elements).
* ``ge.memory_plan`` on ``ascendc.host`` and ``offset`` on each ``gm_alloc``: the device arena
  (``ge-plan-device-memory``), checked again before it is emitted.

Anything the emitter does not know raises :class:`EmitError` naming the op and its location.

Modules: ``kernel`` (kernel bodies), ``host`` (host.cpp, runner.cpp, constants.bin), ``project`` (the other
files and the entry points), ``common`` (names, C++ types and literals, ascendc types and attributes,
templates). The fixed C++/CMake text is in ``../templates/`` (package data, ``@name@`` placeholders).
"""

from .common import EmitError
from .project import emit_project, write_project

__all__ = ["EmitError", "emit_project", "write_project"]
