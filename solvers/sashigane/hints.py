"""The hint trace, one deduction per step (the bank, ``bank.py``, grades boards by it).

A small engine that reasons as a solver on paper does: each circle keeps the Ls it could
still own (the fit rung's candidates), each cell an owner once one is forced, and a step
is the simplest deduction left:

* ``circles``  two circles touch: a line runs between them (each is its own corner);
* ``arrow``    an arrow's arm runs straight to the first circle it points at, so the
               arrow and every cell on the way belong to that circle's piece;
* ``reach``    only one circle still has an L that reaches a cell;
* ``common``   every L still open to a circle passes through a cell (``number`` when the
               circle's number is what narrows its Ls);
* ``probe``    giving a cell to one circle leads, by the deductions above, to a
               contradiction, so it belongs to the other;
* ``search``   none of those decides anything: one cell from the unique answer.

A step decides the owner of 1 to 8 cells (one connected run of one deduction) and lists
the lines between two decided cells that it makes known (``edges`` with ``states``:
``line`` between pieces, ``none`` inside one). Sentences come from ``TEXT`` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.grid import neighbours

from .board import ARROW, CIRCLE, DIRS, Answer, Board
from .fit import fit

MAX_CELLS = 8
RUNG_ORDER = ("circles", "arrow", "reach", "common", "number", "probe", "search")

# Every sentence of a hint, per language. Fields: {cells} the decided cells, {verb_*}
# agreement words, {circle} the owning circle, {arrow}, {other}, {n}, {k}, {where} ...
TEXT: dict[str, dict[str, dict[str, str]]] = {
    "circles": {
        "en": {"say": "A line runs between {a} and {b}: each circle is the corner of its "
                      "own piece, so two touching circles are never in one piece.",
               "detail": "Every piece holds exactly one circle, on its corner. The circles "
                         "at {a} and {b} are neighbours, so they lie in two different "
                         "pieces and the border between them is a line."},
        "ja": {"say": "{a}と{b}の間には線が引かれます。丸はそれぞれ自分のピースの曲がり角"
                      "なので、隣り合う二つの丸が同じピースに入ることはありません。",
               "detail": "どのピースにも丸がちょうど一個、曲がり角にあります。{a}と{b}の丸は"
                         "隣り合っているので別々のピースに入り、その境目は線になります。"},
    },
    "arrow": {
        "en": {"say": "{Cells} {belong} to the piece of the circle at {circle}: the arrow at "
                      "{arrow} points along its arm straight to that circle.",
               "detail": "An arrow sits on an end of its piece and points along its arm to "
                         "the corner, where the piece's circle is. The first circle in the "
                         "arrow's direction from {arrow} is the one at {circle}, so the arm "
                         "runs from the arrow to that circle: the arrow and every cell "
                         "between them are in its piece."},
        "ja": {"say": "{cells}は{circle}の丸のピースに入ります。{arrow}の矢印が腕に沿って"
                      "まっすぐその丸を指しているからです。",
               "detail": "矢印はピースの端にあり、腕に沿って曲がり角を指します。曲がり角には"
                         "そのピースの丸があります。{arrow}から矢印の向きに進んで最初に出会う"
                         "丸は{circle}の丸なので、腕は矢印からその丸まで続きます。矢印とその間の"
                         "マスはすべてそのピースに入ります。"},
    },
    "reach": {
        "en": {"say": "{Cells} {belong} to the piece of the circle at {circle}: no other "
                      "circle can still reach {it}.",
               "detail": "Every cell belongs to some piece. {others_en}Only the circle at "
                         "{circle} still has an L (corner on the circle, one arrow on an end "
                         "pointing back at it) that covers {cells}."},
        "ja": {"say": "{cells}は{circle}の丸のピースに入ります。ほかの丸のL字はもうそこまで"
                      "届きません。",
               "detail": "どのマスもどれかのピースに入ります。{others_ja}{cells}を覆うL字"
                         "（丸が曲がり角にあり、端の矢印が一個その丸を指す形）が残っている"
                         "のは{circle}の丸だけです。"},
    },
    "common": {
        "en": {"say": "{Cells} {belong} to the piece of the circle at {circle}: every L "
                      "still possible for that circle passes through {it}.",
               "detail": "The circle at {circle} still has {k} possible Ls (corner on the "
                         "circle, exactly one arrow on an end pointing back at it, no cell "
                         "that another piece already holds). All {k} of them cover {cells}, "
                         "so whichever one it turns out to be, {cells} {are} in its piece.",
               "detail1": "The circle at {circle} has only one possible L left (corner on "
                          "the circle, exactly one arrow on an end pointing back at it, no "
                          "cell that another piece already holds), and it covers {cells}."},
        "ja": {"say": "{cells}は{circle}の丸のピースに入ります。その丸に残っているどのL字も"
                      "そこを通ります。",
               "detail": "{circle}の丸に残っているL字は{k}通りです（丸が曲がり角にあり、"
                         "端の矢印が一個その丸を指し、ほかのピースのマスを含まない形）。"
                         "{k}通りのどれも{cells}を覆うので、どの形になっても{cells}はこの丸"
                         "のピースに入ります。",
               "detail1": "{circle}の丸に残っているL字は一通りだけです（丸が曲がり角にあり、"
                          "端の矢印が一個その丸を指し、ほかのピースのマスを含まない形）。"
                          "その形が{cells}を覆います。"},
    },
    "number": {
        "en": {"say": "{Cells} {belong} to the piece of the circle at {circle}: every piece "
                      "of {n} cells that circle can still make passes through {it}.",
               "detail": "The number {n} at {circle} is the size of its piece. Only {k} Ls "
                         "of {n} cells fit there (corner on the circle, one arrow on an end "
                         "pointing back at it, no cell another piece holds), and all of them "
                         "cover {cells}.",
               "detail1": "The number {n} at {circle} is the size of its piece. Only one L of "
                          "{n} cells still fits there (corner on the circle, one arrow on an "
                          "end pointing back at it, no cell another piece holds), and it "
                          "covers {cells}."},
        "ja": {"say": "{cells}は{circle}の丸のピースに入ります。その丸が作れる{n}マスの"
                      "ピースはどれもそこを通ります。",
               "detail": "{circle}の丸の数字{n}はそのピースのマス数です。そこに収まる{n}マス"
                         "のL字（丸が曲がり角にあり、端の矢印が一個その丸を指し、ほかの"
                         "ピースのマスを含まない形）は{k}通りで、どれも{cells}を覆います。",
               "detail1": "{circle}の丸の数字{n}はそのピースのマス数です。そこに収まる{n}"
                          "マスのL字（丸が曲がり角にあり、端の矢印が一個その丸を指し、ほかの"
                          "ピースのマスを含まない形）は一通りだけで、それが{cells}を覆います。"},
    },
    "probe": {
        "en": {"say": "Try giving {cells} to the circle at {other}: it leads to a "
                      "contradiction at {where}, so {it} {belongs} to the circle at {circle}.",
               "detail": "Suppose {cells} were in the piece of the circle at {other}. "
                         "Following only the simple deductions (arrows, cells a single "
                         "circle reaches, cells all of a circle's Ls use), {contra_en} "
                         "So that supposition is wrong, and the only circle left for {cells} "
                         "is the one at {circle}."},
        "ja": {"say": "{cells}を{other}の丸のピースに入れてみると、{where}で矛盾が起きます。"
                      "したがって{cells}は{circle}の丸のピースに入ります。",
               "detail": "{cells}が{other}の丸のピースに入ると仮定します。簡単な推論（矢印、"
                         "一つの丸しか届かないマス、ある丸のどのL字も通るマス）だけをたどると、"
                         "{contra_ja}この仮定は誤りなので、{cells}に残る丸は{circle}の丸だけ"
                         "です。"},
    },
    "search": {
        "en": {"say": "No short chain of deductions decides a cell here; the search shows "
                      "that {cells} {belong} to the piece of the circle at {circle}.",
               "detail": "No single deduction and no single trial with a contradiction "
                         "decides any cell at this point. The board has exactly one answer "
                         "(found by search), and in it {cells} {are} in the piece of the "
                         "circle at {circle}."},
        "ja": {"say": "ここでは短い推論ではマスが決まりません。探索によると、{cells}は"
                      "{circle}の丸のピースに入ります。",
               "detail": "この時点では、一つの推論でも、矛盾を導く一回の仮定でも、決まるマス"
                         "がありません。盤の答えはちょうど一つで（探索で求めたもの）、その中で"
                         "{cells}は{circle}の丸のピースに入ります。"},
    },
}
CONTRA = {
    "room": {"en": "the circle at {at} is left with no L at all.",
             "ja": "{at}の丸に置けるL字が一つもなくなります。"},
    "cell": {"en": "no circle can reach {at} any more.",
             "ja": "{at}にどの丸も届かなくなります。"},
}
OTHERS = {"en": "The circles at {list} could reach {cells} only with Ls that are already "
                "ruled out. ",
          "ja": "{list}の丸がそこに届くL字は、すでにすべて消えています。"}


# ---- cell names --------------------------------------------------------------------

def at_en(i: int, w: int) -> str:
    r, c = divmod(i, w)
    return f"row {r + 1}, column {c + 1}"


def at_ja(i: int, w: int) -> str:
    r, c = divmod(i, w)
    return f"{r + 1}行{c + 1}列"


def cells_en(cells: list[int], w: int) -> str:
    rc = sorted(divmod(i, w) for i in cells)
    if len(rc) == 1:
        return at_en(cells[0], w)
    rows = {r for r, _ in rc}
    cols = {c for _, c in rc}
    if len(rows) == 1 and max(cols) - min(cols) == len(rc) - 1:
        sep = " and " if len(rc) == 2 else " to "
        return f"row {rc[0][0] + 1}, columns {min(cols) + 1}{sep}{max(cols) + 1}"
    if len(cols) == 1 and max(rows) - min(rows) == len(rc) - 1:
        sep = " and " if len(rc) == 2 else " to "
        return f"rows {min(rows) + 1}{sep}{max(rows) + 1} of column {rc[0][1] + 1}"
    parts = [f"row {r + 1}, column {c + 1}" for r, c in rc]
    return "; ".join(parts[:-1]) + " and " + parts[-1]


def cells_ja(cells: list[int], w: int) -> str:
    rc = sorted(divmod(i, w) for i in cells)
    if len(rc) == 1:
        return at_ja(cells[0], w)
    rows = {r for r, _ in rc}
    cols = {c for _, c in rc}
    if len(rows) == 1 and max(cols) - min(cols) == len(rc) - 1:
        return f"{rc[0][0] + 1}行{min(cols) + 1}〜{max(cols) + 1}列"
    if len(cols) == 1 and max(rows) - min(rows) == len(rc) - 1:
        return f"{min(rows) + 1}〜{max(rows) + 1}行{rc[0][1] + 1}列"
    return "、".join(f"{r + 1}行{c + 1}列" for r, c in rc)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _sentences(rung: str, cells: list[int], w: int, **f: Any) -> dict[str, Any]:
    """The step's sentence and detail in both languages, from TEXT."""
    one = len(cells) == 1
    en_cells = cells_en(cells, w)
    fields_en = {"cells": en_cells, "Cells": _cap(en_cells),
                 "belong": "belongs" if one else "belong",
                 "belongs": "belongs" if one else "belong",
                 "are": "is" if one else "are", "it": "it" if one else "them"}
    fields_ja = {"cells": cells_ja(cells, w)}
    out: dict[str, Any] = {}
    detail: dict[str, str] = {}
    for lang, base in (("en", fields_en), ("ja", fields_ja)):
        vals = dict(base)
        for k, v in f.items():
            if isinstance(v, int) and not isinstance(v, bool) and k not in ("n", "k"):
                v = at_en(v, w) if lang == "en" else at_ja(v, w)
            vals[k] = v
        vals = {k: (v[lang] if isinstance(v, dict) else v) for k, v in vals.items()}
        out[lang] = TEXT[rung][lang]["say"].format(**vals)
        key = "detail1" if f.get("k") == 1 and "detail1" in TEXT[rung][lang] else "detail"
        detail[lang] = TEXT[rung][lang][key].format(**vals)
    out["detail"] = detail
    return out


