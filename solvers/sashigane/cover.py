"""The search under puzz.link's standard rules, as an exact cover.

Under the standard rules a piece may hold no clue, so branching on circles (the seed
search) leaves every clueless piece to be found cell by cell, and the branching
explodes. Here every cell is a column that exactly one candidate L must cover; a
circle's cell is covered only by that circle's Ls (the fit rung builds them so), which
makes "one piece per circle" part of the cover. Each node branches on the uncovered
cell that the fewest surviving Ls can cover (Knuth's Algorithm X): a cell no L can cover
ends the branch, a cell only one L can cover is forced.

The sets are Python integers used as bit sets: for each cell, the set of candidates that
cover it; a placed L removes from the surviving set every candidate that meets it.

``lazy`` is the search for boards whose candidate tables would not fit in memory (a
large, nearly empty board has about h²w² Ls) and for nearly empty boards, whose many
answers it meets at once (``table_free``): the first uncovered cell in reading order,
each L that has it as its first cell generated on the spot, nothing enumerated ahead.
"""

from __future__ import annotations

from collections.abc import Iterator

from solvers.common import node

from .board import ARROW, CIRCLE, Board
from .fit import Rules


class Capped(Exception):
    """Search passed its branch cap."""


# Past this many candidate Ls (an upper bound, ``estimate``) a board may go to ``lazy``
# (``table_free``): a 16×16 empty board has 57,600 Ls, whose tables take about half a
# second to build.
LAZY_FROM = 60_000
# ... when its tables would pass this many bits (candidates × cells: each table holds
# one per pair, about 50 MB here), or when it has more than this share of an empty
# board's Ls. The reading-order search finds answers fast only where there are many;
# a board holding enough clues to be unique needs the tables (outside 30×30-03 has
# 74,207 Ls, a tenth of the empty board's, and ``lazy`` ran 9 CPU-minutes on it; with
# the tables it decides in about a second).
TABLE_BITS_MAX = 400_000_000
NEARLY_EMPTY = 0.5
MEMO_MAX = 200_000


def estimate(board: Board, rules: Rules) -> int:
    """An upper bound on the candidates ``fit`` builds under the standard variant with the
    corner rule, in O(h·w): per corner and quarter, the product of how far each arm can
    reach (to the edge, to a circle, or onto the first arrow when arrows sit on ends)."""
    h, w = board.h, board.w
    cells = board.cells
    circle = [k.kind == CIRCLE for k in cells]
    arrow = [k.kind == ARROW for k in cells] if rules.end else [False] * (h * w)
    # reach[d][i]: how many cells an arm leaving cell i in direction d can take
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    reach: list[list[int]] = []
    for dr, dc in steps:
        rr = [0] * (h * w)
        rows = range(h) if dr <= 0 else range(h - 1, -1, -1)
        cols = range(w) if dc <= 0 else range(w - 1, -1, -1)
        for r in rows:
            for c in cols:
                nr, nc = r + dr, c + dc
                if not (0 <= nr < h and 0 <= nc < w):
                    continue
                j = nr * w + nc
                if circle[j]:
                    continue
                rr[r * w + c] = 1 if arrow[j] else 1 + rr[j]
        reach.append(rr)
    up, down, left, right = reach
    total = 0
    for i in range(h * w):
        if not circle[i] and arrow[i] and (rules.end or rules.point):
            continue
        total += (up[i] + down[i]) * (left[i] + right[i])
    return total


def table_free(board: Board, rules: Rules) -> bool:
    """Whether a standard board with the corner rule goes to ``lazy`` rather than to the
    tables of ``exact``: past LAZY_FROM candidates (``estimate``), when the tables would
    pass TABLE_BITS_MAX bits or the board is nearly empty (NEARLY_EMPTY)."""
    n = estimate(board, rules)
    h, w = board.h, board.w
    empty = h * (h - 1) * w * (w - 1)     # the Ls of an empty h×w board
    return n > LAZY_FROM and (n * h * w > TABLE_BITS_MAX or n > NEARLY_EMPTY * empty)


