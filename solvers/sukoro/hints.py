"""Hints one deduction at a time: the hint-trace engine.

The player marks cells numbered or empty; a numbered cell's digit is its count of
numbered neighbours, so it is known once none of its neighbours is undecided. The hint
engine works on those marks, the way a solver on paper does:

* ``full``   a number that already has as many numbered neighbours as it can hold
             (its clue, or the largest value a touching equal number leaves it) empties
             its undecided neighbours;
* ``need``   a number with exactly as many possible neighbours as it needs (its clue, at
             least one, or the smallest value a touching equal number leaves it) numbers
             them all;
* ``empty``  an undecided cell where a number would have no possible value (no numbered
             neighbour at all, or only values that equal a number it touches), or would
             complete a touching number with its own value, is empty;
* ``cut``    undecided cells that empty cells cut off from the numbers are empty;
* ``bridge`` an undecided cell that is the only link between numbered cells is numbered;
* ``probe``  a cell whose other state leads, followed on digits by the deductions above,
             to a contradiction (the shortest such chain is chosen; a number that does not
             fail whole is tried digit by digit). Where no cell fails so, digits of other
             cells are first ruled out by trials of their own, and the probe says so;
* ``search`` only when no single probe works: one cell from the answer, said honestly.

A touching number's digit counts as known when it is a clue, its live count with no
undecided neighbour, or the one value its range leaves ("which can only be 3").

Each step decides the cells of one deduction (at most ``MAX_CELLS``), names them, and
gives the cells that justify it (``why``). Sentences come from ``TEXT`` below. A banked
board's effort and difficulty are counted from its trace in ``bank``.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from typing import Any

from solvers.bitconn import Grid, bits
from solvers.grid import neighbours

from . import search as fast
from .board import Answer, Board
from .ladder import BLANK, FULL, HIGH, LOW, NUMS, RANGE, SINGLE, _conn

UND, NUM, EMP = 0, 1, 2
MAX_CELLS = 8
STATE_NAME = {NUM: "number", EMP: "blank"}

# -- sentences: every text of a hint, in both languages ------------------------------

TEXT: dict[str, tuple[str, str]] = {
    # what the step decides
    "is_num": ("{cells} holds a number", "{cells}には数字が入ります"),
    "are_num": ("{cells} hold numbers", "{cells}には数字が入ります"),
    "is_emp": ("{cells} is empty", "{cells}は空白です"),
    "are_emp": ("{cells} are empty", "{cells}は空白です"),
    # why (one clause each)
    "full_clue": ("the {v} at {x} already has {kw} numbered neighbour{ks}",
                  "{x}の{v}はすでに隣に数字のマスが{k}個あります"),
    "full_neq": (("the number at {x} must stay {k}: one more numbered neighbour would make it "
                 "equal to {tv}, which it touches"),
                 ("{x}の数字は{k}のままです。隣の数字がもう1個増えると、接している{tv}と同じ数に"
                 "なります")),
    "need_clue": ("the {v} at {x} has exactly {vw} neighbour{vs} that can still hold a number",
                  "{x}の{v}の隣で数字を入れられるマスはちょうど{v}個です"),
    "need_one": (("the number at {x} needs at least one numbered neighbour and this is the "
                 "only one left"),
                 "{x}の数字には隣に数字のマスが1個以上必要で、残っているのはここだけです"),
    "need_neq": (("the number at {x} cannot be {bad} since it touches {tv}, so it needs "
                 "{kw} numbered neighbour{ks}, as many as can still hold one"),
                 ("{x}の数字は接している{tv}と同じ数にはなれないので、隣に数字のマスが{k}個必要で、"
                 "入れられるマスもちょうど{k}個です")),
    "empty_alone": ("a number there would have no numbered neighbour",
                    "そこに数字を入れても、隣に数字のマスがありません"),
    "empty_neq": ("a number there could only be {vals}, equal to {tv}, which it touches",
                  "そこに数字を入れると{vals}にしかならず、接している{tv}と同じ数になります"),
    "empty_pair": (("a number there would be {k}, and so would the number at {y}, which it "
                   "touches"),
                   "そこに数字を入れると{k}になり、接している{y}の数字も{k}になります"),
    "cut": ("empty cells cut {them} off from the numbers, and all numbers form one group",
            "空白に囲まれて、ほかの数字とひとつながりになれません"),
    "bridge": ("it is the only link left between the number at {x} and the number at {y}",
               "{x}の数字と{y}の数字をつなぐ道はここしか残っていません"),
    # a touching number: its digit as shown, or one only its value range leaves
    "tv": ("the {v} at {c}", "{c}の{v}"),
    "tv_derived": ("the number at {c}, which can only be {v}", "{v}にしかなれない{c}の数字"),
    # whole sentences
    "sentence": ("{Decided}: {reason}.", "{decided}。{reason}。"),
    "probe_num": ("Try a number at {x}: it leads to a contradiction at {y}, so it stays empty.",
                  "{x}に数字を入れてみると{y}で矛盾が起きます。なので{x}は空白です。"),
    "probe_emp": (("Try leaving {x} empty: it leads to a contradiction at {y}, so it holds a "
                  "number."),
                  "{x}を空白にしてみると{y}で矛盾が起きます。なので{x}には数字が入ります。"),
    "search": (("No short chain of deductions decides a cell here; the search for the unique "
               "answer shows that {decided}."),
               "ここでは短い推論で決まるマスがありません。唯一の答えを探索すると、{decided}。"),
    # level-2 details
    "d_full_clue": (("A number counts its numbered neighbours. The {v} at {x} has them at {nums}, "
                    "so every other neighbour stays empty."),
                    ("数字は隣の数字のマスの個数です。{x}の{v}の隣ではすでに{nums}が数字なので、"
                    "ほかの隣はすべて空白です。")),
    "d_full_neq": (("The number at {x} has {kw} numbered neighbour{ks}. Two touching numbers must "
                   "differ, and {tv} already holds the next value, so it cannot gain another "
                   "numbered neighbour."),
                   ("{x}の数字の隣には数字のマスが{k}個あります。隣り合う数字は違う数でなければならず、"
                   "{tv}がすでに次の値なので、隣の数字をこれ以上増やせません。")),
    "d_need": (("A number counts its numbered neighbours. The number at {x} must be {k}, "
               "and its other neighbours are empty or off the board, so each of these must "
               "hold a number."),
               ("数字は隣の数字のマスの個数です。{x}の数字は{k}でなければならず、ほかの隣は空白か"
               "盤の外なので、これらのマスにはすべて数字が入ります。")),
    "d_need_clue": (("A number counts its numbered neighbours. The {v} at {x} needs {vw} of "
                     "them, and its other neighbours are empty or off the board, so each of "
                     "these must hold a number."),
                    ("数字は隣の数字のマスの個数です。{x}の{v}には隣に数字のマスが{v}個必要で、"
                     "ほかの隣は空白か盤の外なので、これらのマスにはすべて数字が入ります。")),
    "d_need_one": (("A number is the count of its numbered neighbours and is at least 1, so "
                    "the number at {x} needs a numbered neighbour; its other neighbours are "
                    "empty or off the board."),
                   ("数字は隣の数字のマスの個数で、1以上です。{x}の数字には隣に数字のマスが必要で、"
                    "ほかの隣は空白か盤の外です。")),
    "d_empty_alone": (("Every neighbour of {cells} is empty or off the board; a number with no "
                      "numbered neighbour would be 0, which is not allowed."),
                      ("{cells}の隣はすべて空白か盤の外です。隣に数字のない数字は0になってしまい、"
                      "認められません。")),
    "d_empty_neq": (("A number at {cells} would count its numbered neighbours: {vals} here. "
                    "Each value it could take already sits next to it ({tv}), and touching "
                    "numbers must differ."),
                    ("{cells}に数字を入れると、その値は隣の数字の個数で、ここでは{vals}です。"
                    "どの値もすでに隣（{tv}）にあり、隣り合う数字は違う数でなければなりません。")),
    "d_empty_pair": (("With a number at {cells}, all its neighbours would be decided and it "
                     "would count {kw} numbered neighbour{ks}; the number at {y} would gain it "
                     "as its last neighbour and count {k} as well. Touching numbers must differ."),
                     ("{cells}に数字を入れると、隣がすべて決まってその値は{k}になります。{y}の数字も"
                     "これが最後の隣となって{k}になります。隣り合う数字は違う数でなければなりません。")),
    "d_cut": (("All numbered cells form one connected group. No path through undecided cells "
              "leads from {cells} to the numbers, so a number there could never join them."),
              ("数字のマスはすべてひとつながりです。{cells}からは未定のマスを通って数字に届く道が"
              "ないので、ここに数字を入れてもつながりません。")),
    "d_bridge": (("All numbered cells form one connected group. Leaving {cells} empty would "
                 "separate the number at {x} from the number at {y} for good."),
                 ("数字のマスはすべてひとつながりです。{cells}を空白にすると、{x}の数字と{y}の数字が"
                 "二度とつながらなくなります。")),
    "d_probe": ("Suppose {x} {trial}. {chain}{what} So that choice is impossible.",
                "{x}{trial_ja}と仮定します。{chain}{what}なのでその仮定は成り立ちません。"),
    "d_case": ("As a {v}, {what}.", "{v}なら、{what}。"),
    "d_then": ("Then {what}.", "すると、{what}。"),
    "d_search": (("No single cell leads to a contradiction within the deductions of the other "
                 "hints; this cell is taken from the unique answer, which a search finds."),
                 ("ほかのヒントの推論では、どのマスを仮定しても矛盾が出ません。このマスは探索で求めた"
                 "唯一の答えから取っています。")),
    # contradictions (for the probe's detail)
    "x_over": ("the {v} at {x} would have more than {vw} numbered neighbour{vs}",
               "{x}の{v}の隣の数字のマスが{v}個を超えます"),
    "x_under": ("the {v} at {x} could no longer reach {vw} numbered neighbour{vs}",
                "{x}の{v}の隣の数字のマスが{v}個に届かなくなります"),
    "x_value": ("the number at {x} would have no value left that differs from its neighbours",
                "{x}の数字に、隣と違う値が残らなくなります"),
    "x_alone": ("the number at {x} would have no numbered neighbour",
                "{x}の数字の隣に数字のマスがなくなります"),
    "x_clue": ("the clue at {x} would have to be empty", "{x}の手掛かりが空白になってしまいます"),
    "x_split": ("the numbers would be split into separate groups (at {x})",
                "数字のマスが分かれてしまいます（{x}）"),
    "probe_cases": ("Try a number at {x}: {cases}, so it stays empty.",
                    "{x}に数字を入れてみると、{cases}で矛盾が起きます。なので{x}は空白です。"),
    "case_first": ("as a {v} it leads to a contradiction at {y}", "{v}なら{y}"),
    "case": ("as a {v} at {y}", "{v}なら{y}"),
    "case_last": ("and as a {v} at {y}", "{v}なら{y}"),
    "case_sep": (", ", "、"),
    "deep": ("Trying digits one at a time rules out {notes}{more}. ",
             "数字を1つずつ試すと、{notes}{more}は矛盾するので入りません。"),
    # the sentence of such a probe says the trials come first
    # its en and ja entries are (old, new) pairs for str.replace; TEXT's annotation
    # says strings
    "deep_mark": ((": ", ": once trials rule out some digits elsewhere, "),
                  ("みると", "みると、ほかのマスで数字を試して消した値を踏まえて")),  # type: ignore[dict-item]
    "note": ("{v} at {x} (contradiction at {y})", "{x}の{v}（{y}で矛盾）"),
    "note_sep": ("; ", "、"),
    "note_more": (" and {n} more", "ほか{n}個"),
    "as_digit": ("as a {v}, ", "{v}なら"),
    "chain": ("Following the same deductions as the other hints, {more} ({cells}). ",
              "ほかのヒントと同じ推論で{n}マス（{cells}）が決まります。"),
}

WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four"}


def _name(i: int, w: int, lang: str) -> str:
    r, c = divmod(i, w)
    return f"row {r + 1}, column {c + 1}" if lang == "en" else f"{r + 1}行{c + 1}列"


def _names(cells: list[int], w: int, lang: str) -> str:
    parts = [_name(i, w, lang) for i in cells]
    if lang == "ja":
        return "、".join(parts)
    if len(parts) == 1:
        return parts[0]
    return "; ".join(parts[:-1]) + " and " + parts[-1]


def _vals(vals: list[int], lang: str) -> str:
    s = [str(v) for v in vals]
    if lang == "ja":
        return "か".join(s)
    return s[0] if len(s) == 1 else ", ".join(s[:-1]) + " or " + s[-1]


def _fill(key: str, lang: str, w: int, p: Mapping[str, Any]) -> str:
    """The template ``key`` in ``lang``; cell indices in ``p`` become cell names."""
    k = 0 if lang == "en" else 1
    out = {}
    for name, v in p.items():
        if name in ("x", "y", "cells", "t", "nums"):
            cells = v if isinstance(v, list) else [v]
            out[name] = _names(cells, w, lang)
        elif name == "vals" or name == "bad":
            out[name] = _vals(v, lang)
        else:
            out[name] = v
        if name == "tv":
            k = 0 if lang == "en" else 1
            ts = [TEXT["tv_derived" if der else "tv"][k].format(v=val, c=_name(j, w, lang))
                  for val, j, der in v]
            out[name] = ("、".join(ts) if lang == "ja" else
                         ts[0] if len(ts) == 1 else ", ".join(ts[:-1]) + " and " + ts[-1])
        if name in ("k", "v") and isinstance(v, int):
            out[name + "w"] = WORDS.get(v, str(v))
            out[name + "s"] = "" if v == 1 else "s"
    return TEXT[key][k].format(**out)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


# -- the board state -----------------------------------------------------------------

class Engine:
    def __init__(self, board: Board) -> None:
        self.h, self.w = board.h, board.w
        self.n = board.h * board.w
        self.nb = neighbours(board.h, board.w)
        self.grid = Grid(board.h, board.w)
        self.cert: dict[int, int] = {}   # Grid.cuts' certificates, kept across trials
        self.split = (0, 0)              # (conn) the live and fixed cells at a split
        # (base) the last marks asked about, their fixpoint and its masks
        self.last: tuple[list[int], list[int], tuple[int, int]] | None = None
        # the end of each trial (cell, state, digit) that ran to a fixpoint without a
        # contradiction, as a bitboard state: Trials.run tells from it, on a later
        # base, that the trial still ends so
        self.ends: dict[tuple[int, int, int], fast.State] = {}
        self.g = fast.geo(board.h, board.w)
        self.clues = board.flat()
        nb = self.nb
        # cells within two steps: a change there can alter this cell's deductions
        self.near = []
        for i in range(self.n):
            s = {i, *nb[i]}
            for j in nb[i]:
                s.update(nb[j])
            self.near.append(sorted(s))

    def initial(self) -> list[int]:
        return [NUM if v is not None else UND for v in self.clues]

    def known(self, st: list[int], j: int, deep: bool = True) -> int | None:
        """The digit of numbered cell j, when it is known: a clue, a count with nothing
        undecided around, or (``deep``) the one value in its count's range that no
        touching known number takes."""
        clue = self.clues[j]
        if isinstance(clue, int):
            return clue
        sure = poss = 0
        for m in self.nb[j]:
            s = st[m]
            if s != EMP:
                poss += 1
                if s == NUM:
                    sure += 1
        if sure == poss:
            return sure
        if not deep:
            return None
        vals = [v for v in range(max(1, sure), min(4, poss) + 1)
                if not any(st[m] == NUM and self.known(st, m, False) == v for m in self.nb[j])]
        return vals[0] if len(vals) == 1 else None

    def derived(self, st: list[int], j: int) -> bool:
        """Whether j's known digit is not yet its live count (undecided cells around)."""
        return not isinstance(self.clues[j], int) and any(st[m] == UND for m in self.nb[j])

    def values(self, st: list[int], i: int, sure: int, poss: int
               ) -> tuple[list[int], dict[int, list[int]]]:
        """The digits numbered cell i can still take, and the touching numbers that took
        away the others in its range (value -> cells)."""
        clue = self.clues[i]
        if isinstance(clue, int):
            return ([clue] if sure <= clue <= poss else []), {}
        lo, hi = max(1, sure), min(4, poss)
        tabu: dict[int, list[int]] = {}
        for j in self.nb[i]:
            if st[j] == NUM:
                v = self.known(st, j)
                if v is not None and lo <= v <= hi:
                    tabu.setdefault(v, []).append(j)
        return [v for v in range(lo, hi + 1) if v not in tabu], tabu

    def counts(self, st: list[int], i: int) -> tuple[list[int], list[int]]:
        num, und = [], []
        for j in self.nb[i]:
            s = st[j]
            if s == NUM:
                num.append(j)
            elif s == UND:
                und.append(j)
        return num, und

    # -- one cell's deductions: (kind, cells, state, why, params) or a contradiction --

    def at_number(self, st: list[int], i: int):
        num, und = self.counts(st, i)
        sure, poss = len(num), len(num) + len(und)
        vals, tabu = self.values(st, i, sure, poss)
        clue = self.clues[i]
        if not vals:
            if isinstance(clue, int):
                kind = "x_over" if sure > clue else "x_under"
                return ("contra", kind, [i], {"x": i, "v": clue})
            if poss == 0:
                return ("contra", "x_alone", [i], {"x": i})
            return ("contra", "x_value", [i, *sorted(j for c in tabu.values() for j in c)],
                    {"x": i})
        if not und:
            return None
        if max(vals) == sure:
            if isinstance(clue, int):
                return ("full_clue", und, EMP, [i, *num], {"x": i, "v": clue, "k": sure,
                                                       "nums": num})
            t = sorted(tabu.get(sure + 1, []))
            if t:
                return ("full_neq", und, EMP, [i, *t], {"x": i, "k": sure, "t": t,
                                                          "tv": [(sure + 1, j,
                                                                  self.derived(st, j))
                                                                 for j in t]})
        if min(vals) == poss:
            if isinstance(clue, int):
                return ("need_clue", und, NUM, [i, *num], {"x": i, "v": clue, "k": poss})
            bad = sorted(v for v in tabu if v < poss)
            if not bad:
                return ("need_one", und, NUM, [i], {"x": i, "k": poss})
            t = sorted(j for v in bad for j in tabu[v])
            tv = sorted((v, j, self.derived(st, j)) for v in bad for j in tabu[v])
            return ("need_neq", und, NUM, [i, *t], {"x": i, "k": poss, "bad": bad, "t": t,
                                                      "tv": tv})
        return None

    def at_undecided(self, st: list[int], i: int):
        num, und = self.counts(st, i)
        sure, poss = len(num), len(num) + len(und)
        if poss == 0:
            return ("empty_alone", [i], EMP, list(self.nb[i]), {"cells": [i]})
        if self.clues[i] is not None:
            return None
        vals, tabu = self.values(st, i, sure, poss)
        if vals:
            if und or sure == 0:
                return None
            # a number here would be `sure`, and so would a touching number whose only
            # undecided neighbour is this cell
            for j in num:
                if isinstance(self.clues[j], int):
                    continue
                nj, uj = self.counts(st, j)
                if uj == [i] and len(nj) + 1 == sure:
                    return ("empty_pair", [i], EMP, [j], {"cells": [i], "k": sure, "y": j})
            return None
        lo, hi = max(1, sure), min(4, poss)
        bad = sorted(tabu)
        t = sorted(j for v in bad for j in tabu[v])
        tv = sorted((v, j, self.derived(st, j)) for v in bad for j in tabu[v])
        return ("empty_neq", [i], EMP, t, {"cells": [i], "vals": bad, "t": t, "lo": lo,
                                            "hi": hi, "tv": tv})

    def local(self, st: list[int], i: int):
        if st[i] == NUM:
            return self.at_number(st, i)
        if st[i] == UND:
            return self.at_undecided(st, i)
        return None

    def connection(self, st: list[int]):
        """Cut-off cells (empty) and articulation cells (numbered), or a split."""
        # what _conn finds on the marks, from bitmasks: the cells cut off, and the
        # undecided cells whose emptiness would split the numbers
        alive = int("".join(["0" if s == EMP else "1" for s in reversed(st)]), 2)
        fixed = int("".join(["1" if s == NUM else "0" for s in reversed(st)]), 2)
        if not fixed:
            return None
        got = self.grid.cuts(alive, fixed, self.cert, most=self.n)
        assert got is not None
        reach, forced = got
        if fixed & ~reach:
            part = self._split(st)
            return ("contra", "x_split", part, {"x": part})
        cut = bits(alive & ~reach)
        if cut:
            return ("cut", cut[:MAX_CELLS], EMP, self._wall(st, cut), {"cells": cut[:MAX_CELLS],
                                                                         "them": "it"})
        if forced:
            p = forced[0]
            a, b = self._sides(st, p)
            return ("bridge", [p], NUM, [a, b], {"cells": [p], "x": a, "y": b})
        return None

    def _reach(self, st: list[int], start: int, skip: int = -1) -> dict[int, int]:
        dist = {start: 0}
        queue = [start]
        for i in queue:
            for j in self.nb[i]:
                if j != skip and j not in dist and st[j] != EMP:
                    dist[j] = dist[i] + 1
                    queue.append(j)
        return dist

    def _split(self, st: list[int]) -> list[int]:
        """The numbered cells outside the part holding the most of them."""
        seen: set[int] = set()
        parts = []
        for i in range(self.n):
            if st[i] == NUM and i not in seen:
                r = self._reach(st, i)
                seen.update(r)
                parts.append(sorted(j for j in r if st[j] == NUM))
        parts.sort(key=len, reverse=True)
        return sorted(j for p in parts[1:] for j in p)[:MAX_CELLS]

    def _wall(self, st: list[int], cells: list[int]) -> list[int]:
        s = set(cells)
        return sorted({j for i in cells for j in self.nb[i] if st[j] == EMP and j not in s}
                      )[:MAX_CELLS] or cells[:1]

    def _sides(self, st: list[int], p: int) -> tuple[int, int]:
        """The nearest numbered cell on each side of articulation cell p."""
        near = self._reach(st, p)
        nums = sorted((d, j) for j, d in near.items() if st[j] == NUM)
        a = nums[0][1]
        side = self._reach(st, a, skip=p)
        other = [j for d, j in nums if j not in side]
        return a, (other[0] if other else nums[-1][1])

    # -- the next deduction, simplest first ------------------------------------------

    def find(self, st: list[int]):
        best = None
        order = {"full_clue": 0, "need_clue": 0, "need_one": 1, "empty_alone": 1,
                 "full_neq": 2, "need_neq": 2, "empty_neq": 2, "empty_pair": 2}
        for i in range(self.n):
            d = self.local(st, i)
            if d is None:
                continue
            if d[0] == "contra":
                raise ValueError("the marks contradict the board")
            rank = order[d[0]]
            if best is None or rank < best[0]:
                best = (rank, d)
                if rank == 0:
                    break
        if best is not None:
            return best[1]
        d = self.connection(st)
        if d is not None and d[0] == "contra":
            raise ValueError("the marks contradict the board")
        return d

    def close(self, st: list[int], start: list[int], limit: int):
        """Apply every deduction to a fixpoint from a trial: (contradiction | None, the
        cells decided on the way). Gives up (None) past ``limit`` decided cells."""
        decided: list[int] = []
        todo = set(start)
        while True:
            while todo:
                i = min(todo)
                todo.discard(i)
                d = self.local(st, i)
                if d is None:
                    continue
                if d[0] == "contra":
                    return d, decided
                _, cells, state, _, _ = d
                for j in cells:
                    if st[j] != UND:
                        continue
                    if state == EMP and self.clues[j] is not None:
                        return ("contra", "x_clue", [j], {"x": j}), decided
                    st[j] = state
                    decided.append(j)
                    todo.update(self.near[j])
                if len(decided) > limit:
                    return None, decided
            d = self.connection(st)
            if d is None:
                return None, decided
            if d[0] == "contra":
                return d, decided
            _, cells, state, _, _ = d
            for j in cells:
                if state == EMP and self.clues[j] is not None:
                    return ("contra", "x_clue", [j], {"x": j}), decided
                st[j] = state
                decided.append(j)
                todo.update(self.near[j])


    # -- a trial followed on digits: the counts and touching numbers, value by value --

    def again(self, st: list[int], base: list[int], diff: list[int], end: list[int],
              masks: tuple[int, int]) -> tuple[list[int], tuple[int, int]] | None:
        """A trial's end (``end``, a fixpoint of the closure with no empty domain, found
        on an earlier base; ``diff`` the cells where ``base`` differs from that one)
        narrowed by ``base`` and followed to a fixpoint again: (domains, masks) when
        that fixpoint has no empty domain, else None. Every deduction narrows, and
        narrows no less from narrower domains, so the fixpoints below (base with the
        trial) lie below every state a run of the trial passes through: when one of
        them has no empty domain, no run finds a contradiction."""
        start, moves = [], []  # type: list[int], list[int]
        dom = end
        for j in diff:
            e = end[j]
            d = e & base[j]
            if d != e:
                if not d:
                    return None
                if not start:
                    dom = end[:]
                dom[j] = d
                start.append(j)
                if bool(d & NUMS) != bool(e & NUMS) or bool(d & BLANK) != bool(e & BLANK):
                    moves.append(j)
        if not start:
            return end, masks
        contra, _ = self.dclose(st, -1, UND, self.n, dom=dom, settled=True,
                                again=(start, masks, moves))
        if contra is not None:
            return None
        return dom, self.moved(masks, dom, moves)

    def moved(self, masks: tuple[int, int], dom: list[int], moves: list[int]
              ) -> tuple[int, int]:
        """The live and fixed masks ``masks`` with the status of the cells ``moves``
        read from ``dom``."""
        alive, fixed = masks
        for j in moves:
            d = dom[j]
            if not d & NUMS:
                alive &= ~(1 << j)
            elif not d & BLANK:
                fixed |= 1 << j
        return alive, fixed & alive

    def conn(self, dom: list[int], moves: list[int] | None,
             ref: tuple[int, int] | None) -> list[int] | None:
        """``_conn(dom)``, the same return and the same changes to ``dom``, from
        bitmasks (``_conn`` itself runs only where two or more cells are forced, for
        the order its search finds them in). With ``moves`` (every cell whose
        number/empty status moved since the state whose live and fixed masks are
        ``ref``), the masks are those with the moves applied. On a split,
        ``self.split`` is left holding the cells that may still hold a number and those
        that must."""
        if moves is None or ref is None:
            alive, fixed = self.masks(dom)
        else:
            alive, fixed = self.moved(ref, dom, moves)
        if not fixed:
            return []
        got = self.grid.cuts(alive, fixed, self.cert)
        if got is None:
            return _conn(dom, self.nb)
        reach, forced = got
        gone = alive & ~reach
        miss = fixed & ~reach
        if miss:
            # _conn empties the cut-off cells below the first cut-off number, then fails
            low = gone & ((miss & -miss) - 1)
            for j in bits(low):
                dom[j] = BLANK
            self.split = (alive & ~low, fixed)
            return None
        changed = bits(gone)
        for j in changed:
            dom[j] = BLANK
        for p in forced:
            dom[p] &= NUMS
        return changed + forced

    def masks(self, dom: list[int]) -> tuple[int, int]:
        """The cells that may hold a number, and those that must, as bitmasks."""
        alive = int("".join(["1" if d & NUMS else "0" for d in reversed(dom)]), 2)
        fixed = int("".join(["0" if d & BLANK or not d else "1" for d in reversed(dom)]), 2)
        return alive, fixed

    def domains(self, st: list[int]) -> list[int]:
        dom = []
        for i, s in enumerate(st):
            clue = self.clues[i]
            if isinstance(clue, int):
                dom.append(1 << clue if 1 <= clue <= 4 else 0)
            else:
                dom.append(NUMS if s == NUM else BLANK if s == EMP else FULL)
        return dom

    def _contra(self, dom: list[int], i: int, by: list[int]):
        clue = self.clues[i]
        if isinstance(clue, int):
            sure = sum(1 for j in self.nb[i] if dom[j] and not dom[j] & BLANK)
            kind = "x_over" if sure > clue else "x_under"
            return ("contra", kind, [i], {"x": i, "v": clue})
        if not any(dom[j] & NUMS for j in self.nb[i]):
            return ("contra", "x_alone", [i], {"x": i})
        return ("contra", "x_value", [i, *by], {"x": i})

    def base(self, st: list[int]) -> tuple[list[int], tuple[int, int]]:
        """The digit domains the marks imply, followed to a fixpoint (no trial), and
        their live and fixed masks. From the last marks asked about, when these only
        add to them, the fixpoint is the last one narrowed by the new marks and
        followed again from the cells they decide (the same fixpoint: every fixpoint
        below the new marks lies below the last one)."""
        last = self.last
        if last is not None and all(a == b or b == UND for a, b in zip(st, last[0],
                                                                          strict=True)):
            diff = [j for j in range(self.n) if st[j] != last[0][j]]
            got = self.again(st, self.domains(st), diff, last[1], last[2])
            if got is None:
                raise ValueError("the marks contradict the board")
            dom, masks = got[0][:], got[1]
        else:
            dom = self.domains(st)
            contra, _ = self.dclose(st, -1, UND, self.n, dom=dom)
            if contra is not None:
                raise ValueError("the marks contradict the board")
            masks = self.masks(dom)
        self.last = (st[:], dom[:], masks)
        return dom, masks

    def dclose(self, st: list[int], cell: int, state: int, limit: int, digit: int = 0,
               dom: list[int] | None = None, settled: bool = False,
               ref: tuple[int, int] | None = None,
               again: tuple[list[int], tuple[int, int], list[int]] | None = None,
               track: list[int] | None = None):
        """Follow the trial ``cell`` := ``state`` on digit domains (``dom``, a copy of the
        base, is narrowed in place): (contradiction | None, the cells whose number/empty
        status it decided on the way). ``cell`` -1: no trial, follow everything.
        ``settled``: ``dom`` is a fixpoint of this very closure (``base``), so while no
        cell's number/empty status moves the connection pass has nothing to find (it
        reads only those statuses) and is skipped; the result is the same. ``ref``
        (with ``settled``): the live and fixed masks of ``dom`` as given.
        ``again`` (with ``cell`` -1 and ``settled``): ``dom`` is such a fixpoint narrowed
        at some cells, given as (those cells, the fixpoint's live and fixed masks, the
        cells among them whose status moved); only they and their surroundings are
        looked at. ``track`` (with ``settled``): the list that receives the cells whose
        status moved."""
        nb = self.nb
        near = self.near
        if dom is None:
            dom = self.domains(st)
        decided: list[int] = []
        # the cells to look at, smallest first (a heap with membership flags: the same
        # order as taking the least of a set)
        inq = [False] * self.n
        # (settled) the cells whose number/empty status moved
        moves: list[int] = [] if track is None else track
        if again is not None:
            start, ref, moves = again
            heap = sorted({k for j in start for k in near[j]})
            for k in heap:
                inq[k] = True
            moved = bool(moves)
        elif cell < 0:
            heap = list(range(self.n))
            inq = [True] * self.n
            moved = True
        else:
            if state == EMP and self.clues[cell] is not None:
                return ("contra", "x_clue", [cell], {"x": cell}), []
            before = dom[cell]
            dom[cell] = BLANK if state == EMP else before & (1 << digit if digit else NUMS)
            if not dom[cell]:
                return self._contra(dom, cell, []), []
            after = dom[cell]
            moved = (not settled or bool(before & NUMS) != bool(after & NUMS)
                     or bool(before & BLANK) != bool(after & BLANK))
            if moved and settled:
                moves.append(cell)
            heap = list(near[cell])
            for k in heap:
                inq[k] = True
        push, pop = heapq.heappush, heapq.heappop

        def touch(j: int) -> None:
            for k in near[j]:
                if not inq[k]:
                    inq[k] = True
                    push(heap, k)

        def settle(j: int) -> None:
            if st[j] == UND and j not in seen:
                seen.add(j)
                decided.append(j)
        seen = {cell}
        while True:
            while heap:
                i = pop(heap)
                inq[i] = False
                d = dom[i]
                if not d:
                    return self._contra(dom, i, []), decided
                sure = poss = 0
                for j in nb[i]:
                    dj = dom[j]
                    if dj & NUMS:
                        poss += 1
                        if not dj & BLANK:
                            sure += 1
                nd = d & (BLANK | RANGE[min(sure, 4)][poss])
                if nd != d:
                    if not nd:
                        return self._contra(dom, i, []), decided
                    if d & BLANK and d & NUMS and not (nd & BLANK and nd & NUMS):
                        settle(i)
                        moved = True
                        moves.append(i)
                    dom[i] = d = nd
                    touch(i)
                if d & BLANK:
                    continue
                if poss > sure:
                    fill = BLANK if sure == HIGH[d] else NUMS if poss == LOW[d] else 0
                    if fill:
                        for j in nb[i]:
                            dj = dom[j]
                            if dj & BLANK and dj & NUMS:
                                dom[j] = dj & fill
                                settle(j)
                                moved = True
                                moves.append(j)
                                touch(j)
                v = SINGLE[d]
                if v:
                    bit = 1 << v
                    for j in nb[i]:
                        dj = dom[j]
                        if dj & bit:
                            dj &= ~bit
                            if not dj:
                                return self._contra(dom, j, [i]), decided
                            if not dj & NUMS:
                                settle(j)
                                moved = True
                                moves.append(j)
                            dom[j] = dj
                            touch(j)
                if len(decided) > limit:
                    return None, decided
            if not moved:
                return None, decided
            ch = self.conn(dom, moves if settled else None, ref)
            if ch is None:
                # the numbered cells apart from the largest group (_split on the marks)
                part = bits(self.grid.apart(*self.split))[:MAX_CELLS]
                return ("contra", "x_split", part, {"x": part}), decided
            if not ch:
                return None, decided
            for j in ch:
                settle(j)
                moves.append(j)
                touch(j)


