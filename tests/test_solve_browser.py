"""The solve pages in a real browser (Debian chromium through Playwright), offline.

The site is the solve pages alone (site_builder.solve_page.standalone_files: the pages,
the Pyodide runtime from .cache/runtime, solvers.zip), served over http on loopback; the
browser resolves no other host and the context aborts any request elsewhere, so the
runtime can only come from the site itself. For every registered puzzle, a board from
outside the bank (the bank's example board, drawn from its own seed) opened through the
fragment gives, in <output id="solve-result">, exactly the JSON `build-site solve SLUG URL
--json --trace` prints for it (timing aside): answers, verdict, grade and trace are the
project's own code run twice, so any difference is a bug. Then bad input, each with its
message in the page's language and no console error; a cancelled long solve; a second
answer; the Japanese page.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
import zipfile
from typing import Any

import pytest
from play_support import chromium
from solve_support import ARGS, ROOT, serve_files

from site_builder import cli, runtime, solve_page, solve_web
from site_builder.solve_page import JS_STRINGS
from solvers import registry

SLUGS = tuple(registry.slugs())
BOOT_MS = 120_000   # Pyodide's first start on a loaded two-core machine
SOLVE_MS = 120_000


def _example(slug: str) -> dict[str, Any]:
    bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]
    ex = bank["example"]
    assert ex["url"] not in {b["url"] for b in bank["boards"]}, "the example is banked"
    return ex


def _cli_json(capsys: pytest.CaptureFixture[str], slug: str, url: str, *extra: str) -> dict:
    capsys.readouterr()
    code = cli.main(["solve", slug, url, "--json", "--trace", *extra])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def _untimed(d: dict) -> dict:
    return {k: v for k, v in d.items() if k != "ms"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    try:
        runtime.files(ROOT)
    except runtime.RuntimeMissing as e:
        pytest.fail(f"the solve runtime is missing ({e}); run: python -m site_builder.runtime")
    from play_support import standalone_files

    files = solve_page.standalone_files(ROOT)
    bank = json.loads((ROOT / "content/sukoro/bank.json").read_text())["data"]
    files.update(standalone_files(ROOT, {"sukoro": (registry.get("sukoro"), bank)}))
    with serve_files(tmp_path_factory.mktemp("dist"), files) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    with chromium(ARGS) as b:
        yield b


OUTSIDE: list[str] = []  # every request that did not go to the local server


@pytest.fixture(scope="module")
def context(browser, served):
    """One context for the module (its HTTP cache keeps the runtime warm between tests),
    aborting any request that is not for the local server."""
    ctx = browser.new_context()

    def route(r: Any) -> None:
        if r.request.url.startswith(served + "/"):
            r.continue_()
        else:
            OUTSIDE.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    yield ctx
    ctx.close()


class Page:
    """One browser page on one solve page, with every console error recorded."""

    def __init__(self, context: Any, base: str) -> None:
        self.base = base
        self.context = context
        self.errors: list[str] = []
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))

    def open(self, slug: str, fragment: str = "", lang: str = "en") -> None:
        url = f"{self.base}/{lang}/{slug}/solve/index.html"
        self.page.goto(url + (f"#{fragment}" if fragment else ""))

    def wait(self, *states: str, timeout: int = SOLVE_MS) -> str:
        cond = " || ".join(f"document.body.dataset.solve === {json.dumps(s)}" for s in states)
        self.page.wait_for_function(cond, timeout=timeout)
        return self.page.evaluate("document.body.dataset.solve")

    def result(self) -> dict:
        return json.loads(self.page.locator("#solve-result").text_content())

    def status(self) -> str:
        return self.page.locator("#solve-status").text_content()

    def close(self) -> None:
        self.page.close()
        assert self.errors == [], self.errors
        assert OUTSIDE == [], OUTSIDE


@pytest.fixture
def tab(context, served):
    p = Page(context, served)
    yield p
    p.close()


def test_the_runtime_ships_its_start_up_modules_as_bytecode() -> None:
    """The modules Pyodide's own start imports (encodings, asyncio) and every solvers
    module go out as unchecked hash-based .pyc (PEP 552 flags 1) made by the runtime's
    own CPython, in zips named by their hash; the rest of the standard library stays
    source. The solves in the tests below run on exactly these zips."""
    files, cfg = runtime.site_files(ROOT)
    assert cfg["bytecode"], "the build could not compile the runtime's bytecode (Node?)"
    stdlib = zipfile.ZipFile(io.BytesIO(files[cfg["stdlib"]]))
    app = zipfile.ZipFile(io.BytesIO(files[cfg["zip"]]))
    for name in (cfg["stdlib"], cfg["zip"]):
        assert name.rsplit("-", 1)[1] == hashlib.sha256(files[name]).hexdigest()[:12] + ".zip"
    names = set(stdlib.namelist())
    assert {"encodings/__init__.pyc", "asyncio/__init__.pyc", "json/__init__.pyc"} <= names
    assert "encodings/__init__.py" not in names
    # cut down: what nothing on the solve path names is left out (an XML DOM, a REPL, a
    # test runner); what a module it uses names, only in a function body, stays source
    assert not {"xml/dom/minidom.py", "_pyrepl/main.py", "unittest/case.py",
                "tkinter/__init__.py"} & names
    assert "urllib/parse.py" in names or "urllib/parse.pyc" in names
    whole = runtime.files(ROOT)[
        f"{runtime.OUT}/pyodide-{runtime.pyodide_version(ROOT)}/python_stdlib.zip"]
    assert len(names) < 0.5 * len(zipfile.ZipFile(io.BytesIO(whole)).namelist())
    # stored, not deflated: the host's brotli compresses across the files
    assert {i.compress_type for i in stdlib.infolist()} == {zipfile.ZIP_STORED}
    source = zipfile.ZipFile(io.BytesIO(runtime.app_zip(ROOT))).namelist()
    assert sorted(app.namelist()) == sorted(n[:-3] + ".pyc" for n in source)
    heads = {z.read(n)[:8] for z in (stdlib, app) for n in z.namelist() if n.endswith(".pyc")}
    magics = {h[:4] for h in heads}
    assert len(magics) == 1 and next(iter(magics)).endswith(b"\r\n")
    assert {h[4:8] for h in heads} == {(1).to_bytes(4, "little")}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_board_from_outside_the_bank_gives_the_cli_result(tab, slug, capsys) -> None:
    ex = _example(slug)
    tab.open(slug, ex["url"])
    assert tab.wait("done", "error") == "done", tab.status()
    got = tab.result()
    want = _cli_json(capsys, slug, ex["url"])
    assert _untimed(got) == _untimed(want)
    # and that is the board's known answer, with its grade named in the page's words
    p = registry.get(slug)
    assert got["solutions"] == 1
    assert got["answer"] == p.answer_rows(p.answer_from_json(ex["answer"]))
    page = tab.page
    assert page.locator("#solve-verdict").text_content() == JS_STRINGS["en"]["one"]
    rung = got["rung"]
    assert page.locator("#solve-grade").get_attribute("data-rung") == rung
    assert p.rung_name(rung, "en") in page.locator("#solve-grade").text_content()
    assert page.locator("#solve-answers svg").count() == 1
    # the explanation steps forward and back
    n = len(got["trace"])
    assert page.locator("#step-text").text_content() == got["trace"][0]["en"]
    page.click("#step-next")
    assert page.locator("#step-text").text_content() == got["trace"][1]["en"]
    page.click("#step-prev")
    assert page.locator("#step-count").text_content() == f"Step 1 of {n}"
    assert page.locator("#step-board svg .step-now").count() == len(got["trace"][0]["cells"])


def test_the_bare_form_and_the_url_box_and_japanese(tab, capsys) -> None:
    slug = "sukoro"
    ex = _example(slug)
    bare = ex["url"].split("?", 1)[1]
    tab.open(slug, bare, lang="ja")
    assert tab.wait("done", "error") == "done", tab.status()
    want = _cli_json(capsys, slug, ex["url"])
    assert _untimed(tab.result()) == _untimed(want)
    page = tab.page
    assert page.locator("#solve-verdict").text_content() == JS_STRINGS["ja"]["one"]
    p = registry.get(slug)
    assert p.rung_name(want["rung"], "ja") in page.locator("#solve-grade").text_content()
    assert page.locator("#step-text").text_content() == want["trace"][0]["ja"]
    # a board typed into the box goes into the fragment, so the link shares it
    two = "sukoro/5/5/2a2c4a2g2a4c2a2"
    page.fill("#solve-input", two)
    page.click("#solve-go")
    page.wait_for_function(f"location.hash === '#{two}'")
    page.wait_for_function("JSON.parse(document.getElementById('solve-result').textContent"
                           " || '{}').answer?.[0] === '232..'")
    assert _untimed(tab.result()) == _untimed(_cli_json(capsys, slug, two))
    # the shared link reopens the board in a fresh page
    other = tab.context.new_page()
    other.on("pageerror", lambda e: tab.errors.append(str(e)))
    other.goto(page.url)
    other.wait_for_function("document.body.dataset.solve === 'done'", timeout=SOLVE_MS)
    assert json.loads(other.locator("#solve-result").text_content())["answer"][0] == "232.."


def test_two_answers_and_no_answer(tab, capsys) -> None:
    slug = "sukoro"
    tab.open(slug, "sukoro/3/3/a1g")      # one clue: many ways
    assert tab.wait("done", "error") == "done", tab.status()
    got = tab.result()
    assert got["solutions"] == 2 and got["trace"] is None
    assert _untimed(got) == _untimed(_cli_json(capsys, slug, "sukoro/3/3/a1g"))
    assert tab.page.locator("#solve-verdict").text_content() == JS_STRINGS["en"]["many"]
    assert tab.page.locator("#solve-answers svg").count() == 2
    tab.page.evaluate("location.hash = 'sukoro/2/2/4c'")   # a 4 with two neighbours
    tab.page.wait_for_function("JSON.parse(document.getElementById('solve-result')"
                               ".textContent || '{}').solutions === 0", timeout=SOLVE_MS)
    assert tab.page.locator("#solve-verdict").text_content() == JS_STRINGS["en"]["none"]
    assert _untimed(tab.result()) == _untimed(_cli_json(capsys, slug, "sukoro/2/2/4c"))


BAD = [  # (text, page's puzzle, the kind of error)
    ("https://puzz.link/p?sukoro/x/5/", "sukoro", "malformed"),
    ("nanro/4/4/0000", "sukoro", "other"),
    ("https://puzz.link/p?nurikabe/5/5/g5k2o1k3g", "sukoro", "unknown"),
    ("https://puzz.link/p?sukoro/101/100/", "sukoro", "size"),
    ("hello", "sukoro", "malformed"),
    ("canal/3/3/!!", "canal-view", "malformed"),
]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_bad_input_says_so_in_the_page_language(tab, lang) -> None:
    page = tab.page
    for slug in dict.fromkeys(s for _, s, _ in BAD):
        tab.open(slug, lang=lang)
        tab.wait("idle", timeout=BOOT_MS)
        for text, on, kind in BAD:
            if on != slug:
                continue
            n = int(page.evaluate("document.body.dataset.replies || 0"))
            page.evaluate(f"location.hash = {json.dumps(text)}")
            page.wait_for_function(f"Number(document.body.dataset.replies || 0) > {n}",
                                   timeout=SOLVE_MS)
            got = tab.result()
            assert page.evaluate("document.body.dataset.solve") == "error", (text, got)
            assert got["error"] == kind, (text, got)
            head = JS_STRINGS[lang][f"err_{kind}"].split("{")[0]
            assert tab.status().startswith(head), (text, tab.status())
            if kind == "unknown":
                # the puzzles it solves as a list ("A, B and C"), not "A and B and C"
                names = [registry.get(s).names[lang] for s in registry.slugs()]
                assert all(n in tab.status() for n in names), tab.status()
                assert tab.status().count(" and ") <= 1, tab.status()
                assert tab.status().count("、") >= (len(names) - 1) * (lang == "ja")
            assert page.locator("#solve-out").is_hidden()
    # a board with no answer whose clue already breaks a rule: the page names it
    n = int(page.evaluate("document.body.dataset.replies || 0"))
    page.evaluate("location.hash = 'canal/2/2/5i'")
    page.wait_for_function(f"Number(document.body.dataset.replies || 0) > {n}", timeout=SOLVE_MS)
    assert tab.result()["solutions"] == 0
    assert page.locator("#solve-verdict").text_content() == JS_STRINGS[lang]["none"]
    (v,) = solve_web.solve_text("canal-view", "canal/2/2/5i")["broken"]
    item = page.locator("#solve-broken li")
    assert item.get_attribute("data-rule") == v["rule"] == "canal.short"
    assert item.text_content() == v[lang]
    assert page.locator("#solve-answers svg .solve-broken").count() == 1


def test_a_solve_past_its_bound_and_a_cancel(tab) -> None:
    hard = json.loads((ROOT / "benchmarks/hard/nanro-30x30.json").read_text())["boards"][0]
    page = tab.page
    tab.open("nanro")
    tab.wait("idle", timeout=BOOT_MS)
    page.locator(".solve-limits summary").click()
    page.fill("#solve-nodes", "50")
    page.fill("#solve-input", hard["url"])
    page.click("#solve-go")
    assert tab.wait("done", "error") == "error"
    assert tab.result()["error"] == "bound"
    assert tab.status().startswith(JS_STRINGS["en"]["err_bound"].split("(")[0])
    # no node limit: a long solve, cancelled while it runs; the solver comes back
    page.fill("#solve-nodes", "")
    page.fill("#solve-timeout", "600")
    page.evaluate("location.hash = ''")
    page.fill("#solve-input", hard["url"])
    page.click("#solve-go")
    tab.wait("solving")
    page.wait_for_timeout(300)
    assert page.locator("#solve-cancel").is_visible()
    page.click("#solve-cancel")
    assert page.evaluate("document.body.dataset.cancelled") == "1"
    assert tab.status() == JS_STRINGS["en"]["cancelled"]
    tab.wait("idle", timeout=BOOT_MS)
    page.evaluate("location.hash = 'sukoro/5/5/2a2c4a2g2a4c2a2'")
    assert tab.wait("done", "error") == "error"   # a Sukoro board on the Nanro page
    assert tab.result()["error"] == "other"


# ---- the editor ------------------------------------------------------------------------

def _cell_point(page, r: float, c: float) -> tuple[float, float]:
    """Page coordinates of the point (r, c) of the editor's board, in cells (0.5: centre)."""
    svg = page.locator("#edit-board svg")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    scale = box["width"] / page.eval_on_selector("#edit-board svg", "s => s.viewBox.baseVal.width")
    return box["x"] + (1 + c * 32) * scale, box["y"] + (1 + r * 32) * scale


