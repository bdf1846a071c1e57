"""Slitherlink's rules table and the rule check of a finished answer.

The ids follow pzprjs's checks for slither (brNoLine, lnBranch, lnCross, nmLineNe,
lnPlLoop, lnDeadEnd), in its order. Grid corners are named by their row and column of
corners, counted from 1 at the board's top-left corner; a corner's cells are the (up to
four) cells around it.
"""

from __future__ import annotations

from solvers.common import Cell, PuzzleError, Rule, RuleBook, Violation

from .board import Answer, Board, Layout, layout

RULES = RuleBook((
    Rule("slither.noline", "none",
         "There is no line on the board; the loop must run along some of its {edges} edges.",
         "線が一本も引かれていません。ループは盤の{edges}本の辺のどこかを通ります。"),
    Rule("slither.branch", "the cells around the grid corner",
         "Three lines meet at the grid corner in corner row {row}, column {col}; the loop "
         "never branches.",
         "格子点（上から{row}番目、左から{col}番目）で線が三本に分かれています。線は枝分かれしません。"),
    Rule("slither.cross", "the cells around the grid corner",
         "Four lines meet at the grid corner in corner row {row}, column {col}; the loop "
         "never crosses itself.",
         "格子点（上から{row}番目、左から{col}番目）で線が交差しています。線は交差しません。"),
    Rule("slither.count", "that cell",
         "The {clue} at row {row}, column {col} has {count} of its sides on the loop, "
         "not {clue}.",
         "{row}行{col}列の{clue}のまわりを通る線は{count}本で、{clue}本ではありません。"),
    # partial-only: a clue that no way of filling the undecided edges can satisfy
    Rule("slither.over", "that cell",
         "The {clue} at row {row}, column {col} already has {count} lines around it, more "
         "than {clue}.",
         "{row}行{col}列の{clue}のまわりには、すでに線が{count}本あり、{clue}本を超えています。"),
    Rule("slither.under", "that cell",
         "The {clue} at row {row}, column {col} can get at most {most} lines around it, "
         "fewer than {clue}.",
         "{row}行{col}列の{clue}のまわりに引ける線は多くても{most}本で、{clue}本に届きません。"),
    Rule("slither.loops", "the cells beside every line outside the longest piece",
         "The lines form {pieces} separate pieces; they must form one single loop.",
         "線が{pieces}個に分かれています。線は全体でひとつのループでなければなりません。"),
    # partial-only: a finished loop with other lines outside it
    Rule("slither.closed", "the cells beside every line outside the closed loop",
         "A loop is already closed, but {others} other piece(s) of line lie outside it; "
         "there must be one loop.",
         "ループがすでに閉じていますが、その外に線のかたまりが{others}個残っています。ループはひとつだけです。"),
    Rule("slither.deadend", "the cells around the grid corner",
         "A line ends at the grid corner in corner row {row}, column {col}; the loop has no "
         "ends.",
         "格子点（上から{row}番目、左から{col}番目）で線が途切れています。ループに端はありません。"),
))


def corner_cells(h: int, w: int, v: int) -> list[Cell]:
    y, x = divmod(v, w + 1)
    return [(r, c) for r in (y - 1, y) for c in (x - 1, x) if 0 <= r < h and 0 <= c < w]


def edge_side_cells(lay: Layout, edges: list[int]) -> list[Cell]:
    """The cells beside the edges (each once)."""
    seen = {i for e in edges for i in lay.edge_cells[e]}
    return [divmod(i, lay.w) for i in sorted(seen)]


def pieces(lay: Layout, on: list[int] | tuple[int, ...]) -> list[list[int]]:
    """The connected pieces of the lines (edges in state 1), each a sorted edge list, in
    order of their first edge."""
    seen = [False] * lay.ne
    out = []
    for e0 in range(lay.ne):
        if on[e0] != 1 or seen[e0]:
            continue
        seen[e0] = True
        stack, piece = [e0], []
        while stack:
            e = stack.pop()
            piece.append(e)
            for v in lay.edge_ends[e]:
                for f in lay.vertex_edges[v]:
                    if on[f] == 1 and not seen[f]:
                        seen[f] = True
                        stack.append(f)
        out.append(sorted(piece))
    return out


def largest(ps: list[list[int]]) -> int:
    """The index of the piece with the most edges (ties: the first)."""
    best = 0
    for i, p in enumerate(ps):
        if len(p) > len(ps[best]):
            best = i
    return best


def corner_params(w: int, v: int) -> dict[str, int]:
    y, x = divmod(v, w + 1)
    return {"row": y + 1, "col": x + 1}


def violations(board: Board, answer: Answer) -> list[Violation]:
    if (board.h, board.w) != (answer.h, answer.w):
        raise PuzzleError(
            f"answer is {answer.h}×{answer.w} but the board is {board.h}×{board.w}")
    return check(board, answer.on)


def check(board: Board, on: list[int] | tuple[int, ...]) -> list[Violation]:
    """The rule check of lines ``on`` (1 a line, anything else none)."""
    h, w = board.h, board.w
    lay = layout(h, w)
    out: list[Violation] = []
    if not any(s == 1 for s in on):
        out.append(RULES.make("slither.noline", [], edges=lay.ne))
    deg = [sum(1 for e in lay.vertex_edges[v] if on[e] == 1) for v in range(lay.nvert)]
    for v, d in enumerate(deg):
        if d == 3:
            out.append(RULES.make("slither.branch", corner_cells(h, w, v), **corner_params(w, v)))
        elif d == 4:
            out.append(RULES.make("slither.cross", corner_cells(h, w, v), **corner_params(w, v)))
    for i, clue in enumerate(board.flat()):
        if isinstance(clue, int):
            n = sum(1 for e in lay.cell_edges[i] if on[e] == 1)
            if n != clue:
                r, c = divmod(i, w)
                out.append(RULES.make("slither.count", [(r, c)], row=r + 1, col=c + 1,
                                      clue=clue, count=n))
    ps = pieces(lay, on)
    if len(ps) > 1:
        big = largest(ps)
        rest = [e for k, p in enumerate(ps) if k != big for e in p]
        out.append(RULES.make("slither.loops", edge_side_cells(lay, rest), pieces=len(ps)))
    for v, d in enumerate(deg):
        if d == 1:
            out.append(RULES.make("slither.deadend", corner_cells(h, w, v),
                                  **corner_params(w, v)))
    return RULES.sort(out)
