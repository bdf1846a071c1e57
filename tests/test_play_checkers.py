"""The play pages' JavaScript checkers agree with Python's violations(), word for word.

For every registered puzzle (solvers.registry) and the framework's two test puzzles
(tests/play_fixtures), a batch of cases with a fixed seed runs through the puzzle's
checker module templates/static/play/<slug>.js under node (tests/js/run_checker.mjs), the
way the play page runs it: player states -> toAnswer() -> violations(), sorted by the
rules table, each message filled from the rules table in English and Japanese. Python's
violations() on the same answer must give the same rule ids, cells, params and messages.

The cases: random player states and near-solutions (a bank answer's states with a few
units changed) on the puzzle's bank boards, for every puzzle; and for the puzzles that
have them, hand-made answer grids (GEN below: random grids and near-solutions that the
page's input cannot produce, such as Sukoro digits that are not the live counts).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import play_fixtures
import pytest
from play_support import ALL, FIXTURES, REGISTERED, bank, puzzle

from site_builder import testing

ROOT = Path(__file__).resolve().parent.parent
DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))

# Rules in a table that the standard violations() never reports (a misreading variant's),
# or that no play-page board can break (Nanro's label hints are never on a banked board;
# tests/test_nanro_play.py compares that rule too).
UNREACHED = {"canal.dryconnect", "nanro.hint", "sashigane.cover"}  # cover: drawn lines cover every cell


def _bank_answers(slug: str) -> list[tuple[dict, dict]]:
    return [(b["board"], b["answer"]) for b in bank(slug)["boards"]]


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


def _fixture_solution(slug: str):
    def solution(rng: random.Random) -> tuple[dict, dict]:
        return rng.choice(_bank_answers(slug))
    return solution


def regions_random(rng: random.Random) -> tuple[dict, dict]:
    board, _ = rng.choice(_bank_answers("test-regions"))
    p = rng.random()
    return board, {"rows": ["".join(rng.choice("123") if rng.random() < p else "."
                                    for _ in range(board["w"])) for _ in range(board["h"])]}


def regions_flip(rng: random.Random, board: dict, answer: dict) -> tuple[dict, dict]:
    g = [list(r) for r in answer["rows"]]
    for _ in range(rng.randint(1, 2)):
        r, c = rng.randrange(board["h"]), rng.randrange(board["w"])
        g[r][c] = "." if g[r][c] != "." else "1"
    return board, {"rows": ["".join(r) for r in g]}


def edges_random(rng: random.Random) -> tuple[dict, dict]:
    board, _ = rng.choice(_bank_answers("test-edges"))
    h, w, p = board["h"], board["w"], rng.random()

    def bits(n: int) -> str:
        return "".join("1" if rng.random() < p else "0" for _ in range(n))
    return board, {"right": [bits(w - 1) for _ in range(h)], "down": [bits(w) for _ in range(h - 1)]}


def edges_flip(rng: random.Random, board: dict, answer: dict) -> tuple[dict, dict]:
    right, down = [list(r) for r in answer["right"]], [list(r) for r in answer["down"]]
    for _ in range(rng.randint(1, 2)):
        g = rng.choice((right, down))
        r = rng.randrange(len(g))
        c = rng.randrange(len(g[r]))
        g[r][c] = "1" if g[r][c] == "0" else "0"
    return board, {"right": ["".join(r) for r in right], "down": ["".join(r) for r in down]}


GEN = {
    "canal-view": (canal_solution, canal_random, canal_flip),
    "sukoro": (sukoro_solution, sukoro_random, sukoro_flip),
    "test-regions": (_fixture_solution("test-regions"), regions_random, regions_flip),
    "test-edges": (_fixture_solution("test-edges"), edges_random, edges_flip),
}


def hand_made_cases(slug: str, seed: int = 20261129, n_random: int = 1200,
                    n_near: int = 1200) -> list[dict]:
    """GEN's random grids and near-solutions (bank answers and generated ones)."""
    if slug not in GEN:
        return []
    rng = random.Random(f"{slug}:{seed}")
    solution, rand, flip = GEN[slug]
    cases = [rand(rng) for _ in range(n_random)]
    solved = _bank_answers(slug)
    for i in range(n_near):
        if i % 2 == 0:
            board, answer = solved[rng.randrange(len(solved))]
        else:
            board, answer = solution(rng)
        if i % 10 == 0:
            cases.append((board, answer))          # the solution itself
        else:
            cases.append(flip(rng, board, answer))
    return [{"board": b, "answer": a} for b, a in cases]


def units(model: str, board: dict, outline: bool = False) -> int:
    return testing.units(model, board, outline)


def page_cases(slug: str, seed: int = 20261130, n_boards: int = 40, total: int = 1200
               ) -> list[dict]:
    """Player states on bank boards: random ones, and the solution with a few changes
    (the kit's, ``site_builder.testing.page_cases``)."""
    return testing.page_cases(puzzle(slug), bank(slug)["boards"], seed, n_boards, total)