# -- the trace -----------------------------------------------------------------------

def _step(eng: Engine, d, rung: str) -> dict[str, Any]:
    kind, cells, state, why, p = d
    w = eng.w
    many = len(cells) > 1
    key = ("are_" if many else "is_") + ("num" if state == NUM else "emp")
    out: dict[str, Any] = {"rung": rung, "cells": [list(divmod(i, w)) for i in cells],
                           "states": [STATE_NAME[state]] * len(cells),
                           "why": [list(divmod(i, w)) for i in why]}
    p = dict(p)
    p.setdefault("cells", cells)
    if kind == "cut":
        p["them"] = "them" if many else "it"
    detail_key = {"full_clue": "d_full_clue", "full_neq": "d_full_neq",
                  "need_clue": "d_need_clue", "need_one": "d_need_one", "need_neq": "d_need",
                  "empty_alone": "d_empty_alone",
                  "empty_neq": "d_empty_neq", "empty_pair": "d_empty_pair", "cut": "d_cut",
                  "bridge": "d_bridge"}[kind]
    if kind == "need_clue":
        p["k"] = p["v"]
    for lang in ("en", "ja"):
        decided = _fill(key, lang, w, {"cells": cells})
        reason = _fill(kind, lang, w, p)
        s = TEXT["sentence"][0 if lang == "en" else 1].format(
            Decided=_cap(decided), decided=decided, reason=reason)
        out[lang] = s
    out["detail"] = {lang: _fill(detail_key, lang, w, p) for lang in ("en", "ja")}
    return out


