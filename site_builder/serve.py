"""`build-site serve`: build, serve dist/ on loopback, re-render what an edit changed, and
tell the browser which file changed.

The server is the `livereload` package (tornado underneath). What this module adds:

* a watcher on the operating system's file events (``watchfiles``, the Rust ``notify``
  library underneath) over what the site is made from: the site's ``templates/``,
  ``content/`` and ``site.toml``, each puzzle package (its templates, static files and
  code), the theme and the tool's own code. Folders are watched, never files (a save by
  rename or by delete and create replaces the file a file watch follows); a folder not
  there yet is watched through its nearest existing parent, and the watches are planned
  again when it appears and after each rebuild (a puzzle added to ``site.toml``). Events are gathered for a few milliseconds,
  then one rebuild runs in a worker thread while the server keeps answering; what changes
  during a rebuild is gathered meanwhile and makes the next one, so no edit is lost (the
  files the build itself writes under ``content/`` only cost a rebuild that finds nothing
  to do);
* template, static and content edits re-render in this process through ``build_site``:
  its stage cache skips the stages, and the render record (``site_builder/incremental``)
  re-renders only the pages whose inputs changed, with the compiled templates and the
  parsed JSON kept in memory;
* Python edits cannot be reloaded into a running process safely, so from the first such
  edit on every rebuild runs in a fresh interpreter (``build-site build`` with the
  project first on ``sys.path``); restart ``serve`` to get in-process re-renders back;
* after each rebuild the browsers are told each file written (livereload's ``reload``
  message, one per file). A small client plugin for livereload.js, loaded into every
  page, acts on it: the page that changed reloads, a stylesheet the page uses is swapped
  in without a reload (livereload's own live CSS), a script or data file the page loaded
  reloads it, and any other page does nothing;
* a failed rebuild keeps serving the last good site (nothing is written before the whole
  render succeeded) and shows the error, naming the file and line, as an overlay on every
  open page (``/__serve/status``); the next good rebuild clears it;
* every route, livereload's own included (``/livereload.js``, ``/forcereload``, the
  ``/livereload`` WebSocket), answers only requests for this server's own name when it is
  bound to loopback (a foreign ``Host`` is DNS rebinding: 403), and the WebSocket takes
  only an ``Origin`` of the same host and port, so no other web page can reload the
  preview or read the names of the files being edited;
* a static file handler that only ever answers with files whose real path lies inside
  the output folder (``..``, ``%2e%2e`` and symlinks that leave it get 403/404), and
  reads each file once per request: its length and bytes are those of the file opened,
  so a page a rebuild renames over goes out whole, old or new.
"""

from __future__ import annotations

import errno
import json
import logging
import mimetypes
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from site_builder.errors import UserError

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
STEP_MS = 20       # a batch of events ends after this long with no new one ...
DEBOUNCE_MS = 250  # ... or after this long in all
_IGNORED_DIRS = {"__pycache__", ".git", ".pytest_cache", ".ruff_cache", "node_modules",
                 ".mypy_cache", ".cache", ".venv"}
_IGNORED_SUFFIXES = (".pyc", ".pyo", ".swp", ".swx", ".tmp", "~")
CLIENT_PATH = "/__serve/client.js"
STATUS_PATH = "/__serve/status"
MAX_NAMED = 300  # more files written than this: the browsers are told "everything"


def ignored(path: str) -> bool:
    """Editor and build noise: swap files, backups, lock files, temporary files (ours are
    written as ``.NAME.PID.tmp`` and renamed), compiled Python, caches."""
    parts = Path(path).parts
    name = parts[-1] if parts else ""
    return (name.endswith(_IGNORED_SUFFIXES) or name.startswith(".#")
            or any(p in _IGNORED_DIRS for p in parts[:-1]))


