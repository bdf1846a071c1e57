"""Canal View's measured studies on small boards, recounted with the second engine (plain
backtracking) or the SAT engine instead of the ladder; and the SAT engine itself."""

from __future__ import annotations

import random
import statistics

import pytest

from solvers.canal_view.bank import draw_boards
from solvers.canal_view.board import STANDARD, VARIANTS, Answer, Board
from solvers.canal_view.brute import brute
from solvers.canal_view.confirm import ConfirmError, confirm, confirm_board
from solvers.canal_view.generate import full_board, random_canal, with_clues
from solvers.canal_view.rules import violations
from solvers.canal_view.sat import solve_sat
from solvers.canal_view.studies import (
    _dial,
    _misread,
    _scatter,
    _trapdoor,
    composition_counts,
    sightlines,
    visibility,
)


def _none(*_a: object) -> None:
    return None


def _random_board(rng: random.Random, h: int, w: int, k: int) -> Board:
    """Numbers read off a random canal (so the board has an answer), k of them kept."""
    mask = random_canal(rng, h, w, rng.uniform(0.4, 0.6))
    full = full_board(h, w, mask)
    cells = full.clue_cells()
    return with_clues(full, set(rng.sample(cells, min(k, len(cells)))))


def test_sat_engine_finds_the_same_answer_sets_as_brute_force() -> None:
    rng = random.Random(31)
    seen_several = seen_unique = 0
    for _ in range(40):
        h, w = rng.choice([(3, 3), (3, 4), (4, 4), (4, 5)])
        b = _random_board(rng, h, w, rng.randint(2, 6))
        sat = solve_sat(b, limit=3000)
        bf = brute(b, limit=3000)
        assert len(bf.solutions) < 3000
        assert sorted(sat.answers) == sorted(a.mask for a in bf.solutions)
        seen_several += len(sat.answers) > 1
        seen_unique += len(sat.answers) == 1
        for m in sat.answers:
            assert not violations(b, Answer(h, w, m))
    assert seen_several and seen_unique          # both kinds of board were tried
    # a board with no answer: a 4 in a 1x3 strip cannot see four cells
    assert solve_sat(Board.from_dict(1, 3, {(0, 0): 4})).answers == []


def test_sat_cuts_rule_out_a_broken_canal() -> None:
    # without the cut the two corner pieces satisfy every clause but connectivity
    b = Board.from_dict(1, 3, {(0, 1): 2})
    res = solve_sat(b, limit=5)
    assert res.answers == [] and res.cuts >= 1


def _misread_by_brute(entries: list[dict], cap: int) -> dict:
    out: dict = {}
    for name, rules in VARIANTS.items():
        counts, legal = [], 0
        for e in entries:
            b, a = Board.from_json(e["board"]), Answer.from_json(e["answer"])
            legal += not violations(b, a, rules)
            counts.append(len(brute(b, limit=cap, rules=rules).solutions))
        out[name] = {"legal": legal, "median": statistics.median_low(counts),
                     "unique": counts.count(1), "none": counts.count(0),
                     "capped": sum(c >= cap for c in counts)}
    return out


def test_misreadings_match_brute_force() -> None:
    entries = [{"board": b.to_json(), "answer": a.to_json()}
               for _, b, a in draw_boards(5, "5x5", 5)]
    cap = 400
    p = {"boards": {name: 5 for name in VARIANTS}, "cap": cap, "node_cap": None}
    got = _misread({"5x5": entries}, p, _none)
    want = _misread_by_brute(entries, cap)
    for name in VARIANTS:
        row = got[name]["5x5"]
        assert {k: row[k] for k in want[name]} == want[name], name
    # the readings that drop a rule keep the intended answer; the ones that add one lose it
    assert got["no2x2"]["5x5"]["legal"] == got["broken"]["5x5"]["legal"] == 5


def _replay_canals(seed: str, h: int, w: int, draws: int):
    rng = random.Random(seed)
    for _ in range(draws):
        mask = random_canal(rng, h, w, rng.uniform(0.45, 0.55))
        yield rng, mask


