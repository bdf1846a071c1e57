"""Our solvers against noqx (clingo answer-set programs) on both corpora (not a test).

    .venv/bin/pip install clingo
    git clone https://github.com/T0nyX1ang/noqx /tmp/noqx      # not committed here
    .venv/bin/python benchmarks/peers.py --noqx /tmp/noqx
    .venv/bin/python benchmarks/peers.py --noqx /tmp/noqx --only sukoro --sizes 16x16
    .venv/bin/python benchmarks/peers.py --noqx /tmp/noqx --corpus outside --clock cpu

The corpora (``--corpus``, both by default, printed apart): ``benchmarks/hard/`` (drawn
by our own generators) and ``benchmarks/outside/`` (drawn by ``benchmarks/outside.py``'s
answer-set models, which share no code with our solvers).

Per board, in one process and one thread, the two engines take turns (ours, noqx, ours,
noqx, ...; ``--repeat`` rounds, best of each): ours is ``solve(board, limit=2)`` from a
Board (grade included; with ``--no-grade``, answers and verdict only where the solver
can skip the grade, which is all noqx computes); noqx is its own program for the puzzle built from the same clues
(noqx's solver class), grounded and solved by clingo with noqx's settings, one thread,
asked for two models. Both prove the board unique; the models are checked against the
stored answer. Printed: per-board times and ratios (noqx / ours), median and worst.
A registered puzzle that ``PEERS`` does not map to a noqx program is printed as "no peer".
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import hard

from solvers import registry

HOWTO = """noqx is not bundled. To compare against it:
    .venv/bin/pip install clingo
    git clone https://github.com/T0nyX1ang/noqx /tmp/noqx
    .venv/bin/python benchmarks/peers.py --noqx /tmp/noqx"""



def _numbers(model: str, grid: list[list[str]]) -> None:
    """Sukoro: a cell's number, 0 for a blank one."""
    for r, c, n in re.findall(r"number\((\d+),(\d+),(\d+)\)", model):
        if int(n):
            grid[int(r)][int(c)] = n


def _numbered(model: str, grid: list[list[str]]) -> None:
    """Nanro: a numbered cell (one that is not gray) as ``#``."""
    for r, c, _ in re.findall(r"number\((\d+),(\d+),(\d+)\)", model):
        grid[int(r)][int(c)] = "#"


def _black(model: str, grid: list[list[str]]) -> None:
    """Canal View: a black (water) cell as ``#``."""
    for r, c in re.findall(r"black\((\d+),(\d+)\)", model):
        grid[int(r)][int(c)] = "#"


@dataclass(frozen=True)
class Peer:
    """noqx's counterpart of one of our puzzles: its name there, how our board JSON goes
    in ("clues": each clue as cell text; "regions": ``Noqx._regions``) and how a model's
    atoms read back as our answer rows."""

    name: str
    board: str
    model: Callable[[str, list[list[str]]], None]


# Our puzzle -> noqx's. A registered puzzle missing here has no peer (printed so).
PEERS: dict[str, Peer] = {
    "sukoro": Peer("sukoro", "clues", _numbers),
    "canal-view": Peer("canal", "clues", _black),
    "nanro": Peer("nanro", "regions", _numbered),
}


