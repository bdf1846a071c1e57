"""The pure-Python CDCL (solvers/cdcl.py), the engines' stand-in for python-sat, against
brute force on small random CNFs: satisfiable and not, under assumptions, with clauses
added between calls (its kept-trail path), under conflict budgets; and each puzzle's
solve without python-sat (PUZZLE_NO_SAT=1) giving python-sat's answers."""

from __future__ import annotations

import json
import random
import time
from itertools import product
from pathlib import Path

import pytest

from solvers.cdcl import Cdcl, Solver, luby

ROOT = Path(__file__).resolve().parent.parent


def _models(nv: int, cls: list[list[int]], assume: list[int] = ()) -> list[tuple[int, ...]]:
    out = []
    for bits in product((False, True), repeat=nv):
        val = {v + 1: b for v, b in enumerate(bits)}
        if all(val[abs(x)] == (x > 0) for x in assume) and \
                all(any(val[abs(x)] == (x > 0) for x in c) for c in cls):
            out.append(bits)
    return out


def _random_cnf(rng: random.Random, nv: int, m: int) -> list[list[int]]:
    return [[rng.choice((-1, 1)) * rng.randint(1, nv) for _ in range(rng.randint(1, 4))]
            for _ in range(m)]


def _holds(model: list[int], cls: list[list[int]]) -> bool:
    val = {abs(x): x > 0 for x in model}
    return all(any(val.get(abs(x), False) == (x > 0) for x in c) for c in cls)


def test_luby() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.parametrize("keep", [False, True])
def test_agrees_with_brute_force(keep: bool) -> None:
    rng = random.Random(11)
    seen = {True: 0, False: 0}
    for _ in range(300):
        nv = rng.randint(1, 9)
        cls = _random_cnf(rng, nv, rng.randint(1, 5 * nv))
        truth = _models(nv, cls)
        s = Cdcl(nv, keep=keep)
        for c in cls:
            s.add(c)
        got = s.solve()
        assert got == bool(truth)
        seen[bool(got)] += 1
        if got:
            assert _holds(s.model, cls)
    assert min(seen.values()) > 30          # both verdicts well represented


def test_enumerates_every_model_by_blocking() -> None:
    """Blocking each model found (clauses added after a model: the kept-trail path)
    lists the models brute force finds, each once."""
    rng = random.Random(5)
    for _ in range(120):
        nv = rng.randint(1, 8)
        cls = _random_cnf(rng, nv, rng.randint(0, 3 * nv))
        truth = set(_models(nv, cls))
        for keep in (False, True):
            s = Solver(bootstrap_with=cls) if keep else None
            c0 = Cdcl(nv)
            for c in cls:
                c0.add(c)
            found = set()
            while True:
                if keep:
                    assert s is not None
                    s.s.grow(nv)
                    if not s.solve():
                        break
                    model = s.get_model()[:nv]
                    s.add_clause([-x for x in model])
                else:
                    if not c0.solve():
                        break
                    model = c0.model[:nv]
                    c0.add([-x for x in model])
                bits = tuple(x > 0 for x in model)
                assert bits in truth and bits not in found
                found.add(bits)
            assert found == truth


def test_assumptions_and_budgets() -> None:
    rng = random.Random(8)
    for _ in range(200):
        nv = rng.randint(2, 9)
        cls = _random_cnf(rng, nv, rng.randint(1, 4 * nv))
        s = Solver(bootstrap_with=cls)
        s.s.grow(nv)
        for _ in range(3):
            assume = [rng.choice((-1, 1)) * v for v in rng.sample(range(1, nv + 1), 2)]
            truth = _models(nv, cls, assume)
            s.conf_budget(1)
            res = s.solve_limited(assumptions=assume)
            while res is None:              # a budget of one conflict, called again
                s.conf_budget(1)
                res = s.solve_limited(assumptions=assume)
            assert res == bool(truth)
            if res:
                m = s.get_model()
                assert _holds(m, cls) and all(x in m for x in assume)
        assert s.solve() == bool(_models(nv, cls))     # the assumptions left no trace


def test_pigeonhole_is_refuted() -> None:
    """6 pigeons in 5 holes: UNSAT only through learning (no unit clause to start)."""
    p, k = 6, 5
    x = [[i * k + j + 1 for j in range(k)] for i in range(p)]
    cls = [row[:] for row in x]
    cls += [[-x[a][j], -x[b][j]] for j in range(k) for a in range(p) for b in range(a + 1, p)]
    s = Cdcl(p * k)
    for c in cls:
        s.add(c)
    assert s.solve() is False and s.conflicts > 0


# -- each puzzle's residual step without python-sat ------------------------------------

def _outside(slug: str, size: str) -> list[dict]:
    return json.loads((ROOT / "benchmarks" / "outside" / f"{slug}-{size}.json")
                      .read_text())["boards"]


