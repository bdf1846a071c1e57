"""Sashigane speed figures (not a test).
Run: .venv/bin/python benchmarks/sashigane.py [--all | --standard]

Prints: the time to prove each banked 12×12 board unique in-process (median, worst; the
ladder, and the scanner for comparison), the exhaustive surveys, the ledger, and with
--all the three stages end to end (wall time, CPU time and peak memory). ``--standard``
prints only this: every banked board read from its URL (puzz.link's standard rules),
solved to two answers, its CPU time per board (median, max, best of 3) and the verdicts.
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

from solvers.sashigane.board import Board
from solvers.sashigane.brute import brute
from solvers.sashigane.ladder import solve


def bank_boards() -> list[dict]:
    p = ROOT / "content" / "sashigane" / "bank.json"
    if p.exists():
        return json.loads(p.read_text())["data"]["boards"]
    from solvers.sashigane.bank import bank
    from solvers.sashigane.stages import BANK_PARAMS
    return bank({}, {**BANK_PARAMS, "sizes": {"12x12": 32}})["boards"]


def timed(fn, boards: list[Board], repeat: int = 5) -> list[float]:
    out = []
    for b in boards:
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            res = fn(b)
            best = min(best, time.perf_counter() - t)
            assert len(res.solutions) == 1
        out.append(best)
    return out


def standard() -> None:
    from solvers.sashigane.codec import decode
    times, verdicts = [], {"unique": 0, "two answers": 0, "no answer": 0}
    worst = ""
    for e in bank_boards():
        b = decode(e["url"])
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            res = solve(b, limit=2)
            best = min(best, time.process_time() - t)
        if not times or best > max(times):
            worst = e["id"]
        times.append(best)
        n = len(res.solutions)
        verdicts["unique" if n == 1 else "two answers" if n else "no answer"] += 1
    print(f"banked URLs, standard rules ({len(times)} boards): CPU per board median "
          f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms "
          f"({worst}); " + ", ".join(f"{k} {v}" for k, v in verdicts.items()))


def main() -> None:
    if "--standard" in sys.argv:
        standard()
        return
    boards = [Board.from_json(e["board"]) for e in bank_boards() if e["size"] == "12x12"]
    for name, fn in (("ladder", lambda b: solve(b, limit=2)),
                     ("scanner", lambda b: brute(b, limit=2))):
        ts = timed(fn, boards)
        print(f"prove 12x12 unique ({name}): median {statistics.median(ts) * 1000:.1f} ms, "
              f"worst {max(ts) * 1000:.1f} ms over {len(ts)} boards (best of 5 each)")

    from solvers.sashigane.survey import survey, tilings
    t = time.perf_counter()
    pairs = 0
    for h, w in ((2, 6), (3, 4), (3, 5), (3, 6), (4, 4), (4, 5), (4, 6), (5, 5), (4, 7),
                 (5, 6)):
        ts = tilings(h, w)
        pairs += survey(h, w, True, ts)["pairs"] + survey(h, w, False, ts)["pairs"]
    print(f"surveys ({pairs:,} printed boards, tilings enumerated): "
          f"{time.perf_counter() - t:.1f} s")

    from solvers.sashigane.exact import ledger
    from solvers.sashigane.stages import LEDGER_PARAMS
    t = time.perf_counter()
    ledger({}, LEDGER_PARAMS)
    print(f"ledger (scanner, transposes, transfer to 7x7): {time.perf_counter() - t:.1f} s")

    if "--all" in sys.argv:
        from solvers.sashigane.bank import bank
        from solvers.sashigane.stages import BANK_PARAMS, STATS_PARAMS
        from solvers.sashigane.studies import stats
        c0, t0 = time.process_time(), time.perf_counter()
        b = bank({}, BANK_PARAMS)
        t1 = time.perf_counter()
        stats({"bank": b}, STATS_PARAMS)
        t2 = time.perf_counter()
        ledger({}, LEDGER_PARAMS)
        t3 = time.perf_counter()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"regenerate: bank {t1 - t0:.0f} s, stats {t2 - t1:.0f} s, ledger {t3 - t2:.0f} s,"
              f" total {t3 - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU, "
              f"peak memory {peak:.0f} MB")


if __name__ == "__main__":
    main()
