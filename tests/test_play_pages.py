"""play_files: the files it returns, their JSON, the config the script reads, and the
pages' number provenance, for every registered puzzle and the framework's test puzzles."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import play_fixtures
import pytest
from play_support import ALL, REGISTERED, bank, puzzle

from site_builder import play
from site_builder.check import check_html
from site_builder.site import Site

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def outputs():
    site = Site(ROOT, load_data=False)
    return {slug: play.play_files(site, puzzle(slug), bank(slug)) for slug in ALL}


def _config(html: str) -> dict:
    return json.loads(re.search(r'id="play-config">(.*?)</script>', html, re.DOTALL).group(1))


@pytest.mark.parametrize("slug", ALL)
def test_files_and_data(slug, outputs):
    files, data = outputs[slug], bank(slug)
    assert f"en/{slug}/play/index.html" in files
    assert f"ja/{slug}/play/index.html" in files
    index = json.loads(files[f"{slug}/play-data/index.json"])
    assert [b["id"] for b in index["boards"]] == [b["id"] for b in data["boards"]]
    for b in data["boards"]:
        got = json.loads(files[f"{slug}/play-data/{b['id']}.json"])
        for k in ("board", "answer", "url", "grade", "clues"):
            assert got[k] == b[k]
        assert "trace" not in got
        # The hint trace, per language: the same steps with that language's text only.
        for lang, other in (("en", "ja"), ("ja", "en")):
            tr = json.loads(files[f"{slug}/play-data/hints-{lang}/{b['id']}.json"])
            assert tr["id"] == b["id"] and len(tr["trace"]) == len(b["trace"])
            for mine, step in zip(tr["trace"], b["trace"], strict=True):
                assert mine[lang] == step[lang] and other not in mine
                if "detail" in step:
                    assert mine["detail"] == {lang: step["detail"][lang]}
                rest = {k: v for k, v in step.items() if k not in ("en", "ja", "detail")}
                assert {k: v for k, v in mine.items() if k not in (lang, "detail")} == rest
        # Difficulty rides along where the bank has it, and is left out where it has not.
        for k in ("difficulty", "effort"):
            assert got.get(k) == b.get(k)
    for e, b in zip(index["boards"], data["boards"], strict=True):
        for k in ("difficulty", "effort"):
            assert e.get(k) == b.get(k)
    # Pages (the player and the board list, per language) + data files only (a board file
    # and a hint file per language); nothing else.
    assert len(files) == 2 + 2 + 1 + 3 * len(data["boards"])


@pytest.mark.parametrize("slug", ALL)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_page_passes_number_check(slug, lang, outputs):
    html = outputs[slug][f"{lang}/{slug}/play/index.html"]
    assert check_html(f"{lang}/{slug}/play/index.html", html, {}) == []
    assert f'<html lang="{lang}">' in html
    # Links are relative and point at the shared framework and this puzzle's checker.
    assert 'src="../../../static/play/play.js"' in html
    assert f'href="../../../static/play/{slug}.js"' in html
    css = f'href="../../../static/play/{slug}.css"'
    assert (css in html) == puzzle(slug).play.css


@pytest.mark.parametrize("slug", ALL)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_config_comes_from_the_puzzle(slug, lang, outputs):
    p = puzzle(slug)
    cfg = _config(outputs[slug][f"{lang}/{slug}/play/index.html"])
    assert cfg["slug"] == slug and cfg["lang"] == lang
    assert cfg["data"] == f"../../../{slug}/play-data/"
    assert set(cfg["strings"]) == set(play.JS_STRINGS["en"])
    assert cfg["model"] == p.play.model and cfg["input"] == json.loads(json.dumps(p.play.input))
    assert cfg["rules"] == p.rules.to_json()
    assert cfg["readout"] == p.play.text[lang].get("readout")
    named = {*p.rung_names.get("en", {}), *p.rung_names.get(lang, {})}
    assert set(cfg["rungNames"]) == {*p.rungs, "search"} | named
    assert cfg["rungNames"] == {r: p.rung_name(r, lang) for r in cfg["rungNames"]}
    # Every rung a trace step names has a name on the page.
    used = {s.get("rung") for b in bank(slug)["boards"] for s in b.get("trace") or []}
    assert used - {None} <= set(cfg["rungNames"]), used - set(cfg["rungNames"])
    assert set(cfg["levelNames"]) == set(cfg["levels"])
    assert cfg["levelNames"] == {lv: play.LEVEL_NAMES[lang][lv] for lv in cfg["levels"]}
    # Every rung, "search" included, is translated on the Japanese page.
    if lang == "ja":
        assert all(cfg["rungNames"][r] != p.rung_name(r, "en") for r in cfg["rungNames"])


@pytest.mark.parametrize("slug", ALL)
def test_play_spec_is_complete(slug):
    """What the framework reads from PlaySpec: a known model, the state names in both
    languages, a click cycle and keys over those states, the trace names, the help text."""
    spec = puzzle(slug).play
    assert spec.model in play.MODELS
    inp = spec.input
    n = len(inp["states"]["en"])
    assert len(inp["states"]["ja"]) == n and n >= 2
    assert sorted(inp["cycle"]) == list(range(n))
    assert set(inp["keys"].values()) <= set(range(1, n))
    assert all(k == k.lower() for k in inp["keys"])
    assert set(inp["trace"].values()) <= set(range(1, n))
    assert set(spec.text["en"]) == set(spec.text["ja"])
    assert {"cycle", "keys", "rules"} <= set(spec.text["en"])
    static = [f.name for f in play_fixtures.STATIC[slug]] if slug in play_fixtures.STATIC \
        else [f.name for f in (puzzle(slug).package_dir / "static" / "play").glob(f"{slug}.*")]
    assert f"{slug}.js" in static
    assert (f"{slug}.css" in static) == spec.css


def test_both_languages_have_the_same_keys():
    assert set(play.JS_STRINGS["en"]) == set(play.JS_STRINGS["ja"])
    assert set(play.PAGE["en"]) == set(play.PAGE["ja"])
    for model in play.MODELS:
        assert set(play.MODEL_PAGE["en"][model]) == set(play.MODEL_PAGE["ja"][model])
        assert set(play.MODEL_PAGE["en"][model]) <= set(play.PAGE["en"])


def test_unsafe_board_id_is_refused():
    site = Site(ROOT, load_data=False)
    bad = {"boards": [{"id": "../x", "h": 1, "w": 1}]}
    with pytest.raises(ValueError, match="file name"):
        play.play_files(site, puzzle(REGISTERED[0]), bad)


def test_the_framework_names_no_puzzle():
    """Issue 8's acceptance grep, over the play framework's own files (the rest of
    site_builder/ and templates/*.j2 belong to the site builder)."""
    names = "canal|sukoro|sashigane|nanro"
    paths = ["site_builder/play.py", "site_builder/theme/play.html.j2",
             "site_builder/theme/static/play/play.js", "site_builder/theme/static/play/grid.js",
             "site_builder/theme/static/play/play.css"]
    res = subprocess.run(["grep", "-niE", names, *paths], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    assert res.returncode == 1, res.stdout + res.stderr


@pytest.mark.parametrize("slug", REGISTERED)
def test_real_site_renders_the_play_pages(slug):
    """Through the Site the build uses, with this puzzle's stage files loaded."""
    site = Site(ROOT, slugs=[slug])
    files = play.play_files(site, puzzle(slug), site.data[f"{slug}/bank"])
    for lang in ("en", "ja"):
        html = files[f"{lang}/{slug}/play/index.html"]
        assert check_html(lang, html, {}) == []
        assert 'href="../../../static/play/play.css"' in html


@pytest.mark.parametrize("slug", ALL)
def test_first_board_is_an_easy_one(slug, outputs):
    """A newcomer's first board (inline in the page) is the first "easy" board in bank
    order; without one, the first of the lowest difficulty present; without difficulty
    at all (a bank built before it), the bank's first."""
    boards = bank(slug)["boards"]
    cfg = _config(outputs[slug][f"en/{slug}/play/index.html"])
    levels = cfg["levels"]
    rated = [b for b in boards if b.get("difficulty") in levels]
    if not rated:
        want = boards[0]
    else:
        low = min(levels.index(b["difficulty"]) for b in rated)
        want = next(b for b in rated if levels.index(b["difficulty"]) == low)
    assert cfg["first"]["id"] == want["id"]
    assert cfg["first"] == play.board_entry(want)


def test_first_board_rules():
    lv = list(play.LEVELS)
    b = [{"id": "a", "difficulty": "hard"}, {"id": "b", "difficulty": "easy"},
         {"id": "c", "difficulty": "easy"}]
    assert play.first_board(b, lv)["id"] == "b"
    assert play.first_board([{"id": "a", "difficulty": "expert"},
                             {"id": "b", "difficulty": "medium"}], lv)["id"] == "b"
    assert play.first_board([{"id": "a"}, {"id": "b"}], lv)["id"] == "a"
    assert play.first_board([], lv) is None
    # The fixtures prove it on a real page: test-regions' first easy board is not its first.
    regions = play_fixtures.BANKS["test-regions"]["boards"]
    assert regions[0]["difficulty"] != "easy"
    assert play.first_board(regions, lv)["id"] == "3x3-01"
