"""Until the shared puzzle surface lands on main: Violation (with params), Rule and
RuleBook as the new ``solvers/common.py`` defines them. Goes away at the merge."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solvers.common import Cell

try:
    from solvers.common import Rule, RuleBook, Violation  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    @dataclass(frozen=True)
    class Violation:
        """One broken rule: a stable rule id, the cells involved, a message per language.

        ``params`` holds the named fields the rule's message template was filled with (row,
        column, the clue, a count ...); the in-browser checker computes the same fields and
        fills the same template, so the two can be compared word for word.
        """

        rule: str
        cells: tuple[Cell, ...]
        en: str
        ja: str
        params: Mapping[str, Any] = field(default_factory=dict, hash=False)

        def to_json(self) -> dict[str, Any]:
            return {"rule": self.rule, "cells": [list(c) for c in self.cells],
                    "en": self.en, "ja": self.ja, "params": dict(self.params)}

    @dataclass(frozen=True)
    class Rule:
        """One row of a puzzle's rules table.

        ``cells`` says (in English, for the docs) which cells a violation of this rule lists.
        ``en`` and ``ja`` are message templates: ``{name}`` fields are filled from the
        violation's params. These texts exist once: Python's ``violations()``, the play page's
        JavaScript checker and the docs all read them from here.
        """

        id: str
        cells: str
        en: str
        ja: str


    class RuleBook:
        """A puzzle's rules table, in the order violations are reported."""

        def __init__(self, rules: Sequence[Rule]) -> None:
            self.rules = tuple(rules)
            self.ids = tuple(r.id for r in self.rules)
            self._by_id = {r.id: r for r in self.rules}
            self._order = {rid: i for i, rid in enumerate(self.ids)}
            if len(self._by_id) != len(self.rules):
                raise ValueError("duplicate rule id in a rules table")

        def __iter__(self) -> Iterator[Rule]:
            return iter(self.rules)

        def __getitem__(self, rule_id: str) -> Rule:
            return self._by_id[rule_id]

        def make(self, rule_id: str, cells: Iterable[Cell], **params: Any) -> Violation:
            """A Violation of ``rule_id`` on ``cells`` (sorted), its messages filled in."""
            r = self._by_id[rule_id]
            return Violation(rule_id, tuple(sorted(cells)), r.en.format(**params),
                             r.ja.format(**params), params)

        def sort(self, vs: Iterable[Violation]) -> list[Violation]:
            """Violations in table order, then by cells (the order both checkers report)."""
            return sorted(vs, key=lambda v: (self._order[v.rule], v.cells))

        def to_json(self) -> list[dict[str, str]]:
            return [{"id": r.id, "cells": r.cells, "en": r.en, "ja": r.ja} for r in self.rules]
