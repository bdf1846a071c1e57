"""The play pages in a real browser (Debian chromium through Playwright).

For one board of every registered puzzle and of the framework's two test puzzles (the
"regions" and "edges" input models, tests/play_fixtures): a hint from the trace; enter
the true answer by clicks and see the solved state; undo and redo by keyboard and
buttons; a wrong entry named by its rule with Python's message; a hint pointing at the
wrong mark; reload and find the progress kept; the keyboard; the Japanese page. Then a
few model-specific checks: a drag is one undo step (cells and edges), the live region
count, the edges readout. The dist is the play pages alone (play_support.dist_files)
served over http from a thread, because ES modules need http.
"""

from __future__ import annotations

import json

import pytest
from play_support import ALL, REGISTERED, bank, chromium, dist_files, puzzle, serve_files, singular

from solvers.common import PuzzleError


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with serve_files(tmp_path_factory.mktemp("dist"), dist_files()) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _pick(slug: str) -> dict:
    """The first board of the smallest size (quick to click through)."""
    return min(bank(slug)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))


# ---- units: a cell (r * w + c) or, in the edges model, an edge ----------------------------

class Model(str):
    """A play model's name that also says whether the edge set has the board's outline
    (PlaySpec input "outline")."""

    outline = False


def _model(p) -> Model:
    m = Model(p.play.model)
    m.outline = bool(p.play.input.get("outline"))
    return m


def _edges(h: int, w: int, model: str = "edges") -> list[tuple[int, int, str]]:
    """The edges model's layout (grid.js): every "r" edge, then every "b" edge; with the
    outline, the left (c = -1) and top (r = -1) sides too."""
    k = 1 if getattr(model, "outline", False) else 0
    return ([(r, c, "r") for r in range(h) for c in range(-k, w - 1 + k)]
            + [(r, c, "b") for r in range(-k, h - 1 + k) for c in range(w)])


def _unit_point(page, model: str, h: int, w: int, i: int) -> tuple[float, float]:
    """Page coordinates of a cell's centre or an edge's midpoint (the board scrolled into
    view first: a panel opened above the fold may have moved it)."""
    page.locator("#board-svg").scroll_into_view_if_needed()
    box = page.locator("#board-svg").bounding_box()
    scale = box["width"] / page.eval_on_selector("#board-svg", "s => s.viewBox.baseVal.width")
    if model == "edges":
        r, c, side = _edges(h, w, model)[i]
        x, y = (c + 1, r + 0.5) if side == "r" else (c + 0.5, r + 1)
    else:
        x, y = i % w + 0.5, i // w + 0.5
    return box["x"] + (2 + x * 40) * scale, box["y"] + (2 + y * 40) * scale


def _corner(page, r: int, c: int) -> tuple[float, float]:
    page.locator("#board-svg").scroll_into_view_if_needed()
    box = page.locator("#board-svg").bounding_box()
    scale = box["width"] / page.eval_on_selector("#board-svg", "s => s.viewBox.baseVal.width")
    return box["x"] + (2 + c * 40) * scale, box["y"] + (2 + r * 40) * scale


def _click(page, model, h, w, i, times=1):
    x, y = _unit_point(page, model, h, w, i)
    for _ in range(times):
        page.mouse.click(x, y)


def _digits(p) -> bool:
    """A digit puzzle (Nanro, Sukoro): digits typed, states 2 + d (grid.js)."""
    return bool(p.play.input.get("digits"))


DIGIT_KEYS = {0: "Backspace", 1: "n", 2: "x"}


def _enter(page, p, h: int, w: int, u: int, want: int) -> None:
    """Give unit u the state ``want`` as a player does: clicks round the cycle, or (digit
    puzzles) a click that selects the cell and the key for the digit or mark."""
    model, cycle = _model(p), p.play.input["cycle"]
    if _digits(p):
        if page.evaluate("window.__play.cursor") != u:
            _click(page, model, h, w, u)
        else:
            page.locator("#board").focus()
        page.keyboard.press(DIGIT_KEYS.get(want, str(want - 2)))
    else:
        now = _states(page)[u]
        _click(page, model, h, w, u, (cycle.index(want) - cycle.index(now)) % len(cycle))
    assert _states(page)[u] == want


def _states(page) -> list[int]:
    return page.evaluate("window.__play.states")