def exact(masks: list[int], alive: list[int], h: int, w: int, limit: int | None,
          cap: int | None = None, target: int | None = None
          ) -> tuple[list[list[int]], int]:
    """Every way (up to ``limit``) to cover the h×w cells (or the cells ``target``)
    exactly once with the candidates ``alive`` (indices into ``masks``, each inside the
    target): (solutions as index lists, branches).

    The uncovered cells are split into their connected regions, each solved on its own
    (no L spans two) and remembered by its cell set: the candidates left inside a region
    follow from that set alone, so a region met again (another tiling of the cells
    around it, another order) is not searched again, and a region with no answer ends
    every branch that leaves it. An entry holds up to ``limit`` of the region's answers,
    all that any caller asks for; the table is cleared when it reaches MEMO_MAX entries."""
    ncells = h * w
    k = len(alive)
    # col[c]: the candidates through cell c, as a bit set (built as bytes: or-ing one
    # bit at a time into a wide integer copies it each time)
    raw = [bytearray((k + 7) >> 3) for _ in range(ncells)]
    cells_of: list[list[int]] = []
    for j, i in enumerate(alive):
        m = masks[i]
        cs = []
        while m:
            low = m & -m
            c = low.bit_length() - 1
            cs.append(c)
            raw[c][j >> 3] |= 1 << (j & 7)
            m ^= low
        cells_of.append(cs)
    col = [int.from_bytes(b, "little") for b in raw]
    del raw
    goal = (1 << ncells) - 1 if target is None else target
    if any(col[c] == 0 for c in range(ncells) if goal >> c & 1):
        return [], 0
    not_first = not_last = 0          # cells off column 0, off column w-1
    for r in range(h):
        for c in range(w):
            if c:
                not_first |= 1 << (r * w + c)
            if c < w - 1:
                not_last |= 1 << (r * w + c)
    cm = [masks[i] for i in alive]
    owner = [0] * ncells          # for a covered cell: the candidate covering it
    covered = 0
    onpath = 0                    # the candidates placed, as a bit set
    most = limit if limit is not None else 1 << 62
    nodes = 0
    path: list[int] = []
    # free cells -> (answers, conflict); the cells a stored conflict's pieces cover are
    # worked out when the entry is met again off the conflict's path (``spans``)
    memo: dict[int, tuple[list[list[int]], int]] = {}
    spans: dict[int, int] = {}

    def regions(free: int) -> list[int]:
        out = []
        while free:
            x = free & -free
            while True:
                y = (x | (x << 1 & not_first) | (x >> 1 & not_last) | x << w | x >> w) & free
                if y == x:
                    break
                x = y
            out.append(x)
            free &= ~x
        return out

    def one_piece(free: int, m: int) -> bool:
        """Whether ``free``, a connected region less the piece ``m``, is still one region:
        each of its regions touches the piece, so it is one when a flood from one cell
        beside the piece reaches every other such cell (mostly a few steps, not the
        whole region, as ``regions`` takes)."""
        touch = (m << 1 & not_first | m >> 1 & not_last | m << w | m >> w) & free
        x = touch & -touch
        while touch & ~x:
            y = (x | (x << 1 & not_first) | (x >> 1 & not_last) | x << w | x >> w) & free
            if y == x:
                return False
            x = y
        return True

    def killers(c: int, live: int, have: int = 0) -> int:
        """Placed pieces that killed every candidate through cell ``c``: for each, a
        piece already named when one meets it (``have``, the conflict so far, keeps the
        conflict small), else the piece on its first covered cell."""
        out = 0
        cells = cells_of_set(have)
        dead = col[c] & ~live
        while dead:
            low = dead & -dead
            dead ^= low
            hit = cm[low.bit_length() - 1] & covered
            if hit & cells:
                continue
            j = owner[(hit & -hit).bit_length() - 1]
            out |= 1 << j
            cells |= cm[j]
        return out

    def solve_free(free: int, live: int, piece: int = 0) -> tuple[list[list[int]], int]:
        """Up to ``most`` exact covers of the cells ``free`` by the candidates ``live``;
        with none, also a conflict: placed pieces (a bit set of candidates) that no
        answer of the whole board holds all together. ``piece``: the cells of the piece
        just placed, when ``free`` is a connected region less that piece (else 0)."""
        if not free:
            return [[]], 0
        got = memo.get(free)
        if got is not None:
            if got[0] or not got[1] & ~onpath:
                return got
            cells = spans.get(got[1])
            if cells is None:
                cells = spans[got[1]] = cells_of_set(got[1])
            return got[0], translate(cells)
        parts = [free] if piece and one_piece(free, piece) else regions(free)
        if len(parts) == 1:
            out = solve_region(free, live)
        else:
            out = [], 0
            answers = []
            for part in sorted(parts, key=int.bit_count):
                a, why = solve_free(part, live)
                if not a:
                    out = [], why
                    break
                answers.append(a)
            else:
                out = _product(answers, most), 0
        if len(memo) >= MEMO_MAX:
            memo.clear()
            spans.clear()
        memo[free] = out
        return out

    def cells_of_set(conflict: int) -> int:
        cells = 0
        while conflict:
            low = conflict & -conflict
            conflict ^= low
            cells |= cm[low.bit_length() - 1]
        return cells

    def translate(cells: int) -> int:
        """A stored conflict met on another path: what fails is the cells its pieces
        cover (no answer has pieces exactly covering them), so this path's pieces inside
        those cells are a conflict when they cover them all; else the whole path is."""
        got = inside = 0
        for j in path:
            if not cm[j] & ~cells:
                got |= 1 << j
                inside |= cm[j]
        return got if inside == cells else onpath

    def solve_region(region: int, live: int) -> tuple[list[list[int]], int]:
        """``solve_free`` on one connected region: branch on its cell with the fewest
        candidates. A branch whose conflict does not hold the branch's own piece fails
        for reasons above it, so every branch fails: that conflict is returned at once
        (conflict-directed backjumping). Otherwise the node's conflict is the branches'
        conflicts less their pieces, plus the pieces that killed the cell's other Ls."""
        nonlocal nodes, covered, onpath
        best, bestn = -1, 1 << 62
        rest = region
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            n = (col[c] & live).bit_count()
            if n < bestn:
                best, bestn = c, n
                if n <= 1:
                    break
        out: list[list[int]] = []
        if bestn == 0:
            return out, killers(best, live)
        why_all = 0
        opts = col[best] & live
        while opts:
            low = opts & -opts
            opts ^= low
            j = low.bit_length() - 1
            nodes += 1
            node()
            if cap is not None and nodes > cap:
                raise Capped
            m = cm[j]
            gone = 0
            for c in cells_of[j]:
                gone |= col[c]
                owner[c] = j
            covered |= m
            onpath |= low
            path.append(j)
            sub, why = solve_free(region & ~m, live & ~gone, m)
            path.pop()
            covered &= ~m
            onpath &= ~low
            if not sub:
                if not why & low:
                    return out, why
                why_all |= why & ~low
                continue
            out.extend([alive[j], *t] for t in sub[:most - len(out)])
            if len(out) >= most:
                break
        if out:
            return out, 0
        return out, why_all | killers(best, live, why_all)

    return solve_free(goal, (1 << k) - 1)[0], nodes


