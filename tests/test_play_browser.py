"""The play pages in a real browser (Debian chromium through Playwright).

For one board of each puzzle: enter the true answer by clicks and see the solved state;
enter a wrong answer and see the rules Python reports highlighted; reload and find the
progress kept; undo and redo by keyboard and buttons; a hint from the trace and a hint
pointing at a wrong mark. The dist is the play pages alone (site_builder.play
.standalone_files) served over http from a thread, because ES modules need http.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import json
import os
import random
import shutil
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from site_builder import play

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAMES = {"canal-view": {"en": "Canal View", "ja": "カナルビュー"},
         "sukoro": {"en": "Sukoro", "ja": "数コロ"}}
RUNGS = {"canal-view": ("arm", "block", "flow", "search"),
         "sukoro": ("deg", "neq", "conn", "probe", "search")}
PKG = {"canal-view": "solvers.canal_view", "sukoro": "solvers.sukoro"}
ON = {"canal-view": "#", "sukoro": None}   # None: any digit is "on"
STATE_WORDS = {"canal-view": ("flooded", "dry"), "sukoro": ("number", "blank")}

sync_api = pytest.importorskip("playwright.sync_api")


def _puzzle(slug: str):
    try:
        return importlib.import_module(PKG[slug]).PUZZLE
    except (ImportError, AttributeError):
        return SimpleNamespace(slug=slug, names=NAMES[slug], rungs=RUNGS[slug])


def _violations(slug: str):
    try:
        p = importlib.import_module(PKG[slug]).PUZZLE
        return p.board_from_json, p.answer_from_json, p.violations
    except (ImportError, AttributeError):
        b = importlib.import_module(PKG[slug] + ".board")
        return b.Board.from_json, b.Answer.from_json, b.violations


def _fixture_bank(slug: str) -> dict:
    """A one-board bank from the checker tests' generator, with a two-step trace."""
    from test_play_checkers import GEN

    rng = random.Random(11)
    for _ in range(200):
        board, answer = GEN[slug][0](rng)
        if board["h"] >= 4 and board["w"] >= 4 and sum(
                ch != "." for row in answer["rows"] for ch in row) >= 4:
            break
    h, w = board["h"], board["w"]
    on_word, off_word = STATE_WORDS[slug]
    free = [(r, c) for r in range(h) for c in range(w) if board["clues"][r][c] is None]
    state = {(r, c): on_word if answer["rows"][r][c] != "." else off_word for r, c in free}
    first, rest = free[:3], free[3:]
    trace = [{"rung": RUNGS[slug][0], "cells": [list(x) for x in first],
              "states": [state[x] for x in first], "en": "First step sentence.",
              "ja": "最初の手順の文。"},
             {"rung": "search", "cells": [list(x) for x in rest],
              "states": [state[x] for x in rest], "en": "The rest from the answer.",
              "ja": "残りは答えから。"}]
    clues = sum(v is not None for row in board["clues"] for v in row)
    return {"boards": [{"id": f"{h}x{w}-01", "size": f"{h}x{w}", "h": h, "w": w,
                        "grade": "search", "clues": clues,
                        "url": f"https://puzz.link/p?fixture/{w}/{h}/", "board": board,
                        "answer": answer, "trace": trace}]}


def _stage_bank(slug: str) -> dict | None:
    """Two boards of the smallest size from the package's own bank stage, if it has one."""
    try:
        p = importlib.import_module(PKG[slug]).PUZZLE
        stage = next(s for s in p.stages if s.name == "bank")
        params = dict(stage.params)
        sizes = params.get("sizes")
        if isinstance(sizes, dict):             # {"8x8": 36, ...}
            params["sizes"] = {next(iter(sizes)): 2}
        elif isinstance(sizes, list) and "count" in params:
            params["sizes"] = sizes[:1]
            params["count"] = 2
        else:
            return None
        data = stage.run({}, params, lambda *a: None)
        return data if data.get("boards") else None
    except Exception:  # noqa: BLE001 - any trouble: fall back to the fixture
        return None


