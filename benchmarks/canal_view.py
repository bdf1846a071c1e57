"""Canal View speed figures (not a test).

    .venv/bin/python benchmarks/canal_view.py            # proving banked boards unique
    .venv/bin/python benchmarks/canal_view.py --stages   # also regenerate every stage

Reads content/canal-view/bank.json when present, otherwise generates the bank first.
Timings vary run to run (the machine is shared); node counts do not.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.canal_view.board import Board
from solvers.canal_view.brute import brute
from solvers.canal_view.codec import decode
from solvers.canal_view.ladder import solve
from solvers.canal_view.stages import STAGES


def _quiet(done: int, total: int, note: str = "") -> None:
    pass


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stages", action="store_true", help="time every stage too")
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats per board")
    args = ap.parse_args()
    stages = {s.name: s for s in STAGES}
    bank_file = ROOT / "content" / "canal-view" / "bank.json"
    timings = {}
    bank = None
    if args.stages:
        t0 = time.perf_counter()
        bank = stages["bank"].run({}, stages["bank"].params, _quiet)
        timings["bank"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        stages["stats"].run({"bank": bank}, stages["stats"].params, _quiet)
        timings["stats"] = time.perf_counter() - t0
        for name in ("confirm", "ledger", "timing"):
            st = stages[name]
            t0 = time.perf_counter()
            st.run({"bank": bank} if "bank" in st.deps else {}, st.params, _quiet)
            timings[name] = time.perf_counter() - t0
    elif bank_file.exists():
        bank = json.loads(bank_file.read_text())["data"]
    else:
        bank = stages["bank"].run({}, stages["bank"].params, _quiet)
    for size in sorted({b["size"] for b in bank["boards"]}, key=lambda s: int(s.split("x")[0])):
        ms, nodes = [], []
        for e in bank["boards"]:
            if e["size"] != size:
                continue
            board = Board.from_json(e["board"])
            best = None
            for _ in range(args.repeat):
                solve.__globals__["_ctx_cached"].cache_clear()
                t0 = time.perf_counter()
                res = solve(board, limit=2)
                dt = (time.perf_counter() - t0) * 1000
                best = dt if best is None else min(best, dt)
            assert len(res.solutions) == 1, e["id"]
            ms.append(best)
            nodes.append(res.nodes)
        print(f"prove unique {size}: boards {len(ms)}, median {statistics.median(ms):.1f} ms, "
              f"worst {max(ms):.1f} ms, mean {statistics.mean(ms):.1f} ms; search nodes "
              f"median {statistics.median_low(nodes)}, worst {max(nodes)}")
    from solvers.canal_view.sat import solve_sat
    for size in sorted({b["size"] for b in bank["boards"]}, key=lambda s: int(s.split("x")[0])):
        ms = []
        for e in bank["boards"]:
            if e["size"] == size:
                board = Board.from_json(e["board"])
                t0 = time.perf_counter()
                assert len(solve_sat(board, limit=2).answers) == 1, e["id"]
                ms.append((time.perf_counter() - t0) * 1000)
        print(f"SAT confirms {size}: median {statistics.median(ms):.1f} ms, "
              f"worst {max(ms):.1f} ms")
    sample = decode("https://puzz.link/p?canal/6/6/3i3h2z4h5i2")
    for name, engine in (("ladder", solve), ("brute", brute)):
        t0 = time.perf_counter()
        r = engine(sample, limit=2)
        print(f"{name} on the puzz.link sample (6x6): {len(r.solutions)} answer, {r.nodes} nodes, "
              f"{(time.perf_counter() - t0) * 1000:.1f} ms")
    for k, v in timings.items():
        print(f"stage {k}: {v:.1f} s")
    if timings:
        print(f"stages total: {sum(timings.values()):.1f} s")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process): {peak:.0f} MB")


if __name__ == "__main__":
    main()