def _marks(page) -> dict[str, list[int]]:
    return page.evaluate("window.__play.marks")


def _open(page, base: str, lang: str, slug: str, bid: str) -> None:
    page.goto(f"{base}/{lang}/{slug}/play/index.html#{bid}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_function(f"document.body.dataset.board === {json.dumps(bid)}")
    # The inline first board's hint trace arrives after the first render.
    page.wait_for_function("!!(window.__play && window.__play.entry.trace)")


def _check_items(page) -> list:
    """What Check lists: the first problem's line beside the board, then the rest (behind
    "N more")."""
    return page.locator("#check-out .first[data-rule], #check-out .more li").all()


def _expected_check(page, p, b_json) -> list:
    """The violations Check must list for the page's states: on an unfinished board
    Python's irreparable() (if the puzzle has one), else violations() of the answer."""
    st = _states(page)
    if _digits(p):       # Python knows numbered cells, not the digits typed in them
        st = [1 if s > 2 else s for s in st]
    if page.evaluate("window.__play.undecided") and p.irreparable is not None:
        return p.irreparable(b_json, st)
    return p.violations(b_json, p.answer_from_json(page.evaluate("window.__play.answer")))


def _assert_check(page, p, b_json, model: str, w: int, wrong: int | None,
                  lang: str = "en") -> list:
    """Check's report equals Python's (rule ids in order, messages in the page's
    language, the first problem's cells drawn strongly and the rest's lightly); with
    nothing broken, the off-solution line names the unit ``wrong``. Returns the list."""
    want = _expected_check(page, p, b_json)
    items = _check_items(page)
    if _digits(p) and items:
        # Typed digits are held to the rules as printed clues are, so the page may name
        # more than Python, which sees numbered cells only: Python's list is in the page's.
        got = [li.get_attribute("data-rule") for li in items]
        for v in want:
            assert v.rule in got, (v.rule, got)
            got.remove(v.rule)
        return want
    assert [li.get_attribute("data-rule") for li in items] == [v.rule for v in want]
    for li, v in zip(items, want, strict=True):
        assert li.text_content().startswith(singular(getattr(v, lang), lang)
                                            + (" (" if lang == "en" else "（"))
    m = _marks(page)
    if want:
        assert set(m["first"]) == {r * w + c for r, c in want[0].cells}
        assert set(m["first"]) | set(m["bad"]) == {r * w + c for v in want for r, c in v.cells}
        if len(want) > 1:
            summary = page.locator("#check-out details.more summary").text_content()
            assert str(len(want) - 1) in summary
    elif wrong is not None:
        ok = page.locator("#check-out .ok").text_content()
        assert ok.startswith("No rule is broken yet" if lang == "en" else "今のところルール違反")
        # the comparison with the solution waits behind a spoiler warning, and the board
        # shows the unit once it is opened
        key = "badEdge" if model == "edges" else "first"
        assert m[key] == []
        page.click("#check-out details.spoiler summary")
        # a <details> fires "toggle" in a later task, so the marks follow the click
        # shortly after, not within it
        page.wait_for_function(f"window.__play.marks.{key}.length > 0")
        assert _marks(page)[key] == [wrong]
    return want


def _step_units(model: str, h: int, w: int, step: dict) -> list[int]:
    if model == "edges":
        index = {e: i for i, e in enumerate(_edges(h, w, model))}
        return [index[(r, c, side)] for r, c, side in step["edges"]]
    return [r * w + c for r, c in step["cells"]]


def _keyboard_to(page, model: str, h: int, w: int, i: int) -> None:
    """Move the keyboard cursor to unit i from wherever it is."""
    page.locator("#board").focus()
    for _ in range(2 * max(h, w)):
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowLeft")
    if getattr(model, "outline", False):   # the cursor walks onto the frame's edges too
        r, c, side = _edges(h, w, model)[i]
        ty, tx = (2 * r + 1, 2 * c + 2) if side == "r" else (2 * r + 2, 2 * c + 1)
        y, x = page.evaluate("window.__play.cursor")
        if y % 2 == 0:
            page.keyboard.press("ArrowDown")
            y += 1
        keys = ["ArrowLeft" if x > 1 else "ArrowRight"] * abs(x - 1)      # to column 1
        keys += ["ArrowUp" if ty < y else "ArrowDown"] * abs(ty - y)      # to row ty
        keys += ["ArrowRight"] * ((tx - 1) if ty % 2 else (tx - 1) // 2)  # corners skipped
        for k in keys:
            page.keyboard.press(k)
        return
    if model == "edges":           # the doubled grid: cells odd/odd, edges odd/even
        r, c, side = _edges(h, w, model)[i]
        y, x = (2 * r + 1, 2 * c + 2) if side == "r" else (2 * r + 2, 2 * c + 1)
        right, down = x - 1, (y - 1) // 2 if x % 2 == 0 else y - 1
    else:
        right, down = i % w, i // w
    for _ in range(right):
        page.keyboard.press("ArrowRight")
    for _ in range(down):
        page.keyboard.press("ArrowDown")


# ---- the whole round, every puzzle ------------------------------------------------------

@pytest.mark.parametrize("slug", ALL)
def test_play_page(slug, served, browser):
    base = served
    p = puzzle(slug)
    model, cycle = _model(p), p.play.input["cycle"]
    on_state, off_state = cycle[0], cycle[1]
    entry = _pick(slug)
    board = entry["board"]
    h, w = board["h"], board["w"]
    ctx = browser.new_context(viewport={"width": 420, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _open(page, base, "en", slug, entry["id"])
        assert page.locator(".play").get_attribute("data-model") == model
        assert page.locator("#pzl-link").get_attribute("href") == entry["url"]
        assert page.locator("#board-svg").get_attribute("role") == "img"
        assert page.locator("#board-desc").inner_text().strip()
        fixed = page.evaluate("window.__play.fixed")
        solution = page.evaluate("window.__play.solution")
        digits = _digits(p)
        free_on = [i for i, s in enumerate(solution)
                   if (s > 2 if digits else s == on_state) and fixed[i] is None]
        hint_key = "hintEdge" if model == "edges" else "hint"
        bad_key = "badEdge" if model == "edges" else "bad"
        trace_state = p.play.input["trace"]

        # What each trace step asks for, as the page reads it; where a step names its
        # units and states, that is the model's default mapping.
        targets = [[tuple(t) for t in page.evaluate(f"window.__play.targets({k})")]
                   for k in range(len(entry["trace"]))]
        for s, t in zip(entry["trace"], targets, strict=True):
            if "states" in s and ("edges" if model == "edges" else "cells") in s:
                units = _step_units(model, h, w, s)
                # (a digit puzzle's "number" asks for the solution's digit there)
                assert t == [(u, solution[u] if digits and trace_state[x] == 1 and fixed[u] is None
                              else trace_state[x]) for u, x in zip(units, s["states"], strict=True)]

        # A hint on the empty board is the first trace step not yet on the board.
        page.click("#hint")
        k = next(k for k, t in enumerate(targets) if any(fixed[u] is None for u, _ in t))
        assert entry["trace"][k]["en"] in page.locator("#hint-out").inner_text()
        assert set(_marks(page)[hint_key]) == {u for u, _ in targets[k]}

        # Mark that step as the hint says: the next hint is a later step.
        for u, want in targets[k]:
            if fixed[u] is None:
                _enter(page, p, h, w, u, want)
        st = _states(page)
        nxt = next((j for j, t in enumerate(targets) if any(st[u] != x for u, x in t)), None)
        page.click("#hint")
        if nxt is not None:
            assert nxt > k
            assert entry["trace"][nxt]["en"] in page.locator("#hint-out").inner_text()
            assert set(_marks(page)[hint_key]) == {u for u, _ in targets[nxt]}
        page.click("#reset")

        # The true answer by clicks (digit puzzles: typed): solved.
        for u in free_on:
            _enter(page, p, h, w, u, solution[u])
        page.wait_for_selector("#play-solved:not([hidden])")
        assert page.locator("#board.solved").count() == 1
        page.click("#check")
        assert page.locator("#check-out .ok").count() == 1
        page.click("#hint")
        assert page.locator("#hint-out .ok").count() == 1

        # Undo and redo, by keyboard and by buttons.
        solved_states = _states(page)
        last = free_on[-1]
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

        # A wrong entry: one more click takes an answer unit on to the next state of the
        # cycle (an "off" mark, or undecided). The page names the rules Python reports
        # for the answer it sees, in Python's words.
        b_json = p.board_from_json(board)
        for u0 in free_on:
            if digits:
                _enter(page, p, h, w, u0, off_state)
            else:
                _click(page, model, h, w, u0)
            want = p.violations(b_json, p.answer_from_json(page.evaluate("window.__play.answer")))
            if want:
                break
            page.click("#undo")
        assert want, "removing a unit from the answer should break a rule"
        st = list(solved_states)
        st[u0] = off_state
        assert _states(page) == st
        assert page.locator("#play-solved").is_hidden()
        page.click("#check")
        _assert_check(page, p, b_json, model, w, u0)

        # The hint now points at the wrong mark (a cycle without an "off" mark has none).
        page.click("#hint")
        if off_state:
            assert page.locator("#hint-out .wrong").count() == 1
            assert _marks(page)[bad_key] == [u0]
        else:
            assert page.locator("#hint-out .wrong").count() == 0

        # Progress survives a reload; the timer runs.
        page.wait_for_timeout(50)
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert _states(page) == st
        assert page.locator("#timer").inner_text().strip()

        # Keyboard input: cursor to the wrong unit, mark it on again -> solved.
        _keyboard_to(page, model, h, w, u0)
        if digits:
            page.keyboard.press(str(solved_states[u0] - 2))
        for _ in range(0 if digits else (cycle.index(on_state) - cycle.index(off_state)) % len(cycle)):
            page.keyboard.press("Space")
        page.wait_for_selector("#play-solved:not([hidden])")

        # Reset clears every mark and can be undone.
        page.click("#reset")
        assert all(s == 0 or fixed[i] is not None for i, s in enumerate(_states(page)))
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
    slug = REGISTERED[0]
    entry = _pick(slug)
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        _open(page, served, "en", slug, entry["id"])
        for el in page.locator("button, select, #board").all():
            label = el.get_attribute("aria-label") or el.evaluate(
                "e => (e.labels && e.labels[0] && e.labels[0].textContent) || ''")
            assert label.strip(), el.evaluate("e => e.outerHTML")
        # The picker lists every board of the bank.
        assert page.locator("#pick-board option").count() == len(bank(slug)["boards"])
    finally:
        ctx.close()


def test_drag_paints_cells_as_one_undo_step(served, browser):
    slug = next(s for s in REGISTERED if puzzle(s).play.model == "cells")
    on = puzzle(slug).play.input["cycle"][0]
    entry = _pick(slug)
    board = entry["board"]
    h, w = board["h"], board["w"]
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        _open(page, served, "en", slug, entry["id"])
        fixed = page.evaluate("window.__play.fixed")
        # The longest run of free cells in one row.
        best: list[int] = []
        for r in range(h):
            run: list[int] = []
            for c in range(w):
                run = run + [r * w + c] if fixed[r * w + c] is None else []
                if len(run) > len(best):
                    best = run
        assert len(best) >= 2
        page.mouse.move(*_unit_point(page, "cells", h, w, best[0]))
        page.mouse.down()
        for i in best[1:]:
            page.mouse.move(*_unit_point(page, "cells", h, w, i), steps=3)
        page.mouse.up()
        st = _states(page)
        assert [st[i] for i in best] == [on] * len(best)
        page.click("#undo")
        st = _states(page)
        assert [st[i] for i in best] == [0] * len(best)
        assert page.locator("#undo").is_disabled()
    finally:
        ctx.close()


def test_edges_drag_draws_and_erases_with_a_readout(served, browser):
    """Model "edges": a drag along a grid line draws every edge it passes (one undo
    step); a drag starting on a drawn line erases; the module's readout follows; the
    puzzle's own stylesheet is loaded."""
    slug = "test-edges"
    entry = next(b for b in bank(slug)["boards"] if b["id"] == "2x4-01")
    h, w = entry["h"], entry["w"]
    right = [i for i, (r, c, side) in enumerate(_edges(h, w)) if side == "r" and c == 0]
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        _open(page, served, "en", slug, entry["id"])
        assert page.locator('link[href$="static/play/test-edges.css"]').count() == 1
        assert page.locator("#play-readout").inner_text() == "Dominoes: 0 of 4"

        def stroke(cells):
            page.mouse.move(*_corner(page, *cells[0]))
            page.mouse.down()
            for rc in cells[1:]:
                page.mouse.move(*_corner(page, *rc), steps=4)
            page.mouse.up()

        stroke([(0, 1), (1, 1), (2, 1)])          # down the line right of column 1
        st = _states(page)
        assert [st[i] for i in right] == [1, 1] and sum(st) == 2
        assert page.locator("#play-readout").inner_text() == "Dominoes: 1 of 4"
        assert page.locator("#board .edge.s1").count() == 2
        page.click("#undo")
        assert sum(_states(page)) == 0 and page.locator("#undo").is_disabled()
        page.click("#redo")
        stroke([(2, 1), (1, 1)])                  # starts on a drawn line: erases it
        st = _states(page)
        assert [st[i] for i in right] == [1, 0]
        page.goto(f"{served}/ja/{slug}/play/index.html#{entry['id']}")
        page.wait_for_selector("body[data-ready='1']")
        assert page.locator("#play-readout").inner_text() == "ドミノ: 0 / 4"
    finally:
        ctx.close()


def test_regions_show_live_counts_and_borders(served, browser):
    """Model "regions": thick borders between regions; each numbered cell shows its
    region's count of numbered cells, live; two in one region break one.many."""
    slug = "test-regions"
    entry = next(b for b in bank(slug)["boards"] if b["id"] == "2x4-01")
    h, w = entry["h"], entry["w"]
    ctx = browser.new_context()
    page = ctx.new_page()
    try:
        _open(page, served, "en", slug, entry["id"])
        regions = entry["board"]["regions"]
        borders = sum(regions[r][c] != regions[r][c + 1] for r in range(h) for c in range(w - 1))
        borders += sum(regions[r][c] != regions[r + 1][c] for r in range(h - 1) for c in range(w))
        assert page.eval_on_selector("#board .region", "p => p.getAttribute('d')").count("M") \
            == borders

        def ink(i):
            return page.locator(f'#board .cell[data-r="{i // w}"][data-c="{i % w}"] .ink')

        _click(page, "regions", h, w, 0)
        assert ink(0).text_content() == "1"
        _click(page, "regions", h, w, 1)          # same region as cell 0
        assert ink(0).text_content() == "2" and ink(1).text_content() == "2"
        page.click("#check")
        li = page.locator('#check-out [data-rule="one.many"]')
        assert li.inner_text().startswith(
            "The region at row 1, column 1 has 2 numbered cells, not one.")
        page.click("#undo")
        assert ink(0).text_content() == "1" and ink(1).count() == 0
    finally:
        ctx.close()


# ---- fitting the screen, and the extra controls -------------------------------------------

def _largest(slug: str) -> dict:
    return max(bank(slug)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", ALL)
@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)], ids=["1366x768", "1280x720"])
def test_board_and_check_fit_a_laptop_screen(slug, size, lang, served, browser):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        _open(page, served, lang, slug, _largest(slug)["id"])
        board = page.locator("#board-svg").bounding_box()
        check = page.locator("#check").bounding_box()
        boxes = [board, check]
        if page.locator("#play-readout").is_visible():     # the readout beside the board
            boxes.append(page.locator("#play-readout").bounding_box())
        for box in boxes:
            assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], (slug, box)
            assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], (slug, box)
    finally:
        page.close()


