"""Canal View boards, answers, rule variants and the rule check (``violations``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solvers.common import Cell, PuzzleError, Rule, RuleBook, Violation
from solvers.grid import Clue, check_clues, clues_from_json


@dataclass(frozen=True)
class Rules:
    """Which rules are in force. The defaults are the real puzzle; the rest are misreadings."""

    two_by_two: bool = True        # no fully flooded 2x2 block
    connected: bool = True         # flooded cells form one group
    dry_connected: bool = False    # (misreading) dry cells form one group too
    whole_line: bool = False       # (misreading) a number counts its whole row and column

    @property
    def name(self) -> str:
        if self == STANDARD:
            return "standard"
        parts = []
        if not self.two_by_two:
            parts.append("no2x2")
        if not self.connected:
            parts.append("broken")
        if self.dry_connected:
            parts.append("dryconnect")
        if self.whole_line:
            parts.append("wholeline")
        return "+".join(parts)


STANDARD = Rules()
NO_2X2 = Rules(two_by_two=False)
BROKEN = Rules(connected=False)
DRY_CONNECTED = Rules(dry_connected=True)
WHOLE_LINE = Rules(whole_line=True)
VARIANTS: dict[str, Rules] = {"no2x2": NO_2X2, "broken": BROKEN,
                              "dryconnect": DRY_CONNECTED, "wholeline": WHOLE_LINE}


@dataclass(frozen=True)
class Board:
    """An h x w grid; ``clues[r][c]`` is None, an int >= 0 or "?"."""

    h: int
    w: int
    clues: tuple[tuple[Clue, ...], ...]

    def __post_init__(self) -> None:
        check_clues(self.h, self.w, self.clues)

    @property
    def n(self) -> int:
        return self.h * self.w

    def cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.h) for c in range(self.w)]

    def clue_cells(self) -> list[Cell]:
        return [(r, c) for r in range(self.h) for c in range(self.w)
                if self.clues[r][c] is not None]

    def clue_mask(self) -> int:
        m = 0
        for r, c in self.clue_cells():
            m |= 1 << (r * self.w + c)
        return m

    def to_json(self) -> dict[str, Any]:
        return {"h": self.h, "w": self.w, "clues": [list(row) for row in self.clues]}

    @staticmethod
    def from_json(d: Any) -> Board:
        return Board(*clues_from_json(d))

    @staticmethod
    def from_dict(h: int, w: int, clues: dict[Cell, Clue]) -> Board:
        grid = [[None] * w for _ in range(h)]
        for (r, c), v in clues.items():
            grid[r][c] = v
        return Board(h, w, tuple(tuple(r) for r in grid))


@dataclass(frozen=True)
class Answer:
    """The flooded cells, as a bit mask over cells in reading order (bit r*w + c)."""

    h: int
    w: int
    mask: int

    def flooded(self, r: int, c: int) -> bool:
        return bool(self.mask >> (r * self.w + c) & 1)

    def rows(self) -> list[str]:
        return ["".join("#" if self.flooded(r, c) else "." for c in range(self.w))
                for r in range(self.h)]

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows()}

    @staticmethod
    def from_rows(rows: list[str]) -> Answer:
        if not rows:
            raise PuzzleError("answer.rows: empty")
        w = len(rows[0])
        mask = 0
        for r, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != w:
                raise PuzzleError(f"answer.rows[{r}]: expected a string of {w} characters")
            for c, ch in enumerate(row):
                if ch == "#":
                    mask |= 1 << (r * w + c)
                elif ch != ".":
                    raise PuzzleError(f"answer.rows[{r}][{c}]: {ch!r} is neither '#' nor '.'")
        return Answer(len(rows), w, mask)

    @staticmethod
    def from_json(d: Any) -> Answer:
        if not isinstance(d, dict) or "rows" not in d or not isinstance(d["rows"], list):
            raise PuzzleError("answer: expected an object with a list 'rows'")
        return Answer.from_rows(d["rows"])


DIRS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def seen_runs(board_h: int, board_w: int, mask: int, r: int, c: int) -> list[int]:
    """Flooded run length in each direction (up, right, down, left) from (r, c)."""
    out = []
    for dr, dc in DIRS:
        k = 0
        rr, cc = r + dr, c + dc
        while 0 <= rr < board_h and 0 <= cc < board_w and mask >> (rr * board_w + cc) & 1:
            k += 1
            rr += dr
            cc += dc
        out.append(k)
    return out


def line_count(board: Board, mask: int, r: int, c: int) -> int:
    """Flooded cells in the whole row and column of (r, c), the cell itself excluded."""
    n = 0
    for cc in range(board.w):
        if cc != c and mask >> (r * board.w + cc) & 1:
            n += 1
    for rr in range(board.h):
        if rr != r and mask >> (rr * board.w + c) & 1:
            n += 1
    return n


def groups(h: int, w: int, mask: int) -> list[list[Cell]]:
    """Orthogonally connected groups of the set bits, each sorted, in order of first cell."""
    seen = 0
    out = []
    for i in range(h * w):
        if not (mask >> i & 1) or seen >> i & 1:
            continue
        comp = []
        stack = [i]
        seen |= 1 << i
        while stack:
            j = stack.pop()
            comp.append(j)
            r, c = divmod(j, w)
            for dr, dc in DIRS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < h and 0 <= cc < w:
                    k = rr * w + cc
                    if mask >> k & 1 and not seen >> k & 1:
                        seen |= 1 << k
                        stack.append(k)
        out.append(sorted(divmod(j, w) for j in comp))
    return out


def _outside_largest(gs: list[list[Cell]]) -> tuple[Cell, ...]:
    best = max(range(len(gs)), key=lambda i: (len(gs[i]), -i))
    return tuple(sorted(c for i, g in enumerate(gs) if i != best for c in g))


# The one rules table: Python's violations(), the play page's checker and the docs all
# read these texts. Fields: row/col 1-based; row2/col2 the far corner of a 2x2 block.
RULES = RuleBook((
    Rule("canal.numbered", "that cell",
         "The numbered cell at row {row}, column {col} is flooded; numbered cells stay dry.",
         "{row}行{col}列の数字のマスが水路になっています。数字のマスは水路にできません。"),
    Rule("canal.2x2", "its four cells",
         "The 2×2 block at rows {row}–{row2}, columns {col}–{col2} is entirely flooded.",
         "{row}〜{row2}行・{col}〜{col2}列の2×2がすべて水路になっています。"),
    Rule("canal.count", "that cell",
         "The {clue} at row {row}, column {col} sees {seen} flooded cells, not {clue}.",
         "{row}行{col}列の{clue}から見える水路は{seen}マスで、{clue}マスではありません。"),
    Rule("canal.connect", "every flooded cell outside the largest group",
         "The canal is split into {pieces} separate pieces; it must be one connected group.",
         "水路が{pieces}つに分かれています。水路はすべてつながっていなければなりません。"),
    Rule("canal.dryconnect", "every dry cell outside the largest group",
         "The dry cells are split into {pieces} pieces.",
         "水路でないマスが{pieces}つに分かれています。"),
    # only while cells are undecided (solvers/canal_view/partial.py): what no filling repairs
    Rule("canal.over", "the number and the flooded cells it sees",
         "The {clue} at row {row}, column {col} already sees {seen}, more than {clue}.",
         "{row}行{col}列の{clue}からはすでに水路が{seen}マス見えていて、{clue}を超えています。"),
    Rule("canal.short", "the number and the dry marks that end its views",
         ("The {clue} at row {row}, column {col} can now see at most {most}, not {clue}: "
          "dry cells block its view."),
         "{row}行{col}列の{clue}から見える水路は多くても{most}マスで、{clue}に届きません。"
         "陸地が視界を遮っています。"),
    Rule("canal.walled", "the flooded cells outside the largest part",
         "Dry cells split the canal into {pieces} parts that can no longer join.",
         "水路が陸地に遮られて{pieces}つに分かれ、もうつなげられません。"),
))


def violations(board: Board, answer: Answer, rules: Rules = STANDARD) -> list[Violation]:
    """Every broken rule, sorted by rule order (numbered, 2x2, count, connect) then cells."""
    if (answer.h, answer.w) != (board.h, board.w):
        raise PuzzleError(f"answer is {answer.h}x{answer.w} but the board is {board.h}x{board.w}")
    h, w, m = board.h, board.w, answer.mask
    out: list[Violation] = []
    for r, c in board.clue_cells():
        if answer.flooded(r, c):
            out.append(RULES.make("canal.numbered", [(r, c)], row=r + 1, col=c + 1))
    if rules.two_by_two:
        for r in range(h - 1):
            for c in range(w - 1):
                cells = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                if all(answer.flooded(*x) for x in cells):
                    out.append(RULES.make("canal.2x2", cells, row=r + 1, col=c + 1,
                                          row2=r + 2, col2=c + 2))
    for r, c in board.clue_cells():
        v = board.clues[r][c]
        if v == "?":
            continue
        seen = line_count(board, m, r, c) if rules.whole_line else sum(seen_runs(h, w, m, r, c))
        if seen != v:
            out.append(RULES.make("canal.count", [(r, c)], row=r + 1, col=c + 1, clue=v,
                                  seen=seen))
    if rules.connected:
        gs = groups(h, w, m)
        if len(gs) > 1:
            out.append(RULES.make("canal.connect", _outside_largest(gs), pieces=len(gs)))
    if rules.dry_connected:
        gs = groups(h, w, ((1 << (h * w)) - 1) & ~m)
        if len(gs) > 1:
            out.append(RULES.make("canal.dryconnect", _outside_largest(gs), pieces=len(gs)))
    return out


def render_board(board: Board, answer: Answer | None = None) -> str:
    """Plain text: clues as numbers ('?' hidden), '#' flooded, '.' dry/undecided."""
    width = max([len(str(v)) for row in board.clues for v in row if v is not None] + [1])
    lines = []
    for r in range(board.h):
        cells = []
        for c in range(board.w):
            v = board.clues[r][c]
            if v is not None:
                s = str(v)
            elif answer is not None and answer.flooded(r, c):
                s = "#"
            else:
                s = "."
            cells.append(s.rjust(width))
        lines.append(" ".join(cells))
    return "\n".join(lines)


def answer_rows(answer: Answer) -> list[str]:
    return answer.rows()
