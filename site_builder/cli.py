"""The `build-site` command: build, serve, check, deploy, solve, verify."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from site_builder.errors import UserError
from solvers.common import Budget, BudgetExceeded, PuzzleError, active

COMMANDS = ("build", "serve", "check", "deploy", "solve", "verify")
DEFAULT_TIMEOUT = 60.0
EXIT_BOUND = 3  # solve stopped at --timeout or --max-nodes
MAX_BOARD_FILE = 4 << 20  # a 100x100 board is about 50 KB of JSON
_URL_START = re.compile(r"^(https?://|[A-Za-z0-9_]+/)")


def find_root(start: Path | None = None) -> Path:
    """The project folder: the nearest parent of the working directory holding
    templates/ and content/ beside a pyproject.toml; else the folder of this package."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "pyproject.toml").exists() and (d / "templates").is_dir():
            return d
    return Path(__file__).resolve().parent.parent


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line and exit status 2, like every other error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"build-site: error: {' '.join(message.split())} "
                     f"(see `{self.prog} --help`)\n")


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (0-65535; 0 picks "
                                         "a free one)")
    return int(text)


def _positive(kind: type) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            v = kind(text)
        except ValueError:
            v = None
        if v is None or not v > 0 or v == float("inf"):
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
        return v
    return parse


def _parser() -> argparse.ArgumentParser:
    ap = _Parser(
        prog="build-site",
        description="Build, preview, check and publish the puzzle portfolio site.")
    sub = ap.add_subparsers(dest="command", parser_class=_Parser)

    b = sub.add_parser("build", help="run stale stages and render dist/ (the default)")
    b.add_argument("--out", default="dist", help="output folder (default: dist)")
    b.add_argument("--only", nargs="+", metavar="SLUG", help="only these puzzles")
    b.add_argument("--regenerate", action="store_true",
                   help="recompute every stage from its fixed seed, ignoring the cache")
    b.add_argument("--jobs", type=_positive(int), default=None,
                   help="local worker processes for the stages' chunks (default: one per "
                        "core; 1 runs everything in this process)")
    b.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the chunks on Dask distributed instead: tcp://HOST:8786 (an "
                        "existing cluster) or local:N (a LocalCluster of N worker processes); "
                        "needs pip install -e '.[dask]'")
    b.add_argument("--stage", action="append", default=None, metavar="SLUG/STAGE",
                   help="also run this on-request stage (a survey too big for the ordinary "
                        "build); may be repeated")
    b.add_argument("--base-url", default="", help="absolute URL the site is served from")
    b.add_argument("-q", "--quiet", action="store_true", help="no progress display")

    s = sub.add_parser("serve", help="build, then preview with live reload")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=_port, default=8000,
                   help="port to listen on (default 8000; 0 picks a free one)")
    s.add_argument("--out", default="dist")
    s.add_argument("--base-url", default="")

    c = sub.add_parser("check", help="prove every number on every page equals its JSON")
    c.add_argument("dir", nargs="?", default="dist")

    d = sub.add_parser("deploy", help="publish dist/ as a commit on a branch, or into a folder")
    g = d.add_mutually_exclusive_group(required=True)
    g.add_argument("--to", metavar="REMOTE", help="git repository path or URL")
    g.add_argument("--dir", metavar="PATH", help="mirror the site into this folder instead")
    d.add_argument("--branch", default="gh-pages")
    d.add_argument("--message", default=None)
    d.add_argument("--out", default="dist", help="the built site to publish (default: dist)")

    v = sub.add_parser("solve", help="solve a puzz.link URL or a board JSON file")
    v.add_argument("slug")
    v.add_argument("input", help="puzz.link URL or path to a board JSON file")
    v.add_argument("--level", default=None, help="highest rung to use (default: all)")
    v.add_argument("--limit", type=_positive(int), default=2,
                   help="stop after this many solutions (default 2: proves uniqueness)")
    v.add_argument("--timeout", type=_positive(float), default=DEFAULT_TIMEOUT,
                   metavar="SECONDS",
                   help=f"give up after this long, exit 3 (default {DEFAULT_TIMEOUT:g})")
    v.add_argument("--max-nodes", type=_positive(int), default=None, metavar="N",
                   help="give up after N search nodes, exit 3 (default: no limit)")
    v.add_argument("--no-grade", action="store_true",
                   help="answers and the uniqueness verdict only, without the rung work "
                        "that only the grade needs (faster on hard boards; puzzles whose "
                        "grade costs nothing extra grade anyway)")
    v.add_argument("--json", action="store_true", help="print one JSON object")

    f = sub.add_parser("verify", help="re-prove every banked board unique")
    f.add_argument("slugs", nargs="*", metavar="SLUG")
    f.add_argument("--json", action="store_true")
    return ap


