"""deploy(): the site becomes the whole tree of a commit on a branch; deploy_dir(): a mirror."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from site_builder.deploy import deploy, deploy_dir
from site_builder.errors import UserError

REPO = Path(__file__).resolve().parents[1]
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def git(*args: str, cwd: Path | None = None, git_dir: Path | None = None) -> str:
    pre = ["--git-dir", str(git_dir)] if git_dir else []
    env = dict(CLEAN_ENV, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", *pre, *args], cwd=cwd, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


def tree_files(bare: Path, ref: str = "gh-pages") -> dict[str, bytes]:
    names = git("ls-tree", "-r", "--name-only", ref, git_dir=bare).splitlines()
    return {n: subprocess.run(["git", "--git-dir", str(bare), "show", f"{ref}:{n}"],
                              capture_output=True, check=True).stdout for n in names}


def commit_count(bare: Path, ref: str = "gh-pages") -> int:
    return int(git("rev-list", "--count", ref, git_dir=bare))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    out = tmp_path / "dist"
    (out / "sukoro").mkdir(parents=True)
    (out / "index.html").write_text("<html><head></head><body>index</body></html>\n")
    (out / "sukoro" / "index.html").write_text("<p>sukoro</p>\n")
    (out / "style.css").write_bytes(b"body{}\r\n")  # CRLF must survive byte for byte
    return out


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    b = tmp_path / "remote.git"
    git("init", "--quiet", "--bare", str(b))
    return b


def test_branch_holds_exactly_the_site_and_nojekyll(site: Path, bare: Path) -> None:
    sha = deploy(site, str(bare))
    assert sha == git("rev-parse", "refs/heads/gh-pages", git_dir=bare)
    files = tree_files(bare)
    assert sorted(files) == [".nojekyll", "index.html", "style.css", "sukoro/index.html"]
    assert files[".nojekyll"] == b""
    assert files["style.css"] == b"body{}\r\n"
    assert files["index.html"] == (site / "index.html").read_bytes()
    assert git("log", "-1", "--format=%an <%ae>|%cn <%ce>", "gh-pages", git_dir=bare) == (
        "build-site <build-site@localhost>|build-site <build-site@localhost>")
    # the site folder itself gained nothing
    assert not (site / ".nojekyll").exists()


def test_second_deploy_without_change_adds_no_commit(site: Path, bare: Path) -> None:
    first = deploy(site, str(bare))
    assert deploy(site, str(bare)) is None
    assert commit_count(bare) == 1
    assert git("rev-parse", "gh-pages", git_dir=bare) == first


def test_changed_site_makes_a_child_commit_with_the_message(site: Path, bare: Path) -> None:
    first = deploy(site, str(bare))
    (site / "index.html").write_text("<html><head></head><body>v2</body></html>\n")
    (site / "style.css").unlink()
    second = deploy(site, str(bare), message="second deploy")
    assert second and second != first
    assert git("rev-parse", "gh-pages^", git_dir=bare) == first
    assert git("log", "-1", "--format=%s", "gh-pages", git_dir=bare) == "second deploy"
    assert sorted(tree_files(bare)) == [".nojekyll", "index.html", "sukoro/index.html"]
    assert commit_count(bare) == 2


def test_other_branch_name_and_existing_history_kept(site: Path, bare: Path) -> None:
    deploy(site, str(bare), branch="pages")
    git("branch", "other", "pages", git_dir=bare)
    (site / "new.html").write_text("new\n")
    deploy(site, str(bare), branch="pages")
    assert commit_count(bare, "pages") == 2
    assert commit_count(bare, "other") == 1
    assert git("for-each-ref", "--format=%(refname)", git_dir=bare).splitlines() == [
        "refs/heads/other", "refs/heads/pages"]


def test_failing_check_blocks_and_leaves_the_branch(site: Path, bare: Path) -> None:
    first = deploy(site, str(bare))
    (site / "index.html").write_text("changed\n")
    with pytest.raises(UserError, match=r"check failed with 2 problem\(s\).*index.html: KEY"):
        deploy(site, str(bare), check=lambda: ["index.html: KEY expected 1 found 2", "x"])
    assert git("rev-parse", "gh-pages", git_dir=bare) == first
    assert commit_count(bare) == 1


def test_failing_check_on_a_new_remote_creates_no_branch(site: Path, bare: Path) -> None:
    with pytest.raises(UserError):
        deploy(site, str(bare), check=lambda: ["bad"])
    assert git("for-each-ref", git_dir=bare) == ""


def test_passing_check_is_called_and_deploys(site: Path, bare: Path) -> None:
    calls: list[int] = []
    assert deploy(site, str(bare), check=lambda: calls.append(1) or []) is not None
    assert calls == [1]


def test_current_repository_branch_index_and_tree_untouched(tmp_path: Path, bare: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # the two deploys below must make the same commit: pin the clock git reads, so a
    # second boundary between them cannot change the commit's date
    monkeypatch.setenv("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
    proj = tmp_path / "proj"
    proj.mkdir()
    git("init", "--quiet", "-b", "main", cwd=proj)
    (proj / ".gitignore").write_text("/dist/\n")
    (proj / "tracked.txt").write_text("v1\n")
    git("add", ".", cwd=proj)
    git("commit", "--quiet", "-m", "init", cwd=proj)
    (proj / "tracked.txt").write_text("dirty edit\n")  # unstaged change
    (proj / "staged.txt").write_text("staged\n")
    git("add", "staged.txt", cwd=proj)
    out = proj / "dist"
    out.mkdir()
    (out / "index.html").write_text("<p>site</p>\n")

    def state() -> tuple:
        return (git("symbolic-ref", "HEAD", cwd=proj), git("rev-parse", "HEAD", cwd=proj),
                git("status", "--porcelain", "--ignored", cwd=proj),
                (proj / ".git" / "index").read_bytes(), (proj / "tracked.txt").read_text(),
                sorted(p.name for p in proj.iterdir()))

    before = state()
    sha = deploy(out, str(bare))
    # deploying into the project repository itself only adds the pages branch there
    sha2 = deploy(out, str(proj))
    assert state() == before
    assert sha == sha2  # same tree, same identity, same date: same commit
    assert git("ls-tree", "--name-only", "gh-pages", cwd=proj).splitlines() == [
        ".nojekyll", "index.html"]
    assert "built from" in git("log", "-1", "--format=%s", "gh-pages", git_dir=bare)


def test_remote_name_and_relative_paths_resolve_from_the_cwd(
        site: Path, bare: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    git("init", "--quiet", "-b", "main", cwd=proj)
    git("remote", "add", "pages", os.path.relpath(bare, proj), cwd=proj)
    monkeypatch.chdir(proj)
    sha = deploy(site, "pages", branch="site")
    assert sha == git("rev-parse", "site", git_dir=bare)
    assert deploy(site, os.path.relpath(bare, proj), branch="site") is None
    assert deploy(site, bare.as_uri(), branch="site") is None
    assert commit_count(bare, "site") == 1


def test_works_without_git_config_and_ignores_hostile_config(
        site: Path, bare: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    home.mkdir()
    # a user config that would change what is published if the deploy honoured it
    (home / ".gitconfig").write_text(
        "[core]\n\tautocrlf = true\n\texcludesFile = ~/ignore\n[commit]\n\tgpgSign = true\n")
    (home / "ignore").write_text("*.css\n")
    for k in list(os.environ):
        if k.startswith("GIT_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    deploy(site, str(bare))
    files = tree_files(bare)
    assert files["style.css"] == b"body{}\r\n"


def test_bad_inputs_are_user_errors(site: Path, bare: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="build-site build"):
        deploy(tmp_path / "nope", str(bare))
    with pytest.raises(UserError, match="no such repository"):
        deploy(site, "definitely-not-a-remote-name")
    with pytest.raises(UserError, match="not a valid git branch name"):
        deploy(site, str(bare), branch="bad..name")
    with pytest.raises(UserError, match="git ls-remote failed"):
        deploy(site, str(tmp_path))  # a folder that is no repository


# --------------------------------------------------------------------------- --dir


def listing(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def with_manifest(site: Path) -> Path:
    """``site`` given the ``.build.json`` a build writes: every file with its sha256 (the
    manifest a later mirror trusts its target by)."""
    (site / ".build.json").unlink(missing_ok=True)
    files = {p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(site.rglob("*")) if p.is_file()}
    (site / ".build.json").write_text(json.dumps({"manifest": files}))
    return site


def test_dir_mirror_is_exact(site: Path, tmp_path: Path) -> None:
    dest = tmp_path / "www"
    (site / "old").mkdir()
    (site / "old" / "gone.html").write_text("stale")
    (site / "stale.txt").write_text("stale")
    deploy_dir(with_manifest(site), dest)
    assert listing(dest) == listing(site)

    # the old site's files and folders go, changed files change, unchanged files are not
    # rewritten, a pages checkout's .git stays
    (dest / ".git").mkdir()
    (dest / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    keep_ino = (dest / "sukoro" / "index.html").stat().st_ino
    shutil.rmtree(site / "old")
    (site / "stale.txt").unlink()
    (site / "index.html").write_text("v2\n")
    (site / "sukoro" / "deep").mkdir()
    (site / "sukoro" / "deep" / "x.svg").write_text("<svg/>")
    (site / "style.css").unlink()
    (site / "style.css").mkdir()  # a file becomes a folder
    (site / "style.css" / "a.css").write_text("a{}")
    deploy_dir(with_manifest(site), dest)
    got = listing(dest)
    assert got.pop(".git/HEAD") == b"ref: refs/heads/main\n"
    assert got == listing(site)
    assert sorted(p.name for p in dest.iterdir()) == [".build.json", ".git", "index.html",
                                                      "style.css", "sukoro"]
    assert (dest / "sukoro" / "index.html").stat().st_ino == keep_ino
    assert not list(dest.rglob("*.tmp"))


def test_dir_refuses_failing_check_and_dangerous_targets(site: Path, tmp_path: Path) -> None:
    dest = tmp_path / "www"
    deploy_dir(with_manifest(site), dest)
    before = listing(dest)
    (site / "index.html").write_text("v2\n")
    with pytest.raises(UserError, match="check failed"):
        deploy_dir(site, dest, check=lambda: ["index.html: KEY expected 1 found 2"])
    assert listing(dest) == before

    foreign = tmp_path / "docs"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("precious")
    with pytest.raises(UserError, match="no .build.json"):
        deploy_dir(site, foreign)
    assert (foreign / "notes.txt").read_text() == "precious"
    for bad in (site, site / "sub", tmp_path):
        with pytest.raises(UserError, match="overlaps"):
            deploy_dir(site, bad)
    assert (site / "index.html").read_text() == "v2\n"


# --------------------------------------------------------------------------- CLI end to end


def _cli_ready() -> bool:
    return (REPO / "site_builder" / "cli.py").exists() and (REPO / "site_builder" / "check.py").exists()


@pytest.mark.skipif(not _cli_ready(), reason="site_builder/cli.py and check.py not written yet")
def test_cli_deploy_end_to_end(tmp_path: Path, bare: Path) -> None:
    proj = tmp_path / "proj"
    shutil.copytree(REPO, proj, ignore=shutil.ignore_patterns(
        ".git", ".venv", "dist", "__pycache__", "*.egg-info", ".pytest_cache"))
    env = dict(CLEAN_ENV, PYTHONPATH=str(proj))

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "site_builder.cli", *args], cwd=proj,
                              env=env, capture_output=True, text=True, timeout=600, check=False)

    r = cli("build")
    assert r.returncode == 0, r.stderr
    r = cli("deploy", "--to", str(bare))
    assert r.returncode == 0, r.stderr
    first = git("rev-parse", "gh-pages", git_dir=bare)
    files = tree_files(bare)
    assert {".nojekyll", "index.html"} <= set(files)
    assert files["index.html"] == (proj / "dist" / "index.html").read_bytes()
    r = cli("deploy", "--to", str(bare))
    assert r.returncode == 0, r.stderr
    assert commit_count(bare) == 1

    # break one sourced number on a page: check fails, deploy exits 1 (as check does for
    # pages and JSON that disagree, the README's table), branch unchanged
    page = next(p for p in sorted((proj / "dist").rglob("*.html"))
                if "<data " in p.read_text(encoding="utf-8"))
    text = page.read_text(encoding="utf-8")
    i = text.index("<data ")
    j = text.index(">", i) + 1
    k = text.index("</data>", j)
    page.write_text(text[:j] + "999999" + text[k:], encoding="utf-8")
    r = cli("deploy", "--to", str(bare), "--message", "should not land")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert git("rev-parse", "gh-pages", git_dir=bare) == first

    dest = tmp_path / "www"
    r = cli("deploy", "--dir", str(dest))
    assert r.returncode == 1
    assert not dest.exists() or not any(dest.iterdir())
    r = cli("build")
    assert r.returncode == 0, r.stderr
    r = cli("deploy", "--dir", str(dest))
    assert r.returncode == 0, r.stderr
    assert listing(dest) == listing(proj / "dist")