@pytest.mark.parametrize("slug", ALL)
def test_phone_cells_are_at_least_30px(slug, served, browser):
    """At 390x844 the largest board's cells (a 12x12 board's, for the puzzles that have
    one; test-regions has one) measure at least 30 px; Check's first line shows without
    scrolling; the rules start open; zoom enlarges the board."""
    entry = _largest(slug)
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                            has_touch=True)
    try:
        _open(page, served, "en", slug, entry["id"])
        box = page.locator("#board-svg").bounding_box()
        cell = box["width"] * 40 / (entry["w"] * 40 + 4)
        if entry["w"] <= 12:
            assert cell >= 30, (slug, cell)
        page.click("#check")
        first = page.locator("#check-out > p").first.bounding_box()
        assert first["y"] >= 0 and first["y"] + first["height"] <= 844, first
        assert page.locator("#play-rules").evaluate("d => d.open")
        page.click("#zoom")
        assert page.locator("#board-svg").bounding_box()["width"] > box["width"] * 1.5
    finally:
        page.close()


def test_a_12x12_board_is_among_the_phone_tests():
    assert any(_largest(s)["w"] == 12 for s in ALL)


def test_undo_all_redo_all_clear_marks_and_trial(served, browser):
    slug = REGISTERED[0]
    p = puzzle(slug)
    model, cycle = _model(p), p.play.input["cycle"]
    entry = _pick(slug)
    h, w = entry["board"]["h"], entry["board"]["w"]
    page = browser.new_page()
    try:
        _open(page, served, "en", slug, entry["id"])
        page.evaluate("localStorage.clear()")
        page.click("#reset")
        free = [i for i, f in enumerate(page.evaluate("window.__play.fixed")) if f is None]
        a, b, c = free[:3]
        _click(page, model, h, w, a)               # the answer's state (cycle[0])
        _click(page, model, h, w, b, times=2)      # a helper mark (cycle[1])
        st = _states(page)
        assert st[a] == cycle[0] and st[b] == cycle[1] and cycle[1] > 1
        page.click("#clear-marks")
        st = _states(page)
        assert st[a] == cycle[0] and st[b] == 0
        page.click("#undo-all")
        assert all(_states(page)[i] == 0 for i in (a, b))
        page.click("#redo-all")
        assert _states(page)[a] == cycle[0] and _states(page)[b] == 0
        # a trial: its moves are drawn apart, Drop takes them all back
        page.click("#trial")
        _click(page, model, h, w, c)
        assert page.locator("#board.trial g.trial").count() == 1
        page.click("#trial-drop")
        assert _states(page)[c] == 0 and _states(page)[a] == cycle[0]
        assert page.locator("#trial").is_visible() and not page.locator("#trial-drop").is_visible()
        page.click("#trial")
        _click(page, model, h, w, c)
        page.click("#trial-accept")
        assert _states(page)[c] == cycle[0]
        assert page.locator("#board g.trial").count() == 0
    finally:
        page.close()