def test_dial_matches_brute_force() -> None:
    params = {"seed": 3, "dial": {"5x5": {"draws": 6, "keep": [9, 6, 3]}}}
    got = _dial(params, _none)["5x5"]
    rows = {"full": 0, "9": 0, "6": 0, "3": 0}
    for rng, mask in _replay_canals("3-dial-5x5", 5, 5, 6):
        full = full_board(5, 5, mask)
        cells = full.clue_cells()
        rng.shuffle(cells)
        rows["full"] += len(brute(full, limit=2).solutions) == 1
        for k in (9, 6, 3):
            b = with_clues(full, set(cells[:k]))
            rows[str(k)] += len(brute(b, limit=2).solutions) == 1
    assert {k: v["unique"] for k, v in got["rows"].items()} == rows
    assert rows["full"] >= rows["9"]         # more numbers never hurt on average here


def test_trapdoor_matches_brute_force() -> None:
    params = {"seed": 5, "trapdoor": {"size": "4x5", "draws": 25}}
    got = _trapdoor(params, _none)
    second = 0
    for _, mask in _replay_canals("5-trapdoor", 4, 5, 25):
        sols = brute(full_board(4, 5, mask), limit=50).solutions
        assert mask in [a.mask for a in sols]     # numbering every dry cell keeps it legal
        second += len(sols) > 1
    assert got["second"] == second and got["draws"] == 25
    assert 0 <= got["moving_unseen"] <= second


def test_scatter_matches_brute_force() -> None:
    params = {"seed": 9, "scatter": {"size": "4x4", "draws": 12, "clues": 3, "small_max": 3,
                                     "node_cap": None}}
    got = _scatter(params, {}, _none)
    rng = random.Random("9-scatter")
    for mode in ("small", "whole"):
        unique = none = 0
        for _ in range(12):
            cells = rng.sample([(r, c) for r in range(4) for c in range(4)], 3)
            clues = {}
            for r, c in cells:
                clues[(r, c)] = rng.randint(0, 3 if mode == "small" else 6)
            n = len(brute(Board.from_dict(4, 4, clues), limit=2).solutions)
            unique += n == 1
            none += n == 0
        assert (got[mode]["unique"], got[mode]["none"]) == (unique, none), mode


def test_hidden_cells_and_powers_by_hand() -> None:
    # row 0: the 2 sees two cells, then a dry cell hides three more before the edge
    rows = ["2##.###", "#######"]
    a = Answer.from_rows([r.replace("2", ".") for r in rows])
    b = Board.from_dict(2, 7, {(0, 0): 3})
    v = visibility(b, a)
    assert (v["says"], v["in_rays"], v["rays_behind"], v["hidden"], v["most_hidden"]) \
        == (3, 6, 1, 3, 3)
    assert sightlines(b, a)["blocked"] == v["hidden"]
    # one number, rays of 6 (right) and 1 (down): 7 cells; splits of 3 that fit: (a, 3 - a)
    # with a <= 6 and 3 - a <= 1, i.e. a = 2 or 3
    assert composition_counts(b) == [(7, 2)]


def test_confirm_stage_records_and_refuses() -> None:
    boards = [{"id": f"5x5-{k}", "size": "5x5", "board": b.to_json(), "answer": a.to_json()}
              for k, b, a in draw_boards(2, "5x5", 3)]
    out = confirm({"bank": {"boards": boards}}, {"brute_max_cells": 36,
                                                     "methods": ["brute", "sat"]}, _none)
    assert out["by_method"] == {"brute": 3, "sat": 3} and out["all"]
    assert out == confirm({"bank": {"boards": boards}}, {"brute_max_cells": 36,
                                                             "methods": ["brute", "sat"]}, _none)
    bad = dict(boards[0])
    b = Board.from_json(bad["board"])
    wrong = Answer(b.h, b.w, Answer.from_json(bad["answer"]).mask ^ 1)
    assert confirm_board(b, wrong, 36) == {**confirm_board(b, wrong, 36), "sat": False}
    bad["answer"] = wrong.to_json()
    with pytest.raises(ConfirmError, match="5x5-1"):
        confirm({"bank": {"boards": [bad]}}, {"brute_max_cells": 36,
                                                  "methods": ["brute", "sat"]}, _none)
    assert STANDARD.connected
