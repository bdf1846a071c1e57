"""The stats stage: what the article prints about the bank and about minimal boards.

* ``bank``: per bank size, the clue density, the grades (the rung that finishes each
  board) and the difficulty levels.
* ``minimal``: boards drawn with every removal tried (``keep`` 0), per size: how many of
  the cells keep a clue, which digits the full clue grid had and which survive the
  removals (the share of each digit among the clues, before and after, and the part of
  each digit's clues that stays), the grades, and the work of a graded solve (probe
  trials) and of an ungraded one (SAT calls), counted, not timed, so that the figures
  are the same on every run.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.grid import parse_size, size_key

from .generate import full_clues, generate
from .ladder import RUNGS, solve

ALL_RUNGS = (*RUNGS, "search")
DIGITS = ("0", "1", "2", "3")


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for size, n in params["sizes"].items():
        per = params["per_chunk"]
        for k in range(0, n, per):
            out.append({"key": f"{size}-{k // per}", "size": size, "count": min(per, n - k)})
    return out


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> list[dict[str, Any]]:
    h, w = parse_size(chunk["size"])
    rng = random.Random(chunk_seed(params["seed"], chunk["key"]))
    rows = []
    for _ in range(chunk["count"]):
        board, answer = generate(h, w, rng)
        full = full_clues(answer)
        kept = [v for v in board.flat() if v is not None]
        graded = solve(board, limit=2)
        quick = solve(board, limit=2, grade=False)
        rows.append({"size": chunk["size"], "cells": h * w, "clues": len(kept),
                     "full": [full.count(d) for d in range(4)],
                     "kept": [kept.count(d) for d in range(4)],
                     "grade": graded.rung, "trials": graded.nodes, "calls": quick.nodes})
    return rows


def _shares(counts: list[int]) -> dict[str, float]:
    total = sum(counts) or 1
    return {d: round(c / total, 4) for d, c in zip(DIGITS, counts, strict=True)}


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    rows = [r for p in partials for r in p]
    minimal: dict[str, Any] = {}
    for size in sorted({r["size"] for r in rows}, key=size_key):
        rs = [r for r in rows if r["size"] == size]
        full = [sum(r["full"][d] for r in rs) for d in range(4)]
        kept = [sum(r["kept"][d] for r in rs) for d in range(4)]
        grades = {g: sum(1 for r in rs if r["grade"] == g) for g in ALL_RUNGS}
        dens = [r["clues"] / r["cells"] for r in rs]
        minimal[size] = {
            "boards": len(rs), "cells": rs[0]["cells"],
            "density": round(statistics.mean(dens), 4),
            "density_min": round(min(dens), 4), "density_max": round(max(dens), 4),
            "full_share": _shares(full), "kept_share": _shares(kept),
            "survival": {d: round(k / f, 4) if f else None
                         for d, k, f in zip(DIGITS, kept, full, strict=True)},
            "grades": grades,
            "grade_share": {g: round(n / len(rs), 4) for g, n in grades.items()},
            "trials_median": statistics.median(r["trials"] for r in rs),
            "trials_max": max(r["trials"] for r in rs),
            "calls_median": statistics.median(r["calls"] for r in rs),
        }
    # the digit that survives best and worst overall
    full = [sum(r["full"][d] for r in rows) for d in range(4)]
    kept = [sum(r["kept"][d] for r in rows) for d in range(4)]
    survival = {d: round(k / f, 4) for d, k, f in zip(DIGITS, kept, full, strict=True) if f}
    best = max(survival, key=lambda d: survival[d])
    worst = min(survival, key=lambda d: survival[d])
    overall = {"boards": len(rows), "survival": survival, "best": best, "worst": worst,
               "ratio": round(survival[best] / survival[worst], 2) if survival[worst] else None,
               "full_share": _shares(full), "kept_share": _shares(kept)}
    bank: dict[str, Any] = {}
    boards = inputs["bank"]["boards"]
    levels = inputs["bank"]["difficulty"]["levels"]
    for size in sorted({b["size"] for b in boards}, key=size_key):
        bs = [b for b in boards if b["size"] == size]
        bank[size] = {
            "boards": len(bs),
            "density": round(statistics.mean(b["clues"] / (b["h"] * b["w"]) for b in bs), 4),
            "grades": {g: sum(1 for b in bs if b["grade"] == g) for g in ALL_RUNGS},
            "levels": {lv: sum(1 for b in bs if b["difficulty"] == lv) for lv in levels},
            "steps_median": statistics.median(b["effort"]["steps"] for b in bs),
        }
    sizes = list(minimal)
    first, last = sizes[0], sizes[-1]
    trend = {"first": first, "last": last,
             "density_first": minimal[first]["density"], "density_last": minimal[last]["density"],
             "search_first": minimal[first]["grade_share"]["search"],
             "search_last": minimal[last]["grade_share"]["search"]}
    return {"minimal": minimal, "overall": overall, "bank": bank, "trend": trend}
