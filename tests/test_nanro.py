"""Nanro: rules, codec, both engines, rung soundness, nesting, exact small counts."""

from __future__ import annotations

import random

import pytest

from solvers.common import PuzzleError
from solvers.nanro.board import Answer, Board, render_board
from solvers.nanro.brute import brute
from solvers.nanro.codec import decode, encode, read_pzprv3
from solvers.nanro.generate import full_board, make_answer, random_partition, reveal
from solvers.nanro.ladder import LEVEL, RUNGS, fixpoint, solve
from solvers.nanro.rules import RULES, violations

SAMPLE = "https://puzz.link/p?nanro/4/4/6r0s1oi13n1h"
SAMPLE_ANSWER = [".###", "##..", "#...", "##.."]
PZPR = "pzprv3/nanro/4/4/5/0 0 0 1 /2 3 3 1 /2 3 3 1 /2 4 4 4 /. . . 1 /3 . . . /. . . . /. 1 . . /"
# pzprjs's test script (test/script/nanro.js): first expected code, answer block
FAILCHECK = [
    ("nanro.2x2", PZPR + ". . . . /. . . - /3 2 . - /3 . - - /"),
    ("nanro.clash", PZPR + ". . . . /. 3 3 - /3 . 3 - /3 . - - /"),
    ("nanro.connect", PZPR + ". + . . /. 2 2 - /3 - . - /3 . - - /"),
    (None, PZPR + ". 2 2 . /. 1 . - /3 - . - /3 . - - /"),
    ("nanro.empty", ("pzprv3/nanro/4/4/6/0 0 0 1 /2 3 4 1 /2 3 4 1 /2 5 5 5 /. . . 1 /3 . . . "
                    "/. . . . /. 1 . . /. 2 2 . /. 1 . - /3 - . - /3 . - - /")),
    ("nanro.clash", "pzprv3/nanro/1/4/2/0 0 1 1 /2 . . 2 /. + + . /"),
    # pzprjs's bkPlNum and nmCountGt: written values that differ from their region's
    # count. Here a number is its region's count, so only the set of cells is read: those
    # sets are disconnected. nmCountLt writes 3 3 on the true answer's cells: that set is
    # the answer, so no rule is broken in this model.
    ("nanro.connect", PZPR + ". + . . /. . 1 - /3 - 2 - /3 . - - /"),
    ("nanro.connect", PZPR + ". + . . /. . 1 - /3 - 1 - /3 . - - /"),
    (None, PZPR + ". 3 3 . /. 1 . - /3 - . - /3 . - - /"),
]


def rows_of(res) -> set[tuple[str, ...]]:
    return {tuple(a.rows()) for a in res.solutions}


def ans(rows: list[str]) -> Answer:
    return Answer.from_json({"rows": rows})


def test_sample_round_trip_and_unique_answer():
    b = decode(SAMPLE)
    assert (b.h, b.w, b.region_count()) == (4, 4, 5)
    assert b.clues[0] == (None, None, None, 1) and b.clues[1][0] == 3
    assert encode(b) == SAMPLE
    assert rows_of(solve(b, limit=None)) == {tuple(SAMPLE_ANSWER)}
    assert rows_of(brute(b, limit=None)) == {tuple(SAMPLE_ANSWER)}
    assert violations(b, ans(SAMPLE_ANSWER)) == []
    assert render_board(b).splitlines()[0] == "AAAB  . . . 1"


@pytest.mark.parametrize("url", [
    "https://puzz.link/p?nanro/3/2/ao2j./",      # a '?' given, trailing slash
    "https://puzz.link/p?nanro/4/1/82h2",        # pzprjs's 4×1 board
    "https://puzz.link/p?nanro/5/1/0k",          # one room, no givens
])
def test_round_trips(url):
    assert encode(decode(url)) == url


