"""Drawing pieces for board pictures (SVG text), shared by the puzzles' ``draw_board``.

Pure string building, no I/O. A puzzle composes a picture from these: a ``Canvas`` of
H×W cells, filled cells, text, circles, arrows, and thick borders wherever two cells
belong to different regions or pieces. The site wraps the result as markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

# Colours of the shared visual vocabulary.
INK = "#111"
GRID = "#555"
WATER = "#2f7fa8"
ANSWER_FILL = "#e8f1f5"
ANSWER_STROKE = "#6a98ad"
ANSWER_INK = "#1f6f8b"

# Arrow directions: name -> (dr, dc) the arrow points along.
DIRS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class Canvas:
    """An H×W board picture at ``cell`` units per cell, with a 1-unit margin."""

    def __init__(self, h: int, w: int, cell: int, label: str) -> None:
        self.h, self.w, self.cell = h, w, cell
        self.label = label
        self.parts: list[str] = [
            f'<rect x="1" y="1" width="{w * cell}" height="{h * cell}" fill="#fff"/>']
        self.over: list[str] = []   # drawn above the grid lines (borders)

    def xy(self, r: int, c: int) -> tuple[float, float]:
        """Top-left corner of cell (r, c)."""
        return 1 + c * self.cell, 1 + r * self.cell

    def centre(self, r: int, c: int) -> tuple[float, float]:
        x, y = self.xy(r, c)
        return x + self.cell / 2, y + self.cell / 2

    def fill(self, r: int, c: int, colour: str) -> None:
        x, y = self.xy(r, c)
        self.parts.append(f'<rect x="{x}" y="{y}" width="{self.cell}" height="{self.cell}" '
                          f'fill="{colour}"/>')

    def text(self, r: int, c: int, value: Any, cls: str = "clue", colour: str | None = None,
             scale: float | None = None) -> None:
        s = str(value)
        size = self.cell * (scale or (0.55 if len(s) == 1 else 0.42))
        cx, cy = self.centre(r, c)
        fill = f' fill="{colour}"' if colour else ""
        self.parts.append(f'<text x="{cx:.1f}" y="{cy + self.cell * 0.17:.1f}" class="{cls}" '
                          f'text-anchor="middle" font-size="{size:.0f}"{fill}>{escape(s)}</text>')

    def circle(self, r: int, c: int, fill: str = "#fff", stroke: str = INK,
               radius: float = 0.4, width: float | None = None) -> None:
        cx, cy = self.centre(r, c)
        sw = "" if width is None else f' stroke-width="{width}"'
        self.parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{self.cell * radius:.1f}" '
                          f'fill="{fill}" stroke="{stroke}"{sw}/>')

    def arrow(self, r: int, c: int, direction: str, colour: str = INK) -> None:
        """An arrow across the cell pointing ``direction`` (up, down, left, right)."""
        dr, dc = DIRS[direction]
        cx, cy = self.centre(r, c)
        a = self.cell * 0.3
        tx, ty = cx + dc * a, cy + dr * a          # tip
        bx, by = cx - dc * a, cy - dr * a          # tail
        px, py = -dr * a * 0.55, dc * a * 0.55      # perpendicular, for the head
        hx, hy = cx + dc * a * 0.1, cy + dr * a * 0.1
        self.parts.append(
            f'<path d="M{bx:.1f} {by:.1f}L{tx:.1f} {ty:.1f}M{hx + px:.1f} {hy + py:.1f}'
            f'L{tx:.1f} {ty:.1f}L{hx - px:.1f} {hy - py:.1f}" fill="none" stroke="{colour}" '
            f'stroke-width="{max(1.5, self.cell / 14):.1f}" stroke-linecap="round"/>')

    def borders(self, owner: Sequence[Sequence[Any]], width: float = 2.5,
                colour: str = INK) -> None:
        """Thick lines between orthogonal neighbours whose ``owner`` differs (regions,
        pieces); ``None`` owners draw no line."""
        segs = []
        cell = self.cell
        for r in range(self.h):
            for c in range(self.w):
                x, y = self.xy(r, c)
                if c + 1 < self.w and owner[r][c] != owner[r][c + 1]:
                    segs.append(f"M{x + cell} {y}v{cell}")
                if r + 1 < self.h and owner[r][c] != owner[r + 1][c]:
                    segs.append(f"M{x} {y + cell}h{cell}")
        if segs:
            self.over.append(f'<path d="{"".join(segs)}" stroke="{colour}" '
                              f'stroke-width="{width}" stroke-linecap="square" fill="none"/>')

    def svg(self) -> str:
        """The picture: fills, text and marks, then the grid lines, then the borders."""
        h, w, cell = self.h, self.w, self.cell
        width, height = w * cell + 2, h * cell + 2
        head = (f'<svg class="board" viewBox="0 0 {width} {height}" width="{width}" '
                f'height="{height}" role="img" aria-label="{escape(self.label)}" '
                'xmlns="http://www.w3.org/2000/svg">')
        out = [head]
        out.extend(self.parts)
        out.extend(f'<line x1="1" y1="{1 + i * cell}" x2="{1 + w * cell}" y2="{1 + i * cell}" '
                   f'stroke="{GRID}" stroke-width="{2 if i in (0, h) else 0.6}"/>'
                   for i in range(h + 1))
        out.extend(f'<line x1="{1 + j * cell}" y1="1" x2="{1 + j * cell}" y2="{1 + h * cell}" '
                   f'stroke="{GRID}" stroke-width="{2 if j in (0, w) else 0.6}"/>'
                   for j in range(w + 1))
        out.extend(self.over)
        out.append("</svg>")
        return "".join(out)
