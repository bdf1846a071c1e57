"""The stats stage: the measurements behind the article. Each study is a function of a
seeded RNG and its parameters, returning JSON-able figures (shares as fractions, keys
without dots); the stage runs them chunk by chunk, each chunk seeded by its key."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Mapping
from typing import Any

from solvers.common import Progress, chunk_seed, no_progress
from solvers.grid import Clue, parse_size
from solvers.margins import differs, mean_ci, methods, outside, rate

from .board import Answer, Board
from .brute import brute
from .generate import full_board, grade, make_answer, random_partition, reveal
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
    to_answer,
)
from .sat import solve_sat

LADDER = RUNGS[:-1]            # count … probe


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
    h, w = parse_size(size)
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
                        labels[fr[i]] = v
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


# The answer sampler's lean: ``random_answer`` tries "numbered" first more often than not,
# which makes our answers a little denser than the spec's (61% of the cells against its
# 59%). This row draws the positions-only half of the study again from answers drawn with
# the opposite lean, to measure how much of a gap to the spec's table is that choice.
HALVES_LEAN: dict[str, Any] = {"size": "6x6", "bias": 0.4, "times": 2}


def _answer_leaning(empty: Board, rng: random.Random, bias: float,
                    cap: int = 4000, tries: int = 30) -> Answer | None:
    """A random legal answer like ``random_answer``'s, its search trying "numbered" first
    with probability ``bias``."""
    g = geometry(empty.h, empty.w, empty.regions)
    for _ in range(tries):
        st = initial(empty, g)
        if st is None or not propagate(g, st, 3):
            return None
        try:
            sols, _ = search(g, st, 1, cap=cap, rng=rng, bias=bias)
        except Capped:
            continue
        return to_answer(g, sols[0]) if sols else None
    return None


def halves_lean(size: str, bias: float, n: int, cap: int, rng: random.Random) -> dict[str, Any]:
    """Every number of the answer printed (q = 1), positions only: how many of n boards
    are unique when the answers are drawn with lean ``bias``; and their numbered share,
    with a bootstrap interval over the boards (to set against the usual draw's)."""
    h, w = parse_size(size)
    made = uniq = numbered = 0
    shares: list[float] = []
    while made < n:
        reg = random_partition(h, w, rng)
        if reg is None:
            continue
        empty = Board.blank(reg)
        ans = _answer_leaning(empty, rng, bias)
        if ans is None:
            continue
        made += 1
        flat = ans.flat()
        here = sum(1 for v in flat if v)
        numbered += here
        shares.append(here / (h * w))
        c, _, _ = count_answers(empty.with_clues(["?" if v else None for v in flat]), cap)
        uniq += c == 1
    return {"size": size, "bias": bias, "boards": n, "numbered_share": numbered / (n * h * w),
            "numbered_ci": mean_ci(shares), "mark": rate(uniq, n)}


# -- the answer budget, minimal clues, adversarial vs random ----------------------------

def budget(sizes: list[str], n: int, cap: int, rng: random.Random,
           tick: Callable[[str], None]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for size in sizes:
        h, w = parse_size(size)
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
            "ci": {"regions_mean": mean_ci(regions), "numbered_mean": mean_ci(numbered),
                   "share_mean": mean_ci(shares), "probe_share_mean": mean_ci(probe_share)},
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


def count_independent(size: str, q: float, n: int, rng: random.Random) -> dict[str, Any]:
    """The ``count`` column again, on a stream that prints each numbered cell on its own
    with probability q (so the number of hidden cells varies from board to board) instead
    of exactly round(q·|S|) of them. ``count`` completes a board only when every region
    with a hidden number is wholly numbered, so it is the column most sensitive to how
    many cells stay hidden; this row measures how much of a gap to a figure drawn the
    other way is the method of drawing."""
    h, w = parse_size(size)
    done = made = 0
    while made < n:
        got = make_answer(h, w, rng)
        if got is None:
            continue
        made += 1
        empty, ans = got
        full = full_board(empty, ans)
        picked = {i for i, v in enumerate(full) if v is not None and rng.random() < q}
        board = empty.with_clues([full[i] if i in picked else None for i in range(len(full))])
        done += completes(board, "count")
    return {"reveal": "each numbered cell printed with probability q", **rate(done, n)}


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
    region product. Engine agreement, per size: the ladder's search against the region
    product on every board of at most ``brute_cells`` cells (and on every exception), and
    against the independent SAT encoding (``sat.py``) on every board of every size; a run
    that hits a cap is skipped, not counted as an agreement."""
    total = holds = 0
    exceptions: list[dict[str, Any]] = []
    sound_breaks = 0
    search_capped = 0
    agree = disagree = brute_capped = compared = 0
    cells: dict[str, Any] = {}
    by_size: dict[str, Any] = {}
    for size in sizes:
        h, w = parse_size(size)
        per = by_size[size] = {
            "boards": 0, "skipped_search_capped": 0,
            "sat": {"compared": 0, "agree": 0, "disagree": 0},
            # the region product runs on every board up to brute_cells, else on the
            # exceptions only
            "brute": {"every_board": h * w <= brute_cells, "compared": 0, "agree": 0,
                      "disagree": 0, "skipped_capped": 0}}
        for q in qs:
            got = []
            for _e, _a, board in _stream(size, q, n, rng):
                total += 1
                per["boards"] += 1
                g = weakest(board)
                c, nodes, cp = count_answers(board, cap)
                got.append((g, c, cp))
                if cp:
                    search_capped += 1
                    per["skipped_search_capped"] += 1
                    continue
                # the SAT encoding needs no cap: it finishes on every size of the study
                ok = len(solve_sat(board, limit=2).answers) == c
                per["sat"]["compared"] += 1
                per["sat"]["agree" if ok else "disagree"] += 1
                probe_done = g is not None
                if probe_done == (c == 1):
                    holds += 1
                elif probe_done:
                    sound_breaks += 1
                exc = not probe_done and c == 1
                if not exc and board.h * board.w > brute_cells:
                    continue
                br = brute(board, limit=2, cap=exception_cap if exc else brute_cap)
                pb = per["brute"]
                if br.stats["capped"]:
                    brute_capped += 1
                    pb["skipped_capped"] += 1
                else:
                    compared += 1
                    same = len(br.solutions) == c
                    agree += same
                    disagree += not same
                    pb["compared"] += 1
                    pb["agree" if same else "disagree"] += 1
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
                          "skipped_search_capped": search_capped},
            "agreement_sizes": by_size}


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
    h, w = parse_size(size)
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


# -- the stage ------------------------------------------------------------------------

def _bank_summary(bank_data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for e in bank_data["boards"]:
        row = out.setdefault(e["size"], {"boards": 0, "clues": [], "grades": {},
                                         "brute_confirmed": 0, "nodes": []})
        row["boards"] += 1
        row["clues"].append(e["clues"])
        res = solve(Board.from_json(e["board"]), limit=2)
        row["nodes"].append(res.nodes)
        row["grades"][e["grade"]] = row["grades"].get(e["grade"], 0) + 1
        b = e.get("brute", {})
        row["brute_confirmed"] += (not b.get("capped", True)) and b.get("answers") == 1
    for row in out.values():
        cl = row.pop("clues")
        nodes = row.pop("nodes")
        row.update({"clues_min": min(cl), "clues_max": max(cl),
                    "clues_median": statistics.median(cl),
                    "search_nodes_median": statistics.median(nodes),
                    "search_nodes_max": max(nodes)})
        row["grades"] = {lv: row["grades"].get(lv, 0) for lv in LADDER}
    return out


def _example(params: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """A board for the article's pictures, made apart from the bank."""
    h, w = parse_size(params["size"])
    while True:
        made = make_answer(h, w, rng)
        if made is None:
            continue
        empty, ans = made
        b = reveal(empty, ans, LEVEL[params["level"]], rng)
        if b is not None and grade(b) == params["level"]:
            return {"board": b.to_json(), "answer": ans.to_json(), "grade": params["level"],
                    "clues": b.clue_count(), "numbered": len(ans.cells),
                    "regions": b.region_count()}


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per study and size (or q, or row of the study's table), each seeded by
    chunk_seed(stage seed, key), so the figures do not depend on how the chunks run."""
    out: list[dict[str, Any]] = [{"key": "bank"}, {"key": "example"}]
    out += [{"key": f"halves/{qkey(q)}/{size}", "q": q, "size": size}
            for q in params["halves"]["qs"] for size in params["halves"]["sizes"]]
    out += [{"key": f"budget/{size}", "size": size} for size in params["budget"]["sizes"]]
    out += [{"key": f"increments/{i}", "i": i} for i in range(len(params["increments"]))]
    out += [{"key": f"ablation/{i}", "i": i} for i in range(len(params["ablation"]))]
    out += [{"key": f"dial/{i}", "i": i} for i in range(len(params["dial"]["ranges"]))]
    a = params["section_a"]
    out += [{"key": f"law/{size}/{qkey(q)}", "size": size, "q": q}
            for size in a["sizes"] for q in a["qs"]]
    lean = params.get("halves_lean", HALVES_LEAN)
    if lean["size"] in params["halves"]["sizes"]:
        out.append({"key": "halves_lean"})
    return out


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> Any:
    key = chunk["key"]
    kind = key.split("/")[0]
    rng = random.Random(chunk_seed(params["seed"], key))
    cap = params["cap"]
    if kind == "bank":
        return _bank_summary(inputs["bank"])
    if kind == "example":
        return _example(params["example"], rng)
    if kind == "halves":
        size, q = chunk["size"], chunk["q"]
        got = halves({size: params["halves"]["sizes"][size]}, [q], cap, rng, _quiet)
        return got[qkey(q)]["sizes"][size]
    if kind == "budget":
        return budget([chunk["size"]], params["budget"]["boards"], cap, rng,
                      _quiet)[chunk["size"]]
    if kind == "increments":
        row = params["increments"][chunk["i"]]
        out = increments([row], cap, rng, _quiet)[0]
        # its own seed, so that the fixed-share row above stays the draw it always was
        alt = random.Random(chunk_seed(params["seed"], f"{key}/independent"))
        out["count_independent"] = count_independent(row["size"], row["q"], row["boards"],
                                                     alt)
        return out
    if kind == "ablation":
        row = params["ablation"][chunk["i"]]
        return ablation([row], rng, _quiet)[row["size"]]
    if kind == "dial":
        d = params["dial"]
        return dial(d["size"], d["q"], [d["ranges"][chunk["i"]]], d["boards"], cap, rng,
                    _quiet)["rows"][0]
    if kind == "law":
        a = params["section_a"]
        return section_a([chunk["size"]], [chunk["q"]], a["boards"], cap, a["brute_cap"],
                         a["brute_cells"], a["exception_cap"], rng, _quiet)
    if kind == "halves_lean":
        lean = params.get("halves_lean", HALVES_LEAN)
        n = lean["times"] * params["halves"]["sizes"][lean["size"]]
        return halves_lean(lean["size"], lean["bias"], n, cap, rng)
    raise ValueError(f"unknown stats chunk {key!r}")


def _merge_law(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Section A from its (size, q) cells, in order: sums, exceptions and cells joined."""
    out: dict[str, Any] = {"boards": 0, "holds": 0, "exceptions": [], "exception_count": 0,
                           "probe_not_unique": 0, "search_capped": 0, "cells": {},
                           "agreement": {k: 0 for k in parts[0]["agreement"]},
                           "agreement_sizes": {}}
    for p in parts:
        for k in ("boards", "holds", "exception_count", "probe_not_unique", "search_capped"):
            out[k] += p[k]
        out["exceptions"] += p["exceptions"]
        out["cells"].update(p["cells"])
        for k, v in p["agreement"].items():
            out["agreement"][k] += v
        for size, row in p["agreement_sizes"].items():
            into = out["agreement_sizes"].get(size)
            if into is None:
                out["agreement_sizes"][size] = _copy_counts(row)
                continue
            for k in ("boards", "skipped_search_capped"):
                into[k] += row[k]
            for eng in ("sat", "brute"):
                for k, v in row[eng].items():
                    if k != "every_board":
                        into[eng][k] += v
    sizes = out["agreement_sizes"].values()
    out["agreement_sat"] = {k: sum(r["sat"][k] for r in sizes)
                            for k in ("compared", "agree", "disagree")}
    out["agreement_sat"]["skipped_search_capped"] = sum(
        r["skipped_search_capped"] for r in sizes)
    return out


def _copy_counts(row: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of one size's agreement counts (two levels deep), to sum the q cells into."""
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in row.items()}


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(stats_chunks(inputs, params), partials, strict=True)}
    h, a, d = params["halves"], params["section_a"], params["dial"]
    out: dict[str, Any] = {"rungs": list(RUNGS), "bank": got["bank"], "example": got["example"]}
    out["halves"] = {qkey(q): {"q": q, "sizes": {size: got[f"halves/{qkey(q)}/{size}"]
                                                 for size in h["sizes"]}} for q in h["qs"]}
    out["budget"] = {size: got[f"budget/{size}"] for size in params["budget"]["sizes"]}
    out["increments"] = [got[f"increments/{i}"] for i in range(len(params["increments"]))]
    out["ablation"] = {row["size"]: got[f"ablation/{i}"]
                       for i, row in enumerate(params["ablation"])}
    out["dial"] = {"size": d["size"], "q": d["q"],
                   "rows": [got[f"dial/{i}"] for i in range(len(d["ranges"]))]}
    out["law"] = _merge_law([got[f"law/{size}/{qkey(q)}"]
                             for size in a["sizes"] for q in a["qs"]])
    if "halves_lean" in got:
        out["halves_lean"] = got["halves_lean"]
    out["derived"] = _derived(out)
    add_margins(out)
    return out


def stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
          progress: Progress = no_progress) -> dict[str, Any]:
    """The whole stats stage in this process (the pipeline runs it chunk by chunk)."""
    chunks = stats_chunks(inputs, params)
    return stats_reduce([stats_map(c, inputs, params) for c in chunks], inputs, params)


def _quiet(note: str) -> None:
    """Progress inside a study (the pipeline counts chunks instead)."""


def _derived(out: dict[str, Any]) -> dict[str, Any]:
    """Figures the prose quotes that are computed from the others (so that templates
    only print)."""
    inc = {f"{r['size']}_q{round(r['q'] * 100)}": r for r in out["increments"]}
    d: dict[str, Any] = {"increments": {}}
    for key, r in inc.items():
        rates = r["rates"]
        d["increments"][key] = {lv: rates[lv] - (rates[LADDER[i - 1]] if i else 0.0)
                                for i, lv in enumerate(LADDER)}
    abl = out["ablation"]
    biggest = {size: max(row["drop"], key=lambda r: (row["drop"][r], r))
               for size, row in abl.items()}
    d["ablation_biggest_nonclue"] = {
        size: max((r for r in row["drop"] if r != "count"),
                  key=lambda r: (row["drop"][r], r)) for size, row in abl.items()}
    d["ablation_biggest"] = biggest
    law = out["law"]
    d["law_share"] = law["holds"] / max(1, law["boards"] - law["search_capped"])
    return d


# -- margins ----------------------------------------------------------------------------

def _k(share_: float, n: int) -> int:
    """The count behind a stored share of n boards (shares are k / n exactly)."""
    return round(share_ * n)


# The spec's increments table (seeds/002, "ablation と increment が逆符号でぶつかる"), cited
# so that our column can be set against its interval: the share of boards each rung
# completes, on the same raw stream at the same number of boards per row as ours.
SPEC_INCREMENTS: dict[str, dict[str, Any]] = {
    "6x6_q80": {"boards": 250, "count": 0.036},
    "6x6_q90": {"boards": 250, "count": 0.248},
    "8x8_q90": {"boards": 200, "count": 0.060},
    "10x10_q90": {"boards": 150, "count": 0.007},
}


# The spec's clue-halves table at q = 1 (seeds/002, "ヒント 1 個は独立した 2 つの事実"); it
# gives no sample sizes, so only our intervals can be set against its figures.
SPEC_HALVES: dict[str, dict[str, float]] = {
    "5x5": {"mark": 0.360, "value": 0.015}, "6x6": {"mark": 0.175, "value": 0.005},
    "8x8": {"mark": 0.087, "value": 0.0}, "10x10": {"mark": 0.030, "value": 0.0},
}


def add_margins(out: dict[str, Any]) -> dict[str, Any]:
    """A Wilson interval beside every sampled rate, from the counts the stage already
    stores (a share of n boards is k / n): ``ci`` maps each rate's name to its k, n, rate
    and interval. Works on a finished stats dict in place (and returns it), so that the
    intervals of a committed stats file can be checked without running a study again."""
    out["margins"] = methods()
    for half in out["halves"].values():
        for row in half["sizes"].values():
            n = row["boards"]
            row["ci"] = {name: rate(_k(row[name], n), n) for name in ("full", "mark", "value")}
    for row in out["budget"].values():
        r = row["random"]
        r["ci"] = rate(r["unique"], row["boards"])
    for row in out["increments"]:
        n = row["boards"]
        row["ci"] = {lv: rate(_k(v, n), n) for lv, v in row["rates"].items()}
        row["ci"]["unique"] = rate(_k(row["unique"], n), n)
    for row in out["ablation"].values():
        n = row["boards"]
        row["ci"] = {"full": rate(_k(row["full"], n), n),
                     "minus": {r: rate(_k(v, n), n) for r, v in row["minus"].items()},
                     "drop": {r: rate(_k(v, n), n) for r, v in row["drop"].items()}}
    for row in out["dial"]["rows"]:
        n = row["legal"]
        row["ci"] = {"legal": rate(n, row["tried"]),
                     "rates": ({lv: rate(_k(v, n), n) for lv, v in row["rates"].items()}
                               if n else None),
                     "unique": rate(_k(row["unique"], n), n) if n else None}
    law = out["law"]
    law["ci"] = rate(law["holds"], law["boards"] - law["search_capped"])
    for cell in law["cells"].values():               # section A's (size, q) cells
        n = cell["boards"]
        cell["ci"] = {lv: rate(_k(v, n), n) for lv, v in cell["rates"].items()}
        cell["ci"]["unique"] = rate(_k(cell["unique"], n), n)
    # the increment a rung adds is the share of boards it is the first to complete
    d = out["derived"]
    d["increments_ci"] = {}
    for r in out["increments"]:
        n, key = r["boards"], f"{r['size']}_{qkey(r['q'])}"
        d["increments_ci"][key] = {lv: rate(_k(v, n), n)
                                   for lv, v in d["increments"][key].items()}
    # the spec's count column beside ours and beside the cell-by-cell reveal
    spec: dict[str, Any] = {}
    for r in out["increments"]:
        key = f"{r['size']}_{qkey(r['q'])}"
        if key not in SPEC_INCREMENTS:
            continue
        sp = SPEC_INCREMENTS[key]
        got = rate(round(sp["count"] * sp["boards"]), sp["boards"])
        ours, ind = r["ci"]["count"], r.get("count_independent")
        spec[key] = {"count": got, "ours_apart": differs(ours, got),
                     "independent_apart": differs(ind, got) if ind else None}
    d["spec_increments"] = spec
    sh: dict[str, Any] = {}
    for size, sp in SPEC_HALVES.items():
        row = out["halves"].get("q100", {}).get("sizes", {}).get(size)
        if row is None:
            continue
        sh[size] = {k: {"spec": v, "outside": outside(v, row["ci"][k])} for k, v in sp.items()}
    d["spec_halves"] = sh
    d["spec_halves_outside"] = [s for s, r in sh.items() if r["mark"]["outside"]]
    lean = out.get("halves_lean")
    if lean is not None and lean["size"] in SPEC_HALVES:
        lean["spec_inside"] = not outside(SPEC_HALVES[lean["size"]]["mark"], lean["mark"])
    # does the usual draw number more of the board than the lean one? (budget's answers)
    usual = out["budget"].get(lean["size"]) if lean is not None else None
    if lean is not None and usual is not None and "numbered_ci" in lean and "ci" in usual:
        lean["usual_more"] = usual["ci"]["share_mean"]["lo"] > lean["numbered_ci"]["hi"]
    # the facts the prose states, decided by the intervals (see solvers/margins.py)
    d["ablation_dense"] = all(row["ci"]["full"]["lo"] > 0.5 for row in out["ablation"].values())
    return out
