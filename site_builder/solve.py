"""`build-site solve`: one board from a puzz.link URL or a board file, solved under a
time and node budget.

``solve_report`` is the whole solve without the command line: the solve page runs it in
the browser (Pyodide), so a board gives the same JSON in both places.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from site_builder.errors import UserError
from solvers.common import Budget, BudgetExceeded, PuzzleError, active

if TYPE_CHECKING:
    import signal
else:
    try:  # signal's C core: the module itself builds its enums at import (a few ms of
        import _signal as signal  # a solve process); the functions used here are the same
    except ImportError:  # pragma: no cover - another Python implementation
        import signal

if TYPE_CHECKING:
    from pathlib import Path

DEFAULT_TIMEOUT = 60.0
EXIT_BOUND = 3  # solve stopped at --timeout or --max-nodes
MAX_BOARD_FILE = 4 << 20  # a 100x100 board is about 50 KB of JSON
# The longest solve input taken, in characters, checked before any parsing: far above any
# board's URL (10,000 cells at a few characters each, plus a region puzzle's borders), and
# it bounds the work a pasted text can cost before the solve's own time limit starts.
MAX_INPUT = 64 << 10
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def looks_like_url(text: str) -> bool:
    """A puzz.link URL (any host) or its bare ``pid/W/H/body`` form, as opposed to a path:
    ``http://`` or ``https://``, or a first piece of ASCII letters, digits and ``_``
    before a ``/``. Decided before any file lookup, so a long URL is never tried as a
    file name."""
    if text.endswith(".json"):
        return False
    if text.startswith(("http://", "https://")):
        return True
    slash = text.find("/")
    return slash > 0 and all(ch in _WORD for ch in text[:slash])


def _is_short_existing_file(text: str) -> bool:
    """Whether ``text`` names an existing file, asked only of a name the system could
    hold (each part at most 255 bytes, the whole under 4,096), so that a long URL is
    never handed to the file system."""
    raw = text.encode("utf-8", "surrogateescape")
    if len(raw) >= 4096 or b"\0" in raw or any(len(p) > 255 for p in raw.split(b"/")):
        return False
    try:  # as Path(text).is_file() reads it: a trailing "/" dropped
        return os.path.isfile(text.rstrip("/") or text)
    except (OSError, ValueError):
        return False


def check_length(text: str) -> None:
    """A UserError for an input longer than ``MAX_INPUT``: one line, before any parsing."""
    if len(text) > MAX_INPUT:
        raise UserError(f"the input is {len(text):,} characters long; a board URL or file "
                        f"name is at most {MAX_INPUT:,} characters (a 100×100 board's URL "
                        "is far shorter)")


_QUERY_PAIR = re.compile(r"[A-Za-z0-9_]+=[A-Za-z0-9_]*&")


def without_query_pairs(text: str) -> str:
    """``text`` with the ``key=value&`` pairs before the puzzle id taken out, in one pass:
    the URL that the codec (``solvers.puzzlink.split_url``) reads exactly as it would read
    ``text``, but with no pair left for it to skip.

    Done here, where user input enters (the CLI's solve path and ``solve_web``), and not in
    ``split_url``, whose loop re-slices the rest of the text once per pair (quadratic:
    160,000 pairs took 3.2 s before any budget started): the code of ``solvers/`` feeds
    every stage's cache key, so changing it there would restale every stage. The steps
    are split_url's own, in its order: line breaks dropped, the ends stripped, everything
    up to the first ``?`` kept as it is, then the pairs skipped."""
    t = text.replace("\r", "").replace("\n", "").strip()
    q = t.find("?") + 1   # 0 when there is none: pairs are skipped from the start
    pos = q
    while m := _QUERY_PAIR.match(t, pos):
        pos = m.end()
    if pos == q:
        return t
    # without a "?" the rest keeps a "?" in front, so that split_url strips nothing more
    # from it (" pid/..." after the pairs is refused there, as it is without this step)
    return t[:q] + t[pos:] if q else "?" + t[pos:]


def _path_text(text: str) -> str:
    """``str(pathlib.PurePosixPath(text))`` without pathlib: empty and "." parts
    dropped (a leading "//" kept, as POSIX lets it mean something else)."""
    if not text:
        return "."
    lead = "/" if text.startswith("/") else ""
    if text.startswith("//") and not text.startswith("///"):
        lead = "//"
    parts = [p for p in text.split("/") if p and p != "."]
    return lead + "/".join(parts) if parts or lead else "."


def pid_aliases(puzzle: Any) -> tuple[str, ...]:
    """The other names pzprjs reads for the puzzle's genre in a URL (pzprjs's
    ``variety.js`` aliases), as the puzzle's package declares them: ``PID_ALIASES`` in
    its ``presentation`` module (a view-only role, outside the stages' code hash, so a
    list added later restales nothing); none when it declares none. The list is the
    puzzle's: this module names no puzzle. Asked only of a URL that names another pid
    than the puzzle's own, so an ordinary solve does not load the module."""
    from solvers import registry
    from solvers.common import import_module

    try:
        view = import_module(f"{registry.package(puzzle.slug)}.presentation")
    except Exception:  # noqa: BLE001 - a puzzle made in code, not read from a package
        return ()
    aliases = getattr(view, "PID_ALIASES", ())
    return tuple(a for a in aliases if isinstance(a, str)) if isinstance(aliases, tuple) else ()


