"""Hints one deduction at a time: the hint-trace engine behind ``trace(board, answer)``.

A small deduction engine that reasons as a player does, over the play page's own marks
(each cell numbered, blank or undecided). Every deduction decides the few cells one
reason settles and names the cells that justify it:

* ``count``  a region with a printed number already holding that many numbers leaves
             the rest blank; one that needs every cell it has left fills them; a region
             with no clue and one cell left that is not blank puts its number there;
* ``block``  three numbers in a 2×2 block leave the fourth cell blank;
* ``clash``  a cell whose number would equal the number beside it across a region
             border stays blank; a region whose other counts would put equal numbers side
             by side is settled at the one count left;
* ``reach``  cells walled off from the numbers by blank cells are blank; a cell that is
             the only link left between two numbers is numbered.

When none applies, a ``probe`` step tries the wrong value of one cell and follows the
same deductions to the contradiction (the one with the shortest chain is shown); only
when no single cell can be settled that way does a ``search`` step take one cell from
the answer. Sentences come from the table ``TEXT`` below, in English and Japanese.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import Answer, Board
from .ladder import (
    Contradiction,
    Geometry,
    State,
    cut_certs,
    cut_grid,
    flood,
    geometry,
    initial,
    propagate,
    resume,
)
from .ladder import _probe as ladder_probe

UND, BLANK, NUM = -1, 0, 1
MAX_CELLS = 8          # a step decides at most this many cells
PROBE_TRIALS = 6       # screened probe cells followed in full to pick the shortest chain

Cell = tuple[int, int]


# ---- sentences ------------------------------------------------------------------------
# One entry per kind of step: (English sentence, Japanese sentence, English detail,
# Japanese detail). Fields: {cells} the decided cells, {is} is/are, cell references as
# {c}, {y}, {i}, {j}, {a}, {b}, {at}, counts as {v}, {w}, {n}, phrases {src}, {what}.
TEXT: dict[str, tuple[str, str, str, str]] = {
    "count_full": (
        "{Cells} {is} blank: the region of {src} already holds {v} {numbers}.",
        "{cells}は空白です。{src}の領域には、すでに数字が{v}個あります。",
        ("{Src} says its region holds exactly {v} {numbers}; the numbers at {nums} already "
        "make {v}, so every other cell of the region stays blank."),
        ("{src}は、その領域に数字がちょうど{v}個入ることを表します。{nums}の数字ですでに"
        "{v}個そろっているので、領域の残りのマスはすべて空白です。")),
    "count_one": (
        "{Cells} {is} blank: the 1 at {c} is the only number its region may hold.",
        "{cells}は空白です。{c}の1が、その領域でただ一つの数字です。",
        ("A 1 says its region holds exactly one number, and the 1 at {c} is that number "
        "itself, so every other cell of its region stays blank."),
        ("1は、その領域に数字がちょうど1個入ることを表します。{c}の1自身がその1個なので、"
        "領域の残りのマスはすべて空白です。")),
    "count_fill": (
        ("{Cells} {is} numbered: the region of {src} needs {v} {numbers} and has no other "
        "cell left for them."),
        ("{cells}には数字が入ります。{src}の領域には数字が{v}個必要で、ほかに入れられるマスが"
        "ありません。"),
        ("{Src} says its region holds exactly {v} {numbers}. The region has {size} cells"
        "{blanks_en}, so every cell of it that is not blank must hold a number."),
        ("{src}は、その領域に数字がちょうど{v}個入ることを表します。この領域は{size}マス"
        "{blanks_ja}、空白でないマスにはすべて数字が入ります。")),
    "count_last": (
        ("{Cells} {is} numbered: every region needs a number, and this is the last cell of "
        "its region that is not blank."),
        ("{cells}には数字が入ります。どの領域にも数字が必要で、この領域で空白でないマスは"
        "ここだけです。"),
        ("A region without a number breaks the rules. The other cells of this region ({nums}) "
        "are blank, so its number, a 1, goes here."),
        ("数字のない領域はルール違反です。この領域のほかのマス（{nums}）は空白なので、"
        "領域の数字（1）はここに入ります。")),
    "block": (
        ("{Cells} {is} blank: with the numbers at {nums} it would complete a 2×2 block of "
        "numbers."),
        "{cells}は空白です。数字を入れると、{nums}の数字と合わせて2×2がすべて数字になります。",
        ("No 2×2 block may be all numbers. Three cells of the block ({nums}) already hold "
        "numbers, so the fourth one must stay blank."),
        ("2×2のマスがすべて数字になってはいけません。このブロックの3マス（{nums}）にはすでに"
        "数字が入っているので、残りの1マスは空白です。")),
    "clash_cell": (
        ("{Cells} {is} blank: a number there would be a {v}, the same as the {v} at {y} "
        "across the region border."),
        ("{cells}は空白です。ここに数字を入れると{v}になり、境界をはさんで隣の{y}の{v}と"
        "同じになります。"),
        ("Its region holds {v} {numbers} ({why_en}), so a number written here is a {v}. The "
        "number at {y}, in the neighbouring region, is a {v} too, and equal numbers may not "
        "touch across a region border."),
        ("この領域の数字は{v}個（{why_ja}）なので、ここに数字を書くと{v}になります。隣の領域の"
        "{y}の数字も{v}で、境界をはさんで同じ数字が隣り合うことはできません。")),
    "clash_full": (
        ("{Cells} {is} blank: one more number would make its region hold {w}, and the number "
        "at {i} would then be a {w} beside the {w} at {j} across a border."),
        ("{cells}は空白です。数字を足すと領域の数字が{w}個になり、{i}の数字が境界をはさんで"
        "{j}の{w}と同じになってしまいます。"),
        ("The region already holds {n} {numbers_n}. Any count from {w} up would put a number "
        "equal to a neighbour's across a border (the {w} at {j} touches the region at {i}), "
        "so the region stays at {n} and its other cells are blank."),
        ("この領域にはすでに数字が{n}個あります。{w}個以上にすると、境界をはさんで隣の数字と"
        "同じになります（{i}は{j}の{w}と接しています）。そのため領域の数字は{n}個のままで、"
        "残りのマスは空白です。")),
    "clash_fill": (
        ("{Cells} {is} numbered: if its region stopped at {w} {numbers_w}, the number at {i} "
        "would be a {w} beside the {w} at {j} across a border."),
        ("{cells}には数字が入ります。領域の数字が{w}個で止まると、{i}の数字が境界をはさんで"
        "{j}の{w}と同じになってしまいます。"),
        ("The region can hold at most {n} {numbers_n}, and every smaller count would make its "
        "number at {i} equal to a neighbour across a border (the {w} at {j}). So it holds "
        "{n}, and every cell of it that is not blank is numbered."),
        ("この領域の数字は多くても{n}個です。それより少ないと、{i}の数字が境界をはさんで隣の"
        "数字（{j}の{w}）と同じになります。そのため数字は{n}個で、空白でないマスにはすべて"
        "数字が入ります。")),
    "dead": (
        ("{Cells} {is} blank: blank cells cut {it} off from the numbers, so a number there "
        "could never join them."),
        ("{cells}は空白です。空白のマスに囲まれて数字から切り離されているので、ここに数字を"
        "入れてもつながりません。"),
        ("All numbers must form one connected group. Every way out of {cells} runs into a "
        "blank cell ({nums}), so a number here could never reach the others."),
        ("数字はすべてひとつながりでなければなりません。{cells}から外へ出る道はどれも空白の"
        "マス（{nums}）でふさがれているので、ここの数字はほかの数字とつながりません。")),
    "cut": (
        ("{Cells} {is} numbered: it is the only link left between the number at {a} and "
        "the number at {b}."),
        ("{cells}には数字が入ります。{a}の数字と{b}の数字をつなぐ道は、ここしか残って"
        "いません。"),
        ("All numbers must form one connected group. Every path from {a} to {b} through cells "
        "that are not blank passes through {cells}, so it must hold a number."),
        ("数字はすべてひとつながりでなければなりません。{a}から{b}へ空白でないマスをたどる"
        "道はどれも{cells}を通るので、ここには数字が入ります。")),
    "probe": (
        ("Try {try_en} at {cells}: it leads to a contradiction at {at} ({what_en}), so {it} "
        "{is} {state_en}."),
        "{cells}に{try_ja}と、{at}で矛盾が起きます（{what_ja}）。したがって{cells}{state_ja}",
        ("Suppose {cells} {were} {try_state_en}. {chain_en}{what_long_en}. So that cannot "
        "be: {cells} {is} {state_en}."),
        ("{cells}が{try_state_ja}だと仮定します。{chain_ja}{what_long_ja}。したがってこの"
        "仮定は成り立たず、{cells}{state_ja}")),
    "search": (
        ("No short chain of deductions decides a cell here; the search through the remaining "
        "cases shows that {cells} {is} {state_en}."),
        ("ここでは短い推論の連鎖ではどのマスも決まりません。残りの場合を探索すると、{cells}"
        "{state_ja}"),
        ("Trying any single cell either way leads to no contradiction by the rules alone; "
        "only a search through several guesses at once settles the board. In its one "
        "answer, {cells} {is} {state_en}."),
        ("どのマスを一つ仮定しても、ルールだけでは矛盾が出ません。いくつもの仮定を重ねる探索"
        "でのみ盤が決まり、その唯一の答えでは{cells}{state_ja}")),
}

# What a contradiction looks like: (short English, short Japanese (plain form, inside
# parentheses), long English, long Japanese). Fields as in TEXT.
WHAT: dict[str, tuple[str, str, str, str]] = {
    "block": ("a 2×2 block of numbers", "2×2がすべて数字になる",
              "the 2×2 block from {at} would be all numbers",
              "{at}から始まる2×2がすべて数字になります"),
    "over": ("the {v} there gets more than {v} {numbers}",
             "{v}の領域で数字が{v}個を超える",
             "the region of {src} would hold more than {v} {numbers}",
             "{src}の領域で数字が{v}個を超えてしまいます"),
    "short": ("the {v} there can no longer get {v} {numbers}",
              "{v}の領域で数字が{v}個に届かない",
              "the region of {src} could no longer hold {v} {numbers}",
              "{src}の領域で数字が{v}個に届かなくなります"),
    "empty": ("a region is left without a number", "領域に数字が入らない",
              "the region at {at} would be left without a number",
              "{at}の領域に数字が入らなくなります"),
    "clash": ("two {v}s touch across a region border", "境界をはさんで{v}どうしが隣り合う",
              "two {v}s would touch across a region border at {at}",
              "{at}で境界をはさんで{v}どうしが隣り合ってしまいます"),
    "split": ("the numbers can no longer connect", "数字がつながらない",
              "the numbers at {at} could no longer connect",
              "{at}の数字どうしがつながらなくなります"),
}


def _cell_en(i: int, w: int) -> str:
    return f"row {i // w + 1}, column {i % w + 1}"


def _cell_ja(i: int, w: int) -> str:
    return f"{i // w + 1}行{i % w + 1}列"


def _list_en(cells: list[int], w: int) -> str:
    names = [_cell_en(i, w) for i in cells]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _list_ja(cells: list[int], w: int) -> str:
    names = [_cell_ja(i, w) for i in cells]
    if len(names) == 2:
        return names[0] + "と" + names[1]
    return "、".join(names)


def _numbers(v: int) -> str:
    return "number" if v == 1 else "numbers"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


# ---- the board as the engine sees it -------------------------------------------------


class Ctx:
    """A board's fixed facts: geometry, region members, each region's printed count and
    where it is printed."""

    def __init__(self, board: Board) -> None:
        self.board = board
        g = geometry(board.h, board.w, board.regions)
        self.g: Geometry = g
        self.h, self.w, self.n = board.h, board.w, g.n
        k = len(g.rmask)
        self.members = [[i for i in range(g.n) if g.region_of[i] == r] for r in range(k)]
        self.fix: list[int | None] = [None] * k      # the region's count, when printed
        self.conflict = [False] * k                  # two printed counts disagree
        self.src: list[tuple[str, int] | None] = [None] * k   # ("clue"|"label", cell)
        start = [UND] * g.n
        for i, v in enumerate(board.flat()):
            if v is None:
                continue
            start[i] = NUM
            if v == "?":
                continue
            r = g.region_of[i]
            if self.fix[r] is not None and self.fix[r] != v:
                self.conflict[r] = True
            if self.src[r] is None:
                # v is an int: None and "?" were skipped above (mypy narrows no == "?")
                self.fix[r], self.src[r] = v, ("clue", i)  # type: ignore[assignment]
        for r, v in enumerate(board.labels):
            if v is None:
                continue
            if self.fix[r] is not None and self.fix[r] != v:
                self.conflict[r] = True
            if self.src[r] is None:
                self.fix[r], self.src[r] = v, ("label", self.members[r][0])
        self.start = start
        self.init = initial(board, g)   # the ladder's state of the printed clues
        # the probe screen's witnesses (Screen), kept across the states of one trace;
        # each trial's own last outcome, and the trials known to contradict
        self.wit: dict[tuple[int, int], State] = {}
        self.own: dict[tuple[int, int], State] = {}
        self.bad: set[tuple[int, int]] = set()
        # per cell, its neighbours in other regions (in neighbour order), with both ids
        reg = g.region_of
        self.cross = [tuple((j, reg[i], reg[j]) for j in g.nbrs[i] if reg[j] != reg[i])
                      for i in range(g.n)]
        # the cells whose right, left, lower, upper neighbour lies in another region
        w = g.w
        self.cross_r = sum(1 << i for i in range(g.n) if i % w != w - 1 and reg[i + 1] != reg[i])
        self.cross_l = self.cross_r << 1
        self.cross_d = sum(1 << i for i in range(g.n - w) if reg[i + w] != reg[i])
        self.cross_u = self.cross_d << w
        # per region, the counts its printed numbers allow (none when two disagree)
        self.allow = [0 if self.conflict[r] else -1 if self.fix[r] is None
                      # not None: the test just above (mypy narrows no index expression)
                      else 1 << self.fix[r] for r in range(k)]  # type: ignore[operator]

    def src_words(self, r: int) -> tuple[str, str]:
        """How the sentences name a region's printed count."""
        kind, i = self.src[r]  # type: ignore[misc]
        v = self.fix[r]
        if kind == "clue":
            return f"the {v} at {_cell_en(i, self.w)}", f"{_cell_ja(i, self.w)}の{v}"
        return (f"the label {v} at {_cell_en(i, self.w)}",
                f"{_cell_ja(i, self.w)}の値{v}")