def _replied(tab: Page, action) -> dict:
    """Do ``action``, wait for the next reply from the solver; the result JSON."""
    page = tab.page
    n = int(page.evaluate("Number(document.body.dataset.replies || 0)"))
    action()
    page.wait_for_function(f"Number(document.body.dataset.replies || 0) > {n}"
                           " && document.body.dataset.solve !== 'tracing'", timeout=SOLVE_MS)
    return tab.result()


def _fragment(page) -> str:
    return page.evaluate("decodeURIComponent(location.hash.slice(1))")


def test_draw_a_board_undo_redo_and_share_it(tab, capsys) -> None:
    page = tab.page
    tab.open("sukoro")
    tab.wait("idle", timeout=BOOT_MS)
    page.fill("#edit-h", "3")
    page.fill("#edit-w", "3")
    got = _replied(tab, lambda: page.click("#edit-new"))
    empty = _fragment(page)
    assert empty.startswith("https://puzz.link/p?sukoro/3/3/")
    assert got["solutions"] == 2 and _untimed(got) == _untimed(_cli_json(capsys, "sukoro", empty))
    page.mouse.click(*_cell_point(page, 0.5, 1.5))
    got = _replied(tab, lambda: page.keyboard.press("1"))
    one = _fragment(page)
    assert one == "https://puzz.link/p?sukoro/3/3/a1g"
    assert _untimed(got) == _untimed(_cli_json(capsys, "sukoro", one))
    # a "?" from the number pad, then undo and redo from the keyboard and the buttons
    page.mouse.click(*_cell_point(page, 2.5, 2.5))
    _replied(tab, lambda: page.click("#edit-pad button[data-key='?']"))
    with_q = _fragment(page)
    assert page.evaluate("window.__solve_editor.board.clues[2][2]") == "?"
    _replied(tab, lambda: page.keyboard.press("Control+z"))
    assert _fragment(page) == one
    _replied(tab, lambda: page.click("#edit-redo"))
    assert _fragment(page) == with_q
    _replied(tab, lambda: page.click("#edit-undo"))
    assert _fragment(page) == one
    assert page.locator("#solve-input").input_value() == one   # the board, exported


