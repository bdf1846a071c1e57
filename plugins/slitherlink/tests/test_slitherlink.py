"""Slitherlink: codec round trips, the rule check per clause, the partial check, engine
agreement (ladder, its DFS, the colouring engine, the colour SAT encoding), rung
soundness on random boards, generator uniqueness, hint traces and exact counts."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from slitherlink import residual
from slitherlink.board import Answer, Board, layout
from slitherlink.brute import brute
from slitherlink.codec import decode, encode
from slitherlink.exact import all_loops, count_loops, signatures
from slitherlink.generate import generate
from slitherlink.hints import trace
from slitherlink.ladder import (
    LEVEL,
    RUNGS,
    Contradiction,
    State,
    _probe,
    _would_finish,
    propagate,
    solve,
)
from slitherlink.partial import irreparable
from slitherlink.residual import NO_SAT_ENV, solve_residual
from slitherlink.rules import violations
from slitherlink.sat import solve_sat

from solvers import satcut
from solvers.common import PuzzleError

ROOT = Path(__file__).resolve().parents[3]

# ---- codec ---------------------------------------------------------------------------

# bodies as pzprjs writes them (its own test script's URL, and hand-checked edge cases:
# a clue's skip running past the last cell, a run of 20 written at once)
PZPRJS = ["slither/5/5/cbcbcddad", "slither/3/1/a", "slither/3/1/1a", "slither/3/1/6c",
          "slither/1/21/zg", "slither/2/2/.i", "slither/4/1/dd", "slither/5/1/dd"]


@pytest.mark.parametrize("url", PZPRJS)
def test_round_trip_on_pzprjs_urls(url: str) -> None:
    assert encode(decode(url)) == "https://puzz.link/p?" + url


def test_decode_reads_pzprjs_skips() -> None:
    b = decode("slither/5/5/cbcbcddad")
    assert b.clues[0] == (2, None, None, 1, None)
    assert b.clues[4] == (None, 0, None, None, 3)
    assert decode("slither/4/1/dd").clues == ((3, None, None, 3),)
    assert decode("slither/5/1/dd").clues == ((3, None, None, 3, None),)
    assert decode("slither/2/2/.i").clues == (("?", None), (None, None))


def test_random_boards_round_trip() -> None:
    rng = random.Random(5)
    for _ in range(300):
        h, w = rng.randint(1, 9), rng.randint(1, 9)
        p = rng.random()
        flat = [rng.choice([0, 1, 2, 3, 4, "?"]) if rng.random() < p else None
                for _ in range(h * w)]
        b = Board.from_flat(h, w, flat)
        assert decode(encode(b)) == b
        assert encode(decode(encode(b))) == encode(b)


@pytest.mark.parametrize("url, pos", [("slither/2/2/x", 0), ("slither/2/2/0k", 1),
                                      ("slither/2/2/00", 2), ("slither/2/2/00000", 4),
                                      ("slither/3/1/gg1", 0), ("slither/3/1/50", 1)])
def test_bad_bodies_name_their_position(url: str, pos: int) -> None:
    with pytest.raises(PuzzleError, match=f"position {pos}"):
        decode(url)


def test_wrong_pid_refused() -> None:
    with pytest.raises(PuzzleError, match="expected 'slither'"):
        decode("sukoro/2/2/0000")


# ---- rules ---------------------------------------------------------------------------

def _answer(h: int, w: int, edges: list[tuple[int, int, str]]) -> Answer:
    lay = layout(h, w)
    return Answer.from_edges(h, w, [lay.edge_of(*e) for e in edges])


def _box(h: int, w: int, cells: set[tuple[int, int]]) -> Answer:
    """The outline of a set of cells."""
    lay = layout(h, w)
    on = []
    for e in range(lay.ne):
        ins = [divmod(i, w) in cells for i in lay.edge_cells[e]]
        on.append(int(sum(ins) == 1))
    return Answer(h, w, tuple(on))


def _ids(vs) -> list[str]:
    return [v.rule for v in vs]


def test_rules_per_clause() -> None:
    b = Board.from_flat(2, 2, [4, None, None, None])
    assert violations(b, _box(2, 2, {(0, 0)})) == []
    assert _ids(violations(b, Answer(2, 2, (0,) * layout(2, 2).ne))) == \
        ["slither.noline", "slither.count"]
    two = _box(2, 2, {(0, 0), (1, 1)})          # touching at a corner: four lines meet
    assert "slither.cross" in _ids(violations(Board.empty(2, 2), two))
    # a T: three lines at the middle of the top edge
    t = _answer(2, 2, [(-1, 0, "b"), (-1, 1, "b"), (0, 0, "r")])
    vs = violations(Board.empty(2, 2), t)
    assert _ids(vs) == ["slither.branch", "slither.loops"][:1] + ["slither.deadend"] * 3
    assert vs[0].params == {"row": 1, "col": 2}
    apart = _box(1, 3, {(0, 0)}).on
    other = _box(1, 3, {(0, 2)}).on
    both = Answer(1, 3, tuple(a | b for a, b in zip(apart, other, strict=True)))
    v = violations(Board.empty(1, 3), both)
    assert _ids(v) == ["slither.loops"] and v[0].params == {"pieces": 2}
    assert v[0].cells == ((0, 1), (0, 2))
    c = violations(Board.from_flat(1, 3, [3, 1, None]), _box(1, 3, {(0, 0)}))
    assert [(x.rule, x.cells, x.params["count"]) for x in c] == [("slither.count", ((0, 0),), 4)]
    assert c[0].en == "The 3 at row 1, column 1 has 4 of its sides on the loop, not 3."


def test_partial_check_matches_violations_when_finished() -> None:
    rng = random.Random(3)
    for _ in range(40):
        board, answer = generate(4, 5, rng)
        st = [1 if x else 2 for x in answer.on]
        assert irreparable(board, st) == []
        e = rng.randrange(len(st))
        st[e] = 3 - st[e]
        flipped = Answer(4, 5, tuple(int(s == 1) for s in st))
        assert irreparable(board, st) == violations(board, flipped) != []
        st[e] = 0
        assert all(v.rule not in ("slither.count", "slither.loops", "slither.noline")
                   for v in irreparable(board, st))


def test_partial_names_a_closed_loop_with_lines_outside() -> None:
    lay = layout(1, 3)
    st = [0] * lay.ne
    for e in _box(1, 3, {(0, 0)}).edges():
        st[e] = 1
    st[lay.edge_of(0, 2, "r")] = 1
    assert _ids(irreparable(Board.empty(1, 3), st)) == ["slither.closed"]


# ---- engines -------------------------------------------------------------------------

def _sets(res) -> list[tuple[int, ...]]:
    return sorted(a.on for a in res.solutions)


def test_engines_agree_on_answer_sets() -> None:
    rng = random.Random(11)
    for k in range(40):
        h, w = rng.randint(1, 5), rng.randint(1, 5)
        board, _ = generate(h, w, rng)
        flat = board.flat()
        for i in [i for i, v in enumerate(flat) if v is not None][:k % 4]:
            flat[i] = None
        b = Board.from_flat(h, w, flat)
        want = _sets(brute(b, limit=10 ** 6))
        assert _sets(solve(b, limit=10 ** 6)) == want
        assert _sets(solve(b, limit=10 ** 6, engine="dfs")) == want
        assert _sets(solve_sat(b, limit=10 ** 6)) == want


def test_every_answer_is_clean_and_boards_without_answers_give_none() -> None:
    b = Board.from_flat(2, 2, [3, 3, 3, 3])
    for res in (solve(b), solve(b, engine="dfs"), brute(b), solve_sat(b)):
        assert res.solutions == []
    b = Board.from_flat(3, 3, [None, 3, None, 3, None, 3, None, 3, None])
    for a in solve(b, limit=50).solutions:
        assert violations(b, a) == []


@pytest.mark.parametrize("rung", RUNGS)
def test_rungs_are_sound(rung: str) -> None:
    """A rung never decides an edge against the answer, on random unique boards."""
    rng = random.Random(f"sound:{rung}")
    top = LEVEL[rung]
    for _ in range(25):
        n = rng.randint(4, 8)
        board, answer = generate(n, rng.randint(4, 8), rng)
        st = State(board)
        for k in range(min(top, LEVEL["loop"]) + 1):
            propagate(st, k, start=True)
        if rung == "probe":
            while _probe(st, LEVEL["loop"], [0]):
                pass
        for e, x in enumerate(st.s):
            assert x == 0 or (x == 1) == bool(answer.on[e]), (rung, e)


def test_a_contradiction_is_raised_on_a_broken_clue() -> None:
    st = State(Board.from_flat(1, 1, [1]))
    st.set(0, 1)
    st.set(1, 1)
    with pytest.raises(Contradiction):
        propagate(st, 0)


def test_grade_is_the_first_rung_that_finishes() -> None:
    rng = random.Random(2)
    for _ in range(10):
        board, answer = generate(6, 6, rng)
        res = solve(board)
        assert res.solutions == [answer]
        if res.rung in RUNGS:
            below = RUNGS[RUNGS.index(res.rung) - 1] if res.rung != RUNGS[0] else None
            assert below is None or solve(board, level=below).solutions == []
            assert solve(board, level=res.rung).solutions == [answer]
        quick = solve(board, grade=False)
        assert quick.solutions == [answer] and quick.stats["graded"] is False


def test_generator_boards_are_unique_by_every_engine() -> None:
    rng = random.Random(8)
    for _ in range(12):
        board, answer = generate(5, 6, rng)
        assert violations(board, answer) == []
        assert brute(board).solutions == [answer]
        assert solve_sat(board).solutions == [answer]
    board, answer = generate(10, 10, random.Random(1), keep=0.2)
    assert solve_sat(board).solutions == [answer] == solve(board).solutions


def test_hint_trace_reaches_the_answer() -> None:
    rng = random.Random(4)
    for _ in range(6):
        board, answer = generate(6, 6, rng)
        lay = layout(6, 6)
        on = [None] * lay.ne
        steps = trace(board, answer)
        for s in steps:
            assert 1 <= len(s["edges"]) <= 4 and len(s["cells"]) <= 8
            assert s["rung"] in (*RUNGS, "search") and s["why"] and s["en"] and s["ja"]
            for (r, c, side), name in zip(s["edges"], s["states"], strict=True):
                on[lay.edge_of(r, c, side)] = int(name == "line")
        assert tuple(on) == answer.on


# ---- exact counts --------------------------------------------------------------------

def test_loop_counts_match_oeis_a140517() -> None:
    """Cycles of the n×n grid graph (OEIS A140517): a board of n-1 by n-1 cells."""
    known = [1, 13, 213, 9349, 1222363, 487150371, 603841648931]
    assert [count_loops(n, n) for n in range(1, 8)] == known


def test_loop_counts_agree_with_enumeration() -> None:
    for h in range(1, 4):
        for w in range(1, 5):
            n = count_loops(h, w)
            assert n == count_loops(w, h) == len(all_loops(h, w))
            assert n == len(brute(Board.empty(h, w), limit=10 ** 6).solutions)
    assert [count_loops(1, n) for n in range(1, 8)] == [n * (n + 1) // 2 for n in range(1, 8)]


def test_signatures() -> None:
    s = signatures(2, 2)
    # the two L-trominoes that leave out opposite corners read 2,3,3,2 alike
    digits, share = s.pop("digits"), s.pop("digit_share")
    assert s == {"loops": 13, "grids": 11, "shared": 4, "largest": 2, "unique": 9}
    # per loop of the 2×2 board: 4 single cells (a 4, two 1s, a 0), 4 dominoes (3, 3, 1,
    # 1), 4 L-trominoes (3, 3, 2, 2) and the whole square (2, 2, 2, 2)
    assert digits == {"0": 4, "1": 16, "2": 12, "3": 16, "4": 4}
    assert share == {d: round(n / 52, 4) for d, n in digits.items()}


# ---- the residual SAT step (issue 50) ------------------------------------------------

OUTSIDE = Path(__file__).resolve().parent.parent / "benchmarks" / "outside"


@pytest.mark.parametrize("no_sat", ["", "1"])
def test_residual_encodings_agree_on_answer_sets(no_sat: str, monkeypatch) -> None:
    """Both single-loop encodings, on python-sat's MiniSat and on the pure-Python
    fallback, find exactly brute force's answers, from the rungs' state or from none."""
    monkeypatch.setenv(NO_SAT_ENV, no_sat)
    rng = random.Random(50)
    for k in range(30):
        h, w = rng.randint(1, 5), rng.randint(1, 5)
        board, _ = generate(h, w, rng)
        flat = board.flat()
        for i in [i for i, v in enumerate(flat) if v is not None][:k % 5]:
            flat[i] = None
        b = Board.from_flat(h, w, flat)
        want = _sets(brute(b, limit=10 ** 6))
        st = State(b)
        try:
            for lv in range(LEVEL["loop"] + 1):
                propagate(st, lv, start=True)
        except Contradiction:
            assert want == []
            continue
        clue = st.clue
        for state in (st.s, bytes(len(st.s))):
            for enc in ("colours", "edges"):
                got = solve_residual(h, w, clue, state, 10 ** 6, [0], encoding=enc)
                assert sorted(a.on for a in got) == want, (k, enc, no_sat)


def test_colour_cuts_take_fewer_calls_than_loop_cuts() -> None:
    """On a 20x20 board drawn outside the project, the colour encoding (every inside
    group and enclosed outside group cut in one call) needs fewer SAT calls than cutting
    loop by loop: 127 against 68 when this was written."""
    e = json.loads((OUTSIDE / "slitherlink-20x20.json").read_text())["boards"][2]
    board = Board.from_json(e["board"])
    st = State(board)
    for lv in range(LEVEL["loop"] + 1):
        propagate(st, lv, start=True)
    calls = {}
    for enc in ("colours", "edges"):
        n = [0]
        got = solve_residual(board.h, board.w, st.clue, st.s, 2, n, encoding=enc)
        assert [a.to_json() for a in got] == [e["answer"]]
        calls[enc] = n[0]
    assert calls["colours"] * 3 < calls["edges"] * 2, calls


def test_a_solve_imports_neither_pysat_solvers_nor_satcut() -> None:
    """python-sat's MiniSat is driven through its compiled module: a solve that reaches
    SAT imports neither ``pysat.solvers`` nor ``solvers.satcut`` (tens of ms of start-up
    in a ``build-site solve`` process), and the switch it reads is satcut's."""
    assert residual.NO_SAT_ENV == satcut.NO_SAT_ENV
    if not satcut.sat_available():
        pytest.skip("python-sat is not installed")
    code = ("import json, sys\n"
            "from slitherlink.board import Board\n"
            "from slitherlink.ladder import solve\n"
            f"b = Board.from_json({json.loads((OUTSIDE / 'slitherlink-10x10.json').read_text())['boards'][0]['board']!r})\n"
            "res = solve(b, grade=False)\n"
            "print(json.dumps([len(res.solutions), res.stats['sat_calls'], "
            "'pysat.solvers' in sys.modules, 'solvers.satcut' in sys.modules]))\n")
    env = {k: v for k, v in os.environ.items() if k != NO_SAT_ENV}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=env).stdout
    n, calls, solvers_in, satcut_in = json.loads(out)
    assert n == 1 and calls > 0
    assert not solvers_in and not satcut_in


