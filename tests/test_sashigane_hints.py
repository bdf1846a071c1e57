"""Sashigane hints one deduction at a time, difficulty, the example board and the partial
check (irreparable) on the committed bank."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from play_support import play_modules

from solvers.effort import difficulty
from solvers.sashigane import PUZZLE
from solvers.sashigane.bank import effort, finish_bank
from solvers.sashigane.board import CIRCLE, Answer, Board
from solvers.sashigane.fit import fit
from solvers.sashigane.hints import MAX_CELLS, Contradiction, Engine, _probe, trace
from solvers.sashigane.ladder import Problem, propagate, search
from solvers.sashigane.partial import _edges, finished, irreparable
from solvers.sashigane.rules import violations
from solvers.sashigane.stages import BANK_PARAMS

ROOT = Path(__file__).resolve().parent.parent
BANK = json.loads((ROOT / "content" / "sashigane" / "bank.json").read_text())["data"]
ENTRIES = [(e["id"], Board.from_json(e["board"]), Answer.from_json(e["answer"]))
           for e in BANK["boards"]]
JA_SPACE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff、。] [\u3040-\u30ff\u4e00-\u9fff]")


def _want(board: Board, answer: Answer) -> list[int]:
    """The answer's edge states (1 line, 2 no line) in the page's unit order."""
    return [1 if answer.pieces[a] != answer.pieces[b] else 2
            for _, a, b in _edges(board.h, board.w)]


def _unit(board: Board, r: int, c: int, side: str) -> int:
    h, w = board.h, board.w
    return r * (w - 1) + c if side == "r" else h * (w - 1) + r * w + c


@pytest.fixture(scope="module")
def traces():
    return {ident: trace(b, a) for ident, b, a in ENTRIES}


def test_every_trace_reaches_the_answer_one_deduction_at_a_time(traces):
    names = PUZZLE.rung_names
    for ident, b, a in ENTRIES:
        want = _want(b, a)
        got = [0] * len(want)
        decided = set(b.circles())
        for st in traces[ident]:
            assert 1 <= len(st["cells"]) <= MAX_CELLS, (ident, st)
            assert st["why"], (ident, st)
            assert st["rung"] in names["en"] and st["rung"] in names["ja"]
            assert st["en"] and st["ja"] and st["detail"]["en"] and st["detail"]["ja"]
            assert not JA_SPACE.search(st["ja"] + st["detail"]["ja"]), st["ja"]
            assert len(st["edges"]) == len(st["states"])
            for (r, c, side), s in zip(st["edges"], st["states"], strict=True):
                u = _unit(b, r, c, side)
                assert got[u] == 0, (ident, "edge listed twice")
                got[u] = PUZZLE.play.input["trace"][s]
                assert got[u] == want[u], (ident, st)
            for r, c in st["cells"]:
                if st["rung"] != "circles":
                    assert r * b.w + c not in decided, (ident, st)
                decided.add(r * b.w + c)
            # the sentence names the decided cell(s) by row and column
            r, c = st["cells"][0]
            assert f"row {r + 1}" in st["en"].lower() or f"rows {r + 1}" in st["en"].lower()
            assert f"{r + 1}行" in st["ja"] or f"{r + 1}〜" in st["ja"]
        assert got == want, ident
        assert decided == set(range(b.h * b.w)), ident


def test_steps_agree_with_the_answer_on_owners(traces):
    for ident, b, a in ENTRIES:
        circle_of = {}
        for cells in a.groups():
            (circ,) = [i for i in cells if b.cells[i].kind == CIRCLE]
            for i in cells:
                circle_of[i] = circ
        for st in traces[ident]:
            if st["rung"] in ("circles", "probe", "search"):
                continue
            owner = {circle_of[r * b.w + c] for r, c in st["cells"]}
            assert len(owner) == 1, (ident, st)
            (o,) = owner
            assert list(divmod(o, b.w)) in st["why"], (ident, st)


def test_bank_needs_no_probe_or_search_and_steps_are_small(traces):
    steps = [s for st in traces.values() for s in st]
    assert not any(s["rung"] in ("probe", "search") for s in steps)
    sizes = sorted(len(s["cells"]) for s in steps)
    assert sizes[len(sizes) // 2] <= 3 and sizes[-1] <= MAX_CELLS


def _forbidden(board: Board, cell: int, circle: int) -> bool:
    """Independent of the hint engine: the ladder's full search finds no answer in which
    ``cell`` belongs to the circle at ``circle``."""
    cand = fit(board)
    p = Problem.of(cand)
    g = cand.circles.index(circle)
    alive = [i for i, (m, grp) in enumerate(zip(cand.masks, cand.group, strict=True))
             if (grp == g) == bool(m >> cell & 1)]
    start = propagate(p, alive, 2)
    if start is None:
        return True
    sols, _ = search(p, start, 1, 2)
    return not sols


def test_probes_are_real_contradictions():
    """At the start of a board, a probe found by the engine names a cell and owners that
    really lead nowhere (checked by the ladder's search, not by the engine)."""
    checked = 0
    for ident, b, a in ENTRIES[::6]:
        eng = Engine(b)
        found = _probe(eng)
        assert found is not None, ident
        step, cells, g = found
        (cell,) = cells
        assert step["rung"] == "probe" and step["why"] and step["detail_cells"]
        assert step["en"].startswith("Try giving") and "contradiction" in step["en"]
        circ = eng.circles[g]
        assert a.pieces[cell] == a.pieces[circ], ident
        for r, c in step["detail_cells"]:
            assert _forbidden(b, cell, r * b.w + c), (ident, step)
        checked += 1
    assert checked >= 10


def test_engine_refuses_a_wrong_owner():
    _, b, a = ENTRIES[0]
    eng = Engine(b)
    circ = b.circles()
    cell = next(i for i in range(b.h * b.w) if len(eng.possible(i)) > 1)
    wrong = next(g for g, c in enumerate(circ) if a.pieces[c] != a.pieces[cell]
                 and g in eng.possible(cell))
    with pytest.raises(Contradiction):
        eng.assign([cell], wrong)
        eng.settle()


def test_difficulty_uses_every_level_and_an_easy_board(traces):
    spec = BANK_PARAMS["difficulty"]
    got = [difficulty(effort(traces[ident]), spec["thresholds"], spec["levels"])
           for ident, _, _ in ENTRIES]
    assert set(got) == set(spec["levels"])
    assert "easy" in got


def test_finish_bank_adds_difficulty_and_a_fresh_example(traces):
    boards = [{"id": ident, "size": f"{b.h}x{b.w}", "h": b.h, "w": b.w,
               "url": PUZZLE.encode(b), "trace": traces[ident]} for ident, b, _ in ENTRIES]
    data = finish_bank({"boards": boards}, BANK_PARAMS)
    assert data["difficulty"]["levels"] == ["easy", "medium", "hard", "expert"]
    assert data["difficulty"]["thresholds"] == BANK_PARAMS["difficulty"]["thresholds"]
    assert all(e["difficulty"] in data["difficulty"]["levels"] and e["effort"]
               for e in data["boards"])
    ex = data["example"]
    b = Board.from_json(ex["board"])
    assert (b.h, b.w) == (8, 8)
    assert ex["url"] not in {e["url"] for e in boards}
    assert violations(b, Answer.from_json(ex["answer"])) == []
    assert 1 <= len(ex["trace"]) <= BANK_PARAMS["example_steps"]
    again = finish_bank({"boards": [dict(e) for e in boards]}, BANK_PARAMS)
    assert json.dumps(again["example"], sort_keys=True) == json.dumps(ex, sort_keys=True)


# ---- the partial check ------------------------------------------------------------------

def _answer_of(board: Board, states: list[int]) -> Answer:
    h, w = board.h, board.w
    vert = [[0] * (w - 1) for _ in range(h)]
    horz = [[0] * w for _ in range(h - 1)]
    for (_, a, b), s in zip(_edges(h, w), states, strict=True):
        if s == 1:
            if b == a + 1:
                vert[a // w][a % w] = 1
            else:
                horz[a // w][a % w] = 1
    return Answer.from_borders(h, w, vert, horz)


def test_finished_states_equal_violations():
    rng = random.Random(7)
    for _, b, a in ENTRIES:
        want = _want(b, a)
        for _ in range(6):
            st = [rng.randrange(1, 3) for _ in want]
            assert irreparable(b, st) == violations(b, _answer_of(b, st))
            st = list(want)
            for k in rng.sample(range(len(st)), rng.choice((1, 2, 3))):
                st[k] = 3 - st[k]
            assert irreparable(b, st) == violations(b, _answer_of(b, st))
        assert irreparable(b, want) == [] and finished(b, want)


def test_correct_partial_marks_break_nothing():
    rng = random.Random(8)
    for _, b, a in ENTRIES:
        want = _want(b, a)
        lines = [s if s == 1 else 0 for s in want]
        assert irreparable(b, lines) == [] and finished(b, lines)
        for _ in range(20):
            p = rng.random()
            st = [s if rng.random() < p else 0 for s in want]
            assert irreparable(b, st) == [], st
            only_lines = [s if s == 1 and rng.random() < p else 0 for s in want]
            assert irreparable(b, only_lines) == []


def test_one_wrong_mark_names_itself():
    counts = []
    for _, b, a in ENTRIES[::4]:
        want = _want(b, a)
        edges = _edges(b.h, b.w)
        for (u, x, y) in edges:
            st = [0] * len(want)
            st[u] = 3 - want[u]
            vs = irreparable(b, st)
            counts.append(len(vs))
            assert len(vs) <= 3
            for v in vs:
                cells = set(v.cells)
                near = {divmod(x, b.w), divmod(y, b.w)}
                assert cells & near, (v.rule, v.cells, near)
            assert not finished(b, st)
    assert sum(1 for n in counts if n) > len(counts) // 4


def test_partial_rules_each_fire():
    """Hand-made states: each partial-only rule, on the first bank board."""
    _, b, _a = ENTRIES[0]
    h, w = b.h, b.w
    seen = set()
    rng = random.Random(9)
    for _ in range(3000):
        st = rng.choices((0, 1, 2), weights=(6, 1, 1), k=len(_edges(h, w)))
        seen.update(v.rule for v in irreparable(b, st))
    partial_only = {"sashigane.bent", "sashigane.corner_lost", "sashigane.arm_cut",
                    "sashigane.arrow_joined", "sashigane.region", "sashigane.circles",
                    "sashigane.arrows", "sashigane.border"}
    assert partial_only <= seen, partial_only - seen


def test_puzzle_exposes_irreparable():
    assert PUZZLE.irreparable is irreparable


def test_js_finished_and_irreparable_agree(tmp_path):
    """The checker module's finished() and irreparable() against Python's, on lines-only
    states (the answer's lines, some dropped, one added) and random marks."""
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    rng = random.Random(10)
    cases = []
    for _, b, a in ENTRIES[::3]:
        want = _want(b, a)
        for k in range(16):
            lines = [s if s == 1 else 0 for s in want]
            if k % 4 == 1:
                lines = [s if rng.random() < 0.9 else 0 for s in lines]
            elif k % 4 == 2:
                lines[rng.randrange(len(lines))] = 1
            elif k % 4 == 3:
                lines = [rng.choice((0, 0, 1, 2)) for _ in want]
            cases.append({"board": b.to_json(), "states": lines})
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    play = play_modules(tmp_path)
    script = tmp_path / "run.mjs"
    script.write_text(f"""
import {{ readFileSync }} from "fs";
import {{ makeView }} from "{(play / 'grid.js').as_uri()}";
const m = await import("{(play / 'sashigane.js').as_uri()}");
const cases = JSON.parse(readFileSync("{(tmp_path / 'cases.json').as_posix()}"));
const out = cases.map((c) => {{
  const v = makeView(c.board, "edges", {{}}, c.states, c.states.map(() => null), null);
  return {{ finished: m.finished(c.board, v), v: m.irreparable(c.board, v) }};
}});
console.log(JSON.stringify(out));
""")
    got = json.loads(subprocess.run([node, str(script)], capture_output=True, text=True,
                                    check=True).stdout)
    done = 0
    for case, g in zip(cases, got, strict=True):
        b = Board.from_json(case["board"])
        assert g["finished"] == finished(b, case["states"]), case
        done += g["finished"]
        py = [{"rule": v.rule, "cells": [list(c) for c in v.cells], "params": dict(v.params)}
              for v in irreparable(b, case["states"])]
        assert g["v"] == py, case
    assert 0 < done < len(cases)