def test_question_mark_givens():
    b = decode("https://puzz.link/p?nanro/3/2/ao2j./")
    assert b.clues == ((2, None, None), (None, None, "?"))
    assert b.regions == ((0, 0, 1), (2, 2, 1))
    b2 = decode("https://puzz.link/p?nanro/4/1/8..h")
    assert b2.clues == (("?", "?", None, None),)
    assert encode(b2) == "https://puzz.link/p?nanro/4/1/8..h"


@pytest.mark.parametrize("code,text", FAILCHECK)
def test_pzprjs_failcheck_samples(code, text):
    b, a = read_pzprv3(text)
    vs = violations(b, a)
    if code is None:
        assert vs == []
    else:
        assert vs and vs[0].rule == code


def test_each_rule_on_its_own():
    b = Board.blank([[0, 0], [1, 1]])
    assert violations(b, ans(["##", "#."])) == []
    v = violations(b, ans(["##", "##"]))
    assert [x.rule for x in v] == ["nanro.2x2", "nanro.clash", "nanro.clash"]  # 2|2 twice
    assert v[0].cells == ((0, 0), (0, 1), (1, 0), (1, 1)) and v[0].params == {"row": 1, "col": 1}
    v = violations(b, ans(["#.", "#."]))
    assert [x.rule for x in v] == ["nanro.clash"] and v[0].params["value"] == 1
    v = violations(b, ans(["#.", ".#"]))
    assert [x.rule for x in v] == ["nanro.connect"] and v[0].cells == ((1, 1),)
    v = violations(b, ans(["##", ".."]))
    assert [x.rule for x in v] == ["nanro.empty"] and v[0].cells == ((1, 0), (1, 1))
    clued = Board(2, 2, ((0, 0), (1, 1)), ((2, None), (None, "?")))
    v = violations(clued, ans(["#.", "##"]))
    assert [x.rule for x in v] == ["nanro.clue"] and v[0].params["count"] == 1
    v = violations(clued, ans(["##", "#."]))
    assert [x.rule for x in v] == ["nanro.clue"] and v[0].cells == ((1, 1),)
    hinted = Board(2, 2, ((0, 0), (1, 1)), ((None, None), (None, None)), (1, None))
    v = violations(hinted, ans(["##", "#."]))
    assert [x.rule for x in v] == ["nanro.hint"] and v[0].params == {
        "label": 1, "count": 2, "row": 1, "col": 1}
    # (nanro.over, nanro.short and nanro.cut: partial boards only, see test_nanro_hints)
    assert set(RULES.ids) == {"nanro.2x2", "nanro.clash", "nanro.clue", "nanro.hint",
                              "nanro.connect", "nanro.empty", "nanro.over", "nanro.short",
                              "nanro.cut"}


def test_two_by_two_counted_by_hand():
    # two dominoes: {both top, one bottom} ×2, {one top, both bottom} ×2; one and one
    # would need the same column and then two 1s touch: 4 answers
    b = Board.blank([[0, 0], [1, 1]])
    hand = {("##", "#."), ("##", ".#"), ("#.", "##"), (".#", "##")}
    assert rows_of(solve(b, limit=None)) == hand
    assert rows_of(brute(b, limit=None)) == hand
    # one room of four: any 1-3 connected cells, labelled by their count
    one = Board.blank([[0, 0], [0, 0]])
    assert len(solve(one, limit=None).solutions) == 4 + 4 + 4
    assert len(brute(one, limit=None).solutions) == 12
    # four single cells: all numbered, a full 2×2: none
    assert solve(Board.blank([[0, 1], [2, 3]]), limit=None).solutions == []


def _random_boards(n: int, seed: int, sizes=(4, 5)):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        size = rng.choice(sizes)
        made = make_answer(size, size, rng)
        if made is None:
            continue
        empty, answer = made
        full = full_board(empty, answer)
        flat = [v if v is not None and rng.random() < 0.35 else None for v in full]
        out.append((empty.with_clues(flat), answer))
    return out


