"""Hard-board speed figures (not a test): minimal-clue boards, proving uniqueness.

    .venv/bin/python benchmarks/hard.py                  # time solve(limit=2) on the corpus
    .venv/bin/python benchmarks/hard.py --repeat 5       # best of 5 per board
    .venv/bin/python benchmarks/hard.py --no-grade       # answers and verdict, no grade
    .venv/bin/python benchmarks/hard.py --no-sat         # as if python-sat were missing
    .venv/bin/python benchmarks/hard.py --no-sat --timeout 60 --clock cpu   # the fallback's bar
    .venv/bin/python benchmarks/hard.py --regenerate     # redraw the corpus (slow), then time
    .venv/bin/python benchmarks/hard.py --regenerate --only sukoro --sizes 30x30
    .venv/bin/python benchmarks/hard.py --corpus outside --clock cpu   # one corpus only
    .venv/bin/python benchmarks/hard.py --corpus fresh --only sukoro --sizes 20x20 --count 40

Two corpora, timed and printed apart (``--corpus``, both by default): ``hard`` (below)
and ``outside`` (``benchmarks/outside/``, drawn by ``benchmarks/outside.py``: answer-set
models that share no code with our solvers, so boards our search did not choose).
``--corpus fresh`` times ``--count`` boards drawn the hard corpus's way from seeds it does
not use (``fresh-<slug>-<size>-<k>``; kept in ``.cache/fresh/``, not committed): a check
that a change chosen by its figures on the committed corpora holds on boards it was not
chosen on.

The hard corpus lives in ``benchmarks/hard/<slug>-<size>.json``: boards drawn from fixed seeds
with the puzzles' own generators (an answer, every clue printed, then clues removed one at
a time while the answer stays unique, so every clue left is needed). Each entry holds the
board JSON, its puzz.link URL, the answer and the seed. The benchmark only reads it.
Timings vary run to run (the machine is shared); node counts do not.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers import registry

CORPUS = ROOT / "benchmarks" / "hard"
# Every corpus this benchmark reads, by name; regeneration (--regenerate) is for "hard".
CORPORA = {"hard": CORPUS, "outside": ROOT / "benchmarks" / "outside"}
PUZZLES = tuple(registry.slugs())
SIZES = ("16x16", "20x20", "30x30")
PER_SIZE = 5


def seed_of(slug: str, size: str, k: int, kind: str = "hard") -> str:
    return f"{kind}-{slug}-{size}-{k}"


def _hw(size: str) -> tuple[int, int]:
    a, b = size.split("x")
    return int(a), int(b)


# Options a puzzle's generator is called with here (its defaults otherwise).
GENERATE_OPTIONS: dict[str, dict[str, Any]] = {"nanro": {"target": "probe"}}
# Puzzles whose generator stops at clues minimal for a rung, not for uniqueness: the
# benchmark then takes back every clue the search does not need (``take_back``).
TAKE_BACK = frozenset({"nanro"})


def make_board(slug: str, size: str, k: int, kind: str = "hard") -> dict[str, Any]:
    """One corpus entry, drawn with the puzzle's own generator from a fixed seed."""
    puzzle = registry.get(slug)
    h, w = _hw(size)
    seed = seed_of(slug, size, k, kind)
    rng = random.Random(seed)
    board, answer = puzzle.generate(h, w, rng, **GENERATE_OPTIONS.get(slug, {}))
    if slug in TAKE_BACK:
        board = take_back(puzzle, board, rng)
    return {"id": f"{slug}-{size}-{k:02d}", "slug": slug, "size": size,
            "seed": seed, "url": puzzle.encode(board),
            "clues": _clue_count(board),
            "board": board.to_json(), "answer": answer.to_json()}


def unique(puzzle: Any, board: Any) -> bool:
    """Whether ``board`` has exactly one answer (answers and verdict only, where the
    puzzle's solve can skip the grade)."""
    kw = {"grade": False} if puzzle.ungraded else {}
    return len(puzzle.solve(board, limit=2, **kw).solutions) == 1


def take_back(puzzle: Any, board: Any, rng: random.Random) -> Any:
    """``board`` with every clue uniqueness does not need taken back, in a random order:
    a minimal clue set. Works on the board JSON's ``clues`` grid (None: no clue)."""
    data = board.to_json()
    h, w = data["h"], data["w"]
    flat = [v for row in data["clues"] for v in row]

    def with_clues() -> Any:
        rows = [flat[r * w:(r + 1) * w] for r in range(h)]
        return puzzle.board_from_json({**data, "clues": rows})

    order = [i for i, v in enumerate(flat) if v is not None]
    rng.shuffle(order)
    for i in order:
        keep = flat[i]
        flat[i] = None
        if not unique(puzzle, with_clues()):
            flat[i] = keep
    return with_clues()


def _clue_count(board: Any) -> int:
    if hasattr(board, "cells") and not callable(board.cells):
        return sum(getattr(k, "value", None) is not None for k in board.cells)
    if hasattr(board, "flat"):
        return sum(v is not None for v in board.flat())
    return sum(v is not None for row in board.clues for v in row)


