"""Articles as a reader gets them, rendered from the committed JSON (no stage runs):
captions on every table, Japanese headings that break between words, a board picture
before the first section, a closing section, and chart text that a phone can read."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from play_support import ARGS, CHROMIUM, serve_files, write_files

from site_builder.build import render_all
from site_builder.site import phrase_breaks, table_captions
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
SLUGS = tuple(registry.slugs())
ARTICLES = [(lang, slug) for slug in SLUGS for lang in ("en", "ja")]
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff"
# Words of the build, not of the reader.
BUILD_WORDS = re.compile(r"\b(stages?|ledger|fixpoint|fixed point|bank stage|pipeline|the build)\b"
                         r"|ステージ|台帳|不動点|パイプライン", re.IGNORECASE)


@pytest.fixture(scope="module")
def files() -> dict[str, str | bytes]:
    return render_all(ROOT)


def article(files: dict[str, str | bytes], lang: str, slug: str) -> str:
    page = files[f"{lang}/{slug}/index.html"]
    assert isinstance(page, str)
    return page.split('<article class="article">', 1)[1].split("</article>", 1)[0]


def visible_text(html: str) -> str:
    html = re.sub(r"<(svg|script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return re.sub(r"<[^>]+>", "", html)


def bank_data(slug: str) -> dict:
    return json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]


@pytest.mark.parametrize(("lang", "slug"), ARTICLES)
def test_every_table_has_a_caption(files: dict[str, str | bytes], lang: str, slug: str) -> None:
    body = article(files, lang, slug)
    tables = re.findall(r"<table>(.*?)</table>", body, flags=re.DOTALL)
    assert tables, "an article without a table"
    bare = [t[:120] for t in tables if not re.match(r"\s*<caption>[^<]", t)]
    assert not bare, bare


@pytest.mark.parametrize(("lang", "slug"), ARTICLES)
def test_article_has_a_closing_section(files: dict[str, str | bytes], lang: str, slug: str) -> None:
    heads = re.findall(r"<h2[^>]*>(.*?)</h2>", article(files, lang, slug), flags=re.DOTALL)
    last = visible_text(heads[-1]).replace("#", "").strip()
    assert last in ({"en": "What it adds up to"}.get(lang, "まとめ"),), heads[-1]


@pytest.mark.parametrize(("lang", "slug"), ARTICLES)
def test_no_build_vocabulary_in_prose(files: dict[str, str | bytes], lang: str, slug: str) -> None:
    text = visible_text(article(files, lang, slug))
    assert not BUILD_WORDS.findall(text), [text[max(0, m.start() - 40):m.end() + 40]
                                           for m in BUILD_WORDS.finditer(text)]


@pytest.mark.parametrize("slug", SLUGS)
def test_japanese_text_names_rungs_in_japanese(files: dict[str, str | bytes], slug: str) -> None:
    p = registry.get(slug)
    text = visible_text(article(files, "ja", slug))
    english = {p.rung_name(r, "en") for r in (*p.rungs, "search")} | set(p.rungs)
    found = sorted(w for w in english if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text))
    assert not found, found


@pytest.mark.parametrize(("lang", "slug"), ARTICLES)
def test_example_board_before_the_first_section(files: dict[str, str | bytes], lang: str,
                                                slug: str) -> None:
    """The opening picture is drawn from ``bank.example`` (a board that is not in the
    playable bank) whenever the bank data has one."""
    body = article(files, lang, slug)
    lead = body.split("<h2", 1)[0]
    assert "example" in bank_data(slug), f"{slug}: bank.json has no example board"
    fig = re.search(r'<figure class="example">(.*?)</figure>', lead, flags=re.DOTALL)
    assert fig, "no example board before the first section heading"
    assert "<svg" in fig.group(1) and "<figcaption>" in fig.group(1)


def test_example_figure_renders_from_example_data(tmp_path: Path) -> None:
    """With a ``data.example`` added to a copy of the bank, every article draws it."""
    import shutil

    copy = tmp_path / "repo"
    shutil.copytree(ROOT / "content", copy / "content")
    shutil.copy(ROOT / "site.toml", copy / "site.toml")
    for slug in SLUGS:
        path = copy / "content" / slug / "bank.json"
        doc = json.loads(path.read_text())
        first = doc["data"]["boards"][0]
        doc["data"]["example"] = {"board": first["board"], "answer": first["answer"],
                                  "url": first.get("url", ""), "trace": []}
        path.write_text(json.dumps(doc))
    out = render_all(copy)
    for lang, slug in ARTICLES:
        lead = article(out, lang, slug).split("<h2", 1)[0]
        assert '<figure class="example">' in lead and "<svg" in lead, (lang, slug)
    from site_builder.check import check_html, load_sources

    sources = load_sources(copy, list(SLUGS))
    problems = [p for lang, slug in ARTICLES
                for p in check_html(slug, str(out[f"{lang}/{slug}/index.html"]), sources)]
    assert not problems, problems[:5]


@pytest.mark.parametrize("slug", SLUGS)
def test_japanese_headings_break_between_phrases(files: dict[str, str | bytes], slug: str) -> None:
    body = article(files, "ja", slug)
    heads = re.findall(r"<(h[1-4]|th|caption|figcaption)\b[^>]*>(.*?)</\1>", body, flags=re.DOTALL)
    long = [inner for _, inner in heads if len(re.findall(f"[{CJK}]", visible_text(inner))) >= 8]
    assert long
    unbroken = [visible_text(h) for h in long if "<wbr>" not in h]
    assert not unbroken, unbroken


def test_phrase_breaks_keep_figures_and_anchors_whole() -> None:
    html = ('<h2 id="x">数字が語るのは線の手前だけ <a class="header-anchor" href="#x">#</a></h2>'
            '<th>盤の<data value="12" data-key="k">12</data>マス</th><p>本文は段落なので変えない</p>')
    out = phrase_breaks(html)
    assert out.startswith('<h2 id="x">数字が<wbr>語るのは<wbr>線の<wbr>手前だけ <a class')
    assert '<data value="12" data-key="k">12</data>' in out
    brackets = phrase_breaks("<th>途切れた先に水路がある線（一問あたり）</th><caption>盤です）。左</caption>")
    assert "（<wbr>" not in brackets and "<wbr>）" not in brackets and "<wbr>。" not in brackets
    assert "<p>本文は段落なので変えない</p>" in out


def test_italic_line_after_a_table_becomes_its_caption() -> None:
    html = ("<table>\n<thead><tr><th>a</th></tr></thead>\n</table>\n<p><em>Counted per board.</em></p>\n"
            "<table>\n<tbody></tbody>\n</table>\n<p>prose</p>\n")
    out = table_captions(html)
    assert '<table>\n<caption>Counted per board.</caption>\n<thead>' in out
    assert "<p><em>" not in out and out.count('<div class="table-wrap">') == 2


def test_superscripts_are_typeset(files: dict[str, str | bytes]) -> None:
    for lang in ("en", "ja"):
        body = article(files, lang, "canal-view")
        assert "<sup>m</sup>" in body and "^" not in visible_text(body)


# -- in chromium ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def served(files: dict[str, str | bytes], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve_files(tmp_path_factory.mktemp("dist"), files) as url:
        yield url


# The smallest text drawn in any visible chart, in CSS px, measured in the page.
SMALLEST_CHART_TEXT = """() => {
  let smallest = Infinity, count = 0;
  for (const svg of document.querySelectorAll('figure.chart svg')) {
    if (svg.getBoundingClientRect().width === 0) continue;
    for (const t of svg.querySelectorAll('text')) {
      const fs = parseFloat(getComputedStyle(t).fontSize);
      const scale = svg.getScreenCTM().a;
      smallest = Math.min(smallest, fs * scale); count++;
    }
  }
  return [smallest, count, document.documentElement.scrollWidth];
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
@pytest.mark.parametrize("slug", SLUGS)
def test_chart_text_is_readable(browser: object, served: str, slug: str, width: int,
                                height: int) -> None:
    for lang in ("en", "ja"):
        page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
        try:
            page.goto(f"{served}/{lang}/{slug}/")
            smallest, count, scroll = page.evaluate(SMALLEST_CHART_TEXT)
            if lang == "ja":  # breaks only at the <wbr> between phrases
                assert page.evaluate(
                    "[...document.querySelectorAll('h1, h2, th, caption, figcaption')]"
                    ".every(e => getComputedStyle(e).wordBreak === 'keep-all')")
        finally:
            page.close()
        if count == 0:
            continue
        assert smallest >= 11, f"{lang}/{slug} at {width} px: chart text {smallest:.1f} px"
        assert scroll <= width, f"{lang}/{slug} at {width} px: the page scrolls sideways"


def test_404_for_a_nested_path_loads_its_stylesheet(browser: object,
                                                   files: dict[str, str | bytes],
                                                   tmp_path: Path) -> None:
    """A host serves 404.html for /a/b/c; its stylesheet link is absolute, so it loads."""
    import functools
    import http.server
    import threading

    write_files(tmp_path, files)
    body = (tmp_path / "404.html").read_bytes()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()  # type: ignore[attr-defined]
        css = []
        page.on("response", lambda r: css.append(r.status) if r.url.endswith("site.css") else None)
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/a/b/c")
        assert css == [200]
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
        page.close()
    finally:
        server.shutdown()
        server.server_close()


def test_every_figure_is_proven(files: dict[str, str | bytes]) -> None:
    """`build-site check`'s page and README proof, on the pages rendered here (the check
    of staleness against the code is test_site's, after a full build)."""
    from site_builder.check import check_html, check_readme, load_sources

    sources = load_sources(ROOT, list(SLUGS))
    problems: list[str] = []
    for name, body in files.items():
        if name.endswith(".html") and isinstance(body, str):
            problems += check_html(name, body, sources)
        elif name.endswith("README.provenance.json"):
            folder = name.rsplit("/", 1)[0]
            for readme, entries in json.loads(body).items():
                text = files[f"{folder}/{readme}"]
                assert isinstance(text, str)
                problems += check_readme(f"{folder}/{readme}", text, entries, sources)
    assert not problems, problems[:10]


def test_japanese_text_has_no_space_between_japanese_characters(
        files: dict[str, str | bytes]) -> None:
    gap = re.compile(f"[{CJK}\u3000-\u303f\uff00-\uffef][ \\t\\n]+[{CJK}\u3000-\u303f\uff00-\uffef]")
    bad = []
    for name, body in files.items():
        if not (name.startswith("ja/") and name.endswith(".html")) or not isinstance(body, str):
            continue
        for block in re.findall(r"<(p|li|td|th|h[1-4]|figcaption|caption)\b[^>]*>(.*?)</\1>", body,
                                flags=re.DOTALL):
            if re.search(r"<(p|li|div|section|h[1-4])\b", block[1]):
                continue  # a container: its blocks are scanned on their own
            text = visible_text(block[1])
            bad += [f"{name}: {text[max(0, m.start() - 10):m.end() + 10]!r}"
                    for m in gap.finditer(text)]
    assert not bad, bad[:10]


@pytest.mark.parametrize("slug", SLUGS)
def test_japanese_pages_use_the_glossary(files: dict[str, str | bytes], slug: str) -> None:
    """One word per thing (site.py's GLOSSARY): 手掛かり (not ヒント), 収録盤 (not 出荷盤),
    推論の梯子 (not ラダー), ソルバー (not エンジン), 陸地 (not 白マス) for Canal View's dry
    cells; full-width parentheses."""
    pages = [f"ja/{slug}/index.html", f"ja/{slug}/readme/index.html", f"{slug}/README.ja.md"]
    for name in pages:
        body = files[name]
        assert isinstance(body, str)
        text = visible_text(body.split("<main", 1)[-1])
        for word in ("ヒント", "出荷", "ラダー", "白マス", "ビルド", "エンジン", "盤面", "ノード"):
            assert word not in text, (name, word)
        assert not re.search(f"[{CJK}] ?\\([^)]*[{CJK}]", text), (name, "half-width parenthesis")


@pytest.mark.parametrize(("lang", "slug"), ARTICLES)
def test_no_markdown_left_unrendered(files: dict[str, str | bytes], lang: str, slug: str) -> None:
    """Emphasis that CommonMark cannot close next to Japanese punctuation shows as
    literal asterisks; such spans are written as <strong> in the templates."""
    text = visible_text(article(files, lang, slug))
    assert "**" not in text and "^" not in text, [text[max(0, i - 30):i + 30] for i in
                                                   (text.find("**"), text.find("^")) if i >= 0]