def _out(root: Path, out: str) -> Path:
    p = Path(out)
    return p if p.is_absolute() else Path.cwd() / p


def cmd_build(args: argparse.Namespace, root: Path) -> int:
    from site_builder.build import build_site

    r = build_site(root, _out(root, args.out), only=args.only, regenerate=args.regenerate,
                   jobs=args.jobs, base_url=args.base_url, quiet=args.quiet,
                   scheduler=args.scheduler, stages=args.stage)
    ran = f", stages run: {', '.join(r.stages_run)}" if r.stages_run else ", all stages current"
    print(f"built {r.pages} pages ({r.files} files) into {args.out} in {r.seconds:.2f}s{ran}")
    return 0


def cmd_check(args: argparse.Namespace, root: Path) -> int:
    from site_builder.check import check_site

    problems = check_site(_out(root, args.dir), root)
    for p in problems:
        print(p)
    if problems:
        print(f"check failed: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check passed: every number in {args.dir} has its JSON source")
    return 0


def cmd_serve(args: argparse.Namespace, root: Path) -> int:
    from site_builder import serve

    serve.serve(root, _out(root, args.out), host=args.host, port=args.port,
                base_url=args.base_url)
    return 0


def cmd_deploy(args: argparse.Namespace, root: Path) -> int:
    from site_builder import deploy
    from site_builder.check import check_site

    out = _out(root, args.out)
    problems = check_site(out, root)
    if problems:
        for p in problems[:20]:
            print(p, file=sys.stderr)
        raise UserError(f"deploy refused: `build-site check` found {len(problems)} problem(s)")
    if args.dir:
        deploy.deploy_dir(out, Path(args.dir))
        print(f"mirrored {args.out} into {args.dir}")
        return 0
    sha = deploy.deploy(out, args.to, branch=args.branch, message=args.message)
    print(f"deployed {args.out} to {args.to} {args.branch}: "
          f"{sha if sha else 'no change, no new commit'}")
    return 0


def _looks_like_url(text: str) -> bool:
    """A puzz.link URL (any host) or its bare ``pid/W/H/body`` form, as opposed to a path.
    Decided before any file lookup, so a long URL is never tried as a file name."""
    return bool(_URL_START.match(text)) and not text.endswith(".json")


def _load_board(puzzle: Any, text: str) -> Any:
    """A board from a puzz.link URL, or from a JSON file (a board or a bank entry)."""
    if _looks_like_url(text):
        return puzzle.decode(text)
    path = Path(text)
    try:
        is_file = path.is_file()
    except (OSError, ValueError) as e:  # a name too long, a NUL byte
        raise UserError(f"{text[:60]!r}: neither a puzz.link URL nor a readable file ({e})")
    if not is_file:
        raise UserError(f"{text[:200]}: no such file, and not a puzz.link URL "
                        f"(expected https://puzz.link/p?{puzzle.pid}/W/H/...)")
    from site_builder.jsonio import read_json

    doc = read_json(path, max_bytes=MAX_BOARD_FILE)
    if isinstance(doc, dict) and isinstance(doc.get("board"), dict):
        doc = doc["board"]
    try:
        return puzzle.board_from_json(doc)
    except PuzzleError as e:
        raise UserError(f"{path}: {e}") from None
    except RecursionError:
        raise UserError(f"{path}: the board is nested too deeply to be a board") from None


