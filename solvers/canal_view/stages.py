"""The pipeline stages of Canal View."""

from __future__ import annotations

from solvers.common import Stage

from .bank import BANK_PARAMS, run_bank
from .confirm import CONFIRM_PARAMS, run_confirm
from .ledger import LEDGER_PARAMS, run_ledger
from .stats import STATS_PARAMS, run_stats
from .timing import TIMING_PARAMS, run_timing

STAGES = (
    Stage("bank", run_bank, BANK_PARAMS),
    Stage("confirm", run_confirm, CONFIRM_PARAMS, deps=("bank",)),
    Stage("stats", run_stats, STATS_PARAMS, deps=("bank",)),
    Stage("ledger", run_ledger, LEDGER_PARAMS),
    Stage("timing", run_timing, TIMING_PARAMS, deps=("bank",)),
)
