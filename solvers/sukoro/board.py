"""Sukoro boards and answers: JSON, puzz.link URLs, the rule check, a text rendering.

A board is an H×W grid of clues (``None``, a digit, or ``"?"`` for a numbered cell whose
value is hidden). An answer is an H×W grid of values, ``0`` for blank and ``1``-``4`` for a
numbered cell. Each number is the count of its numbered orthogonal neighbours.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solvers.common import Cell, PuzzleError, Rule, RuleBook, Violation
from solvers.grid import Clue, check_clues, clues_from_json
from solvers.puzzlink import encode_cells, join_url, split_url

PID = "sukoro"


@dataclass(frozen=True)
class Board:
    h: int
    w: int
    clues: tuple[tuple[Clue, ...], ...]

    def __post_init__(self) -> None:
        check_clues(self.h, self.w, self.clues, max_value=9)

    @classmethod
    def empty(cls, h: int, w: int) -> Board:
        return cls(h, w, tuple(tuple(None for _ in range(w)) for _ in range(h)))

    @classmethod
    def from_flat(cls, h: int, w: int, flat: list[Clue]) -> Board:
        return cls(h, w, tuple(tuple(flat[r * w:(r + 1) * w]) for r in range(h)))

    def flat(self) -> list[Clue]:
        return [v for row in self.clues for v in row]

    def clue_count(self) -> int:
        return sum(v is not None for v in self.flat())

    def to_json(self) -> dict[str, Any]:
        return {"h": self.h, "w": self.w, "clues": [list(row) for row in self.clues]}

    @classmethod
    def from_json(cls, d: Any) -> Board:
        return cls(*clues_from_json(d))


@dataclass(frozen=True)
class Answer:
    h: int
    w: int
    values: tuple[tuple[int, ...], ...]

    @classmethod
    def from_flat(cls, h: int, w: int, flat: list[int]) -> Answer:
        return cls(h, w, tuple(tuple(flat[r * w:(r + 1) * w]) for r in range(h)))

    def flat(self) -> list[int]:
        return [v for row in self.values for v in row]

    def rows(self) -> list[str]:
        return ["".join(str(v) if v else "." for v in row) for row in self.values]

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows()}

    @classmethod
    def from_json(cls, d: Any) -> Answer:
        if not isinstance(d, dict) or "rows" not in d:
            raise PuzzleError("answer must be an object with a field 'rows'")
        rows = d["rows"]
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise PuzzleError("answer field 'rows' must be a non-empty list of strings")
        w = len(rows[0])
        vals = []
        for r, row in enumerate(rows):
            if len(row) != w:
                raise PuzzleError(f"answer row {r} has {len(row)} characters, expected {w}")
            out = []
            for c, ch in enumerate(row):
                if ch == ".":
                    out.append(0)
                elif ch in "1234":
                    out.append(int(ch))
                else:
                    raise PuzzleError(
                        f"answer row {r}, column {c}: {ch!r} is not '.' or a digit 1-4")
            vals.append(tuple(out))
        if w == 0:
            raise PuzzleError("answer rows are empty")
        return cls(len(rows), w, tuple(vals))


def answer_rows(answer: Answer) -> list[str]:
    return answer.rows()


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clues as digits (``?`` hidden), answer numbers in place, ``.`` blank."""
    lines = []
    for r in range(board.h):
        cells = []
        for c in range(board.w):
            clue = board.clues[r][c]
            if answer is not None:
                v = answer.values[r][c]
                cells.append(str(v) if v else ".")
            elif clue is None:
                cells.append(".")
            else:
                cells.append(str(clue))
        lines.append(" ".join(cells))
    return "\n".join(lines)


# -- puzz.link ------------------------------------------------------------------------

def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or the bare ``sukoro/W/H/body``) -> Board."""
    w, h, body = split_url(url, PID)
    n = w * h
    flat: list[Clue] = [None] * n
    i = 0
    for pos, ch in enumerate(body):
        if i >= n:
            break
        if "0" <= ch <= "9":
            flat[i] = int(ch)
            i += 1
        elif ch == ".":
            flat[i] = "?"
            i += 1
        elif "a" <= ch <= "z":
            i += ord(ch) - ord("a") + 1
        elif ch.isascii() and ch.isprintable():
            # pzprjs: any other character uses one cell and sets nothing
            i += 1
        else:
            raise PuzzleError(f"URL body character {ch!r} at position {pos} is not valid")
    return Board.from_flat(h, w, flat)


def _write(v: Clue) -> str:
    if v == "?":
        return "."
    if isinstance(v, int) and 0 <= v <= 9:
        return str(v)
    raise PuzzleError(f"clue {v!r} cannot be written in a Sukoro URL (0-9 or '?' only)")


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (Number10 body)."""
    return join_url(PID, board.w, board.h, encode_cells(board.clues, "a", 26, _write))


# -- the rule check -------------------------------------------------------------------

