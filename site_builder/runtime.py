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

The fetch then makes what every site's first build would make from the same bytes
(``prepare``): the runtime and the installed puzzles' zips compiled and compressed into
``.cache/pyc/`` and ``.cache/compressed/`` beside the runtime, keyed by content, so a new
site's first build finds them and only renders.

Without npm or a network the fetch says so in one line and the rest of the site builds;
the solve pages then say that the solver is not available.

Byte-compiled: Pyodide's ``python_stdlib.zip`` holds source only, so every start compiled
the ~130 standard modules the interpreter and the solvers import (most of the runtime's
start). ``compiled`` runs the pinned Pyodide itself once in Node (the
runtime's own CPython 3.14, so the bytecode matches it exactly) and ships those modules and
the whole of ``solvers.zip`` as unchecked hash-based ``.pyc`` (the rest of the standard
library stays source, compiled on first import as before). The result is cached under
``.cache/pyc/`` by the hash of its inputs; without Node the source zips are shipped, as
before, and the build says so in one line.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

# committed, inside the package: package.json, package-lock.json, wheels.txt
PINS = Path(__file__).resolve().parent / "pins"
CACHE = Path(".cache") / "runtime"    # under HOME (below): what the fetch brought
OUT = "static/runtime"                # in dist/
# The files of the npm package a page loads (the rest: type declarations, source maps,
# a console page, the full package index, which a page that loads its one wheel by URL
# does not need; the index is served cut down to its header).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK = "pyodide-lock.json"
# What the solve path imports from site_builder (nothing heavier: no jinja2, no numpy).
# The folder this code runs from: a checkout (with its pyproject.toml) or site-packages.
SOURCE = Path(__file__).resolve().parent.parent


def _home() -> Path:
    """Where the fetched runtime is kept (``HOME / CACHE``): ``$BUILD_SITE_CACHE``, else
    the checkout this code runs from, else the user's cache folder; never an installed
    package's folder."""
    env = os.environ.get("BUILD_SITE_CACHE")
    if env:
        return Path(env)
    if (SOURCE / "pyproject.toml").is_file() and (SOURCE / "site_builder").is_dir():
        return SOURCE
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "build-site"


HOME = _home()
APP_MODULES = ("site_builder/__init__.py", "site_builder/errors.py", "site_builder/solve.py",
               "site_builder/solve_web.py")


# how to fetch the runtime, said the same way for a checkout and a pip-installed tool (whose
# users have no scripts/ folder)
FETCH = "run `python -m site_builder.runtime`, which needs npm and the npm registry"


class RuntimeMissing(Exception):
    """The runtime is not in the cache (or does not match its pins): one line saying why."""


def pyodide_version(root: Path | None = None) -> str:
    lock = json.loads((PINS / "package-lock.json").read_text())
    return str(lock["packages"]["node_modules/pyodide"]["version"])


def wheel_pins(root: Path | None = None) -> list[tuple[str, str, str]]:
    """(name, version, sha256) of every wheel in wheels.txt."""
    pins = []
    for line in (PINS / "wheels.txt").read_text().splitlines():
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
        shutil.copyfile(PINS / name, pkg / name)
    _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], pkg)
    info = json.loads((pkg / "node_modules/pyodide" / LOCK).read_text())["info"]
    major, minor = info["python"].split(".")[:2]
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
          "--only-binary=:all:", "--require-hashes", "-r", str(PINS / "wheels.txt"),
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
        raise RuntimeMissing(f"no Pyodide in {CACHE} ({FETCH})")
    got = json.loads(meta.read_text()).get("version")
    if got != version:
        raise RuntimeMissing(f"{CACHE} holds Pyodide {got}, the pins say {version} "
                             f"({FETCH})")
    base = f"{OUT}/pyodide-{version}"
    out: dict[str, bytes] = {}
    for name in PYODIDE_FILES:
        if not (pkg / name).is_file():
            raise RuntimeMissing(f"{CACHE}: Pyodide has no {name} ({FETCH})")
        out[f"{base}/{name}"] = (pkg / name).read_bytes()
    lock = json.loads((pkg / LOCK).read_text())
    out[f"{base}/{LOCK}"] = (json.dumps({"info": lock["info"], "packages": {}},
                                        sort_keys=True) + "\n").encode()
    for name, ver, digest in wheel_pins(root):
        whl = _wheel_file(cache / "wheels", name, ver)
        if whl is None:
            raise RuntimeMissing(f"no {name} {ver} wheel in {CACHE}/wheels ({FETCH})")
        data = whl.read_bytes()
        if _sha256(data) != digest:
            raise RuntimeMissing(f"{whl}: sha256 differs from its pin in {PINS / 'wheels.txt'}")
        out[f"{OUT}/{whl.name}"] = data
    return out


