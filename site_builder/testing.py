"""The site's standard as tests: what holds the built-in puzzles to it, for any puzzle
package to run from its own ``pytest`` (``pip install -e '.[test]'`` brings pytest and
the rest).

Each check is a plain function that raises ``AssertionError`` with a message naming what
is wrong, so a package's test file is a few lines::

    from site_builder import testing

    def test_js_checker(tmp_path):
        testing.check_js_checker("my-puzzle", tmp_path)

    def test_engines():
        testing.check_engines_agree("my-puzzle")

    ...

or ``testing.check_all("my-puzzle", tmp_path)`` for every check at once.

* ``check_js_checker``: the play page's checker (``static/play/<slug>.js``, run by node
  as the page runs it) reports exactly what ``rules.py`` reports, word for word, on
  random play states and near-solutions of the bank's boards, and on partial states
  what ``partial.py`` reports; every rule of the table is reached (``unreached`` names
  the ones the page cannot reach).
* ``check_engines_agree``: the ladder and the second engine find the same answers on the
  bank's boards (those with at most ``max_cells`` cells).
* ``check_bank_confirmed``: every banked board confirmed unique by a second method (the
  confirm stage, or the bank's own ``confirmed_by_*`` count).
* ``check_parity``: each article's English and Japanese render to the same structure:
  headings, tables, table rows, list items, charts, board pictures.
* ``check_typography``: the Japanese pages lint clean (``typography_problems``).
* ``check_sampled_intervals``: no sampled value printed without its interval
  (``site_builder.samples``), the rule ``build-site check`` applies to a built site.
* ``check_templates``: no block tag at the end of a line of prose eats the paragraph
  break after it (the site renders with ``trim_blocks``).

The rendering checks render the site in memory from its committed JSON (no stage runs),
found from ``root`` (default: the folder holding ``site.toml`` above the current one).
"""

from __future__ import annotations

import functools
import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from site_builder.tables import join_bands
from site_builder.words import TSU_MAX

RUNNER = Path(__file__).parent / "testing_js" / "run_checker.mjs"
THEME_PLAY = Path(__file__).parent / "theme" / "static" / "play"


# ---- where the site is --------------------------------------------------------------------

def site_root(start: Path | None = None) -> Path:
    """The nearest folder at or above ``start`` (default: the current one) holding a
    ``site.toml``."""
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "site.toml").exists():
            return d
    raise AssertionError(f"no site.toml at or above {here}: run the tests inside a site")


def _puzzle(slug_or_puzzle: Any) -> Any:
    if isinstance(slug_or_puzzle, str):
        from solvers import registry

        return registry.get(slug_or_puzzle)
    return slug_or_puzzle


def stage_data(slug: str, stage: str, root: Path | None = None) -> dict[str, Any]:
    """The ``data`` of a committed stage file, ``content/<slug>/<stage>.json``."""
    path = (root or site_root()) / "content" / slug / f"{stage}.json"
    if not path.exists():
        raise AssertionError(f"{path}: missing; run `build-site build --only {slug}`")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["data"]
    return data


# ---- the play page's checker against rules.py and partial.py ------------------------------

def units(model: str, board: dict[str, Any], outline: bool = False) -> int:
    """Cells, or edges (with the board's outline where the input says ``outline``)."""
    h, w = board["h"], board["w"]
    if model == "edges":
        return h * (w + 1) + (h + 1) * w if outline else h * (w - 1) + (h - 1) * w
    return h * w


