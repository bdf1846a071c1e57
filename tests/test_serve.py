"""`build-site serve` as a real subprocess in a copy of the project, driven by headless Chromium.

The copy's own code runs (it is first on PYTHONPATH), so the theme and a puzzle's templates
can be edited in it as an author edits them."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from site_builder.serve import error_status, ignored, is_code_change, origin_allowed

REPO = Path(__file__).resolve().parents[1]
# the project copied for the server (a stand-in project can be named while developing)
SOURCE = Path(os.environ.get("SERVE_TEST_PROJECT", REPO))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
MARKER = "Live reload marker, fresh from the template"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`serve` in a subprocess; its merged output is collected line by line."""

    def __init__(self, project: Path, port: int) -> None:
        self.project, self.port = project, port
        self.url = f"http://127.0.0.1:{port}/"
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(PYTHONPATH=str(project), PYTHONUNBUFFERED="1")
        cmd = [sys.executable, "-m", "site_builder.cli", "serve", "--port", str(port)]
        self.proc = subprocess.Popen(cmd, cwd=project, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._q: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            self._q.put(line.rstrip("\n"))
        self._q.put(None)

    def wait_for(self, text: str, timeout: float) -> str:
        """The first output line (since the last call) containing ``text``."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self._q.get(timeout=0.1)
            except queue.Empty:
                continue
            if line is None:
                self._q.put(None)
                break
            self.lines.append(line)
            if text in line:
                return line
        said = [line for line in self.lines if "[serve]" in line or "Python code" in line]
        raise AssertionError(f"no {text!r} in serve output within {timeout} s; its rebuilds:\n"
                             + "\n".join(said[-30:]) + "\nlast lines:\n"
                             + "\n".join(self.lines[-10:]))

    def output(self) -> str:
        while True:
            try:
                line = self._q.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._q.put(None)
                break
            self.lines.append(line)
        return "\n".join(self.lines)

    def stop(self, sig: int = signal.SIGINT) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def copy_project(dest: Path) -> Path:
    shutil.copytree(SOURCE, dest, ignore=shutil.ignore_patterns(
        ".git", ".venv", "dist", "dist.*", "__pycache__", "*.egg-info", ".pytest_cache",
        ".ruff_cache", "node_modules", ".cache"))
    return dest


def get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    """A raw GET: the path is sent exactly as given (no client-side normalising)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", host or f"127.0.0.1:{port}")
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    project = copy_project(tmp_path_factory.mktemp("serve") / "proj")
    # the site's own copy of the theme's index page: what an author edits to change it
    (project / "templates").mkdir(exist_ok=True)
    shutil.copy(project / "site_builder" / "theme" / "index.html.j2",
                project / "templates" / "index.html.j2")
    s = Server(project, free_port())
    try:
        s.wait_for("Ctrl+C to stop", timeout=600)
        yield s
    finally:
        s.stop()


def wait_file(path: Path, text: str, timeout: float = 120, present: bool = True) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if (text in path.read_text(encoding="utf-8")) == present:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{path}: {text!r} {'never appeared' if present else 'stayed'}")


def test_prints_the_loopback_url(server: Server) -> None:
    assert any(server.url in line for line in server.lines)
    status, body = get(server.port, "/")
    assert status == 200
    assert b"livereload.js" in body  # the reload script is injected into HTML
    assert b'<script src="/__serve/client.js"></script>' in body  # and our plugin for it


def websocket_status(port: int, host: str, origin: str | None) -> int:
    """The status line's code of a WebSocket upgrade to /livereload."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        lines = ["GET /livereload HTTP/1.1", f"Host: {host}", "Upgrade: websocket",
                 "Connection: Upgrade", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
                 "Sec-WebSocket-Version: 13"]
        if origin is not None:
            lines.append(f"Origin: {origin}")
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = b""
        while b"\r\n" not in data:
            chunk = s.recv(1024)
            if not chunk:
                break
            data += chunk
    return int(data.split()[1])


def test_every_route_refuses_a_foreign_host_and_origin(server: Server) -> None:
    """Issue 43: a web page the author visits must not reach the preview through DNS
    rebinding (a foreign Host) nor open its reload socket from another origin (which
    would let it reload the tabs and read the names of the files being edited)."""
    me = f"127.0.0.1:{server.port}"
    routes = {"/": 200, "/en/index.html": 200, "/static/site.css": 200,
              "/livereload.js": 200, "/forcereload": 200, "/__serve/client.js": 200,
              "/__serve/status": 200, "/no/such/page": 404}
    for path, ok in routes.items():
        for evil in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example"):
            assert get(server.port, path, host=evil)[0] == 403, (path, evil)
        assert get(server.port, path, host=me)[0] == ok, path
        assert get(server.port, path, host=f"localhost:{server.port}")[0] == ok, path
    # the reload socket: a foreign Host, a foreign Origin, each refused
    assert websocket_status(server.port, "evil.example", "http://evil.example") == 403
    assert websocket_status(server.port, me, "http://evil.example") == 403
    assert websocket_status(server.port, me, f"http://127.0.0.1:{server.port + 1}") == 403
    assert websocket_status(server.port, me, "null") == 403
    assert websocket_status(server.port, me, f"http://{me}") == 101
    assert websocket_status(server.port, f"localhost:{server.port}",
                            f"http://localhost:{server.port}") == 101


def test_an_edit_reloads_its_page_only_and_a_stylesheet_is_swapped_in(server: Server) -> None:
    from playwright.sync_api import sync_playwright

    article = server.project / "solvers" / "sukoro" / "templates" / "article.en.md.j2"
    css = server.project / "site_builder" / "theme" / "static" / "site.css"
    good_article, good_css = article.read_text(encoding="utf-8"), css.read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            other = browser.new_page()
            page.goto(server.url + "en/sukoro/")
            server.wait_for("Browser Connected", timeout=30)
            other.goto(server.url + "en/index.html")
            server.wait_for("Browser Connected", timeout=30)
            for p in (page, other):
                p.evaluate("window.__beforeEdit = true")
            article.write_text(good_article + f"\n{MARKER}\n", encoding="utf-8")
            page.wait_for_function("m => document.body && document.body.innerText.includes(m)",
                                   arg=MARKER, timeout=60_000)
            assert page.evaluate("window.__beforeEdit === undefined")  # a fresh document
            line = server.wait_for("rebuilt", timeout=10)
            assert "article.en.md.j2" in line and "1 of" in line, line
            time.sleep(1.0)  # the other page had its message too, and ignored it
            assert other.evaluate("window.__beforeEdit === true")

            page.evaluate("window.__beforeEdit = true")
            css.write_text(good_css + "\nbody { outline: 3px solid rgb(1, 2, 3); }\n",
                           encoding="utf-8")
            page.wait_for_function(
                "() => getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)'",
                timeout=60_000)
            assert page.evaluate("window.__beforeEdit === true")  # swapped, not reloaded
            assert other.evaluate("window.__beforeEdit === true")
            # the other page uses the stylesheet too: it is swapped there as well
            other.wait_for_function(
                "() => getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)'",
                timeout=60_000)
        finally:
            browser.close()
            article.write_text(good_article, encoding="utf-8")
            css.write_text(good_css, encoding="utf-8")
    wait_file(server.project / "dist" / "en" / "sukoro" / "index.html", MARKER, present=False)


def test_a_failed_rebuild_shows_an_overlay_and_keeps_the_last_good_page(server: Server) -> None:
    from playwright.sync_api import sync_playwright

    template = server.project / "site_builder" / "theme" / "article.html.j2"
    good = template.read_text(encoding="utf-8")
    before = get(server.port, "/en/sukoro/index.html")
    assert before[0] == 200
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(server.url + "en/sukoro/")
            server.wait_for("Browser Connected", timeout=30)
            lines = good.splitlines()
            template.write_text("\n".join([*lines[:2], "{% if %}", *lines[2:]]) + "\n",
                                encoding="utf-8")
            line = server.wait_for("rebuild failed", timeout=60)
            assert "article.html.j2:3:" in line, line
            page.wait_for_selector("#build-site-error", timeout=30_000)
            text = page.text_content("#build-site-error") or ""
            assert "site_builder/theme/article.html.j2:3" in text, text
            assert get(server.port, "/en/sukoro/index.html") == before  # the last good page
            assert server.proc.poll() is None
            template.write_text(good, encoding="utf-8")
            server.wait_for("rebuilt", timeout=60)
            page.wait_for_selector("#build-site-error", state="detached", timeout=30_000)
        finally:
            browser.close()
            template.write_text(good, encoding="utf-8")
    status = json.loads(get(server.port, "/__serve/status")[1])
    assert status == {"error": None}


def test_an_edit_made_during_a_rebuild_is_not_lost(server: Server) -> None:
    """A JSON value edited while a long rebuild runs (a layout edit renders every page)
    reaches its page: the edit makes the next rebuild, nothing takes it for an output."""
    layout = server.project / "site_builder" / "theme" / "layout.html.j2"
    stats = server.project / "content" / "sukoro" / "stats.json"
    page = server.project / "dist" / "en" / "sukoro" / "index.html"
    good_layout, good_stats = layout.read_text(encoding="utf-8"), stats.read_text(encoding="utf-8")
    m = re.search(r'<data value="(\d+)" data-key="sukoro/stats\.([^"]+)" data-fmt="int"',
                  page.read_text(encoding="utf-8"))
    assert m, "no integer figure on the Sukoro article"
    value, key = int(m.group(1)), m.group(2)
    try:
        layout.write_text(good_layout.replace("</body>", "<!-- long rebuild --></body>", 1),
                          encoding="utf-8")
        server.wait_for("layout.html.j2", timeout=60)  # that rebuild has started or ended
        doc = json.loads(good_stats)
        node = doc["data"]
        parts = key.split(".")
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[parts[-1]] = value + 777
        stats.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                         encoding="utf-8")
        wait_file(page, f'<data value="{value + 777}" data-key="sukoro/stats.{key}"')
        wait_file(page, "<!-- long rebuild -->")
    finally:
        layout.write_text(good_layout, encoding="utf-8")
        stats.write_text(good_stats, encoding="utf-8")
    wait_file(page, f'<data value="{value}" data-key="sukoro/stats.{key}"')
    wait_file(page, "<!-- long rebuild -->", present=False)


def test_broken_template_keeps_the_last_good_site(server: Server) -> None:
    template = server.project / "templates" / "index.html.j2"  # the site's own copy
    good = template.read_text(encoding="utf-8")
    before = get(server.port, "/index.html")
    assert before[0] == 200
    template.write_text(good + "{% if %}\n", encoding="utf-8")
    try:
        line = server.wait_for("rebuild failed", timeout=60)
        assert "index.html.j2" in line
        assert get(server.port, "/index.html") == before  # old pages, whole
        assert server.proc.poll() is None
    finally:
        template.write_text(good + "{# fixed #}\n", encoding="utf-8")
    assert "index.html.j2 changed: rebuilt" in server.wait_for("rebuilt", timeout=60)


def tree(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file()}


def test_served_site_equals_a_fresh_build(server: Server) -> None:
    """After the edits above, re-rendered incrementally in the server's process, the
    served folder is byte for byte what a fresh `build-site build` makes."""
    time.sleep(1.0)  # let the last rebuild settle
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    r = subprocess.run([sys.executable, "-m", "site_builder.cli", "build", "--quiet",
                        "--out", "dist-fresh"], cwd=server.project, capture_output=True,
                       text=True, env=dict(env, PYTHONPATH=str(server.project)), timeout=600,
                       check=False)
    assert r.returncode == 0, r.stderr
    assert "{# fixed #}" in (server.project / "templates" / "index.html.j2").read_text()
    assert tree(server.project / "dist") == tree(server.project / "dist-fresh")


def test_python_change_rebuilds_in_a_fresh_interpreter(server: Server) -> None:
    code = server.project / "site_builder" / "build.py"
    code.write_text(code.read_text() + "\n# edited while serving\n")
    server.wait_for("fresh interpreter from now on", timeout=30)
    line = server.wait_for("rebuilt", timeout=300)
    assert "fresh interpreter" in line and "build.py" in line


def test_no_file_outside_the_output_folder_is_served(server: Server) -> None:
    secret = server.project / "secret-outside.txt"
    secret.write_text("TOP SECRET")
    dist = server.project / "dist"
    link = dist / "escape.txt"
    try:
        link.symlink_to(secret)
        for path in ("/../secret-outside.txt", "/%2e%2e/secret-outside.txt",
                     "/..%2fsecret-outside.txt", "/%2e%2e%2fsecret-outside.txt",
                     "/en/..%2f..%2fsecret-outside.txt", "/%2E%2E/%2E%2E/etc/passwd",
                     "//etc/passwd", "/%2fetc%2fpasswd", "/..\\secret-outside.txt",
                     "/escape.txt", "/%00", "/en/%00index.html"):
            status, body = get(server.port, path)
            assert status in (400, 403, 404), (path, status)
            assert b"TOP SECRET" not in body and b"root:" not in body, path
        # a foreign Host (DNS rebinding) is refused, the right one is not
        assert get(server.port, "/", host="evil.example")[0] == 403
        assert get(server.port, "/", host=f"localhost:{server.port}")[0] == 200
    finally:
        link.unlink(missing_ok=True)


def test_a_missing_nested_path_gets_the_styled_404_page(server: Server) -> None:
    status, body = get(server.port, "/a/b/c")
    assert status == 404
    page = body.decode()
    css = re.search(r'href="([^"]*site\.css)"', page)
    assert css and css.group(1).startswith("/"), page[:400]
    assert get(server.port, css.group(1))[0] == 200
    home = re.search(r'href="([^"]*en/index\.html)"', page)
    assert home and get(server.port, home.group(1))[0] == 200
    status, body = get(server.port, "/sukoro/README.ja.md")
    assert status == 200


def test_the_runtime_is_kept_by_the_browser_and_the_pages_are_not(server: Server) -> None:
    """The solve runtime's files (named by version or content hash) are cacheable for good,
    so a second visit neither refetches nor recompiles pyodide.asm.wasm, which must come
    as application/wasm for a streaming compile; pages and scripts are never cached (the
    live reload serves each rebuild fresh)."""
    def head(path: str) -> dict[str, str]:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            assert r.status == 200, path
            return {k.lower(): v for k, v in r.getheaders()}
        finally:
            conn.close()

    dist = server.project / "dist"
    wasm = sorted(dist.glob("static/runtime/pyodide-*/pyodide.asm.wasm"))
    zips = sorted(dist.glob("static/runtime/solvers-*.zip"))
    assert zips, "no solvers.zip named by its hash in dist/static/runtime"
    for f in wasm + zips:
        h = head("/" + f.relative_to(dist).as_posix())
        assert h["cache-control"] == "public, max-age=31536000, immutable", f
    if wasm:   # only when the runtime was fetched (scripts/test fetches it)
        assert head("/" + wasm[0].relative_to(dist).as_posix())["content-type"] == \
            "application/wasm"
    for path in ("/en/index.html", "/static/solve/worker.js"):
        assert head(path)["cache-control"] == "no-store", path


def test_not_reachable_on_other_interfaces(server: Server) -> None:
    try:
        addrs = {a[4][0] for a in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        addrs = set()
    for probe in ("192.0.2.1", "10.255.255.255"):  # UDP "connect" sends nothing
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as u:
            try:
                u.connect((probe, 9))
                addrs.add(u.getsockname()[0])
            except OSError:
                pass
    addrs = {a for a in addrs if not a.startswith("127.") and a != "0.0.0.0"}
    if not addrs:
        pytest.skip("this machine has no non-loopback IPv4 address")
    for a in addrs:
        with pytest.raises(OSError), socket.create_connection((a, server.port), timeout=2):
            pass


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "term"])
def test_ctrl_c_exits_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    project = copy_project(tmp_path / "proj")
    s = Server(project, free_port())
    try:
        s.wait_for("Ctrl+C to stop", timeout=600)
        assert get(s.port, "/")[0] == 200
    finally:
        code = s.stop(sig)
    out = s.output()
    assert code == 0, out
    assert "Traceback" not in out
    assert "stopped" in out


def test_port_zero_serves_on_the_port_it_prints(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "proj")
    s = Server(project, 0)
    try:
        line = s.wait_for("Ctrl+C to stop", timeout=600)
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m and int(m.group(1)) > 0, line
        assert get(int(m.group(1)), "/")[0] == 200
    finally:
        s.stop()
    assert "Traceback" not in s.output()


def test_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        env = dict(os.environ, PYTHONPATH=str(REPO))
        r = subprocess.run([sys.executable, "-m", "site_builder.cli", "serve", "--port", str(port)],
                           cwd=REPO, env=env, capture_output=True, text=True, timeout=60,
                           check=False)
    assert r.returncode == 2, r.stderr
    assert f"127.0.0.1:{port}" in r.stderr
    assert "Traceback" not in r.stderr


# ------------------------------------------------------------------ the watcher's pure parts


def test_editor_and_build_noise_is_ignored() -> None:
    for noise in ("/s/templates/a.j2.swp", "/s/templates/a.j2~", "/s/templates/.#a.j2",
                  "/s/content/sukoro/.stats.json.1234.tmp", "/s/solvers/__pycache__/x.pyc",
                  "/s/site_builder/x.pyc", "/s/.cache/jinja/x"):
        assert ignored(noise), noise
    for real in ("/s/templates/a.j2", "/s/content/sukoro/stats.json", "/s/site.toml",
                 "/s/solvers/sukoro/static/play/sukoro.js", "/s/site_builder/theme/site.css"):
        assert not ignored(real), real


def test_only_python_needs_a_fresh_interpreter() -> None:
    assert is_code_change(["templates/x.html.j2", "solvers/sukoro/rules.py"])
    assert is_code_change(["site_builder/site.py"])
    assert not is_code_change(["templates/x.html.j2", "content/sukoro/stats.json"])
    assert not is_code_change(["templates/static/play/sukoro.js", "solvers/README.md"])


def test_origin_must_be_this_server() -> None:
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert origin_allowed("http://LOCALHOST:8000", "localhost:8000")
    assert not origin_allowed("http://127.0.0.1:8001", "127.0.0.1:8000")
    assert not origin_allowed("http://evil.example", "127.0.0.1:8000")
    assert not origin_allowed("null", "127.0.0.1:8000")
    assert not origin_allowed("http://127.0.0.1:8000.evil.example", "127.0.0.1:8000")


def test_the_overlay_names_file_and_line() -> None:
    st = error_status("site_builder/theme/article.html.j2:3: template syntax error: x")
    assert st["file"] == "site_builder/theme/article.html.j2" and st["line"] == 3
    st = error_status("theme:layout.html.j2:12: 'x' is undefined")
    assert st["file"] == "theme:layout.html.j2" and st["line"] == 12
    assert error_status("content/sukoro/stats.json: corrupt")["line"] is None


def test_a_file_renamed_over_while_it_is_sent_goes_out_whole(server: Server) -> None:
    """Issue 47 item 3: a file a rebuild renames over while the server sends it goes
    out whole, old or new; never cut off at the old length, never past it."""
    target = server.project / "dist" / "rewrite-test.json"
    versions = [b"[" + b"1," * 900_000 + b"1]", b"[" + b"2," * 300_000 + b"2]"]
    target.write_bytes(versions[0])
    stop = threading.Event()

    def rewrite() -> None:
        i = 0
        while not stop.is_set():
            tmp = server.project / f".rewrite-test.{i}"  # beside dist/, as a build stages
            tmp.write_bytes(versions[i % 2])
            os.replace(tmp, target)
            i += 1

    t = threading.Thread(target=rewrite, daemon=True)
    t.start()
    bad: list[tuple[int, int]] = []
    try:
        end = time.monotonic() + 20
        n = 0
        while time.monotonic() < end and n < 400:
            n += 1
            try:
                status, body = get(server.port, "/rewrite-test.json")
            except (http.client.HTTPException, OSError) as e:
                bad.append((-1, len(str(e))))
                continue
            if status != 200 or body not in versions:
                bad.append((status, len(body)))
    finally:
        stop.set()
        t.join()
        target.unlink()
    assert not bad, (len(bad), n, bad[:5])
    assert not any("Content-Length" in line for line in server.lines), server.lines[-5:]


class _Seen:
    """A ``Watch`` whose rebuild only notes what changed (and when)."""

    def __init__(self, wanted: Any) -> None:
        from site_builder.serve import Watch

        self.batches: queue.Queue[tuple[float, list[str]]] = queue.Queue()
        self.watch = Watch(wanted, self._rebuild, lambda _written: None)

    def _rebuild(self, changed: list[str]) -> list[str]:
        self.batches.put((time.monotonic(), changed))
        return []

    def expect(self, path: Path, action: Callable[[], None], timeout: float = 20) -> float:
        """Do ``action`` (again every 2 s while the watches may still be starting) until
        a rebuild names ``path``; returns when that rebuild started."""
        end = time.monotonic() + timeout
        action()
        last = time.monotonic()
        while time.monotonic() < end:
            try:
                at, changed = self.batches.get(timeout=0.2)
            except queue.Empty:
                if time.monotonic() - last > 2:
                    action()
                    last = time.monotonic()
                continue
            if str(path) in changed:
                return at
        raise AssertionError(f"no rebuild named {path}")

    def quiet(self, seconds: float = 0.6) -> None:
        time.sleep(seconds)
        while not self.batches.empty():
            self.batches.get()


def test_every_editor_save_pattern_is_seen(tmp_path: Path) -> None:
    """Issue 47 item 2: folders are watched, not files, so site.toml saved by writing in
    place, by a temporary file renamed over it, by delete and create, each trigger a
    rebuild, and so does every later save; a templates/ folder created while serving is
    watched inside; a burst of saves ends in a rebuild after the last one; the folders of
    a puzzle added while serving are watched after the next rebuild."""
    site = tmp_path / "site"
    site.mkdir()
    toml = site / "site.toml"
    toml.write_text("v = 0\n", encoding="utf-8")
    extra = tmp_path / "extra.txt"  # stands for site.toml's puzzle list
    extra.write_text("", encoding="utf-8")

    def wanted() -> list[Path]:
        return [site / "templates", toml,
                *(Path(p) for p in extra.read_text(encoding="utf-8").split())]

    seen = _Seen(wanted)
    seen.watch.start()
    try:
        n = [0]

        def in_place() -> None:
            n[0] += 1
            toml.write_text(f"v = {n[0]}\n", encoding="utf-8")

        def renamed_over() -> None:
            n[0] += 1
            tmp = site / f".site.toml.{n[0]}.tmp"
            tmp.write_text(f"v = {n[0]}\n", encoding="utf-8")
            os.replace(tmp, toml)

        def deleted_and_created() -> None:
            n[0] += 1
            toml.unlink()
            time.sleep(0.05)
            toml.write_text(f"v = {n[0]}\n", encoding="utf-8")

        for save in (in_place, renamed_over, in_place, renamed_over, deleted_and_created,
                     in_place):
            seen.expect(toml, save)
            seen.quiet()
        # a folder that did not exist when serving started, then a file inside it
        css = site / "templates" / "static" / "site.css"
        seen.expect(site / "templates", lambda: css.parent.mkdir(parents=True))
        seen.quiet()
        seen.expect(css, lambda: css.write_text("a {}\n", encoding="utf-8"))
        seen.quiet()
        seen.expect(css, lambda: (css.write_text("b {}\n", encoding="utf-8"),
                                  os.replace(css, css.with_name("x.css")),
                                  css.with_name("x.css").rename(css)))
        seen.quiet()
        # a burst of saves: the last rebuild starts after the last save
        for i in range(30):
            css.write_text(f"c{i} {{}}\n", encoding="utf-8")
            last_save = time.monotonic()  # the moment the last save was written
            time.sleep(0.01)
        at = seen.expect(css, lambda: None)
        while True:
            try:
                at = max(at, seen.batches.get(timeout=1.5)[0])
            except queue.Empty:
                break
        assert at >= last_save
        # a puzzle package added to the list while serving: watched after a rebuild
        pkg = tmp_path / "newpuzzle"
        (pkg / "templates").mkdir(parents=True)
        extra.write_text(str(pkg), encoding="utf-8")
        seen.expect(toml, in_place)  # the list changed: the rebuild replans the watches
        seen.quiet(1.0)
        article = pkg / "templates" / "article.en.md.j2"
        seen.expect(article, lambda: article.write_text("Hello.\n", encoding="utf-8"))
    finally:
        seen.watch.stop()
