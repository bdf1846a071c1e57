"""Sampled figures and their intervals: which JSON values are samples, and the rule that a
page never prints one without its interval.

A stage file marks its sampled values with ``samples``: a list of
``{"value": pattern, "interval": pattern}``, each pattern a key path in that file where
``*`` stands for any one key (the same key on both sides): ``minimal.*.survival.*`` with
``minimal.*.ci.survival.*``. A puzzle whose stage code cannot change without a long
regeneration may declare the same list, keyed by stage, as ``SAMPLES`` in its view-only
``presentation`` module: ``{"stats": [{"value": ..., "interval": ...}]}``.

The ``num`` filter marks a sampled value it prints with the template and line that printed
it (``data-at``); ``build-site check`` then asks that the same paragraph, list item or
table row (one line of the page's HTML) also prints the bounds of its interval, and names
the page, the key and the template line when it does not. An interval is printed when two
values under its key are (``lo`` and ``hi``), or one (a ``±`` margin) when the interval is
a single number.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from importlib import import_module
from pathlib import Path
from typing import Any

Pattern = tuple[tuple[str, ...], tuple[str, ...]]


def declared(sources: Mapping[str, Any], puzzles: Iterable[Any] = ()) -> list[Pattern]:
    """Every (value, interval) pattern of the site, as full key paths (``slug/stage.``
    prefixed): from each stage file's ``samples`` and each puzzle's ``SAMPLES``."""
    out: list[Pattern] = []

    def add(prefix: str, rows: Any) -> None:
        for row in rows or ():
            value, interval = row["value"], row["interval"]
            if value.count("*") != interval.count("*"):
                raise ValueError(f"{prefix}: sample {value!r} and its interval {interval!r} "
                                 "must have the same wildcards")
            out.append((tuple(f"{prefix}.{value}".split(".")),
                        tuple(f"{prefix}.{interval}".split("."))))

    for name, data in sources.items():
        if isinstance(data, Mapping) and isinstance(data.get("samples"), list):
            add(name, data["samples"])
    for p in puzzles:
        try:
            module = import_module(f"{object.__getattribute__(p, '_package')}.presentation")
        except (AttributeError, ImportError):
            continue
        for stage, rows in (getattr(module, "SAMPLES", None) or {}).items():
            if f"{p.slug}/{stage}" in sources and not isinstance(
                    sources[f"{p.slug}/{stage}"].get("samples"), list):
                add(f"{p.slug}/{stage}", rows)
    return out


def expand(patterns: Iterable[Pattern], sources: Mapping[str, Any]) -> dict[str, str]:
    """Every sampled value's key (a number in ``sources``) -> the key of its interval (an
    object in ``sources``): the patterns matched against the data, so that a wildcard
    never takes in a key that is not a sample (a count beside the shares, the ``ci``
    object itself)."""
    out: dict[str, str] = {}
    for value, interval in patterns:
        root = sources.get(value[0])
        for path, stars in _matches(root, list(value[1:]), [], []):
            it = iter(stars)
            ikey = [next(it) if seg == "*" else seg for seg in interval]
            if isinstance(_get(sources.get(ikey[0]), ikey[1:]), Mapping):
                out[".".join([value[0], *path])] = ".".join(ikey)
    return out


def _matches(node: Any, rest: list[str], path: list[str],
             stars: list[str]) -> Iterable[tuple[list[str], list[str]]]:
    if not rest:
        if isinstance(node, (int, float)) and not isinstance(node, bool):
            yield path, stars
        return
    seg, tail = rest[0], rest[1:]
    if isinstance(node, Mapping):
        keys = [k for k in node if k != "ci"] if seg == "*" else [seg] if seg in node else []
        for k in keys:
            yield from _matches(node[k], tail, [*path, k], [*stars, k] if seg == "*" else stars)
    elif isinstance(node, list):
        idx = range(len(node)) if seg == "*" else [int(seg)] if seg.isdigit() and int(
            seg) < len(node) else []
        for i in idx:
            yield from _matches(node[i], tail, [*path, str(i)],
                                [*stars, str(i)] if seg == "*" else stars)


def _get(node: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def interval_of(key: str, table: Mapping[str, str]) -> str | None:
    """The interval's key of a sampled value's key (``None``: not a sample)."""
    return table.get(key)


def template_line() -> str:
    """``template:line`` of the templates being rendered, innermost first (a macro, then
    the line that called it), read from the frames of Jinja's compiled code."""
    where: list[str] = []
    frame = sys._getframe(1)
    while frame is not None and len(where) < 3:
        tpl = frame.f_globals.get("__jinja_template__")
        if tpl is not None:
            name = "/".join(Path(tpl.filename).parts[-3:]) if tpl.filename else tpl.name
            at = f"{name}:{tpl.get_corresponding_lineno(frame.f_lineno)}"
            if not where or where[-1] != at:
                where.append(at)
        frame = frame.f_back
    return " < ".join(where)


def check_page(where: str, data: list[dict[str, Any]], table: Mapping[str, str]) -> list[str]:
    """A problem for each sampled value on the page (``data``: the page's ``<data>``
    elements with their key and HTML line; ``table``: ``expand``'s) whose interval is
    not printed on its line."""
    if not table:
        return []
    by_line: dict[int, list[str]] = {}
    for d in data:
        by_line.setdefault(d["line"], []).append(d["key"] or "")
    problems = []
    for d in data:
        key = d["key"] or ""
        interval = table.get(key)
        if interval is None:
            continue
        under = [k for k in by_line[d["line"]] if k == interval or k.startswith(interval + ".")]
        bounds = {k.rsplit(".", 1)[-1] for k in under}
        if {"lo", "hi"} <= bounds or interval in under:
            continue
        at = d.get("at") or "a template line the build did not record"
        problems.append(f"{where}: {key} is a sampled value printed without its interval "
                        f"({interval}.lo and .hi) in the same paragraph or row; printed at {at}")
    return problems


__all__ = ["check_page", "declared", "expand", "interval_of", "template_line"]