def fields(template: str) -> list[str]:
    return re.findall(r"(?<!\{)\{(\w+)\}", template)


def run_js(slug: str, cases: list[dict], tmp: Path, fills: list | None = None,
           digits: bool = False) -> dict:
    """Run the checker module of ``slug`` over ``cases`` under node, as the kit does
    (``site_builder.testing.run_checker``; the fixture puzzles bring their own module)."""
    return testing.run_checker(puzzle(slug), cases, tmp, fills, digits,
                               modules=play_fixtures.STATIC.get(slug, ()))


def _python(p, board: dict, answer) -> list[dict] | None:
    return testing.python_violations(p, board, answer)


@pytest.mark.parametrize("slug", ALL)
def test_js_checker_agrees_with_python(slug: str, tmp_path: Path) -> None:
    p = puzzle(slug)
    cases = hand_made_cases(slug) + page_cases(slug)
    assert len(cases) >= 1000
    out = run_js(slug, cases, tmp_path)["cases"]
    assert len(out) == len(cases)
    kinds: set[str] = set()
    mismatches, refused = [], 0
    for case, got in zip(cases, out, strict=True):
        want = _python(p, case["board"], got["answer"])
        if want is None:
            # An answer Python cannot read must never count as solved on the page. (Sukoro:
            # a numbered cell with no numbered neighbour shows its live count, 0, which
            # Answer.from_json refuses; the page reports sukoro.isolated for it.)
            refused += 1
            assert got["violations"], ("the page would call an answer solved that Python "
                                       f"refuses: {json.dumps(case)}")
            continue
        kinds.update(v["rule"] for v in want)
        if got["violations"] != want:
            mismatches.append({"case": case, "answer": got["answer"], "python": want,
                               "js": got["violations"]})
    assert not mismatches, (f"{len(mismatches)} of {len(cases)} cases disagree; first: "
                            + json.dumps(mismatches[0], ensure_ascii=False))
    # Refusals cannot hollow the comparison out: most cases are compared word for word.
    assert len(cases) - refused >= 1000
    # The cases exercise every rule of the table, and some of them are clean. A rule only
    # an unfinished board can break (reported by irreparable() alone) counts as reached
    # when the irreparable cases reach it.
    missing = set(p.rules.ids) - UNREACHED - kinds
    if missing and p.irreparable is not None:
        missing -= irreparable_kinds(slug, tmp_path)
    assert kinds <= set(p.rules.ids) and not missing, missing
    assert any(not got["violations"] for got in out)


@pytest.mark.parametrize("slug", ALL)
def test_messages_fill_as_python_fills_them(slug: str, tmp_path: Path) -> None:
    """Every rule's template in both languages, filled by the framework (grid.js fill)
    and by Python's str.format from the same params (ints and strings), reads the same:
    this covers the rules no case reaches too."""
    fills, want = [], []
    for k, rule in enumerate(puzzle(slug).rules):
        for lang in ("en", "ja"):
            template = getattr(rule, lang)
            assert fields(template), f"{rule.id} {lang}: a message names nothing"
            for params in ({f: i + k + 1 for i, f in enumerate(fields(template))},
                           {f: "?" for f in fields(template)}):
                fills.append([template, params])
                want.append(template.format(**params))
    assert run_js(slug, [], tmp_path, fills)["fills"] == want


@pytest.mark.parametrize("slug", ALL)
def test_solutions_are_clean(slug: str, tmp_path: Path) -> None:
    """A bank answer entered as player states is the same answer to toAnswer() and clean
    (the page calls it solved); so are GEN's generated solutions."""
    cases = [{"board": b, "answer": a, "flips": []} for b, a in _bank_answers(slug)]
    if slug in GEN:
        rng = random.Random(7)
        cases += [{"board": b, "answer": a} for b, a in
                  (GEN[slug][0](rng) for _ in range(200))]
    out = run_js(slug, cases, tmp_path)["cases"]
    assert all(got["violations"] == [] for got in out)
    for case, got in zip(cases, out, strict=True):
        # (a digit puzzle's answer also carries what only the player writes: "digits")
        assert {k: got["answer"][k] for k in case["answer"]} == case["answer"]


DIGIT_PUZZLES = tuple(s for s in REGISTERED if puzzle(s).play.input.get("digits"))


def test_digit_puzzles_are_nanro_and_sukoro() -> None:
    assert set(DIGIT_PUZZLES) == {"nanro", "sukoro"}


