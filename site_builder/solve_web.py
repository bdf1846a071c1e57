"""What the solve page's Web Worker calls, under Pyodide: one board in, one JSON reply out.

The page's result is ``solve.result_json`` for the board, the same JSON ``build-site solve
SLUG URL --json --trace`` prints (timings aside): ``solve_text`` runs the CLI's own path
(``load_board``, ``solve_bounded``, ``result_json``) and adds, beside the result, what the
page draws (the board and each answer as the puzzle's own SVG) and, for bad input, a kind
the page turns into a message in its language. Pure: no file or network access, so the
same function runs in CPython (the tests) and in the browser.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from site_builder.errors import UserError
from site_builder.solve import (
    DEFAULT_TIMEOUT,
    board_url,
    check_length,
    pid_aliases,
    result_json,
    solve_bounded,
    without_query_pairs,
)
from solvers.common import MAX_CELLS, BudgetExceeded, PuzzleError

CELL = 32  # SVG units per cell (solvers/svg.py Canvas: a 1-unit margin)


# ---- wheels installed in the background ------------------------------------------------

class WheelNeeded(BaseException):
    """A solve imported a module of a wheel the worker has not installed yet, and could not
    wait for it. Not an Exception, so no solver's ``except ImportError`` (a fallback
    engine) or ``except Exception`` takes it: the call ends, the worker waits for the
    install and asks again, and the board is solved from the start as if the wheel had
    been there all along."""


class _Deferred(importlib.abc.MetaPathFinder):
    def __init__(self, names: list[str], install: Any = None) -> None:
        self.names = frozenset(names)
        self.install = install

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        top = name.partition(".")[0]
        if top not in self.names:
            return None
        if self.install is None or not _block(self.install):
            raise WheelNeeded(top)
        # the wheel is in: this import goes on, found where the install put it
        undefer()
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(name, path, target)


def _block(install: Any) -> bool:
    """Wait, in the middle of the solve, for the worker's install of the wheels
    (``install()``: a JavaScript promise, the one install already under way); False when
    this call cannot wait (no JavaScript promise integration in the browser, or the call
    was not entered with ``callPromising``), so the solve ends with WheelNeeded instead.
    The wait does not count against the solve's time limit."""
    try:
        from pyodide.ffi import can_run_sync, run_sync  # type: ignore[import-not-found]
    except ImportError:
        return False
    if not can_run_sync():
        return False
    from solvers import common

    t0 = time.perf_counter()
    run_sync(install())
    waited = time.perf_counter() - t0
    _WAITED.append(waited * 1000)
    if common._budget is not None:   # the CLI never waits: the wait is not the solve's
        common._budget.start += waited
    return True


_WAITED: list[float] = []   # ms each wait for the install took (solve_text's timing)


def defer(names: Any, install: Any = None) -> None:
    """Until ``undefer``, importing any of the top-level modules ``names`` (a wheel's, not
    installed yet) waits for ``install`` (the worker's, see ``_block``) where it can, and
    raises WheelNeeded where it cannot, instead of running a fallback."""
    undefer()
    sys.meta_path.insert(0, _Deferred(list(names), install))


def undefer() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _Deferred)]


def _wheel(e: WheelNeeded) -> str:
    return json.dumps(_error("wheel", f"needs {e}", module=str(e)))
def _pid_and_size(text: str) -> tuple[str, int | None, int | None]:
    """The puzzle id and W, H an URL names, read as puzz.link reads its envelope (only to
    tell "another puzzle", "an unknown puzzle" and "too large" apart from other errors;
    the puzzle's own decoder has the last word). The query pairs are skipped in one pass
    (``solve.without_query_pairs``)."""
    t = without_query_pairs(text)
    t = t[t.find("?") + 1:]
    parts = t.split("/", 4)
    pid = parts[0].removesuffix("_edit").removesuffix("_play")
    nums = [p for p in parts[1:4] if p.isascii() and p.isdigit() and len(p) <= 6]
    if len(nums) >= 2:
        return pid, int(nums[0]), int(nums[1])
    return pid, None, None


def _error(kind: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"ok": False, "error": kind, "message": message, **extra}


