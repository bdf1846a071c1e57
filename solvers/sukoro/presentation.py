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

# What a player reads for each rung (grade filter, hint heads), in everyday words;
# the rung's own name (RUNG_NAMES, the article's) follows it as a second label.
GRADES = {
    "en": {"deg": "count a number's neighbours", "neq": "neighbours are never equal",
           "conn": "keep the numbers in one group",
           "probe": "try a cell and find a contradiction",
           "search": "trial and error, deep"},
    "ja": {"deg": "隣の数字を数える", "neq": "隣り合う数字は別の数", "conn": "数字をひとつながりに保つ",
           "probe": "一マス試して矛盾を見つける", "search": "深い試行錯誤"},
}

# Player states: the digit puzzles' (solvers/playkit.py). Printed clues are fixed
# numbered. The counting assist (off by default) shows a numbered cell's count and counts
# it as that digit.
PLAY = PlaySpec(
    model="cells",
    input=digit_input(),
    text={
        "en": {"grades": GRADES["en"]} | digit_text("en", "write that digit", [
            ["Write a number from ", ["1"], " to ", ["4"], " in some cells; the rest stay blank."],
            ["A number is how many of its four neighbours hold numbers."],
            ["Two numbers side by side are different."],
            ["All numbered cells form one connected group."],
        ]),
        "ja": {"grades": GRADES["ja"]} | digit_text("ja", "その数字を書く", [
            ["いくつかのマスに ", ["1"], "～", ["4"], " の数字を書き、残りは空白にします。"],
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


# The sampled values of the stats file and the keys of their intervals (site_builder/
# samples.py): read by `build-site check` and the test kit, which ask that a page
# print each one with its interval. Declared here, in view-only code, so that the
# stats stage's code (and its long regeneration) is untouched.
SAMPLES = {"stats": [
    {"value": "sampling.rows.*.random_none_share", "interval": "sampling.rows.*.ci.random_none"},
    {"value": "sampling.rows.*.random_unique_share", "interval": "sampling.rows.*.ci.random_unique"},
    {"value": "sampling.rows.*.true_unique_share", "interval": "sampling.rows.*.ci.true_unique"},
    {"value": "sampling.sizes.*.*.random_none_share", "interval": "sampling.sizes.*.*.ci.random_none"},
    {"value": "sampling.sizes.*.*.random_unique_share", "interval": "sampling.sizes.*.*.ci.random_unique"},
    {"value": "sampling.sizes.*.*.true_unique_share", "interval": "sampling.sizes.*.*.ci.true_unique"},
    {"value": "sampling.random_unique_share", "interval": "sampling.ci.random_unique"},
    {"value": "sampling.true_unique_share", "interval": "sampling.ci.true_unique"},
    {"value": "edits.moved_none_share", "interval": "edits.ci.moved_none"},
    {"value": "edits.moved_unique_share", "interval": "edits.ci.moved_unique"},
    {"value": "edits.sizes.*.moved_none_share", "interval": "edits.sizes.*.ci.moved_none"},
    {"value": "edits.sizes.*.moved_unique_share", "interval": "edits.sizes.*.ci.moved_unique"},
    {"value": "edits.sizes.*.still_unique_share", "interval": "edits.sizes.*.ci.still_unique"},
    {"value": "lemma.unique_share", "interval": "lemma.ci.unique"},
    {"value": "lemma.unique_without_connect_share", "interval": "lemma.ci.unique_without_connect"},
    {"value": "digits.answers.*", "interval": "digits.answers.ci.*"},
    {"value": "digits.clues.*", "interval": "digits.clues.ci.*"},
]}
