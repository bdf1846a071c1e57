"""The solve pages: a visitor's own board solved in the browser by the project's solvers.

``solve_files(site, puzzle, runtime_cfg)`` returns ``{dist-relative path: content}`` for
``en/<slug>/solve/index.html`` and ``ja/<slug>/solve/index.html`` (template
``solve.html.j2``, script ``static/solve/solve.js``, worker ``static/solve/worker.js``);
``site_files(root)`` (site_builder/runtime.py) adds, once for every puzzle, the Pyodide
runtime and ``solvers.zip``. Only the solve pages load the runtime.

Like the play pages, the page text has no figures of its own: the script writes counts,
sizes and times, and the page's limits are vocabulary printed through ``|lit``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from site_builder.play import posix_rel, rung_names
from site_builder.solve import DEFAULT_TIMEOUT
from site_builder.solve_web import CELL, editor_spec
from solvers.common import MAX_CELLS

GRACE = 5.0  # seconds past the time limit before the page ends a worker that hangs
# setTimeout holds at most 2^31 - 1 ms: the page's largest time limit leaves the grace
# below that (about 24.8 days; the CLI's own limit, cli.MAX_TIMEOUT, is higher)
MAX_PAGE_TIMEOUT = float(int((2**31 - 1) / 1000 - GRACE))
INPUT_CAP = 64 * 1024  # characters of a pasted board or fragment, read before any parsing
AUTO_CELLS = 400  # boards up to this many cells are solved again as they change
HELP_SECONDS = 5.0  # the constructor help's budget for its trial solves

# Text the script writes into the page ({name} fields are filled in by solve.js).
JS_STRINGS: dict[str, dict[str, str]] = {
    "en": {
        "starting": "Starting the solver (Python, in this page)…",
        "ready": "The solver is ready.",
        "unavailable": ("The solver is not available on this copy of the site: its runtime "
                        "was not fetched when the site was built."),
        "bootFailed": "The solver could not start: {message}",
        "noBoard": "Paste a puzz.link URL of a board, or open a link that carries one.",
        "progress": "Solving: {nodes} search nodes, {seconds} s",
        "cancelled": "Cancelled. The solver is starting again.",
        "solved": "Solved in {ms} ms.",
        "tracing": "Solved. Working out the step-by-step explanation…",
        "traceTimeout": ("The answer and the grade are above; the step-by-step explanation "
                         "took longer than {seconds} s and was stopped."),
        "none": "No answer: no way of filling this board keeps every rule.",
        "one": "Exactly one answer.",
        "many": "Two or more answers: this board is not unique.",
        "grade": "Grade: {rung} (the lowest rung of the ladder that finishes it).",
        "ungraded": "Not graded.",
        "boardCaption": "The board", "answerCaption": "The answer",
        "answerN": "Answer {n}",
        "stepOf": "Step {k} of {n}",
        "watchdog": "the solver gave no answer within {seconds} s",
        "err_empty": "Paste a puzz.link URL of a board, or open a link that carries one.",
        "err_other": "This is a {other} board, not a {name} one.",
        "otherLink": "Solve it on the {other} page",
        "err_unknown": ("This link is for a puzzle this site does not solve (“{pid}”); it "
                        "solves {names}."),
        "err_size": "This board is {w}×{h}: the solver takes boards of at most {cap} cells.",
        "err_malformed": ("This link could not be read as a {name} board: {where}. A {name} "
                          "link looks like {form} (columns, rows, then the clues); check that "
                          "it was copied whole."),
        "whereAt": "its clues cannot be read from character {pos} of the part after the size on",
        "whereUrl": "it is not a puzz.link address",
        "whereAny": "its size or its clues do not make a board",
        "err_long": ("This text is {n} characters long, too long for a board's link (at most "
                     "{cap}). Paste the link of one board alone."),
        "keptBoard": "The board in the editor is still the one you had before.",
        "badKey": "“{key}” cannot go in a {name} cell: a cell holds {allowed}.",
        "allowRange": "a number from {lo} to {hi}", "allowFrom": "a number from {lo} up",
        "allowTokens": "a circle (o, with a number typed after it) or an arrow (^ v < >)",
        "allowQuestion": "? for a clue whose number is hidden", "allowSep": ", or ",
        "timeoutClamped": "The time limit is at most {max} seconds here; it was set to that.",
        "helpStopped": ("The constructor help took longer than {seconds} seconds and was "
                        "stopped; the solver is starting again."),
        "err_bound": ("The solve stopped at its limit with no verdict yet ({why}). Raise the "
                      "time or node limit and solve again."),
        "boundAt": "{nodes} search nodes, {seconds} s",
        "err_recursion": "This board is too large for the solver.",
        "err_internal": "The solver failed on this board: {message}",
        "editLabel": "Board editor.", "editAt": "Row {r}, column {c}.",
        "pressSolve": "A large board: press Solve when it is ready.",
        "badSize": "A board is at least 1×1 and at most {cap} cells.",
        "diffLegend": "Shaded: the cells where the two answers differ.",
        "helping": "Looking for clues that would make it unique ({done} of {total} tried)…",
        "helpingRemove": "Checking which clues it can spare ({done} of {total})…",
        "suggestHead": "Clues that make the board unique (each proved by the solver):",
        "suggestNone": "No single clue on a differing cell makes the board unique.",
        "suggest": "Row {r}, column {c}: {value}", "apply": "Add this clue",
        "pairHead": ("No single clue on a differing cell makes the board unique, but this "
                     "pair of clues does (proved by the solver):"),
        "pairNone": ("No single clue on a differing cell makes the board unique, nor does any "
                     "pair of clues on the first {n} differing cells."),
        "pairSep": " and ", "applyPair": "Add these two clues", "stop": ".",
        "removeHead": "Clues that can be removed with the board staying unique:",
        "removeNone": "Every clue is needed: removing any one gives a second answer.",
        "remove": "Row {r}, column {c}", "removeOne": "Remove",
        "helpPartial": "(the search for more ran out of time)",
    },
    "ja": {
        "starting": "ソルバーを起動しています（このページの中で Python が動きます）…",
        "ready": "ソルバーの準備ができました。",
        "unavailable": ("このサイトではソルバーを使えません。サイトを作るときに実行環境が"
                        "取得されませんでした。"),
        "bootFailed": "ソルバーを起動できませんでした：{message}",
        "noBoard": "盤の puzz.link URL を貼り付けるか、盤を含むリンクを開いてください。",
        "progress": "解いています：探索ノード {nodes}、{seconds} 秒",
        "cancelled": "中止しました。ソルバーを起動し直しています。",
        "solved": "{ms} ミリ秒で解けました。",
        "tracing": "解けました。手順の説明を組み立てています…",
        "traceTimeout": ("答えと解き筋は上のとおりです。手順の説明は {seconds} 秒を超えたため"
                         "止めました。"),
        "none": "答えはありません。どう埋めてもルールを守れません。",
        "one": "答えはちょうど一つです。",
        "many": "答えが二つ以上あります。この盤は唯一解ではありません。",
        "grade": "解き筋：{rung}（この盤を解き切る最も低い段）。",
        "ungraded": "解き筋は判定していません。",
        "boardCaption": "盤", "answerCaption": "答え",
        "answerN": "答え {n}",
        "stepOf": "手順 {k} / {n}",
        "watchdog": "{seconds} 秒以内にソルバーが答えを返しませんでした",
        "err_empty": "盤の puzz.link URL を貼り付けるか、盤を含むリンクを開いてください。",
        "err_other": "これは{name}ではなく{other}の盤です。",
        "otherLink": "{other}のページで解く",
        "err_unknown": ("このリンクは、このサイトで解けないパズルのものです（「{pid}」）。"
                        "解けるのは{names}です。"),
        "err_size": "この盤は {w}×{h} です。ソルバーが扱えるのは {cap} マスまでです。",
        "err_malformed": ("このリンクは{name}の盤として読めませんでした。{where}。{name}の"
                          "リンクは {form} の形です（列数、行数、手掛かりの順）。リンクが"
                          "途中で切れていないか確かめてください。"),
        "whereAt": "大きさの後ろの部分の {pos} 文字目から手掛かりが読めません",
        "whereUrl": "puzz.link のアドレスではありません",
        "whereAny": "大きさか手掛かりが盤になっていません",
        "err_long": ("この文字列は {n} 文字あり、盤のリンクとしては長すぎます（上限 {cap} "
                     "文字）。盤一つのリンクだけを貼り付けてください。"),
        "keptBoard": "編集欄の盤は前のままです。",
        "badKey": "「{key}」は{name}のマスには入りません。入るのは{allowed}です。",
        "allowRange": "{lo}から{hi}までの数", "allowFrom": "{lo}以上の数",
        "allowTokens": "丸（o、続けて数字でその数）か矢印（^ v < >）",
        "allowQuestion": "数を伏せた手掛かりの ?", "allowSep": "、",
        "timeoutClamped": "ここでの時間の上限は {max} 秒までです。その値にしました。",
        "helpStopped": ("作問の手助けが {seconds} 秒を超えたため止めました。ソルバーを起動し"
                        "直しています。"),
        "err_bound": ("上限に達したため、判定できないまま止まりました（{why}）。"
                      "時間かノード数の上限を上げて、もう一度解いてください。"),
        "boundAt": "探索ノード {nodes}、{seconds} 秒",
        "err_recursion": "この盤はソルバーには大きすぎます。",
        "err_internal": "この盤でソルバーが失敗しました：{message}",
        "editLabel": "盤の編集。", "editAt": "{r}行{c}列。",
        "pressSolve": "大きな盤です。できあがったら「解く」を押してください。",
        "badSize": "盤は 1×1 以上、{cap} マス以下です。",
        "diffLegend": "塗りつぶし：二つの答えで違うマス。",
        "helping": "唯一解にする手掛かりを探しています（{total} 通り中 {done} 通り）…",
        "helpingRemove": "外せる手掛かりを調べています（{total} 個中 {done} 個）…",
        "suggestHead": "盤を唯一解にする手掛かり（どれもソルバーで確かめ済み）：",
        "suggestNone": "違うマスに手掛かりを一つ足すだけでは唯一解になりません。",
        "suggest": "{r}行{c}列：{value}", "apply": "この手掛かりを足す",
        "pairHead": ("違うマスに手掛かりを一つ足すだけでは唯一解になりませんが、次の二つを"
                     "足せば唯一解になります（ソルバーで確かめ済み）："),
        "pairNone": ("違うマスに手掛かりを一つ足しても、最初の{n}個の違うマスから二つ選んで"
                     "足しても、唯一解にはなりません。"),
        "pairSep": "、", "applyPair": "この二つを足す", "stop": "。",
        "removeHead": "外しても唯一解のままの手掛かり：",
        "removeNone": "どの手掛かりも必要です。一つでも外すと別の答えができます。",
        "remove": "{r}行{c}列", "removeOne": "外す",
        "helpPartial": "（時間切れで、探しきれていません）",
    },
}

PAGE: dict[str, dict[str, str]] = {
    "en": {
        "title": "Solve a {name} board",
        "lead": ("Paste a puzz.link URL of your own board: the site's own solvers run in this "
                 "page and say how many answers it has, how hard it is and why each cell "
                 "is forced. Nothing leaves your browser."),
        "url": "puzz.link URL", "go": "Solve", "cancel": "Cancel",
        "limits": "Limits", "timeout": "Time limit (seconds)",
        "nodes": "Search node limit (empty: none)",
        "steps": "Step by step", "prev": "Previous step", "next": "Next step",
        "export": "This board on puzz.link:",
        "json": "The solver's result (the JSON of build-site solve --json --trace)",
        "article": "Read the article", "play": "Play the banked boards",
        "noscript": "This page needs JavaScript to run the solver.",
        "edit": "Edit the board", "rows": "Rows", "cols": "Columns", "new": "New empty board",
        "undo": "Undo", "redo": "Redo", "borders": "Draw region borders",
        "auto": "Solve as I edit",
        "edit_help": ("Click a cell (or move with the arrow keys) and type: digits, ? for a "
                      "hidden clue, Backspace to erase. Ctrl+Z undoes, Ctrl+Y redoes."),
        "help": "Constructor help", "playit": "Play this board",
        "edit_tokens": ("On this board: o places a circle, a digit gives it a number, ^ v < > "
                        "(or Shift with an arrow key) place arrows."),
        "edit_borders": ("Press “Draw region borders”, then drag along the grid lines to "
                         "draw a border or, starting on one, to erase it."),
        "pad": "Number pad", "gap": " ",
    },
    "ja": {
        "title": "{name}の盤を解く",
        "lead": ("自作の盤の puzz.link URL を貼り付けてください。このサイトのソルバーがこのページの"
                 "中で動き、答えの数、難しさ、各マスが決まる理由を示します。盤がブラウザーの外に"
                 "送られることはありません。"),
        "url": "puzz.link URL", "go": "解く", "cancel": "中止",
        "limits": "上限", "timeout": "時間の上限（秒）",
        "nodes": "探索ノード数の上限（空欄：なし）",
        "steps": "手順", "prev": "前の手順", "next": "次の手順",
        "export": "この盤の puzz.link：",
        "json": "ソルバーの結果（JSON。コマンドラインのソルバーが出すものと同じです）",
        "article": "記事を読む", "play": "収録盤を遊ぶ",
        "noscript": "ソルバーを動かすには JavaScript が必要です。",
        "edit": "盤を編集する", "rows": "行", "cols": "列", "new": "空の盤を作る",
        "undo": "元に戻す", "redo": "やり直す", "borders": "領域の境界を引く",
        "auto": "編集するたびに解く",
        "edit_help": ("マスをクリック（または矢印キーで移動）して入力します。数字、隠れた手掛かりは ?、"
                      "消すのは Backspace。Ctrl+Z で元に戻し、Ctrl+Y でやり直します。"),
        "help": "作問の手助け", "playit": "この盤を遊ぶ",
        "edit_tokens": ("この盤では、o で丸、続けて数字でその数、^ v < >（または Shift と矢印キー）"
                        "で矢印を置きます。"),
        "edit_borders": ("「領域の境界を引く」を押してから、格子線に沿ってなぞると境界が引けます。"
                         "引いてある境界からなぞり始めると消えます。"),
        "pad": "数字パッド",
        "gap": "",  # Japanese sentences run on without a space
    },
}


def _script_json(obj: Any) -> str:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


def page_context(puzzle: Any, lang: str, path: str, runtime: dict[str, Any],
                 shown: list[Any] | None = None) -> dict[str, Any]:
    """What solve.html.j2 sees: the page text and the script's config (``shown``: the
    site's puzzles, whose names a board of another puzzle is told by; default: this one)."""

    def here(target: str) -> str:
        d = posix_rel(path, target.rsplit("/", 1)[0] + "/")
        return d + target.rsplit("/", 1)[1]

    rt = dict(runtime)
    if rt.get("available"):
        rt["pyodide"] = posix_rel(path, rt["pyodide"])
        rt["zip"] = here(rt["zip"])
        rt["stdlib"] = here(rt["stdlib"])
        rt["wheels"] = [here(w) for w in rt["wheels"]]
    config = {
        "slug": puzzle.slug, "lang": lang, "pid": puzzle.pid, "cap": MAX_CELLS,
        "timeout": DEFAULT_TIMEOUT, "grace": GRACE, "cell": CELL,
        "maxTimeout": MAX_PAGE_TIMEOUT, "maxInput": INPUT_CAP,
        "solvePages": {p.slug: posix_rel(path, f"{lang}/{p.slug}/solve/")
                       for p in (shown or [puzzle])},
        "names": {p.slug: p.names[lang] for p in (shown or [puzzle])},
        "rungNames": rung_names(puzzle, lang), "strings": JS_STRINGS[lang],
        "worker": here("static/solve/worker.js"), "runtime": rt,
        "edit": editor_spec(puzzle.slug), "auto": AUTO_CELLS, "help": HELP_SECONDS,
        "play": posix_rel(path, f"{lang}/{puzzle.slug}/play/"),
    }
    return {"solve": {"slug": puzzle.slug, "name": puzzle.names[lang], "s": PAGE[lang],
                      "timeout": DEFAULT_TIMEOUT, "max_timeout": int(MAX_PAGE_TIMEOUT),
                      "edit": config["edit"],
                      "config": _script_json(config)}}