def test_engines_agree_and_rungs_are_sound_and_nested():
    for board, _ in _random_boards(40, 7):
        truth = rows_of(brute(board, limit=None))
        assert rows_of(solve(board, limit=None)) == truth
        prev = None
        for k in range(LEVEL["probe"] + 1):
            _g, st = fixpoint(board, k)
            if not truth:
                continue
            assert st is not None
            decided = st.num | st.blank
            for rows in truth:
                a = ans(list(rows))
                for i, v in enumerate(a.flat()):
                    if decided >> i & 1:
                        assert bool(st.num >> i & 1) == v, (RUNGS[k], rows)
            if prev is not None:
                assert decided & prev == prev          # each level includes the lower
            prev = decided


def test_minimal_clues_are_load_bearing():
    rng = random.Random(3)
    empty, answer = make_answer(6, 6, rng)
    b = reveal(empty, answer, LEVEL["probe"], rng)
    assert solve(b, level="probe").rung is not None
    flat = b.flat()
    for i, v in enumerate(flat):
        if v is None:
            continue
        less = list(flat)
        less[i] = None
        assert solve(b.with_clues(less), level="probe").rung is None


def test_partition_sizes():
    rng = random.Random(5)
    for lo, hi in ((2, 2), (2, 4), (4, 7)):
        regions = random_partition(8, 8, rng, lo, hi)
        sizes = Board.blank(regions).region_sizes()
        assert all(lo <= s <= hi for s in sizes)


@pytest.mark.parametrize("bad,msg", [
    ("https://puzz.link/p?nanro/4/4/6r0s1oi93n1h", "outside 1"),
    ("https://puzz.link/p?canal/4/4/6r0s1oi13n1h", "expected 'nanro'"),
    ("https://puzz.link/p?nanro/4/x/6r", "height"),
    ("https://puzz.link/p?nanro/4/4/6r!s1o", "base-32"),
    # a character pzprjs never writes among the numbers (pzprjs skips it; we say so)
    ("https://puzz.link/p?nanro/4/4/6r0s1oi13n!1h", "position 10: character '!' is not allowed"),
])
def test_malformed_urls(bad, msg):
    with pytest.raises(PuzzleError, match=msg):
        decode(bad)


def test_malformed_json():
    with pytest.raises(PuzzleError, match="split in two"):
        Board.from_json({"h": 1, "w": 3, "regions": [[0, 1, 0]], "clues": [[None] * 3]})
    with pytest.raises(PuzzleError, match="regions"):
        Board.from_json({"h": 1, "w": 3, "clues": [[None] * 3]})
    with pytest.raises(PuzzleError, match="between 1 and"):
        Board.from_json({"h": 1, "w": 2, "regions": [[0, 0]], "clues": [[3, None]]})
    with pytest.raises(PuzzleError, match="not '#' or '.'"):
        Answer.from_json({"rows": ["#x"]})


def test_every_empty_region_map_of_small_grids_counted_two_ways():
    from solvers.nanro.exact import count_grid
    d = count_grid(2, 2)
    # 2×2 has 12 partitions into connected regions; the ladder's search and the region
    # product (no shared code, leaves scored by violations()) find the same answers
    assert d["maps"] == 12 and d["maps_agree"] == 12
    assert d["answers"] == d["answers_product"]
    d = count_grid(2, 3)
    assert d["maps"] == 74 and d["maps_agree"] == 74


