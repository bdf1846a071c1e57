"""Where rendering reads from: one search path, the site first, then each puzzle plugin,
then the theme that ships inside this package.

* Templates: ``SITE/templates/NAME``, then (for ``SLUG/NAME``) the plugin's
  ``templates/NAME``, then ``site_builder/theme/NAME``. A site overrides any theme file,
  or any puzzle's article, by a file of the same name in its own ``templates/``.
* Static files (copied to ``dist/static/``): the theme's ``static/``, each plugin's
  ``static/`` (which may add files but not replace the theme's), then the site's
  ``templates/static/`` over both.

Links: rendering reads only inside the site's folder, the puzzles' plugin folders and the
theme. ``check_links`` walks every folder rendering reads (``content/`` included) before
anything is rendered, and a symbolic link in them that resolves outside those folders (or
to nothing) is one UserError naming it: ``ln -s /etc/passwd templates/static/leak.txt``
once put the password file into ``dist/static/leak.txt``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from site_builder.errors import UserError
from site_builder.jsonio import read_bytes
from site_builder.names import file_problem

THEME = Path(__file__).resolve().parent / "theme"


def plugin_templates(p: Any) -> Path:
    return Path(p.package_dir) / "templates"


def plugin_static(p: Any) -> Path:
    return Path(p.package_dir) / "static"


def input_dirs(root: Path, puzzles: Iterable[Any]) -> list[tuple[str, Path]]:
    """(label, folder) for every folder rendering reads besides ``content/``: the site's
    templates, each puzzle's templates and static files, the theme."""
    dirs = [("templates", root / "templates")]
    for p in puzzles:
        dirs += [(f"{p.slug}:templates", plugin_templates(p)),
                 (f"{p.slug}:static", plugin_static(p))]
    dirs.append(("theme", THEME))
    return dirs


def allowed_roots(root: Path, puzzles: Iterable[Any]) -> list[Path]:
    """The folders whose files rendering may read: the site's own, each puzzle plugin's
    package folder and the theme."""
    return [root.resolve(), *(Path(p.package_dir).resolve() for p in puzzles), THEME]


def check_links(root: Path, puzzles: Iterable[Any]) -> None:
    """A UserError naming the first symbolic link, in a folder rendering reads, that
    resolves outside ``allowed_roots`` or to nothing."""
    puzzles = list(puzzles)
    roots = allowed_roots(root, puzzles)
    for _label, base in [("content", root / "content"), *input_dirs(root, puzzles)]:
        for link in _links(base):
            try:
                to = link.resolve(strict=True)
            except (OSError, RuntimeError):
                raise UserError(f"{link}: a symbolic link to {os.readlink(link)!r}, which "
                                "does not exist; replace it with the file itself") from None
            if not any(to == r or to.is_relative_to(r) for r in roots):
                raise UserError(f"{link}: a symbolic link to {to}, outside the site's and "
                                "the theme's folders; the build reads only inside them "
                                "(copy the file in if it belongs to the site)")


def _links(base: Path) -> Iterator[Path]:
    """Every symbolic link at or under ``base``, through linked folders too (each real
    folder walked once), since a reader that follows a folder's link meets the links
    inside it. Lazy: a folder's links are yielded before the walk enters them, so a bad
    one is refused before anything behind it is read."""
    if base.is_symlink():
        yield base
    seen: set[str] = set()
    for here, dirs, files in os.walk(base, followlinks=True):
        real = os.path.realpath(here)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        for n in (*dirs, *files):
            if os.path.islink(os.path.join(here, n)):
                yield Path(here) / n


def _files(base: Path) -> dict[str, Path]:
    if not base.is_dir():
        return {}
    return {f.relative_to(base).as_posix(): f for f in sorted(base.rglob("*"))
            if f.is_file() and "__pycache__" not in f.parts}


