// The play framework: board picker, SVG board, input, undo/redo, storage, timer,
// check and hint panels. Everything puzzle-specific lives in ./<slug>.js, which exports
// RULES, MESSAGES, violations(board, answer), STATE_NAMES, CYCLE, KEYS, fixedState,
// answerState, traceState, toAnswer, cellSvg and cellText (and optionally message(v, lang)).
// States per cell: 0 undecided, 1 the "on" state, 2 the "off" mark.

performance.mark("play-start");
const cfg = JSON.parse(document.getElementById("play-config").textContent);
const T = cfg.strings;
const lang = cfg.lang;
const $ = (id) => document.getElementById(id);
const fmt = (s, o) => s.replace(/\{(\w+)\}/g, (_, k) => (k in o ? o[k] : `{${k}}`));

// The board to show first: #id, else the last one played, else the bank's first. Its
// data (unless inline) is requested now, alongside the checker module.
function lastPlayed() {
  try { return localStorage.getItem(`play:${cfg.slug}:last`); } catch { return null; }
}
const has = (id) => cfg.index.some((b) => b.id === id);
const wanted = decodeURIComponent(location.hash.slice(1));
const firstId = has(wanted) ? wanted : has(lastPlayed()) ? lastPlayed()
  : cfg.index.length ? cfg.index[0].id : null;
const dataUrl = (id) => `${cfg.data}${encodeURIComponent(id)}.json`;
let early = firstId && !(cfg.first && cfg.first.id === firstId)
  ? { id: firstId, res: fetch(dataUrl(firstId)).catch(() => null) } : null;

const P = await import(new URL(`./${cfg.slug}.js`, import.meta.url));

const CELL = 40;   // SVG units per cell
const PAD = 2;

const store = {
  key: (id) => `play:${cfg.slug}:${id}`,
  get(id) {
    try { return JSON.parse(localStorage.getItem(this.key(id)) || "null"); } catch { return null; }
  },
  set(id, v) {
    try { localStorage.setItem(this.key(id), JSON.stringify(v)); } catch { /* full or off */ }
  },
  last(id) {
    try {
      if (id === undefined) return localStorage.getItem(`play:${cfg.slug}:last`);
      localStorage.setItem(`play:${cfg.slug}:last`, id);
    } catch { return null; }
    return null;
  },
};

// ---- state ---------------------------------------------------------------------------
let entry = null;          // the board's data file
let board = null;
let states = null;         // Uint8Array, row-major
let fixed = null;          // Array of fixed state or null
let undoStack = [];        // each item: [[index, from, to], ...]
let redoStack = [];
let cursor = 0;
let marks = { bad: new Set(), hint: new Set() };
let solved = false;
let elapsed = 0;           // ms before the current run of the clock
let runningSince = null;   // performance.now() while the clock runs
let loadSeq = 0;

// ---- picker --------------------------------------------------------------------------
const boards = cfg.index;
const sizeSel = $("pick-size"), gradeSel = $("pick-grade"), boardSel = $("pick-board");

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function fillFilters() {
  const sizes = [...new Set(boards.map((b) => b.size))];
  const grades = cfg.rungs.filter((g) => boards.some((b) => b.grade === g));
  for (const g of new Set(boards.map((b) => b.grade))) if (!grades.includes(g)) grades.push(g);
  sizeSel.replaceChildren(option("", T.allSizes), ...sizes.map((s) => option(s, s)));
  gradeSel.replaceChildren(option("", T.allGrades), ...grades.map((g) => option(g, rungName(g))));
}

function rungName(g) {
  return (cfg.rungNames && cfg.rungNames[g]) || g;
}

function boardLabel(b, n) {
  const rec = store.get(b.id);
  const mark = rec && rec.solved ? ` ${T.solvedMark}` : rec && rec.m ? ` ${T.startedMark}` : "";
  return fmt(T.boardOption, { n, id: b.id, size: b.size, grade: rungName(b.grade), clues: b.clues }) + mark;
}

