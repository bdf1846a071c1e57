"""Benchmark the play pages: bytes on the wire and first render time in headless chromium.

    .venv/bin/python benchmarks/play.py [--runs 9] [--screenshot DIR]

Size: the page's HTML plus every stylesheet and script it loads (site.css, play.css,
play.js, grid.js, the puzzle's checker and stylesheet if any) plus the data file of the largest board, before
compression (limit 150 KB). The board's hint trace in the page's language (a file of its
own, fetched once the board is drawn) is shown beside it, and the total with it.

First render: navigation start to the performance mark "play-rendered", which play.js sets
once the first board's SVG is in the page. The dist is served from memory over HTTP/1.1
keep-alive (as a static host would), and the page opened as a visitor opens it (no #id:
the default board, whose data is inline; empty storage). Two figures:

* warm browser: one browser page, HTTP cache disabled through CDP, about:blank between
  runs, so every file is fetched again but the renderer process is already up. The
  200 ms limit applies to this median.
* cold context: a fresh browser context per run (new renderer process, empty storage).

Also shown: script time (module start to rendered) and the largest board opened by #id
(its data file is fetched). The machine is shared, so medians over several runs are given.
Every registered puzzle, from its content/<slug>/bank.json.

Layout (issue 51; --layout-only prints these alone):

* first screen on a phone: at 390x844 and 360x740, for the largest board of each banked
  size of each puzzle (English and Japanese), opened afresh, the y of the board's bottom
  and of Check's bottom (both must be at most the screen's height), the cell size (at
  least 28 px, else the board pans with its cue) and whether the page scrolls sideways;
* tables: the widest article table of each language at 1280 px (the column is 820 px)
  and at 390 px (where a wider table scrolls in its own block), from the site rendered
  from the committed JSON.
"""

from __future__ import annotations

import argparse
import http.server
import json
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from play_support import ARGS, CHROMIUM, REGISTERED, bank, dist_files

SIZE_LIMIT = 150 * 1024
RENDER_LIMIT_MS = 200.0
TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
         "css": "text/css; charset=utf-8", "json": "application/json", "png": "image/png"}


def serve(files: dict[str, bytes]) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            p = self.path.split("?")[0].lstrip("/")
            if p == "" or p.endswith("/"):
                p += "index.html"
            body = files.get(p)
            self.send_response(200 if body is not None else 404)
            body = body if body is not None else b""
            self.send_header("Content-Type", TYPES.get(p.rsplit(".", 1)[-1], "text/plain"))
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):
            # A page left mid-fetch (the hint file, fetched after the first render, when
            # the next run navigates away) resets its connection: not an error here.
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def page_bytes(files: dict[str, bytes], slug: str, lang: str, bank: dict) -> dict[str, int]:
    parts = {"html": len(files[f"{lang}/{slug}/play/index.html"])}
    for name in ("static/site.css", "static/play/play.css", "static/play/play.js",
                 "static/play/grid.js", "static/play/madelink.js", f"static/play/{slug}.js",
                 f"static/play/{slug}.css"):
        if name in files:
            parts[name] = len(files[name])
    biggest = max(bank["boards"], key=lambda b: b["h"] * b["w"])
    parts["board data (largest)"] = len(files[f"{slug}/play-data/{biggest['id']}.json"])
    return parts


def hints_bytes(files: dict[str, bytes], slug: str, lang: str, bank: dict) -> int:
    """The largest board's hint trace file in ``lang`` (fetched after the board is drawn)."""
    biggest = max(bank["boards"], key=lambda b: b["h"] * b["w"])
    return len(files[f"{slug}/play-data/hints-{lang}/{biggest['id']}.json"])


MARKS = """(() => {
  const r = performance.getEntriesByName('play-rendered')[0].startTime;
  const s = performance.getEntriesByName('play-start')[0].startTime;
  return [r, r - s];
})()"""


def timed(page, url: str) -> tuple[float, float]:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    return tuple(page.evaluate(MARKS))


def summary(label: str, runs: list[tuple[float, float]]) -> tuple[float, str]:
    total = [r[0] for r in runs]
    script = [r[1] for r in runs]
    med = statistics.median(total)
    return med, (f"{label}: median {med:.1f} ms (min {min(total):.1f}, max {max(total):.1f}; "
                 f"script {statistics.median(script):.1f} ms) over {len(runs)} runs")


FIRST_SCREEN = """() => {
  const b = document.getElementById('board-svg').getBoundingClientRect();
  const c = document.getElementById('check').getBoundingClientRect();
  const row = document.querySelector('.board-row');
  return {bottom: b.bottom, width: b.width, check: c.bottom,
          pans: row.scrollWidth - row.clientWidth > 1,
          over: document.documentElement.scrollWidth - innerWidth}; }"""


