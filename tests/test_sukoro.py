"""Sukoro: rules, codec, both engines, rung soundness, exact counts and the stages."""

from __future__ import annotations

import json
import random

import pytest

from solvers import registry
from solvers.common import PuzzleError
from solvers.sukoro import PUZZLE, exact
from solvers.sukoro.bank import bank
from solvers.sukoro.board import Answer, Board, render_board
from solvers.sukoro.brute import brute
from solvers.sukoro.codec import decode, encode
from solvers.sukoro.frontier import count_answers, enumerate_answers
from solvers.sukoro.generate import full_print, generate
from solvers.sukoro.hints import trace
from solvers.sukoro.ladder import LEVEL, NUMS, RUNGS, Rules, fixpoint, random_answer, solve
from solvers.sukoro.rules import RULES, violations
from solvers.sukoro.studies import stats

SAMPLE = "https://puzz.link/p?sukoro/5/5/2a2c4a2g2a4c2a2"
SAMPLE_ANSWER = ["232..", "3432.", "23.32", ".2343", "..232"]


def answer(rows: list[str]) -> Answer:
    return Answer.from_json({"rows": rows})


def board(rows: list[str]) -> Board:
    return Board.from_json({"h": len(rows), "w": len(rows[0]), "clues": [
        [None if ch == "." else ("?" if ch == "?" else int(ch)) for ch in row] for row in rows]})


def answers_of(res) -> set[tuple[str, ...]]:
    return {tuple(a.rows()) for a in res.solutions}


# -- surface and codec ----------------------------------------------------------------

def test_registry_and_surface():
    assert registry.get("sukoro") is PUZZLE
    assert PUZZLE.rungs == RUNGS == ("deg", "neq", "conn", "probe", "search")
    # over/under: only the partial check (partial.py) reports them
    assert [r.id for r in RULES] == ["sukoro.clue", "sukoro.over", "sukoro.under",
                                     "sukoro.count", "sukoro.equal", "sukoro.isolated",
                                     "sukoro.connect"]
    assert [s.name for s in PUZZLE.stages] == ["bank", "confirm", "stats", "ledger", "timing"]


def test_sample_round_trip_and_unique_answer():
    b = decode(SAMPLE)
    assert (b.h, b.w) == (5, 5)
    assert b.clues[0] == (2, None, 2, None, None)
    assert b.clues[4] == (None, None, 2, None, 2)
    assert encode(b) == SAMPLE
    res = solve(b, limit=5)
    assert answers_of(res) == {tuple(SAMPLE_ANSWER)}
    assert answers_of(brute(b, limit=None)) == {tuple(SAMPLE_ANSWER)}
    assert violations(b, res.solutions[0]) == []
    assert PUZZLE.answer_rows(res.solutions[0]) == SAMPLE_ANSWER
    assert render_board(b, None).splitlines()[0] == "2 . 2 . ."


@pytest.mark.parametrize("url", [
    "http://pzv.jp/p.html?sukoro/5/5/2a2c4a2g2a4c2a2",
    "https://pzprxs.vercel.app/p?sukoro/5/5/2a2c4a2g2a4c2a2",
    "sukoro/5/5/2a2c4a2g2a4c2a2",
    "https://puzz.link/p?type=player&sukoro_play/5/5/2a2c4a2g2a4c2a2/",
])
def test_prefixes(url):
    assert encode(decode(url)) == SAMPLE


def test_non_square_and_trailing_slash():
    b = decode("https://puzz.link/p?sukoro/3/2/1d./")
    assert (b.h, b.w) == (2, 3)
    assert b.clues == ((1, None, None), (None, None, "?"))
    assert encode(b) == "https://puzz.link/p?sukoro/3/2/1d./"
    empty = Board.empty(5, 5)
    assert encode(empty) == "https://puzz.link/p?sukoro/5/5/y"
    big = Board.empty(6, 6)
    assert encode(big) == "https://puzz.link/p?sukoro/6/6/zj"
    assert decode(encode(big)) == big