function fillBoards(keep) {
  const size = sizeSel.value, grade = gradeSel.value;
  const list = boards.filter((b) => (!size || b.size === size) && (!grade || b.grade === grade));
  boardSel.replaceChildren(...list.map((b) => option(b.id, boardLabel(b, boards.indexOf(b) + 1))));
  if (keep && list.some((b) => b.id === keep)) boardSel.value = keep;
  return list;
}

function refreshLabel(id) {
  const o = [...boardSel.options].find((x) => x.value === id);
  const b = boards.find((x) => x.id === id);
  if (o && b) o.textContent = boardLabel(b, boards.indexOf(b) + 1);
}

sizeSel.addEventListener("change", () => {
  const list = fillBoards(entry && entry.id);
  if (list.length && (!entry || !list.some((b) => b.id === entry.id))) load(list[0].id);
});
gradeSel.addEventListener("change", () => {
  const list = fillBoards(entry && entry.id);
  if (list.length && (!entry || !list.some((b) => b.id === entry.id))) load(list[0].id);
});
boardSel.addEventListener("change", () => load(boardSel.value));
$("pick-prev").addEventListener("click", () => step(-1));
$("pick-next").addEventListener("click", () => step(1));

function step(d) {
  const opts = [...boardSel.options];
  const i = opts.findIndex((o) => o.value === boardSel.value);
  const j = i + d;
  if (j >= 0 && j < opts.length) load(opts[j].value);
}

// ---- loading -------------------------------------------------------------------------
async function load(id) {
  const seq = ++loadSeq;
  saveNow();
  stopClock();
  $("play-status").textContent = T.loading;
  let data = cfg.first && cfg.first.id === id ? cfg.first : null;
  if (!data) try {
    const res = early && early.id === id ? await early.res : await fetch(dataUrl(id));
    early = null;
    if (!res || !res.ok) throw new Error("load");
    data = await res.json();
  } catch {
    if (seq === loadSeq) $("play-status").textContent = T.loadError;
    return;
  }
  if (seq !== loadSeq) return;
  entry = data;
  board = data.board;
  const n = board.h * board.w;
  fixed = [];
  for (let r = 0; r < board.h; r++) for (let c = 0; c < board.w; c++) fixed.push(P.fixedState(board, r, c));
  states = new Uint8Array(n);
  const rec = store.get(id);
  if (rec && typeof rec.s === "string" && rec.s.length === n) {
    for (let i = 0; i < n; i++) states[i] = +rec.s[i] || 0;
  }
  fixed.forEach((f, i) => { if (f !== null) states[i] = f; });
  elapsed = rec && rec.t > 0 ? rec.t : 0;
  undoStack = [];
  redoStack = [];
  cursor = Math.min(cursor, n - 1);
  marks = { bad: new Set(), hint: new Set() };
  solved = false;
  store.last(id);
  if (boardSel.value !== id) {
    if (![...boardSel.options].some((o) => o.value === id)) {
      sizeSel.value = "";
      gradeSel.value = "";
      fillBoards();
    }
    boardSel.value = id;
  }
  if (location.hash.slice(1) !== id) history.replaceState(null, "", `#${encodeURIComponent(id)}`);
  const link = $("pzl-link");
  link.href = entry.url;
  $("board-title").textContent = fmt(T.boardTitle, {
    n: boards.findIndex((b) => b.id === id) + 1, id, size: entry.size || `${board.h}x${board.w}`,
    grade: rungName(entry.grade), clues: entry.clues,
  });
  clearPanels();
  solved = isSolved();
  if (!solved) startClock();
  draw();
  announce(false);
  $("play-status").textContent = "";
  document.body.dataset.board = id;
  if (!performance.getEntriesByName("play-rendered").length) performance.mark("play-rendered");
}

// ---- drawing -------------------------------------------------------------------------
const wrap = $("board");

