// The solve page: a board from the fragment or the URL box, solved by the project's own
// solvers in a Web Worker (worker.js, Pyodide), the answer count, the answers drawn, the
// grade and the step-by-step explanation shown. It names no puzzle: what it knows of one
// comes from the page's config (id "solve-config", site_builder/solve_page.py).
//
// The fragment carries the board, as a full puzz.link URL or the bare pid/W/H/body
// (#https://puzz.link/p?pid/5/5/... or #pid/5/5/...), so a link shares it. The solver's
// result, the JSON `build-site solve SLUG URL --json --trace` prints, is written into
// <output id="solve-result">; body[data-solve] says where the page is: "starting",
// "idle", "solving", "done", "error" or "unavailable" (tests and scripts wait on it).

import { Editor } from "./editor.js";
import { madeId, pack } from "../play/madelink.js";

const cfg = JSON.parse(document.getElementById("solve-config").textContent);
const T = cfg.strings;
const $ = (id) => document.getElementById(id);
const fill = (tpl, p = {}) => tpl.replace(/\{(\w+)\}/g, (m, k) => (k in p ? String(p[k]) : m));
const abs = (u) => new URL(u, document.baseURI).href;
const NS = "http://www.w3.org/2000/svg";

let worker = null;
let ready = false;
let seq = 0;
/**
 * @typedef {{id: number, text: string, started: number, timeout: number, fromEditor: boolean,
 *   watch?: () => void, watchdog?: number, phase?: string}} Pending
 */
/** @type {Pending | null} */
let pending = null;      // {id, text, started, watchdog}
let queued = null;       // a board asked for before the runtime was up
let queuedBoard = null;
let helpId = null;       // the constructor help request being waited for
let helpKind = "";
let steps = [];
let step = 0;
let lastReply = null;
let lastText = "";        // the text of the last board asked for
let fromEditorReply = false;   // the reply shown is for the editor's board

function setState(s) { document.body.dataset.solve = s; }
function status(text, kind = "") {
  const el = $("solve-status");
  el.textContent = text;
  el.dataset.kind = kind;
}
const num = (n) => Number(n).toLocaleString(cfg.lang === "ja" ? "ja-JP" : "en-US");

// ---- the worker -------------------------------------------------------------------------

function startWorker() {
  ready = false;
  if (!cfg.runtime.available) {
    setState("unavailable");
    status(T.unavailable, "error");
    /** @type {HTMLButtonElement} */ ($("solve-go")).disabled = true;
    return;
  }
  setState("starting");
  status(T.starting);
  const t0 = performance.now();
  worker = new Worker(abs(cfg.worker), { type: "module" });
  worker.onmessage = (e) => onMessage(e.data, t0);
  worker.onerror = (e) => {
    e.preventDefault();
    fail(fill(T.bootFailed, { message: e.message || "worker error" }));
  };
  worker.postMessage({
    type: "init", pyodide: abs(cfg.runtime.pyodide), zip: abs(cfg.runtime.zip),
    stdlib: abs(cfg.runtime.stdlib), slug: cfg.slug,
    wheels: cfg.runtime.wheels.map(abs), modules: cfg.runtime.modules || [],
    imports: cfg.runtime.imports || [], onDemand: !!cfg.runtime.onDemand,
  });
}

function fail(text) {
  clearPending();
  setState("error");
  status(text, "error");
  $("solve-cancel").hidden = true;
}

