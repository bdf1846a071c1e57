"""The bank stage: boards from a fixed seed, with grade, URL, answer and hint trace; then
each board's effort and difficulty, and the article's example board."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.effort import difficulty, fresh_board, hardest, rung_counts
from solvers.grid import parse_size, size_key

from .board import Answer, Board
from .codec import encode
from .generate import generate
from .hints import HINT_RUNGS, trace
from .ladder import solve
from .stages import DIFFICULTY


def make_entry(size: str, k: int, board: Board, answer: Answer) -> dict[str, Any]:
    h, w = parse_size(size)
    res = solve(board)
    return {"id": board_id(size, k), "size": size, "h": h, "w": w, "grade": res.rung,
            "clues": len(board.clue_cells()), "url": encode(board),
            "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


def board_id(size: str, k: int) -> str:
    return f"{size}-{k:02d}"


def draw_board(seed: Any, size: str, k: int) -> tuple[Board, Answer]:
    """Board ``k`` (from 1) of one size: its own generator, seeded by (seed, board id), so
    any board can be drawn alone, on any worker."""
    h, w = parse_size(size)
    return generate(h, w, random.Random(chunk_seed(seed, board_id(size, k))))


def draw_boards(seed: Any, size: str, count: int) -> Iterator[tuple[int, Board, Answer]]:
    """The bank's recipe for one size: ``count`` boards numbered from 1. Any seed gives a
    bank drawn exactly as the shipped one is."""
    for k in range(1, count + 1):
        yield k, *draw_board(seed, size, k)


# ---------------------------------------------------------------- difficulty ---------
def effort(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """What a trace measured: steps per rung, the top rung, probes and searches."""
    per = rung_counts(steps, HINT_RUNGS)
    return {"steps": len(steps), "per_rung": per, "top": hardest(steps, HINT_RUNGS),
            "probes": per["probe"], "searches": per["search"]}


def board_difficulty(eff: Mapping[str, Any], spec: Mapping[str, Any]) -> str:
    """The first level whose thresholds the effort meets: its top rung (the thresholds'
    ``rung``) and its probes; no level below the last allows a search step."""
    bounds = {level: {**lim, "searches": 0} for level, lim in spec["thresholds"].items()}
    return difficulty({**eff, "rung": eff["top"]}, bounds, spec["levels"], HINT_RUNGS)


def example(seed: Any, size: str, bank: list[dict[str, Any]], steps: int
            ) -> dict[str, Any]:
    """A board for the article's opening picture: the puzzle's own generator from a seed
    of its own, never one of the bank's boards."""
    h, w = parse_size(size)
    rng = random.Random(f"example-{seed}-{size}")
    taken = {encode(Board.from_json(e["board"])) for e in bank}
    board, answer = fresh_board(lambda: generate(h, w, rng), encode, taken)
    return {"board": board.to_json(), "answer": answer.to_json(), "url": encode(board),
            "trace": trace(board, answer)[:steps]}


def finish_bank(data: dict[str, Any], params: Any) -> dict[str, Any]:
    """The bank stage's last call: each board's effort and difficulty (thresholds from
    the params, echoed in the data), and the article's example board, drawn at the
    size that sorts first (rows, then columns)."""
    spec = dict(params.get("difficulty") or DIFFICULTY)
    boards = []
    for e in data["boards"]:
        eff = effort(e["trace"])
        boards.append({**e, "effort": eff, "difficulty": board_difficulty(eff, spec)})
    out = {**data, "boards": boards, "difficulty": spec}
    if boards:
        out["example"] = example(params.get("example_seed", params["seed"]),
                                 min(params["sizes"], key=size_key), boards,
                                 params.get("example_steps", 6))
    return out


# ---------------------------------------------------------------- the stage ----------
def bank_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per board."""
    return [{"key": board_id(size, k), "size": size, "k": k}
            for size, count in params["sizes"].items() for k in range(1, count + 1)]


def bank_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> dict[str, Any]:
    board, answer = draw_board(params["seed"], chunk["size"], chunk["k"])
    return make_entry(chunk["size"], chunk["k"], board, answer)


def bank_reduce(partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
    return finish_bank({"boards": list(partials)}, params)


def run_bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> dict[str, Any]:
    chunks = bank_chunks(inputs, params)
    partials = []
    for i, c in enumerate(chunks):
        partials.append(bank_map(c, inputs, params))
        progress(i + 1, len(chunks), c["key"])
    return bank_reduce(partials, inputs, params)