def classify(puzzle: Any, text: str) -> dict[str, Any] | None:
    """Bad input the page names in its own words: a board of another registered puzzle
    (``other``, with its slug), an unknown puzzle type (``unknown``), a board past the
    cap (``size``); None when the text is for this puzzle (its decoder may still fail)."""
    from solvers import registry

    if not text.strip():
        return _error("empty", "no board given")
    pid, w, h = _pid_and_size(text)
    if pid != puzzle.pid and pid not in pid_aliases(puzzle):
        for slug in registry.slugs():
            other = registry.get(slug)
            if other.pid == pid or pid in pid_aliases(other):
                return _error("other", f"a {slug} board, not a {puzzle.slug} one", slug=slug)
        return _error("unknown", f"unknown puzzle type {pid[:40]!r}", pid=pid[:40])
    if w is not None and h is not None and w * h > MAX_CELLS:
        return _error("size", f"board {w}×{h} is too large (at most {MAX_CELLS} cells)",
                      w=w, h=h, cap=MAX_CELLS)
    return None


def solve_text(slug: str, text: str, *, timeout: float = DEFAULT_TIMEOUT,
               max_nodes: int | None = None, trace: bool = True,
               progress: Callable[[int, float], None] | None = None,
               cell: int = CELL, split: bool = False) -> dict[str, Any]:
    """Solve the board ``text`` (a puzz.link URL in any form the CLI takes, or the bare
    ``pid/W/H/body``) as ``build-site solve SLUG TEXT --json [--trace]`` does.

    ``{"ok": True, "result": <the CLI's JSON>, "board": <board JSON>, "url": <puzz.link
    URL>, "svg": {"board": ..., "answers": [...]}, "timing": {phase: ms}}``, or ``{"ok":
    False, "error": kind, "message": ...}`` with kind one of empty, other, unknown, size,
    malformed, bound, recursion. ``timing`` (beside the result, never in it) is what the
    benchmark reports: ``setup`` (the puzzle looked up, the text checked), ``decode``,
    ``solve`` (solve_bounded: the verdict and the grade, one ladder), ``json``
    (result_json), ``svg``, ``wheel`` (a wait for the wheels' install, not counted in the
    others); with ``split``, ``verdict`` too: an ungraded solve of the same board
    afterwards, timed alone (the benchmark's, not the page's)."""
    timing: dict[str, float] = {}
    clock = time.perf_counter()
    _WAITED.clear()

    def lap(name: str) -> None:   # a wait for the wheels' install counts apart
        nonlocal clock
        now = time.perf_counter()
        waited = sum(_WAITED)
        _WAITED.clear()
        timing[name] = round((now - clock) * 1000 - waited, 1)
        if waited:
            timing["wheel"] = round(timing.get("wheel", 0) + waited, 1)
        clock = now

    from site_builder.solve import looks_like_url
    from solvers import registry

    puzzle = registry.get(slug)
    try:
        check_length(text)  # before any parsing, as in the CLI (solve.load_board)
    except UserError as e:
        return _error("malformed", str(e))
    text = text.strip()
    if text and not looks_like_url(text):
        return _error("malformed", f"{text[:60]!r} is not a puzz.link URL")
    bad = classify(puzzle, text)
    if bad is not None:
        return bad
    lap("setup")
    try:
        board = puzzle.decode(board_url(puzzle, text))  # as load_board reads a URL
    except (PuzzleError, UserError) as e:
        return _error("malformed", str(e))
    lap("decode")
    try:
        t0 = time.perf_counter()
        res = solve_bounded(puzzle, board, timeout=timeout, max_nodes=max_nodes,
                            progress=progress)
    except BudgetExceeded as e:
        return _error("bound", str(e), nodes=e.nodes, seconds=round(e.seconds, 3))
    except RecursionError:
        return _error("recursion", "the board is too large for this solver's recursion")
    ms = (time.perf_counter() - t0) * 1000
    lap("solve")
    out = result_json(puzzle, res, ms, board=board, trace=trace)
    lap("json")
    _LAST.clear()
    _LAST.update(slug=slug, board=board, solutions=res.solutions)
    bj = board.to_json()
    svgs = [puzzle.draw_board(bj, a.to_json(), cell, f"answer {i + 1}")
            for i, a in enumerate(res.solutions)]
    reply = {"ok": True, "result": out, "board": bj, "url": puzzle.encode(board),
             "svg": {"board": puzzle.draw_board(bj, None, cell, "board"), "answers": svgs},
             "clues": len(construct(slug).clues(bj)), "timing": timing}
    lap("svg")
    if split:   # after the page's own work, so that work is timed as the page does it
        with contextlib.suppress(BudgetExceeded, RecursionError):
            solve_bounded(puzzle, board, timeout=timeout, max_nodes=max_nodes, grade=False)
            lap("verdict")
    if len(res.solutions) == 1:
        reply["answerJson"] = res.solutions[0].to_json()   # what the player checks against
    if len(res.solutions) >= 2:
        a, b = (s.to_json() for s in res.solutions[:2])
        reply["diff"] = [list(c) for c in construct(slug).differ(a, b)]
    if not res.solutions:
        reply["broken"] = broken(puzzle, board)
    return reply