class Noqx:
    """noqx's program for a puzzle, solved by clingo the way noqx does (one thread)."""

    def __init__(self, path: Path) -> None:
        sys.path.insert(0, str(path))
        from noqx.clingo import ClingoSolver, Config
        from noqx.manager import load_solver, modules
        from noqx.puzzle import Point, Puzzle
        Config.max_solutions_to_find = 2
        Config.parallel_threads = 1
        Config.time_limit = 600
        for name in (peer.name for peer in PEERS.values()):
            if name not in modules:
                load_solver("solver", name)
        self.modules, self.Puzzle, self.Point = modules, Puzzle, Point
        self.ClingoSolver = ClingoSolver

    def puzzle(self, slug: str, board: dict[str, Any]) -> Any:
        peer = PEERS[slug]
        p = self.Puzzle(peer.name, "", {})
        p.row, p.col = board["h"], board["w"]
        if peer.board == "regions":
            return self._regions(p, board)
        for r, row in enumerate(board["clues"]):
            for c, v in enumerate(row):
                if v is not None:
                    p.text[self.Point(r, c)] = v
        return p

    def _regions(self, p: Any, board: dict[str, Any]) -> Any:
        """Nanro for noqx: regions as borders (an edge on the left or top side of a cell
        whose neighbour there lies in another region; noqx finds the rooms by a flood
        inside the borders), numbers as cell text, a region's value without a cell
        (our label hint) as the corner text of the region's first cell. A ``?`` given
        has no noqx text: it goes in as one extra line, "this cell is not blank"."""
        regions = board["regions"]
        p.extra = []
        for r, row in enumerate(regions):
            for c, k in enumerate(row):
                if c and row[c - 1] != k:
                    p.edge[self.Point(r, c, "left")] = True
                if r and regions[r - 1][c] != k:
                    p.edge[self.Point(r, c, "top")] = True
                v = board["clues"][r][c]
                if v == "?":
                    p.extra.append(f":- gray({r}, {c}).")
                elif v is not None:
                    p.text[self.Point(r, c)] = v
        labels = board.get("labels") or []
        first: dict[int, tuple[int, int]] = {}
        for r, row in enumerate(regions):
            for c, k in enumerate(row):
                first.setdefault(k, (r, c))
        for k, v in enumerate(labels):       # region ids are numbered by first appearance
            if v is not None:
                r, c = first[k]
                p.text[self.Point(r, c, "center", "corner_top_left")] = v
        return p

    def solve(self, slug: str, puzzle: Any) -> list[str]:
        """Program generation, grounding and solving; the raw models."""
        program = self.modules[PEERS[slug].name].solve(puzzle)
        extra = getattr(puzzle, "extra", None)
        if extra:
            program += "\n" + "\n".join(extra)
        inst = self.ClingoSolver()
        inst.solve(program)
        return inst.solution()


def model_rows(slug: str, model: str, h: int, w: int) -> list[str]:
    """A noqx model as our answer rows."""
    grid = [["." for _ in range(w)] for _ in range(h)]
    PEERS[slug].model(model, grid)
    return ["".join(row) for row in grid]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--noqx", type=Path, help="a checkout of github.com/T0nyX1ang/noqx")
    ap.add_argument("--only", choices=tuple(registry.slugs()), action="append")
    ap.add_argument("--sizes", nargs="+", help="default: every size a corpus holds")
    ap.add_argument("--corpus", choices=(*hard.CORPORA, "both"), default="both")
    ap.add_argument("--repeat", type=int, default=2, help="rounds per board (best of)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall: perf_counter; cpu: this process's CPU time (fairer on a "
                         "loaded machine; clingo runs in this thread)")
    ap.add_argument("--no-grade", action="store_true",
                    help="ours proves uniqueness without grading (as noqx does) where the "
                         "solver can skip the grade (Puzzle.ungraded)")
    args = ap.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    if args.noqx is None or not (args.noqx / "noqx" / "clingo.py").exists():
        print(HOWTO, file=sys.stderr)
        return 2
    try:
        nq = Noqx(args.noqx)
    except ImportError as e:
        print(f"cannot load noqx from {args.noqx}: {e}\n{HOWTO}", file=sys.stderr)
        return 2
    slugs = tuple(args.only or registry.slugs())
    for slug in slugs:
        if slug not in PEERS:
            print(f"{slug}: no peer (benchmarks/peers.py maps it to no noqx program)")
    slugs = tuple(s for s in slugs if s in PEERS)
    if not slugs:
        return 0
    print(f"clock: {args.clock}; best of {args.repeat} alternating rounds per board; ours "
          f"{'without the grade where it can skip it' if args.no_grade else 'graded'}")
    corpora = tuple(hard.CORPORA) if args.corpus == "both" else (args.corpus,)
    all_ratios: list[float] = []
    slower = wrong = 0
    for corpus in corpora:
        sizes = args.sizes or hard.corpus_sizes(corpus)
        boards = hard.load(slugs, tuple(sizes), corpus)
        if not boards:
            continue
        print(f"== corpus {corpus}")
        ratios, s, w = compare(nq, boards, slugs, sizes, args, clock, corpus)
        all_ratios.extend(ratios)
        slower += s
        wrong += w
        if ratios:
            print(f"{corpus} all boards: {len(ratios)}, median ratio "
                  f"{statistics.median(ratios):.2f}x, lowest {min(ratios):.2f}x, boards where "
                  f"noqx was faster: {s}")
    if not all_ratios:
        print("no board of a puzzle with a peer in the corpus", file=sys.stderr)
        return 2
    print(f"all boards: {len(all_ratios)}, median ratio {statistics.median(all_ratios):.2f}x, "
          f"lowest {min(all_ratios):.2f}x, boards where noqx was faster: {slower}")
    if wrong:
        print(f"{wrong} board(s) where an engine did not return exactly the stored answer",
              file=sys.stderr)
        return 1
    return 0


