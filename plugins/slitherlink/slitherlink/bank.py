"""The bank stage: the boards, each with its grade, hint trace, effort and difficulty,
and the article's example board.

A board is drawn from a seed of its own (the stage seed and its id), generated with the
``keep`` of its turn, graded by the ladder and traced by the hints. Its effort is
counted from the trace and its difficulty is the first level whose bounds that effort
meets (``solvers.effort``). The example board comes from the stage's ``example_seed``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.effort import difficulty, fresh_board, hardest, rung_counts
from solvers.grid import parse_size, smallest_size

from .board import Answer, Board
from .codec import encode
from .generate import generate
from .hints import trace
from .ladder import RUNGS, solve
from .stages import DIFFICULTY_PARAMS

LEVELS = ("easy", "medium", "hard", "expert")
ALL_RUNGS = (*RUNGS, "search")


def measure(thresholds: Mapping[str, Mapping[str, int]]) -> dict[str, str]:
    """How the levels are read, in words printed from the thresholds the bank used (each
    level's bounds; the last level takes the rest), so the text cannot drift from them."""
    bounds = [(level, thresholds[level]) for level in LEVELS if level in thresholds]
    en = ", ".join(f"{level} at most {b['probe']} trial{'s' if b['probe'] != 1 else ''}"
                   f"{' and no search' if not b['search'] else ''}" for level, b in bounds)
    ja_names = {"easy": "初級", "medium": "中級", "hard": "上級", "expert": "最上級"}
    ja = "、".join(f"{ja_names[level]}は仮置き {b['probe']} 回まで"
                  f"{'で探索なし' if not b['search'] else ''}" for level, b in bounds)
    last_en, last_ja = LEVELS[-1], ja_names[LEVELS[-1]]
    return {
        "en": ("From the hint trace: how many steps need a trial (a probe: draw an edge one "
               f"way, reach a contradiction) and how many need the search: {en}; "
               f"{last_en} boards need more, or the search."),
        "ja": ("ヒントの手順から測ります。仮置き（辺を片方に決めて矛盾を導く手）と探索の手数で、"
               f"{ja}、{last_ja}はそれより多いか探索が要ります。"),
    }


def bank_entry(board: Board, answer: Answer, ident: str) -> dict[str, Any]:
    res = solve(board, limit=2)
    return {"id": ident, "size": f"{board.h}x{board.w}", "h": board.h, "w": board.w,
            "grade": res.rung, "clues": board.clue_count(), "url": encode(board),
            "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


def bank_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    keep = params["keep"]
    return [{"key": f"{size}-{k + 1:02d}", "size": size, "keep": keep[k % len(keep)]}
            for size in params["sizes"] for k in range(params["count"])]


def bank_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> dict[str, Any]:
    h, w = parse_size(chunk["size"])
    rng = random.Random(chunk_seed(params["seed"], chunk["key"]))
    board, answer = generate(h, w, rng, keep=chunk["keep"])
    return bank_entry(board, answer, chunk["key"])


def bank_reduce(partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
    return finish({"boards": list(partials)}, params)


def effort(steps: list[dict[str, Any]]) -> dict[str, Any]:
    per = rung_counts(steps, ALL_RUNGS)
    return {"steps": len(steps), "rungs": per, "hardest": hardest(steps, ALL_RUNGS),
            "probe": per["probe"], "search": per["search"]}


def finish(data: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    spec = params.get("difficulty", DIFFICULTY_PARAMS)
    counts = dict.fromkeys(LEVELS, 0)
    for e in data["boards"]:
        e["effort"] = effort(e["trace"])
        e["difficulty"] = difficulty(e["effort"], spec["thresholds"], LEVELS, ALL_RUNGS)
        counts[e["difficulty"]] += 1
    data["difficulty"] = {"levels": list(LEVELS), "thresholds": spec["thresholds"],
                          "measure": measure(spec["thresholds"]), "counts": counts}
    if params.get("example_seed") is not None:
        data["example"] = example(data["boards"], params)
    return data


def example(boards: list[dict[str, Any]], params: Mapping[str, Any]) -> dict[str, Any]:
    """A board of the smallest bank size from its own seed, unlike every bank board."""
    h, w = parse_size(smallest_size(params["sizes"]))
    rng = random.Random(params["example_seed"])
    board, answer = fresh_board(lambda: generate(h, w, rng, keep=0.2),
                                lambda b: json_key(b.to_json()),
                                {json_key(e["board"]) for e in boards})
    return {"board": board.to_json(), "answer": answer.to_json(), "url": encode(board),
            "grade": solve(board).rung, "clues": board.clue_count(),
            "trace": trace(board, answer)[:params.get("example_steps", 6)]}


def json_key(board_json: Mapping[str, Any]) -> str:
    return json.dumps(board_json, sort_keys=True)
