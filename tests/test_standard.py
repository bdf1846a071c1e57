"""The site's standard (``site_builder.testing``, the kit plugin authors run) applied to
every registered puzzle: EN/JA structure parity, Japanese typography, sampled values with
their intervals, every banked board confirmed by a second method, engines that agree.
(The play checker against rules.py and partial.py: tests/test_play_checkers.py, through
the same kit.) The kit's own checks are tested to fail on what they are meant to catch."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder import testing
from site_builder.samples import check_page, declared, expand
from site_builder.words import counter_word, plural_word
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
SLUGS = tuple(registry.slugs())


@pytest.mark.parametrize("slug", SLUGS)
def test_article_structure_parity(slug: str) -> None:
    got = testing.check_parity(slug, root=ROOT)
    assert got["en"]["headings"] >= 5 and got["en"]["tables"] >= 2


@pytest.mark.parametrize("slug", SLUGS)
def test_japanese_typography(slug: str) -> None:
    assert testing.check_typography(slug, root=ROOT) >= 3


@pytest.mark.parametrize("slug", SLUGS)
def test_templates_keep_their_paragraph_breaks(slug: str) -> None:
    assert testing.check_templates(slug) >= 5


def test_template_lint_catches_an_eaten_paragraph_break(tmp_path: Path) -> None:
    t = tmp_path / "a.md.j2"
    t.write_text("One.{% if x %} Two.{% endif %}\n\nThree.\n")
    assert len(testing.template_problems(t)) == 1
    t.write_text("One.{% if x %} Two.{% endif +%}\n\nThree.\n| a | {% for x in y %}b | "
                 "{% endfor %}\n\n|---|\n")
    assert testing.template_problems(t) == []


def test_sampled_values_carry_their_intervals() -> None:
    assert testing.check_sampled_intervals(root=ROOT) > 50


@pytest.mark.parametrize("slug", SLUGS)
def test_bank_confirmed_by_a_second_method(slug: str) -> None:
    assert testing.check_bank_confirmed(slug, root=ROOT) >= 24


def test_engines_agree_on_small_bank_boards() -> None:
    assert testing.check_engines_agree("slitherlink", root=ROOT) >= 1


# ---- the kit catches what it is for --------------------------------------------------------

def test_structure_counts_and_parity_failure() -> None:
    html = ('<h2>a</h2><table><tr><td>1</td></tr><tr><td>2</td></tr></table><ul><li>x</li>'
            '</ul><figure class="chart" data-src="k"></figure><svg data-src="b"></svg>')
    assert testing.structure(html) == {"headings": 1, "tables": 1, "table rows": 2,
                                       "list items": 1, "charts": 1, "board pictures": 1}


@pytest.mark.parametrize("text, caught", [
    ("6x6 の盤", True), ("6×6 の盤", False), ("12〜14", True), ("12～14", False),
    ("このブラウザに保存", True), ("このブラウザーに保存", False),
    ("手掛かり:三つ", True), ("手掛かり：三つ", False), ("10つの領域", True),
    ("9つの領域", False), ("10個の領域", False), ("ナンロー ― 二つの事実", True),
    ("ナンロー：二つの事実", False), ("https://sen.ltd/ と", False),
    ("鋭い形です。- 最小の問題", True),
])
def test_typography_lint(text: str, caught: bool) -> None:
    assert bool(testing.typography_problems(text)) is caught


def test_sampled_check_needs_the_interval_on_the_same_line() -> None:
    data = {"samples": [{"value": "rows.*.share", "interval": "rows.*.ci.share"},
                        {"value": "rows.*.*", "interval": "rows.*.ci.*"}],
            "rows": {"5x5": {"share": 0.5, "boards": 8, "ci": {"share": {"lo": 0.2, "hi": 0.8}}},
                     "7x7": {"share": 0.25}}}
    pats = expand(declared({"s/stats": data}), {"s/stats": data})
    # a wildcard takes in only numbers whose interval is there: not the count beside them,
    # not a row that has no interval, not the interval object itself
    assert pats == {"s/stats.rows.5x5.share": "s/stats.rows.5x5.ci.share"}
    alone = [{"key": "s/stats.rows.5x5.share", "line": 3, "at": "article.en.md.j2:9"}]
    problems = check_page("en/s/index.html", alone, pats)
    assert len(problems) == 1 and "article.en.md.j2:9" in problems[0]
    assert "s/stats.rows.5x5.share" in problems[0] and "en/s/index.html" in problems[0]
    beside = alone + [{"key": "s/stats.rows.5x5.ci.share.lo", "line": 3},
                      {"key": "s/stats.rows.5x5.ci.share.hi", "line": 3}]
    assert check_page("p", beside, pats) == []
    elsewhere = alone + [{"key": "s/stats.rows.5x5.ci.share.lo", "line": 4},
                         {"key": "s/stats.rows.5x5.ci.share.hi", "line": 4}]
    assert len(check_page("p", elsewhere, pats)) == 1


def test_plural_and_counter_words() -> None:
    assert [plural_word(n, "cell") for n in (0, 1, 2)] == ["cells", "cell", "cells"]
    assert plural_word(1, "board") + " " + plural_word(1, "was") == "board was"
    assert plural_word(3, "board") + " " + plural_word(3, "was") == "boards were"
    assert plural_word(2, "a puzzle", "puzzles") == "puzzles"
    assert plural_word(2, "box") == "boxes" and plural_word(2, "query") == "queries"
    assert [counter_word(n, "つ") for n in (1, 9, 10, 24)] == ["つ", "つ", "個", "個"]
    assert counter_word(10, "問") == "問"
