"""Types shared by every puzzle package: the small surface the site builder talks to.

Nothing here does I/O. Each puzzle package (``solvers/<name>/``) exposes a module-level
``PUZZLE = Puzzle(...)`` object; ``solvers.registry`` collects them by slug.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager  # typing imports it anyway
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from pathlib import Path

Cell = tuple[int, int]
# progress(done, total, note): called by long stages; total may be 0 when unknown.
Progress = Callable[[int, int, str], None]


def no_progress(done: int, total: int, note: str = "") -> None:
    """A progress callback that ignores everything (for tests and library use)."""


# The largest board any input path (URL or JSON) accepts: 100×100.
MAX_CELLS = 10_000


class BudgetExceeded(Exception):
    """A solve stopped at its node or time limit; says how far it got."""

    def __init__(self, reason: str, nodes: int, seconds: float) -> None:
        self.reason, self.nodes, self.seconds = reason, nodes, seconds
        super().__init__(f"{reason} after {nodes:,} search nodes in {seconds:.1f} s")


class Budget:
    """Limits on one solve: search nodes and wall time, with a progress callback.

    Searches call ``solvers.common.node()`` once per node; while a Budget is active (see
    ``active``) that counts the node, raises BudgetExceeded past a limit, and about once
    a second reports ``progress(nodes, seconds)``.
    """

    def __init__(self, max_nodes: int | None = None, timeout: float | None = None,
                 progress: Callable[[int, float], None] | None = None) -> None:
        self.max_nodes, self.timeout, self.progress = max_nodes, timeout, progress
        self.nodes = 0
        self.start = time.monotonic()
        self._next_report = self.start + 1.0

    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise BudgetExceeded(f"node limit of {self.max_nodes:,} reached", self.nodes - 1,
                                 self.elapsed())
        if self.nodes & 255 == 0:
            now = time.monotonic()
            if self.timeout is not None and now - self.start > self.timeout:
                raise BudgetExceeded(f"time limit of {self.timeout:g} s reached", self.nodes,
                                     now - self.start)
            if self.progress is not None and now >= self._next_report:
                self._next_report = now + 1.0
                self.progress(self.nodes, now - self.start)


_budget: Budget | None = None


def node() -> None:
    """Count one search node against the active Budget, if any (searches call this)."""
    if _budget is not None:
        _budget.tick()


@contextmanager
def active(budget: Budget) -> Iterator[Budget]:
    """Make ``budget`` the one ``node()`` counts against, for the duration of a solve."""
    global _budget
    previous, _budget = _budget, budget
    try:
        yield budget
    finally:
        _budget = previous


class PuzzleError(ValueError):
    """Bad input a user can fix: a malformed URL, a corrupt board, a wrong size.

    The message names the field, character or position at fault.
    """


class Record:
    """What ``@dataclass`` writes for a small record (``__init__`` aside): equality and
    ``repr`` over ``_fields``, and pickling (``Frozen``: no assignment either). Written out
    because ``@dataclass`` compiles those methods anew in every process, about a
    millisecond a class: a sizeable part of a `build-site solve` (issue 24)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields)
        return f"{type(self).__qualname__}({inner})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._values())

    def replace(self, **changes: Any) -> Any:
        """A copy with the named fields changed (what ``dataclasses.replace`` did)."""
        return type(self)(**{**dict(zip(self._fields, self._values(), strict=True)), **changes})