def _progress_line(nodes: int, seconds: float) -> None:
    rate = nodes / seconds if seconds > 0 else 0.0
    print(f"\rsolving: {nodes:,} nodes, {rate:,.0f} nodes/s, {seconds:.0f} s elapsed",
          end="", file=sys.stderr, flush=True)


def _solve_bounded(puzzle: Any, board: Any, args: argparse.Namespace) -> Any:
    """``puzzle.solve`` under the --timeout and --max-nodes budget. Searches count their
    nodes against it; an alarm also stops work that visits no node (a long propagation)."""
    tty = sys.stderr.isatty()
    budget = Budget(max_nodes=args.max_nodes, timeout=args.timeout,
                    progress=_progress_line if tty else None)

    late = f"time limit of {args.timeout:g} s reached"
    rang = []

    def alarm(signum: int, frame: object) -> None:
        # the next search node stops the solve too: the raise below is lost when the
        # signal lands in a finaliser or a gc callback (under the fuzz test, eleven
        # alarms in a row were, and a 0.5 s limit took 5.6 s)
        rang.append(True)
        budget.max_nodes = budget.nodes
        raise BudgetExceeded(late, budget.nodes, budget.elapsed())

    use_alarm = hasattr(signal, "setitimer") and threading_main()
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, alarm)
        # repeats every 0.5 s: an alarm that lands in a finaliser (where Python can only
        # report the exception, not raise it) is followed by another
        signal.setitimer(signal.ITIMER_REAL, args.timeout + 0.5, 0.5)
    try:
        with active(budget):
            if args.no_grade and puzzle.ungraded and args.level is None:
                return puzzle.solve(board, limit=args.limit, grade=False)
            return puzzle.solve(board, level=args.level, limit=args.limit)
    except BudgetExceeded as e:
        if rang and not e.reason.startswith("time"):
            raise BudgetExceeded(late, e.nodes, e.seconds) from None
        raise
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if tty and budget.nodes >= 256:
            print(file=sys.stderr)


def threading_main() -> bool:
    threading = sys.modules.get("threading")
    if threading is None:  # no thread was ever started through it: this is the main one
        return True
    return threading.current_thread() is threading.main_thread()


def cmd_solve(args: argparse.Namespace, root: Path) -> int:
    from solvers import registry

    puzzle = registry.get(args.slug)
    if args.level is not None and args.level not in puzzle.rungs:
        raise UserError(f"unknown rung {args.level!r} for {args.slug} "
                        f"(rungs: {', '.join(puzzle.rungs)})")
    board = _load_board(puzzle, args.input)
    t0 = time.perf_counter()
    try:
        res = _solve_bounded(puzzle, board, args)
    except BudgetExceeded as e:
        print(f"build-site: stopped: {e}; no verdict (raise --timeout or --max-nodes)",
              file=sys.stderr)
        return EXIT_BOUND
    except RecursionError:
        raise UserError("the board is too large for this solver's recursion; "
                        "try a smaller board") from None
    ms = (time.perf_counter() - t0) * 1000
    first = res.solutions[0] if res.solutions else None
    graded = res.stats.get("graded", True) is not False
    if args.json:
        print(json.dumps({"solutions": len(res.solutions),
                          "answer": puzzle.answer_rows(first) if first is not None else None,
                          "rung": res.rung, "graded": graded, "nodes": res.nodes,
                          "ms": round(ms, 3)},
                         ensure_ascii=False))
        return 0
    print(puzzle.render_board(board, None))
    print()
    more = "+" if len(res.solutions) >= args.limit else ""
    print(f"solutions found: {len(res.solutions)}{more} (limit {args.limit})")
    if first is not None:
        print(puzzle.render_board(board, first))
    elif res.fixed:
        print(f"no complete solution at level {args.level}; cells fixed: {len(res.fixed)}")
    # a SAT back end counts solver conflicts, not search nodes; the result says which
    what = res.stats.get("nodes", "search nodes")
    rung = res.rung or ("—" if graded else "not graded (--no-grade)")
    print(f"completed by rung: {rung}; {what}: {res.nodes}; time: {ms:.1f} ms")
    return 0