def test_a_solve_process_on_a_board_file_imports_no_file_writing_or_signal_enums(
        tmp_path: Path) -> None:
    """`build-site solve slitherlink board.json` as peers.py --process runs it, to SAT:
    pathlib (with urllib.parse and ipaddress), shutil and tempfile (with bz2, lzma and
    random), signal's enums and threading cost such a process more than a 10x10 board's
    solve; none of them is imported (each was before)."""
    if not satcut.sat_available():
        pytest.skip("python-sat is not installed")
    board = json.loads((OUTSIDE / "slitherlink-10x10.json").read_text())["boards"][0]["board"]
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    code = ("import json, sys\n"
            "from site_builder import cli\n"
            f"rc = cli.main(['solve', 'slitherlink', {str(path)!r}, '--limit', '2', '--json'])\n"
            "print(json.dumps([m for m in ('pathlib', 'urllib.parse', 'ipaddress', 'shutil', "
            "'tempfile', 'bz2', 'lzma', 'random', 'signal', 'threading') "
            "if m in sys.modules]))\n")
    env = {k: v for k, v in os.environ.items() if k != NO_SAT_ENV}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, env=env).stdout.splitlines()
    assert json.loads(out[0])["solutions"] == 1
    assert json.loads(out[-1]) == []


def test_the_corner_tables_decide_what_listing_the_ways_decides() -> None:
    """The corner rung's verdict is read from tables on the local states alone; on
    random local states of random boards it is the listing's verdict, in its order
    (the same edges, the same contradictions)."""
    from slitherlink.ladder import _corner_table, _corner_verdict

    rng = random.Random(50)
    seen = contradictions = 0
    for h, w in ((1, 1), (1, 3), (2, 2), (3, 4), (5, 5)):
        for _ in range(400):
            clues = [[rng.choice([None, 0, 1, 2, 3]) for _ in range(w)] for _ in range(h)]
            st = State(Board.from_json({"h": h, "w": w, "clues": clues}))
            for e in range(st.lay.ne):
                st.s[e] = rng.choice((0, 0, 1, 2))
            for i, k in enumerate(st.clue):
                if k < 0:
                    continue
                want = _corner_verdict(st, i, st.g.local[i])
                assert _corner_table(k, st.g.shape[i], st.g.read[i](st.s)) == want
                seen += 1
                contradictions += want is None
    assert seen > 3000 and 0 < contradictions < seen