class Frozen(Record):
    """A ``Record`` whose fields cannot be assigned after ``__init__``, hashed as
    ``@dataclass(frozen=True)`` hashes: the tuple of its fields."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values())

    def __setattr__(self, name: str, value: Any) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")


class Violation(Frozen):
    """One broken rule: a stable rule id, the cells involved, a message per language.

    ``params`` holds the named fields the rule's message template was filled with (row,
    column, the clue, a count ...); the in-browser checker computes the same fields and
    fills the same template, so the two can be compared word for word.
    """

    __slots__ = ("cells", "en", "ja", "params", "rule")
    _fields = ("rule", "cells", "en", "ja", "params")
    rule: str
    cells: tuple[Cell, ...]
    en: str
    ja: str
    params: Mapping[str, Any]

    def __init__(self, rule: str, cells: tuple[Cell, ...], en: str, ja: str,
                 params: Mapping[str, Any] | None = None) -> None:
        init = object.__setattr__
        init(self, "rule", rule)
        init(self, "cells", cells)
        init(self, "en", en)
        init(self, "ja", ja)
        init(self, "params", {} if params is None else params)

    def __hash__(self) -> int:  # params left out, as before
        return hash((self.rule, self.cells, self.en, self.ja))

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "cells": [list(c) for c in self.cells],
                "en": self.en, "ja": self.ja, "params": dict(self.params)}


class Rule(Frozen):
    """One row of a puzzle's rules table.

    ``cells`` says (in English, for the docs) which cells a violation of this rule lists.
    ``en`` and ``ja`` are message templates: ``{name}`` fields are filled from the
    violation's params. These texts exist once: Python's ``violations()``, the play page's
    JavaScript checker and the docs all read them from here.
    """

    __slots__ = ("cells", "en", "id", "ja")
    _fields = ("id", "cells", "en", "ja")
    id: str
    cells: str
    en: str
    ja: str

    def __init__(self, id: str, cells: str, en: str, ja: str) -> None:
        init = object.__setattr__
        init(self, "id", id)
        init(self, "cells", cells)
        init(self, "en", en)
        init(self, "ja", ja)

    def __hash__(self) -> int:
        return hash(self._values())


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


class PlaySpec(Frozen):
    """What the play page needs to know of one puzzle.

    ``model`` is one of the framework's input models: ``"cells"`` (a state per cell),
    ``"regions"`` (a state per cell over a region map, each region showing a live count)
    or ``"edges"`` (borders drawn between cells). ``input`` is handed to the page's script
    as JSON (click cycle, keys, state names ...); ``text`` holds per language the help
    lines the page prints (``cycle``, ``keys`` as (key, meaning) pairs, ``rules`` as lists
    of text pieces where a one-element list is vocabulary printed through ``|lit``).
    ``css`` says whether ``templates/static/play/<slug>.css`` exists.
    """

    __slots__ = ("css", "input", "model", "text")
    _fields = ("model", "input", "text", "css")
    model: str
    input: Mapping[str, Any]
    text: Mapping[str, Mapping[str, Any]]
    css: bool

    def __init__(self, model: str, input: Mapping[str, Any],
                 text: Mapping[str, Mapping[str, Any]], css: bool = False) -> None:
        init = object.__setattr__
        init(self, "model", model)
        init(self, "input", input)
        init(self, "text", text)
        init(self, "css", css)

    def __hash__(self) -> int:
        return hash(self._values())


class SolveResult(Record):
    """What ``solve`` and ``brute`` return.

    ``solutions`` holds up to ``limit`` answers. ``rung`` names the lowest rung that
    completed the board (``None`` when the chosen level could not finish it).
    ``fixed`` lists, for a level below search, the cells that level decided.
    """

    __slots__ = ("fixed", "nodes", "rung", "solutions", "stats")
    _fields = ("solutions", "nodes", "rung", "fixed", "stats")
    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value
    solutions: list[Any]
    nodes: int
    rung: str | None
    fixed: list[Cell]
    stats: dict[str, Any]

    def __init__(self, solutions: list[Any], nodes: int = 0, rung: str | None = None,
                 fixed: list[Cell] | None = None, stats: dict[str, Any] | None = None) -> None:
        self.solutions, self.nodes, self.rung = solutions, nodes, rung
        self.fixed = [] if fixed is None else fixed
        self.stats = {} if stats is None else stats


def import_module(name: str) -> Any:
    """The module ``name`` (absolute), imported if need be: ``importlib.import_module``
    without importing importlib, which `build-site solve` otherwise never needs."""
    module = sys.modules.get(name)
    if module is None:
        __import__(name)
        module = sys.modules[name]
    return module


def _resolve(f: Any) -> Any:
    """A callable, or the one a ``"package.module:function"`` string names (imported now)."""
    if isinstance(f, str):
        module, _, name = f.partition(":")
        return getattr(import_module(module), name)
    return f


def chunk_seed(seed: int, key: Any) -> int:
    """The random seed of one chunk: a hash of the stage's seed and the chunk's key.

    A chunk's randomness depends on nothing else (not on which worker runs it, nor on
    how many chunks ran before it), so any executor gives byte-identical results.
    """
    import hashlib  # here, not at the top: `build-site solve` never needs either
    import json

    blob = json.dumps([seed, key], sort_keys=True, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big")


class Stage(Frozen):
    """One pipeline stage of a puzzle.

    A plain stage has ``func(inputs, params, progress)`` returning a JSON-able dict;
    ``inputs`` maps each name in ``deps`` to that stage's data (the ``data`` part of its
    JSON file). It must be a pure function of inputs and params: same inputs,
    byte-identical output.

    A chunked stage gives instead ``chunks(inputs, params) -> list`` of JSON-able chunk
    descriptions (each carrying a ``"key"``, unique within the stage), ``map(chunk,
    inputs, params, progress) -> partial`` (picklable, run anywhere, in any order) and
    ``reduce(partials, inputs, params) -> data`` with ``partials`` in the order of
    ``chunks``. A chunk that draws random numbers seeds from ``chunk_seed(params seed,
    chunk key)``. Only the driver writes files. A plain stage is one chunk.

    Any of the callables may be given as ``"package.module:function"``, imported when
    the stage first runs, so that loading a puzzle to solve a board does not import what
    only its measurements need.

    ``small``: parameters merged over ``params`` for a run of seconds, not minutes (the
    executor equivalence test, tests/test_scale.py, runs every chunked stage on them).
    """

    __slots__ = ("chunks", "deps", "func", "map", "name", "params", "reduce", "small")
    _fields = ("name", "func", "params", "deps", "chunks", "map", "reduce", "small")
    name: str
    func: Callable[[Mapping[str, Any], Mapping[str, Any], Progress], dict[str, Any]] | str | None
    params: Mapping[str, Any]
    deps: tuple[str, ...]
    chunks: Callable[[Mapping[str, Any], Mapping[str, Any]], list[Any]] | str | None
    map: Callable[[Any, Mapping[str, Any], Mapping[str, Any], Progress], Any] | str | None
    reduce: Callable[[list[Any], Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | str | None
    small: Mapping[str, Any]

    def __init__(
        self, name: str,
        func: Callable[[Mapping[str, Any], Mapping[str, Any], Progress], dict[str, Any]] | str | None,
        params: Mapping[str, Any], deps: tuple[str, ...] = (),
        chunks: Callable[[Mapping[str, Any], Mapping[str, Any]], list[Any]] | str | None = None,
        map: Callable[[Any, Mapping[str, Any], Mapping[str, Any], Progress], Any] | str | None = None,
        reduce: Callable[[list[Any], Mapping[str, Any], Mapping[str, Any]], dict[str, Any]] | str | None = None,
        small: Mapping[str, Any] | None = None,
    ) -> None:
        init = object.__setattr__
        init(self, "name", name)
        init(self, "func", func)
        init(self, "params", params)
        init(self, "deps", deps)
        init(self, "chunks", chunks)
        init(self, "map", map)
        init(self, "reduce", reduce)
        init(self, "small", {} if small is None else small)
        chunked = (chunks, map, reduce)
        if any(c is not None for c in chunked) and (None in chunked or func is not None):
            raise ValueError(f"stage {name}: give func, or all of chunks, map and reduce")
        if func is None and None in chunked:
            raise ValueError(f"stage {name}: give func, or all of chunks, map and reduce")

    @property
    def chunked(self) -> bool:
        return self.func is None

    def plan_chunks(self, inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[Any]:
        """The chunk descriptions (a plain stage is the one chunk ``{"key": "all"}``)."""
        if not self.chunked:
            return [{"key": "all"}]
        import json

        out = list(_resolve(self.chunks)(inputs, params))
        keys = [json.dumps(c.get("key"), sort_keys=True) for c in out]
        if len(set(keys)) != len(keys):
            raise ValueError(f"stage {self.name}: two chunks share a key")
        return out

    def run_chunk(self, chunk: Any, inputs: Mapping[str, Any], params: Mapping[str, Any],
                  progress: Progress = no_progress) -> Any:
        if not self.chunked:
            return _resolve(self.func)(inputs, params, progress)
        return _resolve(self.map)(chunk, inputs, params, progress)

    def combine(self, partials: list[Any], inputs: Mapping[str, Any],
                params: Mapping[str, Any]) -> dict[str, Any]:
        if not self.chunked:
            (only,) = partials
            return only
        return _resolve(self.reduce)(partials, inputs, params)

    def run(self, inputs: Mapping[str, Any], params: Mapping[str, Any],
            progress: Progress = no_progress) -> dict[str, Any]:
        """The whole stage in this process, chunk after chunk (the reference executor)."""
        chunks = self.plan_chunks(inputs, params)
        partials = []
        for i, chunk in enumerate(chunks):
            partials.append(self.run_chunk(chunk, inputs, params, progress))
            if self.chunked:
                progress(i + 1, len(chunks), f"chunk {chunk.get('key')}")
        return self.combine(partials, inputs, params)


def lazy(spec: str) -> Callable[..., Any]:
    """A function that imports ``"package.module:function"`` on its first call, then calls
    it: for what a solve never needs (the generator, a SAT confirmer)."""
    def call(*args: Any, **kwargs: Any) -> Any:
        return _resolve(spec)(*args, **kwargs)

    call.__qualname__ = call.__name__ = spec
    return call


# Every puzzle folder has one file per role, named alike in all of them; what each must
# define (`tests/test_shape.py` holds every registered puzzle to it). A puzzle may add
# files of its own for what only it has, named for what they do.
ROLES: dict[str, tuple[str, ...]] = {
    "board": ("Board", "Answer", "answer_rows", "render_board"),  # the printed problem, JSON
    "codec": ("PID", "decode", "encode"),            # puzz.link URLs
    "rules": ("RULES", "violations"),                # the rules table and the rule check
    "partial": ("irreparable",),                     # wrong, as against unfinished
    "ladder": ("RUNGS", "solve"),                    # the rungs, then complete search
    "brute": ("brute",),                             # the second engine: no code shared
    "generate": ("generate",),                       # generate(h, w, rng, **options)
    "hints": ("trace",),                             # one deduction per step
    "bank": (),                                      # the bank stage: boards, grades, example
    "studies": (),                                   # the stats stage: sampled studies
    "exact": (),                                     # the ledger stage: exact counts
    "timing": (),                                    # the timing stage
    "presentation": ("RUNG_NAMES", "PLAY", "draw_board"),  # how it looks and reads
    "stages": ("STAGES",),                           # the stage list and its parameters
}
# Roles that shape only how a puzzle looks and is edited on the site, never what a stage
# computes, and the shared module they draw with: left out of the code hash, so that a
# change to a drawing or to the editor re-renders pages without re-running the studies.
# tests/test_shape.py proves that no other module of a package imports them.
VIEW_ROLES = ("presentation", "construct")
VIEW_SHARED = ("svg.py",)
# The roles a Puzzle loads when it is built: what reading a board and solving it need.
# The others load on the first read of a field they give (``Puzzle.LAZY``), so that
# `build-site solve` imports neither the drawing code nor the stage list (issue 24).
EAGER_ROLES = ("board", "codec", "ladder")

_REQUIRED = object()  # a Puzzle field without a default


class Puzzle(Frozen):
    """The whole surface of one puzzle, as seen by the site builder and the play pages.

    Everything particular to a puzzle is reachable from here; ``site_builder`` and the
    play framework know no puzzle by name. A plain class (not ``@dataclass``, whose
    import, with ``inspect``, was a sixth of a `build-site solve`): ``FIELDS`` lists the
    fields in order, each with its default (``REQUIRED``: none; ``dict``: a new empty
    one); ``__dict__`` holds them.
    """

    __slots__ = ("__dict__", "_package")
    REQUIRED = _REQUIRED
    FIELDS: tuple[tuple[str, Any], ...] = (
        ("slug", _REQUIRED),
        ("names", _REQUIRED),          # {"en": "Canal View", "ja": "カナルビュー"}
        ("pid", _REQUIRED),            # puzz.link pid (the package's codec uses the same)
        ("package_dir", _REQUIRED),    # Path of the package, for the code hash
        ("rungs", _REQUIRED),          # tuple[str, ...]
        ("rung_names", _REQUIRED),     # lang -> rung -> label ("search" too)
        ("rules", _REQUIRED),          # the one rules table (RuleBook)
        ("board_from_json", _REQUIRED),
        ("answer_from_json", _REQUIRED),
        ("decode", _REQUIRED),         # puzz.link URL -> Board (raises PuzzleError)
        ("encode", _REQUIRED),         # Board -> puzz.link URL
        ("violations", _REQUIRED),     # (board, answer) -> list[Violation]
        ("solve", _REQUIRED),          # solve(board, level=None, limit=2) -> SolveResult
        ("brute", _REQUIRED),          # brute(board, limit=2) -> SolveResult
        ("answer_rows", _REQUIRED),    # answer -> rows of text (or pieces) for --json
        ("render_board", _REQUIRED),   # (board, answer|None) -> text for the terminal
        # (board JSON, answer JSON | None, cell size, accessible label) -> SVG markup
        ("draw_board", _REQUIRED),
        ("play", _REQUIRED),           # PlaySpec
        ("stages", _REQUIRED),         # tuple[Stage, ...]
        # generate(h, w, rng, **options) -> (Board, Answer): a random board with a unique
        # answer
        ("generate", _REQUIRED),
        # trace(board, answer) -> the hint steps, one deduction each, that solve the board
        ("trace", _REQUIRED),
        ("brute_max_cells", 36),       # verify uses the second engine up to this size
        # independent confirmers `build-site verify` runs: name -> (board, answer) -> bool,
        # each sharing no code with the ladder (imports its engine only when called)
        ("confirm", dict),
        # irreparable(board, states) -> violations that no way of filling the undecided
        # units can repair. ``states`` is the play page's mark per unit (PlaySpec.input
        # encoding, state 0 undecided; cells row-major, edges as grid.js edgeIndex), fixed
        # units in their fixed state. The checker module's irreparable() gives the same
        # rule ids, cells and params. None: the puzzle has no partial check yet.
        ("irreparable", None),
        # stages run only when named (``build-site build --stage slug/name``): surveys
        # past the regenerate budget, meant for a cluster. Their files, when present, are
        # read like the others' (``load_stages``); a plain build neither runs nor needs
        # them.
        ("on_request", ()),
        # solve also takes grade=False: the answers and the verdict without the rung work
        # only the grade needs (``rung`` then None unless a cheap rung finished the board)
        ("ungraded", False),
        # (board, answer) -> the answer as a player writes it, where ``answer_rows`` shows
        # less (Nanro: which cells hold a number, not the number). Read from the board
        # role's optional ``number_rows``; None: ``answer_rows`` already shows every digit
        # or mark.
        ("number_rows", None),
    )
    _fields = tuple(name for name, _ in FIELDS)
    # field -> (role, the role module's attribute and its default when absent)
    LAZY: ClassVar[dict[str, tuple[str, str, Any]]] = {
        "rung_names": ("presentation", "RUNG_NAMES", _REQUIRED),
        "draw_board": ("presentation", "draw_board", _REQUIRED),
        "play": ("presentation", "PLAY", _REQUIRED),
        "stages": ("stages", "STAGES", _REQUIRED),
        "on_request": ("stages", "ON_REQUEST", ()),
        "rules": ("rules", "RULES", _REQUIRED),
        "violations": ("rules", "violations", _REQUIRED),
        "brute": ("brute", "brute", _REQUIRED),
        "irreparable": ("partial", "irreparable", _REQUIRED),
    }

    slug: str
    names: Mapping[str, str]
    pid: str
    package_dir: Path
    rungs: tuple[str, ...]
    rung_names: Mapping[str, Mapping[str, str]]
    rules: RuleBook
    board_from_json: Callable[[Any], Any]
    answer_from_json: Callable[[Any], Any]
    decode: Callable[[str], Any]
    encode: Callable[[Any], str]
    violations: Callable[[Any, Any], list[Violation]]
    solve: Callable[..., SolveResult]
    brute: Callable[..., SolveResult]
    answer_rows: Callable[[Any], Any]
    render_board: Callable[[Any, Any], str]
    draw_board: Callable[[Any, Any, int, str], str]
    play: PlaySpec
    stages: tuple[Stage, ...]
    generate: Callable[..., tuple[Any, Any]]
    trace: Callable[[Any, Any], list[dict[str, Any]]]
    brute_max_cells: int
    confirm: Mapping[str, Callable[[Any, Any], bool]]
    irreparable: Callable[[Any, Sequence[int]], list[Violation]] | None
    on_request: tuple[Stage, ...]
    ungraded: bool
    number_rows: Callable[[Any, Any], Any] | None

    def __init__(self, *args: Any, **fields: Any) -> None:
        if len(args) > len(self._fields):
            raise TypeError(f"Puzzle takes at most {len(self._fields)} fields, got {len(args)}")
        for name, value in zip(self._fields, args, strict=False):
            if name in fields:
                raise TypeError(f"Puzzle got the field {name!r} twice")
            fields[name] = value
        object.__setattr__(self, "_package", None)
        self._fill(fields)

    def _fill(self, given: dict[str, Any]) -> None:
        """Each field from ``given`` or its default; in a puzzle read from its package,
        the ``LAZY`` ones (and ``package_dir``) left for their first read."""
        unknown = sorted(set(given) - set(self._fields))
        if unknown:
            raise TypeError(f"Puzzle has no field {unknown[0]!r}")
        later = () if self._package is None else (*self.LAZY, "package_dir")
        values = self.__dict__
        for name, default in self.FIELDS:
            if name in given:
                values[name] = given[name]
            elif name in later:
                continue
            elif default is _REQUIRED:
                raise TypeError(f"Puzzle lacks the field {name!r}")
            else:
                values[name] = default() if default is dict else default

    @classmethod
    def from_package(cls, package: str, **fields: Any) -> Puzzle:
        """The Puzzle of ``solvers/<pkg>/``, every role read from the file named for it
        (``ROLES``); ``fields`` gives the rest (slug, names) and any option. What a solve
        does not need (``LAZY``: the drawing, the stages, the rule check, the second
        engine) loads when first read; the generator and the hint traces on first call."""
        board, codec, ladder = (import_module(f"{package}.{m}") for m in EAGER_ROLES)
        if board.__file__ is None:
            raise ValueError(f"{package}: the puzzle's modules must be files (code_hash reads them)")
        self = cls.__new__(cls)
        object.__setattr__(self, "_package", package)
        self._fill({
            "pid": codec.PID, "rungs": ladder.RUNGS,
            "board_from_json": board.Board.from_json, "answer_from_json": board.Answer.from_json,
            "decode": codec.decode, "encode": codec.encode, "solve": ladder.solve,
            "answer_rows": board.answer_rows, "render_board": board.render_board,
            "generate": lazy(f"{package}.generate:generate"),
            "trace": lazy(f"{package}.hints:trace"),
            "number_rows": getattr(board, "number_rows", None), **fields})
        return self

    def __getattr__(self, name: str) -> Any:
        """A field left for its first read (``LAZY``, and ``package_dir``): loaded from
        the puzzle's own module now, and kept."""
        package = object.__getattribute__(self, "_package") if name != "_package" else None
        if package is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if name == "package_dir":
            from pathlib import Path

            value: Any = Path(import_module(f"{package}.board").__file__).parent
        elif name in self.LAZY:
            role, attr, default = self.LAZY[name]
            module = import_module(f"{package}.{role}")
            value = getattr(module, attr) if default is _REQUIRED else getattr(module, attr,
                                                                               default)
        else:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.__dict__[name] = value
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), self._values())

    @property
    def stage_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.stages)

    def rung_name(self, rung: str, lang: str) -> str:
        return self.rung_names.get(lang, {}).get(rung, rung)

    def code_hash(self) -> str:
        """Hash of the code a stage can run: the puzzle package's source, less the
        view-only roles (``VIEW_ROLES``), plus the shared ``solvers/*.py`` modules those
        files import, directly or through each other (``shared_imports``), less the
        view-only shared files (``VIEW_SHARED``). A change to a shared module restales
        only the puzzles that import it. Each file counts as its code alone
        (``code_text``): an edit to a comment, a docstring or the layout restales
        nothing."""
        import hashlib

        own = sorted(p for p in self.package_dir.rglob("*.py") if p.stem not in VIEW_ROLES)
        h = hashlib.sha256()
        for f in own + shared_imports(own):
            h.update(f.name.encode())
            h.update(code_text(f).encode())
        return h.hexdigest()[:16]


