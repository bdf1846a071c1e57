"""`build-site solve` loads only what solving needs: no numpy, no Jinja, no Markdown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, cwd: Path) -> str:
    """What a fresh interpreter running ``code`` prints."""
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, check=True).stdout


def test_loading_every_puzzle_and_the_cli_imports_no_measurement_or_page_code():
    code = ("import sys\n"
            "from site_builder import cli\n"
            "from solvers import registry\n"
            "for s in registry.slugs():\n"
            "    registry.get(s)\n"
            "heavy = [m for m in ('numpy', 'jinja2', 'markdown_it', 'livereload') "
            "if m in sys.modules]\n"
            "print(','.join(heavy))\n")
    assert _python(code, ROOT).strip() == ""


def test_the_installed_package_is_found_by_a_path_line_not_an_import_hook():
    # setuptools' editable install ran an import hook (with pathlib and importlib.util)
    # in every Python process: about 12 ms of each `build-site solve`
    code = ("import sys\n"
            "print(','.join(m for m in sys.modules if m.startswith('__editable__')))\n"
            "import solvers, site_builder\n"
            "print(solvers.__file__)\n")
    hooks, where = _python(code, Path("/")).splitlines()
    assert hooks == ""
    assert Path(where).resolve().parent.parent == ROOT


def test_solving_loads_no_hashing_statistics_or_threads():
    code = ("import sys\n"
            "from site_builder import cli\n"
            "rc = cli.main(['solve', 'sukoro', "
            "'https://puzz.link/p?sukoro/10/10/a3c12f1e2b13d13g1c4e4k113b4a1k4h3c1h'])\n"
            "print([m for m in ('hashlib', 'threading', 'numpy') if m in sys.modules])\n")
    assert _python(code, ROOT).strip().splitlines()[-1] == "[]"


# ---------------------------------------------------------------- issue 24

SOLVE_LINES = [
    ["solve", "sukoro", "sukoro/5/5/2a2c4a2g2a4c2a2"],
    ["solve", "sukoro", "sukoro/5/5/2a2c4a2g2a4c2a2", "--json", "--trace", "--no-grade"],
    ["solve", "nanro", "--limit", "3", "board.json", "--timeout", "2.5", "--max-nodes", "99"],
    ["solve", "canal-view", "x", "--level", "probe", "--json", "--limit", "١٢"],
]


def test_the_solve_fast_path_reads_what_argparse_reads() -> None:
    from site_builder import cli

    for argv in SOLVE_LINES:
        fast = cli._solve_args(argv)
        assert fast is not None, argv
        full = vars(cli._parser().parse_args(argv))
        assert {k: getattr(fast, k) for k in full} == full, argv


@pytest.mark.parametrize("argv", [
    ["solve", "sukoro", "u", "--jso"],             # argparse's abbreviation
    ["solve", "sukoro", "u", "--limit", "0"],      # argparse's message
    ["solve", "sukoro", "u", "--limit", "-1"],
    ["solve", "sukoro", "u", "--json", "--json"],
    ["solve", "sukoro", "u", "--limit=3"],
    ["solve", "sukoro", "u", "v"], ["solve", "sukoro"], ["solve", "-h"],
    ["solve", "sukoro", "u", "--timeout"], ["build", "--jobs", "2"],
])
def test_anything_unusual_goes_to_argparse(argv: list[str]) -> None:
    from site_builder import cli

    assert cli._solve_args(argv) is None


def test_solving_imports_no_argument_parser():
    """argparse, with gettext, locale, shutil and the compressors it pulls in, was a
    tenth of a `build-site solve` process."""
    code = ("import sys\n"
            "from site_builder import cli\n"
            "rc = cli.main(['solve', 'nanro', 'nanro/4/4/6r0s1oi13n1h', '--json'])\n"
            "print([m for m in ('argparse', 'gettext', 'locale', 'shutil', 'bz2', 'lzma') "
            "if m in sys.modules])\n")
    assert _python(code, ROOT).strip().splitlines()[-1] == "[]"


def test_every_module_a_solve_imports_is_byte_compiled_by_the_build():
    """With PYTHONDONTWRITEBYTECODE set a source without its .pyc is compiled again in
    every process: scripts/build compiles the project's folders, the interpreter and the
    installed packages come compiled. Each module a solve imports is one or the other."""
    build = (ROOT / "scripts" / "build").read_text()
    line = next(ln for ln in build.splitlines() if "compileall" in ln)
    folders = [w for w in line.split() if (ROOT / w).is_dir()]
    code = ("import sys, importlib.util\n"
            "from site_builder import cli\n"
            "for s in ('sukoro', 'nanro', 'canal-view', 'sashigane'):\n"
            "    cli.main(['solve', s, '" + str(ROOT / "content") + "/' + s + '/bank.json'])\n"
            "for m in list(sys.modules.values()):\n"
            "    f = getattr(m, '__file__', None)\n"
            "    if f and f.endswith('.py'):\n"
            "        print(f, importlib.util.cache_from_source(f))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       check=False)
    rows = [ln.split(" ") for ln in r.stdout.splitlines() if ln.startswith("/")]
    assert len(rows) > 50, r.stderr
    missing = []
    for src, pyc in rows:
        p = Path(src).resolve()
        if ROOT in p.parents and Path(sys.prefix).resolve() not in p.parents:
            if p.relative_to(ROOT).parts[0] not in folders:
                missing.append(src)
        elif not Path(pyc).exists():
            missing.append(src)
    assert not missing, f"not byte-compiled by scripts/build or the install: {missing}"
