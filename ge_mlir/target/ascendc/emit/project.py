"""Project files: the kernel and host sources with tiling.h, kernels.h, graph.json, CMakeLists.txt and
README.md around them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mlir import ir

from ....dialects.ascendc import KernelKindAttr
from ..socs import DEFAULT_SOC, SOCS
from .common import NUMPY, enum_case, error, i64, render, target_soc_arch, tiling_fields
from .host import Host, emit_host, runner
from .kernel import _KernelEmitter


def emit_project(module: ir.Module) -> dict[str, str | bytes]:
    """The files of the Ascend C project for ``module`` (file name -> text or bytes)."""
    kernels, host_op = _top_level(module)
    soc, arch = target_soc_arch(module) or (DEFAULT_SOC, SOCS[DEFAULT_SOC].arch)

    files: dict[str, str | bytes] = {}
    protos = []
    for name, kop in kernels.items():
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise error(kop, f"kernel name '{name}' is not a C++ identifier")
        if name in ("host", "runner", "ge_graph_run"):
            raise error(kop, f"kernel name '{name}' clashes with a generated file or function")
        em = _KernelEmitter(kop)
        files[f"{name}.cpp"] = em.emit()
        protos.append(em.prototype)
    files["tiling.h"] = _tiling_header([(n, tiling_fields(k)) for n, k in kernels.items()])
    files["kernels.h"] = render("kernels.h.in", prototypes=protos)
    host = None
    if host_op is not None:
        host = emit_host(host_op, kernels, soc)
        from .launch_check import check_launches

        params = {n: len(k.regions[0].blocks[0].arguments) + (tiling_fields(k) is not None)
                  for n, k in kernels.items()}
        bad = check_launches(host.code, params)
        if bad:  # the emitter's own mistake: never hand CANN a launch it would reject
            raise error(host_op, "emitted kernel launches do not follow <<<numBlocks, dynUBufSize, stream>>>: "
                        + "; ".join(bad))
        files["host.cpp"] = host.code
        files["runner.cpp"] = runner(host)
        files["constants.bin"] = host.constants
    kernel_files = [f"{n}.cpp" for n in kernels]
    files["graph.json"] = json.dumps(_manifest(kernels, host, soc, arch), indent=2) + "\n"
    files["CMakeLists.txt"] = render(
        "CMakeLists.txt.in", kernels=" ".join(kernel_files), host="host.cpp" if host else "",
        runner=["  add_executable(runner runner.cpp)", "  target_link_libraries(runner PRIVATE graph)"] if host else [],
        soc=soc, arch=arch)
    files["README.md"] = render(
        "README.md.in", kernels=", ".join(kernel_files) or "none",
        host_program=f"`host.cpp` (graph `{host.name}`)" if host else "none", soc=soc, arch=arch)
    return files


def write_project(module: ir.Module, output_dir: str | Path) -> Path:
    """Writes the project of ``module`` into ``output_dir`` (created if needed); returns the directory."""
    out = Path(output_dir)
    files = emit_project(module)
    out.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = out / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return out


def _top_level(module: ir.Module) -> tuple[dict[str, ir.Operation], ir.Operation | None]:
    """The module's kernels by name and its host program (at most one)."""
    kernels: dict[str, ir.Operation] = {}
    hosts: list[ir.Operation] = []
    for o in module.body.operations:
        op = o.operation
        if op.name == "ascendc.kernel":
            kernels[ir.StringAttr(op.attributes["sym_name"]).value] = op
        elif op.name == "ascendc.host":
            hosts.append(op)
        else:
            raise error(op, f"the Ascend C emitter does not support '{op.name}' at module level")
    if len(hosts) > 1:
        raise error(hosts[1], "more than one ascendc.host program in the module")
    return kernels, (hosts[0] if hosts else None)


def _tiling_header(kernels: list[tuple[str, list[tuple[str, int]] | None]]) -> str:
    structs = []
    for name, fields in kernels:
        if fields is None:
            continue
        structs += ["", f"struct {name}_Tiling {{", *(f"  int64_t {f};" for f, _ in fields), "};"]
    return render("tiling.h.in", structs=structs)


def _manifest(kernels: dict[str, ir.Operation], host: Host | None, soc: str, arch: str) -> dict:
    """graph.json: what a runner needs to know without reading the C++."""
    manifest: dict = {"kernels": [{"name": n, "blocks": i64(k.attributes["block_dim"]),
                                   "kind": enum_case(k.attributes["kind"], KernelKindAttr)}
                                  for n, k in kernels.items()],
                      "soc": soc, "arch": arch}
    if host is not None:
        manifest.update({
            "graph": host.name,
            "inputs": [{"name": a.name, "dtype": NUMPY[a.elem], "shape": a.shape, "bytes": a.nbytes}
                       for a in host.inputs],
            "outputs": [{"name": a.name, "dtype": NUMPY[a.elem], "shape": a.shape, "bytes": a.nbytes}
                        for a in host.outputs],
            "constants": "constants.bin",
        })
    return manifest