def app_zip(root: Path | None = None, slugs: tuple[str, ...] | None = None) -> bytes:
    """The ``solvers`` package, the packages of the puzzles ``slugs`` (default: every one
    installed) that live outside it, the solve path's site_builder modules and the
    registry's table of those puzzles (the zip has no package metadata) as one zip,
    byte-identical for the same sources (fixed dates, sorted names)."""
    import solvers
    from solvers import registry

    slugs = tuple(registry.slugs()) if slugs is None else slugs
    packages = [Path(registry.get(s).package_dir) for s in slugs]
    here = Path(solvers.__file__).resolve().parent
    sources = {f"solvers/{p.relative_to(here).as_posix()}": p for p in here.rglob("*.py")}
    for pkg in packages:
        pkg = pkg.resolve()
        if pkg == here or here in pkg.parents:
            continue
        sources.update({f"{pkg.name}/{p.relative_to(pkg).as_posix()}": p
                        for p in pkg.rglob("*.py")})
    sources.update({name: SOURCE / name for name in APP_MODULES})
    sources.pop("solvers/_found.py", None)
    texts = {name: p.read_bytes() for name, p in sources.items() if "__pycache__" not in name}
    texts["solvers/_found.py"] = registry.frozen(list(slugs)).encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(texts):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, texts[name])
    return buf.getvalue()


_warned: set[str] = set()


def site_files(root: Path, slugs: tuple[str, ...] | None = None) -> tuple[dict[str, bytes], dict[str, Any]]:
    """What every solve page shares: the runtime (when fetched), ``solvers.zip``, and the
    config the page's script needs to find them (``available`` False without a runtime,
    with the reason; the build says it once, in one line)."""
    out: dict[str, bytes] = {f"{OUT}/solvers.zip": app_zip(root, slugs)}
    version = pyodide_version(root)
    try:
        out.update(files(root))
    except RuntimeMissing as e:
        if str(e) not in _warned:
            _warned.add(str(e))
            print(f"build-site: solve pages without a solver: {e}", file=sys.stderr)
        app = out.pop(f"{OUT}/solvers.zip")
        return {_named("solvers", app): app}, {"available": False, "reason": str(e)}
    wheels = sorted(k.rsplit("/", 1)[1] for k in out if k.endswith(".whl"))
    modules = sorted({m for w in wheels for m in wheel_modules(out[f"{OUT}/{w}"])})
    imported = wheel_imports(out[f"{OUT}/solvers.zip"], modules)  # from the sources
    stdlib = f"{OUT}/pyodide-{version}/python_stdlib.zip"
    try:
        out[stdlib], out[f"{OUT}/solvers.zip"] = compiled(
            root, out[stdlib], out[f"{OUT}/solvers.zip"],
            {w: out[f"{OUT}/{w}"] for w in wheels}, imported)
        bytecode = True
    except RuntimeMissing as e:
        if str(e) not in _warned:
            _warned.add(str(e))
            print(f"build-site: solve pages start slower (source, not bytecode): {e}",
                  file=sys.stderr)
        bytecode = False
    # every runtime file's name says what it holds: the two zips' hash in theirs, and
    # Pyodide's files (whose names its loader fixes) and the wheels in a folder named by
    # the hash of its files; so a browser may keep them for a year (serve.cache_control)
    named = {}
    for key, stem in ((stdlib, "python_stdlib"), (f"{OUT}/solvers.zip", "solvers")):
        data = out.pop(key)
        named[stem] = _named(stem, data)
        out[named[stem]] = data
    folder = f"{OUT}/pyodide-{version}/"
    pyodide_dir = _hashed_folder(out, folder, f"{OUT}/pyodide-{version}-")
    wheel_dir = _hashed_folder(out, f"{OUT}/", f"{OUT}/wheels-",
                               [f"{OUT}/{w}" for w in wheels])
    out.update(precompressed(root, out))
    return out, {"available": True, "pyodide": pyodide_dir,
                 "stdlib": named["python_stdlib"], "zip": named["solvers"],
                 "wheels": [f"{wheel_dir}{w}" for w in wheels], "onDemand": True,
                 "bytecode": bytecode, "modules": modules, "imports": imported}


