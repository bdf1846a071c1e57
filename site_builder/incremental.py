"""Render only what changed: jobs, their recorded inputs, and the on-disk record.

The site is a list of render *jobs* (``build.site_jobs``): a page, a puzzle's play files,
the solve runtime, one static file... Each job runs under a ``deps.Recorder`` and the
record of the last build (``.cache/render/<out>.json``, beside the site, never in dist/)
keeps, per job, the files it wrote (sha256, and size and mtime as written) and what it
read: template names and the file each came from, the JSON values it observed (by key
path, hashed; both sides of a comparison), other files, other jobs' results. A lookup
is recorded with what it did not find, as Sphinx and Bazel do: a template name that
resolved nowhere (an ``ignore missing`` include, an include list's names before the one
that answered) is recorded as coming from nowhere, and a static file records each place
on its search path before the one that answered as a file that is absent; a file
created at any of those places makes the jobs that looked there run again. Every job also depends on the *build
state*: the options (base URL, the puzzles rendered), ``site.toml``, the code that renders
(site_builder and every puzzle package's Python, the libraries' versions).

A build then re-runs a job only when one of those changed (or a file it wrote is not on
disk as it was written), writes a re-run job's files only where their bytes differ (so an
unchanged page keeps its bytes and its mtime), removes the files no job writes any more,
and rewrites ``.build.json`` when the inputs changed. The changed files are staged beside
dist/ and switched in under a journal (see "the switch" below): a failed render, a kill
or a full disk leaves dist/ all old or, once the journal is written, all new. Without a usable record (first build, another version, a
dist/ that is not the one recorded) every job runs and the folder is swapped in whole, as
a clean build does. ``tests/test_incremental.py`` compares the two after random edits.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder import deps
from site_builder.filecache import FileCache, for_site, sha_bytes

VERSION = 1
Files = dict[str, str | bytes]


@dataclass
class Job:
    """``run()`` returns the files of one part of the site (dist path -> content) and,
    optionally, a JSON-able value other jobs read (``value_of``)."""

    id: str
    run: Callable[[], Files | tuple[Files, Any]]


@dataclass
class Outcome:
    """What a build did, for its summary line and ``--explain``."""

    rendered: list[tuple[str, str]] = field(default_factory=list)  # (dist path, why)
    kept: int = 0
    removed: list[str] = field(default_factory=list)
    unchanged: int = 0  # re-rendered, same bytes: left untouched on disk
    full: bool = False  # no usable record: every job ran, the folder swapped in whole
    why_full: str = ""
    unchanged_inputs: bool = False  # nothing any job reads changed: no job was looked at
    files: int = 0
    pages: int = 0


# ---------------------------------------------------------------- the build state


def _walk(base: Path, suffix: str | None = None, skip: tuple[Path, ...] = ()) -> Iterator[Path]:
    if not base.is_dir():
        return
    for here, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith(".")
                         and Path(here, d) not in skip)
        for n in sorted(names):
            if (suffix is None or n.endswith(suffix)) and not n.endswith((".pyc", ".pyo")):
                yield Path(here, n)


def code_files(puzzles: list[Any]) -> list[Path]:
    """The code a render runs: site_builder (its pins included, its theme aside: the
    theme's files are jobs' own inputs), the solvers package and every puzzle package."""
    import site_builder
    import solvers

    sb = Path(site_builder.__file__).resolve().parent
    out = list(_walk(sb, skip=(sb / "theme",)))
    pkgs = {Path(solvers.__file__).resolve().parent}
    pkgs |= {Path(p.package_dir).resolve() for p in puzzles}
    for pkg in sorted(pkgs):
        out += _walk(pkg, ".py")
    return sorted(set(out))


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": sys.version}
    for dist in ("jinja2", "markupsafe", "markdown-it-py", "mdit-py-plugins", "budoux"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            out[dist] = "-"
    return out


def build_state(root: Path, cache: FileCache, puzzles: list[Any], options: dict[str, Any]
                ) -> str:
    """One digest of everything every job depends on."""
    from site_builder.config import SITE_FILE

    files = {str(f): cache.sha(f) for f in code_files(puzzles)}
    files[str(root / SITE_FILE)] = cache.sha(root / SITE_FILE)
    return deps.digest({"options": options, "code": files, "versions": _versions(),
                        "version": VERSION})


def inputs_state(root: Path, cache: FileCache, puzzles: list[Any]) -> str:
    """A digest of every file ``buildinfo.inputs_hash`` reads (by path and content hash):
    while it is the same, so is that hash, which is then not recomputed."""
    from site_builder.sources import input_dirs

    h = hashlib.sha256()
    for label, base in [("content", root / "content"), *input_dirs(root, puzzles)]:
        for f in sorted(base.rglob("*")) if base.is_dir() else ():
            if f.is_file() and "__pycache__" not in f.parts:
                h.update(f"{label}/{f.relative_to(base).as_posix()}\0{cache.sha(f)}\0".encode())
    return h.hexdigest()[:20]


def tree_sha(base: Path) -> str | None:
    """A digest of a folder's listing (paths, sizes, mtimes): for a job that reads
    whatever a folder holds (the solve runtime), so that a file added there counts."""
    if not base.is_dir():
        return None
    rows = []
    for f in _walk(base):
        try:
            st = f.stat()
        except OSError:
            continue
        rows.append((f.relative_to(base).as_posix(), st.st_size, st.st_mtime_ns))
    return deps.digest(rows)


def file_sha(cache: FileCache, path: str) -> str | None:
    """A recorded input's hash: a file's content hash, or for a path ending in the
    separator, its folder's ``tree_sha``."""
    if path.endswith(os.sep):
        return tree_sha(Path(path))
    return cache.sha(path)


