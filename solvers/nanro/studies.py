"""The measurements behind the article: each study is a function of a seeded RNG and
its parameters, returning JSON-able figures (shares as fractions, keys without dots)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable
from typing import Any

from solvers.grid import Clue

from .board import Answer, Board
from .brute import brute
from .generate import full_board, make_answer, random_partition, reveal
from .ladder import (
    LEVEL,
    RUNGS,
    Capped,
    completes,
    geometry,
    initial,
    propagate,
    random_answer,
    search,
    solve,
)

LADDER = RUNGS[:-1]            # count … probe


def hw(size: str) -> tuple[int, int]:
    a, b = size.split("x")
    return int(a), int(b)


def share(a: float, b: float) -> float:
    return a / b if b else 0.0


def qkey(q: float) -> str:
    return f"q{round(q * 100)}"


def count_answers(board: Board, cap: int) -> tuple[int, int, bool]:
    """(answers up to 2, nodes, capped) by the ladder's search, reach at every node."""
    g = geometry(board.h, board.w, board.regions)
    st = initial(board, g)
    if st is None or not propagate(g, st, 3):
        return 0, 0, False
    try:
        sols, nodes = search(g, st, 2, cap=cap)
    except Capped:
        return 0, cap, True
    return len(sols), nodes, False


def weakest(board: Board) -> str | None:
    """The weakest rung that completes the board (None: probe does not)."""
    return solve(board, level="probe").rung


def raw_board(h: int, w: int, q: float, rng: random.Random, lo: int = 2, hi: int = 4
              ) -> tuple[Board, Answer, Board] | None:
    """The raw stream: a random partition, one random legal answer, and round(q·|S|) of
    its numbered cells printed as full clues (not conditioned on uniqueness)."""
    made = make_answer(h, w, rng, lo, hi)
    if made is None:
        return None
    empty, ans = made
    full = full_board(empty, ans)
    cells = [i for i, v in enumerate(full) if v is not None]
    picked = set(rng.sample(cells, round(q * len(cells))))
    flat: list[Clue] = [full[i] if i in picked else None for i in range(len(full))]
    return empty, ans, empty.with_clues(flat)


def _stream(size: str, q: float, n: int, rng: random.Random, lo: int = 2, hi: int = 4):
    h, w = hw(size)
    made = 0
    while made < n:
        got = raw_board(h, w, q, rng, lo, hi)
        if got is None:
            continue
        made += 1
        yield got


# -- clue halves ------------------------------------------------------------------------

def halves(sizes: dict[str, int], qs: list[float], cap: int, rng: random.Random,
           tick: Callable[[str], None]) -> dict[str, Any]:
    """Uniqueness with the printed clues whole, with positions only (``?`` marks), and
    with values only (region labels), same answer and same clue cells."""
    out: dict[str, Any] = {}
    for q in qs:
        row: dict[str, Any] = {}
        for size, n in sizes.items():
            tally = {"full": 0, "mark": 0, "value": 0}
            capped = {"full": 0, "mark": 0, "value": 0}
            for empty, _ans, board in _stream(size, q, n, rng):
                flat = board.flat()
                fr = board.flat_regions()
                labels: list[int | None] = [None] * empty.region_count()
                for i, v in enumerate(flat):
                    if v is not None:
                        labels[fr[i]] = v  # type: ignore[assignment]
                marks = empty.with_clues(["?" if v is not None else None for v in flat])
                values = empty.with_clues([None] * len(flat), tuple(labels))
                for name, b in (("full", board), ("mark", marks), ("value", values)):
                    c, _, cp = count_answers(b, cap)
                    tally[name] += c == 1
                    capped[name] += cp
            row[size] = {"boards": n, **{k: share(v, n) for k, v in tally.items()},
                         "capped": capped}
            tick(f"halves {qkey(q)} {size}")
        out[qkey(q)] = {"q": q, "sizes": row}
    return out