function draw() {
  const { h, w } = board;
  const W = w * CELL + 2 * PAD, H = h * CELL + 2 * PAD;
  const parts = [];
  parts.push(`<rect class="bg" x="${PAD}" y="${PAD}" width="${w * CELL}" height="${h * CELL}"/>`);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      const x = PAD + c * CELL, y = PAD + r * CELL;
      let cls = "cell";
      if (marks.bad.has(i)) cls += " bad";
      if (marks.hint.has(i)) cls += " hint";
      if (fixed[i] !== null) cls += " given";
      parts.push(`<g class="${cls}" data-r="${r}" data-c="${c}" data-state="${states[i]}">` +
        `<rect class="hl" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>` +
        P.cellSvg(board, states, r, c, x, y, CELL) + "</g>");
    }
  }
  let grid = "";
  for (let r = 1; r < h; r++) grid += `M${PAD} ${PAD + r * CELL}h${w * CELL}`;
  for (let c = 1; c < w; c++) grid += `M${PAD + c * CELL} ${PAD}v${h * CELL}`;
  parts.push(`<path class="grid" d="${grid}"/>`);
  parts.push(`<rect class="frame" x="${PAD}" y="${PAD}" width="${w * CELL}" height="${h * CELL}"/>`);
  const cr = Math.floor(cursor / w), cc = cursor % w;
  parts.push(`<rect class="cursor" x="${PAD + cc * CELL + 3}" y="${PAD + cr * CELL + 3}" ` +
    `width="${CELL - 6}" height="${CELL - 6}"/>`);
  wrap.classList.toggle("solved", solved);
  wrap.innerHTML = `<svg id="board-svg" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="board-desc" ` +
    `xmlns="http://www.w3.org/2000/svg" style="aspect-ratio:${W}/${H}">${parts.join("")}</svg>`;
  describe();
  $("undo").disabled = !undoStack.length;
  $("redo").disabled = !redoStack.length;
  $("play-solved").hidden = !solved;
  if (solved) $("play-solved").textContent = fmt(T.solved, { time: clockText() });
}

// Text alternative: a summary plus one line per row.
function describe() {
  const lines = [fmt(T.boardSummary, { h: board.h, w: board.w, clues: entry.clues })];
  for (let r = 0; r < board.h; r++) {
    const cells = [];
    for (let c = 0; c < board.w; c++) cells.push(P.cellText(board, states, r, c, lang));
    lines.push(fmt(T.rowText, { r: r + 1 }) + " " + cells.join(", "));
  }
  if (solved) lines.push(fmt(T.solved, { time: clockText() }));
  $("board-desc").textContent = lines.join(". ") + ".";
}

function cellName(i) {
  const r = Math.floor(i / board.w), c = i % board.w;
  return fmt(T.cell, { r: r + 1, c: c + 1, state: P.cellText(board, states, r, c, lang) });
}

function announce(on = true) {
  if (on) $("play-live").textContent = cellName(cursor);
}

// ---- moves ---------------------------------------------------------------------------
function apply(changes, record = true) {
  if (!changes.length) return;
  for (const [i, , to] of changes) states[i] = to;
  if (record) {
    undoStack.push(changes);
    redoStack = [];
  }
  afterChange();
}

function afterChange() {
  marks = { bad: new Set(), hint: new Set() };
  clearPanels();
  const was = solved;
  solved = isSolved();
  if (solved && !was) stopClock();
  if (!solved && was) startClock();
  saveNow();
  draw();
  if (entry) refreshLabel(entry.id);
}

function setCell(i, to) {
  if (!board || fixed[i] !== null || states[i] === to) return;
  apply([[i, states[i], to]]);
}

function cycle(i, back = false) {
  if (!board || fixed[i] !== null) return;
  setCell(i, nextState(i, back));
}

function undo() {
  const ch = undoStack.pop();
  if (!ch) return;
  for (const [i, from] of ch) states[i] = from;
  redoStack.push(ch);
  afterChange();
}

function redo() {
  const ch = redoStack.pop();
  if (!ch) return;
  for (const [i, , to] of ch) states[i] = to;
  undoStack.push(ch);
  afterChange();
}

function reset() {
  if (!board) return;
  const ch = [];
  states.forEach((s, i) => { if (fixed[i] === null && s !== 0) ch.push([i, s, 0]); });
  apply(ch);
}

function isSolved() {
  return P.violations(board, P.toAnswer(board, states)).length === 0;
}

