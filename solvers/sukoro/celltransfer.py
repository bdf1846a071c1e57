"""A second count of the empty board's answers: a transfer over single cells.

It shares no code with the row transfer in ``frontier``. The cells are decided one at a
time in reading order, plus one extra row that is all blank. The state is the frontier:
for each column, the last decided cell in it. A numbered frontier cell carries its count
of numbered neighbours so far, the digits it may no longer take (those of its neighbours
that are already final) and a label for its group.

Deciding cell (r, c) completes the neighbourhood of the cell above it, whose number is
then final: it must be at least one and differ from every final neighbour, and it is
passed on as a forbidden digit to its neighbours that are still open (the cell to its
right and the new cell below). A group whose last frontier cell leaves without touching
the new cell is finished; that is an answer exactly when no other numbered cell is on the
frontier, and then every later cell is blank.
"""

from __future__ import annotations

from collections import defaultdict

# a frontier cell: 0 blank, else (label << 7) | (count so far << 4) | forbidden digits
_COUNT = 4
_LABEL = 7


def _label(x: int) -> int:
    return x >> _LABEL


def _normalise(cells: list[int]) -> tuple[int, ...]:
    """Relabel groups 1, 2, ... in order of first appearance."""
    seen: dict[int, int] = {}
    out = []
    for x in cells:
        if x:
            lab = x >> _LABEL
            new = seen.get(lab)
            if new is None:
                new = seen[lab] = len(seen) + 1
            out.append((new << _LABEL) | (x & ((1 << _LABEL) - 1)))
        else:
            out.append(0)
    return tuple(out)


def _step(state: tuple[int, ...], c: int, bit: int, w: int) -> tuple[int, ...] | bool | None:
    """Decide the cell in column ``c`` (``bit`` 1: numbered). Returns the next state, True
    when this finishes an answer, or None when a rule breaks."""
    cells = list(state)
    up = cells[c]
    final = 0
    if up:
        final = ((up >> _COUNT) & 7) + bit
        if final == 0 or (up >> (final - 1)) & 1:
            return None
        if c + 1 < w and cells[c + 1]:
            cells[c + 1] |= 1 << (final - 1)
    left = cells[c - 1] if c > 0 else 0
    if bit:
        count = (1 if up else 0) + (1 if left else 0)
        forbidden = (1 << (final - 1)) if up else 0
        labels = {_label(x) for x in (up, left) if x}
        if labels:
            keep = min(labels)
            if len(labels) == 2:
                drop = max(labels)
                cells = [((keep << _LABEL) | (x & ((1 << _LABEL) - 1)))
                         if x and _label(x) == drop else x for x in cells]
        else:
            keep = max([_label(x) for x in cells if x], default=0) + 1
        if left:
            cells[c - 1] += 1 << _COUNT
        cells[c] = (keep << _LABEL) | (count << _COUNT) | forbidden
    else:
        cells[c] = 0
        if up and not any(x and _label(x) == _label(up) for x in cells):
            # the group of the cell above is finished
            return True if not any(cells) else None
    return _normalise(cells)


def count_answers_by_cells(h: int, w: int) -> int:
    """Number of answers of the empty h×w board (exact)."""
    states: dict[tuple[int, ...], int] = {(0,) * w: 1}
    total = 0
    for r in range(h + 1):
        bits = (0,) if r == h else (0, 1)
        for c in range(w):
            nxt: dict[tuple[int, ...], int] = defaultdict(int)
            for state, ways in states.items():
                for bit in bits:
                    got = _step(state, c, bit, w)
                    if got is None:
                        continue
                    if got is True:
                        total += ways
                    else:
                        # got is a state: _step returns True or None otherwise, never
                        # False (its annotation says bool)
                        nxt[got] += ways  # type: ignore[index]
            states = nxt
    return total