# ---------------------------------------------------------------- the record


def record_path(root: Path, out: Path) -> Path:
    name = hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:12]
    return root / ".cache" / "render" / f"{name}.json"


def load_record(path: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        print(f"build-site: {path} was unreadable ({e}); rendering everything (it is only "
              "a cache)", file=sys.stderr)
        return None
    if not isinstance(doc, dict) or doc.get("version") != VERSION \
            or not isinstance(doc.get("jobs"), dict):
        return None
    return doc


def save_record(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(json.dumps(doc, separators=(",", ":"), ensure_ascii=False),
                       encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """One build at a time writes into a given output folder (and its record)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(str(path.with_suffix(".lock")), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


# ---------------------------------------------------------------- staleness


class Inputs:
    """Answers "is this recorded input still the same?" for one build, each file and
    each JSON file looked at once."""

    def __init__(self, root: Path, cache: FileCache, resolve: Callable[[str], str | None],
                 data: Callable[[str], Any]) -> None:
        self.root, self.cache, self.resolve, self.data = root, cache, resolve, data
        self._res: dict[str, str | None] = {}
        self._json_ok: dict[str, bool] = {}

    def file_sha(self, path: str) -> str | None:
        return file_sha(self.cache, path)

    def template(self, name: str) -> str | None:
        if name not in self._res:
            self._res[name] = self.resolve(name)
        return self._res[name]

    def why_stale(self, job: dict[str, Any], values: dict[str, str]) -> str | None:
        """Why a recorded job must run again (one line), or None when it need not."""
        for name, (filename, sha) in job.get("templates", {}).items():
            now = self.template(name)
            if now != filename:
                return f"template {name} now comes from {self.shown(now)}"
            if filename is not None and self.file_sha(filename) != sha:
                return f"{self.shown(filename)} changed"
        for path, sha in job.get("files", {}).items():
            if self.file_sha(path) != sha:
                there = os.path.exists(path.rstrip(os.sep))
                how = "created" if sha is None and there else "changed" if there else "removed"
                return f"{self.shown(path)} {how}"
        for other, digest in job.get("values", {}).items():
            if values.get(other) != digest:
                return f"{other} changed"
        for stage, seen in job.get("json", {}).items():
            why = self._json(stage, seen)
            if why:
                return why
        return None

    def _json(self, stage: str, seen: dict[str, Any]) -> str | None:
        from site_builder.jsonio import stage_path

        slug, _, name = stage.partition("/")
        path = str(stage_path(self.root, slug, name))
        if self.file_sha(path) == seen["sha"]:
            return None
        try:
            data = self.data(stage)
        except KeyError:
            return f"content/{stage}.json removed"
        for kind, key, digest in seen["obs"]:
            try:
                value = _lookup(data, key)
            except (KeyError, IndexError, ValueError, TypeError):
                return f"content/{stage}.json: key {key.partition('.')[2]} removed"
            if deps.observation_digest(kind, value) != digest:
                return f"content/{stage}.json: key {key.partition('.')[2]} changed"
        return None

    def shown(self, path: str | None) -> str:
        if path is None:
            return "nowhere"
        try:
            return Path(path).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            from site_builder.sources import THEME

            try:
                return "theme:" + Path(path).resolve().relative_to(THEME).as_posix()
            except ValueError:
                return path


def _lookup(data: Any, key: str) -> Any:
    """The value at ``key`` (``slug/stage.a.0.b``, or ``...:key`` for a loop's keys) in
    one stage's data."""
    _, _, rest = key.partition(".")
    if not rest:
        return data
    v = data
    for part in rest.split("."):
        part = part.removesuffix(":key")
        v = v[int(part)] if isinstance(v, list) else v[part]
    return v


def observations(rec: deps.Recorder) -> dict[str, list[list[str]]]:
    """The recorder's JSON reads by stage file: [kind, key path, digest], sorted; a read
    below a value already read whole is left out (the whole covers it)."""
    by_stage: dict[str, dict[tuple[str, str], Any]] = {}
    for (kind, path), value in rec.json.items():
        if path.endswith(":key"):
            continue  # a dict key handed to a loop: its parent's shape records it
        stage = path.partition(".")[0]
        by_stage.setdefault(stage, {})[kind, path] = value
    out: dict[str, list[list[str]]] = {}
    for stage, seen in by_stage.items():
        whole = {p for (k, p) in seen if k == "v"}
        rows = []
        for (kind, path), value in sorted(seen.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            if kind == "k" and path in whole:
                continue
            parent, covered = path, False
            while "." in parent:
                parent = parent.rpartition(".")[0]
                if parent in whole:
                    covered = True
                    break
            if not covered:
                rows.append([kind, path, deps.observation_digest(kind, value)])
        out[stage] = rows
    return out


# ---------------------------------------------------------------- writing


def _bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def write_file(out: Path, rel: str, data: bytes) -> None:
    dest = out / rel
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.is_dir() and not dest.is_symlink():
        shutil.rmtree(dest)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------- the switch
#
# An incremental build's writes never go into dist/ one by one. The files whose bytes
# changed are first written into a stage folder beside it (``.dist.stage``, same file
# system, never inside dist/); a full disk or a kill there leaves dist/ and its record as
# they were, and the next build, still incremental, needs only the changed files' space
# again. Then one journal file (``.dist.switch.json``, written whole and renamed into
# place: the commit point) lists the files to move in, the files to remove and the new
# render record; then the moves and removals run and the journal goes. A build, the
# preview or a check that finds a journal finishes the switch first (``finish_switch``),
# so dist/ is all old (no journal yet) or all new (the journal finished), never mixed.


_FAULT = os.environ.get("BUILD_SITE_FAULT", "")  # tests only: "kill:N" or "full:N"
_STEPS = [0]


def _step() -> None:
    """One step of the write phase (a file staged, the journal, a file moved or
    removed). ``BUILD_SITE_FAULT=kill:N`` kills the process at step N as ``kill -9``
    would, ``full:N`` fails step N as a full disk does: the tests' way to stop a build
    at every point of its write phase."""
    if not _FAULT:
        return
    _STEPS[0] += 1
    kind, _, n = _FAULT.partition(":")
    if n.isdigit() and _STEPS[0] == int(n):
        if kind == "kill":
            import signal

            os.kill(os.getpid(), signal.SIGKILL)
        if kind == "full":
            import errno

            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def stage_dir(out: Path) -> Path:
    return out.parent / f".{out.name}.stage"


def journal_path(out: Path) -> Path:
    return out.parent / f".{out.name}.switch.json"


def stage_files(out: Path, writes: dict[str, bytes]) -> dict[str, list[int]]:
    """Write ``writes`` into the stage folder (emptied first); returns each staged file's
    [size, mtime_ns], which a rename into dist/ keeps. On any error the stage folder is
    removed and the error raised: dist/ is untouched."""
    stage = stage_dir(out)
    shutil.rmtree(stage, ignore_errors=True)
    stats: dict[str, list[int]] = {}
    try:
        for rel, data in writes.items():
            dest = stage / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            _step()
            with open(dest, "wb") as f:
                f.write(data)
            st = os.stat(dest)
            stats[rel] = [st.st_size, st.st_mtime_ns]
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return stats


def commit_switch(out: Path, moves: list[str], removes: list[str], rec_path: Path,
                  record: dict[str, Any]) -> None:
    """The commit point: the journal written whole, then renamed into place. From here
    on the switch is done, by this build or by the next one (``finish_switch``)."""
    path = journal_path(out)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    doc = {"version": VERSION, "moves": moves, "removes": removes,
           "record_path": str(rec_path), "record": record}
    try:
        tmp.write_text(json.dumps(doc, separators=(",", ":"), ensure_ascii=False),
                       encoding="utf-8")
        _step()
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        shutil.rmtree(stage_dir(out), ignore_errors=True)
        raise


def finish_switch(out: Path) -> bool:
    """Finish a switch whose journal is there (a build killed after its commit point),
    or throw away a stage folder without one (killed before it). True when a switch was
    finished. Each step can run again: a file already moved is not in the stage folder."""
    path = journal_path(out)
    stage = stage_dir(out)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if stage.exists():
            shutil.rmtree(stage, ignore_errors=True)
        return False
    except (OSError, ValueError):
        doc = None
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        # not written whole cannot be (it is renamed into place): another version's
        path.unlink(missing_ok=True)
        shutil.rmtree(stage, ignore_errors=True)
        return False
    for rel in doc["moves"]:
        src = stage / rel
        if not src.exists():
            continue  # moved before the kill
        dest = out / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if dest.is_dir() and not dest.is_symlink():
            shutil.rmtree(dest)
        _step()
        os.replace(src, dest)
    for rel in doc["removes"]:
        _step()
        remove_file(out, rel)
    save_record(Path(doc["record_path"]), doc["record"])
    path.unlink(missing_ok=True)
    shutil.rmtree(stage, ignore_errors=True)
    return True


def remove_file(out: Path, rel: str) -> None:
    p = out / rel
    try:
        p.unlink()
    except FileNotFoundError:
        return
    parent = p.parent
    while parent != out:
        try:
            parent.rmdir()  # only when empty
        except OSError:
            break
        parent = parent.parent


def stat_of(path: Path) -> list[int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


__all__ = ["Inputs", "Job", "Outcome", "build_state", "code_files", "commit_switch",
           "finish_switch", "for_site", "inputs_state", "journal_path", "load_record",
           "locked", "observations", "record_path", "remove_file", "save_record",
           "sha_bytes", "stage_dir", "stage_files", "stat_of", "write_file"]
