"""Nanro hints (one deduction per step, probes that really contradict), difficulty, the
example board, and the irreparable check in Python and in the play page's checker."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from play_support import play_modules

from solvers.nanro import PUZZLE
from solvers.nanro.bank import LEVELS, finish_bank
from solvers.nanro.board import Answer, Board
from solvers.nanro.hints import trace
from solvers.nanro.ladder import geometry, initial, propagate, search
from solvers.nanro.partial import irreparable
from solvers.nanro.rules import violations
from solvers.nanro.stages import BANK_PARAMS

ROOT = Path(__file__).resolve().parent.parent
BANK = json.loads((ROOT / "content" / "nanro" / "bank.json").read_text())["data"]["boards"]
NODE = shutil.which("node") or "/usr/bin/node"
JA_SPACE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff08\uff09、。] +[\u3040-\u30ff\u4e00-\u9fff]")


def _pairs() -> list[tuple[str, Board, Answer]]:
    return [(e["id"], Board.from_json(e["board"]), Answer.from_json(e["answer"])) for e in BANK]


PAIRS = _pairs()
TRACES = {ident: trace(b, a) for ident, b, a in PAIRS}


def _has_answer(board: Board, num: int, blank: int) -> bool:
    """Complete search (the ladder's engine) from a partial state."""
    g = geometry(board.h, board.w, board.regions)
    st = initial(board, g)
    assert st is not None
    st.num |= num
    st.blank |= blank
    if st.num & st.blank or not propagate(g, st, 3):
        return False
    sols, _ = search(g, st, limit=1)
    return bool(sols)


def test_trace_reaches_the_answer_one_deduction_at_a_time():
    codes = PUZZLE.play.input["trace"]
    for ident, board, ans in PAIRS:
        steps = TRACES[ident]
        state = {(r, c): True for r in range(board.h) for c in range(board.w)
                 if board.clues[r][c] is not None}
        for s in steps:
            assert 1 <= len(s["cells"]) <= 8, ident
            assert len(s["states"]) == len(s["cells"])
            assert s["why"], (ident, s)
            assert s["rung"] in PUZZLE.rung_names["en"] and s["rung"] in PUZZLE.rung_names["ja"]
            assert s["en"] and s["ja"] and s["detail"]["en"] and s["detail"]["ja"]
            assert not JA_SPACE.search(s["ja"]) and not JA_SPACE.search(s["detail"]["ja"])
            for (r, c), name in zip(s["cells"], s["states"], strict=True):
                assert name in codes
                assert (r, c) not in state, (ident, "decided twice", r, c)
                state[(r, c)] = name == "number"
                assert state[(r, c)] == ((r, c) in ans.cells), (ident, s["en"])
                assert f"row {r + 1}, column {c + 1}" in s["en"].lower()
                assert f"{r + 1}行{c + 1}列" in s["ja"]
        assert len(state) == board.h * board.w, ident


def test_probe_steps_really_contradict():
    checked = 0
    for ident, board, _ in PAIRS:
        w = board.w
        num = sum(1 << (r * w + c) for r in range(board.h) for c in range(w)
                  if board.clues[r][c] is not None)
        blank = 0
        for s in TRACES[ident]:
            if s["rung"] == "probe":
                (r, c), = s["cells"]
                bit = 1 << (r * w + c)
                assert s["detail_cells"]
                if s["states"][0] == "number":
                    assert not _has_answer(board, num, blank | bit), ident
                else:
                    assert not _has_answer(board, num | bit, blank), ident
                checked += 1
            for (r, c), name in zip(s["cells"], s["states"], strict=True):
                if name == "number":
                    num |= 1 << (r * w + c)
                else:
                    blank |= 1 << (r * w + c)
    assert checked > 0


def test_no_search_on_the_bank_and_deterministic():
    assert not any(s["rung"] == "search" for t in TRACES.values() for s in t)
    ident, board, ans = PAIRS[-1]
    assert trace(board, ans) == TRACES[ident]


def test_difficulty_and_example():
    data = {"boards": [dict(e, trace=TRACES[e["id"]]) for e in BANK]}
    out = finish_bank(data, BANK_PARAMS)
    levels = [e["difficulty"] for e in out["boards"]]
    assert set(levels) <= set(LEVELS) and "easy" in levels
    assert out["boards"][0]["difficulty"] == "easy"
    assert out["difficulty"]["levels"] == list(LEVELS)
    assert out["difficulty"]["thresholds"] == BANK_PARAMS["difficulty"]
    assert all({"rung", "probes", "search", "steps"} <= set(e["effort"]) for e in out["boards"])
    ex = out["example"]
    assert all(ex["board"] != e["board"] for e in BANK)
    b = Board.from_json(ex["board"])
    assert (b.h, b.w) == (6, 6)
    assert violations(b, Answer.from_json(ex["answer"])) == []
    assert ex["trace"] and ex["url"].startswith("https://puzz.link/p?nanro/")
    again = finish_bank({"boards": [dict(e, trace=TRACES[e["id"]]) for e in BANK]},
                        BANK_PARAMS)
    assert json.dumps(again, sort_keys=True) == json.dumps(out, sort_keys=True)


# ---- irreparable ---------------------------------------------------------------------


def _states(board: Board, on: set[tuple[int, int]], decided: set[tuple[int, int]]) -> list[int]:
    out = []
    for r in range(board.h):
        for c in range(board.w):
            if board.clues[r][c] is not None:
                out.append(1)
            elif (r, c) in decided:
                out.append(1 if (r, c) in on else 2)
            else:
                out.append(0)
    return out


def _all(board: Board) -> set[tuple[int, int]]:
    return {(r, c) for r in range(board.h) for c in range(board.w)}


def _cases(seed: int) -> list[tuple[Board, list[int], str]]:
    """(board, states, kind): full answers with cells flipped, partial subsets of the
    answer, single wrong marks, and random partial states."""
    rng = random.Random(seed)
    out = []
    for _, board, ans in PAIRS:
        free = sorted(x for x in _all(board) if board.clues[x[0]][x[1]] is None)
        for k in (0, 1, 2, 5):
            on = set(ans.cells) ^ set(rng.sample(free, k))
            out.append((board, _states(board, on, _all(board)), "full"))
        for q in (0.2, 0.5, 0.9):
            dec = {x for x in free if rng.random() < q}
            out.append((board, _states(board, set(ans.cells), dec), "subset"))
        for x in rng.sample(free, 4):
            on = set() if x in ans.cells else {x}
            out.append((board, _states(board, on, {x}), "single"))
        for q in (0.3, 0.7):
            dec = {x for x in free if rng.random() < q}
            on = {x for x in dec if rng.random() < 0.5}
            out.append((board, _states(board, on, dec), "random"))
    return out


CASES = _cases(12)


def test_irreparable_full_equals_violations_and_subsets_are_clean():
    for board, st, kind in CASES:
        got = irreparable(board, st)
        if kind == "full":
            ans = Answer.from_flat(board.h, board.w, [v == 1 for v in st])
            assert got == violations(board, ans)
        elif kind == "subset":
            assert got == [], [v.en for v in got]


def test_irreparable_single_wrong_mark():
    singles = 0
    for board, st, kind in CASES:
        if kind != "single":
            continue
        got = irreparable(board, st)
        (i,) = [j for j, v in enumerate(st)
                if v and board.clues[j // board.w][j % board.w] is None]
        cell = divmod(i, board.w)
        assert len(got) <= 4, [v.en for v in got]   # e.g. two 2×2 blocks and a count
        for v in got:
            assert cell in v.cells, (v.rule, v.cells, cell)
        singles += bool(got)
    assert singles > 0


def test_irreparable_is_sound_against_the_solver():
    """Whatever it reports really cannot be repaired: no answer extends those marks
    (checked on partial states of the small boards)."""
    for board, st, kind in CASES:
        if kind not in ("random", "single") or board.h > 6 or 0 not in st:
            continue
        if not irreparable(board, st):
            continue
        num = sum(1 << i for i, v in enumerate(st) if v == 1)
        blank = sum(1 << i for i, v in enumerate(st) if v == 2)
        assert not _has_answer(board, num, blank)


RUNNER = """
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
const [modPath, casesPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modPath).href);
const grid = await import(new URL("grid.js", pathToFileURL(modPath)).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const input = { count: 1 };
const out = cases.map(([board, states]) => {
  const fixed = mod.fixed(board);
  const view = grid.makeView(board, "regions", input, Uint8Array.from(states), fixed,
                             mod.regions(board));
  return mod.irreparable(board, view).map((v) => ({ rule: v.rule, cells: v.cells,
                                                   params: v.params }));
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.skipif(not Path(NODE).exists(), reason="node is not installed")
def test_js_irreparable_agrees_with_python(tmp_path):
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER)
    data = tmp_path / "cases.json"
    data.write_text(json.dumps([[b.to_json(), st] for b, st, _ in CASES]))
    mod = play_modules(tmp_path) / "nanro.js"
    res = subprocess.run([NODE, str(runner), str(mod), str(data)], capture_output=True,
                         text=True, check=True)
    js = json.loads(res.stdout)
    for (board, st, _), got in zip(CASES, js, strict=True):
        want = [{"rule": v.rule, "cells": [list(c) for c in v.cells], "params": dict(v.params)}
                for v in irreparable(board, st)]
        assert got == want, (board.to_json(), st)


def test_search_steps_when_no_probe_works(monkeypatch):
    """With probes switched off, a probe board's trace falls back to single-cell search
    steps that still reach the answer, each with an honest sentence."""
    from solvers.nanro import hints

    monkeypatch.setattr(hints, "_probe", lambda ctx, val, truth: None)
    _, board, ans = next(p for p in PAIRS if any(s["rung"] == "probe" for s in TRACES[p[0]]))
    steps = hints.trace(board, ans)
    found = [s for s in steps if s["rung"] == "search"]
    assert found and all(len(s["cells"]) == 1 and s["why"] for s in found)
    assert found[0]["en"].startswith("No short chain of deductions decides a cell here")
    decided = {(r, c) for s in steps for r, c in s["cells"]}
    assert len(decided) + board.clue_count() == board.h * board.w
    for s in steps:
        for (r, c), name in zip(s["cells"], s["states"], strict=True):
            assert (name == "number") == ((r, c) in ans.cells)


def test_cut_names_the_blank_cells_between_the_parts():
    board = Board(2, 3, ((0, 0, 1), (2, 2, 1)), ((1, None, 1), (None, None, None)))
    got = irreparable(board, [1, 2, 1, 0, 2, 0])
    assert [v.rule for v in got] == ["nanro.cut"]
    assert got[0].cells == ((0, 1), (0, 2), (1, 1)) and got[0].params == {"groups": 2}
    assert irreparable(board, [1, 2, 1, 0, 0, 0]) == []


def test_resumed_trials_end_where_fresh_ones_do():
    """The probe screen reruns a trial from its last outcome joined with the grown state
    (``ladder.resume``): that must propagate to exactly the fresh trial's outcome, and
    contradict exactly when it does, on every cell of a hard board as its state grows
    towards the answer."""
    from solvers.nanro.ladder import resume

    data = json.loads((ROOT / "benchmarks" / "hard" / "nanro-16x16.json").read_text())
    board = Board.from_json(data["boards"][0]["board"])
    answer = PUZZLE.solve(board).solutions[0]
    g = geometry(board.h, board.w, board.regions)
    truth = sum(1 << i for i, v in enumerate(answer.flat()) if v)
    rng = random.Random(7)
    order = list(range(g.n))
    rng.shuffle(order)

    def base(k: int):
        st = initial(board, g)
        for i in order[:k]:
            if truth >> i & 1:
                st.num |= 1 << i
            else:
                st.blank |= 1 << i
        assert propagate(g, st, 3)
        return st

    def trial(st, i):
        t = st.copy()
        if truth >> i & 1:
            t.blank |= 1 << i
        else:
            t.num |= 1 << i
        return t if propagate(g, t, 3) else None

    early, late = base(12), base(30)
    assert late.num & ~early.num or late.blank & ~early.blank
    kinds = set()
    for i in range(g.n):
        if (early.num | early.blank) >> i & 1:
            continue
        w = trial(early, i)
        if w is None:
            continue
        fresh = trial(late, i) if not (late.num | late.blank) >> i & 1 else None
        join = resume(g, w, late)
        got = join if join is not None and propagate(g, join, 3) else None
        assert (got is None) == (fresh is None), i
        if fresh is not None:
            assert (got.num, got.blank, got.dom) == (fresh.num, fresh.blank, fresh.dom), i
        kinds.add(fresh is None)
    assert kinds == {True, False}      # both outcomes were met


def test_region_domains_after_a_step_are_the_fresh_ones():
    """Domains.after (counts of the touched regions updated, the border pairs kept while
    no cell is numbered) gives exactly the domains built afresh from the marks, on a hard
    board's marks taken towards the answer a few cells at a time, either way."""
    from solvers.nanro.hints import BLANK, NUM, UND, Ctx, Domains

    data = json.loads((ROOT / "benchmarks" / "hard" / "nanro-16x16.json").read_text())
    board = Board.from_json(data["boards"][1]["board"])
    answer = PUZZLE.solve(board).solutions[0]
    ctx = Ctx(board)
    truth = [NUM if v else BLANK for v in answer.flat()]
    rng = random.Random(11)
    val = ctx.start[:]
    d = Domains(ctx, val)
    fields = ("num", "und", "blank", "kn", "ku", "base", "dom", "excl", "pairs")
    kinds = set()
    while UND in val:
        und = [i for i in range(ctx.n) if val[i] == UND]
        cells = rng.sample(und, min(len(und), rng.randint(1, 4)))
        state = rng.choice((NUM, BLANK)) if rng.random() < 0.2 else truth[cells[0]]
        for i in cells:
            val[i] = state
        d = d.after(ctx, cells, state)
        fresh = Domains(ctx, val)
        assert [getattr(d, f) for f in fields] == [getattr(fresh, f) for f in fields]
        kinds.add((state, any(d.excl)))
        if state != truth[cells[0]]:          # a wrong mark: back to a fresh start
            val = ctx.start[:]
            d = Domains(ctx, val)
    assert {k[0] for k in kinds} == {NUM, BLANK} and any(k[1] for k in kinds), kinds


def test_screen_from_the_ladder_probe_witnesses_is_the_ladder_screen():
    """The witnesses the ladder's probe rung leaves (seeded by trace before its first
    step) keep Screen exact: a one-cell trial against the answer contradicts exactly
    where _ladder_contradicts says so, on marks taken from the answer a few cells at a
    time; and the seeded witnesses do answer some of those trials."""
    from solvers.nanro.hints import (
        BLANK,
        NUM,
        UND,
        Ctx,
        Screen,
        _ladder_contradicts,
        _probe_witnesses,
    )

    data = json.loads((ROOT / "benchmarks" / "hard" / "nanro-16x16.json").read_text())
    board = Board.from_json(data["boards"][3]["board"])
    answer = PUZZLE.solve(board).solutions[0]
    ctx = Ctx(board)
    truth = [NUM if v else BLANK for v in answer.flat()]
    _probe_witnesses(ctx, truth)
    seeded = dict(ctx.wit)
    assert seeded
    rng = random.Random(2)
    val = ctx.start[:]
    used = 0
    for _ in range(4):
        screen = Screen(ctx, val, ctx.wit)
        for i in [i for i in range(ctx.n) if val[i] == UND]:
            trial = val[:]
            trial[i] = 1 - truth[i]
            w = seeded.get((i, trial[i]))
            st = screen.st
            used += (w is not None and st is not None and not (st.num | st.blank) >> i & 1
                     and not (st.num & ~w.num or st.blank & ~w.blank))
            assert screen.contradicts(trial, i) == _ladder_contradicts(ctx, trial), i
        und = [i for i in range(ctx.n) if val[i] == UND]
        for i in rng.sample(und, min(len(und), 6)):
            val[i] = truth[i]
    assert used
