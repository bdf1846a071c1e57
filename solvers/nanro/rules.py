"""The rules table of Nanro and ``violations()``, the rule check every engine answers to.

One rule id per clause of the rules; the order is the order violations are reported
(pzprjs's order for this genre: 2×2, equal numbers across a border, clues, connection,
empty regions). ``nanro.over``, ``nanro.short`` and ``nanro.cut`` are reported only on a
board with undecided cells, by ``partial.irreparable``.
"""

from __future__ import annotations

from solvers.common import PuzzleError, Rule, RuleBook, Violation
from solvers.grid import connect_violations, groups

from .board import Answer, Board, region_counts

RULES = RuleBook([
    Rule("nanro.2x2", "the four cells of the block",
         "The 2×2 block from row {row}, column {col} is all numbers; every 2×2 block needs "
         "a blank cell.",
         "{row}行{col}列から始まる2×2がすべて数字です。どの2×2にも空白が必要です。"),
    Rule("nanro.clash", "the two cells",
         "Two {value}s touch across a region border at row {row}, column {col}; numbers "
         "side by side in different regions must differ.",
         "{row}行{col}列で、領域の境界をはさんで{value}どうしが隣り合っています。"
         "別の領域で隣り合う数字は異なる必要があります。"),
    Rule("nanro.clue", "the clue's cell",
         "The clue {clue} at row {row}, column {col} is not met: its cell must hold a number "
         "and its region must hold as many numbers as the clue says; the region holds "
         "{count}.",
         "{row}行{col}列の手掛かり{clue}が満たされていません。このマスには数字が入り、"
         "領域の数字の個数は手掛かりと同じでなければなりません（いまは{count}個）。"),
    Rule("nanro.hint", "every cell of the region",
         "The region at row {row}, column {col} is labelled {label} but holds {count} "
         "numbers.",
         "{row}行{col}列の領域の値は{label}ですが、数字は{count}個です。"),
    Rule("nanro.over", "the region's clue (or first cell) and its numbered cells",
         "The clue {clue} of the region at row {row}, column {col} is exceeded: the region "
         "already holds {count} numbers.",
         "{row}行{col}列の領域には、すでに数字が{count}個あり、手掛かりの{clue}を"
         "超えています。"),
    Rule("nanro.short", "the region's clue (or first cell) and its blank cells",
         "The clue {clue} of the region at row {row}, column {col} can no longer be met: at "
         "most {room} of its cells can still hold a number.",
         "{row}行{col}列の領域の手掛かり{clue}は、もう満たせません。数字を入れられる"
         "マスは多くても{room}個です。"),
    Rule("nanro.connect", "every numbered cell outside the largest group",
         "The numbers form {pieces} separate groups; they must form one.",
         "数字のマスが{pieces}つのかたまりに分かれています。一つにつながる必要があります。"),
    Rule("nanro.cut", "every numbered cell outside the largest part",
         "Blank cells split the numbers into {groups} parts that can no longer join into one "
         "group.",
         "空白のマスで数字が{groups}つに分断され、もうひとつながりにできません。"),
    Rule("nanro.empty", "every cell of the region",
         "The region at row {row}, column {col} has no number; every region needs one.",
         "{row}行{col}列の領域に数字がありません。どの領域にも数字が必要です。"),
])


def violations(board: Board, answer: Answer) -> list[Violation]:
    """Every broken rule, in table order then by cells (empty: solved)."""
    if (board.h, board.w) != (answer.h, answer.w):
        raise PuzzleError(
            f"answer is {answer.h}×{answer.w} but the board is {board.h}×{board.w}")
    h, w, g = board.h, board.w, board.regions
    on = answer.cells
    count = region_counts(board, answer)
    first: dict[int, tuple[int, int]] = {}
    members: dict[int, list[tuple[int, int]]] = {}
    for r in range(h):
        for c in range(w):
            first.setdefault(g[r][c], (r, c))
            members.setdefault(g[r][c], []).append((r, c))
    out: list[Violation] = []
    for r in range(h - 1):
        for c in range(w - 1):
            block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if all(x in on for x in block):
                out.append(RULES.make("nanro.2x2", block, row=r + 1, col=c + 1))
    for r in range(h):
        for c in range(w):
            if (r, c) not in on:
                continue
            for x, y in ((r, c + 1), (r + 1, c)):
                if (x < h and y < w and (x, y) in on and g[x][y] != g[r][c]
                        and count[g[x][y]] == count[g[r][c]]):
                    out.append(RULES.make("nanro.clash", [(r, c), (x, y)],
                                          value=count[g[r][c]], row=r + 1, col=c + 1))
    for r in range(h):
        for c in range(w):
            v = board.clues[r][c]
            if v is None:
                continue
            if (r, c) not in on or (v != "?" and v != count[g[r][c]]):
                out.append(RULES.make("nanro.clue", [(r, c)], clue=str(v), row=r + 1,
                                      col=c + 1, count=count[g[r][c]]))
    for i, lab in enumerate(board.labels):
        if lab is not None and lab != count[i]:
            r, c = first[i]
            out.append(RULES.make("nanro.hint", members[i], label=lab, count=count[i],
                                  row=r + 1, col=c + 1))
    out += connect_violations(RULES, "nanro.connect", groups(on))
    for i in range(len(count)):
        if count[i] == 0:
            r, c = first[i]
            out.append(RULES.make("nanro.empty", members[i], row=r + 1, col=c + 1))
    return RULES.sort(out)