def test_delete_a_clue_see_two_answers_and_apply_a_suggestion(tab, capsys) -> None:
    from site_builder.solve_web import construct, help_text

    slug = "sukoro"
    ex = _example(slug)
    page = tab.page
    tab.open(slug, ex["url"])
    assert tab.wait("done", "error") == "done"
    # the unique board: the clues it can spare, as the solver proves them in Python
    page.wait_for_function("document.body.dataset.help === 'done'", timeout=SOLVE_MS)
    py = help_text(slug, ex["url"])
    spare = {tuple(x["cell"]) for x in py["removable"]}
    assert {tuple(x["cell"]) for x in page.evaluate("window.__solve.help.removable")} == spare
    assert page.locator("#solve-answers svg .solve-removable").count() == len(spare)
    # a clue it cannot spare, and whose removal the helper answers with a single clue
    # (which two answers come first, and so which clues help, is the engine's choice)
    helper, puzzle = construct(slug), registry.get(slug)
    needed = next(c for c in helper.clues(ex["board"]) if c not in spare
                  and help_text(slug, puzzle.encode(puzzle.board_from_json(
                      helper.without(ex["board"], c))))["suggestions"])
    page.mouse.click(*_cell_point(page, needed[0] + 0.5, needed[1] + 0.5))
    page.evaluate("document.body.dataset.help = ''")
    got = _replied(tab, lambda: page.keyboard.press("Backspace"))
    assert got["solutions"] == 2
    assert _untimed(got) == _untimed(_cli_json(capsys, slug, _fragment(page)))
    diff = page.evaluate("window.__solve.reply.diff")
    a, b = (registry.get(slug).answer_from_json({"rows": r}).to_json() for r in got["answers"])
    assert [tuple(x) for x in diff] == construct(slug).differ(a, b) and diff
    assert page.locator("#solve-answers svg .solve-diff").count() == 2 * len(diff)
    page.wait_for_function("document.body.dataset.help === 'done'", timeout=SOLVE_MS)
    sugs = page.evaluate("window.__solve.help.suggestions")
    assert sugs, "no suggestion"
    assert all(list(s["cell"]) in diff for s in sugs)
    got = _replied(tab, lambda: page.locator("#help-list button").first.click())
    assert got["solutions"] == 1
    assert _fragment(page) == sugs[0]["url"]
    assert _untimed(got)["answer"] == _cli_json(capsys, slug, sugs[0]["url"])["answer"]


