"""`build-site check`: prove every number on every page and README equals its JSON source.

For each HTML page: every ``<data data-key>`` element's value must equal the JSON at that
key and its text must equal the formatted value; after removing those elements, ``.lit``
spans, ``<svg>``, ``<script>`` and ``<style>``, no digit may remain in the page's text.
README files are checked through their side table the same way. Finally the built output
must be current against ``content/`` and ``templates/`` (and the JSON against its code).

The folder must hold exactly what the build wrote: ``.build.json``'s manifest gives each
file's sha256, and a file added, missing or changed since, or any symbolic link, is a
problem named by its path. ``check --fresh`` goes further (``fresh_problems``): it renders
the whole site in memory from the current inputs, as a clean build would, and compares
it with the folder file by file (names, bytes, the manifest), so an incremental build
that missed an input is caught whatever the input was. A number without a source is reported with the template and
line that printed it, from the build's ``typed`` table, where a template's own text did.
A sampled value (``site_builder.samples``) must have its interval printed beside it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from site_builder import config, pipeline
from site_builder.buildinfo import BUILD_INFO, README_NAMES, inputs_hash
from site_builder.errors import UserError
from site_builder.jsonio import load_stages, read_json
from site_builder.provenance import (
    Node,
    ProvenanceError,
    encode_value,
    format_value,
    lookup,
    source_of,
)
from site_builder.samples import check_page as check_samples
from site_builder.samples import declared as declared_samples
from site_builder.samples import expand as expand_samples
from solvers import registry

EXEMPT = {"svg", "script", "style"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
DIGIT = re.compile(r"\d[\d,.]*")


class _PageScan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip: list[str] = []
        self.datum: dict[str, Any] | None = None
        self.data: list[dict[str, Any]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self.datum is not None:
            self.datum["nested"] = True
        if self.skip:
            if tag not in VOID:
                self.skip.append(tag)
            return
        if tag == "data" and "data-key" in a:
            self.datum = {"key": a.get("data-key"), "value": a.get("value"),
                          "fmt": a.get("data-fmt"), "text": "", "line": self.getpos()[0],
                          "at": a.get("data-at"),
                          "nullable": a.get("data-nullable") == "1"}
        elif tag in EXEMPT or (tag == "span" and "lit" in (a.get("class") or "").split()):
            self.skip.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if self.skip[-1] == tag:
                self.skip.pop()
            return
        if tag == "data" and self.datum is not None:
            self.data.append(self.datum)
            self.datum = None
            self.text.append(" ")

    def handle_data(self, d: str) -> None:
        if self.skip:
            return
        if self.datum is not None:
            self.datum["text"] += d
        else:
            self.text.append(d)


def _snippet(text: str, i: int) -> str:
    s = " ".join(text[max(0, i - 30): i + 30].split())
    return s


class InputProblem(str):
    """A problem whose fault is in ``content/`` (a key deleted, a value null or of the
    wrong type), not in the page: ``check`` exits 2 for it, as for a parse error."""


def _check_value(where: str, sources: dict[str, Any], key: str, value_attr: Any, fmt: str | None,
                 shown: str, nullable: bool = False) -> list[str]:
    try:
        truth = lookup(sources, key)
    except (KeyError, IndexError, ValueError, TypeError):
        root = key.partition(".")[0]
        if root in sources:  # the file is there, the key is not: it was deleted from it
            return [InputProblem(f"{where}: {key} is missing from {source_of(key)} "
                                 f"(found {shown})")]
        return [f"{where}: {key} has no source in content/ (found {shown})"]
    if truth is None and not nullable:
        return [InputProblem(f"{where}: {key} is null in {source_of(key)} (found {shown}); "
                             "a measured number is missing")]
    try:
        expected = format_value(truth, fmt)
    except ProvenanceError as e:
        return [InputProblem(f"{where}: {key} in {source_of(key)} cannot be formatted: {e}")]
    out = []
    if shown != expected:
        out.append(f"{where}: {key} expected {expected} found {shown}")
    if value_attr is not None and value_attr != encode_value(truth):
        out.append(f"{where}: {key} expected value {encode_value(truth)} found {value_attr}")
    return out


def typed_at(typed: dict[str, list[str]] | None, text: str) -> str:
    """`` (typed at TEMPLATE:LINE)`` for the first numeral of ``text`` that a template's own
    text printed (the build's ``typed`` table), else ""."""
    for m in DIGIT.finditer(text):
        where = (typed or {}).get(m.group(0).rstrip(".,"))
        if where:
            more = f" or {len(where) - 3} more" if len(where) > 3 else ""
            return f" (typed at {', '.join(where[:3])}{more})"
    return ""


def check_html(where: str, html: str, sources: dict[str, Any],
               typed: dict[str, list[str]] | None = None,
               samples: dict[str, str] | None = None) -> list[str]:
    scan = _PageScan()
    scan.feed(html)
    scan.close()
    problems: list[str] = []
    for d in scan.data:
        if d.get("nested"):
            problems.append(f"{where}: {d['key']} has markup inside its number")
        problems += _check_value(where, sources, d["key"], d["value"], d["fmt"], d["text"],
                                 d["nullable"])
    problems += check_samples(where, scan.data, samples or {})  # sampled: interval beside
    text = "".join(scan.text)
    for m in DIGIT.finditer(text):
        problems.append(f"{where}: number without a JSON source in text: "
                        f"'{_snippet(text, m.start())}'{typed_at(typed, m.group(0))}")
    return problems


CHART = re.compile(r'<figure class="chart" data-src="([^"]*)">.*?</figure>', re.DOTALL)
BOARD = re.compile(r'<svg data-src="([^"]*)".*?</svg>', re.DOTALL)
ANY_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
TAG = re.compile(r"<[^>]+>")


class _Unsourced(Exception):
    pass


def _first_difference(expected: str, found: str) -> str:
    i = next((k for k, (a, b) in enumerate(zip(expected, found, strict=False)) if a != b),
             min(len(expected), len(found)))
    lo = max(0, i - 20)
    return f"expected {expected[lo:i + 20]!r} found {found[lo:i + 20]!r}"


class Drawings:
    """Draws every chart and board picture again from ``content/`` through the call in
    its ``data-src`` and compares the bytes; a picture with digits and no ``data-src``
    has no source."""

    def __init__(self, sources: dict[str, Any]) -> None:
        self.sources = sources
        self._known: set[str] | None = None

    def known(self, value: Any) -> bool:
        """Whether ``value`` (a board or answer a template passed as plain JSON) is one
        that ``content/`` holds somewhere."""
        if self._known is None:
            seen: set[str] = set()
            stack: list[Any] = list(self.sources.values())
            while stack:
                v = stack.pop()
                if isinstance(v, dict):
                    seen.add(json.dumps(v, sort_keys=True))
                    stack.extend(v.values())
                elif isinstance(v, list):
                    stack.extend(v)
            self._known = seen
        return json.dumps(value, sort_keys=True) in self._known

    def resolve(self, value: Any, as_node: bool, numbers: bool) -> Any:
        """``data-src`` back to arguments: ``{"$key": k}`` looked up (a Node when
        ``as_node``); a literal number is refused unless ``numbers``."""
        if isinstance(value, dict) and set(value) == {"$key"}:
            key = value["$key"]
            try:
                got = lookup(self.sources, key)
            except (KeyError, IndexError, ValueError, TypeError):
                raise _Unsourced(f"{key} has no source in content/") from None
            return Node(got, key) if as_node else got
        if isinstance(value, dict):
            return {k: self.resolve(v, as_node, numbers) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v, as_node, numbers) for v in value]
        if not numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
            raise _Unsourced(f"the number {value!r} was typed into the call, not read from JSON")
        return value

    def check(self, where: str, html: str) -> list[str]:
        from site_builder import boards, charts

        problems: list[str] = []
        for m in CHART.finditer(html):
            try:
                src = json.loads(unescape(m.group(1)))
                known: dict[str, Callable[..., Any]] = {"bar_chart": charts.bar_chart,
                                                        "line_chart": charts.line_chart}
                fn = known[src["chart"]]
                args = dict(src["args"])
                for k in ("labels", "xs", "series"):
                    if k in args:
                        args[k] = self.resolve(args[k], True, False)
                args["series"] = {name: values for name, values in args["series"]}
                expected = str(fn(**args))
            except _Unsourced as e:
                problems.append(f"{where}: chart {_title(m.group(0))}: {e}")
                continue
            except (ValueError, KeyError, TypeError, ProvenanceError) as e:
                problems.append(f"{where}: chart {_title(m.group(0))}: its data-src cannot be "
                                f"drawn again ({type(e).__name__}: {e})")
                continue
            found = m.group(0).replace("<wbr>", "")  # the Japanese caption's phrase breaks
            if expected != found:
                problems.append(f"{where}: chart {_title(m.group(0))} differs from its JSON: "
                                f"{_first_difference(expected, found)}")
        for m in BOARD.finditer(html):
            try:
                src = json.loads(unescape(m.group(1)))
                puzzle = registry.get(src["slug"])
                parts = []
                for k in ("board", "answer"):
                    v = src[k]
                    if isinstance(v, dict) and set(v) == {"$key"}:
                        parts.append(self.resolve(v, True, True))
                    elif v is None or self.known(v):
                        parts.append(v)
                    else:
                        raise _Unsourced(f"its {k} is not one that content/ holds")
                expected = boards.draw(puzzle, parts[0], parts[1], src["cell"], src["label"])
            except _Unsourced as e:
                problems.append(f"{where}: board drawing: {e}")
                continue
            except (ValueError, KeyError, TypeError, UserError, ProvenanceError) as e:
                problems.append(f"{where}: board drawing: its data-src cannot be drawn again "
                                f"({type(e).__name__}: {e})")
                continue
            if expected != m.group(0):
                problems.append(f"{where}: board drawing of {_src_key(src)} differs from its "
                                f"JSON: {_first_difference(expected, m.group(0))}")
        rest = BOARD.sub("", CHART.sub("", html))
        for m in ANY_SVG.finditer(rest):
            text = unescape(TAG.sub(" ", m.group(0)))
            d = DIGIT.search(text)
            if d:
                problems.append(f"{where}: number without a JSON source in a drawing (no "
                                f"data-src): '{_snippet(text, d.start())}'")
        return problems


