"""Numbers with a source: the one way a figure reaches a page or a README.

Templates never see plain JSON. They see ``Node`` objects that remember the key path
they were read from (``<slug>/stats.census.3x4.unique``). A number is printed through the
``num`` filter, which writes the value, its key and its format next to the text, so that
``build-site check`` can recompute the text from the JSON. Digits that are vocabulary
(a board size labelling a table row, "the 2×2 rule") go through ``lit``. Printing a
numeric Node any other way is an error at build time.

In HTML the filters emit ``<data value=.. data-key=.. data-fmt=..>text</data>`` and
``<span class="lit">text</span>``. In plain text (README files) they emit invisible
sentinels that ``strip_marks`` turns into clean text plus a side table of offsets.

``lit`` cannot carry a figure: every numeral it prints must be in the site's one list of
the rules' vocabulary (``lit_vocabulary``: the numerals the puzzles' rules tables, play
texts and rung names use, the sides of every board size their stages name, the keys of
their JSON files, which are labels, and the interval's name in ``solvers.margins``); any
other numeral (``{{ "14,800" | lit }}``) fails the build naming the template and line.

``TypedDigits`` records, as the site is rendered, the template and line of every run of
digits typed into a template's own text (``typed_table``): the build stores it beside
the site, so that ``build-site check`` names the template and line that printed a number
without a source, not only the page.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Iterable, Iterator
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

from jinja2 import pass_context
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup, escape


class ProvenanceError(ValueError):
    """A template printed a number without a source, or asked for a key that is absent."""


class DataError(ProvenanceError):
    """A JSON value cannot be printed as the number a template asks for (null, a string,
    a boolean): the fault is in the JSON file, and the message names file and key."""


def source_of(path: str) -> str:
    """``slug/stage.a.b`` -> ``content/slug/stage.json, key a.b``."""
    root, _, key = path.partition(".")
    return f"content/{root}.json, key {key or '(top)'}"


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_FMT = re.compile(r"^(int|f[0-4]|pct[0-3]|x[0-3])$")


def format_value(value: Any, fmt: str | None = None) -> str:
    """The text a number is printed as. Shared by the renderer and the checker.

    ``int``: thousands separators (1,254,128). ``fN``: N decimals (3.84).
    ``pctN``: a fraction shown as a percentage with N decimals (0.728 -> 72.8%).
    ``xN``: N decimals followed by × (a ratio such as 1.37×).
    Every rounding is half up (0.0125 -> 1.3%), as the specs round.
    ``None`` prints as an em dash.
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        raise ProvenanceError(f"a boolean ({value}) is not a number to print")
    if not _is_number(value):
        raise ProvenanceError(f"{value!r} is not a number")
    if fmt is None:
        fmt = "int" if isinstance(value, int) else "f2"
    if not _FMT.match(fmt):
        raise ProvenanceError(f"unknown number format {fmt!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ProvenanceError(f"{value!r} is not a finite number")
    if fmt == "int":
        if isinstance(value, float) and value != int(value):
            raise ProvenanceError(f"{value!r} is not an integer; give a format such as f2")
        return f"{int(value):,}"
    digits = int(fmt[-1])
    if fmt.startswith("pct"):
        return f"{_half_up(value, digits, 2)}%"
    if fmt.startswith("x"):
        return f"{_half_up(value, digits)}×"
    return _half_up(value, digits)


def _half_up(value: float, digits: int, shift: int = 0) -> str:
    """``value`` × 10^shift to ``digits`` decimals, a tie rounded away from zero (half up,
    as the specs round: 5/400 = 1.25% prints 1.3%, not the 1.2% of Python's round-half-even
    float formatting). The tie is judged on the shortest decimal that reads back as the
    float (its repr), which is the number as the JSON file writes it."""
    d = Decimal(repr(float(value))).scaleb(shift)
    with localcontext() as ctx:
        # every digit of a large float kept (quantize refuses a result past the
        # context's 28 digits: 1e33 as a percentage raised InvalidOperation)
        ctx.prec = max(ctx.prec, d.adjusted() + digits + 2)
        q = d.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{q:,.{digits}f}"


def encode_value(value: Any) -> str:
    """The machine-readable form stored in ``<data value=...>``."""
    return json.dumps(value, separators=(",", ":"))


class Node:
    """A JSON value plus the key path it came from."""

    __slots__ = ("_path", "_value")

    def __init__(self, value: Any, path: str) -> None:
        self._value = value
        self._path = path

    # -- reading ---------------------------------------------------------------------
    def _child(self, key: Any) -> Node:
        v = self._value
        if isinstance(v, dict):
            if key not in v:
                raise ProvenanceError(f"no key {self._path}.{key} in the JSON "
                                      f"({source_of(f'{self._path}.{key}')})")
            return Node(v[key], f"{self._path}.{key}")
        if isinstance(v, list):
            try:
                i = int(key)
                return Node(v[i], f"{self._path}.{i if i >= 0 else len(v) + i}")
            except (ValueError, IndexError):
                raise ProvenanceError(f"no item {self._path}[{key}] in the JSON "
                                      f"({source_of(self._path)})") from None
        raise ProvenanceError(f"{self._path} is a {type(v).__name__}, it has no {key!r} "
                              f"({source_of(self._path)})")

    def __getattr__(self, name: str) -> Node:
        if name.startswith("__"):
            raise AttributeError(name)
        return self._child(name)

    def __getitem__(self, key: Any) -> Node:
        return self._child(key)

    def __contains__(self, key: Any) -> bool:
        return isinstance(self._value, dict) and key in self._value

    def __iter__(self) -> Iterator[Node]:
        v = self._value
        if isinstance(v, list):
            return (Node(x, f"{self._path}.{i}") for i, x in enumerate(v))
        if isinstance(v, dict):
            return iter([Node(k, f"{self._path}:key") for k in v])
        raise ProvenanceError(f"{self._path} is not a list")

    def __len__(self) -> int:
        return len(self._value)

    def items(self) -> list[tuple[str, Node]]:
        """(key, child) pairs of a JSON object, in file order."""
        if not isinstance(self._value, dict):
            raise ProvenanceError(f"{self._path} is not an object")
        return [(k, Node(x, f"{self._path}.{k}")) for k, x in self._value.items()]

    @property
    def v(self) -> Any:
        """The raw value, for logic (``if``, sorting, charts); never for printing."""
        return self._value

    @property
    def path(self) -> str:
        return self._path

    def __bool__(self) -> bool:
        return bool(self._value)

    def __eq__(self, other: object) -> bool:
        return self._value == (other._value if isinstance(other, Node) else other)

    def __hash__(self) -> int:
        return hash(self._path)

    # -- printing --------------------------------------------------------------------
    def __str__(self) -> str:
        v = self._value
        if isinstance(v, str):
            return v
        raise ProvenanceError(
            f"{self._path} = {v!r} printed without a filter: use |num (a measured figure) "
            "or |lit (vocabulary)")

    def __html__(self) -> str:
        return str(escape(str(self)))

    def __repr__(self) -> str:
        return f"Node({self._path}={self._value!r})"


# -- sentinels for plain text --------------------------------------------------------
_OPEN, _MID, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARK = re.compile(f"{_OPEN}([^{_MID}]*){_MID}([^{_CLOSE}]*){_CLOSE}")


# A numeral, as the check reads one (check.DIGIT); an OEIS sequence's name ("A052537",
# the letter and six digits) is a name, not a figure.
NUMERAL = re.compile(r"\d[\d,.]*")
_OEIS_NAME = re.compile(r"\bA\d{6}\b")


def numerals(text: str) -> list[str]:
    """The numerals in ``text`` (a trailing "." or "," is punctuation, not the number's)."""
    return [m.rstrip(".,") for m in NUMERAL.findall(_OEIS_NAME.sub(" ", text))]


def _json_keys(value: Any) -> Iterator[str]:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield from (str(k) for k in v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def lit_vocabulary(puzzles: Iterable[Any], root: Any = None) -> frozenset[str]:
    """The one list of numerals ``lit`` may print: the numerals of the puzzles' rules
    tables (every rule's id and both languages' messages), their play texts and rung
    names, the board sizes (``HxW``) their stages' parameters name, the keys of their JSON
    files under ``root``'s ``content/`` (a key labels a table row: a size, a clue count, a
    position; ``content_key_numerals``), and the interval's name of ``solvers.margins``
    (the theme's "95%"). The same list however many of the JSON files a render reads."""
    from solvers import margins

    puzzles = list(puzzles)
    words: list[str] = [margins.RATE_METHOD]
    for p in puzzles:
        for rule in p.rules:
            words += [rule.id, rule.en, rule.ja]
        play = getattr(p, "play", None)
        if play is not None:
            words.append(json.dumps(play.text, ensure_ascii=False))
        words += [p.rung_name(r, lang) for r in (*p.rungs, "search") for lang in ("en", "ja")]
        for stage in (*p.stages, *getattr(p, "on_request", ())):
            words += re.findall(r"\b\d+x\d+\b", json.dumps(stage.params))
    found = {n for w in words for n in numerals(w)}
    if root is not None:
        found |= content_key_numerals(root, [p.slug for p in puzzles])
    return frozenset(found)


_KEY_CACHE = "lit-keys.json"  # in the site's .cache/: path -> [size, mtime_ns, numerals]


def content_key_numerals(root: Any, slugs: list[str]) -> set[str]:
    """The numerals of the keys of every ``content/<slug>/*.json``, each file read only
    when it changed since the last call (``.cache/lit-keys.json`` keeps each file's
    numerals by size and mtime), so that a render that reads one puzzle's JSON does not
    read all of them for its vocabulary."""
    from pathlib import Path

    from site_builder.jsonio import read_json, write_atomic

    base = Path(root)
    cache_path = base / ".cache" / _KEY_CACHE
    try:
        cache = json.loads(cache_path.read_text(encoding="utf-8"))
        if not isinstance(cache, dict):
            cache = {}
    except (OSError, ValueError):
        cache = {}
    out: set[str] = set()
    fresh: dict[str, Any] = {}
    for slug in slugs:
        for f in sorted((base / "content" / slug).glob("*.json")):
            rel = f.relative_to(base).as_posix()
            st = f.stat()
            hit = cache.get(rel)
            if isinstance(hit, list) and len(hit) == 3 and hit[:2] == [st.st_size, st.st_mtime_ns]:
                nums = [str(n) for n in hit[2]]
            else:
                nums = sorted({n for k in _json_keys(read_json(f)) for n in numerals(k)})
            fresh[rel] = [st.st_size, st.st_mtime_ns, nums]
            out.update(nums)
    if fresh != {k: v for k, v in cache.items() if k in fresh}:
        from site_builder.errors import UserError

        with contextlib.suppress(UserError, OSError):  # read-only: read again next time
            write_atomic(cache_path, json.dumps({**cache, **fresh}, sort_keys=True))
    return out


def check_literal(text: str, vocabulary: frozenset[str] | None) -> None:
    """A ProvenanceError unless every numeral of ``text`` is in ``vocabulary``."""
    if vocabulary is None:
        return
    bad = [n for n in numerals(text) if n not in vocabulary]
    if bad:
        raise ProvenanceError(
            f"|lit got {text!r}: {bad[0]} is not a numeral of the rules' vocabulary (sizes, "
            "positions and counts the puzzles' rules, stages and JSON keys name); a "
            "measured figure goes through |num from its JSON")


class Filters:
    """The ``num`` and ``lit`` filters for one output mode (``html`` or ``text``).
    ``vocabulary``: the numerals ``lit`` takes (``lit_vocabulary``); None takes any (a
    page rendered without the site's puzzles)."""

    def __init__(self, mode: str, vocabulary: frozenset[str] | None = None,
                 samples: Any = None) -> None:
        if mode not in ("html", "text"):
            raise ValueError(mode)
        self.mode = mode
        self.vocabulary = vocabulary
        # the site's sampled values (``samples.expand``: key -> interval), or a callable that gives them
        # on first use: a sampled value printed in HTML carries the template line
        # that printed it, for the check's message
        self._samples = samples
        # a context filter is never folded into a template's compiled code, so every
        # call is checked against this site's vocabulary, with the template's line
        self.lit = pass_context(lambda context, value: self._lit(value))

    def num(self, node: Any, fmt: str | None = None, nullable: bool = False) -> Markup:
        """Print a JSON number. ``null`` is an error unless the template declares the
        figure ``nullable`` (then it prints as an em dash and the check accepts it)."""
        if not isinstance(node, Node):
            raise ProvenanceError(
                f"|num got {node!r}, which has no JSON source; numbers must come from JSON")
        if node.v is None and not nullable:
            raise DataError(f"{source_of(node.path)} is null where a number is printed "
                            "(declare it with | num(..., nullable=True) if a missing figure "
                            "is expected)")
        try:
            text = format_value(node.v, fmt)
        except ProvenanceError as e:
            if fmt is not None and _FMT.match(fmt) is None:
                raise
            raise DataError(f"{source_of(node.path)}: {e}") from None
        fmt_used = fmt or ("int" if isinstance(node.v, int) else "f2")
        if self.mode == "html":
            extra = ' data-nullable="1"' if nullable else ""
            if self._sampled(node.path):
                from site_builder.samples import template_line

                extra += f' data-at="{escape(template_line())}"'
            return Markup(
                f'<data value="{escape(encode_value(node.v))}" data-key="{escape(node.path)}"'
                f' data-fmt="{fmt_used}"{extra}>{escape(text)}</data>')
        info: dict[str, Any] = {"k": "num", "key": node.path, "value": node.v, "fmt": fmt_used}
        if nullable:
            info["nullable"] = True
        meta = json.dumps(info, ensure_ascii=False, separators=(",", ":"))
        return Markup(f"{_OPEN}{meta}{_MID}{text}{_CLOSE}")

    def samples(self) -> Any:
        """The site's sampled values (key -> the key of its interval), read on first use."""
        if self._samples is None:
            return {}
        if callable(self._samples):
            self._samples = self._samples()
        return self._samples

    def _sampled(self, key: str) -> bool:
        return key in self.samples()

    def _lit(self, value: Any) -> Markup:
        """Print vocabulary: a string from JSON (a label), or a numeral of the site's
        vocabulary (typed into the template, or a JSON number such as a size)."""
        if not (isinstance(value, Node) and isinstance(value.v, str)):
            try:
                check_literal(str(value.v if isinstance(value, Node) else value),
                              self.vocabulary)
            except ProvenanceError as e:
                if isinstance(value, Node):   # a JSON value: name the file and key at fault
                    raise ProvenanceError(f"{e} ({source_of(value._path)})") from None
                raise
        text = value.v if isinstance(value, Node) else value
        text = str(text)
        if self.mode == "html":
            return Markup(f'<span class="lit">{escape(text)}</span>')
        meta = json.dumps({"k": "lit"}, separators=(",", ":"))
        return Markup(f"{_OPEN}{meta}{_MID}{text}{_CLOSE}")


def strip_marks(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Remove text-mode sentinels; return clean text and the side table of entries."""
    out: list[str] = []
    table: list[dict[str, Any]] = []
    pos = 0
    length = 0
    for m in _MARK.finditer(text):
        chunk = text[pos:m.start()]
        out.append(chunk)
        length += len(chunk)
        meta = json.loads(m.group(1))
        shown = m.group(2)
        meta.update({"start": length, "text": shown})
        table.append(meta)
        out.append(shown)
        length += len(shown)
        pos = m.end()
    out.append(text[pos:])
    clean = "".join(out)
    if any(ch in clean for ch in (_OPEN, _MID, _CLOSE)):
        raise ProvenanceError("a number filter was nested inside another")
    return clean, table


def lookup(sources: dict[str, Any], key: str) -> Any:
    """Resolve ``slug/stage.a.b.0`` against ``{"slug/stage": data}``."""
    root, _, rest = key.partition(".")
    if root not in sources:
        raise KeyError(key)
    v = sources[root]
    if not rest:
        return v
    for part in rest.split("."):
        if isinstance(v, list):
            v = v[int(part)]
        elif isinstance(v, dict):
            v = v[part]
        else:
            raise KeyError(key)
    return v


# -- digits typed into a template's text ----------------------------------------------
# filename -> line -> the runs of digits that line of the template printed, over the
# renders since ``reset_typed`` (the build resets it before rendering the site)
_TYPED: dict[str, dict[int, set[str]]] = {}


def reset_typed() -> None:
    _TYPED.clear()


@pass_context  # a context filter is never folded at compile time: it runs, and records, at each render
def _typed(context: Any, text: str, filename: str, line: str) -> Markup:
    """The digits ``text`` as they are (Markup: never escaped, as template text is not),
    recorded against the template line that printed them."""
    _TYPED.setdefault(filename, {}).setdefault(int(line), set()).add(text)
    return Markup(text)


def typed_table(shown: Any = None) -> dict[str, list[str]]:
    """digit run -> ``template:line`` of each template text that printed it, since
    ``reset_typed``; ``shown`` maps a template's filename to the path an author reads."""
    out: dict[str, set[str]] = {}
    for filename, lines in _TYPED.items():
        where = shown(filename) if shown is not None else filename
        for line, runs in lines.items():
            for run in runs:
                out.setdefault(run, set()).add(f"{where}:{line}")
    return {k: sorted(v) for k, v in sorted(out.items())}


class TypedDigits(Extension):
    """Each run of digits in a template's own text is printed through ``_typed_digits``,
    which prints it unchanged and records the template and line (``typed_table``): the
    rendered bytes are the same, and the check can name where a number without a source
    was typed."""

    def __init__(self, environment: Any) -> None:
        super().__init__(environment)
        environment.filters["_typed_digits"] = _typed

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        filename = stream.filename or stream.name or "?"
        for token in stream:
            if token.type != "data" or not any(ch.isdigit() for ch in token.value):
                yield token
                continue
            line, pos = token.lineno, 0
            for m in NUMERAL.finditer(token.value):
                run = m.group(0).rstrip(".,")
                end = m.start() + len(run)
                if m.start() > pos:
                    yield Token(line, "data", token.value[pos:m.start()])
                at = line + token.value.count("\n", pos, m.start())
                yield Token(at, "variable_begin", "")
                yield Token(at, "string", run)
                yield Token(at, "pipe", "|")
                yield Token(at, "name", "_typed_digits")
                yield Token(at, "lparen", "(")
                yield Token(at, "string", filename)
                yield Token(at, "comma", ",")
                yield Token(at, "string", str(at))
                yield Token(at, "rparen", ")")
                yield Token(at, "variable_end", "")
                line, pos = at, end
            if pos < len(token.value):
                yield Token(line, "data", token.value[pos:])

