"""`build-site solve` loads only what solving needs: no numpy, no Jinja, no Markdown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