def corpus_file(slug: str, size: str, corpus: str = "hard") -> Path:
    return CORPORA[corpus] / f"{slug}-{size}.json"


def corpus_sizes(corpus: str) -> list[str]:
    """The sizes a corpus holds a file of, smallest first."""
    got = {p.stem.rsplit("-", 1)[1] for p in CORPORA[corpus].glob("*-*x*.json")
           if not p.name.startswith(".")}         # not the part files of a drawing
    return sorted(got, key=lambda s: (_hw(s)[0] * _hw(s)[1], s))


def load(slugs=PUZZLES, sizes=SIZES, corpus: str = "hard") -> list[dict[str, Any]]:
    """The boards of ``corpus`` for these puzzles and sizes (``sizes`` None: all)."""
    out = []
    for slug in slugs:
        for size in corpus_sizes(corpus) if sizes is None else sizes:
            p = corpus_file(slug, size, corpus)
            if p.exists():
                out.extend(json.loads(p.read_text())["boards"])
    return out


FRESH = ROOT / ".cache" / "fresh"


def fresh(slugs, sizes, count: int) -> list[dict[str, Any]]:
    """``count`` boards per puzzle and size drawn like the hard corpus's from the seeds
    ``fresh-<slug>-<size>-<k>``, each drawn once and kept in ``.cache/fresh/``."""
    FRESH.mkdir(parents=True, exist_ok=True)
    out = []
    for slug in slugs:
        for size in sizes:
            for k in range(count):
                p = FRESH / f"{slug}-{size}-{k:02d}.json"
                if not p.exists():
                    print(f"  drawing fresh {slug} {size} #{k} ...", flush=True)
                    _write(p, make_board(slug, size, k, "fresh"))
                out.append(json.loads(p.read_text()))
    return out


def regenerate(slug: str, size: str, count: int, index: int | None = None) -> None:
    """Draw the boards of one size; with ``index``, draw only that board into a part file
    (several processes can share the work) and merge once every part is there."""
    CORPUS.mkdir(parents=True, exist_ok=True)
    ks = range(count) if index is None else [index]
    for k in ks:
        t0 = time.perf_counter()
        e = make_board(slug, size, k)
        print(f"  drew {e['id']}: {e['clues']} clues, {time.perf_counter() - t0:.1f} s",
              flush=True)
        _write(_part(slug, size, k), e)
    merge(slug, size, count)


def merge(slug: str, size: str, count: int, partial: bool = False) -> None:
    """Write the corpus file of one size from its part files once all ``count`` are there
    (with ``partial``: from whichever are there, when drawing the rest ran out of time)."""
    parts = [_part(slug, size, k) for k in range(count)]
    if partial:
        parts = [p for p in parts if p.exists()]
    if parts and all(p.exists() for p in parts):
        boards = [json.loads(p.read_text()) for p in parts]
        _write(corpus_file(slug, size),
               {"schema": 1, "slug": slug, "size": size,
                "recipe": "generate() from fixed seeds; minimal clue sets", "boards": boards})
        if not partial:          # a partial file is written again as more parts arrive
            for p in parts:
                p.unlink()


def _part(slug: str, size: str, k: int) -> Path:
    return CORPUS / f".part-{slug}-{size}-{k:02d}.json"


def _write(p: Path, data: Any) -> None:
    tmp = p.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(p)


def solver_cache(puzzle: Any) -> Any:
    """The cache a solver keeps across calls (``_ctx_cached`` beside its solve), if any:
    cleared before each timed run, so that no run reuses an earlier one's work."""
    return getattr(puzzle.solve, "__globals__", {}).get("_ctx_cached")