def watched_paths(root: Path, every: bool = False) -> list[Path]:
    """What the site is made from: the site's own folders and file, each puzzle package,
    the theme and the tool's code (``site_builder``, ``solvers``); ``every``: those that
    do not exist yet too (``Watch`` watches for their creation)."""
    import site_builder
    import solvers
    from site_builder import config
    from solvers import registry

    out = [root / "templates", root / "content", root / config.SITE_FILE,
           Path(site_builder.__file__).resolve().parent, Path(solvers.__file__).resolve().parent]
    broken = registry.problems()
    out += [Path(registry.get(slug).package_dir).resolve() for slug in config.load(root).puzzles
            if slug in registry.slugs() and slug not in broken]
    seen: list[Path] = []
    for p in out:
        if (every or p.exists()) and not any(p == q or q in p.parents for q in seen):
            seen = [q for q in seen if p not in q.parents] + [p]
    return seen


def code_roots(root: Path) -> list[Path]:
    import site_builder
    import solvers

    return [Path(site_builder.__file__).resolve().parent, Path(solvers.__file__).resolve().parent]


def is_code_change(paths: Iterable[str], roots: list[Path] | None = None) -> bool:
    """True when any changed file is Python code: the running process has imported it
    (the tool's own code, a puzzle package's)."""
    return any(p.endswith(".py") for p in paths)


def shown(paths: list[str], root: Path) -> str:
    rel = []
    for p in paths:
        try:
            rel.append(Path(p).resolve().relative_to(root).as_posix())
        except ValueError:
            rel.append(p)
    text = ", ".join(rel[:3])
    return text + (f" and {len(rel) - 3} more" if len(rel) > 3 else "")


def _plugin_problem(why: str) -> str:
    """A plugin's import error as the overlay shows it: ``FILE:LINE: ...`` first when the
    error says where it was raised."""
    m = re.search(r" \(raised at (?P<at>.+?:\d+)\)", why)
    return f"{m['at']}: {why[:m.start()]}{why[m.end():]}" if m else why


_WHERE = re.compile(r"^(?P<file>(?:theme:)?[^\s:][^:\n]*?):(?P<line>\d+):")


def error_status(message: str) -> dict[str, Any]:
    """What the overlay shows: the message, and the file and line it names first."""
    m = _WHERE.match(message)
    return {"error": message, "file": m["file"] if m else None,
            "line": int(m["line"]) if m else None}