def broken(puzzle: Any, board: Any) -> list[dict[str, Any]]:
    """For a board with no answer, the rules its clues already break whatever is filled
    in, where the puzzle can tell (``Puzzle.irreparable`` on a board with every unit
    undecided, as the play page's Check would report it); [] otherwise."""
    if puzzle.irreparable is None:
        return []
    h, w = board.h, board.w
    units = h * (w - 1) + (h - 1) * w if puzzle.play.model == "edges" else h * w
    try:
        return [v.to_json() for v in puzzle.irreparable(board, [0] * units)]
    except (PuzzleError, ValueError, IndexError):
        return []


# The last board solve_text solved, so the page can ask for its explanation afterwards
# (the trace of a hard board takes seconds where the verdict takes a fraction of one).
_LAST: dict[str, Any] = {}


def trace_json() -> str:
    """The last solved board's ``trace`` entry of ``result_json`` (None unless it had
    exactly one answer), as a JSON string (or the ``wheel`` error object)."""
    from solvers import registry

    if not _LAST:
        return json.dumps(None)
    sols = _LAST["solutions"]
    puzzle = registry.get(_LAST["slug"])
    try:
        steps = puzzle.trace(_LAST["board"], sols[0]) if len(sols) == 1 else None
    except WheelNeeded as e:
        return _wheel(e)
    return json.dumps(steps, ensure_ascii=False)


def warm(slug: str) -> None:
    """Import the puzzle's modules ahead of its first solve (the worker calls this once
    the runtime is up, while the visitor is still editing). Anything that fails here (a
    module of a wheel not installed yet) is left for that solve to meet and report."""
    from solvers import registry

    with contextlib.suppress(BaseException):  # the solve itself meets it and says why
        registry.get(slug)


def warm_imports(names: Any) -> None:
    """Import the wheels' modules the solvers import (``runtime.wheel_imports``), once the
    wheels are in and before a solve asks: a wheel's modules are source, and compiling
    python-sat's takes over a second in the page. One that fails is left for the solve
    that needs it to meet and report."""
    for name in names:
        with contextlib.suppress(BaseException):
            importlib.import_module(str(name))


def solve_json(slug: str, text: str, timeout: float, max_nodes: int, trace: bool,
               progress: Callable[[int, float], None] | None = None,
               board_json: str = "", split: bool = False) -> str:
    """``solve_text`` as a JSON string (what crosses from Python to the worker's script);
    ``max_nodes`` 0 means no node limit. With ``board_json`` (the editor's board), that
    board is written as its puzz.link URL first and the URL solved, as the CLI would."""
    if board_json:
        made = json.loads(edit_json(slug, board_json))
        if not made["ok"]:
            return json.dumps(made, ensure_ascii=False)
        text = made["url"]
    try:
        reply = solve_text(slug, text, timeout=timeout, max_nodes=max_nodes or None,
                           trace=trace, progress=progress, split=split)
    except WheelNeeded as e:
        return _wheel(e)
    except Exception as e:  # noqa: BLE001 (a bug, not bad input: say so, leave no spinner)
        reply = _error("internal", f"{type(e).__name__}: {e}")
    return json.dumps(reply, ensure_ascii=False)


# ---- constructor help ------------------------------------------------------------------

def construct(slug: str) -> Any:
    """The puzzle's constructor helpers (``solvers/<pkg>/construct.py``: EDIT, clues,
    without, clue_from, differ)."""
    import importlib

    from solvers import registry

    return importlib.import_module(registry.package(slug) + ".construct")


def _unique(puzzle: Any, board_json: dict[str, Any], seconds: float) -> bool | None:
    """Whether the board has exactly one answer (None: past the bound)."""
    board = puzzle.board_from_json(board_json)
    try:
        res = solve_bounded(puzzle, board, limit=2, timeout=seconds, grade=False)
    except (BudgetExceeded, RecursionError):
        return None
    return len(res.solutions) == 1