def own_pid(puzzle: Any, url: str) -> str:
    """``url`` (as ``without_query_pairs`` leaves it) with a pid alias of the puzzle's
    genre replaced by the puzzle's own pid (an ``_edit``/``_play`` suffix kept), so that
    its decoder reads every URL pzprjs reads for the genre; any other text unchanged."""
    start = url.find("?") + 1
    end = url.find("/", start)
    if end < 0:
        return url
    name = url[start:end]
    base = name.removesuffix("_edit").removesuffix("_play")
    if base == puzzle.pid or base not in pid_aliases(puzzle):
        return url
    return url[:start] + puzzle.pid + name[len(base):] + url[end:]


def board_url(puzzle: Any, text: str) -> str:
    """What the puzzle's decoder is given for the URL ``text`` (pairs skipped, an alias
    of its pid made its pid)."""
    return own_pid(puzzle, without_query_pairs(text))


def load_board(puzzle: Any, text: str) -> Any:
    """A board from a puzz.link URL, or from a JSON file (a board or a bank entry). An
    existing file wins over the URL reading, so ``boards/hard`` is read as the file."""
    check_length(text)
    if looks_like_url(text) and not _is_short_existing_file(text):
        return puzzle.decode(board_url(puzzle, text))
    # the name as pathlib.Path would print it (a trailing "/" and "." parts dropped,
    # doubled "/" merged), read with os.path: importing pathlib (urllib.parse and
    # ipaddress with it) cost a solve process more than a small board's solve
    path = _path_text(text)
    try:
        is_file = os.path.isfile(path)
    except (OSError, ValueError) as e:  # a name too long, a NUL byte
        raise UserError(f"{text[:60]!r}: neither a puzz.link URL nor a readable file ({e})"
                        ) from e
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


def solve_bounded(puzzle: Any, board: Any, *, level: str | None = None, limit: int = 2,
                  timeout: float = DEFAULT_TIMEOUT, max_nodes: int | None = None,
                  grade: bool = True,
                  progress: Callable[[int, float], None] | None = None,
                  spent: float = 0.0) -> Any:
    """``puzzle.solve`` under a time and node budget. Searches count their nodes against
    it; where the host has interval timers (not in the browser), an alarm also stops work
    that visits no node (a long propagation). ``spent``: seconds of the limit already
    used (reading the board), so that ``timeout`` bounds the whole command."""
    left = max(timeout - spent, 0.001)
    budget = Budget(max_nodes=max_nodes, timeout=left, progress=progress)

    late = f"time limit of {timeout:g} s reached"
    rang = []

    def alarm(signum: int, frame: object) -> None:
        # the next search node stops the solve too: the raise below is lost when the
        # signal lands in a finaliser or a gc callback (under the fuzz test, eleven
        # alarms in a row were, and a 0.5 s limit took 5.6 s)
        rang.append(True)
        budget.max_nodes = budget.nodes
        raise BudgetExceeded(late, budget.nodes, budget.elapsed())

    use_alarm = hasattr(signal, "setitimer") and sys.platform != "emscripten" and threading_main()
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, alarm)
        # repeats every 0.5 s: an alarm that lands in a finaliser (where Python can only
        # report the exception, not raise it) is followed by another
        signal.setitimer(signal.ITIMER_REAL, left + 0.5, 0.5)
    try:
        with active(budget):
            if not grade and puzzle.ungraded and level is None:
                return puzzle.solve(board, limit=limit, grade=False)
            return puzzle.solve(board, level=level, limit=limit)
    except BudgetExceeded as e:
        # a stop at the time limit names the command's limit, not the share of it the
        # budget got (``left``), whichever of the alarm and the budget stopped first
        if e.reason != late and (rang or e.reason.startswith("time")):
            raise BudgetExceeded(late, e.nodes, e.seconds) from None
        raise
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        if progress is not None and budget.nodes >= 256:
            print(file=sys.stderr)


