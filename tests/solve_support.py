"""What the solve page tests and benchmarks/solve_page.py share: the site, a loopback
server, chromium offline."""

from __future__ import annotations

import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from play_support import write_files

from site_builder.serve import cache_control

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# as the play tests launch it, and with no host but loopback resolving: a page that tried
# a CDN would fail, not quietly succeed
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    """Files with the headers `build-site serve` sends (site_builder/serve.py): the runtime
    kept for good, the rest fetched afresh, WebAssembly as application/wasm."""
    protocol_version = "HTTP/1.1"
    extensions_map: ClassVar[dict[str, str]] = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def end_headers(self) -> None:
        self.send_header("Cache-Control", cache_control(self.path.split("?", 1)[0]))
        super().end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass   # a page that navigates away mid-transfer resets its connection: not news


@contextmanager
def serve_files(out: Path, files: dict[str, str | bytes],
                handler_class: type[_Quiet] | None = None) -> Iterator[str]:
    """Write ``files`` into ``out`` and serve it over http on loopback (``handler_class``:
    a subclass of _Quiet, e.g. the benchmark's, which compresses); yields the base URL."""
    write_files(out, files)
    handler = functools.partial(handler_class or _Quiet, directory=str(out))
    server = _Server(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
