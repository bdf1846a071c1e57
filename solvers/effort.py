"""How hard a banked board is, said once for every puzzle.

A puzzle measures a board's effort from its hint trace (its own counts: steps per rung,
probes, searches ...); a difficulty level is a set of bounds on those counts, and a board
takes the first level whose bounds it meets. The article's example board is drawn from
a seed of its own and must not be one of the bank's boards.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any


def rung_counts(steps: Sequence[Mapping[str, Any]], rungs: Sequence[str]) -> dict[str, int]:
    """Steps per rung, every rung of ``rungs`` present (zero where unused)."""
    per = dict.fromkeys(rungs, 0)
    for s in steps:
        per[s["rung"]] += 1
    return per


def hardest(steps: Sequence[Mapping[str, Any]], rungs: Sequence[str]) -> str:
    """The highest rung a trace uses (the first rung for an empty trace)."""
    return max((s["rung"] for s in steps), key=rungs.index, default=rungs[0])


def difficulty(effort: Mapping[str, Any], bounds: Mapping[str, Mapping[str, Any]],
               levels: Sequence[str], rungs: Sequence[str] = ()) -> str:
    """The first of ``levels`` (all but the last) whose every bound ``effort`` meets; the
    last level when none does. A number bound is a maximum of that count (a count the
    effort lacks is zero); a rung-name bound is the highest rung allowed, in the order of
    ``rungs``. A level without bounds is skipped."""
    for level in levels[:-1]:
        lim = bounds.get(level)
        if lim is not None and all(_within(effort.get(k, 0), v, rungs) for k, v in lim.items()):
            return level
    return levels[-1]


def _within(value: Any, bound: Any, rungs: Sequence[str]) -> bool:
    if isinstance(bound, str):
        return rungs.index(value) <= rungs.index(bound)
    return value <= bound


def fresh_board(draw: Callable[[], tuple[Any, Any]], key: Callable[[Any], str],
                taken: Collection[str]) -> tuple[Any, Any]:
    """``draw()`` until a board whose ``key`` is not in ``taken`` (the bank's boards)."""
    while True:
        board, answer = draw()
        if key(board) not in taken:
            return board, answer
