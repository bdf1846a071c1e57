"""The solve pages: a visitor's own board solved in the browser by the project's solvers.

``solve_files(site, puzzle, runtime_cfg)`` returns ``{dist-relative path: content}`` for
``en/<slug>/solve/index.html`` and ``ja/<slug>/solve/index.html`` (template
``solve.html.j2``, script ``static/solve/solve.js``, worker ``static/solve/worker.js``);
``site_files(root)`` (site_builder/runtime.py) adds, once for every puzzle, the Pyodide
runtime and ``solvers.zip``. Only the solve pages load the runtime.

Like the play pages, the page text has no figures of its own: the script writes counts,
sizes and times, and the page's limits are vocabulary printed through ``|lit``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from site_builder import i18n
from site_builder.play import posix_rel, rung_names
from site_builder.solve import DEFAULT_TIMEOUT
from site_builder.solve_web import CELL, editor_spec
from solvers.common import MAX_CELLS

GRACE = 5.0  # seconds past the time limit before the page ends a worker that hangs
# setTimeout holds at most 2^31 - 1 ms: the page's largest time limit leaves the grace
# below that (about 24.8 days; the CLI's own limit, cli.MAX_TIMEOUT, is higher)
MAX_PAGE_TIMEOUT = float(int((2**31 - 1) / 1000 - GRACE))
INPUT_CAP = 64 * 1024  # characters of a pasted board or fragment, read before any parsing
AUTO_CELLS = 400  # boards up to this many cells are solved again as they change
HELP_SECONDS = 5.0  # the constructor help's budget for its trial solves

# Text the script writes into the page ({name} fields are filled in by solve.js).
JS_STRINGS: dict[str, dict[str, str]] = i18n.table("solve_script")

PAGE: dict[str, dict[str, str]] = i18n.table("solve_page")


def _script_json(obj: Any) -> str:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


def page_context(puzzle: Any, lang: str, path: str, runtime: dict[str, Any],
                 shown: list[Any] | None = None) -> dict[str, Any]:
    """What solve.html.j2 sees: the page text and the script's config (``shown``: the
    site's puzzles, whose names a board of another puzzle is told by; default: this one)."""

    def here(target: str) -> str:
        d = posix_rel(path, target.rsplit("/", 1)[0] + "/")
        return d + target.rsplit("/", 1)[1]

    rt = dict(runtime)
    if rt.get("available"):
        rt["pyodide"] = posix_rel(path, rt["pyodide"])
        rt["zip"] = here(rt["zip"])
        rt["stdlib"] = here(rt["stdlib"])
        rt["wheels"] = [here(w) for w in rt["wheels"]]
    config = {
        "slug": puzzle.slug, "lang": lang, "pid": puzzle.pid, "cap": MAX_CELLS,
        "timeout": DEFAULT_TIMEOUT, "grace": GRACE, "cell": CELL,
        "maxTimeout": MAX_PAGE_TIMEOUT, "maxInput": INPUT_CAP,
        "solvePages": {p.slug: posix_rel(path, f"{lang}/{p.slug}/solve/")
                       for p in (shown or [puzzle])},
        "names": {p.slug: p.names[lang] for p in (shown or [puzzle])},
        "rungNames": rung_names(puzzle, lang), "strings": JS_STRINGS[lang],
        "worker": here("static/solve/worker.js"), "runtime": rt,
        "edit": editor_spec(puzzle.slug), "auto": AUTO_CELLS, "help": HELP_SECONDS,
        "play": posix_rel(path, f"{lang}/{puzzle.slug}/play/"),
    }
    return {"solve": {"slug": puzzle.slug, "name": puzzle.names[lang], "s": PAGE[lang],
                      "timeout": DEFAULT_TIMEOUT, "max_timeout": int(MAX_PAGE_TIMEOUT),
                      "edit": config["edit"],
                      "config": _script_json(config)}}


def solve_files(site: Any, puzzle: Any, runtime: dict[str, Any]) -> dict[str, str | bytes]:
    """The two solve pages of one puzzle (``runtime``: site_files' config)."""
    out: dict[str, str | bytes] = {}
    for lang in site.langs:
        path = f"{lang}/{puzzle.slug}/solve/index.html"
        title = PAGE[lang]["title"].format(name=puzzle.names[lang])
        out[path] = site.render_page("solve.html.j2", lang=lang, path=path, title=title,
                                     description=PAGE[lang]["lead"],
                                     **page_context(puzzle, lang, path, runtime,
                                                    site.puzzles))
    return out


def all_files(site: Any, root: Path) -> dict[str, str | bytes]:
    """Every puzzle's solve pages plus what they share (the runtime, solvers.zip)."""
    from site_builder import runtime

    # the runtime and the zip come with the code that runs, not with the project folder
    # (a build of another folder's content/ and templates/ ships this checkout's solvers)
    shared, cfg = runtime.site_files(runtime.HOME, tuple(p.slug for p in site.puzzles))
    files: dict[str, str | bytes] = dict(shared)
    for p in site.puzzles:
        files.update(solve_files(site, p, cfg))
    return files


def standalone_files(root: Any, slugs: list[str] | None = None) -> dict[str, str | bytes]:
    """The solve pages alone (with the runtime and templates/static/**), rendered through
    the real layout without stage files: for the browser tests and the benchmark."""
    from site_builder.site import Site
    from site_builder.sources import static_files

    root = Path(root)
    site = Site(root, slugs=slugs, load_data=False)
    files = all_files(site, root)
    files.update(static_files(site.root, site.puzzles))
    return files
