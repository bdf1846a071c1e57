"""play_files: the files it returns, their JSON, and the pages' number provenance."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_play_browser import PKG, _bank, _puzzle

from site_builder import play
from site_builder.check import check_html

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def outputs():
    site = play._light_site(ROOT)
    return {slug: (play.play_files(site, _puzzle(slug), _bank(slug)), _bank(slug))
            for slug in PKG}


@pytest.mark.parametrize("slug", sorted(PKG))
def test_files_and_data(slug, outputs):
    files, bank = outputs[slug]
    assert f"en/{slug}/play/index.html" in files
    assert f"ja/{slug}/play/index.html" in files
    index = json.loads(files[f"{slug}/play-data/index.json"])
    assert [b["id"] for b in index["boards"]] == [b["id"] for b in bank["boards"]]
    for b in bank["boards"]:
        data = json.loads(files[f"{slug}/play-data/{b['id']}.json"])
        for k in ("board", "answer", "url", "trace", "grade", "clues"):
            assert data[k] == b[k]
    # Page + data files only; nothing else.
    assert len(files) == 2 + 1 + len(bank["boards"])


@pytest.mark.parametrize("slug", sorted(PKG))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_page_passes_number_check(slug, lang, outputs):
    files, _ = outputs[slug]
    html = files[f"{lang}/{slug}/play/index.html"]
    assert check_html(f"{lang}/{slug}/play/index.html", html, {}) == []
    assert f'<html lang="{lang}">' in html
    # Links are relative and point at the shared framework and this puzzle's checker.
    assert 'src="../../../static/play/play.js"' in html
    assert f'href="../../../static/play/{slug}.js"' in html
    cfg = json.loads(re.search(r'id="play-config">(.*?)</script>', html, re.DOTALL).group(1))
    assert cfg["slug"] == slug and cfg["lang"] == lang
    assert cfg["data"] == f"../../../{slug}/play-data/"
    assert set(cfg["strings"]) == set(play.JS_STRINGS["en"])


def test_both_languages_have_the_same_keys():
    assert set(play.JS_STRINGS["en"]) == set(play.JS_STRINGS["ja"])
    assert set(play.PAGE["en"]) == set(play.PAGE["ja"])
    for slug, text in play.PUZZLE_TEXT.items():
        assert set(text["en"]) == set(text["ja"]), slug


def test_unsafe_board_id_is_refused():
    site = play._light_site(ROOT)
    bad = {"boards": [{"id": "../x", "h": 1, "w": 1}]}
    with pytest.raises(ValueError, match="file name"):
        play.play_files(site, _puzzle("sukoro"), bad)


@pytest.mark.parametrize("slug", sorted(PKG))
def test_real_site_renders_the_play_pages(slug):
    """Through the lead's Site, once this puzzle's JSON is built."""
    if not all((ROOT / "content" / slug / f"{s}.json").exists()
               for s in ("bank", "stats", "ledger")):
        pytest.skip(f"content/{slug} is not built yet")
    from site_builder.site import Site

    site = Site(ROOT, slugs=[slug])
    files = play.play_files(site, _puzzle(slug), site.data[f"{slug}/bank"])
    for lang in ("en", "ja"):
        html = files[f"{lang}/{slug}/play/index.html"]
        assert check_html(lang, html, {}) == []
        assert 'href="../../../static/play/play.css"' in html
