"""The ledger stage: exact facts about the empty board and about every printable clue set.

Nothing here is random. Counts come from the row transfer (``frontier.count_answers``);
surveys of clue sets enumerate the answers of a small board once and group them by their
values at the chosen positions, instead of solving each clue set.
"""

from __future__ import annotations

import statistics
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from solvers.common import Progress, no_progress
from solvers.grid import parse_size

from .celltransfer import count_answers_by_cells
from .frontier import count_answers, enumerate_answers

# the blank-board table: rows h = 1..7, columns n = 1..max
CENSUS = {"3x4": 4, "3x5": 4, "4x4": 4, "4x5": 3, "5x5": 3}
TRUE_SETS = ("3x4", "3x5", "4x4")
DENSEST = ("2x4", "2x5", "3x4", "3x5", "4x4", "4x5", "5x5")
# past the spec's table: blank boards counted by both transfers


class LedgerError(AssertionError):
    """Two counts of the same thing disagree: the ledger must not be written."""


def beyond_one(size: str) -> dict[str, Any]:
    """One blank board past the spec, counted by the row transfer and by the cell
    transfer (which share no code); a disagreement stops the ledger."""
    h, w = parse_size(size)
    rows = count_answers(h, w)
    cells = count_answers_by_cells(max(h, w), min(h, w))
    if rows != cells:
        raise LedgerError(f"blank {size}: the row transfer counts {rows}, "
                          f"the cell transfer {cells}")
    return {"count": rows, "cells": h * w}


def beyond(sizes: tuple[str, ...] | list[str], progress: Progress = no_progress,
           done: int = 0, total: int = 0) -> dict[str, Any]:
    """Blank boards past the spec, each counted twice (see ``beyond_one``)."""
    out: dict[str, Any] = {}
    for size in sizes:
        out[size] = beyond_one(size)
        done += 1
        progress(done, total, f"beyond {size}")
    return {"sizes": out, "methods": ["rows", "cells"]}


def _share(a: int, b: int) -> float:
    return a / b if b else 0.0


def _full_grid_ok(h: int, w: int) -> bool:
    """Is the fully numbered h×w grid an answer?"""
    deg = [[(r > 0) + (r + 1 < h) + (c > 0) + (c + 1 < w) for c in range(w)] for r in range(h)]
    for r in range(h):
        for c in range(w):
            if deg[r][c] == 0:
                return False
            if c + 1 < w and deg[r][c] == deg[r][c + 1]:
                return False
            if r + 1 < h and deg[r][c] == deg[r + 1][c]:
                return False
    return True


def census_board(vals: np.ndarray, n: int, kmax: int) -> dict[str, Any]:
    """For k = 1..kmax clues: how many printable clue sets have no / several / one answer."""
    out = {}
    for k in range(1, kmax + 1):
        pow5 = 5 ** np.arange(k)
        # signatures whose k digits are all 1-4 (a printed clue is a number)
        valid = np.array([sum(d * 5 ** j for j, d in enumerate(ds))
                          for ds in np.ndindex(*(5,) * k) if all(ds)], dtype=np.int64)
        none = several = one = sets = 0
        for pos in combinations(range(n), k):
            sig = vals[:, pos].astype(np.int64) @ pow5
            cnt = np.bincount(sig, minlength=5 ** k)[valid]
            sets += len(valid)
            none += int((cnt == 0).sum())
            one += int((cnt == 1).sum())
            several += int((cnt >= 2).sum())
        out[str(k)] = {"clues": k, "sets": sets, "none": none, "several": several,
                       "unique": one, "none_share": _share(none, sets),
                       "several_share": _share(several, sets),
                       "unique_share": _share(one, sets)}
    return out


