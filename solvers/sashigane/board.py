"""Sashigane boards and answers: clue cells, rule variants, JSON, the L geometry and the
plain text ``build-site solve`` prints.

A board is an H×W grid of clue cells. Each cell is empty, a circle (``None`` or a
number), an arrow (``up``, ``down``, ``left``, ``right``) or pzprjs's ``?`` mark, which
no rule reads. The board carries its rule variant: ``seed`` (every piece holds exactly
one circle, on its corner, and exactly one arrow) or ``standard`` (puzz.link's rules: a
piece may hold no clue, or an arrow on each end).

An answer gives each cell the index of its piece (``-1``: no piece yet). An answer
read from drawn borders also keeps the borders that separate nothing (``stray``).
"""

from __future__ import annotations

from typing import Any

from solvers.common import MAX_CELLS, Cell, Frozen, PuzzleError

VARIANTS = ("seed", "standard")
DIRS: dict[str, tuple[int, int]] = {"up": (-1, 0), "down": (1, 0), "left": (0, -1),
                                    "right": (0, 1)}
ARROW_TOKENS = {"^": "up", "v": "down", "<": "left", ">": "right"}
TOKEN_OF = {d: t for t, d in ARROW_TOKENS.items()}

EMPTY, CIRCLE, ARROW, MARK = 0, 1, 2, 3


class Clue(Frozen):
    """One printed cell: ``kind`` is EMPTY, CIRCLE, ARROW or MARK; ``value`` is the
    circle's number (or None) or the arrow's direction name."""

    __slots__ = ("kind", "value")
    _fields = ("kind", "value")
    kind: int
    value: Any

    def __init__(self, kind: int, value: Any = None) -> None:
        init = object.__setattr__
        init(self, "kind", kind)
        init(self, "value", value)

    def token(self) -> str:
        if self.kind == CIRCLE:
            return "o" if self.value is None else f"o{self.value}"
        if self.kind == ARROW:
            return TOKEN_OF[self.value]
        if self.kind == MARK:
            return "?"
        return "."

    @classmethod
    def parse(cls, tok: Any, where: str) -> Clue:
        if not isinstance(tok, str):
            raise PuzzleError(f"{where} is {tok!r}; expected a text token such as "
                              "'.', 'o', 'o5', '^', 'v', '<', '>' or '?'")
        if tok == ".":
            return NOTHING
        if tok == "?":
            return Clue(MARK)
        if tok in ARROW_TOKENS:
            return Clue(ARROW, ARROW_TOKENS[tok])
        if tok == "o":
            return Clue(CIRCLE, None)
        if tok.startswith("o") and tok[1:].isdigit() and len(tok) <= 5:
            return Clue(CIRCLE, int(tok[1:]))
        raise PuzzleError(f"{where} is {tok!r}; expected '.', 'o', 'o' followed by a "
                          "number, '^', 'v', '<', '>' or '?'")


NOTHING = Clue(EMPTY)


class Board(Frozen):
    __slots__ = ("cells", "h", "rules", "w")
    _fields = ("h", "w", "cells", "rules")
    h: int
    w: int
    cells: tuple[Clue, ...]          # row-major, h*w entries
    rules: str

    def __init__(self, h: int, w: int, cells: tuple[Clue, ...], rules: str = "seed") -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "cells", cells)
        init(self, "rules", rules)
        if not (isinstance(self.h, int) and isinstance(self.w, int)) or self.h < 1 or self.w < 1:
            raise PuzzleError(f"board size must be positive integers, got h={self.h!r} "
                              f"w={self.w!r}")
        if len(self.cells) != self.h * self.w:
            raise PuzzleError(f"board has {len(self.cells)} cells, expected h*w = "
                              f"{self.h * self.w}")
        if self.rules not in VARIANTS:
            raise PuzzleError(f"board rules {self.rules!r} is not one of {', '.join(VARIANTS)}")

    def at(self, r: int, c: int) -> Clue:
        return self.cells[r * self.w + c]

    def circles(self) -> list[int]:
        return [i for i, k in enumerate(self.cells) if k.kind == CIRCLE]

    def numbers(self) -> int:
        return sum(1 for k in self.cells if k.kind == CIRCLE and k.value is not None)

    def with_rules(self, rules: str) -> Board:
        return Board(self.h, self.w, self.cells, rules)

    def to_json(self) -> dict[str, Any]:
        rows = [[self.cells[r * self.w + c].token() for c in range(self.w)]
                for r in range(self.h)]
        return {"h": self.h, "w": self.w, "rules": self.rules, "cells": rows}

    @classmethod
    def from_json(cls, d: Any) -> Board:
        if not isinstance(d, dict):
            raise PuzzleError(f"board must be an object with h, w, rules, cells; got "
                              f"{type(d).__name__}")
        for k in ("h", "w", "cells"):
            if k not in d:
                raise PuzzleError(f"board is missing the field {k!r}")
        h, w, rows = d["h"], d["w"], d["cells"]
        if (not (isinstance(h, int) and isinstance(w, int)) or isinstance(h, bool)
                or isinstance(w, bool) or h < 1 or w < 1):
            raise PuzzleError(f"board size must be positive integers, got h={str(h)[:20]} "
                              f"w={str(w)[:20]}")
        if h * w > MAX_CELLS:  # before a row is read: the URL's cap, for files too
            raise PuzzleError(f"board {h}×{w} is too large (at most {MAX_CELLS} cells)")
        if not isinstance(rows, list) or len(rows) != h:
            raise PuzzleError(f"board field 'cells' must be a list of {h} rows (h)")
        cells = []
        for r, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != w:
                raise PuzzleError(f"cells row {r} must be a list of {w} tokens (w)")
            for c, tok in enumerate(row):
                cells.append(Clue.parse(tok, f"cells[{r}][{c}] (row {r}, column {c})"))
        return cls(h, w, tuple(cells), d.get("rules", "seed"))