# -- the answer budget, minimal clues, adversarial vs random ----------------------------

def budget(sizes: list[str], n: int, cap: int, rng: random.Random,
           tick: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for size in sizes:
        h, w = hw(size)
        regions, numbered, shares, probe_share = [], [], [], []
        minimal: dict[str, list[int]] = {lv: [] for lv in LADDER}
        rand_unique = 0
        rand_capped = 0
        for _ in range(n):
            made = None
            while made is None:
                made = make_answer(h, w, rng)
            empty, ans = made
            s = len(ans.cells)
            regions.append(empty.region_count())
            numbered.append(s)
            shares.append(s / (h * w))
            for lv in LADDER:
                b = reveal(empty, ans, LEVEL[lv], rng)
                assert b is not None
                minimal[lv].append(b.clue_count())
            k = minimal["probe"][-1]
            probe_share.append(k / s)
            full = full_board(empty, ans)
            cells = [i for i, v in enumerate(full) if v is not None]
            picked = set(rng.sample(cells, k))
            rb = empty.with_clues([full[i] if i in picked else None for i in range(len(full))])
            c, _, cp = count_answers(rb, cap)
            rand_unique += c == 1
            rand_capped += cp
        out[size] = {
            "boards": n, "regions_mean": statistics.mean(regions),
            "numbered_mean": statistics.mean(numbered), "share_mean": statistics.mean(shares),
            "ceiling": share(h * w - (h // 2) * (w // 2), h * w),
            "probe_share_mean": statistics.mean(probe_share),
            "numbered_median": statistics.median(numbered),
            "minimal": {lv: statistics.median(v) for lv, v in minimal.items()},
            "random": {"budget_median": statistics.median(minimal["probe"]),
                       "unique": rand_unique, "rate": share(rand_unique, n),
                       "capped": rand_capped},
        }
        tick(f"budget {size}")
    return out


# -- increments, section A and the law probe <=> unique, agreement --------------------------

def _grade_row(boards: list[tuple[str | None, int, bool]], n: int) -> dict[str, Any]:
    rates = {}
    for lv in LADDER:
        rates[lv] = share(sum(1 for g, _, _ in boards if g is not None
                              and LEVEL[g] <= LEVEL[lv]), n)
    return {"boards": n, "rates": rates,
            "unique": share(sum(1 for _, c, _ in boards if c == 1), n),
            "capped": sum(1 for _, _, cp in boards if cp)}


def increments(rows: list[dict[str, Any]], cap: int, rng: random.Random,
               tick: Callable[[str], None]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        got = []
        for _e, _a, board in _stream(row["size"], row["q"], row["boards"], rng):
            c, _, cp = count_answers(board, cap)
            got.append((weakest(board), c, cp))
        out.append({"size": row["size"], "q": row["q"], **_grade_row(got, row["boards"])})
        tick(f"increments {row['size']} {qkey(row['q'])}")
    return out


def section_a(sizes: list[str], qs: list[float], n: int, cap: int, brute_cap: int,
              brute_cells: int, exception_cap: int, rng: random.Random,
              tick: Callable[[str], None]) -> dict[str, Any]:
    """Probe completes <=> unique, on every board; each exception is re-checked by the
    region product. Engine agreement on every board the region product can finish."""
    total = holds = 0
    exceptions: list[dict[str, Any]] = []
    sound_breaks = 0
    search_capped = 0
    agree = disagree = brute_capped = compared = 0
    cells: dict[str, Any] = {}
    for size in sizes:
        for q in qs:
            got = []
            for _e, _a, board in _stream(size, q, n, rng):
                total += 1
                g = weakest(board)
                c, nodes, cp = count_answers(board, cap)
                got.append((g, c, cp))
                if cp:
                    search_capped += 1
                    continue
                probe_done = g is not None
                if probe_done == (c == 1):
                    holds += 1
                elif probe_done:
                    sound_breaks += 1
                exc = not probe_done and c == 1
                if not exc and board.h * board.w > brute_cells:
                    continue
                br = brute(board, limit=2, cap=exception_cap if exc else brute_cap)
                if br.stats["capped"]:
                    brute_capped += 1
                else:
                    compared += 1
                    if len(br.solutions) == c:
                        agree += 1
                    else:
                        disagree += 1
                if exc:
                    exceptions.append({
                        "size": size, "q": q, "board": board.to_json(),
                        "search_nodes": nodes, "brute_answers": len(br.solutions),
                        "brute_nodes": br.nodes, "brute_capped": bool(br.stats["capped"])})
            cells[f"{size}_{qkey(q)}"] = {"size": size, "q": q, **_grade_row(got, n)}
            tick(f"section A {size} {qkey(q)}")
    return {"boards": total, "holds": holds, "exceptions": exceptions,
            "exception_count": len(exceptions), "probe_not_unique": sound_breaks,
            "search_capped": search_capped, "cells": cells,
            "agreement": {"compared": compared, "agree": agree, "disagree": disagree,
                          "skipped_brute_capped": brute_capped,
                          "skipped_search_capped": search_capped}}


# -- ablation -------------------------------------------------------------------------------

def ablation(rows: list[dict[str, Any]], rng: random.Random,
             tick: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for row in rows:
        size, q, n = row["size"], row["q"], row["boards"]
        full = 0
        minus = {r: 0 for r in ("count", "block", "clash", "reach")}
        for _e, _a, board in _stream(size, q, n, rng):
            full += completes(board, "probe")
            for r in minus:
                minus[r] += completes(board, "probe", frozenset({r}))
        out[size] = {"boards": n, "q": q, "full": share(full, n),
                     "minus": {r: share(v, n) for r, v in minus.items()},
                     "drop": {r: share(full - v, n) for r, v in minus.items()}}
        tick(f"ablation {size}")
    return out


# -- the granularity dial -------------------------------------------------------------------

def dial(size: str, q: float, ranges: list[list[int]], n: int, cap: int,
         rng: random.Random, tick: Callable[[str], None]) -> dict[str, Any]:
    h, w = hw(size)
    out = []
    for lo, hi in ranges:
        legal = proved_none = capped_none = 0
        regions, shares, got = [], [], []
        for _ in range(n):
            reg = random_partition(h, w, rng, lo, hi)
            assert reg is not None
            empty = Board.blank(reg)
            ans = random_answer(empty, rng)
            if ans is None:
                try:
                    g = geometry(h, w, empty.regions)
                    st = initial(empty, g)
                    none = st is None or not propagate(g, st, 3) or not search(
                        g, st, 1, cap=cap)[0]
                except Capped:
                    none = False
                    capped_none += 1
                proved_none += none
                continue
            legal += 1
            regions.append(empty.region_count())
            shares.append(len(ans.cells) / (h * w))
            full = full_board(empty, ans)
            cells = [i for i, v in enumerate(full) if v is not None]
            picked = set(rng.sample(cells, round(q * len(cells))))
            board = empty.with_clues([full[i] if i in picked else None
                                      for i in range(len(full))])
            c, _, cp = count_answers(board, cap)
            got.append((weakest(board), c, cp))
        row: dict[str, Any] = {"range": f"{lo}-{hi}", "lo": lo, "hi": hi, "tried": n,
                               "legal": legal, "proved_none": proved_none,
                               "capped_none": capped_none}
        if legal:
            gr = _grade_row(got, legal)
            row.update({"regions_mean": statistics.mean(regions),
                        "share_mean": statistics.mean(shares), "rates": gr["rates"],
                        "unique": gr["unique"]})
        else:
            row.update({"regions_mean": None, "share_mean": None,
                        "rates": {lv: None for lv in LADDER}, "unique": None})
        out.append(row)
        tick(f"dial {lo}-{hi}")
    return {"size": size, "q": q, "rows": out}
