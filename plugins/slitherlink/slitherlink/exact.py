"""The ledger stage: exact counts.

* ``loops``: how many single loops an H×W board holds (every answer a Slitherlink board
  of that size could have), counted by a frontier (plug) dynamic programme over the grid
  corners: the state is, along the frontier, which vertical edges come down into the
  row and how their ends pair up (brackets), plus the edge coming in from the left. A
  loop is counted when two ends of one line meet with no other line open; the square
  boards are the cycles of the (n+1)×(n+1) grid graph (OEIS A140517).
* ``signatures``: on small boards, every loop listed, with its full clue grid (every
  cell's count); loops that share their full grid with another loop cannot be told apart
  even with every clue printed. Grouping by the grid answers it without a single solve.
  The same listing gives the exact share of each digit among the clues of the full
  grids when every loop counts once (``digit_share``): the uniform reference against
  which the generator's sampled shares (the stats stage) are read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.grid import parse_size


def count_loops(h: int, w: int) -> int:
    """Single loops along the sides of an h×w board of cells (the cycles of the
    (h+1)×(w+1) grid graph)."""
    if h > w:
        h, w = w, h
    W1 = w + 1
    # state: (tuple of W1 plug codes, left code); 0 none, 1 "(", 2 ")"
    states: dict[tuple[tuple[int, ...], int], int] = {((0,) * W1, 0): 1}
    total = 0
    for i in range(h + 1):
        for j in range(W1):
            new: dict[tuple[tuple[int, ...], int], int] = {}
            can_down, can_right = i < h, j < w
            for (cols, left), n in states.items():
                up = cols[j]

                def put(cs: tuple[int, ...], lf: int, n: int = n,
                        new: dict = new) -> None:
                    new[(cs, lf)] = new.get((cs, lf), 0) + n

                def with_col(v: int, cols: tuple[int, ...] = cols, j: int = j) -> tuple[int, ...]:
                    return cols[:j] + (v,) + cols[j + 1:]
                if not up and not left:
                    put(cols, 0)
                    if can_down and can_right:
                        put(with_col(1), 2)
                elif not up or not left:
                    p = up or left
                    if can_down:
                        put(with_col(p), 0)
                    if can_right:
                        put(with_col(0), p)
                else:
                    seq = list(cols[:j]) + [left] + list(cols[j:])   # frontier order
                    li, ui = j, j + 1
                    if left == 1 and up == 2:
                        # the two ends of one line: a loop closes; nothing else may be open
                        if all(x == 0 for k, x in enumerate(seq) if k not in (li, ui)):
                            total += n
                        continue
                    if left == 2 and up == 1:
                        pass
                    elif left == 1 and up == 1:
                        seq[_match(seq, ui)] = 1
                    else:  # both ")"
                        seq[_match(seq, li)] = 2
                    seq[li] = seq[ui] = 0
                    cs = tuple(seq[:j] + [0] + seq[j + 2:])
                    put(cs, 0)
            states = new
        # the row ends: no edge leaves to the right
        states = {k: v for k, v in states.items() if k[1] == 0}
    return total


def _match(seq: list[int], k: int) -> int:
    """The index of the bracket matching ``seq[k]``."""
    depth = 0
    step = 1 if seq[k] == 1 else -1
    i = k
    while True:
        x = seq[i]
        if x:
            depth += 1 if (x == 1) == (step == 1) else -1
            if depth == 0:
                return i
        i += step


def all_loops(h: int, w: int) -> list[tuple[int, ...]]:
    """Every single loop of an h×w board, as edge tuples (the ladder's DFS on a board
    without clues)."""
    from .board import Board
    from .ladder import solve

    res = solve(Board.empty(h, w), limit=10 ** 9, engine="dfs", grade=False)
    return [a.on for a in res.solutions]


def signatures(h: int, w: int) -> dict[str, Any]:
    from .board import layout

    lay = layout(h, w)
    groups: dict[tuple[int, ...], int] = {}
    loops = all_loops(h, w)
    digits = [0, 0, 0, 0, 0]   # a 4: the loop around one cell alone
    for on in loops:
        key = tuple(sum(on[e] for e in es) for es in lay.cell_edges)
        groups[key] = groups.get(key, 0) + 1
        for v in key:
            digits[v] += 1
    shared = sum(n for n in groups.values() if n > 1)
    total = sum(digits)
    return {"loops": len(loops), "grids": len(groups), "shared": shared,
            "largest": max(groups.values()), "unique": len(loops) - shared,
            "digits": {str(d): n for d, n in enumerate(digits)},
            "digit_share": {str(d): round(n / total, 4) for d, n in enumerate(digits)}}


def ledger_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = [{"key": f"loops-{s}", "kind": "loops", "size": s} for s in params["loops"]]
    out += [{"key": f"sig-{s}", "kind": "signatures", "size": s} for s in params["signatures"]]
    return out


def ledger_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress = no_progress) -> dict[str, Any]:
    h, w = parse_size(chunk["size"])
    if chunk["kind"] == "loops":
        return {"kind": "loops", "size": chunk["size"], "count": count_loops(h, w)}
    return {"kind": "signatures", "size": chunk["size"], **signatures(h, w)}


def ledger_reduce(partials: list[Any], inputs: Mapping[str, Any],
                  params: Mapping[str, Any]) -> dict[str, Any]:
    loops = {p["size"]: p["count"] for p in partials if p["kind"] == "loops"}
    sig = {p["size"]: {k: v for k, v in p.items() if k not in ("kind", "size")}
           for p in partials if p["kind"] == "signatures"}
    for s in sig.values():
        s["share_unique"] = round(s["unique"] / s["loops"], 4)
    return {"loops": loops, "signatures": sig}