class Rebuilder:
    """Runs the build in this process, or in a subprocess once Python code changed; says
    which dist files each rebuild wrote."""

    def __init__(self, root: Path, out: Path, base_url: str = "",
                 log: Callable[[str], None] | None = None) -> None:
        self.root = root
        self.out = out
        self.base_url = base_url
        self.code_changed = False
        self.log = log or (lambda s: print(s, flush=True))
        self.status: dict[str, Any] = {"error": None}

    def build_in_process(self) -> tuple[str, list[str]]:
        from site_builder.build import build_site

        report = build_site(self.root, self.out, base_url=self.base_url, quiet=True)
        if report.skipped:
            # a plugin that cannot be loaded: the last good site stays (build_site wrote
            # nothing of the site when the puzzle had pages), the overlay names the cause
            raise UserError(_plugin_problem(report.kept_why or ", ".join(
                f"puzzle {s} cannot be loaded" for s in report.skipped)))
        o = report.outcome
        written = [p for p, _ in o.rendered] + list(o.removed)
        if o.full:
            written = ["*"]
        ran = ", ".join(report.stages_run) or "none"
        what = (f"{len(o.rendered)} of {report.files} files"
                if not o.full else f"all {report.files} files")
        if o.unchanged_inputs:
            what += ", no input changed"
        text = f"{what} ({report.pages} pages) in {report.seconds:.2f} s (stages run: {ran})"
        return text, written

    def build_in_subprocess(self) -> tuple[str, list[str]]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(self.root)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-m", "site_builder.cli", "build", "--quiet", "--explain",
             "--out", str(self.out), "--base-url", self.base_url],
            cwd=self.root, env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise UserError(tail.removeprefix("build-site: error: "))
        lines = proc.stdout.splitlines()
        written = [line.split()[1].rstrip(":") for line in lines
                   if line.startswith(("  rendered ", "  removed "))]
        if any(line.startswith("  rendered every file") for line in lines):
            written = ["*"]
        stages = re.search(r"stages run: (.*)$", lines[0]) if lines else None
        text = (f"{len(written)} files in {time.perf_counter() - t0:.2f} s, fresh interpreter "
                f"(stages run: {stages.group(1) if stages else 'none'})")
        return text, written

    def __call__(self, changed: list[str]) -> list[str] | None:
        """Rebuild after ``changed``; the dist paths written, or None when it failed."""
        what_changed = shown(changed, self.root)
        if is_code_change(changed) and not self.code_changed:
            self.code_changed = True
            self.log("Python code changed: rebuilding in a fresh interpreter from now on "
                     "(restart serve for fast in-process re-renders)")
        t0 = time.perf_counter()
        try:
            what, written = (self.build_in_subprocess() if self.code_changed
                             else self.build_in_process())
        except UserError as e:
            msg = " ".join(str(e).split())
            self.status = error_status(msg)
            self.log(f"[serve] rebuild failed after {what_changed}: {msg}")
            return None
        except Exception as e:  # noqa: BLE001 - a broken template must not stop the server
            self.status = error_status(f"{type(e).__name__}: {e}")
            self.log(f"[serve] rebuild failed after {what_changed}:\n"
                     f"{traceback.format_exc().rstrip()}")
            return None
        self.status = {"error": None}
        self.log(f"[serve] {what_changed} changed: rebuilt {what} "
                 f"[{time.perf_counter() - t0:.2f} s]")
        return written


