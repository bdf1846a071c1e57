"""Stage parameters: seeds, sizes, sample sizes and caps (light to import)."""

from __future__ import annotations

from typing import Any

BANK_PARAMS: dict[str, Any] = {"seed": 9, "sizes": {"8x8": 40, "12x12": 32},
                               "convention": "coin"}
STATS_PARAMS: dict[str, Any] = {
    "seed": 99,
    "survey": ["2x6", "3x4", "3x5", "3x6", "4x4", "4x5", "4x6", "5x5", "4x7", "5x6"],
    "spec_survey": ["2x6", "3x4", "3x5", "3x6", "4x4", "4x5"],
    "shapes": ["3x5", "4x4", "4x5"],
    "conventions": {"6x6": 1200, "8x8": 1200, "12x12": 400},
    "coin_masks": 8,
    "ladder_cap": 300000,
    # answers counted up to `limit`, search capped at `cap` branches per board
    "ablation": {"seed": {"limit": 100, "cap": 20000}, "standard": {"limit": 2, "cap": 2000}},
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
