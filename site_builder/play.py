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

# Only these characters may appear in a board id used as a file name.
_SAFE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

# Text the script writes into the page ({name} fields are filled in by play.js).
JS_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "allSizes": "All sizes", "allGrades": "All grades",
        "boardOption": "{id} · {grade} · {clues} clues",
        "boardTitle": "Board {id} · {grade} · {clues} clues",
        "solvedMark": "✓", "startedMark": "…",
        "loading": "Loading the board…", "loadError": "Could not load this board.",
        "empty": "There are no boards yet.",
        "boardSummary": "{h} by {w} board with {clues} clues",
        "rowText": "Row {r}:", "unit": "{at}: {state}",
        "at": "row {r}, column {c}",
        "edgeAt": "the line between row {r}, column {c} and row {r2}, column {c2}",
        # the board's outline, where the edges model's edge set includes it ("outline")
        "edgeTop": "the line along the top of row {r}, column {c}",
        "edgeBottom": "the line along the bottom of row {r}, column {c}",
        "edgeLeft": "the line along the left of row {r}, column {c}",
        "edgeRight": "the line along the right of row {r}, column {c}",
        "solved": "Solved in {time}!", "sep": "; ", "stop": ". ", "end": ".",
        "hintWrong": "The mark at {at} is wrong.",
        "hintWrongDigit": "The digit at {at} is wrong.",
        "trialStart": "Trial", "trialDeeper": "Trial inside",
        "trialLevel": "Trial level {n}",
        "sharedRestored": "The position from the link is on the board (Undo goes back to yours).",
        "shareCopied": "Link to this position copied.",
        "shareManual": "Copy the link below to share this position.",
        "padDigit": "Write {d}", "padClear": "Clear", "padClearLabel": "Clear the cell",
        "candMode": "Candidates", "candModeLabel": ("Candidate mode ({key}): a digit pencils "
                                                    "or rubs out a small candidate"),
        "spoiler": "Compare with the solution (spoiler: shows part of the answer)",
        "noBreak": "No rule is broken yet.",
        "offSolutionDigit": "The digit at {at} does not fit the solution.",
        "offSolutionDigitMore": ("The digit at {at} does not fit the solution (and {n} "
                                 "other entries do not either)."),
        "hintNone": "Every step of the solution is already on the board.",
        "hintCells": "Cells: {cells}",
        "allLevels": "All difficulties", "levelGrade": "{level} ({grade})",
        "checkFirst": "{message} ({cells})",
        "cellsMore": "{cells} and {n} more",
        "more": "{n} more",
        "undecidedCell": "1 cell is still undecided.",
        "undecidedCells": "{n} cells are still undecided.",
        "undecidedLine": "1 line is still undecided.",
        "undecidedLines": "{n} lines are still undecided.",
        "noMistakes": "No mistakes so far; {n} undecided.",
        "offSolution": "The mark at {at} does not fit the solution.",
        "offSolutionMore": ("The mark at {at} does not fit the solution (and {n} other "
                            "marks do not either)."),
        "hintAgain": "Press Hint again for more detail.",
        "hintLegend": ("Shaded: what this step decides. Dashed outline: the clues and cells "
                       "behind it."),
        "hintDetailLegend": "Dotted outline: where the detail looks.",
    },
    "ja": {
        "allSizes": "すべてのサイズ", "allGrades": "すべての解き筋",
        "boardOption": "{id} · {grade} · 手掛かり{clues}個",
        "boardTitle": "盤 {id} · {grade} · 手掛かり{clues}個",
        "solvedMark": "✓", "startedMark": "…",
        "loading": "盤を読み込み中…", "loadError": "この盤を読み込めませんでした。",
        "empty": "まだ盤がありません。",
        "boardSummary": "{h}行{w}列の盤、手掛かり{clues}個",
        "rowText": "{r}行目:", "unit": "{at}: {state}",
        "at": "{r}行{c}列",
        "edgeAt": "{r}行{c}列と{r2}行{c2}列の間の線",
        "edgeTop": "{r}行{c}列の上辺の線", "edgeBottom": "{r}行{c}列の下辺の線",
        "edgeLeft": "{r}行{c}列の左辺の線", "edgeRight": "{r}行{c}列の右辺の線",
        "solved": "正解です！（タイム {time}）", "sep": "、", "stop": "。", "end": "。",
        "hintWrong": "{at}の印が間違っています。",
        "hintWrongDigit": "{at}の数字が間違っています。",
        "trialStart": "仮置き", "trialDeeper": "さらに仮置き",
        "trialLevel": "仮置き {n} 段目",
        "sharedRestored": "リンクの盤面を表示しました（元に戻すと自分の盤面に戻ります）。",
        "shareCopied": "この盤面へのリンクをコピーしました。",
        "shareManual": "下のリンクをコピーすると、この盤面を共有できます。",
        "padDigit": "{d} を書く", "padClear": "消す", "padClearLabel": "マスを消す",
        "candMode": "候補", "candModeLabel": "候補の入力（{key}）：数字で小さな候補を書き入れ、もう一度で消す",
        "spoiler": "正解と照らし合わせる（ネタバレ：答えの一部が分かります）",
        "noBreak": "今のところルール違反はありません。",
        "offSolutionDigit": "{at}の数字は正解と合いません。",
        "offSolutionDigitMore": "{at}の数字は正解と合いません（ほかにも{n}か所、正解と合わない所があります）。",
        "hintNone": "解き筋の手順はすべて盤に入っています。",
        "hintCells": "対象のマス: {cells}",
        "allLevels": "すべての難易度", "levelGrade": "{level}（{grade}）",
        "checkFirst": "{message}（{cells}）",
        "cellsMore": "{cells}ほか{n}マス",
        "more": "ほか{n}件",
        "undecidedCell": "未定のマスがあと1個あります。",
        "undecidedCells": "未定のマスがあと{n}個あります。",
        "undecidedLine": "未定の線があと1本あります。",
        "undecidedLines": "未定の線があと{n}本あります。",
        "noMistakes": "今のところ間違いはありません。未定は{n}か所です。",
        "offSolution": "{at}の印は正解と合いません。",
        "offSolutionMore": "{at}の印は正解と合いません（ほかにも{n}か所、正解と合わない印があります）。",
        "hintAgain": "もう一度ヒントを押すと、詳しい説明が出ます。",
        "hintLegend": "塗りつぶし：この手で決まる所。破線の枠：その根拠になる手掛かりとマス。",
        "hintDetailLegend": "点線の枠：詳しい説明で見る所。",
    },
}

