"""Hints one deduction at a time (the bank measures their difficulty).

A small engine of its own that reasons the way a person does, one clue or one place at a
time, and says why in a sentence:

* arm (one number): it already sees its count, so its views end (``sealed``); it can see
  exactly as many cells as it needs, so all are flooded (``reach``); the other three
  directions give at most so many, so this one must give at least the rest (``min``);
  the others already give so many, so this one can give no more (``max``); flooding the
  next cell would join a flooded run beyond and overshoot (``jump``); the other
  directions have room for only so much once runs that would overshoot are ruled out
  (``minj``).
* block: three flooded cells of a 2x2 make the fourth dry.
* flow: a cell walled off from every flooded cell is dry (``unreach``); a cell without
  which two flooded cells can no longer meet is flooded (``cut``).
* probe: when none of these applies, one cell tried the wrong way round leads by them to
  a contradiction; only if no single cell does, a ``search`` step takes a cell from the
  answer and says so.

Every deduction is a ``Ded``: the cells it decides, the cells that justify it and the
numbers its sentence needs. All sentences come from ``TEXT``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solvers.bitconn import Grid, bits

from .board import Answer, Board

FLOODED, DRY = 1, 2
STATE_NAME = {FLOODED: "flooded", DRY: "dry"}
MAX_CELLS = 8                 # a step decides at most this many cells
RUNG_OF = {"sealed": "arm", "sealed0": "arm", "reach": "arm", "min": "arm", "min0": "arm",
           "minj": "arm", "max": "arm", "max0": "arm", "jump": "arm", "block": "block",
           "unreach": "flow", "cut": "flow", "probe": "probe", "probe0": "probe",
           "search": "search"}
# the rungs a step names, easiest first (the bank measures a trace by them)
HINT_RUNGS = ("arm", "block", "flow", "probe", "search")

# ---------------------------------------------------------------- the words ----------
# Every sentence a hint shows. {subj} is the decided cells with their state ("Row 3,
# column 5 is dry" / 「3行5列は陸地です」), {clue} a number with its place ("the 2 at row 3,
# column 4" / 「3行4列の2」), {dir} a direction.
TEXT: dict[str, dict[str, str]] = {
    "sealed": {
        "en": "{subj}: the {clue} already sees {v} flooded {cellw}",
        "ja": "{subj}。{clue}はすでに水路を{v}マス見ています",
        "den": "Flooded, the cell after any of its runs would be counted too.",
        "dja": "どの向きでも、続きの次のマスが水路なら数に入ってしまいます。",
    },
    "sealed0": {
        "en": "{subj}: the {clue} sees no flooded cell",
        "ja": "{subj}。{clue}からは水路が1マスも見えません",
        "den": "Flooded, a cell next to it would be seen.",
        "dja": "隣のマスが水路なら見えてしまいます。",
    },
    "reach": {
        "en": "{subj}: the {clue} can see only {v} {cellw} and needs them all",
        "ja": "{subj}。{clue}から見えうるのは{v}マスだけで、すべて必要です",
        "den": "The highlighted cells and the edge end its view after {v} {cellw}.",
        "dja": "強調したマスと盤の端で、見えうるマスは{v}マスに限られます。",
    },
    "min": {
        "en": ("{subj}: the {clue} sees at most {other} in the other directions, so at least "
               "{need} {dir}"),
        "ja": ("{subj}。{clue}はほかの向きでは最大{other}マスしか見えないので、"
               "{dirja}に少なくとも{need}マス見えます"),
        "den": "The highlighted cells stop the other three directions after {other} in all.",
        "dja": "強調したマスが、ほかの三方向を合わせて{other}マスまでに抑えています。",
    },
    "min0": {
        "en": ("{subj}: the {clue} can see nothing in the other directions, so at least "
               "{need} {dir}"),
        "ja": ("{subj}。{clue}はほかの向きに水路が見えないので、{dirja}に少なくとも{need}マス"
               "見えます"),
        "den": ("The highlighted cells block the other three directions, so everything it "
                "sees lies {dir}."),
        "dja": "強調したマスがほかの三方向を遮るので、見える{v}マスはすべて{dirja}にあります。",
    },
    "minj": {
        "en": ("{subj}: the {clue} has room for at most {other} in the other directions, so "
               "at least {need} {dir}"),
        "ja": ("{subj}。{clue}はほかの向きに最大{other}マスしか入らないので、{dirja}に少なくとも"
               "{need}マス見えます"),
        "den": ("Elsewhere a longer run would pass a dry cell or join flooded cells beyond "
                "(highlighted) and see too many, so at least {need} of the {v} must lie {dir}."),
        "dja": ("ほかの向きでそれより長く見えると、陸地を越えるか先の水路（強調表示）とつながって"
                "見えすぎるので、{v}のうち少なくとも{need}マスは{dirja}にあります。"),
    },
    "max": {
        "en": ("{subj}: the {clue} already sees {other} in the other directions, so no more "
               "{dir}"),
        "ja": ("{subj}。{clue}はほかの向きですでに{other}マス見ているので、"
               "{dirja}にはこれ以上見えません"),
        "den": "The {other} seen elsewhere and the {run} {dir} make {v}, so that run ends here.",
        "dja": ("ほかの向きの{other}マスと{dirja}の{run}マスで{v}になるので、"
                "{dirja}の水路はここで終わります。"),
    },
    "max0": {
        "en": "{subj}: the {clue} already sees {other} in the other directions, so none {dir}",
        "ja": ("{subj}。{clue}はほかの向きですでに{other}マス見ているので、"
               "{dirja}には水路が見えません"),
        "den": "The {other} seen elsewhere already make {v}, so nothing may be seen {dir}.",
        "dja": "ほかの向きの{other}マスですでに{v}なので、{dirja}には見えてはいけません。",
    },
    "jump": {
        "en": ("{subj}: flooded, it would join the run beyond it and the {clue} would see "
               "{nxt} or more {dir}, where it has room for {room}"),
        "ja": ("{subj}。水路にすると先の水路とつながり、{clue}に{dirja}で{nxt}マス以上見えて"
               "しまいます（最大{room}マス）"),
        "den": ("At most {room} fit {dir}; flooded, this cell would join the run beyond it "
                "into {nxt} or more."),
        "dja": ("{dirja}は最大{room}マスですが、ここを水路にすると先の水路とつながり"
                "{nxt}マス以上になります。"),
    },
    "block": {
        "en": "{subj}: the other three cells of its 2×2 block are flooded",
        "ja": "{subj}。同じ2×2のほかの3マスがすべて水路です",
        "den": "Flooded, it would close the 2×2 at rows {r1}–{r2}, columns {c1}–{c2}.",
        "dja": "水路にすると{r1}〜{r2}行・{c1}〜{c2}列の2×2がすべて水路になります。",
    },
    "unreach": {
        "en": "{subj}: dry cells wall {itthem} off from the canal, which must be one group",
        "ja": "{subj}。陸地に囲まれて水路につながらず、水路はひとつながりでなければなりません",
        "den": "The highlighted dry cells and the edge close {itthem} in.",
        "dja": "強調した陸地と盤の端に囲まれています。",
    },
    "cut": {
        "en": "{subj}: it is the only link left between the flooded cells at {a} and {b}",
        "ja": "{subj}。{a}と{b}の水路をつなぐ道はここしか残っていません",
        "den": "Dry, it would leave no path at all between those two flooded cells.",
        "dja": "ここを陸地にすると、その二つの水路をつなぐ道がなくなります。",
    },
    "probe": {
        "en": "Try {wrong} at {cell}: it leads to a contradiction at {where}, so it is {right}",
        "ja": "{cell}を{wrongja}にしてみると{whereja}で矛盾が起きるので、{rightja}です",
        "den": ("If {cell} were {wrong}, {used} more {kw} would follow (highlighted), and "
                "then {desc}."),
        "dja": "{cell}が{wrongja}なら、さらに{used}マスが決まり（強調表示）、{descja}。",
    },
    "probe0": {
        "en": "Try {wrong} at {cell}: it leads to a contradiction at {where}, so it is {right}",
        "ja": "{cell}を{wrongja}にしてみると{whereja}で矛盾が起きるので、{rightja}です",
        "den": "If {cell} were {wrong}, then at once {desc}.",
        "dja": "{cell}が{wrongja}なら、すぐに{descja}。",
    },
    "search": {
        "en": ("No short chain of deductions decides a cell here; the search shows that "
               "{subjl}"),
        "ja": "ここでは短い推論の連鎖ではどのマスも決まりません。探索によると{subj}",
        "den": ("No cell tried either way reaches a contradiction by these deductions; this "
                "step comes from the complete search, which finds exactly one answer."),
        "dja": ("どのマスをどちらに仮定しても、この推論だけでは矛盾に届きません。この一手は、"
                "答えがただ一つだと確かめた完全な探索によるものです。"),
    },
    # what a contradiction looks like: {where} in the sentence, {desc} in the detail
    "c.over": {"where": "the {clue}", "whereja": "{clue}",
               "desc": "the {clue} would see at least {n} flooded cells",
               "descja": "{clue}から水路が{n}マス以上見えてしまいます"},
    "c.short": {"where": "the {clue}", "whereja": "{clue}",
                "desc": "the {clue} could see at most {n} flooded {nw}",
                "descja": "{clue}から見える水路が最大{n}マスになってしまいます"},
    "c.2x2": {"where": "the 2×2 block at rows {r1}–{r2}, columns {c1}–{c2}",
              "whereja": "{r1}〜{r2}行・{c1}〜{c2}列の2×2",
              "desc": "the 2×2 block at rows {r1}–{r2}, columns {c1}–{c2} would be entirely "
                      "flooded",
              "descja": "{r1}〜{r2}行・{c1}〜{c2}列の2×2がすべて水路になってしまいます"},
    "c.connect": {"where": "{a} and {b}", "whereja": "{a}と{b}",
                  "desc": "the flooded cells at {a} and {b} could no longer be joined",
                  "descja": "{a}と{b}の水路をつなげられなくなります"},
}
DIR_EN = ("above it", "to its right", "below it", "to its left")
DIR_JA = ("上", "右", "下", "左")
STATE_EN = {FLOODED: "flooded", DRY: "dry"}
STATE_JA = {FLOODED: "水路", DRY: "陸地"}


def _ranges(xs: list[int], sep: str, last: str, dash: str) -> str:
    """1-based numbers as ranges: [5, 6, 7] -> "5–7", [5, 7, 8] -> "5, 7 and 8"."""
    xs = sorted(xs)
    if len(xs) > 2 and xs[-1] - xs[0] == len(xs) - 1:
        return f"{xs[0]}{dash}{xs[-1]}"
    if len(xs) == 1:
        return str(xs[0])
    return sep.join(str(x) for x in xs[:-1]) + last + str(xs[-1])


def cells_en(cells: list[tuple[int, int]]) -> str:
    cells = sorted(cells)
    rows = sorted({r + 1 for r, _ in cells})
    cols = sorted({c + 1 for _, c in cells})
    if len(cells) == 1:
        return f"row {rows[0]}, column {cols[0]}"
    if len(rows) == 1:
        return f"row {rows[0]}, columns {_ranges(cols, ', ', ' and ', '–')}"
    if len(cols) == 1:
        return f"rows {_ranges(rows, ', ', ' and ', '–')} of column {cols[0]}"
    items = []
    for r in rows:
        cs = [c + 1 for rr, c in cells if rr + 1 == r]
        items.append(f"row {r}, column{'s' if len(cs) > 1 else ''} "
                     f"{_ranges(cs, ', ', ' and ', '–')}")
    return "; ".join(items[:-1]) + " and " + items[-1]


def cells_ja(cells: list[tuple[int, int]]) -> str:
    cells = sorted(cells)
    rows = sorted({r + 1 for r, _ in cells})
    cols = sorted({c + 1 for _, c in cells})
    if len(rows) == 1:
        return f"{rows[0]}行{_ranges(cols, '・', '・', '〜')}列"
    if len(cols) == 1:
        return f"{_ranges(rows, '・', '・', '〜')}行{cols[0]}列"
    return "、".join(
        f"{r}行{_ranges([c + 1 for rr, c in cells if rr + 1 == r], '・', '・', '〜')}列"
        for r in rows)


def subject(decided: list[tuple[tuple[int, int], int]]) -> tuple[str, str]:
    """("Row 3, columns 4–5 are flooded", "3行4〜5列は水路です") for the decided cells."""
    en, ja = [], []
    for s in (FLOODED, DRY):
        cs = [c for c, st in decided if st == s]
        if cs:
            en.append(f"{cells_en(cs)} {'is' if len(cs) == 1 else 'are'} {STATE_EN[s]}")
            ja.append(f"{cells_ja(cs)}は{STATE_JA[s]}")
    e = " and ".join(en)
    return e[0].upper() + e[1:], "、".join(ja) + "です"


def _plural(n: int, one: str = "cell", many: str = "cells") -> str:
    return one if n == 1 else many


# ---------------------------------------------------------------- the engine ---------
@dataclass
class Geo:
    """A board's fixed shape: its numbers with their rays, neighbours and 2x2 blocks."""

    h: int
    w: int
    n: int
    nums: list[tuple[int, int, tuple[tuple[int, ...], ...], tuple[int | None, ...]]]
    fixed: list[int]                    # clue cells (all dry)
    nbrs: list[tuple[int, ...]]
    blocks: list[tuple[int, int, int, int]]
    blocks_of: list[list[int]]
    seen_by: list[list[int]]            # cell -> numbers whose rays hold it
    grid: Grid | None = None            # the bitmask connectivity of this shape
    cert: dict[int, int] = field(default_factory=dict)   # its certificates (Grid.cuts)


