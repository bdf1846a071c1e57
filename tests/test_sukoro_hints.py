"""Sukoro hints (one deduction a step), difficulty, the example board and the partial check."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from solvers.effort import difficulty
from solvers.grid import neighbours
from solvers.sukoro import PUZZLE, hints
from solvers.sukoro.bank import LEVELS, bank, finish
from solvers.sukoro.board import Answer, Board
from solvers.sukoro.ladder import BLANK, NUMS, initial, propagate, search
from solvers.sukoro.partial import irreparable
from solvers.sukoro.rules import violations
from solvers.sukoro.stages import BANK_PARAMS

ROOT = Path(__file__).resolve().parent.parent
BANK = json.loads((ROOT / "content" / "sukoro" / "bank.json").read_text())["data"]["boards"]
JA_SPACE = re.compile(r"[\u3000-\u9fff\uff00-\uffef] [\u3000-\u9fff\uff00-\uffef]")


def _pairs():
    return [(e["id"], Board.from_json(e["board"]), Answer.from_json(e["answer"])) for e in BANK]


@pytest.fixture(scope="module")
def traces():
    return {ident: (b, a, hints.trace(b, a)) for ident, b, a in _pairs()}


def _no_answer(board: Board, st: list[int]) -> bool:
    """No answer of ``board`` agrees with the marks (1 numbered, 2 empty): the solver."""
    dom = initial(board)
    for i, s in enumerate(st):
        if s == 1:
            dom[i] &= NUMS
        elif s == 2:
            dom[i] = dom[i] & BLANK
    if not all(dom):
        return True
    nb = neighbours(board.h, board.w)
    if not propagate(dom, nb, 2):
        return True
    sols, _ = search(dom, board.h, board.w, 1)
    return not sols


def test_trace_reaches_the_answer_on_every_banked_board(traces):
    names = PUZZLE.rung_names
    for ident, (b, a, steps) in traces.items():
        vals = a.flat()
        st = [1 if v is not None else 0 for v in b.flat()]
        for step in steps:
            assert 1 <= len(step["cells"]) <= hints.MAX_CELLS, (ident, step)
            assert len(step["states"]) == len(step["cells"])
            assert step["why"], (ident, step)
            assert all(step["rung"] in names[lang] for lang in ("en", "ja"))
            for (r, c), state in zip(step["cells"], step["states"], strict=True):
                i = r * b.w + c
                assert st[i] == 0, (ident, step)
                assert state == ("number" if vals[i] else "blank"), (ident, step)
                st[i] = 1 if state == "number" else 2
            for lang in ("en", "ja"):
                assert step[lang] and step["detail"][lang]
            assert not JA_SPACE.search(step["ja"] + step["detail"]["ja"]), step["ja"]
            assert "  " not in step["en"] and step["en"].endswith(".")
            # the sentence names the decided cell
            r, c = step["cells"][0]
            assert f"row {r + 1}, column {c + 1}" in step["en"].lower()
            assert f"{r + 1}行{c + 1}列" in step["ja"]
        assert 0 not in st, ident


def test_probe_steps_are_contradictions(traces):
    """Before each probe step on the 6x6 boards, the cell's other state has no answer."""
    checked = 0
    for ident, (b, _, steps) in traces.items():
        if b.h * b.w > 36:
            continue
        st = [1 if v is not None else 0 for v in b.flat()]
        for step in steps:
            if step["rung"] == "probe":
                (r, c), = step["cells"]
                trial = st[:]
                trial[r * b.w + c] = 2 if step["states"][0] == "number" else 1
                assert _no_answer(b, trial), (ident, step)
                assert step["why"] and "contradiction" in step["en"]
                checked += 1
            for (r, c), state in zip(step["cells"], step["states"], strict=True):
                st[r * b.w + c] = 1 if state == "number" else 2
    assert checked > 50


