"""Engine 1: the named rungs of deduction, then complete search.

Every rung decides edges (line or no line) and only what the rules force:

* ``count``   a clue whose sides are decided: as many lines as its number are drawn,
              so the rest are crosses (a 0 crosses all four); as many sides are left as
              lines are missing, so they are all lines;
* ``vertex``  every grid corner has 0 or 2 lines: two lines cross the rest, a line with
              one way on takes it, a corner with one open edge and no line crosses it;
* ``corner``  a clue and its four corners together: every way of drawing the clue's
              sides that leaves each corner able to hold 0 or 2 lines is listed, and an
              edge (a side, or an edge leaving a corner) that is the same in every way is
              decided: a 1 in the board's corner, a 3 in it, a line entering a 3 or a 1
              at a corner, two 3s touching at a corner;
* ``loop``    one loop: a line whose two ends sit at the two ends of one edge must not
              close there unless that finishes the whole board (every line in it, every
              clue met), and every row and every column is crossed an even number of
              times (a row of vertical edges with one undecided edge takes its parity);
* ``probe``   a trial: an edge drawn one way leads the rungs above to a contradiction,
              so it goes the other way;
* then ``search``: a depth-first search on an edge at the end of a line, the rungs
  below ``probe`` propagating at every node.

The state is one byte per edge (0 undecided, 1 line, 2 cross) with running counts per
cell, grid corner, row and column and, for each line end, the other end of its line (its
mate) and the line's length, all undone from a trail, so closing a loop is seen the
moment its last edge is drawn.
"""

from __future__ import annotations

from operator import itemgetter

from solvers.common import SolveResult, node

from .board import Answer, Board, layout

RUNGS = ("count", "vertex", "corner", "loop", "probe")
LEVEL = {r: i for i, r in enumerate((*RUNGS, "search"))}
LINE, CROSS = 1, 2


class Contradiction(Exception):
    pass


