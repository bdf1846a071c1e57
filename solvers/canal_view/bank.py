"""The bank stage: boards from a fixed seed, with grade, URL, answer and hint trace."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

from solvers.common import Progress

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
    return {"id": f"{size}-{k:02d}", "size": size, "h": h, "w": w, "grade": res.rung,
            "clues": len(board.clue_cells()), "url": encode(board),
            "board": board.to_json(), "answer": answer.to_json(),
            "trace": trace(board, answer)}


def draw_boards(seed: Any, size: str, count: int) -> Iterator[tuple[int, Board, Answer]]:
    """The bank's recipe for one size: ``count`` boards from the seeded stream, numbered
    from 1. Any seed gives a bank drawn exactly as the shipped one is."""
    rng = random.Random(f"{seed}-{size}")
    h, w = parse_size(size)
    for k in range(1, count + 1):
        board, answer = generate(rng, h, w)
        yield k, board, answer


def run_bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress) -> dict[str, Any]:
    sizes = params["sizes"]
    total = sum(sizes.values())
    boards = []
    done = 0
    for size, count in sizes.items():
        for k, board, answer in draw_boards(params["seed"], size, count):
            boards.append(make_entry(size, k, board, answer))
            done += 1
            progress(done, total, f"bank {size} {k}/{count}")
    return finish_bank({"boards": boards}, params)