def _digit_states(slug: str, board: dict, answer: dict) -> list[int]:
    """A bank answer as the player types it (grid.js: blank 2, the digit d as 2 + d)."""
    rows, w = answer["rows"], board["w"]
    if slug == "sukoro":
        return [2 + int(ch) if ch.isdigit() else 2 for row in rows for ch in row]
    count: dict[int, int] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "#":
                count[board["regions"][r][c]] = count.get(board["regions"][r][c], 0) + 1
    return [2 + count[board["regions"][i // w][i % w]] if rows[i // w][i % w] == "#" else 2
            for i in range(board["h"] * w)]


@pytest.mark.parametrize("slug", DIGIT_PUZZLES)
def test_typed_digits_are_checked(slug: str, tmp_path: Path) -> None:
    """With digits typed (the assist off): the solution's digits solve; a numbered mark
    where a digit belongs leaves the board incomplete; a wrong digit breaks the digit's
    own rule (Nanro: nanro.digit, the player's rule; Sukoro: sukoro.count), named in both
    languages."""
    rule = {"nanro": "nanro.digit", "sukoro": "sukoro.count"}[slug]
    cases, at = [], []
    for b, a in _bank_answers(slug)[:20]:
        st = _digit_states(slug, b, a)
        free = [i for i, s in enumerate(st) if s > 2 and b["clues"][i // b["w"]][i % b["w"]] is None]
        i = free[len(free) // 2]
        marked, wrong = list(st), list(st)
        marked[i] = 1
        wrong[i] = 3 if st[i] != 3 else 4
        cases += [{"board": b, "states": st}, {"board": b, "states": marked},
                  {"board": b, "states": wrong}]
        at.append(i)
    out = run_js(slug, cases, tmp_path, digits=True)["cases"]
    for k, i in enumerate(at):
        solved, marked, wrong = out[3 * k: 3 * k + 3]
        w = cases[3 * k]["board"]["w"]
        assert solved["violations"] == [] and solved["complete"] is True
        assert marked["complete"] is False
        hits = [v for v in wrong["violations"] if v["rule"] == rule]
        assert any([i // w, i % w] in v["cells"] for v in hits), wrong["violations"]
        assert all(v["en"] and v["ja"] for v in wrong["violations"])

def test_fixture_puzzles_are_not_registered() -> None:
    from solvers import registry

    assert not set(FIXTURES) & set(registry.slugs())




# ---- irreparable: the check that tells wrong from unfinished ------------------------------

PARTIAL = tuple(s for s in ALL if puzzle(s).irreparable is not None)


def irreparable_cases(slug: str, seed: int = 20261130, n_boards: int = 30, total: int = 900
                      ) -> list[dict]:
    """Partial and finished player states on bank boards (the kit's)."""
    return testing.irreparable_cases(puzzle(slug), bank(slug)["boards"], seed, n_boards, total)


def irreparable_kinds(slug: str, tmp: Path) -> set[str]:
    """The rule ids Python's irreparable() reports on the irreparable cases."""
    p = puzzle(slug)
    out = run_js(slug, irreparable_cases(slug), tmp)["cases"]
    return {v.rule for case, got in zip(irreparable_cases(slug), out, strict=True)
            for v in p.irreparable(p.board_from_json(case["board"]), list(got["states"]))}


def _python_vs(vs) -> list[dict]:
    return [{"rule": v.rule, "cells": [list(c) for c in v.cells],
             "params": json.loads(json.dumps(dict(v.params))), "en": v.en, "ja": v.ja}
            for v in vs]


@pytest.mark.parametrize("slug", PARTIAL)
def test_js_irreparable_agrees_with_python(slug: str, tmp_path: Path) -> None:
    """The module's irreparable(board, view) and Python's Puzzle.irreparable(board, states)
    report the same violations for the same partial states; on finished states (nothing
    undecided) both equal violations() of the answer the page reads."""
    p = puzzle(slug)
    cases = irreparable_cases(slug)
    out = run_js(slug, cases, tmp_path)["cases"]
    assert len(out) == len(cases)
    mismatches, kinds, finished, partial_hits = [], set(), 0, 0
    for case, got in zip(cases, out, strict=True):
        board = p.board_from_json(case["board"])
        want = _python_vs(p.irreparable(board, list(got["states"])))
        kinds.update(v["rule"] for v in want)
        if got["violations"] != want:
            mismatches.append({"case": case, "states": got["states"], "python": want,
                               "js": got["violations"]})
            continue
        if got["undecided"] == 0:
            finished += 1
            full = _python(p, case["board"], got["answer"])
            if full is not None:
                assert want == full, ("finished states: irreparable() differs from "
                                      f"violations(): {json.dumps(case)}")
        elif want:
            partial_hits += 1
    assert not mismatches, (f"{len(mismatches)} of {len(cases)} cases disagree; first: "
                            + json.dumps(mismatches[0], ensure_ascii=False))
    assert finished >= 50 and partial_hits >= 20, (finished, partial_hits)
    assert any(not got["violations"] for got in out)


def test_every_fixture_has_a_partial_check() -> None:
    assert set(FIXTURES) <= set(PARTIAL)