@pytest.mark.parametrize("url, words", [
    ("https://puzz.link/p?canal/5/5/2a2", "canal"),
    ("https://puzz.link/p?sukoro/x/5/2a2", "'2a2'"),
    ("https://puzz.link/p?sukoro/5", "width and height"),
    ("https://puzz.link/p?sukoro/0/5/", "'0'"),
    ("https://puzz.link/p?sukoro/3/3/1\x01", "position 1"),
])
def test_malformed_urls(url, words):
    with pytest.raises(PuzzleError, match=None) as err:
        decode(url)
    assert words in str(err.value)


def test_malformed_json():
    with pytest.raises(PuzzleError, match="clues row 1"):
        Board.from_json({"h": 2, "w": 2, "clues": [[None, 1], [2]]})
    with pytest.raises(PuzzleError, match="row 0, column 1"):
        Board.from_json({"h": 1, "w": 2, "clues": [[None, "x"]]})
    with pytest.raises(PuzzleError, match="missing the field 'w'"):
        Board.from_json({"h": 1, "clues": [[None]]})
    with pytest.raises(PuzzleError, match="row 1, column 2"):
        Answer.from_json({"rows": ["...", "..5"]})
    with pytest.raises(PuzzleError, match="row 1 has 2"):
        Answer.from_json({"rows": ["...", ".."]})
    b = Board.empty(2, 2)
    assert Board.from_json(json.loads(json.dumps(b.to_json()))) == b


# -- violations -----------------------------------------------------------------------

def rules_of(b, a):
    return [(v.rule, v.cells) for v in violations(b, a)]


def test_violation_per_rule():
    b = Board.empty(1, 5)
    # a clean tromino
    assert rules_of(b, answer(["121.."])) == []
    # clue: blank under a clue, a different digit, a '?' on blank
    assert rules_of(board(["2...."]), answer([".121."])) == [("sukoro.clue", ((0, 0),))]
    assert rules_of(board([".3..."]), answer(["121.."])) == [("sukoro.clue", ((0, 1),))]
    assert rules_of(board(["...?."]), answer(["121.."])) == [("sukoro.clue", ((0, 3),))]
    assert rules_of(board(["?...."]), answer(["121.."])) == []
    # count: wrong digit
    assert rules_of(b, answer(["131.."])) == [("sukoro.count", ((0, 1),))]
    # equal: a domino 1-1
    assert rules_of(b, answer(["11..."])) == [("sukoro.equal", ((0, 0), (0, 1)))]
    # isolated (and its count is wrong too)
    got = rules_of(b, answer(["121.1"]))
    assert got == [("sukoro.count", ((0, 4),)), ("sukoro.isolated", ((0, 4),)),
                   ("sukoro.connect", ((0, 4),))]
    # connect: two trominoes; the tie goes to the earliest group
    b2 = Board.empty(3, 3)
    got = rules_of(b2, answer(["121", "...", "121"]))
    assert got == [("sukoro.connect", ((2, 0), (2, 1), (2, 2)))]
    got = rules_of(Board.empty(3, 5), answer(["1....", "2..1.", "1.121"]))
    assert got[-1] == ("sukoro.connect", ((0, 0), (1, 0), (2, 0)))
    v = violations(b, answer(["11..."]))[0]
    assert v.en and v.ja and v.to_json()["cells"] == [[0, 0], [0, 1]]


# -- engines --------------------------------------------------------------------------

def random_clued_board(h, w, rng, keep):
    ans = random_answer(h, w, rng, min_fill=0.3)
    vals = ans.flat()
    flat = []
    for v in vals:
        if v and rng.random() < keep:
            flat.append("?" if rng.random() < 0.2 else v)
        else:
            flat.append(None)
    return Board.from_flat(h, w, flat), ans


