"""The hint traces: one deduction per step, in the ladder's rung order.

Each step applies ONE rule once, where the lowest rung can: one clue's count, one grid
corner, one clue with its four corners, one row's or column's parity, one pair of line
ends that must not close, one probe (an edge whose other state leads the rungs to a
contradiction), and, only when none of these decides anything, one ``search`` step that
takes an edge from the answer. A step decides at most four edges (so at most eight
cells beside them); a rule that decides more is applied again in the next step.
"""

from __future__ import annotations

from typing import Any

from .board import Answer, Board
from .ladder import (CROSS, LEVEL, LINE, Contradiction, State, _branch_edge, _corner, _count,
                     _parity, _would_finish, _vertex, propagate)

MAX_EDGES = 4
NAMES = {LINE: "line", CROSS: "none"}


def _cells_beside(st: State, edges: list[int]) -> list[list[int]]:
    w = st.lay.w
    seen = sorted({i for e in edges for i in st.lay.edge_cells[e]})
    return [list(divmod(i, w)) for i in seen]


def _corner_cells(st: State, v: int) -> list[list[int]]:
    h, w = st.lay.h, st.lay.w
    y, x = divmod(v, w + 1)
    return [[r, c] for r in (y - 1, y) for c in (x - 1, x) if 0 <= r < h and 0 <= c < w]


def _edge_text(st: State, e: int, lang: str) -> str:
    r, c, side = st.lay.side(e)
    if side == "r":
        y, x = r + 1, c + 1
        if lang == "en":
            return f"the side between row {y}, columns {x} and {x + 1}" if 0 < x <= st.lay.w - 1 \
                else f"the {'left' if x == 0 else 'right'} side of row {y}"
        return f"{y}行の{x}列と{x + 1}列の間の辺" if 0 < x <= st.lay.w - 1 \
            else f"{y}行の{'左' if x == 0 else '右'}端の辺"
    y, x = r + 1, c + 1
    if lang == "en":
        return f"the side between rows {y} and {y + 1} in column {x}" if 0 < y <= st.lay.h - 1 \
            else f"the {'top' if y == 0 else 'bottom'} side of column {x}"
    return f"{x}列の{y}行と{y + 1}行の間の辺" if 0 < y <= st.lay.h - 1 \
        else f"{x}列の{'上' if y == 0 else '下'}端の辺"


def _apply(st: State, rule, arg) -> list[tuple[int, int]]:
    """Apply one rule once; the (edge, state) pairs it decided (at most MAX_EDGES kept)."""
    m = st.mark()
    try:
        rule(st, arg)
    except Contradiction:
        st.undo(m)
        return []
    new = [(rec[1], rec[2]) for rec in st.trail[m:] if rec[0] == 0]
    if len(new) > MAX_EDGES:
        st.undo(m)
        new = new[:MAX_EDGES]
        for e, val in new:
            st.set(e, val)
    st.queue.clear()
    return new


def _premature_one(st: State, a: int) -> None:
    b = st.mate[a]
    e = st.g.between.get((a, b))
    if e is None or st.s[e] or st.closed:
        return
    if st.on_total == st.plen[a] and _would_finish(st, e):
        return
    st.set(e, CROSS)


def _closed(st: State, _: Any) -> None:
    if st.closed:
        for e in range(st.lay.ne):
            if not st.s[e]:
                st.set(e, CROSS)