RUNG_OF = {"full_clue": "deg", "need_clue": "deg", "need_one": "deg", "empty_alone": "deg",
           "full_neq": "neq", "need_neq": "neq", "empty_neq": "neq", "empty_pair": "neq",
           "cut": "conn",
           "bridge": "conn"}


class Trials:
    """The trials of one base (the marks ``st`` and their digit domains at the
    closure's fixpoint), each followed once: a probe asks for the same trial again with
    another chain limit (the short probe, the long one, the digit trials of the deep
    probe), and a run that already ended within the new limit gives the same answer.
    A run stopped at its limit stands for any lower limit (it is None either way; a
    caller reads the chain of a contradiction only).

    A trial that ran to its end without a contradiction leaves that end in
    ``Engine.ends`` as a bitboard state (``search.State``); on a later base, the end
    narrowed by the base and followed to a fixpoint again on bitboards
    (``search.propagate``: the same rules, so the same greatest fixpoint) tells whether
    the trial still ends so, without following it cell by cell."""

    def __init__(self, eng: Engine, st: list[int], base: list[int] | None = None,
                 masks: tuple[int, int] | None = None) -> None:
        self.eng, self.st = eng, st
        if base is None:
            base, masks = eng.base(st)
        self.base = base
        self.sbase = fast.from_domains(base)
        self.memo: dict[tuple[int, int, int], tuple[int, Any, list[int]]] = {}
        self.masks = eng.masks(base) if masks is None else masks

    def run(self, i: int, state: int, limit: int, digit: int = 0):
        key = (i, state, digit)
        hit = self.memo.get(key)
        if hit is not None:
            was, contra, dec = hit
            if contra is None and len(dec) > was:      # stopped at its limit
                if limit <= was:
                    return None, dec
            elif limit >= min(was, len(dec)):         # ended on its own
                return contra, dec
        if self._still(key):
            # a fixpoint below this trial with no cell left empty: every run of the
            # trial ends without a contradiction (its cells are not read then)
            self.memo[key] = (limit, None, [])
            return None, []
        eng = self.eng
        dom = self.base[:]
        contra, dec = eng.dclose(self.st, i, state, limit, digit=digit, dom=dom,
                                 settled=True, ref=self.masks)
        if contra is None and len(dec) <= limit:
            eng.ends[key] = fast.from_domains(dom)
        self.memo[key] = (limit, contra, dec)
        return contra, dec

    def _still(self, key: tuple[int, int, int]) -> bool:
        """Whether the trial's end on an earlier base, narrowed by this base, is still a
        fixpoint with no empty domain (kept as the trial's end from now on)."""
        ends = self.eng.ends
        end = ends.get(key)
        if end is None:
            return False
        b = self.sbase
        x = (end[0] & b[0], end[1] & b[1], end[2] & b[2], end[3] & b[3], end[4] & b[4])
        if x != end:
            got = fast.propagate(self.eng.g, x, True, True, True,
                                 fast._joined_region(end))
            if got is None:
                return False
            ends[key] = got
        return True

    def holds(self, i: int, state: int, digit: int = 0) -> bool:
        """Whether the trial is known, without following it afresh, to end without a
        contradiction: an earlier run of it on this base ran to its end, or its end on
        an earlier base still ends so (``_still``). Such a trial's ``run`` is None at
        every limit."""
        key = (i, state, digit)
        hit = self.memo.get(key)
        if hit is not None:
            was, contra, dec = hit
            return contra is None and len(dec) <= was
        if not self._still(key):
            return False
        self.memo[key] = (0, None, [])
        return True


