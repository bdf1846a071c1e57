"""The bank and stats stages (the ledger stage lives in ``exact``)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress

from . import studies
from .board import Answer, Board
from .generate import bank_entry, generate

BANK_PARAMS = {"seed": 57, "sizes": ["6x6", "8x8", "10x10"], "count": 24}
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
    return {"boards": list(partials)}


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    chunks = bank_chunks(inputs, params)
    return bank_reduce([bank_map(c, inputs, params) for c in chunks], inputs, params)


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    """Every measured figure of the article, section by section (see ``studies``)."""
    entries = [(e, Board.from_json(e["board"]), Answer.from_json(e["answer"]))
               for e in inputs["bank"]["boards"]]
    sizes = sorted({e["size"] for e, _, _ in entries}, key=lambda s: studies.hw(s))
    rng = random.Random(params["seed"])
    sections = ("lemma", "sampling", "value vs position", "ablation", "ladder", "digits",
                "edits")
    done = 0

    def note(msg: str) -> None:
        progress(done, len(sections), msg)

    def tick() -> None:
        nonlocal done
        done += 1
        progress(done, len(sections), sections[done - 1])

    out: dict[str, Any] = {"sizes": sizes, "boards": len(entries),
                           "bank": studies.bank_summary(entries, sizes)}
    out["lemma"] = studies.lemma(params, rng, note)
    tick()
    out["sampling"] = studies.sampling(params, rng, note)
    tick()
    out["value_position"] = studies.value_position(entries, sizes, note)
    tick()
    out["ablation"] = studies.ablation(entries)
    tick()
    out["ladder"] = studies.ladder(entries, sizes, params["ladder_cap"], note)
    tick()
    out["digits"] = studies.digits(entries)
    tick()
    out["edits"] = studies.edits(entries, sizes, params, rng, note)
    tick()
    return out