def test_canal_view_residual_without_python_sat(monkeypatch) -> None:
    """The SAT step on the pure-Python solver: the same answers as CaDiCaL's on random
    residues (the rungs' start state of small boards with a few clues: none or several
    answers) and on an outside 20x20 board (the search first, then the hand-off)."""
    pytest.importorskip("pysat")
    from solvers.canal_view import ladder
    from solvers.canal_view.board import Answer, Board
    from solvers.canal_view.residual import solve_residual

    e = _outside("canal-view", "20x20")[2]
    b = Board.from_json(e["board"])
    with_sat = ladder.solve(b, limit=2)
    monkeypatch.setenv("PUZZLE_NO_SAT", "1")
    monkeypatch.setattr(ladder, "SAT_AFTER", 0)     # (the search needs 1 node: hand over)
    ladder._ctx_cached.cache_clear()
    without = ladder.solve(b, limit=2)
    assert without.solutions == with_sat.solutions == [Answer.from_json(e["answer"])]
    assert without.stats["engine"] == "learn" and with_sat.stats["engine"] == "sat"
    assert without.nodes == 0
    assert without.fixed == with_sat.fixed and without.rung == with_sat.rung

    rng = random.Random(4)
    kinds = set()
    for _ in range(30):
        h, w = rng.randint(3, 4), rng.randint(3, 4)
        clues = [[None] * w for _ in range(h)]
        for _ in range(rng.randint(1, 3)):
            clues[rng.randrange(h)][rng.randrange(w)] = rng.randint(0, 5)
        board = Board.from_json({"h": h, "w": w, "clues": clues})
        ctx = ladder._ctx_cached(board, ladder.STANDARD)
        F, D = ladder.start_state(ctx)
        monkeypatch.setenv("PUZZLE_NO_SAT", "0")
        want = sorted(solve_residual(ctx, F, D, 5000))
        monkeypatch.setenv("PUZZLE_NO_SAT", "1")
        got = sorted(solve_residual(ctx, F, D, 5000))
        assert got == want and len(got) < 5000      # every answer, not a first few
        kinds.add(min(len(got), 2))
    assert {0, 2} <= kinds                  # boards with no answer, and with several


@pytest.mark.parametrize("slug,size,k", [("nanro", "20x20", 0), ("sukoro", "20x20", 1),
                                         ("sashigane", "20x20", 2)])
def test_the_others_without_python_sat(monkeypatch, slug: str, size: str, k: int) -> None:
    """Nanro (learn.py on the shared solver), Sukoro and Sashigane (their pure-Python
    searches) without python-sat: the same answer and rung as with it."""
    pytest.importorskip("pysat")
    from solvers import registry

    p = registry.get(slug)
    e = _outside(slug, size)[k]
    b = p.board_from_json(e["board"])
    want = p.solve(b, limit=2)
    monkeypatch.setenv("PUZZLE_NO_SAT", "1")
    got = p.solve(b, limit=2)
    assert got.solutions == want.solutions == [p.answer_from_json(e["answer"])]
    assert got.rung == want.rung


def test_sukoro_without_python_sat_runs_its_clauses_on_cdcl(monkeypatch) -> None:
    """Sukoro's residual clauses without python-sat (``satcut.solver`` gives the
    pure-Python solver) give the answer and rung CaDiCaL gives on an outside board,
    where the plain search was what was left before."""
    pytest.importorskip("pysat")
    from solvers import registry

    p = registry.get("sukoro")
    e = _outside("sukoro", "20x20")[4]
    b = p.board_from_json(e["board"])
    want = p.solve(b, limit=2)
    assert want.stats.get("engine") == "sat"
    monkeypatch.setenv("PUZZLE_NO_SAT", "1")
    got = p.solve(b, limit=2)
    assert got.solutions == want.solutions == [p.answer_from_json(e["answer"])]
    assert got.rung == want.rung and got.stats["engine"] == "sat"


def test_bootstrap_grows_once_and_gives_the_same_models() -> None:
    """``Solver(bootstrap_with=...)`` makes every variable at once (growing clause by
    clause heapified each time: quadratic, minutes on a Sashigane cover's variables),
    and its models are those of the same clauses added one by one."""
    rng = random.Random(5)
    for _ in range(40):
        cls = _random_cnf(rng, 12, rng.randint(10, 40))
        a, b = Solver(bootstrap_with=cls), Solver()
        for c in cls:
            b.add_clause(c)
        for _ in range(4):
            ra, rb = a.solve(), b.solve()
            assert ra == rb
            if not ra:
                break
            assert a.get_model() == b.get_model()
            block = [-x for x in a.get_model()]
            a.add_clause(block)
            b.add_clause(block)
    chain = [[-v, v + 1] for v in range(1, 40_000)]
    t = time.process_time()
    Solver(bootstrap_with=chain)
    assert time.process_time() - t < 5.0
