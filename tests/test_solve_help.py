"""Constructor help on the solve page (site_builder.solve_web.help_text), in CPython: the
suggestions for a board with two or more answers and the clues a unique board can spare,
each checked here against the solver independently of how help_text found it."""

from __future__ import annotations

import json
from pathlib import Path

from site_builder.solve import solve_bounded
from site_builder.solve_web import construct, help_text
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
# a banked 6×6 Sukoro (6x6-01) with the clues at (4, 0) and (4, 1) taken away: two or
# more answers, and no single clue from either of the first two answers on a differing
# cell makes it unique, but a pair does. Which two answers come first is the engine's
# choice, so a change of engine (or of its encoding) can move them; the assertions below
# then name the board to use instead.
PAIR_BOARD = "https://puzz.link/p?sukoro/6/6/b2b13b1x1a"


def _answers(slug: str, board_json: dict) -> int:
    puzzle = registry.get(slug)
    res = solve_bounded(puzzle, puzzle.board_from_json(board_json), limit=2, grade=False,
                        timeout=30)
    return len(res.solutions)


def _another_pair_board() -> str:
    """The first banked 6×6 board, less two clues, that the helper answers with a pair
    and no single clue today (for the message when PAIR_BOARD no longer is one)."""
    import itertools

    slug = "sukoro"
    puzzle, helper = registry.get(slug), construct(slug)
    bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]
    for e in bank:
        if e["board"]["h"] != 6:
            continue
        for p, q in itertools.combinations(helper.clues(e["board"]), 2):
            url = puzzle.encode(puzzle.board_from_json(
                helper.without(helper.without(e["board"], p), q)))
            out = help_text(slug, url, budget=60)
            if out["complete"] and out["solutions"] >= 2 and not out["suggestions"] \
                    and out["pairs"]:
                return f"{url} ({e['id']} less {p} and {q})"
    return "none found"


def test_no_single_clue_so_a_proved_pair() -> None:
    slug = "sukoro"
    puzzle, helper = registry.get(slug), construct(slug)
    out = help_text(slug, PAIR_BOARD, budget=60)
    assert out["complete"] and out["solutions"] == 2
    bj = puzzle.decode(PAIR_BOARD).to_json()
    res = solve_bounded(puzzle, puzzle.decode(PAIR_BOARD), limit=2, grade=False)
    a, b = (s.to_json() for s in res.solutions)
    diff = helper.differ(a, b)
    assert [tuple(c) for c in out["diff"]] == diff
    # "no single clue": every clue a differing cell could take from either answer leaves
    # a second answer
    singles = [c for cell in diff for ans in (a, b)
               if (c := helper.clue_from(bj, ans, cell)) is not None]
    assert singles and all(_answers(slug, c) >= 2 for c in singles) \
        and out["suggestions"] == [], f"not a pair board now; use {_another_pair_board()}"
    # the pair: two differing cells, both values from one answer, and unique with both
    assert len(out["pairs"]) == 1, f"no proved pair now; use {_another_pair_board()}"
    [pair] = out["pairs"]
    c1, c2 = (tuple(c) for c in pair["cells"])
    assert c1 in diff and c2 in diff and c1 != c2
    assert any(helper.clue_from(helper.clue_from(bj, ans, c1) or bj, ans, c2) == pair["board"]
               for ans in (a, b))
    assert _answers(slug, pair["board"]) == 1
    assert pair["url"] == puzzle.encode(puzzle.board_from_json(pair["board"]))
    assert out["pairCells"] == min(8, len(diff))


def test_a_single_clue_when_one_does_and_no_pair_then() -> None:
    slug = "sukoro"
    bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]
    e = next(b for b in bank if b["id"] == "6x6-01")
    helper, puzzle = construct(slug), registry.get(slug)
    cand = helper.without(e["board"], (0, 5))
    out = help_text(slug, puzzle.encode(puzzle.board_from_json(cand)), budget=60)
    assert out["solutions"] == 2 and out["suggestions"]
    assert "pairs" not in out
    for sug in out["suggestions"]:
        assert _answers(slug, sug["board"]) == 1


def test_the_clues_a_unique_board_can_spare() -> None:
    slug = "sukoro"
    bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]
    e = next(b for b in bank if b["id"] == "6x6-01")
    helper, puzzle = construct(slug), registry.get(slug)
    out = help_text(slug, e["url"], budget=60)
    assert out["complete"] and out["solutions"] == 1
    spare = {tuple(r["cell"]) for r in out["removable"]}
    clues = helper.clues(e["board"])
    assert out["clues"] == len(clues)
    for cell in clues:
        n = _answers(slug, helper.without(e["board"], cell))
        assert (n == 1) == (cell in spare), cell
    for r in out["removable"]:
        assert r["url"] == puzzle.encode(puzzle.board_from_json(r["board"]))
