"""The committed Canal View figures against a recount written here from scratch (plain
loops over the bank's answers, no code from ``solvers.canal_view.studies``), and every
banked board against the SAT engine, which shares no code with the ladder."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from solvers.canal_view.board import Answer, Board
from solvers.canal_view.sat import solve_sat

ROOT = Path(__file__).resolve().parents[1] / "content" / "canal-view"
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _load(stage: str) -> dict:
    p = ROOT / f"{stage}.json"
    if not p.exists():
        pytest.skip(f"content/canal-view/{stage}.json not generated yet")
    return json.loads(p.read_text())["data"]


def _recount(entries: list[dict]) -> dict:
    """Per size: what each number sees, hides and could see, recounted from the rows."""
    says = in_rays = behind_rays = hidden = numbers = 0
    ray_cells: list[int] = []
    canal = clue_sum = 0
    for e in entries:
        rows = e["answer"]["rows"]
        clues = e["board"]["clues"]
        h, w = e["h"], e["w"]
        canal += sum(row.count("#") for row in rows)
        for r in range(h):
            for c in range(w):
                v = clues[r][c]
                if not isinstance(v, int):
                    continue
                numbers += 1
                clue_sum += v
                says += v
                cells_here = 0
                for dr, dc in STEPS:
                    line = []
                    rr, cc = r + dr, c + dc
                    while 0 <= rr < h and 0 <= cc < w and clues[rr][cc] is None:
                        line.append(rows[rr][cc] == "#")
                        rr, cc = rr + dr, cc + dc
                    cells_here += len(line)
                    in_rays += sum(line)
                    run = 0
                    while run < len(line) and line[run]:
                        run += 1
                    past = sum(line[run + 1:])
                    behind_rays += past > 0
                    hidden += past
                ray_cells.append(cells_here)
    return {"says": says, "in_rays": in_rays, "rays_behind": behind_rays, "hidden": hidden,
            "numbers": numbers, "ray_cells": ray_cells, "canal": canal, "clue_sum": clue_sum}


def test_visibility_and_compositions_recounted() -> None:
    bank = _load("bank")["boards"]
    stats = _load("stats")
    for size in stats["sizes"]:
        es = [e for e in bank if e["size"] == size]
        got = _recount(es)
        vis = stats["visibility"][size]
        assert vis["says"] == round(got["says"] / got["numbers"], 4)
        assert vis["in_rays"] == round(got["in_rays"] / got["numbers"], 4)
        assert vis["share"] == round(got["says"] / got["in_rays"], 4)
        assert vis["rays_behind_total"] == got["rays_behind"]
        assert vis["hidden_total"] == got["hidden"]
        # the spec's reading: hidden cells per ray that has any; and the per-number one
        assert vis["hidden"] == round(got["hidden"] / got["rays_behind"], 4)
        assert vis["hidden_per_number"] == round(got["hidden"] / got["numbers"], 4)
        comp = stats["compositions"][size]
        mean_cells = statistics.mean(got["ray_cells"])
        assert comp["ray_cells"] == round(mean_cells, 4)
        assert comp["two_pow"] == round(2 ** mean_cells, 1)
        assert comp["two_pow_mean"] == round(statistics.mean(2 ** k for k in got["ray_cells"]),
                                             1)
        sl = stats["sightlines"][size]
        assert sl["canal_x4"] == 4 * got["canal"] == sl["pairs"]
        assert sl["seen"] == got["clue_sum"] == sl["clue_sum"]
        assert sl["blocked"] == got["hidden"]      # each hidden cell is one blocked sightline


def test_dial_bank_spread_and_misreadings_are_well_formed() -> None:
    stats = _load("stats")
    for d in stats["dial"].values():
        assert d["rows"]["full"]["unique"] <= d["draws"]
        for k in d["keep"]:
            r = d["rows"][str(k)]
            assert r["rate"] == round(r["unique"] / d["draws"], 4)
    assert set(stats["bank_spread"]) == set(stats["sizes"])      # both sizes are measured
    m = stats["misread"]
    assert m["cap"] == 2000
    for name in ("no2x2", "broken", "dryconnect", "wholeline"):
        for size in stats["sizes"]:
            r = m[name][size]
            assert r["unique"] + r["none"] + r["capped"] <= r["boards"]


def test_every_banked_board_confirmed_by_sat() -> None:
    bank = _load("bank")["boards"]
    confirm = _load("confirm")
    by_id = {r["id"]: r for r in confirm["boards"]}
    assert confirm["total"] == len(bank) == 72 and confirm["all"]
    for e in bank:
        b = Board.from_json(e["board"])
        a = Answer.from_json(e["answer"])
        assert solve_sat(b, limit=2).answers == [a.mask]
        assert by_id[e["id"]]["sat"] is True
    timing = _load("timing")
    for size in ("8x8", "12x12"):
        t = timing["ladder"][size]
        assert 0 < t["median_ms"] <= t["worst_ms"] and t["boards"] == 36


def test_verify_reports_each_method(capsys: pytest.CaptureFixture[str]) -> None:
    _load("bank")
    from site_builder.cli import main

    assert main(["verify", "canal-view", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["canal-view"]
    assert out["methods"]["ladder"] == out["methods"]["sat"] == out["boards"] == 72
    assert out["methods"]["brute"] == out["brute_checked"] == 0    # 8x8 is too big for it
    assert out["independent"] == out["unique"] == 72