def threading_main() -> bool:
    threading = sys.modules.get("threading")
    if threading is None:  # no thread was ever started through it: this is the main one
        return True
    return threading.current_thread() is threading.main_thread()


def result_json(puzzle: Any, res: Any, ms: float, board: Any = None,
                trace: bool = False) -> dict[str, Any]:
    """What ``build-site solve --json`` prints for a finished solve (and the solve page
    writes into its ``<output id="solve-result">``): ``answers`` holds every answer
    found (up to the limit), ``marks`` each of them as a player writes it (the puzzle's
    ``number_rows`` where it has one, else its answer rows), where ``answers`` may show
    less; with ``trace``, a unique board's step-by-step explanation (``puzzle.trace``; None
    unless exactly one answer)."""
    first = res.solutions[0] if res.solutions else None
    number_rows = getattr(puzzle, "number_rows", None)

    def written(answer: Any) -> Any:
        if number_rows is None or board is None:
            return puzzle.answer_rows(answer)
        return number_rows(board, answer)

    out = {"solutions": len(res.solutions),
           "answer": puzzle.answer_rows(first) if first is not None else None,
           "answers": [puzzle.answer_rows(a) for a in res.solutions],
           "marks": [written(a) for a in res.solutions],
           "rung": res.rung, "graded": res.stats.get("graded", True) is not False,
           "nodes": res.nodes, "ms": round(ms, 3)}
    if trace:
        out["trace"] = puzzle.trace(board, first) if len(res.solutions) == 1 else None
    return out


def run(args: Any, root: Path) -> int:
    from solvers import registry

    puzzle = registry.get(args.slug)
    if args.level is not None and args.level not in puzzle.rungs:
        raise UserError(f"unknown rung {args.level!r} for {args.slug} "
                        f"(rungs: {', '.join(puzzle.rungs)})")
    t_read = time.perf_counter()
    board = load_board(puzzle, args.input)
    t0 = time.perf_counter()
    spent = t0 - t_read    # --timeout covers reading the board as well as solving it
    try:
        if spent >= args.timeout:
            raise BudgetExceeded(f"time limit of {args.timeout:g} s reached", 0, spent)
        res = solve_bounded(puzzle, board, level=args.level, limit=args.limit,
                            timeout=args.timeout, max_nodes=args.max_nodes,
                            grade=not args.no_grade,
                            progress=_progress_line if sys.stderr.isatty() else None,
                            spent=spent)
    except BudgetExceeded as e:
        print(f"build-site: stopped: {e}; no verdict (raise --timeout or --max-nodes)",
              file=sys.stderr)
        return EXIT_BOUND
    except RecursionError:
        raise UserError("the board is too large for this solver's recursion; "
                        "try a smaller board") from None
    ms = (time.perf_counter() - t0) * 1000
    if args.json:
        import json

        print(json.dumps(result_json(puzzle, res, ms, board, getattr(args, "trace", False)),
                         ensure_ascii=False))
        return 0
    first = res.solutions[0] if res.solutions else None
    graded = res.stats.get("graded", True) is not False
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


