"""The outside corpus (not a test): boards drawn without our solvers, by answer-set models.

    .venv/bin/python benchmarks/outside.py --only canal-view --sizes 20x20      # draw
    .venv/bin/python benchmarks/outside.py --only sukoro --sizes 30x30 --index 2

Our generators draw boards our solvers find easy (they keep a clue whenever our own
search needs it), so a corpus drawn by them hides what the search is weak at. This file
draws boards the way another tool would: each puzzle's rules are written here as an
answer-set program (ground by this file, solved by clingo in one thread) that shares no
code with ``solvers/``:

1. an answer: clingo with a fixed ``--seed``, ``--rand-freq`` and random signs, under a
   random partial assignment chosen by our own seeded RNG (halved until the model can
   complete it);
2. every clue the answer gives (Canal View: every dry cell's count; Sukoro: every
   number; Nanro: every number, on regions cut by our seeded RNG; Sashigane, puzz.link's
   standard rules: every piece's numbered corner circle and an arrow on each end);
3. clues taken away in a seeded random order while the model proves the answer unique
   (the program plus "not this answer" is UNSAT), in batches: ``k`` clues at once,
   doubling ``k`` after a success and halving it after a failure, one at a time before a
   clue is kept; every clue kept was tested alone, so the clue set is minimal. One
   clingo control serves every test (clues are assumptions), so what it learns carries
   over. Two shortcuts change how a verdict is reached, never the verdict, so they
   draw the same boards: every second answer clingo finds is kept with the clues it
   breaks, and a test that one of them already answers (it breaks none of the clues
   still on) is not asked again; and a test still open after ``CONFLICTS`` conflicts
   in the shared control (near the end of a removal, its learnt clauses and the clues
   held as assumptions can make a proof many times slower than from scratch) moves to
   controls of its own, grounded with the clues on as facts, one per clingo
   configuration of ``PORTFOLIO``, which take turns with doubling conflict budgets
   until one decides it (all counts of conflicts, so still deterministic).

Deterministic: the same seeds and the same sequence of one-thread clingo calls give the
same files. Output: ``benchmarks/outside/<slug>-<H>x<W>.json`` in the format of
``benchmarks/hard/`` (read by ``benchmarks/hard.py`` and ``benchmarks/peers.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "benchmarks" / "outside"
PUZZLES = ("canal-view", "sukoro", "nanro", "sashigane")
SIZES = ("20x20", "30x30", "40x40")
PER_SIZE = 5
RAND_FREQ = "0.05"
PARTIAL = 0.06           # share of cells our RNG fixes before clingo draws an answer
CONFLICTS = 5000         # one uniqueness test's conflicts in the shared control
PORTFOLIO = ("auto", "trendy")   # clingo configurations a hard test takes turns with


def seed_of(slug: str, size: str, k: int) -> str:
    return f"outside-{slug}-{size}-{k}"


def _hw(size: str) -> tuple[int, int]:
    a, b = size.split("x")
    return int(a), int(b)


def _control(seed: int, rand: bool = True, config: str = "auto") -> Any:
    """One-thread clingo; with ``rand``, seeded random signs and decisions (to draw an
    answer). The uniqueness tests run without: their verdict (UNSAT or not) is all the
    removal reads, and the default heuristics reach it faster. ``config``: clingo's
    ``--configuration`` (``auto`` is its default)."""
    import clingo
    rnd = ["--rand-freq", RAND_FREQ, "--sign-def", "rnd"] if rand else []
    conf = [] if config == "auto" else [f"--configuration={config}"]
    return clingo.Control(["--seed", str(seed), *rnd, *conf, "-t", "1", "--warn", "none"])


class Grid:
    """Cells 0..n-1 in reading order and their orthogonal neighbours."""

    def __init__(self, h: int, w: int) -> None:
        self.h, self.w, self.n = h, w, h * w

    def rc(self, i: int) -> tuple[int, int]:
        return divmod(i, self.w)

    def at(self, r: int, c: int) -> int | None:
        return r * self.w + c if 0 <= r < self.h and 0 <= c < self.w else None

    def adj(self, i: int) -> list[int]:
        r, c = self.rc(i)
        return [j for j in (self.at(r - 1, c), self.at(r, c + 1), self.at(r + 1, c),
                            self.at(r, c - 1)) if j is not None]

    def ray(self, i: int, d: tuple[int, int]) -> list[int]:
        r, c = self.rc(i)
        out = []
        r, c = r + d[0], c + d[1]
        while (j := self.at(r, c)) is not None:
            out.append(j)
            r, c = r + d[0], c + d[1]
        return out

    def squares(self) -> Iterable[tuple[int, int, int, int]]:
        for r in range(self.h - 1):
            for c in range(self.w - 1):
                i = r * self.w + c
                yield i, i + 1, i + self.w, i + self.w + 1


DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def connected(g: Grid, p: str) -> list[str]:
    """Rules: the cells where ``p`` holds form one orthogonally connected group (empty
    allowed). The root is the first such cell in reading order; reach spreads from it."""
    out = []
    for i in range(g.n - 1):
        out.append(f"bef_{p}({i + 1}) :- bef_{p}({i}).")
        out.append(f"bef_{p}({i + 1}) :- {p}({i}).")
    out.append(f"reach_{p}(I) :- {p}(I), not bef_{p}(I), cell(I).")
    out += [f"reach_{p}({j}) :- reach_{p}({i}), {p}({j})." for i in range(g.n)
            for j in g.adj(i)]
    out.append(f":- {p}(I), not reach_{p}(I), cell(I).")
    return out


class Model:
    """One puzzle's answer-set model: rules, answer, clues and the board built from
    them. Subclasses give ``rules``, ``shown`` (the atoms an answer is compared on),
    ``clue_rules`` (rules gated by ``given(K)``), ``read`` and ``entry``."""

    slug = ""

    def __init__(self, h: int, w: int, rng: random.Random) -> None:
        self.g = Grid(h, w)
        self.rng = rng

    # -- to override
    def rules(self) -> list[str]:
        raise NotImplementedError

    def free(self) -> list[str]:
        """The atoms our RNG may fix before the draw."""
        raise NotImplementedError

    def clues(self, true: set[str]) -> list[Any]:
        """Every clue the answer gives, as values ``clue_rules`` understands."""
        raise NotImplementedError

    def clue_rules(self, k: int, clue: Any) -> list[str]:
        raise NotImplementedError

    def board(self, clues: dict[int, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def answer(self, true: set[str]) -> dict[str, Any]:
        raise NotImplementedError

    def shown(self) -> list[str]:
        raise NotImplementedError

    # -- shared
    def program(self) -> str:
        return "\n".join([f"cell(0..{self.g.n - 1}).", *self.rules()])

    def draw(self, seed: int) -> set[str] | None:
        """A random answer: the atoms of ``shown()`` that hold in it."""
        import clingo
        ctl = _control(seed)
        ctl.add("base", [], self.program())
        ctl.ground([("base", [])])
        free = self.free()
        fixed = [(a, self.rng.random() < 0.5)
                 for a in free if self.rng.random() < PARTIAL]
        shown = set(self.shown())
        found: list[set[str]] = []

        def first(m: Any) -> bool:
            found.append({str(s) for s in m.symbols(atoms=True) if str(s) in shown})
            return False               # the first model is the answer: stop there

        while True:
            lits = []
            for a, v in fixed:
                sa = ctl.symbolic_atoms[clingo.parse_term(a)]
                if sa is not None:
                    lits.append(sa.literal if v else -sa.literal)
            ctl.solve(assumptions=lits, on_model=first)
            if found:
                return found[0]
            if not fixed:
                return None
            fixed = fixed[:len(fixed) // 2]

    def minimize(self, seed: int, true: set[str]) -> tuple[list[Any], dict[int, Any]] | None:
        """(every clue, the minimal clue set kept) for the answer ``true``; None when all
        the clues together do not make it unique."""
        import clingo
        clues = self.clues(true)
        body = ", ".join(a if a in true else f"not {a}" for a in self.shown())
        head = [self.program(), f":- {body}."]
        on = [True] * len(clues)
        index = {c: k for k, c in enumerate(clues)}
        broken: list[set[int]] = []     # per second answer found: the clues it breaks

        def build(facts: bool = False, config: str = "auto") -> Any:
            """A control over the program and every clue, each behind an external
            ``given``; with ``facts``, the clues on as facts and no others."""
            ctl = _control(seed, rand=False, config=config)
            parts = list(head)
            live = [k for k in range(len(clues)) if on[k] or not facts]
            for k in live:
                parts.append(f"given({k})." if facts else f"#external given({k}). [free]")
                parts.extend(self.clue_rules(k, clues[k]))
            ctl.add("base", [], "\n".join(parts))
            ctl.ground([("base", [])])
            atoms = ctl.symbolic_atoms
            return {"ctl": ctl, "lit": {} if facts else {
                        k: atoms[clingo.Function("given", [clingo.Number(k)])].literal
                        for k in live},
                    "shown": [(a, sa.literal) for a in self.shown()
                              if (sa := atoms[clingo.parse_term(a)]) is not None]}

        def second(m: Any) -> bool:
            other = {a for a, x in prover["shown"] if m.is_true(x)}
            kept = {index[c] for c in self.clues(other) if c in index}
            broken.append(set(range(len(clues))) - kept)
            return False

        def solve(limit: int | None) -> Any:
            ctl = prover["ctl"]
            ctl.configuration.solve.solve_limit = "umax" if limit is None else str(limit)
            return ctl.solve(assumptions=[x if on[k] else -x for k, x in prover["lit"].items()],
                             on_model=second)

        def unique() -> bool:
            # A second answer already found that breaks none of the clues on settles
            # the test without clingo: same verdict, so the same board, fewer calls.
            if any(not any(on[k] for k in b) for b in broken):
                return False
            res = solve(CONFLICTS)
            if res.unknown:
                # What one control learns over hundreds of tests, and clues held as
                # assumptions, can make a hard proof many times slower than from
                # scratch, and which configuration finds a rare second answer first
                # varies: past CONFLICTS the test moves to controls of its own, one per
                # configuration of PORTFOLIO with the clues on as facts, which take
                # turns with budgets doubling until one of them decides it. The shared
                # control serves the next test.
                shared, own = prover.copy(), []
                budget = max(CONFLICTS, 1)
                while res.unknown:
                    for i, config in enumerate(PORTFOLIO):
                        if len(own) == i:
                            own.append(build(facts=True, config=config))
                        prover.update(own[i])
                        res = solve(budget)
                        if not res.unknown:
                            break
                    budget *= 2
                prover.update(shared)
            return res.unsatisfiable

        prover = build()
        if not unique():
            return None
        order = list(range(len(clues)))
        self.rng.shuffle(order)
        pos, k = 0, 1
        while pos < len(order):
            batch = order[pos:pos + k]
            for i in batch:
                on[i] = False
            if unique():
                pos += len(batch)
                k *= 2
                continue
            for i in batch:
                on[i] = True
            if k == 1:
                pos += 1           # this clue is needed: kept
            else:
                k //= 2
        return clues, {i: clues[i] for i in range(len(clues)) if on[i]}


# -- Canal View ---------------------------------------------------------------------


class CanalView(Model):
    """Flooded cells ``b``: one connected group, no 2×2 block flooded; a number is dry
    and counts the flooded cells it sees in a straight line in the four directions up to
    the first dry cell or the edge."""

    slug = "canal-view"

    def rules(self) -> list[str]:
        out = ["{ b(I) } :- cell(I)."]
        out += [f":- b({a}), b({b}), b({c}), b({d})." for a, b, c, d in self.g.squares()]
        return out + connected(self.g, "b")

    def free(self) -> list[str]:
        return [f"b({i})" for i in range(self.g.n)]

    def shown(self) -> list[str]:
        return [f"b({i})" for i in range(self.g.n)]

    def clues(self, true: set[str]) -> list[Any]:
        out = []
        for i in range(self.g.n):
            if f"b({i})" in true:
                continue
            seen = 0
            for d in DIRS:
                for j in self.g.ray(i, d):
                    if f"b({j})" not in true:
                        break
                    seen += 1
            out.append((i, seen))
        return out

    def clue_rules(self, k: int, clue: Any) -> list[str]:
        i, n = clue
        out = [f":- given({k}), b({i})."]
        terms = []
        for di, d in enumerate(DIRS):
            ray = self.g.ray(i, d)
            for step, j in enumerate(ray[:n + 1]):
                a = f"run({k},{di},{step})"
                prev = f"run({k},{di},{step - 1}), " if step else ""
                out.append(f"{a} :- {prev}b({j}), given({k}).")
                terms.append(f"{di},{step} : {a}")
        out.append(f":- given({k}), #count {{ {'; '.join(terms) or '0 : #false'} }} != {n}.")
        return out

    def board(self, clues: dict[int, Any]) -> dict[str, Any]:
        rows: list[list[Any]] = [[None] * self.g.w for _ in range(self.g.h)]
        for i, n in clues.values():
            r, c = self.g.rc(i)
            rows[r][c] = n
        return {"h": self.g.h, "w": self.g.w, "clues": rows}

    def answer(self, true: set[str]) -> dict[str, Any]:
        return {"rows": ["".join("#" if f"b({r * self.g.w + c})" in true else "."
                                 for c in range(self.g.w)) for r in range(self.g.h)]}


# -- Sukoro --------------------------------------------------------------------------


class Sukoro(Model):
    """Numbered cells ``s``: one connected group; a number is the count of its numbered
    neighbours (1 to 4); two equal numbers never touch."""

    slug = "sukoro"

    def rules(self) -> list[str]:
        out = ["{ s(I) } :- cell(I)."]
        for i in range(self.g.n):
            nb = self.g.adj(i)
            out += [f"nb({i},{j})." for j in nb]
            out.append(f"v({i},N) :- s({i}), N = #count {{ J : s(J), nb({i},J) }}.")
            out.append(f":- v({i},0).")
            out += [f":- v({i},N), v({j},N)." for j in nb if j > i]
        return out + connected(self.g, "s")

    def free(self) -> list[str]:
        return [f"s({i})" for i in range(self.g.n)]

    def shown(self) -> list[str]:
        return [f"s({i})" for i in range(self.g.n)]

    def _value(self, true: set[str], i: int) -> int:
        return sum(f"s({j})" in true for j in self.g.adj(i))

    def clues(self, true: set[str]) -> list[Any]:
        return [(i, self._value(true, i)) for i in range(self.g.n) if f"s({i})" in true]

    def clue_rules(self, k: int, clue: Any) -> list[str]:
        i, n = clue
        return [f":- given({k}), not v({i},{n})."]

    def board(self, clues: dict[int, Any]) -> dict[str, Any]:
        rows: list[list[Any]] = [[None] * self.g.w for _ in range(self.g.h)]
        for i, n in clues.values():
            r, c = self.g.rc(i)
            rows[r][c] = n
        return {"h": self.g.h, "w": self.g.w, "clues": rows}

    def answer(self, true: set[str]) -> dict[str, Any]:
        w = self.g.w
        return {"rows": ["".join(str(self._value(true, r * w + c)) if f"s({r * w + c})" in true
                                 else "." for c in range(w)) for r in range(self.g.h)]}


# -- Nanro ---------------------------------------------------------------------------


def cut_regions(g: Grid, rng: random.Random, least: int = 2, most: int = 6) -> list[int]:
    """Regions of ``least``..``most`` cells cut by our seeded RNG: from the first cell
    not yet taken, grow a random target size into free neighbours; a region that could
    not reach ``least`` joins a random neighbouring region. Numbered by first cell."""
    reg = [-1] * g.n
    count = 0
    for start in range(g.n):
        if reg[start] >= 0:
            continue
        target = rng.randint(least, most)
        cells = [start]
        reg[start] = count
        while len(cells) < target:
            edge = sorted({j for i in cells for j in g.adj(i) if reg[j] < 0})
            if not edge:
                break
            j = rng.choice(edge)
            reg[j] = count
            cells.append(j)
        if len(cells) < least:
            others = sorted({reg[j] for i in cells for j in g.adj(i) if reg[j] not in (-1, count)})
            if others:
                into = rng.choice(others)
                for i in cells:
                    reg[i] = into
                continue
        count += 1
    ren: dict[int, int] = {}
    return [ren.setdefault(v, len(ren)) for v in reg]


class Nanro(Model):
    """Numbered cells ``s`` on regions cut by our RNG: every region holds at least one
    number and every number in a region is how many numbers it holds; the numbers form
    one group, no 2×2 block is all numbers, equal numbers never touch across a border."""

    slug = "nanro"

    def __init__(self, h: int, w: int, rng: random.Random) -> None:
        super().__init__(h, w, rng)
        self.reg = cut_regions(self.g, rng)

    def rules(self) -> list[str]:
        out = ["{ s(I) } :- cell(I)."]
        out += [f"in({i},{r})." for i, r in enumerate(self.reg)]
        out.append("cnt(R,N) :- in(_,R), N = #count { I : s(I), in(I,R) }.")
        out.append(":- cnt(R,0).")
        out += [f":- s({a}), s({b}), s({c}), s({d})." for a, b, c, d in self.g.squares()]
        for i in range(self.g.n):
            for j in self.g.adj(i):
                a, b = self.reg[i], self.reg[j]
                if j > i and a != b:
                    out.append(f":- s({i}), s({j}), cnt({a},N), cnt({b},N).")
        return out + connected(self.g, "s")

    def free(self) -> list[str]:
        return [f"s({i})" for i in range(self.g.n)]

    def shown(self) -> list[str]:
        return [f"s({i})" for i in range(self.g.n)]

    def _value(self, true: set[str], i: int) -> int:
        r = self.reg[i]
        return sum(f"s({j})" in true for j in range(self.g.n) if self.reg[j] == r)

    def clues(self, true: set[str]) -> list[Any]:
        return [(i, self._value(true, i)) for i in range(self.g.n) if f"s({i})" in true]

    def clue_rules(self, k: int, clue: Any) -> list[str]:
        i, n = clue
        return [f":- given({k}), not s({i}).", f":- given({k}), not cnt({self.reg[i]},{n})."]

    def board(self, clues: dict[int, Any]) -> dict[str, Any]:
        w = self.g.w
        rows: list[list[Any]] = [[None] * w for _ in range(self.g.h)]
        for i, n in clues.values():
            r, c = self.g.rc(i)
            rows[r][c] = n
        return {"h": self.g.h, "w": w, "regions": [self.reg[r * w:(r + 1) * w]
                                                   for r in range(self.g.h)], "clues": rows}

    def answer(self, true: set[str]) -> dict[str, Any]:
        return {"rows": ["".join("#" if f"s({r * self.g.w + c})" in true else "."
                                 for c in range(self.g.w)) for r in range(self.g.h)]}


# -- Sashigane -----------------------------------------------------------------------

ARROW = {(-1, 0): "^", (1, 0): "v", (0, -1): "<", (0, 1): ">"}


class Sashigane(Model):
    """puzz.link's standard rules: the grid is cut into L pieces of width 1 (two arms of
    at least one cell beyond the corner); a circle is a piece's corner, its number the
    piece's size; an arrow is an end of its piece and points along the arm to the
    corner. A piece may hold no clue. ``p(I,K)``: cell I is in the piece cornered at K
    (K in I's row or column)."""

    slug = "sashigane"

    def _line(self, i: int) -> list[int]:
        r, c = self.g.rc(i)
        return sorted({r * self.g.w + cc for cc in range(self.g.w)}
                      | {rr * self.g.w + c for rr in range(self.g.h)})

    def _toward(self, i: int, k: int) -> int:
        """The neighbour of i on the way to k (same row or column, k != i)."""
        (r, c), (kr, kc) = self.g.rc(i), self.g.rc(k)
        sr = (kr > r) - (kr < r)
        sc = (kc > c) - (kc < c)
        return (r + sr) * self.g.w + c + sc

    def rules(self) -> list[str]:
        g = self.g
        out = []
        for i in range(g.n):
            line = self._line(i)
            out.append(f"1 {{ {'; '.join(f'p({i},{k})' for k in line)} }} 1.")
            out += [f":- p({i},{k}), not p({self._toward(i, k)},{k})." for k in line if k != i]
        for k in range(g.n):
            r, c = g.rc(k)
            for arms in (((r, c - 1), (r, c + 1)), ((r - 1, c), (r + 1, c))):
                cells = [j for j in (g.at(*arms[0]), g.at(*arms[1])) if j is not None]
                if not cells:
                    out.append(f":- p({k},{k}).")
                    continue
                out.append(f":- p({k},{k}), {', '.join(f'not p({j},{k})' for j in cells)}.")
                if len(cells) == 2:
                    out.append(f":- p({cells[0]},{k}), p({cells[1]},{k}).")
        return out

    def free(self) -> list[str]:
        return [f"p({i},{i})" for i in range(self.g.n)]

    def shown(self) -> list[str]:
        return [f"p({i},{k})" for i in range(self.g.n) for k in self._line(i)]

    def _pieces(self, true: set[str]) -> dict[int, list[int]]:
        corner = {}
        for i in range(self.g.n):
            for k in self._line(i):
                if f"p({i},{k})" in true:
                    corner[i] = k
        out: dict[int, list[int]] = {}
        for i in range(self.g.n):
            out.setdefault(corner[i], []).append(i)
        return out

    def clues(self, true: set[str]) -> list[Any]:
        out = []
        for k, cells in sorted(self._pieces(true).items()):
            out.append((k, f"o{len(cells)}"))
            have = set(cells)
            for d in DIRS:             # each arm's far end, its arrow pointing back
                arm = [j for j in self.g.ray(k, d) if j in have]
                if arm:
                    out.append((arm[-1], ARROW[(-d[0], -d[1])]))
        return sorted(out)

    def clue_rules(self, k: int, clue: Any) -> list[str]:
        i, tok = clue
        if tok.startswith("o"):
            n = int(tok[1:])
            return [f":- given({k}), not p({i},{i}).",
                    f":- given({k}), #count {{ J : p(J,{i}) }} != {n}."]
        d = next(d for d, t in ARROW.items() if t == tok)
        r, c = self.g.rc(i)
        back = self.g.at(r - d[0], c - d[1])
        out = [f":- given({k}), not arr({k})."]
        tail = "" if back is None else f", not p({back},{{}})"
        return out + [f"arr({k}) :- p({i},{j}){tail.format(j)}." for j in self.g.ray(i, d)]

    def board(self, clues: dict[int, Any]) -> dict[str, Any]:
        w = self.g.w
        rows = [["."] * w for _ in range(self.g.h)]
        for i, tok in clues.values():
            r, c = self.g.rc(i)
            rows[r][c] = tok
        return {"h": self.g.h, "w": w, "rules": "standard", "cells": rows}

    def answer(self, true: set[str]) -> dict[str, Any]:
        label = [0] * self.g.n
        for k, cells in self._pieces(true).items():
            for i in cells:
                label[i] = k
        ren: dict[int, int] = {}
        flat = [ren.setdefault(v, len(ren)) for v in label]
        w = self.g.w
        return {"pieces": [flat[r * w:(r + 1) * w] for r in range(self.g.h)]}


MODELS: dict[str, type[Model]] = {"canal-view": CanalView, "sukoro": Sukoro,
                                  "nanro": Nanro, "sashigane": Sashigane}


# -- the corpus ----------------------------------------------------------------------


def make_board(slug: str, size: str, k: int) -> dict[str, Any]:
    """One corpus entry: a random answer and a minimal clue set, from a fixed seed."""
    from solvers import registry
    h, w = _hw(size)
    rng = random.Random(seed_of(slug, size, k))
    for attempt in range(100):
        model = MODELS[slug](h, w, rng)
        seed = rng.randrange(1, 2 ** 31)
        true = model.draw(seed)
        if true is None:
            continue
        got = model.minimize(seed, true)
        if got is None:
            continue
        every, kept = got
        board = model.board(kept)
        puzzle = registry.get(slug)
        return {"id": f"{slug}-{size}-{k:02d}", "slug": slug, "size": size,
                "seed": seed_of(slug, size, k), "draws": attempt + 1,
                "url": puzzle.encode(puzzle.board_from_json(board)),
                "clues": len(kept), "clues_before": len(every),
                "board": board, "answer": model.answer(true)}
    raise RuntimeError(f"no unique board for {slug} {size} #{k} in 100 draws")


def corpus_file(slug: str, size: str) -> Path:
    return CORPUS / f"{slug}-{size}.json"


def _part(slug: str, size: str, k: int) -> Path:
    return CORPUS / f".part-{slug}-{size}-{k:02d}.json"


def _write(p: Path, data: Any) -> None:
    tmp = p.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    tmp.replace(p)


RECIPE = ("answer-set model in benchmarks/outside.py (clingo, one thread, fixed seed); "
          "clues removed in a seeded order while the model proves uniqueness; minimal")


def merge(slug: str, size: str, count: int, partial: bool = False) -> None:
    """The corpus file of one size from its part files, board ``k`` taken from the file
    already written where its part file has gone (drawn and merged before); all
    ``count`` boards, or with ``partial`` whichever are there. Part files go once the
    whole set is written."""
    old = corpus_file(slug, size)
    banked = ({b["id"]: b for b in json.loads(old.read_text())["boards"]}
              if old.exists() else {})
    boards, parts = [], []
    for k in range(count):
        p = _part(slug, size, k)
        if p.exists():
            b = json.loads(p.read_text())
            b.pop("seconds", None)          # timings vary run to run; the file does not
            boards.append(b)
            parts.append(p)
        elif f"{slug}-{size}-{k:02d}" in banked:
            boards.append(banked[f"{slug}-{size}-{k:02d}"])
        elif not partial:
            return
    if parts:
        _write(old, {"schema": 1, "slug": slug, "size": size,
                     "recipe": RECIPE, "boards": boards})
        if len(boards) == count:
            for p in parts:
                p.unlink()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", choices=tuple(MODELS), action="append")
    ap.add_argument("--sizes", nargs="+", default=list(SIZES))
    ap.add_argument("--count", type=int, default=PER_SIZE)
    ap.add_argument("--index", type=int, action="append",
                    help="draw only these boards of each size (part files; repeatable)")
    ap.add_argument("--merge-partial", action="store_true",
                    help="write each size's file from the part files drawn so far")
    args = ap.parse_args()
    CORPUS.mkdir(parents=True, exist_ok=True)
    for slug in args.only or tuple(MODELS):
        for size in args.sizes:
            if not args.merge_partial:
                for k in args.index if args.index is not None else range(args.count):
                    t0 = time.process_time()
                    e = make_board(slug, size, k)
                    dt = time.process_time() - t0
                    print(f"drew {e['id']}: {e['clues_before']} -> {e['clues']} clues, "
                          f"{dt:.1f} s CPU", flush=True)
                    _write(_part(slug, size, k), {**e, "seconds": round(dt, 1)})
            merge(slug, size, args.count, partial=args.merge_partial)
    return 0


if __name__ == "__main__":
    sys.exit(main())
