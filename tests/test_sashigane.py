"""Sashigane: rules per clause and variant, codec, both engines, rung soundness, exact
counts of the ledger and the surveys."""

from __future__ import annotations

import random

import pytest

from solvers.common import PuzzleError
from solvers.sashigane import PUZZLE, RULES, RUNGS
from solvers.sashigane.board import Answer, Board, l_shape
from solvers.sashigane.brute import brute, count_tilings, scan
from solvers.sashigane.codec import decode, encode, read_pzprv3
from solvers.sashigane.exact import a052537
from solvers.sashigane.fit import SEED, fit
from solvers.sashigane.generate import arrow_choice, print_board, random_tiling
from solvers.sashigane.ladder import LEVEL, Problem, owners, propagate, size_budget, solve
from solvers.sashigane.rules import violations
from solvers.sashigane.survey import shape_counts, survey, tilings
from solvers.sashigane.transfer import count

SAMPLE = "https://puzz.link/p?sashigane/5/5/jm.o3khkgojm4"
SAMPLE_ANSWER = [[0, 0, 0, 0, 0], [1, 1, 1, 1, 0], [2, 2, 3, 1, 0], [2, 4, 3, 3, 5],
                 [4, 4, 5, 5, 5]]
# pzprjs's test script for the genre (test/script/sashigane.js): problem, then borders
PZ_HEAD = ("pzprv3/sashigane/5/5/4 . . . o /. . . . . /o3 . 2 . 1 /. . . . . /"
           "4 . . . o4 /")
PZ_OK = PZ_HEAD + ("-1 0 0 -1 /0 0 0 1 /-1 1 1 1 /1 1 0 1 /-1 1 -1 -1 /1 1 1 1 -1 /"
                   "1 1 1 0 -1 /-1 1 -1 1 1 /1 -1 1 1 -1 /")
PZ_NOT_L = PZ_HEAD + ("-1 0 0 -1 /0 0 1 1 /-1 1 1 1 /1 1 0 1 /-1 1 -1 -1 /1 1 1 1 -1 /"
                      "1 1 1 0 -1 /-1 1 -1 1 1 /1 -1 1 1 -1 /")


def board(rows: list[str], rules: str = "seed") -> Board:
    return Board.from_json({"h": len(rows), "w": len(rows[0].split()), "rules": rules,
                            "cells": [r.split() for r in rows]})


def pieces(rows: list[str]) -> Answer:
    return Answer.from_json({"pieces": [[int(ch, 36) if ch != "." else -1 for ch in r]
                                        for r in rows]})


def rule_ids(b: Board, a: Answer) -> list[str]:
    return [v.rule for v in violations(b, a)]


# -- surface and codec ----------------------------------------------------------------

def test_surface():
    assert PUZZLE.rungs == RUNGS == ("fit", "cover", "area", "probe", "search")
    assert all(r.id.startswith("sashigane.") for r in RULES)
    assert [s.name for s in PUZZLE.stages] == ["bank", "stats", "ledger", "timing"]
    # the ladder's rungs and the hint trace's deductions (solvers/sashigane/hints.py)
    from solvers.sashigane.hints import RUNG_ORDER
    assert set(PUZZLE.rung_names["ja"]) == set(PUZZLE.rung_names["en"]) == \
        set(RUNGS) | set(RUNG_ORDER)


def test_sample_round_trip_and_known_answer():
    b = decode(SAMPLE)
    assert (b.h, b.w, b.rules) == (5, 5, "standard")
    assert b.at(0, 0).token() == ">" and b.at(2, 0).token() == "o3"
    assert b.at(4, 4).token() == "o4" and b.at(0, 4).token() == "o"
    assert encode(b) == SAMPLE
    res = solve(b, limit=5)
    assert [a.rows() for a in res.solutions] == [SAMPLE_ANSWER]
    assert [a.rows() for a in brute(b, limit=None).solutions] == [SAMPLE_ANSWER]
    assert violations(b, res.solutions[0]) == []


def test_pzprv3_answer_from_pzprjs_test_script():
    b, a = read_pzprv3(PZ_OK)
    assert b.to_json()["cells"] == decode(SAMPLE).to_json()["cells"]
    assert a.rows() == SAMPLE_ANSWER and violations(b, a) == []
    b2, a2 = read_pzprv3(PZ_NOT_L)
    assert "sashigane.shape" in rule_ids(b2, a2)


