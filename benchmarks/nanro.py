"""Nanro speed figures (not a test).
Run: .venv/bin/python benchmarks/nanro.py [--cpu] [--all]
     .venv/bin/python benchmarks/nanro.py --hard [--no-sat] [--timeout 60]

Prints: the time to solve and prove unique each banked 10×10 board (median, worst,
in-process); generator-made minimal-clue 16×16 and 20×20 boards (a fixed seed) solved and
proven unique, each timed; and with --all the three stages end to end (wall time, peak
memory).

``--hard``: only the hard corpus (benchmarks/hard/nanro-*.json), each board solved once
(limit 2, graded) under a per-board time limit (``--timeout`` seconds of wall time, 60 by
default): per board the CPU time, the rung, the engine and whether it came out unique with
the stored answer; per size the median and worst CPU time and how many boards were left
undecided. ``--no-sat`` sets ``PUZZLE_NO_SAT=1`` first, so the ladder runs as where
python-sat is missing (its pure-Python learning solver instead of the SAT engine).
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


def _arg(name: str, default: float) -> float:
    if name in sys.argv:
        return float(sys.argv[sys.argv.index(name) + 1])
    return default


def hard() -> int:
    """The hard corpus, one solve a board under a time limit; 1 if any board was left
    undecided or came out other than unique with the stored answer."""
    import os

    from solvers.common import Budget, BudgetExceeded, active
    from solvers.nanro.board import Answer

    if "--no-sat" in sys.argv:
        os.environ["PUZZLE_NO_SAT"] = "1"
    from solvers.satcut import sat_available

    timeout = _arg("--timeout", 60.0)
    print(f"hard corpus, limit 2, graded, timeout {timeout:g} s a board, CPU time;"
          f" python-sat {'switched off (PUZZLE_NO_SAT=1)' if not sat_available() else 'if installed'}")
    bad = 0
    for size in ("16x16", "20x20", "30x30"):
        p = ROOT / "benchmarks" / "hard" / f"nanro-{size}.json"
        if not p.exists():
            continue
        cpu, undecided = [], 0
        for e in json.loads(p.read_text())["boards"]:
            board = Board.from_json(e["board"])
            t = time.process_time()
            try:
                with active(Budget(timeout=timeout)):
                    res = solve(board, limit=2)
            except BudgetExceeded:
                dt = time.process_time() - t
                undecided += 1
                bad += 1
                print(f"  {e['id']}: UNDECIDED after {dt:.2f} s CPU", flush=True)
                continue
            dt = time.process_time() - t
            cpu.append(dt)
            ok = len(res.solutions) == 1 and res.solutions[0] == Answer.from_json(e["answer"])
            bad += not ok
            print(f"  {e['id']}: {dt:6.2f} s CPU  rung {res.rung}  "
                  f"engine {res.stats.get('engine', '-')}  "
                  f"{'unique' if ok else 'NOT UNIQUE WITH THE STORED ANSWER'}", flush=True)
        if cpu:
            print(f"nanro {size}: boards {len(cpu) + undecided}, median "
                  f"{statistics.median(cpu):.2f} s, worst {max(cpu):.2f} s CPU, "
                  f"undecided {undecided}", flush=True)
    return 1 if bad else 0


def main() -> None:
    if "--hard" in sys.argv:
        sys.exit(hard())
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
