"""Two tiny test puzzles that exercise the play framework's other input models.

* ``test-regions`` ("regions"): every region of the board holds exactly one numbered
  cell; a numbered cell shows its region's live count of numbered cells.
* ``test-edges`` ("edges"): cut the grid into dominoes by drawing lines between cells;
  beside the board, a readout counts the dominoes closed so far. One board's hint trace
  lists lines, the other's lists cells and their pieces (read by ``traceUnits``).

Each is a real ``solvers.common.Puzzle`` (rules table, JSON readers, ``violations``,
``PlaySpec``) with a checker module ``<slug>.js`` in this folder and a couple of boards
(``BANKS``). They are not in ``solvers.registry``: the site never builds them; the play
tests render them through the real ``play.html.j2`` and drive them in chromium.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from solvers.common import PlaySpec, Puzzle, PuzzleError, Rule, RuleBook, SolveResult, Violation

HERE = Path(__file__).resolve().parent
STATIC = {slug: [HERE / f"{slug}.js"] + sorted(HERE.glob(f"{slug}.css"))
          for slug in ("test-regions", "test-edges")}


def _unused(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError("a play-framework test puzzle has no engines")


def _rows(d: Any, key: str, n: int, width: int, chars: str) -> list[str]:
    rows = d.get(key) if isinstance(d, dict) else None
    if not isinstance(rows, list) or len(rows) != n or not all(
            isinstance(r, str) and len(r) == width and set(r) <= set(chars) for r in rows):
        raise PuzzleError(f"answer.{key}: expected {n} strings of {width} of {chars!r}")
    return rows


# ---- regions: one numbered cell per region ------------------------------------------

REGION_RULES = RuleBook((
    Rule("one.given", "that cell",
         "The given number at row {row}, column {col} is left blank.",
         "{row}行{col}列の最初からある数字が空白になっています。"),
    Rule("one.none", "every cell of the region",
         "The region at row {row}, column {col} has no numbered cell.",
         "{row}行{col}列の領域に数字のマスがありません。"),
    Rule("one.many", "the region's numbered cells",
         "The region at row {row}, column {col} has {count} numbered cells, not one.",
         "{row}行{col}列の領域に数字のマスが{count}個あります。"),
))


def regions_board(d: Any) -> dict[str, Any]:
    if not isinstance(d, dict) or not {"h", "w", "regions", "clues"} <= set(d):
        raise PuzzleError("board: expected h, w, regions, clues")
    return d


def regions_answer(d: Any) -> list[str]:
    rows = d.get("rows") if isinstance(d, dict) else None
    if not isinstance(rows, list) or not rows:
        raise PuzzleError("answer.rows: expected a list of strings")
    return _rows(d, "rows", len(rows), len(rows[0]), ".123456789")


def regions_violations(board: dict[str, Any], rows: list[str]) -> list[Violation]:
    h, w = board["h"], board["w"]
    if (len(rows), len(rows[0])) != (h, w):
        raise PuzzleError("answer size differs from the board")
    out = []
    cells_of: dict[Any, list[tuple[int, int]]] = {}
    for r in range(h):
        for c in range(w):
            cells_of.setdefault(board["regions"][r][c], []).append((r, c))
            if board["clues"][r][c] is not None and rows[r][c] == ".":
                out.append(REGION_RULES.make("one.given", [(r, c)], row=r + 1, col=c + 1))
    for cells in cells_of.values():
        r0, c0 = cells[0]
        on = [(r, c) for r, c in cells if rows[r][c] != "."]
        if not on:
            out.append(REGION_RULES.make("one.none", cells, row=r0 + 1, col=c0 + 1))
        elif len(on) > 1:
            out.append(REGION_RULES.make("one.many", on, row=r0 + 1, col=c0 + 1,
                                         count=len(on)))
    return REGION_RULES.sort(out)


def regions_irreparable(board: dict[str, Any], states: Any) -> list[Violation]:
    """What no filling of the undecided cells repairs (states: 0 undecided, 1 numbered,
    2 blank): a given number marked blank, a region with two numbered cells, a region
    whose every cell is decided blank."""
    h, w = board["h"], board["w"]
    out = []
    cells_of: dict[Any, list[tuple[int, int]]] = {}
    for r in range(h):
        for c in range(w):
            cells_of.setdefault(board["regions"][r][c], []).append((r, c))
            if board["clues"][r][c] is not None and states[r * w + c] == 2:
                out.append(REGION_RULES.make("one.given", [(r, c)], row=r + 1, col=c + 1))
    for cells in cells_of.values():
        r0, c0 = cells[0]
        st = [states[r * w + c] for r, c in cells]
        on = [cell for cell, s in zip(cells, st, strict=True) if s == 1]
        if not on and 0 not in st:
            out.append(REGION_RULES.make("one.none", cells, row=r0 + 1, col=c0 + 1))
        elif len(on) > 1:
            out.append(REGION_RULES.make("one.many", on, row=r0 + 1, col=c0 + 1,
                                         count=len(on)))
    return REGION_RULES.sort(out)


REGIONS_TEXT = {
    "en": {"cycle": "numbered → blank mark → undecided",
           "keys": [("N", "numbered"), ("X", "blank mark")],
           "rules": [["Each region holds exactly one numbered cell."],
                     ["A numbered cell shows how many numbered cells its region has."]]},
    "ja": {"cycle": "数字 → 空白の印 → 未定",
           "keys": [("N", "数字"), ("X", "空白の印")],
           "rules": [["各領域に数字のマスがちょうど一つ。"],
                     ["数字のマスには、その領域の数字のマスの個数が表示されます。"]]},
}


def _puzzle(slug: str, names: dict[str, str], rules: RuleBook, board_from_json: Any,
            answer_from_json: Any, violations: Any, play: PlaySpec,
            irreparable: Any) -> Puzzle:
    return Puzzle(
        slug=slug, names=names, pid=slug, package_dir=HERE, rungs=("step",),
        rung_names={"en": {"step": "step", "probe": "probe", "search": "search"},
                    "ja": {"step": "一手", "probe": "仮定", "search": "探索"}},
        rules=rules, board_from_json=board_from_json, answer_from_json=answer_from_json,
        decode=_unused, encode=_unused, violations=violations,
        solve=lambda *a, **k: SolveResult([]), brute=lambda *a, **k: SolveResult([]),
        answer_rows=lambda a: a, render_board=_unused, draw_board=_unused, play=play,
        stages=(), generate=_unused, trace=_unused, irreparable=irreparable)


def _regions_play() -> PlaySpec:
    return PlaySpec(model="regions", input={
        "cycle": [1, 2, 0], "keys": {"n": 1, "x": 2, "#": 1, ".": 2}, "count": 1,
        "states": {"en": ["undecided", "numbered", "blank"], "ja": ["未定", "数字", "空白"]},
        "trace": {"number": 1, "blank": 2}}, text=REGIONS_TEXT)


REGIONS = _puzzle("test-regions", {"en": "One per Region", "ja": "領域に一つ"}, REGION_RULES,
                  regions_board, regions_answer, regions_violations, _regions_play(),
                  regions_irreparable)


# ---- edges: cut the grid into dominoes ------------------------------------------------

EDGE_RULES = RuleBook((
    Rule("domino.size", "every cell of the piece",
         "The piece at row {row}, column {col} has {size} cells; a domino has two.",
         "{row}行{col}列のピースは{size}マスです。ドミノは二マスです。"),
    Rule("domino.dangling", "the two cells the line separates",
         "The line between row {row}, column {col} and row {row2}, column {col2} is inside "
         "one piece.",
         "{row}行{col}列と{row2}行{col2}列の間の線が、一つのピースの中にあります。"),
))


def edges_board(d: Any) -> dict[str, Any]:
    if not isinstance(d, dict) or not {"h", "w"} <= set(d):
        raise PuzzleError("board: expected h, w")
    return d


def edges_answer(d: Any) -> dict[str, list[str]]:
    right, down = d.get("right"), d.get("down")
    if not isinstance(right, list) or not isinstance(down, list) or not right:
        raise PuzzleError("answer: expected lists 'right' and 'down'")
    h, w = len(right), len(right[0]) + 1
    return {"right": _rows(d, "right", h, w - 1, "01"), "down": _rows(d, "down", h - 1, w, "01")}


def pieces(h: int, w: int, right: list[str], down: list[str]) -> list[list[tuple[int, int]]]:
    """Cells connected without crossing a line, each piece sorted, in reading order."""
    lines = "".join(right) + "".join(down)      # in grid.js edgeIndex order
    return _groups(h, w, lambda u: lines[u] == "0")


def edges_violations(board: dict[str, Any], ans: dict[str, list[str]]) -> list[Violation]:
    h, w = board["h"], board["w"]
    right, down = ans["right"], ans["down"]
    if (len(right), len(right[0]) + 1) != (h, w):
        raise PuzzleError("answer size differs from the board")
    out = []
    piece_of = {}
    for k, piece in enumerate(pieces(h, w, right, down)):
        for cell in piece:
            piece_of[cell] = k
        if len(piece) != 2:
            r, c = piece[0]
            out.append(EDGE_RULES.make("domino.size", piece, row=r + 1, col=c + 1,
                                       size=len(piece)))
    for r in range(h):
        for c in range(w):
            for (r2, c2), line in (((r, c + 1), c + 1 < w and right[r][c] == "1"),
                                   ((r + 1, c), r + 1 < h and down[r][c] == "1")):
                if line and piece_of[(r, c)] == piece_of[(r2, c2)]:
                    out.append(EDGE_RULES.make("domino.dangling", [(r, c), (r2, c2)],
                                               row=r + 1, col=c + 1, row2=r2 + 1, col2=c2 + 1))
    return EDGE_RULES.sort(out)


def _edge_unit(h: int, w: int, r: int, c: int, side: str) -> int:
    """grid.js edgeIndex: every "r" edge in reading order, then every "b" edge."""
    return r * (w - 1) + c if side == "r" else h * (w - 1) + r * w + c


def _groups(h: int, w: int, joined: Any) -> list[list[tuple[int, int]]]:
    """Cells connected through the borders where joined(unit) holds, in reading order."""
    seen: set[tuple[int, int]] = set()
    out = []
    for r in range(h):
        for c in range(w):
            if (r, c) in seen:
                continue
            seen.add((r, c))
            stack, group = [(r, c)], []
            while stack:
                y, x = stack.pop()
                group.append((y, x))
                for ny, nx, e in ((y, x + 1, (y, x, "r")), (y, x - 1, (y, x - 1, "r")),
                                  (y + 1, x, (y, x, "b")), (y - 1, x, (y - 1, x, "b"))):
                    if 0 <= ny < h and 0 <= nx < w and (ny, nx) not in seen \
                            and joined(_edge_unit(h, w, *e)):
                        seen.add((ny, nx))
                        stack.append((ny, nx))
            out.append(sorted(group))
    return out


def edges_irreparable(board: dict[str, Any], states: Any) -> list[Violation]:
    """What no filling of the undecided lines repairs (states: 0 undecided, 1 line, 2 no
    line): cells joined by "no line" marks into three or more, a cell closed in by lines
    on every side, a line inside a piece the marks already join."""
    h, w = board["h"], board["w"]
    out = []
    joined = _groups(h, w, lambda u: states[u] == 2)
    piece_of = {}
    for k, piece in enumerate(joined):
        for cell in piece:
            piece_of[cell] = k
        if len(piece) > 2:
            r, c = piece[0]
            out.append(EDGE_RULES.make("domino.size", piece, row=r + 1, col=c + 1,
                                       size=len(piece)))
    for piece in _groups(h, w, lambda u: states[u] != 1):
        if len(piece) == 1:
            r, c = piece[0]
            out.append(EDGE_RULES.make("domino.size", piece, row=r + 1, col=c + 1, size=1))
    for r in range(h):
        for c in range(w):
            for r2, c2, side in ((r, c + 1, "r"), (r + 1, c, "b")):
                if r2 < h and c2 < w and states[_edge_unit(h, w, r, c, side)] == 1 \
                        and piece_of[(r, c)] == piece_of[(r2, c2)]:
                    out.append(EDGE_RULES.make("domino.dangling", [(r, c), (r2, c2)],
                                               row=r + 1, col=c + 1, row2=r2 + 1, col2=c2 + 1))
    return EDGE_RULES.sort(out)


EDGES_TEXT = {
    "en": {"cycle": "line → no-line mark → undecided",
           "keys": [("L", "line"), ("X", "no-line mark")],
           "rules": [["Draw lines between cells to cut the grid into dominoes."],
                     ["Every piece is two cells side by side; no line ends inside a piece."]],
           "readout": {"pieces": "Dominoes: {done} of {total}"}},
    "ja": {"cycle": "線 → 線なしの印 → 未定",
           "keys": [("L", "線"), ("X", "線なしの印")],
           "rules": [["マスの間に線を引き、盤をドミノに切り分ける。"],
                     ["どのピースも隣り合う二マス。ピースの中で線が途切れてはいけない。"]],
           "readout": {"pieces": "ドミノ: {done} / {total}"}},
}


def _edges_play() -> PlaySpec:
    return PlaySpec(model="edges", css=True, input={
        "cycle": [1, 2, 0], "keys": {"l": 1, "x": 2},
        "states": {"en": ["undecided", "line", "no line"], "ja": ["未定", "線", "線なし"]},
        "trace": {"line": 1, "none": 2}}, text=EDGES_TEXT)


EDGES = _puzzle("test-edges", {"en": "Domino Cut", "ja": "ドミノ切り"}, EDGE_RULES,
                edges_board, edges_answer, edges_violations, _edges_play(), edges_irreparable)

PUZZLES = {p.slug: p for p in (REGIONS, EDGES)}


# ---- boards ----------------------------------------------------------------------------

LEVELS = ["easy", "medium", "hard", "expert"]
DIFFICULTY = {"levels": LEVELS, "thresholds": {"easy": 1, "medium": 2, "hard": 3},
              "measure": {"en": "probe and search steps in the hint trace",
                          "ja": "ヒントの手順のうち仮定と探索の数"}}


def _difficulty(trace: list[dict[str, Any]]) -> tuple[str, dict[str, int]]:
    """A label from the trace's probe and search steps, against DIFFICULTY's thresholds."""
    hard = sum(1 for s in trace if s.get("rung") in ("probe", "search"))
    level = "expert"
    for name in LEVELS[:3]:
        if hard <= DIFFICULTY["thresholds"][name]:
            level = name
            break
    return level, {"steps": len(trace), "probe_search": hard}


def _entry(bid: str, board: dict[str, Any], answer: Any, trace: list[dict[str, Any]],
           clues: int, grade: str = "step", difficulty: str | None = None) -> dict[str, Any]:
    h, w = board["h"], board["w"]
    level, effort = _difficulty(trace)
    return {"id": bid, "size": f"{h}x{w}", "h": h, "w": w, "grade": grade, "clues": clues,
            "url": f"https://puzz.link/p?test/{w}/{h}/", "board": board, "answer": answer,
            "trace": trace, "difficulty": difficulty or level, "effort": effort}


def _at(cells: list[list[int]], lang: str) -> str:
    """Cells named as a sentence's subject: "Row 1, column 2 and row 2, column 1"."""
    if lang == "ja":
        return "と".join(f"{r + 1}行{c + 1}列" for r, c in cells)
    names = [f"row {r + 1}, column {c + 1}" for r, c in cells]
    text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return text[0].upper() + text[1:]


