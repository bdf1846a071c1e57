"""How Sukoro looks and reads on the site: rung names, the play page's input and help
text, and the board picture."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.playkit import digit_input, digit_text
from solvers.svg import ANSWER_FILL, ANSWER_INK, ANSWER_STROKE, Canvas

RUNG_NAMES = {
    "en": {"deg": "degree", "neq": "neighbours differ", "conn": "connection",
           "probe": "probe", "search": "search"},
    "ja": {"deg": "次数", "neq": "隣は別の数", "conn": "連結", "probe": "仮置き",
           "search": "探索"},
}

# Player states: the digit puzzles' (solvers/playkit.py). Printed clues are fixed
# numbered. The counting assist (off by default) shows a numbered cell's count and counts
# it as that digit.
PLAY = PlaySpec(
    model="cells",
    input=digit_input(),
    text={
        "en": digit_text("en", "write that digit", [
            ["Write a number from ", ["1"], " to ", ["4"], " in some cells; the rest stay blank."],
            ["A number is how many of its four neighbours hold numbers."],
            ["Two numbers side by side are different."],
            ["All numbered cells form one connected group."],
        ]),
        "ja": digit_text("ja", "その数字を書く", [
            ["いくつかのマスに ", ["1"], "〜", ["4"], " の数字を書き、残りは空白にします。"],
            ["数字は、上下左右の隣で数字が入っているマスの個数です。"],
            ["隣り合う数字は違う数です。"],
            ["数字の入ったマスはすべてひとつながりです。"],
        ]),
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