def watch_plan(wanted: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """(folders watched with all they hold, folders watched for their own entries only).

    Folders, never files: an editor that saves by writing a temporary file and renaming
    it over the old one (or deletes it and creates it again) replaces the file a watch on
    the file itself would follow, and every later save went unseen. A wanted file is
    watched through its folder; a wanted folder that does not exist yet through its
    nearest existing parent, so its creation is seen (and the plan made again)."""
    deep: list[Path] = []
    flat: list[Path] = []
    for w in wanted:
        if w.is_dir():
            deep.append(w)
            continue
        p = w.parent
        while not p.is_dir() and p != p.parent:
            p = p.parent
        flat.append(p)
    deep = sorted({d for d in deep if not any(q in d.parents for q in deep)})
    flat = sorted({f for f in flat if not any(f == q or q in f.parents for q in deep)})
    return deep, flat


def wanted_event(path: Path, wanted: Iterable[Path]) -> bool:
    """Whether an event at ``path`` concerns what the site is made from: a wanted path, a
    path inside a wanted folder, or a folder on the way to a wanted one not there yet."""
    return any(path == w or w in path.parents or path in w.parents for w in wanted)


class _Either:
    """An event for watchfiles' ``stop_event``: set when either is."""

    def __init__(self, *events: threading.Event) -> None:
        self.events = events

    def is_set(self) -> bool:
        return any(e.is_set() for e in self.events)


class Watch:
    """File events -> one rebuild at a time; events during a rebuild make the next one.

    ``paths`` is what the site is made from (``watched_paths``), or a function giving it:
    then it is asked again after every rebuild (a puzzle added to ``site.toml`` brings its
    package) and whenever a wanted folder comes into being, and the watches are set up
    again when the answer changed."""

    def __init__(self, paths: list[Path] | Callable[[], list[Path]],
                 rebuild: Callable[[list[str]], list[str] | None],
                 notify: Callable[[list[str] | None], None]) -> None:
        self.wanted_now: Callable[[], list[Path]] = (
            paths if callable(paths) else (lambda: list(paths)))
        self.paths: list[Path] = self.wanted_now()
        self.rebuild, self.notify = rebuild, notify
        self.stop_event = threading.Event()
        self.replan = threading.Event()
        self.pending: set[str] = set()
        self.cond = threading.Condition()
        self.plan = watch_plan(self.paths)
        self.ready = threading.Event()  # set once the watches of the current plan run

    def start(self) -> None:
        threading.Thread(target=self._watch, name="serve-watch", daemon=True).start()
        threading.Thread(target=self._build, name="serve-build", daemon=True).start()

    def _watch(self) -> None:
        while not self.stop_event.is_set():
            self.replan.clear()
            wanted = list(self.paths)
            deep, flat = self.plan
            stop = _Either(self.stop_event, self.replan)
            threads = [threading.Thread(target=self._events, args=(dirs, rec, wanted, stop),
                                        daemon=True)
                       for dirs, rec in ((deep, True), (flat, False)) if dirs]
            for t in threads:
                t.start()
            self.ready.set()
            while not stop.is_set():
                self.replan.wait(0.2)
            self.ready.clear()
            for t in threads:
                t.join()

    def _events(self, dirs: list[Path], recursive: bool, wanted: list[Path],
                stop: _Either) -> None:
        import watchfiles

        def keep(_change: Any, p: str) -> bool:
            return not ignored(p) and wanted_event(Path(p), wanted)

        for batch in watchfiles.watch(*dirs, watch_filter=keep, recursive=recursive,
                                      step=STEP_MS, debounce=DEBOUNCE_MS, rust_timeout=200,
                                      yield_on_timeout=False, stop_event=stop,
                                      raise_interrupt=False):
            with self.cond:
                self.pending |= {p for _, p in batch}
                self.cond.notify()
            if any(Path(p).is_dir() and Path(p) not in self.plan[0] for _, p in batch):
                self._replan()  # a folder came into being: watch inside it too

    def _replan(self) -> None:
        try:
            wanted = self.wanted_now()
        except Exception:  # noqa: BLE001 - a site.toml being edited: keep the watches
            return
        plan = watch_plan(wanted)
        if plan != self.plan or wanted != self.paths:
            self.paths, self.plan = wanted, plan
            self.replan.set()

    def _build(self) -> None:
        while not self.stop_event.is_set():
            with self.cond:
                while not self.pending and not self.stop_event.is_set():
                    self.cond.wait(0.5)
                changed, self.pending = sorted(self.pending), set()
            if changed:
                self.notify(self.rebuild(changed))
                self._replan()  # site.toml may list another puzzle now

    def stop(self) -> None:
        self.stop_event.set()
        with self.cond:
            self.cond.notify_all()


# Files whose names say what they hold: the solve pages' runtime (Pyodide's version in its
# folder's name, the wheels' in theirs, the two zips' content hash in theirs; see
# site_builder/runtime.py). A browser keeps them without asking again, which also lets
# Chromium keep the compiled WebAssembly of pyodide.asm.wasm between visits. Everything
# else is rebuilt under the same name and must be fetched afresh after each reload.
IMMUTABLE_PREFIX = "static/runtime/"
# Types served whatever the system's MIME table says: the runtime's WebAssembly must be
# application/wasm for a streaming compile, its module scripts JavaScript.
CONTENT_TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript; charset=utf-8",
                 ".md": "text/markdown; charset=utf-8"}  # README text is UTF-8


def cache_control(path: str) -> str:
    """The Cache-Control header for a file served from ``path`` (relative to the site)."""
    rel = path.replace(os.sep, "/").lstrip("/")
    return "public, max-age=31536000, immutable" if rel.startswith(IMMUTABLE_PREFIX) \
        else "no-store"


def content_type(path: str) -> str | None:
    """The Content-Type for ``path`` when the system's table is not to be trusted with it."""
    return CONTENT_TYPES.get(os.path.splitext(path)[1].lower())


