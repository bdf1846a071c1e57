"""The bank and stats stages (the ledger stage lives in ``exact``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress

from . import hints, studies
from .board import Answer, Board
from .generate import bank_entry, generate

BANK_PARAMS = {"seed": 57, "sizes": ["6x6", "8x8", "10x10"], "count": 24,
               # difficulty from the hint trace's effort (hints.finish); the example board
               # of the article comes from its own seed
               "difficulty": hints.DIFFICULTY_PARAMS, "example_seed": 5701}
# Blank-board census: for each height, the widest board counted exactly.
LEDGER_COLS = {1: 10, 2: 10, 3: 10, 4: 8, 5: 7, 6: 6, 7: 5}
# Blank boards counted past the spec, by two transfers.
BEYOND = ("6x7", "6x8", "7x7", "7x8", "8x8")
LEDGER_PARAMS = {"ledger_cols": {str(k): v for k, v in LEDGER_COLS.items()},
                 "beyond": list(BEYOND)}
CONFIRM_PARAMS = {"brute_max_cells": 36, "methods": ["brute", "sat"]}
TIMING_PARAMS = {"repeats": 1, "blank": "6x6"}
STATS_PARAMS = {
    "seed": 5757,
    "lemma": {"size": "8x8", "answers": 100},
    "sampling": {"6x6": [3, 6, 9, 12], "8x8": [8, 16, 25], "10x10": [8, 16, 25]},
    # per row: the spec draws 4,940 random clue sets over its ten rows, and 66 honest
    # ones over the three 10x10 rows
    "random_samples": 494,
    "true_samples": 22,
    "ladder_cap": 400000,
    "delete_limit": 8,
    "moves_per_clue": 3,
}


def bank_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per board, seeded by (seed, board id)."""
    return [{"key": f"{size}-{k + 1:02d}", "size": size}
            for size in params["sizes"] for k in range(params["count"])]


def bank_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
             progress: Progress = no_progress) -> dict[str, Any]:
    h, w = studies.hw(chunk["size"])
    board, answer = generate(h, w, random.Random(chunk_seed(params["seed"], chunk["key"])))
    return bank_entry(board, answer, chunk["key"])


def bank_reduce(partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
    return hints.finish({"boards": list(partials)}, params)


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    chunks = bank_chunks(inputs, params)
    return bank_reduce([bank_map(c, inputs, params) for c in chunks], inputs, params)


STATS_SECTIONS = ("bank", "lemma", "sampling", "value_position", "ablation", "ladder",
                  "digits", "edits")


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per section of the article; a section that samples seeds its own
    generator from (stage seed, section), so no section depends on another's draws."""
    return [{"key": name} for name in STATS_SECTIONS]


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> Any:
    entries = [(e, Board.from_json(e["board"]), Answer.from_json(e["answer"]))
               for e in inputs["bank"]["boards"]]
    sizes = sorted({e["size"] for e, _, _ in entries}, key=lambda s: studies.hw(s))
    name = chunk["key"]
    rng = random.Random(chunk_seed(params["seed"], name))

    def note(msg: str) -> None:
        progress(0, 0, msg)

    if name == "bank":
        return studies.bank_summary(entries, sizes)
    if name == "lemma":
        return studies.lemma(params, rng, note)
    if name == "sampling":
        return studies.sampling(params, rng, note)
    if name == "value_position":
        return studies.value_position(entries, sizes, note)
    if name == "ablation":
        return studies.ablation(entries)
    if name == "ladder":
        return studies.ladder(entries, sizes, params["ladder_cap"], note)
    if name == "digits":
        return studies.digits(entries)
    if name == "edits":
        return studies.edits(entries, sizes, params, rng, note)
    raise ValueError(f"unknown stats section {name!r}")


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    got = dict(zip(STATS_SECTIONS, partials, strict=True))
    sizes = sorted({e["size"] for e in inputs["bank"]["boards"]}, key=lambda s: studies.hw(s))
    return {"sizes": sizes, "boards": len(inputs["bank"]["boards"]), **got}


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    """Every measured figure of the article, section by section (see ``studies``)."""
    chunks = stats_chunks(inputs, params)
    return stats_reduce([stats_map(c, inputs, params) for c in chunks], inputs, params)