function onMessage(m, t0) {
  if (m.type === "ready") {
    ready = true;
    window.__solve.startMs = performance.now() - t0;
    window.__solve.bootMs = m.ms;
    window.__solve.bootMarks = m.marks;
    setState("idle");
    status(T.ready);
    if (queued !== null || queuedBoard !== null) {
      const t = queued, b = queuedBoard;
      queued = null; queuedBoard = null;
      solve(t || "", b);
    }
  } else if (m.type === "kept") {
    window.__solve.kept = true;   // the interpreter's memory is stored for the next visit
  } else if (m.type === "installed") {
    window.__solve.wheelMs = m.ms;
  } else if (m.type === "warmed") {
    window.__solve.warmMs = m.ms;
  } else if (m.type === "warmedImports") {
    window.__solve.importsMs = m.ms;
  } else if (m.type === "fail") {
    fail(fill(T.bootFailed, { message: m.message }));
  } else if (m.type === "installing" && pending && m.id === pending.id) {
    // python-sat goes in first, then the solve starts over: its clock starts over too
    window.__solve.installs = (window.__solve.installs || 0) + 1;
    if (pending.phase !== "tracing") {
      clearTimeout(pending.watchdog);
      pending.watchdog = watchdog(pending.watch, pending.timeout + cfg.grace);
    }
    if (helpPending && m.id === helpPending.id) armHelp();
  } else if (m.type === "installing" && helpPending && m.id === helpPending.id) {
    armHelp();   // the wheel's install does not count against help's budget either
  } else if (m.type === "progress" && pending && m.id === pending.id) {
    status(fill(T.progress, { nodes: num(m.nodes), seconds: m.seconds.toFixed(1) }));
  } else if (m.type === "done" && pending && m.id === pending.id) {
    const ms = m.ms;
    const fromEditor = pending.fromEditor;
    if (m.reply.tracing) {
      // the explanation follows: the worker stays bounded, and cancellable, meanwhile
      clearTimeout(pending.watchdog);
      pending.phase = "tracing";
      pending.watchdog = watchdog(traceTimedOut, pending.timeout + cfg.grace);
    } else {
      clearPending();
      $("solve-cancel").hidden = true;
    }
    window.__solve.solveMs = ms;
    window.__solve.traceMs = null;
    // the worker's split of this solve, and the Python side's (benchmarks/solve_page.py)
    const timing = { ...(m.timing || {}) };
    for (const [k, v] of Object.entries((m.reply && m.reply.timing) || {})) {
      timing[k] = (timing[k] || 0) + v;
    }
    window.__solve.timing = timing;
    if (m.reply.ok) {
      /** @type {HTMLInputElement} */ ($("solve-input")).value = m.reply.url;
      if (fromEditor) {
        // the fragment follows the board, so the link shares it (no hashchange: no re-solve)
        history.replaceState(null, "", "#" + m.reply.url);
      } else {
        editor.load(m.reply.board);
        sizeInputs();
      }
    }
    show(m.reply);
    if (m.reply.ok && m.reply.result.solutions >= 2) askHelp(m.reply.url);
  } else if (m.type === "traced" && pending && m.id === pending.id) {
    clearPending();
    $("solve-cancel").hidden = true;
    window.__solve.traceMs = m.ms;
    for (const [k, v] of Object.entries(m.timing || {})) window.__solve.timing["trace " + k] = v;
    lastReply.result.trace = m.trace;
    $("solve-result").textContent = resultText(lastReply.result);
    showSteps();
    setState("done");
    status(fill(T.solved, { ms: Math.round(window.__solve.solveMs || 0) }));
    askHelp(lastReply.url);
  } else if (m.type === "helping" && helpId === m.id) {
    const tpl = helpKind === "remove" ? T.helpingRemove : T.helping;
    $("help-status").textContent = fill(tpl, { done: m.done, total: m.total });
  } else if (m.type === "helped" && helpId === m.id) {
    showHelp(m.reply);
  }
}

function clearPending() {
  if (pending && pending.watchdog) clearTimeout(pending.watchdog);
  pending = null;
}

// The time limit as the page can keep it: the watchdog is a setTimeout of (limit +
// grace) seconds, and setTimeout takes at most 2^31 - 1 ms (past that it fires at once),
// so a larger limit is brought down to cfg.maxTimeout and the field shows it.
function limits() {
  const field = /** @type {HTMLInputElement} */ ($("solve-timeout"));
  let t = parseFloat(field.value);
  if (!(t > 0)) t = cfg.timeout;
  if (t > cfg.maxTimeout) {
    t = cfg.maxTimeout;
    field.value = String(t);
    status(fill(T.timeoutClamped, { max: num(t) }));
  }
  const n = parseInt(/** @type {HTMLInputElement} */ ($("solve-nodes")).value, 10);
  return { timeout: t, maxNodes: n > 0 ? n : 0 };
}

