"""The whole path: a fresh copy of the repo builds, the check proves it, and breaks when it should."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solvers import registry

REPO = Path(__file__).resolve().parent.parent
IGNORE = shutil.ignore_patterns(".git", ".venv", "dist", "__pycache__", ".pytest_cache",
                                ".ruff_cache", "*.egg-info", "node_modules")


def run(copy: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(copy))
    return subprocess.run([sys.executable, "-m", "site_builder.cli", *args], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def tree_hash(path: Path) -> str:
    h = hashlib.sha256()
    if path.exists():
        for f in sorted(path.rglob("*")):
            if f.is_file():
                h.update(f.relative_to(path).as_posix().encode())
                h.update(f.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("site") / "repo"
    shutil.copytree(REPO, copy, ignore=IGNORE)
    r = run(copy, "build", "--quiet", "--base-url", "https://example.org/puzzles/")
    assert r.returncode == 0, r.stderr
    assert "all stages current" in r.stdout, "committed JSON is stale against the code"
    return copy


def override(copy: Path, slug: str, name: str) -> Path:
    """The site's own copy of a puzzle's template ``name`` (``templates/SLUG/NAME``, which
    the search path prefers to the puzzle's), made from the puzzle's: the way an author
    edits an article."""
    pkg = Path(registry.get(slug).package_dir).relative_to(REPO)
    dest = copy / "templates" / slug / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(copy / pkg / "templates" / name, dest)
    return dest


def fresh_copy(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    shutil.copytree(built, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_fresh_build_passes_check(built: Path) -> None:
    r = run(built, "check")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "check passed" in r.stdout


def test_pages_exist_in_both_languages(built: Path) -> None:
    dist = built / "dist"
    for page in ("index.html", "404.html", "sitemap.xml", "en/index.html", "ja/index.html"):
        assert (dist / page).is_file(), page
    for slug in registry.slugs():
        for lang in ("en", "ja"):
            html = (dist / lang / slug / "index.html").read_text()
            assert f'<html lang="{lang}">' in html
            assert 'hreflang="en"' in html and 'hreflang="ja"' in html
            assert f'<link rel="canonical" href="https://example.org/puzzles/{lang}/{slug}/">' in html
            assert 'property="og:title"' in html
            assert len(re.findall(r"<data value=", html)) >= 20, "an article needs its figures"
            assert (dist / lang / slug / "play" / "index.html").is_file()
        assert (dist / slug / "README.md").is_file() and (dist / slug / "README.ja.md").is_file()
    assert "https://example.org/puzzles/en/sukoro/" in (dist / "sitemap.xml").read_text()


def test_internal_links_are_relative(built: Path) -> None:
    for page in (built / "dist").rglob("*.html"):
        if page.name == "404.html":
            continue
        html = page.read_text()
        for href in re.findall(r'(?<![\w-])(?:href|src)="([^"]+)"', html):
            if href.startswith(("http://", "https://", "#", "mailto:", "data:")):
                continue
            assert not href.startswith("/"), f"{page}: absolute internal link {href}"
            target = (page.parent / href.split("#")[0]).resolve()
            if href.endswith("/"):
                target = target / "index.html"
            assert target.exists(), f"{page}: broken link {href}"


def test_build_is_byte_identical(built: Path, tmp_path: Path) -> None:
    copy = fresh_copy(built, tmp_path)
    before = tree_hash(copy / "dist")
    r = run(copy, "build", "--quiet", "--base-url", "https://example.org/puzzles/")
    assert r.returncode == 0, r.stderr
    assert tree_hash(copy / "dist") == before


def test_edited_number_fails_and_names_key(built: Path, tmp_path: Path) -> None:
    copy = fresh_copy(built, tmp_path)
    page = copy / "dist" / "en" / "sukoro" / "index.html"
    html = page.read_text()
    m = re.search(r'<data value="[^"]*" data-key="([^"]+)" data-fmt="int">([\d,]+)</data>', html)
    assert m, "no integer figure on the page"
    key, shown = m.group(1), m.group(2)
    wrong = str(int(shown.replace(",", "")) + 1)
    page.write_text(html[: m.start(2)] + wrong + html[m.end(2):])
    r = run(copy, "check")
    assert r.returncode == 1
    assert f"en/sukoro/index.html: {key} expected {shown} found {wrong}" in r.stdout


def test_bare_number_in_prose_fails(built: Path, tmp_path: Path) -> None:
    copy = fresh_copy(built, tmp_path)
    tpl = override(copy, "canal-view", "article.en.md.j2")
    tpl.write_text(tpl.read_text() + "\nAbout 42 boards were typed in by hand.\n")
    assert run(copy, "build", "--quiet").returncode == 0
    r = run(copy, "check")
    assert r.returncode == 1
    assert "en/canal-view/index.html: number without a JSON source" in r.stdout
    assert "42" in r.stdout


def test_stale_output_fails(built: Path, tmp_path: Path) -> None:
    copy = fresh_copy(built, tmp_path)
    tpl = override(copy, "sukoro", "hook.en.md.j2")
    tpl.write_text(tpl.read_text() + " ")
    r = run(copy, "check")
    assert r.returncode == 1 and "stale" in r.stdout


def _assert_refused(copy: Path, r: subprocess.CompletedProcess[str], before: tuple[str, str],
                    needle: str) -> None:
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("build-site: error:"), r.stderr
    assert needle in lines[0], lines[0]
    assert (tree_hash(copy / "dist"), tree_hash(copy / "content")) == before


@pytest.mark.parametrize("case", ["unknown-slug", "unknown-solve-slug", "bad-url", "bad-url-char",
                                  "corrupt-json", "wrong-schema", "bad-template", "missing-file",
                                  "null-number", "string-number"])
def test_bad_input_exit_2_nothing_written(built: Path, tmp_path: Path, case: str) -> None:
    copy = fresh_copy(built, tmp_path)
    stats = copy / "content" / "sukoro" / "stats.json"
    if case == "corrupt-json":
        stats.write_text(stats.read_text()[:500])
    elif case == "wrong-schema":
        doc = json.loads(stats.read_text())
        doc["schema"] = 99
        stats.write_text(json.dumps(doc))
    elif case in ("null-number", "string-number"):
        doc = json.loads(stats.read_text())
        doc["data"]["lemma"]["unique"] = None if case == "null-number" else "many"
        stats.write_text(json.dumps(doc))
    elif case == "bad-template":
        tpl = override(copy, "sukoro", "article.ja.md.j2")
        tpl.write_text(tpl.read_text() + "\n{% for x in %}\n")
    before = (tree_hash(copy / "dist"), tree_hash(copy / "content"))
    args, needle = {
        "unknown-slug": (["build", "--only", "nope"], "nope"),
        "unknown-solve-slug": (["solve", "nope", "https://puzz.link/p?sukoro/3/3/i"], "nope"),
        "bad-url": (["solve", "sukoro", "https://puzz.link/p?sukoro/x/5/2a2"], "2a2"),
        "bad-url-char": (["solve", "canal-view", "https://puzz.link/p?canal/3/3/3!i"], "!"),
        "corrupt-json": (["build"], "content/sukoro/stats.json"),
        "wrong-schema": (["build"], "schema"),
        "bad-template": (["build"], "article.ja.md.j2"),
        "missing-file": (["solve", "sukoro", "no-such-board.json"], "no-such-board.json"),
        "null-number": (["build"], "content/sukoro/stats.json, key lemma.unique is null"),
        "string-number": (["build"], "content/sukoro/stats.json, key lemma.unique"),
    }[case]
    r = run(copy, *args)
    _assert_refused(copy, r, before, needle)


def test_solve_json_sample(built: Path) -> None:
    r = run(built, "solve", "sukoro", "https://puzz.link/p?sukoro/5/5/2a2c4a2g2a4c2a2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["solutions"] == 1
    assert out["answer"] == ["232..", "3432.", "23.32", ".2343", "..232"]
    assert {"rung", "nodes", "ms"} <= set(out)


def test_verify_json(built: Path) -> None:
    r = run(built, "verify", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert sorted(out) == registry.slugs()
    for slug in registry.slugs():
        banked = json.loads((built / "content" / slug / "bank.json").read_text())["data"]
        n = len(banked["boards"])
        assert n and out[slug]["boards"] == out[slug]["unique"] == n
        assert sum(out[slug]["by_grade"].values()) == n


def test_check_refuses_a_null_figure(built: Path, tmp_path: Path) -> None:
    copy = fresh_copy(built, tmp_path)
    stats = copy / "content" / "sukoro" / "stats.json"
    doc = json.loads(stats.read_text())
    doc["data"]["lemma"]["unique"] = None
    stats.write_text(json.dumps(doc))
    r = run(copy, "check")
    assert r.returncode == 2  # corrupt input, not a page out of step (issue 22)
    assert "sukoro/stats.lemma.unique is null in content/sukoro/stats.json" in r.stdout
    assert len(r.stderr.strip().splitlines()) == 1


def test_unreadable_input_is_named(built: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from site_builder import buildinfo
    from site_builder.errors import UserError

    copy = fresh_copy(built, tmp_path)
    victim = override(copy, "sukoro", "hook.en.md.j2")
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self == victim:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    with pytest.raises(UserError, match="hook.en.md.j2: permission denied"):
        buildinfo.inputs_hash(copy, ["sukoro"])


def test_japanese_text_has_no_space_between_japanese_characters(built: Path) -> None:
    """A space between two Japanese characters reads as a stray gap (a line break in the
    Markdown source, or a space written beside Latin-spaced markup)."""
    from html.parser import HTMLParser

    cjk = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
    gap = re.compile(f"[{cjk}][ \\t\\n]+[{cjk}]")

    class Blocks(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.blocks: list[str] = []
            self.cur: list[str] | None = None
            self.skip = 0

        def handle_starttag(self, tag: str, attrs: object) -> None:
            self.skip += tag in ("script", "style", "svg")
            if tag in ("p", "li", "td", "th", "h1", "h2", "h3", "figcaption"):
                self.cur = []

        def handle_endtag(self, tag: str) -> None:
            self.skip -= tag in ("script", "style", "svg")
            if tag in ("p", "li", "td", "th", "h1", "h2", "h3", "figcaption") and self.cur is not None:
                self.blocks.append("".join(self.cur))
                self.cur = None

        def handle_data(self, data: str) -> None:
            if not self.skip and self.cur is not None:
                self.cur.append(data)

    bad = []
    for page in sorted((built / "dist" / "ja").rglob("*.html")):
        scan = Blocks()
        scan.feed(page.read_text(encoding="utf-8"))
        bad += [f"{page.relative_to(built)}: {b[max(0, m.start() - 10):m.end() + 10]!r}"
                for b in scan.blocks for m in gap.finditer(b)]
    assert not bad, bad


def test_built_articles_caption_every_table_and_phrase_japanese_headings(built: Path) -> None:
    """The same facts tests/test_articles.py proves on pages rendered from the committed
    JSON, checked again on the site a full build writes."""
    dist = built / "dist"
    for page in sorted(dist.glob("*/*/index.html")):
        html = page.read_text(encoding="utf-8")
        body = html.split('<article class="article">', 1)[-1]
        for table in re.findall(r"<table>(.*?)</table>", body, flags=re.DOTALL):
            assert table.lstrip().startswith("<caption>"), f"{page}: a table without a caption"
        if page.parts[-3] == "ja":
            heads = re.findall(r"<h2[^>]*>(.*?)</h2>", body, flags=re.DOTALL)
            assert any("<wbr>" in h for h in heads), f"{page}: no phrase breaks in headings"
