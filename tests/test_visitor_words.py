"""No English left on the Japanese play, solve and board-list pages (issue 42): their
text as built and every string their scripts write, scanned for words in Latin letters
other than the names a Japanese page writes so (puzz.link, URL, JSON, the image formats
SVG and PNG, key names, and the language switcher's "English"). The count of what the scan finds is printed with -s."""

from __future__ import annotations

import html
import re
from pathlib import Path

from site_builder import play, solve_page
from site_builder.solve_page import standalone_files

ROOT = Path(__file__).resolve().parent.parent
# written in Latin letters on Japanese pages too
NAMES = {"puzz.link", "URL", "JSON", "Python", "JavaScript", "Backspace", "Delete", "Space",
         "Enter", "Shift", "Ctrl", "English", "SVG", "PNG"}


def _words(text: str) -> list[str]:
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\{\w+\}", " ", text)   # a template's fields
    return [w for w in re.findall(r"[A-Za-z][A-Za-z.'-]{2,}", text) if w.strip(".") not in NAMES]


def _page_text(page: str) -> str:
    page = re.sub(r"<(script|style|svg|kbd)\b.*?</\1>", " ", page, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_scan_finds_english():
    assert _words("盤を解く Solve a board") == ["Solve", "board"]


def test_japanese_pages_and_their_scripts_strings_have_no_english():
    from play_support import dist_files

    found: dict[str, list[str]] = {}
    files = {**standalone_files(ROOT), **dist_files()}
    pages = [k for k in files if k.startswith("ja/") and k.endswith(".html")
             and ("/play/" in k or "/solve/" in k or "/boards/" in k)]
    assert any("/boards/" in k for k in pages) and any("/solve/" in k for k in pages)
    for k in pages:
        got = _words(_page_text(str(files[k])))
        if got:
            found[k] = got
    tables = {"solve script": solve_page.JS_STRINGS["ja"], "solve page": solve_page.PAGE["ja"],
              "play script": play.JS_STRINGS["ja"], "play page": play.PAGE["ja"],
              "board list": play.BOARDS_PAGE["ja"],
              **{f"play page ({m})": t for m, t in play.MODEL_PAGE["ja"].items()}}
    for name, table in tables.items():
        for key, text in table.items():
            if isinstance(text, str) and _words(text):
                found[f"{name}: {key}"] = _words(text)
    print(f"\nuntranslated strings found: {sum(map(len, found.values()))}")
    assert found == {}