// A timer for the worker that the browser can keep (ms below 2^31).
function watchdog(fn, seconds) {
  return setTimeout(fn, Math.min(seconds * 1000, 2 ** 31 - 1));
}

function solve(text, board = null) {
  if (!cfg.runtime.available) return;
  if (tooLong(text)) return;
  if (!ready) { queued = text; queuedBoard = board; return; }
  clearPending();
  helpId = null;
  clearHelp();
  const { timeout, maxNodes } = limits();
  const id = ++seq;
  const started = performance.now();
  pending = { id, text, started, timeout, fromEditor: board !== null };
  lastText = text;
  fromEditorReply = board !== null;
  setState("solving");
  status(fill(T.progress, { nodes: num(0), seconds: "0.0" }));
  $("solve-cancel").hidden = false;
  // The solver stops itself at the time limit; a propagation that visits no search node
  // cannot see the clock, so the page ends the worker a little after the limit.
  pending.watch = () => {
    restart();
    show({ ok: false, error: "bound", message: fill(T.watchdog, { seconds: timeout }) });
  };
  pending.watchdog = watchdog(pending.watch, timeout + cfg.grace);
  worker.postMessage({ type: "solve", id, slug: cfg.slug, text, timeout, maxNodes, trace: true,
    board: board === null ? "" : JSON.stringify(board), split: !!window.__solve.split });
}

function restart() {
  clearPending();
  clearHelp();
  if (worker) worker.terminate();
  worker = null;
  startWorker();
}

function cancel() {
  restart();
  $("solve-cancel").hidden = true;
  status(T.cancelled);
  // startWorker set "starting"; a test waits for this state, then for "idle"
  document.body.dataset.cancelled = String(Number(document.body.dataset.cancelled || 0) + 1);
}

// ---- showing a reply ----------------------------------------------------------------------

function resultText(obj) { return JSON.stringify(obj); }

function show(reply) {
  document.body.dataset.replies = String(Number(document.body.dataset.replies || 0) + 1);
  lastReply = reply;
  window.__solve.reply = reply;
  const out = $("solve-result");
  $("solve-out").hidden = true;
  $("solve-steps").hidden = true;
  $("solve-help").hidden = true;
  $("solve-legend").hidden = true;
  $("solve-answers").replaceChildren();
  if (!reply.ok) {
    out.textContent = resultText({ error: reply.error, message: reply.message });
    showError(reply, !fromEditorReply);
    return;
  }
  const r = reply.result;
  out.textContent = resultText(r);
  $("solve-out").hidden = false;
  const n = r.solutions;
  $("solve-verdict").textContent = n === 0 ? T.none : n === 1 ? T.one : T.many;
  $("solve-verdict").dataset.count = String(n);
  const grade = $("solve-grade");
  if (n >= 1 && r.graded && r.rung) {
    grade.textContent = fill(T.grade, { rung: cfg.rungNames[r.rung] || r.rung });
    grade.dataset.rung = r.rung;
  } else if (n >= 1 && !r.graded) {
    grade.textContent = T.ungraded;
    grade.dataset.rung = "";
  } else {
    grade.textContent = "";
    grade.dataset.rung = "";
  }
  const box = $("solve-answers");
  const svgs = n === 0 ? [reply.svg.board] : reply.svg.answers;
  svgs.forEach((svg, i) => {
    const fig = document.createElement("figure");
    fig.className = "solve-answer";
    fig.innerHTML = svg;
    const cap = document.createElement("figcaption");
    cap.textContent = n === 0 ? T.boardCaption : n === 1 ? T.answerCaption
      : fill(T.answerN, { n: i + 1 });
    fig.append(cap);
    box.append(fig);
  });
  if (n >= 2 && reply.diff) {
    markCells(box.querySelectorAll("svg"), reply.diff, "solve-diff");
    $("solve-legend").textContent = T.diffLegend;
    $("solve-legend").hidden = false;
  }
  /** @type {HTMLAnchorElement} */ ($("solve-export")).href = reply.url;
  $("solve-export").textContent = reply.url;
  $("solve-play").hidden = n !== 1;
  const broken = $("solve-broken");
  broken.replaceChildren();
  broken.hidden = !(n === 0 && reply.broken && reply.broken.length);
  for (const v of (n === 0 && reply.broken) || []) {
    const li = document.createElement("li");
    li.textContent = v[cfg.lang] || v.en;
    li.dataset.rule = v.rule;
    broken.append(li);
    markCells(box.querySelectorAll("svg"), v.cells, "solve-broken");
  }
  showSteps();
  if (reply.tracing) {
    setState("tracing");
    status(T.tracing);
  } else {
    setState("done");
    status(fill(T.solved, { ms: Math.round(window.__solve.solveMs || 0) }));
  }
}