@functools.cache
def _bank(slug: str) -> dict:
    """The real bank when built; else the package's bank stage on a small size; else a
    one-board fixture (so these tests run before the puzzle packages land).
    PLAY_CONTENT=<dir> reads the bank from another content folder."""
    path = Path(os.environ.get("PLAY_CONTENT", ROOT / "content")) / slug / "bank.json"
    if path.exists():
        data = json.loads(path.read_text())["data"]
        if data.get("boards"):
            return data
    return _stage_bank(slug) or _fixture_bank(slug)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive, as a real server would

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    banks = {slug: (_puzzle(slug), _bank(slug)) for slug in PKG}
    play.write_files(out, play.standalone_files(ROOT, banks))
    handler = functools.partial(_Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", banks
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _pick(bank: dict) -> dict:
    """The first board of the smallest size (quick to click through)."""
    return min(bank["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))


def _click(page, r: int, c: int, times: int = 1) -> None:
    box = page.locator("#board-svg").bounding_box()
    vb = page.eval_on_selector("#board-svg", "s => s.viewBox.baseVal.width")
    scale = box["width"] / vb
    x = box["x"] + (2 + c * 40 + 20) * scale
    y = box["y"] + (2 + r * 40 + 20) * scale
    for _ in range(times):
        page.mouse.click(x, y)


def _states(page) -> list[int]:
    return page.evaluate("window.__play.states")


def _open(page, base: str, lang: str, slug: str, bid: str) -> None:
    page.goto(f"{base}/{lang}/{slug}/play/index.html#{bid}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(f"document.body.dataset.board === {json.dumps(bid)}")


def _is_on(slug: str, ch: str) -> bool:
    return ch != "."


def _grid_answer(slug: str, board: dict, states: list[int]) -> dict:
    """The answer Python sees for player states (undecided = dry/blank, live counts)."""
    h, w = board["h"], board["w"]
    on = [[states[r * w + c] == 1 for c in range(w)] for r in range(h)]
    rows = []
    for r in range(h):
        s = ""
        for c in range(w):
            if not on[r][c]:
                s += "."
            elif slug == "canal-view":
                s += "#"
            else:
                s += str(sum(1 for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                             if 0 <= r + dr < h and 0 <= c + dc < w and on[r + dr][c + dc]))
        rows.append(s)
    return {"rows": rows}


@pytest.mark.parametrize("slug", sorted(PKG))
def test_play_page(slug, served, browser):
    base, banks = served
    entry = _pick(banks[slug][1])
    board, answer = entry["board"], entry["answer"]
    h, w = board["h"], board["w"]
    free_on = [(r, c) for r in range(h) for c in range(w)
               if board["clues"][r][c] is None and _is_on(slug, answer["rows"][r][c])]
    ctx = browser.new_context(viewport={"width": 420, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _open(page, base, "en", slug, entry["id"])
        assert page.locator("#pzl-link").get_attribute("href") == entry["url"]
        assert page.locator("#board-svg").get_attribute("role") == "img"
        assert page.locator("#board-desc").inner_text().strip()

        # A hint on the empty board is the first trace step that is not yet on the board.
        page.click("#hint")
        step = next(s for s in entry["trace"] if any(
            board["clues"][r][c] is None for r, c in s["cells"]))
        assert step["en"] in page.locator("#hint-out").inner_text()
        hinted = {(int(g.get_attribute("data-r")), int(g.get_attribute("data-c")))
                  for g in page.locator("#board .cell.hint").all()}
        assert hinted == {tuple(x) for x in step["cells"]}

        # Mark that step as the hint says: the next hint is a later step.
        on_word = STATE_WORDS[slug][0]
        for (r, c), state in zip(step["cells"], step["states"]):
            if board["clues"][r][c] is None:
                _click(page, r, c, 1 if state == on_word else 2)
        st = _states(page)
        want_state = {on_word: 1}
        nxt = next((s for s in entry["trace"] if any(
            st[r * w + c] != want_state.get(x, 2) for (r, c), x in zip(s["cells"], s["states"]))),
            None)
        page.click("#hint")
        if nxt is not None:
            assert nxt is not step
            assert nxt["en"] in page.locator("#hint-out").inner_text()
            hinted = {(int(g.get_attribute("data-r")), int(g.get_attribute("data-c")))
                      for g in page.locator("#board .cell.hint").all()}
            assert hinted == {tuple(x) for x in nxt["cells"]}
        page.click("#reset")

        # The true answer by clicks: solved.
        for r, c in free_on:
            _click(page, r, c)
        page.wait_for_selector("#play-solved:not([hidden])")
        assert page.locator("#board.solved").count() == 1
        page.click("#check")
        assert page.locator("#check-out .ok").count() == 1
        page.click("#hint")
        assert page.locator("#hint-out .ok").count() == 1

        # Undo and redo, by keyboard and by buttons.
        solved_states = _states(page)
        last = free_on[-1][0] * w + free_on[-1][1]
        page.locator("#board").focus()
        page.keyboard.press("Control+z")
        assert _states(page)[last] == 0
        assert page.locator("#undo").is_enabled() == (len(free_on) > 1)
        page.keyboard.press("Control+y")
        assert _states(page) == solved_states
        assert page.locator("#play-solved").is_visible()
        page.click("#undo")
        assert _states(page)[last] == 0
        page.click("#redo")
        assert _states(page) == solved_states
        assert page.locator("#redo").is_disabled()

        # A wrong answer: one click turns an answer cell from on to the off mark.
        b_from, a_from, violations = _violations(slug)
        for r0, c0 in free_on:
            st = list(solved_states)
            st[r0 * w + c0] = 2
            want = violations(b_from(board), a_from(_grid_answer(slug, board, st)))
            if want:
                break
        assert want, "removing a cell from the answer should break a rule"
        _click(page, r0, c0)
        assert _states(page) == st
        assert page.locator("#play-solved").is_hidden()
        page.click("#check")
        rules = [li.get_attribute("data-rule") for li in page.locator("#check-out li").all()]
        assert rules == [v.rule for v in want]
        bad = {(int(g.get_attribute("data-r")), int(g.get_attribute("data-c")))
               for g in page.locator("#board .cell.bad").all()}
        assert bad == {tuple(cell) for v in want for cell in v.cells}

        # The hint now points at the wrong mark.
        page.click("#hint")
        assert page.locator("#hint-out .wrong").count() == 1
        bad = [(int(g.get_attribute("data-r")), int(g.get_attribute("data-c")))
               for g in page.locator("#board .cell.bad").all()]
        assert bad == [(r0, c0)]

        # Progress survives a reload; the timer runs.
        page.wait_for_timeout(50)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert _states(page) == st
        assert page.locator("#timer").inner_text().strip()

        # Keyboard input: cursor to the wrong cell, mark it on again -> solved.
        page.locator("#board").focus()
        for _ in range(h):
            page.keyboard.press("ArrowUp")
        for _ in range(w):
            page.keyboard.press("ArrowLeft")
        for _ in range(r0):
            page.keyboard.press("ArrowDown")
        for _ in range(c0):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")   # off mark -> undecided
        page.keyboard.press("Space")   # undecided -> on
        page.wait_for_selector("#play-solved:not([hidden])")

        # Reset clears every mark and can be undone.
        page.click("#reset")
        assert all(s == 0 or board["clues"][i // w][i % w] is not None
                   for i, s in enumerate(_states(page)))
        page.click("#undo")
        page.wait_for_selector("#play-solved:not([hidden])")

        # The Japanese page loads the same board with the same progress.
        _open(page, base, "ja", slug, entry["id"])
        assert page.locator("html").get_attribute("lang") == "ja"
        assert page.locator("#play-solved").is_visible()
        assert "正解" in page.locator("#play-solved").inner_text()
        assert not errors, errors
    finally:
        ctx.close()


def test_controls_are_labelled(served, browser):
    base, banks = served
    slug = min(PKG)
    entry = _pick(banks[slug][1])
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        _open(page, base, "en", slug, entry["id"])
        for el in page.locator("button, select, #board").all():
            label = el.get_attribute("aria-label") or el.evaluate(
                "e => (e.labels && e.labels[0] && e.labels[0].textContent) || ''")
            assert label.strip(), el.evaluate("e => e.outerHTML")
        # The picker lists every board of the bank.
        assert page.locator("#pick-board option").count() == len(banks[slug][1]["boards"])
    finally:
        ctx.close()


def test_drag_paints_cells_as_one_undo_step(served, browser):
    base, banks = served
    slug = "canal-view"
    entry = _pick(banks[slug][1])
    board = entry["board"]
    w = board["w"]
    # The longest run of clue-free cells in one row.
    best: list[tuple[int, int]] = []
    for r in range(board["h"]):
        run: list[tuple[int, int]] = []
        for c in range(w):
            run = run + [(r, c)] if board["clues"][r][c] is None else []
            if len(run) > len(best):
                best = run
    assert len(best) >= 2
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        _open(page, base, "en", slug, entry["id"])
        box = page.locator("#board-svg").bounding_box()
        scale = box["width"] / page.eval_on_selector("#board-svg", "s => s.viewBox.baseVal.width")

        def at(r, c):
            return box["x"] + (22 + c * 40) * scale, box["y"] + (22 + r * 40) * scale

        page.mouse.move(*at(*best[0]))
        page.mouse.down()
        for cell in best[1:]:
            page.mouse.move(*at(*cell), steps=3)
        page.mouse.up()
        st = _states(page)
        assert [st[r * w + c] for r, c in best] == [1] * len(best)
        page.click("#undo")
        st = _states(page)
        assert [st[r * w + c] for r, c in best] == [0] * len(best)
        assert page.locator("#undo").is_disabled()
    finally:
        ctx.close()
