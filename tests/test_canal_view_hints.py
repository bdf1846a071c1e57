"""Canal View hints (one deduction a step), difficulty, the example board, and the
irreparable check that tells wrong from unfinished."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from solvers.canal_view import PUZZLE
from solvers.canal_view.bank import effort, finish_bank
from solvers.canal_view.board import Answer, Board
from solvers.canal_view.brute import brute
from solvers.canal_view.generate import full_board, random_canal, with_clues
from solvers.canal_view.hints import (
    DRY,
    FLOODED,
    MAX_CELLS,
    Contra,
    make_geo,
    next_deduction,
    propagate,
    trace,
)
from solvers.canal_view.partial import irreparable
from solvers.canal_view.rules import RULES, violations
from solvers.canal_view.stages import DIFFICULTY

BANK = Path(__file__).resolve().parents[1] / "content" / "canal-view" / "bank.json"
JA = r"[\u3040-\u30ff\u4e00-\u9fff]"


def _bank() -> list[dict]:
    if not BANK.exists():
        pytest.skip("content/canal-view not generated yet")
    return json.loads(BANK.read_text())["data"]["boards"]


def check_trace(board: Board, answer: Answer, steps: list[dict]) -> None:
    """Applied in order the steps reach the answer exactly, one deduction each."""
    rows = answer.rows()
    decided: dict = {}
    names = PUZZLE.rung_names
    for step in steps:
        assert step["rung"] in names["en"] and step["rung"] in names["ja"]
        assert 1 <= len(step["cells"]) <= MAX_CELLS
        assert len(step["states"]) == len(step["cells"])
        assert step["why"], step
        for (r, c), st in zip(step["cells"], step["states"], strict=True):
            assert (r, c) not in decided and board.clues[r][c] is None
            assert (rows[r][c] == "#") == (st == "flooded"), step
            decided[(r, c)] = st
        for lang in ("en", "ja"):
            assert step[lang] and step["detail"][lang]
            assert "{" not in step[lang] and "{" not in step["detail"][lang]
        # the sentence names the decided cells
        r, c = step["cells"][0]
        en = step["en"].lower()
        assert f"row {r + 1}," in en or f"rows {r + 1}" in en, step["en"]
        assert f"{r + 1}" in step["ja"] and "行" in step["ja"]
        for text in (step["ja"], step["detail"]["ja"]):
            assert not re.search(JA + r" " + JA, text)
            assert "(" not in text and ")" not in text
            assert not re.search(r"[A-Za-z]{3,}", text), text
        assert step["en"].endswith(".") and step["ja"].endswith("。")
    assert len(decided) == board.n - len(board.clue_cells())


def test_trace_reaches_the_answer_on_every_committed_bank_board() -> None:
    bank = _bank()
    assert len(bank) == 72
    rungs: Counter = Counter()
    for e in bank:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        steps = trace(board, answer)
        check_trace(board, answer, steps)
        rungs.update(s["rung"] for s in steps)
        if e["id"] in ("8x8-01", "12x12-01"):
            assert steps == trace(board, answer)          # deterministic
    # measured on the committed bank (see the report): probes are common, search rare
    assert rungs["arm"] > rungs["probe"] > rungs["search"]


def test_probe_steps_are_real_contradictions() -> None:
    """Re-run every probe from the state before it: the wrong value reaches the stated
    contradiction, and the solver finds no answer with the wrong value."""
    from solvers.canal_view.ladder import _Search, make_ctx

    bank = _bank()
    checked = 0
    for e in bank[:12] + bank[36:42]:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        g = make_geo(board)
        st = [0] * g.n
        for x in g.fixed:
            st[x] = DRY
        ctx = make_ctx(board)
        for step in trace(board, answer):
            if step["rung"] == "probe":
                (r, c), = step["cells"]
                x = r * board.w + c
                right = FLOODED if step["states"][0] == "flooded" else DRY
                st2 = list(st)
                st2[x] = DRY if right == FLOODED else FLOODED
                contra, _, decided = propagate(g, st2, [x], 10_000)
                assert isinstance(contra, Contra)
                assert sorted(divmod(y, g.w) for y in contra.cells) == \
                    sorted(tuple(w) for w in step["why"])
                assert sorted(tuple(d) for d in step.get("detail_cells", [])) == \
                    sorted(divmod(y, g.w) for y in set(decided) - {x})
                F = sum(1 << i for i, s in enumerate(st2) if s == FLOODED)
                D = sum(1 << i for i, s in enumerate(st2) if s == DRY)
                s = _Search(ctx, 1)
                s.run(F, D)
                assert not s.solutions
                checked += 1
            for (r, c), name in zip(step["cells"], step["states"], strict=True):
                st[r * board.w + c] = FLOODED if name == "flooded" else DRY
    assert checked >= 20


@pytest.mark.parametrize("seed", range(6))
def test_deductions_hold_in_every_answer_of_ambiguous_boards(seed: int) -> None:
    """On 5x5 boards with few numbers (many answers, all found by brute force), every
    deduction the hints make holds in all answers, and a probe contradiction only ever
    comes from a value no answer has."""
    rng = random.Random(seed)
    h = w = 5
    mask = random_canal(rng, h, w, 0.5)
    full = full_board(h, w, mask)
    keep = set(rng.sample(full.clue_cells(), max(1, len(full.clue_cells()) // 3)))
    board = with_clues(full, keep)
    sols = [a.mask for a in brute(board, limit=100_000).solutions]
    assert mask in sols
    g = make_geo(board)
    st = [0] * g.n
    for x in g.fixed:
        st[x] = DRY
    while True:
        ded = next_deduction(g, st)
        if ded is None:
            break
        for x, s in ded.cells:
            assert all((m >> x & 1) == (s == FLOODED) for m in sols), ded
            st[x] = s
    for x in range(g.n):
        if st[x]:
            continue
        for s in (FLOODED, DRY):
            st2 = list(st)
            st2[x] = s
            contra, _, _ = propagate(g, st2, [x], 10_000)
            if contra is not None:
                assert not any((m >> x & 1) == (s == FLOODED) for m in sols)


def test_difficulty_and_example_on_a_small_bank() -> None:
    from solvers.canal_view.bank import run_bank
    from solvers.canal_view.stages import BANK_PARAMS

    params = {**BANK_PARAMS, "seed": 5, "sizes": {"5x5": 3, "6x6": 2}}
    data = run_bank({}, params, lambda *a: None)
    assert data["difficulty"] == DIFFICULTY
    assert set(DIFFICULTY["levels"]) == {"easy", "medium", "hard", "expert"}
    for e in data["boards"]:
        assert e["difficulty"] in DIFFICULTY["levels"]
        assert e["effort"] == effort(e["trace"])
    ex = data["example"]
    b = Board.from_json(ex["board"])
    assert (b.h, b.w) == (5, 5) and ex["url"] not in {e["url"] for e in data["boards"]}
    assert ex["trace"] == trace(b, Answer.from_json(ex["answer"]))[:len(ex["trace"])]
    assert data == run_bank({}, params, lambda *a: None)


def test_difficulty_and_example_on_the_committed_bank() -> None:
    """With the shipped params: every level used, easy boards present, and the example an
    8x8 board of its own (not one of the bank's)."""
    from solvers.canal_view.stages import BANK_PARAMS

    bank = _bank()
    data = {"boards": [{**e, "trace": trace(Board.from_json(e["board"]),
                                            Answer.from_json(e["answer"]))} for e in bank]}
    out = finish_bank(data, BANK_PARAMS)
    got = Counter(e["difficulty"] for e in out["boards"])
    assert set(got) == set(DIFFICULTY["levels"]) and got["easy"] >= 1, got
    assert out["difficulty"] == BANK_PARAMS["difficulty"]
    ex = out["example"]
    assert (ex["board"]["h"], ex["board"]["w"]) == (8, 8)
    assert ex["url"] not in {e["url"] for e in bank}
    assert ex["board"] not in [e["board"] for e in bank]
    assert 1 <= len(ex["trace"]) <= BANK_PARAMS["example_steps"]
    check_trace_prefix(Board.from_json(ex["board"]), Answer.from_json(ex["answer"]),
                       ex["trace"])


def check_trace_prefix(board: Board, answer: Answer, steps: list[dict]) -> None:
    rows = answer.rows()
    for step in steps:
        for (r, c), st in zip(step["cells"], step["states"], strict=True):
            assert (rows[r][c] == "#") == (st == "flooded")


# ---------------------------------------------------------------- irreparable ----------
def _states(board: Board, answer: Answer) -> list[int]:
    return [DRY if board.clues[r][c] is not None else (1 if answer.flooded(r, c) else 2)
            for r in range(board.h) for c in range(board.w)]


def test_irreparable_on_finished_states_is_violations() -> None:
    rng = random.Random(7)
    for e in _bank()[::6]:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        st = _states(board, answer)
        assert irreparable(board, st) == [] == violations(board, answer)
        free = [i for i in range(board.n) if board.clues[i // board.w][i % board.w] is None]
        for _ in range(20):
            st2 = list(st)
            for i in rng.sample(free, rng.choice((1, 2, 3))):
                st2[i] = 3 - st2[i]
            mask = sum(1 << i for i, s in enumerate(st2) if s == 1)
            assert irreparable(board, st2) == violations(board, Answer(board.h, board.w, mask))


def test_irreparable_is_silent_on_every_prefix_of_the_answer() -> None:
    rng = random.Random(11)
    for e in _bank():
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        st = _states(board, answer)
        free = [i for i in range(board.n) if board.clues[i // board.w][i % board.w] is None]
        for _ in range(30):
            p = rng.random()
            st2 = [0 if i in free and rng.random() < p else s for i, s in enumerate(st)]
            assert irreparable(board, st2) == []


def test_one_wrong_mark_on_a_fresh_board_names_that_cell() -> None:
    """A single wrong mark gives few violations, each naming the wrong cell."""
    counts: Counter = Counter()
    for e in _bank()[::4]:
        board, answer = Board.from_json(e["board"]), Answer.from_json(e["answer"])
        fresh = [DRY if board.clues[r][c] is not None else 0
                 for r in range(board.h) for c in range(board.w)]
        for i in range(board.n):
            r, c = divmod(i, board.w)
            if board.clues[r][c] is not None:
                continue
            st = list(fresh)
            st[i] = 2 if answer.flooded(r, c) else 1
            vs = irreparable(board, st)
            counts[len(vs)] += 1
            assert len(vs) <= 4
            for v in vs:
                assert (r, c) in v.cells and v.rule in ("canal.over", "canal.short")
    assert counts[0] > 0 and sum(n for k, n in counts.items() if k) > 0


def test_irreparable_examples() -> None:
    # a 3 with two dry marks around it, and a walled-off flooded cell
    board = Board.from_dict(4, 4, {(0, 0): 3, (3, 3): 0})
    st = [0] * 16
    st[0] = st[15] = DRY
    st[1] = DRY                               # the 3 can now see only down: 3 cells
    assert irreparable(board, st) == []
    st[8] = DRY                               # ... only one
    (v,) = irreparable(board, st)
    assert v.rule == "canal.short" and v.cells == ((0, 0), (0, 1), (2, 0))
    assert v.params == {"row": 1, "col": 1, "clue": 3, "most": 1}
    assert v.en == ("The 3 at row 1, column 1 can now see at most 1, not 3: dry cells block "
                    "its view.")
    st = [0] * 16
    st[0] = st[15] = DRY
    st[14] = FLOODED                          # the 0 sees it
    (v,) = irreparable(board, st)
    assert v.rule == "canal.over" and v.cells == ((3, 2), (3, 3)) and v.params["seen"] == 1
    st = [0] * 16
    st[0] = st[15] = DRY
    st[5] = st[6] = st[9] = st[10] = FLOODED  # a closed 2x2
    assert [v.rule for v in irreparable(board, st)] == ["canal.2x2"]
    st = [0] * 16
    st[0] = st[15] = DRY
    st[3] = FLOODED
    st[2] = st[7] = DRY                       # (0, 3) walled in
    st[12] = FLOODED
    (v,) = irreparable(board, st)
    assert v.rule == "canal.walled" and v.params == {"pieces": 2}
    assert "canal.walled" in RULES.ids


def test_trace_on_random_small_boards_with_hidden_and_missing_numbers() -> None:
    """Any board with an answer, unique or not, with '?' numbers or none: the trace still
    decides every cell as that answer has it, a step at a time."""
    rng = random.Random(3)
    for _ in range(150):
        h, w = rng.randint(1, 5), rng.randint(1, 5)
        mask = random_canal(rng, h, w, rng.random())
        full = full_board(h, w, mask)
        cells = full.clue_cells()
        keep = set(rng.sample(cells, rng.randint(0, len(cells))))
        grid = [list(row) for row in with_clues(full, keep).clues]
        for r, c in sorted(keep)[:1]:
            if rng.random() < 0.3:
                grid[r][c] = "?"
        board = Board(h, w, tuple(tuple(row) for row in grid))
        answer = Answer(h, w, mask)
        steps = trace(board, answer)
        rows = answer.rows()
        decided = set()
        for step in steps:
            assert step["why"] and 1 <= len(step["cells"]) <= MAX_CELLS
            for (r, c), st in zip(step["cells"], step["states"], strict=True):
                assert (r, c) not in decided and (rows[r][c] == "#") == (st == "flooded")
                decided.add((r, c))
        assert len(decided) == h * w - len(board.clue_cells())


def test_irreparable_states_have_no_completion() -> None:
    """Soundness by brute force: on small boards with many answers, whenever irreparable()
    reports something for a partial state, no answer of the board agrees with its marks;
    and the answers' own partial states report nothing."""
    rng = random.Random(5)
    reported = 0
    for _ in range(12):
        h, w = rng.randint(3, 5), rng.randint(3, 5)
        mask = random_canal(rng, h, w, 0.5)
        full = full_board(h, w, mask)
        keep = set(rng.sample(full.clue_cells(), max(1, len(full.clue_cells()) // 3)))
        board = with_clues(full, keep)
        sols = [a.mask for a in brute(board, limit=100_000).solutions]
        free = [i for i in range(h * w) if board.clues[i // w][i % w] is None]
        for _ in range(60):
            st = [DRY if board.clues[i // w][i % w] is not None else 0 for i in range(h * w)]
            for i in rng.sample(free, rng.randint(1, len(free))):
                st[i] = rng.choice((FLOODED, DRY))
            fits = any(all(st[i] == 0 or (st[i] == FLOODED) == bool(m >> i & 1) for i in free)
                       for m in sols)
            if irreparable(board, st):
                reported += 1
                assert not fits, (board, st)
        for m in sols[:5]:
            st = [DRY if board.clues[i // w][i % w] is not None
                  else (FLOODED if m >> i & 1 else DRY) for i in range(h * w)]
            for i in rng.sample(free, len(free) // 2):
                st[i] = 0
            assert irreparable(board, st) == []
    assert reported > 50
