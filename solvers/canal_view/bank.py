"""The bank stage: boards from a fixed seed, with grade, URL, answer and hint trace."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress

from .board import Answer, Board
from .generate import generate
from .hints import DIFFICULTY, finish_bank, trace
from .ladder import solve
from .puzzlink import encode

BANK_PARAMS = {"seed": 20261129, "sizes": {"8x8": 36, "12x12": 36},
               "difficulty": DIFFICULTY, "example_seed": 20261130, "example_steps": 6}


def parse_size(size: str) -> tuple[int, int]:
    h, w = size.split("x")
    return int(h), int(w)


def make_entry(size: str, k: int, board, answer) -> dict[str, Any]:
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
    return generate(random.Random(chunk_seed(seed, board_id(size, k))), h, w)


def draw_boards(seed: Any, size: str, count: int) -> Iterator[tuple[int, Board, Answer]]:
    """The bank's recipe for one size: ``count`` boards numbered from 1. Any seed gives a
    bank drawn exactly as the shipped one is."""
    for k in range(1, count + 1):
        yield k, *draw_board(seed, size, k)


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