def _product(parts: list[list[list[int]]], most: int) -> list[list[int]]:
    """The first ``most`` ways to take one answer from each part, joined."""
    out: list[list[int]] = [[]]
    for part in parts:
        out = [a + b for a in out for b in part][:most]
    return out


def lazy(board: Board, rules: Rules, limit: int | None) -> tuple[list[list[int]], int]:
    """The reading-order search without tables: (solutions as lists of cell masks,
    branches). Memory is the stack of open choices, one per placed piece."""
    h, w = board.h, board.w
    full = (1 << (h * w)) - 1
    cells = board.cells
    sols: list[list[int]] = []
    placed: list[int] = []
    nodes = 0

    def ok(corner: int, v: list[int], hz: list[int]) -> bool:
        """The clues of the L with this corner, vertical arm ``v`` and horizontal arm
        ``hz`` (each from the cell next to the corner to its end)."""
        size = len(v) + len(hz) + 1
        circles = 0
        for arm, end_dir in ((v, "down" if v[0] < corner else "up"),
                             (hz, "right" if hz[0] < corner else "left")):
            for t, i in enumerate(arm):
                k = cells[i]
                if k.kind == CIRCLE:
                    if rules.corner:
                        return False
                    circles += 1
                    if rules.number and k.value and k.value != size:
                        return False
                elif k.kind == ARROW:
                    at_end = t == len(arm) - 1
                    if rules.end and not at_end:
                        return False
                    if rules.point and k.value != end_dir:
                        return False
        k = cells[corner]
        if k.kind == CIRCLE:
            circles += 1
            if rules.number and k.value and k.value != size:
                return False
        elif k.kind == ARROW and (rules.end or rules.point):
            return False
        return circles <= 1

    def anchored(a: int, covered: int) -> Iterator[int]:
        """Every valid L whose first cell in reading order is ``a``, smallest arms
        first; an arm stops at the first covered cell (every longer one holds it too)."""
        r, c = divmod(a, w)

        def free(rr: int, cc: int) -> bool:
            return 0 <= rr < h and 0 <= cc < w and not covered >> (rr * w + cc) & 1

        def run(r0: int, c0: int, dr: int, dc: int) -> list[int]:
            out = []
            rr, cc = r0 + dr, c0 + dc
            while free(rr, cc):
                out.append(rr * w + cc)
                rr, cc = rr + dr, cc + dc
            return out

        down = run(r, c, 1, 0)
        right = run(r, c, 0, 1)
        # ┌ corner a
        for d in range(1, len(down) + 1):
            for b in range(1, len(right) + 1):
                v, hz = down[:d], right[:b]
                if ok(a, v, hz):
                    yield _mask([a, *v, *hz])
        # ┐ corner at the end of a top arm from a
        for b in range(1, len(right) + 1):
            corner = right[b - 1]
            hz = [a, *right[:b - 1]][::-1]
            col = run(r, c + b, 1, 0)
            for d in range(1, len(col) + 1):
                if ok(corner, col[:d], hz):
                    yield _mask([corner, *col[:d], *hz])
        # └ and ┘: a tops a vertical arm, the corner below it
        for d in range(1, len(down) + 1):
            corner = down[d - 1]
            v = [a, *down[:d - 1]][::-1]
            rc = r + d
            for dc in (1, -1):
                arm = run(rc, c, 0, dc)
                for b in range(1, len(arm) + 1):
                    if ok(corner, v, arm[:b]):
                        yield _mask([corner, *v, *arm[:b]])

    not_first = not_last = 0          # cells off column 0, off column w-1
    for c in range(h * w):
        if c % w:
            not_first |= 1 << c
        if c % w < w - 1:
            not_last |= 1 << c
    stack: list[tuple[int, Iterator[int]]] = []
    covered = 0
    first = (~covered & full & -(~covered & full)).bit_length() - 1
    stack.append((covered, anchored(first, covered)))
    while stack:
        cov, it = stack[-1]
        m = next(it, None)
        if m is None:
            stack.pop()
            if placed:
                placed.pop()
            continue
        nodes += 1
        node()
        now = cov | m
        placed.append(m)
        if now == full:
            sols.append(list(placed))
            placed.pop()
            if limit is not None and len(sols) >= limit:
                break
            continue
        freeset = ~now & full
        if _pocket(freeset, not_first, not_last, w):
            placed.pop()
            continue
        a = (freeset & -freeset).bit_length() - 1
        stack.append((now, anchored(a, now)))
    return sols, nodes


def _pocket(free: int, not_first: int, not_last: int, w: int) -> bool:
    """Whether some free cell has no free neighbour, or two free cells have only each
    other: no L fits there (an L has three cells or more)."""
    right = free >> 1 & not_last      # cells whose right neighbour is free
    left = free << 1 & not_first
    down = free >> w
    up = free << w
    any_ = right | left | down | up
    if free & ~any_:
        return True
    two = (right & (left | down | up)) | (left & (down | up)) | (down & up)
    one = free & any_ & ~two
    near = (one << 1 & not_first) | (one >> 1 & not_last) | one << w | one >> w
    return bool(one & near)


def _mask(cells: list[int]) -> int:
    m = 0
    for i in cells:
        m |= 1 << i
    return m