class Domains:
    """Per region: numbered and undecided cells, the counts it may still take without
    (``base``) and with (``dom``) the border rule, and why each count was struck.

    ``after`` gives the domains of the marks with a few more cells decided from these
    ones: the cell masks and the counts of the regions those cells lie in are updated,
    the rest copied (the border rule's pairs too while no cell is numbered); only the
    border rule's pass (which depends on the order it visits the pairs in) is run again
    in full."""

    __slots__ = ("base", "blank", "dom", "excl", "kn", "ku", "num", "pairs", "und")

    def __init__(self, ctx: Ctx, val: list[int]) -> None:
        g = ctx.g
        self.num = num = _mask(val, NUM)
        self.und = und = _mask(val, UND)
        self.blank = g.full & ~(num | und)
        self.kn = kn = [(num & m).bit_count() for m in g.rmask]
        self.ku = ku = [(und & m).bit_count() for m in g.rmask]
        allow = ctx.allow
        self.base = [_range(kn[r], ku[r]) & allow[r] for r in range(len(kn))]
        self.pairs = _pairs(ctx, num)
        self._border()

    def after(self, ctx: Ctx, cells: list[int], state: int) -> Domains:
        """The domains once ``cells`` are marked ``state``."""
        d = Domains.__new__(Domains)
        num, und = self.num, self.und
        kn, ku, base = self.kn[:], self.ku[:], self.base[:]
        region_of, allow = ctx.g.region_of, ctx.allow
        for i in cells:
            b = 1 << i
            r = region_of[i]
            if num & b:
                kn[r] -= 1
            elif und & b:
                ku[r] -= 1
            num &= ~b
            und &= ~b
            if state == NUM:
                num |= b
                kn[r] += 1
            elif state == UND:
                und |= b
                ku[r] += 1
            base[r] = _range(kn[r], ku[r]) & allow[r]
        d.num, d.und, d.blank = num, und, ctx.g.full & ~(num | und)
        d.kn, d.ku, d.base = kn, ku, base
        d.pairs = self.pairs if num == self.num else _pairs(ctx, num)
        d._border()
        return d

    def _border(self) -> None:
        """``dom`` and ``excl``: the border rule's passes over ``pairs`` to a fixpoint."""
        dom = self.base[:]
        excl: list[dict[int, tuple[int, int]]] = [{} for _ in dom]
        changed = bool(self.pairs)
        while changed:
            changed = False
            for i, j, r, s in self.pairs:
                d = dom[s]
                if d and not d & (d - 1) and dom[r] & d:
                    dom[r] &= ~d
                    excl[r][d.bit_length() - 1] = (i, j)
                    changed = True
        self.dom, self.excl = dom, excl