def _words(st: State, rung: str, arg: Any, decided: list[tuple[int, int]]) -> dict[str, Any]:
    w = st.lay.w
    ons = [e for e, v in decided if v == LINE]
    what_en = " and ".join(_edge_text(st, e, "en") for e, _ in decided)
    what_ja = "、".join(_edge_text(st, e, "ja") for e, _ in decided)
    kind_en = "a line" if ons and len(ons) == len(decided) else \
        "crossed (no line)" if not ons else "decided"
    kind_ja = "線" if ons and len(ons) == len(decided) else "×（線なし）" if not ons else "確定"
    if len(decided) > 1:
        kind_en = {"a line": "lines"}.get(kind_en, kind_en)
    if rung in ("count", "corner"):
        r, c = divmod(arg, w)
        k = st.clue[arg]
        why = [[r, c]]
        if rung == "count":
            en = (f"The {k} at row {r + 1}, column {c + 1} decides {what_en}: {kind_en}.")
            ja = f"{r + 1}行{c + 1}列の{k}から、{what_ja}は{kind_ja}です。"
            den = (f"A {k} has exactly {k} of its four sides on the loop. Its lines and crosses "
                   "so far leave its open sides only one way to reach that count.")
            dja = (f"{k}のまわりの四辺のうち、ちょうど{k}本が線です。すでに決まった線と×から、"
                   "残りの辺の決め方は一通りしかありません。")
        else:
            en = (f"The {k} at row {r + 1}, column {c + 1}, read with its four corners, decides "
                  f"{what_en}: {kind_en}.")
            ja = f"{r + 1}行{c + 1}列の{k}と四隅の格子点をあわせて見ると、{what_ja}は{kind_ja}です。"
            den = (f"Every way of drawing {k} sides of this cell must leave each of its corners "
                   "with 0 or 2 lines. In every way that does, this edge comes out the same.")
            dja = (f"このマスの辺を{k}本引くどの引き方でも、四隅の格子点の線は0本か2本でなければ"
                   "なりません。それを満たすどの引き方でも、この辺は同じになります。")
        return {"why": why, "en": en, "ja": ja, "detail": {"en": den, "ja": dja}}
    if rung == "vertex":
        y, x = divmod(arg, w + 1)
        return {"why": _corner_cells(st, arg),
                "en": f"At the grid corner in corner row {y + 1}, column {x + 1}, {what_en} "
                      f"is {kind_en}.",
                "ja": f"格子点（上から{y + 1}番目、左から{x + 1}番目）で、{what_ja}は{kind_ja}です。",
                "detail": {"en": "Every grid corner has 0 or 2 lines: two lines end it, a line "
                                 "with one way on must take it, and a corner with one open edge "
                                 "and no line cannot use that edge.",
                           "ja": "格子点の線は0本か2本です。2本あれば残りは×、線が1本で行き先が"
                                 "一つならそこへ伸び、線がなく空きが一つならその辺は×です。"}}
    if rung == "parity":
        cells = _cells_beside(st, st.g.lines[arg])
        line_en = f"row {arg + 1}" if arg < st.lay.h else f"column {arg - st.lay.h + 1}"
        line_ja = f"{arg + 1}行" if arg < st.lay.h else f"{arg - st.lay.h + 1}列"
        return {"why": cells[:8],
                "en": f"The loop crosses {line_en} an even number of times, so {what_en} "
                      f"is {kind_en}.",
                "ja": f"ループが{line_ja}を横切る回数は偶数なので、{what_ja}は{kind_ja}です。",
                "detail": {"en": "A closed loop that goes across a row must come back across it, "
                                 "so the lines through a row (or a column) are even in number; "
                                 "with one edge left open, its state is the parity's.",
                           "ja": "閉じたループは行を横切ったら必ず戻ってくるので、一つの行（列）を"
                                 "横切る線の数は偶数です。未定の辺が一本だけなら偶奇で決まります。"}}
    if rung == "closed":
        return {"why": _cells_beside(st, [e for e in range(st.lay.ne) if st.s[e] == LINE])[:8],
                "en": f"The loop is closed, so {what_en} is {kind_en}.",
                "ja": f"ループが閉じたので、{what_ja}は{kind_ja}です。",
                "detail": {"en": "There is only one loop, and it is finished: no other edge "
                                 "carries a line.",
                           "ja": "ループは一つだけで、すでに閉じています。ほかの辺に線はありません。"}}
    # the two ends of one line
    e = decided[0][0]
    return {"why": _cells_beside(st, [e]),
            "en": f"Both ends of one line meet at {what_en}; closing it there would leave a loop "
                  "that does not finish the board, so it is crossed.",
            "ja": f"一本の線の両端が{what_ja}で向かい合っています。ここで閉じると盤を完成させない"
                  "ループができるので×です。",
            "detail": {"en": "The answer is one loop through every line and meeting every clue. "
                             "Closing this edge would finish a loop now, with lines left outside "
                             "it or clues not met.",
                       "ja": "答えはすべての線を通り、すべての数字を満たす一つのループです。この辺を"
                             "閉じると、外に線が残るか数字が満たされないままループができてしまいます。"}}


