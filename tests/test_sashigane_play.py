"""The play page's Sashigane checker (templates/static/play/sashigane.js) agrees with
Python's violations(): same rule ids, cells, params and order, on random border sets and
on near-solutions (a true answer with a few borders toggled), both rule variants; and
the page's size budget equals the area rung's."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from play_support import play_modules

from solvers.sashigane.board import Answer, Board
from solvers.sashigane.generate import arrow_choice, print_board, random_tiling
from solvers.sashigane.ladder import size_budget
from solvers.sashigane.rules import violations
from solvers.sashigane.transfer import count

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "solvers" / "sashigane" / "static" / "play" / "sashigane.js"
NODE = shutil.which("node") or "/usr/bin/node"

RUNNER = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [modPath, casesPath] = process.argv.slice(1);
const m = await import(pathToFileURL(modPath).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const out = cases.map(({ board, vert, horz }) => {
  const a = m.fromBorders(board.h, board.w, vert, horz);
  return { answer: a, budget: m.budget(board), v: m.violations(board, a) };
});
process.stdout.write(JSON.stringify(out));
"""


def _solution(rng: random.Random) -> tuple[Board, Answer]:
    h, w = rng.randint(2, 7), rng.randint(2, 7)
    if count(h, w)[0] == 0:
        h, w = 4, 5
    ps = random_tiling(h, w, rng)
    b = print_board(h, w, ps, [arrow_choice(p, "coin", rng) for p in ps], True)
    cells = list(b.cells)
    for i, k in enumerate(cells):
        if k.kind == 1 and rng.random() < 0.5:
            cells[i] = type(k)(1, None)
        elif k.kind == 2 and rng.random() < 0.1:
            cells[i] = type(k)(3)
    lab = [0] * (h * w)
    for n, p in enumerate(ps):
        for i in range(h * w):
            if p.mask >> i & 1:
                lab[i] = n
    rules = "standard" if rng.random() < 0.3 else "seed"
    return Board(h, w, tuple(cells), rules), Answer.from_labels(h, w, lab)


def _random_board(rng: random.Random) -> Board:
    h, w = rng.randint(1, 6), rng.randint(1, 6)
    toks = [".", ".", ".", "o", "o3", "o4", "o7", "^", "v", "<", ">", "?"]
    return Board.from_json({"h": h, "w": w, "rules": rng.choice(["seed", "standard"]),
                            "cells": [[rng.choice(toks) for _ in range(w)] for _ in range(h)]})


def cases(n: int, seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if rng.random() < 0.5:
            b, a = _solution(rng)
            vert, horz = a.borders()
            for _ in range(rng.randint(0, 3)):
                if rng.random() < 0.5 and b.w > 1:
                    r, c = rng.randrange(b.h), rng.randrange(b.w - 1)
                    vert[r][c] ^= 1
                elif b.h > 1:
                    r, c = rng.randrange(b.h - 1), rng.randrange(b.w)
                    horz[r][c] ^= 1
        else:
            b = _random_board(rng)
            p = rng.choice((0.2, 0.5, 0.8))
            vert = [[int(rng.random() < p) for _ in range(b.w - 1)] for _ in range(b.h)]
            horz = [[int(rng.random() < p) for _ in range(b.w)] for _ in range(b.h - 1)]
        out.append({"board": b.to_json(), "vert": vert, "horz": horz})
    return out


@pytest.mark.skipif(not Path(NODE).exists(), reason="node is not installed")
def test_js_checker_agrees_with_python(tmp_path):
    cs = cases(2400)
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cs))
    res = subprocess.run([NODE, "--input-type=module", "-e", RUNNER, str(play_modules(path.parent) / MODULE.name), str(path)],
                         capture_output=True, text=True, check=True, timeout=300)
    js = json.loads(res.stdout)
    solved = rules_seen = 0
    seen: set[str] = set()
    for case, got in zip(cs, js, strict=True):
        b = Board.from_json(case["board"])
        a = Answer.from_borders(b.h, b.w, case["vert"], case["horz"])
        assert Answer.from_json(got["answer"]) == a
        numbers = [k.value for k in b.cells if k.kind == 1]
        left, least, most = size_budget(b.h, b.w, numbers)
        assert (got["budget"]["left"], got["budget"]["least"], got["budget"]["most"]) == (
            left, least, most)
        py = [{"rule": v.rule, "cells": [list(c) for c in v.cells], "params": dict(v.params)}
              for v in violations(b, a)]
        assert got["v"] == py, case
        solved += not py
        seen.update(v["rule"] for v in py)
        rules_seen += len(py)
    assert solved > 100 and rules_seen > 1000
    # every rule of the table was exercised at least once
    from solvers.sashigane.rules import PARTIAL_ONLY, RULES
    assert seen == set(RULES.ids) - {"sashigane.cover"} - PARTIAL_ONLY