def _title(figure: str) -> str:
    m = re.search(r"<figcaption>(.*?)</figcaption>", figure, re.DOTALL)
    return repr(unescape(TAG.sub("", m.group(1)))) if m else "(untitled)"


def _src_key(src: dict[str, Any]) -> str:
    b = src.get("board")
    return b["$key"] if isinstance(b, dict) and "$key" in b else f"a {src.get('slug')} board"


def check_readme(where: str, text: str, entries: list[dict[str, Any]],
                 sources: dict[str, Any], typed: dict[str, list[str]] | None = None
                 ) -> list[str]:
    problems: list[str] = []
    pos = 0
    rest: list[str] = []
    for e in entries:
        start, shown = e["start"], e["text"]
        if text[start:start + len(shown)] != shown or start < pos:
            problems.append(f"{where}: {e.get('key', 'literal')} expected {shown} found "
                            f"{text[start:start + len(shown)]!r} at offset {start}")
            continue
        rest.append(text[pos:start])
        pos = start + len(shown)
        if e["k"] == "num":
            problems += _check_value(where, sources, e["key"], encode_value(e["value"]),
                                     e["fmt"], shown, e.get("nullable", False))
    rest.append(text[pos:])
    plain = "".join(rest)
    for m in DIGIT.finditer(plain):
        problems.append(f"{where}: number without a JSON source in text: "
                        f"'{_snippet(plain, m.start())}'{typed_at(typed, m.group(0))}")
    return problems


