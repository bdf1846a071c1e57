"""Reading and writing the pipeline's JSON files: schema-checked, atomic, deterministic."""

from __future__ import annotations

import contextlib
import json
import os
import re
from typing import TYPE_CHECKING, Any

from site_builder.errors import UserError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

# shutil, tempfile and pathlib are imported where a file is written: `build-site solve`
# reads one board file through read_json, and those imports (bz2, lzma, random,
# urllib.parse, ipaddress among them) cost its process more than a small board's solve

SCHEMA = 1
# No number the pipeline writes or a board holds comes near this many digits; the bound
# sits under Python's int-string limit (4,300), so a huge integer is refused before any
# conversion, as one line naming the file, instead of a ValueError from deep in json.
MAX_INT_DIGITS = 1000


class _HugeInt(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _bounded_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _HugeInt(digits)
    return int(text)


def _key_before(text: str, pos: int) -> str | None:
    """The name of the nearest object key before ``pos``: where a bad value sits."""
    keys = re.findall(r'"((?:[^"\\\n]|\\.){1,80})"\s*:', text[max(0, pos - 4000):pos])
    return keys[-1] if keys else None


def loads(text: str, where: str) -> Any:
    """``json.loads`` with integers bounded to ``MAX_INT_DIGITS`` digits; any failure is
    a UserError naming ``where`` (a file) and the place it breaks."""
    try:
        return json.loads(text, parse_int=_bounded_int)
    except _HugeInt as e:
        m = re.search(rf"-?\d{{{MAX_INT_DIGITS + 1},}}", text)
        pos = m.start() if m else 0
        line = text.count("\n", 0, pos) + 1
        col = pos - (text.rfind("\n", 0, pos) + 1) + 1
        key = _key_before(text, pos)
        at = f" (key '{key}')" if key else ""
        raise UserError(f"{where}: an integer of {e.digits:,} digits at line {line} column "
                        f"{col}{at}; at most {MAX_INT_DIGITS:,} digits") from None
    except json.JSONDecodeError as e:
        first = layout_break(text)
        if first is not None and first < e.lineno:
            raise UserError(f"{where}: corrupt JSON at line {first}, where the file's layout "
                            f"breaks (the parser gave up at line {e.lineno} column {e.colno}: "
                            f"{e.msg})") from None
        raise UserError(f"{where}: corrupt JSON at line {e.lineno} column {e.colno}: {e.msg}") from None
    except RecursionError:
        raise UserError(f"{where}: JSON nested too deeply") from None


def layout_break(text: str) -> int | None:
    """For a file in the layout ``dumps`` writes (two spaces per level, one value a line):
    the first line whose indentation disagrees with the brackets opened before it, which
    is where a bracket went missing or one too many came in (a parser, reading on, may
    give up hundreds of lines later). A line indented deeper than its brackets allow
    names the line above it (the opener missing at its end); one indented less, itself.
    None for a file in another layout, or one whose layout holds."""
    if not text.startswith(("{\n  ", "[\n  ")):
        return None
    depth = 0
    lines = text.split("\n")
    for lineno, line in enumerate(lines, 1):
        body = line.lstrip(" ")
        if body:
            indent = len(line) - len(body)
            want = 2 * (depth - (1 if body[0] in "]}" else 0))
            if indent > want:
                return max(1, lineno - 1)
            if indent < want:  # a closer missing here, or on the emptied line above
                return lineno - 1 if lineno > 1 and not lines[lineno - 2].strip() else lineno
        in_str = esc = False
        for ch in body:
            if in_str:
                if esc:
                    esc = False
                elif ch == "\\":
                    esc = True
                elif ch == '"':
                    in_str = False
            elif ch == '"':
                in_str = True
            elif ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
    return None


def dumps(obj: Any) -> str:
    """The one serialisation used for every file the pipeline writes."""
    return json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write to a temporary file beside ``path``, then rename it into place."""
    import shutil
    import tempfile

    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:  # a read-only checkout, a file where the folder must be
        raise UserError(f"{path}: cannot write ({e.strerror or e}); the folder "
                        f"{path.parent} must be writable") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; these files are published
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_json(path: Path, obj: Any) -> None:
    write_atomic(path, dumps(obj))


def read_bytes(path: Path) -> bytes:
    """A file's bytes; a UserError naming the file when it cannot be read."""
    try:
        return path.read_bytes()
    except PermissionError:
        raise UserError(f"{path}: permission denied; make it readable") from None
    except OSError as e:
        raise UserError(f"{path}: cannot read ({e.strerror or e})") from None


def read_json(path: Path | str, max_bytes: int | None = None) -> Any:
    """Parse a JSON file; a UserError naming the file and the place it breaks (or that it
    is larger than ``max_bytes``, or nested too deeply to parse). ``path`` may be a
    plain string (`build-site solve` reads its board file without importing pathlib)."""
    try:
        if max_bytes is not None and (size := os.stat(path).st_size) > max_bytes:
            raise UserError(f"{path}: {size:,} bytes is too large "
                            f"(at most {max_bytes:,})")
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise UserError(f"{path}: file not found") from None
    except PermissionError:
        raise UserError(f"{path}: permission denied; make it readable") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: cannot read ({e})") from None
    return loads(text, str(path))


def read_stage(path: Path, slug: str, stage: str) -> dict[str, Any]:
    """Read a stage file and check its envelope (schema, slug, stage, data)."""
    doc = read_json(path)
    if not isinstance(doc, dict):
        raise UserError(f"{path}: expected a JSON object at the top level")
    if doc.get("schema") != SCHEMA:
        raise UserError(f"{path}: field 'schema' is {doc.get('schema')!r}, this version reads {SCHEMA}")
    for field, want in (("slug", slug), ("stage", stage)):
        if doc.get(field) != want:
            raise UserError(f"{path}: field '{field}' is {doc.get(field)!r}, expected {want!r}")
    if not isinstance(doc.get("data"), dict):
        raise UserError(f"{path}: field 'data' is missing or not an object")
    if not isinstance(doc.get("producer"), dict) or "key" not in doc["producer"]:
        raise UserError(f"{path}: field 'producer' is missing or has no 'key'")
    return doc


def stage_path(root: Path, slug: str, stage: str) -> Path:
    """Where a puzzle's stage file lives: ``content/<slug>/<stage>.json``."""
    return root / "content" / slug / f"{stage}.json"


def load_stages(root: Path, puzzle: Any,
                keep: Callable[[Path, Callable[[], Any]], Any] | None = None) -> dict[str, Any]:
    """The ``data`` of every stage file of ``puzzle``, keyed ``<slug>/<stage>``.
    ``keep(path, read)``: where one file's parse may come from a cache (``read`` parses)."""
    def data(path: Path, stage: str) -> Any:
        def read() -> Any:
            got = read_stage(path, puzzle.slug, stage)["data"]
            if stage == "bank":
                from site_builder.schema import check_bank

                check_bank(path, puzzle, got)
            return got

        return read() if keep is None else keep(path, read)

    out: dict[str, Any] = {}
    for stage in puzzle.stage_names:
        path = stage_path(root, puzzle.slug, stage)
        if not path.exists():
            raise UserError(f"{path}: file not found; run `build-site build --only "
                            f"{puzzle.slug}` to generate it")
        out[f"{puzzle.slug}/{stage}"] = data(path, stage)
    for extra in getattr(puzzle, "on_request", ()):  # present only once someone ran it
        path = stage_path(root, puzzle.slug, extra.name)
        if path.exists():
            out[f"{puzzle.slug}/{extra.name}"] = data(path, extra.name)
    return out