def test_rungs_are_sound_on_random_boards():
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        h, w = rng.choice([(4, 5), (5, 5), (6, 6), (7, 8)])
        b, ans = random_clued_board(h, w, rng, rng.choice([0.1, 0.3, 0.6]))
        rules = rng.choice([Rules(), Rules(), Rules(neq=False), Rules(connect=False)])
        vals = ans.flat()
        for level in RUNGS[:-1]:
            dom = fixpoint(b, level, rules)
            assert dom is not None, (level, b)
            for d, v in zip(dom, vals, strict=True):
                assert d >> v & 1, (level, render_board(b), ans.rows())
            checked += 1
    assert checked == 240


def test_rungs_keep_every_answer_of_ambiguous_boards():
    rng = random.Random(5)
    for _ in range(25):
        b, _ = random_clued_board(4, 4, rng, 0.25)
        every = brute(b, limit=None).solutions
        assert every
        for level in RUNGS[:-1]:
            dom = fixpoint(b, level)
            for a in every:
                assert all(d >> v & 1 for d, v in zip(dom, a.flat(), strict=True))


def test_engines_agree_on_small_boards():
    rng = random.Random(3)
    for h, w in [(1, 5), (2, 4), (3, 3), (3, 4), (4, 4), (2, 6)]:
        b = Board.empty(h, w)
        assert answers_of(solve(b, limit=10 ** 6)) == answers_of(brute(b, limit=None))
    for _ in range(40):
        h, w = rng.choice([(3, 4), (4, 4), (4, 5)])
        n = h * w
        flat = [None] * n
        for i in rng.sample(range(n), rng.randint(1, 3)):
            flat[i] = rng.choice([1, 2, 3, 4, "?"])
        b = Board.from_flat(h, w, flat)
        assert answers_of(solve(b, limit=10 ** 6)) == answers_of(brute(b, limit=None))
    for rules in (Rules(neq=False), Rules(connect=False)):
        b = Board.empty(3, 4)
        got = answers_of(solve(b, limit=10 ** 6, rules=rules))
        assert got == answers_of(brute(b, limit=None, neq=rules.neq, connect=rules.connect))


def test_levels_and_rung_report():
    b = decode(SAMPLE)
    assert solve(b, level="deg").rung is None
    res = solve(b, level="neq")
    assert res.rung == "neq" and len(res.solutions) == 1
    low = solve(b, level="deg")
    assert low.solutions == [] and 0 < len(low.fixed) < 25 - b.clue_count()
    with pytest.raises(ValueError):
        solve(b, level="magic")


# -- exact counts ---------------------------------------------------------------------

SPEC_LEDGER = {
    1: [0, 0, 1, 2, 3, 4, 5, 6, 7, 8],
    2: [0, 4, 12, 26, 48, 80, 126, 190, 278, 398],
    3: [1, 12, 54, 162, 428, 1012, 2322, 5134, 11338, 24580],
    4: [2, 26, 162, 702, 2810, 10514, 38928, 143254],
    5: [3, 48, 428, 2810, 18230, 110138, 666757],
    6: [4, 80, 1012, 10514, 110138],
}


def test_blank_ledger_small():
    for h, row in SPEC_LEDGER.items():
        for w, want in enumerate(row, start=1):
            if h * w <= 40:
                assert count_answers(h, w) == want, (h, w)
    for h in range(1, 5):
        for w in range(1, 5):
            assert len(brute(Board.empty(h, w), limit=None).solutions) == SPEC_LEDGER[h][w - 1]
    assert len(enumerate_answers(4, 5)) == 2810
    assert all(count_answers(1, n) == max(0, n - 2) for n in range(1, 16))


