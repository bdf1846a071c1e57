"""Canal View's rules table, what a number sees under each reading of the rules, and the
rule check (``violations``)."""

from __future__ import annotations

from solvers.common import PuzzleError, Rule, RuleBook, Violation
from solvers.grid import connect_violations, groups

from .board import DIRS, STANDARD, Answer, Board, Rules

# The one rules table: Python's violations(), the play page's checker and the docs all
# read these texts. Fields: row/col 1-based; row2/col2 the far corner of a 2x2 block.
RULES = RuleBook((
    Rule("canal.numbered", "that cell",
         "The numbered cell at row {row}, column {col} is flooded; numbered cells stay dry.",
         "{row}行{col}列の数字のマスが水路になっています。数字のマスは水路にできません。"),
    Rule("canal.2x2", "its four cells",
         "The 2×2 block at rows {row}–{row2}, columns {col}–{col2} is entirely flooded.",
         "{row}〜{row2}行・{col}〜{col2}列の2×2がすべて水路になっています。"),
    Rule("canal.count", "that cell",
         "The {clue} at row {row}, column {col} sees {seen} flooded cells, not {clue}.",
         "{row}行{col}列の{clue}から見える水路は{seen}マスで、{clue}マスではありません。"),
    Rule("canal.connect", "every flooded cell outside the largest group",
         "The canal is split into {pieces} separate pieces; it must be one connected group.",
         "水路が{pieces}つに分かれています。水路はすべてつながっていなければなりません。"),
    Rule("canal.dryconnect", "every dry cell outside the largest group",
         "The dry cells are split into {pieces} pieces.",
         "水路でないマスが{pieces}つに分かれています。"),
    # only while cells are undecided (solvers/canal_view/partial.py): what no filling repairs
    Rule("canal.over", "the number and the flooded cells it sees",
         "The {clue} at row {row}, column {col} already sees {seen}, more than {clue}.",
         "{row}行{col}列の{clue}からはすでに水路が{seen}マス見えていて、{clue}を超えています。"),
    Rule("canal.short", "the number and the dry marks that end its views",
         ("The {clue} at row {row}, column {col} can now see at most {most}, not {clue}: "
          "dry cells block its view."),
         "{row}行{col}列の{clue}から見える水路は多くても{most}マスで、{clue}に届きません。"
         "陸地が視界を遮っています。"),
    Rule("canal.walled", "the flooded cells outside the largest part",
         "Dry cells split the canal into {pieces} parts that can no longer join.",
         "水路が陸地に遮られて{pieces}つに分かれ、もうつなげられません。"),
))


def seen_runs(board_h: int, board_w: int, mask: int, r: int, c: int) -> list[int]:
    """Flooded run length in each direction (up, right, down, left) from (r, c)."""
    out = []
    for dr, dc in DIRS:
        k = 0
        rr, cc = r + dr, c + dc
        while 0 <= rr < board_h and 0 <= cc < board_w and mask >> (rr * board_w + cc) & 1:
            k += 1
            rr += dr
            cc += dc
        out.append(k)
    return out


def line_count(board: Board, mask: int, r: int, c: int) -> int:
    """Flooded cells in the whole row and column of (r, c), the cell itself excluded."""
    n = 0
    for cc in range(board.w):
        if cc != c and mask >> (r * board.w + cc) & 1:
            n += 1
    for rr in range(board.h):
        if rr != r and mask >> (rr * board.w + c) & 1:
            n += 1
    return n


def violations(board: Board, answer: Answer, rules: Rules = STANDARD) -> list[Violation]:
    """Every broken rule, sorted by rule order (numbered, 2x2, count, connect) then cells."""
    if (answer.h, answer.w) != (board.h, board.w):
        raise PuzzleError(f"answer is {answer.h}x{answer.w} but the board is {board.h}x{board.w}")
    h, w, m = board.h, board.w, answer.mask
    out: list[Violation] = []
    for r, c in board.clue_cells():
        if answer.flooded(r, c):
            out.append(RULES.make("canal.numbered", [(r, c)], row=r + 1, col=c + 1))
    if rules.two_by_two:
        for r in range(h - 1):
            for c in range(w - 1):
                cells = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                if all(answer.flooded(*x) for x in cells):
                    out.append(RULES.make("canal.2x2", cells, row=r + 1, col=c + 1,
                                          row2=r + 2, col2=c + 2))
    for r, c in board.clue_cells():
        v = board.clues[r][c]
        if v == "?":
            continue
        seen = line_count(board, m, r, c) if rules.whole_line else sum(seen_runs(h, w, m, r, c))
        if seen != v:
            out.append(RULES.make("canal.count", [(r, c)], row=r + 1, col=c + 1, clue=v,
                                  seen=seen))
    if rules.connected:
        out += connect_violations(RULES, "canal.connect",
                                  groups(x for x in board.cells() if answer.flooded(*x)))
    if rules.dry_connected:
        out += connect_violations(RULES, "canal.dryconnect",
                                  groups(x for x in board.cells() if not answer.flooded(*x)))
    return out
