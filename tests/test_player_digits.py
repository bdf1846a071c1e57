"""The player's second pass in a real browser (Debian chromium through Playwright): Nanro
and Sukoro played with digits (typed on a laptop, the number pad on a phone), nested
trial levels, a position shared by its address, the move history after a reload, the
solved banner where the eye is, phone sizes and dark-mode colours. One page load per
scenario, one browser for the module."""

from __future__ import annotations

import pytest
from play_support import bank, chromium, dist_files, serve_files

DIGITS = ("nanro", "sukoro")
SLUGS = ("nanro", "sukoro", "sashigane", "canal-view")
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("dist"), dist_files(SLUGS)) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _smallest(slug: str) -> dict:
    return min(bank(slug)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))


def _largest(slug: str) -> dict:
    return max(bank(slug)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))


def _open(ctx, base: str, slug: str, bid: str, lang: str = "en"):
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/{lang}/{slug}/play/index.html#{bid}")
    page.wait_for_selector("body[data-ready='1']")
    return page, errors


def _cell_point(page, w: int, i: int) -> tuple[float, float]:
    page.locator(f'#board .cell[data-r="{i // w}"][data-c="{i % w}"]').scroll_into_view_if_needed()
    box = page.locator(f'#board .cell[data-r="{i // w}"][data-c="{i % w}"] .hl').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _digits_to_write(page) -> list[tuple[int, int]]:
    """(cell, digit) for every free cell the solution numbers, in reading order."""
    sol = page.evaluate("window.__play.solution")
    fixed = page.evaluate("window.__play.fixed")
    return [(i, s - 2) for i, s in enumerate(sol) if s > 2 and fixed[i] is None]


def _in_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    vp = page.viewport_size
    return (box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vp["height"]
            and box["x"] >= 0 and box["x"] + box["width"] <= vp["width"])


@pytest.mark.parametrize("slug", DIGITS)
def test_solve_by_typing_digits(slug, served, browser):
    entry = _smallest(slug)
    w = entry["board"]["w"]
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page, errors = _open(ctx, served, slug, entry["id"])
        todo = _digits_to_write(page)
        assert todo
        # a numbered mark alone (the old way) does not solve the board
        sol = page.evaluate("window.__play.solution")
        page.evaluate("s => window.__play.put(s)", [1 if s > 2 else 0 for s in sol])
        assert page.evaluate("window.__play.solved") is False
        page.click("#reset")
        for i, d in todo:
            page.mouse.click(*_cell_point(page, w, i))
            page.keyboard.press(str(d))
        page.wait_for_selector("#play-solved:not([hidden])")
        assert _in_viewport(page, "#play-solved")
        assert "Solved" in page.locator("#play-live").inner_text()
        # Backspace clears the selected (last) cell; typing its digit again solves
        last, d = todo[-1]
        page.keyboard.press("Backspace")
        assert page.evaluate("window.__play.states")[last] == 0
        assert page.locator("#play-solved").is_hidden()
        # a wrong digit: the hint names it as a digit
        page.keyboard.press(str(d % page.evaluate("window.__play.digitMax") + 1))
        page.click("#hint")
        assert page.locator("#hint-out .wrong").count() == 1
        assert "digit" in page.locator("#hint-out").inner_text()
        # the arrow keys move: Left then Right comes back to the same cell
        page.locator("#board").focus()
        page.keyboard.press("ArrowLeft" if last % w else "ArrowRight")
        page.keyboard.press("ArrowRight" if last % w else "ArrowLeft")
        page.keyboard.press(str(d))
        page.wait_for_selector("#play-solved:not([hidden])")
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("slug", DIGITS)
def test_solve_by_number_pad_on_a_phone(slug, served, browser):
    entry = _largest(slug)
    w = entry["board"]["w"]
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page, errors = _open(ctx, served, slug, entry["id"], "ja")
        todo = _digits_to_write(page)
        for i, d in todo:
            page.touchscreen.tap(*_cell_point(page, w, i))
            page.locator(f'#play-pad button[data-state="{d + 2}"]').tap()
        # a blank mark from the pad on a cell the solution leaves blank
        sol = page.evaluate("window.__play.solution")
        fixed = page.evaluate("window.__play.fixed")
        blank = next(i for i, s in enumerate(sol) if s == 2 and fixed[i] is None)
        page.touchscreen.tap(*_cell_point(page, w, blank))
        page.locator('#play-pad button[data-state="2"]').tap()
        assert page.evaluate("window.__play.states")[blank] == 2
        page.wait_for_selector("#play-solved:not([hidden])")
        assert _in_viewport(page, "#play-solved")
        assert "正解" in page.locator("#play-solved").inner_text()
        assert not errors, errors
    finally:
        ctx.close()


