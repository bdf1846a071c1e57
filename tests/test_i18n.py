"""The theme's words (site_builder/lang/<lang>.toml): every language has every text, and
each translation leaves the same {fields} for the code to fill in."""

from __future__ import annotations

import string

import pytest

from site_builder import i18n


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def _leaves(table: dict, at: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in table.items():
        if isinstance(v, dict):
            out |= _leaves(v, f"{at}{k}.")
        else:
            out[f"{at}{k}"] = v
    return out


@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGS if lang != "en"])
def test_every_language_has_every_text_with_the_same_fields(lang):
    en, other = _leaves(i18n.words("en")), _leaves(i18n.words(lang))
    assert sorted(set(en) ^ set(other)) == [], "keys in one language only"
    wrong = {k: (_fields(en[k]), _fields(other[k])) for k in en
             if _fields(en[k]) != _fields(other[k])}
    assert wrong == {}
    # (a text may be blank only where English leaves a bare space, as between words)
    assert [k for k, v in other.items() if not v.strip() and en[k].strip()] == []


def test_the_words_are_the_tables_the_pages_use():
    from site_builder import play, site, solve_page

    assert play.PAGE["ja"] is i18n.words("ja")["play_page"]
    assert solve_page.JS_STRINGS["en"] is i18n.words("en")["solve_script"]
    assert set(site.UI) == set(i18n.LANGS)