class Geometry:
    """What propagation needs of an H×W board beyond the layout: each edge's row or
    column line for the parity rule, the cells around each edge's ends (corner rung)
    and, per cell and corner, the edges leaving that corner outside the cell."""

    def __init__(self, h: int, w: int) -> None:
        lay = layout(h, w)
        self.lay = lay
        W1 = w + 1
        # parity lines: rows of vertical edges 0..h-1, then columns of horizontal h..h+w-1
        self.line_of = [e // W1 if e < lay.nv else h + (e - lay.nv) % w for e in range(lay.ne)]
        self.lines = [[r * W1 + x for x in range(W1)] for r in range(h)] + \
                     [[lay.nv + y * w + c for y in range(h + 1)] for c in range(w)]
        # per cell: its four corners as (vertex, the two sides at it, the outer edges)
        self.corners = []
        for i, (top, bot, left, right) in enumerate(lay.cell_edges):
            r, c = divmod(i, w)
            spec = []
            for v, sides in ((r * W1 + c, (top, left)), (r * W1 + c + 1, (top, right)),
                             ((r + 1) * W1 + c, (bot, left)), ((r + 1) * W1 + c + 1, (bot, right))):
                outer = tuple(e for e in lay.vertex_edges[v] if e not in sides)
                spec.append((v, sides, outer))
            self.corners.append(tuple(spec))
        # per cell: its sides, then each corner's outer edges, as one tuple, and the
        # shape (how many outer edges each corner has), for the corner rung's memo
        self.local = [tuple(lay.cell_edges[i]) + tuple(e for _, _, o in spec for e in o)
                      for i, spec in enumerate(self.corners)]
        self.shape = [tuple(len(o) for _, _, o in spec) for spec in self.corners]
        self.read = [itemgetter(*loc) for loc in self.local]   # the local states at once
        # the cells whose corner rung reads an edge: cells around both its ends
        near = []
        for a, b in lay.edge_ends:
            cells = set()
            for v in (a, b):
                y, x = divmod(v, W1)
                for rr in (y - 1, y):
                    for cc in (x - 1, x):
                        if 0 <= rr < h and 0 <= cc < w:
                            cells.add(rr * w + cc)
            near.append(tuple(sorted(cells)))
        self.near = near
        # ends adjacent: vertex pair -> edge
        self.between = {}
        for e, (a, b) in enumerate(lay.edge_ends):
            self.between[(a, b)] = e
            self.between[(b, a)] = e


_GEO: dict[tuple[int, int], Geometry] = {}


def geometry(h: int, w: int) -> Geometry:
    g = _GEO.get((h, w))
    if g is None:
        g = _GEO[(h, w)] = Geometry(h, w)
    return g


# the ways of drawing k of a cell's four sides (bit j: side j a line)
WAYS = {k: tuple(m for m in range(16) if m.bit_count() == k) for k in range(5)}
# per corner of a cell, the bit of each of its two sides (top 0, bottom 1, left 2, right 3)
CORNER_BITS = ((0, 2), (0, 3), (1, 2), (1, 3))


class State:
    """Edges and the running counts, with a trail to undo them."""

    def __init__(self, board: Board) -> None:
        g = geometry(board.h, board.w)
        lay = g.lay
        self.g, self.lay = g, lay
        self.s = bytearray(lay.ne)
        self.clue = [v if isinstance(v, int) else -1 for v in board.flat()]
        clue = self.clue
        # per edge, the clue cells whose corner rung reads it
        self.near = [tuple(i for i in cells if clue[i] >= 0) for cells in g.near]
        self.c_on = [0] * (lay.h * lay.w)
        self.c_unk = [4] * (lay.h * lay.w)
        self.v_on = [0] * lay.nvert
        self.v_unk = [len(es) for es in lay.vertex_edges]
        self.l_on = [0] * len(g.lines)
        self.l_unk = [len(x) for x in g.lines]
        self.mate = list(range(lay.nvert))   # for a line end, the other end
        self.plen = [0] * lay.nvert          # for a line end, its line's edge count
        self.on_total = 0
        self.unknown = lay.ne
        self.closed = False                  # a loop is closed: everything else crossed
        self.trail: list[tuple] = []
        self.queue: list[int] = []
        # line ends joined since the loop rule last looked (one end of each new pair), and
        # the end of a pair it let be because closing there would finish the board; both
        # are hints, checked again when read, so undo() may simply forget them
        self.fresh: list[int] = []
        self.exempt = -1

    def mark(self) -> int:
        return len(self.trail)

    def undo(self, to: int) -> None:
        tr = self.trail
        s, lay, g = self.s, self.lay, self.g
        edge_cells, edge_ends, line_of = lay.edge_cells, lay.edge_ends, g.line_of
        c_unk, c_on, v_unk, v_on = self.c_unk, self.c_on, self.v_unk, self.v_on
        l_unk, l_on, mate, plen = self.l_unk, self.l_on, self.mate, self.plen
        undone = lines = 0
        while len(tr) > to:
            rec = tr.pop()
            if rec[0] == 0:
                _, e, val = rec
                s[e] = 0
                undone += 1
                a, b = edge_ends[e]
                v_unk[a] += 1
                v_unk[b] += 1
                ln = line_of[e]
                l_unk[ln] += 1
                if val == LINE:
                    for i in edge_cells[e]:
                        c_unk[i] += 1
                        c_on[i] -= 1
                    v_on[a] -= 1
                    v_on[b] -= 1
                    l_on[ln] -= 1
                    lines += 1
                else:
                    for i in edge_cells[e]:
                        c_unk[i] += 1
            elif rec[0] == 1:
                _, v, m, p = rec
                mate[v] = m
                plen[v] = p
            else:
                self.closed = rec[1]
        self.unknown += undone
        self.on_total -= lines
        self.queue.clear()
        self.fresh.clear()

    def set(self, e: int, val: int) -> None:
        """Decide edge ``e``; a Contradiction if it is decided otherwise or a count breaks."""
        cur = self.s[e]
        if cur:
            if cur != val:
                raise Contradiction
            return
        lay = self.lay
        self.s[e] = val
        self.unknown -= 1
        self.trail.append((0, e, val))
        for i in lay.edge_cells[e]:
            self.c_unk[i] -= 1
        a, b = lay.edge_ends[e]
        self.v_unk[a] -= 1
        self.v_unk[b] -= 1
        ln = self.g.line_of[e]
        self.l_unk[ln] -= 1
        if val == LINE:
            for i in lay.edge_cells[e]:
                self.c_on[i] += 1
            v_on = self.v_on
            if v_on[a] >= 2 or v_on[b] >= 2 or self.closed:
                # the counts above are on the trail: undo() restores them
                v_on[a] += 1
                v_on[b] += 1
                self.l_on[ln] += 1
                self.on_total += 1
                raise Contradiction
            v_on[a] += 1
            v_on[b] += 1
            self.l_on[ln] += 1
            self.on_total += 1
            mate, plen, tr = self.mate, self.plen, self.trail
            ea = mate[a] if v_on[a] == 2 else a
            eb = mate[b] if v_on[b] == 2 else b
            if ea == b and eb == a and v_on[a] == 2:
                # the line's two ends met: a loop is closed
                if self.on_total != plen[a] + 1:
                    raise Contradiction
                tr.append((2, self.closed))
                self.closed = True
            else:
                n = (plen[a] if v_on[a] == 2 else 0) + (plen[b] if v_on[b] == 2 else 0) + 1
                tr.append((1, ea, mate[ea], plen[ea]))
                tr.append((1, eb, mate[eb], plen[eb]))
                mate[ea], mate[eb] = eb, ea
                plen[ea] = plen[eb] = n
                self.fresh.append(ea)
        self.queue.append(e)

    def solved(self) -> bool:
        return self.unknown == 0


def _count(st: State, i: int) -> None:
    k = st.clue[i]
    if k < 0:
        return
    on, unk = st.c_on[i], st.c_unk[i]
    if on > k or on + unk < k:
        raise Contradiction
    if unk:
        if on == k:
            val = CROSS
        elif on + unk == k:
            val = LINE
        else:
            return
        s = st.s
        for e in st.lay.cell_edges[i]:
            if not s[e]:
                st.set(e, val)


def _vertex(st: State, v: int) -> None:
    on, unk = st.v_on[v], st.v_unk[v]
    if on > 2 or (on == 1 and unk == 0):
        raise Contradiction
    if not unk:
        return
    if on == 2 or (on == 0 and unk == 1):
        val = CROSS
    elif on == 1 and unk == 1:
        val = LINE
    else:
        return
    s = st.s
    for e in st.lay.vertex_edges[v]:
        if not s[e]:
            st.set(e, val)


# the corner rung's verdicts, by (clue, corner shape, states of the cell's local edges):
# the (local index, state) pairs it decides, or None for a contradiction
_CORNER_MEMO: dict[tuple, tuple[tuple[int, int], ...] | None] = {}


def _corner(st: State, i: int) -> None:
    """The clue at cell i and its four corners (memoised on the local states)."""
    k = st.clue[i]
    if k < 0:
        return
    s = st.s
    local = st.g.local[i]
    key = (k, st.g.shape[i], st.g.read[i](s))
    verdict = _CORNER_MEMO.get(key, False)
    if verdict is False:
        verdict = _CORNER_MEMO[key] = _corner_table(*key)
    if verdict is None:
        raise Contradiction
    for j, val in verdict:  # type: ignore[union-attr]  # not True: get's False is replaced above
        e = local[j]
        if not s[e]:
            st.set(e, val)


# per corner of a cell, the bit pair of each way m (bits CORNER_BITS[j]) -> its sides
# at that corner drawn (0, 1 or 2): _WAY_DEG[k] lists (m, (d0, d1, d2, d3)) per way
_WAY_DEG = {k: tuple((m, tuple(((m >> a) & 1) + ((m >> b) & 1) for a, b in CORNER_BITS))
                     for m in ways) for k, ways in WAYS.items()}


def _outer_table() -> dict[tuple[int, int, int], int]:
    """(lines, undecided edges among a corner's outer edges, the cell's sides drawn at
    it) -> 0 when the corner cannot hold 0 or 2 lines, else 4 | the values its
    undecided outer edges can take together (1 all lines, 2 all crosses, 3 either)."""
    out = {}
    for on_o in range(3):
        for unk_o in range(3 - on_o):
            for d in range(3):
                res = 0
                for t in (0, 2):
                    if on_o + d <= t <= on_o + d + unk_o:
                        res |= 4
                        if unk_o:
                            need = t - d - on_o
                            res |= 1 if need == unk_o else 2 if need == 0 else 3
                out[(on_o, unk_o, d)] = res
    return out


_OUTER = _outer_table()


def _corner_table(k: int, shape: tuple[int, ...], states: tuple[int, ...]
                  ) -> tuple[tuple[int, int], ...] | None:
    """The corner rung's verdict from the local states alone (the clue ``k``, the
    number of outer edges at each corner ``shape``, the states of the four sides then
    of each corner's outer edges): as ``_corner_list`` decides it, in the same order,
    with the ways' corner degrees and the corners' outcomes read from tables (a solve
    process starts with an empty memo and meets thousands of local states)."""
    known_on = known_off = 0
    for j in range(4):
        x = states[j]
        if x == LINE:
            known_on |= 1 << j
        elif x == CROSS:
            known_off |= 1 << j
    corners = []
    pos = 4
    for n in shape:
        seg = states[pos:pos + n]
        corners.append((pos, n, seg.count(LINE), seg.count(0)))
        pos += n
    side_on = side_off = 0
    marks = [0, 0, 0, 0]
    any_way = False
    outer = _OUTER
    for m, degs in _WAY_DEG[k]:
        if m & known_off or (m & known_on) != known_on:
            continue
        got = [outer[(c[2], c[3], d)] for c, d in zip(corners, degs, strict=True)]
        if not all(got):
            continue
        any_way = True
        side_on |= m
        side_off |= ~m & 15
        for j in range(4):
            marks[j] |= got[j]
    if not any_way:
        return None
    out: list[tuple[int, int]] = []
    for j in range(4):
        if states[j]:
            continue
        a, b = (side_on >> j) & 1, (side_off >> j) & 1
        if a and not b:
            out.append((j, LINE))
        elif b and not a:
            out.append((j, CROSS))
    for j, (pos, n, _on, unk) in enumerate(corners):
        if not unk:
            continue
        mk = marks[j] & 3
        if mk == 3:
            continue
        val = LINE if mk == 1 else CROSS
        out.extend((x, val) for x in range(pos, pos + n) if not states[x])
    return tuple(out)


def _corner_verdict(st: State, i: int, local: tuple[int, ...]) -> tuple | None:
    """What listing the ways decides on cell i now, as (local index, state) pairs; None
    when no way is left. Local only: it reads the states of ``local`` and nothing else."""
    try:
        decided = _corner_list(st, i)
    except Contradiction:
        return None
    return tuple((local.index(e), val) for e, val in decided)


def _corner_list(st: State, i: int) -> list[tuple[int, int]]:
    """The clue at cell i and its four corners, by listing the ways."""
    k = st.clue[i]
    s = st.s
    sides = st.lay.cell_edges[i]
    spec = st.g.corners[i]
    known_on = known_off = 0
    for j in range(4):
        x = s[sides[j]]
        if x == LINE:
            known_on |= 1 << j
        elif x == CROSS:
            known_off |= 1 << j
    side_seen_on = side_seen_off = 0
    # per corner: outer edge -> set of values seen
    outer_seen: dict[int, int] = {}
    any_way = False
    for m in WAYS[k]:
        if m & known_off or (m & known_on) != known_on:
            continue
        ok = True
        outs = []
        for j in range(4):
            _v, _sides, outer = spec[j]
            b1, b2 = CORNER_BITS[j]
            d = ((m >> b1) & 1) + ((m >> b2) & 1)
            # outer edges must bring the corner to 0 or 2
            on_o = unk_o = 0
            for e in outer:
                x = s[e]
                if x == LINE:
                    on_o += 1
                elif not x:
                    unk_o += 1
            feas = [t for t in (0, 2) if on_o + d <= t <= on_o + d + unk_o]
            if not feas:
                ok = False
                break
            outs.append((outer, on_o, d, unk_o, feas))
        if not ok:
            continue
        any_way = True
        side_seen_on |= m
        side_seen_off |= ~m & 15
        for outer, on_o, d, unk_o, feas in outs:
            if not unk_o:
                continue
            for t in feas:
                need = t - d - on_o          # lines among the undecided outer edges
                for e in outer:
                    if s[e]:
                        continue
                    if need == unk_o:
                        outer_seen[e] = outer_seen.get(e, 0) | 1
                    elif need == 0:
                        outer_seen[e] = outer_seen.get(e, 0) | 2
                    else:
                        outer_seen[e] = 3
    if not any_way:
        raise Contradiction
    out: list[tuple[int, int]] = []
    for j in range(4):
        e = sides[j]
        if s[e]:
            continue
        a, b = (side_seen_on >> j) & 1, (side_seen_off >> j) & 1
        if a and not b:
            out.append((e, LINE))
        elif b and not a:
            out.append((e, CROSS))
    for e, seen in outer_seen.items():
        if not s[e]:
            if seen == 1:
                out.append((e, LINE))
            elif seen == 2:
                out.append((e, CROSS))
    return out


def _parity(st: State, ln: int) -> None:
    unk = st.l_unk[ln]
    if unk > 1:
        return
    on = st.l_on[ln]
    if unk == 0:
        if on & 1:
            raise Contradiction
        return
    s = st.s
    for e in st.g.lines[ln]:
        if not s[e]:
            st.set(e, LINE if on & 1 else CROSS)
            return


def _would_finish(st: State, e: int) -> bool:
    """Whether drawing e closes the one loop with every clue met (the rest crossed)."""
    lay = st.lay
    cells = lay.edge_cells[e]
    c_on, clue = st.c_on, st.clue
    return all(k < 0 or c_on[i] + (1 if i in cells else 0) == k for i, k in enumerate(clue))


def _premature(st: State, every: bool = False) -> None:
    """No premature loop: line ends joined by an undecided edge. Only the pairs of ends
    made since the last look (and one let be before) can be new: a pair changes only
    when a line is drawn. ``every``: look at every line end (a raised level)."""
    if st.closed:
        st.fresh.clear()
        return
    v_on, mate, plen, s, between = st.v_on, st.mate, st.plen, st.s, st.g.between
    if every:
        ends = [a for a in range(len(v_on)) if v_on[a] == 1]
    else:
        ends = st.fresh[:]
        if st.exempt >= 0:
            ends.append(st.exempt)
    st.fresh.clear()
    st.exempt = -1
    for a in ends:
        if v_on[a] != 1:
            continue
        b = mate[a]
        e = between.get((a, b))
        if e is None or s[e]:
            continue
        if st.on_total == plen[a] and _would_finish(st, e):
            st.exempt = a
            continue
        st.set(e, CROSS)


def propagate(st: State, top: int, start: bool = False) -> None:
    """Run the rungs up to ``top`` (a LEVEL index, at most ``loop``) to their fixpoint.
    ``start``: every rule is looked at once first (a new board, or a raised level)."""
    lay, g, near = st.lay, st.g, st.near
    q = st.queue
    ncell = lay.h * lay.w
    dirty_corner: set[int] = set(range(ncell)) if (start and top >= 2) else set()
    dirty_line: set[int] = set(range(len(g.lines))) if (start and top >= 3) else set()
    if start:
        for i in range(ncell):
            _count(st, i)
        if top >= 1:
            for v in range(lay.nvert):
                _vertex(st, v)
    sweep = top >= 3
    every = start
    while True:
        while q:
            e = q.pop()
            if st.closed and st.unknown:
                # the loop is closed: every other edge is crossed
                s = st.s
                for f in range(lay.ne):
                    if not s[f]:
                        st.set(f, CROSS)
            for i in lay.edge_cells[e]:
                _count(st, i)
            if top >= 1:
                a, b = lay.edge_ends[e]
                _vertex(st, a)
                _vertex(st, b)
            if top >= 2:
                dirty_corner.update(near[e])
            if top >= 3:
                dirty_line.add(g.line_of[e])
                sweep = True
        if dirty_corner:
            _corner(st, dirty_corner.pop())
            continue
        if dirty_line:
            _parity(st, dirty_line.pop())
            continue
        if sweep:
            sweep = False
            _premature(st, every)
            every = False
            if q:
                continue
        break


def _probe(st: State, top: int, counter: list[int]) -> bool:
    """Trials over the undecided edges, cyclically from the last success, until a full
    round decides nothing (the fixpoint does not depend on the order: a trial that
    fails on fewer decided edges fails on more); True if it decided any.

    A trial that holds also vouches for what it drew: drawing any of those edges the
    same way from the same state draws a part of the same picture, so it holds too and
    is not tried until some trial decides an edge (the state then grows)."""
    s, trail = st.s, st.trail
    ne = st.lay.ne
    any_decided = False
    e, quiet = 0, 0
    held = bytearray(ne)        # bit LINE / CROSS: that trial is known to hold now
    while quiet < ne:
        if s[e]:
            quiet += 1
            e = e + 1 if e + 1 < ne else 0
            continue
        decided = False
        for val, other in ((LINE, CROSS), (CROSS, LINE)):
            if held[e] & val:
                continue
            node()
            counter[0] += 1
            m = st.mark()
            try:
                st.set(e, val)
                propagate(st, top)
                for rec in trail[m:]:
                    if rec[0] == 0:
                        held[rec[1]] |= rec[2]
                st.undo(m)
            except Contradiction:
                st.undo(m)
                st.set(e, other)
                propagate(st, top)
                decided = True
                break
        if decided:
            any_decided, quiet = True, 0
            held = bytearray(ne)
            if st.unknown == 0:
                return True
        else:
            quiet += 1
        e = e + 1 if e + 1 < ne else 0
    return any_decided


def _answer(st: State) -> Answer:
    lay = st.lay
    return Answer(lay.h, lay.w, tuple(1 if x == LINE else 0 for x in st.s))


def _complete(st: State) -> bool:
    """A finished state is an answer: one closed loop (propagation saw it close)."""
    return st.unknown == 0 and st.closed


def _branch_edge(st: State) -> int:
    """An undecided edge at a line end with the fewest ways on, else the first
    undecided edge beside the clue with the fewest open sides."""
    s, lay, v_on, v_unk = st.s, st.lay, st.v_on, st.v_unk
    best, best_n = -1, 9
    for v in range(lay.nvert):
        if v_on[v] == 1 and v_unk[v] < best_n:
            best, best_n = v, v_unk[v]
            if best_n == 2:
                break
    if best >= 0:
        for e in lay.vertex_edges[best]:
            if not s[e]:
                return e
    for e in range(lay.ne):
        if not s[e]:
            return e
    raise AssertionError("no undecided edge")


def search(st: State, limit: int, out: list[Answer], counter: list[int]) -> None:
    """Depth-first: propagate, branch on an edge (line first), undo from the trail."""
    top = LEVEL["loop"]
    frames: list[tuple[int, int, int]] = []   # (trail mark, edge, value still to try)
    while True:
        node()
        counter[0] += 1
        ok = True
        try:
            propagate(st, top)
        except Contradiction:
            ok = False
        if ok and st.unknown == 0:
            if _complete(st):
                out.append(_answer(st))
                if len(out) >= limit:
                    return
            ok = False
        if ok:
            e = _branch_edge(st)
            m = st.mark()
            frames.append((m, e, CROSS))
            try:
                st.set(e, LINE)
                continue
            except Contradiction:
                pass
        while frames:
            m, e, alt = frames.pop()
            st.undo(m)
            if alt:
                frames.append((m, e, 0))
                try:
                    st.set(e, alt)
                    break
                except Contradiction:
                    continue
        else:
            return


# what finishes a board the rungs leave open: "sat" (residual.py) or "dfs" (search above)
ENGINE = "sat"


def solve(board: Board, level: str | None = None, limit: int = 2,
          grade: bool = True, engine: str | None = None) -> SolveResult:
    """The ladder: rungs up to ``level`` (all, then search, when None). ``rung`` is the
    lowest rung whose fixpoint (with every rung below it) finishes the board.
    ``grade=False``: no probe rung (the search takes over from the loop rung), so
    ``rung`` is None unless a rung below probe finished the board."""
    if level is not None and level not in LEVEL:
        raise ValueError(f"unknown rung {level!r}; rungs are {', '.join((*RUNGS, 'search'))}")
    top = LEVEL["search"] if level is None else LEVEL[level]
    st = State(board)
    counter = [0]
    stats: dict = {"graded": grade}
    try:
        for k in range(min(top, LEVEL["loop"]) + 1):
            propagate(st, k, start=True)
            if st.solved():
                return _finish(st, RUNGS[k], counter, stats)
        if top >= LEVEL["probe"] and grade:
            while not st.solved() and _probe(st, LEVEL["loop"], counter):
                pass
            if st.solved():
                return _finish(st, "probe", counter, stats)
    except Contradiction:
        return SolveResult([], nodes=counter[0], rung=None,
                           stats={**stats, "contradiction": True, "nodes": "probe trials"})
    if top < LEVEL["search"]:
        fixed = [divmod(i, board.w) for i in range(board.h * board.w) if st.c_unk[i] == 0]
        return SolveResult([], nodes=counter[0], rung=None, fixed=fixed,
                           stats={**stats, "decided": st.lay.ne - st.unknown})
    out: list[Answer] = []
    if engine is None:
        engine = ENGINE
    if engine == "sat":
        from .residual import solve_residual

        calls = [0]
        out = solve_residual(board.h, board.w, st.clue, st.s, limit, calls)
        counter[0] += calls[0]
        stats["sat_calls"] = calls[0]
        what = "solver calls"
    else:
        search(st, limit, out, counter)
        what = "search nodes"
    rung = "search" if len(out) == 1 and grade else None
    return SolveResult(out, nodes=counter[0], rung=rung, stats={**stats, "nodes": what})


def _finish(st: State, rung: str, counter: list[int], stats: dict) -> SolveResult:
    if not _complete(st):
        return SolveResult([], nodes=counter[0], rung=None, stats={**stats, "contradiction": True})
    return SolveResult([_answer(st)], nodes=counter[0], rung=rung, stats=stats)
