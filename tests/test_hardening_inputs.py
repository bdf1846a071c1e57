"""Issue 43, inputs: a solve input is capped before any parsing and its query pairs are
skipped in one pass (CLI and solve_web alike); `--regenerate` checks content/ before any
work and one build at a time runs stages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from site_builder import cli, pipeline, solve, solve_web, stagelock
from solvers import puzzlink, registry
from solvers.common import PuzzleError

REPO = Path(__file__).resolve().parent.parent
PAIRS = "https://puzz.link/p?" + "a=1&" * 250_000 + "sukoro/3/3/g"  # 1 MB


def _one_line(code: int, err: str, *needles: str) -> None:
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("build-site: error: "), err
    for n in needles:
        assert n in lines[0], lines[0]


# --------------------------------------------------------------------------- 7. the cap


def test_a_long_input_is_refused_before_any_parsing(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    def parsed(*a: Any) -> Any:
        raise AssertionError("parsed past the cap")

    monkeypatch.setattr(solve, "looks_like_url", parsed)
    monkeypatch.setattr(solve, "without_query_pairs", parsed)
    assert cli.main(["solve", "sukoro", PAIRS]) == 2
    _one_line(2, capsys.readouterr().err, f"{len(PAIRS):,} characters", "at most 65,536")
    for text in (PAIRS, "x" * (solve.MAX_INPUT + 1)):
        reply = json.loads(solve_web.solve_json("sukoro", text, 5, 0, False))
        assert reply["ok"] is False and reply["error"] == "malformed", reply
        assert "at most 65,536" in reply["message"]
        reply = json.loads(solve_web.help_json("sukoro", text, 5))
        assert reply["error"] == "malformed" and "at most 65,536" in reply["message"]


def test_the_cli_refuses_the_longest_argument_the_system_passes() -> None:
    """As a process: the longest single argument Linux passes is 128 KiB."""
    text = "https://puzz.link/p?" + "a=1&" * 32_000 + "sukoro/3/3/g"
    r = subprocess.run([sys.executable, "-m", "site_builder.cli", "solve", "sukoro", text],
                       capture_output=True, text=True, timeout=60, check=False)
    _one_line(r.returncode, r.stderr, "128,032 characters")
    assert r.stdout == ""


# --------------------------------------------------------------------------- 7. the pairs


def _read(slug: str, text: str) -> tuple[str, str]:
    try:
        return "board", json.dumps(registry.get(slug).decode(text).to_json())
    except PuzzleError as e:
        return "error", str(e)


PIECES = ["a=1&", "b=&", "=&", "a=", "&", "?", " ", "\n", "\r", "sukoro/", "3/3/", "g", "h",
          "sukoro/3/3/g", "https://puzz.link/p?", "_edit", "/", "1", "é", "canal/"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=10))
def test_skipping_the_pairs_first_reads_every_text_as_the_codec_does(parts: list[str]) -> None:
    """The same board, or the same error, as the codec's own reading of the text."""
    text = "".join(parts)
    assert _read("sukoro", solve.without_query_pairs(text)) == _read("sukoro", text)


def test_the_codec_is_handed_no_pair_to_skip(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """The codec's own loop re-slices the text once per pair (quadratic: 160,000 pairs took
    3.2 s before any budget started); the CLI and the page hand it none."""
    seen: list[str] = []
    real = puzzlink.split_url

    def spy(url: str, pid: str) -> Any:
        seen.append(url)
        return real(url, pid)

    from solvers.sukoro import codec

    monkeypatch.setattr(codec, "split_url", spy)
    url = "https://puzz.link/p?" + "a=1&" * 16_000 + "sukoro/3/3/g"
    assert cli.main(["solve", "sukoro", url]) == 2  # a body too short, as pzprjs reads it
    solve_web.solve_text("sukoro", url)
    assert len(seen) == 2
    for text in seen:
        assert text == "https://puzz.link/p?sukoro/3/3/g"
        assert puzzlink._QUERY_PAIR.match(text[text.index("?") + 1:]) is None
    assert solve_web._pid_and_size(url) == ("sukoro", 3, 3)


# --------------------------------------------------------------------------- 6. stages


def _site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    root.mkdir()
    shutil.copytree(REPO / "content", root / "content")
    shutil.copy2(REPO / "site.toml", root / "site.toml")
    return root


@pytest.fixture
def no_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that got past the checks would regenerate for minutes: fail at once."""
    def ran(*a: Any, **k: Any) -> Any:
        raise AssertionError("stages started")

    monkeypatch.setattr(pipeline, "run_plans", ran)
    monkeypatch.setattr(pipeline, "make_executor", ran)


def test_a_second_regeneration_stops_at_once_with_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_run: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two `--regenerate` runs at once duplicated all work, with no lock."""
    root = _site(tmp_path)
    before = {p: p.read_bytes() for p in (root / "content").rglob("*.json")}
    monkeypatch.chdir(root)
    with stagelock.held(root):
        code = cli.main(["build", "--regenerate", "-q", "--out", str(tmp_path / "out")])
    import os

    _one_line(code, capsys.readouterr().err, "another build", f"pid {os.getpid()}",
              "nothing was run or written")
    assert {p: p.read_bytes() for p in (root / "content").rglob("*.json")} == before
    assert not (tmp_path / "out").exists()


def test_the_lock_is_the_systems_and_ends_with_its_holder(tmp_path: Path) -> None:
    root = _site(tmp_path)
    code = ("import sys, time; from pathlib import Path; from site_builder import stagelock\n"
            "with stagelock.held(Path(sys.argv[1])):\n    print('held', flush=True)\n"
            "    time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(root)], stdout=subprocess.PIPE,
                            text=True, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        with pytest.raises(Exception, match=f"pid {proc.pid}"), stagelock.held(root):
            pass
    finally:
        proc.kill()  # kill -9: the lock goes with the process
        proc.wait(timeout=30)
    with stagelock.held(root):
        pass


def _read_only_mount_works(d: Path) -> bool:
    if not shutil.which("unshare"):
        return False
    script = (f"mount --bind {d} {d} && mount -o remount,bind,ro {d} && ! touch {d}/probe")
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                       capture_output=True, check=False)
    return r.returncode == 0


def test_regenerate_with_a_read_only_content_fails_before_any_work(tmp_path: Path) -> None:
    """`--regenerate` with a read-only content/ once failed only after 21 s of work. Here
    content/ is bind-mounted read-only in a private mount namespace (root here, where chmod
    does not stop writes), and a stage that starts fails the test."""
    root = _site(tmp_path)
    content = root / "content"
    if not _read_only_mount_works(content):
        pytest.skip("no private mount namespace here for a read-only bind mount")
    code = ("import sys; from site_builder import cli, pipeline\n"
            "def ran(*a, **k): raise SystemExit('stages started')\n"
            "pipeline.run_plans = pipeline.make_executor = ran\n"
            "sys.exit(cli.main(['build', '--regenerate', '-q', '--out', sys.argv[1]]))\n")
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && cd "$2" && '
              'exec "$3" -c "$4" "$5"')
    r = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", str(content),
         str(root), sys.executable, code, str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, check=False,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    _one_line(r.returncode, r.stderr, "content/", "Read-only file system",
              "nothing was run or written")
    assert not (tmp_path / "out").exists()
