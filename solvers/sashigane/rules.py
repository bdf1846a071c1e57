"""The rules table and the rule check (``violations``), for both rule variants.

One rule id per clause. Checks that need a corner or arm ends (circle on the corner,
arrows on ends pointing at the corner, the seed's one-circle / one-arrow count) look at
L-shaped pieces only, as pzprjs does; the size check looks at every piece.
"""

from __future__ import annotations

from solvers.common import PuzzleError, Rule, RuleBook, Violation

from .board import ARROW, CIRCLE, Answer, Board, l_shape

RULES = RuleBook([
    Rule("sashigane.cover", "the cell",
         "The cell at row {row}, column {col} belongs to no piece.",
         "{row}行{col}列のマスがどのピースにも入っていません。"),
    Rule("sashigane.border", "the two cells on either side of the line",
         "The line between row {row}, column {col} and row {row2}, column {col2} lies "
         "inside one piece; a line must separate two pieces.",
         "{row}行{col}列と{row2}行{col2}列の間の線が、一つのピースの中にあります。"
         "線は二つのピースを分けるものです。"),
    Rule("sashigane.shape", "every cell of the piece",
         "The piece at row {row}, column {col} has {size} cells and is not an L of width 1.",
         "{row}行{col}列のピース（{size}マス）は幅1のL字ではありません。"),
    Rule("sashigane.circles", "the circles of the piece",
         "The piece at row {row}, column {col} holds {count} circles; a piece holds at "
         "most one.",
         "{row}行{col}列のピースに丸が{count}個あります。丸は一つのピースに一個までです。"),
    Rule("sashigane.no_circle", "every cell of the piece",
         "The piece at row {row}, column {col} has no circle; each piece holds one, on its "
         "corner.",
         "{row}行{col}列のピースに丸がありません。丸は各ピースの曲がり角に一個あります。"),
    Rule("sashigane.corner", "the circle",
         "The circle at row {row}, column {col} is not on the corner of its piece.",
         "{row}行{col}列の丸が、ピースの曲がり角に乗っていません。"),
    Rule("sashigane.arrows", "the arrows of the piece",
         "The piece at row {row}, column {col} holds {count} arrows; each piece holds "
         "exactly one.",
         "{row}行{col}列のピースに矢印が{count}個あります。矢印は各ピースにちょうど一個です。"),
    Rule("sashigane.no_arrow", "every cell of the piece",
         "The piece at row {row}, column {col} has no arrow; each piece holds one, on an end.",
         "{row}行{col}列のピースに矢印がありません。矢印は各ピースの端に一個あります。"),
    Rule("sashigane.arrow_end", "the arrow",
         "The arrow at row {row}, column {col} is not on an end of its piece.",
         "{row}行{col}列の矢印が、ピースの端に乗っていません。"),
    Rule("sashigane.arrow_point", "the arrow",
         "The arrow at row {row}, column {col} does not point along its arm to the corner.",
         "{row}行{col}列の矢印が、腕に沿って曲がり角のほうを向いていません。"),
    Rule("sashigane.size", "the numbered circle",
         "The circle at row {row}, column {col} says {number}, but its piece has {size} "
         "cells.",
         "{row}行{col}列の丸の数字は{number}ですが、ピースは{size}マスです。"),
    # partial-only: what no way of drawing the undecided lines can repair (partial.py)
    Rule("sashigane.bent", "the cells joined by no-line marks",
         "The {size} cells joined at row {row}, column {col} can no longer be part of one L "
         "of width 1.",
         "{row}行{col}列からつながる{size}マスは、もう幅1のL字の一部になれません。"),
    Rule("sashigane.grown", "the numbered circle",
         "The circle at row {row}, column {col} says {number}, but {size} cells are already "
         "joined to it.",
         "{row}行{col}列の丸の数字は{number}ですが、すでに{size}マスがつながっています。"),
    Rule("sashigane.corner_lost", "the circle",
         "The circle at row {row}, column {col} can no longer be the corner of its piece, "
         "which must leave it once sideways and once up or down.",
         "{row}行{col}列の丸は、もうピースの曲がり角になれません。ピースは丸から左右の"
         "一方と上下の一方へ伸びます。"),
    Rule("sashigane.arm_cut", "the arrow and the two cells on either side of the line",
         "The arrow at row {row}, column {col} points along its arm to its corner, but a "
         "line crosses that arm between row {row2}, column {col2} and row {row3}, column "
         "{col3}.",
         "{row}行{col}列の矢印は腕に沿って曲がり角を指しますが、その腕を{row2}行{col2}列と"
         "{row3}行{col3}列の間の線が横切っています。"),
    Rule("sashigane.arrow_joined", "the arrow and the cell joined to it",
         "The arrow at row {row}, column {col} sits on an end of its piece, so it cannot join "
         "row {row2}, column {col2}: its piece goes on only the way it points.",
         "{row}行{col}列の矢印はピースの端にあるので、{row2}行{col2}列とはつながりません。"
         "ピースは矢印の向きにだけ続きます。"),
    Rule("sashigane.region", "every cell of the closed region",
         "The region closed off at row {row}, column {col} holds {circles} circles and "
         "{arrows} arrows; every piece needs exactly one of each.",
         "{row}行{col}列を含む閉じた領域には丸が{circles}個、矢印が{arrows}個あります。"
         "どのピースにも丸と矢印がちょうど一個ずつ要ります。"),
    Rule("sashigane.region_size", "every cell of the closed region",
         "The region closed off at row {row}, column {col} has {size} cells, but the pieces "
         "of its circles need {least} to {most}.",
         "{row}行{col}列を含む閉じた領域は{size}マスですが、その中の丸のピースには合わせて"
         "{least}〜{most}マスが要ります。"),
])


