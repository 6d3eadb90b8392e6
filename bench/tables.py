"""One table printer for the bench scripts: Markdown, or aligned text (first column left)."""

from __future__ import annotations

from collections.abc import Sequence


def print_table(header: Sequence[str], body: Sequence[Sequence[str]], markdown: bool = False) -> None:
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in body:
            print("| " + " | ".join(r) + " |")
        return
    widths = [max(len(h), *(len(r[i]) for r in body)) for i, h in enumerate(header)] if body else \
        [len(h) for h in header]
    for row in (header, *body):
        print("  ".join(f"{c:<{w}}" if i == 0 else f"{c:>{w}}" for i, (c, w) in enumerate(zip(row, widths))))
