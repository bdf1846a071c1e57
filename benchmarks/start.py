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


def run(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         check=False)
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="processes per puzzle")
    ap.add_argument("--only", choices=PUZZLES, action="append", help="one puzzle (repeatable)")
    args = ap.parse_args()
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
