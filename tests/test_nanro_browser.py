"""Nanro's play page in a real browser (Debian chromium through Playwright), with the
counting assist on (the optional help: numbered cells by clicks, their counts written by
the page): the true answer entered by clicks is solved, each numbered cell shows its
region's live count, and an extra number is named by the rule Python reports, in
Python's words. Without the assist the same clicks leave the board unsolved."""

from __future__ import annotations

import pytest
from play_support import ARGS, CHROMIUM, bank, dist_files, puzzle, serve_files, singular

sync_api = pytest.importorskip("playwright.sync_api")

SLUG = "nanro"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("dist"), dist_files((SLUG,))) as base:
        yield base


def _click(page, w: int, i: int) -> None:
    page.locator("#board-svg").scroll_into_view_if_needed()
    box = page.locator("#board-svg").bounding_box()
    scale = box["width"] / page.eval_on_selector("#board-svg", "s => s.viewBox.baseVal.width")
    x, y = i % w + 0.5, i // w + 0.5
    page.mouse.click(box["x"] + (2 + x * 40) * scale, box["y"] + (2 + y * 40) * scale)


def test_true_answer_by_clicks_live_counts_and_a_wrong_number(served):
    p = puzzle(SLUG)
    entry = min(bank(SLUG)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))
    board, answer = entry["board"], entry["answer"]
    h, w = board["h"], board["w"]
    regions = [v for row in board["regions"] for v in row]
    on = [ch == "#" for row in answer["rows"] for ch in row]
    given = [v is not None for row in board["clues"] for v in row]
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 480, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{served}/en/{SLUG}/play/index.html#{entry['id']}")
        page.wait_for_selector("body[data-ready='1']")
        # the assist is off by default: a click selects, a second click marks numbered,
        # and numbered marks alone do not solve
        assert page.locator("#assist").is_checked() is False
        free = [i for i in range(h * w) if on[i] and not given[i]]
        for i in free:
            _click(page, w, i)
            _click(page, w, i)
        assert all(page.evaluate("window.__play.states")[i] == 1 for i in free)
        assert page.locator("#play-solved").is_hidden()
        page.click("#reset")
        page.check("#assist")
        for i in free:
            _click(page, w, i)
        page.wait_for_selector("#play-solved:not([hidden])")
        # every numbered cell the player entered shows its region's count
        for i in free:
            want = sum(1 for j in range(h * w) if on[j] and regions[j] == regions[i])
            ink = page.locator(f'#board .cell[data-r="{i // w}"][data-c="{i % w}"] .ink')
            assert ink.text_content() == str(want)
        # one number too many (the blank cells still undecided): the page names what
        # Python's irreparable() names, and that includes the extra number
        extra = next(i for i in range(h * w) if not on[i])
        _click(page, w, extra)
        assert page.locator("#play-solved").is_hidden()
        states = page.evaluate("window.__play.states")
        assert max(states) <= 2     # numbered marks and blanks only: what Python reads
        want = p.irreparable(p.board_from_json(board), states)
        assert want and any(divmod(extra, w) in v.cells for v in want)
        page.click("#check")
        items = page.locator("#check-out .first[data-rule], #check-out .more li").all()
        assert [li.get_attribute("data-rule") for li in items] == [v.rule for v in want]
        for li, v in zip(items, want, strict=True):
            # (the rest sit in a closed <details>, so read the text, not what is shown)
            assert (li.text_content() or "").strip().startswith(singular(v.en, "en"))
        assert not errors, errors
        browser.close()