// ---- input ---------------------------------------------------------------------------
function cellFromEvent(e) {
  const svg = $("board-svg");
  if (!svg) return -1;
  const rect = svg.getBoundingClientRect();
  const W = board.w * CELL + 2 * PAD, H = board.h * CELL + 2 * PAD;
  const x = ((e.clientX - rect.left) / rect.width) * W - PAD;
  const y = ((e.clientY - rect.top) / rect.height) * H - PAD;
  const c = Math.floor(x / CELL), r = Math.floor(y / CELL);
  if (r < 0 || r >= board.h || c < 0 || c >= board.w) return -1;
  return r * board.w + c;
}

// Pointer input: press a cell to cycle it; drag on to give the cells you pass the same
// state (one undo step for the whole stroke). Right button or Shift cycles backwards.
let drag = null;

function nextState(i, back) {
  const cyc = P.CYCLE;
  const k = cyc.indexOf(states[i]);
  const to = back ? cyc[(k + cyc.length - 1) % cyc.length] : cyc[(k + 1) % cyc.length];
  return to === undefined ? 0 : to;
}

function paint(i) {
  if (fixed[i] !== null || states[i] === drag.to) return;
  drag.changes.push([i, states[i], drag.to]);
  states[i] = drag.to;
}

function endDrag() {
  if (!drag) return;
  const { changes } = drag;
  drag = null;
  if (changes.length) {
    undoStack.push(changes);
    redoStack = [];
  }
  afterChange();
}

wrap.addEventListener("pointerdown", (e) => {
  if (!board || (e.button !== 0 && e.button !== 2)) return;
  const i = cellFromEvent(e);
  if (i < 0) return;
  e.preventDefault();
  wrap.focus({ preventScroll: true });
  cursor = i;
  if (fixed[i] !== null) { draw(); return; }
  drag = { to: nextState(i, e.button === 2 || e.shiftKey), changes: [], seen: new Set([i]),
    id: e.pointerId };
  paint(i);
  try { wrap.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
  draw();
});
wrap.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  const i = cellFromEvent(e);
  if (i < 0 || drag.seen.has(i)) return;
  drag.seen.add(i);
  cursor = i;
  paint(i);
  draw();
});
wrap.addEventListener("pointerup", endDrag);
wrap.addEventListener("pointercancel", endDrag);
wrap.addEventListener("lostpointercapture", endDrag);
wrap.addEventListener("contextmenu", (e) => e.preventDefault());

wrap.addEventListener("keydown", (e) => {
  if (!board || e.ctrlKey || e.metaKey || e.altKey) return;
  const { h, w } = board;
  let r = Math.floor(cursor / w), c = cursor % w;
  const k = e.key;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (k in moves) {
    r = Math.max(0, Math.min(h - 1, r + moves[k][0]));
    c = Math.max(0, Math.min(w - 1, c + moves[k][1]));
    cursor = r * w + c;
    draw();
    announce();
  } else if (k === " " || k === "Enter") {
    cycle(cursor, e.shiftKey);
    announce();
  } else if (k === "Backspace" || k === "Delete" || k === "0") {
    setCell(cursor, 0);
    announce();
  } else if (k.toLowerCase() in P.KEYS) {
    setCell(cursor, P.KEYS[k.toLowerCase()]);
    announce();
  } else {
    return;
  }
  e.preventDefault();
});

document.addEventListener("keydown", (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA") return;
  const k = e.key.toLowerCase();
  if (k === "z" && !e.shiftKey) undo();
  else if (k === "y" || (k === "z" && e.shiftKey)) redo();
  else return;
  e.preventDefault();
});

$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("reset").addEventListener("click", reset);
$("check").addEventListener("click", check);
$("hint").addEventListener("click", hint);

// ---- check ---------------------------------------------------------------------------
function clearPanels() {
  $("check-out").replaceChildren();
  $("hint-out").replaceChildren();
}

function cellsText(cells) {
  return cells.map(([r, c]) => fmt(T.at, { r: r + 1, c: c + 1 })).join(", ");
}

