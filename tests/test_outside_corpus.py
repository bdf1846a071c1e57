"""The outside corpus (benchmarks/outside/): boards drawn by answer-set models that share
no code with our solvers. Our solver must find every board, at every size, unique with
the stored answer (ungraded where the puzzle can skip the grade; benchmarks/hard.py and
peers.py time them); the generator must draw the same board twice from one seed, an
answer our rule check accepts, and a minimal clue set.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from solvers import registry

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = ROOT / "benchmarks" / "outside"
sys.path.insert(0, str(ROOT / "benchmarks"))

# the generator's own test draws Sashigane at 5×5: clingo's L-shape model is slow to
# prove larger boards unique
SLOW = ("sashigane",)
# (a drawer's part files, ".part-*", are boards not merged yet)
FILES = sorted(p for p in OUTSIDE.glob("*.json") if not p.name.startswith("."))


def test_corpus_is_there():
    got = {p.name.rsplit("-", 1)[0] for p in FILES if p.stem.endswith("-20x20")}
    assert {"canal-view", "sukoro", "nanro", "sashigane"} <= got, f"20×20 outside files: {sorted(got)}"





@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_file_reads(path: Path):
    """Every size (the 30×30 and 40×40 ones too, whose proofs are benchmarks/hard.py's):
    the file is what hard.py and peers.py read, each board decodes to its URL and the
    model's answer obeys our rule check. No solving, so it stays cheap."""
    data = json.loads(path.read_text())
    slug, size = path.stem.rsplit("-", 1)
    assert (data["schema"], data["slug"], data["size"]) == (1, slug, size)
    assert data["boards"]
    h, w = (int(x) for x in size.split("x"))
    puzzle = registry.get(slug)
    ids = [e["id"] for e in data["boards"]]
    assert len(set(ids)) == len(ids) and ids == sorted(ids)
    for e in data["boards"]:
        assert (e["slug"], e["size"]) == (slug, size), e["id"]
        assert (e["board"]["h"], e["board"]["w"]) == (h, w), e["id"]
        board = puzzle.board_from_json(e["board"])
        assert puzzle.encode(board) == e["url"], e["id"]
        assert puzzle.violations(board, puzzle.answer_from_json(e["answer"])) == [], e["id"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_our_solver_agrees(path: Path):
    data = json.loads(path.read_text())
    assert len(data["boards"]) >= 5
    for e in data["boards"]:
        puzzle = registry.get(e["slug"])
        board = puzzle.board_from_json(e["board"])
        kw = {"grade": False} if puzzle.ungraded else {}
        res = puzzle.solve(board, limit=2, **kw)
        assert len(res.solutions) == 1, f"{e['id']}: {len(res.solutions)} answers"
        assert res.solutions[0] == puzzle.answer_from_json(e["answer"]), e["id"]
        assert puzzle.encode(board) == e["url"], e["id"]


@pytest.mark.parametrize("slug", ["canal-view", "sukoro", "nanro", "sashigane"])
def test_generator_is_deterministic_valid_and_minimal(slug: str):
    pytest.importorskip("clingo")
    import outside

    size = "5x5" if slug in SLOW else "7x7"
    a = outside.make_board(slug, size, 3)
    assert a == outside.make_board(slug, size, 3)
    puzzle = registry.get(slug)
    board = puzzle.board_from_json(a["board"])
    answer = puzzle.answer_from_json(a["answer"])
    assert puzzle.violations(board, answer) == []
    kw = {"grade": False} if puzzle.ungraded else {}
    res = puzzle.solve(board, limit=2, **kw)
    assert res.solutions == [answer]
    # minimal: without any one clue, our solver finds a second answer
    data = a["board"]
    key = "cells" if "cells" in data else "clues"
    empty = "." if key == "cells" else None
    spots = [(r, c) for r, row in enumerate(data[key]) for c, v in enumerate(row)
             if v != empty]
    assert spots and len(spots) == a["clues"]
    for r, c in spots:
        rows = [list(row) for row in data[key]]
        rows[r][c] = empty
        fewer = puzzle.board_from_json({**data, key: rows})
        assert len(puzzle.solve(fewer, limit=2, **kw).solutions) == 2, (slug, r, c)


@pytest.mark.parametrize("slug", ["canal-view", "sukoro"])
def test_shortcuts_keep_the_verdicts(slug: str, monkeypatch: pytest.MonkeyPatch):
    """The removal's shortcuts (second answers kept, a hard test moved to a control of
    its own) may change how long a draw takes, never its board: with a conflict budget
    of 0 every clingo test runs in its own control with the clues as facts, and the
    board is the one the shared control draws."""
    pytest.importorskip("clingo")
    import outside

    made = []
    control = outside._control
    monkeypatch.setattr(outside, "_control",
                        lambda seed, rand=True, config="auto":
                        made.append(rand) or control(seed, rand, config))
    shared = outside.make_board(slug, "7x7", 3)
    assert made.count(False) == 1              # one control for every test
    monkeypatch.setattr(outside, "CONFLICTS", 0)
    made.clear()
    assert outside.make_board(slug, "7x7", 3) == shared
    assert made.count(False) > 10              # the tests moved to controls of their own