# ---- issue 12: a check that tells wrong from unfinished, hints one step at a time -----------

def _set_states(page, states: list[int]) -> None:
    """Put ``states`` on the board in one move (the page's test hook)."""
    page.evaluate("s => window.__play.put(s)", states)
    assert _states(page) == states


def _typical(slug: str) -> dict:
    """A board as a player meets it: the first of the bank's largest size up to 10x10 (or
    the smallest, if every board is larger)."""
    boards = bank(slug)["boards"]
    fit = [b for b in boards if b["h"] * b["w"] <= 100] or [_pick(slug)]
    top = max(b["h"] * b["w"] for b in fit)
    return next(b for b in fit if b["h"] * b["w"] == top)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", ALL)
def test_one_wrong_mark_on_a_fresh_board(slug, lang, served, browser):
    """One wrong mark on a fresh board: Check names that unit (in the first-problem line
    or among the strongly drawn cells) and lists no more than Python's irreparable() for
    those states, which are few; the count of undecided units is given."""
    p = puzzle(slug)
    assert p.irreparable is not None, f"{slug}: every puzzle has a partial check"
    model, cycle = _model(p), p.play.input["cycle"]
    entry = _typical(slug)
    board = entry["board"]
    h, w = board["h"], board["w"]
    page = browser.new_page()
    try:
        _open(page, served, lang, slug, entry["id"])
        fixed = page.evaluate("window.__play.fixed")
        solution = page.evaluate("window.__play.solution")
        b_json = p.board_from_json(board)
        # One wrong mark: the first free unit of the answer's own state (cycle[0]) marked
        # with the next state of the cycle instead (else the first free unit marked so).
        free = [i for i, f in enumerate(fixed) if f is None]
        u = next((i for i in free if solution[i] == cycle[0] or (_digits(p) and solution[i] > 2)),
                 free[0])
        wrong = next(x for x in cycle if x and x != solution[u] and not (_digits(p) and x == 1))
        _enter(page, p, h, w, u, wrong)
        assert _states(page)[u] == wrong and solution[u] != wrong
        page.click("#check")
        want = _assert_check(page, p, b_json, model, w, u, lang)
        assert len(want) <= 3, [v.en for v in want]
        m = _marks(page)
        if want:
            named = page.locator("#check-out .first").text_content()
            shown = set(m["first"]) | set(m["bad"])
            if model == "edges":        # a line's violations list the cells beside it
                r, c, side = _edges(h, w, model)[u]
                beside = {r * w + c, (r * w + c + 1) if side == "r" else (r + 1) * w + c}
                assert beside & shown, (named, want)
            else:
                assert u in shown, (named, want)
        undecided = page.locator("#check-out .undecided").text_content()
        left = page.evaluate("window.__play.undecided")
        assert str(left) in undecided
    finally:
        page.close()