def true_sets(vals: np.ndarray) -> dict[str, Any]:
    """Subsets of each answer's own numbers: which make that answer the only one."""
    n_ans = len(vals)
    walked = 0
    mins = []
    for a in range(n_ans):
        cells = np.flatnonzero(vals[a])
        m = len(cells)
        eq = vals[:, cells] == vals[a, cells]
        masks = eq.astype(np.int64) @ (1 << np.arange(m, dtype=np.int64))
        masks = np.delete(masks, a)
        bad = np.zeros(1 << m, dtype=bool)
        bad[masks] = True
        for j in range(m):                  # close downwards: subsets of a bad set are bad
            v = bad.reshape(-1, 2, 1 << j)
            v[:, 0, :] |= v[:, 1, :]
        walked += (1 << m) - 1          # every non-empty subset
        size = np.array([(s).bit_count() for s in range(1 << m)])
        mins.append(int(size[~bad].min()))
    return {"answers": n_ans, "walked": walked, "fewest": min(mins),
            "median": statistics.median(mins), "worst": max(mins),
            "mean": sum(mins) / n_ans}


def digit_shares(vals: np.ndarray) -> dict[str, Any]:
    counts = np.bincount(vals.ravel(), minlength=5)[1:]
    total = int(counts.sum())
    return {"numbers": total,
            **{str(d): float(counts[d - 1] / total) for d in range(1, 5)}}


def ledger_chunks(inputs: Any, params: Any) -> list[dict[str, Any]]:
    """One chunk per row of the blank table, one per blank board past the spec (the
    largest are minutes each), one per small board of the clue-set census and of the
    true-set walk, and one for the densest answers."""
    cols = {int(k): v for k, v in params["ledger_cols"].items()}
    out: list[dict[str, Any]] = [{"key": f"blank/{h}", "h": h, "w": cols[h]}
                                 for h in sorted(cols)]
    out += [{"key": f"beyond/{size}", "size": size} for size in params.get("beyond", [])]
    out += [{"key": f"census/{size}", "size": size, "kmax": kmax}
            for size, kmax in params.get("census", CENSUS).items()]
    out += [{"key": f"true_sets/{size}", "size": size}
            for size in params.get("true_sets", TRUE_SETS)]
    out += [{"key": "densest"}, {"key": "digits", "size": params.get("digits", "5x5")}]
    return out


def ledger_map(chunk: Any, inputs: Any, params: Any, progress: Progress = no_progress) -> Any:
    kind = chunk["key"].split("/")[0]
    if kind == "blank":
        return [count_answers(chunk["h"], w) for w in range(1, chunk["w"] + 1)]
    if kind == "beyond":
        return beyond_one(chunk["size"])
    if kind == "census":
        h, w = parse_size(chunk["size"])
        return census_board(enumerate_answers(h, w), h * w, chunk["kmax"])
    if kind == "true_sets":
        return true_sets(enumerate_answers(*parse_size(chunk["size"])))
    if kind == "digits":
        e = enumerate_answers(*parse_size(chunk["size"]))
        return {"answers": len(e), **digit_shares(e)}
    densest = {}
    for size in params.get("densest", DENSEST):
        h, w = parse_size(size)
        most = int((enumerate_answers(h, w) > 0).sum(axis=1).max())
        densest[size] = {"cells": h * w, "most": most, "share": most / (h * w)}
    dens_shares = [d["share"] for d in densest.values()]
    return {"sizes": densest, "low": min(dens_shares), "high": max(dens_shares)}


