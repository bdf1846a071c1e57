"""The stages, in order, and their parameters: seeds, sizes, sample sizes and caps.

Light to import: each stage names its functions as strings, loaded when it first runs
(the bank in ``bank``, the stats in ``studies``, the ledger in ``exact``, the timing in
``timing``, the on-request survey in ``survey``). ``small`` holds each stage's quick
parameters, merged over the real ones for a run of seconds (the executor test).
"""

from __future__ import annotations

from typing import Any

from solvers.common import Stage

BANK_PARAMS: dict[str, Any] = {
    "seed": 9, "sizes": {"8x8": 40, "12x12": 32}, "convention": "coin",
    # the article's example board: the smallest bank size, from its own seed
    "example_seed": 2026, "example_steps": 8,
    # a board is the first level whose limits its hint trace stays within (bank.effort)
    "difficulty": {
        "levels": ["easy", "medium", "hard", "expert"],
        "thresholds": {
            "easy": {"width": 1, "deep": 4, "probes": 0, "searches": 0},
            "medium": {"width": 2, "deep": 8, "probes": 0, "searches": 0},
            "hard": {"width": 4, "deep": 12, "probes": 1, "searches": 0},
        },
        "measure": {
            "en": "Read from the board's hints: deep is the number of steps where a circle's "
                  "remaining Ls all pass through a cell, width the most Ls one such step asks "
                  "you to hold in mind, probes and searches the steps that need a trial or "
                  "the search.",
            "ja": "ヒントの手順から数えます。深さはある丸に残るL字がどれも同じマスを通ると"
                  "見抜く手順の数、幅はそうした手順で一度に思い浮かべるL字の最大数、仮置きと"
                  "探索はそれが要る手順の数です。",
        },
    },
}
STATS_PARAMS: dict[str, Any] = {
    "seed": 99,
    "survey": ["2x6", "3x4", "3x5", "3x6", "4x4", "4x5", "4x6", "5x5", "4x7", "5x6"],
    "spec_survey": ["2x6", "3x4", "3x5", "3x6", "4x4", "4x5"],
    "shapes": ["3x5", "4x4", "4x5"],
    "conventions": {"6x6": 1200, "8x8": 1200, "12x12": 400},
    "coin_masks": 8,
    "ladder_cap": 300000,
    # answers counted up to `limit`, search capped at `cap` branches per board
    "ablation": {"seed": {"limit": 100, "cap": 20000}, "standard": {"limit": 2, "cap": 100000}},
}

LEDGER_PARAMS: dict[str, Any] = {
    # rows h -> largest n of h×n, as in the spec's table
    "table": {"2": 14, "3": 10, "4": 8, "5": 7, "6": 6},
    # past the spec, by the transfer matrix only
    "beyond": ["6x7", "7x7"],
    # products above this many cells are cross-checked by the transposed scan
    "transpose_from": 24,
}

# Past the regenerate budget: the full-numbers survey on larger boards, run only when asked
# (``build-site build --only sashigane --stage sashigane/survey_beyond --scheduler ...``).
# The tilings are enumerated in blocks (the placements that cover the top ``rows`` rows),
# classed by their corners there and dealt into ``chunks`` chunks that share no group.
SURVEY_BEYOND_PARAMS: dict[str, Any] = {"on_request": True, "sizes": ["5x7", "6x6"],
                                        "rows": 2, "chunks": 64}

STAGES = (
    Stage("bank", None, BANK_PARAMS, chunks="solvers.sashigane.bank:bank_chunks",
          map="solvers.sashigane.bank:bank_map",
          reduce="solvers.sashigane.bank:bank_reduce",
          small={"sizes": {"6x6": 2, "8x8": 2}}),
    Stage("stats", None, STATS_PARAMS, deps=("bank",),
          chunks="solvers.sashigane.studies:stats_chunks",
          map="solvers.sashigane.studies:stats_map",
          reduce="solvers.sashigane.studies:stats_reduce",
          small={"survey": ["2x6", "3x4", "3x5", "4x4"], "spec_survey": ["2x6", "3x4"],
                 "shapes": ["3x4"], "conventions": {"6x6": 4, "8x8": 2}, "coin_masks": 2,
                 "ladder_cap": 2000,
                 "ablation": {"seed": {"limit": 10, "cap": 500},
                              "standard": {"limit": 2, "cap": 200}}}),
    Stage("ledger", None, LEDGER_PARAMS, chunks="solvers.sashigane.exact:ledger_chunks",
          map="solvers.sashigane.exact:ledger_map",
          reduce="solvers.sashigane.exact:ledger_reduce",
          small={"table": {"2": 6, "3": 4, "4": 6}, "beyond": ["3x5"],
                 "transpose_from": 12, "square_upto": 4}),
    Stage("timing", "solvers.sashigane.timing:timing", {"repeats": 3}, deps=("bank",)),
)

ON_REQUEST = (
    Stage("survey_beyond", None, SURVEY_BEYOND_PARAMS,
          chunks="solvers.sashigane.survey:survey_beyond_chunks",
          map="solvers.sashigane.survey:survey_beyond_map",
          reduce="solvers.sashigane.survey:survey_beyond_reduce",
          small={"sizes": ["3x5", "4x5"], "chunks": 5}),
)