def first_screen(browser, base: str, banks: dict) -> bool:
    """The phone's first screen per puzzle, size, language and screen (see the doc)."""
    ok = True
    for width, height in ((390, 844), (360, 740)):
        for lang in ("en", "ja"):
            for slug in REGISTERED:
                sizes: dict[str, dict] = {}
                for b in banks[slug]["boards"]:
                    key = b.get("size", f"{b['h']}x{b['w']}")
                    if key not in sizes or b["h"] * b["w"] > sizes[key]["h"] * sizes[key]["w"]:
                        sizes[key] = b
                page = browser.new_page(viewport={"width": width, "height": height},
                                        is_mobile=True, has_touch=True)
                cells = []
                for key, b in sorted(sizes.items(), key=lambda kv: (kv[1]["w"], kv[1]["h"])):
                    page.goto("about:blank")
                    page.goto(f"{base}/{lang}/{slug}/play/index.html#{b['id']}")
                    page.wait_for_selector("body[data-ready='1']")
                    got = page.evaluate(FIRST_SCREEN)
                    cell = got["width"] * 40 / (b["w"] * 40 + 4)
                    fits = got["bottom"] <= height and got["check"] <= height and got["over"] <= 0
                    ok &= fits and (cell >= 28 - 0.01 or got["pans"])
                    cells.append(f"{key} board {got['bottom']:.0f} Check {got['check']:.0f} "
                                 f"cell {cell:.1f}{' pans' if got['pans'] else ''}"
                                 f"{'' if fits else ' OVER'}")
                page.close()
                print(f"first screen {width}x{height} {lang} {slug}: " + "; ".join(cells))
    return ok


WIDEST = """() => { const col = document.querySelector('.article');
  return [col ? col.clientWidth : 0, Math.max(0, ...[...document.querySelectorAll('.article table')]
    .map(t => t.getBoundingClientRect().width))]; }"""


def widest_tables(browser) -> bool:
    """The widest article table per language at 1280 and 390 px (see the doc)."""
    from site_builder import build

    files = {k: v.encode("utf-8") if isinstance(v, str) else v
             for k, v in build.render_all(ROOT).items() if k.endswith((".html", ".css", ".svg"))}
    server = serve(files)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    ok = True
    try:
        for width in (1280, 390):
            page = browser.new_page(viewport={"width": width, "height": 900})
            for lang in ("en", "ja"):
                worst = (0.0, "", 0.0)
                for slug in REGISTERED:
                    page.goto(f"{base}/{lang}/{slug}/index.html")
                    col, wide = page.evaluate(WIDEST)
                    if wide > worst[0]:
                        worst = (wide, slug, col)
                if width == 1280:
                    ok &= worst[0] <= worst[2] + 0.5
                print(f"widest table at {width} px, {lang}: {worst[0]:.0f} px ({worst[1]}; "
                      f"column {worst[2]:.0f} px)")
            page.close()
    finally:
        server.shutdown()
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--screenshot", type=Path, default=None)
    ap.add_argument("--layout-only", action="store_true",
                    help="only the phone's first screen and the widest tables")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    banks = {slug: bank(slug) for slug in REGISTERED}
    files = {k: v.encode("utf-8") if isinstance(v, str) else v
             for k, v in dist_files(REGISTERED).items()}
    server = serve(files)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    ok = True
    print("boards: " + ", ".join(f"{s} {len(b['boards'])}" for s, b in banks.items()))
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        ok &= first_screen(browser, base, banks)
        ok &= widest_tables(browser)
        for slug in REGISTERED if not args.layout_only else ():
            data = banks[slug]
            for lang in ("en", "ja"):
                parts = page_bytes(files, slug, lang, data)
                total = sum(parts.values())
                ok &= total < SIZE_LIMIT
                hints = hints_bytes(files, slug, lang, data)
                print(f"{slug} {lang}: page + CSS + scripts + board data = {total:,} bytes "
                      f"({total / 1024:.1f} KB, limit 150 KB) "
                      f"{'OK' if total < SIZE_LIMIT else 'OVER'}\n    "
                      + ", ".join(f"{k} {v:,}" for k, v in parts.items())
                      + f"\n    then the hint trace (largest board, {lang}) {hints:,}: "
                      f"{(total + hints) / 1024:.1f} KB with it")
            url = f"{base}/en/{slug}/play/index.html"
            biggest = max(data["boards"], key=lambda b: b["h"] * b["w"])

            ctx = browser.new_context(viewport={"width": 412, "height": 915})
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            warm, big = [], []
            for i in range(args.runs + 1):
                page.goto("about:blank")
                t = timed(page, url)
                if i:
                    warm.append(t)
                elif args.screenshot:
                    args.screenshot.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(args.screenshot / f"{slug}.png"), full_page=True)
            for _ in range(args.runs):
                page.goto("about:blank")
                big.append(timed(page, f"{url}#{biggest['id']}"))
            ctx.close()
            cold = []
            for _ in range(args.runs):
                ctx = browser.new_context(viewport={"width": 412, "height": 915})
                cold.append(timed(ctx.new_page(), url))
                ctx.close()
            med, line = summary(f"{slug}: first render, default board "
                                f"{data['boards'][0]['id']}, warm browser", warm)
            ok &= med < RENDER_LIMIT_MS
            print(line + f" (limit 200 ms) {'OK' if med < RENDER_LIMIT_MS else 'OVER'}")
            print(summary(f"{slug}: first render, default board, cold context", cold)[1])
            print(summary(f"{slug}: first render, largest board {biggest['id']} by #id, "
                          "warm browser", big)[1])
        browser.close()
    server.shutdown()
    print(json.dumps({"ok": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
