"""`build-site check`: prove every number on every page and README equals its JSON source.

For each HTML page: every ``<data data-key>`` element's value must equal the JSON at that
key and its text must equal the formatted value; after removing those elements, ``.lit``
spans, ``<svg>``, ``<script>`` and ``<style>``, no digit may remain in the page's text.
README files are checked through their side table the same way. Finally the built output
must be current against ``content/`` and ``templates/`` (and the JSON against its code).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from site_builder import pipeline
from site_builder.buildinfo import BUILD_INFO, inputs_hash
from site_builder.errors import UserError
from site_builder.jsonio import load_stages, read_json
from site_builder.provenance import (
    ProvenanceError,
    encode_value,
    format_value,
    lookup,
    source_of,
)
from site_builder.site import LANGS
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


def check_html(where: str, html: str, sources: dict[str, Any]) -> list[str]:
    scan = _PageScan()
    scan.feed(html)
    scan.close()
    problems: list[str] = []
    for d in scan.data:
        if d.get("nested"):
            problems.append(f"{where}: {d['key']} has markup inside its number")
        problems += _check_value(where, sources, d["key"], d["value"], d["fmt"], d["text"],
                                 d["nullable"])
    text = "".join(scan.text)
    for m in DIGIT.finditer(text):
        problems.append(f"{where}: number without a JSON source in text: '{_snippet(text, m.start())}'")
    return problems


def check_readme(where: str, text: str, entries: list[dict[str, Any]],
                 sources: dict[str, Any]) -> list[str]:
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
        problems.append(f"{where}: number without a JSON source in text: '{_snippet(plain, m.start())}'")
    return problems


def load_sources(root: Path, slugs: list[str]) -> dict[str, Any]:
    sources: dict[str, Any] = {}
    for slug in slugs:
        sources.update(load_stages(root, registry.get(slug)))
    return sources


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
    listed = set(info.get("files") or [])
    for slug in registry.slugs():
        if slug not in slugs:
            problems.append(f"{out}: has no pages for {slug}, a registered puzzle; run "
                            "`build-site build`")
            continue
        pages = (*(f"{lang}/{slug}/{sub}index.html" for lang in LANGS
                   for sub in ("", "readme/", "play/")), f"{slug}/README.md")
        problems.extend(f"{page}: missing from {out}, a page of {slug}; run `build-site "
                        "build`" for page in pages if page not in listed)
    if info.get("inputs") != inputs_hash(root):
        problems.append(f"{out}: stale against content/ or templates/; run `build-site build`")
    for slug in slugs:
        p = pipeline.plan(root, slug)
        problems.extend(f"content/{slug}/{stage}.json: stale against the code of {slug}; "
                        "run `build-site build`" for stage in p.todo)
    sources = load_sources(root, slugs)
    for name in info.get("files", []):
        path = out / name
        if not path.exists():
            problems.append(f"{name}: listed in {BUILD_INFO} but missing")
            continue
        if name.endswith(".html"):
            problems += check_html(name, path.read_text(encoding="utf-8"), sources)
        elif name.endswith("README.provenance.json"):
            table = read_json(path)
            for readme, entries in table.items():
                rpath = path.parent / readme
                rname = f"{path.parent.relative_to(out).as_posix()}/{readme}"
                if not rpath.exists():
                    problems.append(f"{rname}: missing")
                    continue
                problems += check_readme(rname, rpath.read_text(encoding="utf-8"), entries, sources)
    return problems