def _hashed_folder(out: dict[str, bytes], folder: str, stem: str,
                   keys: list[str] | None = None) -> str:
    """Move the files ``keys`` (default: every file right in ``folder``) of ``out`` into
    the folder ``stem`` + the first 12 hex digits of the hash of their names and bytes;
    returns that folder (with its slash)."""
    keys = sorted(keys if keys is not None else
                  [k for k in out if k.startswith(folder) and "/" not in k[len(folder):]])
    h = hashlib.sha256()
    for k in keys:
        h.update(k[len(folder):].encode() + b"\0" + _sha256(out[k]).encode())
    to = f"{stem}{h.hexdigest()[:12]}/"
    for k in keys:
        out[to + k[len(folder):]] = out.pop(k)
    return to


ZIP_CACHE = Path(".cache") / "compressed"
_COMPRESS = 4096   # files smaller than this go as they are
_WORTH = 0.95      # a compressed copy larger than this share of the file is not written


def precompressed(root: Path, files: dict[str, bytes]) -> dict[str, bytes]:
    """``NAME.br`` (brotli, quality 11; when the ``brotli`` package is there) and
    ``NAME.gz`` (gzip -9, no name or date in its header) beside each of ``files`` of at
    least 4 KiB, for a host that sends a precompressed file to a browser that takes it.
    Made once per content, kept under ``.cache/compressed/`` by its hash."""
    import gzip

    try:
        import brotli  # type: ignore[import-untyped, import-not-found, unused-ignore]
    except ImportError:   # gzip only; the build says so once
        brotli = None
        if "brotli" not in _warned:
            _warned.add("brotli")
            print("build-site: the runtime goes out gzipped only (pip install brotli for "
                  ".br files)", file=sys.stderr)
    cache = root / ZIP_CACHE
    out: dict[str, bytes] = {}
    for name, data in files.items():
        if len(data) < _COMPRESS:
            continue
        digest = _sha256(data)
        for ext, make in ((".gz", lambda d: gzip.compress(d, 9, mtime=0)),
                          (".br", None if brotli is None else
                           lambda d: brotli.compress(d, quality=11, lgwin=24))):
            if make is None:
                continue
            kept = cache / f"{digest}{ext}"
            if kept.is_file():
                # the rule applied to what was kept too, so that the output never
                # depends on what an older build left in the cache
                if 0 < kept.stat().st_size <= _WORTH * len(data):
                    out[name + ext] = kept.read_bytes()
                continue
            got = make(data)
            if len(got) > _WORTH * len(data):   # (a wheel, deflated already): not worth it
                got = b""
            cache.mkdir(parents=True, exist_ok=True)
            tmp = kept.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(got)
            os.replace(tmp, kept)
            if got:
                out[name + ext] = got
    return out


def _named(stem: str, data: bytes) -> str:
    """The dist path of a zip named by its content (so a browser may keep it for good)."""
    return f"{OUT}/{stem}-{_sha256(data)[:12]}.zip"


