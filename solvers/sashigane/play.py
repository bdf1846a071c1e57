"""What the play page needs: the edges input model and its help texts."""

from __future__ import annotations

from solvers.common import PlaySpec

PLAY = PlaySpec(
    model="edges",
    input={
        "cycle": [1, 2, 0], "keys": {"l": 1, "x": 2},
        "states": {"en": ["undecided", "line", "no line"], "ja": ["未定", "線", "線なし"]},
        "trace": {"line": 1, "none": 2},
    },
    text={
        "en": {
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
        },
        "ja": {
            "cycle": "線 → 線なし → 未定",
            "keys": [("L", "線"), ("X", "線なし")],
            "rules": [
                ["盤を幅 ", ["1"], " の L 字に分けます。"],
                ["丸はピースの曲がり角に乗り、数字はそのピースのマス数です。"],
                ["矢印はピースの端に乗り、腕に沿って曲がり角のほうを向きます。"],
                ["各ピースには丸と矢印がちょうど一個ずつあります。"],
            ],
            "readout": {"budget": "サイズ予算: 残り {left}、可能 {least}〜{most}"},
        },
    },
)