# Nanro leaves out: a wrong digit there breaks only the player's own rule (nanro.digit),
# which Python's violations() does not know; tests/test_play_checkers.py
# test_typed_digits_are_checked and tests/test_player_digits.py cover it.
@pytest.mark.parametrize("slug", [s for s in ALL if s != "nanro"])
def test_finished_wrong_board_lists_every_broken_rule(slug, served, browser):
    """Every unit decided as the solution has it, one changed: the board is finished, and
    Check lists every rule Python's violations() reports, the first beside the board and
    the rest behind "N more"."""
    p = puzzle(slug)
    model = _model(p)
    n_states = len(p.play.input["states"]["en"])
    entry = _typical(slug)
    w = entry["board"]["w"]
    page = browser.new_page()
    try:
        _open(page, served, "en", slug, entry["id"])
        fixed = page.evaluate("window.__play.fixed")
        solution = page.evaluate("window.__play.solution")
        b_json = p.board_from_json(entry["board"])
        st = [f if f is not None else s for f, s in zip(fixed, solution, strict=True)]
        free = [i for i, f in enumerate(fixed) if f is None]
        # Change free units one at a time until the answer breaks a rule.
        for u in free:
            st2 = list(st)
            if _digits(p):      # another digit (Sukoro: 1 to 4)
                if st[u] <= 2:
                    continue
                st2[u] = 3 + (st[u] - 2) % 4
            else:
                st2[u] = next(x for x in range(1, n_states) if x != st[u])
            _set_states(page, st2)
            try:
                answer = p.answer_from_json(page.evaluate("window.__play.answer"))
            except PuzzleError:
                continue          # an answer Python refuses (Sukoro: an isolated number)
            want = p.violations(b_json, answer)
            if want:
                break
        assert want
        assert page.evaluate("window.__play.undecided") == 0
        page.click("#check")
        got = _assert_check(page, p, b_json, model, w, u)
        assert [v.rule for v in got] == [v.rule for v in want]
        assert page.locator("#check-out .undecided").count() == 0
    finally:
        page.close()


