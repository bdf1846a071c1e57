"""The stats stage: what the article prints about the bank and about minimal boards.

* ``bank``: per bank size, the clue density, the grades (the rung that finishes each
  board) and the difficulty levels.
* ``minimal``: boards drawn with every removal tried (``keep`` 0), per size: how many of
  the cells keep a clue, which digits the full clue grid had and which survive the
  removals (the share of each digit among the clues, before and after, and the part of
  each digit's clues that stays), the grades, and the work of a graded solve (probe
  trials) and of an ungraded one (SAT calls), counted, not timed, so that the figures
  are the same on every run.

Every sampled figure carries its 95% interval (``solvers.margins``) in a ``ci`` beside
it: the share of boards a rung finishes (Wilson over boards), the mean clue density
(bootstrap over boards), and the digits' shares and survivals, which are ratios of sums
over boards (the clues of one board are not independent draws), so their intervals come
from resampling whole boards. ``samples`` maps each sampled key (``*`` any one key) to
the key of its interval, for ``build-site check`` and the test kit.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.grid import parse_size, size_key
from solvers.margins import differs, mean_ci, methods, rate, ratio_ci

from .generate import full_clues, generate
from .ladder import RUNGS, solve

ALL_RUNGS = (*RUNGS, "search")
DIGITS = ("0", "1", "2", "3")


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    per = params["per_chunk"]
    return [{"key": f"{size}-{k // per}", "size": size, "count": min(per, n - k)}
            for size, n in params["sizes"].items() for k in range(0, n, per)]


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


def _r4(ci: dict[str, Any]) -> dict[str, Any]:
    """An interval's floats to four decimals, as the figures beside it are stored."""
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in ci.items()}


def _digit_cis(rs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per digit: its share of the full grids' clues, its share of the clues kept, and
    the part of its clues that survive, each a ratio of sums over the boards ``rs`` with
    a bootstrap interval over whole boards."""
    out: dict[str, Any] = {"full_share": {}, "kept_share": {}, "survival": {}}
    for d, name in enumerate(DIGITS):
        full = [r["full"][d] for r in rs]
        kept = [r["kept"][d] for r in rs]
        out["full_share"][name] = _r4(ratio_ci(full, [sum(r["full"]) for r in rs]))
        out["kept_share"][name] = _r4(ratio_ci(kept, [sum(r["kept"]) for r in rs]))
        out["survival"][name] = _r4(ratio_ci(kept, full)) if sum(full) else None
    return out


def _survival_ratio_ci(rs: list[dict[str, Any]], best: int, worst: int) -> dict[str, Any]:
    """The survival of digit ``best`` over that of ``worst`` with a bootstrap interval
    over whole boards (seeded by the sample, like ``solvers.margins``)."""
    import hashlib

    from solvers.margins import RESAMPLES
    n = len(rs)
    text = ",".join(f"{r['full']}{r['kept']}" for r in rs)
    rng = random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))

    def ratio(idx: list[int]) -> float:
        kb = sum(rs[i]["kept"][best] for i in idx)
        fb = sum(rs[i]["full"][best] for i in idx)
        kw = sum(rs[i]["kept"][worst] for i in idx)
        fw = sum(rs[i]["full"][worst] for i in idx)
        return (kb / fb) / (kw / fw) if fb and fw and kw else 0.0
    got = sorted(ratio([rng.randrange(n) for _ in range(n)]) for _ in range(RESAMPLES))
    lo = got[int(0.025 * RESAMPLES)]
    hi = got[min(RESAMPLES - 1, -(-975 * RESAMPLES // 1000) - 1)]
    return {"n": n, "ratio": round(ratio(list(range(n))), 4), "lo": round(lo, 4),
            "hi": round(hi, 4)}


# sampled key -> the key of its interval (``*``: any one key, the same on both sides);
# in the JSON as a list of {"value", "interval"} (keys must not hold dots)
SAMPLES = {
    "minimal.*.density": "minimal.*.ci.density",
    "minimal.*.full_share.*": "minimal.*.ci.full_share.*",
    "minimal.*.kept_share.*": "minimal.*.ci.kept_share.*",
    "minimal.*.survival.*": "minimal.*.ci.survival.*",
    "minimal.*.grade_share.*": "minimal.*.ci.grade_share.*",
    "overall.full_share.*": "overall.ci.full_share.*",
    "overall.kept_share.*": "overall.ci.kept_share.*",
    "overall.survival.*": "overall.ci.survival.*",
    "overall.ratio": "overall.ci.ratio",
    "trend.density_first": "trend.ci.density_first",
    "trend.density_last": "trend.ci.density_last",
    "trend.search_first": "trend.ci.search_first",
    "trend.search_last": "trend.ci.search_last",
    "reference.full_share.*": "reference.ci.full_share.*",
}


def reference(params: Mapping[str, Any]) -> dict[str, Any]:
    """The generator's answers alone (every clue kept: ``keep`` 1 tries no removal) at the
    size whose every loop the ledger lists, so that the digits' shares in the loops the
    generator draws can be set beside their exact shares when every loop counts once."""
    ref = params["reference"]
    h, w = parse_size(ref["size"])
    rng = random.Random(chunk_seed(params["seed"], f"reference-{ref['size']}"))
    rows = []
    for _ in range(ref["boards"]):
        _, answer = generate(h, w, rng, keep=1.0)
        full = full_clues(answer)
        rows.append({"full": [full.count(d) for d in range(4)], "kept": [0, 0, 0, 0]})
    full = [sum(r["full"][d] for r in rows) for d in range(4)]
    return {"size": ref["size"], "boards": len(rows), "full_share": _shares(full),
            "ci": {"full_share": _digit_cis(rows)["full_share"]}}


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
            "ci": {"density": _r4(mean_ci(dens)), **_digit_cis(rs),
                   "grade_share": {g: _r4(rate(n, len(rs))) for g, n in grades.items()}},
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
    ci = _digit_cis(rows)
    ci["ratio"] = _survival_ratio_ci(rows, DIGITS.index(best), DIGITS.index(worst))
    overall["ci"] = ci
    # the facts the prose states, decided by the intervals: the best kept digit is kept
    # more often than every other (intervals apart), and the worst less often
    overall["best_apart"] = all(differs(ci["survival"][best], ci["survival"][d])
                                for d in survival if d != best)
    overall["worst_apart"] = all(differs(ci["survival"][worst], ci["survival"][d])
                                 for d in survival if d != worst)
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
    trend["ci"] = {"density_first": minimal[first]["ci"]["density"],
                   "density_last": minimal[last]["ci"]["density"],
                   "search_first": minimal[first]["ci"]["grade_share"]["search"],
                   "search_last": minimal[last]["ci"]["grade_share"]["search"]}
    # from each size to the next, the share needing search rises with intervals apart
    steps = list(itertools.pairwise(sizes))
    trend["search_rises_apart"] = [
        f"{a}-{b}" for a, b in steps
        if minimal[b]["ci"]["grade_share"]["search"]["lo"]
        > minimal[a]["ci"]["grade_share"]["search"]["hi"]]
    trend["density_falls_apart"] = [
        f"{a}-{b}" for a, b in steps
        if minimal[b]["ci"]["density"]["hi"] < minimal[a]["ci"]["density"]["lo"]]
    out = {"minimal": minimal, "overall": overall, "bank": bank, "trend": trend,
           "margins": methods(),
           "samples": [{"value": k, "interval": v} for k, v in SAMPLES.items()]}
    if "reference" in params:
        out["reference"] = reference(params)
    return out
