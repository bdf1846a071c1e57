"""How Nanro looks and reads on the site: rung names, the play page's input and help
text, and the board picture (regions as thick borders)."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.svg import ANSWER_FILL, ANSWER_INK, ANSWER_STROKE, Canvas

RUNG_NAMES = {
    "en": {"count": "counting", "block": "no 2×2", "clash": "border clash",
           "reach": "one group", "probe": "probe", "search": "search"},
    "ja": {"count": "数える", "block": "2×2 禁止", "clash": "境界の衝突",
           "reach": "ひとつながり", "probe": "仮置き", "search": "探索"},
}

# Player states (the digit puzzles' states, templates/static/play/grid.js): 0 undecided,
# 1 numbered (a digit goes here, not written yet), 2 blank, 2 + d the digit d, typed as
# on puzz.link (keys or the number pad). Printed clues are fixed numbered. The counting
# assist (off by default) shows a numbered cell's count and counts it as that digit.
PLAY = PlaySpec(
    model="regions",
    input={
        "digits": True,
        "cycle": [1, 2, 0],
        "keys": {"n": 1, "#": 1, "x": 2, ".": 2},
        "states": {"en": ["undecided", "numbered", "blank"], "ja": ["未定", "数字", "空白"]},
        "trace": {"number": 1, "blank": 2},
        # small candidate digits, pencilled in candidate mode (this key or the pad's button)
        "candidates": {"key": "c"},
        "rules": {
            "nanro.digit": {
                "en": ("The {value} at row {row}, column {col} does not match its region, "
                       "which holds {count} numbers."),
                "ja": "{row}行{col}列の{value}は、領域内の数字の個数（{count}個）と合いません。",
            },
        },
    },
    text={
        "en": {
            "cycle": "numbered → blank → undecided",
            "keys": [("Digits", "write that digit (a region's count)"), ("N", "numbered (digit still to write)"),
                     ("X", "blank"), ("C", ("candidate mode: a digit then pencils a small "
                                            "candidate, or rubs it out"))],
            "tap": ("Click or tap a cell to select it, then type a digit or use the number pad "
                    "under the board. Click the selected cell again to cycle its marks: {cycle}. "
                    "With the counting assist on, a click cycles at once and a numbered cell shows "
                    "its count."),
            "rules": [
                ["Write numbers in some cells; the rest stay blank."],
                ["Every number equals how many numbers its region holds."],
                ["Every region holds at least one number."],
                ["All numbers form one connected group, and no ", ["2×2"],
                 " block is all numbers."],
                ["Equal numbers never touch across a region border."],
            ],
        },
        "ja": {
            "cycle": "数字 → 空白 → 未定",
            "keys": [("数字キー", "その数字を書く（領域内の数字の個数）"), ("N", "数字が入る印（数字は未記入）"),
                     ("X", "空白"), ("C", "候補の入力：数字で小さな候補を書き入れ、もう一度で消す")],
            "tap": ("マスをクリック／タップして選び、数字キーか盤の下の数字パッドで数字を書きます。選"
                    "んだマスをもう一度押すと、印が「{cycle}」の順に切り替わります。個数の自動表示"
                    "を入れると、押すだけで切り替わり、数字のマスに個数が出ます。"),
            "rules": [
                ["いくつかのマスに数字を書き、残りは空白にします。"],
                ["数字は、その領域に入っている数字の個数です。"],
                ["どの領域にも数字が少なくとも一つ入ります。"],
                ["数字のマスはすべてひとつながりで、", ["2×2"],
                 " がすべて数字になることはありません。"],
                ["領域の境界をはさんで同じ数字が隣り合うことはありません。"],
            ],
        },
    },
)


def draw_board(board: Any, answer: Any, cell: int, label: str) -> str:
    """Regions as thick borders, printed clues as dark numbers (``?`` for a mark), label
    hints small in a region's first cell; with an answer, its numbers in light circles."""
    h, w, clues, regions = board["h"], board["w"], board["clues"], board["regions"]
    rows = answer["rows"] if answer else None
    counts: dict[int, int] = {}
    if rows:
        for r in range(h):
            for c in range(w):
                if rows[r][c] == "#":
                    counts[regions[r][c]] = counts.get(regions[r][c], 0) + 1
    labels = board.get("labels") or []
    first: dict[int, tuple[int, int]] = {}
    for r in range(h):
        for c in range(w):
            first.setdefault(regions[r][c], (r, c))
    cv = Canvas(h, w, cell, label)
    for r in range(h):
        for c in range(w):
            if clues[r][c] is not None:
                cv.text(r, c, clues[r][c])
            elif rows and rows[r][c] == "#":
                cv.circle(r, c, fill=ANSWER_FILL, stroke=ANSWER_STROKE)
                cv.text(r, c, counts[regions[r][c]], cls="ans", colour=ANSWER_INK, scale=0.5)
    for k, v in enumerate(labels):
        if v is not None and k in first:
            r, c = first[k]
            x, y = cv.xy(r, c)
            cv.parts.append(f'<text x="{x + cell * 0.08:.1f}" y="{y + cell * 0.3:.1f}" '
                            f'class="hint" font-size="{cell * 0.28:.0f}">{v}</text>')
    cv.borders(regions, width=max(2.5, cell / 12))
    return cv.svg()