def static_sources(root: Path, puzzles: Iterable[Any]) -> dict[str, Path]:
    """dist path (``static/...``) -> the file it is copied from."""
    out = {f"static/{k}": f for k, f in _files(THEME / "static").items()}
    theme = set(out)
    for p in puzzles:
        for k, f in _files(plugin_static(p)).items():
            if (why := file_problem(k)) is not None:
                raise UserError(f"{f}: puzzle plugin {p.slug!r}: {why}")
            if f"static/{k}" in theme:
                raise UserError(f"{f}: puzzle {p.slug!r} ships static/{k}, which the theme "
                                "already has; a plugin may add static files, not replace "
                                "the theme's (a site overrides them in templates/static/)")
            out[f"static/{k}"] = f
    for k, f in _files(root / "templates" / "static").items():
        out[f"static/{k}"] = f
    return dict(sorted(out.items()))


def static_candidates(root: Path, puzzles: Iterable[Any], dest: str) -> list[Path]:
    """Every place ``static_sources`` looks for the dist path ``dest`` (``static/...``),
    in the order it is answered: the site's ``templates/static/`` first, then the theme,
    then each puzzle's ``static/``. The places before the one that answers are a static
    file's negative inputs: a file created at one of them takes its place."""
    rel = dest.removeprefix("static/")
    return [root / "templates" / "static" / rel, THEME / "static" / rel,
            *(plugin_static(p) / rel for p in puzzles)]


def static_files(root: Path, puzzles: Iterable[Any]) -> dict[str, bytes]:
    """dist path -> bytes of every static file (``static_sources``)."""
    return {k: read_bytes(f) for k, f in static_sources(root, puzzles).items()}


def template_loader(root: Path, puzzles: Iterable[Any]) -> Any:
    import jinja2

    return jinja2.ChoiceLoader([
        jinja2.FileSystemLoader(str(root / "templates")),
        jinja2.PrefixLoader({p.slug: jinja2.FileSystemLoader(str(plugin_templates(p)))
                             for p in puzzles}),
        jinja2.FileSystemLoader(str(THEME)),
    ])


def shown_path(root: Path, filename: str | None, name: str) -> str:
    """A template file as an author reads it: relative to the site when it is the site's,
    else ``theme:NAME`` or the plugin file's own path."""
    if not filename:
        return f"templates/{name}"
    f = Path(filename).resolve()
    for base, label in ((root.resolve(), None), (THEME, "theme")):
        try:
            rel = f.relative_to(base).as_posix()
        except ValueError:
            continue
        return rel if label is None else f"{label}:{rel}"
    return str(f)


def eject(root: Path, puzzles: Iterable[Any], name: str) -> tuple[Path, Path]:
    """Copy the theme's or a puzzle's template or static file ``name`` (a template name
    such as ``layout.html.j2`` or ``<slug>/article.en.md.j2``, or a static file such as
    ``static/site.css`` or ``static/play/<slug>.js``) to the place in the site's
    ``templates/`` that overrides it. Returns (from, to). Refuses a file already there
    (never overwritten) and a name that is no template or static file."""
    import shutil

    puzzles = list(puzzles)
    rel = name.strip().lstrip("/").removeprefix("templates/").removeprefix("theme:")
    if not rel or any(part in ("", ".", "..") for part in rel.split("/")):
        raise UserError(f"eject {name!r}: give a template or static file name, such as "
                        "layout.html.j2, SLUG/article.en.md.j2 or static/site.css")
    dest = root / "templates" / rel
    if rel.startswith("static/"):
        places = static_candidates(root, puzzles, rel)[1:]  # the site's own aside
    else:
        slug, _, rest = rel.partition("/")
        places = [THEME / rel]
        places += [plugin_templates(p) / rest for p in puzzles if p.slug == slug and rest]
    src = next((p for p in places if p.is_file()), None)
    if src is None:
        raise UserError(f"eject {name!r}: neither the theme nor a puzzle of the site has "
                        f"it (looked at {', '.join(shown_path(root, str(p), rel) for p in places)})")
    if dest.exists() or dest.is_symlink():
        raise UserError(f"{dest.relative_to(root).as_posix()} exists already: eject never "
                        "overwrites a site's file (remove it first for a fresh copy)")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    return src, dest
