"""Nanro's engines beside the ladder's own search: the pure-Python learning solver that
stands in for python-sat (``learn.py``), and the independent SAT encoding the confirm
stage runs (``sat.py``)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from solvers.common import Budget, BudgetExceeded, active
from solvers.nanro import ladder
from solvers.nanro.board import Answer, Board
from solvers.nanro.exact import partitions
from solvers.nanro.learn import Cdcl, solve_learn
from solvers.satcut import NO_SAT_ENV, sat_available

ROOT = Path(__file__).resolve().parent.parent


def _bank() -> list[dict]:
    return json.loads((ROOT / "content/nanro/bank.json").read_text())["data"]["boards"]


def _hard(size: str) -> list[dict]:
    return json.loads((ROOT / f"benchmarks/hard/nanro-{size}.json").read_text())["boards"]


def _rows(answers) -> list[tuple[str, ...]]:
    return [tuple(a.rows()) for a in answers]


def _without_a_clue(board: Board, answer: Answer, rng: random.Random) -> Board | None:
    """The board with one printed clue taken back so that it has two answers or more
    (None if every clue taken back alone keeps it unique)."""
    flat = board.flat()
    order = [i for i, v in enumerate(flat) if v is not None]
    rng.shuffle(order)
    for i in order:
        f = list(flat)
        f[i] = None
        b = board.with_clues(f)
        if len(ladder.solve(b, limit=2).solutions) == 2:
            return b
    return None


# -- the switch ---------------------------------------------------------------------------

def test_the_switch_is_read_at_each_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(NO_SAT_ENV, raising=False)
    assert sat_available()
    monkeypatch.setenv(NO_SAT_ENV, "0")
    assert sat_available()
    monkeypatch.setenv(NO_SAT_ENV, "1")
    assert not sat_available()
    board = Board.from_json(_hard("16x16")[2]["board"])
    res = ladder.solve(board, limit=2)
    assert res.stats["engine"] == "learn"


# -- the learning solver alone ------------------------------------------------------------

def test_cdcl_on_small_formulas() -> None:
    s = Cdcl(3)
    for c in ([1, 2], [-1, 2], [-2, 3]):
        s.add(c)
    assert s.solve() and s.value(2) and s.value(3)
    s.add([-3])
    assert not s.solve()
    # the pigeonhole 4 into 3: unsatisfiable, needs learning through many conflicts
    p = Cdcl(12)
    var = {(i, j): 3 * i + j + 1 for i in range(4) for j in range(3)}
    for i in range(4):
        p.add([var[i, j] for j in range(3)])
    for j in range(3):
        for a in range(4):
            for b in range(a + 1, 4):
                p.add([-var[a, j], -var[b, j]])
    assert not p.solve()


@pytest.mark.parametrize("h,w", [(2, 3), (2, 4)])
def test_learn_counts_every_small_region_map_as_the_search_does(h: int, w: int) -> None:
    """Every empty region map of a small grid: the same set of answers as the ladder's
    search (the spelled-out patterns; the counter has the next test)."""
    maps = 0
    for regions in partitions(h, w):
        b = Board.blank(regions)
        want = set(_rows(ladder.solve(b, limit=None).solutions))
        got = solve_learn(b, limit=10 ** 4).answers
        assert len(got) == len(set(_rows(got))), regions
        assert set(_rows(got)) == want, regions
        maps += 1
    assert maps > 10


def test_learn_counter_on_large_regions() -> None:
    """Regions past SPELL_OUT cells (the sequential counter): answers as the search."""
    regions = [[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 2, 1, 1]]
    b = Board.blank(regions)
    want = set(_rows(ladder.solve(b, limit=None).solutions))
    assert len(want) > 100
    assert set(_rows(solve_learn(b, limit=10 ** 4).answers)) == want
    # a label hint on the 10-cell region keeps only the answers with that count
    for v in (2, 7, 9, 10):
        hinted = Board(b.h, b.w, b.regions, b.clues, (v, None, None))
        want = set(_rows(ladder.solve(hinted, limit=None).solutions))
        assert set(_rows(solve_learn(hinted, limit=10 ** 4).answers)) == want


def _reach_state(board: Board) -> ladder.State | None:
    g = ladder.geometry(board.h, board.w, board.regions)
    st = ladder.initial(board, g)
    return st if st is not None and ladder.propagate(g, st, ladder.LEVEL["reach"]) else None


def test_the_encoding_from_the_cheap_rungs_keeps_every_answer() -> None:
    """``residual.encode`` handed what the cheap rungs decided writes each count over the
    undecided cells alone (patterns, or the counter past SPELL_OUT with the sure numbers
    as an offset) and drops the labels they ruled out: the same answers as the bare
    board's (the ladder's search counts them), with both solvers, and fewer clauses."""
    from solvers.nanro.residual import SPELL_OUT, encode
    regions = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 1, 1], [0, 2, 2, 1, 1]]
    base = Board.blank(regions)
    boards = []
    for clues in ({(0, 0): 4}, {(0, 0): 5, (3, 4): 2}, {(1, 1): 3, (2, 4): 3}, {(0, 2): "?"}):
        flat: list = [None] * (base.h * base.w)
        for (r, c), v in clues.items():
            flat[r * base.w + c] = v
        boards.append(base.with_clues(flat))
    boards += [Board.from_json(e["board"]) for e in _bank()[::9]]
    countered = shorter = 0
    for b in boards:
        st = _reach_state(b)
        assert st is not None
        want = set(_rows(ladder.solve(b, limit=None).solutions))
        assert set(_rows(solve_learn(b, limit=10 ** 4).answers)) == want
        got = solve_learn(b, limit=10 ** 4, num=st.num, blank=st.blank, dom=st.dom).answers
        assert len(got) == len(set(_rows(got))) and set(_rows(got)) == want
        short = len(encode(b, st.num, st.blank, st.dom)[0])
        assert short <= len(encode(b)[0])
        shorter += short < len(encode(b)[0])
        done = st.num | st.blank
        fr = b.flat_regions()
        masks = [sum(1 << i for i, k in enumerate(fr) if k == r) for r in range(b.region_count())]
        countered += any((m & ~done).bit_count() > SPELL_OUT and st.num & m for m in masks)
        if sat_available():
            from solvers.nanro.residual import solve_sat
            two = solve_sat(b, 10 ** 4, st.num, st.blank, st.dom).answers
            assert set(_rows(two)) == want
    assert countered >= 2    # the counter ran with sure numbers as its offset
    assert shorter >= len(boards) // 2


def test_an_inconsistent_state_encodes_to_no_answer() -> None:
    """A region left no label, or no undecided cell and a count ruled out, gives a
    formula without answers (and no empty clause, which the solvers take differently)."""
    from solvers.nanro.residual import encode
    b = Board.blank([[0, 0], [1, 1]])
    cls, _ = encode(b, 0, 0, [0, 0b110])
    assert [1] in cls and [-1] in cls and [] not in cls
    cls, _ = encode(b, 0b0011, 0, [0b100 >> 1, 0b110])     # both cells numbered, label 1 only
    assert [1] in cls and [-1] in cls
    assert solve_learn(b, num=0b0011, dom=[0b10, 0b110]).answers == []


def test_learn_on_bank_boards_and_tampered_ones() -> None:
    rng = random.Random(11)
    boards = [e for e in _bank() if e["size"] in ("8x8", "10x10")][::6]
    assert len(boards) >= 6
    tampered = 0
    for e in boards:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        assert _rows(solve_learn(board).answers) == [tuple(answer.rows())]
        two = _without_a_clue(board, answer, rng)
        if two is not None:
            tampered += 1
            got = solve_learn(two).answers
            assert len(got) == 2 and len(set(_rows(got))) == 2
            want = set(_rows(ladder.solve(two, limit=None).solutions))
            assert set(_rows(got)) <= want
    assert tampered >= 3


# -- the ladder without python-sat --------------------------------------------------------

def test_hard_16x16_decides_without_sat_within_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hardest 16×16 of the corpus for the plain search (it ran past 60 s there):
    without python-sat it decides within a node budget and a few seconds, with the same
    answer and grade as with python-sat."""
    monkeypatch.setenv(NO_SAT_ENV, "1")
    e = _hard("16x16")[3]
    board = Board.from_json(e["board"])
    t = time.process_time()
    with active(Budget(max_nodes=500)):
        res = ladder.solve(board, limit=2)
    assert time.process_time() - t < 20
    assert res.stats["engine"] == "learn"
    assert _rows(res.solutions) == [tuple(Answer.from_json(e["answer"]).rows())]
    assert res.rung == "search"
    # the plain search, from the same point, does not decide it within that budget
    g, st = ladder.fixpoint(board, "reach")
    assert st is not None
    with pytest.raises(BudgetExceeded), active(Budget(max_nodes=500)):
        ladder.search(g, st, 2)