def test_nested_trial_share_by_address_and_undo_after_reload(served, browser):
    slug = "sukoro"
    entry = _smallest(slug)
    w = entry["board"]["w"]
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page, errors = _open(ctx, served, slug, entry["id"])
        free = [i for i, f in enumerate(page.evaluate("window.__play.fixed")) if f is None]
        a, b, c = free[:3]

        def put(i: int, key: str) -> None:
            page.mouse.click(*_cell_point(page, w, i))
            page.keyboard.press(key)

        def st() -> list[int]:
            return page.evaluate("window.__play.states")

        put(a, "x")
        page.click("#trial")
        put(b, "2")
        page.click("#trial")
        assert page.locator("#trial-level").inner_text() == "Trial level 2"
        put(c, "3")
        assert page.locator("#board .cell.trial.top").count() == 1
        page.click("#trial-drop")                 # the inner level goes, the outer stays
        assert (st()[a], st()[b], st()[c]) == (2, 4, 0)
        assert page.locator("#trial-level").inner_text() == "Trial level 1"
        page.click("#trial")
        put(c, "1")
        page.click("#trial-accept")               # level 2 joins level 1
        assert page.locator("#trial-level").inner_text() == "Trial level 1"
        page.click("#trial-drop")                 # and level 1 takes both back
        assert (st()[a], st()[b], st()[c]) == (2, 0, 0)
        assert page.locator("#trial-level").is_hidden()
        put(b, "2")
        put(c, "n")
        shared = st()
        # the address carries the position: a new context opens it from the link alone
        url = page.url
        assert "&p=" in url
        other = browser.new_context(viewport=DESKTOP)
        try:
            p2 = other.new_page()
            p2.goto(url)
            p2.wait_for_selector("body[data-ready='1']")
            assert p2.evaluate("window.__play.states") == shared
            assert p2.locator("#play-status").inner_text().strip()
        finally:
            other.close()
        # the history survives a reload: Undo takes back the moves made before it
        page.goto(f"{served}/en/{slug}/play/index.html#{entry['id']}")
        page.wait_for_selector("body[data-ready='1']")
        assert st() == shared
        page.click("#undo")
        assert st()[c] == 0 and st()[b] == 4
        page.click("#undo")
        assert st()[b] == 0 and st()[a] == 2
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("slug", ("canal-view", "sashigane"))
def test_solved_banner_in_the_viewport_on_12x12(slug, served, browser):
    entry = _largest(slug)
    assert entry["board"]["h"] == 12
    ctx = browser.new_context(viewport=DESKTOP)
    try:
        page, errors = _open(ctx, served, slug, entry["id"])
        page.evaluate("window.__play.put(window.__play.solution)")
        page.wait_for_selector("#play-solved:not([hidden])")
        assert _in_viewport(page, "#play-solved")
        assert page.locator("#play-solved").get_attribute("role") == "status"
        assert "Solved" in page.locator("#play-live").inner_text()
        assert not errors, errors
    finally:
        ctx.close()


@pytest.mark.parametrize("slug", SLUGS)
def test_phone_targets_cells_and_menus(slug, served, browser):
    entry = _largest(slug)
    w = entry["board"]["w"]
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page, errors = _open(ctx, served, slug, entry["id"])
        cell = page.locator('#board .cell[data-r="0"][data-c="0"] .hl').bounding_box()
        # (issue 42: a 12-column board fits a 390 px phone, at 30 px a cell and up)
        assert cell["width"] >= 30, (slug, w, cell)
        small = page.evaluate("""() => [...document.querySelectorAll(
            '.play button, .play select, .play summary, .play a, .play .assist')]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
          .filter(([, r]) => r.height < 44).map(([n, r]) => [n, r.height])""")
        assert not small, small
        vw = PHONE["width"]
        cut = page.evaluate("""(vw) => [...document.querySelectorAll('.play select')]
          .map((e) => [e.id, e.getBoundingClientRect()])
          .filter(([, r]) => r.left < 0 || r.right > vw).map(([id]) => id)""", vw)
        assert not cut, cut
        # the page itself does not scroll sideways (a wide board scrolls in its row)
        assert page.evaluate("document.documentElement.scrollWidth") <= vw
        assert not errors, errors
    finally:
        ctx.close()


def _lum(rgb: str) -> float:
    vals = [int(x) / 255 for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in vals]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _ratio(a: str, b: str) -> float:
    x, y = sorted((_lum(a), _lum(b)), reverse=True)
    return (x + 0.05) / (y + 0.05)


def test_dark_mode_colours_and_numbers_inside_circles(served, browser):
    slug = "sashigane"
    # the board with the longest cell token: a circle with a two-digit number
    entry = max(bank(slug)["boards"], key=lambda b: (
        max(len(str(t)) for row in b["board"]["cells"] for t in row), b["id"]))
    ctx = browser.new_context(viewport=DESKTOP, color_scheme="dark")
    try:
        page, errors = _open(ctx, served, slug, entry["id"])
        bg = page.eval_on_selector("#board .bg", "e => getComputedStyle(e).fill")
        arrows = page.eval_on_selector_all("#board .arrow", "es => es.map(e => getComputedStyle(e).stroke)")
        assert arrows
        assert all(_ratio(a, bg) >= 4.5 for a in arrows), (arrows, bg)
        clue = page.eval_on_selector("#board .clue", "e => getComputedStyle(e).fill")
        assert _ratio(clue, bg) >= 4.5
        btn = page.eval_on_selector("#check", "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        assert _ratio(*btn) >= 4.5, btn
        # every number sits inside its circle
        spill = page.evaluate("""() => [...document.querySelectorAll('#board .cell')].flatMap((g) => {
            const c = g.querySelector('circle.ring-given'), t = g.querySelector('text.clue');
            if (!c || !t || !t.textContent) return [];
            const a = c.getBoundingClientRect(), b = t.getBBox(), m = t.getScreenCTM();
            const w = b.width * m.a;
            return w > a.width * 0.9 ? [[t.textContent, w, a.width]] : [];
        })""")
        assert not spill, spill
        assert not errors, errors
    finally:
        ctx.close()
