"""Issue 22: the site commands never remove what they did not build, and say in one line
why they cannot write. The site here is rendered from the committed JSON without running
any stage (``render_site``), so these tests hold whether or not content/ is current."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from site_builder import cli, pipeline
from site_builder.build import render_site
from site_builder.check import check_site
from solvers import registry

REPO = Path(__file__).resolve().parent.parent
KEEP = ("content", "site.toml", "pyproject.toml")


def _copy_root(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for name in KEEP:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, dest / name)
    return dest


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project root (content/, templates/) with a whole site rendered into dist/."""
    root = _copy_root(tmp_path_factory.mktemp("guards") / "root")
    render_site(root, root / "dist")
    return root


@pytest.fixture
def no_stages(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Stages are not what these tests are about (and the committed JSON may be stale
    against the code): record which puzzles a build would bring up to date, run none."""
    calls: list[list[str]] = []

    def run_all(root: Path, slugs: list[str], **kw: object) -> list[str]:
        calls.append(list(slugs))
        return []

    monkeypatch.setattr(pipeline, "run_all", run_all)
    return calls


def _files(d: Path) -> set[str]:
    return {p.relative_to(d).as_posix() for p in d.rglob("*") if p.is_file()}


def _one_line(code: int, err: str, needle: str) -> None:
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("build-site: error: "), err
    assert needle in lines[0], lines[0]


def test_only_renders_into_the_existing_site(site: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             no_stages: list[list[str]],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """`build --only sukoro` once replaced a 929-file dist/ with a one-puzzle site."""
    out = tmp_path / "dist"
    shutil.copytree(site / "dist", out)
    before = _files(out)
    monkeypatch.chdir(site)
    assert cli.main(["build", "--only", "sukoro", "-q", "--out", str(out)]) == 0, \
        capsys.readouterr().err
    assert no_stages == [["sukoro"]]  # only the named puzzle's stages are brought up to date
    assert _files(out) == before
    for slug in registry.slugs():
        assert (out / "en" / slug / "index.html").is_file(), slug
    assert not [p for p in check_site(out, site) if "missing" in p or "no pages" in p]


def test_only_refuses_without_a_site(site: Path, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch,
                                     no_stages: list[list[str]],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(site)
    code = cli.main(["build", "--only", "sukoro", "-q", "--out", str(tmp_path / "none")])
    _one_line(code, capsys.readouterr().err, "without --only")
    assert no_stages == [] and not (tmp_path / "none").exists()


def test_check_fails_a_site_without_a_registered_puzzle(site: Path, tmp_path: Path) -> None:
    out = tmp_path / "one"
    render_site(site, out, slugs=["sukoro"])  # what `--only sukoro` used to leave
    problems = check_site(out, site)
    for slug in registry.slugs():
        if slug != "sukoro":
            assert any(f"has no pages for {slug}" in p for p in problems), (slug, problems)
    # a page of a listed puzzle deleted, and its name dropped from the build record
    whole = tmp_path / "whole"
    shutil.copytree(site / "dist", whole)
    info = whole / ".build.json"
    doc = json.loads(info.read_text())
    doc["files"].remove("ja/nanro/play/index.html")
    info.write_text(json.dumps(doc))
    (whole / "ja" / "nanro" / "play" / "index.html").unlink()
    assert any(p.startswith("ja/nanro/play/index.html: missing")
               for p in check_site(whole, site))


@pytest.mark.parametrize("command", ["build", "serve"])
def test_a_file_in_the_way_of_the_output_is_one_line(
        command: str, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        no_stages: list[list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    """A path the site cannot be written to: named, with --out, before any stage runs."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    monkeypatch.chdir(site)
    extra = ["--port", "0"] if command == "serve" else ["-q"]
    for out in (blocker / "dist", blocker):
        code = cli.main([command, "--out", str(out), *extra])
        _one_line(code, capsys.readouterr().err, "--out")
    assert no_stages == [] and blocker.read_text() == "a file, not a folder"


def _read_only_mount_works(d: Path) -> bool:
    if not shutil.which("unshare"):
        return False
    script = (f"mount --bind {d} {d} && mount -o remount,bind,ro {d} && "
              f"! touch {d}/probe")
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                       capture_output=True, check=False)
    return r.returncode == 0