def _probe(eng: Engine, st: list[int], flat: list[int], limit: int,
           trials: Trials | None = None):
    """The undecided cell whose wrong state fails fastest: (cell, cases, chain), cases a
    list of (digit or 0, contradiction); a number is tried digit by digit when trying it
    whole does not fail."""
    best = None
    rank = None
    later = []
    if trials is None:
        trials = Trials(eng, st)
    base = trials.base
    for i in range(eng.n):
        if st[i] != UND:
            continue
        wrong = EMP if flat[i] else NUM
        cap = limit if best is None else min(limit, len(best[2]) - 1)
        contra, chain = trials.run(i, wrong, cap)
        if contra is not None and (best is None or len(chain) < len(best[2])):
            best = (i, [(0, contra)], chain)
            if not chain:
                return best
        elif contra is None and wrong == NUM:
            later.append(i)
    if best is not None:
        return best
    for i in later:
        vals = [v for v in range(1, 5) if base[i] >> v & 1]
        if any(trials.holds(i, NUM, v) for v in vals):
            # a digit that surely survives: the loop below would stop there with no
            # best (following the digits before it only to drop them)
            continue
        cases, chain = [], []
        for v in vals:
            contra, ch = trials.run(i, NUM, limit, digit=v)
            if contra is None:
                break
            cases.append((v, contra))
            chain += [j for j in ch if j not in chain]
        else:
            if cases and (rank is None or len(chain) < rank):
                best, rank = (i, cases, chain), len(chain)
    return best


