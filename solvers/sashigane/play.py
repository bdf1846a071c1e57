"""What the play page needs: the edges input model and its help texts."""

from __future__ import annotations

from solvers.common import PlaySpec

PLAY = PlaySpec(
    model="edges",
    input={"readout": "budget"},
    text={
        "en": {
            "cycle": "Drag along the grid lines to draw piece borders; drag again to erase.",
            "keys": [],
            "rules": [
                ["Divide the board into L shapes of width ", ["1"], "."],
                ["Each circle sits on the corner of its piece; a number is the piece's size."],
                [("Each arrow sits on an end of its piece and points along its arm to the "
                 "corner.")],
                ["Every piece holds exactly one circle and one arrow."],
            ],
            "budget": "Cells left for the unnumbered circles",
        },
        "ja": {
            "cycle": "格子線に沿ってドラッグするとピースの境界線を引きます。もう一度なぞると消えます。",
            "keys": [],
            "rules": [
                ["盤を幅 ", ["1"], " の L 字に分けます。"],
                ["丸はピースの曲がり角に乗り、数字はそのピースのマス数です。"],
                ["矢印はピースの端に乗り、腕に沿って曲がり角のほうを向きます。"],
                ["各ピースには丸と矢印がちょうど 1 個ずつあります。"],
            ],
            "budget": "数字のない丸に残るマス数",
        },
    },
)