def load_sources(root: Path, slugs: list[str]) -> dict[str, Any]:
    sources: dict[str, Any] = {}
    for slug in slugs:
        sources.update(load_stages(root, registry.get(slug)))
    return sources


def check_play_files(out: Path, root: Path, info: dict[str, Any], slugs: list[str]) -> list[str]:
    """The play pages and ``<slug>/play-data/`` byte for byte against what the play
    writer makes of ``content/`` now (board, answer, URL, trace, picker list): their
    digits sit in JSON and scripts, out of reach of the page scan."""
    from site_builder import play
    from site_builder.site import Site

    site = Site(root, str(info.get("base_url") or ""), [s for s in slugs if s in registry.slugs()])
    problems: list[str] = []
    for p in site.puzzles:
        want = play.play_files(site, p, site.data[f"{p.slug}/bank"])
        for name, content in want.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            path = out / name
            if not path.is_file():
                problems.append(f"{name}: missing (the play writer makes it from "
                                f"content/{p.slug}/bank.json)")
            elif path.read_bytes() != data:
                found = path.read_bytes().decode("utf-8", "replace")
                problems.append(f"{name}: differs from what content/{p.slug}/bank.json gives: "
                                f"{_first_difference(data.decode('utf-8', 'replace'), found)}")
        folder = out / p.slug / "play-data"
        if folder.is_dir():
            problems.extend(f"{f.relative_to(out).as_posix()}: not made from content/ (no such "
                            "board in the bank)" for f in sorted(folder.rglob("*"))
                            if f.is_file() and f.relative_to(out).as_posix() not in want)
    return problems


