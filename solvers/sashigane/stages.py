"""The bank and stats stages (the ledger stage lives in ``ledger``)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from solvers.common import Progress, no_progress

from .board import CIRCLE, Answer, Board, Clue
from .fit import SEED, STANDARD, Rules
from .generate import arrow_choice, generate, print_board, random_tiling
from .hints import bank_entry, finish_bank
from .ladder import LEVEL, RUNGS, Capped, solve
from .ladder import rung_branches as _rung_branches
from .params import BANK_PARAMS, STATS_PARAMS
from .scanner import brute
from .survey import shape_counts, survey, tilings

__all__ = ["BANK_PARAMS", "STATS_PARAMS", "bank", "stats"]


def _hw(size: str) -> tuple[int, int]:
    a, b = size.split("x")
    return int(a), int(b)


def _share(a: float, b: float) -> float:
    return a / b if b else 0.0


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    rng = random.Random(params["seed"])
    boards = []
    total = sum(params["sizes"].values())
    for size, count in params["sizes"].items():
        h, w = _hw(size)
        for k in range(count):
            board, _pieces = generate(h, w, rng, params["convention"])
            answer = solve(board, limit=1).solutions[0]
            check = brute(board, limit=2).solutions
            if len(check) != 1 or check[0] != answer:
                raise AssertionError(f"the scanner disagrees on bank board {size} #{k + 1}")
            boards.append(bank_entry(board, answer, f"{size}-{k + 1:02d}"))
            progress(len(boards), total, f"bank {size} #{k + 1}")
    return finish_bank({"boards": boards, "confirmed_by_scanner": len(boards)}, params)


def _entries(bank_data: Mapping[str, Any]):
    for e in bank_data["boards"]:
        yield e, Board.from_json(e["board"]), Answer.from_json(e["answer"])


def _erase(board: Board) -> Board:
    return Board(board.h, board.w, tuple(Clue(CIRCLE, None) if k.kind == CIRCLE else k
                                         for k in board.cells), board.rules)


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    rng = random.Random(params["seed"])
    entries = list(_entries(inputs["bank"]))
    sizes = list(dict.fromkeys(e["size"] for e, _, _ in entries))
    out: dict[str, Any] = {"boards": len(entries), "sizes": sizes}
    steps = 6
    step = 0

    def tick(note: str) -> None:
        nonlocal step
        step += 1
        progress(step, steps, note)

    # -- exhaustive surveys, numbers printed and circles empty
    full_rows: dict[str, Any] = {}
    empty_rows: dict[str, Any] = {}
    for size in params["survey"]:
        h, w = _hw(size)
        progress(step, steps, f"survey {size}")
        tiles = tilings(h, w)
        full_rows[size] = survey(h, w, True, tiles)
        empty_rows[size] = survey(h, w, False, tiles)
    spec = params["spec_survey"]
    out["full_survey"] = {
        "sizes": full_rows, "order": list(params["survey"]),
        "shares": [full_rows[k]["share"] for k in params["survey"]],
        "spec_pairs": sum(full_rows[s]["pairs"] for s in spec),
        "spec_ambiguous": sum(full_rows[s]["ambiguous"] for s in spec),
        "pairs": sum(r["pairs"] for r in full_rows.values()),
        "ambiguous": sum(r["ambiguous"] for r in full_rows.values()),
        "ambiguous_sizes": [s for s, r in full_rows.items() if r["ambiguous"]],
        "first_ambiguous": next((s for s, r in full_rows.items() if r["ambiguous"]), None),
    }
    out["empty_survey"] = {
        "sizes": empty_rows, "order": list(params["survey"]),
        "shares": [empty_rows[k]["share"] for k in params["survey"]],
        "hopeless": sum(r["hopeless"] for r in empty_rows.values()),
        "tilings": sum(r["tilings"] for r in empty_rows.values()),
        "lowest": min(empty_rows, key=lambda s: empty_rows[s]["share"]),
    }
    tick("surveys")

    # -- candidate shapes of a fully clued circle
    counts = {"0": 0, "1": 0, "2": 0, "3+": 0}
    for size in params["shapes"]:
        h, w = _hw(size)
        for k, v in shape_counts(h, w).items():
            counts[k] += v
    circles = sum(counts.values())
    out["shapes"] = {"sizes": params["shapes"], "circles": circles, **counts,
                     "share_1": _share(counts["1"], circles),
                     "share_2": _share(counts["2"], circles),
                     "share_3": _share(counts["3+"], circles)}
    tick("shapes")

    # -- the convention study: the same answers drawn three ways, circles empty
    conv: dict[str, Any] = {}
    masks = params["coin_masks"]
    for size, n in params["conventions"].items():
        h, w = _hw(size)
        got = {"long": 0, "short": 0, "coin": 0}
        pieces = []
        for a in range(n):
            if a % 50 == 0:
                progress(step, steps, f"conventions {size} {a}/{n}")
            ps = random_tiling(h, w, rng)
            pieces.append(len(ps))
            for c in ("long", "short"):
                b = print_board(h, w, ps, [arrow_choice(p, c, rng) for p in ps], False)
                got[c] += len(solve(b, limit=2).solutions) == 1
            for _ in range(masks):
                b = print_board(h, w, ps, [arrow_choice(p, "coin", rng) for p in ps], False)
                got["coin"] += len(solve(b, limit=2).solutions) == 1
        conv[size] = {"answers": n, "coin_boards": n * masks,
                      "pieces_median": statistics.median(pieces),
                      "long": got["long"], "short": got["short"], "coin": got["coin"],
                      "long_share": _share(got["long"], n),
                      "short_share": _share(got["short"], n),
                      "coin_share": _share(got["coin"], n * masks)}
        conv[size]["long_minus_short"] = conv[size]["long_share"] - conv[size]["short_share"]
        best = max(conv[size]["long_share"], conv[size]["short_share"])
        conv[size]["best_over_coin"] = _share(best, conv[size]["coin_share"])
    out["conventions"] = {
        "sizes": conv, "masks": masks, "order": list(params["conventions"]),
        **{f"{c}_shares": [conv[k][f"{c}_share"] for k in params["conventions"]]
           for c in ("long", "short", "coin")},
        "consistent_beats_coin": all(min(r["long_share"], r["short_share"]) > r["coin_share"]
                                     for r in conv.values()),
        "flips": len({r["long_share"] > r["short_share"] for r in conv.values()}) > 1,
    }
    tick("conventions")

    # -- the bank: numbers left, boards unique without any number
    bank_rows: dict[str, Any] = {}
    for size in sizes:
        es = [(e, b) for e, b, _ in entries if e["size"] == size]
        nums = [b.numbers() for _, b in es]
        zero = sum(1 for v in nums if v == 0)
        bare = sum(1 for _, b in es if len(solve(_erase(b), limit=2).solutions) == 1)
        grades = {r: sum(1 for e, _ in es if e["grade"] == r) for r in RUNGS}
        bank_rows[size] = {"boards": len(es), "pieces_median": statistics.median(
            e["pieces"] for e, _ in es), "numbers_min": min(nums), "numbers_max": max(nums),
            "numbers_median": statistics.median(nums), "zero_numbers": zero,
            "unique_bare": bare, "with_numbers": len(es) - zero, "grades": grades}
    out["bank"] = {"sizes": bank_rows,
                   "with_numbers": sum(r["with_numbers"] for r in bank_rows.values()),
                   "unique_bare": sum(r["unique_bare"] for r in bank_rows.values())}
    tick("bank")

    # -- clause ablation, seed and standard rules
    variants = {"none": {}, "point": {"point": False}, "end": {"end": False},
                "corner": {"corner": False}, "number": {"number": False}}
    abl: dict[str, Any] = {}
    for base_name, base in (("seed", SEED), ("standard", STANDARD)):
        lim, acap = params["ablation"][base_name]["limit"], params["ablation"][base_name]["cap"]
        rows: dict[str, Any] = {}
        for name, change in variants.items():
            rules: Rules = replace(base, **change)
            lost = capped = branches = 0
            answers: list[int] = []
            for e, b, _ in entries:
                progress(step, steps, f"ablation {base_name} {name} {e['id']}")
                try:
                    res = solve(b, limit=lim, rules=rules, cap=acap)
                    n, nodes = len(res.solutions), res.nodes
                except Capped:
                    n, nodes = lim, acap
                    capped += 1
                branches += nodes
                if n != 1:
                    lost += 1
                    answers.append(n)
            rows[name] = {"lost": lost, "median_answers": _median(answers),
                          "branches": branches, "capped": capped, "limit": lim, "cap": acap,
                          "lost_share": _share(lost, len(entries))}
        abl[base_name] = rows
    seed_rows = abl["seed"]
    abl["end_over_point"] = _share(seed_rows["end"]["lost"], seed_rows["point"]["lost"])
    abl["end_over_point_branches"] = _share(seed_rows["end"]["branches"],
                                            seed_rows["point"]["branches"])
    abl["order"] = list(variants)
    out["ablation"] = abl
    tick("ablation")

    # -- the ladder: branches per rung to prove the bank unique, capped per board
    cap = params["ladder_cap"]
    lad: dict[str, Any] = {}
    rungs = RUNGS[:-1]
    for size in sizes:
        row: dict[str, Any] = {}
        es = [(e, b) for e, b, _ in entries if e["size"] == size]
        for r in rungs:
            total = capped = 0
            for e, b in es:
                progress(step, steps, f"ladder {r} {e['id']}")
                n, cp = _rung_branches(b, LEVEL[r], cap)
                total += n
                capped += cp
            fixed = sum(len(solve(b, level=r).fixed) for _, b in es)
            cells = sum(b.h * b.w for _, b in es)
            row[r] = {"branches": total, "capped": capped, "lower_bound": capped > 0,
                      "fixed": fixed, "fixed_share": _share(fixed, cells)}
        row["boards"] = len(es)
        lad[size] = row
    out["ladder"] = {"sizes": lad, "cap": cap, "rungs": list(rungs)}
    tick("ladder")
    return out