def make_geo(board: Board) -> Geo:
    h, w = board.h, board.w
    n = h * w
    nums = []  # type: list[tuple[int, int, tuple[tuple[int, ...], ...], tuple[int | None, ...]]]
    fixed = []
    seen_by: list[list[int]] = [[] for _ in range(n)]
    for r, c in board.clue_cells():
        fixed.append(r * w + c)
        v = board.clues[r][c]  # type: int  # type: ignore[assignment]  # "?" is skipped just below
        if v == "?":
            continue
        rays, stops = [], []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            ray = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < h and 0 <= cc < w and board.clues[rr][cc] is None:
                ray.append(rr * w + cc)
                rr += dr
                cc += dc
            rays.append(tuple(ray))
            stops.append(rr * w + cc if 0 <= rr < h and 0 <= cc < w else None)
        k = len(nums)
        nums.append((r * w + c, v, tuple(rays), tuple(stops)))
        for ray in rays:
            for i in ray:
                seen_by[i].append(k)
    nbrs = []
    for i in range(n):
        r, c = divmod(i, w)
        nbrs.append(tuple(j for j, ok in ((i - w, r > 0), (i + 1, c < w - 1),
                                          (i + w, r < h - 1), (i - 1, c > 0)) if ok))
    blocks = []  # type: list[tuple[int, int, int, int]]
    blocks_of: list[list[int]] = [[] for _ in range(n)]
    for r in range(h - 1):
        for c in range(w - 1):
            i = r * w + c
            b = (i, i + 1, i + w, i + w + 1)
            for j in b:
                blocks_of[j].append(len(blocks))
            blocks.append(b)
    return Geo(h, w, n, nums, fixed, nbrs, blocks, blocks_of, seen_by, Grid(h, w))


