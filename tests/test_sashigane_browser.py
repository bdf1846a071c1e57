"""Sashigane's play page in chromium: the true answer drawn by drags along grid lines is
called solved, and a line that cuts a piece is named by its rule in Python's words."""

from __future__ import annotations

import pytest
from play_support import ARGS, CHROMIUM, bank, dist_files, serve_files, singular
from playwright import sync_api

from solvers.sashigane.board import Answer, Board
from solvers.sashigane.partial import irreparable
from solvers.sashigane.rules import violations

SLUG = "sashigane"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("dist"), dist_files((SLUG,))) as base:
        yield base


@pytest.fixture(scope="module")
def page(served):
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        ctx = b.new_context()
        yield ctx.new_page(), served
        ctx.close()
        b.close()


def _corner(pg, r: int, c: int) -> tuple[float, float]:
    box = pg.locator("#board-svg").bounding_box()
    scale = box["width"] / pg.eval_on_selector("#board-svg", "s => s.viewBox.baseVal.width")
    return box["x"] + (2 + c * 40) * scale, box["y"] + (2 + r * 40) * scale


def _stroke(pg, points: list[tuple[int, int]]) -> None:
    pg.mouse.move(*_corner(pg, *points[0]))
    pg.mouse.down()
    for p in points[1:]:
        pg.mouse.move(*_corner(pg, *p), steps=4)
    pg.mouse.up()


def _runs(vert: list[list[int]], horz: list[list[int]]) -> list[list[tuple[int, int]]]:
    """The drawn lines as strokes between lattice points: maximal straight runs."""
    strokes = []
    h, w = len(vert), len(vert[0]) + 1
    for c in range(w - 1):                 # vertical lines right of column c
        r = 0
        while r < h:
            if vert[r][c]:
                start = r
                while r < h and vert[r][c]:
                    r += 1
                strokes.append([(k, c + 1) for k in range(start, r + 1)])
            else:
                r += 1
    for r in range(h - 1):                 # horizontal lines below row r
        c = 0
        while c < w:
            if horz[r][c]:
                start = c
                while c < w and horz[r][c]:
                    c += 1
                strokes.append([(r + 1, k) for k in range(start, c + 1)])
            else:
                c += 1
    return strokes


def _open(pg, base: str, bid: str) -> None:
    pg.goto(f"{base}/en/{SLUG}/play/index.html#{bid}")
    pg.wait_for_selector("body[data-ready='1']")
    pg.wait_for_function(f"document.body.dataset.board === '{bid}'")


def test_drag_the_answer_then_a_wrong_piece(page):
    pg, base = page
    entry = min(bank(SLUG)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))
    board, answer = Board.from_json(entry["board"]), Answer.from_json(entry["answer"])
    vert, horz = answer.borders()
    _open(pg, base, entry["id"])
    assert "Size budget" in pg.locator("#play-readout").inner_text()
    for stroke in _runs(vert, horz):
        _stroke(pg, stroke)
    pg.click("#check")
    out = pg.locator("#check-out").inner_text()
    assert "olved" in out, out

    # Erase one line between two pieces: they merge, and redrawing the line repairs
    # that, so Check reports nothing broken (the partial check), only what is undecided.
    r, c = next((r, c) for r in range(board.h) for c in range(board.w - 1) if vert[r][c])
    _stroke(pg, [(r, c + 1), (r + 1, c + 1)])
    states = pg.evaluate("window.__play.states")
    assert irreparable(board, states) == []
    pg.click("#check")
    out = pg.locator("#check-out").inner_text()
    assert "olved" not in out and "undecided" in out, out
    _stroke(pg, [(r, c + 1), (r + 1, c + 1)])

    # A line across a piece's arm cuts it in two: the part that lost its circle or its
    # arrow can never be a piece, and Check names it in Python's words.
    p = answer.pieces
    r, c = next((r, c) for r in range(board.h) for c in range(board.w - 1)
                if p[r * board.w + c] == p[r * board.w + c + 1])
    _stroke(pg, [(r, c + 1), (r + 1, c + 1)])
    states = pg.evaluate("window.__play.states")
    wrong = irreparable(board, states)
    assert wrong and not violations(board, answer)
    pg.click("#check")
    out = pg.locator("#check-out").inner_text()
    assert singular(wrong[0].en, "en") in out, (wrong[0].en, out)
