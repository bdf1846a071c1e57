"""Issue 43, deploy: a branch that is not a previous deploy is never replaced without
--force, a site holding a link is never published, and no temporary folder outlives a
deploy (a killed one's is removed by the next)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from site_builder import deploy as deploy_module
from site_builder.deploy import TEMP_PREFIX, deploy, deploy_dir
from site_builder.errors import UserError

REPO = Path(__file__).resolve().parents[1]
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def git(*args: str, cwd: Path | None = None, git_dir: Path | None = None) -> str:
    pre = ["--git-dir", str(git_dir)] if git_dir else []
    env = dict(CLEAN_ENV, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", *pre, *args], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    out = tmp_path / "dist"
    (out / "sukoro").mkdir(parents=True)
    (out / "index.html").write_text("<p>index</p>\n")
    (out / "sukoro" / "index.html").write_text("<p>sukoro</p>\n")
    return out


@pytest.fixture
def tmpdir_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system's temporary folder, for these tests: one of their own."""
    d = tmp_path / "systmp"
    d.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(d))
    return d


def _project(tmp_path: Path) -> Path:
    """A bare repository whose main branch holds a project's sources."""
    work = tmp_path / "proj"
    work.mkdir()
    git("init", "-q", "-b", "main", cwd=work)
    (work / "README.md").write_text("my project\n")
    (work / "src.py").write_text("print(1)\n")
    git("add", "-A", cwd=work)
    git("commit", "-qm", "sources", cwd=work)
    bare = tmp_path / "proj.git"
    git("clone", "-q", "--bare", str(work), str(bare))
    return bare


def test_a_branch_that_is_not_a_deploy_is_refused_without_force(site: Path,
                                                                tmp_path: Path) -> None:
    """`deploy --to REMOTE --branch main` once pushed a commit whose tree was only the
    site, deleting every source file at the tip."""
    bare = _project(tmp_path)
    tip = git("rev-parse", "main", git_dir=bare)
    with pytest.raises(UserError, match=r"--branch main on .*: its tip [0-9a-f]{12} is not a "
                                        r"previous deploy \(it holds README.md, src.py\).*"
                                        r"--force"):
        deploy(site, str(bare), branch="main")
    assert git("rev-parse", "main", git_dir=bare) == tip
    sha = deploy(site, str(bare), branch="main", force=True)
    assert sha and git("rev-parse", "main^", git_dir=bare) == tip  # history kept
    # from then on the branch's tip is a deploy: no --force needed
    (site / "new.html").write_text("<p>new</p>\n")
    assert deploy(site, str(bare), branch="main")


def test_previous_deploys_are_recognised_by_message_and_tree(site: Path,
                                                             tmp_path: Path) -> None:
    """Issue 48 item 5: a previous deploy is its message (the marker, or an older
    deploy's words) and its tree (.nojekyll, the files its .build.json lists) together;
    a tree that looks like a site under a message of someone else's is not one."""
    bare = tmp_path / "pages.git"
    git("init", "-q", "--bare", str(bare))
    first = deploy(site, str(bare), message="my own words")
    body = git("log", "-1", "--format=%B", "gh-pages", git_dir=bare)
    assert body.splitlines()[0] == "my own words" and deploy_module.MARKER in body
    assert first
    for how in ("message", "tree"):
        work = tmp_path / f"old-{how}"
        work.mkdir()
        git("init", "-q", "-b", "gh-pages", cwd=work)
        (work / "index.html").write_text("old\n")
        (work / ".build.json").write_text('{"manifest": {"index.html": "0"}}\n')
        (work / ".nojekyll").write_text("")
        git("add", "-A", cwd=work)
        msg = "Deploy site built from abc1234 (build-site deploy)" if how == "message" else "x"
        git("commit", "-qm", msg, cwd=work)
        old = tmp_path / f"old-{how}.git"
        git("clone", "-q", "--bare", str(work), str(old))
        if how == "message":
            assert deploy(site, str(old))
        else:
            with pytest.raises(UserError, match="its message is not a deploy's.*--force"):
                deploy(site, str(old))


