"""The rules table and the rule check (``violations``), for both rule variants.

One rule id per clause. Checks that need a corner or arm ends (circle on the corner,
arrows on ends pointing at the corner, the seed's one-circle / one-arrow count) look at
L-shaped pieces only, as pzprjs does; the size check looks at every piece.
"""

from __future__ import annotations

from solvers.common import PuzzleError, Rule, RuleBook, Violation

from .board import ARROW, CIRCLE, DIRS, Answer, Board, l_shape

RULES = RuleBook([
    Rule("sashigane.cover", "the cell",
         "Every cell belongs to a piece.",
         "すべてのマスはどれかのピースに属します。"),
    Rule("sashigane.border", "the two cells on either side of the line",
         "A drawn line must separate two pieces; this one lies inside a single piece.",
         "線は 2 つのピースを分けるものです。この線は 1 つのピースの中にあります。"),
    Rule("sashigane.shape", "every cell of the piece",
         "Each piece is an L of width 1 (this one has {size} cells and is not an L).",
         "ピースは幅 1 の L 字です（このピースは {size} マスで、L 字ではありません）。"),
    Rule("sashigane.circles", "the circles of the piece",
         "A piece holds at most one circle (this one holds {count}).",
         "1 つのピースに丸は 1 個までです（このピースには {count} 個あります）。"),
    Rule("sashigane.no_circle", "every cell of the piece",
         "Each piece holds one circle, on its corner (this piece has none).",
         "各ピースには曲がり角に丸が 1 個あります（このピースにはありません）。"),
    Rule("sashigane.corner", "the circle",
         "A circle sits on the corner of its piece.",
         "丸はピースの曲がり角に乗ります。"),
    Rule("sashigane.arrows", "the arrows of the piece",
         "Each piece holds exactly one arrow (this one holds {count}).",
         "各ピースの矢印はちょうど 1 個です（このピースには {count} 個あります）。"),
    Rule("sashigane.no_arrow", "every cell of the piece",
         "Each piece holds one arrow, on one of its two ends (this piece has none).",
         "各ピースには、2 つの端のどちらかに矢印が 1 個あります（このピースにはありません）。"),
    Rule("sashigane.arrow_end", "the arrow",
         "An arrow sits on an end of its piece.",
         "矢印はピースの端に乗ります。"),
    Rule("sashigane.arrow_point", "the arrow",
         "An arrow points along its arm toward the corner.",
         "矢印は自分の腕に沿って曲がり角のほうを向きます。"),
    Rule("sashigane.size", "the numbered circle",
         "A number is the size of its piece ({number} here, but the piece has {size} cells).",
         "数字はピースのマス数です（数字は {number}、ピースは {size} マスです）。"),
])


def violations(board: Board, answer: Answer) -> list[Violation]:
    """Every broken rule, sorted by (rule order, cells). Empty list: solved."""
    if (board.h, board.w) != (answer.h, answer.w):
        raise PuzzleError(f"answer is {answer.h}×{answer.w} but the board is "
                          f"{board.h}×{board.w}")
    w = board.w
    seed = board.rules == "seed"
    out: list[Violation] = []

    def rc(i: int) -> tuple[int, int]:
        return divmod(i, w)

    for i, p in enumerate(answer.pieces):
        if p < 0:
            out.append(RULES.make("sashigane.cover", [rc(i)]))
    for a, b in answer.stray:
        out.append(RULES.make("sashigane.border", [a, b]))
    for cells in answer.groups():
        if not cells:
            continue
        circles = [i for i in cells if board.cells[i].kind == CIRCLE]
        arrows = [i for i in cells if board.cells[i].kind == ARROW]
        shape = l_shape(cells, w)
        if shape is None:
            out.append(RULES.make("sashigane.shape", map(rc, cells), size=len(cells)))
        if len(circles) > 1:
            out.append(RULES.make("sashigane.circles", map(rc, circles), count=len(circles)))
        if shape is not None:
            if seed and not circles:
                out.append(RULES.make("sashigane.no_circle", map(rc, cells)))
            for i in circles:
                if i != shape.corner:
                    out.append(RULES.make("sashigane.corner", [rc(i)]))
            if seed and len(arrows) > 1:
                out.append(RULES.make("sashigane.arrows", map(rc, arrows), count=len(arrows)))
            if seed and not arrows:
                out.append(RULES.make("sashigane.no_arrow", map(rc, cells)))
            for i in arrows:
                if i not in shape.ends:
                    out.append(RULES.make("sashigane.arrow_end", [rc(i)]))
                elif board.cells[i].value != shape.toward[shape.ends.index(i)]:
                    out.append(RULES.make("sashigane.arrow_point", [rc(i)]))
        for i in circles:
            n = board.cells[i].value
            if n is not None and n > 0 and n != len(cells):
                out.append(RULES.make("sashigane.size", [rc(i)], number=n, size=len(cells)))
    return RULES.sort(out)


def points_to(board: Board, arrow: int, corner: int) -> bool:
    """Whether the arrow at ``arrow`` points straight at the cell ``corner``."""
    dr, dc = DIRS[board.cells[arrow].value]
    w = board.w
    ar, ac = divmod(arrow, w)
    cr, cc = divmod(corner, w)
    if dr:
        return ac == cc and (cr - ar) * dr > 0
    return ar == cr and (cc - ac) * dc > 0