def surveys(got: dict[str, Any], params: Any) -> dict[str, Any]:
    """The census of printable clue sets and true clue sets, from their chunks."""
    census: dict[str, Any] = {}
    tot = {"sets": 0, "none": 0, "several": 0, "unique": 0}
    one_clue = {"sets": 0, "unique": 0}
    by_k: dict[str, dict[str, int]] = {}
    sizes = params.get("census", CENSUS)
    for size in sizes:
        census[size] = got[f"census/{size}"]
        for k, row in census[size].items():
            for key in tot:
                tot[key] += row[key]
            agg = by_k.setdefault(k, {"sets": 0, "none": 0, "several": 0, "unique": 0})
            for key in agg:
                agg[key] += row[key]
            if k == "1":
                one_clue["sets"] += row["sets"]
                one_clue["unique"] += row["unique"]
    for agg in by_k.values():
        for key in ("none", "several", "unique"):
            # the shares are floats; by_k's annotation names the int counts only
            agg[f"{key}_share"] = _share(agg[key], agg["sets"])  # type: ignore[assignment]
    census_total = dict(tot)  # type: dict[str, float]
    for key in ("none", "several", "unique"):
        census_total[f"{key}_share"] = _share(tot[key], tot["sets"])
    return {
        "densest": got["densest"],
        "census": {"boards": census, "total": census_total, "one_clue": one_clue,
                   "by_clues": by_k, "positions_max": max(sizes.values())},
        "true_sets": {size: got[f"true_sets/{size}"]
                      for size in params.get("true_sets", TRUE_SETS)},
        "empty5x5_digits": got["digits"],
    }


def ledger_reduce(partials: list[Any], inputs: Any, params: Any) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(ledger_chunks(inputs, params), partials, strict=True)}
    cols = {int(k): v for k, v in params["ledger_cols"].items()}
    rows = []
    blank: dict[str, int] = {}
    for h in sorted(cols):
        counts = got[f"blank/{h}"]
        for w, c in enumerate(counts, start=1):
            blank[f"{h}x{w}"] = c
        rows.append({"h": h, "label": f"{h}×n", "counts": counts})
    one_row = rows[0]["counts"]
    law = all(c == max(0, n - 2) for n, c in enumerate(one_row, start=1))

    # the cubic through 2x2..2x5, tried on 2x6 and 2x7
    xs = [2, 3, 4, 5]
    ys = [blank[f"2x{x}"] for x in xs]

    def lagrange(x: int) -> Fraction:
        tot = Fraction(0)
        for i, xi in enumerate(xs):
            term = Fraction(ys[i])
            for j, xj in enumerate(xs):
                if j != i:
                    term *= Fraction(x - xj, xi - xj)
            tot += term
        return tot

    cubic = {}
    for x in (6, 7):
        p = lagrange(x)
        cubic[str(x)] = {"n": x, "predicted": int(p) if p.denominator == 1 else float(p),
                         "true": blank[f"2x{x}"], "hit": p == blank[f"2x{x}"]}

    fillable = [f"{h}x{w}" for h in range(1, 9) for w in range(h, 13) if _full_grid_ok(h, w)]
    sv = surveys(got, params)
    past = {"sizes": {size: got[f"beyond/{size}"] for size in params.get("beyond", [])},
            "methods": ["rows", "cells"]}
    return {
        "beyond": past,
        "blank": {"rows": rows, "sizes": blank,
                  "max_cols": max(cols.values()),
                  "cols": [str(n) for n in range(1, max(cols.values()) + 1)]},
        "one_row": {"law_holds": law, "upto": cols[1], "example_n": 10,
                    "example": blank[f"1x{cols[1]}"], "only_clueless_unique": "1x3"},
        "cubic": {"through": "2x2-2x5", "tries": cubic,
                  "hits_6": cubic["6"]["hit"], "misses_7": not cubic["7"]["hit"]},
        "densest": sv["densest"],
        "fillable": {"upto": "8x12", "sizes": fillable, "count": len(fillable)},
        "census": sv["census"],
        "true_sets": sv["true_sets"],
        "empty5x5_digits": sv["empty5x5_digits"],
    }


def ledger(inputs: Any, params: Any, progress: Progress = no_progress) -> dict[str, Any]:
    """The whole ledger in this process (the pipeline runs it chunk by chunk)."""
    chunks = ledger_chunks(inputs, params)
    return ledger_reduce([ledger_map(c, inputs, params) for c in chunks], inputs, params)