# The one rules table: Python's violations(), the play page's checker and the docs all
# read these texts. Fields: row/col 1-based; row2/col2 the second cell of a pair.
RULES = RuleBook((
    Rule("sukoro.clue",
         "that cell (a printed clue whose cell is blank or holds another digit; \"?\": only blank)",
         "The printed {clue} at row {row}, column {col} is not in the answer with that value.",
         "{row}行{col}列に印刷された{clue}が、その数字のまま答えに残っていません。"),
    # partial-only: a clue that no way of filling the undecided cells can satisfy
    Rule("sukoro.over", "the clue and its numbered neighbours",
         "The {clue} at row {row}, column {col} already has {count} numbered neighbours, "
         "more than {clue}.",
         "{row}行{col}列の{clue}の隣には、すでに数字のマスが{count}個あり、{clue}個を超えています。"),
    Rule("sukoro.under", "the clue and its excluded neighbours",
         "The {clue} at row {row}, column {col} can get at most {most} numbered neighbours, "
         "fewer than {clue}.",
         "{row}行{col}列の{clue}の隣で数字を入れられるマスは多くても{most}個で、"
         "{clue}個に届きません。"),
    Rule("sukoro.count", "that cell",
         "The {value} at row {row}, column {col} has {count} numbered neighbours, not {value}.",
         "{row}行{col}列の{value}の隣にある数字のマスは{count}個で、{value}個ではありません。"),
    Rule("sukoro.equal", "both cells",
         "The two {value}s at row {row}, column {col} and row {row2}, column {col2} touch; "
         "numbers side by side must differ.",
         "{row}行{col}列と{row2}行{col2}列で同じ{value}が隣り合っています。"
         "隣り合う数字は違う数でなければなりません。"),
    Rule("sukoro.isolated", "that cell",
         "The number at row {row}, column {col} has no numbered neighbour.",
         "{row}行{col}列の数字の隣に、数字のマスがひとつもありません。"),
    Rule("sukoro.connect", "every numbered cell outside the largest group",
         "The numbers are split into {pieces} groups; they must form one connected group.",
         "数字のマスが{pieces}つに分かれています。すべてひとつながりでなければなりません。"),
))


def violations(board: Board, answer: Answer) -> list[Violation]:
    if (board.h, board.w) != (answer.h, answer.w):
        raise PuzzleError(
            f"answer is {answer.h}×{answer.w} but the board is {board.h}×{board.w}")
    h, w = board.h, board.w
    val = answer.values
    out: list[Violation] = []

    def nbrs(r: int, c: int) -> list[Cell]:
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                if 0 <= r + dr < h and 0 <= c + dc < w]

    for r in range(h):
        for c in range(w):
            clue = board.clues[r][c]
            if clue is None:
                continue
            if val[r][c] == 0 or (clue != "?" and val[r][c] != clue):
                out.append(RULES.make("sukoro.clue", [(r, c)], row=r + 1, col=c + 1, clue=clue))
    for r in range(h):
        for c in range(w):
            count = sum(1 for a, b in nbrs(r, c) if val[a][b]) if val[r][c] else 0
            if val[r][c] and val[r][c] != count:
                out.append(RULES.make("sukoro.count", [(r, c)], row=r + 1, col=c + 1,
                                      value=val[r][c], count=count))
    for r in range(h):
        for c in range(w):
            v = val[r][c]
            if not v:
                continue
            if c + 1 < w and val[r][c + 1] == v:
                out.append(RULES.make("sukoro.equal", [(r, c), (r, c + 1)], value=v,
                                      row=r + 1, col=c + 1, row2=r + 1, col2=c + 2))
            if r + 1 < h and val[r + 1][c] == v:
                out.append(RULES.make("sukoro.equal", [(r, c), (r + 1, c)], value=v,
                                      row=r + 1, col=c + 1, row2=r + 2, col2=c + 1))
    for r in range(h):
        for c in range(w):
            if val[r][c] and not any(val[a][b] for a, b in nbrs(r, c)):
                out.append(RULES.make("sukoro.isolated", [(r, c)], row=r + 1, col=c + 1))
    # connectivity: groups in reading order of their earliest cell
    seen: set[Cell] = set()
    groups: list[list[Cell]] = []
    for r in range(h):
        for c in range(w):
            if val[r][c] and (r, c) not in seen:
                stack, grp = [(r, c)], []
                seen.add((r, c))
                while stack:
                    cell = stack.pop()
                    grp.append(cell)
                    for nb in nbrs(*cell):
                        if val[nb[0]][nb[1]] and nb not in seen:
                            seen.add(nb)
                            stack.append(nb)
                groups.append(grp)
    if len(groups) > 1:
        best = max(range(len(groups)), key=lambda i: (len(groups[i]), -i))
        rest = [cell for i, g in enumerate(groups) if i != best for cell in g]
        out.append(RULES.make("sukoro.connect", rest, pieces=len(groups)))
    return RULES.sort(out)
