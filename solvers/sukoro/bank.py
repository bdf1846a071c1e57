"""The bank stage: the boards, each with its grade, hint trace, effort and difficulty,
and the article's example board.

A board is drawn from a seed of its own (the stage seed and its id), generated, graded by
the ladder and traced by the hints. Its effort is counted from the trace and its
difficulty is the first level whose bounds that effort meets (``solvers.effort``). The
example board comes from the stage's ``example_seed`` and is none of the bank's boards.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.effort import difficulty, fresh_board, rung_counts
from solvers.grid import parse_size, smallest_size

from .board import Answer, Board
from .codec import encode
from .generate import generate
from .hints import trace
from .ladder import RUNGS, solve
from .stages import DIFFICULTY_PARAMS

LEVELS = ("easy", "medium", "hard", "expert")
MEASURE = {
    "en": ("From the hint trace: how many steps need a trial (a probe: try a state, reach a "
           "contradiction), how many of those first rule out digits by further trials "
           "(deep), and how many need the search. A level allows at most its bound of each; "
           "a board takes the first level whose bounds it meets."),
    "ja": ("ヒントの手順から測ります。仮置き（状態を仮定して矛盾を導く手）の数、そのうち先に"
           "ほかのマスの数字を試して消す必要がある手の数、探索の手数を数えます。各段階にはそれぞれ"
           "の上限があり、盤は上限をすべて満たす最初の段階になります。"),
}


def bank_entry(board: Board, answer: Answer, ident: str) -> dict[str, Any]:
    res = solve(board, limit=2)
    return {"id": ident, "size": f"{board.h}x{board.w}", "h": board.h, "w": board.w,
            "grade": res.rung, "clues": board.clue_count(), "url": encode(board),
            "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


def bank_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per board, seeded by (seed, board id)."""
    return [{"key": f"{size}-{k + 1:02d}", "size": size}
            for size in params["sizes"] for k in range(params["count"])]


def bank_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> dict[str, Any]:
    h, w = parse_size(chunk["size"])
    board, answer = generate(h, w, random.Random(chunk_seed(params["seed"], chunk["key"])))
    return bank_entry(board, answer, chunk["key"])


def bank_reduce(partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
    return finish({"boards": list(partials)}, params)


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    chunks = bank_chunks(inputs, params)
    return bank_reduce([bank_map(c, inputs, params) for c in chunks], inputs, params)


# -- the bank's last touch: effort, difficulty, the example ----------------------------

def effort(steps: list[dict[str, Any]]) -> dict[str, int]:
    per = rung_counts(steps, RUNGS)
    return {"steps": len(steps), "probe": per["probe"],
            "deep": sum(1 for s in steps if s.get("trials")),
            "search": per["search"],
            "cells_max": max((len(s["cells"]) for s in steps), default=0)}


def finish(data: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """The bank's last touch: each board's effort and difficulty (thresholds from the
    params, echoed in the data) and, given an ``example_seed``, the article's example."""
    spec = params.get("difficulty", DIFFICULTY_PARAMS)
    for e in data["boards"]:
        e["effort"] = effort(e["trace"])
        e["difficulty"] = difficulty(e["effort"], spec["thresholds"], LEVELS)
    data["difficulty"] = {"levels": list(LEVELS), "thresholds": spec["thresholds"],
                          "measure": dict(MEASURE)}
    if params.get("example_seed") is not None:
        data["example"] = example(data["boards"], params)
    return data


def example(boards: list[dict[str, Any]], params: Mapping[str, Any],
            steps: int = 4) -> dict[str, Any]:
    """A board of the smallest bank size from its own seed, unlike every bank board."""
    h, w = parse_size(smallest_size(params["sizes"]))
    rng = random.Random(params["example_seed"])
    board, answer = fresh_board(lambda: generate(h, w, rng), lambda b: json_key(b.to_json()),
                                {json_key(e["board"]) for e in boards})
    return {"board": board.to_json(), "answer": answer.to_json(), "url": encode(board),
            "trace": trace(board, answer)[:steps]}


def json_key(board_json: Mapping[str, Any]) -> str:
    return json.dumps(board_json, sort_keys=True)