@pytest.mark.parametrize("command", ["build", "serve"])
def test_a_read_only_checkout_is_one_line(command: str, site: Path, tmp_path: Path) -> None:
    """EROFS once ended build and serve with a traceback. The project is bind-mounted
    read-only in a private mount namespace (``unshare -m``: root here, where chmod alone
    does not stop writes); stages are stubbed in the child as above."""
    root = tmp_path / "ro"
    shutil.copytree(site, root, ignore=shutil.ignore_patterns("dist"))
    if not _read_only_mount_works(root):
        pytest.skip("no private mount namespace here for a read-only bind mount")
    extra = "'--port', '0'" if command == "serve" else "'-q'"
    code = ("import sys; from site_builder import cli, pipeline; "
            "pipeline.run_all = lambda *a, **k: []; "
            f"sys.exit(cli.main([{command!r}, {extra}]))")
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && cd "$1" && '
              'exec "$2" -c "$3"')
    r = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", str(root),
         sys.executable, code],
        capture_output=True, text=True, timeout=120, check=False,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    assert "Traceback" not in r.stderr, r.stderr
    _one_line(r.returncode, r.stderr, "--out")
    assert "Read-only file system" in r.stderr
    assert not (root / "dist").exists()


DRIVER = """
import sys, time
from site_builder import pipeline
if sys.argv[1] == "watchdog":
    sys.platform = "elsewhere"  # the workers fork from here: no prctl, the polling thread
ex = pipeline.Processes(2)
futures = [ex.submit(time.sleep, 120) for _ in range(2)]
time.sleep(0.5)
print(" ".join(str(p) for p in ex.pool._processes), flush=True)
time.sleep(120)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the workers")
@pytest.mark.parametrize("how", ["pdeathsig", "watchdog"])
def test_workers_end_when_the_driver_is_killed(how: str) -> None:
    """A SIGKILLed build once left its pool workers running, parented to init (six were
    alive 35 minutes later). The driver here is the build's own local executor with
    both workers busy on a chunk."""
    import os
    import signal
    import time

    env = dict(os.environ, PYTHONPATH=str(REPO))
    driver = subprocess.Popen([sys.executable, "-c", DRIVER, how], stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        assert driver.stdout is not None
        workers = [int(p) for p in driver.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers), workers
        driver.send_signal(signal.SIGKILL)
        driver.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(_alive(p) for p in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in workers if _alive(p)]
        assert not left, f"workers {left} outlived the killed driver"
    finally:
        driver.kill()
        for p in workers if "workers" in locals() else []:
            if _alive(p):
                os.kill(p, signal.SIGKILL)


# ---------------------------------------------------------------- corrupt content/


def _corrupt(site: Path, tmp_path: Path, slug: str, stage: str, edit: Any) -> Path:
    """A copy of the project root whose ``content/<slug>/<stage>.json`` is edited."""
    root = tmp_path / "root"
    shutil.copytree(site, root, ignore=shutil.ignore_patterns("dist"))
    shutil.copytree(site / "dist", root / "dist")
    path = root / "content" / slug / f"{stage}.json"
    doc = json.loads(path.read_text())
    edit(doc["data"])
    path.write_text(json.dumps(doc))
    return root


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def edit(data: Any) -> None:
        for k in path[:-1]:
            data = data[k]
        data[path[-1]] = value
    return edit


def _drop(path: tuple[Any, ...]) -> Any:
    def edit(data: Any) -> None:
        for k in path[:-1]:
            data = data[k]
        del data[path[-1]]
    return edit


@pytest.mark.parametrize("slug,edit,needle", [
    ("sukoro", _set(("boards", 0, "h"), "8"), "bank.json: key boards[0].h is '8' (a string)"),
    ("nanro", _drop(("boards", 3, "url")), "bank.json: key boards[3].url is missing"),
    ("canal-view", _set(("boards", 1, "board", "clues", 0, 0), [[]]), "boards[1].board"),
    ("sashigane", _set(("boards", 2, "answer"), "x"), "boards[2].answer is 'x'"),
    ("sukoro", _set(("example", "board"), None), "example.board"),
])
@pytest.mark.parametrize("command", ["build", "check"])
def test_a_malformed_bank_is_one_line_naming_file_and_key(
        command: str, slug: str, edit: Any, needle: str, site: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, no_stages: list[list[str]],
        capsys: pytest.CaptureFixture[str]) -> None:
    """`h` as "8" once ended build with a 29-line TypeError; a board without its url
    built and passed check, and the play pages lost the link."""
    root = _corrupt(site, tmp_path, slug, "bank", edit)
    monkeypatch.chdir(root)
    before = _files(root / "dist")
    code = cli.main([command] + (["-q"] if command == "build" else []))
    _one_line(code, capsys.readouterr().err, needle)
    assert _files(root / "dist") == before


@pytest.mark.parametrize("edit,needle", [
    (_drop(("lemma", "unique")), "missing from content/sukoro/stats.json, key lemma.unique"),
    (_set(("lemma", "unique"), None), "null in content/sukoro/stats.json, key lemma.unique"),
    (_set(("lemma", "unique"), "many"), "content/sukoro/stats.json, key lemma.unique"),
])
def test_check_exits_2_for_a_corrupt_value(edit: Any, needle: str, site: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A deleted key, a null or a string where a page prints a number is corrupt input
    (exit 2, the file named), not a mismatch between page and JSON (exit 1)."""
    root = _corrupt(site, tmp_path, "sukoro", "stats", edit)
    monkeypatch.chdir(root)
    code = cli.main(["check"])
    _one_line(code, capsys.readouterr().err, needle)


