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
lines) or ``root`` (then ``site_builder.check.check_site(out, root)`` runs), and both
refuse a site folder holding a symbolic link (a build writes regular files only).

``deploy`` commits only on top of a previous deploy: a branch whose tip is anything else
(the project's own ``main``, say, whose tree would be replaced by the site's, or a commit
made by hand on top of a deploy, adding a ``CNAME``) is refused unless ``force``. A
previous deploy is recognised by its message and its tree together: the
``Deployed-by: build-site`` trailer every deploy commit carries (or the
``(build-site deploy)`` of older deploys' messages), and a tree that is the site it
published (``.nojekyll``, and exactly the files its ``.build.json`` lists). The
commit message names the source state the site was built from (``.build.json``'s
``source``: the commit, ``+dirty`` and the changed inputs).

The temporary folder is removed on every exit path (SIGTERM included); one that a
``kill -9`` left is removed by the next deploy (``leftovers``).
"""

from __future__ import annotations

import contextlib
import filecmp
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from site_builder import leftovers
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
TEMP_PREFIX = "build-site-deploy-"
MARKER = "Deployed-by: build-site"


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
    out = out.resolve()
    for here, dirs, files in os.walk(out):
        for name in sorted((*dirs, *files)):
            p = Path(here) / name
            if p.is_symlink():
                raise UserError(f"{p}: a symbolic link (to {os.readlink(p)}) in the site; a "
                                "build writes regular files only, so this one was put there "
                                "by hand: not deploying (run `build-site build` again)")
    return out


@contextlib.contextmanager
def _terminable() -> Iterator[None]:
    """SIGTERM raises SystemExit for the duration, so that ``finally`` blocks (the
    temporary folder's removal) run when a deploy is stopped politely."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def source_state(out: Path) -> str | None:
    """The source state the site in ``out`` was built from (``.build.json``), as the
    deploy message says it: ``abc1234`` or ``abc1234+dirty (changed: ...)``; else the
    short commit of the repository around ``out`` (a site from an older build)."""
    from site_builder.buildinfo import BUILD_INFO, source_line
    from site_builder.jsonio import read_json

    if (out / BUILD_INFO).is_file():
        try:
            line = source_line(read_json(out / BUILD_INFO))
        except UserError:
            line = None
        if line:
            return line
    return _source_rev(out)


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
           check: Callable[[], list[str]] | None = None, root: Path | None = None,
           force: bool = False) -> str | None:
    """Commit ``out`` as the whole tree of ``branch`` on ``to`` and push it.

    Returns the new commit's sha, or None when the branch already holds this exact tree.
    A branch whose tip is not a previous deploy is refused unless ``force``.
    """
    run_check(Path(out), check, root)
    out = _require_site(out)
    if not branch or branch.startswith(("-", "refs/")):
        raise UserError(f"--branch {branch!r}: give a plain branch name such as gh-pages")
    remote = _resolve_remote(to)
    ref = f"refs/heads/{branch}"

    with _terminable():
        t = leftovers.make_temp(TEMP_PREFIX)
        try:
            return _commit_and_push(_Git(t), out, to, remote, branch, ref, message, force)
        finally:
            shutil.rmtree(t, ignore_errors=True)


def _is_deploy(git: _Git, commit: str) -> tuple[bool, str]:
    """Whether ``commit`` is one a deploy made, and when not, why: its message carries
    the marker trailer (or an older deploy's ``(build-site deploy)``), and its tree is
    the site that deploy committed: ``.nojekyll`` at the top, and when it holds a
    ``.build.json``, exactly the files that manifest lists besides the two. A commit made
    by hand on top of a deploy (a ``CNAME``, any file added or removed) is none."""
    text = git("cat-file", "commit", commit).stdout
    message = text.partition("\n\n")[2]
    if MARKER not in message and "(build-site deploy)" not in message:
        return False, "its message is not a deploy's"
    files = set(git("ls-tree", "-r", "--name-only", "-z", commit).stdout.split("\0")) - {""}
    if ".nojekyll" not in files:
        return False, "its tree has no .nojekyll"
    if ".build.json" in files:
        import json

        try:
            doc = json.loads(git("cat-file", "blob", f"{commit}:.build.json").stdout)
            listed = set(doc["manifest"])
        except (ValueError, KeyError, TypeError):
            return False, "its .build.json is not a build's manifest"
        extra = sorted(files - listed - {".build.json", ".nojekyll"})
        missing = sorted(listed - files)
        if extra or missing:
            shown = ", ".join([*extra, *missing][:3])
            return False, f"its tree differs from the site its .build.json lists ({shown})"
    return True, ""


def _commit_and_push(git: _Git, out: Path, to: str, remote: str, branch: str, ref: str,
                     message: str | None, force: bool) -> str | None:
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
        ours, why = (True, "") if force else _is_deploy(git, parent)
        if not ours:
            top = git("ls-tree", "--name-only", parent).stdout.split()
            shown = ", ".join(top[:4]) + (", ..." if len(top) > 4 else "")
            raise UserError(f"--branch {branch} on {to}: its tip {parent[:12]} is not a "
                            f"previous deploy (it holds {shown or 'nothing'}): {why}, and "
                            "the deploy would replace its whole tree with the site; pick "
                            "another branch, or pass --force to replace it anyway")
        if git("rev-parse", f"{parent}^{{tree}}").stdout.strip() == tree:
            return None

    if message is None:
        rev = source_state(out)
        message = f"Deploy site{f' built from {rev}' if rev else ''} (build-site deploy)"
    args = ["commit-tree", "--no-gpg-sign", tree, "-F", "-"]
    if parent:
        args += ["-p", parent]
    sha = git(*args, input=f"{message}\n\n{MARKER}\n").stdout.strip()
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


def _refuse_dangerous_dest(out: Path, dest: Path, root: Path | None) -> dict[str, str]:
    """Refuse a target that is not the mirror of an earlier deploy (or empty, or new),
    in one line; returns the manifest of the site mirrored there before ({} when none),
    the only files the mirror may delete."""
    from site_builder import targets

    if dest == out or out.is_relative_to(dest) or dest.is_relative_to(out):
        raise UserError(f"--dir {dest} overlaps the output folder {out}; pick another folder")
    if dest == Path(dest.anchor) or dest == Path.home().resolve():
        raise UserError(f"--dir {dest}: refusing to mirror into a root or home folder")
    if root is not None and (dest == root.resolve() or root.resolve().is_relative_to(dest)):
        raise UserError(f"--dir {dest}: it holds the site folder {root.resolve()}; pick "
                        "another folder")
    targets.refuse_tool_folder(dest, "--dir", root, tail="; pick another folder")
    if dest.exists() and not dest.is_dir():
        raise UserError(f"--dir {dest} is a file, not a folder")
    if not dest.is_dir():
        return {}
    tail = "; empty it or pick another folder"
    targets.check_target(dest, "--dir", tail=tail)
    old = targets.read_manifest(dest) or {}
    foreign = targets.strays(dest, old)
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise UserError(f"--dir {dest}: it holds {len(foreign)} file(s) no deploy wrote "
                        f"({shown}), and what no build wrote is never deleted; nothing was "
                        f"written{tail}")
    return old


def deploy_dir(out: Path, dest: Path, *, check: Callable[[], list[str]] | None = None,
               root: Path | None = None) -> None:
    """Make ``dest`` an exact copy of ``out`` (a top-level ``.git`` in ``dest`` is kept).
    ``dest`` must be absent, empty, or an earlier mirror whose files are the ones its
    ``.build.json`` lists with those bytes: nothing else is ever deleted."""
    run_check(Path(out), check, root)
    out = _require_site(out)
    dest = Path(dest).expanduser().resolve()
    old = _refuse_dangerous_dest(out, dest, root)
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
                if dst.is_dir() and not dst.is_symlink():
                    _remove(dst)  # a folder of the old site where the new one has a file
                write_atomic(dst, src.read_bytes())
        dirs.sort()

    # delete what the old site had and the new one does not (the old manifest names it;
    # the check above made sure nothing else is there), then the folders left empty
    for rel in sorted(old):
        p = dest / rel
        if p not in keep and (p.is_file() or p.is_symlink()):
            p.unlink()
    for here, _dirs, _files in os.walk(dest, topdown=False):
        h = Path(here)
        if h == dest or ".git" in h.relative_to(dest).parts[:1] or h in keep:
            continue
        with contextlib.suppress(OSError):
            h.rmdir()