function showSteps() {
  const r = lastReply.result;
  steps = r.solutions === 1 && Array.isArray(r.trace) ? r.trace : [];
  $("solve-steps").hidden = !steps.length;
  if (steps.length) {
    step = 0;
    drawStep(lastReply);
  }
}

// The explanation took past the time limit: the answer and the grade stay, the worker
// starts again.
function traceTimedOut() {
  restart();
  setState("done");
  status(fill(T.traceTimeout, { seconds: limits().timeout }), "error");
}

// An error in the visitor's terms: what is wrong, and what to do. (The solver's own
// words stay in the result JSON below the page.)
function errorText(reply) {
  const key = "err_" + reply.error;
  const tpl = T[key] || T.err_internal;
  const name = cfg.names[cfg.slug] || cfg.slug;
  const p = { message: reply.message, cap: num(cfg.cap), name };
  if (reply.error === "other") p.other = (cfg.names[reply.slug] || reply.slug);
  if (reply.error === "size") { p.w = reply.w; p.h = reply.h; }
  if (reply.error === "unknown") {
    p.pid = reply.pid;
    // "A, B, C and D" (not "A and B and C ..."):
    // the language's own list, "、" between the names in Japanese
    p.names = listText(Object.values(cfg.names));
  }
  if (reply.error === "bound") {
    // the solver's counts in the page's words; the watchdog's own line as it is
    p.why = reply.nodes !== undefined
      ? fill(T.boundAt, { nodes: num(reply.nodes), seconds: num(reply.seconds) })
      : reply.message;
  }
  if (reply.error === "long") { p.n = num(reply.length); p.cap = num(cfg.maxInput); }
  if (reply.error === "malformed") {
    const at = /position (\d+)/.exec(reply.message || "");
    p.where = at ? fill(T.whereAt, { pos: num(Number(at[1]) + 1) })
      : /not a puzz\.link URL/.test(reply.message || "") ? T.whereUrl : T.whereAny;
    p.form = `https://puzz.link/p?${cfg.pid}/10/10/…`;
  }
  return fill(tpl, p);
}

// The status line of an error: its words, a link to the right page for another puzzle's
// board, and, when the board came as text, that the editor still shows the last one.
function showError(reply, fromText) {
  setState("error");
  const el = $("solve-status");
  el.dataset.kind = "error";
  el.textContent = errorText(reply);
  if (reply.error === "other" && cfg.solvePages[reply.slug]) {
    const a = document.createElement("a");
    a.id = "solve-other";
    a.href = new URL(cfg.solvePages[reply.slug] + "#" + (lastText || ""), document.baseURI).href;
    a.textContent = fill(T.otherLink, { other: cfg.names[reply.slug] || reply.slug });
    el.append(" ", a, T.stop || "");
  }
  if (fromText && editor && editor.board) el.append(" " + T.keptBoard);
}

// ---- drawing over the puzzle's own SVG (solvers/svg.py: a 1-unit margin) ---------------------

function cellRect(svg, r, c, cls) {
  const s = cfg.cell;
  const rect = document.createElementNS(NS, "rect");
  rect.setAttribute("x", String(1 + c * s));
  rect.setAttribute("y", String(1 + r * s));
  rect.setAttribute("width", s);
  rect.setAttribute("height", s);
  rect.setAttribute("class", cls);
  svg.append(rect);
}