def _regions_trace(board: dict[str, Any], rows: list[str]) -> list[dict[str, Any]]:
    """One deduction a step: a region's given number leaves the rest blank; elsewhere the
    first region's number is found by a probe, the others' by search, and then the rest
    of the region is blank."""
    h, w = board["h"], board["w"]
    cells_of: dict[Any, list[list[int]]] = {}
    for r in range(h):
        for c in range(w):
            cells_of.setdefault(board["regions"][r][c], []).append([r, c])
    steps: list[dict[str, Any]] = []
    probed = False
    for cells in cells_of.values():
        r0, c0 = cells[0]
        given = [x for x in cells if board["clues"][x[0]][x[1]] is not None]
        number = given[0] if given else next(x for x in cells if rows[x[0]][x[1]] != ".")
        if not given:
            r, c = number
            if not probed:
                probed = True
                steps.append({
                    "rung": "probe", "cells": [number], "states": ["number"],
                    "why": [x for x in cells if x != number] or [number],
                    "en": (f"Try blank at row {r + 1}, column {c + 1}: it leads to a "
                           f"contradiction at the region at row {r0 + 1}, column {c0 + 1}, "
                           "which would have no numbered cell, so it is numbered."),
                    "ja": (f"{r + 1}行{c + 1}列を空白と仮定すると、{r0 + 1}行{c0 + 1}列の領域に"
                           "数字のマスがなくなって矛盾します。したがって数字です。"),
                    "detail": {"en": "With the other cells of the region blank, nothing is "
                                     "left to hold the region's one numbered cell.",
                               "ja": "領域のほかのマスが空白なので、領域にただ一つの数字のマスを"
                                     "置ける場所がほかにありません。"},
                    "detail_cells": cells})
            else:
                steps.append({
                    "rung": "search", "cells": [number], "states": ["number"],
                    "why": [number],
                    "en": ("No short chain of deductions decides a cell here; the search "
                           f"shows row {r + 1}, column {c + 1} is numbered."),
                    "ja": ("ここでは短い推論の連鎖で決まるマスがありません。探索によると"
                           f"{r + 1}行{c + 1}列は数字です。"),
                    "detail": {"en": "The search tries both states of a cell and keeps the "
                                     "one that leads to the answer.",
                               "ja": "探索はマスの二つの状態を試し、答えにつながる方を残します。"}})
        rest = [x for x in cells if x != number]
        for k in range(0, len(rest), 8):
            part = rest[k:k + 8]
            r, c = number
            verb = "is" if len(part) == 1 else "are"
            steps.append({
                "rung": "step", "cells": part, "states": ["blank"] * len(part),
                "why": [number],
                "en": (f"{_at(part, 'en')} {verb} blank: the region at row {r0 + 1}, column "
                       f"{c0 + 1} already has its numbered cell at row {r + 1}, column {c + 1}."),
                "ja": (f"{_at(part, 'ja')}は空白です。{r0 + 1}行{c0 + 1}列の領域には、すでに"
                       f"{r + 1}行{c + 1}列に数字のマスがあります。"),
                "detail": {"en": "Each region holds exactly one numbered cell, so once one cell "
                                 "of a region is numbered, every other cell of it is blank.",
                           "ja": "各領域に数字のマスはちょうど一つです。一つのマスが数字なら、"
                                 "同じ領域のほかのマスはすべて空白です。"},
                "detail_cells": cells})
    return steps