def check_files(out: Path, info: dict[str, Any]) -> list[str]:
    """The folder against the build's manifest: every symbolic link, every file the build
    did not write, every file it wrote that is missing or whose bytes changed."""
    from site_builder.buildinfo import file_sha256

    want = info.get("manifest")
    if not isinstance(want, dict):
        return [(f"{out / BUILD_INFO}: no manifest (built by an older build-site); run "
                 "`build-site build`")]
    problems: list[str] = []
    found: set[str] = set()
    for here, dirs, files in os.walk(out):
        for name in sorted((*dirs, *files)):
            p = Path(here) / name
            rel = p.relative_to(out).as_posix()
            if p.is_symlink():
                problems.append(f"{rel}: a symbolic link (to {os.readlink(p)}); the build "
                                "writes regular files only")
                if name in dirs:
                    dirs.remove(name)
            elif name in files:
                found.add(rel)
        dirs.sort()
    problems += [f"{rel}: not written by the build (not in {BUILD_INFO}'s manifest)"
                 for rel in sorted(found - set(want) - {BUILD_INFO})]
    problems += [f"{rel}: missing; the build wrote it" for rel in sorted(set(want) - found)
                 if not (out / rel).is_symlink()]
    for rel in sorted(found & set(want)):
        try:
            same = file_sha256(out / rel) == want[rel]
        except OSError as e:
            problems.append(f"{rel}: cannot read ({e.strerror or e})")
            continue
        if not same:
            problems.append(f"{rel}: changed since the build (its sha256 is not the one in "
                            f"{BUILD_INFO})")
    return problems


def _manifest_difference(found: bytes, want: bytes) -> str:
    """Which keys of two ``.build.json`` texts differ (and for the manifest, the first
    few files whose hashes do)."""
    try:
        a, b = json.loads(found), json.loads(want)
    except ValueError:
        return "not JSON"
    if not isinstance(a, dict) or not isinstance(b, dict):
        return "not an object"
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    parts = []
    for k in keys:
        if k == "manifest" and isinstance(a.get(k), dict) and isinstance(b.get(k), dict):
            files = sorted(f for f in set(a[k]) | set(b[k]) if a[k].get(f) != b[k].get(f))
            parts.append(f"manifest ({len(files)} file(s): {', '.join(files[:3])}"
                         f"{', ...' if len(files) > 3 else ''})")
        else:
            parts.append(repr(k))
    return "keys " + ", ".join(parts) if parts else "its bytes (same values)"