def compare(nq: Noqx, boards: list[dict[str, Any]], slugs: tuple[str, ...], sizes: list[str],
            args: argparse.Namespace, clock: Any, corpus: str) -> tuple[list[float], int, int]:
    """Both engines on one corpus, per board and per puzzle and size: (ratios, boards
    where noqx was faster, boards where an engine did not give the stored answer)."""
    all_ratios: list[float] = []
    slower = 0
    wrong = 0
    print(f"{'board':24} {'ours ms':>9} {'noqx ms':>9} {'noqx/ours':>9}")
    for slug in slugs:
        for size in sizes:
            es = [e for e in boards if e["slug"] == slug and e["size"] == size]
            if not es:
                continue
            ours = registry.get(slug)
            kw = {"grade": False} if args.no_grade and ours.ungraded else {}
            ours_ms, noqx_ms, ratios = [], [], []
            for e in es:
                board = ours.board_from_json(e["board"])
                puzzle = nq.puzzle(slug, e["board"])
                best_o = best_n = float("inf")
                for _ in range(args.repeat):
                    cached = hard.solver_cache(ours)
                    if cached is not None:
                        cached.cache_clear()
                    t0 = clock()
                    res = ours.solve(board, limit=2, **kw)
                    best_o = min(best_o, (clock() - t0) * 1000)
                    t0 = clock()
                    models = nq.solve(slug, puzzle)
                    best_n = min(best_n, (clock() - t0) * 1000)
                want = ours.answer_rows(ours.answer_from_json(e["answer"]))
                h, w = e["board"]["h"], e["board"]["w"]
                ok = (len(res.solutions) == 1 and ours.answer_rows(res.solutions[0]) == want
                      and len(models) == 1 and model_rows(slug, models[0], h, w) == want)
                wrong += not ok
                ratio = best_n / best_o
                slower += ratio < 1
                ours_ms.append(best_o)
                noqx_ms.append(best_n)
                ratios.append(ratio)
                print(f"{e['id']:24} {best_o:9.1f} {best_n:9.1f} {ratio:8.2f}x"
                      f"{'' if ok else '  ANSWERS DIFFER'}", flush=True)
            all_ratios.extend(ratios)
            print(f"{corpus} {slug} {size}: ours median {statistics.median(ours_ms):.1f} ms, worst "
                  f"{max(ours_ms):.1f} ms; noqx median {statistics.median(noqx_ms):.1f} ms, "
                  f"worst {max(noqx_ms):.1f} ms; ratio median "
                  f"{statistics.median(ratios):.2f}x, lowest {min(ratios):.2f}x", flush=True)
    return all_ratios, slower, wrong


if __name__ == "__main__":
    sys.exit(main())