def _naive_probe(st: State) -> None:
    """The probe rung's definition, trial by trial with no shortcut."""
    changed = True
    while changed:
        changed = False
        for e in range(st.lay.ne):
            if st.s[e]:
                continue
            for val, other in ((1, 2), (2, 1)):
                m = st.mark()
                try:
                    st.set(e, val)
                    propagate(st, LEVEL["loop"])
                    st.undo(m)
                except Contradiction:
                    st.undo(m)
                    st.set(e, other)
                    propagate(st, LEVEL["loop"])
                    changed = True
                    break


def test_probe_shortcuts_keep_its_fixpoint() -> None:
    """The probe rung skips trials that a held trial vouches for, and the loop rule
    looks only at new pairs of line ends: the fixpoint is the one the plain definition
    reaches, and no pair of line ends is left joinable by an undecided edge (unless that
    would finish the board)."""
    rng = random.Random(5050)
    seen_probe = 0
    for _ in range(12):
        board, _ = generate(rng.randint(5, 8), rng.randint(5, 8), rng)
        states = []
        for naive in (False, True):
            st = State(board)
            for lv in range(LEVEL["loop"] + 1):
                propagate(st, lv, start=True)
            before = st.unknown
            if naive:
                _naive_probe(st)
            else:
                while _probe(st, LEVEL["loop"], [0]):
                    pass
            states.append(bytes(st.s))
            seen_probe += st.unknown < before
            if not st.closed:
                for a in range(st.lay.nvert):
                    if st.v_on[a] == 1:
                        e = st.g.between.get((a, st.mate[a]))
                        assert e is None or st.s[e] or _would_finish(st, e)
        assert states[0] == states[1]
    assert seen_probe >= 6


