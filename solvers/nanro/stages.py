"""The pipeline stages: bank (75 graded boards), stats (every study), ledger (exact
counts of small empty region maps)."""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress

from .board import Answer, Board
from .brute import brute
from .exact import ledger_data
from .generate import bank_entry, grade, make_answer, reveal
from .hints import finish_bank
from .ladder import LEVEL, RUNGS, solve
from .studies import (
    LADDER,
    ablation,
    budget,
    count_answers,
    dial,
    halves,
    hw,
    increments,
    section_a,
)

BANK_PARAMS: dict[str, Any] = {
    "seed": 1010, "sizes": ["6x6", "8x8", "10x10"], "per_grade": 5, "prove_cap": 200000,
    "brute_cap": 100000,
    # difficulty: the first level whose limits a board's hint trace meets (else expert)
    "difficulty": {"easy": {"rung": "block", "probes": 0, "search": 0},
                   "medium": {"rung": "reach", "probes": 0, "search": 0},
                   "hard": {"rung": "probe", "probes": 10, "search": 0}},
    "example_seed": 2026, "example_target": "reach", "example_steps": 3,
}
STATS_PARAMS: dict[str, Any] = {
    "seed": 10010,
    "cap": 100000,
    "halves": {"sizes": {"5x5": 200, "6x6": 200, "8x8": 300, "10x10": 300},
               "qs": [1.0, 0.8]},
    "budget": {"sizes": ["6x6", "8x8", "10x10"], "boards": 30},
    "increments": [{"size": "6x6", "q": 0.8, "boards": 250},
                   {"size": "6x6", "q": 0.9, "boards": 250},
                   {"size": "8x8", "q": 0.9, "boards": 200},
                   {"size": "10x10", "q": 0.9, "boards": 150}],
    "ablation": [{"size": "6x6", "q": 0.9, "boards": 200},
                 {"size": "8x8", "q": 0.95, "boards": 150},
                 {"size": "10x10", "q": 0.95, "boards": 100}],
    "dial": {"size": "8x8", "q": 0.9, "boards": 120,
             "ranges": [[1, 1], [1, 2], [2, 2], [2, 3], [2, 4], [3, 5], [4, 7]]},
    "section_a": {"sizes": ["5x5", "6x6", "8x8", "10x10"], "qs": [0.7, 0.8, 0.9],
                  "boards": 200, "brute_cap": 50000, "brute_cells": 36,
                  "exception_cap": 3000000},
    "example": {"size": "6x6", "level": "reach"},
    "workers": 2,
}
LEDGER_PARAMS: dict[str, Any] = {"grids": [[2, 2], [2, 3], [2, 4], [3, 3]]}


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    """Per size, boards of every grade count … probe: a fresh partition and answer for
    each attempt, clues revealed for a target grade and minimised; the board's grade is
    the weakest rung that completes it. Each is proved unique before it ships."""
    rng = random.Random(params["seed"])
    per = params["per_grade"]
    boards = []
    total = len(params["sizes"]) * per * len(LADDER)
    for size in params["sizes"]:
        h, w = hw(size)
        have: dict[str, list[dict[str, Any]]] = {lv: [] for lv in LADDER}
        while any(len(v) < per for v in have.values()):
            target = next(lv for lv in LADDER if len(have[lv]) < per)
            made = make_answer(h, w, rng)
            if made is None:
                continue
            empty, ans = made
            b = reveal(empty, ans, LEVEL[target], rng)
            if b is None:
                continue
            gr = grade(b)
            if gr not in have or len(have[gr]) >= per:
                continue
            c, _, capped = count_answers(b, params["prove_cap"])
            if capped or c != 1:
                raise ValueError(f"a {size} board made for {target} is not unique")
            br = brute(b, limit=2, cap=params["brute_cap"])
            entry = bank_entry(b, ans, "", gr)
            entry["brute"] = {"answers": len(br.solutions), "nodes": br.nodes,
                              "capped": bool(br.stats["capped"])}
            if not br.stats["capped"] and len(br.solutions) != 1:
                raise ValueError(f"the region product disagrees on a {size} board")
            have[gr].append(entry)
            progress(sum(len(v) for v in have.values()) + len(boards), total,
                     f"bank {size} {gr}")
        k = 0
        for lv in LADDER:
            for e in have[lv]:
                k += 1
                e["id"] = f"{size}-{k:02d}"
                boards.append(e)
    return finish_bank({"boards": boards}, params)


