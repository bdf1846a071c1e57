"""The pipeline stages of Canal View and their parameters.

The stage names, their parameters and their order are hashed into ``content/``. The stage
functions are named by ``"module:function"`` strings and load when a stage runs, so that
loading the puzzle to solve a board imports none of them (nor numpy or the SAT solver).
"""

from __future__ import annotations

from solvers.common import Stage

# The bank's difficulty levels (bank.board_difficulty), echoed in its data.
DIFFICULTY = {
    "levels": ["easy", "medium", "hard", "expert"],
    # a board is the first level whose limits its effort stays within (expert: the rest)
    "thresholds": {
        "easy": {"rung": "flow", "probes": 0},
        "medium": {"rung": "probe", "probes": 2},
        "hard": {"rung": "probe", "probes": 6},
    },
    "measure": {
        "en": ("The hardest kind of step the hints need (arms, blocks, flow, a probe, a "
               "search) and how many probe steps they take."),
        "ja": ("ヒントに必要な最も難しい種類の一手（腕・ブロック・流れ・仮定・探索）と、"
               "仮定の手の数です。"),
    },
}

BANK_PARAMS = {"seed": 20261129, "sizes": {"8x8": 36, "12x12": 36},
               "difficulty": DIFFICULTY, "example_seed": 20261130, "example_steps": 6}

CONFIRM_PARAMS = {"brute_max_cells": 36, "methods": ["brute", "sat"]}

STATS_PARAMS = {
    "seed": 7,
    "misread": {"boards": {"no2x2": 24, "broken": 24, "dryconnect": 24, "wholeline": 12},
                "cap": 2000, "node_cap": 40000},
    "dial": {"8x8": {"draws": 108, "keep": [26, 22, 18, 15, 12, 10]},
             "12x12": {"draws": 108, "keep": [60, 45, 35, 22]}},
    "trapdoor": {"size": "8x8", "draws": 200},
    "scatter": {"size": "8x8", "draws": 800, "clues": 11, "small_max": 6,
                "node_cap": 3000},
    # other banks drawn exactly as the shipped one, from seeds derived from "seed"
    "bank_spread": {"sizes": {"8x8": {"boards": 36, "seeds": 8},
                              "12x12": {"boards": 36, "seeds": 8}}},
}

LEDGER_PARAMS = {"poly_n": [7, 8, 9, 10], "grids": ["3x3", "3x4", "4x4", "4x5"],
                 # past the spec: larger polyominoes and grids
                 "poly_beyond": [11, 12], "grids_beyond": ["4x6", "5x5"],
                 "engines": {"size": "6x6", "boards": 30, "seed": 66, "cap": 100000}}

TIMING_PARAMS = {"repeats": 3}

_PKG = "solvers.canal_view"

STAGES = (
    Stage("bank", None, BANK_PARAMS, chunks=f"{_PKG}.bank:bank_chunks",
          map=f"{_PKG}.bank:bank_map", reduce=f"{_PKG}.bank:bank_reduce",
          small={"sizes": {"6x6": 3}}),
    Stage("confirm", f"{_PKG}.confirm:confirm", CONFIRM_PARAMS, deps=("bank",)),
    Stage("stats", None, STATS_PARAMS, deps=("bank",), chunks=f"{_PKG}.studies:stats_chunks",
          map=f"{_PKG}.studies:stats_map", reduce=f"{_PKG}.studies:stats_reduce",
          small={"misread": {"boards": {"no2x2": 2, "broken": 2, "dryconnect": 2,
                                        "wholeline": 1}, "cap": 50, "node_cap": 2000},
                 "dial": {"6x6": {"draws": 3, "keep": [12, 8]}},
                 "trapdoor": {"size": "6x6", "draws": 3},
                 "scatter": {"size": "6x6", "draws": 3, "clues": 7, "small_max": 5,
                             "node_cap": 500},
                 "bank_spread": {"sizes": {"6x6": {"boards": 3, "seeds": 2}}}}),
    Stage("ledger", None, LEDGER_PARAMS, chunks=f"{_PKG}.exact:ledger_chunks",
          map=f"{_PKG}.exact:ledger_map", reduce=f"{_PKG}.exact:ledger_reduce",
          small={"poly_n": [5, 6], "poly_beyond": [], "grids": ["3x3"], "grids_beyond": [],
                 "engines": {"size": "5x5", "boards": 2, "seed": 66, "cap": 100}}),
    Stage("timing", f"{_PKG}.timing:run_timing", TIMING_PARAMS, deps=("bank",)),
)