@dataclass
class Ded:
    """One deduction: ``cells`` [(cell, state)], ``why`` cells, sentence ``params``."""

    kind: str
    cells: list[tuple[int, int]]
    why: list[int]
    params: dict[str, Any] = field(default_factory=dict)


class Contra(Exception):
    """The marks admit no answer; ``kind`` (c.over, c.short, c.2x2, c.connect), cells."""

    def __init__(self, kind: str, cells: list[int], **params: Any) -> None:
        super().__init__(kind)
        self.kind, self.cells, self.params = kind, cells, params


def _ray_info(ray: tuple[int, ...], v: int, st: list[int]) -> tuple[int, list[int], bool]:
    """(run, possible arm lengths, capped): the flooded run from the number, then every
    length the marks allow (up to v); capped when v, not a dry cell or the edge, ended it."""
    L = len(ray)
    run = 0
    while run < L and st[ray[run]] == FLOODED:
        run += 1
    dom = []  # type: list[int]
    a = run
    while True:
        if a > v:
            return run, dom, True
        if a == L:
            dom.append(a)
            return run, dom, False
        s = st[ray[a]]
        if s != FLOODED:
            dom.append(a)
        if s == DRY:
            return run, dom, False
        a += 1


def clue_deds(g: Geo, st: list[int], k: int) -> list[Ded]:
    """What number k decides, as deductions (sealed / reach for the whole number, else
    min / max / jump per direction). Raises Contra when the number cannot be met."""
    cell, v, rays, stops = g.nums[k]
    info = [_ray_info(ray, v, st) for ray in rays]
    lo = [i[0] for i in info]
    los = sum(lo)
    if los > v or any(not i[1] for i in info):
        raise Contra("c.over", [cell], k=k, n=los)
    hi = [i[1][-1] for i in info]
    his = sum(hi)
    if his < v:
        raise Contra("c.short", [cell], k=k, n=his)

    def seen_cells(skip: int = -1) -> list[int]:
        return [x for d, ray in enumerate(rays) if d != skip for x in ray[:lo[d]]]

    def blockers(skip: int = -1) -> list[int]:
        out = []
        for d, ray in enumerate(rays):
            if d == skip or info[d][2]:
                continue
            if hi[d] < len(ray):
                out.append(ray[hi[d]])
            elif stops[d] is not None:
                out.append(stops[d])  # type: ignore[arg-type]  # not None: tested above
        return out

    if los == v:
        ends = [(ray[lo[d]], DRY) for d, ray in enumerate(rays)
                if lo[d] < len(ray) and st[ray[lo[d]]] == 0]
        if ends:
            return [Ded("sealed0" if v == 0 else "sealed", ends, [cell] + seen_cells(),
                        {"k": k})]
        return []
    if his == v and not any(i[2] for i in info):
        fl = [(x, FLOODED) for d, ray in enumerate(rays) for x in ray[:hi[d]] if st[x] == 0]
        if fl:
            return [Ded("reach", fl, [cell] + blockers(), {"k": k})]
    out = []
    for d, ray in enumerate(rays):
        run, dom, _ = info[d]
        hi_o, lo_o = his - hi[d], los - lo[d]
        need, room = v - hi_o, v - lo_o
        if need > run:
            fl = [(x, FLOODED) for x in ray[run:need] if st[x] == 0]
            if fl:
                out.append(Ded("min0" if hi_o == 0 else "min", fl, [cell] + blockers(d),
                               {"k": k, "d": d, "other": hi_o, "need": need}))
                continue
        if run < len(ray) and st[ray[run]] == 0:
            if room == run:
                out.append(Ded("max0" if run == 0 else "max", [(ray[run], DRY)],
                               [cell] + seen_cells(d),
                               {"k": k, "d": d, "other": lo_o, "run": run}))
            elif room > run:
                nxt = next((a for a in dom if a > run), None)
                if nxt is not None and nxt > room:
                    out.append(Ded("jump", [(ray[run], DRY)],
                                   [cell] + list(ray[run + 1:nxt]) + seen_cells(d),
                                   {"k": k, "d": d, "nxt": nxt, "room": room, "lo_o": lo_o}))
    if out:
        return out
    # a direction whose longer runs would join flooded cells beyond and overshoot gives
    # less than its reach: bound each by the longest run that still fits
    fit = [max((a for a in info[j][1] if a <= v - (los - lo[j])), default=lo[j])
           for j in range(4)]
    for d, ray in enumerate(rays):
        run = lo[d]
        other = sum(fit) - fit[d]
        need = v - other
        if need > run and other < his - hi[d]:
            fl = [(x, FLOODED) for x in ray[run:need] if st[x] == 0]
            if fl:
                beyond = [x for j, r2 in enumerate(rays) if j != d and fit[j] < hi[j]
                          for x in r2[fit[j] + 1:] if st[x] == FLOODED][:6]
                out.append(Ded("minj", fl, [cell] + blockers(d) + beyond,
                               {"k": k, "d": d, "other": other, "need": need}))
    return out


