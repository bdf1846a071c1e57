"""How Nanro looks and reads on the site: rung names, the play page's input and help
text, and the board picture (regions as thick borders)."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.playkit import digit_input, digit_text
from solvers.svg import ANSWER_FILL, ANSWER_INK, ANSWER_STROKE, Canvas

RUNG_NAMES = {
    "en": {"count": "counting", "block": "no 2×2", "clash": "border clash",
           "reach": "one group", "probe": "probe", "search": "search"},
    "ja": {"count": "数える", "block": "2×2 禁止", "clash": "境界の衝突",
           "reach": "ひとつながり", "probe": "仮置き", "search": "探索"},
}

# What a player reads for each rung (grade filter, hint heads), in everyday words;
# the rung's own name (RUNG_NAMES, the article's) follows it as a second label.
GRADES = {
    "en": {"count": "count the numbers in a region", "block": "no 2×2 block of numbers",
           "clash": "equal numbers never touch across a border",
           "reach": "keep the numbers in one group",
           "probe": "try a cell and find a contradiction",
           "search": "trial and error, deep"},
    "ja": {"count": "領域の数字を数える", "block": "2×2 を数字で埋めない", "clash": "境界ごしに同じ数字を並べない",
           "reach": "数字をひとつながりに保つ", "probe": "一マス試して矛盾を見つける", "search": "深い試行錯誤"},
}

# Player states: the digit puzzles' (solvers/playkit.py). Printed clues are fixed
# numbered. The counting assist (off by default) shows a numbered cell's count and counts
# it as that digit.
PLAY = PlaySpec(
    model="regions",
    input=digit_input(rules={
        "nanro.digit": {
            "en": ("The {value} at row {row}, column {col} does not match its region, "
                   "which holds {count} numbers."),
            "ja": "{row}行{col}列の{value}は、領域内の数字の個数（{count}個）と合いません。",
        },
    }),
    text={
        "en": {"grades": GRADES["en"]} | digit_text("en", "write that digit (a region's count)", [
            ["Write numbers in some cells; the rest stay blank."],
            ["Every number equals how many numbers its region holds."],
            ["Every region holds at least one number."],
            ["All numbers form one connected group, and no ", ["2×2"], " block is all numbers."],
            ["Equal numbers never touch across a region border."],
        ]),
        "ja": {"grades": GRADES["ja"]} | digit_text("ja", "その数字を書く（領域内の数字の個数）", [
            ["いくつかのマスに数字を書き、残りは空白にします。"],
            ["数字は、その領域に入っている数字の個数です。"],
            ["どの領域にも数字が少なくとも一つ入ります。"],
            ["数字のマスはすべてひとつながりで、", ["2×2"], " がすべて数字になることはありません。"],
            ["領域の境界をはさんで同じ数字が隣り合うことはありません。"],
        ]),
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


# The sampled values of the stats file and the keys of their intervals (site_builder/
# samples.py): read by `build-site check` and the test kit, which ask that a page
# print each one with its interval. Declared here, in view-only code, so that the
# stats stage's code (and its long regeneration) is untouched.
SAMPLES = {"stats": [
    {"value": "ablation.*.drop.block", "interval": "ablation.*.ci.drop.block"},
    {"value": "ablation.*.drop.clash", "interval": "ablation.*.ci.drop.clash"},
    {"value": "ablation.*.drop.count", "interval": "ablation.*.ci.drop.count"},
    {"value": "ablation.*.drop.reach", "interval": "ablation.*.ci.drop.reach"},
    {"value": "ablation.*.full", "interval": "ablation.*.ci.full"},
    {"value": "ablation.*.minus.block", "interval": "ablation.*.ci.minus.block"},
    {"value": "ablation.*.minus.clash", "interval": "ablation.*.ci.minus.clash"},
    {"value": "ablation.*.minus.count", "interval": "ablation.*.ci.minus.count"},
    {"value": "ablation.*.minus.reach", "interval": "ablation.*.ci.minus.reach"},
    {"value": "budget.*.numbered_mean", "interval": "budget.*.ci.numbered_mean"},
    {"value": "budget.*.probe_share_mean", "interval": "budget.*.ci.probe_share_mean"},
    {"value": "budget.*.share_mean", "interval": "budget.*.ci.share_mean"},
    {"value": "dial.rows.*.rates.block", "interval": "dial.rows.*.ci.rates.block"},
    {"value": "dial.rows.*.rates.clash", "interval": "dial.rows.*.ci.rates.clash"},
    {"value": "dial.rows.*.rates.count", "interval": "dial.rows.*.ci.rates.count"},
    {"value": "dial.rows.*.rates.probe", "interval": "dial.rows.*.ci.rates.probe"},
    {"value": "dial.rows.*.rates.reach", "interval": "dial.rows.*.ci.rates.reach"},
    {"value": "dial.rows.*.unique", "interval": "dial.rows.*.ci.unique"},
    {"value": "halves.*.sizes.*.full", "interval": "halves.*.sizes.*.ci.full"},
    {"value": "halves.*.sizes.*.mark", "interval": "halves.*.sizes.*.ci.mark"},
    {"value": "halves.*.sizes.*.value", "interval": "halves.*.sizes.*.ci.value"},
    {"value": "increments.*.unique", "interval": "increments.*.ci.unique"},
    {"value": "law.cells.*.unique", "interval": "law.cells.*.ci.unique"},
]}