def _pairs(ctx: Ctx, num: int) -> list[tuple[int, int, int, int]]:
    """The numbered neighbours in two regions (cell, neighbour, their regions), by cell
    then neighbour order; only cells with a numbered neighbour across a border (found on
    bitmasks) are looked at."""
    w = ctx.w
    near = num & (((num >> 1) & ctx.cross_r) | ((num << 1) & ctx.cross_l)
                  | ((num >> w) & ctx.cross_d) | ((num << w) & ctx.cross_u))
    if not near:
        return []
    cross = ctx.cross
    return [(i, j, r, s) for i in _bits(near) for j, r, s in cross[i] if num >> j & 1]


def _range(kn: int, ku: int) -> int:
    """The counts from max(1, kn) to kn + ku, as a bitmask (bit v: count v)."""
    lo, hi = max(1, kn), kn + ku
    return ((2 << hi) - 1) & ~((1 << lo) - 1) if hi >= lo else 0


def _bits(x: int) -> list[int]:
    out = []
    while x:
        b = x & -x
        out.append(b.bit_length() - 1)
        x ^= b
    return out


def _mask(val: list[int], state: int) -> int:
    """Bit i set where val[i] == state (read as one binary numeral: no big-int sums)."""
    if not val:
        return 0
    return int("".join(["1" if v == state else "0" for v in reversed(val)]), 2)


