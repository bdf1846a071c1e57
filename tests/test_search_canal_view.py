"""The Canal View search: number probing at every node, an explicit stack.

* the probing search and the plain search find the same answers, and both agree with the
  second engine (brute) on random small boards, under every rule set;
* a board whose search goes deeper than Python's recursion limit is solved;
* the committed hard corpus: a few boards proved unique, with their stored answers;
* the SAT step (``residual.py``) that takes boards past 12x12 from the rungs' fixpoint:
  the same answer sets as brute and as the search alone, on random small boards and on
  outside boards (unique, and with a clue taken away), and it stops at the time limit.
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
from pathlib import Path

import pytest

from solvers.canal_view.board import STANDARD, VARIANTS, Answer, Board
from solvers.canal_view.brute import brute
from solvers.canal_view.generate import full_board, random_canal, with_clues
from solvers.canal_view.ladder import (
    RUNGS,
    Contradiction,
    _Search,
    make_ctx,
    propagate,
    solve,
    start_state,
)
from solvers.satcut import NO_SAT_ENV

ROOT = Path(__file__).resolve().parents[1]


def _board(rng: random.Random, hmax: int) -> Board:
    h, w = rng.randint(3, hmax), rng.randint(3, hmax)
    m = random_canal(rng, h, w, rng.uniform(0.35, 0.6))
    fb = full_board(h, w, m)
    cells = fb.clue_cells()
    keep = set(rng.sample(cells, rng.randint(0, len(cells) // 2)))
    return with_clues(fb, keep)


def _search(board: Board, rules, probe: bool, limit: int) -> list[int]:
    ctx = make_ctx(board, rules)
    try:
        F, D = propagate(ctx, *start_state(ctx))
    except Contradiction:
        return []
    s = _Search(ctx, limit)
    s.probe = probe and not rules.whole_line
    s.sat_after = None                 # the search alone, to its end
    s.run(F, D)
    return sorted(s.solutions)


@pytest.mark.parametrize("rules", [STANDARD, *VARIANTS.values()], ids=lambda r: r.name)
def test_probing_search_agrees_with_brute(rules) -> None:
    rng = random.Random(17)
    compared = several = 0
    standard = rules == STANDARD
    for _ in range(45 if standard else 20):
        b = _board(rng, 5 if standard else 4)
        want = [a.mask for a in brute(b, limit=300, rules=rules).solutions]
        if len(want) >= 300:
            continue
        assert _search(b, rules, True, 300) == want
        two = solve(b, limit=2, rules=rules)
        assert len(two.solutions) == min(2, len(want))
        assert {a.mask for a in two.solutions} <= set(want)
        compared += 1
        several += len(want) > 1
    assert compared >= (15 if standard else 8) and several >= 2


def test_probing_and_plain_search_agree_on_larger_boards() -> None:
    """Same answer sets; with a limit below the count, each finds that many of them (the
    probing search branches in its own order, so not necessarily the same ones)."""
    rng = random.Random(23)
    several = 0
    for _ in range(12):
        b = _board(rng, 9)
        every = _search(b, STANDARD, False, 500)
        if len(every) >= 500:
            continue
        assert _search(b, STANDARD, True, 500) == every
        some = _search(b, STANDARD, True, 3)
        assert len(some) == min(3, len(every)) and set(some) <= set(every)
        several += len(every) > 3
    assert several >= 1


def test_grades_unchanged_by_the_search() -> None:
    """The grade is the lowest rung whose fixpoint completes the board; the search runs
    only below the flow fixpoint, so a probing search cannot move it."""
    rng = random.Random(29)
    for _ in range(15):
        b = _board(rng, 8)
        res = solve(b, limit=2)
        ctx = make_ctx(b)
        want = None
        try:
            for t in range(3):
                F, D = propagate(ctx, *start_state(ctx), t)
                if F | D == ctx.full:  # noqa: SIM300  F, D are the state masks
                    want = RUNGS[t]
                    break
            else:
                want = "search"
        except Contradiction:
            want = None
        if res.solutions:
            assert res.rung == want
        else:
            assert res.rung is None


def test_deep_search_needs_no_recursion() -> None:
    # an empty 40x40 board: the search fixes cells one at a time, deeper than the
    # interpreter's recursion limit (the search alone: no hand-off to SAT)
    assert sys.getrecursionlimit() < 1600
    ctx = make_ctx(Board.from_dict(40, 40, {}))
    s = _Search(ctx, 1)
    s.sat_after = None
    s.run(*propagate(ctx, *start_state(ctx)))
    assert len(s.solutions) == 1 and s.nodes > sys.getrecursionlimit()


def test_sat_hand_off_finds_the_answers_the_search_finds(monkeypatch) -> None:
    """Past SAT_AFTER nodes the solve hands the rest to the SAT engine from the root
    state: with the hand-off after one node, every answer set (limit above the count)
    and every verdict is the search's own; with a limit below, as many of them."""
    from solvers.canal_view import ladder

    rng = random.Random(31)
    boards = [_board(rng, 8) for _ in range(25)]
    want = [solve(b, limit=200) for b in boards]
    monkeypatch.setattr(ladder, "SAT_AFTER", 1)
    handed = 0
    for b, w in zip(boards, want, strict=True):
        if len(w.solutions) >= 200:
            continue
        got = solve(b, limit=200)
        assert got.solutions == w.solutions and got.rung == w.rung
        two = solve(b, limit=2)
        assert len(two.solutions) == min(2, len(w.solutions))
        assert {a.mask for a in two.solutions} <= {a.mask for a in w.solutions}
        handed += got.nodes >= 1 and w.nodes > 1
    assert handed >= 3


