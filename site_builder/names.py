"""The one rule for every name a puzzle plugin gives the tool: its slug, its stages' names
and the names of the files it ships (each piece of their paths).

Such a name becomes a piece of a path the tool writes (``content/<slug>/<stage>.json``,
``<lang>/<slug>/index.html``, ``static/play/<file>``), so it is held to one rule before
anything is written: lower-case ASCII letters, digits, ``-`` and ``_`` (the stage
``survey_beyond`` has one), starting with a letter, at most ``MAX_LENGTH`` characters, so
no path separator, no ``..``, no dot file; and none of the names the site's own folders
and pages take (``RESERVED``, the languages the tool knows among them). A file name may
carry extensions after its stem (``play/my-puzzle.js``): the stem and each extension are
held to the rule, the reserved names aside (``play/index.js`` is a plugin's to ship).
"""

from __future__ import annotations

import re

from site_builder.config import THEME_LANGS
from site_builder.errors import UserError

MAX_LENGTH = 64
_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_PART = re.compile(r"[a-z0-9][a-z0-9_-]*")
# the site's own top-level folders and pages, and the folders its pages are made in:
# a puzzle or a stage named so would share a path with the theme's files
RESERVED = frozenset({"shared", "static", "index", "runtime", "play", *THEME_LANGS})
RULE = ("lower-case letters, digits, '-' and '_', starting with a letter, at most "
        f"{MAX_LENGTH} characters; not one of {', '.join(sorted(RESERVED))}")


def problem(name: object) -> str | None:
    """Why ``name`` cannot name a puzzle or a stage, or None when it can."""
    if not isinstance(name, str):
        return f"{name!r} is not a string"
    if len(name) > MAX_LENGTH:
        return f"{name[:MAX_LENGTH]!r}... is longer than {MAX_LENGTH} characters ({RULE})"
    if not _NAME.fullmatch(name):
        return f"{name!r} is not a name ({RULE})"
    if name in RESERVED:
        return f"{name!r} is reserved for the site's own files ({RULE})"
    return None


def file_problem(rel: str) -> str | None:
    """Why ``rel`` (a path inside a plugin's static folder, ``/``-separated) cannot be
    shipped, or None: each folder and each file's stem held to the rule, each extension
    to its letters and digits."""
    parts = rel.split("/")
    for i, part in enumerate(parts):
        stem, *exts = part.split(".") if i == len(parts) - 1 else (part,)
        if not _PART.fullmatch(stem) or len(part) > MAX_LENGTH or \
                not all(_PART.fullmatch(e) for e in exts):
            return (f"{rel!r} is not a file name a plugin may ship (each piece: lower-case "
                    "letters, digits, '-' and '_', then extensions such as .js)")
    return None


def check(kind: str, name: object, owner: str = "") -> str:
    """``name`` when it may name a ``kind`` (a puzzle slug, a stage); else a UserError
    naming the owner (the plugin) and the rule."""
    why = problem(name)
    if why is not None:
        raise UserError(f"{owner + ': ' if owner else ''}{kind} {why}")
    return str(name)
