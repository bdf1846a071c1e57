"""How Canal View looks and reads on the site: rung names, the play page's input and
help text, and the board picture."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.svg import WATER, Canvas

RUNG_NAMES = {
    "en": {"arm": "arms", "block": "blocks", "flow": "flow", "probe": "probe",
           "search": "search"},
    "ja": {"arm": "腕", "block": "ブロック", "flow": "流れ", "probe": "仮定", "search": "探索"},
}

# What a player reads for each rung (grade filter, hint heads), in everyday words;
# the rung's own name (RUNG_NAMES, the article's) follows it as a second label.
GRADES = {
    "en": {"arm": "count what each number sees", "block": "no 2×2 pool",
           "flow": "keep the canal in one piece",
           "probe": "try a cell and find a contradiction",
           "search": "trial and error, deep"},
    "ja": {"arm": "数字から見える水路を数える", "block": "2×2 の池を作らない", "flow": "水路をひとつにつなぐ",
           "probe": "一マス試して矛盾を見つける", "search": "深い試行錯誤"},
}

# Player states: 0 undecided, 1 flooded, 2 marked dry. Clue cells are fixed dry.
PLAY = PlaySpec(
    model="cells",
    input={
        "cycle": [1, 2, 0],
        "keys": {"f": 1, "#": 1, "d": 2, ".": 2, "x": 2},
        "states": {"en": ["undecided", "flooded", "dry"], "ja": ["未定", "水路", "陸地"]},
        "trace": {"flooded": 1, "dry": 2},
    },
    text={
        "en": {
            "grades": GRADES["en"],
            "cycle": "flooded → dry mark → undecided",
            "keys": [("F", "flooded"), ("D", "dry mark")],
            "rules": [
                ["Flood some cells. The flooded cells form one connected canal."],
                ["No ", ["2×2"], " block is entirely flooded."],
                [("Numbered cells stay dry. A number is the total of the flooded cells it "
                  "can see: walk out in the four directions and add up the runs that start "
                  "next to it.")],
            ],
        },
        "ja": {
            "grades": GRADES["ja"],
            "cycle": "水路 → 陸地の印 → 未定",
            "keys": [("F", "水路"), ("D", "陸地の印")],
            "rules": [
                ["いくつかのマスを水路にする。水路はすべてひとつながり。"],
                [["2×2"], " のマスがすべて水路になってはいけない。"],
                [("数字のマスは陸地。数字は、そのマスから上下左右に見える水路のマスの合計"
                  "（隣から続く水路だけを数える）。")],
            ],
        },
    },
)


def draw_board(board: Any, answer: Any, cell: int, label: str) -> str:
    """Clues as numbers; with an answer, flooded cells shaded."""
    h, w, clues = board["h"], board["w"], board["clues"]
    rows = answer["rows"] if answer else None
    cv = Canvas(h, w, cell, label)
    for r in range(h):
        for c in range(w):
            if rows and rows[r][c] == "#":
                cv.fill(r, c, WATER)
            if clues[r][c] is not None:
                cv.text(r, c, clues[r][c])
    return cv.svg()


# The sampled values of the stats file and the keys of their intervals (site_builder/
# samples.py): read by `build-site check` and the test kit, which ask that a page
# print each one with its interval. Declared here, in view-only code, so that the
# stats stage's code (and its long regeneration) is untouched.
SAMPLES = {"stats": [
    {"value": "compositions.*.fits", "interval": "compositions.*.ci.fits"},
    {"value": "compositions.*.numbers", "interval": "compositions.*.ci.numbers"},
    {"value": "compositions.*.ray_cells", "interval": "compositions.*.ci.ray_cells"},
    {"value": "compositions.*.two_pow_mean", "interval": "compositions.*.ci.two_pow_mean"},
    {"value": "flips.not_number_share", "interval": "flips.ci.not_number_share"},
    {"value": "ladder.*.arm.cells_all", "interval": "ladder.*.arm.ci.cells_all"},
    {"value": "ladder.*.block.cells_all", "interval": "ladder.*.block.ci.cells_all"},
    {"value": "ladder.*.flow.cells_all", "interval": "ladder.*.flow.ci.cells_all"},
    {"value": "ladder.*.search.cells_all", "interval": "ladder.*.search.ci.cells_all"},
    {"value": "lakes.*.canal", "interval": "lakes.*.ci.canal"},
    {"value": "lakes.*.lakes", "interval": "lakes.*.ci.lakes"},
    {"value": "lakes.*.loops", "interval": "lakes.*.ci.loops"},
    {"value": "lakes.*.share", "interval": "lakes.*.ci.share"},
    {"value": "sandwich.*.canal", "interval": "sandwich.*.ci.canal"},
    {"value": "sandwich.*.floor", "interval": "sandwich.*.ci.floor"},
    {"value": "sandwich.*.per_cell", "interval": "sandwich.*.ci.per_cell"},
    {"value": "sightlines.*.blocked_share", "interval": "sightlines.*.ci.blocked_share"},
    {"value": "visibility.*.hidden", "interval": "visibility.*.ci.hidden"},
    {"value": "visibility.*.says", "interval": "visibility.*.ci.says"},
    {"value": "visibility.*.share", "interval": "visibility.*.ci.share"},
]}
