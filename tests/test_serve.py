"""`build-site serve` as a real subprocess in a copy of the project, driven by headless Chromium."""

from __future__ import annotations

import http.client
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
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.serve import changed_paths, is_code_change, snapshot

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
        raise AssertionError(f"no {text!r} in serve output within {timeout} s:\n"
                             + "\n".join(self.lines[-40:]))

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
        ".ruff_cache", "node_modules"))
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


def test_prints_the_loopback_url(server: Server) -> None:
    assert any(server.url in line for line in server.lines)
    status, body = get(server.port, "/")
    assert status == 200
    assert b"livereload.js" in body  # the reload script is injected into HTML


def test_template_edit_rerenders_and_the_open_page_reloads_itself(server: Server) -> None:
    from playwright.sync_api import sync_playwright

    template = server.project / "templates" / "index.html.j2"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(server.url)
            assert MARKER not in page.content()
            server.wait_for("Browser Connected", timeout=20)  # the reload socket is open
            page.evaluate("window.__beforeEdit = true")

            text = template.read_text(encoding="utf-8")
            anchor = "{% block content %}"
            assert anchor in text
            template.write_text(text.replace(anchor, f"{anchor}\n<p id=\"live\">{MARKER}</p>", 1),
                                encoding="utf-8")
            t0 = time.monotonic()
            page.wait_for_function(
                "m => document.body && document.body.innerText.includes(m)", arg=MARKER,
                timeout=20_000)
            seconds = time.monotonic() - t0
            # a fresh document, not an edited one: the flag set before the edit is gone
            assert page.evaluate("window.__beforeEdit === undefined")
            assert page.text_content("#live") == MARKER
            line = server.wait_for("rebuilt", timeout=5)
            assert "index.html.j2" in line
            print(f"edit -> reloaded page: {seconds:.2f} s; server: {line}")
        finally:
            browser.close()
    # the built file carries the edit too
    assert MARKER in (server.project / "dist" / "index.html").read_text(encoding="utf-8")


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


def test_broken_template_keeps_the_last_good_site(server: Server) -> None:
    template = server.project / "templates" / "index.html.j2"
    good = template.read_text(encoding="utf-8")
    before = get(server.port, "/index.html")
    assert before[0] == 200
    template.write_text(good + "{% if %}\n", encoding="utf-8")
    try:
        line = server.wait_for("rebuild failed", timeout=30)
        assert "index.html.j2" in line
        assert get(server.port, "/index.html") == before  # old pages, whole
        assert server.proc.poll() is None
    finally:
        template.write_text(good + "{# fixed #}\n", encoding="utf-8")
    assert "index.html.j2 changed: rebuilt" in server.wait_for("rebuilt", timeout=60)


def tree(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file()}


@pytest.mark.skipif(not (REPO / "site_builder" / "cli.py").exists(), reason="no CLI yet")
def test_served_site_equals_a_fresh_build(server: Server) -> None:
    """After the edits above, re-rendered with compiled templates kept in memory, the
    served folder is byte for byte what a fresh `build-site build` makes."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    r = subprocess.run([sys.executable, "-m", "site_builder.cli", "build", "--quiet",
                        "--out", "dist-fresh"], cwd=server.project, capture_output=True,
                       text=True, env=dict(env, PYTHONPATH=str(server.project)), timeout=600,
                       check=False)
    assert r.returncode == 0, r.stderr
    served = tree(server.project / "dist")
    # the edits of the earlier tests are in place, so both renders saw edited templates
    assert "{# fixed #}" in (server.project / "templates" / "index.html.j2").read_text()
    assert served == tree(server.project / "dist-fresh")


def test_python_change_rebuilds_in_a_fresh_interpreter(server: Server) -> None:
    code = server.project / "site_builder" / "build.py"
    code.write_text(code.read_text() + "\n# edited while serving\n")
    server.wait_for("fresh interpreter from now on", timeout=10)
    line = server.wait_for("rebuilt", timeout=120)
    assert "fresh interpreter" in line and "build.py" in line


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


def test_snapshot_sees_edits_additions_and_removals(tmp_path: Path) -> None:
    for d in ("templates", "content", "solvers", "site_builder"):
        (tmp_path / d).mkdir()
    (tmp_path / "templates" / "a.j2").write_text("a")
    (tmp_path / "templates" / "a.j2.swp").write_text("editor noise")
    (tmp_path / "site_builder" / "__pycache__").mkdir()
    (tmp_path / "site_builder" / "__pycache__" / "x.pyc").write_text("noise")
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "index.html").write_text("not watched")
    s1 = snapshot(tmp_path)
    assert sorted(s1) == [os.path.join("templates", "a.j2")]
    (tmp_path / "templates" / "a.j2").write_text("ab")
    (tmp_path / "content" / "b.json").write_text("{}")
    s2 = snapshot(tmp_path)
    assert changed_paths(s1, s2) == [os.path.join("content", "b.json"),
                                     os.path.join("templates", "a.j2")]
    (tmp_path / "content" / "b.json").unlink()
    assert changed_paths(s2, snapshot(tmp_path)) == [os.path.join("content", "b.json")]
    assert changed_paths(s1, s1) == []


def test_only_python_under_the_code_folders_needs_a_fresh_interpreter() -> None:
    assert is_code_change(["templates/x.html.j2", "solvers/sukoro/rules.py"])
    assert is_code_change(["site_builder/site.py"])
    assert not is_code_change(["templates/x.html.j2", "content/sukoro/stats.json"])
    assert not is_code_change(["templates/static/play/sukoro.js", "solvers/README.md"])
