"""Native CPU time of what the solve page computes for a board, per puzzle: the verdict
and grade (``solve_bounded``, as ``site_builder/solve_web.solve_text`` calls it) and the
hint trace (``puzzle.trace``, as ``solve_web.trace_json`` calls it), on the bank's
largest boards (10×10; Canal View and Sashigane 12×12) and the hard corpus
(``benchmarks/hard/``, 16×16 and 20×20). Each board's time is the best of ``--repeat``
runs of ``time.process_time``; the script prints median and max per group.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/traces.py [--puzzle sukoro] [--repeat 3]
        [--group bank|16x16|20x20] [--profile BOARD_ID]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from site_builder.solve import solve_bounded
from solvers import registry

PUZZLES = ["sukoro", "nanro", "canal-view", "sashigane"]
BANK_SIZE = {"sukoro": 10, "nanro": 10, "canal-view": 12, "sashigane": 12}
HARD = ["16x16", "20x20"]


def boards(slug: str, group: str) -> list[tuple[str, dict[str, Any]]]:
    """(id, board JSON) of one group: ``bank`` (the bank's largest size) or a hard size."""
    if group == "bank":
        data = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]
        n = BANK_SIZE[slug]
        return [(e["id"], e["board"]) for e in data["boards"] if e["h"] == n and e["w"] == n]
    data = json.loads((ROOT / "benchmarks" / "hard" / f"{slug}-{group}.json").read_text())
    return [(e["id"], e["board"]) for e in data["boards"]]


def best(fn: Any, repeat: int) -> tuple[float, Any]:
    out, times = None, []
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return min(times), out


def measure(slug: str, group: str, repeat: int) -> None:
    puzzle = registry.get(slug)
    solve_t, trace_t, total = [], [], []
    for bid, bj in boards(slug, group):
        board = puzzle.board_from_json(bj)
        ts, res = best(lambda b=board: solve_bounded(puzzle, b), repeat)
        if len(res.solutions) != 1:
            print(f"  {bid}: {len(res.solutions)} answers, no trace")
            continue
        tt, steps = best(lambda b=board, a=res.solutions[0]: puzzle.trace(b, a), repeat)
        solve_t.append(ts)
        trace_t.append(tt)
        total.append(ts + tt)
        print(f"  {bid}: verdict+grade {ts * 1000:.0f} ms, trace {tt * 1000:.0f} ms "
              f"({len(steps)} steps)", flush=True)
    if total:
        def fmt(xs: list[float]) -> str:
            return f"median {statistics.median(xs) * 1000:.0f} ms, max {max(xs) * 1000:.0f} ms"
        print(f"{slug} {group} ({len(total)} boards): verdict+grade {fmt(solve_t)}; "
              f"trace {fmt(trace_t)}; all {fmt(total)}", flush=True)


def profile(slug: str, bid: str) -> None:
    puzzle = registry.get(slug)
    found = [bj for g in ["bank", *HARD] for i, bj in boards(slug, g) if i == bid]
    board = puzzle.board_from_json(found[0])
    res = solve_bounded(puzzle, board)
    prof = cProfile.Profile()
    prof.enable()
    puzzle.trace(board, res.solutions[0])
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzle", action="append", choices=PUZZLES)
    ap.add_argument("--group", action="append", choices=["bank", *HARD])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", metavar="BOARD_ID", help="cProfile one board's trace")
    args = ap.parse_args()
    if args.profile:
        if not args.puzzle:
            ap.error("--profile needs --puzzle")
        profile(args.puzzle[0], args.profile)
        return
    for slug in args.puzzle or PUZZLES:
        for group in args.group or ["bank", *HARD]:
            measure(slug, group, args.repeat)


if __name__ == "__main__":
    main()
