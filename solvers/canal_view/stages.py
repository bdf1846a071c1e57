"""The three pipeline stages of Canal View."""

from __future__ import annotations

from solvers.common import Stage

from .bank import BANK_PARAMS, run_bank
from .ledger import LEDGER_PARAMS, run_ledger
from .stats import STATS_PARAMS, run_stats

STAGES = (
    Stage("bank", run_bank, BANK_PARAMS),
    Stage("stats", run_stats, STATS_PARAMS, deps=("bank",)),
    Stage("ledger", run_ledger, LEDGER_PARAMS),
)
