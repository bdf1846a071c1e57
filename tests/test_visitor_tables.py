"""Article tables that fit (issue 51, item 2): at 1280 px no table is wider than the
article's column (ten per language were, the Sashigane tiling table 1,673 px, cut
mid-number); on a phone a wider table scrolls inside its own block, which shows a cue,
and the page itself never scrolls sideways; a number is never broken over two lines.
The widest table per width is printed with -s (benchmarks/play.py measures it too)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from play_support import chromium, serve_files

from site_builder import tables
from site_builder.build import render_all
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent


def _table(cols: int, rows: int, cell: str = "1,557,970") -> str:
    head = "".join(f"<th>{'n' if j == 0 else j}</th>\n" for j in range(cols))
    body = "".join("<tr>\n" + "".join(f"<td>{r if j == 0 else cell}</td>\n"
                                       for j in range(cols)) + "</tr>\n" for r in range(rows))
    return (f"<table>\n<caption>c</caption>\n<thead>\n<tr>\n{head}</tr>\n</thead>\n"
            f"<tbody>\n{body}</tbody>\n</table>")


def test_a_wide_table_is_split_into_bands_that_repeat_the_first_column():
    out = tables.fit_tables(_table(15, 5))
    assert out.count("<table>") == 1 and out.count("<caption>") == 1
    assert out.count('<tbody class="band">') == 1            # two bands of 7 columns
    rows = re.findall(r"<tr>\n(.*?)</tr>", out, re.DOTALL)
    assert len(rows) == 2 * (1 + 5)
    assert all(len(re.findall(r"<t[hd]", r)) == 8 for r in rows)
    # every cell kept once, the first column once per band
    assert out.count("1,557,970") == 14 * 5
    assert re.findall(r"<td>(\d)</td>", out) == [str(r) for r in range(5)] * 2
    # a narrow table is left as it was
    assert tables.fit_tables(_table(4, 5)) == _table(4, 5)


PAGES: list[str] = []


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    files = {k: v for k, v in render_all(ROOT, None).items()
             if k.endswith((".html", ".css", ".svg", ".js", ".json"))}
    PAGES[:] = sorted(k for k in files if k.endswith(".html"))
    with serve_files(tmp_path_factory.mktemp("dist"), files) as base:
        yield base


def test_every_page_fits_a_360_px_phone(served):
    """Issue 51, item 1: no page of the site scrolls sideways at 360 px."""
    over = {}
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True,
                                has_touch=True)
        for path in PAGES:
            page.goto(f"{served}/{path}")
            got = page.evaluate("document.documentElement.scrollWidth - innerWidth")
            if got > 0:
                over[path] = got
    assert len(PAGES) > 40 and over == {}, over


WIDTHS = """() => {
  const col = document.querySelector('.article').clientWidth;
  const wraps = [...document.querySelectorAll('.table-wrap')];
  return {col, over: document.documentElement.scrollWidth - innerWidth,
    tables: wraps.map(w => ({width: w.querySelector('table').getBoundingClientRect().width,
      scrolls: w.scrollWidth - w.clientWidth > 1, overflow: getComputedStyle(w).overflowX,
      cue: getComputedStyle(w).backgroundImage.includes('gradient')})),
    broken: [...document.querySelectorAll('.article td data')]
      .filter(d => d.getClientRects().length > 1).map(d => d.textContent)}; }"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_table_is_wider_than_the_column_at_1280_and_a_phone_scrolls_it_with_a_cue(lang,
                                                                                   served):
    with chromium() as browser:
        for width in (1280, 390, 360):
            page = browser.new_page(viewport={"width": width, "height": 900})
            widest = 0.0
            try:
                for slug in registry.slugs():
                    page.goto(f"{served}/{lang}/{slug}/index.html")
                    got = page.evaluate(WIDTHS)
                    assert got["tables"], slug
                    assert got["over"] <= 0, (slug, width, got["over"])
                    assert got["broken"] == [], (slug, width, got["broken"])
                    for t in got["tables"]:
                        widest = max(widest, t["width"])
                        if width == 1280:
                            assert t["width"] <= got["col"] + 0.5, (slug, t, got["col"])
                        # wider than the column: it scrolls in its block, which shows a cue
                        assert t["overflow"] == "auto" and t["cue"], (slug, t)
                        if abs(t["width"] - got["col"]) > 2:   # (sub-pixel widths aside)
                            assert t["scrolls"] == (t["width"] > got["col"]), (slug, t)
            finally:
                page.close()
            print(f"\n{lang} at {width} px: widest table {widest:.0f} px")


def test_a_split_table_joins_back_to_the_rows_as_written() -> None:
    """join_bands undoes fit_tables, so a page's text and its structure count (EN/JA
    parity) do not depend on where a language's wider words split a table."""
    import re

    from site_builder.tables import fit_tables, join_bands

    head = "".join(f"<th>head number {j} words</th>\n" for j in range(12))
    body = "".join("<tr>\n" + "".join(f"<td>{i * 100 + j}</td>\n" for j in range(12)) + "</tr>\n"
                   for i in range(3))
    html = f"<table>\n<thead>\n<tr>\n{head}</tr>\n</thead>\n<tbody>\n{body}</tbody>\n</table>"
    fitted = fit_tables(html)
    assert fitted.count('<tbody class="band">') >= 1
    assert re.sub(' class="words"', "", join_bands(fitted)) == html
    assert join_bands(html) == html