# ---------------------------------------------------------------- every digit a reader sees


@pytest.fixture(scope="module")
def baseline(site: Path) -> list[str]:
    """What check says of the untouched site (the committed JSON may be stale against
    the code on a branch; nothing else may be reported)."""
    problems = check_site(site / "dist", site)
    assert [p for p in problems if "stale against the code" not in p] == []
    return problems


def _sub_once(text: str, pattern: str, repl: Any) -> str:
    new, n = re.subn(pattern, repl, text, count=1, flags=re.DOTALL)
    assert n == 1, pattern
    return new


def _bump(m: re.Match[str]) -> str:
    d = m.group("d")
    return m.group(0).replace(d, str((int(d) + 1) % 10), 1) if len(d) == 1 else \
        m.group(0).replace(d, d[:-1] + str((int(d[-1]) + 1) % 10), 1)


TAMPERS = {
    # a y-axis tick of a chart
    "chart tick": ("en/sukoro/index.html", r'class="tick">(?P<d>\d+)%<'),
    # a bar's tooltip
    "chart tooltip": ("ja/sukoro/index.html", r"<title>[^<]*: (?P<d>\d+)%</title></rect>"),
    # an x label of a chart (a value read from JSON as a string)
    "chart x label": ("en/canal-view/index.html",
                      r'<figure class="chart".*?text-anchor="middle" class="tick">(?P<d>\d+)<'),
    # a clue digit of the board drawn on the index
    "board on the index": ("index.html", r'<svg data-src=.*?class="clue"[^>]*>(?P<d>\d)</text>'),
    # a clue digit of a board in an article
    "board in an article": ("ja/nanro/index.html",
                            r'<svg data-src=.*?<text[^>]*>(?P<d>\d)</text>'),
    # a digit inside a board's URL in its play-data file
    "play-data url": ("sukoro/play-data/6x6-01.json", r'"url": ?"[^"]*?/(?P<d>\d)/'),
    # a clue in a play-data board
    "play-data clue": ("nanro/play-data/6x6-01.json", r'"clues": ?\[\s*\[\s*(?P<d>\d)'),
    # the picker list
    "play-data index": ("canal-view/play-data/index.json", r'"clues": ?(?P<d>\d+)'),
}


@pytest.mark.parametrize("what", sorted(TAMPERS))
def test_check_catches_every_digit_a_reader_sees(what: str, site: Path, baseline: list[str],
                                                 tmp_path: Path) -> None:
    """Once 0 of 17 edits in charts and board drawings and 0 of 5 in play-data/ were
    caught: the check scanned only the text outside <svg> and the HTML pages."""
    name, pattern = TAMPERS[what]
    out = tmp_path / "dist"
    shutil.copytree(site / "dist", out)
    page = out / name
    page.write_text(_sub_once(page.read_text(encoding="utf-8"), pattern, _bump),
                    encoding="utf-8")
    new = [p for p in check_site(out, site) if p not in baseline]
    assert new and all(p.startswith(name) for p in new), new


def test_a_drawing_without_its_source_is_caught(site: Path, baseline: list[str],
                                                tmp_path: Path) -> None:
    out = tmp_path / "dist"
    shutil.copytree(site / "dist", out)
    page = out / "en" / "sukoro" / "index.html"
    html = page.read_text(encoding="utf-8")
    # a picture pasted in by hand, and a chart whose call names a typed-in number
    html = html.replace("</main>", '<svg viewBox="0 0 9 9"><text>42</text></svg></main>', 1)
    html = _sub_once(html, r'(data-src="\{&#34;args&#34;:.*?&#34;series&#34;:\[\[&#34;[^&]*'
                     r'&#34;,\[)\{&#34;\$key&#34;:&#34;[^&]*&#34;\}', r"\g<1>0.5")
    page.write_text(html, encoding="utf-8")
    new = [p for p in check_site(out, site) if p not in baseline]
    assert any("in a drawing (no data-src): '42'" in p for p in new), new
    assert any("the number 0.5 was typed into the call" in p for p in new), new


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_check_with_stdout_on_a_full_device_is_one_line(site: Path) -> None:
    """`check > /dev/full` once ended with an OSError traceback (it prints a line per
    problem, or that the check passed)."""
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "site_builder.cli", "check"], cwd=site,
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=300,
                           check=False, env={**__import__("os").environ, "PYTHONPATH": str(REPO)})
    assert "Traceback" not in r.stderr, r.stderr
    _one_line(r.returncode, r.stderr, "cannot write to standard output")
