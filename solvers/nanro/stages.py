"""The pipeline stages and their parameters: bank (75 graded boards), confirm (every
banked board re-proved by engines sharing no code with the ladder), stats (every study),
ledger (exact counts of small empty region maps), timing. Light to import: each
stage names its functions as ``"solvers.nanro.module:function"``, loaded when it runs."""

from __future__ import annotations

from typing import Any

from solvers.common import Stage

BANK_PARAMS: dict[str, Any] = {
    "seed": 1010, "sizes": ["6x6", "8x8", "10x10"], "per_grade": 5, "prove_cap": 200000,
    "brute_cap": 100000,
    # difficulty: the first level whose limits a board's hint trace meets (else expert)
    "difficulty": {"easy": {"rung": "block", "probes": 0, "search": 0},
                   "medium": {"rung": "reach", "probes": 0, "search": 0},
                   "hard": {"rung": "probe", "probes": 10, "search": 0}},
    "example_seed": 2026, "example_target": "reach", "example_steps": 3,
}
STATS_PARAMS: dict[str, Any] = {
    "seed": 10010,
    "cap": 100000,
    "halves": {"sizes": {"5x5": 200, "6x6": 200, "8x8": 300, "10x10": 300},
               "qs": [1.0, 0.8]},
    "budget": {"sizes": ["6x6", "8x8", "10x10"], "boards": 30},
    "increments": [{"size": "6x6", "q": 0.8, "boards": 250},
                   {"size": "6x6", "q": 0.9, "boards": 250},
                   {"size": "8x8", "q": 0.9, "boards": 200},
                   {"size": "10x10", "q": 0.9, "boards": 150}],
    "ablation": [{"size": "6x6", "q": 0.9, "boards": 200},
                 {"size": "8x8", "q": 0.95, "boards": 150},
                 {"size": "10x10", "q": 0.95, "boards": 100}],
    "dial": {"size": "8x8", "q": 0.9, "boards": 120,
             "ranges": [[1, 1], [1, 2], [2, 2], [2, 3], [2, 4], [3, 5], [4, 7]]},
    "section_a": {"sizes": ["5x5", "6x6", "8x8", "10x10"], "qs": [0.7, 0.8, 0.9],
                  "boards": 200, "brute_cap": 50000, "brute_cells": 36,
                  "exception_cap": 3000000},
    "example": {"size": "6x6", "level": "reach"},
}
# the region product on boards up to the puzzle's brute_max_cells, the SAT encoding on all
CONFIRM_PARAMS: dict[str, Any] = {"brute_max_cells": 36, "methods": ["brute", "sat"]}
LEDGER_PARAMS: dict[str, Any] = {"grids": [[2, 2], [2, 3], [2, 4], [3, 3]]}
TIMING_PARAMS: dict[str, Any] = {"repeats": 3}

STAGES = (
    Stage("bank", None, BANK_PARAMS, chunks="solvers.nanro.bank:bank_chunks",
          map="solvers.nanro.bank:bank_map", reduce="solvers.nanro.bank:bank_reduce",
          small={"sizes": ["6x6"], "per_grade": 1}),
    Stage("confirm", "solvers.nanro.confirm:confirm", CONFIRM_PARAMS, deps=("bank",)),
    Stage("stats", None, STATS_PARAMS, deps=("bank",),
          chunks="solvers.nanro.studies:stats_chunks", map="solvers.nanro.studies:stats_map",
          reduce="solvers.nanro.studies:stats_reduce",
          small={"halves": {"sizes": {"5x5": 3}, "qs": [1.0, 0.8]},
                 "budget": {"sizes": ["5x5"], "boards": 2},
                 "increments": [{"size": "6x6", "q": 0.9, "boards": 3}],
                 "ablation": [{"size": "6x6", "q": 0.9, "boards": 3}],
                 "dial": {"size": "6x6", "q": 0.9, "boards": 2, "ranges": [[1, 2], [2, 4]]},
                 "section_a": {"sizes": ["5x5"], "qs": [0.8], "boards": 4, "brute_cap": 5000,
                               "brute_cells": 25, "exception_cap": 20000}}),
    Stage("ledger", "solvers.nanro.exact:ledger", LEDGER_PARAMS,
          small={"grids": [[2, 2], [2, 3]]}),
    Stage("timing", "solvers.nanro.timing:timing", TIMING_PARAMS, deps=("bank",)),
)

__all__ = ["BANK_PARAMS", "CONFIRM_PARAMS", "LEDGER_PARAMS", "STAGES", "STATS_PARAMS", "TIMING_PARAMS"]