@pytest.mark.parametrize("url", [
    "https://puzz.link/p?sashigane/4/1/jl./",
    "https://puzz.link/p?sashigane/7/3/-1fzk@gh",
    "https://puzz.link/p?sashigane/6/2/.34567@ihgj7",
    "https://puzz.link/p?sashigane/6/2/.34567@ihgj./",
])
def test_round_trip_written_forms(url):
    assert encode(decode(url)) == url


def test_other_prefixes_and_long_numbers():
    b = decode("http://pzv.jp/p.html?sashigane/3/1/-1fk.")
    assert b.at(0, 0).value == 31 and b.at(0, 2).token() == "o"
    assert decode("sashigane/3/1/%gk").at(0, 0).token() == "?"


@pytest.mark.parametrize("url,msg", [
    ("https://puzz.link/p?nanro/5/5/x", "expected 'sashigane'"),
    ("https://puzz.link/p?sashigane/5", "width and height"),
    ("https://puzz.link/p?sashigane/5/5/-zz", "two hex digits"),
    ("https://puzz.link/p?sashigane/0/5/k", "positive"),
])
def test_malformed_urls(url, msg):
    with pytest.raises(PuzzleError, match=msg):
        decode(url)


@pytest.mark.parametrize("data,msg", [
    ({"h": 1, "w": 2, "cells": [["o", "x"]]}, "row 0, column 1"),
    ({"h": 2, "w": 2, "cells": [["o", "."]]}, "list of 2 rows"),
    ({"h": 1, "w": 1, "rules": "odd", "cells": [["."]]}, "rules"),
    ({"w": 1, "cells": []}, "missing the field 'h'"),
])
def test_malformed_board_json(data, msg):
    with pytest.raises(PuzzleError, match=msg):
        Board.from_json(data)


def test_malformed_answer_json():
    with pytest.raises(PuzzleError, match="pieces"):
        Answer.from_json({"rows": []})
    with pytest.raises(PuzzleError, match=r"pieces\[0\]\[1\]"):
        Answer.from_json({"pieces": [[0, "a"]]})


def test_json_round_trip():
    b = decode(SAMPLE)
    assert Board.from_json(b.to_json()) == b
    a = solve(b).solutions[0]
    assert Answer.from_json(a.to_json()) == a
    vert, horz = a.borders()
    assert Answer.from_borders(5, 5, vert, horz) == a


# -- the rule check, clause by clause ----------------------------------------------

SEED_BOARD = ["o3 <", "^ ."]          # one L of 3: corner (0,0), arrows... see tests


def test_l_shape():
    assert l_shape([0, 1, 2], 3) is None                  # straight
    s = l_shape([0, 1, 3], 3)                             # (0,0) (0,1) (1,0)
    assert s is not None and s.corner == 0 and set(s.ends) == {1, 3}
    assert l_shape([0, 1, 3, 4], 3) is None               # 2×2 block


def test_seed_clauses_one_by_one():
    ok = board(["o3 <", "^ ."])
    one = pieces(["00", "0."])
    assert rule_ids(ok, one) == ["sashigane.cover", "sashigane.arrows"]
    good = board(["o3 <", ". ."])
    assert rule_ids(good, pieces(["00", "01"])) == ["sashigane.shape"]
    assert rule_ids(good, pieces(["00", "0."])) == ["sashigane.cover"]
    b = board(["o3 <", ". .", ". ."])
    assert rule_ids(b, pieces(["00", "01", "11"])) == ["sashigane.no_circle",
                                                      "sashigane.no_arrow"]
    assert rule_ids(board(["o4 <", ". ."]), pieces(["00", "0."])) == [
        "sashigane.cover", "sashigane.size"]
    v = violations(board(["o4 <", ". ."]), pieces(["00", "0."]))[-1]
    assert v.params == {"number": 4, "size": 3, "row": 1, "col": 1}
    assert "says 4" in v.en and "3マス" in v.ja
    assert rule_ids(board([". o", "^ ."]), pieces(["00", "0."])) == [
        "sashigane.cover", "sashigane.corner"]
    assert rule_ids(board(["o >", ". ."]), pieces(["00", "0."])) == [
        "sashigane.cover", "sashigane.arrow_point"]
    assert rule_ids(board(["o .", ". ."]), pieces(["00", "0."])) == [
        "sashigane.cover", "sashigane.no_arrow"]
    assert rule_ids(board(["o . .", ". < ."]), pieces(["000", "0.."])) == [
        "sashigane.cover", "sashigane.cover", "sashigane.no_arrow"]
    assert rule_ids(board(["o < <", "^ . ."]), pieces(["000", "0.."])) == [
        "sashigane.cover", "sashigane.cover", "sashigane.arrows", "sashigane.arrow_end"]
    assert rule_ids(board(["o o", "< ."]), pieces(["00", "0."])) == [
        "sashigane.cover", "sashigane.circles", "sashigane.corner", "sashigane.arrow_point"]


