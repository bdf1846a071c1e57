"""`build-site deploy`: publish the built site to a git branch, or mirror it into a folder.

``deploy(out, to, branch)`` makes ``out`` (plus an empty ``.nojekyll``) the whole tree of
a new commit on ``refs/heads/<branch>`` of ``to`` and pushes it. Everything happens in a
throw-away bare repository in a temporary folder: the project's own repository, its
index, working tree and current branch are never written to. The new commit's parent is
the branch's current tip on the remote, so the push is always a fast-forward; when the
tip already has the same tree nothing is committed or pushed and ``None`` comes back.

Tree building runs with the user's and the system's git configuration switched off
(``core.autocrlf``, global excludes, ``commit.gpgSign`` cannot alter what is published)
and with an explicit author and committer, so it works on a machine without any git
config. Fetch and push keep the normal configuration (credentials, ssh settings).

``deploy_dir(out, dest)`` mirrors ``out`` into a folder: changed files are written to a
temporary name and renamed into place, files that are not in the site are deleted, a
``.git`` at the top of ``dest`` is kept (a checkout of a pages repository works).

Both refuse when the site check fails: pass ``check`` (a callable returning problem
lines) or ``root`` (then ``site_builder.check.check_site(out, root)`` runs).
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from site_builder.errors import UserError
from site_builder.jsonio import write_atomic

IDENTITY = {
    "GIT_AUTHOR_NAME": "build-site",
    "GIT_AUTHOR_EMAIL": "build-site@localhost",
    "GIT_COMMITTER_NAME": "build-site",
    "GIT_COMMITTER_EMAIL": "build-site@localhost",
}
# inherited variables that would point git at another repository or index
_GIT_LOCATION_VARS = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX",
    "GIT_CEILING_DIRECTORIES",
)
EMPTY_BLOB_MODE = "100644"


def run_check(out: Path, check: Callable[[], list[str]] | None, root: Path | None) -> None:
    """Raise UserError unless the site check passes (no-op when neither is given)."""
    if check is None and root is not None:
        from site_builder.check import check_site

        def check() -> list[str]:
            return check_site(out, root)

    if check is None:
        return
    problems = check()
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise UserError(
            f"check failed with {len(problems)} problem(s), not deploying: {problems[0]}{more}"
        )


def _require_site(out: Path) -> Path:
    out = Path(out)
    if not out.is_dir():
        raise UserError(f"{out} does not exist; run `build-site build` first")
    if not any(out.iterdir()):
        raise UserError(f"{out} is empty; run `build-site build` first")
    return out.resolve()


# --------------------------------------------------------------------------- git branch


class _Git:
    """git commands against a private bare repository in ``tmp``."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.git_dir = tmp / "deploy.git"
        base = {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARS}
        base.update(GIT_DIR=str(self.git_dir), GIT_INDEX_FILE=str(tmp / "index"),
                    GIT_TERMINAL_PROMPT="0", LC_ALL="C")
        self.env_remote = base  # fetch / push: the user's config (credentials) applies
        self.env_local = dict(base, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
                              HOME=str(tmp))
        for k, v in IDENTITY.items():  # an identity the user set in the environment wins
            self.env_local[k] = os.environ.get(k) or v

    def __call__(self, *args: str, remote: bool = False, input: str | None = None,
                 check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            ["git", *args], cwd=self.tmp, input=input, text=True, capture_output=True, check=False,
            env=self.env_remote if remote else self.env_local,
        )
        if check and proc.returncode != 0:
            msg = " ".join((proc.stderr or proc.stdout).split()) or f"exit {proc.returncode}"
            raise UserError(f"git {args[0]} failed: {msg}")
        return proc


def _resolve_remote(to: str) -> str:
    """A local path becomes absolute; a remote name of the current repository its URL."""
    p = Path(to).expanduser()
    if p.exists():
        return str(p.resolve())
    looks_like_url = "://" in to or (":" in to and not to.startswith((".", "/")))
    if not looks_like_url and "/" not in to:
        proc = subprocess.run(["git", "remote", "get-url", to], capture_output=True, text=True, check=False)
        if proc.returncode == 0 and proc.stdout.strip():
            url = proc.stdout.strip()
            # a relative path URL means "from here" to git; our git runs elsewhere
            return str(Path(url).resolve()) if Path(url).exists() else url
    if not looks_like_url:
        raise UserError(f"--to {to}: no such repository path, URL or remote name")
    return to


def _source_rev(out: Path) -> str | None:
    """Short commit of the repository the site was built in, if any (read-only)."""
    env = {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARS}
    proc = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=out.parent, env=env,
                          capture_output=True, text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else None


