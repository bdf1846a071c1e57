"""Connectivity questions on a rectangular grid, asked of int bitmasks (bit ``r*w + c``
for the cell at row r, column c; neighbours are the four orthogonal cells).

The hint engines ask, many times per trial, what a connection pass finds: the live
cells not reachable from the first fixed one, and the undecided cells whose removal
would split the fixed cells. A depth-first search answers it one cell at a
time; here a flood is a few shifts of one integer per step, and a cell can split the
graph only where its live neighbours are not joined around it through the eight cells
that ring it (``local_cuts``, all cells at once). Each such cell is then settled by
growing its neighbour groups in step until they meet or one of them ends (``splits``),
which stops as soon as the smaller side is known.
"""

from __future__ import annotations

from collections.abc import Iterator


class Grid:
    def __init__(self, h: int, w: int) -> None:
        self.h, self.w = h, w
        n = h * w
        self.full = (1 << n) - 1
        self.has_w = self.full & ~sum(1 << (r * w) for r in range(h))        # c > 0
        self.has_e = self.full & ~sum(1 << (r * w + w - 1) for r in range(h))  # c < w-1
        self.nbmask = [self.grow(1 << i, self.full) & ~(1 << i) for i in range(n)]

    def grow(self, m: int, within: int) -> int:
        w = self.w
        return (m | (m << w) | (m >> w) | ((m << 1) & self.has_w) | ((m >> 1) & self.has_e)
                ) & within

    def flood(self, seed: int, within: int) -> int:
        """The cells of ``within`` connected to ``seed`` (a subset of it)."""
        w, hw, he = self.w, self.has_w, self.has_e
        m = seed
        while True:
            x = (m | (m << w) | (m >> w) | ((m << 1) & hw) | ((m >> 1) & he)) & within
            if x == m:
                return m
            m = x

    def local_cuts(self, alive: int) -> int:
        """The cells (of any state) whose live orthogonal neighbours fall into two or more
        groups around them: two live neighbours are joined around the cell when every
        cell of one of the two arcs of its ring of eight between them is live. A cell
        outside this mask cannot split ``alive``."""
        w, hw, he, full = self.w, self.has_w, self.has_e, self.full
        a = alive
        n = (a << w) & full
        s = a >> w
        e = (a >> 1) & he
        west = (a << 1) & hw
        ne = (a << (w - 1)) & he & full
        nw = (a << (w + 1)) & hw & full
        se = (a >> (w + 1)) & he
        sw = (a >> (w - 1)) & hw
        # the six pairs of neighbours, each split when both of its arcs are broken
        return ((n & s & ~(ne & e & se) & ~(nw & west & sw))
                | (e & west & ~(ne & n & nw) & ~(se & s & sw))
                | (n & e & ~ne & ~(nw & west & sw & s & se))
                | (e & s & ~se & ~(ne & n & nw & west & sw))
                | (s & west & ~sw & ~(se & e & ne & n & nw))
                | (west & n & ~nw & ~(sw & s & se & e & ne)))

    def groups(self, i: int, alive: int) -> list[int]:
        """The live orthogonal neighbours of cell ``i`` in their groups around it (each a
        mask of the neighbours and the live ring cells joining them)."""
        h, w = self.h, self.w
        r, c = divmod(i, w)

        def live(rr: int, cc: int) -> int:
            if 0 <= rr < h and 0 <= cc < w:
                b = 1 << (rr * w + cc)
                return b if alive & b else 0
            return 0

        # the ring in order: N, NE, E, SE, S, SW, W, NW
        ring = [live(r - 1, c), live(r - 1, c + 1), live(r, c + 1), live(r + 1, c + 1),
                live(r + 1, c), live(r + 1, c - 1), live(r, c - 1), live(r - 1, c - 1)]
        out: list[int] = []
        cur = 0
        for k in range(8):
            b = ring[k]
            if b:
                cur |= b
            elif cur:
                out.append(cur)
                cur = 0
        if cur:
            if out and ring[0]:
                out[0] |= cur            # the arc through NW joins back to N
            else:
                out.append(cur)
        # a group holding only diagonal cells is no neighbour (a diagonal is live ring
        # but not adjacent)
        orth = ring[0] | ring[2] | ring[4] | ring[6]
        return [g for g in out if g & orth]

    def splits(self, i: int, alive: int, fixed: int) -> int:
        """Whether removing cell ``i`` (not fixed) from ``alive`` (assumed connected)
        leaves ``fixed`` cells in two or more parts: -1 if it does; otherwise a
        certificate that it cannot split any state, the cells of a connected part of
        ``alive`` without ``i`` that holds all of ``i``'s live neighbours (0 when the
        answer rests on where the fixed cells lie)."""
        within = alive & ~(1 << i)
        sides = self.groups(i, alive)
        if len(sides) < 2:
            return sides[0] if sides else 0
        grow = self.grow
        if len(sides) == 2:
            return self._two(sides[0], sides[1], within, fixed)
        free = True                 # no part was set aside for holding no fixed cell
        done = [False] * len(sides)
        while True:
            grown = [s if d else grow(s, within) for s, d in zip(sides, done, strict=True)]
            # merge the sides that touch: they are one part
            merged: list[int] = []
            mstable: list[bool] = []
            for s, g, d in zip(sides, grown, done, strict=True):
                st = d or g == s
                k = 0
                while k < len(merged):
                    if merged[k] & g:
                        g |= merged.pop(k)
                        st = mstable.pop(k) or st
                    else:
                        k += 1
                merged.append(g)
                mstable.append(st)
            if len(merged) == 1:
                return merged[0] if free else 0
            sides, done = [], []
            for g, st in zip(merged, mstable, strict=True):
                if st:
                    if g & fixed:
                        if fixed & ~g:
                            return -1       # a whole part with fixed cells, and more outside
                        return 0            # every fixed cell lies in this part
                    free = False
                    continue                # a whole part without fixed cells: no matter
                sides.append(g)
                done.append(False)
            if len(sides) < 2:
                return 0

    def _two(self, a: int, b: int, within: int, fixed: int) -> int:
        """``splits`` for two neighbour groups ``a`` and ``b``: both grown a step at a
        time; where they meet, the certificate is one path between them (found back
        through the steps), so that it stays valid while few cells change."""
        w, hw, he = self.w, self.has_w, self.has_e
        la, lb = [a], [b]
        seeds = a | b
        while True:
            ga = (a | (a << w) | (a >> w) | ((a << 1) & hw) | ((a >> 1) & he)) & within
            gb = (b | (b << w) | (b >> w) | ((b << 1) & hw) | ((b >> 1) & he)) & within
            meet = ga & gb
            if meet:
                m = meet & -meet
                la.append(ga)
                lb.append(gb)
                return seeds | self._back(la, m) | self._back(lb, m)
            if ga == a or gb == b:
                for part in ((a,) if ga == a else ()) + ((b,) if gb == b else ()):
                    if part & fixed and fixed & ~part:
                        return -1       # a whole part with fixed cells, and more outside
                return 0                # the fixed cells all lie on one side
            a, b = ga, gb
            la.append(a)
            lb.append(b)

    def _back(self, layers: list[int], m: int) -> int:
        """A path from cell ``m`` (in the last layer) back to the first layer, each layer
        the one before grown by a step."""
        path = cur = m
        for j in range(len(layers) - 2, -1, -1):
            layer = layers[j]
            if cur & layer:
                continue
            nxt = self.grow(cur, layer)
            cur = nxt & -nxt
            path |= cur
        return path

    def cuts(self, alive: int, fixed: int, cert: dict[int, int] | None = None,
             most: int = 1) -> tuple[int, list[int]] | None:
        """The part of ``alive`` that holds the lowest ``fixed`` cell (``fixed`` not
        empty), and the undecided cells of that part (``alive`` but not ``fixed``)
        whose removal splits its fixed cells, lowest first: (part, cells). None when
        there are more than ``most`` such cells. ``cert`` keeps, per cell, a
        certificate from ``splits`` across calls: it still holds while all its cells
        are live and it holds every live neighbour of the cell."""
        reach = self.flood(fixed & -fixed, alive)
        if fixed & ~reach:
            return reach, []
        out: list[int] = []
        for i in self._splitting(reach, fixed, cert):
            if len(out) == most:
                return None
            out.append(i)
        return reach, out

    def first_cut(self, alive: int, fixed: int, cert: dict[int, int] | None = None
                  ) -> int | None:
        """The lowest cell ``cuts`` would name (``alive`` connected and holding every
        ``fixed`` cell), or None; the rest are not looked at."""
        for i in self._splitting(alive, fixed, cert):
            return i
        return None

    def _splitting(self, reach: int, fixed: int, cert: dict[int, int] | None
                   ) -> Iterator[int]:
        """The undecided cells of ``reach`` (connected) whose removal splits ``fixed``,
        lowest first (see ``cuts`` for ``cert``)."""
        cand = self.local_cuts(reach) & reach & ~fixed
        nbm = self.nbmask
        while cand:
            b = cand & -cand
            cand ^= b
            i = b.bit_length() - 1
            if cert is not None:
                c = cert.get(i)
                if c is not None and not c & ~reach and not nbm[i] & reach & ~c:
                    continue
            got = self.splits(i, reach, fixed)
            if got < 0:
                yield i
            elif got and cert is not None:
                cert[i] = got

    def apart(self, live: int, num: int) -> int:
        """The ``num`` cells outside the part of ``live`` holding the most of them (the
        first such part, lowest cell first, on a tie)."""
        parts = []
        rest = num
        while rest:
            comp = self.flood(rest & -rest, live)
            parts.append(comp & num)
            rest &= ~comp
        parts.sort(key=int.bit_count, reverse=True)
        out = 0
        for p in parts[1:]:
            out |= p
        return out


def bits(m: int) -> list[int]:
    """The set bits of ``m``, lowest first."""
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return out
