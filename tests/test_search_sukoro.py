"""The fast Sukoro engine (solvers/sukoro/search.py) against the reference rungs and brute.

* every rung's fixpoint on bitboards equals the list-based reference (``propagate``), so
  grades and the cells a rung fixes cannot move;
* the search's answer sets equal the second engine's on random small boards;
* the committed hard corpus: a few boards proved unique, with their stored answers;
* both engines below the probe fixpoint (the bitboard search and MiniSat on the undecided
  cells, ``residual.py``) give the same answers, verdicts and grades, and both stop at
  the active Budget.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solvers.common import Budget, BudgetExceeded, active
from solvers.grid import neighbours
from solvers.sukoro import search as fast
from solvers.sukoro.board import Answer, Board
from solvers.sukoro.brute import brute
from solvers.sukoro.generate import generate
from solvers.sukoro.ladder import (
    LEVEL,
    RUNGS,
    Rules,
    complete,
    initial,
    propagate,
    random_answer,
    solve,
    valid,
)

ROOT = Path(__file__).resolve().parents[1]


def _cheap_rungs(g, b: Board):
    """The bitboard state after the three rungs below probe."""
    st = fast.from_domains(initial(b))
    for k in range(3):
        st = fast.propagate(g, st, k >= 1, k >= 2)
    return st


def answers_of(res) -> set:
    return {tuple(a.flat()) for a in res.solutions}


def clued(h: int, w: int, rng: random.Random, keep: float, lie: float = 0.0) -> Board:
    """Clues read off a random answer (some hidden as "?"), a few of them lies."""
    ans = random_answer(h, w, rng)
    flat: list = []
    for v in ans.flat():
        if v and rng.random() < keep:
            if rng.random() < lie:
                v = rng.randint(1, 4)
            flat.append("?" if rng.random() < 0.15 else v)
        else:
            flat.append(None)
    return Board.from_flat(h, w, flat)


def reference_rung(board: Board, rules: Rules) -> tuple[str | None, list[int] | None]:
    """The grade and probe fixpoint by the list-based reference rungs."""
    nb = neighbours(board.h, board.w)
    dom = initial(board)
    if not all(dom):
        return None, None
    for k in range(4):
        if not propagate(dom, nb, k, rules):
            return None, None
        if complete(dom):
            return (RUNGS[k] if valid(dom, nb, rules) else None), dom
    return "search", dom


def test_fast_rungs_equal_reference_fixpoints():
    rng = random.Random(2024)
    compared = 0
    for _ in range(70):
        h, w = rng.choice([(4, 5), (5, 5), (6, 6), (5, 7), (7, 7)])
        b = clued(h, w, rng, rng.choice([0.15, 0.3, 0.5]), lie=rng.choice([0.0, 0.1]))
        rules = rng.choice([Rules(), Rules(), Rules(neq=False), Rules(connect=False)])
        nb = neighbours(h, w)
        g = fast.geo(h, w)
        ref = initial(b)
        if not all(ref):
            continue
        st: fast.State | None = fast.from_domains(ref)
        for k in range(4):
            ok = propagate(ref, nb, k, rules)
            assert st is not None
            if k < 3:
                st = fast.propagate(g, st, rules.neq and k >= 1, rules.connect and k >= 2)
            else:
                st = fast.Closer(g, rules.neq, rules.connect).close(st)
            if not ok:
                assert st is None, (RUNGS[k], b)
                break
            assert st is not None, (RUNGS[k], b)
            if k == 3 and complete(ref):
                # the reference stops probing once the board is complete; so does ours
                assert fast.complete(st)
            else:
                assert fast.to_domains(st, h * w) == ref, (RUNGS[k], b)
            compared += 1
    assert compared > 150


ENGINES = ["search", "sat"]


@pytest.mark.parametrize("engine", ENGINES)
def test_grades_equal_reference(engine: str):
    rng = random.Random(77)
    seen = set()
    for t in range(60):
        h, w = rng.choice([(5, 5), (6, 6), (6, 7)])
        # every fourth a minimal clue set (probe and search)
        b = generate(h, w, rng)[0] if t % 4 == 0 else clued(h, w, rng,
                                                             rng.choice([0.2, 0.35, 0.6]))
        want, _ = reference_rung(b, Rules())
        res = solve(b, limit=2, engine=engine)
        if want == "search" or want is None:
            # below the probe fixpoint only search can tell; the verdict is brute's
            n = len(brute(b, limit=2).solutions)
            assert len(res.solutions) == n
            assert res.rung == ("search" if n else None)
        else:
            assert res.rung == want and len(res.solutions) == 1
        seen.add(res.rung)
    assert {"probe", "search"} <= seen


def test_witness_windows_keep_the_grades(monkeypatch: pytest.MonkeyPatch):
    """Windows tried on small boards whenever SAT finds one answer: the grades stay the
    reference's (on boards this small the windows find no proof, and the full trials
    decide)."""
    import solvers.sukoro.ladder as L
    monkeypatch.setattr(L, "WITNESS_MIN", 0)
    monkeypatch.setattr(L, "WINDOW_MIN", 5)
    rng = random.Random(91)
    grades = set()
    for t in range(30):
        h, w = rng.choice([(6, 7), (7, 7), (8, 8)])
        b = generate(h, w, rng)[0] if t % 2 else clued(h, w, rng, rng.choice([0.2, 0.35]))
        want, _ = reference_rung(b, Rules())
        res = solve(b, limit=2, engine="sat")
        if want in ("probe", "search"):
            assert res.rung == want
        grades.add(res.rung)
    assert {"probe", "search"} <= grades


def test_witness_is_a_probe_fixpoint_left_open():
    """On a large board a window proves the search grade: the state it finds is left as
    it is by the full trials, lies inside the rungs' fixpoint below probe, and is open;
    the full probe rung agrees that the board stays open."""
    import solvers.sukoro.ladder as L
    e = _corpus("30x30")[0]
    b = Board.from_json(e["board"])
    res = solve(b, limit=2, engine="sat")
    assert res.rung == "search" and res.stats.get("witness")
    assert res.solutions == [Answer.from_json(e["answer"])]
    g = fast.geo(b.h, b.w)
    st = _cheap_rungs(g, b)
    ans = fast.from_domains([1 << v for v in res.solutions[0].flat()])
    x = L._witness(g, st, ans, Rules())
    assert x is not None and not fast.complete(x)
    assert all(not a & ~y for a, y in zip(x, st, strict=True))
    assert fast.Closer(g, True, True)._sweep(x, True, []) == x
    assert solve(b, level="probe").rung is None


def test_window_ends_support_the_whole_board_trials():
    """When no window is a witness, the fixpoints of the windows' successful trials lie
    inside the state and support their values in the trials on the whole board: the
    probe fixpoint is the one found without them, with fewer trials."""
    import solvers.sukoro.ladder as L
    g = fast.geo(20, 20)
    shared = 0
    for e in _corpus("20x20"):
        b = Board.from_json(e["board"])
        st = _cheap_rungs(g, b)
        ans = fast.from_domains([1 << v for v in Answer.from_json(e["answer"]).flat()])
        ends: list = []
        if L._witness(g, st, ans, Rules(), 3, ends) is not None:
            continue
        assert ends and all(fast._inside(t, st) for t, _ in ends)
        alone, helped = fast.Closer(g, True, True), fast.Closer(g, True, True)
        assert helped.close(st, [ans], ends) == alone.close(st, [ans])
        assert helped.trials < alone.trials
        shared += 1
    assert shared >= 2


def test_trials_from_the_last_fixpoint_end_where_fresh_ones_do():
    """A closer starts a value's trial again from that value's last trial fixpoint met
    with the state (``Closer.last``): on the 16x16 corpus, once the cheap sweeps are
    done, every kept fixpoint met with the final state propagates to exactly what a
    fresh trial of its value there reaches, under the cheap rules and the full ones."""
    g = fast.geo(16, 16)
    compared = 0
    for e in _corpus("16x16"):
        b = Board.from_json(e["board"])
        st = _cheap_rungs(g, b)
        closer = fast.Closer(g, True, True)
        st = closer._cheap(st)
        und = fast._undecided(st)
        for k, kept in enumerate(closer.last):
            for low, (t, full) in kept.items():
                if not (und & low and st[k] & low):
                    continue
                assert not full
                met = tuple(a & y for a, y in zip(t, st, strict=True))
                fresh = fast.restrict(st, low.bit_length() - 1, k)
                for cuts in (False, True):
                    assert closer.ok(met, cuts) == closer.ok(fresh, cuts)   # type: ignore
                compared += 1
    assert compared >= 50


def test_windows_traced_from_the_sat_engines_misses():
    """The SAT engine's rejected models point the witness at the open part of the board:
    the traced window holds the cells where the newest model far enough from the answer
    (``TRACE_LEAST`` cells or more) leaves it, and on the 20x20 corpus boards graded
    search the traced window alone proves the grade on most, each proof a state inside the
    rungs' fixpoint that the full trials leave open."""
    import solvers.sukoro.ladder as L
    g = fast.geo(20, 20)
    graded = proved = 0
    for e in _corpus("20x20"):
        b = Board.from_json(e["board"])
        if solve(b, limit=2, engine="sat").rung != "search":
            continue
        graded += 1
        st = _cheap_rungs(g, b)
        misses: list = []
        [ans] = L._below(g, st, 2, Rules(), "sat", misses)[0]
        assert misses and all(len(parts) > 1 for _, parts in misses)
        num = ans[1] | ans[2] | ans[3] | ans[4]
        wins = L._windows(g, 10, ans, misses, 0)
        far = [on for on, _ in misses if (on ^ num).bit_count() >= L.TRACE_LEAST]
        assert len(wins) <= L.TRACED and (wins or not far)
        if wins:
            # the newest far model whose window is not too large: none newer was passed
            at = next(i for i in range(len(far) - 1, -1, -1) if not (far[i] ^ num) & ~wins[0])
            assert all(L._windows(g, 10, ans, [(far[j], [])], 0) == []
                       for j in range(at + 1, len(far)))
            assert wins[0].bit_count() <= L.TRACE_CAP * 100
        x = L._witness(g, st, ans, Rules(), 0, None, misses)
        if x is not None:
            proved += 1
            assert not fast.complete(x)
            assert all(not a & ~y for a, y in zip(x, st, strict=True))
            assert fast.Closer(g, True, True)._sweep(x, True, []) == x
    assert graded >= 3 and 2 * proved > graded


