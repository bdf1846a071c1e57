"""`build-site serve`: build, serve dist/ on loopback, rebuild on change, reload the browser.

The server is the `livereload` package (tornado underneath). What this module adds:

* one watcher over ``templates/``, ``content/``, ``solvers/`` and ``site_builder/`` that
  polls a snapshot of (mtime, size) per file every 0.25 s, runs one rebuild per batch of
  changes in a worker thread (the server keeps answering meanwhile), absorbs what the
  build itself wrote under ``content/`` (stage outputs) so that does not trigger a second
  rebuild, and tells the browsers to reload when the build succeeded;
* template and content edits re-render in this process through ``build_site`` (its
  stage cache skips the heavy stages whose inputs did not change);
* Python edits in ``solvers/`` or ``site_builder/`` cannot be reloaded into a running
  process safely, so from the first such edit on every rebuild runs in a fresh
  interpreter (``python -c 'build_site(...)'`` with the project root first on
  ``sys.path``); restart ``serve`` to get fast in-process re-renders back;
* a static file handler that only ever answers with files whose real path lies inside
  the output folder (``..``, ``%2e%2e`` and symlinks that leave it get 403/404), and
  that rejects requests for a foreign ``Host`` when bound to loopback (DNS rebinding).

A failed rebuild prints its error and keeps serving the previous site: ``build_site``
swaps the output folder in atomically, so the old pages stay whole.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from site_builder.errors import UserError

WATCHED = ("templates", "content", "solvers", "site_builder")
CODE_DIRS = ("solvers", "site_builder")
POLL_SECONDS = 0.25
_IGNORED_DIRS = {"__pycache__", ".git", ".pytest_cache", ".ruff_cache", "node_modules"}
_IGNORED_SUFFIXES = (".pyc", ".pyo", ".swp", ".swx", ".tmp", "~")
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}

Snapshot = dict[str, tuple[int, int]]


def _ignored(name: str) -> bool:
    return (
        name.endswith(_IGNORED_SUFFIXES)
        or name.startswith(".#")  # emacs lock files
        or (name.startswith(".") and name.endswith(".tmp"))
    )


def snapshot(root: Path, dirs: tuple[str, ...] = WATCHED) -> Snapshot:
    """(mtime_ns, size) of every watched file under ``root``, keyed by relative path."""
    snap: Snapshot = {}
    for d in dirs:
        top = root / d
        for here, subdirs, files in os.walk(top):
            subdirs[:] = [s for s in subdirs if s not in _IGNORED_DIRS and not s.startswith(".")]
            for f in files:
                if _ignored(f):
                    continue
                p = os.path.join(here, f)
                try:
                    st = os.stat(p)
                except OSError:  # vanished between listdir and stat
                    continue
                snap[os.path.relpath(p, root)] = (st.st_mtime_ns, st.st_size)
    return snap


def changed_paths(old: Snapshot, new: Snapshot) -> list[str]:
    """Relative paths added, removed or modified between two snapshots, sorted."""
    return sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))


def is_code_change(paths: list[str]) -> bool:
    """True when any changed file is Python code the running process has imported."""
    return any(
        Path(p).parts[0] in CODE_DIRS and p.endswith(".py") for p in paths
    )


class Rebuilder:
    """Runs the build in this process, or in a subprocess once Python code changed."""

    def __init__(self, root: Path, out: Path, base_url: str = "",
                 log: Callable[[str], None] | None = None) -> None:
        self.root = root
        self.out = out
        self.base_url = base_url
        self.code_changed = False
        self.log = log or (lambda s: print(s, flush=True))

    def build_in_process(self) -> str:
        from site_builder.build import build_site

        report = build_site(self.root, self.out, base_url=self.base_url, quiet=True)
        ran = ", ".join(report.stages_run) or "none"
        return f"{report.pages} pages in {report.seconds:.2f} s (stages run: {ran})"

    def build_in_subprocess(self) -> str:
        code = (
            "import sys\n"
            "from pathlib import Path\n"
            "from site_builder.build import build_site\n"
            "from site_builder.errors import UserError\n"
            "try:\n"
            "    r = build_site(Path(sys.argv[1]), Path(sys.argv[2]), base_url=sys.argv[3],"
            " quiet=True)\n"
            "except UserError as e:\n"
            "    sys.exit(' '.join(str(e).split()))\n"
            "print(r.pages, ','.join(r.stages_run))\n"
        )
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(self.root)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
        )
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", code, str(self.root), str(self.out), self.base_url],
            cwd=self.root, env=env, capture_output=True, text=True, check=False,
        )
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise UserError(f"build in a subprocess failed: {tail}")
        pages, _, stages = proc.stdout.strip().rpartition("\n")[2].partition(" ")
        return (f"{pages} pages in {time.perf_counter() - t0:.2f} s, fresh interpreter "
                f"(stages run: {stages or 'none'})")

    def __call__(self, changed: list[str]) -> bool:
        """Rebuild after ``changed``; True when the build succeeded."""
        shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        if is_code_change(changed) and not self.code_changed:
            self.code_changed = True
            self.log("Python code changed: rebuilding in a fresh interpreter from now on "
                     "(restart serve for fast in-process re-renders)")
        t0 = time.perf_counter()
        try:
            what = self.build_in_subprocess() if self.code_changed else self.build_in_process()
        except UserError as e:
            self.log(f"[serve] rebuild failed after {shown}: {e}")
            return False
        except Exception:  # noqa: BLE001 - a broken template must not stop the server
            self.log(f"[serve] rebuild failed after {shown}:\n{traceback.format_exc().rstrip()}")
            return False
        self.log(f"[serve] {shown} changed: rebuilt {what} "
                 f"[{time.perf_counter() - t0:.2f} s]")
        return True


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


def _make_watcher(root: Path, rebuild: Callable[[list[str]], bool]):
    import threading

    from livereload.watcher import Watcher
    from tornado import ioloop

    class SiteWatcher(Watcher):
        """Snapshot diff over the watched folders; one rebuild per batch of changes.

        It speaks livereload's watcher protocol: ``start`` sets up the polling, and
        ``examine`` reports a changed path once the build for it has succeeded, which
        makes livereload reload the open browsers. The build itself runs in a worker
        thread, so the server keeps answering during a long one (a stage rerun after a
        solver edit).
        """

        def __init__(self) -> None:
            super().__init__()
            self.snap = snapshot(root)
            self.busy = threading.Lock()
            self.built: str | None = None  # set by the build thread, read by examine
            for d in WATCHED:  # registers tasks so livereload does not watch the cwd
                super().watch(str(root / d))

        def start(self, callback) -> bool:
            ioloop.PeriodicCallback(callback, POLL_SECONDS * 1000).start()
            return True  # polling set up here, at our own rate

        def examine(self):
            built, self.built = self.built, None
            if built is not None:
                self.filepath = built  # the path livereload's reload message names
                return built, None
            if self.busy.locked():
                return None, None  # changes made meanwhile are seen after this build
            new = snapshot(root)
            changed = changed_paths(self.snap, new)
            if changed:
                self.busy.acquire()
                threading.Thread(target=self._build, args=(changed, new), daemon=True).start()
            return None, None

        def _build(self, changed: list[str], before: Snapshot) -> None:
            try:
                ok = rebuild(changed)
                # absorb what the build itself wrote under content/ (stage outputs); an
                # edit elsewhere during the build still differs from ``before``
                after = snapshot(root, ("content",))
                self.snap = {k: v for k, v in before.items()
                             if Path(k).parts[0] != "content"} | after
                if ok:
                    self.built = changed[0]
            finally:
                self.busy.release()

    return SiteWatcher()


def _make_handler(out: Path, host: str):
    from livereload.handlers import StaticFileHandler
    from tornado import web

    loopback = host in LOOPBACK_HOSTS

    class SiteFileHandler(StaticFileHandler):
        """Files of the output folder only; never a path whose real location leaves it."""

        def prepare(self) -> None:
            if loopback:
                name = self.request.host_name.lower()
                if name not in LOOPBACK_HOSTS:
                    raise web.HTTPError(403)

        def validate_absolute_path(self, root: str, absolute_path: str) -> str | None:
            if "\0" in absolute_path:
                raise web.HTTPError(400)  # a NUL byte (%00) names no file
            real_root = os.path.realpath(root)
            real = os.path.realpath(absolute_path)
            if real != real_root and not real.startswith(real_root + os.sep):
                raise web.HTTPError(403)
            return super().validate_absolute_path(root, absolute_path)

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

    return SiteFileHandler


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
        return s.getsockname()[1]


def serve(root: Path, out: Path, host: str = "127.0.0.1", port: int = 8000,
          base_url: str = "") -> None:
    """Build, then serve ``out`` with live reload until Ctrl+C."""
    from livereload import Server
    from livereload.handlers import LiveReloadHandler

    root = Path(root).resolve()
    out = Path(out).resolve()
    if not (root / "content").is_dir():
        (root / "content").mkdir()

    port = _check_can_listen(host, port)  # fail before a build, not after it
    rebuild = Rebuilder(root, out, base_url)
    t0 = time.perf_counter()
    what = rebuild.build_in_process()
    print(f"built {what} [{time.perf_counter() - t0:.2f} s]", flush=True)

    # our watcher reloads the browsers itself after each successful rebuild; livereload's
    # own 3 s "too many reloads" guard is not wanted on top of that
    LiveReloadHandler.DEFAULT_RELOAD_TIME = 0
    server = Server(watcher=_make_watcher(root, rebuild))
    server.SFH = _make_handler(out, host)
    logging.getLogger("tornado.access").setLevel(logging.WARNING)

    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{shown_host}:{port}/"

    from tornado.ioloop import IOLoop
    from tornado.platform.asyncio import BaseAsyncIOLoop

    loop = IOLoop.current()
    if not isinstance(loop, BaseAsyncIOLoop):  # every IOLoop is one since Tornado 5
        raise UserError("build-site serve needs Tornado 5 or later (livereload's server)")

    def stop(signum: int, frame: object) -> None:
        # Ctrl+C and SIGTERM ask the loop to stop between callbacks: an exception raised
        # wherever the signal lands could be caught by a callback and leave serve running
        loop.asyncio_loop.call_soon_threadsafe(loop.stop)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        # Server.serve() binds, then blocks; print the URL from the first loop tick so it
        # is only shown once the socket is listening.
        loop.add_callback(
            lambda: print(f"Serving {out} at {url} (watching {', '.join(WATCHED)}; "
                          "Ctrl+C to stop)", flush=True))
        server.serve(host=host, port=port, root=str(out), restart_delay=0)
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL):
            raise _listen_error(host, port, e) from None
        raise
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    print("serve: stopped", flush=True)
