"""Benchmark the solve pages in headless chromium: runtime start, solve times, bytes.

    .venv/bin/python benchmarks/solve_page.py [--slugs sukoro nanro] [--boards 9]
        [--hard 3] [--timeout 20]

The whole site is rendered from the committed JSON (no stages run) and served over
loopback; chromium resolves no other host. Figures:

* runtime start: worker creation to "ready" (Pyodide and solvers.zip loaded,
  site_builder.solve_web imported; the python-sat wheel goes in afterwards, in the
  background, and a solve that needs it before it is in waits for it: that wait counts
  in the solve's time, and the per-board split below shows it apart). Cold: a fresh browser context
  (empty HTTP cache), median of --cold runs. Warm: the same context reloaded (files from
  its in-memory HTTP cache), median of --warm runs. Revisit: a browser with a profile on
  disk, the page opened again in a new tab after a first visit (files from the disk
  cache and, where Chromium kept it, pyodide.asm.wasm's compiled code), median of --warm
  runs. Beside them, the worker's own marks (median ms from its
  start): the loader script imported, the WebAssembly instantiated (fsInit), the
  interpreter up, solve_web imported.
* solve + grade + trace: the worker's time for one board (solve_bounded, result_json
  with the trace, the SVGs), per puzzle, median over the bank's 10×10 boards (the
  bank's smallest size above 8×8 where it has no 10×10); target under 300 ms. And the
  hard corpus (benchmarks/hard/) at 16×16 and 20×20, each run bounded by --timeout;
  target median under 2 s. The same boards in this CPython beside them, for the ratio.
* bytes: the solve page before the runtime (HTML, CSS, scripts) and with it (the
  worker's requests too; the wheel only where a solve needs it), an article and a play
  page, which must load no runtime. Cold transfer: what went over the wire to a first
  visit, served as a host that compresses serves it (--encoding host, the default: a
  file's .br or .gz when the build wrote one, else gzip -6 of text and WebAssembly), and
  the same files' size as they are in dist/; target at most 5 MB compressed. With
  --encoding serve the files go through `build-site serve`'s own file handler (the
  preview: its .br/.gz siblings where the browser takes them, issue 51), so the start
  times and bytes are the preview's.
* an input of 1 MiB pasted into the box: the time until the page says it is too long
  (issue 43; the length cap applies before any parsing).
* start targets (issue 42): warm at most 0.8 s, cold at most 1.5 s. A visit that finds
  no stored interpreter start stores one (the worker's Pyodide snapshot, kept in Cache
  Storage); the warm and revisit runs wait for it first.
* per hard board (unless --no-split): where the page's time went, from the worker's
  marks (solve_web.solve_text's timing and worker.js call's laps): an aborted attempt
  and the wait for the wheel (each only when it happened), setup, decode, the verdict
  with the grade (one ladder), the result JSON, the SVGs, the verdict alone (an ungraded
  solve the benchmark adds after the page's own, left out of the other columns) and the
  trace; the first board of each row also shows the runtime start, the import of the
  puzzle's modules and the wheel's install. Beside it, the same phases in this CPython
  (CPU time, best of --native-runs).

The machine may be shared: the figures are medians, and the CPython column is measured
in the same run for the ratio.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import solve_support
from solve_support import ARGS, CHROMIUM, serve_files

from site_builder import build, solve_web
from solvers import registry


class _Encoded(solve_support._Quiet):
    """As the tests' server, and as a host that compresses would: a file with a ``.br``
    (or ``.gz``) beside it is sent as that, with Content-Encoding, to a browser that
    accepts it; any other text or WebAssembly file is gzipped (level 6, as web servers
    do by default; kept once made) when ``--encoding host``, sent raw when ``raw``."""
    mode = "host"
    made: ClassVar[dict[str, bytes]] = {}

    def send_head(self) -> Any:
        path = self.translate_path(self.path.split("?", 1)[0])
        accept = self.headers.get("Accept-Encoding", "")
        if self.mode == "raw" or not os.path.isfile(path):
            return super().send_head()
        body, enc = None, None
        for ext, name in ((".br", "br"), (".gz", "gzip")):
            if name in accept and os.path.isfile(path + ext):
                body, enc = Path(path + ext).read_bytes(), name
                break
        if body is None and "gzip" in accept and path.endswith(_TEXT):
            if path not in self.made:
                self.made[path] = gzip.compress(Path(path).read_bytes(), 6, mtime=0)
            body, enc = self.made[path], "gzip"
        if body is None:
            return super().send_head()
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", enc)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


_TEXT = (".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".zip", ".whl", ".txt")


@contextlib.contextmanager
def _served_by_serve(out: Path, files: dict[str, Any]) -> Iterator[str]:
    """``files`` written into ``out`` and served by ``build-site serve``'s own file
    handler (site_builder.serve, without the watching and the live reload): what the
    preview sends, its precompressed .br/.gz siblings included. Yields the base URL."""
    from site_builder.serve import files_server

    solve_support.write_files(out, files)
    with files_server(out) as port:
        yield f"http://127.0.0.1:{port}"


def _boards(slug: str, n: int) -> list[str]:
    bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]
    sizes = sorted({(b["h"], b["w"]) for b in bank})
    want = (10, 10) if (10, 10) in sizes else min((s for s in sizes if s > (8, 8)),
                                                  default=sizes[-1])
    return [b["url"] for b in bank if (b["h"], b["w"]) == want][:n]


def _hard(slug: str, size: str, n: int) -> list[str]:
    """The first ``n`` boards of the hard corpus at ``size``; none for a puzzle that has
    no hard corpus (a plugin's, such as Slitherlink's)."""
    path = ROOT / "benchmarks" / "hard" / f"{slug}-{size}.json"
    if not path.is_file():
        return []
    return [b["url"] for b in json.loads(path.read_text())["boards"][:n]]


class Tab:
    def __init__(self, context: Any, base: str) -> None:
        self.page = context.new_page()
        self.base = base
        self.bytes: list[tuple[str, int]] = []
        self.page.on("requestfinished", self._done)

    def _done(self, req: Any) -> None:
        try:
            size = req.sizes()["responseBodySize"] + req.sizes()["responseHeadersSize"]
        except Exception:  # noqa: BLE001 (a request without sizes counts nothing)
            size = 0
        self.bytes.append((req.url, size))

    def open(self, path: str) -> None:
        self.page.goto(f"{self.base}/{path}")

    def ready(self) -> float:
        self.page.wait_for_function("document.body.dataset.solve === 'idle'", timeout=300_000)
        self.marks = self.page.evaluate("window.__solve.bootMarks")
        return float(self.page.evaluate("window.__solve.startMs"))

    def solve(self, url: str, timeout: float) -> tuple[float | None, float | None]:
        """The worker's ms to the verdict and to the trace (None: bounded / traced out),
        without the benchmark's own ungraded solve (--split); ``self.timing`` holds the
        split."""
        p = self.page
        self.timing: dict[str, float] = {}
        n = int(p.evaluate("Number(document.body.dataset.replies || 0)"))
        p.evaluate(f"document.getElementById('solve-timeout').value = '{timeout}'")
        p.evaluate(f"location.hash = {json.dumps(url)}")
        p.wait_for_function(f"Number(document.body.dataset.replies || 0) > {n}"
                            " && document.body.dataset.solve !== 'tracing'",
                            timeout=int((2 * timeout + 60) * 1000))
        reply = p.evaluate("window.__solve.reply")
        if not reply.get("ok") or p.evaluate("document.body.dataset.solve") != "done":
            return None, None
        self.timing = p.evaluate("window.__solve.timing") or {}
        extra = self.timing.get("verdict", 0.0)   # the ungraded solve the page would not do
        verdict = p.evaluate("window.__solve.solveMs") - extra
        total = p.evaluate("window.__solve.traceMs")
        if total is None and reply["result"]["solutions"] == 1:
            return verdict, None   # the explanation ran past the bound
        return verdict, (total - extra) if total else verdict


def _median(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.0f} ms" if xs else "—"


def _kb(n: int) -> str:
    return f"{n / 1024:,.0f} KB"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--slugs", nargs="*", default=registry.slugs())
    ap.add_argument("--boards", type=int, default=9, help="bank boards per puzzle")
    ap.add_argument("--hard", type=int, default=3, help="hard boards per puzzle and size")
    ap.add_argument("--timeout", type=float, default=20.0, help="bound of each hard solve (s)")
    ap.add_argument("--cold", type=int, default=3)
    ap.add_argument("--warm", type=int, default=3)
    ap.add_argument("--no-split", dest="split", action="store_false",
                    help="no per-board split (the split adds an ungraded solve of each "
                         "board after the page's own, timed apart as 'verdict alone')")
    ap.add_argument("--settle", action="store_true",
                    help="before each row's first board, wait until the page has installed "
                         "the wheels and imported their modules (a visitor who edits a "
                         "while first); without it, the board is solved as soon as the "
                         "runtime is up")
    ap.add_argument("--encoding", choices=("host", "raw", "serve"), default="host",
                    help="host: send a file's .br/.gz when there is one, else gzip text and "
                         "WebAssembly as a web server does; raw: every file as it is; "
                         "serve: as `build-site serve` sends them (its file handler)")
    ap.add_argument("--native-runs", type=int, default=3,
                    help="CPython: best of this many (CPU time) per phase")
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    files = build.render_all(ROOT)
    _Encoded.mode = args.encoding
    with tempfile.TemporaryDirectory() as tmp, \
            (_served_by_serve(Path(tmp) / "dist", files) if args.encoding == "serve" else
             serve_files(Path(tmp) / "dist", files, _Encoded)) as base, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        slug0 = args.slugs[0]
        page_path = f"en/{slug0}/solve/index.html"

        # bytes: an article, a play page, the solve page before and after the runtime
        ctx = browser.new_context()
        sizes: dict[str, int] = {}
        for name, path in (("article", f"en/{slug0}/index.html"),
                           ("play page", f"en/{slug0}/play/index.html")):
            t = Tab(ctx, base)
            t.open(path)
            t.page.wait_for_load_state("networkidle")
            sizes[name] = sum(s for _, s in t.bytes)
            leaked = [u for u, _ in t.bytes if "/static/runtime/" in u or "worker.js" in u]
            assert not leaked, f"{name} loads the runtime: {leaked}"
            t.page.close()
        ctx.close()

        cold, warm, marks, warm_marks = [], [], [], []
        for i in range(args.cold):
            ctx = browser.new_context()
            t = Tab(ctx, base)
            t.open(page_path)
            t.page.wait_for_load_state("load")
            cold.append(t.ready())
            marks.append(t.marks)
            if i == 0:
                # the wheels go in after "ready", in the background: wait for them too
                # (or, wheels fetched on demand, for the puzzle's modules: what a visit
                # that never reaches the SAT step loads)
                t.page.wait_for_function("window.__solve.wheelMs !== undefined"
                                         " || !window.__solve.cfg.runtime.wheels.length"
                                         " || (window.__solve.cfg.runtime.onDemand"
                                         " && window.__solve.warmMs !== undefined)",
                                         timeout=300_000)
                t.page.wait_for_load_state("networkidle")
                # the page's own files (HTML, CSS, scripts) apart from the runtime's
                before = sum(s for u, s in t.bytes if "/static/runtime/" not in u
                             and "worker.js" not in u)
                after = sum(s for _, s in t.bytes)
                # the same files as they are in dist/ (what a host that does not
                # compress sends), beside what went over the wire
                raw = sum(len(files.get(u.split(base + "/", 1)[-1].split("?")[0], b""))
                          for u, _ in t.bytes)
                requests = len(t.bytes)
                wheel_bytes = sum(s for u, s in t.bytes if u.endswith(".whl"))
                runtime_files = sorted({u.rsplit("/", 1)[1] for u, _ in t.bytes
                                        if "/static/runtime/" in u})
            if i == 0 and args.warm:
                # a visit that found no stored start makes one: wait for it to be stored
                try:
                    t.page.wait_for_function("window.__solve.kept === true", timeout=20_000)
                except Exception:  # noqa: BLE001 (no Cache Storage: warm starts afresh)
                    print("(no interpreter snapshot was stored)")
            for _ in range(args.warm if i == 0 else 0):
                t.page.reload()
                warm.append(t.ready())
                warm_marks.append(t.marks)
            if i == 0:
                solver_tab = t
            else:
                ctx.close()

        revisit, revisit_marks = [], []
        with tempfile.TemporaryDirectory() as profile:
            pctx = pw.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=ARGS, headless=True)
            for i in range(args.warm + 1):
                t = Tab(pctx, base)
                t.open(page_path)
                ms = t.ready()
                if i:   # the first visit fills the cache
                    revisit.append(ms)
                    revisit_marks.append(t.marks)
                else:   # and stays until its interpreter's start is stored
                    try:
                        t.page.wait_for_function("window.__solve.kept === true",
                                                 timeout=20_000)
                    except Exception:  # noqa: BLE001
                        print("(no interpreter snapshot was stored)")
                t.page.close()
            pctx.close()

        for name, xs, ms in (("cold context", cold, marks), ("warm cache  ", warm, warm_marks),
                             ("revisit     ", revisit, revisit_marks)):
            print(f"runtime start, {name}: median {_median(xs)} "
                  f"(runs: {', '.join(f'{x:,.0f}' for x in xs)})"
                  + (f"; in the worker: {_phases(ms)}" if ms else ""))
        print(f"cold transfer (--encoding {args.encoding}): {_kb(after)} over the wire in "
              f"{requests} requests, {_kb(raw)} as the files are in dist/")
        print(f"bytes: solve page before the runtime {_kb(before)}, with it "
              f"{_kb(after)} ({', '.join(runtime_files)}; wheels "
              f"{_kb(wheel_bytes)}); "
              f"article {_kb(sizes['article'])}, "
              f"play page {_kb(sizes['play page'])} (no runtime)")

        t = solver_tab
        # an oversized input (issue 43): 1 MiB pasted into the URL box, from the click to
        # the page's answer that it is too long (the cap applies before any parsing)
        reject = [t.page.evaluate(REJECT_JS, f"https://puzz.link/p?{slug0}/5/5/")
                  for _ in range(3)]
        print(f"1 MiB input rejected in the page: median {statistics.median(reject):.1f} ms "
              f"(runs: {', '.join(f'{x:,.1f}' for x in reject)})")
        if args.split:
            t.page.evaluate("window.__solve.split = true")
        print("\nsolve + grade + trace, in the page (Pyodide) and in this CPython "
              "(solve_web.solve_text, trace included):")
        print("(verdict: answers and grade shown; +trace: the explanation too; medians; "
              "bounded: no verdict within --timeout; trace>: the explanation past it)")
        print(f"{'puzzle':<12}{'boards':<12}{'n':>3}{'verdict':>12}{'+trace':>12}"
              f"{'cpython':>12}{'ratio':>7}{'bounded':>9}{'trace>':>8}")
        splits: list[Any] = []
        for slug in args.slugs:
            for label, urls in (("bank " + _size(_boards(slug, 1)), _boards(slug, args.boards)),
                                ("hard 16x16", _hard(slug, "16x16", args.hard)),
                                ("hard 20x20", _hard(slug, "20x20", args.hard))):
                if not urls:
                    continue
                t.open(f"en/{slug}/solve/index.html")
                t.ready()
                if args.split:
                    t.page.evaluate("window.__solve.split = true")
                if args.settle:
                    t.page.wait_for_function("window.__solve.importsMs !== undefined"
                                             " || !window.__solve.cfg.runtime.wheels.length",
                                             timeout=300_000)
                verdict_ms, page_ms, py_ms, bounded, traced_out = [], [], [], 0, 0
                for i, url in enumerate(urls):
                    verdict, total = t.solve(url, args.timeout)
                    if args.split and label.startswith("hard"):
                        splits.append((slug, label, i, verdict, total, t.timing,
                                       t.page.evaluate("[window.__solve.startMs, "
                                                       "window.__solve.warmMs, "
                                                       "window.__solve.wheelMs]"),
                                       _native(slug, url, args.timeout, args.native_runs)))
                    if verdict is None:
                        bounded += 1
                        continue
                    verdict_ms.append(verdict)
                    if total is None:
                        traced_out += 1
                        continue
                    page_ms.append(total)
                    t0 = time.perf_counter()
                    solve_web.solve_text(slug, url, timeout=args.timeout)
                    py_ms.append((time.perf_counter() - t0) * 1000)
                ratio = (f"{statistics.median(page_ms) / statistics.median(py_ms):.1f}×"
                         if page_ms and py_ms else "—")
                print(f"{slug:<12}{label:<12}{len(urls):>3}{_median(verdict_ms):>12}"
                      f"{_median(page_ms):>12}{_median(py_ms):>12}{ratio:>7}{bounded:>9}"
                      f"{traced_out:>8}",
                      flush=True)
        if splits:
            _print_splits(splits)
        browser.close()
    return 0


REJECT_JS = """(head) => new Promise((done) => {
  const box = document.getElementById("solve-input");
  box.value = head + "a".repeat(1 << 20);
  const t0 = performance.now();
  document.getElementById("solve-go").click();
  const wait = () => document.body.dataset.solve === "error"
    ? done(performance.now() - t0) : requestAnimationFrame(wait);
  wait();
})"""

# the page's phases (worker.js call's laps, solve_web.solve_text's timing), in order
_PHASES = (("aborted", "aborted"), ("wheel", "wheel wait"), ("python", "python call"),
           ("setup", "setup"), ("decode", "decode"),
           ("solve", "verdict+grade"), ("json", "json"), ("svg", "svg"),
           ("verdict", "verdict alone"), ("trace python", "trace"),
           ("trace aborted", "trace aborted"), ("trace wheel", "trace wheel wait"))


def _print_splits(rows: list[Any]) -> None:
    print("\nper hard board, in the page (ms; the page opened afresh for each row's size, "
          "so its first board meets a fresh worker; start: worker creation to ready, "
          "warm: the puzzle's modules imported after ready, wheel install: loadPackage's "
          "own time, whenever it ran) and in this CPython (process_time, best of "
          "--native-runs):")
    for slug, label, i, verdict, total, timing, (start, warm, wheel), native in rows:
        page = ", ".join(f"{name} {timing[k]:,.0f}" for k, name in _PHASES if k in timing)
        head = (f"{slug} {label} #{i + 1}: verdict {_ms(verdict)}, +trace {_ms(total)}"
                + (f" [start {_ms(start)}, warm {_ms(warm)}, wheel install {_ms(wheel)}]"
                   if i == 0 else ""))
        print(f"  {head}\n    page: {page}\n    cpython: "
              + ", ".join(f"{k} {_ms(v)}" for k, v in native.items()))


def _ms(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}"


def _native(slug: str, url: str, timeout: float, runs: int) -> dict[str, float | None]:
    """CPython's CPU ms per phase on the board, best of ``runs``: the ungraded verdict,
    the graded solve (as the page runs it) and the trace (None: past the bound, or no
    single answer to trace)."""
    from site_builder.solve import solve_bounded
    from solvers.common import BudgetExceeded

    puzzle = registry.get(slug)
    board = puzzle.decode(url)

    def best(fn: Any) -> tuple[float | None, Any]:
        ms, got = None, None
        for _ in range(max(1, runs)):
            t0 = time.process_time()
            try:
                got = fn()
            except BudgetExceeded:
                return None, None
            took = (time.process_time() - t0) * 1000
            ms = took if ms is None else min(ms, took)
        return ms, got

    verdict, _ = best(lambda: solve_bounded(puzzle, board, timeout=timeout, grade=False))
    graded, res = best(lambda: solve_bounded(puzzle, board, timeout=timeout))
    trace = None
    if res is not None and len(res.solutions) == 1:
        trace, _ = best(lambda: puzzle.trace(board, res.solutions[0]))
    return {"verdict alone": verdict, "verdict+grade": graded, "trace": trace}


def _phases(marks: list[dict[str, Any]]) -> str:
    names = (("script", "loader"), ("wasm", "wasm"), ("python", "python"),
             ("import", "solve_web"))
    return ", ".join(f"{label} {statistics.median(m[k] for m in marks):,.0f}"
                     for k, label in names if all(k in m for m in marks))


def _size(urls: list[str]) -> str:
    parts = urls[0].split("?", 1)[1].split("/")
    return f"{parts[2]}x{parts[1]}"


if __name__ == "__main__":
    sys.exit(main())