def test_census_and_true_sets():
    data = exact.ledger({}, {"ledger_cols": {"1": 4, "2": 7}})
    c = data["census"]
    assert c["total"]["sets"] == 1_254_128
    assert (c["total"]["none"], c["total"]["several"], c["total"]["unique"]) == (
        1_147_938, 91_349, 14_841)
    assert c["one_clue"] == {"sets": 352, "unique": 0}
    assert c["boards"]["3x4"]["4"]["sets"] == 126_720
    t = data["true_sets"]
    assert [t[s]["walked"] for s in ("3x4", "3x5", "4x4")] == [13_582, 131_428, 261_346]
    assert [(t[s]["fewest"], t[s]["median"], t[s]["worst"]) for s in ("3x4", "3x5", "4x4")] \
        == [(2, 3, 4), (2, 3, 6), (2, 3, 6)]
    assert data["fillable"]["sizes"] == ["1x3", "3x3"]
    assert data["cubic"]["tries"]["6"]["predicted"] == 80
    assert data["cubic"]["tries"]["7"]["predicted"] == 124
    assert data["cubic"]["tries"]["7"]["true"] == 126
    assert data["empty5x5_digits"]["answers"] == 18230
    assert "." not in json.dumps(list(_keys(data)))


def _keys(d):
    if isinstance(d, dict):
        for k, v in d.items():
            yield k
            yield from _keys(v)
    elif isinstance(d, list):
        for v in d:
            yield from _keys(v)


# -- generator, lemma, stages ---------------------------------------------------------

def test_full_print_lemma_and_generator():
    rng = random.Random(8)
    for _ in range(5):
        ans = random_answer(6, 6, rng)
        assert violations(Board.empty(6, 6), ans) == []
        assert answers_of(solve(full_print(ans), limit=3)) == {tuple(ans.rows())}
    b, ans = generate(6, 6, rng)
    assert answers_of(solve(b, limit=3)) == {tuple(ans.rows())}
    assert answers_of(brute(b, limit=3)) == {tuple(ans.rows())}
    # minimal: deleting any clue loses uniqueness but never the answer
    flat = b.flat()
    for i, v in enumerate(flat):
        if v is not None:
            f2 = flat[:]
            f2[i] = None
            assert len(solve(Board.from_flat(6, 6, f2), limit=2).solutions) == 2


def test_trace_matches_answer():
    rng = random.Random(21)
    b, ans = generate(8, 8, rng)
    steps = trace(b, ans)
    vals = ans.flat()
    seen = set()
    for st in steps:
        assert st["rung"] in RUNGS and st["en"] and st["ja"]
        for (r, c), state in zip(st["cells"], st["states"], strict=True):
            assert state == ("number" if vals[r * 8 + c] else "blank")
            assert (r, c) not in seen
            seen.add((r, c))
    assert len(seen) == sum(v is None for v in b.flat())


def test_stages_small_and_deterministic():
    params = {"seed": 4, "sizes": ["5x5", "6x6"], "count": 2}
    one = bank({}, params)
    assert json.dumps(one, sort_keys=True) == json.dumps(bank({}, params), sort_keys=True)
    for e in one["boards"]:
        b = Board.from_json(e["board"])
        assert decode(e["url"]) == b
        assert e["grade"] == solve(b).rung and LEVEL[e["grade"]] <= LEVEL["search"]
        assert violations(b, Answer.from_json(e["answer"])) == []
    sp = {"seed": 1, "lemma": {"size": "5x5", "answers": 3},
          "sampling": {"5x5": [2, 4]}, "random_samples": 3, "true_samples": 2,
          "ladder_cap": 500, "delete_limit": 4, "moves_per_clue": 1}
    s = stats({"bank": one}, sp)
    assert s["lemma"]["unique"] == 3
    assert s["ablation"]["none"]["lost"] == 0
    assert all(v["none"] == 0 for v in s["ablation"].values() if isinstance(v, dict))
    assert s["edits"]["deleted_none"] == 0
    assert s["value_position"]["numbered"] == s["value_position"]["boards"] == 4
    assert "." not in json.dumps(list(_keys(s)))
    assert json.dumps(s, sort_keys=True) == json.dumps(stats({"bank": one}, sp), sort_keys=True)


def test_numbers_cells_domain():
    # a '?' clue only says "numbered"
    dom = fixpoint(board(["?...."]), "deg")
    assert dom[0] & NUMS and not dom[0] & 1