def trace(board: Board, answer: Answer) -> list[dict[str, Any]]:
    st = State(board)
    lay = st.lay
    steps: list[dict[str, Any]] = []
    clue_cells = [i for i, k in enumerate(st.clue) if k >= 0]
    loop_top = LEVEL["loop"]

    def record(rung: str, label: str, arg: Any, decided: list[tuple[int, int]],
               extra: dict[str, Any] | None = None) -> None:
        words = extra if extra is not None else _words(st, label, arg, decided)
        edges = [list(lay.side(e)) for e, _ in decided]
        steps.append({"rung": rung, "edges": edges,
                      "states": [NAMES[v] for _, v in decided],
                      "cells": _cells_beside(st, [e for e, _ in decided]), **words})

    while st.unknown:
        done = False
        for rung, label, rule, args in (
                ("count", "count", _count, clue_cells),
                ("vertex", "vertex", _vertex, range(lay.nvert)),
                ("corner", "corner", _corner, clue_cells),
                ("loop", "closed", _closed, [0]),
                ("loop", "parity", _parity, range(len(st.g.lines))),
                ("loop", "ends", _premature_one,
                 [a for a in range(lay.nvert) if st.v_on[a] == 1 and st.mate[a] > a])):
            for arg in args:
                decided = _apply(st, rule, arg)
                if decided:
                    record(rung, label, arg, decided)
                    done = True
                    break
            if done:
                break
        if done:
            continue
        if _probe_step(st, answer, record, loop_top):
            continue
        # search: the answer's state of the edge the search would branch on
        e = _branch_edge(st)
        val = LINE if answer.on[e] else CROSS
        st.set(e, val)
        st.queue.clear()
        what_en, what_ja = _edge_text(st, e, "en"), _edge_text(st, e, "ja")
        kind_en, kind_ja = ("a line", "線") if val == LINE else ("crossed", "×")
        record("search", "search", None, [(e, val)], {
            "why": _cells_beside(st, [e]),
            "en": f"No single deduction is left; the answer has {what_en} {kind_en}.",
            "ja": f"一手で決まるところがありません。答えでは{what_ja}は{kind_ja}です。",
            "detail": {"en": "Both states of this edge survive every rung and a one-edge trial; "
                             "the search tries them and keeps the one that leads to the loop.",
                       "ja": "この辺はどちらの状態も、どの段の推論と一辺の仮置きにも矛盾しません。"
                             "探索で両方を試し、ループにつながるほうを残します。"}})
    return steps


def _probe_step(st: State, answer: Answer, record, top: int) -> bool:
    lay = st.lay
    # edges at line ends first: the trials a solver makes by hand
    order = [e for v in range(lay.nvert) if st.v_on[v] == 1 for e in lay.vertex_edges[v]
             if not st.s[e]]
    order += [e for e in range(lay.ne) if not st.s[e]]
    tried = set()
    for e in order:
        if e in tried:
            continue
        tried.add(e)
        want = LINE if answer.on[e] else CROSS
        wrong = CROSS if want == LINE else LINE
        m = st.mark()
        chain: list[int] = []
        try:
            st.set(e, wrong)
            propagate(st, top)
        except Contradiction:
            chain = [rec[1] for rec in st.trail[m:] if rec[0] == 0]
            st.undo(m)
            st.set(e, want)
            st.queue.clear()
            what_en, what_ja = _edge_text(st, e, "en"), _edge_text(st, e, "ja")
            w_en = "a line" if wrong == LINE else "crossed"
            w_ja = "線" if wrong == LINE else "×"
            k_en = "a line" if want == LINE else "crossed"
            k_ja = "線" if want == LINE else "×"
            record("probe", "probe", None, [(e, want)], {
                "why": _cells_beside(st, [e]),
                "en": f"Try {what_en} {w_en}: the rungs run into a contradiction, so it is "
                      f"{k_en}.",
                "ja": f"{what_ja}を{w_ja}と仮定すると矛盾するので、{k_ja}です。",
                "detail": {"en": f"With that edge {w_en}, the count, corner and loop rules force "
                                 f"{len(chain)} more edges, until a clue, a corner or the loop "
                                 "cannot be satisfied.",
                           "ja": f"その辺を{w_ja}にすると、数字・格子点・ループの規則で{len(chain)}本の辺が"
                                 "決まっていき、どこかで満たせない数字か格子点かループが出てきます。"},
                "detail_cells": _cells_beside(st, chain)[:16]})
            return True
        st.undo(m)
    return False