def _new_format(entry: dict) -> bool:
    return all("why" in s and "detail" in s for s in entry["trace"])


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", ALL)
def test_hint_sequence_reaches_the_solution(slug, lang, served, browser):
    """Press Hint, apply the step's units, repeat: each hint is one deduction (at most 8
    cells) with its reasons outlined in a second colour and its rung named; pressing Hint
    again on the same step shows its detail; the sequence reaches the solved state."""
    p = puzzle(slug)
    model = _model(p)
    boards = sorted(bank(slug)["boards"], key=lambda b: (b["h"] * b["w"], b["id"]))
    entry = next((b for b in boards if _new_format(b)), None)
    assert entry is not None, (f"content/{slug}/bank.json has no board with one-deduction "
                               "hints ('why' and 'detail' on every step)")
    h, w = entry["board"]["h"], entry["board"]["w"]
    hint_key = "hintEdge" if model == "edges" else "hint"
    rung_names = p.rung_names[lang]
    page = browser.new_page()
    try:
        _open(page, served, lang, slug, entry["id"])
        page.evaluate("localStorage.clear()")
        page.click("#reset")
        fixed = page.evaluate("window.__play.fixed")
        trace = entry["trace"]
        seen = set()
        for _ in range(len(trace) + 1):
            if page.evaluate("window.__play.solved"):
                break
            page.click("#hint")
            text = page.locator("#hint-out").text_content()
            k = next(k for k, s in enumerate(trace) if s[lang] in text)
            assert k not in seen
            seen.add(k)
            step = trace[k]
            assert 1 <= len(step["cells"]) <= 8, (k, step["cells"])
            assert step["why"], k
            assert rung_names[step["rung"]] in text
            targets = [tuple(t) for t in page.evaluate(f"window.__play.targets({k})")]
            m = _marks(page)
            assert set(m[hint_key]) == {u for u, _ in targets}
            assert set(m["why"]) == {r * w + c for r, c in step["why"]}
            assert page.locator("#board .why-box").count() == len(m["why"])
            # Hint again on the same step: the detail, and its cells.
            page.click("#hint")
            assert page.locator("#hint-out .detail").text_content() == step["detail"][lang]
            assert page.locator("#hint-out .step").get_attribute("data-level") == "2"
            assert set(_marks(page)["detail"]) == {r * w + c for r, c in
                                                   step.get("detail_cells") or []}
            for u, want in targets:
                if fixed[u] is None:
                    _enter(page, p, h, w, u, want)
        assert page.evaluate("window.__play.solved")
        page.wait_for_selector("#play-solved:not([hidden])")
    finally:
        page.close()


