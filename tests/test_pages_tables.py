"""Pages without loose ends: every table cell that prints a dash or nothing says why in
its caption, charts mark series drawn on top of each other, and the sitemap holds only
absolute URLs (or is absent)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder import charts
from site_builder.build import render_all
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
BASE = "https://example.org/puzzles/"
# The words a caption uses to explain a dash and a blank cell, per language.
EXPLAINS = {"en": {"—": "dash", "": "blank"}, "ja": {"—": "「—」", "": "空欄"}}


@pytest.fixture(scope="module")
def site() -> dict[str, str | bytes]:
    return render_all(ROOT, BASE)


def _text(cell: str) -> str:
    return re.sub(r"<[^>]+>", "", cell).strip()


def test_every_dash_and_blank_cell_is_explained_in_its_caption(site) -> None:
    tables = 0
    for slug in registry.slugs():
        for lang in ("en", "ja"):
            html = site[f"{lang}/{slug}/index.html"]
            assert isinstance(html, str)
            for table in re.findall(r"<table>.*?</table>", html, re.DOTALL):
                tables += 1
                cap = re.search(r"<caption>(.*?)</caption>", table, re.DOTALL)
                caption = re.sub(r"<wbr>", "", cap[1]) if cap else ""
                cells = [_text(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", table,
                                                      re.DOTALL)]
                for mark, word in EXPLAINS[lang].items():
                    if mark in cells:
                        assert word in caption, (
                            f"{lang}/{slug}: a table has {mark or 'blank'!r} cells but its "
                            f"caption does not say why ({word!r} missing): {caption[:120]}")
    assert tables > 20


def test_sitemap_lists_absolute_urls_under_the_base(site) -> None:
    sitemap = site["sitemap.xml"]
    assert isinstance(sitemap, str)
    locs = re.findall(r"<loc>([^<]*)</loc>", sitemap)
    pages = [k for k in site if k.endswith(".html") and k != "404.html"]
    assert len(locs) == len(pages) > 30
    assert all(loc.startswith(BASE) for loc in locs), [x for x in locs if not x.startswith(BASE)]
    assert f"{BASE}en/sukoro/" in locs and BASE in locs
    assert f"Sitemap: {BASE}sitemap.xml" in str(site["robots.txt"])


@pytest.mark.parametrize("base", ["", "/puzzles/"])
def test_no_sitemap_without_an_absolute_base_url(base: str) -> None:
    files = render_all(ROOT, base, ["sukoro"])
    assert "sitemap.xml" not in files
    assert "Sitemap" not in str(files["robots.txt"])


def _legend(svg: str) -> list[str]:
    return re.findall(r'class="legend">([^<]*)<', svg)


def test_chart_marks_coinciding_and_near_series() -> None:
    same = charts.line_chart(["a", "b", "c"], {"p": [0.2, 0.5, 0.7], "q": [0.2, 0.5, 0.7],
                                               "r": [0.9, 0.1, 0.3]})
    wide = same.split("</svg>")[0]
    assert _legend(wide) == ["p = q", "r"]
    assert wide.count("<polyline") == 3 and wide.count("stroke-dasharray") == 1
    near = charts.line_chart(["a", "b"], {"p": [0.2, 0.5], "q": [0.21, 0.49], "r": [0.3, 0.5]})
    assert _legend(near.split("</svg>")[0]) == ["p ≈ q", "r"]
    apart = charts.line_chart(["a", "b"], {"p": [0.2, 0.5], "q": [0.6, 0.1]})
    wide = apart.split("</svg>")[0]
    assert _legend(wide) == ["p", "q"] and "stroke-dasharray" not in wide


_CJK = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60、。「」（）]"
_FIGURE = r'(?:<data\b[^>]*>[^<]*</data>|<span class="lit">\d[^<]*</span>)'


def test_japanese_sets_numbers_solid_and_ratios_as_bai(site) -> None:
    """One spacing rule in Japanese: a number or size touches the words beside it; and a
    ratio is written 倍, not ×."""
    checked = 0
    for path, content in site.items():
        if not path.startswith("ja/") or not path.endswith(".html"):
            continue
        html = str(content)
        checked += len(re.findall(_FIGURE, html))
        gaps = re.findall(rf"{_CJK} +(?:<(?:strong|em)>)*{_FIGURE}|"
                          rf"{_FIGURE}(?:</(?:strong|em)>)* +{_CJK}", html)
        assert not gaps, f"{path}: a space between Japanese and a number: {gaps[:3]}"
        ratios = re.findall(r"<data\b[^>]*>[^<]*×</data>", html)
        assert not ratios, f"{path}: a ratio printed with × in Japanese: {ratios[:3]}"
    for slug in registry.slugs():
        readme = str(site[f"{slug}/README.ja.md"])
        p = registry.get(slug)
        for r in p.rungs:  # a rung's name is a name, spelt by the solver package
            readme = readme.replace(p.rung_name(r, "ja"), "「」")
        gaps = re.findall(rf"{_CJK} +[\d−]|(?<![\w.])\d[\d,.]*[%×]? +{_CJK}", readme)
        assert not gaps, f"{slug}/README.ja.md: a space between Japanese and a number: {gaps[:3]}"
    assert checked > 500
