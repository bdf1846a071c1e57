"""How Slitherlink looks and reads on the site: rung names, the play page's input (the
edges model with the board's outline) and help text, and the board picture."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.svg import ANSWER_INK, INK, Canvas

from .board import Answer, Board, layout

# The other names pzprjs reads for Slitherlink in a URL (its variety.js entry for
# "slither" carries { kanpen: "slitherlink" }): `build-site solve` and the solve page
# read `slitherlink/W/H/body` as `slither/W/H/body` (site_builder.solve.own_pid).
PID_ALIASES = ("slitherlink",)

RUNG_NAMES = {
    "en": {"count": "clue count", "vertex": "corner degree", "corner": "clue corners",
           "loop": "one loop", "probe": "probe", "search": "search"},
    "ja": {"count": "数字の本数", "vertex": "格子点の次数", "corner": "数字と角",
           "loop": "ループは一つ", "probe": "仮置き", "search": "探索"},
}

# What a player reads for each rung (grade filter, hint heads), in everyday words;
# the rung's own name (RUNG_NAMES, the article's) follows it as a second label.
GRADES = {
    "en": {"count": "count the lines around a number",
           "vertex": "two lines or none at each dot", "corner": "numbers at a corner",
           "loop": "close only one loop", "probe": "try a line and find a contradiction",
           "search": "trial and error, deep"},
    "ja": {"count": "数字のまわりの線を数える", "vertex": "点ごとに線は 0 本か 2 本", "corner": "角にある数字",
           "loop": "ループは一つだけ閉じる", "probe": "一本試して矛盾を見つける", "search": "深い試行錯誤"},
}

# Player states: 0 undecided, 1 line, 2 cross (no line). The edge set includes the
# board's outline (``outline``: grid.js numbers it as board.py's Layout does).
PLAY = PlaySpec(
    model="edges",
    input={
        "outline": True,
        # the grid's corners drawn as dots, as on paper and in the thumbnails
        "dots": True,
        "cycle": [1, 2, 0], "keys": {"l": 1, "x": 2},
        "states": {"en": ["undecided", "line", "no line"], "ja": ["未定", "線", "線なし"]},
        "trace": {"line": 1, "none": 2},
    },
    text={
        "en": {
            "grades": GRADES["en"],
            "cycle": "line → cross (no line) → undecided",
            "keys": [("L", "line"), ("X", "cross (no line)")],
            "rules": [
                ["Draw one closed loop along the sides of the cells."],
                ["The loop never branches or crosses itself: every grid corner has ", ["0"],
                 " or ", ["2"], " lines."],
                [("A number says how many of its cell's four sides the loop uses; cells "
                  "without a number may have any.")],
            ],
        },
        "ja": {
            "grades": GRADES["ja"],
            "cycle": "線 → ×（線なし） → 未定",
            "keys": [("L", "線"), ("X", "×（線なし）")],
            "rules": [
                ["マスの辺に沿って、一つながりの閉じたループを引きます。"],
                ["ループは枝分かれも交差もしません。どの格子点でも線は ", ["0"], " 本か ",
                 ["2"], " 本です。"],
                ["数字は、そのマスの四辺のうちループが通る本数です。数字のないマスは何本でもかまいません。"],
            ],
        },
    },
)


def draw_board(board_json: Any, answer_json: Any, cell: int, label: str) -> str:
    """Clue digits (``?`` hidden) inside the grid, dots at the grid corners; with an
    answer, the loop drawn thick along its edges."""
    board = Board.from_json(board_json)
    canvas = Canvas(board.h, board.w, cell, label)
    for r, row in enumerate(board.clues):
        for c, v in enumerate(row):
            if v is not None:
                canvas.text(r, c, v)
    h, w = board.h, board.w
    dots = "".join(f'<circle cx="{1 + x * cell}" cy="{1 + y * cell}" r="{max(1.5, cell / 12):.1f}" '
                   f'fill="{INK}"/>' for y in range(h + 1) for x in range(w + 1))
    canvas.over.append(dots)
    if answer_json is not None:
        answer = Answer.from_json(answer_json)
        lay = layout(h, w)
        segs = []
        for e in answer.edges():
            a = lay.edge_ends[e][0]
            ya, xa = divmod(a, w + 1)
            if e < lay.nv:
                segs.append(f"M{1 + xa * cell} {1 + ya * cell}v{cell}")
            else:
                segs.append(f"M{1 + xa * cell} {1 + ya * cell}h{cell}")
        canvas.over.append(f'<path d="{"".join(segs)}" stroke="{ANSWER_INK}" '
                           f'stroke-width="{max(3, cell / 8):.1f}" stroke-linecap="round" '
                           'fill="none"/>')
    return canvas.svg()
