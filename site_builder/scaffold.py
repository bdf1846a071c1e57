"""`build-site new`: a site folder of one's own, or a puzzle plugin to start from.

``new site DIR`` writes ``site.toml``, ``content/`` (each puzzle's shipped boards and
figures where its package carries them, so the first build only renders), ``templates/``
for the author's own articles and overrides, a ``.gitignore`` and a README.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from site_builder.config import DEFAULT_TAGLINE, DEFAULT_TITLE, SITE_FILE, THEME_LANGS
from site_builder.errors import UserError

_SOURCE = Path(__file__).resolve().parent.parent  # a checkout, or site-packages


def _fresh(dest: Path) -> None:
    """``dest`` must be absent or an empty folder: nothing of anyone's is overwritten."""
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise UserError(f"{dest}: already exists and is not an empty folder; name a new one")


def default_content(p: Any) -> Path | None:
    """The folder of boards and figures a puzzle ships (``content/`` inside its package),
    else, for a puzzle of the checkout this code runs from, that site's ``content/SLUG``;
    None when neither exists (the first build then runs the puzzle's stages)."""
    own = Path(p.package_dir) / "content"
    if own.is_dir():
        return own
    here = _SOURCE / "content" / p.slug
    if (_SOURCE / SITE_FILE).is_file() and here.is_dir():
        return here
    return None


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def site_toml(puzzles: list[str]) -> str:
    def table(d: dict[str, str]) -> str:
        return "{ " + ", ".join(f"{k} = {_toml_str(v)}" for k, v in d.items()) + " }"

    return (
        "# The site's settings; `build-site` reads this file (it marks the site's folder).\n"
        f"title = {table(DEFAULT_TITLE)}\n"
        f"tagline = {table(DEFAULT_TAGLINE)}\n"
        f"languages = [{', '.join(_toml_str(x) for x in THEME_LANGS)}]\n"
        "# absolute URL the site is served from: canonical links and a sitemap.xml\n"
        'base_url = ""\n'
        "# the puzzles the site shows, in this order (`build-site list` names those installed)\n"
        f"puzzles = [{', '.join(_toml_str(x) for x in puzzles)}]\n"
        "\n[deploy]\n"
        "# to = \"git@example.org:me/puzzles.git\"   # or: dir = \"/srv/www/puzzles\"\n"
        'branch = "gh-pages"\n')


_README = """# {title}

A puzzle site made with `build-site new site`. Run every command in this folder (or any
folder below it):

| command | what it does |
|---|---|
| `build-site serve` | builds, then previews at http://127.0.0.1:8000/ and reloads on every edit |
| `build-site build` | brings each puzzle's boards and figures up to date, renders `dist/` |
| `build-site check` | proves every number on every page equals its JSON source |
| `build-site deploy` | publishes `dist/` (set `[deploy]` in `site.toml`, or give `--to`/`--dir`) |
| `build-site list` | the puzzles installed; add any of them to `puzzles` in `site.toml` |

## What is here

- `site.toml`: the title in each language, the languages, the base URL, the puzzles and
  their order, where to deploy.
- `content/<slug>/`: each puzzle's boards and measured figures, as JSON written by the
  pipeline. Never edit them by hand: `build-site build --regenerate` recomputes them
  from fixed seeds.
- `templates/`: your own articles and overrides. A file here replaces the file of the
  same name from the puzzle or the theme, for example
  `templates/<slug>/article.en.md.j2` for a puzzle's English article (start from a copy
  of the puzzle's own), `templates/layout.html.j2` for the page frame, or
  `templates/static/site.css` for the stylesheet.

Every number on a page must come from the JSON through the `num` filter
(`{{{{ stats.x | num("pct1") }}}}`); digits that are words, such as a board size naming a
row, go through `lit`. `build-site check` fails a page with a number typed by hand.
"""

_TEMPLATES_README = """# Your templates

Files here take precedence over the puzzles' and the theme's files of the same name:

- `<slug>/article.en.md.j2`, `<slug>/article.ja.md.j2`: a puzzle's article (Markdown with
  Jinja); `<slug>/README.*.md.j2` its README, `<slug>/hook.*.md.j2` its one-line teaser.
- `layout.html.j2`, `index.html.j2`, `article.html.j2`, `play.html.j2`, `solve.html.j2`,
  `404.html.j2`: the theme's pages.
- `static/...`: copied into `dist/static/`, over the theme's (`static/site.css`, ...).

Start from a copy of the file you want to change; `build-site serve` shows each edit at
once.
"""


def new_site(dest: Path, puzzles: list[str] | None = None) -> str:
    """Write a working site into ``dest``; returns the line to print."""
    from site_builder import names, targets
    from solvers import registry

    dest = dest.resolve()
    targets.refuse_tool_folder(dest, "new site:", tail="; name a folder of your own")
    _fresh(dest)
    broken = registry.problems()
    if puzzles is None:
        puzzles = [s for s in registry.slugs() if s not in broken and names.problem(s) is None]
    for slug in puzzles:
        registry.get(slug)  # unknown or broken: one line naming it
        names.check("puzzle slug", slug, f"puzzle plugin {slug!r}")
    if len(set(puzzles)) != len(puzzles):
        twice = sorted({s for s in puzzles if puzzles.count(s) > 1})
        raise UserError(f"--puzzles names {', '.join(twice)} twice; name each puzzle once")
    if not puzzles:
        raise UserError("no puzzle is installed to make a site of (`build-site list`)")
    copied, to_run = [], []
    made = not dest.exists()
    try:
        dest.mkdir(parents=True, exist_ok=True)
        (dest / SITE_FILE).write_text(site_toml(puzzles), encoding="utf-8")
        (dest / "templates").mkdir()
        (dest / "templates" / "README.md").write_text(_TEMPLATES_README, encoding="utf-8")
        (dest / "content").mkdir()
        for slug in puzzles:
            src = default_content(registry.get(slug))
            if src is None:
                to_run.append(slug)
                continue
            shutil.copytree(src, dest / "content" / slug,
                            ignore=shutil.ignore_patterns("__pycache__", ".*"))
            copied.append(slug)
        (dest / ".gitignore").write_text("/dist/\n/.cache/\n", encoding="utf-8")
        (dest / "README.md").write_text(_README.format(title=DEFAULT_TITLE["en"]),
                                        encoding="utf-8")
    except OSError as e:
        # nothing half-written is left: the folder is taken back to what it was (absent,
        # or empty, as _fresh required)
        if made:
            shutil.rmtree(dest, ignore_errors=True)
        else:
            for entry in list(dest.iterdir()) if dest.is_dir() else ():
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
        raise UserError(f"{dest}: cannot write the site there ({e.strerror or e}); "
                        "nothing was left there") from None
    note = (f"; the first build computes {', '.join(to_run)} from its seeds"
            if to_run else "")
    return (f"made a site of {len(puzzles)} puzzle(s) in {dest}{note}; next: "
            f"cd {dest} && build-site serve")


def new_puzzle(slug: str, dest: Path) -> str:
    from site_builder import newpuzzle

    return str(newpuzzle.new_puzzle(slug, dest))