_code_texts: dict[tuple[str, int, int], str] = {}


def code_text(path: Any) -> str:
    """A source file as the interpreter sees it: parsed, its docstrings (a string
    standing first in the module, a class or a function) dropped, and printed back by
    ``ast.unparse``, which leaves out comments and normalises the layout. Cached on the
    file's path, modification time and size, since every stage key asks for it."""
    import ast
    import os

    st = os.stat(path)
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _code_texts:
        with open(path, "rb") as f:
            tree = ast.parse(f.read())
        for n in ast.walk(tree):
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef):
                body = n.body
                if body and isinstance(body[0], ast.Expr) \
                        and isinstance(body[0].value, ast.Constant) \
                        and isinstance(body[0].value.value, str):
                    n.body = body[1:] or [ast.Pass()]
        _code_texts[key] = ast.unparse(tree)
    return _code_texts[key]


def shared_imports(files: list[Any]) -> list[Any]:
    """The shared modules (``solvers/<name>.py``, ``VIEW_SHARED`` and the registry
    aside) that ``files`` import, followed through the shared modules' own imports;
    sorted by name. Imports are read from the source (``ast``), wherever they stand in
    the file, so a lazy import inside a function counts too."""
    import ast
    from pathlib import Path

    here = Path(__file__).parent
    shared = {p.stem: p for p in here.glob("*.py")
              if p.name not in ("registry.py", "__init__.py", *VIEW_SHARED)}
    found: set[str] = set()
    todo = list(files)
    while todo:
        tree = ast.parse(Path(todo.pop()).read_bytes())
        for n in ast.walk(tree):
            names: list[str] = []
            if isinstance(n, ast.Import):
                names = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
                names = [n.module] + [f"{n.module}.{a.name}" for a in n.names]
            for name in names:
                parts = name.split(".")
                if len(parts) >= 2 and parts[0] == "solvers" and parts[1] in shared \
                        and parts[1] not in found:
                    found.add(parts[1])
                    todo.append(shared[parts[1]])
    return [shared[m] for m in sorted(found)]
