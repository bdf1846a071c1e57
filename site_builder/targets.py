"""Which folders the tool may write a site into, and what in them it may delete.

The rule, for ``build --out`` and ``deploy --dir`` alike:

- never a folder that overlaps what the tool is made of or reads (``tool_folders``: the
  site's ``content/`` and ``templates/``, every installed puzzle's package, the
  ``solvers`` kit, the ``site_builder`` package with its theme);
- an absent or empty folder is taken; a folder that holds anything is taken only when a
  build's manifest there is trusted (``trusted``): its ``.build.json`` parses, lists
  files, and the sha256 of every file it lists matches the file, or (``build`` only) the
  tool's own note of the last build into that very folder (``remember``) names files
  that are there with those bytes. Anything else is refused in one line naming what the folder holds;
- in a trusted folder, a file that no manifest names (put there by hand) is removed by
  the build that writes the folder's new manifest, and said in one line (``strays``).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from site_builder.buildinfo import BUILD_INFO, file_sha256
from site_builder.errors import UserError

KEEP = (".git",)  # a pages checkout's repository, at the top of a folder, is never touched


def tool_folders(root: Path | None = None) -> list[Path]:
    """The folders no site may be written into: the site's ``content/`` and
    ``templates/`` (with ``root``), every installed puzzle's package, the ``solvers``
    kit and ``site_builder`` (its theme, its puzzle template) as installed."""
    import site_builder
    import solvers
    from solvers import registry

    out = [] if root is None else [root / "content", root / "templates"]
    out += [Path(solvers.__file__).parent, Path(site_builder.__file__).parent]
    for slug, entry in registry.entries().items():
        try:
            out.append(Path(registry.get(slug).package_dir))
        except Exception:  # noqa: BLE001 - a broken plugin: its folder, found without it
            import importlib.util

            try:
                spec = importlib.util.find_spec(entry.package.strip())
            except (ImportError, ValueError):
                spec = None
            if spec is not None and spec.submodule_search_locations:
                out += [Path(p) for p in spec.submodule_search_locations]
    return [p.resolve() for p in out]


def overlapping_tool_folder(path: Path, root: Path | None = None) -> Path | None:
    """The tool folder ``path`` lies in or holds, or None."""
    path = path.resolve()
    for d in tool_folders(root):
        if path.is_relative_to(d) or d.is_relative_to(path):
            return d
    return None


def enclosing_site(path: Path) -> Path | None:
    """The site folder (with a ``site.toml``) at or above ``path``, or None."""
    from site_builder.config import SITE_FILE

    for d in (path.resolve(), *path.resolve().parents):
        if (d / SITE_FILE).is_file():
            return d
    return None


def refuse_tool_folder(path: Path, what: str, root: Path | None = None,
                       tail: str = "") -> None:
    """A UserError when ``path`` overlaps a tool folder (with the ``content/`` and
    ``templates/`` of ``root``, else of the site ``path`` lies in): ``what`` names the
    option."""
    d = overlapping_tool_folder(path, root or enclosing_site(path))
    if d is not None:
        raise UserError(f"{what} {path.resolve()}: it overlaps {d}, which the tool is made "
                        f"of or reads; nothing was written{tail}")


def _files(folder: Path) -> list[str]:
    """Every entry under ``folder`` that is not a folder, as a ``/`` path (a top-level
    ``.git`` skipped)."""
    out = []
    for here, dirs, files in os.walk(folder):
        if Path(here) == folder:
            dirs[:] = [d for d in dirs if d not in KEEP]
        rel = Path(here).relative_to(folder)
        out += [(rel / f).as_posix() for f in files]
        out += [(rel / d).as_posix() for d in dirs if (Path(here) / d).is_symlink()]
    return sorted(out)


def read_manifest(folder: Path) -> dict[str, str] | None:
    """The ``manifest`` (dist path -> sha256) of ``folder``'s ``.build.json``, or None
    when there is none, or it is not a regular file or does not parse as one."""
    path = folder / BUILD_INFO
    if path.is_symlink() or not path.is_file():
        return None
    try:
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    man = doc.get("manifest") if isinstance(doc, dict) else None
    if not isinstance(man, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                            for k, v in man.items()):
        return None
    return man


def _matches(folder: Path, rel: str, sha: str, sha_of: Any) -> bool:
    p = folder / rel
    if ".." in Path(rel).parts or Path(rel).is_absolute() or p.is_symlink() or not p.is_file():
        return False
    return bool(sha_of(p) == sha)


def _note_path(root: Path, folder: Path) -> Path:
    name = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]
    return root / ".cache" / "targets" / f"{name}.json"


def remember(root: Path, folder: Path) -> None:
    """Note, in the site's ``.cache``, the manifest the build just wrote into ``folder``:
    the build may repair that folder later even when its ``.build.json`` is spoilt."""
    man = read_manifest(folder)
    if man is None:
        return
    from site_builder.jsonio import write_atomic

    try:
        path = _note_path(root, folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps({"folder": str(folder.resolve()), "manifest": man},
                                      sort_keys=True).encode())
    except OSError:
        pass  # a speed-up of repairs only; the build stands without it


def _noted(root: Path, folder: Path) -> dict[str, str] | None:
    try:
        doc = json.loads(_note_path(root, folder).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("folder") != str(folder.resolve()):
        return None
    man = doc.get("manifest")
    return man if isinstance(man, dict) else None


def trusted(folder: Path, root: Path | None = None, sha_of: Any = file_sha256
            ) -> tuple[bool, str]:
    """Whether ``folder`` (a folder that holds something) is a build's output the tool
    may replace, and, when not, why (a clause for a one-line message)."""
    man = read_manifest(folder)
    info = folder / BUILD_INFO
    if man is not None and not man:
        why = f"its {BUILD_INFO} lists no file (a build lists every file it wrote)"
    elif man is not None:
        bad = [rel for rel, sha in man.items() if not _matches(folder, rel, sha, sha_of)]
        if not bad:
            return True, ""
        why = (f"its {BUILD_INFO} lists {len(man)} file(s) but {len(bad)} of them "
               f"({', '.join(sorted(bad)[:3])}{', ...' if len(bad) > 3 else ''}) are "
               "missing or hold other bytes")
    elif info.is_symlink() or info.exists():
        kind = "a folder" if info.is_dir() and not info.is_symlink() else "not a build's manifest"
        why = f"its {BUILD_INFO} is {kind}"
    else:
        entries = sorted(e.name for e in folder.iterdir() if e.name not in KEEP)
        shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
        why = f"it holds {len(entries)} entries ({shown}) and no {BUILD_INFO}"
    if root is not None:
        noted = _noted(root, folder)
        # (its .build.json may be a newer one than the note: a write phase stopped
        # half-way switches some files and not others, and the next build repairs it)
        if noted is not None and any(
                _matches(folder, rel, sha, sha_of) for rel, sha in noted.items()
                if rel != BUILD_INFO):
            return True, ""  # the tool's own build of this folder, its manifest spoilt
    return False, why


def check_target(folder: Path, what: str, root: Path | None = None,
                 sha_of: Any = file_sha256, tail: str = "") -> None:
    """Refuse, in one line, a target folder that holds something and is not trusted."""
    folder = folder.resolve()
    if not folder.is_dir():
        return
    if not any(e.name not in KEEP for e in folder.iterdir()):
        return
    ok, why = trusted(folder, root, sha_of)
    if not ok:
        raise UserError(f"{what} {folder}: {why}, so no build made it, and what no build "
                        f"wrote is never deleted; nothing was written{tail}")


def strays(folder: Path, manifest: Iterable[str]) -> list[str]:
    """The files in ``folder`` that ``manifest`` does not name (nor ``.build.json``)."""
    keep = {*manifest, BUILD_INFO}
    return [rel for rel in _files(folder) if rel not in keep]


def remove_strays(folder: Path) -> list[str]:
    """Remove the files of ``folder`` that its (just written, trusted) manifest does not
    name, and the folders they leave empty; returns what was removed."""
    man = read_manifest(folder)
    if man is None:
        return []
    gone = strays(folder, man)
    for rel in gone:
        try:
            (folder / rel).unlink()
        except IsADirectoryError:
            pass
        except OSError as e:
            raise UserError(f"{folder / rel}: a file no build wrote, and it cannot be "
                            f"removed ({e.strerror or e}); remove it by hand") from None
    keep_dirs = {Path(rel).parent for rel in man} | {Path(".")}
    for here, _dirs, _names in os.walk(folder, topdown=False):
        rel = Path(here).relative_to(folder)
        if rel.parts and rel.parts[0] in KEEP:
            continue
        if not any(k == rel or k.is_relative_to(rel) for k in keep_dirs):
            try:
                os.rmdir(here)
                gone.append(rel.as_posix() + "/")
            except OSError:
                pass
    return gone