def test_sat_hand_off_not_reached_on_studied_boards() -> None:
    """The stored node counts (the studies' worst, over the bank, is a handful) stay the
    search's: no banked board is past SAT_MIN_CELLS, and each stays far below SAT_AFTER."""
    from solvers.canal_view.ladder import SAT_AFTER, SAT_MIN_CELLS
    bank = json.loads((ROOT / "content" / "canal-view" / "bank.json").read_text())
    boards = bank["data"]["boards"]
    assert len(boards) >= 50
    for e in boards:
        b = Board.from_json(e["board"])
        assert b.h * b.w <= SAT_MIN_CELLS
        res = solve(b)
        assert res.nodes < SAT_AFTER and res.stats.get("engine") != "sat"


def _outside(size: str) -> list[dict]:
    p = ROOT / "benchmarks" / "outside" / f"canal-view-{size}.json"
    return json.loads(p.read_text())["boards"]


def _search_alone(monkeypatch, board: Board, limit: int):
    """``solve`` with no SAT step at all: the search to its end (an engine of its own,
    beside the SAT step; without python-sat that step runs on solvers/cdcl.py)."""
    from solvers.canal_view import ladder
    with monkeypatch.context() as m:
        m.setattr(ladder, "SAT_MIN_CELLS", 1 << 30)
        m.setattr(ladder, "SAT_AFTER", 1 << 30)
        ladder._ctx_cached.cache_clear()
        try:
            return solve(board, limit=limit)
        finally:
            ladder._ctx_cached.cache_clear()


def test_sat_step_agrees_with_brute_on_answer_sets() -> None:
    """From the rungs' fixpoint, the SAT step finds every answer brute finds (limit above
    the count), under the standard rules; with a limit below, that many of them; boards
    with no sure flooded cell after the rungs included (the cut then names two cells)."""
    from solvers.canal_view.residual import solve_residual

    rng = random.Random(47)
    compared = several = unsure = 0
    for _ in range(40):
        b = _board(rng, 5)
        want = [a.mask for a in brute(b, limit=300).solutions]
        if len(want) >= 300:
            continue
        ctx = make_ctx(b)
        try:
            F, D = propagate(ctx, *start_state(ctx))
        except Contradiction:
            assert not want
            continue
        assert sorted(solve_residual(ctx, F, D, 300)) == want
        two = solve_residual(ctx, F, D, 2)
        assert len(two) == min(2, len(want)) and set(two) <= set(want)
        if want:
            rest = solve_residual(ctx, F, D, 300, exclude=want[:1])
            assert sorted(rest) == want[1:]
        compared += 1
        several += len(want) > 1
        unsure += not F
    assert compared >= 25 and several >= 5 and unsure >= 1