def test_both_deploy_modes_refuse_a_site_holding_a_link(site: Path, tmp_path: Path) -> None:
    """`deploy --dir` once published a linked /etc/passwd as a regular file (and `--to`
    kept the link)."""
    bare = tmp_path / "pages.git"
    git("init", "-q", "--bare", str(bare))
    (site / "leak.txt").symlink_to("/etc/passwd")
    with pytest.raises(UserError, match=r"leak.txt: a symbolic link \(to /etc/passwd\)"):
        deploy(site, str(bare))
    assert git("for-each-ref", git_dir=bare) == ""
    dest = tmp_path / "www"
    with pytest.raises(UserError, match=r"leak.txt: a symbolic link"):
        deploy_dir(site, dest)
    assert not dest.exists()
    (site / "leak.txt").unlink()
    (site / "sub").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(UserError, match=r"sub: a symbolic link"):
        deploy_dir(site, dest)


def _temps(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir() if p.name.startswith(TEMP_PREFIX))


def test_the_temporary_folder_goes_on_success_and_failure(site: Path, tmp_path: Path,
                                                         tmpdir_here: Path) -> None:
    bare = _project(tmp_path)
    deploy(site, str(bare), branch="gh-pages")
    assert _temps(tmpdir_here) == []
    with pytest.raises(UserError):
        deploy(site, str(bare), branch="main")  # refused half-way, inside the folder
    assert _temps(tmpdir_here) == []


def test_a_killed_deploys_folder_is_removed_by_the_next(site: Path, tmp_path: Path,
                                                       tmpdir_here: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmpdir_here / f"{TEMP_PREFIX}{dead.pid}-abc"
    (stale / "deploy.git").mkdir(parents=True)
    running = tmpdir_here / f"{TEMP_PREFIX}{os.getppid()}-def"  # still running: kept
    running.mkdir()
    bare = tmp_path / "pages.git"
    git("init", "-q", "--bare", str(bare))
    deploy(site, str(bare))
    assert _temps(tmpdir_here) == [running.name]


SLOW_GIT = """#!/bin/sh
# git, except that a push waits long enough to be killed in the middle of it
for a in "$@"; do [ "$a" = push ] && sleep 60; done
exec {git} "$@"
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_deploy_stopped_mid_push_leaves_no_folder(sig: signal.Signals, site: Path,
                                                   tmp_path: Path) -> None:
    """Each `kill -9` during a deploy once left a temporary folder of up to 25 MB. SIGTERM:
    the deploy removes it on the way out; SIGKILL: the next deploy does."""
    import shutil

    tmp = tmp_path / "systmp"
    tmp.mkdir()
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "git"
    fake.write_text(SLOW_GIT.format(git=shutil.which("git")))
    fake.chmod(0o755)
    bare = tmp_path / "pages.git"
    git("init", "-q", "--bare", str(bare))
    env = dict(CLEAN_ENV, TMPDIR=str(tmp), PATH=f"{bindir}:{os.environ['PATH']}",
               PYTHONPATH=str(REPO))
    code = f"from site_builder.deploy import deploy; deploy({str(site)!r}, {str(bare)!r})"
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, start_new_session=True,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (_temps(tmp) and (tmp / _temps(tmp)[0] / "index").exists()):
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
            time.sleep(0.05)
        time.sleep(0.5)  # in the push now
        proc.send_signal(sig)
        proc.wait(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the fake git's sleep, if still there
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert git("for-each-ref", git_dir=bare) == ""
    if sig == signal.SIGTERM:
        assert proc.returncode == 128 + signal.SIGTERM
        assert _temps(tmp) == []
    else:
        assert len(_temps(tmp)) == 1  # what kill -9 leaves ...
        r = subprocess.run([sys.executable, "-c", code], env=dict(env, PATH=os.environ["PATH"]),
                           capture_output=True, text=True, timeout=120, check=False)
        assert r.returncode == 0, r.stderr
        assert _temps(tmp) == []  # ... the next deploy removes
