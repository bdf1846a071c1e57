"""Types shared by every puzzle package: the small surface the site builder talks to.

Nothing here does I/O. Each puzzle package (``solvers/<name>/``) exposes a module-level
``PUZZLE = Puzzle(...)`` object; ``solvers.registry`` collects them by slug.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Cell = tuple[int, int]
# progress(done, total, note): called by long stages; total may be 0 when unknown.
Progress = Callable[[int, int, str], None]


def no_progress(done: int, total: int, note: str = "") -> None:
    """A progress callback that ignores everything (for tests and library use)."""


class PuzzleError(ValueError):
    """Bad input a user can fix: a malformed URL, a corrupt board, a wrong size.

    The message names the field, character or position at fault.
    """


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable rule id, the cells involved, a message per language."""

    rule: str
    cells: tuple[Cell, ...]
    en: str
    ja: str

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "cells": [list(c) for c in self.cells],
                "en": self.en, "ja": self.ja}


@dataclass
class SolveResult:
    """What ``solve`` and ``brute`` return.

    ``solutions`` holds up to ``limit`` answers. ``rung`` names the lowest rung that
    completed the board (``None`` when the chosen level could not finish it).
    ``fixed`` lists, for a level below search, the cells that level decided.
    """

    solutions: list[Any]
    nodes: int = 0
    rung: str | None = None
    fixed: list[Cell] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Stage:
    """One pipeline stage of a puzzle.

    ``run(inputs, params, progress)`` returns a JSON-able dict; ``inputs`` maps each name
    in ``deps`` to that stage's data (the ``data`` part of its JSON file). It must be a
    pure function of inputs and params: same inputs, byte-identical output.
    """

    name: str
    run: Callable[[Mapping[str, Any], Mapping[str, Any], Progress], dict[str, Any]]
    params: Mapping[str, Any]
    deps: tuple[str, ...] = ()


@dataclass(frozen=True)
class Puzzle:
    """The whole surface of one puzzle, as seen by the site builder."""

    slug: str
    names: Mapping[str, str]          # {"en": "Canal View", "ja": "カナルビュー"}
    pid: str                          # puzz.link pid
    package_dir: Path                 # for the code hash
    rungs: tuple[str, ...]
    board_from_json: Callable[[Any], Any]
    answer_from_json: Callable[[Any], Any]
    decode: Callable[[str], Any]       # puzz.link URL -> Board (raises PuzzleError)
    encode: Callable[[Any], str]       # Board -> puzz.link URL
    violations: Callable[[Any, Any], list[Violation]]
    solve: Callable[..., SolveResult]  # solve(board, level=None, limit=2)
    brute: Callable[..., SolveResult]  # brute(board, limit=2)
    answer_rows: Callable[[Any], Any]  # answer -> rows of text (or pieces) for --json
    render_board: Callable[[Any, Any], str]  # (board, answer|None) -> text for the terminal
    stages: tuple[Stage, ...]
    brute_max_cells: int = 36          # verify uses the second engine up to this size

    def code_hash(self) -> str:
        """Hash of the puzzle package's source plus the shared modules beside it."""
        h = hashlib.sha256()
        shared = sorted(p for p in Path(__file__).parent.glob("*.py") if p.name != "registry.py")
        files = sorted(self.package_dir.rglob("*.py")) + shared
        for f in files:
            h.update(f.name.encode())
            h.update(f.read_bytes())
        return h.hexdigest()[:16]
