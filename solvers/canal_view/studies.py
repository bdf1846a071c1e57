"""The stats stage: every figure the article prints, recomputed from the bank."""

from __future__ import annotations

import random
import statistics
from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.grid import groups, parse_size, size_key
from solvers.margins import mean_ci, methods, rate, ratio_ci

from .bank import draw_boards
from .board import DIRS, VARIANTS, Answer, Board
from .generate import full_board, random_canal, with_clues
from .ladder import RUNGS, make_ctx, propagate, solve, start_state
from .rules import seen_runs, violations
from .stages import BANK_PARAMS


class IdentityError(AssertionError):
    """The sightline identity failed on a board: the build must stop."""


def _r(x: float, nd: int = 4) -> float:
    return round(float(x), nd)


def _load(entry: Mapping[str, Any]) -> tuple[Board, Answer]:
    return Board.from_json(entry["board"]), Answer.from_json(entry["answer"])


def _numbers(board: Board) -> list[tuple[int, int, int]]:
    # an int by the isinstance below, which mypy applies to no index expression
    return [(r, c, board.clues[r][c]) for r, c in board.clue_cells()  # type: ignore[misc]
            if isinstance(board.clues[r][c], int)]


def _ray(board: Board, r: int, c: int, d: int,
         stop_at_clue: bool = False) -> list[tuple[int, int]]:
    """Cells from (r, c) outwards in direction d, to the edge or (if asked) the next clue."""
    dr, dc = DIRS[d]
    out = []
    rr, cc = r + dr, c + dc
    while 0 <= rr < board.h and 0 <= cc < board.w:
        if stop_at_clue and board.clues[rr][cc] is not None:
            break
        out.append((rr, cc))
        rr += dr
        cc += dc
    return out


# ---------------------------------------------------------------- per board ------------
def visibility(board: Board, ans: Answer) -> dict[str, Any]:
    """Per board: numbers, their values, flooded cells in their rays (up to the next clue or
    the edge), rays with flooded cells behind the first dry cell, the flooded cells hidden
    there, and the longest run behind one dry cell."""
    says = in_rays = rays_behind = hidden = 0
    most = 0
    n = 0
    for r, c, v in _numbers(board):
        n += 1
        says += v
        for d in range(4):
            ray = _ray(board, r, c, d, stop_at_clue=True)
            fl = [ans.flooded(*x) for x in ray]
            in_rays += sum(fl)
            k = 0
            while k < len(fl) and fl[k]:
                k += 1
            behind = fl[k + 1:]
            if any(behind):
                rays_behind += 1
                hidden += sum(behind)
                run = 0
                while run < len(behind) and behind[run]:
                    run += 1
                most = max(most, run)
    return {"numbers": n, "says": says, "in_rays": in_rays, "rays_behind": rays_behind,
            "hidden": hidden, "most_hidden": most}


def sightlines(board: Board, ans: Answer) -> dict[str, int]:
    """Each (flooded cell, direction) pair is seen, has no number that way, or is blocked.
    Raises IdentityError unless pairs == 4 x canal and seen == the clue sum."""
    seen = none = blocked = 0
    unseen_cells = 0
    canal = 0
    for r in range(board.h):
        for c in range(board.w):
            if not ans.flooded(r, c):
                continue
            canal += 1
            seen_here = 0
            for d in range(4):
                ray = _ray(board, r, c, d)
                k = 0
                while k < len(ray) and ans.flooded(*ray[k]):
                    k += 1
                if k == len(ray):
                    none += 1
                    continue
                first = board.clues[ray[k][0]][ray[k][1]]
                if isinstance(first, int):
                    seen += 1
                    seen_here += 1
                elif any(isinstance(board.clues[x][y], int) for x, y in ray[k + 1:]):
                    blocked += 1
                else:
                    none += 1
            unseen_cells += seen_here == 0
    clue_sum = sum(v for _, _, v in _numbers(board))
    pairs = seen + none + blocked
    if pairs != 4 * canal or seen != clue_sum:
        raise IdentityError(
            f"sightline identity fails: 4x{canal}={4 * canal} vs {seen}+{none}+{blocked}"
            f"={pairs}; clue sum {clue_sum} vs seen {seen}")
    return {"pairs": pairs, "seen": seen, "none": none, "blocked": blocked,
            "canal": canal, "unseen_cells": unseen_cells}