def _near(i: int, cells: list[int], w: int) -> int:
    return min(cells, key=lambda j: (abs(j // w - i // w) + abs(j % w - i % w), j))


# ---- deductions ----------------------------------------------------------------------


def _step(rung: str, key: str, cells: list[int], state: int, why: list[int],
          **params: Any) -> dict[str, Any]:
    cells = sorted(cells)[:MAX_CELLS]
    return {"rung": rung, "key": key, "cells": cells, "state": state,
            "why": sorted(set(why)), "params": params}


def _count(ctx: Ctx, val: list[int], d: Domains) -> dict[str, Any] | None:
    rmask = ctx.g.rmask
    for r, mem in enumerate(ctx.members):
        if not d.ku[r]:
            continue
        m = d.base[r]
        if not m:
            continue
        kn, room = d.kn[r], d.kn[r] + d.ku[r]
        if ctx.fix[r] is not None:
            src = ctx.src[r][1]  # type: ignore[index]
            top = m.bit_length() - 1 == kn
            if not top and (m & -m).bit_length() - 1 != room:
                continue
            und = _bits(d.und & rmask[r])
            nums = _bits(d.num & rmask[r])
            if top and kn == 1 and nums == [src]:
                return _step("count", "count_one", und, BLANK, [src], r=r, c=src)
            if top:
                return _step("count", "count_full", und, BLANK, [src] + nums, r=r,
                             v=kn, nums=nums)
            blanks = _bits(d.blank & rmask[r])
            return _step("count", "count_fill", und, NUM, [src] + blanks, r=r,
                         v=room, blanks=blanks, size=len(mem))
        elif kn == 0 and d.ku[r] == 1:
            und = _bits(d.und & rmask[r])
            blanks = _bits(d.blank & rmask[r])
            return _step("count", "count_last", und, NUM, blanks or und, r=r, nums=blanks)
    return None


def _block(ctx: Ctx, val: list[int], d: Domains) -> dict[str, Any] | None:
    # the first 2×2 block (by its top-left cell, row by row) with three numbered cells
    # and the fourth undecided
    g, w = ctx.g, ctx.w
    a, u = d.num, d.und
    a1, aw, aw1 = a >> 1, a >> w, a >> (w + 1)
    hit = ((u & a1 & aw & aw1) | (a & (u >> 1) & aw & aw1) | (a & a1 & (u >> w) & aw1)
           | (a & a1 & aw & (u >> (w + 1)))) & g.top_left
    if not hit:
        return None
    t = (hit & -hit).bit_length() - 1
    quad = (t, t + 1, t + w, t + w + 1)
    nums = [i for i in quad if val[i] == NUM]
    und = [i for i in quad if val[i] == UND]
    return _step("block", "block", und, BLANK, nums, nums=nums)


def _clash_cell(ctx: Ctx, val: list[int], d: Domains) -> dict[str, Any] | None:
    g = ctx.g
    for x in range(ctx.n):
        if val[x] != UND:
            continue
        r = g.region_of[x]
        m = d.dom[r]
        if not m or m & (m - 1):
            continue
        for y in g.nbrs[x]:
            s = g.region_of[y]
            if s != r and val[y] == NUM and d.dom[s] == m:
                why = [y]
                if ctx.src[r] is not None:
                    why.append(ctx.src[r][1])  # type: ignore[index]
                return _step("clash", "clash_cell", [x], BLANK, why, r=r, y=y,
                             v=m.bit_length() - 1)
    return None


def _clash_count(ctx: Ctx, val: list[int], d: Domains) -> dict[str, Any] | None:
    rmask = ctx.g.rmask
    for r in range(len(ctx.members)):
        m = d.dom[r]
        if not d.ku[r] or not m or m == d.base[r]:
            continue
        und = _bits(d.und & rmask[r])
        kn, room = d.kn[r], d.kn[r] + d.ku[r]
        struck = sorted(v for v in d.excl[r] if d.base[r] >> v & 1)
        if m.bit_length() - 1 == kn:
            wv = min(v for v in struck if v > kn)
            i, j = d.excl[r][wv]
            return _step("clash", "clash_full", und, BLANK, [i, j], r=r, w=wv, i=i, j=j, n=kn)
        if (m & -m).bit_length() - 1 == room:
            wv = max(v for v in struck if v < room)
            i, j = d.excl[r][wv]
            return _step("clash", "clash_fill", und, NUM, [i, j], r=r, w=wv, i=i, j=j,
                         n=room)
    return None


def _reach(ctx: Ctx, val: list[int], d: Domains) -> dict[str, Any] | None:
    g = ctx.g
    num = d.num
    if not num:
        return None
    blank = d.blank
    poss = g.full & ~blank
    comp = flood(g, num & -num, poss)
    dead = poss & ~comp
    if dead:
        pocket = flood(g, dead & -dead, dead)
        wall = _bits(g.spread(pocket) & blank)
        return _step("reach", "dead", _bits(pocket), BLANK, wall, wall=wall)
    seed = num & -num
    b = cut_grid(g).first_cut(comp, num, cut_certs(g))
    if b is None:
        return None
    side = flood(g, seed, comp & ~(1 << b))
    a = _near(b, _bits(num & side), ctx.w)
    far = _near(b, _bits(num & ~side), ctx.w)
    return _step("reach", "cut", [b], NUM, [a, far], a=a, b=far)


def contradiction(ctx: Ctx, val: list[int], d: Domains) -> dict[str, Any] | None:
    """The first broken rule in a state no filling can mend (None: none found)."""
    w = ctx.w
    x = d.num
    full = x & (x >> 1) & (x >> w) & (x >> (w + 1)) & ctx.g.top_left
    if full:
        a = (full & -full).bit_length() - 1
        return {"kind": "block", "cells": [a, a + 1, a + w, a + w + 1], "at": [a]}
    for r, mem in enumerate(ctx.members):
        if d.dom[r]:
            continue
        kn, room = d.kn[r], d.kn[r] + d.ku[r]
        nums = [i for i in mem if val[i] == NUM]
        blanks = [i for i in mem if val[i] == BLANK]
        v = ctx.fix[r]
        if v is not None and not ctx.conflict[r] and (kn > v or room < v):
            src = ctx.src[r][1]  # type: ignore[index]
            if kn > v:
                return {"kind": "over", "cells": [src] + nums, "at": [src], "r": r, "v": v}
            return {"kind": "short", "cells": [src] + blanks, "at": [src], "r": r, "v": v}
        if room == 0:
            return {"kind": "empty", "cells": mem, "at": [mem[0]], "r": r}
        if d.excl[r]:
            v2 = max(d.excl[r])
            i, j = d.excl[r][v2]
            return {"kind": "clash", "cells": [i, j], "at": [i, j], "v": v2}
        return {"kind": "empty", "cells": mem, "at": [mem[0]], "r": r}
    g = ctx.g
    num = d.num
    if num:
        comp = flood(g, num & -num, g.full & ~d.blank)
        if num & ~comp:
            lone = _bits(num & ~comp)[0]
            a = _near(lone, _bits(num & comp), w)
            return {"kind": "split", "cells": sorted([a, lone]), "at": sorted([a, lone])}
    return None


def deduce(ctx: Ctx, val: list[int], d: Domains | None = None
           ) -> tuple[str, dict[str, Any] | None]:
    """("bad", contradiction) or ("step", the simplest deduction) or ("stuck", None);
    ``d``: the domains of ``val`` when the caller has them."""
    if d is None:
        d = Domains(ctx, val)
    bad = contradiction(ctx, val, d)
    if bad is not None:
        return "bad", bad
    for fam in (lambda: _count(ctx, val, d), lambda: _block(ctx, val, d),
                lambda: _clash_cell(ctx, val, d), lambda: _clash_count(ctx, val, d),
                lambda: _reach(ctx, val, d)):
        st = fam()
        if st is not None:
            return "step", st
    return "stuck", None


def _apply(val: list[int], step: Mapping[str, Any]) -> None:
    for i in step["cells"]:
        val[i] = step["state"]


def follow(ctx: Ctx, val: list[int], limit: int = 400
           ) -> tuple[dict[str, Any] | None, list[int]]:
    """Deduce from ``val`` until a contradiction (returned with the cells decided on the
    way) or until no deduction applies (None)."""
    val = val[:]
    d = Domains(ctx, val)
    decided: list[int] = []
    for _ in range(limit):
        kind, res = deduce(ctx, val, d)
        if kind == "bad":
            return res, decided
        if kind == "stuck":
            return None, decided
        assert res is not None
        _apply(val, res)
        d = d.after(ctx, res["cells"], res["state"])
        decided.extend(res["cells"])
    return None, decided


def _ladder_contradicts(ctx: Ctx, val: list[int]) -> bool:
    """The ladder's bitboard propagation through ``reach`` (a fast screen)."""
    if ctx.init is None:
        return True
    st = ctx.init.copy()
    st.num |= _mask(val, NUM)
    st.blank |= _mask(val, BLANK)
    if st.num & st.blank:
        return True
    return not propagate(ctx.g, st, 3)


class Screen:
    """``_ladder_contradicts`` for each one-cell trial on the marks ``val``, from the
    marks' own propagated state: the ladder's propagation is monotone (more decided,
    more deduced; a state that propagates without contradiction has no part that
    contradicts), so the marks with the trial contradict exactly when that state with
    the trial does. A trial that propagated without contradiction is kept as a witness
    (``wit``, shared across states, seeded by ``_probe_witnesses``) for itself and for
    every other trial it decides the same way: while a later state lies inside it, those
    trials still hold. A trial on a cell the marks' state already decides is screened as
    before, from the marks.

    The states of one trace only grow, so by the same monotony a trial that contradicted
    once contradicts at every later state (``ctx.bad``), and a trial run again starts
    from its own last outcome joined with today's state (``ladder.resume``), which
    propagates to the same outcome with only the difference looked at."""

    def __init__(self, ctx: Ctx, val: list[int], wit: dict[tuple[int, int], State]) -> None:
        self.ctx, self.wit = ctx, wit
        self.st: State | None = None
        if ctx.init is not None:
            st = ctx.init.copy()
            st.num |= _mask(val, NUM)
            st.blank |= _mask(val, BLANK)
            if not st.num & st.blank and propagate(ctx.g, st, 3):
                self.st = st

    def contradicts(self, trial: list[int], i: int) -> bool:
        st = self.st
        b = 1 << i
        if st is None or (st.num | st.blank) & b:
            return _ladder_contradicts(self.ctx, trial)
        key = (i, trial[i])
        ctx = self.ctx
        if key in ctx.bad:
            return True
        w = self.wit.get(key)
        if w is not None and not (st.num & ~w.num or st.blank & ~w.blank):
            return False
        last = ctx.own.get(key)
        t: State | None
        if last is not None and (((st.num | st.blank) & ~(last.num | last.blank)).bit_count()
                                 <= ((last.num | last.blank) & ~(st.num | st.blank)).bit_count()):
            t = resume(ctx.g, last, st)
        else:
            t = st.copy()
            if trial[i] == NUM:
                t.num |= b
            else:
                t.blank |= b
        if t is None or not propagate(ctx.g, t, 3):
            ctx.bad.add(key)
            return True
        ctx.own[key] = t
        # t also witnesses each trial it decides the way t does: that trial from this
        # state lies inside t, a state that propagates without contradiction
        wit = self.wit
        new = (t.num | t.blank) & ~(st.num | st.blank)
        nn = t.num
        while new:
            c = new & -new
            new ^= c
            wit[(c.bit_length() - 1, NUM if nn & c else BLANK)] = t
        return False


def _probe_witnesses(ctx: Ctx, truth: list[int]) -> None:
    """The screen's first witnesses: the ladder's probe rung from the printed clues,
    with only the trials against the answer (the ones the screen asks), to its fixpoint
    F. Every trial it left standing has a witness there that holds all of F, so while
    the trace's state lies inside F (as it does until a search step) the screen need not
    run those trials again."""
    if ctx.init is None:
        return
    st = ctx.init.copy()
    if not propagate(ctx.g, st, 3):
        return
    found: dict[tuple[int, bool], State] = {}
    try:
        ladder_probe(ctx.g, st, frozenset(), _mask(truth, NUM), found)
    except Contradiction:
        return
    for (b, as_num), t in found.items():
        ctx.wit[(b.bit_length() - 1, NUM if as_num else BLANK)] = t


def _probe(ctx: Ctx, val: list[int], truth: list[int]) -> dict[str, Any] | None:
    """The undecided cell whose wrong value contradicts itself soonest, cells beside
    decided ones first."""
    g = ctx.g
    und = [i for i in range(ctx.n) if val[i] == UND]
    und.sort(key=lambda i: (-sum(val[j] != UND for j in g.nbrs[i]), i))
    best: tuple[int, int, dict[str, Any], list[int]] | None = None
    tried = 0
    screen = Screen(ctx, val, ctx.wit)
    for i in und:
        trial = val[:]
        trial[i] = 1 - truth[i]
        if not screen.contradicts(trial, i):
            continue
        bad, chain = follow(ctx, trial)
        if bad is None:
            continue
        tried += 1
        if best is None or len(chain) < best[0]:
            best = (len(chain), i, bad, chain)
        if tried >= PROBE_TRIALS or not chain:
            break
    if best is None:
        return None
    _, i, bad, chain = best
    return {"rung": "probe", "key": "probe", "cells": [i], "state": truth[i],
            "why": sorted(set(bad["cells"])), "detail_cells": sorted(set(bad["cells"])),
            "params": {"bad": bad, "chain": chain}}


def _search(ctx: Ctx, val: list[int], truth: list[int]) -> dict[str, Any]:
    g = ctx.g
    und = [i for i in range(ctx.n) if val[i] == UND]
    near = [i for i in und if any(val[j] == NUM for j in g.nbrs[i])]
    i = (near or und)[0]
    src = ctx.src[g.region_of[i]]
    why = [src[1]] if src is not None else [j for j in g.nbrs[i] if val[j] == NUM] or [i]
    return {"rung": "search", "key": "search", "cells": [i], "state": truth[i],
            "why": sorted(why), "params": {}}


# ---- words ---------------------------------------------------------------------------


def _what(ctx: Ctx, bad: Mapping[str, Any]) -> dict[str, str]:
    w = ctx.w
    short_en, short_ja, long_en, long_ja = WHAT[bad["kind"]]
    at = sorted(bad["at"])
    p: dict[str, Any] = {"at_en": _list_en(at, w), "at_ja": _list_ja(at, w)}
    v = bad.get("v")
    src = ctx.src_words(bad["r"]) if bad["kind"] in ("over", "short") else ("", "")
    en = {"v": v, "numbers": _numbers(v or 0), "src": src[0], "at": p["at_en"]}
    ja = {"v": v, "src": src[1], "at": p["at_ja"]}
    return {"what_en": short_en.format(**en), "what_ja": short_ja.format(**ja),
            "what_long_en": long_en.format(**en), "what_long_ja": long_ja.format(**ja),
            "at_en": p["at_en"], "at_ja": p["at_ja"]}


def words(ctx: Ctx, step: Mapping[str, Any]) -> dict[str, Any]:
    """The step's sentence and detail in both languages."""
    w = ctx.w
    key, p, cells = step["key"], step["params"], step["cells"]
    many = len(cells) > 1
    en: dict[str, Any] = {"cells": _list_en(cells, w), "is": "are" if many else "is",
                          "it": "them" if many else "it", "were": "were"}
    ja: dict[str, Any] = {"cells": _list_ja(cells, w)}
    for k in ("v", "w", "n", "size"):
        if k in p:
            en[k] = ja[k] = p[k]
    for k in ("c", "y", "i", "j", "a", "b"):
        if k in p:
            en[k], ja[k] = _cell_en(p[k], w), _cell_ja(p[k], w)
    for k in ("nums", "blanks", "wall"):
        if k in p:
            en[k], ja[k] = _list_en(p[k], w), _list_ja(p[k], w)
    if key == "dead":
        en["nums"], ja["nums"] = en["wall"], ja["wall"]
    if "v" in p:
        en["numbers"] = _numbers(p["v"])
    if "w" in p:
        en["numbers_w"] = _numbers(p["w"])
    if "n" in p:
        en["numbers_n"] = _numbers(p["n"])
    if "r" in p and ctx.src[p["r"]] is not None:
        en["src"], ja["src"] = ctx.src_words(p["r"])
        en["Src"] = _cap(en["src"])
    if key == "count_fill":
        nb = len(p["blanks"])
        en["blanks_en"] = (f", {nb} of them blank" if nb else "")
        ja["blanks_ja"] = (f"で、そのうち{nb}マスが空白なので" if nb else "なので")
    if key == "clash_cell":
        r = p["r"]
        if ctx.src[r] is not None:
            s_en, s_ja = ctx.src_words(r)
            en["why_en"], ja["why_ja"] = f"{s_en} says so", f"{s_ja}のとおり"
        else:
            en["why_en"], ja["why_ja"] = "no other count is left", "ほかの個数はありえません"
    if key in ("probe", "search"):
        st = step["state"]
        en["state_en"] = "numbered" if st == NUM else "blank"
        ja["state_ja"] = "には数字が入ります。" if st == NUM else "は空白です。"
        en["try_en"] = "a blank" if st == NUM else "a number"
        ja["try_ja"] = "空白を仮に置く" if st == NUM else "数字を仮に置く"
        en["try_state_en"] = "blank" if st == NUM else "numbered"
        ja["try_state_ja"] = "空白" if st == NUM else "数字"
    if key == "probe":
        what = _what(ctx, p["bad"])
        en.update({"at": what["at_en"], "what_en": what["what_en"],
                   "what_long_en": what["what_long_en"]})
        ja.update({"at": what["at_ja"], "what_ja": what["what_ja"],
                   "what_long_ja": what["what_long_ja"]})
        chain = p["chain"]
        k = len(chain)
        if k == 0:
            en["chain_en"] = "Then at once "
            ja["chain_ja"] = "するとすぐに、"
        else:
            first = chain[:3]
            more = "" if k <= 3 else f" and {k - 3} more {'cell' if k == 4 else 'cells'}"
            more_ja = "" if k <= 3 else f"ほか{k - 3}マス"
            en["chain_en"] = (f"Following the rules from there settles {_list_en(first, w)}"
                              f"{more}, and then ")
            ja["chain_ja"] = (f"そこからルールに従うと{_list_ja(first, w)}{more_ja}が決まり、"
                              "その結果、")
    en["Cells"] = _cap(en["cells"])
    t_en, t_ja, d_en, d_ja = TEXT[key]
    return {"en": t_en.format(**en), "ja": t_ja.format(**ja),
            "detail": {"en": d_en.format(**en), "ja": d_ja.format(**ja)}}


def _public(ctx: Ctx, step: Mapping[str, Any]) -> dict[str, Any]:
    w = ctx.w
    out: dict[str, Any] = {
        "rung": step["rung"],
        "cells": [[i // w, i % w] for i in step["cells"]],
        "states": ["number" if step["state"] == NUM else "blank"] * len(step["cells"]),
        "why": [[i // w, i % w] for i in step["why"]],
    }
    out.update(words(ctx, step))
    if step.get("detail_cells"):
        out["detail_cells"] = [[i // w, i % w] for i in step["detail_cells"]]
    return out


def trace(board: Board, answer: Answer, limit: int | None = None) -> list[dict[str, Any]]:
    """Hint steps from the fresh board to the answer, one deduction each (``limit``: stop
    after that many steps)."""
    ctx = Ctx(board)
    truth = [NUM if v else BLANK for v in answer.flat()]
    _probe_witnesses(ctx, truth)
    val = ctx.start[:]
    steps: list[dict[str, Any]] = []
    d = Domains(ctx, val)
    while UND in val and (limit is None or len(steps) < limit):
        kind, st = deduce(ctx, val, d)
        if kind == "bad":
            raise ValueError("the board contradicts itself")
        if st is None:
            st = _probe(ctx, val, truth) or _search(ctx, val, truth)
        for i in st["cells"]:
            if truth[i] != st["state"]:
                raise AssertionError(f"hint step {st['key']} disagrees with the answer")
        _apply(val, st)
        d = d.after(ctx, st["cells"], st["state"])
        steps.append(_public(ctx, st))
    return steps


__all__ = ["TEXT", "WHAT", "Ctx", "deduce", "follow", "trace"]