def test_standard_clauses():
    # clueless pieces and two arrows are fine under the standard rules only
    b = board(["o <", "^ .", ". ."], "standard")
    a = pieces(["00", "01", "11"])
    assert rule_ids(b, a) == []
    assert rule_ids(b.with_rules("seed"), a) == ["sashigane.no_circle", "sashigane.arrows",
                                                 "sashigane.no_arrow"]
    assert rule_ids(board(["o v", ". ."], "standard"), pieces(["00", "0."])) == [
        "sashigane.cover", "sashigane.arrow_point"]
    assert rule_ids(board(["o . .", ". > ."], "standard"),
                    pieces(["000", "0.."])) == ["sashigane.cover", "sashigane.cover"]


def test_stray_border_rule():
    b = board(["o <", "^ ."], "standard")
    vert, horz = [[1], [0]], [[0, 0]]
    a = Answer.from_borders(2, 2, vert, horz)
    assert rule_ids(b, a) == ["sashigane.border", "sashigane.shape"]


def test_size_mismatch_raises():
    with pytest.raises(PuzzleError, match="answer is"):
        violations(board(["o ."]), pieces(["0", "0"]))


# -- engines --------------------------------------------------------------------------

def random_board(h: int, w: int, rng: random.Random, keep: float) -> tuple[Board, Answer]:
    ps = random_tiling(h, w, rng)
    b = print_board(h, w, ps, [arrow_choice(p, "coin", rng) for p in ps], True)
    cells = list(b.cells)
    for i, k in enumerate(cells):
        if k.kind == 1 and rng.random() > keep:
            cells[i] = type(k)(1, None)
    lab = [0] * (h * w)
    for n, p in enumerate(ps):
        for i in range(h * w):
            if p.mask >> i & 1:
                lab[i] = n
    return Board(h, w, tuple(cells)), Answer.from_labels(h, w, lab)


def canon(res) -> set[tuple]:
    return {tuple(map(tuple, a.rows())) for a in res.solutions}


def test_engines_agree_and_rungs_are_sound():
    rng = random.Random(2024)
    for trial in range(60):
        h, w = rng.choice([(4, 4), (4, 5), (5, 5), (5, 6), (6, 6)])
        b, truth = random_board(h, w, rng, keep=rng.random())
        if trial % 3 == 0:
            b = b.with_rules("standard")
        scans = canon(brute(b, limit=None))
        assert canon(solve(b, limit=None)) == scans
        assert tuple(map(tuple, truth.rows())) in scans
        if b.rules != "seed":
            continue
        # every owner a rung fixed is that cell's owner in every answer of the scanner
        sols = brute(b, limit=None).solutions
        p = Problem.of(fit(b))
        for level in range(LEVEL["probe"] + 1):
            alive = propagate(p, list(range(len(p.cand.masks))), level)
            assert alive is not None
            for cell, circle in owners(p, alive).items():
                for a in sols:
                    assert a.pieces[cell] == a.pieces[circle]


def test_solution_checks_clean():
    rng = random.Random(5)
    for _ in range(10):
        b, truth = random_board(6, 6, rng, keep=1.0)
        assert violations(b, truth) == []
        res = solve(b, limit=2)
        assert len(res.solutions) == 1 and res.solutions[0] == truth


def test_size_budget():
    assert size_budget(5, 5, [3, None, 4]) == (18, 3, 9)


# -- exact figures ---------------------------------------------------------------------

SPEC_ROWS = {2: [0, 0, 2, 2, 2, 6, 10, 14, 26, 46, 74, 126, 218, 366],
             3: [0, 2, 0, 20, 64, 234, 664, 2220, 7476, 25882],
             4: [0, 2, 20, 110, 752, 4522, 27380, 167078],
             5: [0, 2, 64, 752, 7720, 84846]}


def test_tiling_counts_three_ways():
    for h, row in SPEC_ROWS.items():
        for w, n in enumerate(row, start=1):
            if h * w <= 30:
                assert count_tilings(h, w)[0] == n
            assert count(h, w)[0] == n
            assert count(w, h)[0] == n
    assert count(6, 6)[0] == 1557970