def solve_files(site: Any, puzzle: Any, runtime: dict[str, Any]) -> dict[str, str | bytes]:
    """The two solve pages of one puzzle (``runtime``: site_files' config)."""
    out: dict[str, str | bytes] = {}
    for lang in site.langs:
        path = f"{lang}/{puzzle.slug}/solve/index.html"
        title = PAGE[lang]["title"].format(name=puzzle.names[lang])
        out[path] = site.render_page("solve.html.j2", lang=lang, path=path, title=title,
                                     description=PAGE[lang]["lead"],
                                     **page_context(puzzle, lang, path, runtime,
                                                    site.puzzles))
    return out


def all_files(site: Any, root: Path) -> dict[str, str | bytes]:
    """Every puzzle's solve pages plus what they share (the runtime, solvers.zip)."""
    from site_builder import runtime

    # the runtime and the zip come with the code that runs, not with the project folder
    # (a build of another folder's content/ and templates/ ships this checkout's solvers)
    shared, cfg = runtime.site_files(runtime.HOME, tuple(p.slug for p in site.puzzles))
    files: dict[str, str | bytes] = dict(shared)
    for p in site.puzzles:
        files.update(solve_files(site, p, cfg))
    return files


def standalone_files(root: Any, slugs: list[str] | None = None) -> dict[str, str | bytes]:
    """The solve pages alone (with the runtime and templates/static/**), rendered through
    the real layout without stage files: for the browser tests and the benchmark."""
    from site_builder.site import Site
    from site_builder.sources import static_files

    root = Path(root)
    site = Site(root, slugs=slugs, load_data=False)
    files = all_files(site, root)
    files.update(static_files(site.root, site.puzzles))
    return files
