"""Whole-process cost of `build-site solve` (not a test): start-up plus one solve.

    .venv/bin/python benchmarks/start.py               # every puzzle, 20 runs each
    .venv/bin/python benchmarks/start.py --runs 50 --only sukoro

For each puzzle, the first five banked boards of the size closest to 10×10 (8×8 for
Canal View and Sashigane, which bank 8×8 and 12×12) are solved by a fresh `build-site
solve SLUG FILE` process each, in turn. The boards go in as board JSON files, so that each
is solved under the rules it was banked with (a Sashigane URL carries puzz.link's looser
rules, under which most banked boards have a second answer).
Printed per puzzle: the median and the fastest wall time, and the median CPU time of the
process (user + system, which a busy machine inflates less than the wall clock). For
scale, the same for a bare `python -c pass`. Issue 11's target: under 0.08 s wall.

    .venv/bin/python benchmarks/start.py --noqx /tmp/noqx [--checkout DIR]

Issue 24, beside noqx: the examples of pzprjs's test scripts and of noqx's solver files
(puzz.link URLs, boards of at most 11×11) are solved each by a fresh process of ours
(``build-site solve SLUG URL --json``: the console script ``scripts/build`` installs
beside this interpreter, run with ``PYTHONPATH`` set to ``--checkout``, by default this
one, so that it runs that folder's code; ``python -m site_builder.cli`` where no script
is installed) and by a fresh noqx process (a Python process that imports noqx and
clingo, builds noqx's program for the same board and solves it for up to two answers on
one thread, as noqx's server does for a request), the two taking turns. Printed per
board: median and fastest wall time and median CPU time of each, and noqx's medians over
ours, of wall and of CPU time (above 1: ours is faster). With PYTHONDONTWRITEBYTECODE
set, byte-compile both checkouts first (``python -m compileall``), as an install does.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers import registry

BIN = Path(sys.executable).parent
PUZZLES = tuple(registry.slugs())


def board_files(slug: str, k: int, folder: Path) -> list[str]:
    """The first ``k`` bank boards of the size nearest 10×10, written as board JSON."""
    boards = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]
    best = min({b["h"] * b["w"] for b in boards}, key=lambda a: abs(a - 100))
    out = []
    for b in [b for b in boards if b["h"] * b["w"] == best][:k]:
        p = folder / f"{slug}-{b['id']}.json"
        p.write_text(json.dumps(b["board"]))
        out.append(str(p))
    return out


def run(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one child process."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         check=False, env=env)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr.decode().strip()}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def report(label: str, cmds: list[list[str]], runs: int) -> None:
    walls, cpus = [], []
    for i in range(runs):
        wall, cpu = run(cmds[i % len(cmds)])
        walls.append(wall * 1000)
        cpus.append(cpu * 1000)
    print(f"{label:<28} wall median {statistics.median(walls):5.1f} ms, fastest "
          f"{min(walls):5.1f} ms; CPU median {statistics.median(cpus):5.1f} ms", flush=True)


# pzprjs's test scripts (test/script/<pid>.js) and noqx's solver examples (solver/<pid>.py)
EXAMPLES = [
    ("pzprjs", "sukoro", "https://puzz.link/p?sukoro/5/5/2a2c4a2g2a4c2a2"),
    ("pzprjs", "canal-view", "https://puzz.link/p?canal/6/6/3i3h2z4h5i2"),
    ("pzprjs", "nanro", "https://puzz.link/p?nanro/4/4/6r0s1oi13n1h"),
    ("noqx", "sukoro",
     "https://puzz.link/p?sukoro/11/11/p2324d14e3b2b3g3b1h31c13h2b3g1b2b1e23d1434p"),
    ("noqx", "nanro", ("https://puzz.link/p?nanro/11/11/9bdcljmcpj6cpj6dpl6mqi46tt8qpltbdmqn"
                       "ljb2nnc4i3g2l23l2n2n2n2n2i3i2n3n3n3n2l43l2g3i")),
]
NOQX_NAME = {"sukoro": "sukoro", "canal-view": "canal", "nanro": "nanro"}

# The noqx process: argv = noqx checkout, noqx puzzle name, board JSON. Regions go in as
# borders (left and top sides of a cell whose neighbour is in another region), numbers as
# cell text, a "?" given as "this cell is not blank" (as benchmarks/peers.py does).
NOQX_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
from noqx.clingo import ClingoSolver, Config
from noqx.manager import load_solver, modules
from noqx.puzzle import Point, Puzzle
Config.max_solutions_to_find, Config.parallel_threads = 2, 1
name, board = sys.argv[2], json.loads(sys.argv[3])
load_solver("solver", name)
p = Puzzle(name, "", {})
p.row, p.col = board["h"], board["w"]
extra = []
regions = board.get("regions")
for r, row in enumerate(board["clues"]):
    for c, v in enumerate(row):
        if regions and c and regions[r][c - 1] != regions[r][c]:
            p.edge[Point(r, c, "left")] = True
        if regions and r and regions[r - 1][c] != regions[r][c]:
            p.edge[Point(r, c, "top")] = True
        if v == "?" and regions:
            extra.append(f":- gray({r}, {c}).")
        elif v is not None:
            p.text[Point(r, c)] = v
program = modules[name].solve(p) + "\n" + "\n".join(extra)
inst = ClingoSolver()
inst.solve(program)
print(len(inst.solution()))
"""