DEEP_BATCH = 8      # digits the deep probe drops before it probes again


def _deep_probe(eng: Engine, st: list[int], flat: list[int], limit: int,
                trials: Trials | None = None):
    """A probe on the digits that trials rule out first: try each digit of each cell that
    may hold two or more, drop the ones that fail, and probe again after each.
    (cell, cases, chain, notes), notes the (cell, digit, contradiction cell) dropped.

    The probe after each drop is asked for lazily: the drops do not depend on it, and
    with no chain limit (``limit`` the board's cells) a probe that finds a cell on one
    base finds one on every narrower base (a trial that fails keeps failing), so the
    probe runs after every ``DEEP_BATCH`` drops (and after the last), and when it finds
    a cell, a bisection over the bases of the batch gives the first drop after which
    it does: the same answer and notes as probing after each drop."""
    if trials is None:
        trials = Trials(eng, st)
    base = trials.base[:]
    notes: list[tuple[int, int, int]] = []
    # the bases since the last probe that found nothing: (trials, notes so far)
    pending: list[tuple[Trials, int]] = []

    def settle():
        found = _probe(eng, st, flat, limit, pending[-1][0])
        if found is None:
            pending.clear()
            return None
        lo, hi = 0, len(pending) - 1        # pending[hi] finds a cell
        while lo < hi:
            mid = (lo + hi) // 2
            got = _probe(eng, st, flat, limit, pending[mid][0])
            if got is not None:
                hi, found = mid, got
            else:
                lo = mid + 1
        return (*found, notes[:pending[hi][1]])

    progress = True
    while progress:
        progress = False
        for i in range(eng.n):
            digits = [v for v in range(1, 5) if base[i] >> v & 1]
            if len(digits) < 2:
                continue
            for v in digits:
                contra, _ = trials.run(i, NUM, limit, digit=v)
                if contra is None:
                    continue
                was = base
                base = was[:]
                base[i] &= ~(1 << v)
                notes.append((i, v, contra[2][0]))
                # the fixpoint again, followed from the one cell narrowed
                got = eng.again(st, base, [i], was, trials.masks)
                if got is None:
                    raise ValueError("the marks contradict the board")
                base = got[0][:]
                trials = Trials(eng, st, base[:], got[1])
                pending.append((trials, len(notes)))
                if len(pending) >= DEEP_BATCH:
                    res = settle()
                    if res is not None:
                        return res
                progress = True
    if pending:
        return settle()
    return None