def test_cells_per_step_and_figures(traces):
    cells = [len(s["cells"]) for _, _, steps in traces.values() for s in steps]
    assert max(cells) <= hints.MAX_CELLS
    assert sorted(cells)[len(cells) // 2] <= 3


def test_difficulty_thresholds_are_data_and_an_easy_board_exists(traces):
    boards = [{"trace": steps} for _, _, steps in traces.values()]
    data = finish({"boards": boards}, {"difficulty": BANK_PARAMS["difficulty"],
                                       "sizes": BANK_PARAMS["sizes"]})
    levels = {e["difficulty"] for e in data["boards"]}
    assert "easy" in levels and levels <= set(LEVELS)
    assert data["difficulty"]["levels"] == list(LEVELS)
    assert data["difficulty"]["thresholds"] == BANK_PARAMS["difficulty"]["thresholds"]
    for e in data["boards"]:
        assert e["effort"]["probe"] == sum(s["rung"] == "probe" for s in e["trace"])
    # the level follows the thresholds, and moving them moves the level
    strict = {"easy": {"probe": -1}, "medium": {"probe": -1}, "hard": {"probe": -1}}
    assert difficulty({"probe": 0, "search": 0}, strict, LEVELS) == "expert"


def test_bank_gets_difficulty_and_a_separate_example():
    params = {"seed": 4, "sizes": ["5x5", "6x6"], "count": 2,
              "difficulty": BANK_PARAMS["difficulty"], "example_seed": 9}
    one = bank({}, params)
    assert json.dumps(one, sort_keys=True) == json.dumps(bank({}, params), sort_keys=True)
    ex = one["example"]
    assert ex["board"]["h"] == 5 and ex["board"]["w"] == 5
    assert all(ex["board"] != e["board"] for e in one["boards"])
    b, a = Board.from_json(ex["board"]), Answer.from_json(ex["answer"])
    assert violations(b, a) == [] and PUZZLE.decode(ex["url"]) == b
    assert 1 <= len(ex["trace"]) <= 4
    assert all("difficulty" in e and "effort" in e for e in one["boards"])
    assert one["difficulty"]["measure"]["ja"]


# -- the partial check ------------------------------------------------------------------

def _states(board: Board, answer: Answer) -> list[int]:
    return [1 if v else 2 for v in answer.flat()]


def _answer_of(board: Board, st: list[int]) -> Answer | None:
    h, w = board.h, board.w
    nb = neighbours(h, w)
    vals = []
    for i, s in enumerate(st):
        if s == 1:
            k = sum(st[j] == 1 for j in nb[i])
            if k == 0:
                return None
            vals.append(k)
        else:
            vals.append(0)
    return Answer.from_flat(h, w, vals)


def test_irreparable_on_finished_states_is_violations():
    rng = random.Random(12)
    compared = 0
    for _, b, a in _pairs():
        base = _states(b, a)
        assert irreparable(b, base) == []
        for _ in range(6):
            st = base[:]
            for _ in range(rng.choice((1, 2, 3, 6))):
                i = rng.randrange(len(st))
                if b.flat()[i] is None:
                    st[i] = 3 - st[i]
            ans = _answer_of(b, st)
            if ans is None:
                continue
            assert irreparable(b, st) == violations(b, ans)
            compared += 1
    assert compared > 300


def test_irreparable_is_sound_on_parts_of_the_answer():
    rng = random.Random(13)
    for _, b, a in _pairs():
        base = _states(b, a)
        for _ in range(10):
            p = rng.random()
            st = [s if b.flat()[i] is not None or rng.random() < p else 0
                  for i, s in enumerate(base)]
            assert irreparable(b, st) == [], st


def test_one_wrong_mark_breaks_little_and_names_the_cell():
    """One wrong mark on a fresh board: few violations, and the wrong cell among them."""
    rng = random.Random(14)
    hits = 0
    for _, b, a in _pairs():
        flat = b.flat()
        vals = a.flat()
        fresh = [1 if v is not None else 0 for v in flat]
        for i in rng.sample([i for i in range(len(flat)) if flat[i] is None], 12):
            st = fresh[:]
            st[i] = 2 if vals[i] else 1
            vs = irreparable(b, st)
            assert len(vs) <= 4  # at most one per neighbouring clue, plus the group
            if vs:
                hits += 1
                cell = divmod(i, b.w)
                assert any(cell in v.cells for v in vs), vs
            assert all(len(set(v.cells)) == len(v.cells) for v in vs)
    assert hits > 0


def test_irreparable_rules_and_cells():
    b = Board.from_json({"h": 3, "w": 3, "clues": [[None, 1, None], [None, 2, None],
                                                  [None, None, None]]})
    # the 1 at r1c2 with two numbered neighbours and one undecided: over, the clue and both
    (v,) = irreparable(b, [1, 1, 0, 0, 1, 0, 0, 0, 0])
    assert v.rule == "sukoro.over" and v.cells == ((0, 0), (0, 1), (1, 1))
    assert v.params == {"row": 1, "col": 2, "clue": 1, "count": 2}
    # the 2 at r2c2 with three excluded neighbours: under, the clue and the blocking cells
    (v,) = irreparable(b, [0, 1, 0, 2, 1, 2, 0, 2, 0])
    assert v.rule == "sukoro.under" and v.params["most"] == 1
    assert v.cells == ((1, 0), (1, 1), (1, 2), (2, 1))
    # a numbered cell fenced in by exclusions: isolated, and a part no cell can join
    vs = irreparable(b, [0, 1, 0, 0, 1, 2, 0, 2, 1])
    assert [(v.rule, v.cells) for v in vs] == [("sukoro.isolated", ((2, 2),)),
                                               ("sukoro.connect", ((2, 2),))]
    # the same with the wall still open is fine
    assert irreparable(b, [0, 1, 0, 0, 1, 0, 0, 2, 1]) == []
    for v in vs:
        assert v.en and v.ja


# boards whose traces hold many digit trials of the deep probe (``trials`` in a step)
DEEP = ("8x8-18", "10x10-15", "10x10-13")


def test_a_kept_end_is_rechecked_to_the_closure_s_own_fixpoint(monkeypatch):
    """Trials._still re-checks a trial's kept end on bitboards (search.propagate): the
    fixpoint, and whether one exists, must be what the hint engine's own closure (dclose,
    cell by cell) reaches from the same narrowed end."""
    from solvers.sukoro import search as fast
    real = hints.Trials._still
    seen = []

    def checked(self, key):
        end = self.eng.ends.get(key)
        got = real(self, key)
        if end is not None:
            x = tuple(a & b for a, b in zip(end, self.sbase, strict=True))
            if x != end:
                eng = self.eng
                dom = fast.to_domains(x, eng.n)         # type: ignore[arg-type]
                contra, _ = eng.dclose(self.st, -1, hints.UND, eng.n, dom=dom)
                assert (contra is None) == got, key
                if got:
                    assert fast.to_domains(eng.ends[key], eng.n) == dom, key
                seen.append(got)
        return got

    monkeypatch.setattr(hints.Trials, "_still", checked)
    pairs = {ident: (b, a) for ident, b, a in _pairs()}
    for ident in DEEP:
        hints.trace(*pairs[ident])
    assert True in seen and len(seen) > 50


def test_the_deep_probe_in_batches_is_probing_after_every_drop(monkeypatch, traces):
    """The deep probe probes after every DEEP_BATCH drops and bisects; probing after each
    drop (a batch of one) and other batch sizes give the same steps."""
    steps = {ident: traces[ident][2] for ident in DEEP}
    assert all(any("trials" in s for s in steps[ident]) for ident in DEEP)
    for batch in (1, 3):
        monkeypatch.setattr(hints, "DEEP_BATCH", batch)
        for ident in DEEP:
            b, a, _ = traces[ident]
            assert hints.trace(b, a) == steps[ident], (batch, ident)