class Answer(Frozen):
    __slots__ = ("h", "pieces", "stray", "w")
    _fields = ("h", "w", "pieces", "stray")
    h: int
    w: int
    pieces: tuple[int, ...]           # row-major piece index per cell, -1 = none
    stray: tuple[tuple[Cell, Cell], ...]

    def __init__(self, h: int, w: int, pieces: tuple[int, ...],
                 stray: tuple[tuple[Cell, Cell], ...] = ()) -> None:
        init = object.__setattr__
        init(self, "h", h)
        init(self, "w", w)
        init(self, "pieces", pieces)
        init(self, "stray", stray)

    @classmethod
    def from_labels(cls, h: int, w: int, labels: list[int],
                    stray: tuple[tuple[Cell, Cell], ...] = ()) -> Answer:
        """Pieces renumbered 0, 1, ... in reading order of their first cell."""
        ren: dict[int, int] = {}
        out = []
        for v in labels:
            if v < 0:
                out.append(-1)
                continue
            if v not in ren:
                ren[v] = len(ren)
            out.append(ren[v])
        return cls(h, w, tuple(out), tuple(sorted(stray)))

    @classmethod
    def from_borders(cls, h: int, w: int, vert: list[list[int]],
                     horz: list[list[int]]) -> Answer:
        """Pieces = groups of cells joined without crossing a drawn border.
        ``vert[r][c]``: border between (r, c) and (r, c+1); ``horz[r][c]``: between
        (r, c) and (r+1, c). A drawn border inside one group is kept as stray."""
        if len(vert) != h or any(len(row) != w - 1 for row in vert):
            raise PuzzleError(f"vertical borders must be {h} rows of {w - 1}")
        if len(horz) != h - 1 or any(len(row) != w for row in horz):
            raise PuzzleError(f"horizontal borders must be {h - 1} rows of {w}")
        lab = [-1] * (h * w)
        n = 0
        for s in range(h * w):
            if lab[s] >= 0:
                continue
            lab[s] = n
            stack = [s]
            while stack:
                i = stack.pop()
                r, c = divmod(i, w)
                nbs = []
                if c + 1 < w and not vert[r][c]:
                    nbs.append(i + 1)
                if c > 0 and not vert[r][c - 1]:
                    nbs.append(i - 1)
                if r + 1 < h and not horz[r][c]:
                    nbs.append(i + w)
                if r > 0 and not horz[r - 1][c]:
                    nbs.append(i - w)
                for j in nbs:
                    if lab[j] < 0:
                        lab[j] = n
                        stack.append(j)
            n += 1
        stray = []
        for r in range(h):
            for c in range(w):
                i = r * w + c
                if c + 1 < w and vert[r][c] and lab[i] == lab[i + 1]:
                    stray.append(((r, c), (r, c + 1)))
                if r + 1 < h and horz[r][c] and lab[i] == lab[i + w]:
                    stray.append(((r, c), (r + 1, c)))
        return cls.from_labels(h, w, lab, tuple(stray))

    def borders(self) -> tuple[list[list[int]], list[list[int]]]:
        """The drawn borders of this answer (between different pieces, and stray)."""
        h, w, p = self.h, self.w, self.pieces
        vert = [[int(p[r * w + c] != p[r * w + c + 1]) for c in range(w - 1)] for r in range(h)]
        horz = [[int(p[r * w + c] != p[(r + 1) * w + c]) for c in range(w)]
                for r in range(h - 1)]
        for (a, b), (c, d) in self.stray:
            if a == c:
                vert[a][min(b, d)] = 1
            else:
                horz[min(a, c)][b] = 1
        return vert, horz

    def groups(self) -> list[list[int]]:
        n = max(self.pieces, default=-1) + 1
        out: list[list[int]] = [[] for _ in range(n)]
        for i, v in enumerate(self.pieces):
            if v >= 0:
                out[v].append(i)
        return out

    def rows(self) -> list[list[int]]:
        return [list(self.pieces[r * self.w:(r + 1) * self.w]) for r in range(self.h)]

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pieces": self.rows()}
        if self.stray:
            d["stray"] = [[list(a), list(b)] for a, b in self.stray]
        return d

    @classmethod
    def from_json(cls, d: Any) -> Answer:
        if not isinstance(d, dict) or "pieces" not in d:
            raise PuzzleError("answer must be an object with a field 'pieces'")
        rows = d["pieces"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
            raise PuzzleError("answer field 'pieces' must be a non-empty list of rows")
        w = len(rows[0])
        if len(rows) * w > MAX_CELLS:
            raise PuzzleError(f"answer {len(rows)}×{w} is too large (at most {MAX_CELLS} cells)")
        flat = []
        for r, row in enumerate(rows):
            if len(row) != w:
                raise PuzzleError(f"answer row {r} has {len(row)} entries, expected {w}")
            for c, v in enumerate(row):
                if isinstance(v, bool) or not isinstance(v, int) or v < -1:
                    raise PuzzleError(f"answer pieces[{r}][{c}] is {v!r}; expected a piece "
                                      "number (0 or more) or -1")
                flat.append(v)
        if w == 0:
            raise PuzzleError("answer rows are empty")
        stray = []
        for s in d.get("stray", []):
            try:
                (a, b), (c, e) = s
                stray.append(((int(a), int(b)), (int(c), int(e))))
            except (TypeError, ValueError) as err:
                raise PuzzleError(f"answer stray border {s!r} is not [[r, c], [r, c]]") from err
        return cls.from_labels(len(rows), w, flat, tuple(stray))


class LShape(Frozen):
    """An L piece read off a set of cells: its corner and its two arm ends; each arm
    as the list of its cells from the end to just before the corner."""

    __slots__ = ("arms", "corner", "ends", "toward")
    _fields = ("corner", "ends", "toward", "arms")
    corner: int
    ends: tuple[int, int]
    toward: tuple[str, str]           # direction from each end toward the corner
    arms: tuple[tuple[int, ...], tuple[int, ...]]

    def __init__(self, corner: int, ends: tuple[int, int], toward: tuple[str, str],
                 arms: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        init = object.__setattr__
        init(self, "corner", corner)
        init(self, "ends", ends)
        init(self, "toward", toward)
        init(self, "arms", arms)


def l_shape(cells: list[int], w: int) -> LShape | None:
    """The L that ``cells`` form, or None when they are not an L (width 1, two arms of
    length at least 1 meeting at a corner)."""
    rs = [i // w for i in cells]
    cs = [i % w for i in cells]
    r0, r1, c0, c1 = min(rs), max(rs), min(cs), max(cs)
    if r1 == r0 or c1 == c0 or len(cells) != (r1 - r0) + (c1 - c0) + 1:
        return None
    have = set(cells)
    for rr in (r0, r1):
        for cc in (c0, c1):
            row = {rr * w + c for c in range(c0, c1 + 1)}
            col = {r * w + cc for r in range(r0, r1 + 1)}
            if row | col == have:
                far_c = c1 if cc == c0 else c0
                far_r = r1 if rr == r0 else r0
                hend, vend = rr * w + far_c, far_r * w + cc
                hdir = "right" if cc > far_c else "left"
                vdir = "down" if rr > far_r else "up"
                step_c = 1 if far_c < cc else -1
                step_r = 1 if far_r < rr else -1
                harm = tuple(rr * w + c for c in range(far_c, cc, step_c))
                varm = tuple(r * w + cc for r in range(far_r, rr, step_r))
                return LShape(rr * w + cc, (hend, vend), (hdir, vdir), (harm, varm))
    return None


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clue tokens; with an answer, borders drawn with | and -."""
    tokens = [k.token() for k in board.cells]
    wid = max(len(t) for t in tokens)
    w = board.w
    if answer is None:
        return "\n".join(" ".join(tokens[r * w + c].ljust(wid) for c in range(w)).rstrip()
                         for r in range(board.h))
    p = answer.pieces
    lines = []
    for r in range(board.h):
        top = "+"
        for c in range(w):
            edge = r == 0 or p[r * w + c] != p[(r - 1) * w + c]
            top += ("-" * wid if edge else " " * wid) + "+"
        lines.append(top)
        row = "|"
        for c in range(w):
            edge = c == w - 1 or p[r * w + c] != p[r * w + c + 1]
            row += tokens[r * w + c].ljust(wid) + ("|" if edge else " ")
        lines.append(row)
    lines.append("+" + ("-" * wid + "+") * w)
    return "\n".join(lines)


def answer_rows(answer: Answer) -> list[list[int]]:
    return answer.rows()