def test_outside_boards_go_to_sat_and_agree_with_the_search(monkeypatch) -> None:
    """Outside 20x20 boards (drawn by answer-set models, not our generator): the solve
    takes the SAT step (no search node), and gives the stored answer and the grade the
    search alone gives."""
    for e in _outside("20x20")[:4]:
        b = Board.from_json(e["board"])
        got = solve(b, limit=2)
        assert got.stats.get("engine") == "sat" and got.nodes == 0
        assert [a.rows() for a in got.solutions] == [Answer.from_json(e["answer"]).rows()]
        alone = _search_alone(monkeypatch, b, 2)
        assert alone.nodes > 0 and "engine" not in alone.stats
        assert alone.solutions == got.solutions and alone.rung == got.rung == "search"


# outside 20x20 boards with one clue taken away: a few answers each (3 to 7)
DROPPED = [(0, (3, 18)), (0, (11, 9)), (2, (6, 6)), (2, (8, 11))]


def test_sat_step_finds_every_answer_of_boards_with_several(monkeypatch) -> None:
    """With a clue taken away, the SAT step and the search alone list the same answers
    (limit above the count), each a real answer; with limit 2, two of them."""
    from solvers.canal_view.rules import violations

    boards = _outside("20x20")
    for k, drop in DROPPED:
        b = Board.from_json(boards[k]["board"])
        clues = {c: b.clues[c[0]][c[1]] for c in b.clue_cells() if c != drop}
        b2 = Board.from_dict(b.h, b.w, clues)
        got = solve(b2, limit=40)
        assert got.stats.get("engine") == "sat"
        alone = _search_alone(monkeypatch, b2, 40)
        assert 2 <= len(got.solutions) < 40
        assert got.solutions == alone.solutions
        assert all(not violations(b2, a) for a in got.solutions)
        two = solve(b2, limit=2).solutions
        assert len(two) == 2 and set(two) <= set(got.solutions)


def test_sat_step_stops_at_the_time_limit() -> None:
    """The SAT step checks the active budget's time limit itself between its slices (the
    budget looks at the clock only every 256 nodes): with a limit already past, a solve
    that reaches it stops there instead of finishing the board."""
    from solvers.common import Budget, BudgetExceeded, active

    # (a board the step proves in far fewer than 256 slices and calls)
    b = Board.from_json(_outside("30x30")[1]["board"])
    with active(Budget(timeout=0.0)), pytest.raises(BudgetExceeded, match="time limit"):
        solve(b, limit=2)
    assert len(solve(b, limit=2).solutions) == 1     # no budget: it finishes


def test_without_python_sat_the_sat_step_runs_on_the_fallback(monkeypatch) -> None:
    """PUZZLE_NO_SAT=1 plays python-sat missing: the hand-off and the SAT step happen at
    the same points, on the pure-Python solver, with the search's answers."""
    from solvers.canal_view import ladder

    monkeypatch.setattr(ladder, "SAT_AFTER", 1)
    rng = random.Random(31)
    deep = 0
    for _ in range(25):
        b = _board(rng, 8)
        alone = _search_alone(monkeypatch, b, 200)
        monkeypatch.setenv(NO_SAT_ENV, "1")
        ladder._ctx_cached.cache_clear()
        res = solve(b, limit=200)
        monkeypatch.delenv(NO_SAT_ENV)
        assert len(res.solutions) == len(alone.solutions)
        if len(alone.solutions) < 200:          # (past the limit: any 200 of them)
            assert res.solutions == alone.solutions
            deep += alone.nodes > 1
    assert deep >= 3
    monkeypatch.setenv(NO_SAT_ENV, "1")
    big = solve(Board.from_json(_outside("20x20")[1]["board"]), limit=2)
    assert big.nodes == ladder.SAT_AFTER and big.stats["engine"] == "learn"


