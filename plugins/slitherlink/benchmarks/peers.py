"""Our Slitherlink solver against noqx's (clingo) on the outside corpus (not a test).

    .venv/bin/pip install clingo
    git clone https://github.com/T0nyX1ang/noqx /tmp/noqx        # not committed here
    .venv/bin/python plugins/slitherlink/benchmarks/outside.py     # the boards, once
    .venv/bin/python plugins/slitherlink/benchmarks/peers.py --noqx /tmp/noqx [--no-grade]
    .venv/bin/python plugins/slitherlink/benchmarks/peers.py --noqx /tmp/noqx --process \
        [--corpus fresh]

Per board, in one process and one thread, the engines take turns (``--repeat`` rounds,
best of each, CPU time of this process, clingo included): ours is ``solve(board,
limit=2)`` (graded), or with ``--no-grade`` ``solve(board, limit=2, grade=False)`` (the
answers and the verdict only, which is all noqx computes); noqx is its slitherlink
program built from the same clues, grounded and solved by clingo one-threaded, asked for
two models. Both must find the stored answer and no other. Printed: per-board times and
the ratio noqx / ours, then per size and overall the median and the worst ratio.

``--process``: whole processes instead, as a user runs them: ours is ``build-site solve
slitherlink <board> --limit 2 --json`` (graded unless ``--no-grade``), noqx this file
with ``--one <board>`` (clingo imported, the program built, grounded and solved), each
a fresh process started in turn, the CPU time of the child (user + system, from
``getrusage``) counted, both with their byte code cached (a cache folder of the run,
warmed first, whatever ``PYTHONDONTWRITEBYTECODE`` says); the solver calls (probe trials when graded, then SAT calls: the
``nodes`` of the JSON) are printed per board, their median and most per size.
``--corpus fresh``: the boards of ``fresh/`` (drawn from other seeds), reported apart.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
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


def _child_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Run ``cmd`` to its end: the CPU time it took and what it printed."""
    t = _child_cpu()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return _child_cpu() - t, out


def processes(args: argparse.Namespace, boards: list[tuple[str, int, dict]]) -> dict:
    """Whole processes, ours and noqx's in turn; per size the ratios and solver calls."""
    site = str(Path(sys.executable).with_name("build-site"))
    per: dict[str, dict[str, list]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        # both sides with compiled modules, as an installed program has them: byte code
        # written to (and read from) a cache folder of this run, warmed by a first board
        env = {**os.environ, "PYTHONPYCACHEPREFIX": os.path.join(tmp, "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        warm = True
        for size, k, e in boards:
            path = os.path.join(tmp, f"{size}-{k}.json")
            Path(path).write_text(json.dumps(e["board"]))
            ours = theirs = float("inf")
            cmd = [site, "solve", "slitherlink", path, "--limit", "2", "--json",
                   "--timeout", "600"] + (["--no-grade"] if args.no_grade else [])
            nq = [sys.executable, __file__, "--noqx", str(args.noqx), "--one", path]
            if warm:
                _run(cmd, env)
                _run(nq, env)
                warm = False
            for _ in range(args.repeat):
                t, out = _run(cmd, env)
                ours = min(ours, t)
                got = json.loads(out)
                assert got["solutions"] == 1, f"ours: {got['solutions']} answers"
                t, out = _run(nq, env)
                theirs = min(theirs, t)
                assert json.loads(out) == [e["answer"]], "noqx"
            ratio = theirs / ours
            d = per.setdefault(size, {"ratio": [], "calls": []})
            d["ratio"].append(ratio)
            d["calls"].append(got["nodes"])
            print(f"{size} #{k + 1}: ours {ours * 1000:8.1f} ms ({got.get('rung') or 'ungraded'}, "
                  f"{got['nodes']} calls), "
                  f"noqx {theirs * 1000:8.1f} ms, ratio {ratio:6.2f}", flush=True)
    return per


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--noqx", type=Path, required=True)
    ap.add_argument("--no-grade", action="store_true")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sizes", nargs="+")
    ap.add_argument("--process", action="store_true",
                    help="whole build-site solve processes against noqx processes")
    ap.add_argument("--corpus", default="outside", choices=("outside", "fresh"))
    ap.add_argument("--one", type=Path, help=argparse.SUPPRESS)  # a noqx child: one board
    args = ap.parse_args()
    if args.one:
        print(json.dumps(noqx_solver(args.noqx)(json.loads(args.one.read_text()))))
        return 0
    boards = []
    for path in sorted((HERE / args.corpus).glob("slitherlink-*.json"),
                       key=lambda p: int(p.stem.split("-")[1].split("x")[0])):
        size = path.stem.split("-")[1]
        if not args.sizes or size in args.sizes:
            boards += [(size, k, e) for k, e in enumerate(json.loads(path.read_text())["boards"])]
    if args.process:
        per = processes(args, boards)
        every = [x for v in per.values() for x in v["ratio"]]
        for size, v in per.items():
            print(f"{size}: median ratio {statistics.median(v['ratio']):.2f}, worst "
                  f"{min(v['ratio']):.2f}; solver calls per board: median "
                  f"{statistics.median(v['calls']):.0f}, most {max(v['calls'])}")
        print(f"all {len(every)} {args.corpus} boards, whole processes "
              f"({'ungraded' if args.no_grade else 'graded'}): median ratio "
              f"{statistics.median(every):.2f}, worst {min(every):.2f} (noqx CPU / ours)")
        return 0
    from slitherlink.board import Board
    from slitherlink.ladder import solve

    nq = noqx_solver(args.noqx)
    clock = time.process_time
    ratios: dict[str, list[float]] = {}
    for size, k, e in boards:
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
        print(f"{size} #{k + 1}: ours {ours * 1000:8.1f} ms ({res.rung or 'ungraded'}, "
              f"{res.nodes} calls, {res.stats.get('sat_calls', 0)} SAT), "
              f"noqx {theirs * 1000:8.1f} ms, ratio {ratio:6.2f}", flush=True)
    every = [x for v in ratios.values() for x in v]
    for size, v in ratios.items():
        print(f"{size}: median ratio {statistics.median(v):.2f}, worst {min(v):.2f}")
    print(f"all {len(every)} boards ({'ungraded' if args.no_grade else 'graded'}): median "
          f"ratio {statistics.median(every):.2f}, worst {min(every):.2f} (noqx time / ours)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