def test_old_format_trace_still_hints(served, browser):
    """A trace step without "why"/"detail" (an older bank) still shows its units and
    sentence, and a second press does not fail."""
    slug, bid = "test-edges", "2x3-01"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _open(page, served, "en", slug, bid)
        page.evaluate("localStorage.clear()")
        page.click("#reset")
        page.click("#hint")
        assert "The step sentence." in page.locator("#hint-out").text_content()
        assert page.locator("#hint-out .cells").count() == 1
        assert _marks(page)["why"] == []
        page.click("#hint")
        assert "The step sentence." in page.locator("#hint-out").text_content()
        assert not errors, errors
    finally:
        page.close()


def test_newcomer_sees_an_easy_board_and_can_filter_by_difficulty(served, browser):
    slug = "test-regions"
    boards = bank(slug)["boards"]
    page = browser.new_page()
    try:
        page.goto(f"{served}/ja/{slug}/play/index.html")
        page.evaluate("localStorage.clear()")
        page.goto(f"{served}/ja/{slug}/play/index.html")
        page.wait_for_selector("body[data-ready='1']")
        easy = next(b for b in boards if b["difficulty"] == "easy")
        assert easy is not boards[0]
        assert page.evaluate("document.body.dataset.board") == easy["id"]
        assert "初級" in page.locator("#board-title").text_content()
        # Its trace is not inline (it comes with the board file): a hint still works.
        page.click("#hint")
        page.wait_for_selector("#hint-out .step")
        assert easy["trace"][0]["ja"] in page.locator("#hint-out").text_content()
        levels = page.locator("#pick-level option").all_text_contents()
        assert levels[0] == "すべての難易度" and "初級" in levels and "最上級" in levels
        page.select_option("#pick-level", "expert")
        opts = page.locator("#pick-board option").all()
        assert [o.get_attribute("value") for o in opts] == [
            b["id"] for b in boards if b["difficulty"] == "expert"]
        assert all("最上級（" in o.text_content() for o in opts)
    finally:
        page.close()