def test_uniform_digit_shares_of_every_loop_4x5() -> None:
    """Every loop of a 4×5 board counted once: the 0 is the rarest digit (the figures
    issue 49 quotes from an independent count), unlike in the generator's loops."""
    s = signatures(4, 5)
    assert s["loops"] == count_loops(4, 5) == 80626
    assert {d: round(v * 100, 1) for d, v in s["digit_share"].items() if d != "4"} == {
        "0": 10.3, "1": 31.8, "2": 38.3, "3": 19.6}
    assert min(("0", "1", "2", "3"), key=lambda d: s["digit_share"][d]) == "0"


def test_stats_margins_and_reference() -> None:
    """The committed stats carry an interval beside every sampled figure they declare,
    each interval holding its figure, and the generator's reference at the ledger's size."""
    from slitherlink.studies import SAMPLES

    from site_builder.samples import declared, expand

    data = json.loads((ROOT / "content/slitherlink/stats.json").read_text())["data"]
    assert [r["value"] for r in data["samples"]] == list(SAMPLES)
    table = expand(declared({"slitherlink/stats": data}), {"slitherlink/stats": data})
    seen = 0

    def walk(node: object, path: str) -> None:
        nonlocal seen
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}.{k}")
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            ikey = table.get(path)
            if ikey is None:
                return
            ci = data
            for part in ikey.split(".")[1:]:
                ci = ci[part]
            assert ci["lo"] - 1e-4 <= node <= ci["hi"] + 1e-4, (path, node, ci)
            seen += 1
    walk(data, "slitherlink/stats")
    assert seen >= 90   # 4 sizes × 23 figures, 13 overall, 4 trend, 4 reference (less nulls)
    ref = data["reference"]
    assert ref["size"] in json.loads((ROOT / "content/slitherlink/ledger.json").read_text())[
        "data"]["signatures"]