def block_deds(g: Geo, st: list[int], bs: Any = None) -> list[Ded]:
    out = []
    for b in (range(len(g.blocks)) if bs is None else bs):
        cells = g.blocks[b]
        nf = sum(1 for x in cells if st[x] == FLOODED)
        if nf == 4:
            raise Contra("c.2x2", list(cells), b=b)
        if nf == 3:
            free = [x for x in cells if st[x] != FLOODED]
            if st[free[0]] == 0:
                out.append(Ded("block", [(free[0], DRY)],
                               [x for x in cells if st[x] == FLOODED], {"b": b}))
    return out


def _components(g: Geo, st: list[int]) -> tuple[list[int], list[list[int]]]:
    """Components of the cells that are not dry: (label per cell, cells per label)."""
    lab = [-1] * g.n
    comps: list[list[int]] = []
    nbrs = g.nbrs
    for s in range(g.n):
        if st[s] == DRY or lab[s] >= 0:
            continue
        c = len(comps)
        lab[s] = c
        comp = [s]
        stack = [s]
        while stack:
            x = stack.pop()
            for y in nbrs[x]:
                if lab[y] < 0 and st[y] != DRY:
                    lab[y] = c
                    comp.append(y)
                    stack.append(y)
        comps.append(comp)
    return lab, comps


