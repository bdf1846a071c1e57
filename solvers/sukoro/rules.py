"""Sukoro's rules table and the rule check of a finished answer."""

from __future__ import annotations

from solvers.common import PuzzleError, Rule, RuleBook, Violation
from solvers.grid import cell_neighbours, connect_violations, groups

from .board import Answer, Board

# The one rules table: Python's violations(), the play page's checker and the docs all
# read these texts. Fields: row/col 1-based; row2/col2 the second cell of a pair.
RULES = RuleBook((
    Rule("sukoro.clue",
         "that cell (a printed clue whose cell is blank or holds another digit; \"?\": only blank)",
         "The printed {clue} at row {row}, column {col} is not in the answer with that value.",
         "{row}行{col}列に印刷された{clue}が、その数字のまま答えに残っていません。"),
    # partial-only: a clue that no way of filling the undecided cells can satisfy
    Rule("sukoro.over", "the clue and its numbered neighbours",
         "The {clue} at row {row}, column {col} already has {count} numbered neighbours, "
         "more than {clue}.",
         "{row}行{col}列の{clue}の隣には、すでに数字のマスが{count}個あり、{clue}個を超えています。"),
    Rule("sukoro.under", "the clue and its blank neighbours",
         "The {clue} at row {row}, column {col} can get at most {most} numbered neighbours, "
         "fewer than {clue}.",
         "{row}行{col}列の{clue}の隣で数字を入れられるマスは多くても{most}個で、"
         "{clue}個に届きません。"),
    Rule("sukoro.count", "that cell",
         "The {value} at row {row}, column {col} has {count} numbered neighbours, not {value}.",
         "{row}行{col}列の{value}の隣にある数字のマスは{count}個で、{value}個ではありません。"),
    Rule("sukoro.equal", "both cells",
         "The two {value}s at row {row}, column {col} and row {row2}, column {col2} touch; "
         "numbers side by side must differ.",
         "{row}行{col}列と{row2}行{col2}列で同じ{value}が隣り合っています。"
         "隣り合う数字は違う数でなければなりません。"),
    Rule("sukoro.isolated", "that cell",
         "The number at row {row}, column {col} has no numbered neighbour.",
         "{row}行{col}列の数字の隣に、数字のマスがひとつもありません。"),
    Rule("sukoro.connect", "every numbered cell outside the largest group",
         "The numbers are split into {pieces} groups; they must form one connected group.",
         "数字のマスが{pieces}つに分かれています。すべてひとつながりでなければなりません。"),
))


def violations(board: Board, answer: Answer) -> list[Violation]:
    if (board.h, board.w) != (answer.h, answer.w):
        raise PuzzleError(
            f"answer is {answer.h}×{answer.w} but the board is {board.h}×{board.w}")
    h, w = board.h, board.w
    val = answer.values
    out: list[Violation] = []

    for r in range(h):
        for c in range(w):
            clue = board.clues[r][c]
            if clue is None:
                continue
            if val[r][c] == 0 or (clue != "?" and val[r][c] != clue):
                out.append(RULES.make("sukoro.clue", [(r, c)], row=r + 1, col=c + 1, clue=clue))
    for r in range(h):
        for c in range(w):
            count = sum(1 for a, b in cell_neighbours(h, w, r, c) if val[a][b]) if val[r][c] else 0
            if val[r][c] and val[r][c] != count:
                out.append(RULES.make("sukoro.count", [(r, c)], row=r + 1, col=c + 1,
                                      value=val[r][c], count=count))
    for r in range(h):
        for c in range(w):
            v = val[r][c]
            if not v:
                continue
            if c + 1 < w and val[r][c + 1] == v:
                out.append(RULES.make("sukoro.equal", [(r, c), (r, c + 1)], value=v,
                                      row=r + 1, col=c + 1, row2=r + 1, col2=c + 2))
            if r + 1 < h and val[r + 1][c] == v:
                out.append(RULES.make("sukoro.equal", [(r, c), (r + 1, c)], value=v,
                                      row=r + 1, col=c + 1, row2=r + 2, col2=c + 1))
    out.extend(RULES.make("sukoro.isolated", [(r, c)], row=r + 1, col=c + 1)
               for r in range(h) for c in range(w)
               if val[r][c] and not any(val[a][b] for a, b in cell_neighbours(h, w, r, c)))
    # connectivity: groups in reading order of their earliest cell
    numbered = [(r, c) for r in range(h) for c in range(w) if val[r][c]]
    out += connect_violations(RULES, "sukoro.connect", groups(numbered))
    return RULES.sort(out)
