"""The player input the digit puzzles share, for their ``presentation`` modules.

A digit puzzle's cell is undecided, numbered (a digit goes there, not written yet), blank,
or holds a digit (the framework's digit states, ``templates/static/play/grid.js``: 0, 1,
2 and 2 + d), typed as on puzz.link, with small candidate digits pencilled in a mode of
their own. Such a puzzle says only what its digits mean and what its rules are. View code
only: no stage imports it, so it is no part of any puzzle's code hash.
"""

from __future__ import annotations

from typing import Any


def digit_input(**extra: Any) -> dict[str, Any]:
    """The ``PlaySpec.input`` of a digit puzzle; ``extra`` (check rules' texts, say) is
    added after the shared keys."""
    return {
        "digits": True,
        "cycle": [1, 2, 0],
        "keys": {"n": 1, "#": 1, "x": 2, ".": 2},
        "states": {"en": ["undecided", "numbered", "blank"], "ja": ["未定", "数字", "空白"]},
        "trace": {"number": 1, "blank": 2},
        # small candidate digits, pencilled in candidate mode (this key or the pad's button)
        "candidates": {"key": "c"},
        **extra,
    }


_TEXT = {
    "en": {
        "cycle": "numbered → blank → undecided",
        "digits": "Digits",
        "keys": [("N", "numbered (digit still to write)"), ("X", "blank"),
                 ("C", "candidate mode: a digit then pencils a small candidate, or rubs it out")],
        "tap": ("Click or tap a cell to select it, then type a digit or use the number pad "
                "under the board. Click the selected cell again to cycle its marks: {cycle}. "
                "With the counting assist on, a click cycles at once and a numbered cell shows "
                "its count."),
    },
    "ja": {
        "cycle": "数字 → 空白 → 未定",
        "digits": "数字キー",
        "keys": [("N", "数字が入る印（数字は未記入）"), ("X", "空白"),
                 ("C", "候補の入力：数字で小さな候補を書き入れ、もう一度で消す")],
        "tap": ("マスをクリック／タップして選び、数字キーか盤の下の数字パッドで数字を書きます。選"
                "んだマスをもう一度押すと、印が「{cycle}」の順に切り替わります。個数の自動表示"
                "を入れると、押すだけで切り替わり、数字のマスに個数が出ます。"),
    },
}


def digit_text(lang: str, digit: str, rules: list[Any]) -> dict[str, Any]:
    """The ``PlaySpec.text[lang]`` of a digit puzzle: ``digit`` says what typing a digit
    does, ``rules`` are the puzzle's rules as ``PlaySpec`` prints them."""
    t = _TEXT[lang]
    return {"cycle": t["cycle"], "keys": [(t["digits"], digit), *t["keys"]], "tap": t["tap"],
            "rules": rules}