function markCells(svgs, cells, cls) {
  for (const svg of svgs) for (const [r, c] of cells) cellRect(svg, r, c, cls);
}

function drawStep(reply) {
  const n = steps.length;
  const s = steps[step];
  $("step-count").textContent = fill(T.stepOf, { k: step + 1, n });
  $("step-text").textContent = s[cfg.lang] || s.en || "";
  /** @type {HTMLButtonElement} */ ($("step-prev")).disabled = step === 0;
  /** @type {HTMLButtonElement} */ ($("step-next")).disabled = step === n - 1;
  const holder = $("step-board");
  holder.innerHTML = reply.svg.answers[0];
  const svg = holder.querySelector("svg");
  // Cells a later step decides are veiled; this step's cells shaded, its reasons outlined.
  const key = ([r, c]) => `${r},${c}`;
  const done = new Set();
  for (let i = 0; i <= step; i++) for (const c of steps[i].cells || []) done.add(key(c));
  const later = new Map();
  for (let i = step + 1; i < n; i++) {
    for (const c of steps[i].cells || []) if (!done.has(key(c))) later.set(key(c), c);
  }
  for (const [r, c] of later.values()) cellRect(svg, r, c, "step-veil");
  for (const [r, c] of s.cells || []) cellRect(svg, r, c, "step-now");
  for (const [r, c] of s.why || []) cellRect(svg, r, c, "step-why");
  svg.setAttribute("aria-label", $("step-count").textContent);
}

// A list of names in the page's language: "A, B and C"; "A、B、C".
function listText(names) {
  if (cfg.lang === "ja") return names.join("、");
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")}${T.pairSep}${names.at(-1)}`;
}

// ---- the player ---------------------------------------------------------------------------

async function playIt() {
  const reply = lastReply;
  if (!reply || !reply.ok || reply.result.solutions !== 1) return;
  const { h, w } = reply.board;
  const id = madeId(reply.url);
  const made = {
    id, size: `${h}x${w}`, h, w, grade: reply.result.rung, clues: reply.clues,
    url: reply.url, board: reply.board, answer: reply.answerJson, trace: reply.result.trace || [],
  };
  // kept here with its hint trace; the link carries the board itself (madelink.js)
  try {
    localStorage.setItem(`play:${cfg.slug}:made`, JSON.stringify(made));
  } catch { /* storage off: the link alone */ }
  const packed = await pack(made);
  location.href = new URL(`${cfg.play}#${encodeURIComponent(id)}&b=${packed}`, document.baseURI).href;
}
$("solve-play").addEventListener("click", playIt);

// ---- constructor help ------------------------------------------------------------------------

// Help is under a watchdog as a solve is: its budget (its trial solves stop themselves
// when it is spent), plus the grace; past that the worker is started again and the help
// says it stopped.
let helpPending = null;   // {id, timer}
function armHelp() {
  if (!helpPending) return;
  clearTimeout(helpPending.timer);
  helpPending.timer = watchdog(helpTimedOut, cfg.help + cfg.grace);
}
function helpTimedOut() {
  helpPending = null;
  helpId = null;
  restart();
  document.body.dataset.help = "stopped";
  $("help-status").textContent = fill(T.helpStopped, { seconds: num(cfg.help) });
}
function clearHelp() {
  if (helpPending) clearTimeout(helpPending.timer);
  helpPending = null;
}

function askHelp(url) {
  helpId = ++seq;
  clearHelp();
  helpPending = { id: helpId, timer: null };
  armHelp();
  const n = lastReply.result.solutions;
  helpKind = n === 1 ? "remove" : "suggest";
  $("solve-help").hidden = false;
  $("help-list").replaceChildren();
  $("help-status").textContent = fill(n === 1 ? T.helpingRemove : T.helping, { done: 0, total: "…" });
  worker.postMessage({ type: "help", id: helpId, slug: cfg.slug, text: url, budget: cfg.help });
}

function valueText(board, [r, c]) {
  const v = board[cfg.edit.field][r][c];
  const l = editor.label(v);
  if (!l) return "";
  return (l.circle ? "○" : "") + (l.text || "");
}

