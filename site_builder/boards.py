"""Board pictures for the index and the articles, drawn by each puzzle's renderer."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from site_builder.provenance import Node

CELL = 28


def board_svg(puzzle: Any, entry: Any, solved: bool = False, cell: int = CELL,
              label: str = "") -> Markup:
    """An SVG of a bank entry (a Node or a dict with ``board`` and ``answer``): the clues
    always, the answer too when ``solved``."""
    e = entry.v if isinstance(entry, Node) else entry
    answer = e.get("answer") if solved else None
    alt = label or f"{'solved ' if solved else ''}board"
    return Markup(puzzle.draw_board(e["board"], answer, cell, alt))