def deploy(out: Path, to: str, branch: str = "gh-pages", message: str | None = None, *,
           check: Callable[[], list[str]] | None = None, root: Path | None = None) -> str | None:
    """Commit ``out`` as the whole tree of ``branch`` on ``to`` and push it.

    Returns the new commit's sha, or None when the branch already holds this exact tree.
    """
    run_check(Path(out), check, root)
    out = _require_site(out)
    if not branch or branch.startswith(("-", "refs/")):
        raise UserError(f"--branch {branch!r}: give a plain branch name such as gh-pages")
    remote = _resolve_remote(to)
    ref = f"refs/heads/{branch}"

    with tempfile.TemporaryDirectory(prefix="build-site-deploy-") as t:
        git = _Git(Path(t))
        git("init", "--bare", "--quiet", "--template=", str(git.git_dir))
        if git("check-ref-format", ref, check=False).returncode != 0:
            raise UserError(f"--branch {branch!r} is not a valid git branch name")

        # the whole site, forced past any ignore rules, then .nojekyll from no file at all
        git("--work-tree", str(out), "add", "--all", "--force", "--", ".")
        empty = git("hash-object", "-w", "--stdin", input="").stdout.strip()
        git("update-index", "--add", "--cacheinfo", f"{EMPTY_BLOB_MODE},{empty},.nojekyll")
        tree = git("write-tree").stdout.strip()

        listing = git("ls-remote", remote, ref, remote=True).stdout.split()
        parent = listing[0] if listing else None
        if parent:
            git("fetch", "--quiet", "--no-tags", "--depth=1", remote,
                f"+{ref}:refs/deploy/tip", remote=True)
            if git("rev-parse", f"{parent}^{{tree}}").stdout.strip() == tree:
                return None

        if message is None:
            rev = _source_rev(out)
            message = f"Deploy site{f' built from {rev}' if rev else ''} (build-site deploy)"
        args = ["commit-tree", "--no-gpg-sign", tree, "-F", "-"]
        if parent:
            args += ["-p", parent]
        sha = git(*args, input=message + "\n").stdout.strip()
        proc = git("push", "--quiet", "--no-verify", remote, f"{sha}:{ref}", remote=True,
                   check=False)
        if proc.returncode != 0:
            detail = " ".join(proc.stderr.split())
            if "non-fast-forward" in detail or "fetch first" in detail:
                raise UserError(f"{branch} on {to} moved during the deploy; run deploy again")
            raise UserError(f"git push to {to} failed: {detail}")
        return sha


# --------------------------------------------------------------------------- folder mirror


def _same_file(a: Path, b: Path) -> bool:
    try:
        return b.is_file() and not b.is_symlink() and filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False


def _remove(p: Path) -> None:
    if p.is_dir() and not p.is_symlink():
        shutil.rmtree(p)
    else:
        p.unlink()


def _refuse_dangerous_dest(out: Path, dest: Path) -> None:
    if dest == out or out.is_relative_to(dest) or dest.is_relative_to(out):
        raise UserError(f"--dir {dest} overlaps the output folder {out}; pick another folder")
    if dest == Path(dest.anchor) or dest == Path.home().resolve():
        raise UserError(f"--dir {dest}: refusing to mirror into a root or home folder")
    if dest.exists() and not dest.is_dir():
        raise UserError(f"--dir {dest} is a file, not a folder")
    if dest.is_dir():
        entries = [e.name for e in dest.iterdir() if e.name != ".git"]
        if entries and not (dest / "index.html").exists():
            raise UserError(
                f"--dir {dest} is not empty and holds no index.html; mirroring would delete "
                f"its {len(entries)} entries: empty it or pick another folder"
            )


def deploy_dir(out: Path, dest: Path, *, check: Callable[[], list[str]] | None = None,
               root: Path | None = None) -> None:
    """Make ``dest`` an exact copy of ``out`` (a top-level ``.git`` in ``dest`` is kept)."""
    run_check(Path(out), check, root)
    out = _require_site(out)
    dest = Path(dest).expanduser().resolve()
    _refuse_dangerous_dest(out, dest)
    dest.mkdir(parents=True, exist_ok=True)

    keep: set[Path] = set()
    for here, dirs, files in os.walk(out):
        rel = Path(here).relative_to(out)
        target_dir = dest / rel
        if target_dir.is_symlink() or (target_dir.exists() and not target_dir.is_dir()):
            _remove(target_dir)
        target_dir.mkdir(exist_ok=True)
        keep.add(target_dir)
        for name in files:
            src, dst = Path(here) / name, target_dir / name
            keep.add(dst)
            if not _same_file(src, dst):
                write_atomic(dst, src.read_bytes())
        dirs.sort()

    # delete what the site does not have (a dir not in ``keep`` holds nothing kept)
    for here, dirs, files in os.walk(dest):
        h = Path(here)
        if h == dest and ".git" in dirs:
            dirs.remove(".git")  # a pages checkout's repository stays as it is
        for name in list(dirs):
            p = h / name
            if p not in keep:
                _remove(p)
                dirs.remove(name)
        for name in files:
            p = h / name
            if p not in keep:
                _remove(p)