def test_nanro_borders_by_dragging_and_sashigane_tokens(tab, capsys) -> None:
    page = tab.page
    tab.open("nanro")
    tab.wait("idle", timeout=BOOT_MS)
    page.fill("#edit-h", "2")
    page.fill("#edit-w", "3")
    _replied(tab, lambda: page.click("#edit-new"))
    page.click("#edit-borders")
    # along the grid line between columns 1 and 2, top to bottom
    page.mouse.move(*_cell_point(page, 0, 1))
    page.mouse.down()
    page.mouse.move(*_cell_point(page, 1, 1), steps=4)
    page.mouse.move(*_cell_point(page, 2, 1), steps=4)
    got = _replied(tab, page.mouse.up)
    assert page.evaluate("window.__solve_editor.board.regions") == [[0, 1, 1], [0, 1, 1]]
    assert _untimed(got) == _untimed(_cli_json(capsys, "nanro", _fragment(page)))
    page.click("#edit-borders")
    page.mouse.click(*_cell_point(page, 0.5, 0.5))
    got = _replied(tab, lambda: page.keyboard.press("1"))
    assert _untimed(got) == _untimed(_cli_json(capsys, "nanro", _fragment(page)))

    tab.open("sashigane")
    tab.wait("idle", timeout=BOOT_MS)
    page.fill("#edit-h", "2")
    page.fill("#edit-w", "2")
    _replied(tab, lambda: page.click("#edit-new"))
    page.mouse.click(*_cell_point(page, 0.5, 0.5))
    _replied(tab, lambda: page.keyboard.press("o"))
    got = _replied(tab, lambda: page.keyboard.press("3"))
    page.mouse.click(*_cell_point(page, 1.5, 0.5))
    got = _replied(tab, lambda: page.keyboard.press("Shift+ArrowUp"))
    cells = page.evaluate("window.__solve_editor.board.cells")
    assert cells[0][0] == "o3" and cells[1][0] == "^"
    assert _untimed(got) == _untimed(_cli_json(capsys, "sashigane", _fragment(page)))