def test_corpus_boards_proved_unique() -> None:
    p = ROOT / "benchmarks" / "hard" / "canal-view-16x16.json"
    for e in json.loads(p.read_text())["boards"][:3]:
        res = solve(Board.from_json(e["board"]), limit=2)
        assert [a.rows() for a in res.solutions] == [Answer.from_json(e["answer"]).rows()]
        assert res.rung in RUNGS


def _random_state(rng: random.Random, ctx, p: float) -> tuple[int, int]:
    F = D = 0
    for i in range(ctx.n):
        x = rng.random()
        if x < p:
            F |= 1 << i
        elif x < 2 * p:
            D |= 1 << i
    return F & ~ctx.clue_mask, D | ctx.clue_mask


def test_arm_bit_arithmetic_matches_the_cell_walk() -> None:
    """The arm rung's prefix-mask arithmetic (rays cut after v + 1 cells) gives the same
    domains and the same deductions as walking each ray cell by cell."""
    from solvers.canal_view.ladder import _arm_compute, _arm_compute_geo, _ray_domain, arm_domain

    rng = random.Random(41)
    checked = 0
    for _ in range(40):
        b = _board(rng, 12)
        ctx = make_ctx(b)
        for _ in range(25):
            F, D = _random_state(rng, ctx, rng.uniform(0.05, 0.45))
            for k, (_, v, rays, _, line) in enumerate(ctx.nums):
                for ray, g in zip(rays, ctx.geo[k], strict=True):
                    assert _ray_domain(g, v, F, D) == arm_domain(ray, v, F, D)
                try:
                    want = _arm_compute(v, rays, line, False, F, D)
                except Contradiction:
                    want = None
                try:
                    got = _arm_compute_geo(v, ctx.geo[k], F, D)
                except Contradiction:
                    got = None
                assert got == want
                checked += 1
    assert checked > 1000


def test_probes_carried_to_a_later_state_stay_sound() -> None:
    """Probing with the splits cached at an earlier state (as a search node passes them
    to its children) decides only what every answer agreeing with the later state has."""
    from solvers.canal_view.ladder import _probe_numbers

    rng = random.Random(43)
    tried = 0
    for _ in range(60):
        b = _board(rng, 5)
        answers = [a.mask for a in brute(b, limit=300).solutions]
        if not 2 <= len(answers) < 300:
            continue
        ctx = make_ctx(b)
        try:
            F, D = propagate(ctx, *start_state(ctx))
            cache: dict = {}
            F, D = _probe_numbers(ctx, F, D, -1, cache)
        except Contradiction:
            continue
        # a later state: a few free cells set as one answer has them
        pick = rng.choice(answers)
        free = ctx.full & ~(F | D)
        cells = [i for i in range(ctx.n) if free >> i & 1]
        for i in rng.sample(cells, min(len(cells), rng.randint(1, 3))):
            if pick >> i & 1:
                F |= 1 << i
            else:
                D |= 1 << i
        fits = [a for a in answers if a & F == F and not a & D]
        F2 = D2 = None
        with contextlib.suppress(Contradiction):
            F2, D2 = _probe_numbers(ctx, F, D, -1, dict(cache))
        assert fits and F2 is not None
        for a in fits:
            assert a & F2 == F2 and not a & D2
        tried += 1
    assert tried >= 10


def test_hard_corpus_20x20_is_proved_in_few_nodes(monkeypatch) -> None:
    """The 20x20 board that took 21 nodes when each node probed afresh and branched on
    the fewest compositions (8 with carried probes and the lookahead split): the search
    alone (as without python-sat; with it, the SAT step takes boards this large) still
    proves it unique, in a small tree."""
    p = ROOT / "benchmarks" / "hard" / "canal-view-20x20.json"
    e = json.loads(p.read_text())["boards"][4]
    res = _search_alone(monkeypatch, Board.from_json(e["board"]), 2)
    assert [a.rows() for a in res.solutions] == [Answer.from_json(e["answer"]).rows()]
    assert 0 < res.nodes <= 20