def composition_counts(board: Board) -> list[tuple[int, int]]:
    """Per number: (cells in its rays up to a clue or the edge, compositions that fit).
    The rays are measured here, to the clue or the edge: the solver keeps only the first
    v + 1 cells of each, the only ones its arms can reach."""
    out = []
    for r, c, v in _numbers(board):
        lens = [len(_ray(board, r, c, d, stop_at_clue=True)) for d in range(len(DIRS))]
        poly = [1] + [0] * v
        for m in lens:
            new = [0] * (v + 1)
            for s, x in enumerate(poly):
                if x:
                    for a in range(min(m, v - s) + 1):
                        new[s + a] += x
            poly = new
        out.append((sum(lens), poly[v]))
    return out


def lakes_loops(board: Board, ans: Answer) -> tuple[int, int]:
    h, w = board.h, board.w
    lakes = 0
    for g in groups(x for x in board.cells() if not ans.flooded(*x)):
        if not any(r in (0, h - 1) or c in (0, w - 1) for r, c in g):
            lakes += 1
    v = ans.mask.bit_count()
    e = 0
    for r in range(h):
        for c in range(w):
            if ans.flooded(r, c):
                e += c + 1 < w and ans.flooded(r, c + 1)
                e += r + 1 < h and ans.flooded(r + 1, c)
    comps = len(groups(x for x in board.cells() if ans.flooded(*x)))
    return lakes, e - v + comps


def flips(board: Board, ans: Answer) -> list[frozenset]:
    out = []
    for r in range(board.h):
        for c in range(board.w):
            if board.clues[r][c] is not None:
                continue
            a = Answer(board.h, board.w, ans.mask ^ (1 << (r * board.w + c)))
            out.append(frozenset(v.rule for v in violations(board, a)))
    return out


def ladder_reach(board: Board) -> dict[str, int]:
    """Cells (not clue cells) fixed by each rung's fixpoint."""
    ctx = make_ctx(board)
    F, D = start_state(ctx)
    out = {}
    for t, rung in enumerate(RUNGS[:3]):
        F, D = propagate(ctx, F, D, t)
        out[rung] = ((F | D) & ~ctx.clue_mask).bit_count()
    out["search"] = ctx.n - ctx.clue_mask.bit_count()
    return out


# ---------------------------------------------------------------- the stage -----------
def _sizes(boards: list[Mapping[str, Any]]) -> tuple[list[str], dict[str, list[Any]]]:
    sizes = sorted({b["size"] for b in boards}, key=size_key)
    return sizes, {s: [b for b in boards if b["size"] == s] for s in sizes}


