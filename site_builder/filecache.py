"""Content hashes of files, kept on disk under the site's ``.cache/`` and keyed by stat.

A build asks for the hash of every file it depends on (solver sources for the stages'
code hashes, templates, JSON, static files). Reading and hashing them all on every build
is most of what "nothing changed" used to cost, so each file's hash is stored with the
file's size, modification time and inode; a file whose stat is unchanged is not read.
A file whose stat changed is read and hashed again (touching a file without changing it
costs one read). Values derived from a file's bytes (the imports of a Python module, its
code text's hash, a stage file's stored key) are kept beside it, keyed by the content
hash, so they survive a touch too.

A stat is trusted only once the file had been left alone for ``RACY_NS`` before it was
hashed: a file written twice within the file system's timestamp granularity (a few ms)
with the same size would otherwise keep the first write's hash ("racy git"). Such a
file is simply read again next time.

The cache is a pure speed-up: a missing, unreadable or corrupt cache file gives the same
results (a corrupt one is said once, in one line, and rewritten).
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
RACY_NS = 2_000_000_000  # a file changed less than 2 s before it was hashed is re-read


def sha_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FileCache:
    """Stat-keyed content hashes of files, plus values derived from their bytes."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.files: dict[str, list[Any]] = {}      # path -> [size, mtime_ns, ino, sha, trusted]
        self.derived: dict[str, dict[str, Any]] = {}  # kind -> {content sha -> value}
        self.dirty = False
        self.bytes: dict[str, bytes] = {}  # this process's reads, by content sha (optional)
        if path is not None:
            self._load()

    def _load(self) -> None:
        assert self.path is not None
        try:
            raw = self.path.read_text(encoding="utf-8")
        except OSError:
            return
        try:
            doc = json.loads(raw)
            if not isinstance(doc, dict) or doc.get("version") != VERSION:
                raise ValueError("unknown version")
            files, derived = doc["files"], doc["derived"]
            if not isinstance(files, dict) or not isinstance(derived, dict):
                raise TypeError("bad shape")
            self.files, self.derived = files, derived
        except (ValueError, KeyError, TypeError) as e:
            print(f"build-site: {self.path} was corrupt ({e}); ignored and rewritten "
                  "(it is only a cache)", file=sys.stderr)
            self.dirty = True

    def save(self) -> None:
        if self.path is None or not self.dirty:
            return
        doc = {"version": VERSION, "files": self.files, "derived": self.derived}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(doc, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.path)
            self.dirty = False
        except OSError:
            tmp.unlink(missing_ok=True)  # a read-only checkout: the cache stays in memory

    # -- hashes --------------------------------------------------------------------
    def sha(self, path: Path | str, keep: bool = False) -> str | None:
        """The sha256 of the file's bytes, or None when it is not a readable file.
        ``keep``: hold the bytes read in memory (``read`` then costs nothing)."""
        p = str(path)
        try:
            st = os.stat(p)
        except OSError:
            return None
        entry = self.files.get(p)
        if entry is not None and entry[4] and entry[0] == st.st_size \
                and entry[1] == st.st_mtime_ns and entry[2] == st.st_ino:
            return str(entry[3])
        try:
            with open(p, "rb") as f:
                data = f.read()
        except OSError:
            return None
        sha = sha_bytes(data)
        if keep:
            self.bytes[sha] = data
        trusted = time.time_ns() - st.st_mtime_ns > RACY_NS
        self.files[p] = [st.st_size, st.st_mtime_ns, st.st_ino, sha, trusted]
        self.dirty = True
        return sha

    def read(self, path: Path | str) -> tuple[str, bytes] | None:
        """(sha, bytes) of a file, from memory when this process already holds them."""
        sha = self.sha(path)
        if sha is None:
            return None
        data = self.bytes.get(sha)
        if data is None:
            try:
                data = Path(path).read_bytes()
            except OSError:
                return None
            sha = sha_bytes(data)
        return sha, data

    def get(self, kind: str, sha: str) -> Any:
        return self.derived.get(kind, {}).get(sha)

    def put(self, kind: str, sha: str, value: Any) -> None:
        table = self.derived.setdefault(kind, {})
        if table.get(sha) != value:
            table[sha] = value
            self.dirty = True

    def prune(self, kind: str, keep: set[str]) -> None:
        """Drop derived values of ``kind`` whose content is no longer any file's."""
        table = self.derived.get(kind, {})
        for k in [k for k in table if k not in keep]:
            del table[k]
            self.dirty = True


_CACHES: dict[str, FileCache] = {}


def for_site(root: Path) -> FileCache:
    """The one cache of a site in this process (``root/.cache/filehash.json``)."""
    key = str(Path(root).resolve())
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = FileCache(Path(key) / ".cache" / "filehash.json")
    return cache


def save_all() -> None:
    for cache in _CACHES.values():
        cache.save()
