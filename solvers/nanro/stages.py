"""The pipeline stages: bank (75 graded boards), stats (every study), ledger (exact
counts of small empty region maps)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress

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
    qkey,
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
    }
LEDGER_PARAMS: dict[str, Any] = {"grids": [[2, 2], [2, 3], [2, 4], [3, 3]]}


def bank_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per (size, grade): its boards drawn from a generator seeded by the key."""
    return [{"key": f"{size}/{lv}", "size": size, "grade": lv}
            for size in params["sizes"] for lv in LADDER]


def bank_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> list[dict[str, Any]]:
    """``per_grade`` boards of one size whose grade (the weakest rung that completes them)
    is the chunk's: a fresh partition and answer for each attempt, clues revealed for that
    grade and minimised. Each is proved unique before it ships."""
    size, target = chunk["size"], chunk["grade"]
    rng = random.Random(chunk_seed(params["seed"], chunk["key"]))
    h, w = hw(size)
    have: list[dict[str, Any]] = []
    while len(have) < params["per_grade"]:
        made = make_answer(h, w, rng)
        if made is None:
            continue
        empty, ans = made
        b = reveal(empty, ans, LEVEL[target], rng)
        if b is None or grade(b) != target:
            continue
        if sum(v is not None for v in b.flat()) == sum(map(bool, ans.flat())):
            continue                # every number printed: nothing left to write in
        c, _, capped = count_answers(b, params["prove_cap"])
        if capped or c != 1:
            raise ValueError(f"a {size} board made for {target} is not unique")
        br = brute(b, limit=2, cap=params["brute_cap"])
        entry = bank_entry(b, ans, "", target)
        entry["brute"] = {"answers": len(br.solutions), "nodes": br.nodes,
                          "capped": bool(br.stats["capped"])}
        if not br.stats["capped"] and len(br.solutions) != 1:
            raise ValueError(f"the region product disagrees on a {size} board")
        have.append(entry)
    return have


def bank_reduce(partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
    """Boards per size in ladder order, numbered from 1."""
    boards = []
    it = iter(partials)
    for size in params["sizes"]:
        k = 0
        for _lv in LADDER:
            for e in next(it):
                k += 1
                boards.append({**e, "id": f"{size}-{k:02d}"})
    return finish_bank({"boards": boards}, params)


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    chunks = bank_chunks(inputs, params)
    return bank_reduce([bank_map(c, inputs, params) for c in chunks], inputs, params)


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


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per study and size (or q, or row of the study's table), each seeded by
    chunk_seed(stage seed, key), so the figures do not depend on how the chunks run."""
    out: list[dict[str, Any]] = [{"key": "bank"}, {"key": "example"}]
    out += [{"key": f"halves/{qkey(q)}/{size}", "q": q, "size": size}
            for q in params["halves"]["qs"] for size in params["halves"]["sizes"]]
    out += [{"key": f"budget/{size}", "size": size} for size in params["budget"]["sizes"]]
    out += [{"key": f"increments/{i}", "i": i} for i in range(len(params["increments"]))]
    out += [{"key": f"ablation/{i}", "i": i} for i in range(len(params["ablation"]))]
    out += [{"key": f"dial/{i}", "i": i} for i in range(len(params["dial"]["ranges"]))]
    a = params["section_a"]
    out += [{"key": f"law/{size}/{qkey(q)}", "size": size, "q": q}
            for size in a["sizes"] for q in a["qs"]]
    return out


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> Any:
    key = chunk["key"]
    kind = key.split("/")[0]
    rng = random.Random(chunk_seed(params["seed"], key))
    cap = params["cap"]
    if kind == "bank":
        return _bank_summary(inputs["bank"])
    if kind == "example":
        return _example(params["example"], rng)
    if kind == "halves":
        size, q = chunk["size"], chunk["q"]
        got = halves({size: params["halves"]["sizes"][size]}, [q], cap, rng, _quiet)
        return got[qkey(q)]["sizes"][size]
    if kind == "budget":
        return budget([chunk["size"]], params["budget"]["boards"], cap, rng,
                      _quiet)[chunk["size"]]
    if kind == "increments":
        return increments([params["increments"][chunk["i"]]], cap, rng, _quiet)[0]
    if kind == "ablation":
        row = params["ablation"][chunk["i"]]
        return ablation([row], rng, _quiet)[row["size"]]
    if kind == "dial":
        d = params["dial"]
        return dial(d["size"], d["q"], [d["ranges"][chunk["i"]]], d["boards"], cap, rng,
                    _quiet)["rows"][0]
    if kind == "law":
        a = params["section_a"]
        return section_a([chunk["size"]], [chunk["q"]], a["boards"], cap, a["brute_cap"],
                         a["brute_cells"], a["exception_cap"], rng, _quiet)
    raise ValueError(f"unknown stats chunk {key!r}")


def _merge_law(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Section A from its (size, q) cells, in order: sums, exceptions and cells joined."""
    out: dict[str, Any] = {"boards": 0, "holds": 0, "exceptions": [], "exception_count": 0,
                           "probe_not_unique": 0, "search_capped": 0, "cells": {},
                           "agreement": {k: 0 for k in parts[0]["agreement"]}}
    for p in parts:
        for k in ("boards", "holds", "exception_count", "probe_not_unique", "search_capped"):
            out[k] += p[k]
        out["exceptions"] += p["exceptions"]
        out["cells"].update(p["cells"])
        for k, v in p["agreement"].items():
            out["agreement"][k] += v
    return out


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(stats_chunks(inputs, params), partials, strict=True)}
    h, a, d = params["halves"], params["section_a"], params["dial"]
    out: dict[str, Any] = {"rungs": list(RUNGS), "bank": got["bank"], "example": got["example"]}
    out["halves"] = {qkey(q): {"q": q, "sizes": {size: got[f"halves/{qkey(q)}/{size}"]
                                                 for size in h["sizes"]}} for q in h["qs"]}
    out["budget"] = {size: got[f"budget/{size}"] for size in params["budget"]["sizes"]}
    out["increments"] = [got[f"increments/{i}"] for i in range(len(params["increments"]))]
    out["ablation"] = {row["size"]: got[f"ablation/{i}"]
                       for i, row in enumerate(params["ablation"])}
    out["dial"] = {"size": d["size"], "q": d["q"],
                   "rows": [got[f"dial/{i}"] for i in range(len(d["ranges"]))]}
    out["law"] = _merge_law([got[f"law/{size}/{qkey(q)}"]
                             for size in a["sizes"] for q in a["qs"]])
    out["derived"] = _derived(out)
    return out


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    """The whole stats stage in this process (the pipeline runs it chunk by chunk)."""
    chunks = stats_chunks(inputs, params)
    return stats_reduce([stats_map(c, inputs, params) for c in chunks], inputs, params)


def _quiet(note: str) -> None:
    """Progress inside a study (the pipeline counts chunks instead)."""


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