def time_board(e: dict[str, Any], repeat: int, clock=time.perf_counter, grade: bool = True,
               timeout: float | None = None) -> tuple[float, int, bool | None]:
    """(best time in ms, search nodes, proved unique with the stored answer; None when
    the solve ran past ``timeout`` seconds, as ``--timeout`` stops the CLI's: then the
    time is that of the stopped run and no repeat follows).
    ``grade=False``: answers and verdict only, where the puzzle's solve can skip the
    grade (``Puzzle.ungraded``)."""
    from solvers.common import Budget, BudgetExceeded, active
    puzzle = registry.get(e["slug"])
    kw = {} if grade else {"grade": False}
    board = puzzle.board_from_json(e["board"])
    best = None
    cached = solver_cache(puzzle)
    for _ in range(repeat):
        if cached is not None:
            cached.cache_clear()       # no state carried over from an earlier run
        t0 = clock()
        try:
            if timeout is None:
                res = puzzle.solve(board, limit=2, **kw)
            else:
                with active(Budget(timeout=timeout)):
                    res = puzzle.solve(board, limit=2, **kw)
        except BudgetExceeded as ex:
            return (clock() - t0) * 1000, ex.nodes, None
        dt = (clock() - t0) * 1000
        best = dt if best is None else min(best, dt)
    ok = len(res.solutions) == 1 and res.solutions[0] == puzzle.answer_from_json(e["answer"])
    return best, res.nodes, ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--regenerate", action="store_true",
                    help="redraw the corpus from its fixed seeds before timing")
    ap.add_argument("--only", choices=PUZZLES, action="append", help="one puzzle (repeatable)")
    ap.add_argument("--sizes", nargs="+", help="sizes, e.g. 16x16 (default: every size a "
                    "corpus holds; with --regenerate: " + " ".join(SIZES) + ")")
    ap.add_argument("--corpus", choices=(*CORPORA, "both", "fresh"), default="both",
                    help="which corpus to time (default both, printed apart); fresh: "
                         "--count boards drawn from seeds the corpora do not use")
    ap.add_argument("--count", type=int, default=PER_SIZE,
                    help="boards per size (regenerate, fresh)")
    ap.add_argument("--index", type=int, help="regenerate only this board of each size")
    ap.add_argument("--merge-partial", action="store_true",
                    help="write each size's corpus file from the part files drawn so far")
    ap.add_argument("--repeat", type=int, default=3, help="timing repeats per board (best)")
    ap.add_argument("--per-board", action="store_true", help="print every board")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall: perf_counter; cpu: process CPU time (for a loaded machine)")
    ap.add_argument("--no-grade", action="store_true",
                    help="time answers and verdict only, without the grade, where the "
                         "puzzle's solve can skip it (Puzzle.ungraded)")
    ap.add_argument("--no-sat", action="store_true",
                    help="set PUZZLE_NO_SAT=1: every puzzle runs as where python-sat is "
                         "missing (its pure-Python engines, solvers/cdcl.py)")
    ap.add_argument("--timeout", type=float,
                    help="stop a board's solve after this many seconds of wall time, as "
                         "the CLI's --timeout does (counted as not decided; no repeat)")
    args = ap.parse_args()
    if args.no_sat:
        import os
        os.environ["PUZZLE_NO_SAT"] = "1"
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    slugs = tuple(args.only or PUZZLES)
    if args.regenerate:
        for slug in slugs:
            for size in args.sizes or SIZES:
                print(f"regenerating {slug} {size} ...", flush=True)
                regenerate(slug, size, args.count, args.index)
    if args.merge_partial:
        for slug in slugs:
            for size in args.sizes or SIZES:
                merge(slug, size, args.count, partial=True)
    corpora = tuple(CORPORA) if args.corpus == "both" else (args.corpus,)
    bad = found = 0
    for corpus in corpora:
        if corpus == "fresh":
            sizes = args.sizes or list(SIZES)
            boards = fresh(slugs, sizes, args.count)
        else:
            sizes = args.sizes or corpus_sizes(corpus)
            boards = load(slugs, tuple(sizes), corpus)
        found += len(boards)
        if boards:
            where = (FRESH if corpus == "fresh" else CORPORA[corpus]).relative_to(ROOT)
            print(f"== corpus {corpus} ({where}), clock {args.clock}, best of "
                  f"{args.repeat}", flush=True)
            bad += time_corpus(boards, slugs, sizes, args, clock, corpus)
    if not found:
        print("no corpus found under benchmarks/hard/ or benchmarks/outside/; run with "
              "--regenerate (hard) or benchmarks/outside.py", file=sys.stderr)
        return 2
    if bad:
        print(f"{bad} board(s) not proved unique with the stored answer (or past "
              "--timeout)", file=sys.stderr)
        return 1
    return 0


def time_corpus(boards: list[dict[str, Any]], slugs: tuple[str, ...], sizes: list[str],
                args: argparse.Namespace, clock: Any, corpus: str) -> int:
    """Time one corpus, one line per puzzle and size; the number of boards not proved
    unique with their stored answer."""
    bad = 0
    for slug in slugs:
        grade = not (args.no_grade and registry.get(slug).ungraded)
        for size in sizes:
            es = [e for e in boards if e["slug"] == slug and e["size"] == size]
            if not es:
                continue
            ms, nodes = [], []
            stopped = 0
            for e in es:
                dt, nd, ok = time_board(e, args.repeat, clock, grade, args.timeout)
                stopped += ok is None
                bad += not ok
                ms.append(dt)
                nodes.append(nd)
                if args.per_board:
                    verdict = ("TIMED OUT" if ok is None
                               else "unique" if ok else "NOT PROVED UNIQUE")
                    print(f"  {e['id']}: {dt:8.1f} ms  {nd:6d} nodes  {verdict}", flush=True)
            late = f", {stopped} past --timeout {args.timeout:g} s" if stopped else ""
            print(f"{corpus} {slug} {size}{'' if grade else ' (not graded)'}: boards "
                  f"{len(es)}, median {statistics.median(ms):.1f} ms, "
                  f"worst {max(ms):.1f} ms, in all {sum(ms):,.0f} ms{late}; nodes median "
                  f"{statistics.median_low(nodes)}, worst {max(nodes)}", flush=True)
    return bad


if __name__ == "__main__":
    sys.exit(main())
