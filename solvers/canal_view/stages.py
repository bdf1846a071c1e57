"""The pipeline stages of Canal View."""

from __future__ import annotations

from solvers.common import Stage

from .bank import BANK_PARAMS, bank_chunks, bank_map, bank_reduce
from .ledger import LEDGER_PARAMS, ledger_chunks, ledger_map, ledger_reduce
from .stats import STATS_PARAMS, stats_chunks, stats_map, stats_reduce

CONFIRM_PARAMS = {"brute_max_cells": 36, "methods": ["brute", "sat"]}
TIMING_PARAMS = {"repeats": 3}

# confirm and timing load the SAT solver, so they are imported only when they run
STAGES = (
    Stage("bank", None, BANK_PARAMS, chunks=bank_chunks, map=bank_map, reduce=bank_reduce),
    Stage("confirm", "solvers.canal_view.confirm:run_confirm", CONFIRM_PARAMS, deps=("bank",)),
    Stage("stats", None, STATS_PARAMS, deps=("bank",), chunks=stats_chunks, map=stats_map,
          reduce=stats_reduce),
    Stage("ledger", None, LEDGER_PARAMS, chunks=ledger_chunks, map=ledger_map,
          reduce=ledger_reduce),
    Stage("timing", "solvers.canal_view.timing:run_timing", TIMING_PARAMS, deps=("bank",)),
)
