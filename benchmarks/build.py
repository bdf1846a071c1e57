"""Build speed: a no-change rebuild, and a re-render after one template edit.

    .venv/bin/python benchmarks/build.py [--repeat 5] [--template layout.html.j2]

Works on a temporary copy of the project (the real dist/ and templates/ are not touched).

1. Rebuild with nothing changed, from the committed JSON: after one warm-up build,
   ``build_site`` is timed ``--repeat`` times in this process (what `serve` does), and the
   `build-site build` command is timed as a fresh process (what a user types).
   Target: under 2 s.
2. Re-render after one template edit: the template gets a different comment each round,
   then ``build_site`` is timed (stages must not rerun). Target: under 1 s.

Medians are printed, with min and max.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def summary(name: str, xs: list[float], target: float) -> str:
    med = statistics.median(xs)
    verdict = "ok" if med < target else "OVER TARGET"
    return (f"{name}: median {med:.3f} s (min {min(xs):.3f}, max {max(xs):.3f}, "
            f"n={len(xs)}; target < {target:g} s: {verdict})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--template", default="layout.html.j2",
                    help="template under templates/ to edit (default: layout.html.j2)")
    ap.add_argument("--root", type=Path, default=ROOT, help="project to copy (default: this one)")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-build-") as t:
        proj = Path(t) / "proj"
        shutil.copytree(args.root, proj, ignore=shutil.ignore_patterns(
            ".git", ".venv", "dist", "dist.*", "__pycache__", "*.egg-info", ".pytest_cache",
            ".ruff_cache", "node_modules", ".cache"))
        sys.path.insert(0, str(proj))  # the copy's code, as `serve` in that folder would use
        from site_builder.build import build_site

        out = proj / "dist"
        t0 = time.perf_counter()
        r = build_site(proj, out, quiet=True)
        print(f"warm-up build: {time.perf_counter() - t0:.3f} s, {r.pages} pages, "
              f"stages run: {', '.join(r.stages_run) or 'none'}")

        same: list[float] = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = build_site(proj, out, quiet=True)
            same.append(time.perf_counter() - t0)
            assert not r.stages_run, f"stages reran with nothing changed: {r.stages_run}"
        print(summary("1. rebuild, nothing changed (build_site in process)", same, 2.0))

        env = dict(os.environ, PYTHONPATH=str(proj))
        cli: list[float] = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "site_builder.cli", "build", "--quiet"],
                           cwd=proj, env=env, check=True, capture_output=True)
            cli.append(time.perf_counter() - t0)
        print(summary("1b. rebuild, nothing changed (`build-site build --quiet`, fresh process)",
                      cli, 2.0))

        template = proj / "templates" / args.template
        original = template.read_text(encoding="utf-8")

        def edits(tag: str) -> list[float]:
            xs: list[float] = []
            for i in range(args.repeat):
                template.write_text(original + f"{{# benchmark edit {tag} {i} #}}\n",
                                    encoding="utf-8")
                t0 = time.perf_counter()
                r = build_site(proj, out, quiet=True)
                xs.append(time.perf_counter() - t0)
                assert not r.stages_run, f"a template edit reran stages: {r.stages_run}"
            return xs

        print(summary(f"2. re-render after editing templates/{args.template} "
                      "(build_site in one process, as serve does)", edits("plain"), 1.0))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
