"""The Canal View search: number probing at every node, an explicit stack.

* the probing search and the plain search find the same answers, and both agree with the
  second engine (brute) on random small boards, under every rule set;
* a board whose search goes deeper than Python's recursion limit is solved;
* the committed hard corpus: a few boards proved unique, with their stored answers.
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
    """The stored node counts (the studies' worst is a handful) stay the search's: the
    hand-off budget is far above them."""
    from solvers.canal_view.ladder import SAT_AFTER
    p = ROOT / "benchmarks" / "hard" / "canal-view-20x20.json"
    for e in json.loads(p.read_text())["boards"]:
        assert solve(Board.from_json(e["board"]), limit=2).nodes < SAT_AFTER


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


def test_hard_corpus_20x20_is_proved_in_few_nodes() -> None:
    """The 20x20 board that took 21 nodes when each node probed afresh and branched on
    the fewest compositions (8 with carried probes and the lookahead split): still proved
    unique, in a small tree."""
    p = ROOT / "benchmarks" / "hard" / "canal-view-20x20.json"
    e = json.loads(p.read_text())["boards"][4]
    res = solve(Board.from_json(e["board"]), limit=2)
    assert [a.rows() for a in res.solutions] == [Answer.from_json(e["answer"]).rows()]
    assert res.nodes <= 20