def _bank_summary(bank_data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for e in bank_data["boards"]:
        row = out.setdefault(e["size"], {"boards": 0, "clues": [], "grades": {},
                                         "brute_confirmed": 0, "nodes": []})
        row["boards"] += 1
        row["clues"].append(e["clues"])
        res = solve(Board.from_json(e["board"]), limit=2)
        row["nodes"].append(res.nodes)
        row["grades"][e["grade"]] = row["grades"].get(e["grade"], 0) + 1
        b = e.get("brute", {})
        row["brute_confirmed"] += (not b.get("capped", True)) and b.get("answers") == 1
    for row in out.values():
        cl = row.pop("clues")
        nodes = row.pop("nodes")
        row.update({"clues_min": min(cl), "clues_max": max(cl),
                    "clues_median": statistics.median(cl),
                    "search_nodes_median": statistics.median(nodes),
                    "search_nodes_max": max(nodes)})
        row["grades"] = {lv: row["grades"].get(lv, 0) for lv in LADDER}
    return out


def _example(params: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A board for the article's pictures, made apart from the bank."""
    h, w = hw(params["size"])
    while True:
        made = make_answer(h, w, rng)
        if made is None:
            continue
        empty, ans = made
        b = reveal(empty, ans, LEVEL[params["level"]], rng)
        if b is not None and grade(b) == params["level"]:
            return {"board": b.to_json(), "answer": ans.to_json(), "grade": params["level"],
                    "clues": b.clue_count(), "numbered": len(ans.cells),
                    "regions": b.region_count()}


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    rng = random.Random(params["seed"])
    cap = params["cap"]
    steps = 8
    done = 0

    def tick(note: str) -> None:
        nonlocal done
        done += 1
        progress(done, steps, note)

    seeds = [rng.random() for _ in range(7)]
    a, d = params["section_a"], params["dial"]
    jobs: dict[str, tuple[Any, ...]] = {
        "example": (_example, params["example"], random.Random(seeds[0])),
        "halves": (halves, params["halves"]["sizes"], params["halves"]["qs"], cap,
                   random.Random(seeds[1])),
        "budget": (budget, params["budget"]["sizes"], params["budget"]["boards"], cap,
                   random.Random(seeds[2])),
        "increments": (increments, params["increments"], cap, random.Random(seeds[3])),
        "ablation": (ablation, params["ablation"], random.Random(seeds[4])),
        "dial": (dial, d["size"], d["q"], d["ranges"], d["boards"], cap,
                 random.Random(seeds[5])),
        "law": (section_a, a["sizes"], a["qs"], a["boards"], cap, a["brute_cap"],
                a["brute_cells"], a["exception_cap"], random.Random(seeds[6])),
    }
    out: dict[str, Any] = {"rungs": list(RUNGS), "bank": _bank_summary(inputs["bank"])}
    # independent studies, each with its own seeded RNG: the same figures whether they
    # run one after another or side by side on the machine's cores
    workers = max(1, min(params.get("workers", 1), os.cpu_count() or 1))
    if workers == 1:
        for name, job in jobs.items():
            out[name] = _run(job)
            tick(name)
    else:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers) as pool:
            # the longest first, so the two cores finish together
            order = ["law", "halves", "budget", "increments", "ablation", "dial", "example"]
            pending = {name: pool.apply_async(_run, (jobs[name],)) for name in order}
            for name in order:
                out[name] = pending[name].get()
                tick(name)
    out["derived"] = _derived(out)
    tick("done")
    return out


def _quiet(note: str) -> None:
    """Progress inside a study run apart (its caller reports when it is done)."""


def _run(job: tuple[Any, ...]) -> Any:
    fn, *args = job
    if fn is _example:
        return fn(*args)
    return fn(*args, _quiet)


def _derived(out: dict[str, Any]) -> dict[str, Any]:
    """Figures the prose quotes that are computed from the others (so that templates
    only print)."""
    inc = {f"{r['size']}_q{round(r['q'] * 100)}": r for r in out["increments"]}
    d: dict[str, Any] = {"increments": {}}
    for key, r in inc.items():
        rates = r["rates"]
        d["increments"][key] = {lv: rates[lv] - (rates[LADDER[i - 1]] if i else 0.0)
                                for i, lv in enumerate(LADDER)}
    abl = out["ablation"]
    biggest = {size: max(row["drop"], key=lambda r: (row["drop"][r], r))
               for size, row in abl.items()}
    d["ablation_biggest_nonclue"] = {
        size: max((r for r in row["drop"] if r != "count"),
                  key=lambda r: (row["drop"][r], r)) for size, row in abl.items()}
    d["ablation_biggest"] = biggest
    law = out["law"]
    d["law_share"] = law["holds"] / max(1, law["boards"] - law["search_capped"])
    return d


def ledger(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    grids = params["grids"]
    progress(0, len(grids), "ledger")
    return {"grids": ledger_data(grids)}


__all__ = ["BANK_PARAMS", "LEDGER_PARAMS", "STATS_PARAMS", "Answer", "Board", "bank",
           "ledger", "stats"]
