"""How Sukoro looks and reads on the site: rung names, the play page's input and help
text, and the board picture."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.svg import ANSWER_FILL, ANSWER_INK, ANSWER_STROKE, Canvas

RUNG_NAMES = {
    "en": {"deg": "degree", "neq": "neighbours differ", "conn": "connection",
           "probe": "probe", "search": "search"},
    "ja": {"deg": "次数", "neq": "隣は別の数", "conn": "連結", "probe": "仮置き",
           "search": "探索"},
}

# Player states: 0 undecided, 1 numbered, 2 excluded. Printed clues are fixed numbered.
# There is no keypad: a numbered cell shows its live count of numbered neighbours.
PLAY = PlaySpec(
    model="cells",
    input={
        "cycle": [1, 2, 0],
        "keys": {"n": 1, "#": 1, "x": 2, ".": 2},
        "states": {"en": ["undecided", "numbered", "excluded"], "ja": ["未定", "数字", "空白"]},
        "trace": {"number": 1, "blank": 2},
    },
    text={
        "en": {
            "cycle": "numbered → excluded → undecided",
            "keys": [("N", "numbered"), ("X", "excluded")],
            "rules": [
                ["Write a number from ", ["1"], " to ", ["4"],
                 " in some cells; the rest stay blank."],
                [("A number is how many of its four neighbours hold numbers. Here you only "
                  "choose which cells are numbered: the page writes the count for you.")],
                ["Two numbers side by side are different."],
                ["All numbered cells form one connected group."],
            ],
        },
        "ja": {
            "cycle": "数字 → 空白の印 → 未定",
            "keys": [("N", "数字"), ("X", "空白の印")],
            "rules": [
                ["いくつかのマスに ", ["1"], "〜", ["4"], " の数字を書く。残りは空欄。"],
                [("数字は、上下左右の隣で数字が入っているマスの個数。ここでは数字を入れるマスを"
                  "選ぶだけで、数字は自動で表示されます。")],
                ["隣り合う数字は違う数。"],
                ["数字の入ったマスはすべてひとつながり。"],
            ],
        },
    },
)


def draw_board(board: Any, answer: Any, cell: int, label: str) -> str:
    """Printed clues as dark numbers; with an answer, its other numbers in light circles."""
    h, w, clues = board["h"], board["w"], board["clues"]
    rows = answer["rows"] if answer else None
    cv = Canvas(h, w, cell, label)
    for r in range(h):
        for c in range(w):
            if clues[r][c] is not None:
                cv.text(r, c, clues[r][c])
            elif rows and rows[r][c] != ".":
                cv.circle(r, c, fill=ANSWER_FILL, stroke=ANSWER_STROKE)
                cv.text(r, c, rows[r][c], cls="ans", colour=ANSWER_INK, scale=0.5)
    return cv.svg()
