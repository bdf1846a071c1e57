"""The site folder: ``site.toml`` and what it says, found from the working directory.

A site is a folder with a ``site.toml`` beside its ``content/`` (what the pipeline wrote)
and, optionally, ``templates/`` (the author's own articles and overrides of the theme).
The tool itself (``site_builder``, the theme inside it, the puzzle plugins) lives in the
installed packages and is never written to.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.errors import UserError

SITE_FILE = "site.toml"
THEME_LANGS = ("en", "ja")  # the languages the theme's own words exist in
DEFAULT_TITLE = {"en": "Puzzle Portfolio", "ja": "パズル・ポートフォリオ"}
DEFAULT_TAGLINE = {
    "en": "Pencil puzzles with real solvers, real generators and measured facts.",
    "ja": "本物のソルバーと生成器、そして実測した事実でつくるペンシルパズル集。",
}
_TOP_KEYS = ("title", "tagline", "languages", "base_url", "puzzles", "deploy")
_DEPLOY_KEYS = ("to", "branch", "dir")


def no_site_error(start: Path) -> UserError:
    return UserError(f"no {SITE_FILE} in {start} or any folder above it; "
                     "`build-site new site DIR` makes one")


def find_site(start: Path | None = None) -> Path:
    """The nearest folder at or above ``start`` (the working directory) holding a
    ``site.toml``; a UserError when there is none. Never the tool's own installation."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / SITE_FILE).is_file():
            return d
    raise no_site_error(here)


@dataclass(frozen=True)
class SiteConfig:
    root: Path
    title: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_TITLE))
    tagline: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_TAGLINE))
    languages: tuple[str, ...] = THEME_LANGS
    base_url: str = ""
    puzzles: tuple[str, ...] = ()
    deploy_to: str | None = None
    deploy_branch: str = "gh-pages"
    deploy_dir: str | None = None

    @property
    def path(self) -> Path:
        return self.root / SITE_FILE

    @property
    def content(self) -> Path:
        return self.root / "content"

    @property
    def templates(self) -> Path:
        return self.root / "templates"

    @property
    def cache(self) -> Path:
        return self.root / ".cache"


def _bad(path: Path, key: str, what: str) -> UserError:
    return UserError(f"{path}: key {key!r}: {what}")


def _lang_table(path: Path, key: str, value: Any, langs: tuple[str, ...],
                default: dict[str, str]) -> dict[str, str]:
    if not isinstance(value, dict):
        raise _bad(path, key, "expected a table of one string per language, e.g. "
                              f'{key} = {{ en = "...", ja = "..." }}')
    out = {} if value is not default else dict(default)
    for lang, text in value.items():
        if lang not in THEME_LANGS:
            raise _bad(path, f"{key}.{lang}", f"unknown language (allowed: {', '.join(THEME_LANGS)})")
        if not isinstance(text, str) or not text.strip():
            raise _bad(path, f"{key}.{lang}", "expected a non-empty string")
        out[lang] = text
    missing = [lang for lang in langs if lang not in out]
    if missing:
        raise _bad(path, key, f"no text for {', '.join(missing)}")
    return out


def _names(path: Path, key: str, value: Any, allowed: Sequence[str], expected: str,
           unknown: str, noun: str) -> tuple[str, ...]:
    """A non-empty list of distinct names, each one of ``allowed``."""
    if not (isinstance(value, list) and value and all(isinstance(x, str) for x in value)):
        raise _bad(path, key, expected)
    for x in value:
        if x not in allowed:
            raise _bad(path, key, unknown.format(x=repr(x), allowed=", ".join(allowed) or "none"))
    if len(set(value)) != len(value):
        raise _bad(path, key, f"a {noun} is listed twice")
    return tuple(value)


def parse(root: Path, text: str, installed: list[str] | None = None) -> SiteConfig:
    """``site.toml``'s text as a SiteConfig; a UserError naming the file, the key and what
    is allowed for anything else. ``installed``: the puzzle slugs that may be listed
    (default: every puzzle found)."""
    path = root / SITE_FILE
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{path}: not valid TOML ({e})") from None
    unknown = [k for k in raw if k not in _TOP_KEYS]
    if unknown:
        raise _bad(path, unknown[0], f"unknown key (allowed: {', '.join(_TOP_KEYS)})")
    langs_t = _names(path, "languages", raw.get("languages", list(THEME_LANGS)), THEME_LANGS,
                     "expected a non-empty list such as [\"en\", \"ja\"]",
                     "{x} is not a language the theme has (allowed: {allowed})", "language")
    title = _lang_table(path, "title", raw.get("title", DEFAULT_TITLE), langs_t, DEFAULT_TITLE)
    tagline = _lang_table(path, "tagline", raw.get("tagline", DEFAULT_TAGLINE), langs_t,
                          DEFAULT_TAGLINE)
    base_url = raw.get("base_url", "")
    if not isinstance(base_url, str):
        raise _bad(path, "base_url", "expected a string such as \"https://example.org/\"")
    if base_url and not base_url.startswith(("http://", "https://", "/")):
        raise _bad(path, "base_url", "expected an absolute URL (https://...) or a path "
                                     "starting with /")
    if installed is None:
        from solvers import registry

        installed = registry.slugs()
    puzzles = _names(path, "puzzles", raw.get("puzzles"), installed,
                     "expected a non-empty list of puzzle slugs, in the order the site shows "
                     "them (`build-site list` names them)",
                     "unknown puzzle {x} (installed: {allowed})", "puzzle")
    from site_builder import names

    for slug in puzzles:  # a plugin's slug becomes a folder of the site: the one rule
        if (why := names.problem(slug)) is not None:
            raise _bad(path, "puzzles", f"the puzzle plugin's slug {why}; the plugin must "
                                        "be renamed before a site can show it")
    deploy = raw.get("deploy", {})
    if not isinstance(deploy, dict):
        raise _bad(path, "deploy", "expected a table: [deploy] with to, branch or dir")
    for k, v in deploy.items():
        if k not in _DEPLOY_KEYS:
            raise _bad(path, f"deploy.{k}", f"unknown key (allowed: {', '.join(_DEPLOY_KEYS)})")
        if not isinstance(v, str) or not v:
            raise _bad(path, f"deploy.{k}", "expected a non-empty string")
    if "to" in deploy and "dir" in deploy:
        raise _bad(path, "deploy", "give either to (a git remote) or dir (a folder), not both")
    return SiteConfig(root=root, title=title, tagline=tagline, languages=langs_t,
                      base_url=base_url, puzzles=puzzles, deploy_to=deploy.get("to"),
                      deploy_branch=deploy.get("branch", "gh-pages"),
                      deploy_dir=deploy.get("dir"))


_loaded: dict[tuple[str, int, int], SiteConfig] = {}


def load(root: Path) -> SiteConfig:
    """The configuration of the site at ``root`` (cached on the file's stat)."""
    path = root / SITE_FILE
    try:
        st = path.stat()
        key = (str(path), st.st_mtime_ns, st.st_size)
        if key not in _loaded:
            _loaded[key] = parse(root, path.read_text(encoding="utf-8"))
        return _loaded[key]
    except FileNotFoundError:
        raise no_site_error(root) from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: cannot read ({e})") from None