def test_play_the_made_board(tab) -> None:
    slug = "sukoro"
    ex = _example(slug)
    page = tab.page
    tab.open(slug, ex["url"])
    assert tab.wait("done", "error") == "done"
    trace = tab.result()["trace"]
    page.click("#solve-play")
    page.wait_for_url(f"**/{slug}/play/**")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=SOLVE_MS)
    made = page.evaluate(f"JSON.parse(localStorage.getItem('play:{slug}:made'))")
    page.wait_for_function(f"document.body.dataset.board === {json.dumps(made['id'])}")
    assert page.evaluate("window.__play.entry.url") == ex["url"]
    assert page.evaluate("window.__play.entry.board") == ex["board"]
    # its hints come from the solve page's trace, its check from the rules
    page.click("#hint")
    page.wait_for_function("document.getElementById('hint-out').textContent.length > 0")
    assert trace[0]["en"] in page.locator("#hint-out").text_content()
    # entered in full (one move, as the play tests do), it is solved
    page.evaluate("window.__play.put(window.__play.solution)")
    page.wait_for_function("window.__play.solved === true")
    assert page.locator("#play-solved").is_visible()
    # the link carries the board (issue 51): another browser, with nothing stored, opens
    # the same board from it
    assert "&b=" in page.url
    other = tab.context.browser.new_context()
    try:
        p2 = other.new_page()
        p2.goto(page.url)
        p2.wait_for_function("document.body.dataset.ready === '1'")
        assert p2.evaluate("document.body.dataset.board") == made["id"]
        assert p2.evaluate("window.__play.entry.board") == ex["board"]
    finally:
        other.close()


