"""The hint traces the solve page explains with are the ones the bank stores: the trace
engines were made faster for the page's hard boards (solvers/sukoro/hints.py: each trial
of a base followed once, a heap for the queue, the connection pass on bitmasks, a trial
that ended without a contradiction told so again from its kept end; solvers/nanro/hints.py: the 2×2 blocks and region counts on bitmasks, the region
domains' neighbour pairs gathered once per state, the probe's screen from the marks' own
propagated state, the cut cells (and the ladder's reach rung's) from solvers/bitconn.py; solvers/canal_view/hints.py: the connection rule on bitmasks), and
every banked board's trace must come out
step for step as it was committed in content/<slug>/bank.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers import registry

ROOT = Path(__file__).resolve().parent.parent


def _bank(slug: str) -> list[dict]:
    return json.loads((ROOT / "content" / slug / "bank.json").read_text())["data"]["boards"]


@pytest.mark.parametrize("slug", ["sukoro", "nanro", "canal-view"])
def test_every_banked_trace_is_unchanged(slug: str) -> None:
    puzzle = registry.get(slug)
    bank = _bank(slug)
    assert bank
    for e in bank:
        got = puzzle.trace(puzzle.board_from_json(e["board"]), puzzle.answer_from_json(e["answer"]))
        assert got == e["trace"], e["id"]


def test_nanro_cuts_are_the_flood_per_cell() -> None:
    """The hint's cut (Grid.first_cut) is the cell the old loop found, the lowest
    undecided cell whose removal floods the numbers apart, and the ladder's reach rung
    numbers exactly the cells that do, with certificates kept across the states as in
    a trace."""
    import random

    from solvers.nanro.hints import _bits
    from solvers.nanro.ladder import State, _reach, cut_grid, flood, geometry

    rng = random.Random(3)
    h, w = 7, 8
    g = geometry(h, w, tuple(tuple(0 for _ in range(w)) for _ in range(h)))
    cert: dict[int, int] = {}
    seen = {True: 0, False: 0}
    for _ in range(600):
        poss = sum(1 << i for i in range(g.n) if rng.random() < 0.7)
        if not poss:
            continue
        num = sum(1 << i for i in _bits(poss) if rng.random() < 0.3) or (poss & -poss)
        seed = num & -num
        comp = flood(g, seed, poss)
        num &= comp
        every = [b for b in _bits(comp & ~num) if num & ~flood(g, seed, comp & ~(1 << b))]
        want = every[0] if every else None
        assert cut_grid(g).first_cut(comp, num, cert) == want
        st = State(num, g.full & ~comp, [0])
        _reach(g, st)
        assert st.num == num | sum(1 << b for b in every)
        seen[want is None] += 1
    assert seen[True] and seen[False]
    assert cert


def test_the_bitmask_connection_pass_is_the_search() -> None:
    """Engine.conn (solvers/bitconn.py: a flood, the cells whose ring of eight leaves
    their live neighbours apart, each settled by growing its sides) returns what the
    solver's connection pass _conn returns and leaves the domains as it leaves them,
    and on a split names the cells _split names: random live/fixed patterns on several
    grid shapes, one certificate store per shape shared across its states as the trace
    shares it across trials, so stale certificates are exercised too."""
    import random

    from solvers.bitconn import bits
    from solvers.sukoro import hints
    from solvers.sukoro.board import Board
    from solvers.sukoro.ladder import BLANK, FULL, NUMS, _conn

    rng = random.Random(11)
    seen = {"none": 0, "same": 0, "change": 0}
    for h, w in [(6, 6), (7, 9), (10, 10), (1, 8), (5, 2)]:
        eng = hints.Engine(Board.empty(h, w))
        for _ in range(600):
            # mostly live boards with a few holes, as in a trial; sometimes sparse ones
            hole = rng.choice([0.05, 0.15, 0.3, 0.5])
            dom = [BLANK if rng.random() < hole else NUMS if rng.random() < 0.25 else FULL
                   for _ in range(h * w)]
            want_dom, got_dom = dom[:], dom[:]
            want = _conn(want_dom, eng.nb)
            got = eng.conn(got_dom, None, None)
            assert got == want and got_dom == want_dom, (h, w, dom)
            if want is None:
                view = [hints.NUM if d and not d & BLANK else hints.EMP if not d & NUMS
                        else hints.UND for d in want_dom]
                assert bits(eng.grid.apart(*eng.split))[:hints.MAX_CELLS] == \
                    eng._split(view)
            seen["none" if want is None else "change" if want else "same"] += 1
    assert min(seen.values()) > 100, seen


def test_nanro_screen_is_the_ladder_screen_from_the_marks() -> None:
    """Screen (the ladder's propagation from the marks' own propagated state, with
    witnesses kept across states) says a one-cell trial contradicts exactly where
    _ladder_contradicts (from the printed clues and the marks) says so: every undecided
    cell, both ways, on marks taken from the answer a few cells at a time."""
    import random

    from solvers.nanro.hints import BLANK, NUM, UND, Ctx, Screen, _ladder_contradicts

    e = max(_bank("nanro"), key=lambda b: b["h"] * b["w"])
    puzzle = registry.get("nanro")
    ctx = Ctx(puzzle.board_from_json(e["board"]))
    truth = [NUM if v else BLANK for v in puzzle.answer_from_json(e["answer"]).flat()]
    rng = random.Random(5)
    val = ctx.start[:]
    wit: dict = {}
    seen = {True: 0, False: 0}
    for _ in range(4):
        screen = Screen(ctx, val, wit)
        for i in [i for i in range(ctx.n) if val[i] == UND]:
            for v in (NUM, BLANK):
                trial = val[:]
                trial[i] = v
                want = _ladder_contradicts(ctx, trial)
                assert screen.contradicts(trial, i) == want, (i, v)
                seen[want] += 1
        und = [i for i in range(ctx.n) if val[i] == UND]
        for i in rng.sample(und, min(len(und), 6)):
            val[i] = truth[i]
    assert seen[True] and seen[False], seen


def test_canal_view_flow_on_bitmasks_is_the_search() -> None:
    """flow_deds (bitmasks) lists the deductions _flow_deds (the search) lists, in the
    same order, and raises where it raises with the same cells: random states on a
    banked board's shape, one certificate store shared across them."""
    import random

    from solvers.canal_view.board import Board
    from solvers.canal_view.hints import DRY, FLOODED, Contra, _flow_deds, flow_deds, make_geo

    e = max(_bank("canal-view"), key=lambda b: b["h"] * b["w"])
    g = make_geo(Board.from_json(e["board"]))
    rng = random.Random(9)
    seen = {"contra": 0, "none": 0, "some": 0}
    for _ in range(500):
        dry, wet = rng.choice([0.1, 0.25, 0.4]), rng.choice([0.01, 0.03, 0.15])
        st = [DRY if i in g.fixed or rng.random() < dry else
              FLOODED if rng.random() < wet else 0 for i in range(g.n)]
        for first in (False, True):
            try:
                want = _flow_deds(g, st, first)
            except Contra as c:
                with pytest.raises(Contra) as got:
                    flow_deds(g, st, first)
                assert (got.value.args, vars(got.value)) == (c.args, vars(c))
                seen["contra"] += 1
                continue
            assert flow_deds(g, st, first) == want
            seen["some" if want else "none"] += 1
    assert min(seen.values()) > 20, seen