def fresh_problems(out: Path, root: Path) -> tuple[list[str], int]:
    """The folder against a clean build made now in memory (``build.clean_files``, with
    the base URL and puzzles ``.build.json`` names): each file missing, extra or whose
    bytes differ, one line each. Returns (problems, files compared)."""
    from site_builder.build import clean_files

    info_path = out / BUILD_INFO
    if not info_path.is_file():
        raise UserError(f"{info_path}: missing; {out} is not a site built by build-site")
    info = read_json(info_path)
    slugs = info.get("slugs") if isinstance(info, dict) else None
    if not isinstance(slugs, list) or not all(isinstance(s, str) for s in slugs):
        return [(f"{info_path}: key 'slugs' is missing or not a list of names; run "
                 "`build-site build`")], 0
    base_url = info.get("base_url") if isinstance(info.get("base_url"), str) else ""
    want = {rel: c.encode("utf-8") if isinstance(c, str) else c
            for rel, c in clean_files(root, base_url, slugs).items()}
    found: dict[str, Path] = {}
    for here, dirs, files in os.walk(out):
        dirs.sort()
        for name in sorted(files):
            p = Path(here) / name
            found[p.relative_to(out).as_posix()] = p
    problems = [f"{rel}: missing; a clean build writes it"
                for rel in sorted(set(want) - set(found))]
    problems += [f"{rel}: a clean build does not write it"
                 for rel in sorted(set(found) - set(want))]
    compared = 0
    for rel in sorted(set(want) & set(found)):
        compared += 1
        try:
            data = found[rel].read_bytes()
        except OSError as e:
            problems.append(f"{rel}: cannot read ({e.strerror or e})")
            continue
        if data == want[rel]:
            continue
        if rel == BUILD_INFO:
            problems.append(f"{rel}: differs from a clean build's in "
                            f"{_manifest_difference(data, want[rel])}")
        else:
            problems.append(f"{rel}: differs from what a clean build writes now "
                            f"({len(data)} bytes, a clean build's {len(want[rel])}); run "
                            "`build-site build` (and if it stays, report it: the incremental "
                            "build missed an input)")
    return problems, compared


def check_site(out: Path, root: Path) -> list[str]:
    """All problems found; an empty list means every number is proven."""
    info_path = out / BUILD_INFO
    if not out.is_dir():
        raise UserError(f"{out}: no such folder; run `build-site build` first")
    if not info_path.exists():
        raise UserError(f"{info_path}: missing; {out} is not a site built by build-site")
    info = read_json(info_path)
    slugs = info.get("slugs") or []
    problems: list[str] = []
    from site_builder.incremental import journal_path

    if journal_path(out).exists():
        problems.append(f"{out}: a build was stopped while switching its files in "
                        f"({journal_path(out).name} is there); run `build-site build`, "
                        "which finishes it")
    problems += check_files(out, info)
    typed = info.get("typed") if isinstance(info.get("typed"), dict) else None
    listed = set(info.get("files") or [])
    cfg = config.load(root)
    for slug in cfg.puzzles:
        if slug not in slugs:
            problems.append(f"{out}: has no pages for {slug}, a puzzle {config.SITE_FILE} "
                            "lists; run `build-site build`")
            continue
        pages = (*(f"{lang}/{slug}/{sub}index.html" for lang in cfg.languages
                   for sub in ("", "readme/", "play/")),
                 *(f"{slug}/{README_NAMES[lang]}" for lang in cfg.languages))
        problems.extend(f"{page}: missing from {out}, a page of {slug}; run `build-site "
                        "build`" for page in pages if page not in listed)
    from site_builder.sources import check_links

    try:  # what the build refuses to read, the check does not read either
        check_links(root, [registry.get(s) for s in slugs if s in registry.slugs()])
    except UserError as e:
        return [InputProblem(str(e))]
    if info.get("inputs") != inputs_hash(root, [s for s in slugs if s in registry.slugs()]):
        problems.append(f"{out}: stale against content/ or templates/; run `build-site build`")
    for slug in slugs:
        p = pipeline.plan(root, slug)
        problems.extend(f"content/{slug}/{stage}.json: stale against the code of {slug}; "
                        "run `build-site build`" for stage in p.todo)
    sources = load_sources(root, slugs)
    samples = expand_samples(declared_samples(sources, [registry.get(s) for s in slugs
                                                        if s in registry.slugs()]), sources)
    drawings = Drawings(sources)
    problems += check_play_files(out, root, info, slugs)
    for name in info.get("files", []):
        path = out / name
        if not path.exists() or path.is_symlink():
            continue  # check_files named it
        if name.endswith(".html"):
            html = path.read_text(encoding="utf-8")
            problems += check_html(name, html, sources, typed, samples)
            problems += drawings.check(name, html)
        elif name.endswith("README.provenance.json"):
            table = read_json(path)
            for readme, entries in table.items():
                rpath = path.parent / readme
                rname = f"{path.parent.relative_to(out).as_posix()}/{readme}"
                if not rpath.exists():
                    problems.append(f"{rname}: missing")
                    continue
                problems += check_readme(rname, rpath.read_text(encoding="utf-8"), entries,
                                         sources, typed)
    return problems