# The difficulty labels a bank gives its boards (data.difficulty.levels), in order.
LEVELS = ("easy", "medium", "hard", "expert")
LEVEL_NAMES: dict[str, dict[str, str]] = {
    "en": {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"},
    "ja": {"easy": "初級", "medium": "中級", "hard": "上級", "expert": "最上級"},
}

# Static page text. Keys shared by both puzzles, then per-puzzle input help.
PAGE: dict[str, dict[str, str]] = {
    "en": {
        "title": "Play {name}", "lead": "Pick a board and solve it here. Your progress is "
        "kept in this browser.",
        "size": "Size", "level": "Difficulty", "grade": "Grade", "board": "Board",
        "prev": "Previous board", "next": "Next unsolved board", "list": "All boards",
        "pan": ("The board is wider than the screen: drag it sideways with two fingers, or "
                "use the scroll bar under it, to see the rest."),
        "undo": "Undo", "redo": "Redo", "reset": "Reset", "check": "Check", "hint": "Hint",
        "undo_label": "Undo (Ctrl+Z)", "redo_label": "Redo (Ctrl+Y)",
        "reset_label": "Clear every mark (can be undone)",
        "more_head": "More", "undo_all": "Undo all", "redo_all": "Redo all",
        "undo_all_label": "Undo every move", "redo_all_label": "Redo every undone move",
        "clear_marks": "Clear marks",
        "clear_marks_label": "Erase the helper marks and keep your answer (can be undone)",
        "trial": "Trial", "trial_label": ("Try a guess on a layer you can drop; in a trial, "
                                          "opens one more level inside it"),
        "trial_accept": "Keep trial",
        "trial_accept_label": "Keep the moves of the innermost trial level",
        "trial_drop": "Drop trial",
        "trial_drop_label": "Undo every move of the innermost trial level",
        "zoom": "Zoom", "zoom_label": "Enlarge the board (scroll to pan)",
        "share": "Share position",
        "share_label": "Copy a link that opens this board with your marks on it",
        "pad_label": "Number pad: writes into the selected cell",
        "assist": "Counting assist",
        "assist_label": ("Optional help, off by default: a cell marked numbered (○) shows and "
                         "counts as its count, so you need not type digits"),
        "check_label": "Check the rules and highlight broken ones",
        "hint_label": "Show the next step of the solution",
        "time": "Time", "pzl": "Open on puzz.link",
        "board_label": "Board. Use the arrow keys to move and the keys below to mark cells.",
        "keys_head": "Controls", "rules_head": "Rules",
        "article": "Read the article",
        "check_head": "Check", "hint_head": "Hint",
        "k_move": "move the cursor", "k_cycle": "cycle the cell", "k_clear": "make undecided",
        "k_undo": "undo", "k_redo": "redo", "k_back": "cycle backwards",
        "tap": ("Click or tap a cell to cycle it: {cycle}. Drag across cells to give them the same "
                "state. Right-click or Shift+click goes back."),
        "noscript": "This page needs JavaScript to play.",
    },
    "ja": {
        "title": "{name}を遊ぶ", "lead": "盤を選んでここで解けます。進み具合はこのブラウザに保存されます。",
        "size": "サイズ", "level": "難易度", "grade": "解き筋", "board": "盤",
        "prev": "前の盤", "next": "次の未正解の盤", "list": "盤の一覧",
        "pan": "盤が画面より広いので、二本指で横にずらすか、下のスクロールバーで残りを見てください。",
        "undo": "元に戻す", "redo": "やり直す", "reset": "リセット", "check": "チェック",
        "hint": "ヒント",
        "undo_label": "元に戻す (Ctrl+Z)", "redo_label": "やり直す (Ctrl+Y)",
        "reset_label": "すべての印を消す（元に戻せます）",
        "more_head": "その他の操作", "undo_all": "最初まで戻す", "redo_all": "最後まで進める",
        "undo_all_label": "すべての手を元に戻す", "redo_all_label": "戻した手をすべてやり直す",
        "clear_marks": "補助記号を消す",
        "clear_marks_label": "答えは残して補助記号だけを消す（元に戻せます）",
        "trial": "仮置き", "trial_label": "あとで取り消せる層で仮に試す（仮置き中に押すと、その中にもう一段）",
        "trial_accept": "仮置きを確定", "trial_accept_label": "いちばん内側の仮置きの手をそのまま残す",
        "trial_drop": "仮置きを破棄", "trial_drop_label": "いちばん内側の仮置きの手をすべて取り消す",
        "zoom": "拡大", "zoom_label": "盤を拡大する（スクロールで移動）",
        "share": "盤面を共有",
        "share_label": "今の印を載せたままこの盤を開くリンクをコピーする",
        "pad_label": "数字パッド：選んだマスに書き込みます",
        "assist": "個数の自動表示",
        "assist_label": ("最初は切ってある補助機能：数字の印（○）のマスに個数を自動で表示し、"
                         "その数として扱います。数字を打たなくて済みます"),
        "check_label": "ルールを確認して、破れている所を強調する",
        "hint_label": "解き筋の次の一手を見る",
        "time": "タイム", "pzl": "puzz.link で開く",
        "board_label": "盤面。矢印キーで移動し、下のキーでマスに印をつけます。",
        "keys_head": "操作", "rules_head": "ルール",
        "article": "記事を読む",
        "check_head": "チェック", "hint_head": "ヒント",
        "k_move": "カーソル移動", "k_cycle": "マスの状態を順に切り替え", "k_clear": "未定に戻す",
        "k_undo": "元に戻す", "k_redo": "やり直す", "k_back": "逆順に切り替え",
        "tap": ("マスをクリック／タップすると「{cycle}」の順に切り替わります。なぞると通ったマスが同じ状態に"
                "なります。右クリックか Shift+クリックで逆順。"),
        "noscript": "このページで遊ぶには JavaScript が必要です。",
    },
}

# What an input model changes in the page text (merged over PAGE for that model).
MODEL_PAGE: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "cells": {},
        "regions": {},
        "edges": {
            "board_label": ("Board. Use the arrow keys to move over cells and the lines "
                            "between them, and the keys below to draw lines."),
            "k_move": "move the cursor over cells and the lines between them",
            "k_cycle": "cycle the line under the cursor",
            "tap": ("Click or tap a line between two cells to cycle it: {cycle}. Drag along "
                    "the grid lines to draw; a drag that starts on a drawn line erases. "
                    "Right-click or Shift+click goes back."),
        },
    },
    "ja": {
        "cells": {},
        "regions": {},
        "edges": {
            "board_label": "盤面。矢印キーでマスとマスの間の線の上を移動し、下のキーで線を引きます。",
            "k_move": "マスと線の上でカーソル移動",
            "k_cycle": "カーソルの線を順に切り替え",
            "tap": ("マスの間の線をクリック／タップすると「{cycle}」の順に切り替わります。格子線に沿って"
                    "なぞると線が引けます。引いてある線からなぞり始めると消えます。"
                    "右クリックか Shift+クリックで逆順。"),
        },
    },
}

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


