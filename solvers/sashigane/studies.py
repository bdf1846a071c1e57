"""The stats stage: the exhaustive surveys of small boards, the shapes of circles' Ls,
the arrow conventions, the bank's numbers, the rule ablations and the ladder's rungs."""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.grid import parse_size
from solvers.margins import differs, methods, rate, wilson

from .board import CIRCLE, Answer, Board, Clue
from .fit import SEED, STANDARD, Rules
from .generate import arrow_choice, print_board, random_tiling
from .ladder import LEVEL, RUNGS, Capped, solve
from .ladder import rung_branches as _rung_branches
from .survey import shape_counts, survey, tilings


def _share(a: float, b: float) -> float:
    return a / b if b else 0.0


def _entries(bank_data: Mapping[str, Any]):
    for e in bank_data["boards"]:
        yield e, Board.from_json(e["board"]), Answer.from_json(e["answer"])


def _erase(board: Board) -> Board:
    return Board(board.h, board.w, tuple(Clue(CIRCLE, None) if k.kind == CIRCLE else k
                                         for k in board.cells), board.rules)


def _median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per section and size (or per ablation variant): seconds each."""
    sizes = list(dict.fromkeys(e["size"] for e in inputs["bank"]["boards"]))
    out = [{"key": f"survey/{s}", "section": "survey", "size": s} for s in params["survey"]]
    out += [{"key": f"shapes/{s}", "section": "shapes", "size": s} for s in params["shapes"]]
    out += [{"key": f"conventions/{s}", "section": "conventions", "size": s}
            for s in params["conventions"]]
    out.append({"key": "bank", "section": "bank"})
    out += [{"key": f"ablation/{b}/{v}", "section": "ablation", "base": b, "variant": v}
            for b in ("seed", "standard") for v in ABLATION_VARIANTS]
    out += [{"key": f"ladder/{s}", "section": "ladder", "size": s} for s in sizes]
    return out


ABLATION_VARIANTS: dict[str, dict[str, bool]] = {
    "none": {}, "point": {"point": False}, "end": {"end": False},
    "corner": {"corner": False}, "number": {"number": False}}


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> Any:
    section = chunk["section"]
    entries = list(_entries(inputs["bank"]))
    if section == "survey":
        h, w = parse_size(chunk["size"])
        tiles = tilings(h, w)
        return {"full": survey(h, w, True, tiles), "empty": survey(h, w, False, tiles)}
    if section == "shapes":
        return shape_counts(*parse_size(chunk["size"]))
    if section == "conventions":
        return _conventions(chunk["size"], params["conventions"][chunk["size"]],
                            params["coin_masks"],
                            random.Random(chunk_seed(params["seed"], chunk["key"])))
    if section == "bank":
        return _bank_rows(entries)
    if section == "ablation":
        return _ablation(entries, chunk["base"], ABLATION_VARIANTS[chunk["variant"]], params)
    if section == "ladder":
        return _ladder(entries, chunk["size"], params["ladder_cap"])
    raise ValueError(f"unknown stats section {section!r}")


def _conventions(size: str, n: int, masks: int, rng: random.Random) -> dict[str, Any]:
    """The convention study on one size: the same answers drawn three ways, circles empty."""
    h, w = parse_size(size)
    got = {"long": 0, "short": 0, "coin": 0}
    pieces = []
    for _a in range(n):
        ps = random_tiling(h, w, rng)
        pieces.append(len(ps))
        for c in ("long", "short"):
            b = print_board(h, w, ps, [arrow_choice(p, c, rng) for p in ps], False)
            got[c] += len(solve(b, limit=2).solutions) == 1
        for _ in range(masks):
            b = print_board(h, w, ps, [arrow_choice(p, "coin", rng) for p in ps], False)
            got["coin"] += len(solve(b, limit=2).solutions) == 1
    row = {"answers": n, "coin_boards": n * masks,
           "pieces_median": statistics.median(pieces),
           "long": got["long"], "short": got["short"], "coin": got["coin"],
           "long_share": _share(got["long"], n),
           "short_share": _share(got["short"], n),
           "coin_share": _share(got["coin"], n * masks)}
    row["long_minus_short"] = row["long_share"] - row["short_share"]
    best = max(row["long_share"], row["short_share"])
    row["best_over_coin"] = _share(best, row["coin_share"])
    return row


def _bank_rows(entries: list[Any]) -> dict[str, Any]:
    """The bank: numbers left, boards unique without any number, per size."""
    bank_rows: dict[str, Any] = {}
    for size in dict.fromkeys(e["size"] for e, _, _ in entries):
        es = [(e, b) for e, b, _ in entries if e["size"] == size]
        nums = [b.numbers() for _, b in es]
        zero = sum(1 for v in nums if v == 0)
        bare = sum(1 for _, b in es if len(solve(_erase(b), limit=2).solutions) == 1)
        grades = {r: sum(1 for e, _ in es if e["grade"] == r) for r in RUNGS}
        bank_rows[size] = {"boards": len(es), "pieces_median": statistics.median(
            e["pieces"] for e, _ in es), "numbers_min": min(nums), "numbers_max": max(nums),
            "numbers_median": statistics.median(nums), "zero_numbers": zero,
            "unique_bare": bare, "with_numbers": len(es) - zero, "grades": grades}
    return bank_rows


def _ablation(entries: list[Any], base_name: str, change: Mapping[str, bool],
              params: Mapping[str, Any]) -> dict[str, Any]:
    """One clause left out of the seed or standard rules, over the whole bank."""
    base = {"seed": SEED, "standard": STANDARD}[base_name]
    lim, acap = params["ablation"][base_name]["limit"], params["ablation"][base_name]["cap"]
    rules: Rules = base.replace(**change)
    lost = capped = branches = 0
    answers: list[int] = []
    verdicts = {"second": 0, "unique": 0, "none": 0}
    for _e, b, _ in entries:
        try:
            res = solve(b, limit=lim, rules=rules, cap=acap)
            n, nodes = len(res.solutions), res.nodes
            verdicts["second" if n >= 2 else "unique" if n == 1 else "none"] += 1
        except Capped:
            n, nodes = lim, acap
            capped += 1
        branches += nodes
        if n != 1:
            lost += 1
            answers.append(n)
    # list[int] for _median's list[float]: list is invariant (Sequence would do)
    row = {"lost": lost, "median_answers": _median(answers),  # type: ignore[arg-type]
           "branches": branches, "capped": capped, "limit": lim, "cap": acap,
           "lost_share": _share(lost, len(entries))}
    if base_name == "standard":
        # what the search proved, board by board: a second answer found, no second
        # answer (search finished), or neither (stopped at the cap)
        row.update({"proven_second": verdicts["second"], "proven_unique": verdicts["unique"],
                    "proven_none": verdicts["none"], "undecided": capped})
    return row


def _ladder(entries: list[Any], size: str, cap: int) -> dict[str, Any]:
    """Branches per rung to prove one size's boards unique, capped per board."""
    row: dict[str, Any] = {}
    es = [(e, b) for e, b, _ in entries if e["size"] == size]
    for r in RUNGS[:-1]:
        total = capped = 0
        for _e, b in es:
            n, cp = _rung_branches(b, LEVEL[r], cap)
            total += n
            capped += cp
        fixed = sum(len(solve(b, level=r).fixed) for _, b in es)
        cells = sum(b.h * b.w for _, b in es)
        row[r] = {"branches": total, "capped": capped, "lower_bound": capped > 0,
                  "fixed": fixed, "fixed_share": _share(fixed, cells)}
    row["boards"] = len(es)
    return row


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(stats_chunks(inputs, params), partials, strict=True)}
    sizes = list(dict.fromkeys(e["size"] for e in inputs["bank"]["boards"]))
    out: dict[str, Any] = {"boards": len(inputs["bank"]["boards"]), "sizes": sizes}
    full_rows = {s: got[f"survey/{s}"]["full"] for s in params["survey"]}
    empty_rows = {s: got[f"survey/{s}"]["empty"] for s in params["survey"]}
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
    counts = {"0": 0, "1": 0, "2": 0, "3+": 0}
    for size in params["shapes"]:
        for k, v in got[f"shapes/{size}"].items():
            counts[k] += v
    circles = sum(counts.values())
    out["shapes"] = {"sizes": params["shapes"], "circles": circles, **counts,
                     "share_1": _share(counts["1"], circles),
                     "share_2": _share(counts["2"], circles),
                     "share_3": _share(counts["3+"], circles)}
    conv = {s: got[f"conventions/{s}"] for s in params["conventions"]}
    out["conventions"] = {
        "sizes": conv, "masks": params["coin_masks"], "order": list(params["conventions"]),
        **{f"{c}_shares": [conv[k][f"{c}_share"] for k in params["conventions"]]
           for c in ("long", "short", "coin")},
        "consistent_beats_coin": all(min(r["long_share"], r["short_share"]) > r["coin_share"]
                                     for r in conv.values()),
        "flips": len({r["long_share"] > r["short_share"] for r in conv.values()}) > 1,
    }
    bank_rows = got["bank"]
    out["bank"] = {"sizes": bank_rows,
                   "with_numbers": sum(r["with_numbers"] for r in bank_rows.values()),
                   "unique_bare": sum(r["unique_bare"] for r in bank_rows.values())}
    abl: dict[str, Any] = {b: {v: got[f"ablation/{b}/{v}"] for v in ABLATION_VARIANTS}
                           for b in ("seed", "standard")}
    seed_rows = abl["seed"]
    abl["end_over_point"] = _share(seed_rows["end"]["lost"], seed_rows["point"]["lost"])
    abl["end_over_point_branches"] = _share(seed_rows["end"]["branches"],
                                            seed_rows["point"]["branches"])
    abl["order"] = list(ABLATION_VARIANTS)
    out["ablation"] = abl
    out["ladder"] = {"sizes": {s: got[f"ladder/{s}"] for s in sizes},
                     "cap": params["ladder_cap"], "rungs": list(RUNGS[:-1])}
    return add_margins(out)