@pytest.mark.parametrize("engine", ENGINES)
def test_search_agrees_with_brute_on_random_boards(engine: str):
    rng = random.Random(31)
    multi = 0
    for _ in range(45):
        h, w = rng.choice([(3, 4), (4, 4), (4, 5), (5, 4)])
        if rng.random() < 0.5:
            b = clued(h, w, rng, rng.choice([0.1, 0.25]), lie=0.2)
        else:
            flat: list = [None] * (h * w)
            for i in rng.sample(range(h * w), rng.randint(1, 3)):
                flat[i] = rng.choice([1, 2, 3, 4, "?"])
            b = Board.from_flat(h, w, flat)
        rules = rng.choice([Rules(), Rules(), Rules(neq=False), Rules(connect=False)])
        got = answers_of(solve(b, limit=10 ** 6, rules=rules, engine=engine))
        want = answers_of(brute(b, limit=None, neq=rules.neq, connect=rules.connect))
        assert got == want, b
        multi += len(want) > 1
        two = solve(b, limit=2, rules=rules, engine=engine)
        assert len(two.solutions) == min(2, len(want))
        assert answers_of(two) <= want
    assert multi > 8


def test_search_levels_stop_where_asked():
    rng = random.Random(5)
    b = clued(8, 8, rng, 0.3)
    for level in RUNGS[:-1]:
        res = solve(b, level=level)
        assert res.nodes == 0
        if res.rung is None:
            assert not res.solutions
        else:
            assert LEVEL[res.rung] <= LEVEL[level]


