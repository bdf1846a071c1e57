"""The solve pages without a browser: the runtime's pins, what happens without it, what the
page ships, and the zip the worker imports run by a bare CPython.

The in-browser side is tests/test_solve_browser.py.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from site_builder import runtime, solve_page, solve_web
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent


def test_the_runtime_is_pinned() -> None:
    lock = json.loads((runtime.PINS / "package-lock.json").read_text())
    pkg = lock["packages"]["node_modules/pyodide"]
    assert pkg["version"] == runtime.pyodide_version(ROOT) == "314.0.7"
    assert pkg["integrity"].startswith("sha512-")
    (name, version, digest), = runtime.wheel_pins(ROOT)
    assert (name, version) == ("python-sat", "1.9.dev24") and len(digest) == 64


def test_the_cached_runtime_matches_its_pins_and_a_changed_wheel_is_refused(tmp_path) -> None:
    files = runtime.files(ROOT)   # scripts/test fetched it
    (whl,) = [k for k in files if k.endswith(".whl")]
    assert whl.endswith("-cp314-cp314-pyemscripten_2026_0_wasm32.whl")
    (_, _, digest), = runtime.wheel_pins(ROOT)
    assert hashlib.sha256(files[whl]).hexdigest() == digest
    # only what a page loads, and the package index cut down to its header
    names = sorted(k.rsplit("/", 1)[1] for k in files)
    assert names == sorted([*runtime.PYODIDE_FILES, runtime.LOCK, whl.rsplit("/", 1)[1]])
    lock = json.loads(next(v for k, v in files.items() if k.endswith(runtime.LOCK)))
    assert lock["packages"] == {} and lock["info"]["python"].startswith("3.14")
    # a copy of the cache with one byte of the wheel changed
    # (the pins live in the package, so the copy needs only the cache)
    fake = tmp_path / "root"
    cache = fake / runtime.CACHE
    (cache / "npm/node_modules").mkdir(parents=True)
    (cache / "npm/node_modules/pyodide").symlink_to(ROOT / runtime.CACHE / "npm/node_modules/pyodide")
    (cache / "wheels").mkdir()
    data = bytearray(files[whl])
    data[100] ^= 1
    (cache / "wheels" / whl.rsplit("/", 1)[1]).write_bytes(bytes(data))
    with pytest.raises(runtime.RuntimeMissing, match="sha256 differs"):
        runtime.files(fake)


def test_without_a_runtime_the_site_builds_and_the_page_says_so(monkeypatch, capsys) -> None:
    monkeypatch.setattr(runtime, "CACHE", Path(".cache/no-runtime-here"))
    runtime._warned.clear()
    files = solve_page.standalone_files(ROOT, ["sukoro"])
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("build-site: solve pages without a solver: ")
    assert not any(k.startswith("static/runtime/pyodide") for k in files)
    html = files["en/sukoro/solve/index.html"]
    cfg = json.loads(html.split('id="solve-config">', 1)[1].split("</script>", 1)[0])
    assert cfg["runtime"]["available"] is False and "npm" in cfg["runtime"]["reason"]
    # one warning per build, not one per page
    solve_page.standalone_files(ROOT, ["sukoro", "nanro"])
    assert capsys.readouterr().err == ""


def test_only_the_solve_pages_load_the_runtime() -> None:
    from play_support import standalone_files

    from site_builder.site import Site

    site = Site(ROOT, load_data=False)
    for p in site.puzzles:
        bank = json.loads((ROOT / "content" / p.slug / "bank.json").read_text())["data"]
        play = standalone_files(ROOT, {p.slug: (p, bank)})
        for path in (f"en/{p.slug}/play/index.html", f"ja/{p.slug}/play/index.html"):
            assert "runtime" not in play[path] and "worker.js" not in play[path]
            assert "../solve/" in play[path]   # the link to its solve page
    for name in ("play/play.js", "play/grid.js"):
        assert "pyodide" not in (ROOT / "site_builder/theme/static" / name).read_text().lower()
    solve = solve_page.solve_files(site, registry.get("sukoro"), {"available": False})
    assert "solve.js" in solve["en/sukoro/solve/index.html"]


def test_the_zip_runs_in_a_bare_python(tmp_path) -> None:
    """solvers.zip alone on the path of a CPython without site-packages (-S -I): the solve
    path imports nothing but the standard library (python-sat stays optional), and gives
    the same JSON as the full environment."""
    z = runtime.app_zip(ROOT)
    assert z == runtime.app_zip(ROOT)   # byte-identical from the same sources
    names = zipfile.ZipFile(io.BytesIO(z)).namelist()
    assert set(runtime.APP_MODULES) <= set(names)
    assert not [n for n in names if n.startswith("site_builder/") and n not in runtime.APP_MODULES]
    (tmp_path / "solvers.zip").write_bytes(z)
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); "
        "from site_builder import solve_web; "
        "r = json.loads(solve_web.solve_json('sukoro', 'sukoro/5/5/2a2c4a2g2a4c2a2', 10, 0, True)); "
        "heavy = sorted(m for m in ('jinja2', 'numpy', 'markupsafe', 'tqdm') if m in sys.modules); "
        "print(json.dumps([r['result'], heavy]))")
    out = subprocess.run([sys.executable, "-S", "-I", "-c", code, str(tmp_path / "solvers.zip")],
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    got, heavy = json.loads(out.stdout)
    assert heavy == []
    want = solve_web.solve_text("sukoro", "sukoro/5/5/2a2c4a2g2a4c2a2")["result"]
    assert {k: v for k, v in got.items() if k != "ms"} == {k: v for k, v in want.items()
                                                          if k != "ms"}


@pytest.mark.parametrize("slug", registry.slugs())
def test_construct_takes_a_clue_away_and_gives_it_back(slug) -> None:
    """Every clue of the example board, removed and then taken from the answer, comes back
    as it was (a "?" or a bare circle excepted: the answer gives their value)."""
    from site_builder.solve_web import construct

    c = construct(slug)
    ex = json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["example"]
    board, answer = ex["board"], ex["answer"]
    cells = c.clues(board)
    assert cells
    field = c.EDIT["field"]
    checked = 0
    for cell in cells:
        value = board[field][cell[0]][cell[1]]
        if value in ("?", "o"):
            continue
        gone = c.without(board, cell)
        assert cell not in c.clues(gone) and len(c.clues(gone)) == len(cells) - 1
        assert c.clue_from(gone, answer, cell) == board, (cell, value)
        checked += 1
    assert checked
    assert c.differ(answer, answer) == []


def test_cli_trace_and_answers_are_the_page_result(capsys) -> None:
    from site_builder import cli

    url = "sukoro/5/5/2a2c4a2g2a4c2a2"
    assert cli.main(["solve", "sukoro", url, "--json", "--trace"]) == 0
    out = json.loads(capsys.readouterr().out)
    p = registry.get("sukoro")
    board = p.decode(url)
    answer = p.solve(board).solutions[0]
    assert out["answers"] == [out["answer"]] and out["trace"] == p.trace(board, answer)
    assert cli.main(["solve", "sukoro", "sukoro/3/3/a1g", "--json", "--trace"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert two["solutions"] == len(two["answers"]) == 2 and two["trace"] is None
    assert two["answers"][0] == two["answer"] != two["answers"][1]
    page = solve_web.solve_text("sukoro", url)["result"]
    assert {k: v for k, v in page.items() if k != "ms"} == {k: v for k, v in out.items()
                                                           if k != "ms"}
