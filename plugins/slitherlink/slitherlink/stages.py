"""Slitherlink's pipeline: the stages in order, with their parameters (hashed into
``content/``) and their quick parameters (``small``, for a run of seconds).

Light to import: each stage's functions are named by ``"module:function"`` strings and
load only when the stage runs.
"""

from __future__ import annotations

from solvers.common import Stage

# a board is the first level whose every bound holds (the last level takes the rest)
DIFFICULTY_PARAMS = {
    "thresholds": {"easy": {"probe": 1, "search": 0},
                   "medium": {"probe": 5, "search": 0},
                   "hard": {"probe": 12, "search": 0}},
}
# ``keep``: per board in turn, the chance that a clue is kept without a removal being
# tried (0: as few clues as the seeded order allows); a spread of difficulty
BANK_PARAMS = {"seed": 4141, "sizes": ["6x6", "8x8", "10x10"], "count": 24,
               "keep": [0.0, 0.1, 0.2, 0.35],
               "difficulty": DIFFICULTY_PARAMS, "example_seed": 4142, "example_steps": 6}
STATS_PARAMS = {
    "seed": 4143,
    # minimal boards (keep 0) per size: clue density, digits kept, rungs, effort
    "sizes": {"5x5": 48, "7x7": 40, "10x10": 24, "14x14": 8},
    "per_chunk": 8,
    # the generator's answers alone at the largest size the ledger lists every loop of,
    # beside the exact digit shares of those loops
    "reference": {"size": "4x5", "boards": 2000},
}
LEDGER_PARAMS = {
    "loops": ["1x1", "1x2", "2x2", "2x3", "3x3", "3x4", "4x4", "4x5", "5x5", "5x6", "6x6",
              "7x7", "8x8", "9x9", "10x10"],
    "signatures": ["2x2", "2x3", "3x3", "3x4", "4x4", "4x5"],
}
CONFIRM_PARAMS = {"brute_max_cells": 36, "methods": ["brute", "sat"]}
TIMING_PARAMS = {"repeats": 1}

STAGES = (
    Stage("bank", None, BANK_PARAMS, chunks="slitherlink.bank:bank_chunks",
          map="slitherlink.bank:bank_map", reduce="slitherlink.bank:bank_reduce",
          small={"sizes": ["6x6"], "count": 2}),
    Stage("confirm", "slitherlink.confirm:confirm", CONFIRM_PARAMS, deps=("bank",)),
    Stage("stats", None, STATS_PARAMS, deps=("bank",),
          chunks="slitherlink.studies:stats_chunks", map="slitherlink.studies:stats_map",
          reduce="slitherlink.studies:stats_reduce",
          small={"sizes": {"5x5": 2, "7x7": 2}, "per_chunk": 2,
                 "reference": {"size": "2x2", "boards": 20}}),
    Stage("ledger", None, LEDGER_PARAMS, chunks="slitherlink.exact:ledger_chunks",
          map="slitherlink.exact:ledger_map", reduce="slitherlink.exact:ledger_reduce",
          small={"loops": ["2x2", "3x3"], "signatures": ["2x2"]}),
    Stage("timing", "slitherlink.timing:timing", TIMING_PARAMS, deps=("bank",)),
)