def test_dark_mode_favicon_focus_ring_and_japanese_labels(served, browser):
    """The issue's "also expected": dark mode darkens the page and the board; a favicon;
    the focus ring shows for the keyboard, not for a click; the board's labels and text
    alternative are in the page's language."""
    slug = "test-regions"
    entry = _pick(slug)
    ctx = browser.new_context(color_scheme="dark")
    page = ctx.new_page()
    try:
        _open(page, served, "ja", slug, entry["id"])

        def lum(css: str) -> float:
            nums = [float(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
            return sum(nums) / 3

        assert lum(page.evaluate("getComputedStyle(document.body).backgroundColor")) < 60
        assert lum(page.eval_on_selector("#board .bg", "e => getComputedStyle(e).fill")) < 60
        icon = page.locator('link[rel="icon"]').get_attribute("href")
        assert page.request.get(page.url.split("#")[0].rsplit("/", 1)[0] + "/" + icon).ok
        # A click focuses the board without the ring; the keyboard shows it.
        _click(page, "regions", entry["h"], entry["w"], 1)
        shadow = page.eval_on_selector("#board", "e => getComputedStyle(e).boxShadow")
        assert shadow == "none"
        page.locator("#pick-next").focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.matches(':focus-visible')")
        label = page.locator("#board").get_attribute("aria-label")
        assert label.startswith("盤面")
        assert "行" in page.locator("#board-desc").text_content()
        assert page.locator("#pick-level").evaluate("s => s.closest('label').textContent") \
            .startswith("難易度")
    finally:
        ctx.close()