# ---- the site's standard, from the tool's test kit (site_builder.testing) ----------------

def test_standard_play_checker(tmp_path: Path) -> None:
    """The play page's checker says what rules.py and partial.py say, every rule reached."""
    from site_builder import testing

    testing.check_js_checker("slitherlink", tmp_path, root=ROOT)


def test_standard_engines_and_bank() -> None:
    from site_builder import testing

    assert testing.check_engines_agree("slitherlink", root=ROOT) >= 1
    assert testing.check_bank_confirmed("slitherlink", root=ROOT) == 72


def test_standard_article() -> None:
    """EN/JA structure parity, Japanese typography, no sampled value without its interval."""
    from site_builder import testing

    got = testing.check_parity("slitherlink", root=ROOT)
    assert got["en"]["tables"] >= 5
    assert testing.check_typography("slitherlink", root=ROOT) >= 3
    assert testing.check_sampled_intervals("slitherlink", root=ROOT) > 50


def test_the_bank_difficulty_text_is_printed_from_the_thresholds_its_boards_meet() -> None:
    """The levels' words come from the thresholds (the old text said "easy: nothing past
    clue-and-corner", while easy boards allowed a trial), and every banked board of a
    level keeps the bound its text states."""
    import json
    from pathlib import Path

    from slitherlink.bank import measure

    data = json.loads((Path(__file__).resolve().parents[3] / "content" / "slitherlink"
                       / "bank.json").read_text())["data"]
    spec = data["difficulty"]
    assert spec["measure"] == measure(spec["thresholds"])
    changed = measure({**spec["thresholds"], "easy": {"probe": 3, "search": 0}})
    assert "easy at most 3 trials" in changed["en"] and "仮置き 3 回まで" in changed["ja"]
    for b in data["boards"]:
        bound = spec["thresholds"].get(b["difficulty"])
        if bound is not None:
            assert b["effort"]["probe"] <= bound["probe"], b["id"]
            assert b["effort"]["search"] <= bound["search"], b["id"]
