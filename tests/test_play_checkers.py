"""The play pages' JavaScript rule checkers agree with Python's violations().

For each puzzle, several thousand grids (random ones and near-solutions: a real solved
answer with a few cells flipped) are generated here with a fixed seed, written to a
temporary JSON file, run through templates/static/play/<slug>.js under node, and
compared with the Python package's violations(): same rule ids, same cells, same order.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "templates" / "static" / "play"
RUNNER = ROOT / "tests" / "js" / "run_checker.mjs"
NODE = shutil.which("node") or "/usr/bin/node"
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))

PACKAGES = {"canal-view": "solvers.canal_view", "sukoro": "solvers.sukoro"}


def _python_checker(slug: str):
    """(board_from_json, answer_from_json, violations) from the package, or skip."""
    pkg = PACKAGES[slug]
    try:
        mod = importlib.import_module(pkg)
        p = mod.PUZZLE
        return p.board_from_json, p.answer_from_json, p.violations
    except (ImportError, AttributeError):
        pass
    try:
        b = importlib.import_module(pkg + ".board")
        return b.Board.from_json, b.Answer.from_json, b.violations
    except (ImportError, AttributeError) as e:
        pytest.skip(f"{pkg} has no violations() yet ({e})")


def _bank_answers(slug: str) -> list[tuple[dict, dict]]:
    path = Path(os.environ.get("PLAY_CONTENT", ROOT / "content")) / slug / "bank.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())["data"]
    return [(b["board"], b["answer"]) for b in data.get("boards", [])]


# ---- grid generators ------------------------------------------------------------------

def _grow(rng: random.Random, h: int, w: int, k: int, ok) -> set[tuple[int, int]]:
    """A random connected cell set of up to k cells; ok(cells, cell) vets each addition."""
    start = (rng.randrange(h), rng.randrange(w))
    cells = {start}
    for _ in range(k * 6):
        if len(cells) >= k:
            break
        r, c = rng.choice(sorted(cells))
        dr, dc = rng.choice(DIRS)
        n = (r + dr, c + dc)
        if 0 <= n[0] < h and 0 <= n[1] < w and n not in cells and ok(cells, n):
            cells.add(n)
    return cells


def _no_2x2(cells, n):
    r, c = n
    for dr in (-1, 0):
        for dc in (-1, 0):
            block = {(r + dr + a, c + dc + b) for a in (0, 1) for b in (0, 1)}
            if all(x == n or x in cells for x in block):
                return False
    return True


def _canal_seen(fl, h, w, r, c):
    n = 0
    for dr, dc in DIRS:
        y, x = r + dr, c + dc
        while 0 <= y < h and 0 <= x < w and fl[y][x]:
            n += 1
            y, x = y + dr, x + dc
    return n


def canal_solution(rng: random.Random) -> tuple[dict, dict]:
    h, w = rng.randint(3, 9), rng.randint(3, 9)
    cells = _grow(rng, h, w, rng.randint(3, h * w // 2), _no_2x2)
    fl = [[(r, c) in cells for c in range(w)] for r in range(h)]
    clues = [[None] * w for _ in range(h)]
    for r in range(h):
        for c in range(w):
            if not fl[r][c] and rng.random() < 0.3:
                clues[r][c] = "?" if rng.random() < 0.1 else _canal_seen(fl, h, w, r, c)
    rows = ["".join("#" if fl[r][c] else "." for c in range(w)) for r in range(h)]
    return {"h": h, "w": w, "clues": clues}, {"rows": rows}


def canal_random(rng: random.Random) -> tuple[dict, dict]:
    h, w = rng.randint(1, 8), rng.randint(1, 8)
    p = rng.choice((0.2, 0.4, 0.5, 0.6, 0.8))
    q = rng.choice((0.0, 0.15, 0.3))
    clues = [[("?" if rng.random() < 0.1 else rng.randint(0, h + w - 2))
              if rng.random() < q else None for _ in range(w)] for _ in range(h)]
    rows = ["".join("#" if rng.random() < p else "." for _ in range(w)) for _ in range(h)]
    return {"h": h, "w": w, "clues": clues}, {"rows": rows}


def canal_flip(rng: random.Random, board: dict, answer: dict) -> tuple[dict, dict]:
    g = [list(r) for r in answer["rows"]]
    for _ in range(rng.randint(1, 3)):
        r, c = rng.randrange(board["h"]), rng.randrange(board["w"])
        g[r][c] = "." if g[r][c] == "#" else "#"
    return board, {"rows": ["".join(r) for r in g]}


def _counts(on, h, w):
    return [[sum(1 for dr, dc in DIRS if 0 <= r + dr < h and 0 <= c + dc < w
                 and on[r + dr][c + dc]) for c in range(w)] for r in range(h)]


def _sukoro_rows(on, h, w):
    n = _counts(on, h, w)
    return ["".join(str(n[r][c]) if on[r][c] else "." for c in range(w)) for r in range(h)]


def _sukoro_valid(on, h, w):
    n = _counts(on, h, w)
    for r in range(h):
        for c in range(w):
            if not on[r][c]:
                continue
            if n[r][c] == 0:
                return False
            if c + 1 < w and on[r][c + 1] and n[r][c + 1] == n[r][c]:
                return False
            if r + 1 < h and on[r + 1][c] and n[r + 1][c] == n[r][c]:
                return False
    return True


def sukoro_solution(rng: random.Random) -> tuple[dict, dict]:
    for _ in range(10_000):
        h, w = rng.randint(3, 7), rng.randint(3, 7)
        cells = _grow(rng, h, w, rng.randint(3, 10), lambda s, n: True)
        on = [[(r, c) in cells for c in range(w)] for r in range(h)]
        if _sukoro_valid(on, h, w):
            break
    rows = _sukoro_rows(on, h, w)
    clues = [[None] * w for _ in range(h)]
    for r in range(h):
        for c in range(w):
            if on[r][c] and rng.random() < 0.4:
                clues[r][c] = "?" if rng.random() < 0.15 else int(rows[r][c])
    return {"h": h, "w": w, "clues": clues}, {"rows": rows}


def sukoro_random(rng: random.Random) -> tuple[dict, dict]:
    h, w = rng.randint(1, 7), rng.randint(1, 7)
    p = rng.choice((0.2, 0.4, 0.6, 0.8))
    q = rng.choice((0.0, 0.15, 0.3))
    clues = [[("?" if rng.random() < 0.15 else rng.randint(1, 4)) if rng.random() < q else None
              for _ in range(w)] for _ in range(h)]
    if rng.random() < 0.5:      # digits as the play page writes them: live counts
        on = [[rng.random() < p for _ in range(w)] for _ in range(h)]
        n = _counts(on, h, w)
        rows = ["".join(str(n[r][c]) if on[r][c] and n[r][c] else "." for c in range(w))
                for r in range(h)]
    else:
        rows = ["".join(str(rng.randint(1, 4)) if rng.random() < p else "." for _ in range(w))
                for _ in range(h)]
    return {"h": h, "w": w, "clues": clues}, {"rows": rows}


def sukoro_flip(rng: random.Random, board: dict, answer: dict) -> tuple[dict, dict]:
    h, w = board["h"], board["w"]
    on = [[ch != "." for ch in row] for row in answer["rows"]]
    for _ in range(rng.randint(1, 3)):
        r, c = rng.randrange(h), rng.randrange(w)
        on[r][c] = not on[r][c]
    if rng.random() < 0.5:
        n = _counts(on, h, w)
        rows = ["".join(str(n[r][c]) if on[r][c] and n[r][c] else "." for c in range(w))
                for r in range(h)]
    else:
        g = [list(row) for row in answer["rows"]]
        for r in range(h):
            for c in range(w):
                if on[r][c] and g[r][c] == ".":
                    g[r][c] = str(rng.randint(1, 4))
                elif not on[r][c]:
                    g[r][c] = "."
        rows = ["".join(row) for row in g]
    return board, {"rows": rows}


GEN = {
    "canal-view": (canal_solution, canal_random, canal_flip),
    "sukoro": (sukoro_solution, sukoro_random, sukoro_flip),
}


def make_cases(slug: str, seed: int = 20261129, n_random: int = 1200, n_near: int = 1200
               ) -> list[tuple[dict, dict]]:
    rng = random.Random(f"{slug}:{seed}")
    solution, rand, flip = GEN[slug]
    cases = [rand(rng) for _ in range(n_random)]
    solved = _bank_answers(slug)
    for i in range(n_near):
        if solved and i % 2 == 0:
            board, answer = solved[rng.randrange(len(solved))]
        else:
            board, answer = solution(rng)
        if i % 10 == 0:
            cases.append((board, answer))          # the solution itself
        else:
            cases.append(flip(rng, board, answer))
    return cases


def run_js(slug: str, cases: list[tuple[dict, dict]], tmp: Path) -> list:
    lib = tmp / "play"
    lib.mkdir(exist_ok=True)
    for f in STATIC.glob("*.js"):
        shutil.copy(f, lib / f.name)
    (lib / "package.json").write_text('{"type": "module"}\n')
    path = tmp / f"{slug}-cases.json"
    path.write_text(json.dumps([{"board": b, "answer": a} for b, a in cases]))
    res = subprocess.run([NODE, str(RUNNER), str(lib / f"{slug}.js"), str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


@pytest.mark.parametrize("slug", sorted(PACKAGES))
def test_js_checker_agrees_with_python(slug: str, tmp_path: Path) -> None:
    board_from_json, answer_from_json, violations = _python_checker(slug)
    cases = make_cases(slug)
    assert len(cases) >= 2000
    js = run_js(slug, cases, tmp_path)
    assert len(js) == len(cases)
    kinds: set[str] = set()
    mismatches = []
    for (b, a), got in zip(cases, js):
        want = [{"rule": v.rule, "cells": [list(c) for c in v.cells]}
                for v in violations(board_from_json(b), answer_from_json(a))]
        kinds.update(v["rule"] for v in want)
        if got != want:
            mismatches.append({"board": b, "answer": a, "python": want, "js": got})
    assert not mismatches, (f"{len(mismatches)} of {len(cases)} grids disagree; first: "
                            + json.dumps(mismatches[0]))
    # The grids exercise every rule, and some of them are clean.
    js_mod = (STATIC / f"{slug}.js").read_text()
    for rule in kinds:
        assert rule in js_mod
    assert len(kinds) == js_mod.count('": {\n    en:')  # every rule in MESSAGES was hit
    assert any(not v for v in js)


@pytest.mark.parametrize("slug", sorted(PACKAGES))
def test_solutions_are_clean(slug: str, tmp_path: Path) -> None:
    """Valid answers (generated here and, when present, the bank's) have no violations."""
    solution = GEN[slug][0]
    rng = random.Random(7)
    cases = [solution(rng) for _ in range(200)] + _bank_answers(slug)
    js = run_js(slug, cases, tmp_path)
    assert all(v == [] for v in js)
