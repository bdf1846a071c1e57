"""Sukoro speed figures (not a test). Run: .venv/bin/python benchmarks/sukoro.py [--all]

Prints: median time to prove a banked 10×10 board unique (in-process), the whole clue
census, the ledger through 6×6 and 7×5, the SAT confirmation of the 10×10 boards, the
blank 7×7 board by both transfers (with --beyond also 8×8), and with --all the three stages end to end
(wall time and peak memory).
"""

from __future__ import annotations

import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solvers.grid import parse_size
from solvers.sukoro import exact
from solvers.sukoro.board import Board
from solvers.sukoro.frontier import count_answers, enumerate_answers
from solvers.sukoro.ladder import solve
from solvers.sukoro.stages import LEDGER_COLS


def bank_boards():
    p = ROOT / "content" / "sukoro" / "bank.json"
    if p.exists():
        return json.loads(p.read_text())["data"]["boards"]
    from solvers.sukoro.bank import bank
    from solvers.sukoro.stages import BANK_PARAMS
    return bank({}, {**BANK_PARAMS, "sizes": ["10x10"]})["boards"]


def main() -> None:
    boards = [Board.from_json(e["board"]) for e in bank_boards() if e["size"] == "10x10"]
    times = []
    for b in boards:
        t = time.perf_counter()
        res = solve(b, limit=2)
        times.append(time.perf_counter() - t)
        assert len(res.solutions) == 1
    print(f"prove 10x10 unique: median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms over {len(times)} boards")

    t = time.perf_counter()
    total = 0
    for size, kmax in exact.CENSUS.items():
        h, w = parse_size(size)
        rows = exact.census_board(enumerate_answers(h, w), h * w, kmax)
        total += sum(r["sets"] for r in rows.values())
    print(f"clue census ({total:,} clue sets, enumeration included): "
          f"{time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    for h, n in LEDGER_COLS.items():
        for w in range(1, n + 1):
            count_answers(h, w)
    print(f"blank ledger 1xn..7x5 (incl. 6x6, 7x5): {time.perf_counter() - t:.1f} s")

    from solvers.sukoro.celltransfer import count_answers_by_cells
    from solvers.sukoro.sat import solve_sat
    times = []
    for b in boards:
        t = time.perf_counter()
        assert len(solve_sat(b, limit=2).answers) == 1
        times.append(time.perf_counter() - t)
    print(f"SAT confirms 10x10: median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms")
    for size in ("7x7", "8x8") if "--beyond" in sys.argv else ("7x7",):
        h, w = parse_size(size)
        t = time.perf_counter()
        c = count_answers_by_cells(h, w)
        t1 = time.perf_counter()
        assert count_answers(h, w) == c
        t2 = time.perf_counter()
        print(f"blank {size}: {c:,} answers; cell transfer {t1 - t:.1f} s, "
              f"row transfer {t2 - t1:.1f} s")

    if "--all" in sys.argv:
        from solvers.sukoro.bank import bank
        from solvers.sukoro.stages import BANK_PARAMS, LEDGER_PARAMS, STATS_PARAMS
        from solvers.sukoro.studies import stats
        t0 = time.perf_counter()
        b = bank({}, BANK_PARAMS)
        t1 = time.perf_counter()
        stats({"bank": b}, STATS_PARAMS)
        t2 = time.perf_counter()
        exact.ledger({}, LEDGER_PARAMS)
        t3 = time.perf_counter()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"regenerate: bank {t1 - t0:.0f} s, stats {t2 - t1:.0f} s, ledger {t3 - t2:.0f} s,"
              f" total {t3 - t0:.0f} s, peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
