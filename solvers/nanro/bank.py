"""The bank stage: boards per size and grade, each proved unique before it ships, then
the finishing: each board's effort and difficulty from its hint trace, the thresholds,
and the article's example board."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.effort import difficulty, fresh_board, hardest, rung_counts
from solvers.grid import parse_size, smallest_size

from .board import Answer, Board
from .brute import brute
from .codec import encode
from .generate import generate, grade, make_answer, reveal
from .hints import trace
from .ladder import LEVEL, RUNGS
from .studies import LADDER, count_answers

LEVELS = ("easy", "medium", "hard", "expert")
MEASURE = {
    "en": ("the hardest kind of step the hints need (the rungs in order: counting, no 2×2, "
           "border clash, one group, probe, search), then how many probe and search steps"),
    "ja": ("ヒントに必要な最も難しい手の種類（数える、2×2禁止、境界の衝突、ひとつながり、"
           "仮置き、探索の順）と、仮置きと探索の手の数"),
}


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
    h, w = parse_size(size)
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
    """The whole bank stage in this process (the pipeline runs it chunk by chunk)."""
    chunks = bank_chunks(inputs, params)
    return bank_reduce([bank_map(c, inputs, params) for c in chunks], inputs, params)


def bank_entry(board: Board, answer: Answer, ident: str, grade_name: str) -> dict[str, Any]:
    return {"id": ident, "size": f"{board.h}x{board.w}", "h": board.h, "w": board.w,
            "grade": grade_name, "clues": board.clue_count(), "url": encode(board),
            "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


def effort(steps: list[Mapping[str, Any]]) -> dict[str, Any]:
    """A hint trace's effort: its hardest rung, its steps, its probe and search steps."""
    per = rung_counts(steps, RUNGS)
    return {"rung": hardest(steps, RUNGS), "steps": len(steps), "probes": per["probe"],
            "search": per["search"]}


def example(params: Mapping[str, Any], boards: list[Mapping[str, Any]]) -> dict[str, Any]:
    """A board of the smallest bank size from its own seed, equal to no bank board."""
    h, w = parse_size(smallest_size(params["sizes"]))
    rng = random.Random(params["example_seed"])
    target = params.get("example_target", "reach")
    b, ans = fresh_board(lambda: generate(h, w, rng, target=target),
                         lambda board: repr(board.to_json()),
                         {repr(e["board"]) for e in boards})
    return {"board": b.to_json(), "answer": ans.to_json(), "url": encode(b),
            "trace": trace(b, ans, limit=params.get("example_steps", 3))}


def finish_bank(data: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """Difficulty per board (with its measured effort), the thresholds, the example."""
    th = params["difficulty"]
    for e in data["boards"]:
        e["effort"] = effort(e["trace"])
        e["difficulty"] = difficulty(e["effort"], th, LEVELS, RUNGS)
    data["difficulty"] = {"levels": list(LEVELS), "thresholds": dict(th), "measure": MEASURE}
    data["example"] = example(params, data["boards"])
    return data


__all__ = ["LEVELS", "MEASURE", "bank", "bank_chunks", "bank_entry", "bank_map",
           "bank_reduce", "effort", "example", "finish_bank"]