# Run inside the pinned Pyodide (Node): argv is [in stdlib zip, in app zip, out stdlib zip,
# out app zip]; the wheels are installed first (compile.mjs), so what their install and
# their import pull in counts as used. Every module the interpreter's own start imports,
# and every one importing each module of the app pulls in, goes into the stdlib zip as
# .pyc (its source left out); every app module too. The rest of the standard library is
# left out, except what those modules (and the app's) import anywhere in their text, a
# function's body included, followed to its end: that stays source, compiled if ever
# imported. Unchecked hash-based pycs (PEP 552): zipimport loads them without a source
# or a date to compare; the entries are stored, not deflated (the host's brotli or gzip
# then compresses across files, and zipimport reads them without inflating); sorted
# names and fixed dates make the zips reproducible.
_COMPILE_PY = r"""
import ast, importlib, importlib.machinery, importlib.util, io, marshal, os, sys, zipfile

src_stdlib, src_app, out_stdlib, out_app = ARGS
lib = next(p for p in sys.path if p.endswith(".zip"))
app = "/app/solvers.zip"

def loaded():
    got = set()
    for m in list(sys.modules.values()):
        origin = getattr(getattr(m, "__spec__", None), "origin", None) or ""
        if origin.startswith(lib + "/"):
            got.add(origin[len(lib) + 1:])
    return got

def pyc(data, filename):
    code = compile(data, filename, "exec", dont_inherit=True, optimize=0)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            + importlib.util.source_hash(data) + marshal.dumps(code))

def write(path, entries):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, data in sorted(entries.items()):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            if name.endswith("/"):
                info.external_attr = (0o40755 << 16) | 0x10
            else:
                info.external_attr = 0o644 << 16
            z.writestr(info, data)
    with open(path, "wb") as f:
        f.write(buf.getvalue())

def imports(name, data):
    # the modules a file names in its import statements, anywhere in it
    mod = name.rsplit(".", 1)[0].replace("/", ".")
    pkg = mod.removesuffix(".__init__") if mod.endswith(".__init__") else mod.rpartition(".")[0]
    try:
        tree = ast.parse(data)
    except SyntaxError:
        return set()
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".") if pkg else []
                parts = parts[:len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join([*parts, *([node.module] if node.module else [])])
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)   # a submodule, maybe
    return out

needed = loaded()
os.makedirs(os.path.dirname(app), exist_ok=True)
with open(src_app, "rb") as f, open(app, "wb") as g:
    g.write(f.read())
sys.path.insert(0, app)
app_sources = {}
with zipfile.ZipFile(app) as z:
    for name in sorted(z.namelist()):
        app_sources[name] = z.read(name)
for name in app_sources:
    if name.endswith(".py"):
        mod = name[:-3].replace("/", ".").removesuffix(".__init__")
        try:
            importlib.import_module(mod)
        except BaseException:  # numpy's module, not here: what came before counts
            pass
needed |= loaded()

with zipfile.ZipFile(src_stdlib) as z:
    source = {name: z.read(name) for name in z.namelist()}

def files_of(mod):
    # the module's file and its packages' __init__ files, those the zip has
    parts = mod.split(".")
    got = []
    for i in range(1, len(parts) + 1):
        stem = "/".join(parts[:i])
        for f in (stem + "/__init__.py", stem + ".py") if i < len(parts) else \
                (stem + ".py", stem + "/__init__.py"):
            if f in source:
                got.append(f)
                break
    return got

# never reached from a solve: the standard library's tools for people at a terminal, and
# the modules the interpreter has frozen in (their source is never read)
TOOLS = ("_pyrepl", "pdb", "bdb", "doctest", "unittest", "pydoc", "multiprocessing",
         "concurrent.interpreters", "http.server", "xmlrpc", "ftplib", "webbrowser",
         "socketserver", "tty", "cmd", "code", "codeop", "rlcompleter", "netrc",
         "tracemalloc", "py_compile", "ctypes", "pyodide._nodesock_transport")

def skipped(mod):
    if any(mod == t or mod.startswith(t + ".") for t in TOOLS):
        return True
    try:
        return importlib.machinery.FrozenImporter.find_spec(mod) is not None
    except Exception:
        return False

keep = set(needed)
todo = [n for n in needed] + [n for n in app_sources if n.endswith(".py")]
texts = {**source, **app_sources}
while todo:
    name = todo.pop()
    for mod in imports(name, texts[name]):
        if skipped(mod):
            continue
        for f in files_of(mod):
            if f not in keep:
                keep.add(f)
                todo.append(f)
# the codecs a text file may be opened with, looked up by name at run time
for enc in ("aliases", "ascii", "latin_1", "utf_8", "utf_8_sig", "utf_16", "utf_16_le",
            "utf_16_be", "utf_32", "utf_32_le", "utf_32_be", "cp437", "idna"):
    keep.update(f for f in (f"encodings/{enc}.py",) if f in source)
stdlib = {}
for name, data in source.items():
    if name.endswith("/") or name.startswith("site-packages/"):
        stdlib[name] = data
    elif name in needed and name.endswith(".py"):
        stdlib[name[:-3] + ".pyc"] = pyc(data, lib + "/" + name)
    elif name in keep:
        stdlib[name] = data
# a folder entry only where a file is kept in it
dirs = {n.rsplit("/", 1)[0] + "/" for n in stdlib if "/" in n.rstrip("/")}
stdlib = {n: d for n, d in stdlib.items() if not n.endswith("/") or n in dirs
          or n == "site-packages/"}
write(out_stdlib, stdlib)
write(out_app, {(n[:-3] + ".pyc" if n.endswith(".py") else n):
                (pyc(d, app + "/" + n) if n.endswith(".py") else d)
                for n, d in app_sources.items()})
"""