def _probe_step(eng: Engine, i: int, right: int, cases, chain: list[int],
                notes: list[tuple[int, int, int]] | None = None) -> dict[str, Any]:
    w = eng.w
    where: list[int] = []
    for _, (_, _, cells, _) in cases:
        where += [j for j in cells if j not in where]
    out: dict[str, Any] = {"rung": "probe", "cells": [list(divmod(i, w))],
                           "states": [STATE_NAME[right]],
                           "why": [list(divmod(j, w)) for j in where]}
    if len(cases) == 1:
        key = "probe_num" if right == EMP else "probe_emp"
        for lang in ("en", "ja"):
            out[lang] = _fill(key, lang, w, {"x": i, "y": cases[0][1][2][0]})
    else:
        for lang in ("en", "ja"):
            k = 0 if lang == "en" else 1
            parts = [TEXT["case_first" if n == 0 else "case_last" if n == len(cases) - 1
                          else "case"][k].format(v=v, y=_name(c[2][0], w, lang))
                     for n, (v, c) in enumerate(cases)]
            out[lang] = TEXT["probe_cases"][k].format(x=_name(i, w, lang),
                                                      cases=TEXT["case_sep"][k].join(parts))
    det = {}
    for lang in ("en", "ja"):
        k = 0 if lang == "en" else 1
        chain_txt = ""
        if chain:
            shown = chain[:6]  # type: list[Any]  # cells here, the notes' triples below
            cells = _names(shown, w, lang) + (" …" if len(chain) > 6 else "")
            if lang == "ja" and len(chain) > 6:
                cells = _names(shown, w, lang) + "など"
            more = ("one more cell follows" if len(chain) == 1 else
                    f"{len(chain)} more cells follow")
            chain_txt = TEXT["chain"][k].format(n=len(chain), cells=cells, more=more)
        what = " ".join(
            TEXT["d_case"][k].format(v=v, what=_fill(c[1], lang, w, c[3])) if v else
            TEXT["d_then"][k].format(what=_fill(c[1], lang, w, c[3]))
            for v, c in cases)
        if lang == "ja":
            what = what.replace(" ", "")
        det[lang] = TEXT["d_probe"][k].format(
            x=_name(i, w, lang), trial="holds a number" if right == EMP else "is empty",
            trial_ja="に数字が入る" if right == EMP else "が空白だ", chain=chain_txt,
            what=what)
    if notes:
        out["trials"] = len(notes)
        shown = notes[:4]
        for lang in ("en", "ja"):
            k = 0 if lang == "en" else 1
            items = [TEXT["note"][k].format(v=v, x=_name(j, w, lang), y=_name(y, w, lang))
                     for j, v, y in shown]
            more = TEXT["note_more"][k].format(n=len(notes) - len(shown)) \
                if len(notes) > len(shown) else ""
            lead = TEXT["deep"][k].format(notes=TEXT["note_sep"][k].join(items), more=more)
            det[lang] = lead + det[lang]
            out[lang] = out[lang].replace(*TEXT["deep_mark"][k], 1)
    out["detail"] = det
    if chain:
        out["detail_cells"] = [list(divmod(j, w)) for j in chain[:MAX_CELLS]]
    return out