def stats_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per bank size (the per-board figures), per misreading and size, per dial
    size, the trapdoor and scatter samples (each already seeded by its own name), and per
    other bank of the spread (plus the shipped bank's own figures)."""
    sizes, _ = _sizes(inputs["bank"]["boards"])
    out: list[dict[str, Any]] = [{"key": f"boards/{s}", "size": s} for s in sizes]
    out += [{"key": f"misread/{name}/{s}", "name": name, "size": s}
            for name in VARIANTS for s in sizes]
    out += [{"key": f"dial/{s}", "size": s} for s in params["dial"]]
    out += [{"key": "trapdoor"}, {"key": "scatter"}]
    for size, p in params["bank_spread"]["sizes"].items():
        out.append({"key": f"spread/{size}/ours", "size": size})
        seeds = spread_seeds(params["seed"], p["seeds"], (BANK_PARAMS["seed"],))
        out += [{"key": f"spread/{size}/{s}", "size": size, "seed": s} for s in seeds]
    return out


def stats_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> Any:
    key = chunk["key"]
    boards = inputs["bank"]["boards"]
    _, by_size = _sizes(boards)
    if key.startswith("boards/"):
        return _board_figures(boards, by_size[chunk["size"]], progress)
    if key.startswith("misread/"):
        return _misread_one(by_size[chunk["size"]], VARIANTS[chunk["name"]],
                            params["misread"]["boards"][chunk["name"]], params["misread"])
    if key.startswith("dial/"):
        return _dial_one(params, chunk["size"])
    if key == "trapdoor":
        return _trapdoor(params, progress)
    if key == "scatter":
        return _scatter(params, by_size, progress)
    if key.startswith("spread/"):
        size = chunk["size"]
        count = params["bank_spread"]["sizes"][size]["boards"]
        if "seed" not in chunk:
            ours = [_load(e)[0] for e in by_size[size]]
            if len(ours) != count:
                raise ValueError(f"bank_spread: the bank has {len(ours)} {size} boards, "
                                 f"params say {count}")
            return ladder_spread(ours)
        return ladder_spread([b for _, b, _ in draw_boards(chunk["seed"], size, count)])
    raise ValueError(f"unknown stats chunk {key!r}")


def stats_reduce(partials: list[Any], inputs: Mapping[str, Any],
                 params: Mapping[str, Any]) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(stats_chunks(inputs, params), partials, strict=True)}
    boards = inputs["bank"]["boards"]
    sizes, by_size = _sizes(boards)
    data: dict[str, Any] = {"sizes": sizes, "boards": {s: len(by_size[s]) for s in sizes},
                            "total_boards": len(boards)}
    names = ("visibility", "sandwich", "sightlines", "compositions", "ladder", "ladder_steps",
             "lakes")
    data.update({n: {s: got[f"boards/{s}"][n] for s in sizes} for n in names})
    data["flips"] = _flip_table(
        [frozenset(f) for s in sizes for f in got[f"boards/{s}"]["flips"]],
        [k for s in sizes for k in got[f"boards/{s}"]["flips_per_board"]])
    misread: dict[str, Any] = {"cap": params["misread"]["cap"]}
    for name in VARIANTS:
        misread[name] = {s: got[f"misread/{name}/{s}"] for s in sizes}
    data["misread"] = misread
    data["dial"] = {s: got[f"dial/{s}"] for s in params["dial"]}
    data["trapdoor"] = got["trapdoor"]
    data["scatter"] = got["scatter"]
    spread = {}
    for size, p in params["bank_spread"]["sizes"].items():
        seeds = spread_seeds(params["seed"], p["seeds"], (BANK_PARAMS["seed"],))
        spread[size] = _spread_table({"size": size, **p}, got[f"spread/{size}/ours"],
                                     [(s, got[f"spread/{size}/{s}"]) for s in seeds])
    data["bank_spread"] = spread
    return add_margins(data)


def run_stats(inputs: Mapping[str, Any], params: Mapping[str, Any],
              progress: Progress = no_progress) -> dict[str, Any]:
    """The whole stats stage in this process (the pipeline runs it chunk by chunk)."""
    chunks = stats_chunks(inputs, params)
    partials = []
    for i, c in enumerate(chunks):
        partials.append(stats_map(c, inputs, params))
        progress(i + 1, len(chunks), c["key"])
    return stats_reduce(partials, inputs, params)


