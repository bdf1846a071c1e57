"""The solve runtime as the build ships it (issue 42): the cut-down standard library
carries every module the solvers import (each solvers module imported from it, a bank
board of every puzzle solved, explained and helped, and python-sat installed and used,
in the pinned Pyodide under Node); every runtime file has a content-hashed name and its
.br/.gz decompress to it. The page side is tests/test_visitor_solve.py."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

from site_builder import runtime
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent

_RUN = r"""
import { readFileSync, writeFileSync } from "node:fs";
const [pkg, stdlib, app, wheel, boards] = process.argv.slice(2);
const { loadPyodide } = await import(pkg + "/pyodide.mjs");
const py = await loadPyodide({ indexURL: pkg + "/", stdLibURL: stdlib,
  stdout: () => {}, stderr: () => {},
  fsInit: (FS) => { FS.mkdir("/app"); FS.writeFile("/app/solvers.zip", readFileSync(app)); } });
py.globals.set("BOARDS", readFileSync(boards, "utf8"));
const out = {};
py.runPython(`
import importlib, json, sys, zipfile
sys.path.insert(0, "/app/solvers.zip")
failed = []
for name in zipfile.ZipFile("/app/solvers.zip").namelist():
    mod = name.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
    try:
        importlib.import_module(mod)
    except ImportError as e:
        if e.name and e.name.partition(".")[0] in ("pysat", "numpy"):
            continue   # the wheel, installed below; numpy: never on the solve path
        failed.append(f"{mod}: {e!r}")
    except Exception as e:
        failed.append(f"{mod}: {e!r}")
from site_builder import solve_web
got = {}
for slug, url in json.loads(BOARDS).items():
    r = json.loads(solve_web.solve_json(slug, url, 60, 0, True, None, "", False))
    t = json.loads(solve_web.trace_json()) if r.get("ok") and r["result"]["solutions"] == 1 else None
    h = solve_web.help_text(slug, url, budget=5)
    got[slug] = [r.get("ok"), r.get("result", {}).get("solutions"), bool(t), h.get("solutions")]
OUT = json.dumps({"failed": failed, "got": got})
`);
out.first = JSON.parse(py.globals.get("OUT"));
await py.loadPackage([wheel], { messageCallback: () => {}, errorCallback: () => {} });
py.runPython(`
import json
from pysat.solvers import Solver
with Solver(name="minisat22", bootstrap_with=[[1, 2], [-1], [-2, 3]]) as s:
    OUT = json.dumps({"sat": s.solve(), "model": s.get_model()})
`);
out.sat = JSON.parse(py.globals.get("OUT"));
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def shipped():
    try:
        files, cfg = runtime.site_files(ROOT)
    except runtime.RuntimeMissing as e:
        pytest.fail(f"the solve runtime is missing ({e})")
    if not cfg.get("available") or not cfg.get("bytecode"):
        pytest.fail(f"no runtime or no bytecode: {cfg.get('reason')}")
    return files, cfg


def test_every_solver_module_imports_and_every_puzzle_solves_from_the_cut_down_stdlib(
        shipped, tmp_path):
    node = shutil.which("node")
    assert node, "node is needed for the runtime's bytecode, so it is here"
    files, cfg = shipped
    (tmp_path / "run.mjs").write_text(_RUN)
    (tmp_path / "stdlib.zip").write_bytes(files[cfg["stdlib"]])
    (tmp_path / "app.zip").write_bytes(files[cfg["zip"]])
    whl = cfg["wheels"][0]
    (tmp_path / whl.rsplit("/", 1)[1]).write_bytes(files[whl])
    boards = {}
    for slug in registry.slugs():
        bank = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]
        boards[slug] = bank["boards"][0]["url"]
    (tmp_path / "boards.json").write_text(json.dumps(boards))
    pkg = (runtime.HOME / runtime.CACHE / "npm/node_modules/pyodide").resolve()
    r = subprocess.run([node, str(tmp_path / "run.mjs"), str(pkg), str(tmp_path / "stdlib.zip"),
                        str(tmp_path / "app.zip"), str(tmp_path / whl.rsplit("/", 1)[1]),
                        str(tmp_path / "boards.json")],
                       capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["first"]["failed"] == []
    assert out["first"]["got"] == {s: [True, 1, True, 1] for s in boards}
    assert out["sat"] == {"sat": True, "model": [-1, 2, 3]}
    # and it is the cut-down one: well under half the full library's files
    full = runtime.files(ROOT)[f"{runtime.OUT}/pyodide-{runtime.pyodide_version(ROOT)}/"
                               "python_stdlib.zip"]
    n_cut = len(zipfile.ZipFile(BytesIO(files[cfg["stdlib"]])).namelist())
    assert n_cut < 0.5 * len(zipfile.ZipFile(BytesIO(full)).namelist())


def test_runtime_files_are_named_by_content_and_precompressed(shipped):
    import brotli

    files, cfg = shipped
    runtime_files = [k for k in files if k.startswith(runtime.OUT + "/")
                     and not k.endswith((".br", ".gz"))]
    folders = {k.rsplit("/", 1)[0] for k in runtime_files} - {runtime.OUT}
    assert {f.rsplit("/", 1)[1].rsplit("-", 1)[0] for f in folders} == {
        f"pyodide-{runtime.pyodide_version(ROOT)}", "wheels"}
    for folder in folders:   # a folder's name: the hash of its files' names and bytes
        keys = sorted(k for k in runtime_files if k.rsplit("/", 1)[0] == folder)
        h = hashlib.sha256()
        for k in keys:
            h.update(k.rsplit("/", 1)[1].encode() + b"\0"
                     + hashlib.sha256(files[k]).hexdigest().encode())
        assert folder.endswith("-" + h.hexdigest()[:12])
    for k in (cfg["stdlib"], cfg["zip"]):
        assert k.endswith("-" + hashlib.sha256(files[k]).hexdigest()[:12] + ".zip")
    big = [k for k in runtime_files if len(files[k]) >= 4096 and not k.endswith(".whl")]
    assert any(k.endswith("pyodide.asm.wasm") for k in big)
    for k in big:
        assert gzip.decompress(files[k + ".gz"]) == files[k], k
        assert brotli.decompress(files[k + ".br"]) == files[k], k
    # what a first visit that needs no SAT loads, brotli'd: under the 5 MB
    first = [k for k in big if not k.endswith(".whl")]
    assert sum(len(files[k + ".br"]) for k in first) < 5_000_000