def cmd_verify(args: argparse.Namespace, root: Path) -> int:
    """Re-prove every banked board unique, by each method the puzzle offers: the ladder,
    the second engine (boards up to ``brute_max_cells``) and the puzzle's independent
    confirmers (``Puzzle.confirm``: name -> (board, answer) -> bool). A board counts as
    confirmed by a method when that method finds the banked answer and no other."""
    from site_builder.jsonio import read_stage, stage_path
    from solvers import registry

    slugs = args.slugs or registry.slugs()
    report: dict[str, Any] = {}
    failures: list[str] = []
    for slug in slugs:
        puzzle = registry.get(slug)
        extra = puzzle.confirm
        bank = read_stage(stage_path(root, slug, "bank"), slug, "bank")["data"]
        by_size: dict[str, dict[str, int]] = {}
        by_grade: dict[str, int] = {}
        methods = {"ladder": 0, "brute": 0, **{name: 0 for name in extra}}
        unique = independent = brute_checked = 0
        times = []
        for e in bank["boards"]:
            board = puzzle.board_from_json(e["board"])
            answer = puzzle.answer_from_json(e["answer"])
            want = puzzle.answer_rows(answer)
            t0 = time.perf_counter()
            res = puzzle.solve(board, limit=2)
            times.append(time.perf_counter() - t0)
            ok = len(res.solutions) == 1 and puzzle.answer_rows(res.solutions[0]) == want
            methods["ladder"] += ok
            others = []
            if e["h"] * e["w"] <= puzzle.brute_max_cells:
                bres = puzzle.brute(board, limit=2)
                brute_checked += 1
                b_ok = len(bres.solutions) == 1 and puzzle.answer_rows(bres.solutions[0]) == want
                methods["brute"] += b_ok
                others.append(b_ok)
            for name, check in extra.items():
                c_ok = bool(check(board, answer))
                methods[name] += c_ok
                others.append(c_ok)
            # proven: the ladder finds the banked answer alone and no other method that ran
            # disagrees; independent: some method sharing no code with the ladder confirmed it
            proven = ok and all(others)
            independent += bool(others) and all(others)
            s = by_size.setdefault(e["size"], {"boards": 0, "unique": 0})
            s["boards"] += 1
            if proven:
                unique += 1
                s["unique"] += 1
                by_grade[res.rung or "none"] = by_grade.get(res.rung or "none", 0) + 1
            else:
                failures.append(f"{slug} {e['id']}: not proven unique (a method disagrees)")
        report[slug] = {"boards": len(bank["boards"]), "unique": unique, "by_size": by_size,
                        "by_grade": by_grade, "brute_checked": brute_checked,
                        "methods": methods, "independent": independent}
        if not args.json:
            import statistics

            med = statistics.median(times) * 1000 if times else 0.0
            print(f"{slug}: {unique}/{len(bank['boards'])} boards proven unique, {independent} "
                  f"also by a method sharing no code with the ladder; median {med:.1f} ms a "
                  "board (ladder)")
            print("  confirmed by: " + ", ".join(f"{m} {n}" for m, n in methods.items())
                  + f" (second engine run on {brute_checked})")
            for size, s in by_size.items():
                print(f"  {size}: {s['unique']}/{s['boards']}")
            print("  grades: " + ", ".join(f"{g} {n}" for g, n in by_grade.items()))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, sort_keys=True))
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv = ["build", *argv]
    args = _parser().parse_args(argv)
    root = find_root()
    handlers = {"build": cmd_build, "serve": cmd_serve, "check": cmd_check,
                "deploy": cmd_deploy, "solve": cmd_solve, "verify": cmd_verify}
    try:
        return handlers[args.command](args, root)
    except (UserError, PuzzleError) as e:
        msg = " ".join(str(e).split())
        print(f"build-site: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("build-site: interrupted; dist/ and content/ were left as they were",
              file=sys.stderr)
        return 130
    except BrokenPipeError:
        os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
