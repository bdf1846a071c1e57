"""Nanro speed figures (not a test).
Run: .venv/bin/python benchmarks/nanro.py [--cpu] [--all]

Prints: the time to solve and prove unique each banked 10×10 board (median, worst,
in-process); generator-made minimal-clue 16×16 and 20×20 boards (a fixed seed) solved and
proven unique, each timed; and with --all the three stages end to end (wall time, peak
memory).
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solvers.nanro.board import Board
from solvers.nanro.generate import generate
from solvers.nanro.ladder import solve


def bank_boards() -> list[dict]:
    p = ROOT / "content" / "nanro" / "bank.json"
    if p.exists():
        return json.loads(p.read_text())["data"]["boards"]
    from solvers.nanro.bank import bank
    from solvers.nanro.stages import BANK_PARAMS
    return bank({}, {**BANK_PARAMS, "sizes": ["10x10"]})["boards"]


CPU = "--cpu" in sys.argv     # process time instead of wall time (a shared machine)
clock = time.process_time if CPU else time.perf_counter


def timed(board: Board, repeat: int = 3) -> float:
    """Best of ``repeat`` runs of solve (ladder, then search to two answers)."""
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        res = solve(board, limit=2)
        best = min(best, clock() - t)
        assert len(res.solutions) == 1
    return best


def main() -> None:
    boards = [Board.from_json(e["board"]) for e in bank_boards() if e["size"] == "10x10"]
    times = [timed(b) for b in boards]
    print("clock:", "process (CPU) time" if CPU else "wall time")
    print(f"prove banked 10x10 unique: median {statistics.median(times) * 1000:.1f} ms, "
          f"worst {max(times) * 1000:.1f} ms over {len(times)} boards")

    rng = random.Random(2026)
    for n in (16, 20):
        for k in range(3):
            t = time.perf_counter()
            b, _ = generate(n, n, rng, "probe")
            made = time.perf_counter() - t
            print(f"{n}x{n} #{k + 1}: {b.clue_count()} clues (minimal for probe), "
                  f"solved and proven unique in {timed(b) * 1000:.0f} ms "
                  f"(generated in {made:.1f} s)", flush=True)

    if "--all" in sys.argv:
        from solvers.nanro.bank import bank
        from solvers.nanro.exact import ledger
        from solvers.nanro.stages import BANK_PARAMS, LEDGER_PARAMS, STATS_PARAMS
        from solvers.nanro.studies import stats
        t0 = time.perf_counter()
        bk = bank({}, BANK_PARAMS)
        t1 = time.perf_counter()
        stats({"bank": bk}, STATS_PARAMS)
        t2 = time.perf_counter()
        ledger({}, LEDGER_PARAMS)
        t3 = time.perf_counter()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"regenerate: bank {t1 - t0:.0f} s, stats {t2 - t1:.0f} s, ledger {t3 - t2:.0f} s,"
              f" total {t3 - t0:.0f} s, peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
