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

# Player states (the digit puzzles' states, templates/static/play/grid.js): 0 undecided,
# 1 numbered (a digit goes here, not written yet), 2 blank, 2 + d the digit d, typed as
# on puzz.link (keys or the number pad). Printed clues are fixed numbered. The counting
# assist (off by default) shows a numbered cell's count and counts it as that digit.
PLAY = PlaySpec(
    model="cells",
    input={
        "digits": True,
        "cycle": [1, 2, 0],
        "keys": {"n": 1, "#": 1, "x": 2, ".": 2},
        "states": {"en": ["undecided", "numbered", "blank"], "ja": ["未定", "数字", "空白"]},
        "trace": {"number": 1, "blank": 2},
        # small candidate digits, pencilled in candidate mode (this key or the pad's button)
        "candidates": {"key": "c"},
    },
    text={
        "en": {
            "cycle": "numbered → blank → undecided",
            "keys": [("Digits", "write that digit"), ("N", "numbered (digit still to write)"),
                     ("X", "blank"), ("C", ("candidate mode: a digit then pencils a small "
                                            "candidate, or rubs it out"))],
            "tap": ("Click or tap a cell to select it, then type a digit or use the number pad "
                    "under the board. Click the selected cell again to cycle its marks: {cycle}. "
                    "With the counting assist on, a click cycles at once and a numbered cell shows "
                    "its count."),
            "rules": [
                ["Write a number from ", ["1"], " to ", ["4"],
                 " in some cells; the rest stay blank."],
                ["A number is how many of its four neighbours hold numbers."],
                ["Two numbers side by side are different."],
                ["All numbered cells form one connected group."],
            ],
        },
        "ja": {
            "cycle": "数字 → 空白 → 未定",
            "keys": [("数字キー", "その数字を書く"), ("N", "数字が入る印（数字は未記入）"),
                     ("X", "空白"), ("C", "候補の入力：数字で小さな候補を書き入れ、もう一度で消す")],
            "tap": ("マスをクリック／タップして選び、数字キーか盤の下の数字パッドで数字を書きます。選"
                    "んだマスをもう一度押すと、印が「{cycle}」の順に切り替わります。個数の自動表示"
                    "を入れると、押すだけで切り替わり、数字のマスに個数が出ます。"),
            "rules": [
                ["いくつかのマスに ", ["1"], "〜", ["4"], " の数字を書き、残りは空白にします。"],
                ["数字は、上下左右の隣で数字が入っているマスの個数です。"],
                ["隣り合う数字は違う数です。"],
                ["数字の入ったマスはすべてひとつながりです。"],
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