def _corpus(size: str) -> list[dict]:
    p = ROOT / "benchmarks" / "hard" / f"sukoro-{size}.json"
    return json.loads(p.read_text())["boards"]


def test_corpus_boards_proved_unique():
    boards = _corpus("16x16")[:2]
    assert boards
    for e in boards:
        res = solve(Board.from_json(e["board"]), limit=2)
        assert len(res.solutions) == 1
        assert res.solutions[0] == Answer.from_json(e["answer"])
        assert res.rung in ("probe", "search")


def test_engines_agree_on_generated_and_corpus_boards():
    """Minimal-clue boards (unique) and the same boards with a clue taken away (often
    several answers): the two engines give the same verdict and grade, and the same
    answer when it is unique."""
    rng = random.Random(23)
    boards = [Board.from_json(e["board"]) for e in _corpus("16x16")[2:4]]
    boards.extend(generate(rng.choice([7, 8, 9]), rng.choice([7, 8, 9]), rng)[0]
                  for _ in range(6))
    loose = []
    for b in boards[:6]:
        flat = b.flat()
        clues = [i for i, v in enumerate(flat) if v is not None]
        flat[rng.choice(clues)] = None
        loose.append(Board.from_flat(b.h, b.w, flat))
    several = 0
    for b in boards + loose:
        a = solve(b, limit=2, engine="search")
        s = solve(b, limit=2, engine="sat")
        assert (a.rung, len(a.solutions)) == (s.rung, len(s.solutions))
        if len(a.solutions) == 1:
            assert a.solutions == s.solutions
        several += len(a.solutions) == 2
        assert s.stats.get("engine", "sat") == "sat"
    assert several >= 2