def _sample(rng_key: str, puzzle: Any, boards: Sequence[dict[str, Any]], n_boards: int,
            total: int) -> tuple[random.Random, Any, int, list[dict[str, Any]], int]:
    rng = random.Random(rng_key)
    spec = puzzle.play
    chosen = rng.sample(list(boards), min(n_boards, len(boards)))
    return rng, spec, len(spec.input["states"]["en"]), chosen, -(-total // len(chosen))


def page_cases(puzzle: Any, boards: Sequence[dict[str, Any]], seed: int = 20261130,
               n_boards: int = 40, total: int = 1200) -> list[dict[str, Any]]:
    """Player states on bank boards (``{"board", "answer"}`` entries): random ones, and
    the answer with a few units changed."""
    rng, spec, n_states, chosen, per_board = _sample(f"{puzzle.slug}:{seed}", puzzle, boards,
                                                     n_boards, total)
    cases = []
    for b in chosen:
        n = units(spec.model, b["board"], spec.input.get("outline", False))
        for k in range(per_board):
            if k % 3 == 0:
                weights = [rng.random() for _ in range(n_states)]
                cases.append({"board": b["board"], "states": rng.choices(
                    range(n_states), weights=weights, k=n)})
            else:
                flips = [[rng.randrange(n), rng.randrange(n_states)]
                         for _ in range(rng.choice((0, 1, 1, 2, 3)))]
                cases.append({"board": b["board"], "answer": b["answer"], "flips": flips})
    return cases


def irreparable_cases(puzzle: Any, boards: Sequence[dict[str, Any]], seed: int = 20261130,
                      n_boards: int = 30, total: int = 900) -> list[dict[str, Any]]:
    """Partial and finished player states on bank boards, for the checker's irreparable
    mode: the answer with a random part made undecided and a few units changed, the answer
    with a few changes and nothing undecided, and random states."""
    rng, spec, n_states, chosen, per_board = _sample(f"{puzzle.slug}:irreparable:{seed}",
                                                     puzzle, boards, n_boards, total)
    cases = []
    for b in chosen:
        n = units(spec.model, b["board"], spec.input.get("outline", False))
        for k in range(per_board):
            kind = k % 4
            flips = [[rng.randrange(n), rng.randrange(1, n_states)]
                     for _ in range(rng.choice((0, 1, 1, 2, 3)))]
            case: dict[str, Any] = {"board": b["board"], "irreparable": True}
            if kind == 3:
                weights = [rng.random() for _ in range(n_states)]
                if k % 8 == 3:
                    weights[0] = 0.0             # nothing undecided
                case["states"] = rng.choices(range(n_states), weights=weights, k=n)
            else:
                case |= {"answer": b["answer"], "flips": flips}
                if kind != 2:                    # kind 2: finished (only the flips)
                    p = rng.random()
                    case["clear"] = [i for i in range(n) if rng.random() < p]
            cases.append(case)
    return cases


def run_checker(puzzle: Any, cases: list[dict[str, Any]], tmp: Path,
                fills: list[Any] | None = None, digits: bool = False,
                modules: Iterable[Path] = ()) -> dict[str, Any]:
    """Run the puzzle's play-page checker over ``cases`` under node, as the page runs it
    (see ``testing_js/run_checker.mjs`` for the cases' forms and the output).
    ``modules``: the checker's own JS files when they are not in the package's
    ``static/play/``."""
    node = shutil.which("node")
    if node is None:
        raise AssertionError("node is not installed: the play checker runs under node")
    lib = tmp / "play"
    lib.mkdir(exist_ok=True, parents=True)
    for f in THEME_PLAY.glob("*.js"):
        shutil.copy(f, lib / f.name)
    own = list(modules) or list((puzzle.package_dir / "static" / "play").glob("*.js"))
    for f in own:
        shutil.copy(f, lib / f.name)
    (lib / "package.json").write_text('{"type": "module"}\n')
    path = tmp / f"{puzzle.slug}-batch.json"
    path.write_text(json.dumps({"model": puzzle.play.model, "input": puzzle.play.input,
                                "rules": puzzle.rules.to_json(), "cases": cases,
                                "fills": fills or [], "digits": digits}))
    res = subprocess.run([node, str(RUNNER), str(lib / f"{puzzle.slug}.js"), str(path)],
                         capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode == 0, res.stderr
    out: dict[str, Any] = json.loads(res.stdout)
    return out


def python_violations(puzzle: Any, board: dict[str, Any],
                      answer: Any) -> list[dict[str, Any]] | None:
    """``rules.py``'s violations as the runner prints them; None if Python refuses the
    answer."""
    from solvers.common import PuzzleError

    try:
        a = puzzle.answer_from_json(answer)
    except PuzzleError:
        return None
    return _as_json(puzzle.violations(puzzle.board_from_json(board), a))


def _as_json(vs: Iterable[Any]) -> list[dict[str, Any]]:
    return [{"rule": v.rule, "cells": [list(c) for c in v.cells],
             "params": json.loads(json.dumps(dict(v.params))), "en": v.en, "ja": v.ja}
            for v in vs]


def check_js_checker(slug_or_puzzle: Any, tmp: Path, *, boards: Sequence[dict[str, Any]]
                     | None = None, extra_cases: Sequence[dict[str, Any]] = (),
                     unreached: Iterable[str] = (), modules: Iterable[Path] = (),
                     min_cases: int = 1000, root: Path | None = None) -> set[str]:
    """The play checker agrees with ``rules.py`` on every case (random play states and
    near-solutions of the bank's boards, plus ``extra_cases``), and with ``partial.py``
    on partial states; every rule of the table but ``unreached`` is reached, and some
    case is clean. Returns the rules reached."""
    p = _puzzle(slug_or_puzzle)
    if boards is None:
        boards = stage_data(p.slug, "bank", root)["boards"]
    cases = list(extra_cases) + page_cases(p, boards)
    assert len(cases) >= min_cases, f"only {len(cases)} cases"
    modules = list(modules)
    out = run_checker(p, cases, tmp, modules=modules)["cases"]
    assert len(out) == len(cases)
    kinds: set[str] = set()
    mismatches, refused = [], 0
    for case, got in zip(cases, out, strict=True):
        want = python_violations(p, case["board"], got["answer"])
        if want is None:
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
    assert len(cases) - refused >= min_cases, (len(cases), refused)
    assert any(not got["violations"] for got in out), "no case is clean"
    if p.irreparable is not None:
        kinds |= check_partial_checker(p, tmp, boards=boards, modules=modules)
    missing = set(p.rules.ids) - set(unreached) - kinds
    assert kinds <= set(p.rules.ids) and not missing, f"rules no case reached: {missing}"
    return kinds


def check_partial_checker(slug_or_puzzle: Any, tmp: Path, *,
                          boards: Sequence[dict[str, Any]] | None = None,
                          modules: Iterable[Path] = (), root: Path | None = None) -> set[str]:
    """The checker's ``irreparable`` and ``partial.py`` report the same violations on
    partial states; on finished states both equal ``rules.py``'s. Returns the rules
    reached."""
    p = _puzzle(slug_or_puzzle)
    if boards is None:
        boards = stage_data(p.slug, "bank", root)["boards"]
    cases = irreparable_cases(p, boards)
    out = run_checker(p, cases, tmp, modules=modules)["cases"]
    assert len(out) == len(cases)
    kinds: set[str] = set()
    mismatches, finished, partial_hits = [], 0, 0
    for case, got in zip(cases, out, strict=True):
        board = p.board_from_json(case["board"])
        want = _as_json(p.irreparable(board, list(got["states"])))
        kinds.update(v["rule"] for v in want)
        if got["violations"] != want:
            mismatches.append({"case": case, "states": got["states"], "python": want,
                               "js": got["violations"]})
            continue
        if got["undecided"] == 0:
            finished += 1
            full = python_violations(p, case["board"], got["answer"])
            if full is not None:
                assert want == full, ("finished states: irreparable() differs from "
                                      f"violations(): {json.dumps(case)}")
        elif want:
            partial_hits += 1
    assert not mismatches, (f"{len(mismatches)} of {len(cases)} cases disagree; first: "
                            + json.dumps(mismatches[0], ensure_ascii=False))
    assert finished >= 50 and partial_hits >= 20, (finished, partial_hits)
    return kinds


# ---- engines and the bank -----------------------------------------------------------------

def check_engines_agree(slug_or_puzzle: Any, *, max_cells: int = 36, limit: int = 2,
                        boards: Sequence[dict[str, Any]] | None = None,
                        root: Path | None = None) -> int:
    """The ladder (``solve``) and the second engine (``brute``) return the same answers
    on every bank board of at most ``max_cells`` cells (at least one); returns how many
    boards were compared."""
    p = _puzzle(slug_or_puzzle)
    compared = 0
    if boards is None:
        boards = stage_data(p.slug, "bank", root)["boards"]
    for b in boards:
        if b["board"]["h"] * b["board"]["w"] > max_cells:
            continue
        board = p.board_from_json(b["board"])
        one = p.solve(board, limit=limit).solutions
        two = p.brute(board, limit=limit).solutions
        assert sorted(map(repr, one)) == sorted(map(repr, two)), (
            f"{p.slug} board {b['id']}: the ladder and the second engine disagree")
        assert len(one) == 1 and one[0] == p.answer_from_json(b["answer"]), (
            f"{p.slug} board {b['id']}: not the banked answer alone")
        compared += 1
    assert compared, f"{p.slug}: no bank board has at most {max_cells} cells to compare"
    return compared


def check_bank_confirmed(slug_or_puzzle: Any, root: Path | None = None) -> int:
    """Every banked board is confirmed unique by a method other than the ladder: the
    confirm stage's ``independent`` count (or the bank's own ``confirmed_by_*``) equals
    the number of boards. Returns that number."""
    p = _puzzle(slug_or_puzzle)
    bank = stage_data(p.slug, "bank", root)
    n = len(bank["boards"])
    if "confirm" in p.stage_names:
        c = stage_data(p.slug, "confirm", root)
        assert c.get("all") is True, f"{p.slug}: the confirm stage did not confirm every board"
        assert c["total"] == n == c["independent"], (
            f"{p.slug}: {c['independent']} of {n} boards confirmed by a second method")
        return n
    own = [v for k, v in bank.items() if k.startswith("confirmed_by_")]
    assert own and all(v == n for v in own), (
        f"{p.slug}: no second method confirmed all {n} banked boards (no confirm stage, "
        "no confirmed_by_* count equal to the bank)")
    return n


# ---- rendered articles --------------------------------------------------------------------

@functools.cache
def _render(root: Path) -> dict[str, str | bytes]:
    from site_builder.build import render_all

    return render_all(root)


def rendered(root: Path | None = None) -> dict[str, str | bytes]:
    """Every output file of the site, rendered in memory from the committed JSON."""
    return _render(root or site_root())


def article_html(slug: str, lang: str, root: Path | None = None) -> str:
    page = rendered(root)[f"{lang}/{slug}/index.html"]
    assert isinstance(page, str)
    return page.split('<article class="article">', 1)[1].split("</article>", 1)[0]


STRUCTURE = {
    "headings": re.compile(r"<h[1-6]\b"),
    "tables": re.compile(r"<table\b"),
    "table rows": re.compile(r"<tr\b"),
    "list items": re.compile(r"<li\b"),
    "charts": re.compile(r'<figure class="chart"'),
    "board pictures": re.compile(r"<svg data-src="),
}


def structure(html: str) -> dict[str, int]:
    """How many headings, tables, table rows (the rows of the table as written, not the
    bands a wide one is shown in), list items, charts and board pictures."""
    html = join_bands(html)    # where a wide table splits depends on the language's words
    return {name: len(rx.findall(html)) for name, rx in STRUCTURE.items()}


def check_parity(slug: str, langs: Sequence[str] = ("en", "ja"),
                 root: Path | None = None) -> dict[str, dict[str, int]]:
    """The article renders to the same structure in every language; returns the counts."""
    got = {lang: structure(article_html(slug, lang, root)) for lang in langs}
    first = got[langs[0]]
    for lang in langs[1:]:
        diff = {k: (first[k], got[lang][k]) for k in first if first[k] != got[lang][k]}
        assert not diff, f"{slug}: {langs[0]} and {lang} differ in structure: {diff}"
    return got


# ---- Japanese typography ------------------------------------------------------------------

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e"
TYPO = [
    (re.compile(r"(?<=\d)[xX*](?=\d)"), "a board size or product written with x: use ×"),
    (re.compile("\u301c"), "〜 (U+301C): use ～ (U+FF5E)"),
    (re.compile(r"ブラウザ(?!ー)"), "ブラウザ: write ブラウザー"),
    (re.compile(rf"(?<=[{CJK}]):|:(?=[{CJK}])"), "a half-width colon in Japanese text: use ："),
    (re.compile(r"(?<![\d,.])(\d{2,}|[1-9]\d*\.\d+)つ"),
     f"つ counts only to {TSU_MAX}: use 個 (the counter filter)"),
    (re.compile(r"\s―\s"), "a title separated by ―: use ："),
    (re.compile(r"。-\s"), ("a list item run into the sentence before it (a block tag "
                           "ate the newline)")),
]


def visible_text(html: str) -> str:
    html = re.sub(r"<(svg|script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    html = re.sub(r"<(code|pre)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return re.sub(r"<[^>]+>", "", html)


def typography_problems(text: str) -> list[str]:
    """Where Japanese text breaks the site's typography: × for sizes, ～ for ranges,
    ブラウザー, a full-width colon, counters that read right past nine, ： in titles."""
    return [f"{why}: …{text[max(0, m.start() - 20):m.end() + 20]}…"
            for rx, why in TYPO for m in rx.finditer(text)]


def check_typography(slug: str | None = None, root: Path | None = None) -> int:
    """Every Japanese page of ``slug`` (or of the whole site) lints clean; returns how
    many pages were read."""
    problems, pages = [], 0
    for name, page in rendered(root).items():
        if not (name.startswith("ja/") and name.endswith(".html") and isinstance(page, str)):
            continue
        if slug is not None and not name.startswith(f"ja/{slug}/"):
            continue
        pages += 1
        problems += [f"{name}: {p}" for p in typography_problems(visible_text(page))]
    assert pages, f"no Japanese page of {slug or 'the site'}"
    assert not problems, "\n".join(problems[:20])
    return pages


# ---- templates ---------------------------------------------------------------------------

_TAG = re.compile(r"\{%-?\s*(\w+)[^%]*%\}$")


def template_problems(path: Path) -> list[str]:
    """Lines of a template that lose a paragraph break: the site renders with
    ``trim_blocks``, so a block tag at the end of a line of prose eats that line's
    newline, and a blank line after it no longer separates two paragraphs (nor a list
    from the sentence before it). Such a tag must end with ``+%}``."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out = []
    for i, line in enumerate(lines[:-1]):
        m = _TAG.search(line)
        if not m or line.endswith("+%}") or lines[i + 1].strip():
            continue
        if m.group(1) in ("endmacro", "endset", "set", "macro", "import", "from"):
            continue
        prose = re.sub(r"\{%.*?%\}|\{\{.*?\}\}|\{#.*?#\}", "", line).strip()
        if prose and not prose.startswith("|"):
            out.append(f"{path}:{i + 1}: a block tag ends a line of prose before a blank "
                       "line and eats its newline (the paragraphs run together): end it "
                       "with +%}")
    return out


def check_templates(slug_or_puzzle: Any) -> int:
    """The puzzle's templates keep their paragraph breaks (``template_problems``);
    returns how many templates were read."""
    p = _puzzle(slug_or_puzzle)
    paths = sorted((p.package_dir / "templates").glob("*.j2"))
    problems = [x for path in paths for x in template_problems(path)]
    assert paths, f"{p.slug}: no templates"
    assert not problems, "\n".join(problems)
    return len(paths)


# ---- sampled values -----------------------------------------------------------------------

def check_sampled_intervals(slug: str | None = None, root: Path | None = None) -> int:
    """No page (of ``slug``, or of the site) prints a sampled value without its interval
    beside it. Returns how many sampled values were printed."""
    from site_builder.check import _PageScan
    from site_builder.jsonio import load_stages
    from site_builder.samples import check_page, declared, expand
    from solvers import registry

    root = root or site_root()
    puzzles = [registry.get(s) for s in registry.slugs()]
    sources: dict[str, Any] = {}
    for p in puzzles:
        sources.update(load_stages(root, p))
    table = expand(declared(sources, puzzles), sources)
    problems, seen = [], 0
    for name, page in rendered(root).items():
        if not (name.endswith(".html") and isinstance(page, str)):
            continue
        if slug is not None and f"/{slug}/" not in f"/{name}":
            continue
        scan = _PageScan()
        scan.feed(page)
        scan.close()
        seen += sum(1 for d in scan.data if (d["key"] or "") in table)
        problems += check_page(name, scan.data, table)
    assert not problems, "\n".join(problems[:20])
    return seen


# ---- all of it ----------------------------------------------------------------------------

def check_all(slug: str, tmp: Path, *, unreached: Iterable[str] = (),
              max_cells: int = 36, root: Path | None = None) -> dict[str, Any]:
    """Every check of the kit for one puzzle; returns what each measured."""
    return {
        "rules reached": check_js_checker(slug, tmp, unreached=unreached, root=root),
        "engines compared": check_engines_agree(slug, max_cells=max_cells, root=root),
        "bank confirmed": check_bank_confirmed(slug, root=root),
        "parity": check_parity(slug, root=root),
        "typography": check_typography(slug, root=root),
        "templates": check_templates(slug),
        "sampled values": check_sampled_intervals(slug, root=root),
    }


__all__ = ["check_all", "check_bank_confirmed", "check_engines_agree", "check_js_checker",
           "check_parity", "check_partial_checker", "check_sampled_intervals", "check_templates",
           "check_typography", "irreparable_cases", "page_cases", "python_violations",
           "rendered", "run_checker", "site_root", "structure", "template_problems",
           "typography_problems",
           "units"]
