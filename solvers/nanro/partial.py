"""The check that tells wrong from unfinished: the broken rules no filling of the
undecided cells can repair.

``states`` is the play page's mark per cell, row-major: 0 undecided, 1 numbered, 2 blank
(printed clues are fixed numbered). On a board with no undecided cell the answer is
``violations()`` itself. Otherwise only what is already beyond repair:

* a 2×2 block of numbers (``nanro.2x2``);
* two equal numbers touching across a border when both regions are fully decided
  (``nanro.clash``), since an undecided cell could still change either count;
* a region with a printed count (clue or label) already holding more numbers
  (``nanro.over``: its clue and its numbered cells) or with too few cells left that are
  not blank (``nanro.short``: its clue and its blank cells), so that the mark at fault is
  among the cells named (``violations()`` names only the clue: ``nanro.clue``);
* a fully decided region with no number (``nanro.empty``);
* numbers that blank cells have split into parts no undecided cell can join
  (``nanro.cut``: the numbers outside the part with the most, and the blank cells that
  touch two parts).

A subset of the true answer's marks never triggers any of these.
"""

from __future__ import annotations

from collections.abc import Sequence

from solvers.common import PuzzleError, Violation
from solvers.grid import cell_neighbours

from .board import Answer, Board
from .rules import RULES, violations

UNDECIDED, NUMBERED, BLANK = 0, 1, 2


def irreparable(board: Board, states: Sequence[int]) -> list[Violation]:
    h, w, g = board.h, board.w, board.regions
    if len(states) != h * w:
        raise PuzzleError(f"states: expected {h * w} entries (one per cell), got {len(states)}")
    st = list(states)
    if UNDECIDED not in st:
        return violations(board, Answer.from_flat(h, w, [v == NUMBERED for v in st]))
    on = [v == NUMBERED for v in st]
    k = board.region_count()
    members: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for r in range(h):
        for c in range(w):
            members[g[r][c]].append((r, c))
    count = [sum(on[r * w + c] for r, c in m) for m in members]
    open_ = [sum(st[r * w + c] == UNDECIDED for r, c in m) for m in members]
    out: list[Violation] = []
    for r in range(h - 1):
        for c in range(w - 1):
            block = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            if all(on[x * w + y] for x, y in block):
                out.append(RULES.make("nanro.2x2", block, row=r + 1, col=c + 1))
    for r in range(h):
        for c in range(w):
            if not on[r * w + c]:
                continue
            a = g[r][c]
            for x, y in ((r, c + 1), (r + 1, c)):
                if x >= h or y >= w or not on[x * w + y]:
                    continue
                b = g[x][y]
                if a != b and open_[a] == 0 and open_[b] == 0 and count[a] == count[b]:
                    out.append(RULES.make("nanro.clash", [(r, c), (x, y)], value=count[a],
                                          row=r + 1, col=c + 1))

    told: set[int] = set()     # regions already reported over or short (once each)

    def wrong_count(at: tuple[int, int], reg: int, want: int) -> None:
        if reg in told:
            return
        told.add(reg)
        room = count[reg] + open_[reg]
        if count[reg] > want:
            cells = {at} | {x for x in members[reg] if on[x[0] * w + x[1]]}
            out.append(RULES.make("nanro.over", cells, clue=want, count=count[reg],
                                  row=at[0] + 1, col=at[1] + 1))
        elif room < want:
            cells = {at} | {x for x in members[reg] if st[x[0] * w + x[1]] == BLANK}
            out.append(RULES.make("nanro.short", cells, clue=want, room=room,
                                  row=at[0] + 1, col=at[1] + 1))

    for r in range(h):
        for c in range(w):
            v = board.clues[r][c]
            if v is None:
                continue
            reg = g[r][c]
            if not on[r * w + c]:
                out.append(RULES.make("nanro.clue", [(r, c)], clue=str(v), row=r + 1,
                                      col=c + 1, count=count[reg]))
            elif v != "?":
                wrong_count((r, c), reg, v)  # type: ignore[arg-type]  # an int: not None, not "?"
    for reg, lab in enumerate(board.labels):
        if lab is None:
            continue
        wrong_count(members[reg][0], reg, lab)
    cut = _cut(h, w, st)
    if cut is not None:
        out.append(RULES.make("nanro.cut", cut[1], groups=cut[0]))
    for reg in range(k):
        if count[reg] == 0 and open_[reg] == 0:
            r, c = members[reg][0]
            out.append(RULES.make("nanro.empty", members[reg], row=r + 1, col=c + 1))
    return RULES.sort(out)


def _cut(h: int, w: int, st: list[int]) -> tuple[int, list[tuple[int, int]]] | None:
    """(parts, cells) when the cells that are not blank fall into two or more parts
    holding numbers: the numbered cells outside the part with the most numbers, and the
    blank cells that touch two of the parts (where a blank mark cut them apart)."""
    part = [-1] * (h * w)
    parts: list[list[tuple[int, int]]] = []
    for i in range(h * w):
        if st[i] != NUMBERED or part[i] >= 0:
            continue
        k = len(parts)
        part[i] = k
        stack, nums = [i], []
        while stack:
            j = stack.pop()
            r, c = divmod(j, w)
            if st[j] == NUMBERED:
                nums.append((r, c))
            for x, y in cell_neighbours(h, w, r, c):
                q = x * w + y
                if part[q] < 0 and st[q] != BLANK:
                    part[q] = k
                    stack.append(q)
        parts.append(nums)
    if len(parts) < 2:
        return None
    best = max(range(len(parts)), key=lambda i: (len(parts[i]), -i))
    cells = [x for i, p in enumerate(parts) if i != best for x in p]
    for i in range(h * w):
        if st[i] != BLANK:
            continue
        r, c = divmod(i, w)
        near = {part[x * w + y] for x, y in cell_neighbours(h, w, r, c) if part[x * w + y] >= 0}
        if len(near) >= 2:
            cells.append((r, c))
    return len(parts), cells


__all__ = ["irreparable"]
