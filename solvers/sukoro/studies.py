"""The stats stage: Sukoro's measured studies, one function per section of the stats file.

Each study takes what it needs of the bank's boards (``entries``: (bank entry, Board,
Answer)), its sizes, the stage parameters, its section's own seeded generator (seeded
from the stage seed and the section, so no section depends on another's draws) and a
progress callback. The stage runs one chunk per section (``stats_chunks``).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.grid import neighbours, parse_size, size_key
from solvers.margins import differs, methods, rate

from .board import Answer, Board
from .generate import full_print
from .ladder import (
    LEVEL,
    POP,
    RUNGS,
    STANDARD,
    Capped,
    Rules,
    decided,
    initial,
    propagate,
    random_answer,
    search,
    solve,
)

Entry = tuple[dict[str, Any], Board, Answer]
Note = Callable[[str], None]


def share(a: float, b: float) -> float:
    return a / b if b else 0.0


def count(board: Board, limit: int, rules: Rules = STANDARD) -> int:
    return len(solve(board, limit=limit, rules=rules).solutions)


def _digits(values: list[int]) -> dict[str, Any]:
    nums = [v for v in values if v]
    return {"numbers": len(nums),
            **{str(d): share(sum(1 for v in nums if v == d), len(nums)) for d in range(1, 5)}}


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


def bank_summary(entries: list[Entry], sizes: list[str]) -> dict[str, Any]:
    """Boards, clue range and grades per size."""
    by_size: dict[str, Any] = {}
    for size in sizes:
        es = [e for e, _, _ in entries if e["size"] == size]
        clues = [e["clues"] for e in es]
        grades = {r: sum(1 for e in es if e["grade"] == r) for r in RUNGS}
        by_size[size] = {"boards": len(es), "clues_min": min(clues), "clues_max": max(clues),
                         "clues_mean": statistics.mean(clues),
                         "clues_median": statistics.median(clues), "grades": grades,
                         "no_search": len(es) - grades["search"]}
    return {"by_size": by_size,
            "no_search": sum(v["no_search"] for v in by_size.values()),
            "grades": {r: sum(v["grades"][r] for v in by_size.values()) for r in RUNGS}}


def lemma(params: Mapping[str, Any], rng: random.Random, note: Note) -> dict[str, Any]:
    """The full-print lemma on random answers, with and without the connectivity rule."""
    lh, lw = parse_size(params["lemma"]["size"])
    n_lemma = params["lemma"]["answers"]
    with_conn = without = 0
    for li in range(n_lemma):
        if li % 10 == 0:
            note(f"lemma {li}/{n_lemma}")
        ans = random_answer(lh, lw, rng)
        b = full_print(ans)
        with_conn += count(b, 2) == 1
        without += count(b, 2, Rules(connect=False)) == 1
    return {"size": params["lemma"]["size"], "answers": n_lemma,
            "unique": with_conn, "unique_share": share(with_conn, n_lemma),
            "unique_without_connect": without,
            "unique_without_connect_share": share(without, n_lemma)}


def sampling(params: Mapping[str, Any], rng: random.Random, note: Note) -> dict[str, Any]:
    """Random clue sets against clue sets read off an answer."""
    out: dict[str, Any] = {}
    sample_rows: list[dict[str, Any]] = []
    rs, ts = params["random_samples"], params["true_samples"]
    tot_random = tot_random_unique = tot_true = tot_true_unique = 0
    for size, ks in params["sampling"].items():
        h, w = parse_size(size)
        n = h * w
        rows = {}
        for k in ks:
            note(f"sampling {size} with {k} clues")
            none = uniq = 0
            for _ in range(rs):
                flat: list = [None] * n
                for i in rng.sample(range(n), k):
                    flat[i] = rng.randint(1, 4)
                c = count(Board.from_flat(h, w, flat), 2)
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
                tuniq += count(Board.from_flat(h, w, flat), 2) == 1
            rows[str(k)] = {"size": size, "clues": k, "random": rs, "random_none": none,
                            "random_unique": uniq, "random_none_share": share(none, rs),
                            "random_unique_share": share(uniq, rs), "true": tn,
                            "true_unique": tuniq, "true_unique_share": share(tuniq, tn)}
            sample_rows.append(rows[str(k)])
            tot_random += rs
            tot_random_unique += uniq
            tot_true += tn
            tot_true_unique += tuniq
        out[size] = rows
    return {"sizes": out, "rows": sample_rows, "random": tot_random,
            "random_unique": tot_random_unique, "true": tot_true,
            "true_unique": tot_true_unique}


# One row of the sampling table drawn again, ten times its draws, with another seed: the
# spec's row (seeds/004: 6×6, three clues, 53.0% with no answer) and ours sit 2.7 standard
# errors apart, and only a larger sample can tell chance from a difference of method.
RECHECK: dict[str, Any] = {"size": "6x6", "clues": 3, "times": 10}

# The spec's sampling table (seeds/004, its section on sampling larger boards), cited so
# that our rows can be set against its intervals: the share of random clue sets with no
# answer, 494 draws a row (its 4,940 draws over ten rows).
SPEC_SAMPLING: dict[str, dict[str, Any]] = {
    "6x6_3": {"random": 494, "none": 0.530}, "6x6_12": {"random": 494, "none": 1.0},
    "8x8_8": {"random": 494, "none": 0.950}, "8x8_25": {"random": 494, "none": 1.0},
    "10x10_8": {"random": 494, "none": 0.850}, "10x10_25": {"random": 494, "none": 1.0},
}


def recheck(size: str, k: int, draws: int, rng: random.Random, note: Note) -> dict[str, Any]:
    """Random clue sets of one sampling row, drawn the row's way (k cells at random, digits
    1..4), ``draws`` times: how many have no answer."""
    h, w = parse_size(size)
    n = h * w
    none = 0
    for i in range(draws):
        if i % 500 == 0:
            note(f"recheck {size} with {k} clues: {i}/{draws}")
        flat: list = [None] * n
        for c in rng.sample(range(n), k):
            flat[c] = rng.randint(1, 4)
        none += count(Board.from_flat(h, w, flat), 2) == 0
    return {"size": size, "clues": k, "draws": draws, "random_none": none,
            "random_none_share": share(none, draws)}


def value_position(entries: list[Entry], sizes: list[str], note: Note) -> dict[str, Any]:
    """The shipped boards with values erased, with only the numbered cells marked, and
    fully printed."""
    vp: dict[str, Any] = {}
    for size in sizes:
        row = {"boards": 0, "shipped": 0, "erased": 0, "marks": 0, "numbered": 0}
        for e, b, a in entries:
            if e["size"] != size:
                continue
            note(f"value vs position {e['id']}")
            row["boards"] += 1
            flat = b.flat()
            vals = a.flat()
            row["shipped"] += count(b, 2) == 1
            erased = ["?" if v is not None else None for v in flat]  # type: list[int | str | None]
            row["erased"] += count(Board.from_flat(b.h, b.w, erased), 2) == 1
            marks = ["?" if v else None for v in vals]  # type: list[int | str | None]
            row["marks"] += count(Board.from_flat(b.h, b.w, marks), 2) == 1
            row["numbered"] += count(full_print(a), 2) == 1
        vp[size] = row
    return {"sizes": vp, **{k: sum(r[k] for r in vp.values())
                            for k in ("boards", "shipped", "erased", "marks", "numbered")}}


def ablation(entries: list[Entry]) -> dict[str, Any]:
    """The shipped boards with a rule switched off."""
    variants = {"none": STANDARD, "equal": Rules(neq=False), "disconnect": Rules(connect=False),
                "both": Rules(neq=False, connect=False)}
    abl: dict[str, Any] = {}
    for name, rules in variants.items():
        lost = nosol = 0
        for _, b, _ in entries:
            c = count(b, 2, rules)
            lost += c != 1
            nosol += c == 0
        abl[name] = {"lost": lost, "none": nosol, "lost_share": share(lost, len(entries))}
    abl["disconnect_kept"] = len(entries) - abl["disconnect"]["lost"]
    return abl


def ladder(entries: list[Entry], sizes: list[str], cap: int, note: Note) -> dict[str, Any]:
    """Branches per rung, and cells fixed from the untouched board.

    A cell counts as fixed when its value is known (blank, or one digit); ``status`` is
    the weaker reading, numbered-or-blank known."""
    lad: dict[str, Any] = {}
    rungs = RUNGS[:-1]
    capped_total = 0
    for size in sizes:
        row: dict[str, Any] = {}
        es = [(e, b) for e, b, _ in entries if e["size"] == size]
        unprinted = sum(sum(v is None for v in b.flat()) for _, b in es)
        for r in rungs:
            nodes = capped = fixed = status = 0
            for e, b in es:
                note(f"ladder {r} {e['id']}")
                nd, cp = _rung_nodes(b, LEVEL[r], cap)
                nodes += nd
                capped += cp
                dom = initial(b)
                propagate(dom, neighbours(b.h, b.w), LEVEL[r])
                dec = decided(dom)
                for v, d, known in zip(b.flat(), dom, dec, strict=True):
                    if v is None:
                        fixed += POP[d] == 1
                        status += known
            capped_total += capped
            row[r] = {"branches": nodes, "capped": capped, "lower_bound": capped > 0,
                      "fixed": fixed, "fixed_share": share(fixed, unprinted),
                      "status": status, "status_share": share(status, unprinted)}
        # how many times fewer branches conn needs than neq (a lower bound when neq capped)
        row["conn_cut"] = share(row["neq"]["branches"], row["conn"]["branches"])
        row["conn_cut_lower_bound"] = row["neq"]["lower_bound"]
        row["boards"] = len(es)
        row["unprinted"] = unprinted
        lad[size] = row
    local = [lad[s][r]["fixed_share"] for s in sizes for r in ("deg", "neq")]
    cuts = [lad[s]["conn_cut"] for s in sizes]
    return {"sizes": lad, "cap": cap, "capped": capped_total, "rungs": list(rungs),
            "local_low": min(local), "local_high": max(local),
            "conn_cut_min": min(cuts), "conn_cut_max": max(cuts),
            "capped_deg": sum(lad[s]["deg"]["capped"] for s in sizes)}


def digits(entries: list[Entry]) -> dict[str, Any]:
    """How often each digit appears in answers and among printed clues."""
    ans_vals = [v for _, _, a in entries for v in a.flat()]
    clue_vals = [v for _, b, _ in entries for v in b.flat() if isinstance(v, int)]
    out = {"answers": _digits(ans_vals), "clues": _digits(clue_vals)}
    out["one_gap"] = out["clues"]["1"] - out["answers"]["1"]
    return out


def edits(entries: list[Entry], sizes: list[str], params: Mapping[str, Any],
          rng: random.Random, note: Note) -> dict[str, Any]:
    """Deleting a clue against moving it to an empty cell."""
    lim = params["delete_limit"]
    mv = params["moves_per_clue"]
    out: dict[str, Any] = {}
    tdel = tdel_none = tdel_unique = tmov = tmov_none = tmov_unique = 0
    for size in sizes:
        counts = []
        dunique = dnone = 0
        moves = munique = mnone = 0
        for e, b, _ in entries:
            if e["size"] != size:
                continue
            note(f"edits {e['id']}")
            flat = b.flat()
            clued = [i for i, v in enumerate(flat) if v is not None]
            empty = [i for i, v in enumerate(flat) if v is None]
            for i in clued:
                f2 = flat[:]
                f2[i] = None
                c = count(Board.from_flat(b.h, b.w, f2), lim)
                counts.append(c)
                dunique += c == 1
                dnone += c == 0
                for _ in range(mv):
                    j = rng.choice(empty)
                    f3 = f2[:]
                    f3[j] = flat[i]
                    c3 = count(Board.from_flat(b.h, b.w, f3), 2)
                    moves += 1
                    munique += c3 == 1
                    mnone += c3 == 0
        med = statistics.median(counts)
        out[size] = {"deleted": len(counts), "median": med, "median_capped": med >= lim,
                     "still_unique": dunique, "still_unique_share": share(dunique, len(counts)),
                     "none": dnone, "moved": moves, "moved_unique": munique,
                     "moved_unique_share": share(munique, moves), "moved_none": mnone,
                     "moved_none_share": share(mnone, moves)}
        tdel += len(counts)
        tdel_none += dnone
        tdel_unique += dunique
        tmov += moves
        tmov_none += mnone
        tmov_unique += munique
    return {"sizes": out, "limit": lim, "moves_per_clue": mv, "deleted": tdel,
            "deleted_none": tdel_none, "deleted_unique": tdel_unique, "moved": tmov,
            "moved_none": tmov_none, "moved_unique": tmov_unique,
            "moved_none_share": share(tmov_none, tmov),
            "moved_unique_share": share(tmov_unique, tmov)}


# -- the stage: one chunk per section -------------------------------------------------

STATS_SECTIONS = ("bank", "lemma", "sampling", "value_position", "ablation", "ladder",
                  "digits", "edits")


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per section of the article; a section that samples seeds its own
    generator from (stage seed, section), so no section depends on another's draws."""
    return [{"key": name} for name in STATS_SECTIONS]


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> Any:
    entries = [(e, Board.from_json(e["board"]), Answer.from_json(e["answer"]))
               for e in inputs["bank"]["boards"]]
    sizes = sorted({e["size"] for e, _, _ in entries}, key=size_key)
    name = chunk["key"]
    rng = random.Random(chunk_seed(params["seed"], name))

    def note(msg: str) -> None:
        progress(0, 0, msg)

    if name == "bank":
        return bank_summary(entries, sizes)
    if name == "lemma":
        return lemma(params, rng, note)
    if name == "sampling":
        out = sampling(params, rng, note)
        re = params.get("recheck", RECHECK)
        if re["clues"] in params["sampling"].get(re["size"], []):
            # its own seed, so that the rows above stay the draws they always were
            out["recheck"] = recheck(
                re["size"], re["clues"], re["times"] * params["random_samples"],
                random.Random(chunk_seed(params["seed"], "sampling/recheck")), note)
        return out
    if name == "value_position":
        return value_position(entries, sizes, note)
    if name == "ablation":
        return ablation(entries)
    if name == "ladder":
        return ladder(entries, sizes, params["ladder_cap"], note)
    if name == "digits":
        return digits(entries)
    if name == "edits":
        return edits(entries, sizes, params, rng, note)
    raise ValueError(f"unknown stats section {name!r}")


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    got = dict(zip(STATS_SECTIONS, partials, strict=True))
    sizes = sorted({e["size"] for e in inputs["bank"]["boards"]}, key=size_key)
    return add_margins({"sizes": sizes, "boards": len(inputs["bank"]["boards"]), **got})