def test_answers_without_the_grade_are_the_graded_answers():
    """grade=False skips the probe rung's full trials: the same verdict and, when it is
    unique, the same answer; the rung, when one is given, is the graded one (a board the
    cheap rungs leave with few open cells is graded anyway)."""
    rng = random.Random(29)
    boards = [Board.from_json(e["board"]) for e in _corpus("16x16")[:3]]
    for _ in range(8):
        b = generate(rng.choice([6, 8]), rng.choice([6, 8]), rng)[0]
        boards.append(b)
        flat = b.flat()
        flat[rng.choice([i for i, v in enumerate(flat) if v is not None])] = None
        boards.append(Board.from_flat(b.h, b.w, flat))
    for engine in ENGINES[1:]:
        for b in boards:
            full = solve(b, limit=2, engine=engine)
            quick = solve(b, limit=2, engine=engine, grade=False)
            assert len(quick.solutions) == len(full.solutions)
            if len(full.solutions) == 1:
                assert quick.solutions == full.solutions
            assert quick.rung in (None, full.rung)
            assert (quick.rung is None) == (quick.stats.get("graded") is False)


@pytest.mark.parametrize("engine", ENGINES)
def test_engines_stop_at_the_budget(engine: str):
    b = Board.from_json(_corpus("16x16")[3]["board"])     # graded search
    with pytest.raises(BudgetExceeded), active(Budget(max_nodes=1)):
        solve(b, limit=2, engine=engine)
    with active(Budget(max_nodes=10 ** 6)) as budget:
        res = solve(b, limit=2, engine=engine)
    assert res.rung == "search" and len(res.solutions) == 1 and budget.nodes >= 1


def _cuts_by_definition(g, st) -> int:
    """Undecided cells of p whose removal leaves some sure number apart from the rest."""
    b, n1, n2, n3, n4 = st
    p = n1 | n2 | n3 | n4
    s = p & ~b
    if not s or not s & (s - 1):
        return 0
    root = s & -s
    out = 0
    for i in range(g.n):
        c = 1 << i
        if p & b & c and s & ~fast._flood(g, root, p & ~c):
            out |= c
    return out


def test_cut_cells_match_definition():
    """The lowlink pass (and its filters) finds exactly the articulation cells that split
    the sure numbers, on states drawn from random narrowings of random boards."""
    rng = random.Random(11)
    checked = 0
    for _ in range(150):
        h, w = rng.choice([(5, 5), (6, 8), (9, 7), (12, 12)])
        g = fast.geo(h, w)
        st = fast.from_domains([31] * (h * w))
        for _ in range(rng.randrange(2, h * w // 2)):
            i = rng.randrange(h * w)
            k = rng.choice([0, 0, 0, 1, 2, 3, 4])
            nxt = fast.propagate(g, fast.restrict(st, i, k), True, True, cuts=False)
            if nxt is None:
                continue
            st = nxt
            assert fast._cuts(g, st) == _cuts_by_definition(g, st)
            checked += 1
    assert checked > 500


def test_cut_cells_match_definition_across_interleaved_states():
    """With the ways round of several unrelated states remembered per cell (the trace
    checks many trials' ends in turn), the cut cells are still exactly the articulation
    cells: a way is only trusted when it holds in the state asked about."""
    rng = random.Random(5)
    h, w = 10, 10
    g = fast.geo(h, w)
    fast.forget_cuts()
    lines = [fast.from_domains([31] * (h * w)) for _ in range(4)]
    checked = 0
    for _ in range(400):
        k = rng.randrange(len(lines))
        i = rng.randrange(h * w)
        nxt = fast.propagate(g, fast.restrict(lines[k], i, rng.choice([0, 0, 1, 2, 3, 4])),
                             True, True, cuts=False)
        if nxt is None or fast.complete(nxt):
            lines[k] = fast.from_domains([31] * (h * w))
            continue
        lines[k] = nxt
        for st in lines:
            fast._CUT_MEMO.clear()          # the ways round, not the memo of answers
            assert fast._cuts(g, st) == _cuts_by_definition(g, st)
            checked += 1
    held = fast._ROUND[(h, w)].values()
    assert checked > 1000 and max(len(ways) for ways in held) > 1
