"""The error every refused graph edit raises."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...errors import Diagnostic, GraphEditError

if TYPE_CHECKING:
    from .nodes import Node


def _edit_error(message: str, node: Node | None = None, diagnostics: Sequence[Diagnostic] = ()) -> GraphEditError:
    """The error refusing an edit of ``node`` (``location``: where a pass reports it)."""
    err = GraphEditError(message, diagnostics=diagnostics, node=node.name if node is not None else None,
                         op=node.ge_op if node is not None else None)
    err.location = node.location if node is not None else None  # type: ignore[attr-defined]
    return err
