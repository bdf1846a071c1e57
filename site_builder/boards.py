"""Boards drawn as SVG from their JSON (bank entries), for the index and the articles."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from site_builder.provenance import Node

CELL = 28


def _raw(x: Any) -> Any:
    return x.v if isinstance(x, Node) else x


def board_svg(entry: Any, solved: bool = False, cell: int = CELL, label: str = "") -> Markup:
    """An SVG of a bank entry: clues always, the answer too when ``solved``.

    Canal View shades flooded cells; Sukoro draws numbers in circles (printed clues dark,
    answer numbers light).
    """
    e = _raw(entry)
    board = e["board"]
    h, w = board["h"], board["w"]
    clues = board["clues"]
    rows = e["answer"]["rows"] if solved and "answer" in e else None
    canal = "#" in "".join(rows) if rows else e.get("kind") == "canal"
    width, height = w * cell + 2, h * cell + 2
    alt = label or f"{'solved ' if solved else ''}board"
    out = [(f'<svg class="board" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
           f'role="img" aria-label="{escape(alt)}" xmlns="http://www.w3.org/2000/svg">'),
           f'<rect x="1" y="1" width="{w * cell}" height="{h * cell}" fill="#fff"/>']
    for r in range(h):
        for c in range(w):
            x, y = 1 + c * cell, 1 + r * cell
            a = rows[r][c] if rows else "."
            if canal and a == "#":
                out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#2f7fa8"/>')
            v = clues[r][c]
            cx, cy = x + cell / 2, y + cell / 2 + cell * 0.17
            if v is not None:
                size = cell * (0.55 if len(str(v)) == 1 else 0.42)
                out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" class="clue" text-anchor="middle" '
                           f'font-size="{size:.0f}">{escape(str(v))}</text>')
            elif rows and not canal and a != ".":
                out.append(f'<circle cx="{cx:.1f}" cy="{y + cell / 2:.1f}" r="{cell * 0.4:.1f}" '
                           f'fill="#e8f1f5" stroke="#6a98ad"/>')
                out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" class="ans" text-anchor="middle" '
                           f'font-size="{cell * 0.5:.0f}" fill="#1f6f8b">{escape(a)}</text>')
    for i in range(h + 1):
        out.append(f'<line x1="1" y1="{1 + i * cell}" x2="{1 + w * cell}" y2="{1 + i * cell}" '
                   f'stroke="#555" stroke-width="{2 if i in (0, h) else 0.6}"/>')
    for j in range(w + 1):
        out.append(f'<line x1="{1 + j * cell}" y1="1" x2="{1 + j * cell}" y2="{1 + h * cell}" '
                   f'stroke="#555" stroke-width="{2 if j in (0, w) else 0.6}"/>')
    out.append("</svg>")
    return Markup("".join(out))