def test_two_by_n_is_a052537():
    row = [count(2, n)[0] for n in range(1, 20)]
    assert row == a052537(19)[1:]
    assert all(row[i] == row[i - 1] + 2 * row[i - 3] for i in range(3, len(row)))


def test_most_pieces_reaches_the_bound():
    assert count(4, 6) == (4522, 8)
    assert count_tilings(4, 6) == (4522, 8)
    assert count(3, 3) == (0, -1)


def test_surveys_match_the_spec():
    full = {s: survey(*s, True) for s in [(2, 6), (3, 4), (3, 5), (3, 6), (4, 4), (4, 5)]}
    assert [full[s]["pairs"] for s in full] == [72, 192, 896, 6432, 1888, 24416]
    assert all(r["ambiguous"] == 0 for r in full.values())
    empty = {s: survey(*s, False) for s in [(3, 4), (3, 5), (3, 6), (4, 4), (4, 5)]}
    assert [round(r["share"], 3) for r in empty.values()] == [0.875, 0.812, 0.735, 0.873,
                                                              0.748]
    assert all(r["hopeless"] == 0 for r in empty.values())


def test_an_ambiguous_full_board_past_the_spec_really_has_two_answers():
    s = survey(5, 5, True)
    assert s["ambiguous"] == 256
    b = Board.from_json(s["example"]["board"])
    sols = canon(brute(b, limit=None))
    assert len(sols) == 2 and canon(solve(b, limit=None)) == sols
    for a in s["example"]["answers"]:
        assert violations(b, Answer.from_json(a)) == []


def test_signature_survey_against_the_scanner():
    """Every (tiling, mask) pair of 3×5 with empty circles: the signature count of
    answers equals the scanner's."""
    h, w = 3, 5
    tiles = tilings(h, w)
    expect = survey(h, w, False, tiles)
    unique = 0
    for ps in tiles:
        for m in range(1 << len(ps)):
            b = print_board(h, w, ps, [(m >> j) & 1 for j in range(len(ps))], False)
            unique += len(scan(b, limit=2)[0]) == 1
    assert unique == expect["unique"] == 728


def test_candidate_shapes_of_full_circles():
    total = {"0": 0, "1": 0, "2": 0, "3+": 0}
    for h, w in [(3, 5), (4, 4), (4, 5)]:
        for k, v in shape_counts(h, w).items():
            total[k] += v
    assert total == {"0": 0, "1": 109696, "2": 26880, "3+": 0}


def test_fit_candidates_per_seed_rules():
    b = decode(SAMPLE).with_rules("seed")
    cand = fit(b, SEED)
    assert len(cand.circles) == 3 and set(cand.group) <= {0, 1, 2}


def test_fit_builds_the_same_candidates_as_the_whole_l_table():
    # fit builds each circle's Ls on the spot, arms stopped at clues; the table of every
    # L on the board (what the corner-free stats variant still uses) is the reference
    from itertools import product

    from solvers.sashigane.fit import Rules, _fit_by_cell
    rng = random.Random(5)
    boards = [decode(SAMPLE)]
    for _ in range(6):
        b, _truth = random_board(rng.randint(4, 8), rng.randint(4, 8), rng, keep=0.5)
        boards += [b, b.with_rules("standard")]
    for b in boards:
        for variant, point, end, number in product(("seed", "standard"), *[(True, False)] * 3):
            rules = Rules(variant, point, end, True, number)
            assert fit(b, rules) == _fit_by_cell(b, rules), (b, rules)


def test_cli_solves_a_url_and_refuses_a_bad_one(capsys):
    from site_builder.cli import main
    assert main(["solve", "sashigane", SAMPLE]) == 0
    assert "solutions found: 1" in capsys.readouterr().out
    assert main(["solve", "sashigane", "https://puzz.link/p?sashigane/5/5/-zz"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "two hex digits" in err[0]


def test_trace_lists_every_line_once_and_truly():
    from solvers.sashigane.hints import trace
    rng = random.Random(11)
    for _ in range(5):
        b, truth = random_board(6, 7, rng, keep=0.3)
        res = solve(b, limit=2)
        if len(res.solutions) != 1:
            continue
        steps = trace(b, truth)
        listed = [tuple(e) for st in steps for e in st["edges"]]
        assert len(listed) == len(set(listed)) == 6 * 6 + 5 * 7
        vert, horz = truth.borders()
        for st in steps:
            for (r, c, side), s in zip(st["edges"], st["states"], strict=True):
                line = vert[r][c] if side == "r" else horz[r][c]
                assert s == ("line" if line else "none")