def page_context(puzzle: Any, lang: str, index: list[dict[str, Any]], data_url: str,
                 first: dict[str, Any] | None = None,
                 levels: list[str] | None = None) -> dict[str, Any]:
    """What play.html.j2 sees: the page text and the script's config, all from ``puzzle``."""
    spec = puzzle.play
    if spec.model not in MODELS:
        raise ValueError(f"{puzzle.slug}: play model {spec.model!r} is not one of {MODELS}")
    text = spec.text.get(lang) or spec.text["en"]
    config = {
        "slug": puzzle.slug, "lang": lang, "data": data_url, "index": index,
        "model": spec.model, "input": dict(spec.input),
        "rules": puzzle.rules.to_json(),
        "readout": text.get("readout"),
        "readoutHelp": text.get("readout_help"),
        "rungs": list(puzzle.rungs),
        "rungNames": rung_names(puzzle, lang),
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


def play_files(site: Any, puzzle: Any, bank_data: dict[str, Any]) -> dict[str, str | bytes]:
    """Every output file of the play pages for one puzzle, keyed by dist-relative path."""
    slug = puzzle.slug
    boards = list(bank_data.get("boards") or [])
    out: dict[str, str | bytes] = {}
    index = []
    for b in boards:
        bid = _safe_id(b["id"])
        index.append(index_entry(b))
        out[f"{slug}/play-data/{bid}.json"] = _json(board_entry(b)) + "\n"
        for lang in site.langs:
            out[f"{slug}/play-data/hints-{lang}/{bid}.json"] = _json(trace_entry(b, lang)) + "\n"
    out[f"{slug}/play-data/index.json"] = _json({"slug": slug, "boards": index}) + "\n"
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
BOARDS_PAGE: dict[str, dict[str, str]] = {
    "en": {"title": "{name}: every board", "lead": "Every banked board, with your progress "
           "in this browser: ✓ solved, … started.", "board": "Board", "size": "Size",
           "grade": "Grade", "level": "Difficulty", "clues": "Clues", "progress": "Progress",
           "play": "Back to the player", "noscript": "This list needs JavaScript.",
           "solved": "Solved", "started": "Started", "fresh": "Not started",
           "counts": "{solved} solved, {started} started, {total} in all."},
    "ja": {"title": "{name}：盤の一覧", "lead": "収録したすべての盤と、このブラウザーでの進み具合"
           "です（✓は正解、…は途中）。", "board": "盤", "size": "大きさ", "grade": "解き筋",
           "level": "難しさ", "clues": "手掛かり", "progress": "進み具合",
           "play": "プレイ画面に戻る", "noscript": "この一覧には JavaScript が必要です。",
           "solved": "正解", "started": "途中", "fresh": "未着手",
           "counts": "正解 {solved}、途中 {started}、全 {total} 盤。"},
}


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
                  "levelNames": {lvl: LEVEL_NAMES[lang].get(lvl, lvl) for lvl in levels or LEVELS},
                  "strings": {k: s[k] for k in ("solved", "started", "fresh", "counts")},
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
