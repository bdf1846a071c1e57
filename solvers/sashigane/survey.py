"""Exhaustive surveys: every L tiling × every arrow mask of a small board, printed with
all numbers (or with empty circles), and how many of those boards have one answer.

No board is solved. Under the seed rules a printed board fixes the corners (its circles)
and, through each arrow, one whole arm: an arrow points at the first circle along its
line, so it belongs to that circle's piece in every answer. Two (tiling, mask) pairs
therefore print the same board exactly when they have the same corners (and, with
numbers, the same sizes) and, at every corner, the same arrowed arm end. A board's
answers are the pairs that print it. Pairs are grouped by corners (and sizes); within a
group, the masks of tiling T that another tiling T' can also print form a sub-cube
(at each corner: the ends T' shares with T), and a pair is unique when its mask lies in
no other tiling's sub-cube.

The stats stage (``studies.py``) runs the survey on the sizes of the article; the
on-request ``survey_beyond`` stage (at the end of this file) runs it on larger boards,
the tilings enumerated in blocks dealt into chunks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from solvers.common import Progress, no_progress
from solvers.grid import parse_size

from .board import NOTHING, Board
from .brute import anchored, scan
from .fit import fit
from .generate import Piece, _piece_of, print_board


def tilings(h: int, w: int) -> list[list[Piece]]:
    """Every L tiling of the h×w board (by the scanner), pieces sorted by corner."""
    sols, _ = scan(Board(h, w, tuple([NOTHING] * (h * w))), None, tilings=True)
    return [sorted((_piece_of(h, w, p[0]) for p in s), key=lambda q: q.corner) for s in sols]


def survey(h: int, w: int, numbers: bool, tiles: list[list[Piece]] | None = None
           ) -> dict[str, Any]:
    """Pairs, unique pairs, and tilings no mask makes unique; plus one ambiguous pair
    (tiling, mask, a rival tiling) if any."""
    tiles = tiles if tiles is not None else tilings(h, w)
    groups: dict[tuple, list[int]] = defaultdict(list)
    for t, ps in enumerate(tiles):
        key = tuple((p.corner, p.size if numbers else 0) for p in ps)
        groups[key].append(t)
    pairs = unique = hopeless = 0
    example: dict[str, Any] | None = None
    largest = 0
    for members in groups.values():
        largest = max(largest, len(members))
        k = len(tiles[members[0]])
        n = 1 << k
        pairs += n * len(members)
        if len(members) == 1:
            unique += n
            continue
        idx = np.arange(n, dtype=np.int64)
        for t in members:
            ends = [p.ends for p in tiles[t]]
            hit = np.zeros(n, dtype=bool)
            rival_of: list[tuple[int, int, int]] = []
            for u in members:
                if u == t:
                    continue
                fix = val = 0
                for j, (p, q) in enumerate(zip(ends, (p.ends for p in tiles[u]), strict=True)):
                    a0, a1 = p[0] in q, p[1] in q
                    if not (a0 or a1):
                        break
                    if a0 != a1:
                        fix |= 1 << j
                        if a1:
                            val |= 1 << j
                else:
                    hit |= (idx & fix) == val
                    rival_of.append((u, fix, val))
            bad = int(hit.sum())
            unique += n - bad
            hopeless += bad == n
            if bad and example is None:
                m = int(np.argmax(hit))
                u = next(u for u, fix, val in rival_of if m & fix == val)
                example = {"tiling": t, "mask": m, "rival": u}
    out: dict[str, Any] = {"size": f"{h}x{w}", "tilings": len(tiles), "pairs": pairs,
                           "unique": unique, "share": unique / pairs if pairs else 0.0,
                           "ambiguous": pairs - unique, "hopeless": hopeless,
                           "groups": len(groups), "largest_group": largest}
    if example is not None:
        t, m, u = example["tiling"], example["mask"], example["rival"]
        choice = [(m >> j) & 1 for j in range(len(tiles[t]))]
        board = print_board(h, w, tiles[t], choice, numbers)
        out["example"] = {"board": board.to_json(),
                          "answers": [_labels(h, w, tiles[t]), _labels(h, w, tiles[u])]}
    return out


def _labels(h: int, w: int, pieces: list[Piece]) -> dict[str, Any]:
    lab = [-1] * (h * w)
    for k, p in enumerate(sorted(pieces, key=lambda q: q.mask & -q.mask)):
        for i in range(h * w):
            if p.mask >> i & 1:
                lab[i] = k
    return {"pieces": [lab[r * w:(r + 1) * w] for r in range(h)]}


def shape_counts(h: int, w: int, tiles: list[list[Piece]] | None = None,
                 tick: Callable[[], None] | None = None) -> dict[str, int]:
    """Over every (tiling, mask) board with all numbers printed: how many candidate Ls
    the fit rung leaves each circle (1, 2, 3 or more)."""
    tiles = tiles if tiles is not None else tilings(h, w)
    out = {"1": 0, "2": 0, "3+": 0, "0": 0}
    for ps in tiles:
        k = len(ps)
        for m in range(1 << k):
            board = print_board(h, w, ps, [(m >> j) & 1 for j in range(k)], True)
            cand = fit(board)
            per = [0] * len(cand.circles)
            for g in cand.group:
                per[g] += 1
            for c in per:
                out["3+" if c >= 3 else str(c)] += 1
        if tick is not None:
            tick()
    return out


# -- the same survey in blocks of tilings, for boards past the regenerate budget --------------
#
# Each block is the tilings that start with one placement of the first pieces (in the
# scanner's order: always at the first free cell) that covers the top ``rows`` rows. Once
# those rows are covered, every piece with its corner there is placed, so the corners in
# the top rows are the same for every tiling of a group (its key holds every corner):
# blocks with different top corners share no group, and a chunk of whole "top corner"
# classes can run the sub-cube test of ``survey`` on its own tilings and return counts.

@lru_cache(maxsize=2)  # every chunk of a size on a worker reads the same classes
def survey_blocks(h: int, w: int, rows: int) -> dict[tuple[int, ...], list[list[int]]]:
    """The placements that first cover the top ``rows`` rows (as option indices, one per
    piece), by the corners they put in those rows."""
    options = anchored(h, w)
    full = (1 << (h * w)) - 1
    top = (1 << (min(rows, h) * w)) - 1
    out: dict[tuple[int, ...], list[list[int]]] = {}
    placed: list[tuple] = []

    def rec(covered: int, prefix: list[int]) -> None:
        if covered & top == top:
            corners = tuple(sorted(q[1] for q in placed if q[1] < min(rows, h) * w))
            out.setdefault(corners, []).append(list(prefix))
            return
        free = ~covered & full
        cell = (free & -free).bit_length() - 1
        for i, p in enumerate(options[cell]):
            if not p[0] & covered:
                prefix.append(i)
                placed.append(p)
                rec(covered | p[0], prefix)
                placed.pop()
                prefix.pop()

    rec(0, [])
    return dict(sorted(out.items()))


def deal(classes: dict[tuple[int, ...], list[list[int]]], chunks: int
         ) -> list[list[list[int]]]:
    """The class keys dealt into at most ``chunks`` lists, largest class first to the
    lightest list (by block count): a deterministic, roughly even split."""
    bins: list[list[list[int]]] = [[] for _ in range(min(chunks, len(classes)))]
    load = [0] * len(bins)
    for key, blocks in sorted(classes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        light = min(range(len(bins)), key=lambda i: load[i])
        bins[light].append(list(key))
        load[light] += len(blocks)
    return bins


def block_tilings(h: int, w: int, prefix: list[int], options: Any = None) -> dict[str, Any]:
    """Every tiling that starts with ``prefix``: keys and arm ends, packed (uint8)."""
    options = options if options is not None else anchored(h, w)
    full = (1 << (h * w)) - 1
    kmax = h * w // 3
    keys: list[bytes] = []
    ends: list[bytes] = []
    placed: list[tuple] = []
    covered = 0
    for i in prefix:
        free = ~covered & full
        p = options[(free & -free).bit_length() - 1][i]
        placed.append(p)
        covered |= p[0]

    def emit() -> None:
        ps = sorted(placed, key=lambda q: q[1])
        key = bytearray(2 * kmax)
        arm = bytearray(2 * kmax)
        for j, q in enumerate(ps):
            key[2 * j] = q[1] + 1
            key[2 * j + 1] = q[0].bit_count()
            arm[2 * j] = q[2]
            arm[2 * j + 1] = q[3]
        keys.append(bytes(key))
        ends.append(bytes(arm))

    def rec(covered: int) -> None:
        if covered == full:
            emit()
            return
        free = ~covered & full
        for p in options[(free & -free).bit_length() - 1]:
            if not p[0] & covered:
                placed.append(p)
                rec(covered | p[0])
                placed.pop()

    rec(covered)
    return {"keys": b"".join(keys), "ends": b"".join(ends), "n": len(keys)}


def survey_packed(h: int, w: int, blocks: list[dict[str, Any]], numbers: bool
                  ) -> dict[str, Any]:
    """``survey``'s figures (no example board) from the packed tilings of every block."""
    kmax = h * w // 3
    n = sum(b["n"] for b in blocks)
    keys = np.frombuffer(b"".join(b["keys"] for b in blocks), dtype=np.uint8).reshape(n, kmax, 2)
    ends = np.frombuffer(b"".join(b["ends"] for b in blocks), dtype=np.uint8).reshape(n, kmax, 2)
    key = keys.copy()
    if not numbers:
        key[:, :, 1] = 0
    flat = np.ascontiguousarray(key.reshape(n, 2 * kmax)).view(f"V{2 * kmax}").ravel()
    order = np.argsort(flat, kind="stable")
    sorted_keys = flat[order]
    starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
    sizes = np.diff(np.r_[starts, n])
    pieces = (keys[:, :, 0] > 0).sum(axis=1)
    pairs = int((np.left_shift(1, pieces.astype(np.int64))).sum())
    single = order[starts[sizes == 1]]
    unique = int(np.left_shift(1, pieces[single].astype(np.int64)).sum())
    hopeless = 0
    for s, m in zip(starts[sizes > 1], sizes[sizes > 1], strict=True):
        members = order[s:s + m]
        k = int(pieces[members[0]])
        span = 1 << k
        idx = np.arange(span, dtype=np.int64)
        arms = [ends[t, :k].tolist() for t in members]
        for ti, et in enumerate(arms):
            hit = np.zeros(span, dtype=bool)
            for ui, eu in enumerate(arms):
                if ui == ti:
                    continue
                fix = val = 0
                for j in range(k):
                    q = eu[j]
                    a0, a1 = et[j][0] in q, et[j][1] in q
                    if not (a0 or a1):
                        break
                    if a0 != a1:
                        fix |= 1 << j
                        if a1:
                            val |= 1 << j
                else:
                    hit |= (idx & fix) == val
            bad = int(hit.sum())
            unique += span - bad
            hopeless += bad == span
    return {"size": f"{h}x{w}", "tilings": n, "pairs": pairs, "unique": unique,
            "share": unique / pairs if pairs else 0.0, "ambiguous": pairs - unique,
            "hopeless": hopeless, "groups": len(starts), "largest_group": int(sizes.max())}