# Precompressed siblings a static host sends in place of a file (``x.br``, ``x.gz`` beside
# ``x``, as the build writes them for the solve runtime), best first; never for a page,
# whose bytes the live reload rewrites on the way out.
PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))


def accepts(header: str, coding: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts ``coding`` (named, with q > 0)."""
    for part in header.split(","):
        name, *params = part.strip().split(";")
        if name.strip().lower() != coding:
            continue
        for p in params:
            key, _, value = p.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    return float(value) > 0
                except ValueError:
                    return False
        return True
    return False


def precompressed(path: str, accept: str) -> tuple[str, str] | None:
    """The precompressed sibling of the file ``path`` to send for ``accept`` and its
    coding, or None (send ``path`` itself)."""
    if path.endswith((".html", ".htm")):
        return None
    for coding, ext in PRECOMPRESSED:
        if accepts(accept, coding) and os.path.isfile(path + ext):
            return path + ext, coding
    return None


# The livereload.js plugin every served page loads (before livereload.js itself, which
# picks up window.LiveReloadPlugin*): it decides what a "reload PATH" message means for
# this page, and shows a failed rebuild's error over the page.
CLIENT_JS = r"""(function () {
  "use strict";
  function page(p) { return p.endsWith("/") ? p + "index.html" : p; }
  function here() { return page(location.pathname); }
  function loaded(path) {
    var seen = performance.getEntriesByType("resource").map(function (e) {
      try { return new URL(e.name).pathname; } catch (err) { return ""; }
    });
    return seen.indexOf(path) >= 0;
  }
  function styled(path) {
    var links = document.querySelectorAll('link[rel~="stylesheet"]');
    for (var i = 0; i < links.length; i++) {
      try { if (new URL(links[i].href).pathname === path) return true; } catch (err) {}
    }
    return false;
  }
  function overlay(st) {
    var box = document.getElementById("build-site-error");
    if (!st || !st.error) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("div");
      box.id = "build-site-error";
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 0 0 0;z-index:2147483647;margin:0;" +
        "padding:1em 1.2em;background:#3b0d0d;color:#fff;font:14px/1.45 ui-monospace," +
        "monospace;white-space:pre-wrap;max-height:60vh;overflow:auto;" +
        "border-top:4px solid #e5484d";
      document.body.appendChild(box);
    }
    box.textContent = "build-site: the last rebuild failed; this is the last good page.\n" +
      (st.file ? st.file + (st.line ? ":" + st.line : "") + "\n" : "") + st.error;
  }
  function status() {
    fetch("STATUS", {cache: "no-store"}).then(function (r) { return r.json(); })
      .then(overlay).catch(function () {});
  }
  function Plugin(window, host) { this.window = window; this.host = host; }
  Plugin.identifier = "build-site";
  Plugin.version = "1.0";
  // true: handled here, livereload does nothing more; false: livereload reloads (or, for
  // a stylesheet, swaps it in place)
  Plugin.prototype.reload = function (path) {
    if (path === "STATUS") { status(); return true; }
    if (path === "*") return false;
    if (/\.css$/i.test(path)) return !styled(path);
    if (page(path) === here()) return false;
    if (/\.html$/i.test(path)) return true;
    return !loaded(path);
  };
  window.LiveReloadPluginBuildSite = Plugin;
  if (window.LiveReload && window.LiveReload.addPlugin) window.LiveReload.addPlugin(Plugin);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", status);
  else status();
})();
""".replace("STATUS", STATUS_PATH)
CLIENT_TAG = f'<script src="{CLIENT_PATH}"></script>'.encode()


def host_allowed(handler: Any, loopback: bool) -> bool:
    """A request for this server by a name of its own: bound to loopback, only the
    loopback names are (any other is DNS rebinding)."""
    return not loopback or handler.request.host_name.lower() in LOOPBACK_HOSTS


def origin_allowed(origin: str, host: str) -> bool:
    """A WebSocket ``Origin`` of this very server (scheme aside: same host and port)."""
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        return False
    return bool(netloc) and netloc == host.lower()


def _guarded_handlers(out: Path, host: str, rebuild: Rebuilder) -> dict[str, Any]:
    """livereload's handlers and ours, each refusing a foreign Host (and Origin)."""
    from livereload import handlers as lr
    from livereload import server as lrs
    from tornado import web

    loopback = host in LOOPBACK_HOSTS

    class Guard:
        def prepare(self) -> None:
            if not host_allowed(self, loopback):
                raise web.HTTPError(403)

    class LiveReload(Guard, lr.LiveReloadHandler):
        def check_origin(self, origin: str) -> bool:
            return origin_allowed(origin, self.request.host)

    class LiveReloadJS(Guard, lr.LiveReloadJSHandler):
        pass

    class ForceReload(Guard, lr.ForceReloadHandler):
        pass

    class Client(Guard, web.RequestHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "text/javascript; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.write(CLIENT_JS)

    class Status(Guard, web.RequestHandler):
        def get(self) -> None:
            self.set_header("Content-Type", "application/json")
            self.set_header("Cache-Control", "no-store")
            self.write(json.dumps(rebuild.status))

    class Injector(lrs.LiveScriptInjector):
        """livereload's script injector, our client's tag first."""

        def transform_first_chunk(self, status_code: int, headers: Any, chunk: bytes,
                                  finishing: bool) -> tuple[int, Any, bytes]:
            if lrs.HEAD_END in chunk and CLIENT_TAG not in chunk:
                chunk = chunk.replace(lrs.HEAD_END, CLIENT_TAG + lrs.HEAD_END, 1)
                if "Content-Length" in headers:
                    headers["Content-Length"] = str(int(headers["Content-Length"])
                                                    + len(CLIENT_TAG))
            return super().transform_first_chunk(status_code, headers, chunk, finishing)

    return {"LiveReloadHandler": LiveReload, "LiveReloadJSHandler": LiveReloadJS,
            "ForceReloadHandler": ForceReload, "LiveScriptInjector": Injector,
            "client": Client, "status": Status, "files": _make_handler(out, loopback)}


def _snapshot(path: str) -> tuple[bytes, os.stat_result]:
    """A file's bytes and the stat of the very file read (one open)."""
    from tornado import web

    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            data = f.read()
    except OSError:
        raise web.HTTPError(404) from None
    return data, st


class _SnapshotContent:
    """``get_content`` of the handler: on a request that took a snapshot, its bytes;
    as tornado's class method elsewhere (``get_content_version``)."""

    def __get__(self, obj: Any, cls: Any) -> Any:
        snap = getattr(obj, "_snap", None) if obj is not None else None
        if snap is not None:
            data = snap[0]

            def content(abspath: str, start: int | None = None,
                        end: int | None = None) -> bytes:
                return data[start or 0:len(data) if end is None else end]

            return content
        from tornado import web

        return vars(web.StaticFileHandler)["get_content"].__get__(None, cls)


def _make_handler(out: Path, loopback: bool) -> Any:
    from livereload.handlers import StaticFileHandler
    from tornado import web

    class SiteFileHandler(StaticFileHandler):
        """Files of the output folder only; never a path whose real location leaves it."""

        def prepare(self) -> None:
            if not host_allowed(self, loopback):
                raise web.HTTPError(403)

        def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
            if "\0" in absolute_path:
                raise web.HTTPError(400)  # a NUL byte (%00) names no file
            real_root = os.path.realpath(root)
            real = os.path.realpath(absolute_path)
            if real != real_root and not real.startswith(real_root + os.sep):
                raise web.HTTPError(403)
            checked = super().validate_absolute_path(root, absolute_path)
            # the file's .br or .gz sibling where the browser takes it, as static hosts do
            self.coding: str | None = None
            self.original = checked
            if checked and os.path.isfile(checked):
                got = precompressed(checked, self.request.headers.get("Accept-Encoding", ""))
                if got:
                    checked, self.coding = got
                    self.__dict__.pop("_stat_result", None)   # the size is the sibling's
            if checked is not None:
                self._snap = _snapshot(checked)
            return checked

        def get_content_type(self) -> str:
            if getattr(self, "coding", None) and self.original:
                kind = content_type(self.original) or mimetypes.guess_type(self.original)[0]
                return kind or "application/octet-stream"
            return str(super().get_content_type())

        # One read per request: the length, the dates and the bytes sent all come from
        # the file as it was opened, so a page a rebuild renames over while it is being
        # sent goes out whole, old or new (tornado would stat the path, then open it
        # again: a new page of another length was cut off or overran Content-Length).
        get_content = _SnapshotContent()

        def _stat(self) -> os.stat_result:
            snap = getattr(self, "_snap", None)
            return snap[1] if snap is not None else super()._stat()

        def get_content_size(self) -> int:
            snap = getattr(self, "_snap", None)
            return len(snap[0]) if snap is not None else int(super().get_content_size())

        def compute_etag(self) -> str | None:
            snap = getattr(self, "_snap", None)
            if snap is None:
                return super().compute_etag()
            import hashlib

            return f'"{hashlib.sha512(snap[0]).hexdigest()}"'

        def write_error(self, status_code: int, **kwargs: object) -> None:
            """A missing page gets the site's own 404.html, as static hosts serve it."""
            page = Path(self.root) / "404.html"
            if status_code == 404 and page.is_file():
                self.set_header("Content-Type", "text/html; charset=UTF-8")
                self.finish(page.read_bytes())
                return
            super().write_error(status_code, **kwargs)

        def set_extra_headers(self, path: str) -> None:
            self.set_header("Cache-Control", cache_control(path))
            kind = content_type(path)
            if kind:
                self.set_header("Content-Type", kind)
            if getattr(self, "coding", None):
                self.set_header("Content-Encoding", self.coding)
            if any(os.path.isfile(str(getattr(self, "original", "")) + ext)
                   for _, ext in PRECOMPRESSED):
                self.set_header("Vary", "Accept-Encoding")

    return SiteFileHandler


@contextmanager
def files_server(out: Path, wait: float = 30) -> Iterator[int]:
    """``out`` served on a free loopback port by serve's own file handler alone (no
    watching, no live reload), in a thread: what the preview sends a browser, for tests
    and benchmarks. Yields the port; the server stops when the block ends."""
    import asyncio

    from tornado import httpserver, web

    ready = threading.Event()
    box: dict[str, Any] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = web.Application([(r"/(.*)", _make_handler(out, True),
                                {"path": str(out), "default_filename": "index.html"})])
        srv = httpserver.HTTPServer(app)
        srv.listen(0, "127.0.0.1")
        box["port"] = next(iter(srv._sockets.values())).getsockname()[1]
        box["loop"] = loop
        ready.set()
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    ready.wait(wait)
    try:
        yield int(box["port"])
    finally:
        box["loop"].call_soon_threadsafe(box["loop"].stop)


class _NoWatcher:
    """livereload's watcher protocol, idle: the watching is ``Watch``'s."""

    filepath = None

    def __init__(self) -> None:
        self._tasks = {"build-site": None}
        self._changes: list[Any] = []

    def watch(self, *args: Any, **kwargs: Any) -> None:
        pass

    def start(self, callback: Any) -> bool:
        return True

    def examine(self) -> tuple[None, None]:
        return None, None


def _listen_error(host: str, port: int, e: OSError) -> UserError:
    return UserError(f"cannot listen on {host}:{port}: {e.strerror or e}; "
                     "pick another --port or --host")


def _check_can_listen(host: str, port: int) -> int:
    """Raise UserError now if ``host:port`` cannot be bound (in use, no such address).
    Returns the port: ``port`` itself, or for 0 a free one the system picked."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise UserError(f"--host {host}: {e.strerror}") from None
    family, _, _, _, addr = infos[0]
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado binds
        try:
            s.bind(addr)
        except OSError as e:
            raise _listen_error(host, port, e) from None
        return int(s.getsockname()[1])


def serve(root: Path, out: Path, host: str = "127.0.0.1", port: int = 8000,
          base_url: str = "") -> None:
    """Build, then serve ``out`` with live reload until Ctrl+C."""
    from livereload import Server
    from livereload import server as lrs
    from tornado.ioloop import IOLoop
    from tornado.platform.asyncio import BaseAsyncIOLoop

    root = Path(root).resolve()
    out = Path(out).resolve()
    if not (root / "content").is_dir():
        (root / "content").mkdir()

    port = _check_can_listen(host, port)  # fail before a build, not after it
    rebuild = Rebuilder(root, out, base_url)
    t0 = time.perf_counter()
    what, _ = rebuild.build_in_process()
    print(f"built {what} [{time.perf_counter() - t0:.2f} s]", flush=True)

    handlers = _guarded_handlers(out, host, rebuild)
    # every route livereload serves goes through our guarded handlers: the names its
    # application() looks up when it builds the routes (this process serves, nothing else)
    for name in ("LiveReloadHandler", "LiveReloadJSHandler", "ForceReloadHandler",
                 "LiveScriptInjector"):
        setattr(lrs, name, handlers[name])
    live = handlers["LiveReloadHandler"]
    live.DEFAULT_RELOAD_TIME = 0  # our rebuilds pace the reloads

    class SiteServer(Server):
        def get_web_handlers(self, script: Any) -> list[Any]:
            return [(CLIENT_PATH, handlers["client"]), (STATUS_PATH, handlers["status"]),
                    *super().get_web_handlers(script)]

    server = SiteServer(watcher=_NoWatcher())
    # /forcereload calls livereload's own class, which application() does not set up
    from livereload import handlers as lr

    lr.LiveReloadHandler.watcher, lr.LiveReloadHandler.live_css = server.watcher, True
    server.SFH = handlers["files"]
    logging.getLogger("tornado.access").setLevel(logging.WARNING)

    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{shown_host}:{port}/"

    loop = IOLoop.current()
    if not isinstance(loop, BaseAsyncIOLoop):  # every IOLoop is one since Tornado 5
        raise UserError("build-site serve needs Tornado 5 or later (livereload's server)")

    def tell(written: list[str] | None) -> None:
        """On the server's loop: one reload message per file written (or the status)."""
        paths = [STATUS_PATH] if written is None else (
            ["*"] if "*" in written or len(written) > MAX_NAMED
            else [STATUS_PATH] + ["/" + p for p in written])
        for path in paths:
            live.reload_waiters(path)

    watch = Watch(lambda: watched_paths(root, every=True), rebuild,
                  lambda written: loop.add_callback(tell, written))

    def stop(signum: int, frame: object) -> None:
        # Ctrl+C and SIGTERM ask the loop to stop between callbacks: an exception raised
        # wherever the signal lands could be caught by a callback and leave serve running
        watch.stop()
        loop.asyncio_loop.call_soon_threadsafe(loop.stop)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        watch.start()
        # Server.serve() binds, then blocks; print the URL from the first loop tick so it
        # is only shown once the socket is listening.
        loop.add_callback(
            lambda: print(f"Serving {out} at {url} (watching {shown(list(map(str, watch.paths)), root)}; "
                          "Ctrl+C to stop)", flush=True))
        server.serve(host=host, port=port, root=str(out), restart_delay=0)
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL):
            raise _listen_error(host, port, e) from None
        raise
    except KeyboardInterrupt:
        pass
    finally:
        watch.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("serve: stopped", flush=True)