def _search_step(eng: Engine, i: int, right: int) -> dict[str, Any]:
    w = eng.w
    key = "is_num" if right == NUM else "is_emp"
    out: dict[str, Any] = {"rung": "search", "cells": [list(divmod(i, w))],
                           "states": [STATE_NAME[right]], "why": [list(divmod(i, w))]}
    for lang in ("en", "ja"):
        out[lang] = _fill("search", lang, w, {"decided": _fill(key, lang, w, {"cells": [i]})})
    out["detail"] = {lang: TEXT["d_search"][0 if lang == "en" else 1] for lang in ("en", "ja")}
    return out


def trace(board: Board, answer: Answer, probe_limit: int = 60) -> list[dict[str, Any]]:
    """Hint steps from the untouched board to the answer, one deduction each."""
    eng = Engine(board)
    flat = answer.flat()
    st = eng.initial()
    steps: list[dict[str, Any]] = []
    while UND in st:
        d = eng.find(st)
        if d is not None:
            kind, cells, state, _, _ = d
            for j in cells:
                if (NUM if flat[j] else EMP) != state:
                    raise ValueError("a deduction disagrees with the answer")
                st[j] = state
            steps.append(_step(eng, d, RUNG_OF[kind]))
            continue
        trials = Trials(eng, st)
        found = _probe(eng, st, flat, probe_limit, trials)
        if found is None:
            found = _probe(eng, st, flat, eng.n, trials)
        if found is not None:
            i, cases, chain = found
            right = NUM if flat[i] else EMP
            st[i] = right
            steps.append(_probe_step(eng, i, right, cases, chain))
            continue
        deep = _deep_probe(eng, st, flat, eng.n, trials)
        if deep is not None:
            i, cases, chain, notes = deep
            right = NUM if flat[i] else EMP
            st[i] = right
            steps.append(_probe_step(eng, i, right, cases, chain, notes))
            continue
        i = st.index(UND)
        # prefer a cell next to a decided one
        for j in range(eng.n):
            if st[j] == UND and any(st[m] != UND for m in eng.nb[j]):
                i = j
                break
        right = NUM if flat[i] else EMP
        st[i] = right
        steps.append(_search_step(eng, i, right))
    return steps
