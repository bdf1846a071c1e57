"""Our Slitherlink solver against noqx's (clingo) on the outside corpus (not a test).

    .venv/bin/pip install clingo
    git clone https://github.com/T0nyX1ang/noqx /tmp/noqx        # not committed here
    .venv/bin/python plugins/slitherlink/benchmarks/outside.py     # the boards, once
    .venv/bin/python plugins/slitherlink/benchmarks/peers.py --noqx /tmp/noqx [--no-grade]

Per board, in one process and one thread, the engines take turns (``--repeat`` rounds,
best of each, CPU time of this process, clingo included): ours is ``solve(board,
limit=2)`` (graded), or with ``--no-grade`` ``solve(board, limit=2, grade=False)`` (the
answers and the verdict only, which is all noqx computes); noqx is its slitherlink
program built from the same clues, grounded and solved by clingo one-threaded, asked for
two models. Both must find the stored answer and no other. Printed: per-board times and
the ratio noqx / ours, then per size and overall the median and the worst ratio.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def noqx_solver(path: Path):
    sys.path.insert(0, str(path))
    from noqx.clingo import ClingoSolver, Config
    from noqx.manager import load_solver, modules
    from noqx.puzzle import Point, Puzzle

    Config.max_solutions_to_find = 2
    Config.parallel_threads = 1
    Config.time_limit = 600
    if "slitherlink" not in modules:
        load_solver("solver", "slitherlink")
    mod = modules["slitherlink"]

    def run(board: dict) -> list[dict]:
        p = Puzzle("slitherlink", "", {})
        p.row, p.col = board["h"], board["w"]
        for r, row in enumerate(board["clues"]):
            for c, v in enumerate(row):
                if v is not None:
                    p.text[Point(r, c)] = v
        for k in ("swslither", "tslither", "vslither"):
            p.param[k] = False
        program = mod.solve(p)
        inst = ClingoSolver()
        inst.solve(program)
        out = []
        h, w = board["h"], board["w"]
        for model in inst.solution():
            text = str(model)
            vert = [["0"] * (w + 1) for _ in range(h)]
            horiz = [["0"] * w for _ in range(h + 1)]
            for r, c, d in re.findall(r'edge\((\d+),\s*(\d+),\s*"?(\w+)"?\)', text):
                r, c = int(r), int(c)
                if d == "top":
                    horiz[r][c] = "1"
                elif d == "left":
                    vert[r][c] = "1"
            out.append({"vert": ["".join(x) for x in vert], "horiz": ["".join(x) for x in horiz]})
        return out
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--noqx", type=Path, required=True)
    ap.add_argument("--no-grade", action="store_true")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sizes", nargs="+")
    args = ap.parse_args()
    from slitherlink.board import Board
    from slitherlink.ladder import solve

    nq = noqx_solver(args.noqx)
    clock = time.process_time
    ratios: dict[str, list[float]] = {}
    for path in sorted((HERE / "outside").glob("slitherlink-*.json"),
                       key=lambda p: int(p.stem.split("-")[1].split("x")[0])):
        size = path.stem.split("-")[1]
        if args.sizes and size not in args.sizes:
            continue
        for k, e in enumerate(json.loads(path.read_text())["boards"]):
            board = Board.from_json(e["board"])
            ours = theirs = float("inf")
            for _ in range(args.repeat):
                t = clock()
                res = solve(board, limit=2, grade=not args.no_grade)
                ours = min(ours, clock() - t)
                assert [a.to_json() for a in res.solutions] == [e["answer"]], "ours"
                t = clock()
                models = nq(e["board"])
                theirs = min(theirs, clock() - t)
                assert models == [e["answer"]], f"noqx: {len(models)} models"
            ratio = theirs / ours
            ratios.setdefault(size, []).append(ratio)
            print(f"{size} #{k + 1}: ours {ours * 1000:8.1f} ms ({res.rung or 'ungraded'}), "
                  f"noqx {theirs * 1000:8.1f} ms, ratio {ratio:6.2f}", flush=True)
    every = [x for v in ratios.values() for x in v]
    for size, v in ratios.items():
        print(f"{size}: median ratio {statistics.median(v):.2f}, worst {min(v):.2f}")
    print(f"all {len(every)} boards ({'ungraded' if args.no_grade else 'graded'}): median "
          f"ratio {statistics.median(every):.2f}, worst {min(every):.2f} (noqx time / ours)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
