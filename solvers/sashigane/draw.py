"""Board pictures: SVG (for pages) and plain text (for the terminal)."""

from __future__ import annotations

from typing import Any

from solvers.svg import ANSWER_FILL, Canvas

from .board import ARROW, CIRCLE, MARK, Answer, Board

_PALE = ("#eef4f7", "#f7f1e6")


def draw_board(board_json: Any, answer_json: Any, cell: int, label: str) -> str:
    """Circles (with their numbers), arrows and ``?`` marks; with an answer, the piece
    borders drawn thick and every other piece tinted so the Ls read at a glance."""
    board = Board.from_json(board_json)
    canvas = Canvas(board.h, board.w, cell, label)
    if answer_json is not None:
        answer = Answer.from_json(answer_json)
        for i, p in enumerate(answer.pieces):
            if p >= 0:
                canvas.fill(i // board.w, i % board.w, _PALE[p % 2] if p % 3 else ANSWER_FILL)
        canvas.borders(answer.rows())
    for i, k in enumerate(board.cells):
        r, c = divmod(i, board.w)
        if k.kind == CIRCLE:
            canvas.circle(r, c)
            if k.value is not None:
                canvas.text(r, c, k.value)
        elif k.kind == ARROW:
            canvas.arrow(r, c, k.value)
        elif k.kind == MARK:
            canvas.text(r, c, "?")
    return canvas.svg()


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clue tokens; with an answer, borders drawn with | and -."""
    tokens = [k.token() for k in board.cells]
    wid = max(len(t) for t in tokens)
    w = board.w
    if answer is None:
        return "\n".join(" ".join(tokens[r * w + c].ljust(wid) for c in range(w)).rstrip()
                         for r in range(board.h))
    p = answer.pieces
    lines = []
    for r in range(board.h):
        top = "+"
        for c in range(w):
            edge = r == 0 or p[r * w + c] != p[(r - 1) * w + c]
            top += ("-" * wid if edge else " " * wid) + "+"
        lines.append(top)
        row = "|"
        for c in range(w):
            edge = c == w - 1 or p[r * w + c] != p[r * w + c + 1]
            row += tokens[r * w + c].ljust(wid) + ("|" if edge else " ")
        lines.append(row)
    lines.append("+" + ("-" * wid + "+") * w)
    return "\n".join(lines)


def answer_rows(answer: Answer) -> list[list[int]]:
    return answer.rows()
