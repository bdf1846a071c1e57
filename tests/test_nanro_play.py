"""Nanro's play-page checker (templates/static/play/nanro.js) agrees with Python's
violations(): rule ids, cells and params, on random grids and near-solutions."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from play_support import play_modules

from solvers.nanro.board import Answer, Board
from solvers.nanro.generate import full_board, make_answer
from solvers.nanro.rules import violations

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "solvers" / "nanro" / "static" / "play" / "nanro.js"
NODE = shutil.which("node") or "/usr/bin/node"

DRIVER = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [modPath, batchPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modPath).href);
const cases = JSON.parse(readFileSync(batchPath, "utf8"));
const out = cases.map(({ board, answer }) => mod.violations(board, answer));
process.stdout.write(JSON.stringify(out));
"""


def _cases(n: int, seed: int) -> list[tuple[Board, Answer]]:
    rng = random.Random(seed)
    out: list[tuple[Board, Answer]] = []
    while len(out) < n:
        size = rng.choice((3, 4, 5, 6, 7))
        made = make_answer(size, rng.choice((size, size + 1)), rng, 1, rng.choice((3, 4, 5)))
        if made is None:
            continue
        empty, ans = made
        full = full_board(empty, ans)
        flat = [v if v is not None and rng.random() < 0.3 else None for v in full]
        # a few wrong or hidden clues, a few label hints
        for i in range(len(flat)):
            x = rng.random()
            if x < 0.05:
                flat[i] = "?"
            elif x < 0.08:
                flat[i] = rng.randint(1, empty.region_sizes()[empty.flat_regions()[i]])
        labels = tuple(rng.randint(1, s) if rng.random() < 0.1 else None
                       for s in empty.region_sizes())
        board = empty.with_clues(flat, labels)
        kind = len(out) % 2
        if kind == 0:                        # near-solution: the answer, a few flips
            cells = set(ans.cells)
            for _ in range(rng.randint(0, 3)):
                cell = (rng.randrange(board.h), rng.randrange(board.w))
                cells ^= {cell}
        else:                                # random grid
            p = rng.uniform(0.3, 0.8)
            cells = {(r, c) for r in range(board.h) for c in range(board.w) if rng.random() < p}
        out.append((board, Answer(board.h, board.w, frozenset(cells))))
    return out


@pytest.mark.skipif(not Path(NODE).exists(), reason="node is not installed")
def test_js_checker_agrees_with_python(tmp_path):
    cases = _cases(2400, 11)
    batch = [{"board": b.to_json() | {"labels": list(b.labels)}, "answer": a.to_json()}
             for b, a in cases]
    (tmp_path / "batch.json").write_text(json.dumps(batch))
    (tmp_path / "driver.mjs").write_text(DRIVER)
    res = subprocess.run([NODE, str(tmp_path / "driver.mjs"), str(play_modules(tmp_path) / CHECKER.name),
                          str(tmp_path / "batch.json")], capture_output=True, text=True,
                         check=True, timeout=120)
    got = json.loads(res.stdout)
    assert len(got) == len(cases)
    rules_seen: set[str] = set()
    solved = 0
    for (b, a), js in zip(cases, got, strict=True):
        py = [{"rule": v.rule, "cells": [list(c) for c in v.cells], "params": dict(v.params)}
              for v in violations(b, a)]
        assert js == py, (b.to_json(), a.rows())
        rules_seen.update(v["rule"] for v in py)
        solved += not py
    # the sample exercises every rule, and solved grids too
    assert rules_seen == {"nanro.2x2", "nanro.clash", "nanro.clue", "nanro.hint",
                          "nanro.connect", "nanro.empty"}
    assert solved > 0