def _board_figures(boards: list[Any], entries: list[Any], progress: Progress) -> dict[str, Any]:
    """The per-board figures of one bank size: visibility, sandwich, sightlines,
    compositions, ladder reach, lakes, and the flip sets of every board."""
    flip_sets: list[frozenset] = []
    vis, sand, sight, comp, lad, lake = {}, {}, {}, {}, {}, {}
    s = entries[0]["size"]
    nb = len(entries)
    V = {"numbers": 0, "says": 0, "in_rays": 0, "rays_behind": 0, "hidden": 0,
         "most_hidden": 0}
    S = {"pairs": 0, "seen": 0, "none": 0, "blocked": 0, "canal": 0, "unseen_cells": 0}
    floors, canals, ceilings, sums = [], [], [], []
    ray_cells, fits, pows, nodes = [], [], [], []
    # per board, for the intervals (the numbers of one board share its answer, so the
    # boards are resampled whole): numbers, their ray cells, fits and 2^cells summed,
    # sightline pairs and blocked ones, flips, and cells decided by each rung
    nums_b, cells_b, fits_b, pows_b, pairs_b, blocked_b = [], [], [], [], [], []
    flips_b: list[int] = []
    reach_b: dict[str, list[int]] = {r: [] for r in RUNGS}
    all_b: list[int] = []
    reach = {r: 0 for r in RUNGS}
    completed = {r: 0 for r in RUNGS}
    free_cells = 0
    all_cells = 0                # every cell of the grid, numbered cells included
    lakes_n, loops_n, with_lake, with_loop = [], [], 0, 0
    most_at = None
    per_board: list[dict[str, Any]] = []
    for step, e in enumerate(entries, start=1):
        board, ans = _load(e)
        progress(step, len(entries), f"stats {e['id']}")
        v = visibility(board, ans)
        per_board.append(v)
        if most_at is None or v["most_hidden"] > V["most_hidden"]:
            most_at = boards.index(e)
        for k, x in v.items():
            V[k] = max(V[k], x) if k == "most_hidden" else V[k] + x
        sl = sightlines(board, ans)
        if v["hidden"] != sl["blocked"]:
            raise IdentityError(f"{e['id']}: {v['hidden']} flooded cells hidden behind a "
                                f"dry cell, but {sl['blocked']} blocked sightlines")
        for k in S:
            S[k] += sl[k]
        h, w = board.h, board.w
        total = sum(x for _, _, x in _numbers(board))
        floors.append((total + 3) // 4)
        canals.append(ans.mask.bit_count())
        ceilings.append(h * w - (h // 2) * (w // 2))
        sums.append(total)
        cc = composition_counts(board)
        for cells, f in cc:
            ray_cells.append(cells)
            pows.append(2 ** cells)
            fits.append(f)
        nums_b.append(len(cc))
        cells_b.append(sum(c for c, _ in cc))
        fits_b.append(sum(f for _, f in cc))
        pows_b.append(sum(2 ** c for c, _ in cc))
        pairs_b.append(sl["pairs"])
        blocked_b.append(sl["blocked"])
        nodes.append(solve(board).nodes)
        rr = ladder_reach(board)
        free = h * w - len(board.clue_cells())
        free_cells += free
        all_cells += h * w
        all_b.append(h * w)
        done = False
        for rung in RUNGS:
            reach[rung] += rr[rung]
            reach_b[rung].append(rr[rung] + h * w - free)
            done = done or rr[rung] == free
            completed[rung] += done
        lk, lp = lakes_loops(board, ans)
        lakes_n.append(lk)
        loops_n.append(lp)
        with_lake += lk > 0
        with_loop += lp > 0
        fl = flips(board, ans)
        flips_b.append(len(fl))
        flip_sets.extend(fl)
    vis[s] = {"says": _r(V["says"] / V["numbers"]), "in_rays": _r(V["in_rays"] / V["numbers"]),
              "share": _r(V["says"] / V["in_rays"]),
              "rays_behind": _r(V["rays_behind"] / nb),
              "rays_behind_total": V["rays_behind"], "hidden_total": V["hidden"],
              # per ray with canal behind its first dry cell (the spec's reading) ...
              "hidden": _r(V["hidden"] / V["rays_behind"]) if V["rays_behind"] else None,
              # ... and per number
              "hidden_per_number": _r(V["hidden"] / V["numbers"]),
              "most_hidden": V["most_hidden"], "most_hidden_board": most_at,
              "ci": visibility_margins(per_board)}  # type: ignore[arg-type]  # list is invariant
    sand[s] = {"floor": _r(statistics.mean(floors)), "canal": _r(statistics.mean(canals)),
               "ceiling": _r(statistics.mean(ceilings)),
               "per_cell": _r(sum(sums) / sum(canals)),
               "ci": {"floor": mean_ci(floors), "canal": mean_ci(canals),
                      "per_cell": ratio_ci(sums, canals)}}
    sight[s] = dict(S, blocked_share=_r(S["blocked"] / S["pairs"]),
                    checked_boards=nb, canal_x4=4 * S["canal"], clue_sum=sum(sums),
                    ci={"blocked_share": ratio_ci(blocked_b, pairs_b)})
    comp[s] = {"numbers": _r(len(ray_cells) / nb), "ray_cells": _r(statistics.mean(ray_cells)),
               # 2 to the mean cell count (the spec's reading), and the mean of 2^cells
               "two_pow": _r(2 ** statistics.mean(ray_cells), 1),
               "two_pow_mean": _r(statistics.mean(pows), 1),
               "fits": _r(statistics.mean(fits)),
               "nodes_median": statistics.median_low(nodes), "nodes_worst": max(nodes),
               "nodes_total": sum(nodes),
               "ci": {"numbers": mean_ci(nums_b), "ray_cells": ratio_ci(cells_b, nums_b),
                      "two_pow_mean": ratio_ci(pows_b, nums_b),
                      "fits": ratio_ci(fits_b, nums_b)}}
    # cells: share of the cells without a number; cells_all: share of all h*w cells
    # with each numbered cell counted as decided from the start
    lad[s] = {r: {"cells": _r(reach[r] / free_cells),
                  "cells_all": _r((reach[r] + all_cells - free_cells) / all_cells),
                  "boards": completed[r],
                  "ci": {"cells_all": ratio_ci(reach_b[r], all_b),
                         "boards": rate(completed[r], nb)}} for r in RUNGS}
    # how much more of the board the step at flow decides than the step at block (as a
    # share of all cells), per board, so that "the jump at flow is larger" has an interval
    a, b, f = reach_b["arm"], reach_b["block"], reach_b["flow"]
    steps = {"flow_over_block": ratio_ci([f[i] - 2 * b[i] + a[i] for i in range(nb)], all_b)}
    hw = entries[0]["h"] * entries[0]["w"]
    lake[s] = {"canal": _r(statistics.mean(canals)),
               "share": _r(statistics.mean(canals) / hw),
               "lakes": _r(statistics.mean(lakes_n)), "with_lake": with_lake,
               "loops": _r(statistics.mean(loops_n)), "with_loop": with_loop,
               "ci": {"canal": mean_ci(canals), "share": mean_ci([c / hw for c in canals]),
                      "lakes": mean_ci(lakes_n), "loops": mean_ci(loops_n),
                      "with_lake": rate(with_lake, nb), "with_loop": rate(with_loop, nb)}}
    return {"visibility": vis[s], "sandwich": sand[s], "sightlines": sight[s],
            "compositions": comp[s], "ladder": lad[s], "ladder_steps": steps, "lakes": lake[s],
            "flips": [sorted(f) for f in flip_sets], "flips_per_board": flips_b}


def _flip_table(fs: list[frozenset], per_board: list[int] | None = None) -> dict[str, Any]:
    """The flips by the rules that reject them; with ``per_board`` (how many of ``fs``
    each board gave, in order) also an interval on the share that satisfies every number,
    the boards resampled whole (the flips of one answer share it)."""
    names = {"number": "canal.count", "block": "canal.2x2", "connect": "canal.connect"}
    out: dict[str, Any] = {"total": len(fs), "nothing": sum(1 for f in fs if not f)}
    for k, rule in names.items():
        out[k] = {"kills": sum(1 for f in fs if rule in f),
                  "only": sum(1 for f in fs if f == {rule})}
    not_number = sum(1 for f in fs if f and "canal.count" not in f)
    out["not_number"] = not_number
    out["not_number_share"] = _r(not_number / len(fs)) if fs else None
    if per_board is not None and fs:
        if sum(per_board) != len(fs):
            raise ValueError(f"{sum(per_board)} flips by board, {len(fs)} in all")
        nums: list[int] = []
        at = 0
        for many in per_board:
            nums.append(sum(1 for f in fs[at:at + many] if f and "canal.count" not in f))
            at += many
        out["ci"] = {"not_number_share": ratio_ci(nums, per_board)}
    return out


def _misread_one(entries: list[Any], rules: Any, boards: int, p: Mapping[str, Any]
                 ) -> dict[str, Any]:
    """One misreading of the rules on the first ``boards`` banked boards of one size."""
    chosen = entries[:boards]
    legal = unique = none = capped = 0
    counts: list[int] = []
    flags: list[bool] = []
    for e in chosen:
        board, ans = _load(e)
        legal += not violations(board, ans, rules)
        res = solve(board, limit=p["cap"], rules=rules, node_cap=p["node_cap"])
        n = len(res.solutions)
        hit_cap = n >= p["cap"] or res.stats.get("capped", False)
        capped += hit_cap
        flags.append(bool(hit_cap))
        counts.append(n)
        unique += n == 1 and not hit_cap
        none += n == 0 and not hit_cap
    # a capped count is a lower bound, so the median of the counts found is a lower
    # bound of the true median; exact unless a board at or below it was capped
    med = statistics.median_low(counts)
    low_capped = any(f for c, f in zip(counts, flags, strict=True) if c <= med)
    return {"boards": len(chosen), "legal": legal, "median": med,
            "median_capped": low_capped, "unique": unique, "none": none, "capped": capped}


def _misread(by_size, p, progress=no_progress) -> dict[str, Any]:
    """Every misreading on every size (what the chunks ``misread/<name>/<size>`` build)."""
    out: dict[str, Any] = {"cap": p["cap"]}
    for name, rules in VARIANTS.items():
        out[name] = {s: _misread_one(entries, rules, p["boards"][name], p)
                     for s, entries in by_size.items()}
    return out


def visibility_margins(per_board: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Intervals for the visibility ratios, the boards resampled whole (the numbers of one
    board share its canal): a number's mean value, its share of the canal in its rays,
    and the hidden cells per ray with canal behind its stopper."""
    col = {k: [v[k] for v in per_board] for k in ("numbers", "says", "in_rays",
                                                 "rays_behind", "hidden")}
    return {"says": ratio_ci(col["says"], col["numbers"]),
            "share": ratio_ci(col["says"], col["in_rays"]),
            "hidden": ratio_ci(col["hidden"], col["rays_behind"])}


def add_margins(data: dict[str, Any]) -> dict[str, Any]:
    """Wilson intervals beside the sampled rates (the random-erasure dial, the scatter
    boards, the trapdoor draws, the misreadings), from the counts stored beside them; in
    place (returned). The per-board means and ratios get theirs in ``_board_figures``."""
    data["margins"] = methods()
    for d in data["dial"].values():
        for row in d["rows"].values():
            row["ci"] = rate(row["unique"], d["draws"])
    # the misreadings: the shipped boards solved under each wrong rule set
    for name, by in data["misread"].items():
        if name == "cap":
            continue
        for row in by.values():
            n = row["boards"]
            row["ci"] = {k: rate(row[k], n) for k in ("legal", "unique", "none")}
    t = data["trapdoor"]
    t["ci"] = {"second": rate(t["second"], t["draws"])}
    for part in ("small", "whole", "total"):
        sc = data["scatter"][part]
        sc["ci"] = {"none": rate(sc["none"], sc["draws"]),
                    "unique": rate(sc["unique"], sc["draws"])}
    return data


def _dial(params, progress=no_progress) -> dict[str, Any]:
    return {s: _dial_one(params, s) for s in params["dial"]}


def _dial_one(params: Mapping[str, Any], s: str) -> dict[str, Any]:
    """Clues kept from fully numbered random boards of one size: how many stay unique."""
    p = params["dial"][s]
    h, w = parse_size(s)
    rng = random.Random(f"{params['seed']}-dial-{s}")
    rows = {"full": 0, **{str(k): 0 for k in p["keep"]}}
    for _i in range(p["draws"]):
        mask = random_canal(rng, h, w, rng.uniform(0.45, 0.55))
        full = full_board(h, w, mask)
        cells = full.clue_cells()
        rng.shuffle(cells)
        rows["full"] += len(solve(full, limit=2).solutions) == 1
        for k in p["keep"]:
            b = with_clues(full, set(cells[:k]))
            rows[str(k)] += len(solve(b, limit=2).solutions) == 1
    return {"draws": p["draws"], "keep": list(p["keep"]),
            "rows": {k: {"unique": v, "rate": _r(v / p["draws"])} for k, v in rows.items()}}


def _unseen(board: Board, ans: Answer) -> int:
    """Flooded cells that no number sees."""
    seen = 0
    for r, c, _ in _numbers(board):
        for d, run in enumerate(seen_runs(board.h, board.w, ans.mask, r, c)):
            dr, dc = DIRS[d]
            for k in range(1, run + 1):
                seen |= 1 << ((r + dr * k) * board.w + c + dc * k)
    return ans.mask & ~seen


def _trapdoor(params, progress=no_progress) -> dict[str, Any]:
    p = params["trapdoor"]
    h, w = parse_size(p["size"])
    rng = random.Random(f"{params['seed']}-trapdoor")
    second = moving_unseen = 0
    for i in range(p["draws"]):
        progress(i, p["draws"], "trapdoor")
        mask = random_canal(rng, h, w, rng.uniform(0.45, 0.55))
        full = full_board(h, w, mask)
        res = solve(full, limit=50)
        if len(res.solutions) > 1:
            second += 1
            unseen_or_moving = True
            for a in res.solutions:
                moved = a.mask ^ mask
                # every moved cell is one no number sees, in one answer or the other
                hidden = _unseen(full, Answer(h, w, mask)) | _unseen(full, a)
                if moved & ~hidden:
                    unseen_or_moving = False
            moving_unseen += unseen_or_moving
    return {"size": p["size"], "draws": p["draws"], "second": second,
            "moving_unseen": moving_unseen}


def _scatter(params, by_size, progress=no_progress) -> dict[str, Any]:
    p = params["scatter"]
    h, w = parse_size(p["size"])
    rng = random.Random(f"{params['seed']}-scatter")
    out: dict[str, Any] = {"size": p["size"], "clues": p["clues"]}
    total = {"draws": 0, "unique": 0, "none": 0}  # type: dict[str, float]  # a share below
    for mode in ("small", "whole"):
        unique = none = capped = 0
        for i in range(p["draws"]):
            progress(i, p["draws"], f"scatter {mode}")
            cells = rng.sample([(r, c) for r in range(h) for c in range(w)], p["clues"])
            clues = {}  # type: dict[tuple[int, int], int | str | None]
            for r, c in cells:
                top = p["small_max"] if mode == "small" else (h - 1) + (w - 1)
                clues[(r, c)] = rng.randint(0, top)
            b = Board.from_dict(h, w, clues)
            res = solve(b, limit=2, node_cap=p["node_cap"])
            if res.stats.get("capped"):
                capped += 1
            elif len(res.solutions) == 1:
                unique += 1
            elif not res.solutions:
                none += 1
        out[mode] = {"draws": p["draws"], "unique": unique, "none": none, "capped": capped,
                     "none_share": _r(none / p["draws"])}
        total["draws"] += p["draws"]
        total["unique"] += unique
        total["none"] += none
    total["none_share"] = _r(total["none"] / total["draws"])
    out["total"] = total
    return out


SPREAD_RUNGS = RUNGS[:3]


def ladder_spread(boards: list[Board]) -> dict[str, dict[str, Any]]:
    """Per rung: the share of all cells decided over the boards, numbered cells counted as
    decided (as ``ladder.<size>.<rung>.cells_all``), and the boards that rung completes.
    ``decided`` is the exact numerator, for ranking without rounding."""
    decided = {r: 0 for r in SPREAD_RUNGS}
    completed = {r: 0 for r in SPREAD_RUNGS}
    all_cells = 0
    for board in boards:
        rr = ladder_reach(board)
        clues = len(board.clue_cells())
        free = board.h * board.w - clues
        all_cells += board.h * board.w
        done = False
        for rung in SPREAD_RUNGS:
            decided[rung] += rr[rung] + clues
            done = done or rr[rung] == free
            completed[rung] += done
    return {r: {"cells_all": _r(decided[r] / all_cells), "boards": completed[r],
                "decided": decided[r]} for r in SPREAD_RUNGS}


def spread_seeds(seed: Any, k: int, exclude: tuple = ()) -> list[int]:
    """``k`` distinct bank seeds derived from the stats seed, none of them in ``exclude``."""
    rng = random.Random(f"{seed}-bank_spread")
    out: list[int] = []
    while len(out) < k:
        s = rng.randrange(10 ** 7, 10 ** 8)
        if s not in exclude and s not in out:
            out.append(s)
    return out


def bank_spread(p: Mapping[str, Any], seed: Any, ours: list[Board], progress: Progress,
                exclude: tuple = ()) -> dict[str, Any]:
    """The shipped bank's ladder reach against ``p["seeds"]`` other banks drawn with the
    bank stage's own recipe. Rank 1 is the lowest figure (the hardest bank); tied banks
    share a rank."""
    size, count = p["size"], p["boards"]
    if len(ours) != count:
        raise ValueError(f"bank_spread: the bank has {len(ours)} {size} boards, "
                         f"params say {count}")
    seeds = spread_seeds(seed, p["seeds"], exclude)
    others = []
    for i, s in enumerate(seeds):
        others.append((s, ladder_spread([b for _, b, _ in draw_boards(s, size, count)])))
        progress(i + 1, len(seeds), f"bank_spread seed {i + 1}/{len(seeds)}")
    return _spread_table(p, ladder_spread(ours), others)


def _spread_table(p: Mapping[str, Any], mine: Mapping[str, Any],
                  others: list[tuple[int, Any]]) -> dict[str, Any]:
    """Rank the shipped bank's figures among the other banks'."""
    def strip(f: Mapping[str, Any]) -> dict[str, Any]:
        return {r: {"cells_all": f[r]["cells_all"], "boards": f[r]["boards"]}
                for r in SPREAD_RUNGS}

    def rank(rung: str, key: str) -> int:
        return 1 + sum(1 for _, f in others if f[rung][key] < mine[rung][key])

    spread = {r: {"min": min(f[r]["cells_all"] for _, f in others),
                  "max": max(f[r]["cells_all"] for _, f in others),
                  "boards_min": min(f[r]["boards"] for _, f in others),
                  "boards_max": max(f[r]["boards"] for _, f in others)}
              for r in SPREAD_RUNGS}
    ranks = {r: {"cells_all": rank(r, "decided"), "boards": rank(r, "boards")}
             for r in SPREAD_RUNGS}
    hardest = all(f[r]["decided"] > mine[r]["decided"] for _, f in others
                  for r in SPREAD_RUNGS)
    seeds = [s for s, _ in others]
    return {"size": p["size"], "boards": p["boards"], "others": len(seeds),
            "banks": len(seeds) + 1, "seeds": seeds, "ours": strip(mine),
            "per_seed": [{"seed": s, **strip(f)} for s, f in others],
            "spread": spread, "rank": ranks, "hardest": hardest}