_COMPILE_JS = r"""
import { readFileSync, writeFileSync } from "node:fs";
const [pkg, script, wheels, imports, ...args] = process.argv.slice(2);
const { loadPyodide } = await import(pkg + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pkg + "/", stdout: () => {}, stderr: () => {} });
// the wheels in first, and imported: the modules their install and import use count too
const whl = JSON.parse(wheels);
if (whl.length) await py.loadPackage(whl, { messageCallback: () => {}, errorCallback: () => {} });
py.runPython(JSON.parse(imports).map((m) =>
  `try:\n    import ${m}\nexcept BaseException:\n    pass\n`).join(""));
for (const i of [0, 1]) py.FS.writeFile("/io" + i, readFileSync(args[i]));
py.globals.set("ARGS", ["/io0", "/io1", "/io2", "/io3"]);
try {
  py.runPython(readFileSync(script, "utf8"));
} catch (e) {  // one line: the exception's own (a Python traceback ends with it)
  console.error(String(e && e.message || e).trim().split("\n").pop());
  process.exit(1);
}
writeFileSync(args[2], py.FS.readFile("/io2"));
writeFileSync(args[3], py.FS.readFile("/io3"));
"""

PYC_CACHE = Path(".cache") / "pyc"
_KEEP = 4  # cached results kept (one per recent solvers/ state)