# ---- the engine -----------------------------------------------------------------------

class Contradiction(Exception):
    def __init__(self, kind: str, at: int) -> None:
        super().__init__(kind)
        self.kind, self.at = kind, at


class Engine:
    """Owners and surviving Ls of one seed-rules board."""

    def __init__(self, board: Board) -> None:
        cand = fit(board)
        self.board = board
        self.h, self.w = board.h, board.w
        self.n = board.h * board.w
        self.circles = cand.circles
        self.numbers = cand.numbers
        G = len(self.circles)
        self.alive: list[list[int]] = [[] for _ in range(G)]
        for m, g in zip(cand.masks, cand.group, strict=True):
            if g >= 0:
                self.alive[g].append(m)
        self.first_reach = self._unions()
        self.owner = [-1] * self.n
        for g, c in enumerate(self.circles):
            self.owner[c] = g
        self.group_of = {c: g for g, c in enumerate(self.circles)}

    def copy(self) -> Engine:
        e = object.__new__(Engine)
        e.__dict__.update(self.__dict__)
        e.alive = [list(a) for a in self.alive]
        e.owner = list(self.owner)
        return e

    def _unions(self) -> list[int]:
        out = []
        for ms in self.alive:
            u = 0
            for m in ms:
                u |= m
            out.append(u)
        return out

    def assign(self, cells: list[int], g: int) -> None:
        for i in cells:
            self.owner[i] = g
        self.filter()

    def filter(self) -> None:
        """Drop every L that misses a cell its circle owns or takes another's cell; raise
        Contradiction when a circle has no L left or a cell no circle reaches."""
        own = [0] * len(self.circles)
        for i, g in enumerate(self.owner):
            if g >= 0:
                own[g] |= 1 << i
        taken = 0
        for m in own:
            taken |= m
        for g, ms in enumerate(self.alive):
            other = taken & ~own[g]
            keep = [m for m in ms if m & own[g] == own[g] and not m & other]
            if not keep:
                raise Contradiction("room", self.circles[g])
            self.alive[g] = keep
        reach = 0
        for u in self._unions():
            reach |= u
        missing = ((1 << self.n) - 1) & ~reach
        if missing:
            raise Contradiction("cell", (missing & -missing).bit_length() - 1)

    def reachers(self) -> tuple[list[int], list[int]]:
        """Per cell, the one circle that reaches it (-1: several) and per circle the
        cells all its Ls cover."""
        once = twice = 0
        unions = self._unions()
        for u in unions:
            twice |= once & u
            once |= u
        sole = [-1] * self.n
        for g, u in enumerate(unions):
            m = u & ~twice
            while m:
                low = m & -m
                sole[low.bit_length() - 1] = g
                m ^= low
        inter = []
        for ms in self.alive:
            x = (1 << self.n) - 1
            for m in ms:
                x &= m
            inter.append(x)
        return sole, inter

    def settle(self) -> None:
        """Every reach and common deduction at once, to a fixed point (for probes)."""
        while True:
            sole, inter = self.reachers()
            new = False
            for i in range(self.n):
                if self.owner[i] < 0:
                    g = sole[i]
                    if g < 0:
                        for gg, x in enumerate(inter):
                            if x >> i & 1:
                                g = gg
                                break
                    if g >= 0:
                        self.owner[i] = g
                        new = True
            if not new:
                return
            self.filter()

    def possible(self, i: int) -> list[int]:
        return [g for g, ms in enumerate(self.alive) if any(m >> i & 1 for m in ms)]