def test_same_answers_and_grades_with_and_without_sat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unique boards and tampered (two-answer) ones: graded, the same answers in the same
    order and the same rung; not graded, the same verdict (and answer, when unique)."""
    pytest.importorskip("pysat")
    rng = random.Random(3)
    cases = []
    for e in _hard("16x16")[1:3]:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        cases.append(board)
        two = _without_a_clue(board, answer, rng)
        assert two is not None
        cases.append(two)
    for board in cases:
        out = []
        for flag in ("0", "1"):
            monkeypatch.setenv(NO_SAT_ENV, flag)
            graded = ladder.solve(board, limit=2)
            quick = ladder.solve(board, limit=2, grade=False)
            # not graded, the engine's own answers are the result: any two of several
            quick_rows = _rows(quick.solutions) if len(quick.solutions) == 1 else len(
                set(_rows(quick.solutions)))
            out.append((_rows(graded.solutions), graded.rung, quick_rows, quick.rung,
                        ladder.count_answers(board)))
        assert out[0] == out[1]


# -- the independent SAT encoding and the confirm stage -----------------------------------

def test_sat_agrees_with_the_ladder_on_bank_boards_and_tampered_ones() -> None:
    pytest.importorskip("pysat")
    from solvers.nanro.rules import violations
    from solvers.nanro.sat import confirm, solve_sat
    rng = random.Random(17)
    boards = _bank()[::5]
    assert {e["size"] for e in boards} == {"6x6", "8x8", "10x10"}
    tampered = 0
    for e in boards:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        res = solve_sat(board)
        assert _rows(res.answers) == _rows(ladder.solve(board, limit=2).solutions)
        assert confirm(board, answer)
        two = _without_a_clue(board, answer, rng)
        if two is None:
            continue
        tampered += 1
        got = solve_sat(two).answers
        assert len(got) == 2 and got[0] != got[1]
        assert all(not violations(two, a) for a in got)
        assert not confirm(two, answer)
    assert tampered >= 5


def test_sat_counts_as_the_search_on_large_regions_and_hints() -> None:
    pytest.importorskip("pysat")
    from solvers.nanro.sat import solve_sat
    b = Board.blank([[0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 2, 1, 1]])
    for v in (3, 9, 10):
        hinted = Board(b.h, b.w, b.regions, b.clues, (v, None, None))
        want = set(_rows(ladder.solve(hinted, limit=None).solutions))
        got = solve_sat(hinted, limit=10 ** 4).answers
        assert len(got) == len(want) and set(_rows(got)) == want
    for regions in partitions(2, 4):
        b = Board.blank(regions)
        want = set(_rows(ladder.solve(b, limit=None).solutions))
        assert set(_rows(solve_sat(b, limit=10 ** 4).answers)) == want, regions


def test_confirm_stage_records_and_refuses() -> None:
    pytest.importorskip("pysat")
    from solvers.nanro.confirm import ConfirmError, confirm, confirm_board
    from solvers.nanro.stages import CONFIRM_PARAMS, STAGES
    assert [s.name for s in STAGES][:2] == ["bank", "confirm"]
    boards = [e for e in _bank() if e["size"] in ("6x6", "8x8")][::8]
    out = confirm({"bank": {"boards": boards}}, CONFIRM_PARAMS)
    small = sum(e["size"] == "6x6" for e in boards)
    assert 0 < small < len(boards)
    assert out["by_method"] == {"brute": small, "sat": len(boards)} and out["all"]
    assert out["by_size"]["8x8"]["brute"] == 0
    assert out == confirm({"bank": {"boards": boards}}, CONFIRM_PARAMS)
    e = next(e for e in boards if e["size"] == "6x6")
    b, a = Board.from_json(e["board"]), Answer.from_json(e["answer"])
    wrong = Answer.from_flat(b.h, b.w, [0] * (b.h * b.w))
    row = confirm_board(b, wrong, 36)
    assert row["sat"] is False and row["brute"] is False
    assert confirm_board(b, a, 0)["brute"] is None
    with pytest.raises(ConfirmError, match=e["id"]):
        confirm({"bank": {"boards": [dict(e, answer=wrong.to_json())]}}, CONFIRM_PARAMS)


def test_verify_confirms_every_banked_board_by_sat(capsys: pytest.CaptureFixture[str]) -> None:
    """Per method and per size: the SAT encoding confirms every banked board, the region
    product the small ones, so every board rests on more than the ladder."""
    pytest.importorskip("pysat")
    from site_builder.cli import main

    assert main(["verify", "nanro", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["nanro"]
    n = len(_bank())
    assert out["methods"]["ladder"] == out["methods"]["sat"] == out["boards"] == n
    assert out["methods"]["brute"] == out["brute_checked"] > 0
    assert out["independent"] == out["unique"] == n
    for size, row in out["by_size"].items():
        assert row["sat"] == row["boards"] == row["unique"], size
        assert row["brute"] == (row["boards"] if size == "6x6" else 0), size


def test_reach_component_without_a_flood_is_the_flood() -> None:
    """ladder._component (the known connected set minus the cells lost since, each
    taken away by a ring test) is the flood from the first number, on random possible
    sets inside a connected one."""
    import random

    from solvers.nanro.ladder import State, _component, flood, geometry

    rng = random.Random(4)
    h, w = 9, 11
    g = geometry(h, w, tuple(tuple(0 for _ in range(w)) for _ in range(h)))
    kinds = {"ring": 0, "flood": 0}
    for _ in range(3000):
        big = sum(1 << i for i in range(g.n) if rng.random() < 0.8)
        if not big:
            continue
        last = flood(g, big & -big, big)
        gone = sum(1 << i for i in range(g.n) if last >> i & 1 and rng.random() < 0.04)
        poss = last & ~gone
        if not poss:
            continue
        num = sum(1 << i for i in range(g.n) if poss >> i & 1 and rng.random() < 0.3)
        num = num or (poss & -poss)
        st = State(num, g.full & ~poss, [], comp=last)
        want = flood(g, num & -num, poss)
        assert _component(g, st, poss) == want
        kinds["ring" if want == poss and gone.bit_count() <= 4 else "flood"] += 1
    assert min(kinds.values()) > 100, kinds


def test_kept_certificates_name_the_cuts_a_fresh_search_does(monkeypatch) -> None:
    """ladder._cut_cells (several certificates kept per cell) names, at every call of a
    graded solve of hard boards, exactly the cut cells of Grid.cuts without any kept
    certificate; and the kept ones spare some of its searches."""
    from solvers.bitconn import Grid

    calls = {"n": 0, "cut": 0}
    mine = ladder._cut_cells

    def checked(g, comp, num):
        got = mine(g, comp, num)
        fresh = Grid(g.h, g.w).cuts(comp, num, None, most=g.n)
        assert fresh is not None and got == sum(1 << i for i in fresh[1])
        calls["n"] += 1
        calls["cut"] += got != 0
        return got

    monkeypatch.setattr(ladder, "_cut_cells", checked)
    monkeypatch.setattr(ladder, "_KEPT", {})
    boards = json.loads((ROOT / "benchmarks/hard/nanro-16x16.json").read_text())["boards"]
    for e in boards[:2]:
        b = Board.from_json(e["board"])
        res = ladder.solve(b, limit=2)
        assert res.solutions == [Answer.from_json(e["answer"])]
    assert calls["n"] > 100 and calls["cut"] > 0, calls
    assert any(len(v) > 1 for v in ladder._KEPT[(16, 16)].values())


def test_trials_skipped_far_from_the_change_leave_the_fixpoint(monkeypatch) -> None:
    """The probe's passes skip a trial whose witness the base outgrew only far from what
    it decided (``ladder.NEAR``), but the probe ends only on a full pass that skips
    nothing: the fixpoint is the one reached with no skipping, in fewer propagations."""
    boards = [Board.from_json(e["board"]) for e in _hard("16x16")]
    boards += [Board.from_json(e["board"]) for e in _bank() if e["size"] == "10x10"][-6:]
    calls = {"n": 0}
    real = ladder.propagate

    def counted(*a, **k):
        calls["n"] += 1
        return real(*a, **k)

    monkeypatch.setattr(ladder, "propagate", counted)
    runs = {}
    for near in (ladder.NEAR, 64):        # 64 steps: every zone is the whole board
        monkeypatch.setattr(ladder, "NEAR", near)
        calls["n"] = 0
        got = []
        for b in boards:
            g = ladder.geometry(b.h, b.w, b.regions)
            st = ladder.initial(b, g)
            assert st is not None and real(g, st, 3)
            ladder._probe(g, st, frozenset())
            got.append((st.num, st.blank, st.dom))
        runs[near] = (got, calls["n"])
    (skipping, fewer), (plain, more) = runs.values()
    assert skipping == plain
    assert fewer < more


def test_ring_table_reads_local_cuts_off_the_window() -> None:
    """ladder._rings (the 3x3 window around one cell, looked up in a table) says of every
    cell what Grid.local_cuts says of the whole board, edges and corners included."""
    from solvers.bitconn import Grid

    rng = random.Random(11)
    for h, w in ((1, 1), (1, 6), (5, 1), (3, 3), (4, 7), (16, 16)):
        ring, grid = ladder._rings(h, w), Grid(h, w)
        for _ in range(60):
            alive = rng.getrandbits(h * w) | rng.getrandbits(h * w)
            cuts = grid.local_cuts(alive)
            assert [ring(alive, i) for i in range(h * w)] == [cuts >> i & 1
                                                              for i in range(h * w)]


def test_component_through_kept_certificates_matches_a_flood(monkeypatch) -> None:
    """ladder._component, which lets a lost cell go without a flood when one of its kept
    certificates is whole, gives at every call of graded solves of hard boards the
    flood's component; and the certificates do spare some floods."""
    calls = {"n": 0, "cert": 0, "floods": 0}
    mine, flood = ladder._component, ladder.flood
    ring = ladder._rings(16, 16)

    def counted(g, seed, allowed):
        calls["floods"] += 1
        return flood(g, seed, allowed)

    def checked(g, st, poss):
        before = calls["floods"]
        got = mine(g, st, poss)
        floods = calls["floods"] - before
        assert got == flood(g, st.num & -st.num, poss)
        calls["n"] += 1
        gone = st.comp & ~poss if st.comp else 0
        if not floods and gone:
            # no flood: each lost cell a ring that joins, or a certificate
            cur = st.comp
            while gone:
                b = gone & -gone
                calls["cert"] += ring(cur, b.bit_length() - 1)
                cur ^= b
                gone ^= b
        return got

    monkeypatch.setattr(ladder, "flood", counted)
    monkeypatch.setattr(ladder, "_component", checked)
    monkeypatch.setattr(ladder, "_KEPT", {})
    boards = json.loads((ROOT / "benchmarks/hard/nanro-16x16.json").read_text())["boards"]
    for e in boards[:2]:
        b = Board.from_json(e["board"])
        assert ladder.solve(b, limit=2).solutions == [Answer.from_json(e["answer"])]
    assert calls["n"] > 100 and calls["cert"] > 0, calls
