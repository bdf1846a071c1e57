"""`build-site new puzzle SLUG [DIR]`: a puzzle plugin package to start from.

The files come from ``puzzle_template/`` beside this module (shipped in the wheel): every
role file of the role table (``solvers.common.ROLES``, and ``construct``), the
templates, the play page's checker, ``pyproject.toml`` with the entry point, a test file
and ``GUIDE.md``. In names and text, ``__SLUG__`` is the slug, ``__PKG__`` the package
name (the slug with ``-`` as ``_``), ``__NAME__`` the display name and ``__DIST__`` the
distribution name; a ``.tmpl`` suffix (kept off Python files so that no tool reads them
as this package's code) is dropped. The package works as written: it installs with
``pip install -e DIR``, its tests pass, and a site listing the slug builds and checks.
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path

from site_builder.errors import UserError

TEMPLATE = Path(__file__).resolve().parent / "puzzle_template"
SLUG = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")


def names(slug: str) -> dict[str, str]:
    """The placeholders and what they stand for in a package made for ``slug``."""
    return {"__SLUG__": slug, "__PKG__": slug.replace("-", "_"),
            "__NAME__": slug.replace("-", " ").title(), "__DIST__": f"{slug}-puzzle"}


def _fill(text: str, subs: dict[str, str]) -> str:
    for k, v in subs.items():
        text = text.replace(k, v)
    return text


def files(slug: str) -> dict[str, bytes]:
    """Path inside the package folder -> content, for ``slug``."""
    subs = names(slug)
    out: dict[str, bytes] = {}
    for f in sorted(TEMPLATE.rglob("*")):
        if not f.is_file() or "__pycache__" in f.parts:
            continue
        rel = _fill(f.relative_to(TEMPLATE).as_posix(), subs).removesuffix(".tmpl")
        out[rel] = _fill(f.read_text(encoding="utf-8"), subs).encode()
    return out


def check_slug(slug: str) -> None:
    """A UserError unless ``slug`` can name a new puzzle here."""
    from site_builder import names as naming

    if not SLUG.fullmatch(slug):
        raise UserError(f"{slug!r} is not a puzzle slug: use lowercase letters, digits and "
                        "single '-' between them, starting with a letter (e.g. my-puzzle)")
    if (why := naming.problem(slug)) is not None:  # the rule every plugin name keeps
        raise UserError(f"puzzle slug {why}")
    pkg = names(slug)["__PKG__"]
    if keyword.iskeyword(pkg):
        raise UserError(f"{slug!r}: its package name {pkg!r} is a Python keyword; "
                        "choose another slug")
    from solvers import registry

    if slug in registry.slugs():
        e = registry.entries().get(slug)
        where = f" by {e.dist} ({e.value})" if e else ""
        raise UserError(f"puzzle {slug!r} is already installed{where}; choose another slug")
    import importlib.util

    try:
        taken = importlib.util.find_spec(pkg) is not None
    except (ImportError, ValueError):
        taken = True
    if taken:
        raise UserError(f"{slug!r}: a Python module named {pkg!r} is already importable "
                        "here; choose another slug")


def new_puzzle(slug: str, dest: Path) -> str:
    """Write the package for ``slug`` into ``dest`` (absent or empty); the line to print."""
    check_slug(slug)
    dest = dest.resolve()
    from site_builder import targets

    targets.refuse_tool_folder(dest, "new puzzle:", tail="; name a folder of your own")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UserError(f"{dest}: already exists and is not an empty folder; name a new one")
    made = not dest.exists()
    written: list[Path] = []
    try:
        for rel, data in files(slug).items():
            path = dest / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            written.append(path)
    except OSError as e:
        for path in written:
            path.unlink(missing_ok=True)
        if made:
            import shutil

            shutil.rmtree(dest, ignore_errors=True)
        raise UserError(f"{dest}: cannot write the package there ({e.strerror or e})") from None
    pkg = names(slug)["__PKG__"]
    return (f"made the puzzle plugin {slug!r} (package {pkg}) in {dest}; next: "
            f"pip install -e {dest}, add \"{slug}\" to puzzles in your site.toml, then "
            f"build-site build (the guide: {dest / 'GUIDE.md'})")