def _cuts(g: Geo, st: list[int], comp: list[int], lab: list[int], c: int) -> list[int]:
    """Undecided cells of ``comp`` whose loss separates flooded cells (one DFS, Tarjan's
    low points, counting flooded cells below each node)."""
    flooded = [x for x in comp if st[x] == FLOODED]
    total = len(flooded)
    if total < 2:
        return []
    nbrs = g.nbrs
    disc = {}
    low = {}
    cnt = {}
    root = flooded[0]
    disc[root] = low[root] = 0
    cnt[root] = 1
    t = 1
    out = set()
    stack = [(root, -1, iter(nbrs[root]))]
    while stack:
        v, parent, it = stack[-1]
        for u in it:
            if lab[u] != c:
                continue
            if u not in disc:
                disc[u] = low[u] = t
                t += 1
                cnt[u] = 1 if st[u] == FLOODED else 0
                stack.append((u, v, iter(nbrs[u])))
                break
            if u != parent and disc[u] < low[v]:
                low[v] = disc[u]
        else:
            stack.pop()
            if parent >= 0:
                low[parent] = min(low[parent], low[v])
                cv = cnt[v]
                cnt[parent] += cv
                if cv and low[v] >= disc[parent] and st[parent] == 0 \
                        and total - cv > 0:
                    out.add(parent)
    return sorted(out)


