"""Spoilers on request (issue 42): every answer an article draws (a board picture whose
call names an answer) waits behind a <details class="spoiler"> toggle, in both
languages; the unsolved board beside it does not."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from site_builder import build

ROOT = Path(__file__).resolve().parent.parent


def test_every_answer_in_an_article_is_behind_a_toggle():
    files = build.render_all(ROOT)
    articles = [k for k in files if re.fullmatch(r"(en|ja)/[^/]+/index\.html", k)]
    assert len(articles) >= 8
    answers = 0
    for k in articles:
        page = str(files[k])
        for m in re.finditer(r'<svg[^>]*data-src="([^"]*)"', page):
            call = json.loads(html.unescape(m.group(1)))
            before = page[:m.start()]
            hidden = before.rfind('<details class="spoiler">') > before.rfind("</details>")
            assert hidden == (call.get("answer") is not None), (k, call.get("label"))
            answers += call.get("answer") is not None
    assert answers >= 8   # an example answer at least per article