COIN_INTERVAL = ("Wilson, 95%, over the answers (n = answers, not flips: the flips of one "
                 "answer share its tiling and are not independent draws)")


def add_margins(out: dict[str, Any]) -> dict[str, Any]:
    """Intervals beside the sampled rates of the convention study and the ablation's
    shares, from the counts they store (``ci``: k, n, rate, lo, hi), and the comparisons the prose states, decided by
    them. In place on a finished stats dict (returned)."""
    conv = out["conventions"]
    out["margins"] = {**methods(), "coin": COIN_INTERVAL}
    # the ablation: the share of the shipped boards each dropped clause leaves not unique
    ab, n_boards = out["ablation"], out["boards"]
    for part in ("seed", "standard"):
        for row in ab[part].values():
            row["ci"] = {"lost": rate(row["lost"], n_boards)}
    ab["end_apart"] = differs(ab["seed"]["end"]["ci"]["lost"], ab["seed"]["point"]["ci"]["lost"])
    for r in conv["sizes"].values():
        n = r["answers"]
        lo, hi = wilson(r["coin_share"] * n, n)     # the flips' share, weighed as n draws
        coin = {"k": r["coin"], "n": r["coin_boards"], "n_eff": n, "rate": r["coin_share"],
                "lo": lo, "hi": hi}
        r["ci"] = {"long": rate(r["long"], n), "short": rate(r["short"], n), "coin": coin}
    rows = list(conv["sizes"].values())
    conv["long_ahead"] = all(r["ci"]["long"]["lo"] > r["ci"]["short"]["hi"] for r in rows)
    conv["short_ahead"] = all(r["ci"]["short"]["lo"] > r["ci"]["long"]["hi"] for r in rows)
    conv["beats_coin_apart"] = all(
        min(r["ci"]["long"]["lo"], r["ci"]["short"]["lo"]) > r["ci"]["coin"]["hi"] for r in rows)
    conv["apart"] = [s for s, r in conv["sizes"].items()
                     if r["ci"]["long"]["lo"] > r["ci"]["short"]["hi"]
                     or r["ci"]["short"]["lo"] > r["ci"]["long"]["hi"]]
    return out


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    """The whole stats stage in this process (what the pipeline does chunk by chunk)."""
    chunks = stats_chunks(inputs, params)
    return stats_reduce([stats_map(c, inputs, params) for c in chunks], inputs, params)
