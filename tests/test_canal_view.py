"""Canal View: rules, URL codec, rung soundness, engine agreement, identities, OEIS."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.canal_view import PUZZLE
from solvers.canal_view.board import (
    BROKEN,
    DRY_CONNECTED,
    NO_2X2,
    STANDARD,
    VARIANTS,
    WHOLE_LINE,
    Answer,
    Board,
)
from solvers.canal_view.brute import brute
from solvers.canal_view.codec import decode, encode
from solvers.canal_view.exact import A001168, A066158, count_grown, count_subsets, polyominoes
from solvers.canal_view.generate import full_board, generate, random_canal, reduce_board, with_clues
from solvers.canal_view.ladder import RUNGS, Contradiction, make_ctx, propagate, solve, start_state
from solvers.canal_view.rules import RULES, violations
from solvers.canal_view.studies import IdentityError, sightlines
from solvers.common import PuzzleError

SAMPLE = "https://puzz.link/p?canal/6/6/3i3h2z4h5i2"
SAMPLE_ANSWER = ["3###3.", ".2#...", "..#.#.", ".#####", "##.#4#", "#5##.2"]


def _rows(pattern: list[str]) -> list[str]:
    return ["".join("#" if ch == "#" else "." for ch in row) for row in pattern]


# ---------------------------------------------------------------- surface --------------
def test_surface() -> None:
    assert PUZZLE.slug == "canal-view" and PUZZLE.pid == "canal"
    assert RUNGS == ("arm", "block", "flow", "search") == PUZZLE.rungs
    assert RULES.ids[:4] == ("canal.numbered", "canal.2x2", "canal.count", "canal.connect")
    assert [s.name for s in PUZZLE.stages] == ["bank", "confirm", "stats", "ledger", "timing"]
    assert PUZZLE.stages[1].deps == ("bank",)


# ---------------------------------------------------------------- puzz.link -----------
def test_sample_round_trip_and_unique_answer() -> None:
    b = decode(SAMPLE)
    assert (b.h, b.w) == (6, 6)
    assert b.clues[0][0] == 3 and b.clues[5][1] == 5 and b.clues[5][5] == 2
    assert encode(b) == SAMPLE
    res = solve(b, limit=2)
    assert len(res.solutions) == 1
    assert res.solutions[0].rows() == _rows(SAMPLE_ANSWER)
    assert [a.rows() for a in brute(b, limit=2).solutions] == [_rows(SAMPLE_ANSWER)]


@pytest.mark.parametrize("url", [
    "canal/6/6/3i3h2z4h5i2", "http://pzv.jp/p.html?canal/6/6/3i3h2z4h5i2",
    "https://pzprxs.vercel.app/p?canal/6/6/3i3h2z4h5i2",
    "https://puzz.link/p?type=player&canal_edit/6/6/3i3h2z4h5i2/"])
def test_prefixes(url: str) -> None:
    assert encode(decode(url)) == SAMPLE


def test_non_square_long_numbers_and_trailing_slash() -> None:
    b = Board.from_dict(2, 3, {(0, 0): 17, (1, 2): "?", (0, 2): 300})
    u = encode(b)
    assert u == "https://puzz.link/p?canal/3/2/-11g+12ch./"
    back = decode(u)
    assert back == b and encode(back) == u
    assert encode(Board.from_dict(6, 6, {})) == "https://puzz.link/p?canal/6/6/zv"


@pytest.mark.parametrize("url, words", [
    ("https://puzz.link/p?nurikabe/6/6/3i3", "nurikabe"),
    ("https://puzz.link/p?canal/6", "width and height"),
    ("https://puzz.link/p?canal/6/6x/3", "'6x'"),
    ("https://puzz.link/p?canal/6/y/3", "'y'"),
    ("https://puzz.link/p?canal/0/6/3", "width .0. is not a positive"),
    ("https://puzz.link/p?canal/6/6/3-1", "position 1"),
    ("https://puzz.link/p?canal/6/6/+1g2", "'+'"),
    ("https://puzz.link/p?canal/3/3/3!i", "'!'"),
    ("https://puzz.link/p?canal/3/3/3Ai", "position 1"),
])
def test_malformed_urls(url: str, words: str) -> None:
    with pytest.raises(PuzzleError, match=words.replace("+", r"\+")):
        decode(url)


@pytest.mark.parametrize("d, words", [
    ({"h": 2, "w": 2}, "clues"),
    ({"h": 2, "w": 2, "clues": [[None, None]]}, "expected 2 rows"),
    ({"h": 1, "w": 2, "clues": [[None]]}, "row 0"),
    ({"h": 1, "w": 2, "clues": [[None, -1]]}, r"clues\[0\]\[1\]"),
    ({"h": 1, "w": 2, "clues": [[None, "x"]]}, r"clues\[0\]\[1\]"),
    ({"h": 0, "w": 2, "clues": []}, "positive"),
])
def test_malformed_boards(d: dict, words: str) -> None:
    with pytest.raises(PuzzleError, match=words):
        Board.from_json(d)


def test_malformed_answers() -> None:
    with pytest.raises(PuzzleError, match="answer row 1 has 1 characters"):
        Answer.from_json({"rows": ["#.", "#"]})
    with pytest.raises(PuzzleError, match="'x'"):
        Answer.from_json({"rows": ["#x"]})
    b = decode(SAMPLE)
    with pytest.raises(PuzzleError, match="5x5"):
        violations(b, Answer.from_rows(["....."] * 5))


def test_json_round_trip() -> None:
    b = decode(SAMPLE)
    assert Board.from_json(b.to_json()) == b
    a = Answer.from_rows(_rows(SAMPLE_ANSWER))
    assert Answer.from_json(a.to_json()) == a and PUZZLE.answer_rows(a) == a.rows()
    assert "3" in PUZZLE.render_board(b, a) and "#" in PUZZLE.render_board(b, a)


# ---------------------------------------------------------------- violations ----------
def _v(board: Board, rows: list[str], rules=STANDARD):
    return [(v.rule, v.cells) for v in violations(board, Answer.from_rows(rows), rules)]


def test_violations_solved_sample_is_clean() -> None:
    assert _v(decode(SAMPLE), _rows(SAMPLE_ANSWER)) == []


def test_violation_numbered_and_count() -> None:
    b = Board.from_dict(1, 3, {(0, 0): 1})
    # clue flooded: numbered; it still counts its rays (sees 1, fine)
    assert _v(b, ["##."]) == [("canal.numbered", ((0, 0),))]
    assert _v(b, ["..."]) == [("canal.count", ((0, 0),))]
    assert _v(b, [".##"]) == [("canal.count", ((0, 0),))]
    assert _v(b, [".#."]) == []
    q = Board.from_dict(1, 3, {(0, 0): "?"})
    assert _v(q, [".##"]) == [] and _v(q, ["#.."]) == [("canal.numbered", ((0, 0),))]


def test_violation_2x2_and_connect() -> None:
    b = Board.from_dict(3, 3, {})
    v = _v(b, ["##.", "##.", "..."])
    assert v == [("canal.2x2", ((0, 0), (0, 1), (1, 0), (1, 1)))]
    assert _v(b, ["##.", "##.", "..."], NO_2X2) == []
    v = _v(b, ["#.#", "#.#", "..#"])
    assert v == [("canal.connect", ((0, 0), (1, 0)))]        # the larger group stays
    v = _v(b, ["#.#", "..#", "#.."])
    assert v == [("canal.connect", ((0, 0), (2, 0)))]
    v = _v(b, ["#.#", "...", "#.#"])      # ties: the group holding (0,0) counts as largest
    assert v == [("canal.connect", ((0, 2), (2, 0), (2, 2)))]
    assert _v(b, ["#.#", "...", "#.#"], BROKEN) == []


def test_violation_order_and_variants() -> None:
    b = Board.from_dict(3, 3, {(2, 2): 1})
    v = _v(b, ["##.", "##.", "..#"])
    assert [r for r, _ in v] == ["canal.numbered", "canal.2x2", "canal.count", "canal.connect"]
    b2 = Board.from_dict(3, 3, {(0, 0): 2})
    assert _v(b2, [".#.", "...", "#.."]) == [("canal.count", ((0, 0),)),
                                             ("canal.connect", ((2, 0),))]
    assert _v(b2, [".#.", "...", "#.."], WHOLE_LINE) == [("canal.connect", ((2, 0),))]
    assert [r for r, _ in _v(b2, [".##", "...", "..."], WHOLE_LINE)] == []
    assert [r for r, _ in _v(b2, ["..#", "...", "..."], WHOLE_LINE)] == ["canal.count"]
    assert [r for r, _ in _v(Board.from_dict(3, 3, {}), ["...", "###", "..."],
                             DRY_CONNECTED)] == ["canal.dryconnect"]


# ---------------------------------------------------------------- the engines ---------
def _random_board(rng: random.Random, hmax: int = 6) -> tuple[Board, int]:
    h, w = rng.randint(2, hmax), rng.randint(2, hmax)
    m = random_canal(rng, h, w, rng.uniform(0.3, 0.6))
    fb = full_board(h, w, m)
    cells = fb.clue_cells()
    keep = set(rng.sample(cells, rng.randint(0, len(cells))))
    return with_clues(fb, keep), m


@pytest.mark.parametrize("rules", [STANDARD, *VARIANTS.values()], ids=lambda r: r.name)
def test_rungs_are_sound(rules) -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        b, _m = _random_board(rng, 5)
        res = brute(b, limit=200, rules=rules, node_cap=100_000)
        if res.stats["capped"]:
            continue
        answers = res.solutions
        ctx = make_ctx(b, rules)
        for top in range(3):
            F, D = start_state(ctx)
            try:
                F, D = propagate(ctx, F, D, top)
            except Contradiction:
                assert not answers
                continue
            for a in answers:          # every true answer survives every rung
                assert F & ~a.mask == 0 and D & a.mask == 0
                checked += 1
    assert checked > 50


def test_rungs_sound_on_planted_answers() -> None:
    rng = random.Random(3)
    for _ in range(40):
        b, m = _random_board(rng, 9)
        for level in RUNGS[:3]:
            res = solve(b, level=level)
            assert not res.stats.get("contradiction")
            ctx = make_ctx(b)
            F, D = propagate(ctx, *start_state(ctx), RUNGS.index(level))
            assert F & ~m == 0 and D & m == 0


@pytest.mark.parametrize("rules", [STANDARD, *VARIANTS.values()], ids=lambda r: r.name)
def test_engines_agree_on_answer_sets(rules) -> None:
    rng = random.Random(5)
    compared = 0
    for _ in range(40):
        b, _ = _random_board(rng, 5)
        a = solve(b, limit=400, rules=rules).solutions
        c = brute(b, limit=400, rules=rules).solutions
        if len(a) >= 400 or len(c) >= 400:
            continue
        assert [x.mask for x in a] == [x.mask for x in c]
        compared += 1
    assert compared >= 30


def _arm_oracle(ctx, F: int, D: int) -> tuple[int, int]:
    """Per number, every split of its value into four arm lengths that fits the marks,
    enumerated outright; cells all survivors agree on are fixed; to a fixpoint."""
    changed = True
    while changed:
        changed = False
        for _, v, rays, _, _ in ctx.nums:
            agree_f = agree_d = None
            for comp in itertools.product(*[range(len(r) + 1) for r in rays]):
                if sum(comp) != v:
                    continue
                f = d = 0
                for ray, a in zip(rays, comp, strict=True):
                    for i in range(a):
                        f |= ray[i]
                    if a < len(ray):
                        d |= ray[a]
                if f & D or d & F:
                    continue
                agree_f = f if agree_f is None else agree_f & f
                agree_d = d if agree_d is None else agree_d & d
            if agree_f is None:
                raise Contradiction
            if agree_f & ~F or agree_d & ~D:
                F, D = F | agree_f, D | agree_d
                changed = True
    return F, D


def test_arm_is_complete_for_its_definition() -> None:
    """arm reaches exactly what enumerating each number's splits reaches (rays stop at
    the next numbered cell), so it misses nothing its definition promises."""
    rng = random.Random(17)
    compared = 0
    for _ in range(60):
        b, _m = _random_board(rng, 7)
        ctx = make_ctx(b)
        F, D = start_state(ctx)
        try:
            want = _arm_oracle(ctx, F, D)
        except Contradiction:
            continue
        assert propagate(ctx, F, D, 0) == want
        compared += 1
    assert compared > 40


def test_levels_report_fixed_cells() -> None:
    b = decode(SAMPLE)
    arm = solve(b, level="arm")
    flow = solve(b, level="flow")
    assert set(arm.fixed) <= set(flow.fixed)
    assert flow.rung == "flow" and len(flow.solutions) == 1
    assert solve(b).rung == "flow"
    with pytest.raises(PuzzleError, match="level"):
        solve(b, level="magic")


def test_generator_is_deterministic_and_locally_minimal() -> None:
    b1, a1 = generate(6, 6, random.Random(9))
    b2, a2 = generate(6, 6, random.Random(9))
    assert b1 == b2 and a1 == a2
    res = solve(b1)
    assert [s.mask for s in res.solutions] == [a1.mask]
    for cell in b1.clue_cells():        # every remaining number is needed
        keep = set(b1.clue_cells()) - {cell}
        assert len(solve(with_clues(b1, keep)).solutions) == 2
    again = reduce_board(random.Random(1), b1)
    assert again == b1


# ---------------------------------------------------------------- identities ----------
def test_sightline_identity_board_by_board() -> None:
    rng = random.Random(2)
    for _ in range(10):
        h, w = 8, 8
        m = random_canal(rng, h, w)
        fb = full_board(h, w, m)
        cells = fb.clue_cells()
        b = with_clues(fb, set(rng.sample(cells, len(cells) // 2)))
        s = sightlines(b, Answer(h, w, m))
        assert s["pairs"] == 4 * m.bit_count()
        assert s["seen"] == sum(v for row in b.clues for v in row if isinstance(v, int))
        assert s["seen"] + s["none"] + s["blocked"] == s["pairs"]
    bad = Board.from_dict(1, 3, {(0, 0): 2})
    with pytest.raises(IdentityError):
        sightlines(bad, Answer.from_rows([".#."]))


def test_oeis_columns() -> None:
    p = polyominoes(10)
    for n in range(1, 11):
        assert p[n]["all"] == A001168[n]
        assert p[n]["tree"] == A066158[n]
    assert [p[n]["no2x2"] for n in (7, 8, 9, 10)] == [570, 1909, 6485, 22282]
    assert [p[n]["cycle_no2x2"] for n in (7, 8, 9, 10)] == [0, 1, 12, 80]


def test_small_grid_canals_two_ways() -> None:
    assert count_subsets(4, 5) == count_grown(4, 5) == (116166, 25822)
    for h, w in ((2, 2), (3, 3), (3, 4)):
        assert count_subsets(h, w) == count_grown(h, w)
    assert count_subsets(2, 2) == (13, 12)


# ---------------------------------------------------------------- stages --------------
def test_stages_are_deterministic_on_small_params() -> None:
    from solvers.canal_view.bank import run_bank
    from solvers.canal_view.exact import LedgerError, run_ledger
    from solvers.canal_view.studies import run_stats

    calls: list[tuple[int, int, str]] = []

    def progress(done: int, total: int, note: str = "") -> None:
        calls.append((done, total, note))

    bp = {"seed": 3, "sizes": {"5x5": 3, "6x6": 3}}
    bank = run_bank({}, bp, progress)
    assert bank == run_bank({}, bp, progress) and calls
    for e in bank["boards"]:
        b = Board.from_json(e["board"])
        assert encode(decode(e["url"])) == e["url"] and decode(e["url"]) == b
        assert not violations(b, Answer.from_json(e["answer"]))
        assert e["grade"] in RUNGS and e["clues"] == len(b.clue_cells())
        rows = Answer.from_json(e["answer"]).rows()
        for step in e["trace"]:
            assert step["rung"] in PUZZLE.rung_names["en"]
            assert len(step["cells"]) == len(step["states"])
            for (r, c), st in zip(step["cells"], step["states"], strict=True):
                assert (rows[r][c] == "#") == (st == "flooded")
    sp = {"seed": 1,
          "misread": {"boards": {"no2x2": 2, "broken": 2, "dryconnect": 2, "wholeline": 1},
                      "cap": 20, "node_cap": 500},
          "dial": {"5x5": {"draws": 3, "keep": [8, 5]}},
          "trapdoor": {"size": "5x5", "draws": 3},
          "scatter": {"size": "5x5", "draws": 3, "clues": 4, "small_max": 3, "node_cap": 200},
          "bank_spread": {"sizes": {"5x5": {"boards": 3, "seeds": 2}}}}
    s1 = run_stats({"bank": bank}, sp, progress)
    assert s1 == run_stats({"bank": bank}, sp, progress)
    assert all("." not in k for k in _keys(s1))
    for s in s1["sizes"]:
        sl = s1["sightlines"][s]
        assert sl["pairs"] == sl["seen"] + sl["none"] + sl["blocked"] == sl["canal_x4"]
        assert sl["seen"] == sl["clue_sum"]
        lad = s1["ladder"][s]
        assert lad["search"]["cells"] == lad["search"]["cells_all"] == 1.0
        for rung in RUNGS:         # numbered cells counted as decided only ever add
            assert lad[rung]["cells"] <= lad[rung]["cells_all"] <= 1.0
    lp = {"poly_n": [7, 8], "grids": ["3x3"],
          "engines": {"size": "4x4", "boards": 3, "seed": 2, "cap": 5000}}
    led = run_ledger({}, lp, progress)
    assert led == run_ledger({}, lp, progress)
    assert led["engines"]["standard"]["agree"] == 3
    import solvers.canal_view.exact as L
    saved = L.A001168[7]
    L.A001168[7] = saved + 1
    try:
        with pytest.raises(LedgerError, match="A001168"):
            run_ledger({}, lp, progress)
    finally:
        L.A001168[7] = saved


def test_bank_spread_on_small_banks() -> None:
    from solvers.canal_view.bank import draw_boards
    from solvers.canal_view.studies import SPREAD_RUNGS, bank_spread, ladder_spread, spread_seeds

    calls: list[tuple[int, int, str]] = []

    def progress(done: int, total: int, note: str = "") -> None:
        calls.append((done, total, note))

    p = {"size": "5x5", "boards": 4, "seeds": 3}
    ours = [b for _, b, _ in draw_boards(11, "5x5", 4)]
    out = bank_spread(p, 5, ours, progress, exclude=(11,))
    assert out == bank_spread(p, 5, ours, lambda *a: None, exclude=(11,))
    assert [c[:2] for c in calls] == [(1, 3), (2, 3), (3, 3)]
    assert all("." not in k for k in _keys(out))
    assert out["seeds"] == spread_seeds(5, 3, (11,)) and 11 not in out["seeds"]
    assert len(set(out["seeds"])) == out["others"] == 3 and out["banks"] == 4
    assert out["ours"] == {r: {k: v for k, v in f.items() if k != "decided"}
                           for r, f in ladder_spread(ours).items()}
    rows = [out["ours"], *out["per_seed"]]
    for f in rows:            # rungs accumulate: each keeps what the one before decided
        assert 0.0 <= f["arm"]["cells_all"] <= f["block"]["cells_all"] \
            <= f["flow"]["cells_all"] <= 1.0
        assert 0 <= f["arm"]["boards"] <= f["block"]["boards"] <= f["flow"]["boards"] <= 4
    for r in SPREAD_RUNGS:
        sp = out["spread"][r]
        vals = [f[r]["cells_all"] for f in out["per_seed"]]
        assert (sp["min"], sp["max"]) == (min(vals), max(vals))
        assert 1 <= out["rank"][r]["cells_all"] <= 4
        assert out["rank"][r]["cells_all"] == 1 + sum(v < out["ours"][r]["cells_all"]
                                                      for v in vals)
    assert out["hardest"] == all(out["rank"][r]["cells_all"] == 1 and
                                 out["ours"][r]["cells_all"] < out["spread"][r]["min"]
                                 for r in SPREAD_RUNGS)
    # a different seed draws different banks: the seeds really feed the generator
    other = bank_spread(p, 6, ours, lambda *a: None, exclude=(11,))
    assert other["seeds"] != out["seeds"]
    with pytest.raises(ValueError, match="bank_spread"):
        bank_spread(p, 5, ours[:3], lambda *a: None)


def _keys(d):
    if isinstance(d, dict):
        for k, v in d.items():
            yield k
            yield from _keys(v)
    elif isinstance(d, list):
        for v in d:
            yield from _keys(v)


def test_committed_content_is_consistent() -> None:
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "content" / "canal-view"
    if not (root / "bank.json").exists():
        pytest.skip("content/canal-view not generated yet")
    bank = json.loads((root / "bank.json").read_text())["data"]["boards"]
    assert len(bank) == 72
    assert sorted({e["size"] for e in bank}) == ["12x12", "8x8"]
    for e in bank:
        b = decode(e["url"])
        assert b == Board.from_json(e["board"]) and encode(b) == e["url"]
        res = solve(b, limit=2)
        assert [a.rows() for a in res.solutions] == [e["answer"]["rows"]]
        assert res.rung == e["grade"]
        decided: dict = {}
        for step in e["trace"]:
            for (r, c), st in zip(step["cells"], step["states"], strict=True):
                assert (r, c) not in decided
                decided[(r, c)] = st
                assert (e["answer"]["rows"][r][c] == "#") == (st == "flooded")
        assert len(decided) == e["h"] * e["w"] - e["clues"]
        assert all(step["rung"] in PUZZLE.rung_names["en"] for step in e["trace"])
    for stage in ("stats", "ledger"):
        data = json.loads((root / f"{stage}.json").read_text())["data"]
        assert all("." not in k for k in _keys(data))
    stats = json.loads((root / "stats.json").read_text())["data"]
    for size, bs in stats["bank_spread"].items():
        for r in ("arm", "block", "flow"):  # the shipped bank, as the ladder section has it
            assert bs["ours"][r]["cells_all"] == stats["ladder"][size][r]["cells_all"]
            assert bs["ours"][r]["boards"] == stats["ladder"][size][r]["boards"]
            assert 0.0 <= bs["spread"][r]["min"] <= bs["spread"][r]["max"] <= 1.0
