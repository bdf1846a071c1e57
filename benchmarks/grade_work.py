"""The work a graded solve does, counted rather than timed (not a test): the counts are
the same on every run and machine, so a change to the grade's search can be judged
without timing noise.

    .venv/bin/python benchmarks/grade_work.py                # both puzzles
    .venv/bin/python benchmarks/grade_work.py --only sukoro --windows

Sukoro: probe trials plus repairs of every ``Closer`` a graded ``solve(limit=2)`` makes,
per corpus and size (hard and outside, 16x16 to 40x40). With ``--windows``, also, for the
boards graded search, at which try a witness is first found among the windows traced
from the SAT engine's rejected models alone (``ladder._windows`` with no squares) and
among the nine squares of the fixed 3 x 3 grid. Nanro: ``Grid.splits`` calls of graded
solves of the hard corpus, in one process (the certificates kept across solves, as in
the CLI's runs).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import hard  # benchmarks/hard.py: the corpora

from site_builder.solve import solve_bounded
from solvers import registry

SETS = [("hard", "16x16"), ("hard", "20x20"), ("outside", "20x20"), ("hard", "30x30"),
        ("outside", "30x30"), ("outside", "40x40")]


def sukoro(windows: bool) -> None:
    from solvers.sukoro import ladder
    from solvers.sukoro import search as fast

    made: list = []
    init = fast.Closer.__init__

    def counted(self, *a, **k) -> None:
        init(self, *a, **k)
        made.append(self)

    fast.Closer.__init__ = counted       # type: ignore[method-assign]
    p = registry.get("sukoro")
    total = 0
    firsts: collections.Counter = collections.Counter()
    for corpus, size in SETS:
        per = []
        for e in hard.load(("sukoro",), [size], corpus):
            made.clear()
            b = p.decode(e["url"])
            res = solve_bounded(p, b, limit=2, timeout=600)
            per.append(sum(c.trials + c.repairs for c in made))
            if windows and res.rung == "search":
                firsts.update(_first_witness(ladder, fast, b))
        total += sum(per)
        print(f"sukoro {corpus} {size}: {sum(per):,} trials and repairs {per}", flush=True)
    print(f"sukoro all: {total:,}")
    if windows:
        for (kind, at), n in sorted(firsts.items(),
                                    key=lambda x: (x[0][0], x[0][1] is None, x[0][1] or 0)):
            where = "none of the tries" if at is None else f"try {at + 1}"
            print(f"  {kind}: first witness at {where}: {n} boards")


def _first_witness(ladder, fast, b) -> list[tuple[str, int | None]]:
    g = fast.geo(b.h, b.w)
    st = fast.from_domains(ladder.initial(b))
    for k in range(3):
        st = fast.propagate(g, st, k >= 1, k >= 2)
    misses: list = []
    found, _, _ = ladder._below(g, st, 2, ladder.STANDARD, "sat", misses)
    ans = found[0]
    k = max(ladder.WINDOW_MIN, min(g.h, g.w) // 2)
    grid = sorted({0, (g.h - k) // 2, g.h - k}), sorted({0, (g.w - k) // 2, g.w - k})
    squares = []
    for r0, c0 in [(r, c) for r in grid[0] for c in grid[1]]:
        squares.append(sum(((1 << k) - 1) << (r * g.w + c0) for r in range(r0, r0 + k)))
    out = []
    for kind, wins in (("traced", ladder._windows(g, k, ans, misses, 0)), ("grid", squares)):
        at = None
        for i, win in enumerate(wins):
            x = tuple((a & ~win) | (y & win) for a, y in zip(ans, st, strict=True))
            x = fast.propagate(g, x, True, True)
            if x is None:
                continue
            x = fast.Closer(g, True, True).close(x, [ans])
            if x is not None and not fast.complete(x):
                at = i
                break
        out.append((kind, at))
    return out


def nanro() -> None:
    from solvers import bitconn

    calls = [0]
    splits = bitconn.Grid.splits

    def counted(self, *a):
        calls[0] += 1
        return splits(self, *a)

    bitconn.Grid.splits = counted        # type: ignore[method-assign]
    p = registry.get("nanro")
    for size in ("16x16", "20x20", "30x30"):
        start = calls[0]
        for e in hard.load(("nanro",), [size], "hard"):
            solve_bounded(p, p.decode(e["url"]), limit=2, timeout=600)
        print(f"nanro hard {size}: {calls[0] - start:,} Grid.splits calls", flush=True)
    print(f"nanro all: {calls[0]:,}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=("sukoro", "nanro"))
    ap.add_argument("--windows", action="store_true",
                    help="Sukoro: where the first witness lies, traced windows and grid")
    args = ap.parse_args()
    if args.only != "nanro":
        sukoro(args.windows)
    if args.only != "sukoro":
        nanro()
    return 0


if __name__ == "__main__":
    sys.exit(main())