def beside_noqx(noqx: Path, checkout: Path, runs: int) -> None:
    """Each example solved by our process and by noqx's, taking turns."""
    import os

    env = {**os.environ, "PYTHONPATH": str(checkout)}
    for source, slug, url in EXAMPLES:
        board = registry.get(slug).decode(url).to_json()
        script = BIN / "build-site"
        start = [str(script)] if script.exists() else [sys.executable, "-m", "site_builder.cli"]
        ours = [*start, "solve", slug, url, "--json"]
        theirs = [sys.executable, "-c", NOQX_CHILD, str(noqx), NOQX_NAME[slug],
                  json.dumps(board)]
        times: dict[str, tuple[list[float], list[float]]] = {"ours": ([], []),
                                                              "noqx": ([], [])}
        for _ in range(runs):
            for who, cmd in (("ours", ours), ("noqx", theirs)):
                wall, cpu = run(cmd, env=env if who == "ours" else None)
                times[who][0].append(wall * 1000)
                times[who][1].append(cpu * 1000)
        label = f"{source} {slug} {board['w']}x{board['h']}"
        for who in ("ours", "noqx"):
            walls, cpus = times[who]
            print(f"{label:<26} {who}: wall median {statistics.median(walls):6.1f} ms, "
                  f"fastest {min(walls):6.1f} ms; CPU median {statistics.median(cpus):6.1f} ms",
                  flush=True)
        wall, cpu = (statistics.median(times["noqx"][k]) / statistics.median(times["ours"][k])
                     for k in (0, 1))
        print(f"{label:<26} noqx / ours: wall medians {wall:.2f}, CPU medians {cpu:.2f}",
              flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="processes per puzzle")
    ap.add_argument("--only", choices=PUZZLES, action="append", help="one puzzle (repeatable)")
    ap.add_argument("--noqx", type=Path, help="a checkout of github.com/T0nyX1ang/noqx: "
                                              "time the examples beside noqx's processes")
    ap.add_argument("--checkout", type=Path, default=ROOT,
                    help="with --noqx: the folder whose site_builder runs (default: this one)")
    args = ap.parse_args()
    if args.noqx is not None:
        if not (args.noqx / "noqx" / "clingo.py").exists():
            print(f"{args.noqx} is not a noqx checkout", file=sys.stderr)
            return 2
        beside_noqx(args.noqx, args.checkout, args.runs)
        return 0
    exe = BIN / "build-site"
    if not exe.exists():
        print(f"no {exe}; run ./scripts/build first", file=sys.stderr)
        return 2
    report("python -c pass", [[sys.executable, "-c", "pass"]], args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        for slug in args.only or PUZZLES:
            cmds = [[str(exe), "solve", slug, f] for f in board_files(slug, 5, Path(tmp))]
            report(f"build-site solve {slug}", cmds, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