def flow_deds(g: Geo, st: list[int], first_only: bool = False) -> list[Ded]:
    """Connectivity: raises Contra when flooded cells lie in two walled-off parts; else
    the unreachable pockets (dry) and the cut cells (flooded). On bitmasks (the pockets
    in order of their lowest cell, the cut cells lowest first, as the search below
    lists them); a contradiction is named by the search."""
    grid = g.grid
    if grid is None:
        return _flow_deds(g, st, first_only)
    live = int("".join(["0" if v == DRY else "1" for v in reversed(st)]), 2)
    wet = int("".join(["1" if v == FLOODED else "0" for v in reversed(st)]), 2)
    if not wet:
        return []
    main = grid.flood(wet & -wet, live)
    if wet & ~main:
        return _flow_deds(g, st, first_only)
    out = []
    rest = live & ~main
    if rest:
        dry = int("".join(["1" if v == DRY else "0" for v in reversed(st)]), 2)
        while rest:
            comp = grid.flood(rest & -rest, rest)
            rest &= ~comp
            wall = grid.grow(comp, dry)
            out.append(Ded("unreach", [(x, DRY) for x in bits(comp)], bits(wall), {}))
            if first_only:
                return out
    got = grid.cuts(main, wet, g.cert, most=g.n)
    assert got is not None
    for x in got[1]:
        out.append(Ded("cut", [(x, FLOODED)], [], {}))   # why filled in when shown
        if first_only:
            break
    return out


def _flow_deds(g: Geo, st: list[int], first_only: bool = False) -> list[Ded]:
    """``flow_deds`` by a search over the cells."""
    lab, comps = _components(g, st)
    wet = [c for c, comp in enumerate(comps) if any(st[x] == FLOODED for x in comp)]
    if not wet:
        return []
    if len(wet) > 1:
        a = next(x for x in comps[wet[0]] if st[x] == FLOODED)
        b = next(x for x in comps[wet[1]] if st[x] == FLOODED)
        raise Contra("c.connect", [a, b], a=a, b=b)
    out = []
    for c, comp in enumerate(comps):
        if c == wet[0]:
            continue
        free = sorted(x for x in comp if st[x] == 0)
        if not free:
            continue
        wall = sorted({y for x in comp for y in g.nbrs[x] if st[y] == DRY})
        out.append(Ded("unreach", [(x, DRY) for x in free], wall, {}))
        if first_only:
            return out
    for x in _cuts(g, st, comps[wet[0]], lab, wet[0]):
        out.append(Ded("cut", [(x, FLOODED)], [], {}))   # why filled in when shown
        if first_only:
            break
    return out


def _cut_why(g: Geo, st: list[int], x: int) -> tuple[int, int]:
    """The nearest flooded cell on each side of cut cell x."""
    st2 = list(st)
    st2[x] = DRY
    lab, _ = _components(g, st2)
    dist = {x: 0}
    order = [x]
    found: dict[int, int] = {}
    for y in order:
        for z in g.nbrs[y]:
            if z not in dist and st[z] != DRY:
                dist[z] = dist[y] + 1
                order.append(z)
                if st[z] == FLOODED and lab[z] not in found:
                    found[lab[z]] = z
    a, b = sorted(found.values())[:2]
    return a, b


def apply(st: list[int], ded: Ded) -> list[tuple[int, int]]:
    """Set the still undecided cells of ``ded``; returns those it set."""
    done = []
    for x, s in ded.cells:
        if st[x] == 0:
            st[x] = s
            done.append((x, s))
    return done


