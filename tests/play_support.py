"""What the play tests and benchmarks/play.py share: the puzzles, their banks, chromium.

Every registered puzzle (``solvers.registry``) is played from its built bank,
``content/<slug>/bank.json`` (``PLAY_CONTENT=<dir>`` reads another content folder); a
registered puzzle without a bank is an error, not a skip. The framework's test puzzles
(``tests/play_fixtures``) bring their own boards and checker modules.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import play_fixtures

from site_builder import play
from site_builder.build import write_tree
from site_builder.site import Site
from site_builder.sources import static_files
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium(args: list[str] = ARGS) -> Iterator[Any]:
    """Debian's chromium through Playwright (the browser download does not work here),
    closed on the way out."""
    from playwright import sync_api

    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)
        try:
            yield b
        finally:
            b.close()


REGISTERED = tuple(registry.slugs())
FIXTURES = tuple(play_fixtures.PUZZLES)
ALL = REGISTERED + FIXTURES


def puzzle(slug: str) -> Any:
    return play_fixtures.PUZZLES[slug] if slug in play_fixtures.PUZZLES else registry.get(slug)


@functools.cache
def bank(slug: str) -> dict[str, Any]:
    if slug in play_fixtures.BANKS:
        return play_fixtures.BANKS[slug]
    path = Path(os.environ.get("PLAY_CONTENT", ROOT / "content")) / slug / "bank.json"
    assert path.exists(), f"{path} is missing: build it (build-site build) to play {slug}"
    data = json.loads(path.read_text())["data"]
    assert data.get("boards"), f"{path} has no boards"
    return data


def standalone_files(root: Path, banks: dict[str, tuple[Any, dict[str, Any]]]
                     ) -> dict[str, str | bytes]:
    """The play pages of ``banks`` ({slug: (puzzle, bank data)}) plus templates/static/**.

    Renders through the real layout without needing stats or ledger JSON, so the browser
    tests and the benchmark can run before (or without) a full ``build-site build``.
    """
    site = Site(root, load_data=False)
    files: dict[str, str | bytes] = {}
    for puzzle, data in banks.values():
        files.update(play.play_files(site, puzzle, data))
    files.update(static_files(site.root, site.puzzles))
    return files


def write_files(out: Path, files: dict[str, str | bytes]) -> None:
    """Write ``files`` as the whole content of the folder ``out`` (swapped in at once)."""
    write_tree(Path(out), files)


def dist_files(slugs: tuple[str, ...] = ALL) -> dict[str, str | bytes]:
    """The play pages of ``slugs`` alone, plus templates/static/** and the test puzzles'
    checker modules and stylesheets under static/play/."""
    files = standalone_files(ROOT, {s: (puzzle(s), bank(s)) for s in slugs})
    for slug in slugs:
        for f in play_fixtures.STATIC.get(slug, ()):
            files[f"static/play/{f.name}"] = f.read_bytes()
    return files


class _Quiet(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive, as a real server would

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def serve_files(out: Path, files: dict[str, str | bytes]) -> Iterator[str]:
    """Write ``files`` into ``out`` and serve it over http on loopback (ES modules need
    http); yields the base URL."""
    write_files(out, files)
    handler = functools.partial(_Quiet, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def play_modules(dest: Path) -> Path:
    """``dest/static/play`` holding the play framework and every registered puzzle's
    checker, laid out as in dist/ (a checker imports ``./grid.js`` beside it)."""
    from site_builder.sources import static_sources

    for rel_path, src in static_sources(ROOT, [registry.get(s) for s in REGISTERED]).items():
        if rel_path.startswith("static/play/"):
            target = dest / rel_path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
    return dest / "static" / "play"


def singular(text: str, lang: str) -> str:
    """Python's message as the page writes it: in English a count of one in the singular
    ("has 1 cell", play.js singular(); the rules tables' templates say "{size} cells")."""
    if lang != "en":
        return text
    return re.sub(r"\b1 ((?:numbered )?(?:cell|line|side|neighbour|number|piece|region|circle))s\b",
                  r"1 \1", text)