function showHelp(reply) {
  helpId = null;
  clearHelp();
  const list = $("help-list");
  list.replaceChildren();
  document.body.dataset.help = "done";
  if (!reply.ok) { $("help-status").textContent = errorText(reply); return; }
  const partial = reply.complete ? "" : " " + T.helpPartial;
  const svgs = $("solve-answers").querySelectorAll("svg");
  const item = (text, button, board) => {
    const li = document.createElement("li");
    li.textContent = text;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = button;
    b.addEventListener("click", () => { editor.load(board, { keepHistory: true }); edited(board, true); });
    li.append(b);
    list.append(li);
  };
  if (reply.suggestions) {
    $("help-status").textContent = (reply.suggestions.length ? T.suggestHead : T.suggestNone) + partial;
    for (const sug of reply.suggestions) {
      const [r, c] = sug.cell;
      item(fill(T.suggest, { r: r + 1, c: c + 1, value: valueText(sug.board, sug.cell) }), T.apply, sug.board);
      markCells(svgs, [sug.cell], "solve-suggested");
    }
    // (no pair found and the time ran out: the pairs were not all tried, say only that)
    if (!reply.suggestions.length && reply.pairs && (reply.pairs.length || reply.complete)) {
      // no single clue does it: a proved pair, or say that none of those tried does
      const lead = reply.pairs.length ? T.pairHead : T.pairNone;
      $("help-status").textContent = fill(lead, { n: reply.pairCells }) + partial;
      for (const pair of reply.pairs) {
        const parts = pair.cells.map(([r, c]) =>
          fill(T.suggest, { r: r + 1, c: c + 1, value: valueText(pair.board, [r, c]) }));
        item(parts.join(T.pairSep), T.applyPair, pair.board);
        markCells(svgs, pair.cells, "solve-suggested");
      }
    }
  } else if (reply.removable) {
    $("help-status").textContent = (reply.removable.length ? T.removeHead : T.removeNone) + partial;
    for (const rem of reply.removable) {
      const [r, c] = rem.cell;
      item(fill(T.remove, { r: r + 1, c: c + 1 }), T.removeOne, rem.board);
      markCells(svgs, [rem.cell], "solve-removable");
    }
  }
  window.__solve.help = reply;
}

// ---- the editor ----------------------------------------------------------------------------

let debounce = null;
function edited(board, now = false) {
  if (debounce) clearTimeout(debounce);
  const big = board.h * board.w > cfg.auto;
  if (!/** @type {HTMLInputElement} */ ($("edit-auto")).checked || big) {
    if (big) status(T.pressSolve);
    pendingEdit = board;
    return;
  }
  debounce = setTimeout(() => { pendingEdit = null; solve("", board); }, now ? 0 : 400);
}
let pendingEdit = null;

const editor = new Editor($("edit-board"), cfg.edit, T, (board) => edited(board));
// What a cell of this puzzle may hold, in words, for a key it cannot take.
function allowedText() {
  const sp = cfg.edit;
  const parts = [];
  if (sp.numbers) {
    const [lo, hi] = sp.numbers;
    parts.push(hi === null ? fill(T.allowFrom, { lo: num(lo) })
      : fill(T.allowRange, { lo: num(lo), hi: num(hi) }));
  }
  if (sp.tokens) parts.push(T.allowTokens);
  if (sp.question) parts.push(T.allowQuestion);
  return parts.join(T.allowSep);
}
editor.onReject = (key) => {
  status(fill(T.badKey, { key, name: cfg.names[cfg.slug] || cfg.slug, allowed: allowedText() }),
    "error");
  document.body.dataset.rejected = String(Number(document.body.dataset.rejected || 0) + 1);
};
window.__solve_editor = editor;

function sizeInputs() {
  /** @type {HTMLInputElement} */ ($("edit-h")).value = editor.board.h;
  /** @type {HTMLInputElement} */ ($("edit-w")).value = editor.board.w;
}

