"""How Sashigane looks and reads: the rung labels, the play page (the edges input model and
its help texts) and the SVG board picture for pages."""

from __future__ import annotations

from typing import Any

from solvers.common import PlaySpec
from solvers.svg import ANSWER_FILL, Canvas

from .board import ARROW, CIRCLE, MARK, Answer, Board

RUNG_NAMES = {
    "en": {"fit": "fit", "cover": "cover", "area": "area", "probe": "probe",
           "search": "search", "circles": "touching circles", "arrow": "arrow",
           "reach": "reach", "common": "common cells", "number": "number"},
    "ja": {"fit": "当てはめ", "cover": "被覆", "area": "面積", "probe": "仮置き",
           "search": "探索", "circles": "隣り合う丸", "arrow": "矢印", "reach": "届く丸",
           "common": "共通マス", "number": "数字"},
}

# What a player reads for each rung (grade filter, hint heads), in everyday words;
# the rung's own name (RUNG_NAMES, the article's) follows it as a second label.
GRADES = {
    "en": {"fit": "only one L fits", "cover": "a cell only one piece can reach",
           "area": "the sizes must add up",
           "probe": "try a piece and find a contradiction",
           "search": "trial and error, deep", "circles": "two circles side by side",
           "arrow": "follow an arrow to its corner", "reach": "what a circle can reach",
           "common": "cells every choice uses", "number": "a number's size"},
    "ja": {"fit": "入る L 字が一つだけ", "cover": "届くピースが一つだけのマス", "area": "大きさの合計を合わせる",
           "probe": "一つ試して矛盾を見つける", "search": "深い試行錯誤", "circles": "隣り合う二つの丸",
           "arrow": "矢印を曲がり角までたどる", "reach": "丸が届く範囲", "common": "どの置き方でも使うマス",
           "number": "数字の大きさ"},
}

PLAY = PlaySpec(
    model="edges",
    input={
        "cycle": [1, 2, 0], "keys": {"l": 1, "x": 2},
        "states": {"en": ["undecided", "line", "no line"], "ja": ["未定", "線", "線なし"]},
        "trace": {"line": 1, "none": 2},
    },
    text={
        "en": {
            "grades": GRADES["en"],
            "cycle": "line → no line → undecided",
            "keys": [("L", "line"), ("X", "no line")],
            "rules": [
                ["Divide the board into L shapes of width ", ["1"], "."],
                ["Each circle sits on the corner of its piece; a number is the piece's size."],
                [("Each arrow sits on an end of its piece and points along its arm to the "
                 "corner.")],
                ["Every piece holds exactly one circle and one arrow."],
            ],
            "readout": {"budget": "Size budget: {left} left, {least}–{most} possible"},
            "readout_help": ("Size budget: the cells the printed numbers leave for the circles "
                             "without a number (left), and the fewest and most cells those "
                             "circles' pieces can cover together (possible)."),
        },
        "ja": {
            "grades": GRADES["ja"],
            "cycle": "線 → 線なし → 未定",
            "keys": [("L", "線"), ("X", "線なし")],
            "rules": [
                ["盤を幅 ", ["1"], " の L 字に分けます。"],
                ["丸はピースの曲がり角に乗り、数字はそのピースのマス数です。"],
                ["矢印はピースの端に乗り、腕に沿って曲がり角のほうを向きます。"],
                ["各ピースには丸と矢印がちょうど一個ずつあります。"],
            ],
            "readout": {"budget": "サイズ予算: 残り {left}、可能 {least}～{most}"},
            "readout_help": ("サイズ予算：印刷された数字の分を除いて、数字のない丸のピースに残るマス数"
                             "（残り）と、それらのピースが合わせて取れる最小と最大のマス数（可能）。"),
        },
    },
)

_PALE = ("#eef4f7", "#f7f1e6")


def draw_board(board_json: Any, answer_json: Any, cell: int, label: str) -> str:
    """Circles (with their numbers), arrows and ``?`` marks; with an answer, the piece
    borders drawn thick and every other piece tinted so the Ls read at a glance."""
    board = Board.from_json(board_json)
    canvas = Canvas(board.h, board.w, cell, label)
    if answer_json is not None:
        answer = Answer.from_json(answer_json)
        for i, p in enumerate(answer.pieces):
            if p >= 0:
                canvas.fill(i // board.w, i % board.w, _PALE[p % 2] if p % 3 else ANSWER_FILL)
        canvas.borders(answer.rows())
    for i, k in enumerate(board.cells):
        r, c = divmod(i, board.w)
        if k.kind == CIRCLE:
            canvas.circle(r, c)
            if k.value is not None:
                canvas.text(r, c, k.value)
        elif k.kind == ARROW:
            canvas.arrow(r, c, k.value)
        elif k.kind == MARK:
            canvas.text(r, c, "?")
    return canvas.svg()


# The sampled values of the stats file and the keys of their intervals (site_builder/
# samples.py): read by `build-site check` and the test kit, which ask that a page
# print each one with its interval. Declared here, in view-only code, so that the
# stats stage's code (and its long regeneration) is untouched.
SAMPLES = {"stats": [
    {"value": "conventions.sizes.*.long_share", "interval": "conventions.sizes.*.ci.long"},
    {"value": "conventions.sizes.*.short_share", "interval": "conventions.sizes.*.ci.short"},
    {"value": "conventions.sizes.*.coin_share", "interval": "conventions.sizes.*.ci.coin"},
]}
