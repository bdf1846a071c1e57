"""The bank and stats stages (the ledger stage lives in ``exact``)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress

from .board import Answer, Board
from .generate import bank_entry, full_print, generate
from .ladder import (
    LEVEL,
    RUNGS,
    STANDARD,
    Capped,
    Rules,
    decided,
    initial,
    neighbours,
    propagate,
    random_answer,
    search,
    solve,
)

BANK_PARAMS = {"seed": 57, "sizes": ["6x6", "8x8", "10x10"], "count": 24}
STATS_PARAMS = {
    "seed": 5757,
    "lemma": {"size": "8x8", "answers": 100},
    "sampling": {"6x6": [3, 6, 9, 12], "8x8": [8, 16, 25], "10x10": [8, 16, 25]},
    "random_samples": 40,
    "true_samples": 12,
    "ladder_cap": 20000,
    "delete_limit": 8,
    "moves_per_clue": 3,
}


def _hw(size: str) -> tuple[int, int]:
    a, b = size.split("x")
    return int(a), int(b)


def _share(a: float, b: float) -> float:
    return a / b if b else 0.0


def bank(inputs: Mapping[str, Any], params: Mapping[str, Any],
         progress: Progress = no_progress) -> dict[str, Any]:
    rng = random.Random(params["seed"])
    boards = []
    total = len(params["sizes"]) * params["count"]
    for size in params["sizes"]:
        h, w = _hw(size)
        for k in range(params["count"]):
            board, answer = generate(h, w, rng)
            boards.append(bank_entry(board, answer, f"{size}-{k + 1:02d}"))
            progress(len(boards), total, f"bank {size} #{k + 1}")
    return {"boards": boards}


def _count(board: Board, limit: int, rules: Rules = STANDARD) -> int:
    return len(solve(board, limit=limit, rules=rules).solutions)


def _entries(bank_data: Mapping[str, Any]):
    for e in bank_data["boards"]:
        yield e, Board.from_json(e["board"]), Answer.from_json(e["answer"])


def _digits(values: list[int]) -> dict[str, Any]:
    nums = [v for v in values if v]
    return {"numbers": len(nums),
            **{str(d): _share(sum(1 for v in nums if v == d), len(nums)) for d in range(1, 5)}}


def _rung_nodes(board: Board, level: int, cap: int) -> tuple[int, bool]:
    """Branches a search needs to prove ``board`` unique when every node propagates only
    the rungs up to ``level``. (nodes, capped)."""
    dom = initial(board)
    nb = neighbours(board.h, board.w)
    if not propagate(dom, nb, level):
        return 0, False
    try:
        _, nodes = search(dom, board.h, board.w, 2, node_level=level, cap=cap)
    except Capped:
        return cap, True
    return nodes, False


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    bank_data = inputs["bank"]
    rng = random.Random(params["seed"])
    entries = list(_entries(bank_data))
    sizes = sorted({e["size"] for e, _, _ in entries}, key=lambda s: _hw(s))
    steps = 8
    step = 0

    def tick(note: str) -> None:
        nonlocal step
        step += 1
        progress(step, steps, note)

    out: dict[str, Any] = {"sizes": sizes, "boards": len(entries)}

    # -- the bank itself
    by_size: dict[str, Any] = {}
    for size in sizes:
        es = [e for e, _, _ in entries if e["size"] == size]
        clues = [e["clues"] for e in es]
        grades = {r: sum(1 for e in es if e["grade"] == r) for r in RUNGS}
        by_size[size] = {"boards": len(es), "clues_min": min(clues), "clues_max": max(clues),
                         "clues_mean": statistics.mean(clues),
                         "clues_median": statistics.median(clues), "grades": grades,
                         "no_search": len(es) - grades["search"]}
    out["bank"] = {"by_size": by_size,
                   "no_search": sum(v["no_search"] for v in by_size.values()),
                   "grades": {r: sum(v["grades"][r] for v in by_size.values()) for r in RUNGS}}

    # -- the full-print lemma on random answers, with and without the connectivity rule
    lh, lw = _hw(params["lemma"]["size"])
    n_lemma = params["lemma"]["answers"]
    with_conn = without = 0
    for li in range(n_lemma):
        if li % 10 == 0:
            progress(step, steps, f"lemma {li}/{n_lemma}")
        ans = random_answer(lh, lw, rng)
        b = full_print(ans)
        with_conn += _count(b, 2) == 1
        without += _count(b, 2, Rules(connect=False)) == 1
    out["lemma"] = {"size": params["lemma"]["size"], "answers": n_lemma,
                    "unique": with_conn, "unique_share": _share(with_conn, n_lemma),
                    "unique_without_connect": without,
                    "unique_without_connect_share": _share(without, n_lemma)}
    tick("lemma")

    # -- sampling: random clue sets against clue sets read off an answer
    sampling: dict[str, Any] = {}
    sample_rows: list[dict[str, Any]] = []
    rs, ts = params["random_samples"], params["true_samples"]
    tot_random = tot_random_unique = tot_true = tot_true_unique = 0
    for size, ks in params["sampling"].items():
        h, w = _hw(size)
        n = h * w
        rows = {}
        for k in ks:
            progress(step, steps, f"sampling {size} with {k} clues")
            none = uniq = 0
            for _ in range(rs):
                flat: list = [None] * n
                for i in rng.sample(range(n), k):
                    flat[i] = rng.randint(1, 4)
                c = _count(Board.from_flat(h, w, flat), 2)
                none += c == 0
                uniq += c == 1
            tuniq = tn = 0
            for _ in range(ts):
                ans = random_answer(h, w, rng)
                vals = ans.flat()
                cells = [i for i, v in enumerate(vals) if v]
                if len(cells) < k:
                    continue
                flat = [None] * n
                for i in rng.sample(cells, k):
                    flat[i] = vals[i]
                tn += 1
                tuniq += _count(Board.from_flat(h, w, flat), 2) == 1
            rows[str(k)] = {"size": size, "clues": k, "random": rs, "random_none": none,
                            "random_unique": uniq, "random_none_share": _share(none, rs),
                            "random_unique_share": _share(uniq, rs), "true": tn,
                            "true_unique": tuniq, "true_unique_share": _share(tuniq, tn)}
            sample_rows.append(rows[str(k)])
            tot_random += rs
            tot_random_unique += uniq
            tot_true += tn
            tot_true_unique += tuniq
        sampling[size] = rows
        progress(step, steps, f"sampling {size}")
    out["sampling"] = {"sizes": sampling, "rows": sample_rows, "random": tot_random,
                       "random_unique": tot_random_unique, "true": tot_true,
                       "true_unique": tot_true_unique}
    tick("sampling")

    # -- value against position on the shipped boards
    vp: dict[str, Any] = {}
    for size in sizes:
        row = {"boards": 0, "shipped": 0, "erased": 0, "marks": 0, "numbered": 0}
        for e, b, a in entries:
            if e["size"] != size:
                continue
            progress(step, steps, f"value vs position {e['id']}")
            row["boards"] += 1
            flat = b.flat()
            vals = a.flat()
            row["shipped"] += _count(b, 2) == 1
            erased = ["?" if v is not None else None for v in flat]
            row["erased"] += _count(Board.from_flat(b.h, b.w, erased), 2) == 1
            marks = ["?" if v else None for v in vals]
            row["marks"] += _count(Board.from_flat(b.h, b.w, marks), 2) == 1
            row["numbered"] += _count(full_print(a), 2) == 1
        vp[size] = row
    out["value_position"] = {"sizes": vp, **{k: sum(r[k] for r in vp.values())
                                             for k in ("boards", "shipped", "erased", "marks",
                                                       "numbered")}}
    tick("value vs position")

    # -- rule ablation
    variants = {"none": STANDARD, "equal": Rules(neq=False), "disconnect": Rules(connect=False),
                "both": Rules(neq=False, connect=False)}
    abl: dict[str, Any] = {}
    for name, rules in variants.items():
        lost = nosol = 0
        for _, b, _ in entries:
            c = _count(b, 2, rules)
            lost += c != 1
            nosol += c == 0
        abl[name] = {"lost": lost, "none": nosol, "lost_share": _share(lost, len(entries))}
    abl["disconnect_kept"] = len(entries) - abl["disconnect"]["lost"]
    out["ablation"] = abl
    tick("ablation")

    # -- the ladder: branches per rung, cells fixed from the untouched board
    cap = params["ladder_cap"]
    lad: dict[str, Any] = {}
    rungs = RUNGS[:-1]
    capped_total = 0
    for size in sizes:
        row: dict[str, Any] = {}
        es = [(e, b) for e, b, _ in entries if e["size"] == size]
        unprinted = sum(sum(v is None for v in b.flat()) for _, b in es)
        for r in rungs:
            nodes = capped = fixed = 0
            for e, b in es:
                progress(step, steps, f"ladder {r} {e['id']}")
                nd, cp = _rung_nodes(b, LEVEL[r], cap)
                nodes += nd
                capped += cp
                dom = initial(b)
                propagate(dom, neighbours(b.h, b.w), LEVEL[r])
                dec = decided(dom)
                fixed += sum(1 for v, d in zip(b.flat(), dec) if v is None and d)
            capped_total += capped
            row[r] = {"branches": nodes, "capped": capped, "lower_bound": capped > 0,
                      "fixed": fixed, "fixed_share": _share(fixed, unprinted)}
        row["boards"] = len(es)
        row["unprinted"] = unprinted
        lad[size] = row
        progress(step, steps, f"ladder {size}")
    out["ladder"] = {"sizes": lad, "cap": cap, "capped": capped_total, "rungs": list(rungs)}
    tick("ladder")

    # -- digit distributions
    ans_vals = [v for _, _, a in entries for v in a.flat()]
    clue_vals = [v for _, b, _ in entries for v in b.flat() if isinstance(v, int)]
    out["digits"] = {"answers": _digits(ans_vals), "clues": _digits(clue_vals)}
    out["digits"]["one_gap"] = out["digits"]["clues"]["1"] - out["digits"]["answers"]["1"]
    tick("digits")

    # -- deleting a clue against moving it
    lim = params["delete_limit"]
    mv = params["moves_per_clue"]
    edits: dict[str, Any] = {}
    tdel = tdel_none = tdel_unique = tmov = tmov_none = tmov_unique = 0
    for size in sizes:
        counts = []
        dunique = dnone = 0
        moves = munique = mnone = 0
        for e, b, _ in entries:
            if e["size"] != size:
                continue
            progress(step, steps, f"edits {e['id']}")
            flat = b.flat()
            clued = [i for i, v in enumerate(flat) if v is not None]
            empty = [i for i, v in enumerate(flat) if v is None]
            for i in clued:
                f2 = flat[:]
                f2[i] = None
                c = _count(Board.from_flat(b.h, b.w, f2), lim)
                counts.append(c)
                dunique += c == 1
                dnone += c == 0
                for _ in range(mv):
                    j = rng.choice(empty)
                    f3 = f2[:]
                    f3[j] = flat[i]
                    c3 = _count(Board.from_flat(b.h, b.w, f3), 2)
                    moves += 1
                    munique += c3 == 1
                    mnone += c3 == 0
        med = statistics.median(counts)
        edits[size] = {"deleted": len(counts), "median": med, "median_capped": med >= lim,
                       "still_unique": dunique, "still_unique_share": _share(dunique,
                                                                            len(counts)),
                       "none": dnone, "moved": moves, "moved_unique": munique,
                       "moved_unique_share": _share(munique, moves), "moved_none": mnone,
                       "moved_none_share": _share(mnone, moves)}
        tdel += len(counts)
        tdel_none += dnone
        tdel_unique += dunique
        tmov += moves
        tmov_none += mnone
        tmov_unique += munique
        progress(step, steps, f"edits {size}")
    out["edits"] = {"sizes": edits, "limit": lim, "moves_per_clue": mv, "deleted": tdel,
                    "deleted_none": tdel_none, "deleted_unique": tdel_unique, "moved": tmov,
                    "moved_none": tmov_none, "moved_unique": tmov_unique,
                    "moved_none_share": _share(tmov_none, tmov),
                    "moved_unique_share": _share(tmov_unique, tmov)}
    tick("edits")
    return out
