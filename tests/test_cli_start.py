"""`build-site solve` loads only what solving needs: no numpy, no Jinja, no Markdown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_loading_every_puzzle_and_the_cli_imports_no_measurement_or_page_code():
    code = ("import sys\n"
            "from site_builder import cli\n"
            "from solvers import registry\n"
            "for s in registry.slugs():\n"
            "    registry.get(s)\n"
            "heavy = [m for m in ('numpy', 'jinja2', 'markdown_it', 'livereload') "
            "if m in sys.modules]\n"
            "print(','.join(heavy))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""