function buildPad() {
  const pad = $("edit-pad");
  const sp = cfg.edit;
  const keys = [];
  if (sp.numbers || (sp.tokens && sp.tokens.number)) {
    // only the digits a clue can hold: 1-4 for numbers [1, 4]; all ten where a number
    // may take two digits (it is typed digit by digit)
    const [lo, hi] = sp.numbers || [0, null];
    const one = hi !== null && hi <= 9;
    for (let d = one ? lo : 0; d <= (one ? hi : 9); d++) keys.push([String(d), String(d)]);
  }
  if (sp.tokens) keys.push(["o", "○"], ["^", "↑"], ["v", "↓"], ["<", "←"], [">", "→"]);
  if (sp.question) keys.push(["?", "?"]);
  keys.push(["Backspace", "⌫"]);
  for (const [k, label] of keys) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.key = k;
    b.addEventListener("click", () => {
      editor.svg.focus();   // the keyboard goes on where the pad left off
      if (k === "Backspace") editor.erase();
      else if (/^\d$/.test(k)) editor.digit(k);
      else if (!editor.put(k)) editor.reject(k);
    });
    pad.append(b);
  }
}

$("edit-new").addEventListener("click", () => {
  const h = parseInt(/** @type {HTMLInputElement} */ ($("edit-h")).value, 10);
  const w = parseInt(/** @type {HTMLInputElement} */ ($("edit-w")).value, 10);
  if (!(h >= 1 && w >= 1 && h * w <= cfg.cap)) { status(fill(T.badSize, { cap: num(cfg.cap) }), "error"); return; }
  const b = editor.blank(h, w);
  editor.load(b, { keepHistory: true });
  edited(b, true);
});
$("edit-undo").addEventListener("click", () => editor.undo());
$("edit-redo").addEventListener("click", () => editor.redo());
if ($("edit-borders")) {
  $("edit-borders").addEventListener("click", () => {
    editor.bordersMode = !editor.bordersMode;
    $("edit-borders").setAttribute("aria-pressed", String(editor.bordersMode));
  });
}
buildPad();
editor.load(editor.blank(5, 5));
sizeInputs();

// ---- input: the fragment, the URL box -------------------------------------------------------

// One cap on what the page reads (cfg.maxInput characters, as the CLI's): longer text is
// refused before it is decoded, trimmed or sent to the worker, with one line saying so.
function tooLong(text) {
  if (text.length <= cfg.maxInput) return false;
  fromEditorReply = false;
  show({ ok: false, error: "long", message: "", length: text.length });
  return true;
}

function fromHash() {
  // (percent-escapes triple a character at most: a longer fragment is over the cap)
  if (location.hash.length > 3 * cfg.maxInput + 1) return location.hash.slice(1);
  let t = location.hash.slice(1);
  try { t = decodeURIComponent(t); } catch { /* keep it raw: the solver names the fault */ }
  return t.trim();
}

function go(text) {
  if (tooLong(text)) return;
  /** @type {HTMLInputElement} */ ($("solve-input")).value = text;
  if (!text) {
    setState(cfg.runtime.available ? (ready ? "idle" : "starting") : "unavailable");
    return;
  }
  solve(text);
}

$("solve-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const raw = /** @type {HTMLInputElement} */ ($("solve-input")).value;
  if (tooLong(raw)) return;
  const text = raw.trim();
  if (pendingEdit && (!text || text === fromHash())) { const b = pendingEdit; pendingEdit = null; solve("", b); return; }
  if (!text) { status(T.noBoard); return; }
  if (fromHash() === text) solve(text);
  else location.hash = text;   // hashchange solves it, and the link now shares it
});
$("solve-cancel").addEventListener("click", cancel);
$("step-prev").addEventListener("click", () => { if (step > 0) { step--; drawStep(lastReply); } });
$("step-next").addEventListener("click", () => {
  if (step < steps.length - 1) { step++; drawStep(lastReply); }
});
$("solve-steps").addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") $("step-prev").click();
  if (e.key === "ArrowRight") $("step-next").click();
});
window.addEventListener("hashchange", () => go(fromHash()));

window.__solve = { cfg };
startWorker();
const first = fromHash();
if (first) go(first);
else if (cfg.runtime.available) status(T.starting + " " + T.noBoard);
