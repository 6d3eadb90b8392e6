"""Checks every ``<<<...>>>`` kernel launch of a host source against the documented form.

The Ascend C kernel launch operator is ``kernel<<<numBlocks, dynUBufSize, stream>>>(args...)``
(ASCENDC_API.md, "Kernel launch operator" and Corrections 3): ``numBlocks`` a block count,
``dynUBufSize`` a ``uint32_t`` dynamic unified-buffer size (0 when unused; a pointer such as
``nullptr`` is the old ``l2ctrl`` form current toolkits reject), ``stream`` an ``aclrtStream``.
g++ never parses ``<<<``, so the CPU shim cannot catch a wrong launch: this check does, on every
emitted project, and ``ge_mlir.target.ascendc.emit.launch_check`` runs on any file.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping

_LAUNCH = re.compile(r"\b([A-Za-z_]\w*)\s*<<<(.*?)>>>\s*\(")
_UINT = re.compile(r"^(0|[1-9]\d*)[uU]?$")
_IDENT = re.compile(r"^[A-Za-z_]\w*$")


def _split_args(text: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return out


def _call_args(text: str, start: int) -> list[str]:
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    inner = text[start:i - 1].strip()
    return _split_args(inner) if inner else []


def check_launches(source: str, kernel_params: Mapping[str, int] | None = None) -> list[str]:
    """Problems with the ``<<<>>>`` launches of ``source`` (empty: all follow the documented form).
    ``kernel_params``: parameter count of each known kernel, to check names and argument counts."""
    problems = []
    for m in _LAUNCH.finditer(source):
        line = source.count("\n", 0, m.start()) + 1
        name, config = m.group(1), _split_args(m.group(2))
        where = f"line {line}: {name}<<<{m.group(2)}>>>"
        if len(config) != 3:
            problems.append(f"{where}: expected <<<numBlocks, dynUBufSize, stream>>>, got {len(config)} argument(s)")
            continue
        blocks, ubuf, stream = config
        if _UINT.match(blocks):
            if not 1 <= int(blocks.rstrip("uU")) <= 65535:
                problems.append(f"{where}: numBlocks {blocks} is outside 1..65535")
        elif not _IDENT.match(blocks):
            problems.append(f"{where}: numBlocks must be a count or a variable, got {blocks!r}")
        if not _UINT.match(ubuf) and not _IDENT.match(ubuf) or ubuf in ("nullptr", "NULL"):
            problems.append(f"{where}: dynUBufSize must be a uint32_t byte count (0: none), got {ubuf!r} "
                            f"(a pointer there is the old l2ctrl form)")
        if not _IDENT.match(stream) or stream in ("nullptr", "NULL", "0"):
            problems.append(f"{where}: stream must be an aclrtStream variable, got {stream!r}")
        if kernel_params is not None:
            if name not in kernel_params:
                problems.append(f"{where}: launches {name}, which is not a kernel of the project")
            else:
                n = len(_call_args(source, m.end()))
                if n != kernel_params[name]:
                    problems.append(f"{where}: {n} argument(s) for a kernel of {kernel_params[name]} parameter(s)")
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python -m ge_mlir.target.ascendc.emit.launch_check host.cpp ...``: exit 1 on a bad launch."""
    bad = 0
    for path in (argv if argv is not None else sys.argv[1:]):
        with open(path, encoding="utf-8") as f:
            for p in check_launches(f.read()):
                print(f"{path}: {p}", file=sys.stderr)
                bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
