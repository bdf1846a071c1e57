"""`build-site new puzzle SLUG DIR`: the package it writes installs, passes its own tests,
builds into a site whose check passes, and holds the role shape (tests/test_shape.py),
all before any edit; and the command refuses a bad slug, an installed one and a folder
in use with one line and exit 2.

The package is installed into an environment of its own (a venv whose one .pth file
adds this environment's site-packages), so this interpreter's registry never sees it
and the other tests are not affected. With hatchling and editables installed here (the
``test`` extra) the install needs no network (``--no-build-isolation``); without them
pip fetches them.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

from site_builder import newpuzzle
from solvers import registry
from solvers.common import ROLES

REPO = Path(__file__).resolve().parent.parent
SLUG, PKG = "demo-puz", "demo_puz"
TIMINGS: dict[str, float] = {}


def run(cmd: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PLAY_CONTENT")}
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)


def tool(python: Path | str, *args: str) -> list[str]:
    return [str(python), "-m", "site_builder.cli", *args]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    top = tmp_path_factory.mktemp("newpuzzle")
    t = time.perf_counter()
    r = run(tool(sys.executable, "new", "puzzle", SLUG, str(top / SLUG)), top)
    TIMINGS["new"] = time.perf_counter() - t
    assert r.returncode == 0, r.stderr
    assert f"pip install -e {top / SLUG}" in r.stdout
    return top / SLUG


@pytest.fixture(scope="module")
def python(made: Path) -> Path:
    """The interpreter of an environment of its own with the package installed."""
    venv = made.parent / "venv"
    t = time.perf_counter()
    r = run([sys.executable, "-m", "venv", "--without-pip", str(venv)], made.parent)
    assert r.returncode == 0, r.stderr
    py = venv / "bin" / "python"
    r = run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            made.parent)
    here = sysconfig.get_paths()["purelib"]
    (Path(r.stdout.strip()) / "_outer_env.pth").write_text(
        f"import site; site.addsitedir({here!r})\n", encoding="utf-8")
    offline = all(importlib.util.find_spec(m) is not None for m in ("hatchling", "editables"))
    cmd = [str(py), "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check"]
    cmd += ["--no-build-isolation", "--no-index"] if offline else []
    r = run([*cmd, "-e", str(made)], made.parent)
    TIMINGS["install"] = time.perf_counter() - t
    assert r.returncode == 0, r.stdout + r.stderr
    return py


def test_every_role_file_is_written(made: Path) -> None:
    pkg = made / PKG
    for role in (*ROLES, "construct", "__init__"):
        assert (pkg / f"{role}.py").is_file(), role
    for kind in ("article", "README", "hook"):
        for lang in ("en", "ja"):
            assert (pkg / "templates" / f"{kind}.{lang}.md.j2").is_file()
    assert (pkg / "static" / "play" / f"{SLUG}.js").is_file()
    assert (made / "tests" / f"test_{PKG}.py").is_file()
    assert "deliberately trivial" in (made / "GUIDE.md").read_text()
    toml = (made / "pyproject.toml").read_text()
    assert f'[project.entry-points."build_site.puzzles"]\n{SLUG} = "{PKG}:PUZZLE"' in toml
    for f in made.rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            assert not any(k in text or k in f.name for k in newpuzzle.names(SLUG)), f
            if f.suffix == ".py":
                compile(text, str(f), "exec")


def test_the_package_is_lint_clean(made: Path) -> None:
    ruff = Path(sys.executable).parent / "ruff"
    if not ruff.exists():
        pytest.skip("ruff is not installed here")
    r = run([str(ruff), "check", "--no-cache", "."], made)
    assert r.returncode == 0, r.stdout + r.stderr


def test_it_passes_its_own_tests(made: Path, python: Path) -> None:
    t = time.perf_counter()
    r = run([str(python), "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider"], made)
    TIMINGS["own tests"] = time.perf_counter() - t
    assert r.returncode == 0, r.stdout + r.stderr
    assert " passed" in r.stdout and "failed" not in r.stdout


def test_it_builds_into_a_site_and_the_check_passes(made: Path, python: Path) -> None:
    site = made.parent / "site"
    (site / "content").mkdir(parents=True)
    (site / "site.toml").write_text(f'puzzles = ["{SLUG}"]\n', encoding="utf-8")
    r = run(tool(python, "list"), site)
    assert r.returncode == 0 and f"{SLUG} " in r.stdout and PKG in r.stdout, r.stdout
    t = time.perf_counter()
    r = run(tool(python, "build", "--quiet", "--jobs", "1"), site)
    TIMINGS["build"] = time.perf_counter() - t
    assert r.returncode == 0, r.stdout + r.stderr
    assert all(f"{SLUG}/{s}" in r.stdout for s in ("bank", "stats", "ledger", "timing"))
    for lang in ("en", "ja"):
        for page in ("index.html", "play/index.html", "solve/index.html"):
            assert (site / "dist" / lang / SLUG / page).is_file(), (lang, page)
    assert (site / "dist" / "static" / "play" / f"{SLUG}.js").is_file()
    article = (site / "dist" / "en" / SLUG / "index.html").read_text()
    assert "placeholder" in article and 'data-key="demo-puz/stats.total_boards"' in article
    t = time.perf_counter()
    r = run(tool(python, "check"), site)
    TIMINGS["check"] = time.perf_counter() - t
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(tool(python, "build", "--quiet", "--jobs", "1"), site)
    assert r.returncode == 0 and "all stages current" in r.stdout, r.stdout + r.stderr
    r = run(tool(python, "solve", SLUG, _first_url(site), "--json"), site)
    assert r.returncode == 0 and '"solutions": 1' in r.stdout, r.stdout + r.stderr
    print("new puzzle -> installed -> built -> checked: "
          + ", ".join(f"{k} {v:.1f}s" for k, v in TIMINGS.items()))


def _first_url(site: Path) -> str:
    import json

    bank = json.loads((site / "content" / SLUG / "bank.json").read_text())
    return str(bank["data"]["boards"][0]["url"])


def test_it_has_the_shape_of_every_puzzle(python: Path) -> None:
    """tests/test_shape.py, run on the new puzzle in its own environment (its rules are
    in no table of docs/ARCHITECTURE.md, which lists the tool's own puzzles)."""
    r = run([str(python), "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider",
             str(REPO / "tests" / "test_shape.py"), "-k",
             f"{SLUG} or second_engine"], REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert " passed" in r.stdout


def test_this_environment_never_sees_it(python: Path) -> None:
    r = run([sys.executable, "-c", "from solvers import registry; print(registry.slugs())"],
            REPO)
    assert r.returncode == 0 and SLUG not in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("slug, words", [
    ("Bad_Slug", "is not a puzzle slug"),
    ("x-", "is not a puzzle slug"),
    ("a--b", "is not a puzzle slug"),
    (registry.slugs()[0], "is already installed"),
    ("json", "already importable"),
    ("class", "is a Python keyword"),
])
def test_a_bad_slug_is_one_line_and_exit_2(tmp_path: Path, slug: str, words: str) -> None:
    r = run(tool(sys.executable, "new", "puzzle", slug, str(tmp_path / "p")), tmp_path)
    assert r.returncode == 2, r.stdout + r.stderr
    assert words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not (tmp_path / "p").exists()


def test_a_folder_in_use_is_refused(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    r = run(tool(sys.executable, "new", "puzzle", "fresh-one", str(tmp_path)), tmp_path)
    assert r.returncode == 2 and "not an empty folder" in r.stderr, r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mine.txt"]