def test_cli_solves_the_sample_and_rejects_bad_input_in_one_line():
    import subprocess
    import sys
    base = [sys.executable, "-m", "site_builder.cli", "solve", "nanro"]
    ok = subprocess.run(base + [SAMPLE], capture_output=True, text=True, timeout=60,
                        check=False)
    assert ok.returncode == 0 and "solutions found: 1" in ok.stdout
    bad = subprocess.run(base + ["https://puzz.link/p?nanro/4/4/6r0s1oi93n1h"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "outside 1" in bad.stderr


def test_registered_surface():
    from solvers import registry
    from solvers.nanro import PUZZLE
    assert registry.get("nanro") is PUZZLE
    assert PUZZLE.rungs == RUNGS == ("count", "block", "clash", "reach", "probe", "search")
    assert PUZZLE.stage_names == ("bank", "confirm", "stats", "ledger", "timing")
    assert PUZZLE.play.model == "regions"
    svg = PUZZLE.draw_board(decode(SAMPLE).to_json(), ans(SAMPLE_ANSWER).to_json(), 30, "x")
    assert svg.startswith("<svg") and svg.count("<circle") == 5  # 8 numbers, 3 printed


def test_the_ladder_in_steps_grades_as_each_level_from_scratch():
    # solve() climbs the rungs on one state; completes() starts each level afresh: the
    # weakest completing rung must be the same either way
    from solvers.nanro.generate import grade
    rng = random.Random(12)
    for k in range(30):
        empty, answer = make_answer(6, 6, rng)
        b = reveal(empty, answer, k % 5, rng)
        assert solve(b, limit=2).rung == grade(b)


def test_clash_still_runs_when_counting_is_left_out():
    # two single-cell regions side by side, both numbered: their labels are both 1
    b = Board(1, 3, ((0, 1, 2),), ((1, 1, None),))
    _g, st = fixpoint(b, "clash", frozenset({"count"}))
    assert st is None          # clash alone refutes it, without the counting rule


def test_no_banked_board_prints_every_number():
    """A board whose every numbered cell is printed leaves the player nothing to write
    (the play page would call it solved on arrival); the bank draws another instead."""
    import json
    from pathlib import Path

    bank = json.loads((Path(__file__).parent.parent / "content/nanro/bank.json").read_text())
    for e in bank["data"]["boards"]:
        b, a = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        assert sum(v is not None for v in b.flat()) < sum(map(bool, a.flat())), e["id"]


# --- the SAT engine, the probe with witnesses, and the graded solve -------------------

def _plain_probe_fixpoint(board: Board):
    """Reference: the rungs up to reach, then plain passes of full trials (every
    undecided cell tried numbered and blank, no witnesses) until a pass changes nothing."""
    from solvers.nanro import ladder as lad
    g = lad.geometry(board.h, board.w, board.regions)
    st = lad.initial(board, g)
    if st is None or not lad.propagate(g, st, 3):
        return None
    while True:
        changed = False
        for i in range(g.n):
            b = 1 << i
            if (st.num | st.blank) & b:
                continue
            for as_num in (True, False):
                t = st.copy()
                if as_num:
                    t.num |= b
                else:
                    t.blank |= b
                if not lad.propagate(g, t, 3):
                    if as_num:
                        st.blank |= b
                    else:
                        st.num |= b
                    if not lad.propagate(g, st, 3):
                        return None
                    changed = True
                    break
        if not changed:
            return st


def _graded_boards():
    out = [b for b, _ in _random_boards(30, 21, sizes=(5, 6))]
    rng = random.Random(31)
    for _ in range(4):                          # boards minimal for the probe rung
        made = make_answer(7, 7, rng)
        if made is not None:
            b = reveal(made[0], made[1], LEVEL["probe"], rng)
            if b is not None:
                out.append(b)
    return out


def test_probe_with_witnesses_reaches_the_plain_fixpoint():
    for board in _graded_boards():
        ref = _plain_probe_fixpoint(board)
        _g, st = fixpoint(board, "probe")
        if ref is None:
            assert st is None
        else:
            assert st is not None and (st.num, st.blank, st.dom) == (ref.num, ref.blank, ref.dom)


def test_sat_engine_agrees_with_brute_force():
    sat = pytest.importorskip("solvers.nanro.residual")
    for board, _ in _random_boards(40, 17):
        truth = rows_of(brute(board, limit=None))
        got = [tuple(a.rows()) for a in sat.solve_sat(board, len(truth) + 1).answers]
        assert len(got) == len(truth) and set(got) == truth


def test_sat_engine_reads_marks_labels_and_large_regions():
    sat = pytest.importorskip("solvers.nanro.residual")
    b = decode(SAMPLE)
    no_clues = tuple(tuple(None for _ in row) for row in b.clues)
    labelled = Board(b.h, b.w, b.regions, no_clues, (2, None, 1, None, None))
    marked = b.with_clues([("?" if v is not None else None) for v in b.flat()])
    one_room = Board(3, 4, ((0,) * 4,) * 3, ((None,) * 4,) * 3)    # 12 cells: cardinality
    for board in (b, labelled, marked, one_room):
        truth = rows_of(brute(board, limit=None))
        got = [tuple(a.rows()) for a in sat.solve_sat(board, len(truth) + 1).answers]
        assert len(got) == len(truth) and set(got) == truth


def test_solve_with_and_without_the_sat_engine_agrees(monkeypatch):
    """Answers, their order, the rung and the decided cells are those of the pure-Python
    ladder (probe fixpoint, then search) whether or not the SAT engine is used."""
    pytest.importorskip("solvers.nanro.residual")
    from solvers.nanro import ladder as lad
    boards = _graded_boards()
    rng = random.Random(41)
    for b in list(boards):                      # and with clues taken away: many answers
        flat = [v if rng.random() < 0.5 else None for v in b.flat()]
        boards.append(b.with_clues(flat))
    runs = [(b, lim) for b in boards for lim in (1, 2)] + [(b, None) for b in boards[:10]]
    monkeypatch.setattr(lad, "SAT_MIN_CELLS", 0)       # (small boards skip it otherwise)
    with_sat = [(solve(b, limit=lim), lad.count_answers(b)) for b, lim in runs]
    monkeypatch.setattr(lad, "_sat_answers", lambda board, st=None: None)
    plain = [(solve(b, limit=lim), lad.count_answers(b)) for b, lim in runs]
    assert len({r.rung for r, _ in plain}) >= 2
    for (b, _), (r1, c1), (r2, c2) in zip(runs, with_sat, plain, strict=True):
        assert [a.rows() for a in r1.solutions] == [a.rows() for a in r2.solutions]
        assert (r1.rung, r1.fixed, c1) == (r2.rung, r2.fixed, c2)
        assert c1 == len(solve(b, limit=2).solutions)


def test_hard_corpus_boards_solve_to_their_stored_answers():
    import json
    from pathlib import Path
    files = sorted((Path(__file__).resolve().parents[1] / "benchmarks" / "hard")
                   .glob("nanro-*.json"))
    assert files
    for p in files:
        for e in json.loads(p.read_text())["boards"]:
            res = solve(Board.from_json(e["board"]), limit=2)
            assert [a.rows() for a in res.solutions] == [e["answer"]["rows"]], e["id"]


def test_answers_without_the_grade_are_the_graded_answers(monkeypatch):
    """grade=False returns the SAT engine's answers without the probe trials: the same
    count, the same answer when it is unique, and no grade unless a cheap rung finished."""
    pytest.importorskip("solvers.nanro.residual")
    from solvers.nanro import ladder as lad
    monkeypatch.setattr(lad, "SAT_MIN_CELLS", 0)
    boards = _graded_boards()
    rng = random.Random(43)
    for b in list(boards):
        boards.append(b.with_clues([v if rng.random() < 0.5 else None for v in b.flat()]))
    ungraded = 0
    for b in boards:
        for lim in (1, 2):
            full = solve(b, limit=lim)
            quick = solve(b, limit=lim, grade=False)
            assert len(quick.solutions) == len(full.solutions)
            if len(solve(b, limit=2).solutions) == 1:
                assert [a.rows() for a in quick.solutions] == [a.rows() for a in full.solutions]
            assert quick.rung in (None, full.rung)
            ungraded += quick.stats.get("graded") is False
    assert ungraded
