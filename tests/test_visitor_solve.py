"""The solve page as a visitor meets it (issue 42) and its browser-side limits (issue 43
item 7): a 64 KiB cap on pasted text and on the fragment before anything is parsed, the
time limit clamped to what setTimeout can hold, help under a watchdog, errors in the
visitor's words (the right page linked, the kept board said), a pad with only the
values a clue can take, the interpreter's start kept between visits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from play_support import chromium
from solve_support import ARGS, serve_files

from site_builder import runtime, solve_page

ROOT = Path(__file__).resolve().parent.parent
START_MS = 180_000


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    try:
        runtime.files(ROOT)
    except runtime.RuntimeMissing as e:
        pytest.fail(f"the solve runtime is missing ({e}); run: python -m site_builder.runtime")
    with serve_files(tmp_path_factory.mktemp("dist"), solve_page.standalone_files(ROOT)) as base:
        yield base


@pytest.fixture(scope="module")
def context(served):
    with chromium(ARGS) as b:
        ctx = b.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
        yield ctx
        ctx.close()


def _open(context: Any, served: str, slug: str, lang: str = "en", fragment: str = "") -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{served}/{lang}/{slug}/solve/index.html" + (f"#{fragment}" if fragment else ""))
    return page


def _idle(page: Any) -> None:
    page.wait_for_function("['idle', 'done', 'error'].includes(document.body.dataset.solve)",
                           timeout=START_MS)


def _bank_url(slug: str, i: int = 0) -> str:
    bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]
    return str(bank[i]["url"])


def test_a_megabyte_of_text_is_refused_before_the_worker_sees_it(context, served):
    page = _open(context, served, "sukoro")
    try:
        _idle(page)
        page.evaluate("document.body.dataset.replies = '0'")
        page.fill("#solve-input", "https://puzz.link/p?sukoro/5/5/" + "a" * (1 << 20))
        page.click("#solve-go")
        page.wait_for_function("document.body.dataset.solve === 'error'", timeout=5_000)
        reply = page.evaluate("window.__solve.reply")
        assert reply["error"] == "long" and reply["length"] > 1 << 20
        assert "too long" in page.locator("#solve-status").text_content()
        # nothing went to the worker: no solve is under way, the fragment did not change
        assert page.evaluate("location.hash") == ""
        # the same in the fragment (a shared link), before it is decoded
        page.evaluate("location.hash = 'sukoro/5/5/' + '%61'.repeat(200000)")
        page.wait_for_function("window.__solve.reply.error === 'long'"
                               " && document.body.dataset.replies === '2'", timeout=5_000)
        # and a board at the cap's side of it still solves
        page.evaluate(f"location.hash = {json.dumps(_bank_url('sukoro'))}")
        page.wait_for_function("document.body.dataset.solve === 'done'", timeout=60_000)
        assert page.errors == []
    finally:
        page.close()


def test_a_huge_time_limit_is_clamped_and_the_watchdog_waits(context, served):
    page = _open(context, served, "sukoro")
    try:
        _idle(page)
        page.evaluate("document.getElementById('solve-details')?.setAttribute('open', '')")
        page.evaluate("document.getElementById('solve-timeout').value = '1e7'")
        page.evaluate(f"location.hash = {json.dumps(_bank_url('sukoro', 1))}")
        page.wait_for_function("document.body.dataset.solve === 'done'", timeout=60_000)
        cap = solve_page.MAX_PAGE_TIMEOUT
        assert float(page.evaluate("document.getElementById('solve-timeout').value")) == cap
        assert (cap + solve_page.GRACE) * 1000 <= 2**31 - 1
        assert page.evaluate("window.__solve.reply.ok")   # the watchdog did not fire at once
    finally:
        page.close()


def test_help_is_under_a_watchdog(context, served):
    page = _open(context, served, "sukoro")
    try:
        _idle(page)
        # help's watchdog at once (grace taken below zero): it stops the help, says so,
        # and the solver starts again
        page.evaluate("window.__solve.cfg.grace = -window.__solve.cfg.help")
        page.evaluate(f"location.hash = {json.dumps(_bank_url('sukoro', 2))}")
        page.wait_for_function("document.body.dataset.help === 'stopped'", timeout=60_000)
        assert "stopped" in page.locator("#help-status").text_content()
        page.wait_for_function("document.body.dataset.solve === 'idle'", timeout=START_MS)
    finally:
        page.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_errors_say_what_is_wrong_and_link_the_right_page(context, served, lang):
    page = _open(context, served, "sukoro", lang)
    try:
        _idle(page)
        page.evaluate("location.hash = 'https://puzz.link/p?sukoro/5/5/z'")
        page.wait_for_function("document.body.dataset.solve === 'error'", timeout=30_000)
        text = page.locator("#solve-status").text_content()
        strings = solve_page.JS_STRINGS[lang]
        assert strings["keptBoard"] in text
        assert "URL body" not in text and "cell(s)" not in text   # no developer's words
        assert ("character 1 " if lang == "en" else "1 文字目") in text, text
        other = _bank_url("nanro")
        page.evaluate(f"location.hash = {json.dumps(other)}")
        page.wait_for_function("document.querySelector('#solve-other')", timeout=30_000)
        href = page.locator("#solve-other").get_attribute("href")
        assert href.split("#", 1)[0].endswith(f"/{lang}/nanro/solve/")
        page.click("#solve-other")
        page.wait_for_function("document.body.dataset.solve === 'done'", timeout=START_MS)
        assert page.evaluate("window.__solve.cfg.slug") == "nanro"
    finally:
        page.close()


def test_the_pad_offers_only_a_clues_values_and_a_refused_key_says_why(context, served):
    page = _open(context, served, "sukoro")
    try:
        _idle(page)
        keys = page.evaluate("[...document.querySelectorAll('#edit-pad button')]"
                             ".map(b => b.dataset.key)")
        assert keys == ["1", "2", "3", "4", "?", "Backspace"]
        page.focus("#edit-board svg")
        page.keyboard.press("7")
        page.wait_for_function("document.body.dataset.rejected === '1'")
        assert "from 1 to 4" in page.locator("#solve-status").text_content()
        # 44 px buttons on a touch screen
        small = page.evaluate("""[...document.querySelectorAll('.solve button')]
            .filter(b => b.getClientRects().length)
            .filter(b => b.getBoundingClientRect().height < 44).map(b => b.id || b.textContent)""")
        assert small == []
    finally:
        page.close()


def test_a_second_visit_restores_the_interpreter_and_solves_alike(context, served):
    url = _bank_url("nanro", 3)
    page = _open(context, served, "nanro", fragment=url)
    try:
        page.wait_for_function("document.body.dataset.solve === 'done'", timeout=START_MS)
        first = page.locator("#solve-result").text_content()
        page.wait_for_function("window.__solve.kept === true"
                               " || (window.__solve.bootMarks || {}).snapshot > 0",
                               timeout=30_000)
        page.reload()
        page.wait_for_function("document.body.dataset.solve === 'done'", timeout=START_MS)
        assert page.evaluate("window.__solve.bootMarks.snapshot") > 1 << 20
        again = page.locator("#solve-result").text_content()
        strip = lambda t: {k: v for k, v in json.loads(t).items() if k not in ("seconds", "ms")}
        assert strip(again) == strip(first)
    finally:
        page.close()


def test_the_step_view_hides_what_later_steps_place(context, served):
    page = _open(context, served, "sukoro", fragment=_bank_url("sukoro", 4))
    try:
        page.wait_for_function("document.body.dataset.solve === 'done'", timeout=START_MS)
        trace = json.loads(page.locator("#solve-result").text_content())["trace"]
        later = {tuple(c) for s in trace[1:] for c in s["cells"]} - {tuple(c) for c in trace[0]["cells"]}
        veils = page.locator("#step-board svg .step-veil")
        assert veils.count() == len(later) > 0
        assert veils.first.evaluate("e => getComputedStyle(e).fillOpacity") == "1"
        page.click("#step-next")
        seen = {tuple(c) for s in trace[:2] for c in s["cells"]}
        assert veils.count() == len({tuple(c) for s in trace[2:] for c in s["cells"]} - seen)
    finally:
        page.close()