def _run(cells: list[int], start: int, h: int, w: int) -> list[int]:
    """The connected run of ``cells`` through ``start``, at most MAX_CELLS, nearest first."""
    pool = set(cells)
    nbs = neighbours(h, w)
    out = [start]
    seen = {start}
    k = 0
    while k < len(out) and len(out) < MAX_CELLS:
        i = out[k]
        k += 1
        for j in nbs[i]:
            if j in pool and j not in seen and len(out) < MAX_CELLS:
                seen.add(j)
                out.append(j)
    return sorted(out)


def _arrow_arms(board: Board) -> list[tuple[int, int, list[int]]]:
    """(arrow cell, owning circle's cell, arm cells from the arrow up to the circle)."""
    out = []
    w, h = board.w, board.h
    for a, k in enumerate(board.cells):
        if k.kind != ARROW:
            continue
        dr, dc = DIRS[k.value]
        r, c = divmod(a, w)
        arm = []
        while 0 <= r < h and 0 <= c < w and board.cells[r * w + c].kind != CIRCLE:
            arm.append(r * w + c)
            r, c = r + dr, c + dc
        if 0 <= r < h and 0 <= c < w:
            out.append((a, r * w + c, arm))
    return out


def trace(board: Board, answer: Answer) -> list[dict[str, Any]]:
    """The hint steps that take the fresh board to ``answer``, one deduction each."""
    h, w, n = board.h, board.w, board.h * board.w
    truth_circle = {}
    for cells in answer.groups():
        circ = [i for i in cells if board.cells[i].kind == CIRCLE]
        for i in cells:
            truth_circle[i] = circ[0] if len(circ) == 1 else -1
    steps: list[dict[str, Any]] = []
    seen: set[tuple[int, str]] = set()

    def add(step: dict[str, Any], cells: list[int], known: list[bool]) -> None:
        edges, states = [], []
        for i in sorted(cells):
            r, c = divmod(i, w)
            for j, side, ok in ((i + 1, "r", c + 1 < w), (i + w, "b", r + 1 < h),
                                (i - 1, "r", c > 0), (i - w, "b", r > 0)):
                if not ok or not known[j]:
                    continue
                key = (min(i, j), side)
                if key in seen:
                    continue
                seen.add(key)
                a = min(i, j)
                edges.append([a // w, a % w, side])
                states.append("line" if answer.pieces[i] != answer.pieces[j] else "none")
        order = sorted(range(len(edges)), key=lambda k: (edges[k][2] == "b", edges[k][:2]))
        step["cells"] = [list(divmod(i, w)) for i in sorted(cells)]
        step["edges"] = [edges[k] for k in order]
        step["states"] = [states[k] for k in order]
        steps.append(step)

    if board.rules != "seed" or any(v < 0 for v in truth_circle.values()):
        _search_only(board, answer, truth_circle, add)
        return steps

    eng = Engine(board)
    known = [False] * n
    for c in eng.circles:
        known[c] = True
    # touching circles
    for c in eng.circles:
        r, cc = divmod(c, w)
        for j, ok in ((c + 1, cc + 1 < w), (c + w, r + 1 < h)):
            if ok and board.cells[j].kind == CIRCLE:
                step = {"rung": "circles", "why": [list(divmod(c, w)), list(divmod(j, w))],
                        **_sentences("circles", [c, j], w, a=c, b=j)}
                add(step, [c, j], known)
    arms = _arrow_arms(board)
    while not all(known):
        step, cells, g = _next(eng, arms, board, truth_circle)
        for i in cells:
            if eng.circles[g] != truth_circle[i]:
                raise AssertionError(f"trace step {step['rung']} contradicts the answer")
            known[i] = True
        eng.assign(cells, g)
        add(step, cells, known)
    return steps


def _next(eng: Engine, arms: list[tuple[int, int, list[int]]], board: Board,
          truth: Mapping[int, int]) -> tuple[dict[str, Any], list[int], int]:
    """The simplest deduction left: (step without units, decided cells, owner group)."""
    w = eng.w
    for a, circ, arm in arms:
        todo = [i for i in arm if eng.owner[i] < 0]
        if todo:
            cells = _run(todo, todo[0], eng.h, w)
            g = eng.group_of[circ]
            return ({"rung": "arrow", "why": [list(divmod(a, w)), list(divmod(circ, w))],
                     **_sentences("arrow", cells, w, circle=circ, arrow=a)}, cells, g)
    sole, inter = eng.reachers()
    for i in range(eng.n):
        if eng.owner[i] < 0 and sole[i] >= 0:
            g = sole[i]
            cells = _run([j for j in range(eng.n) if eng.owner[j] < 0 and sole[j] == g], i,
                         eng.h, w)
            others = sorted({eng.circles[x] for x, u in enumerate(eng.first_reach)
                             if x != g and any(u >> j & 1 for j in cells)})[:3]
            circ = eng.circles[g]
            if others:
                oth = {"en": OTHERS["en"].format(list=" and ".join(at_en(o, w) for o in others),
                                                 cells=cells_en(cells, w)),
                       "ja": OTHERS["ja"].format(list="、".join(at_ja(o, w) for o in others))}
            else:
                oth = {"en": "", "ja": ""}
            # why: [row, col] pairs here, cell indexes in the loop below
            why = [list(divmod(x, w)) for x in sorted([circ, *others])]  # type: list[Any]
            return ({"rung": "reach", "why": why,
                     **_sentences("reach", cells, w, circle=circ, others_en=oth["en"],
                                  others_ja=oth["ja"])}, cells, g)
    for i in range(eng.n):
        if eng.owner[i] >= 0:
            continue
        for g, x in enumerate(inter):
            if x >> i & 1:
                cells = _run([j for j in range(eng.n) if eng.owner[j] < 0 and x >> j & 1],
                             i, eng.h, w)
                circ = eng.circles[g]
                num = eng.numbers[g]
                rung = "number" if num is not None else "common"
                why = [circ] + [j for j, o in enumerate(eng.owner)
                                if o == g and board.cells[j].kind == ARROW]
                return ({"rung": rung, "why": [list(divmod(j, w)) for j in sorted(why)],
                         "options": len(eng.alive[g]),
                         **_sentences(rung, cells, w, circle=circ, k=len(eng.alive[g]),
                                      n=num or 0)}, cells, g)
    probe = _probe(eng)
    if probe is not None:
        return probe
    i = eng.owner.index(-1)
    g = eng.group_of[truth[i]]
    return ({"rung": "search", "why": [list(divmod(eng.circles[g], w))],
             **_sentences("search", [i], w, circle=eng.circles[g])}, [i], g)


def _probe(eng: Engine) -> tuple[dict[str, Any], list[int], int] | None:
    """A cell all of whose owners but one lead to a contradiction."""
    w = eng.w
    for i in range(eng.n):
        if eng.owner[i] >= 0:
            continue
        owners = eng.possible(i)
        fails: list[tuple[int, Contradiction]] = []
        left = []
        for g in owners:
            trial = eng.copy()
            try:
                trial.assign([i], g)
                trial.settle()
                left.append(g)
            except Contradiction as err:
                fails.append((g, err))
            if len(left) > 1:
                break
        if len(left) == 1 and fails:
            g = left[0]
            other, err = fails[0]
            where = err.at
            f = {"circle": eng.circles[g], "other": eng.circles[other], "where": where}
            contra_en = CONTRA[err.kind]["en"].format(at=at_en(where, w))
            contra_ja = CONTRA[err.kind]["ja"].format(at=at_ja(where, w))
            whys = sorted({e.at for _, e in fails})
            step = {"rung": "probe", "why": [list(divmod(x, w)) for x in whys],
                    "detail_cells": [list(divmod(x, w))
                                     for x in sorted({eng.circles[o] for o, _ in fails})],
                    **_sentences("probe", [i], w, contra_en=contra_en, contra_ja=contra_ja,
                                 **f)}
            if len(fails) > 1:
                extra_en = " (the same happens for the circle" + ("s" if len(fails) > 2 else "")
                extra_en += " at " + " and ".join(at_en(eng.circles[o], w)
                                                  for o, _ in fails[1:]) + ")"
                extra_ja = "（" + "、".join(at_ja(eng.circles[o], w) for o, _ in fails[1:])
                extra_ja += "の丸でも同じです）"
                step["detail"] = {"en": step["detail"]["en"][:-1] + extra_en + ".",
                                  "ja": step["detail"]["ja"][:-1] + extra_ja + "。"}
            return step, [i], g
    return None


def _search_only(board: Board, answer: Answer, truth: Mapping[int, int], add: Any) -> None:
    """Boards outside the seed rules (clueless pieces): the answer, one piece part at a
    time, as search steps."""
    w = board.w
    known = [False] * (board.h * w)
    for cells in answer.groups():
        for k in range(0, len(cells), MAX_CELLS):
            part = cells[k:k + MAX_CELLS]
            for i in part:
                known[i] = True
            circ = truth[part[0]]
            anchor = circ if circ >= 0 else part[0]
            add({"rung": "search", "why": [list(divmod(anchor, w))],
                 **_sentences("search", part, w, circle=anchor)}, part, known)


__all__ = ["MAX_CELLS", "RUNG_ORDER", "TEXT", "trace"]