# Rules only the partial check (partial.py) reports; violations() never does.
PARTIAL_ONLY = frozenset({"sashigane.bent", "sashigane.grown", "sashigane.corner_lost",
                          "sashigane.arm_cut", "sashigane.arrow_joined", "sashigane.region",
                          "sashigane.region_size"})


def violations(board: Board, answer: Answer) -> list[Violation]:
    """Every broken rule, sorted by (rule order, cells). Empty list: solved."""
    if (board.h, board.w) != (answer.h, answer.w):
        raise PuzzleError(f"answer is {answer.h}×{answer.w} but the board is "
                          f"{board.h}×{board.w}")
    w = board.w
    out: list[Violation] = []

    def rc(i: int) -> tuple[int, int]:
        return divmod(i, w)

    def at(i: int) -> dict[str, int]:
        """Row and column (from 1) of cell i, for the messages."""
        r, c = divmod(i, w)
        return {"row": r + 1, "col": c + 1}

    for i, p in enumerate(answer.pieces):
        if p < 0:
            out.append(RULES.make("sashigane.cover", [rc(i)], **at(i)))
    for a, b in answer.stray:
        out.append(RULES.make("sashigane.border", [a, b], row=a[0] + 1, col=a[1] + 1,
                              row2=b[0] + 1, col2=b[1] + 1))
    for cells in answer.groups():
        if cells:
            out.extend(piece_violations(board, cells))
    return RULES.sort(out)


def piece_violations(board: Board, cells: list[int]) -> list[Violation]:
    """The rules one piece (its cells, row-major) breaks: shape, circles, arrows, size."""
    w = board.w
    seed = board.rules == "seed"
    out: list[Violation] = []

    def rc(i: int) -> tuple[int, int]:
        return divmod(i, w)

    def at(i: int) -> dict[str, int]:
        r, c = divmod(i, w)
        return {"row": r + 1, "col": c + 1}

    circles = [i for i in cells if board.cells[i].kind == CIRCLE]
    arrows = [i for i in cells if board.cells[i].kind == ARROW]
    shape = l_shape(cells, w)
    first = at(min(cells))
    if shape is None:
        out.append(RULES.make("sashigane.shape", map(rc, cells), size=len(cells), **first))
    if len(circles) > 1:
        out.append(RULES.make("sashigane.circles", map(rc, circles), count=len(circles),
                              **first))
    if shape is not None:
        if seed and not circles:
            out.append(RULES.make("sashigane.no_circle", map(rc, cells), **first))
        out.extend(RULES.make("sashigane.corner", [rc(i)], **at(i))
                   for i in circles if i != shape.corner)
        if seed and len(arrows) > 1:
            out.append(RULES.make("sashigane.arrows", map(rc, arrows),
                                  count=len(arrows), **first))
        if seed and not arrows:
            out.append(RULES.make("sashigane.no_arrow", map(rc, cells), **first))
        for i in arrows:
            if i not in shape.ends:
                out.append(RULES.make("sashigane.arrow_end", [rc(i)], **at(i)))
            elif board.cells[i].value != shape.toward[shape.ends.index(i)]:
                out.append(RULES.make("sashigane.arrow_point", [rc(i)], **at(i)))
    for i in circles:
        n = board.cells[i].value
        if n is not None and n > 0 and n != len(cells):
            out.append(RULES.make("sashigane.size", [rc(i)], number=n, size=len(cells),
                                  **at(i)))
    return out
