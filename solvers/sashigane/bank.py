"""The bank stage: boards drawn per size, each confirmed by the second engine, graded by
the ladder, given its hint trace, its effort and difficulty; and the article's example
board, from a seed of its own."""

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
from .generate import generate
from .hints import RUNG_ORDER, trace
from .ladder import grade


def bank_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per board, seeded by (seed, board id)."""
    return [{"key": f"{size}-{k + 1:02d}", "size": size}
            for size, count in params["sizes"].items() for k in range(count)]


def bank_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> dict[str, Any]:
    h, w = parse_size(chunk["size"])
    rng = random.Random(chunk_seed(params["seed"], chunk["key"]))
    board, answer = generate(h, w, rng, params["convention"])
    check = brute(board, limit=2).solutions
    if len(check) != 1 or check[0] != answer:
        raise AssertionError(f"the scanner disagrees on bank board {chunk['key']}")
    return bank_entry(board, answer, chunk["key"])


def bank_reduce(partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
    return finish_bank({"boards": list(partials), "confirmed_by_scanner": len(partials)},
                       params)


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    """The whole bank stage in this process (what the pipeline does chunk by chunk)."""
    chunks = bank_chunks(inputs, params)
    return bank_reduce([bank_map(c, inputs, params) for c in chunks], inputs, params)


def bank_entry(board: Board, answer: Answer, ident: str) -> dict[str, Any]:
    pieces = len(answer.groups())
    return {"id": ident, "size": f"{board.h}x{board.w}", "h": board.h, "w": board.w,
            "grade": grade(board), "pieces": pieces, "numbers": board.numbers(),
            "clues": sum(1 for k in board.cells if k.kind),
            "url": encode(board), "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


def effort(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The measured numbers a board's difficulty is read from."""
    by = rung_counts(steps, RUNG_ORDER)
    return {"steps": len(steps), "rungs": by, "hardest": hardest(steps, RUNG_ORDER),
            "deep": by["common"] + by["number"],
            "width": max((s.get("options", 0) for s in steps), default=0),
            "probes": by["probe"],
            "searches": by["search"]}


def finish_bank(data: dict[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """Difficulty per board (thresholds from the bank params) and the article's example
    board from a separate seed; called once at the end of the bank stage."""
    spec = params["difficulty"]
    counts = dict.fromkeys(spec["levels"], 0)
    for e in data["boards"]:
        e["effort"] = effort(e["trace"])
        e["difficulty"] = difficulty(e["effort"], spec["thresholds"], spec["levels"])
        counts[e["difficulty"]] += 1
    data["difficulty"] = {"levels": list(spec["levels"]), "thresholds": spec["thresholds"],
                          "measure": spec["measure"], "counts": counts}
    h, w = parse_size(smallest_size(e["size"] for e in data["boards"]))
    rng = random.Random(params["example_seed"])
    board, answer = fresh_board(lambda: generate(h, w, rng, params["convention"]), encode,
                                {e["url"] for e in data["boards"]})
    steps = trace(board, answer)
    data["example"] = {"board": board.to_json(), "answer": answer.to_json(),
                       "url": encode(board), "trace": steps[:params["example_steps"]],
                       "steps": len(steps)}
    return data