# ---- a touch screen ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def touch_context(browser, served):
    """A phone-sized context with a touch screen (hasTouch, isMobile), offline as above."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                              has_touch=True, is_mobile=True)

    def route(r: Any) -> None:
        if r.request.url.startswith(served + "/"):
            r.continue_()
        else:
            OUTSIDE.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    yield ctx
    ctx.close()


def test_edit_by_taps_and_the_number_pad(touch_context, served, capsys) -> None:
    tab = Page(touch_context, served)
    page = tab.page
    try:
        tab.open("sukoro")
        tab.wait("idle", timeout=BOOT_MS)
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")   # a touch screen
        # the page fits the phone's width, and every pad key is a finger-sized target
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        for box in (b.bounding_box() for b in page.locator("#edit-pad button").all()):
            assert box and box["width"] >= 40 and box["height"] >= 40, box
        page.fill("#edit-h", "3")
        page.fill("#edit-w", "3")
        _replied(tab, lambda: page.locator("#edit-new").tap())
        assert _fragment(page).startswith("https://puzz.link/p?sukoro/3/3/")
        page.touchscreen.tap(*_cell_point(page, 0.5, 1.5))
        assert page.evaluate("window.__solve_editor.cur") == [0, 1]
        got = _replied(tab, lambda: page.locator("#edit-pad button[data-key='1']").tap())
        one = _fragment(page)
        assert one == "https://puzz.link/p?sukoro/3/3/a1g"
        assert _untimed(got) == _untimed(_cli_json(capsys, "sukoro", one))
        page.touchscreen.tap(*_cell_point(page, 2.5, 2.5))
        _replied(tab, lambda: page.locator("#edit-pad button[data-key='?']").tap())
        assert page.evaluate("window.__solve_editor.board.clues[2][2]") == "?"
        with_q = _fragment(page)
        _replied(tab, lambda: page.locator("#edit-pad button[data-key='Backspace']").tap())
        assert page.evaluate("window.__solve_editor.board.clues[2][2]") is None
        assert _fragment(page) == one
        _replied(tab, lambda: page.locator("#edit-undo").tap())
        assert _fragment(page) == with_q
        # a tap on the pad goes to the cell last tapped, not to the one the keyboard left
        page.touchscreen.tap(*_cell_point(page, 1.5, 0.5))
        got = _replied(tab, lambda: page.locator("#edit-pad button[data-key='2']").tap())
        assert page.evaluate("window.__solve_editor.board.clues[1][0]") == 2
        assert _untimed(got) == _untimed(_cli_json(capsys, "sukoro", _fragment(page)))
    finally:
        tab.close()


def _touch_drag(page, points: list[tuple[float, float]], steps: int = 4) -> None:
    """One finger put down at the first point, moved through the others, lifted: real
    touch events through the DevTools protocol (Playwright's touchscreen only taps)."""
    cdp = page.context.new_cdp_session(page)
    try:
        def touch(kind: str, at: tuple[float, float] | None) -> None:
            pts = [] if at is None else [{"x": at[0], "y": at[1], "id": 1}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

        touch("touchStart", points[0])
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            for k in range(1, steps + 1):
                touch("touchMove", (x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps))
        touch("touchEnd", None)
    finally:
        cdp.detach()


def test_nanro_borders_by_a_touch_drag(touch_context, served, capsys) -> None:
    tab = Page(touch_context, served)
    page = tab.page
    try:
        tab.open("nanro")
        tab.wait("idle", timeout=BOOT_MS)
        page.fill("#edit-h", "2")
        page.fill("#edit-w", "3")
        _replied(tab, lambda: page.locator("#edit-new").tap())
        page.locator("#edit-borders").tap()
        # a finger along the grid line between columns 1 and 2, top to bottom: one region
        # border of two segments, the board split into columns {0} and {1, 2}
        got = _replied(tab, lambda: _touch_drag(
            page, [_cell_point(page, r, 1) for r in (0, 1, 2)]))
        assert page.evaluate("window.__solve_editor.board.regions") == [[0, 1, 1], [0, 1, 1]]
        assert _untimed(got) == _untimed(_cli_json(capsys, "nanro", _fragment(page)))
        # the same stroke again takes the border away (the first segment says which)
        _replied(tab, lambda: _touch_drag(page, [_cell_point(page, r, 1) for r in (0, 1, 2)]))
        assert page.evaluate("window.__solve_editor.board.regions") == [[0, 0, 0], [0, 0, 0]]
    finally:
        tab.close()


def test_python_sat_goes_in_once_in_the_background(tab, capsys) -> None:
    """The worker installs python-sat once its interpreter is up, whatever the board. A
    hard Nanro board (its ladder reaches CaDiCaL) in the fragment is solved as soon as the
    runtime is up, before that install can be done: the solve waits for the install under
    way, in the middle of the solve (JavaScript promise integration), instead of ending
    and starting over; the wheel is fetched once, and the result is the CLI's. A board
    that needs no SAT, solved next, waits for nothing."""
    page = tab.page
    wheels: list[str] = []
    page.on("request", lambda r: r.url.endswith(".whl") and wheels.append(r.url))
    hard = json.loads((ROOT / "benchmarks/hard/nanro-16x16.json").read_text())["boards"][0]
    tab.open("nanro", hard["url"])
    assert tab.wait("done", "error") == "done", tab.status()
    assert _untimed(tab.result()) == _untimed(_cli_json(capsys, "nanro", hard["url"]))
    assert page.evaluate("typeof WebAssembly.Suspending") == "function"
    timing = page.evaluate("window.__solve.timing")
    assert "aborted" not in timing, timing   # one attempt: no solve started over
    assert len(wheels) == 1 and wheels[0].rsplit("/", 1)[1].startswith("python_sat-")
    page.wait_for_function("window.__solve.wheelMs !== undefined", timeout=SOLVE_MS)
    ex = _example("nanro")
    got = _replied(tab, lambda: page.evaluate(f"location.hash = {json.dumps(ex['url'])}"))
    assert _untimed(got) == _untimed(_cli_json(capsys, "nanro", ex["url"]))
    assert "wheel" not in page.evaluate("window.__solve.timing")
    assert len(wheels) == 1


def test_no_single_clue_so_the_page_offers_a_proved_pair(tab, capsys) -> None:
    from test_solve_help import PAIR_BOARD

    from site_builder.solve_web import help_text

    page = tab.page
    tab.open("sukoro")
    tab.wait("idle", timeout=BOOT_MS)
    # the page's help budget (seconds) is sized for a quiet machine; the trials of every
    # single clue and then of the pairs take longer on a loaded one
    page.evaluate("window.__solve.cfg.help = 120")
    got = _replied(tab, lambda: page.evaluate(f"location.hash = {json.dumps(PAIR_BOARD)}"))
    assert got["solutions"] == 2
    page.wait_for_function("document.body.dataset.help === 'done'", timeout=SOLVE_MS)
    py = help_text("sukoro", PAIR_BOARD)
    got = page.evaluate("window.__solve.help")
    assert got["complete"]
    assert got["suggestions"] == [] and got["pairs"] == py["pairs"] and got["pairs"]
    assert page.locator("#help-status").text_content() == JS_STRINGS["en"]["pairHead"]
    assert page.locator("#help-list li").count() == 1
    assert page.locator("#solve-answers svg .solve-suggested").count() == 2 * 2
    after = _replied(tab, lambda: page.locator("#help-list button").first.click())
    assert after["solutions"] == 1
    assert _fragment(page) == py["pairs"][0]["url"]
    assert _untimed(after) == _untimed(_cli_json(capsys, "sukoro", py["pairs"][0]["url"]))
