"""The solve page's worker installs a wheel (python-sat) in the background once its
interpreter is up; until it is in, site_builder.solve_web.defer makes a solve that imports
it wait there for the install (where the browser can: solve_web._block), or else end
with WheelNeeded, and the worker asks again once the wheel is in. Here, in CPython: the
reply that asks for the wheel, the same answer once it is there as a solve that never
deferred, a solve that waits and goes on, and the modules a wheel names."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

from site_builder.runtime import wheel_modules

ROOT = Path(__file__).resolve().parent.parent

_SCRIPT = r"""
import json, sys
from site_builder import solve_web

def untimed(text):
    d = json.loads(text)
    if d.get("ok"):
        d["result"].pop("ms", None)
        d.pop("timing", None)
    return d

slug, url = sys.argv[1], sys.argv[2]
assert "pysat" not in sys.modules
solve_web.defer(["pysat", "pysolvers"])
first = json.loads(solve_web.solve_json(slug, url, 30, 0, True))
asked = "pysat" in sys.modules
solve_web.undefer()
again = untimed(solve_web.solve_json(slug, url, 30, 0, True))
plain = untimed(solve_web.solve_json(slug, url, 30, 0, True))
print(json.dumps({"first": first.get("error"), "module": first.get("module"),
                  "imported_while_deferred": asked, "same": again == plain,
                  "imported": "pysat" in sys.modules,
                  "first_same": first.get("ok") and untimed(json.dumps(first)) == plain}))
"""


def _run(slug: str, url: str) -> dict:
    out = subprocess.run([sys.executable, "-c", _SCRIPT, slug, url], cwd=ROOT, check=True,
                         capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_board_that_needs_the_wheel_asks_for_it_then_solves_the_same() -> None:
    # the hard Nanro boards reach the ladder's last step: CaDiCaL through python-sat
    board = json.loads((ROOT / "benchmarks/hard/nanro-16x16.json").read_text())["boards"][0]
    got = _run("nanro", board["url"])
    assert got["first"] == "wheel" and got["module"] == "pysat"
    assert not got["imported_while_deferred"]
    assert got["imported"] and got["same"]


def test_a_board_that_does_not_need_it_solves_at_once() -> None:
    ex = json.loads((ROOT / "content/sukoro/bank.json").read_text())["data"]["example"]
    got = _run("sukoro", ex["url"])
    assert got["first"] is None and got["first_same"]
    assert not got["imported"]


def _wheel(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return buf.getvalue()


def test_the_modules_a_wheel_installs() -> None:
    listed = _wheel({"pkg/__init__.py": "", "ext.so": "", "x-1.0.dist-info/top_level.txt":
                     "pkg\next\n", "x-1.0.dist-info/RECORD": ""})
    assert wheel_modules(listed) == ["ext", "pkg"]
    unlisted = _wheel({"pkg/__init__.py": "", "mod.cpython-314-wasm32-emscripten.so": "",
                       "x-1.0.data/scripts/tool": "", "x-1.0.dist-info/RECORD": ""})
    assert wheel_modules(unlisted) == ["mod", "pkg"]


_WAITING = r"""
import json, sys
from site_builder import solve_web

def untimed(text):
    d = json.loads(text)
    d["result"].pop("ms", None)
    d.pop("timing", None)
    return d

slug, url = sys.argv[1], sys.argv[2]
calls = []
# as in the browser with promise integration: the import waits for the install (here a
# stand-in that is done at once) and goes on, no WheelNeeded, no second attempt
solve_web._block = lambda install: (install(), True)[1]
solve_web.defer(["pysat", "pysolvers"], lambda: calls.append(1))
first = json.loads(solve_web.solve_json(slug, url, 30, 0, True))
left = [type(f).__name__ for f in sys.meta_path if isinstance(f, solve_web._Deferred)]
plain = untimed(solve_web.solve_json(slug, url, 30, 0, True))
print(json.dumps({"ok": first.get("ok"), "calls": len(calls), "deferred_left": left,
                  "same": first.get("ok") and untimed(json.dumps(first)) == plain}))
"""


def test_a_solve_that_can_wait_for_the_wheel_goes_on_without_starting_over() -> None:
    board = json.loads((ROOT / "benchmarks/hard/nanro-16x16.json").read_text())["boards"][0]
    out = subprocess.run([sys.executable, "-c", _WAITING, "nanro", board["url"]], cwd=ROOT,
                         check=True, capture_output=True, text=True, timeout=300,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got == {"ok": True, "calls": 1, "deferred_left": [], "same": True}


def test_the_wheel_modules_the_sources_import() -> None:
    from site_builder.runtime import wheel_imports

    app = _wheel({"solvers/a.py": "import pysat.card, os\nfrom pysat.solvers import Solver\n",
                  "solvers/b.py": "from . import pysat\nimport pysatx\n# pysat.formula\n",
                  "solvers/c.txt": "import pysat.formula\n"})
    assert wheel_imports(app, ["pysat", "pysolvers"]) == ["pysat.card", "pysat.solvers"]
