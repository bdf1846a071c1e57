"""The in-browser play pages: one page per puzzle and language plus per-board data files.

``play_files(site, puzzle, bank_data)`` returns ``{dist-relative path: content}``:

* ``en/<slug>/play/index.html`` and ``ja/<slug>/play/index.html`` (template
  ``play.html.j2``), which load ``static/play/play.js`` and the puzzle's checker
  ``static/play/<slug>.js``;
* ``<slug>/play-data/index.json``: the picker list (id, size, h, w, grade, clues, and the
  board's ``difficulty`` and ``effort`` when the bank has them);
* ``<slug>/play-data/<id>.json``: one board with its answer and puzz.link URL, fetched
  only when that board is picked;
* ``<slug>/play-data/hints-<lang>/<id>.json``: that board's hint trace with the page's
  language's sentences only (``{"id", "trace"}``), fetched after the board is drawn, so
  the bytes a player needs before playing stay small (the one-deduction traces are the
  bulk of a board's data).

The page text has no figures of its own: counts, sizes and clue numbers are drawn by the
script from the JSON (``<script>`` is exempt from the provenance check), and the few
vocabulary digits in the rules go through ``|lit``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from site_builder import i18n

# Only these characters may appear in a board id used as a file name.
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

# Text the script writes into the page ({name} fields are filled in by play.js).
JS_STRINGS: dict[str, dict[str, str]] = i18n.table("play_script")

# The difficulty labels a bank gives its boards (data.difficulty.levels), in order.
LEVELS = ("easy", "medium", "hard", "expert")
LEVEL_NAMES: dict[str, dict[str, str]] = i18n.table("levels")

# Static page text. Keys shared by both puzzles, then per-puzzle input help.
PAGE: dict[str, dict[str, str]] = i18n.table("play_page")

# What an input model changes in the page text (merged over PAGE for that model).
MODEL_PAGE: dict[str, dict[str, dict[str, str]]] = i18n.table("play_model")

MODELS = ("cells", "regions", "edges")


def _safe_id(board_id: Any) -> str:
    if not isinstance(board_id, str) or not _SAFE_ID.match(board_id):
        raise ValueError(f"bank board id {board_id!r} cannot be used as a file name")
    return board_id


def _level(b: dict[str, Any]) -> dict[str, Any]:
    """The board's difficulty label and the effort it was measured from, if it has them
    (a bank built before difficulty existed has neither: the keys are left out)."""
    return {k: b[k] for k in ("difficulty", "effort") if b.get(k) is not None}


def index_entry(b: dict[str, Any]) -> dict[str, Any]:
    return {"id": b["id"], "size": b.get("size", f"{b['h']}x{b['w']}"), "h": b["h"], "w": b["w"],
            "grade": b.get("grade"), "clues": b.get("clues")} | _level(b)


def board_entry(b: dict[str, Any]) -> dict[str, Any]:
    keys = ("id", "size", "h", "w", "grade", "clues", "url", "board", "answer")
    return {k: b.get(k) for k in keys} | _level(b)


def _one_language(x: Any, lang: str) -> Any:
    """A step's text keys ("en"/"ja", at the top and in "detail") kept for ``lang`` only
    (English where ``lang`` is missing)."""
    if not isinstance(x, dict):
        return x
    keep = lang if lang in x else "en"
    return {k: (_one_language(v, lang) if k == "detail" else v) for k, v in x.items()
            if k not in ("en", "ja") or k == keep}


def trace_entry(b: dict[str, Any], lang: str) -> dict[str, Any]:
    """The hint trace file of one board for one language."""
    return {"id": b["id"], "trace": [_one_language(s, lang) for s in b.get("trace") or []]}


def levels_of(bank_data: dict[str, Any]) -> list[str]:
    """The bank's difficulty levels in order (data.difficulty.levels, else LEVELS)."""
    d = bank_data.get("difficulty")
    got = d.get("levels") if isinstance(d, dict) else None
    return list(got) if isinstance(got, list) and got else list(LEVELS)


