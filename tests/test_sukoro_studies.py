"""Sukoro's measured studies on small boards, recounted with the scanner (engine 2)
instead of the ladder, and a test over the committed bank."""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path

import pytest

from solvers.grid import neighbours
from solvers.sukoro.board import Answer, Board
from solvers.sukoro.brute import brute
from solvers.sukoro.codec import decode, encode
from solvers.sukoro.generate import full_print, generate
from solvers.sukoro.ladder import LEVEL, POP, RUNGS, initial, propagate, solve
from solvers.sukoro.rules import violations
from solvers.sukoro.sat import solve_sat
from solvers.sukoro.studies import ablation, edits, ladder, sampling, value_position

ROOT = Path(__file__).resolve().parents[1] / "content" / "sukoro"


def _entries(seed: int, h: int, w: int, k: int) -> list:
    rng = random.Random(seed)
    out = []
    for i in range(k):
        b, a = generate(h, w, rng)
        out.append(({"id": f"{h}x{w}-{i}", "size": f"{h}x{w}"}, b, a))
    return out


def _n(b: Board, limit: int | None, **rules: bool) -> int:
    return len(brute(b, limit=limit, **rules).solutions)


def test_ablation_matches_the_scanner() -> None:
    es = _entries(3, 4, 4, 6)
    got = ablation(es)
    variants = {"none": {}, "equal": {"neq": False}, "disconnect": {"connect": False},
                "both": {"neq": False, "connect": False}}
    for name, rules in variants.items():
        counts = [_n(b, 2, **rules) for _, b, _ in es]
        assert got[name]["lost"] == sum(c != 1 for c in counts), name
        assert got[name]["none"] == sum(c == 0 for c in counts) == 0, name
    assert got["disconnect_kept"] == sum(_n(b, 2, connect=False) == 1 for _, b, _ in es)


def test_value_position_matches_the_scanner() -> None:
    es = _entries(4, 4, 4, 4)
    got = value_position(es, ["4x4"], lambda _m: None)["sizes"]["4x4"]
    erased = marks = numbered = 0
    for _, b, a in es:
        flat, vals = b.flat(), a.flat()
        erased += _n(Board.from_flat(4, 4, ["?" if v is not None else None for v in flat]),
                     2) == 1
        marks += _n(Board.from_flat(4, 4, ["?" if v else None for v in vals]), 2) == 1
        numbered += _n(full_print(a), 2) == 1
    assert (got["erased"], got["marks"], got["numbered"]) == (erased, marks, numbered)
    assert got["shipped"] == got["numbered"] == 4


def test_edits_match_the_scanner() -> None:
    es = _entries(6, 4, 4, 3)
    params = {"delete_limit": 6, "moves_per_clue": 2}
    got = edits(es, ["4x4"], params, random.Random(9), lambda _m: None)["sizes"]["4x4"]
    rng = random.Random(9)
    counts, munique, mnone, moves = [], 0, 0, 0
    for _, b, _ in es:
        flat = b.flat()
        empty = [i for i, v in enumerate(flat) if v is None]
        for i in [i for i, v in enumerate(flat) if v is not None]:
            f2 = flat[:]
            f2[i] = None
            counts.append(_n(Board.from_flat(4, 4, f2), 6))
            for _ in range(2):
                f3 = f2[:]
                f3[rng.choice(empty)] = flat[i]
                c3 = _n(Board.from_flat(4, 4, f3), 2)
                moves += 1
                munique += c3 == 1
                mnone += c3 == 0
    assert got["deleted"] == len(counts) and got["median"] == statistics.median(counts)
    assert got["none"] == sum(c == 0 for c in counts) == 0       # a deletion never kills
    assert (got["moved"], got["moved_unique"], got["moved_none"]) == (moves, munique, mnone)


def test_sampling_matches_the_scanner() -> None:
    params = {"sampling": {"4x4": [2, 5]}, "random_samples": 6, "true_samples": 3}
    got = sampling(params, random.Random(2), lambda _m: None)
    for row in got["rows"]:
        assert row["random"] == 6 and row["true"] <= 3
    # replay the draws with the scanner counting
    rng = random.Random(2)
    from solvers.sukoro.ladder import random_answer
    for k in (2, 5):
        none = uniq = 0
        for _ in range(6):
            flat: list = [None] * 16
            for i in rng.sample(range(16), k):
                flat[i] = rng.randint(1, 4)
            c = _n(Board.from_flat(4, 4, flat), 2)
            none += c == 0
            uniq += c == 1
        tuniq = 0
        for _ in range(3):
            vals = random_answer(4, 4, rng).flat()
            cells = [i for i, v in enumerate(vals) if v]
            if len(cells) < k:
                continue
            flat = [None] * 16
            for i in rng.sample(cells, k):
                flat[i] = vals[i]
            tuniq += _n(Board.from_flat(4, 4, flat), 2) == 1
        row = got["sizes"]["4x4"][str(k)]
        assert (row["random_none"], row["random_unique"], row["true_unique"]) \
            == (none, uniq, tuniq)


def test_ladder_counts_a_cell_once_its_value_is_known() -> None:
    es = _entries(8, 5, 5, 3)
    got = ladder(es, ["5x5"], 2000, lambda _m: None)["sizes"]["5x5"]
    for r in RUNGS[:-1]:
        value = status = 0
        for _, b, _ in es:
            dom = initial(b)
            propagate(dom, neighbours(5, 5), LEVEL[r])
            for v, d in zip(b.flat(), dom, strict=True):
                if v is None:
                    value += POP[d] == 1
                    status += not (d & 1 and d & 30)
        assert (got[r]["fixed"], got[r]["status"]) == (value, status)
        assert got[r]["fixed"] <= got[r]["status"]
    assert got["probe"]["fixed_share"] >= got["deg"]["fixed_share"]


def test_committed_bank() -> None:
    if not (ROOT / "bank.json").exists():
        pytest.skip("content/sukoro not generated yet")
    bank = json.loads((ROOT / "bank.json").read_text())["data"]["boards"]
    confirm = json.loads((ROOT / "confirm.json").read_text())["data"]
    by_id = {r["id"]: r for r in confirm["boards"]}
    assert len(bank) == 72 and confirm["total"] == 72 and confirm["all"]
    for e in bank:
        b = decode(e["url"])
        assert b == Board.from_json(e["board"]) and encode(b) == e["url"]
        assert e["clues"] == sum(v is not None for v in b.flat())
        a = Answer.from_json(e["answer"])
        assert violations(b, a) == []
        res = solve(b, limit=2)
        assert [s.rows() for s in res.solutions] == [a.rows()] and res.rung == e["grade"]
        # the SAT engine, which shares no code with the ladder, finds the same single answer
        assert solve_sat(b, limit=2).answers == [a.flat()]
        row = by_id[e["id"]]
        assert row["sat"] is True and row["brute"] in (True, None)
        assert (row["brute"] is None) == (e["h"] * e["w"] > 36)
        seen = set()
        vals = a.flat()
        for step in e["trace"]:
            for (r, c), st in zip(step["cells"], step["states"], strict=True):
                assert (r, c) not in seen
                seen.add((r, c))
                assert st == ("number" if vals[r * e["w"] + c] else "blank")
        assert len(seen) == e["h"] * e["w"] - e["clues"]
