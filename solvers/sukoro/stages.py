"""Sukoro's pipeline: the stages in order, with their parameters (hashed into
``content/``) and their quick parameters (``small``, for a run of seconds).

Light to import: each stage's functions are named by ``"module:function"`` strings and
load only when the stage runs (the ledger imports numpy, the confirm stage the SAT
solver).
"""

from __future__ import annotations

from solvers.common import Stage

# a board is the first level whose every bound holds (the last level takes the rest)
DIFFICULTY_PARAMS = {
    "thresholds": {"easy": {"probe": 3, "deep": 0, "search": 0},
                   "medium": {"probe": 9, "deep": 0, "search": 0},
                   "hard": {"probe": 20, "deep": 2, "search": 0}},
}
BANK_PARAMS = {"seed": 57, "sizes": ["6x6", "8x8", "10x10"], "count": 24,
               # difficulty from the hint trace's effort (bank.finish); the example board
               # of the article comes from its own seed
               "difficulty": DIFFICULTY_PARAMS, "example_seed": 5701}
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

STAGES = (
    Stage("bank", None, BANK_PARAMS, chunks="solvers.sukoro.bank:bank_chunks",
          map="solvers.sukoro.bank:bank_map", reduce="solvers.sukoro.bank:bank_reduce",
          small={"sizes": ["6x6"], "count": 2}),
    Stage("confirm", "solvers.sukoro.confirm:confirm", CONFIRM_PARAMS, deps=("bank",)),
    Stage("stats", None, STATS_PARAMS, deps=("bank",),
          chunks="solvers.sukoro.studies:stats_chunks", map="solvers.sukoro.studies:stats_map",
          reduce="solvers.sukoro.studies:stats_reduce",
          small={"lemma": {"size": "4x4", "answers": 3}, "sampling": {"6x6": [3, 6]},
                 "random_samples": 3, "true_samples": 2, "ladder_cap": 2000,
                 "delete_limit": 3, "moves_per_clue": 1}),
    Stage("ledger", None, LEDGER_PARAMS, chunks="solvers.sukoro.exact:ledger_chunks",
          map="solvers.sukoro.exact:ledger_map", reduce="solvers.sukoro.exact:ledger_reduce",
          small={"ledger_cols": {"1": 4, "2": 7, "3": 3}, "beyond": ["3x4"],
                 "census": {"3x4": 2}, "true_sets": ["3x4"], "densest": ["2x4", "3x4"],
                 "digits": "3x4"}),
    Stage("timing", "solvers.sukoro.timing:timing", TIMING_PARAMS, deps=("bank",)),
)