def add_margins(out: dict[str, Any]) -> dict[str, Any]:
    """A Wilson interval beside every sampled rate, from the counts the sections already
    store (``ci``: k, n, rate, lo, hi). In place on a finished stats dict (returned), so
    that the intervals of a committed stats file can be checked without sampling again."""
    out["margins"] = methods()
    ed = out["edits"]                                          # the bank's edits, all sizes
    ed["ci"] = {"moved_none": rate(ed["moved_none"], ed["moved"]),
                "moved_unique": rate(ed["moved_unique"], ed["moved"])}
    for name in ("none", "equal", "disconnect", "both"):     # the shipped boards, relaxed
        row = out["ablation"][name]
        row["ci"] = {"lost": rate(row["lost"], out["boards"])}
    lm = out["lemma"]
    lm["ci"] = {"unique": rate(lm["unique"], lm["answers"]),
                "unique_without_connect": rate(lm["unique_without_connect"], lm["answers"])}
    sm = out["sampling"]
    for row in sm["rows"]:
        row["ci"] = {"random_none": rate(row["random_none"], row["random"]),
                     "random_unique": rate(row["random_unique"], row["random"]),
                     "true_unique": rate(row["true_unique"], row["true"])}
    for size, rows in sm["sizes"].items():      # the same rows, keyed by size and clues
        for k, row in rows.items():
            row["ci"] = next(r["ci"] for r in sm["rows"]
                             if r["size"] == size and str(r["clues"]) == k)
    sm["ci"] = {"random_unique": rate(sm["random_unique"], sm["random"]),
                "true_unique": rate(sm["true_unique"], sm["true"])}
    # the spec's rows beside ours, and the larger draw of one row beside both
    spec: dict[str, Any] = {}
    for row in sm["rows"]:
        key = f"{row['size']}_{row['clues']}"
        if key in SPEC_SAMPLING:
            sp = SPEC_SAMPLING[key]
            got = rate(round(sp["none"] * sp["random"]), sp["random"])
            spec[key] = {"size": row["size"], "clues": row["clues"], "random_none": got,
                         "ours": row["ci"]["random_none"],
                         "apart": differs(row["ci"]["random_none"], got)}
    sm["spec"] = spec
    sm["spec_apart"] = [k for k, v in spec.items() if v["apart"]]
    rc = sm.get("recheck")
    if rc is not None:
        rc["ci"] = rate(rc["random_none"], rc["draws"])
        key = f"{rc['size']}_{rc['clues']}"
        ours = next(r["ci"]["random_none"] for r in sm["rows"]
                    if f"{r['size']}_{r['clues']}" == key)
        rc["ours"] = ours
        rc["apart_from_ours"] = differs(rc["ci"], ours)
        rc["apart_from_spec"] = differs(rc["ci"], spec[key]["random_none"]) if key in spec \
            else None
    dg = out["digits"]
    for side in ("answers", "clues"):
        n = dg[side]["numbers"]
        dg[side]["ci"] = {d: rate(round(dg[side][d] * n), n) for d in ("1", "2", "3", "4")}
    for row in out["edits"]["sizes"].values():
        row["ci"] = {"still_unique": rate(row["still_unique"], row["deleted"]),
                     "moved_unique": rate(row["moved_unique"], row["moved"]),
                     "moved_none": rate(row["moved_none"], row["moved"])}
    return out


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    """Every measured figure of the article, section by section (the studies above)."""
    chunks = stats_chunks(inputs, params)
    return stats_reduce([stats_map(c, inputs, params) for c in chunks], inputs, params)
