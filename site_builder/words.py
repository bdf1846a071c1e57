"""Counted words in both languages: what a computed sentence puts after a number.

English nouns take a plural past one ("1 cell", "2 cells", "0 cells"), and a verb that
agrees with a count changes with it ("1 board was", "3 boards were"). Japanese has no
plural, but its native counter つ reads only up to nine (ひとつ … ここのつ): printed after
numerals, "10つ" is wrong and 個 takes over; the other counters (個, 問, 枚, 通り, マス ...)
read at any count.

The filters take a JSON ``Node`` (or a plain int, for a count the template computed) and
return only the word; the number itself still goes through ``num``::

    {{ n | num }} {{ n | plural("cell") }}            1 cell, 2 cells
    {{ n | num }}{{ n | counter("つ") }}               3つ, 10個
    {{ n | num }} {{ n | plural("board") }} {{ n | plural("was", "were") }}

``plural_word`` and ``counter_word`` are the same rules for Python callers (the test
kit's typography lint reads "10つ" as a fault by the same rule).
"""

from __future__ import annotations

from typing import Any

# English plurals that do not add "s" (the words the articles count)
_IRREGULAR = {"was": "were", "is": "are", "has": "have", "does": "do", "this": "these",
              "that": "those", "it": "they", "its": "their", "puzzle": "puzzles"}
# the largest count the native Japanese counter つ reads (ここのつ); past it, 個
TSU_MAX = 9


def _count(n: Any) -> Any:
    v = getattr(n, "v", n)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"a count must be a number, not {v!r}")
    return v


def plural_word(n: float, singular: str, plural: str | None = None) -> str:
    """``singular`` for exactly one, else ``plural`` (by default the singular plus "s",
    "es" after s/x/ch/sh, or the irregular form)."""
    if n == 1:
        return singular
    if plural is not None:
        return plural
    if singular in _IRREGULAR:
        return _IRREGULAR[singular]
    if singular.endswith(("s", "x", "ch", "sh")):
        return singular + "es"
    if singular.endswith("y") and singular[-2:-1] not in "aeiou":
        return singular[:-1] + "ies"
    return singular + "s"


def counter_word(n: float, counter: str) -> str:
    """The Japanese counter after the numeral ``n``: つ only up to nine, 個 past it."""
    if counter == "つ" and (n > TSU_MAX or not float(n).is_integer()):
        return "個"
    return counter


def plural(n: Any, singular: str, plural: str | None = None) -> str:
    """Jinja filter: the English word for the count ``n`` (a Node or a number)."""
    return plural_word(_count(n), singular, plural)


def counter(n: Any, word: str) -> str:
    """Jinja filter: the Japanese counter for the count ``n`` (a Node or a number)."""
    return counter_word(_count(n), word)


FILTERS = {"plural": plural, "counter": counter}

__all__ = ["FILTERS", "TSU_MAX", "counter", "counter_word", "plural", "plural_word"]