def first_board(boards: list[dict[str, Any]], levels: list[str]) -> dict[str, Any] | None:
    """The board a newcomer sees first: the first "easy" one in bank order; failing that,
    the first of the lowest difficulty present; with no difficulty at all, the first."""
    if not boards:
        return None
    rank = {lvl: i for i, lvl in enumerate(levels)}
    rated = [b for b in boards if b.get("difficulty") in rank]
    if not rated:
        return boards[0]
    low = min(rank[b["difficulty"]] for b in rated)
    return next(b for b in rated if rank[b["difficulty"]] == low)


def _json(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _script_json(obj: Any) -> str:
    """JSON safe to place inside <script type="application/json">."""
    return (_json(obj).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def rung_names(puzzle: Any, lang: str) -> dict[str, str]:
    """Every rung a trace step or grade may name: the ladder, "search", and any other the
    puzzle names (e.g. "probe"), in the page's language."""
    ids = dict.fromkeys((*puzzle.rungs, "search", *puzzle.rung_names.get("en", {}),
                         *puzzle.rung_names.get(lang, {})))
    return {r: puzzle.rung_name(r, lang) for r in ids}


def play_facts(puzzle: Any, lang: str) -> dict[str, Any]:
    """What an article may say about its play page, read from the puzzle's own play spec
    (and from the rules ``play.js`` applies to it), so that a sentence about the page
    changes when the page does: the input model, whether digits are typed (then the page
    has a number pad under the board and a counting assist, which starts off: play.js
    turns it on only from the player's own saved choice), the keys and the click cycle."""
    spec = puzzle.play
    inp = dict(spec.input)
    text = spec.text.get(lang) or spec.text["en"]
    digits = bool(inp.get("digits"))
    return {
        "model": spec.model,
        "digits": digits,               # a cell takes a typed digit
        "pad": digits,                  # buildPad: a number pad exactly when digits
        "assist": digits,               # the counting assist's box shows when digits
        "assist_default": False,        # assistOn(): off unless the player saved it on
        "candidates": bool(inp.get("candidates")),
        "outline": bool(inp.get("outline")),      # (edges) the board's outline takes lines
        "region_count": spec.model == "regions",   # each region shows its live count
        "cycle": text.get("cycle", ""),
        "keys": [k for k, _ in text.get("keys", [])],
    }


def page_context(puzzle: Any, lang: str, index: list[dict[str, Any]], data_url: str,
                 first: dict[str, Any] | None = None,
                 levels: list[str] | None = None) -> dict[str, Any]:
    path = f"{lang}/{puzzle.slug}/play/index.html"
    """What play.html.j2 sees: the page text and the script's config, all from ``puzzle``."""
    spec = puzzle.play
    if spec.model not in MODELS:
        raise ValueError(f"{puzzle.slug}: play model {spec.model!r} is not one of {MODELS}")
    text = spec.text.get(lang) or spec.text["en"]
    config = {
        "slug": puzzle.slug, "lang": lang, "data": data_url, "index": index,
        # the board list (an unknown board's notice) and the solve page (a made board's
        # hints), relative to the page
        "list": posix_rel(path, f"{lang}/{puzzle.slug}/boards/"),
        "solve": posix_rel(path, f"{lang}/{puzzle.slug}/solve/"),
        "model": spec.model, "input": dict(spec.input),
        "rules": puzzle.rules.to_json(),
        "readout": text.get("readout"),
        "readoutHelp": text.get("readout_help"),
        "rungs": list(puzzle.rungs),
        "rungNames": rung_names(puzzle, lang),
        # each rung in everyday words (PlaySpec.text[lang]["grades"]), the name after it
        "gradeWords": dict(text.get("grades") or {}),
        "levels": levels or list(LEVELS),
        "levelNames": {lvl: LEVEL_NAMES[lang].get(lvl, lvl) for lvl in levels or LEVELS},
        "strings": JS_STRINGS[lang],
        # The newcomer's first board (first_board) rides along, so it draws without a
        # fetch (its hint trace, like every board's, is fetched once it is drawn).
        "first": first,
    }
    return {"play": {"slug": puzzle.slug, "name": puzzle.names[lang], "model": spec.model,
                     "css": spec.css, "s": PAGE[lang] | MODEL_PAGE[lang][spec.model],
                     "text": text, "config": _script_json(config)}}


# The boards' data files of one puzzle, kept in this process with the parsed bank they were
# made from (site.py keeps one parsed object while the file's bytes stay the same), so a
# preview rebuild that re-renders the play pages for another reason (the layout, a
# template) does not encode a thousand JSON files again.
_DATA: dict[tuple[str, tuple[str, ...]],
            tuple[dict[str, Any], dict[str, str], list[dict[str, Any]]]] = {}


def _board_data(slug: str, langs: tuple[str, ...], bank_data: dict[str, Any]
                ) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The play-data files (board, hints per language, index) and the board index."""
    kept = _DATA.get((slug, langs))
    if kept is not None and kept[0] is bank_data:
        return kept[1], kept[2]
    out: dict[str, str] = {}
    index = []
    for b in bank_data.get("boards") or []:
        bid = _safe_id(b["id"])
        index.append(index_entry(b))
        out[f"{slug}/play-data/{bid}.json"] = _json(board_entry(b)) + "\n"
        for lang in langs:
            out[f"{slug}/play-data/hints-{lang}/{bid}.json"] = _json(trace_entry(b, lang)) + "\n"
    out[f"{slug}/play-data/index.json"] = _json({"slug": slug, "boards": index}) + "\n"
    _DATA[(slug, langs)] = (bank_data, out, index)
    return out, index


def play_files(site: Any, puzzle: Any, bank_data: dict[str, Any]) -> dict[str, str | bytes]:
    """Every output file of the play pages for one puzzle, keyed by dist-relative path."""
    slug = puzzle.slug
    boards = list(bank_data.get("boards") or [])
    data, index = _board_data(slug, tuple(site.langs), bank_data)
    out: dict[str, str | bytes] = dict(data)
    for lang in site.langs:
        path = f"{lang}/{slug}/play/index.html"
        data_url = posix_rel(path, f"{slug}/play-data/")
        first = first_board(boards, levels_of(bank_data))
        ctx = page_context(puzzle, lang, index, data_url,
                           board_entry(first) if first else None, levels_of(bank_data))
        title = PAGE[lang]["title"].format(name=puzzle.names[lang])
        out[path] = site.render_page("play.html.j2", lang=lang, path=path, title=title,
                                     description=PAGE[lang]["lead"], **ctx)
    out.update(board_list_files(site, puzzle, index, levels_of(bank_data)))
    return out


# The board list (``<lang>/<slug>/boards/``): every banked board with its size, grade
# and difficulty, and the visitor's progress from the play page's saved positions. The
# rows are written by static/play/boards.js from the picker list in its config, so the
# page text has no figures of its own.
BOARDS_PAGE: dict[str, dict[str, str]] = i18n.table("boards_page")


def board_list_files(site: Any, puzzle: Any, index: list[dict[str, Any]],
                     levels: list[str] | None) -> dict[str, str | bytes]:
    """The board list pages of one puzzle, one per language of the site."""
    out: dict[str, str | bytes] = {}
    for lang in site.langs:
        path = f"{lang}/{puzzle.slug}/boards/index.html"
        s = BOARDS_PAGE.get(lang, BOARDS_PAGE["en"])
        config = {"slug": puzzle.slug, "lang": lang, "index": index,
                  "play": posix_rel(path, f"{lang}/{puzzle.slug}/play/"),
                  "rungNames": rung_names(puzzle, lang),
                  "gradeWords": dict((puzzle.play.text.get(lang) or puzzle.play.text["en"])
                                     .get("grades") or {}),
                  "levelNames": {lvl: LEVEL_NAMES[lang].get(lvl, lvl) for lvl in levels or LEVELS},
                  "strings": {k: s[k] for k in ("solved", "started", "fresh", "counts", "sub", "gradeName")},
                  "marks": {"solved": JS_STRINGS[lang]["solvedMark"],
                            "started": JS_STRINGS[lang]["startedMark"]}}
        title = s["title"].format(name=puzzle.names[lang])
        out[path] = site.render_page("boards.html.j2", lang=lang, path=path, title=title,
                                     description=s["lead"],
                                     boards={"slug": puzzle.slug, "s": s, "title": title,
                                             "config": _script_json(config)})
    return out


def posix_rel(from_path: str, target_dir: str) -> str:
    """A relative URL from the page at ``from_path`` to the directory ``target_dir``."""
    import posixpath

    r = posixpath.relpath(target_dir.rstrip("/") or ".", posixpath.dirname(from_path) or ".")
    return "./" if r == "." else r + "/"