# ---- the survey_beyond stage (on request) --------------------------------------------

def survey_beyond_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]
                         ) -> list[dict[str, Any]]:
    """Per size, the blocks of tilings (by their corners in the top rows) dealt into
    ``chunks`` chunks that share no group of the survey."""
    out = []
    for size in params["sizes"]:
        bins = deal(survey_blocks(*parse_size(size), params["rows"]), params["chunks"])
        out += [{"key": f"{size}/{i}", "size": size, "classes": b} for i, b in enumerate(bins)]
    return out


def survey_beyond_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any],
                      params: Mapping[str, Any], progress: Progress = no_progress
                      ) -> dict[str, Any]:
    """The survey's counts (numbers printed, and circles empty) over one chunk's tilings."""
    h, w = parse_size(chunk["size"])
    classes = survey_blocks(h, w, params["rows"])
    options = anchored(h, w)
    parts = [block_tilings(h, w, p, options) for key in chunk["classes"]
             for p in classes[tuple(key)]]
    return {"full": survey_packed(h, w, parts, True), "empty": survey_packed(h, w, parts, False)}


def survey_beyond_reduce(partials: list[Any], inputs: Mapping[str, Any],
                         params: Mapping[str, Any]) -> dict[str, Any]:
    chunks = survey_beyond_chunks(inputs, params)
    out: dict[str, Any] = {"order": list(params["sizes"]),
                           "method": "every L tiling enumerated in blocks that share no group; "
                                     "the sub-cube test of the stats survey in each"}
    for kind in ("full", "empty"):
        rows = {}
        for size in params["sizes"]:
            mine = [p[kind] for c, p in zip(chunks, partials, strict=True) if c["size"] == size]
            row: dict[str, Any] = {"size": size}
            for k in ("tilings", "pairs", "unique", "ambiguous", "hopeless", "groups"):
                row[k] = sum(m[k] for m in mine)
            row["largest_group"] = max(m["largest_group"] for m in mine)
            row["share"] = row["unique"] / row["pairs"] if row["pairs"] else 0.0
            rows[size] = row
        out[kind] = {"sizes": rows}
    return out