function check() {
  if (!board) return;
  const vs = P.violations(board, P.toAnswer(board, states));
  marks = { bad: new Set(), hint: new Set() };
  const out = $("check-out");
  out.replaceChildren();
  $("hint-out").replaceChildren();
  if (!vs.length) {
    const p = document.createElement("p");
    p.className = "ok";
    p.textContent = fmt(T.solved, { time: clockText() });
    out.append(p);
  } else {
    const p = document.createElement("p");
    p.textContent = T.broken;
    const ul = document.createElement("ul");
    for (const v of vs) {
      for (const [r, c] of v.cells) marks.bad.add(r * board.w + c);
      const li = document.createElement("li");
      li.dataset.rule = v.rule;
      const text = P.message ? P.message(v, lang) : P.MESSAGES[v.rule][lang];
      li.textContent = `${text} (${cellsText(v.cells)})`;
      ul.append(li);
    }
    out.append(p, ul);
  }
  draw();
}

// ---- hint ----------------------------------------------------------------------------
function hint() {
  if (!board) return;
  const out = $("hint-out");
  marks = { bad: new Set(), hint: new Set() };
  $("check-out").replaceChildren();
  out.replaceChildren();
  const p = document.createElement("p");
  const ans = entry.answer;
  if (solved) {
    p.className = "ok";
    p.textContent = fmt(T.solved, { time: clockText() });
    out.append(p);
    draw();
    return;
  }
  // First wrong mark in reading order, if any.
  for (let i = 0; i < states.length; i++) {
    if (fixed[i] !== null || states[i] === 0) continue;
    const r = Math.floor(i / board.w), c = i % board.w;
    if (P.answerState(ans, r, c) !== states[i]) {
      marks.bad.add(i);
      p.className = "wrong";
      p.textContent = fmt(T.hintWrong, { r: r + 1, c: c + 1 });
      out.append(p);
      draw();
      return;
    }
  }
  const stepIx = (entry.trace || []).findIndex((st) =>
    st.cells.some(([r, c], k) => states[r * board.w + c] !== P.traceState(st.states[k])));
  if (stepIx < 0) {
    p.textContent = T.hintNone;
    out.append(p);
    draw();
    return;
  }
  const st = entry.trace[stepIx];
  for (const [r, c] of st.cells) marks.hint.add(r * board.w + c);
  const head = document.createElement("strong");
  head.className = "rung";
  head.textContent = rungName(st.rung);
  p.append(head, " ", st[lang] || st.en || "");
  const cells = document.createElement("p");
  cells.className = "cells";
  cells.textContent = fmt(T.hintCells, { cells: cellsText(st.cells) });
  out.append(p, cells);
  draw();
}

// ---- clock and storage ---------------------------------------------------------------
function now() {
  return elapsed + (runningSince === null ? 0 : performance.now() - runningSince);
}
function startClock() {
  if (runningSince === null && !solved && !document.hidden) runningSince = performance.now();
}
function stopClock() {
  if (runningSince !== null) {
    elapsed = now();
    runningSince = null;
  }
}
function clockText() {
  const s = Math.floor(now() / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(sec).padStart(2, "0")}`;
}
function saveNow() {
  if (!entry || !states) return;
  const m = states.some((v, i) => v !== 0 && fixed[i] === null);
  store.set(entry.id, { s: Array.from(states).join(""), t: Math.round(now()), solved, m });
}

setInterval(() => {
  if (!entry) return;
  $("timer").textContent = clockText();
}, 500);
setInterval(saveNow, 5000);
document.addEventListener("visibilitychange", () => {
  if (document.hidden) { stopClock(); saveNow(); } else if (entry && !solved) startClock();
});
window.addEventListener("pagehide", saveNow);
window.addEventListener("hashchange", () => {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id && (!entry || id !== entry.id) && boards.some((b) => b.id === id)) load(id);
});

// ---- start ---------------------------------------------------------------------------
fillFilters();
fillBoards();
if (firstId) {
  await load(firstId);
  $("timer").textContent = clockText();
} else {
  $("play-status").textContent = T.empty;
}
document.body.dataset.ready = "1";

// For tests and the benchmark.
window.__play = { get states() { return Array.from(states || []); }, get solved() { return solved; },
  get entry() { return entry; }, load };