def help_text(slug: str, text: str, *, budget: float = 10.0, most: int = 3,
              pair_cells: int = 8,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """What would make the board unique, or what it can spare, each proved by the solver.

    Two or more answers: ``diff``, the cells where the first two differ, and up to
    ``most`` ``suggestions``: a clue on a differing cell with its value from one of the
    answers, kept only when the board with it has exactly one answer; when no single clue
    does, ``pairs``: at most one pair of such clues (both values from the same answer, on
    two of the first ``pair_cells`` differing cells), proved the same way ([] when none
    of those pairs does). One answer:
    ``removable``, every clue whose removal leaves the board unique. Each trial solve is
    bounded; ``budget`` seconds in all (``complete`` False when it ran out)."""
    from solvers import registry

    puzzle = registry.get(slug)
    helper = construct(slug)
    check_length(text)
    board = puzzle.decode(board_url(puzzle, text))
    bj = board.to_json()
    # the budget counts from here: the first solve spends it too (issue 43)
    start = time.monotonic()
    left = lambda: budget - (time.monotonic() - start)
    res = solve_bounded(puzzle, board, limit=2, timeout=budget, grade=False)
    out: dict[str, Any] = {"solutions": len(res.solutions), "complete": True}
    if len(res.solutions) >= 2:
        a, b = (s.to_json() for s in res.solutions[:2])
        diff = [list(c) for c in helper.differ(a, b)]
        out["diff"] = diff
        found: list[dict[str, Any]] = []
        tried = 0
        for cell in diff:
            for ans in (a, b):
                cand = helper.clue_from(bj, ans, tuple(cell))
                if cand is None or left() <= 0:
                    continue
                tried += 1
                if progress is not None:
                    progress(tried, len(diff) * 2)
                if _unique(puzzle, cand, max(0.1, left())):
                    cb = puzzle.board_from_json(cand)
                    found.append({"cell": cell, "url": puzzle.encode(cb), "board": cand})
                    break
            if len(found) >= most or left() <= 0:
                break
        out["suggestions"] = found
        if not found and left() > 0:
            out["pairs"] = _pairs(puzzle, helper, bj, (a, b), diff, left, pair_cells)
            out["pairCells"] = min(pair_cells, len(diff))
        out["complete"] = left() > 0
    elif len(res.solutions) == 1:
        cells = helper.clues(bj)
        removable = []
        for i, cell in enumerate(cells):
            if left() <= 0:
                out["complete"] = False
                break
            if progress is not None:
                progress(i + 1, len(cells))
            cand = helper.without(bj, cell)
            if _unique(puzzle, cand, max(0.1, left())):
                removable.append({"cell": list(cell), "board": cand,
                                  "url": puzzle.encode(puzzle.board_from_json(cand))})
        out["removable"] = removable
        out["clues"] = len(cells)
    return out


def _pairs(puzzle: Any, helper: Any, bj: dict[str, Any], answers: tuple[Any, Any],
           diff: list[list[int]], left: Callable[[], float], cells: int
           ) -> list[dict[str, Any]]:
    """The first pair of clues on two differing cells, values from one answer, that makes
    the board unique (proved by a bounded solve), as ``[{"cells", "url", "board"}]``;
    [] when none of the pairs among the first ``cells`` differing cells does (or the time
    ran out: ``complete`` says which)."""
    few = [tuple(c) for c in diff[:cells]]
    for ans in answers:
        for k, c1 in enumerate(few):
            one = helper.clue_from(bj, ans, c1)
            if one is None:
                continue
            for c2 in few[k + 1:]:
                if left() <= 0:
                    return []
                two = helper.clue_from(one, ans, c2)
                if two is None:
                    continue
                if _unique(puzzle, two, max(0.1, left())):
                    return [{"cells": [list(c1), list(c2)], "board": two,
                             "url": puzzle.encode(puzzle.board_from_json(two))}]
    return []


def help_json(slug: str, text: str, budget: float,
              progress: Callable[[int, int], None] | None = None) -> str:
    try:
        reply = {"ok": True, **help_text(slug, text, budget=budget, progress=progress)}
    except WheelNeeded as e:
        return _wheel(e)
    except (PuzzleError, UserError, BudgetExceeded) as e:
        reply = _error("malformed", str(e))
    except Exception as e:  # noqa: BLE001 (a bug: say so, leave no spinner)
        reply = _error("internal", f"{type(e).__name__}: {e}")
    return json.dumps(reply, ensure_ascii=False)


def edit_json(slug: str, board_json: str) -> str:
    """A board drawn in the editor (its JSON) as the puzz.link URL the page puts in its
    fragment, or an error naming the field at fault."""
    from solvers import registry

    puzzle = registry.get(slug)
    try:
        board = puzzle.board_from_json(json.loads(board_json))
        return json.dumps({"ok": True, "url": puzzle.encode(board)})
    except (PuzzleError, ValueError) as e:
        return json.dumps(_error("malformed", str(e)), ensure_ascii=False)


def editor_spec(slug: str) -> dict[str, Any]:
    return dict(construct(slug).EDIT)