def propagate(g: Geo, st: list[int], start: list[int], limit: int) -> tuple[Contra | None, int,
                                                                             list[int]]:
    """All deductions to a fixpoint from ``st`` (changed in place), starting from the
    numbers and blocks around the cells ``start``. Returns (the contradiction or None, the
    number of deductions used, the cells they decided). Stops after ``limit`` deductions
    (then no contradiction)."""
    used = 0
    decided: list[int] = []
    dirty_k = sorted({k for x in start for k in g.seen_by[x]})
    dirty_b = sorted({b for x in start for b in g.blocks_of[x]})
    try:
        while True:
            while dirty_k or dirty_b:
                changed: list[int] = []
                for k in dirty_k:
                    for ded in clue_deds(g, st, k):
                        got = apply(st, ded)
                        if got:
                            used += 1
                            changed.extend(x for x, _ in got)
                for ded in block_deds(g, st, dirty_b):
                    got = apply(st, ded)
                    if got:
                        used += 1
                        changed.extend(x for x, _ in got)
                if used > limit:
                    return None, used, decided
                decided.extend(changed)
                dirty_k = sorted({k for x in changed for k in g.seen_by[x]})
                dirty_b = sorted({b for x in changed for b in g.blocks_of[x]})
            changed = []
            for ded in flow_deds(g, st):
                got = apply(st, ded)
                if got:
                    used += 1
                    changed.extend(x for x, _ in got)
            if not changed or used > limit:
                return None, used, decided
            decided.extend(changed)
            dirty_k = sorted({k for x in changed for k in g.seen_by[x]})
            dirty_b = sorted({b for x in changed for b in g.blocks_of[x]})
    except Contra as e:
        return e, used, decided


# ---------------------------------------------------------------- the trace ----------
PRIORITY = ("sealed0", "sealed", "reach", "block", "min", "min0", "max", "max0", "jump", "minj")


def next_deduction(g: Geo, st: list[int]) -> Ded | None:
    """The simplest deduction that decides something, or None."""
    found: dict[str, Ded] = {}
    for k in range(len(g.nums)):
        for ded in clue_deds(g, st, k):
            found.setdefault(ded.kind, ded)
        for kind in ("sealed0", "sealed"):
            if kind in found:
                return found[kind]
    if "reach" in found:
        return found["reach"]
    blk = block_deds(g, st)
    if blk:
        return blk[0]
    for kind in PRIORITY:
        if kind in found:
            return found[kind]
    fl = flow_deds(g, st, first_only=True)
    return fl[0] if fl else None


def find_probe(g: Geo, st: list[int], answer: int, cap: int = 400
               ) -> tuple[int, Contra, int, list[int]] | None:
    """The undecided cell whose wrong value reaches a contradiction in the fewest
    deductions: (cell, contradiction, deductions, cells decided on the way)."""
    free = [x for x in range(g.n) if st[x] == 0]

    def near(x: int) -> int:
        return -(sum(1 for y in g.nbrs[x] if st[y]) + len(g.seen_by[x]))

    free.sort(key=lambda x: (near(x), x))
    best = None
    limit = cap
    for x in free:
        wrong = DRY if answer >> x & 1 else FLOODED
        st2 = list(st)
        st2[x] = wrong
        contra, used, decided = propagate(g, st2, [x], limit)
        if contra is None:
            continue
        if best is None or used < best[2]:
            best = (x, contra, used, decided)
            limit = used - 1
            if used <= 1:
                break
    return best


def _rc(g: Geo, x: int) -> tuple[int, int]:
    return divmod(x, g.w)


def _clue_words(g: Geo, k: int) -> tuple[str, str]:
    cell, v, _, _ = g.nums[k]
    r, c = divmod(cell, g.w)
    return f"{v} at row {r + 1}, column {c + 1}", f"{r + 1}行{c + 1}列の{v}"


def _contra_words(g: Geo, e: Contra) -> dict[str, str]:
    t = TEXT[e.kind]
    p: dict[str, Any] = {}
    if e.kind in ("c.over", "c.short"):
        en, ja = _clue_words(g, e.params["k"])
        n = e.params["n"]
        vals = {"clue": en, "n": n, "nw": _plural(n)}
        valsj = {"clue": ja, "n": n}
        return {"where": t["where"].format(**vals), "whereja": t["whereja"].format(**valsj),
                "desc": t["desc"].format(**vals), "descja": t["descja"].format(**valsj)}
    if e.kind == "c.2x2":
        r, c = _rc(g, g.blocks[e.params["b"]][0])
        p = {"r1": r + 1, "r2": r + 2, "c1": c + 1, "c2": c + 2}
        return {k: t[k].format(**p) for k in ("where", "whereja", "desc", "descja")}
    a, b = e.params["a"], e.params["b"]
    pe = {"a": cells_en([_rc(g, a)]), "b": cells_en([_rc(g, b)])}
    pj = {"a": cells_ja([_rc(g, a)]), "b": cells_ja([_rc(g, b)])}
    return {"where": t["where"].format(**pe), "whereja": t["whereja"].format(**pj),
            "desc": t["desc"].format(**pe), "descja": t["descja"].format(**pj)}