def _regions_bank() -> dict[str, Any]:
    a = {"h": 3, "w": 3, "regions": [[0, 0, 1], [0, 2, 1], [2, 2, 1]],
         "clues": [[1, None, None], [None, None, None], [None, None, 1]]}
    a_rows = ["1..", ".1.", "..1"]
    b = {"h": 2, "w": 4, "regions": [[0, 0, 1, 1], [2, 2, 2, 1]],
         "clues": [[None] * 4, [None] * 4]}
    b_rows = ["1..1", ".1.."]
    # A 12x12 board (the phone test's size): 2x2 regions, every third one with its number
    # given.
    n = 12
    c_regions = [[(r // 2) * (n // 2) + c // 2 for c in range(n)] for r in range(n)]
    c_grid = [["."] * n for _ in range(n)]
    c_clues: list[list[int | None]] = [[None] * n for _ in range(n)]
    for k in range((n // 2) ** 2):
        r, c = 2 * (k // (n // 2)) + k % 2, 2 * (k % (n // 2)) + (k // 3) % 2
        c_grid[r][c] = "1"
        if k % 3 == 0:
            c_clues[r][c] = 1
    c = {"h": n, "w": n, "regions": c_regions, "clues": c_clues}
    c_rows = ["".join(row) for row in c_grid]
    clues = sum(x is not None for row in c_clues for x in row)
    return {"difficulty": DIFFICULTY,
            # Bank order: a hard board first, so a newcomer's first board (the first easy
            # one) is not simply the first.
            "boards": [_entry("2x4-01", b, {"rows": b_rows}, _regions_trace(b, b_rows), 0),
                       _entry("3x3-01", a, {"rows": a_rows}, _regions_trace(a, a_rows), 2),
                       _entry("12x12-01", c, {"rows": c_rows}, _regions_trace(c, c_rows),
                              clues)]}


def _edges_bank() -> dict[str, Any]:
    a = {"h": 2, "w": 4}
    a_ans = {"right": ["101", "101"], "down": ["0110"]}      # two upright, two lying
    b = {"h": 2, "w": 3}
    b_ans = {"right": ["10", "10"], "down": ["011"]}

    def domino(cells: list[list[int]], edges: list[list[Any]], states: list[str],
               why: list[list[int]], rung: str = "step") -> dict[str, Any]:
        (r1, c1), (r2, c2) = cells
        return {"rung": rung, "cells": cells, "edges": edges, "states": states, "why": why,
                "en": (f"Row {r1 + 1}, column {c1 + 1} and row {r2 + 1}, column {c2 + 1} "
                       "form a domino: no other neighbour is left for them."),
                "ja": (f"{r1 + 1}行{c1 + 1}列と{r2 + 1}行{c2 + 1}列で一つのドミノです。"
                       "ほかに組める隣のマスが残っていません。"),
                "detail": {"en": "A cell whose other neighbours are taken or beyond the frame "
                                 "must pair with the one neighbour left.",
                           "ja": "ほかの隣のマスがふさがっているか盤の外なので、残った一つの"
                                 "隣のマスと組むしかありません。"},
                "detail_cells": cells}

    a_trace = [
        domino([[0, 0], [1, 0]], [[0, 0, "b"], [0, 0, "r"], [1, 0, "r"]],
               ["none", "line", "line"], [[0, 0]]),
        domino([[0, 1], [0, 2]], [[0, 1, "r"], [0, 1, "b"], [0, 2, "b"], [0, 2, "r"]],
               ["none", "line", "line", "line"], [[0, 0], [1, 0]]),
        domino([[1, 1], [1, 2]], [[1, 1, "r"], [1, 2, "r"]], ["none", "line"],
               [[0, 1], [0, 2]]),
        domino([[0, 3], [1, 3]], [[0, 3, "b"]], ["none"], [[1, 1], [1, 2]], "probe"),
    ]
    # The second board keeps the old trace format (no "why", no "detail"), and its steps
    # speak of cells and the pieces they join, as a puzzle whose deductions fix cells may;
    # the module's traceUnits maps that to lines.
    b_trace = [
        {"rung": "step", "cells": [[0, 0], [1, 0]], "pieces": ["A", "A"],
         "en": "The step sentence.", "ja": "一手の文。"},
        {"rung": "search", "cells": [[r, c] for r in range(2) for c in range(3)],
         "pieces": ["A", "B", "B", "A", "C", "C"],
         "en": "The search sentence.", "ja": "探索の文。"}]
    return {"difficulty": DIFFICULTY,
            "boards": [_entry("2x4-01", a, a_ans, a_trace, 0),
                       _entry("2x3-01", b, b_ans, b_trace, 0)]}


BANKS = {"test-regions": _regions_bank(), "test-edges": _edges_bank()}
