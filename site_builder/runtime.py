"""The solve pages' runtime: Pyodide and its wheels, pinned, fetched once, served by the site.

``runtime/`` (committed) pins everything: ``package.json`` and ``package-lock.json`` for
the npm package ``pyodide`` (its whole runtime: the WebAssembly CPython, its JavaScript
loader and the standard library), ``wheels.txt`` for the wheels built for that Pyodide
(python-sat), each with its sha256. ``python -m site_builder.runtime`` (run by
``scripts/build`` and ``scripts/test``) fetches them into ``.cache/runtime/`` with the
ordinary clients (``npm ci``, ``pip download --require-hashes``); the build then copies
the few files a page loads into ``dist/static/runtime/``, once for every puzzle's page,
beside ``solvers.zip``, the ``solvers`` package and the site_builder modules the solve
path imports, zipped at build time. Nothing is fetched at view time.

Without npm or a network the fetch says so in one line and the rest of the site builds;
the solve pages then say that the solver is not available.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

PINS = "runtime"                      # committed: package.json, package-lock.json, wheels.txt
CACHE = Path(".cache") / "runtime"    # gitignored: what the fetch brought
OUT = "static/runtime"                # in dist/
# The files of the npm package a page loads (the rest: type declarations, source maps,
# a console page, the full package index, which a page that loads its one wheel by URL
# does not need; the index is served cut down to its header).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK = "pyodide-lock.json"
# What the solve path imports from site_builder (nothing heavier: no jinja2, no numpy).
# The checkout this code runs from: its runtime/ pins, its .cache/runtime and its sources.
SOURCE = Path(__file__).resolve().parent.parent
APP_MODULES = ("site_builder/__init__.py", "site_builder/errors.py", "site_builder/solve.py",
               "site_builder/solve_web.py")


class RuntimeMissing(Exception):
    """The runtime is not in the cache (or does not match its pins): one line saying why."""


def pyodide_version(root: Path) -> str:
    lock = json.loads((root / PINS / "package-lock.json").read_text())
    return str(lock["packages"]["node_modules/pyodide"]["version"])


def wheel_pins(root: Path) -> list[tuple[str, str, str]]:
    """(name, version, sha256) of every wheel in wheels.txt."""
    pins = []
    for line in (root / PINS / "wheels.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, _, digest = line.partition("--hash=sha256:")
        name, _, version = spec.strip().partition("==")
        pins.append((name.strip(), version.strip(), digest.strip()))
    return pins


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _run(cmd: list[str], cwd: Path | None = None) -> None:
    r = subprocess.run(cmd, check=False, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        tail = (r.stderr or r.stdout).strip().splitlines()
        raise RuntimeMissing(f"{' '.join(cmd[:3])} failed: {tail[-1] if tail else r.returncode}")


def fetch(root: Path) -> str:
    """Bring the pinned runtime into the cache (a no-op when it is there and matches);
    returns a line saying what it did. Raises RuntimeMissing with one line."""
    cache = root / CACHE
    try:
        files(root)
        return f"solve runtime: Pyodide {pyodide_version(root)} already in {CACHE}"
    except RuntimeMissing:
        pass
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeMissing("npm is not installed (apt-get install npm), so Pyodide "
                             "cannot be fetched")
    pkg = cache / "npm"
    pkg.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(root / PINS / name, pkg / name)
    _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], pkg)
    info = json.loads((pkg / "node_modules/pyodide" / LOCK).read_text())["info"]
    major, minor = info["python"].split(".")[:2]
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
          "--only-binary=:all:", "--require-hashes", "-r", str(root / PINS / "wheels.txt"),
          "--platform", f"pyemscripten_{info['abi_version']}_{info['arch']}",
          "--python-version", f"{major}.{minor}", "--implementation", "cp",
          "--abi", f"cp{major}{minor}", "-d", str(wheels)])
    files(root)  # proves the result against the pins
    return f"solve runtime: fetched Pyodide {pyodide_version(root)} into {CACHE}"


def _wheel_file(wheels: Path, name: str, version: str) -> Path | None:
    stem = f"{name.replace('-', '_')}-{version}-"
    got = sorted(p for p in wheels.glob("*.whl") if p.name.startswith(stem))
    return got[0] if got else None


def files(root: Path) -> dict[str, bytes]:
    """The runtime's files as dist-relative paths to bytes, from the cache, each checked
    against its pin. Raises RuntimeMissing (one line) when any is absent or differs."""
    cache = root / CACHE
    version = pyodide_version(root)
    pkg = cache / "npm" / "node_modules" / "pyodide"
    meta = pkg / "package.json"
    if not meta.is_file():
        raise RuntimeMissing(f"no Pyodide in {CACHE} (run scripts/build, which needs npm "
                             "and the npm registry)")
    got = json.loads(meta.read_text()).get("version")
    if got != version:
        raise RuntimeMissing(f"{CACHE} holds Pyodide {got}, the pins say {version} "
                             "(run scripts/build)")
    base = f"{OUT}/pyodide-{version}"
    out: dict[str, bytes] = {}
    for name in PYODIDE_FILES:
        if not (pkg / name).is_file():
            raise RuntimeMissing(f"{CACHE}: Pyodide has no {name} (run scripts/build)")
        out[f"{base}/{name}"] = (pkg / name).read_bytes()
    lock = json.loads((pkg / LOCK).read_text())
    out[f"{base}/{LOCK}"] = (json.dumps({"info": lock["info"], "packages": {}},
                                        sort_keys=True) + "\n").encode()
    for name, ver, digest in wheel_pins(root):
        whl = _wheel_file(cache / "wheels", name, ver)
        if whl is None:
            raise RuntimeMissing(f"no {name} {ver} wheel in {CACHE}/wheels (run scripts/build)")
        data = whl.read_bytes()
        if _sha256(data) != digest:
            raise RuntimeMissing(f"{whl}: sha256 differs from runtime/wheels.txt")
        out[f"{OUT}/{whl.name}"] = data
    return out


def app_zip(root: Path) -> bytes:
    """``solvers/`` and the solve path's site_builder modules as one zip, byte-identical
    for the same sources (fixed dates, sorted names)."""
    names = sorted(p.relative_to(root).as_posix() for p in (root / "solvers").rglob("*.py")
                   if "__pycache__" not in p.parts)
    names += list(APP_MODULES)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in names:
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, (root / name).read_bytes())
    return buf.getvalue()


_warned: set[str] = set()


def site_files(root: Path) -> tuple[dict[str, bytes], dict[str, Any]]:
    """What every solve page shares: the runtime (when fetched), ``solvers.zip``, and the
    config the page's script needs to find them (``available`` False without a runtime,
    with the reason; the build says it once, in one line)."""
    out: dict[str, bytes] = {f"{OUT}/solvers.zip": app_zip(root)}
    version = pyodide_version(root)
    try:
        out.update(files(root))
    except RuntimeMissing as e:
        if str(e) not in _warned:
            _warned.add(str(e))
            print(f"build-site: solve pages without a solver: {e}", file=sys.stderr)
        return out, {"available": False, "reason": str(e)}
    wheels = sorted(k.rsplit("/", 1)[1] for k in out if k.endswith(".whl"))
    return out, {"available": True, "pyodide": f"{OUT}/pyodide-{version}/",
                 "zip": f"{OUT}/solvers.zip", "wheels": [f"{OUT}/{w}" for w in wheels],
                 "modules": sorted({m for w in wheels for m in wheel_modules(out[f"{OUT}/{w}"])})}


def wheel_modules(data: bytes) -> list[str]:
    """The top-level modules a wheel installs (its ``top_level.txt``, else the names at
    the top of the archive): the worker installs the wheel only when a solve first
    imports one of them."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        top = [n for n in names if n.count("/") == 1 and n.endswith(".dist-info/top_level.txt")]
        if top:
            listed = z.read(top[0]).decode().split()
            return sorted(set(listed))
    found = set()
    for n in names:
        head = n.split("/", 1)[0]
        if head.endswith((".dist-info", ".data")):
            continue
        found.add(head.split(".", 1)[0])
    return sorted(found)


def main(argv: list[str] | None = None) -> int:
    root = SOURCE
    try:
        print(fetch(root), file=sys.stderr)
    except RuntimeMissing as e:
        print(f"build-site: solve pages without a solver: {e}", file=sys.stderr)
        # the rest of the site builds all the same
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
