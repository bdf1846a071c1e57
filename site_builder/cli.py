"""The `build-site` command: build, serve, check, deploy, solve, verify."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from site_builder.errors import UserError

DEFAULT_TIMEOUT = 60.0  # site_builder.solve.DEFAULT_TIMEOUT (a test holds them equal)

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

# `build-site solve` is a whole process per board, so its start counts (issue 24): the
# solve path imports neither argparse nor pathlib. An ordinary `solve` command line is
# read by _solve_args; anything else (help, an error, an abbreviated option) goes to
# argparse, which gives every message.


def find_root(start: Path | None = None) -> Path:
    """The site folder: the nearest folder at or above the working directory holding a
    ``site.toml``; a UserError (exit 2, nothing written) when there is none."""
    from site_builder.config import find_site, load

    root = find_site(start)
    load(root)  # bad configuration is one line naming the file and key, before any work
    return root


def _type_error(message: str) -> Exception:
    import argparse

    return argparse.ArgumentTypeError(message)


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 65535:
        raise _type_error(f"{text!r} is not a port number (0-65535; 0 picks a free one)")
    return int(text)


# The largest value each option can use. --timeout goes to an interval timer, which
# overflows near 9.2e9 s; --jobs starts that many processes at once; the others are
# compared against counters. Past these, one line and exit 2, never an OverflowError.
MAX_TIMEOUT = 10_000_000.0  # about 116 days: "no limit" for any real solve
MAX_JOBS = 64  # each is a whole Python process: 64 of them is already ~6 GB
MAX_COUNT = 10**12


def _positive(kind: type, most: float) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            v = kind(text)
        except (ValueError, OverflowError):
            v = None
        if v is None or not v > 0 or v == float("inf"):
            raise _type_error(f"{text[:40]!r} is not a positive number")
        if v > most:
            raise _type_error(f"{text[:40]!r} is more than this option can use "
                              f"(at most {most:,.0f})")
        return v
    return parse


_LIMIT = _positive(int, MAX_COUNT)
_TIMEOUT = _positive(float, MAX_TIMEOUT)
_MAX_NODES = _positive(int, MAX_COUNT)


class _SolveArgs:
    """The parsed `solve` command line (what argparse's Namespace would hold)."""

    __slots__ = ("command", "input", "json", "level", "limit", "max_nodes", "no_grade",
                 "slug", "timeout", "trace")

    def __init__(self, slug: str, text: str) -> None:
        self.command, self.slug, self.input = "solve", slug, text
        self.level: str | None = None
        self.limit, self.timeout, self.max_nodes = 2, DEFAULT_TIMEOUT, None
        self.no_grade = self.json = self.trace = False


_SOLVE_FLAGS = {"--no-grade": "no_grade", "--json": "json", "--trace": "trace"}
_SOLVE_VALUES: dict[str, tuple[str, Callable[[str], Any]]] = {
    "--level": ("level", str), "--limit": ("limit", _LIMIT), "--timeout": ("timeout", _TIMEOUT),
    "--max-nodes": ("max_nodes", _MAX_NODES)}


def _solve_args(argv: list[str]) -> _SolveArgs | None:
    """``solve SLUG INPUT`` with options each spelled out in full, once, their values not
    starting with ``-``: read without argparse. None for anything else (argparse then
    reads it, and says what is wrong in its own words)."""
    if len(argv) < 3 or argv[0] != "solve":
        return None
    positional: list[str] = []
    values: dict[str, Any] = {}
    i = 1
    while i < len(argv):
        a = argv[i]
        if not a.startswith("-"):
            positional.append(a)
        elif a in _SOLVE_FLAGS and _SOLVE_FLAGS[a] not in values:
            values[_SOLVE_FLAGS[a]] = True
        elif a in _SOLVE_VALUES and i + 1 < len(argv) and not argv[i + 1].startswith("-"):
            name, kind = _SOLVE_VALUES[a]
            if name in values:
                return None
            try:
                values[name] = kind(argv[i + 1])
            except Exception:  # noqa: BLE001 (ArgumentTypeError and the rest: argparse says it)
                return None
            i += 1
        else:
            return None
        i += 1
    if len(positional) != 2:
        return None
    args = _SolveArgs(*positional)
    for name, v in values.items():
        setattr(args, name, v)
    return args


def _scheduler(text: str) -> str:
    """``tcp://HOST:PORT`` as given; ``local:N`` checked here, before any stage is planned."""
    if text.startswith("local:"):
        n = text.removeprefix("local:")
        if not (n.isascii() and n.isdigit() and 1 <= int(n) <= MAX_JOBS):
            raise _type_error(f"{text[:40]!r}: expected local:N with 1 <= N <= {MAX_JOBS}")
    return text


def _parser() -> argparse.ArgumentParser:
    import argparse

    class _Parser(argparse.ArgumentParser):
        """argparse whose errors are one line and exit status 2, like every other error."""

        def error(self, message: str) -> NoReturn:
            self.exit(2, f"build-site: error: {' '.join(message.split())} "
                         f"(see `{self.prog} --help`)\n")

    ap = _Parser(
        prog="build-site",
        description="Build, preview, check and publish a puzzle site: run from a site "
                    "folder (one with a site.toml; `build-site new site DIR` makes one).")
    ap.add_argument("--version", action="store_true", default=argparse.SUPPRESS,
                    help="print the version of build-site and of each puzzle found")
    sub = ap.add_subparsers(dest="command", parser_class=_Parser)

    b = sub.add_parser("build", help="run stale stages and render dist/ (the default)")
    b.add_argument("--out", default="dist", help="output folder (default: dist)")
    b.add_argument("--only", nargs="+", metavar="SLUG", help="only these puzzles")
    b.add_argument("--regenerate", action="store_true",
                   help="recompute every stage from its fixed seed, ignoring the cache")
    b.add_argument("--jobs", type=_positive(int, MAX_JOBS), default=None,
                   help="local worker processes for the stages' chunks (default: one per "
                        "core; 1 runs everything in this process)")
    b.add_argument("--scheduler", type=_scheduler, default=None, metavar="ADDRESS",
                   help="run the chunks on Dask distributed instead: tcp://HOST:8786 (an "
                        "existing cluster) or local:N (a LocalCluster of N worker processes); "
                        "needs pip install -e '.[dask]'")
    b.add_argument("--stage", action="append", default=None, metavar="SLUG/STAGE",
                   help="also run this on-request stage (a survey too big for the ordinary "
                        "build); may be repeated")
    b.add_argument("--base-url", default=None,
                   help="absolute URL the site is served from (default: site.toml's "
                        "base_url)")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress display")
    b.add_argument("--explain", action="store_true",
                   help="list each file written with the input that made it stale, one "
                        "line a file")

    s = sub.add_parser("serve", help="build, then preview with live reload")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    s.add_argument("--port", type=_port, default=8000,
                   help="port to listen on (default 8000; 0 picks a free one)")
    s.add_argument("--out", default="dist",
                   help="folder the preview builds into and serves (default: dist)")
    s.add_argument("--base-url", default=None,
                   help="absolute URL written into canonical links (default: site.toml's "
                        "base_url)")

    c = sub.add_parser("check", help="prove every number on every page equals its JSON")
    c.add_argument("dir", nargs="?", default="dist",
                   help="the built site to check (default: dist)")
    c.add_argument("--fresh", action="store_true",
                   help="also render the whole site in memory as a clean build would and "
                        "compare it with the folder file by file (slower: a full render)")

    d = sub.add_parser("deploy", help="publish dist/ as a commit on a branch, or into a folder")
    g = d.add_mutually_exclusive_group()
    g.add_argument("--to", metavar="REMOTE",
                   help="git repository path or URL (default: site.toml's [deploy] to)")
    g.add_argument("--dir", metavar="PATH", help="mirror the site into this folder instead")
    d.add_argument("--branch", default=None,
                   help="branch to commit the site to (default: site.toml's [deploy] "
                        "branch, else gh-pages)")
    d.add_argument("--message", default=None,
                   help="commit message (default: names the source commit)")
    d.add_argument("--out", default="dist", help="the built site to publish (default: dist)")
    d.add_argument("--force", action="store_true",
                   help="with --to: commit even when the branch's tip is not a previous "
                        "deploy (its whole tree is replaced by the site)")

    v = sub.add_parser("solve", help="solve a puzz.link URL or a board JSON file")
    v.add_argument("slug", help="the puzzle (`build-site list` names those installed)")
    v.add_argument("input", help="puzz.link URL or path to a board JSON file")
    v.add_argument("--level", default=None, help="highest rung to use (default: all)")
    v.add_argument("--limit", type=_LIMIT, default=2,
                   help="stop after this many solutions (default 2: proves uniqueness)")
    v.add_argument("--timeout", type=_TIMEOUT, default=DEFAULT_TIMEOUT,
                   metavar="SECONDS",
                   help=f"give up after this long, exit 3 (default {DEFAULT_TIMEOUT:g})")
    v.add_argument("--max-nodes", type=_MAX_NODES, default=None, metavar="N",
                   help="give up after N search nodes, exit 3 (default: no limit)")
    v.add_argument("--no-grade", action="store_true",
                   help="answers and the uniqueness verdict only, without the rung work "
                        "that only the grade needs (faster on hard boards; puzzles whose "
                        "grade costs nothing extra grade anyway)")
    v.add_argument("--json", action="store_true", help="print one JSON object")
    v.add_argument("--trace", action="store_true",
                   help="with --json: add a unique board's step-by-step explanation "
                        "(what the solve page shows)")

    f = sub.add_parser("verify", help="re-prove every banked board unique")
    f.add_argument("slugs", nargs="*", metavar="SLUG",
                   help="puzzles to verify (default: every puzzle the site shows)")
    f.add_argument("--json", action="store_true", help="print one JSON object")

    n = sub.add_parser("new", help="make a new site folder, or a new puzzle plugin")
    nsub = n.add_subparsers(dest="what", parser_class=_Parser, required=True)
    ns = nsub.add_parser("site", help="write a working site folder (site.toml, content/, "
                                      "templates/, README.md)")
    ns.add_argument("dir", metavar="DIR", help="the folder to make (absent or empty)")
    ns.add_argument("--puzzles", nargs="+", metavar="SLUG", default=None,
                    help="puzzles the site shows (default: every puzzle installed)")
    np_ = nsub.add_parser("puzzle", help="write a puzzle plugin package to start from")
    np_.add_argument("slug", metavar="SLUG", help="the new puzzle's slug (lowercase, "
                                                  "letters, digits and -)")
    np_.add_argument("dir", metavar="DIR", nargs="?", default=None,
                     help="the folder to make (default: ./SLUG)")

    sub.add_parser("list", help="the puzzles installed: slug, package, version, and any "
                                "that cannot be loaded")
    e = sub.add_parser("eject", help="copy a theme or puzzle template or static file into "
                                     "the site's templates/, where it overrides the original")
    e.add_argument("name", metavar="NAME",
                   help="a template (layout.html.j2, SLUG/article.en.md.j2) or static file "
                        "(static/site.css, static/play/SLUG.js)")
    return ap


def _path(text: str) -> Path:
    from pathlib import Path

    return Path(text)


def _out(root: Path, out: str) -> Path:
    p = _path(out)
    return p if p.is_absolute() else p.cwd() / p


def _base_url(args: argparse.Namespace, root: Path) -> str:
    from site_builder.config import load

    return load(root).base_url if args.base_url is None else str(args.base_url)


_SITEMAP_NOTICE = ("no sitemap.xml: the sitemap protocol needs absolute URLs; give --base-url "
                   "https://... to write one")


def _stamp_options(args: argparse.Namespace) -> dict[str, Any]:
    return {"base_url": args.base_url, "only": args.only}


def unchanged_build(args: argparse.Namespace) -> int | None:
    """``build`` with nothing to do, told from the stats of what the last build read
    (``site_builder/stamp.py``), without loading the puzzles or the renderer; None when
    the ordinary build must run."""
    if args.regenerate or args.stage or args.explain:
        return None
    import time

    from site_builder import stamp
    from site_builder.config import find_site

    t0 = time.monotonic()
    try:
        root = find_site()
    except UserError:
        return None  # the ordinary path says it in its words
    out = _out(root, args.out)
    summary = stamp.unchanged(root, out, _stamp_options(args))
    if summary is None:
        return None
    if not summary["sitemap"] and not args.quiet:
        print(_SITEMAP_NOTICE, file=sys.stderr)
    print(f"built {summary['pages']} pages ({summary['files']} files) into {args.out} in "
          f"{time.monotonic() - t0:.2f}s: rendered 0, kept {summary['files']}, removed 0, "
          "all stages current (nothing read has changed)")
    return 0


def cmd_build(args: argparse.Namespace, root: Path) -> int:
    from site_builder.build import build_site, has_sitemap

    base_url = _base_url(args, root)
    r = build_site(root, _out(root, args.out), only=args.only, regenerate=args.regenerate,
                   jobs=args.jobs, base_url=base_url, quiet=args.quiet,
                   scheduler=args.scheduler, stages=args.stage)
    ran = f", stages run: {', '.join(r.stages_run)}" if r.stages_run else ", all stages current"
    o = r.outcome
    if o.full:
        did = f"rendered all {r.files} files"
    else:
        did = (f"rendered {len(o.rendered)}, kept {o.kept + o.unchanged}, removed "
               f"{len(o.removed)}")
    print(f"built {r.pages} pages ({r.files} files) into {args.out} in {r.seconds:.2f}s: "
          f"{did}{ran}")
    if args.explain and o.full:
        print(f"  rendered every file: {o.why_full}")
    elif args.explain:
        for path, why in o.rendered:
            print(f"  rendered {path}: {why}")
        for path in o.removed:
            print(f"  removed {path}: no longer made")
    if r.kept_pages:
        shown = ", ".join(r.kept_pages[:4]) + (
            f" and {len(r.kept_pages) - 4} more" if len(r.kept_pages) > 4 else "")
        print(f"build-site: kept the last build in {args.out} as it was ({r.files} files): "
              f"the {len(r.kept_pages)} files of {', '.join(r.skipped)} ({shown}) cannot "
              f"be rendered now, because {r.kept_why}", file=sys.stderr)
    if r.skipped:
        print(f"build-site: {len(r.skipped)} puzzle(s) skipped, their plugin broken: "
              f"{', '.join(r.skipped)}", file=sys.stderr)
        return 1
    if not args.regenerate and not args.stage:
        from site_builder import stamp
        from site_builder.config import load
        from solvers import registry

        stamp.save(root, _out(root, args.out), _stamp_options(args),
                   [registry.get(s) for s in load(root).puzzles],
                   {"pages": r.pages, "files": r.files, "sitemap": has_sitemap(base_url)})
    return 0


def cmd_check(args: argparse.Namespace, root: Path) -> int:
    from site_builder.check import InputProblem, check_site

    out = _out(root, args.dir)
    problems = check_site(out, root)
    for p in problems:
        print(p)
    corrupt = [p for p in problems if isinstance(p, InputProblem)]
    if corrupt:  # the input is at fault, not the pages: bad input, as for a parse error
        more = f" (and {len(problems) - 1} more problem(s) above)" if len(problems) > 1 else ""
        raise UserError(f"{corrupt[0]}{more}")
    compared = f"{_manifest_size(out)} files compared with its manifest"
    if args.fresh:
        from site_builder.check import fresh_problems

        fresh, n = fresh_problems(out, root)
        for p in fresh:
            print(p)
        problems += fresh
        compared += f", {n} with a clean build made now"
    if problems:
        print(f"check failed: {len(problems)} problem(s) ({compared})", file=sys.stderr)
        return 1
    print(f"check passed: every number in {args.dir} has its JSON source ({compared})")
    return 0


def _manifest_size(out: Path) -> int:
    from site_builder.buildinfo import BUILD_INFO

    try:
        manifest = json.loads((out / BUILD_INFO).read_text(encoding="utf-8")).get("manifest")
    except (OSError, ValueError, AttributeError):
        return 0
    return len(manifest) if isinstance(manifest, dict) else 0


def cmd_serve(args: argparse.Namespace, root: Path) -> int:
    from site_builder import serve

    serve.serve(root, _out(root, args.out), host=args.host, port=args.port,
                base_url=_base_url(args, root))
    return 0


def cmd_deploy(args: argparse.Namespace, root: Path) -> int:
    from site_builder import deploy
    from site_builder.check import InputProblem, check_site
    from site_builder.config import SITE_FILE, load

    cfg = load(root)
    if not args.to and not args.dir:
        args.to, args.dir = cfg.deploy_to, cfg.deploy_dir
    if not args.to and not args.dir:
        raise UserError(f"deploy: no target; give --to REMOTE or --dir PATH, or set "
                        f"[deploy] to or dir in {root / SITE_FILE}")
    args.branch = args.branch or cfg.deploy_branch
    out = _out(root, args.out)
    problems = check_site(out, root)
    if not problems:
        # what is published is what a clean build makes now, file for file
        from site_builder.check import fresh_problems

        problems = fresh_problems(out, root)[0]
    if problems:
        for p in problems[:20]:
            print(p, file=sys.stderr)
        corrupt = [p for p in problems if isinstance(p, InputProblem)]
        if corrupt:  # content/ is at fault: bad input, exit 2, as `check` gives it
            raise UserError(f"deploy refused: {corrupt[0]}")
        # the pages and the JSON disagree: what `check` exits 1 for (the README's table)
        print(f"build-site: deploy refused: `build-site check` found {len(problems)} "
              "problem(s)", file=sys.stderr)
        return 1
    if args.dir:
        deploy.deploy_dir(out, _path(args.dir), root=root)
        print(f"mirrored {args.out} into {args.dir}")
        return 0
    sha = deploy.deploy(out, args.to, branch=args.branch, message=args.message,
                        force=args.force)
    print(f"deployed {args.out} to {args.to} {args.branch}: "
          f"{sha if sha else 'no change, no new commit'}")
    return 0


def cmd_new(args: argparse.Namespace, root: Path) -> int:
    from site_builder import scaffold

    if args.what == "site":
        print(scaffold.new_site(_path(args.dir), args.puzzles))
    else:
        print(scaffold.new_puzzle(args.slug, _path(args.dir or args.slug)))
    return 0


def cmd_list(args: argparse.Namespace, root: Path) -> int:
    from solvers import registry

    problems = registry.problems()
    table = registry.entries()
    for slug in registry.slugs():
        e = table.get(slug)
        where = f"{e.package} ({e.dist} {e.version})" if e else "?"
        state = f"  BROKEN: {problems[slug]}" if slug in problems else ""
        print(f"{slug:<16} {where}{state}")
    if not table and not problems:
        print("no puzzles installed (a puzzle declares an entry point in the group "
              f"{registry.GROUP})")
    return 1 if problems else 0


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from solvers import registry

    try:
        mine = version("puzzle-portfolio")
    except PackageNotFoundError:
        mine = "unknown (not installed)"
    lines = [f"build-site {mine}"]
    lines += [f"  {slug} {registry.version(slug)}" for slug in registry.slugs()]
    return "\n".join(lines)


def cmd_solve(args: argparse.Namespace, root: Path) -> int:
    from site_builder import solve

    return solve.run(args, root)


def cmd_eject(args: argparse.Namespace, root: Path) -> int:
    from site_builder.config import load
    from site_builder.sources import eject, shown_path
    from solvers import registry

    puzzles = [registry.get(s) for s in load(root).puzzles]
    src, dest = eject(root, puzzles, args.name)
    print(f"copied {shown_path(root, str(src), args.name)} to "
          f"{dest.relative_to(root).as_posix()}: the site's copy now overrides it")
    return 0


def cmd_verify(args: argparse.Namespace, root: Path) -> int:
    from site_builder import verify

    return verify.run(args, root)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--version"]:
        print(version_text())
        return 0
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["build", *argv]
    args: Any = _solve_args(argv)
    if args is None:
        args = _parser().parse_args(argv)
    handlers = {"build": cmd_build, "serve": cmd_serve, "check": cmd_check,
                "deploy": cmd_deploy, "solve": cmd_solve, "verify": cmd_verify,
                "new": cmd_new, "list": cmd_list, "eject": cmd_eject}
    inner = sys.stdout
    sys.stdout = _GuardedStdout(inner)
    try:
        if args.command is None:  # `build-site --version` is read above
            print(version_text())
            return 0
        if args.command == "build" and (code := unchanged_build(args)) is not None:
            sys.stdout.flush()
            return code
        # the site folder, found only by the commands that read one
        root: Any = None if args.command in ("solve", "new", "list") else find_root()
        code = handlers[args.command](args, root)
        sys.stdout.flush()  # a full device shows here, not in a traceback at exit
        return code
    except (UserError, _puzzle_error()) as e:  # the tuple is built only for an exception
        msg = " ".join(str(e).split())
        print(f"build-site: error: {msg}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os._exit(0)
    except _StdoutError as e:
        _silence_stdout(inner)
        print(f"build-site: error: cannot write to standard output ({e}); the output is "
              "incomplete", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("build-site: interrupted; dist/ and content/ were left as they were",
              file=sys.stderr)
        return 130
    finally:
        sys.stdout = inner


def _puzzle_error() -> type[Exception]:
    from solvers.common import PuzzleError

    return PuzzleError


class _StdoutError(Exception):
    """Standard output refused bytes (a full device, an I/O error)."""


class _GuardedStdout:
    """sys.stdout, with its write errors told apart from every other OSError."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        try:
            return int(self.inner.write(text))
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _StdoutError(e.strerror or str(e)) from None

    def flush(self) -> None:
        try:
            self.inner.flush()
        except BrokenPipeError:
            raise
        except OSError as e:
            raise _StdoutError(e.strerror or str(e)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _silence_stdout(stream: Any) -> None:
    """Point stdout's descriptor at /dev/null, so that what is still buffered does not
    fail a second time (and print a second message) when the interpreter exits."""
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