def words(g: Geo, ded: Ded) -> dict[str, str]:
    """The step's sentence and detail in both languages."""
    t = TEXT[ded.kind]
    dec = [(_rc(g, x), s) for x, s in ded.cells]
    subj_en, subj_ja = subject(dec)
    p: dict[str, Any] = dict(ded.params)
    p.update(subj=subj_en, cellw=_plural(len(dec)))
    pj: dict[str, Any] = {}
    if "k" in p:
        en, ja = _clue_words(g, p["k"])
        p["clue"] = en
        pj["clue"] = ja
        p["v"] = g.nums[p["k"]][1]
        if ded.kind in ("sealed", "sealed0", "reach"):
            p["cellw"] = _plural(p["v"])
    if "d" in p:
        p["dir"] = DIR_EN[p["d"]]
        p["dirja"] = DIR_JA[p["d"]]
    if "other" in p:
        p["otherw"] = _plural(p["other"])
    if ded.kind == "block":
        r, c = _rc(g, g.blocks[p["b"]][0])
        p.update(r1=r + 1, r2=r + 2, c1=c + 1, c2=c + 2)
    if ded.kind == "unreach":
        p["itthem"] = "it" if len(dec) == 1 else "them"
    if ded.kind == "cut":
        a, b = ded.why
        p["a"], p["b"] = cells_en([_rc(g, a)]), cells_en([_rc(g, b)])
        pj["a"], pj["b"] = cells_ja([_rc(g, a)]), cells_ja([_rc(g, b)])
    if ded.kind in ("probe", "probe0"):
        p.update(_contra_words(g, p.pop("contra")))
        x, s = ded.cells[0]
        other = DRY if s == FLOODED else FLOODED
        p.update(cell=cells_en([_rc(g, x)]), wrong=STATE_EN[other], right=STATE_EN[s],
                 wrongja=STATE_JA[other], rightja=STATE_JA[s], kw=_plural(p["used"]))
        pj["cell"] = cells_ja([_rc(g, x)])
    if ded.kind == "search":
        p["subjl"] = subj_en[0].lower() + subj_en[1:]
    pjall = {**p, **pj, "subj": subj_ja}
    en = t["en"].format(**p) + "."
    ja = t["ja"].format(**pjall) + "。"
    return {"en": en, "ja": ja, "den": t["den"].format(**p), "dja": t["dja"].format(**pjall)}


def _cells_json(g: Geo, xs: list[int]) -> list[list[int]]:
    return [list(_rc(g, x)) for x in sorted(set(xs))]


def trace(board: Board, answer: Answer, probe_cap: int = 400) -> list[dict[str, Any]]:
    """Hint steps from the fresh board to the answer, one deduction each."""
    g = make_geo(board)
    st = [0] * g.n
    for x in g.fixed:
        st[x] = DRY
    steps = []
    while True:
        free = [x for x in range(g.n) if st[x] == 0]
        if not free:
            break
        ded = next_deduction(g, st)
        extra: list[int] = []
        if ded is None:
            got = find_probe(g, st, answer.mask, probe_cap)
            if got is not None:
                x, contra, _, decided = got
                right = FLOODED if answer.mask >> x & 1 else DRY
                extra = sorted(set(decided) - {x})
                ded = Ded("probe" if extra else "probe0", [(x, right)], contra.cells,
                          {"contra": contra, "used": len(extra)})
            else:
                x = min(free, key=lambda y: (-(len(g.seen_by[y])), y))
                right = FLOODED if answer.mask >> x & 1 else DRY
                why = [g.nums[k][0] for k in g.seen_by[x]] or [x]
                ded = Ded("search", [(x, right)], why, {})
        elif ded.kind == "cut":
            ded.why = list(_cut_why(g, st, ded.cells[0][0]))
        ded.cells = [(x, s) for x, s in sorted(ded.cells) if st[x] == 0][:MAX_CELLS]
        for x, s in ded.cells:
            if s != (FLOODED if answer.mask >> x & 1 else DRY):
                raise AssertionError(f"hint engine decided {_rc(g, x)} against the answer")
        wd = words(g, ded)
        step: dict[str, Any] = {
            "rung": RUNG_OF[ded.kind],
            "cells": [list(_rc(g, x)) for x, _ in ded.cells],
            "states": [STATE_NAME[s] for _, s in ded.cells],
            "why": _cells_json(g, ded.why),
            "en": wd["en"], "ja": wd["ja"],
            "detail": {"en": wd["den"], "ja": wd["dja"]},
        }
        if extra:
            step["detail_cells"] = _cells_json(g, extra)
        steps.append(step)
        apply(st, ded)
    return steps
