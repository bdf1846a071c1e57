"""Every registered puzzle has the same shape: one file per role, each defining what the
role table (``solvers.common.ROLES``) asks of it, and a Puzzle with every field set."""

from __future__ import annotations

import ast
import importlib
import inspect
import random
import string
from pathlib import Path
from typing import Any

import pytest

import solvers
from solvers import registry
from solvers.common import ROLES, VIEW_ROLES, VIEW_SHARED, Puzzle

SLUGS = registry.slugs()
# the solve page's editing helpers, loaded by site_builder/solve_web.py on demand
ALL_ROLES = {**ROLES, "construct": ("EDIT", "clues", "without", "clue_from", "differ")}


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("role", sorted(ALL_ROLES))
def test_every_role_has_its_file(slug: str, role: str) -> None:
    package = registry.package(slug)
    path = registry.get(slug).package_dir / f"{role}.py"
    assert path.is_file(), f"{slug} has no {role}.py ({package})"
    module = importlib.import_module(f"{package}.{role}")
    missing = [name for name in ALL_ROLES[role] if not hasattr(module, name)]
    assert not missing, f"{package}.{role} lacks {missing}"


@pytest.mark.parametrize("slug", SLUGS)
def test_puzzle_is_built_from_its_roles(slug: str) -> None:
    puzzle = registry.get(slug)
    for name, default in Puzzle.FIELDS:
        value = getattr(puzzle, name)
        if default is Puzzle.REQUIRED:
            assert value is not None and value != (), f"{slug}: Puzzle.{name} is empty"
    package = registry.package(slug)
    assert puzzle.solve is importlib.import_module(f"{package}.ladder").solve
    assert puzzle.brute is importlib.import_module(f"{package}.brute").brute
    assert puzzle.stages is importlib.import_module(f"{package}.stages").STAGES
    assert puzzle.irreparable is not None


@pytest.mark.parametrize("slug", SLUGS)
def test_generate_has_one_signature(slug: str) -> None:
    """generate(h, w, rng, **options) -> (Board, Answer), the board unique with that answer."""
    package = registry.package(slug)
    params = list(inspect.signature(importlib.import_module(f"{package}.generate").generate)
                  .parameters)
    assert params[:3] == ["h", "w", "rng"], f"{slug}: generate{tuple(params)}"
    puzzle = registry.get(slug)
    board, answer = puzzle.generate(5, 5, random.Random(7))
    res = puzzle.solve(board, limit=2)
    assert [puzzle.answer_rows(a) for a in res.solutions] == [puzzle.answer_rows(answer)]
    assert puzzle.trace(board, answer), f"{slug}: empty hint trace"


def test_second_engine_shares_no_code_with_the_ladder() -> None:
    """brute.py, and sat.py (the independent SAT encoding) where a puzzle has one, import
    none of the ladder's modules (nor each other, nor the ladder's pure-Python SAT
    stand-in)."""
    for slug in SLUGS:
        package = registry.package(slug)
        for name in ("brute", "sat"):
            path = registry.get(slug).package_dir / f"{name}.py"
            if not path.is_file():
                assert name != "brute", f"{slug} has no brute.py"
                continue
            text = path.read_text()
            for other in ("ladder", "hints", "search", "residual", "fit", "learn",
                          "partial", "brute" if name == "sat" else "sat"):
                assert f".{other} import" not in text and f"{package}.{other}" not in text, \
                    f"{slug}: {name}.py imports {other}"


def _imports(path: Path) -> set[str]:
    """The modules ``path`` imports, relative imports resolved against its package."""
    package = f"solvers.{path.parent.name}"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = f"{package}." * (node.level == 1) + (node.module or "")
            out.add(base.rstrip("."))
            out.update(f"{base.rstrip('.')}.{a.name}" for a in node.names)
    return out


@pytest.mark.parametrize("slug", SLUGS)
def test_view_files_are_outside_what_stages_run(slug: str) -> None:
    """The code hash leaves out the view-only roles and shared modules, which is sound only
    while nothing a stage can run imports them: only the package's ``__init__`` (which
    builds the Puzzle) and the view files themselves may."""
    package = registry.package(slug)
    view = {f"{package}.{r}" for r in VIEW_ROLES} | {
        f"solvers.{name.removesuffix('.py')}" for name in VIEW_SHARED}
    shared = [p for p in Path(solvers.__file__).parent.glob("*.py")
              if p.name not in VIEW_SHARED]
    for path in [*registry.get(slug).package_dir.glob("*.py"), *shared]:
        if path.stem in VIEW_ROLES or path.name == "__init__.py":
            continue
        bad = _imports(path) & view
        assert not bad, f"{path} imports view-only {sorted(bad)}: its changes would not " \
                        "re-run the stages"


def _rule_row(rule: Any) -> str:
    params = sorted({f for _, f, _, _ in string.Formatter().parse(rule.en) if f})
    en = rule.en.replace("|", "\\|")
    return f"| `{rule.id}` | {rule.cells} | {', '.join(params) or '—'} | {en} |"


def test_architecture_lists_every_rule_as_the_code_has_it() -> None:
    doc = (Path(solvers.__file__).parent.parent / "docs" / "ARCHITECTURE.md").read_text()
    rows = [_rule_row(r) for slug in SLUGS for r in registry.get(slug).rules]
    missing = [row for row in rows if row not in doc.splitlines()]
    assert not missing, "docs/ARCHITECTURE.md's rules tables differ from the code; " \
                        "the rows as the code has them:\n" + "\n".join(missing)
