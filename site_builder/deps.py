"""What each output file was made from, recorded while it is rendered.

A ``Recorder`` is active while one render job runs (``recording``). It collects:

* ``templates``: every template name Jinja loaded for the job (the page, its layout, every
  include, import and extends: ``TrackingEnvironment._load_template`` sees them all) and
  the file it came from;
* ``json``: every JSON value the job observed through the ``Node`` wrappers
  (``TrackedNode``), as (kind, key path) -> value: ``v`` for a value read whole (printed,
  compared, ``.v``), ``k`` for a container's shape only (its keys or length: a loop, a
  ``len``, an ``in`` test, a truth test);
* ``files``: other files read (static sources, the solve runtime, an optional stage file
  whose presence matters);
* ``values``: results of other jobs it used (the runtime's config).

Nested recorders (a value shared by several pages, such as the index hooks, computed
once) pass what they saw to every recorder that uses the value (``shared``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class Recorder:
    __slots__ = ("files", "json", "templates", "values")

    def __init__(self) -> None:
        self.templates: dict[str, str | None] = {}
        self.json: dict[tuple[str, str], Any] = {}
        self.files: set[str] = set()
        self.values: dict[str, str] = {}

    def merge(self, other: Recorder) -> None:
        self.templates.update(other.templates)
        self.json.update(other.json)
        self.files |= other.files
        self.values.update(other.values)


_STACK: list[Recorder] = []


@contextmanager
def recording(rec: Recorder | None = None) -> Iterator[Recorder]:
    rec = rec or Recorder()
    _STACK.append(rec)
    try:
        yield rec
    finally:
        _STACK.pop()


def active() -> bool:
    return bool(_STACK)


def record_template(name: str, filename: str | None) -> None:
    for rec in _STACK:
        rec.templates[name] = filename


def record_file(path: str) -> None:
    for rec in _STACK:
        rec.files.add(path)


def record_value(job: str, digest: str) -> None:
    for rec in _STACK:
        rec.values[job] = digest


def observe(kind: str, path: str, value: Any) -> None:
    if _STACK:
        key = (kind, path)
        for rec in _STACK:
            rec.json[key] = value


_SHARED: dict[Any, tuple[Any, Recorder]] = {}


def shared(key: Any, make: Callable[[], Any]) -> Any:
    """``make()`` once per ``key`` while ``reset_shared`` is not called; every job that
    uses the value depends on what making it read."""
    hit = _SHARED.get(key)
    if hit is None:
        with recording() as rec:
            value = make()
        hit = _SHARED[key] = (value, rec)
    for outer in _STACK:
        outer.merge(hit[1])
    return hit[0]


def reset_shared() -> None:
    _SHARED.clear()


# ---------------------------------------------------------------------------- hashing


# Parsed stage data kept by this process for as long as its file's bytes stay the same
# (site.py ``_stages``): nothing changes these objects, so each one's digest is computed
# once, not on every preview rebuild that records a job reading it whole (a bank of
# thousands of boards encodes in a quarter of a second). Keyed by identity, the object
# held, so an id is never reused while its entry is here.
_FROZEN: dict[int, tuple[Any, list[str]]] = {}


def freeze(values: Any) -> None:
    """Mark each of ``values`` (parsed JSON that is never changed) for the digest memo."""
    for v in values:
        if isinstance(v, (dict, list)):
            _FROZEN[id(v)] = (v, [])


def thaw(values: Any) -> None:
    for v in values:
        kept = _FROZEN.get(id(v))
        if kept is not None and kept[0] is v:
            del _FROZEN[id(v)]


def digest(value: Any) -> str:
    kept = _FROZEN.get(id(value)) if isinstance(value, (dict, list)) else None
    if kept is not None and kept[0] is value and kept[1]:
        return kept[1][0]
    blob = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      default=str)
    got = hashlib.sha256(blob.encode()).hexdigest()[:20]
    if kept is not None and kept[0] is value:
        kept[1].append(got)
    return got


def shape(value: Any) -> Any:
    """What a ``k`` observation sees of a value: a dict's keys in order, a list's length,
    a scalar itself."""
    if isinstance(value, dict):
        return ["dict", list(value)]
    if isinstance(value, list):
        return ["list", len(value)]
    return value


def observation_digest(kind: str, value: Any) -> str:
    return digest(shape(value) if kind == "k" else value)
