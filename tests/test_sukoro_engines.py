"""Sukoro's independent methods: the SAT engine against the scanner (engine 2), and the
cell-by-cell count of blank boards against the row transfer and a full enumeration."""

from __future__ import annotations

import random

import pytest

from solvers.sukoro.board import Answer, Board
from solvers.sukoro.brute import brute
from solvers.sukoro.celltransfer import count_answers_by_cells
from solvers.sukoro.confirm import ConfirmError, confirm, confirm_board
from solvers.sukoro.exact import LedgerError, beyond
from solvers.sukoro.frontier import count_answers, enumerate_answers
from solvers.sukoro.ladder import random_answer
from solvers.sukoro.rules import violations
from solvers.sukoro.sat import solve_sat


def _clues_from(rng: random.Random, h: int, w: int, k: int, honest: bool) -> Board:
    n = h * w
    flat: list = [None] * n
    if honest:
        vals = random_answer(h, w, rng).flat()
        cells = [i for i, v in enumerate(vals) if v]
        for i in rng.sample(cells, min(k, len(cells))):
            flat[i] = vals[i]
    else:
        for i in rng.sample(range(n), k):
            flat[i] = rng.choice([1, 2, 3, 4, "?"])
    return Board.from_flat(h, w, flat)


@pytest.mark.parametrize("neq,connect", [(True, True), (False, True), (True, False)])
def test_sat_engine_finds_the_scanners_answer_sets(neq: bool, connect: bool) -> None:
    rng = random.Random(17)
    kinds = set()
    for t in range(30):
        h, w = rng.choice([(3, 3), (3, 4), (4, 4)])
        b = _clues_from(rng, h, w, rng.randint(1, 4), honest=t % 2 == 0)
        sat = solve_sat(b, limit=10 ** 5, neq=neq, connect=connect)
        bf = brute(b, limit=None, neq=neq, connect=connect)
        assert sorted(sat.answers) == sorted(a.flat() for a in bf.solutions)
        kinds.add(min(len(sat.answers), 2))
        if neq and connect:
            for vals in sat.answers:
                assert violations(b, Answer.from_flat(h, w, vals)) == []
    assert kinds == {0, 1, 2}        # boards with none, one and several answers were tried


def test_sat_engine_counts_blank_boards() -> None:
    for h, w in ((1, 5), (2, 3), (3, 3), (3, 4)):
        assert len(solve_sat(Board.from_flat(h, w, [None] * (h * w)), limit=10 ** 4).answers) \
            == count_answers(h, w)


def test_cell_transfer_matches_row_transfer_and_enumeration() -> None:
    for h in range(1, 5):
        for w in range(1, 6):
            cells = count_answers_by_cells(h, w)
            assert cells == count_answers(h, w) == count_answers_by_cells(w, h)
            if h * w <= 16:
                assert cells == len(enumerate_answers(h, w))
    assert count_answers(3, 5, transpose=False) == count_answers_by_cells(3, 5) == 428
    assert [count_answers_by_cells(1, n) for n in range(1, 9)] == [0, 0, 1, 2, 3, 4, 5, 6]


def test_beyond_refuses_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    out = beyond(["3x4", "4x3"])
    assert out["sizes"]["3x4"]["count"] == out["sizes"]["4x3"]["count"] == 162
    import solvers.sukoro.exact as E
    monkeypatch.setattr(E, "count_answers_by_cells", lambda h, w: 0)
    with pytest.raises(LedgerError, match="3x4"):
        E.beyond(["3x4"])


def test_confirm_stage_records_and_refuses() -> None:
    rng = random.Random(5)
    from solvers.sukoro.bank import bank_entry
    from solvers.sukoro.generate import generate
    boards = [bank_entry(*generate(4, 4, rng), f"4x4-{k}") for k in range(3)]
    out = confirm({"bank": {"boards": boards}}, {"brute_max_cells": 36,
                                                 "methods": ["brute", "sat"]})
    assert out["by_method"] == {"brute": 3, "sat": 3} and out["all"]
    assert out == confirm({"bank": {"boards": boards}}, {"brute_max_cells": 36,
                                                         "methods": ["brute", "sat"]})
    b = Board.from_json(boards[0]["board"])
    a = Answer.from_json(boards[0]["answer"])
    wrong = Answer.from_flat(b.h, b.w, [0] * (b.h * b.w))
    row = confirm_board(b, wrong, 36)
    assert row["sat"] is False and row["brute"] is False
    assert confirm_board(b, a, 0)["brute"] is None
    bad = dict(boards[0], answer=wrong.to_json())
    with pytest.raises(ConfirmError, match="4x4-0"):
        confirm({"bank": {"boards": [bad]}}, {"brute_max_cells": 36,
                                              "methods": ["brute", "sat"]})