def compiled(root: Path, stdlib: bytes, app: bytes, wheels: dict[str, bytes] | None = None,
             imports: list[str] | None = None) -> tuple[bytes, bytes]:
    """``python_stdlib.zip`` cut down to what the solve path uses and ``solvers.zip``,
    with their start-up modules as bytecode (see _COMPILE_PY), from the cache or made
    with Node; ``wheels`` ({file name: bytes}) are installed and their modules
    ``imports`` imported first. Raises RuntimeMissing (one line) when Node is missing
    or the compile fails."""
    wheels = wheels or {}
    imports = imports or []
    key = _sha256(b"\0".join([pyodide_version(root).encode(), stdlib, app,
                               *(wheels[k] for k in sorted(wheels)), *map(str.encode, imports),
                               _COMPILE_PY.encode(), _COMPILE_JS.encode()]))[:20]
    cache = root / PYC_CACHE
    done = cache / key
    names = ("python_stdlib.zip", "solvers.zip")
    if all((done / n).is_file() for n in names):
        return (done / names[0]).read_bytes(), (done / names[1]).read_bytes()
    node = shutil.which("node")
    if node is None:
        raise RuntimeMissing("node is not installed, so the runtime's bytecode cannot be made")
    pkg = (root / CACHE / "npm" / "node_modules" / "pyodide").resolve()
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        t = Path(tmp)
        (t / "compile.py").write_text(_COMPILE_PY)
        (t / "compile.mjs").write_text(_COMPILE_JS)
        (t / "in_stdlib.zip").write_bytes(stdlib)
        (t / "in_app.zip").write_bytes(app)
        for name, data in wheels.items():
            (t / name).write_bytes(data)
        out = t / "out"
        out.mkdir()
        try:
            r = subprocess.run([node, str(t / "compile.mjs"), str(pkg), str(t / "compile.py"),
                                json.dumps([str(t / n) for n in sorted(wheels)]),
                                json.dumps(imports),
                                str(t / "in_stdlib.zip"), str(t / "in_app.zip"),
                                str(out / names[0]), str(out / names[1])],
                               check=False, capture_output=True, text=True, timeout=600)
        except subprocess.TimeoutExpired:
            raise RuntimeMissing("compiling the runtime's bytecode took over 600 s") from None
        if r.returncode != 0 or not all((out / n).is_file() for n in names):
            tail = (r.stderr or r.stdout).strip().splitlines()
            raise RuntimeMissing(f"compiling the runtime's bytecode failed: "
                                 f"{tail[-1][:300] if tail else r.returncode}")
        try:
            out.rename(done)
        except OSError:  # another build made it meanwhile
            if not all((done / n).is_file() for n in names):
                raise
    for old in sorted((p for p in cache.iterdir() if p.is_dir() and p != done
                       and not p.name.startswith("tmp")),
                      key=lambda p: p.stat().st_mtime)[:-(_KEEP - 1)]:
        shutil.rmtree(old, ignore_errors=True)
    os.utime(done)
    return (done / names[0]).read_bytes(), (done / names[1]).read_bytes()


def wheel_imports(app: bytes, modules: list[str]) -> list[str]:
    """The modules of the wheels (top-level names ``modules``) that the sources in the
    ``app`` zip import, as written there (``pysat.solvers`` for ``from pysat.solvers
    import Solver``), sorted: the worker imports them once the wheel is in, before a solve
    asks (a wheel's modules are source, compiled on their first import: over a second
    for python-sat's in the page)."""
    tops = set(modules)
    found: set[str] = set()
    with zipfile.ZipFile(io.BytesIO(app)) as z:
        for name in z.namelist():
            text = z.read(name)
            if not name.endswith(".py") or not any(t.encode() in text for t in tops):
                continue
            for node in ast.walk(ast.parse(text, name)):
                if isinstance(node, ast.Import):
                    got = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    got = [node.module]
                else:
                    continue
                found.update(m for m in got if m.partition(".")[0] in tops)
    return sorted(found)


def wheel_modules(data: bytes) -> list[str]:
    """The top-level modules a wheel installs (its ``top_level.txt``, else the names at
    the top of the archive): until the wheel is in, the worker makes a solve that imports
    one of them wait for it (site_builder.solve_web.defer)."""
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


def prepare(root: Path) -> str:
    """What every site's first build would otherwise make from the same bytes, made once
    here, beside the runtime (under ``root``): the runtime's files and the installed
    puzzles' ``solvers.zip`` and standard library compiled (``.cache/pyc/``) and
    compressed (``.cache/compressed/``, by content hash: once per runtime version and
    tool version, for every site on this machine). A site's first build then finds them
    (``site_files``) and only renders. Returns a line saying what it did."""
    files_, _cfg = site_files(root)
    made = sum(1 for name in files_ if name.endswith((".br", ".gz")))
    return f"solve runtime: {made} compressed files ready in {root / ZIP_CACHE}"


def main(argv: list[str] | None = None) -> int:
    root = HOME
    try:
        print(fetch(root), file=sys.stderr)
    except RuntimeMissing as e:
        print(f"build-site: solve pages without a solver: {e}", file=sys.stderr)
        # the rest of the site builds all the same
        return 0
    print(prepare(root), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
