"""A build with nothing to do, answered from the stats of what the last build read.

After a ``build-site build`` that succeeded, ``save`` records the stat (size, mtime,
inode) of every file and folder that build could depend on: the site's ``site.toml``,
``content/`` and ``templates/``; the code and files of ``site_builder`` (its theme and
pins), of ``solvers`` and of each puzzle package; the fetched solve runtime; the folders on
``sys.path`` (a package installed or removed changes them, and with them the puzzles the
entry points name); and every file of the output folder. Folders count too, so a file
added anywhere in those trees changes its folder's stat.

The next build with the same options first asks ``unchanged``: when every recorded
stat is the same, the tree is the one the last build turned into that output folder, so
the build has nothing to do (no stage is stale, no page is) and says so without loading
the puzzles, Jinja or the renderer. Anything else (a stat differs, a file is missing,
``--regenerate`` or ``--stage``, an unreadable stamp) takes the ordinary path, which is
exact. An input changed less than two seconds before the stamp would be written may
have changed again within the file system's timestamp granularity, so then no stamp is
written and the next build takes the ordinary path.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

VERSION = 1
RACY_NS = 2_000_000_000


def _key(root: Path, out: Path, options: dict[str, Any]) -> str:
    blob = json.dumps({"out": str(out), "options": options, "python": sys.executable,
                       "cache": os.environ.get("BUILD_SITE_CACHE", "")}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def stamp_path(root: Path, out: Path, options: dict[str, Any]) -> Path:
    return root / ".cache" / "stamps" / f"{_key(root, out, options)}.json"


def _stat(path: str) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _digest(paths: list[str]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(f"{p}\0{_stat(p)}\0".encode())
    return h.hexdigest()


def unchanged(root: Path, out: Path, options: dict[str, Any]) -> dict[str, Any] | None:
    """The last build's summary when nothing it read has changed since, else None."""
    path = stamp_path(root, out, options)
    if (out.parent / f".{out.name}.switch.json").exists():
        return None  # a build stopped in its switch: the ordinary path finishes it
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    try:
        doc = json.loads(text)
        if doc.get("version") != VERSION:
            return None
        if _digest(doc["inputs"] + doc["outputs"]) != doc["digest"]:
            return None
        return dict(doc["summary"])
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        print(f"build-site: {path} was corrupt ({type(e).__name__}); ignored (it is only a "
              "cache, rewritten after this build)", file=sys.stderr)
        return None


def _tree(base: Path, skip: tuple[str, ...] = ()) -> list[str]:
    out: list[str] = []
    if not base.exists():
        return [str(base)]  # its coming into being counts
    if base.is_file():
        return [str(base)]
    for here, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and d not in skip)
        out.append(here)
        out += [os.path.join(here, f) for f in sorted(files)
                if not f.endswith((".pyc", ".pyo"))]
    return out


def git_files(root: Path) -> list[str]:
    """The files that say which commit the site's folder is at (``.build.json`` records
    it): the HEAD of its repository or worktree, the branch's ref, packed-refs."""
    here = root.resolve()
    for d in (here, *here.parents):
        dot = d / ".git"
        if dot.is_dir():
            gitdir = dot
            break
        if dot.is_file():
            text = dot.read_text(encoding="utf-8", errors="replace").strip()
            gitdir = (d / text.removeprefix("gitdir:").strip()).resolve()
            break
    else:
        return []
    common = gitdir
    if (gitdir / "commondir").is_file():
        common = (gitdir / (gitdir / "commondir").read_text().strip()).resolve()
    out = [str(gitdir / "HEAD"), str(common / "packed-refs")]
    try:
        head = (gitdir / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return out
    if head.startswith("ref:"):
        out.append(str(common / head.removeprefix("ref:").strip()))
    return out


def inputs(root: Path, puzzles: list[Any]) -> list[str]:
    """Every file and folder a build of ``root`` could read, by path."""
    import site_builder
    import solvers
    from site_builder import runtime

    paths = _tree(root / "site.toml") + _tree(root / "content") + _tree(root / "templates")
    trees = {Path(site_builder.__file__).resolve().parent,
             Path(solvers.__file__).resolve().parent,
             *(Path(p.package_dir).resolve() for p in puzzles)}
    for t in sorted(trees):
        paths += _tree(t)
    paths += _tree(runtime.HOME / runtime.CACHE)
    paths += git_files(root)
    # where packages are installed (a puzzle plugin installed or removed changes these
    # folders); the site's own folder and those around it are not such places
    site = root.resolve()
    for d in sorted({Path(p).resolve() for p in sys.path if p and os.path.isdir(p)}):
        if d != site and d not in site.parents and site not in d.parents:
            paths.append(str(d))
    return paths


def save(root: Path, out: Path, options: dict[str, Any], puzzles: list[Any],
         summary: dict[str, Any]) -> None:
    """Record what a successful build read and wrote (not when an input is too fresh to
    be told apart by its stat from a second edit)."""
    path = stamp_path(root, out, options)
    try:
        path.unlink(missing_ok=True)
        ins = inputs(root, puzzles)
        now = time.time_ns()
        for p in ins:
            st = _stat(p)
            if st is not None and now - st[1] < RACY_NS:
                return
        outs = _tree(out)
        doc = {"version": VERSION, "inputs": ins, "outputs": outs,
               "digest": _digest(ins + outs), "summary": summary}
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only checkout: no stamp, every build takes the ordinary path
