// The play framework: board picker, SVG board, input, undo/redo, storage, timer, check
// and hint panels, for every puzzle. It names no puzzle. What it knows of one comes from
// the page's config (id "play-config", written by site_builder/play.py from the Puzzle)
// and from the puzzle's checker module ./<slug>.js.
//
// ---- the config ----------------------------------------------------------------------
// cfg.model   "cells" | "regions" | "edges"       (PlaySpec.model)
// cfg.input   PlaySpec.input, the data of the input:
//   states    {lang: [name of state 0, 1, ...]}   state 0 is always "undecided"
//   cycle     [s, ...]  the states a click walks through (a back-click walks backwards)
//   keys      {key: state}  keys that set the cursor's unit to a state
//   trace     {trace state name: state}  how the hint trace's "states" map to states
//   count     (regions) the state counted per region (default 1)
//   dots      a dot on every corner of the grid (optional)
// cfg.rules   the puzzle's rules table, [{id, cells, en, ja}] (RuleBook.to_json()):
//             a violation's message is rule[lang] filled with its params (grid.js fill).
// cfg.readout PlaySpec.text[lang].readout, {key: template} (optional, any model).
// cfg.rungNames {rung id: name in the page's language} (the ladder, "probe", "search").
// cfg.levels, cfg.levelNames  the difficulty levels in order and their names; index
//             entries and board files carry "difficulty" (one of them) and "effort" when
//             the bank has them (the picker then shows and filters by difficulty).
// cfg.first   the newcomer's first board's data (the first "easy" board in bank order).
//
// ---- units and states ----------------------------------------------------------------
// The player's marks are small integers, one per unit: a unit is a cell (row-major, index
// r * w + c) in the models "cells" and "regions", an edge between two cells in the model
// "edges" (layout in grid.js: edgeIndex / edgeAt / edgeCells). Storage keeps them as a
// string of base-36 characters, one a unit, with the move history (undo, redo, trial
// levels) under localStorage "play:<slug>:<board id>"; the address carries them too,
// #<board id>&p=<position> (encodePosition), so a copied link opens the same position.
// A digit puzzle (input.digits) has states 0, 1 numbered, 2 blank and 2 + d the digit d
// (grid.js); with input.candidates ({key}) the player may also pencil small candidate
// digits into a cell that has no digit yet (see "candidates" below); its module exports
// digitMax(board), and may export complete(board, view)
// (isSolved also needs it true), fits(state, want) (a mark that agrees with the
// solution's state without being it) and helper(state) (Clear marks erases it).
//
// ---- the checker module ./<slug>.js exports --------------------------------------------
// violations(board, answer) -> [{rule, cells: [[r, c], ...], params: {...}}, ...]
//     required. Same rule ids, cells and params as the Python violations() for the same
//     board and answer JSON (any order: the framework sorts them by the rules table).
// toAnswer(board, view) -> answer JSON, as Python's answer_from_json reads it, undecided
//     read as "off" (entering the solution's cycle[0] units solves). required.
// answerStates(board, answer) -> [state per unit] the solution in player states. required
//     (the hint names a unit whose non-zero state differs from it).
// cellSvg(board, view, r, c, x, y, s) -> SVG markup for cell (r, c) drawn at (x, y), side
//     s: clues and the cell's marks. required. Neutral classes in play.css: clue, fill,
//     dot, ring, ring-given, ink, cross; a puzzle may add its own (PlaySpec.css).
// cellText(board, view, r, c, lang) -> the cell for screen readers. optional (default:
//     the state's name; in the edges model, "").
// fixed(board) -> [state | null per unit]: units the player cannot change. optional.
// regions(board) -> region id per cell ([[id, ...], ...] or flat). required for "regions".
// readout(board, view) -> [[key, params], ...]: lines shown beside the board, each
//     cfg.readout[key] filled with params. optional, any model.
// traceUnits(board, step, input) -> [[unit, state], ...]: what a hint trace step asks for, when
//     the step does not list "cells" (or, edges model, "edges") with "states" names.
//     optional (default below, at hint()).
// irreparable(board, view) -> [{rule, cells, params}]: the violations that no filling of
//     the undecided units can repair (Python's Puzzle.irreparable). optional: without it
//     Check reports violations() of the board as it stands.
// finished(board, view) -> bool: the board counts as complete (Check then reports
//     violations() in full). optional (default: no non-fixed unit in state 0).
//
// view = {h, w, model, input, states, fixed, edge(r, c, side), region, regionCells, count}
//   edge(r, c, side): the state of an edge ("edges"; 0 beyond the frame's inside).
//   region: Int32Array region id per cell; regionCells: [[cell index, ...] per region];
//   count: Int32Array per cell, the number of cells of its region in state input.count
//   (the live per-region count; "regions" only, else null).
//
// The edges model draws state 1 as a line and any other non-zero state as a small cross
// on the edge; the regions model draws thick borders between regions.
import {
  countRegions, edgeAt as edgeAt0, edgeCells as edgeCells0, edgeCount as edgeCount0,
  edgeIndex as edgeIndex0, fill, isEdge as isEdge0, makeView, sortViolations,
} from "./grid.js";
import { unpack } from "./madelink.js";

performance.mark("play-start");
const cfg = JSON.parse(document.getElementById("play-config").textContent);
const T = cfg.strings;
const lang = cfg.lang;
const IN = cfg.input;
const EDGES = cfg.model === "edges";
// Edges model with "outline": the board's outline is made of edges too (grid.js).
const OUTLINE = EDGES && !!IN.outline;
const edgeCount = (h, w) => edgeCount0(h, w, OUTLINE);
const edgeIndex = (h, w, r, c, side) => edgeIndex0(h, w, r, c, side, OUTLINE);
const edgeAt = (h, w, i) => edgeAt0(h, w, i, OUTLINE);
const edgeCells = (h, w, i) => edgeCells0(h, w, i, OUTLINE);
const isEdge = (h, w, r, c, side) => isEdge0(h, w, r, c, side, OUTLINE);
// Digit puzzles (input.digits): states 0 undecided, 1 "numbered" (a number goes here,
// digit not written yet), 2 blank (×), 2 + d the digit d, typed as on puzz.link. The
// module's digitMax(board) is the largest digit; with the counting assist on (off by
// default, stored per puzzle) a "numbered" cell shows and counts as its live count.
const DIGITS = !!IN.digits;
const CANDS = DIGITS && !!(IN.candidates && IN.candidates.key);
const REGIONS = cfg.model === "regions";
// The puzzle's rules table, and the player's own rules (PlaySpec.input.rules: about
// what only the player writes, such as a typed digit), after it.
const RULE_IDS = [...cfg.rules.map((r) => r.id), ...Object.keys(IN.rules || {})];
const RULE_TEXT = Object.fromEntries([...cfg.rules.map((r) => [r.id, r[lang]]),
  ...Object.entries(IN.rules || {}).map(([id, t]) => [id, t[lang] || t.en])]);
const $ = (id) => document.getElementById(id);
const fmt = fill;

// The board to show first: #id, else the last one played, else the bank's first. Its
// data (unless inline) is requested now, alongside the checker module.
function lastPlayed() {
  try { return localStorage.getItem(`play:${cfg.slug}:last`); } catch { return null; }
}
// The address: #<board id>, or #<board id>&p=<position> for a shared position (see
// encodePosition); a made board's link from the solve page is #<id> alone.
function parseHash() {
  const [id, ...rest] = location.hash.slice(1).split("&");
  const p = rest.find((x) => x.startsWith("p="));
  const c = rest.find((x) => x.startsWith("c="));
  const b = rest.find((x) => x.startsWith("b="));
  return { id: decodeURIComponent(id || ""), p: p ? p.slice(2) : null, c: c ? c.slice(2) : null,
    b: b ? b.slice(2) : null };
}
const wanted = parseHash().id;
let sharedPos = parseHash().p;   // applied once, to the board the address names
// A board made on the solve page (solve.js "Play this board" stores it, with its answer
// and hint trace, under play:<slug>:made, and its link carries it, #made-<id>&b=...,
// madelink.js): played like a banked board when asked for; the stored one (it has the
// hint trace) where this browser made it, else the one the address carries.
const packed = parseHash().b;
let made = null;
try {
  made = JSON.parse(localStorage.getItem(`play:${cfg.slug}:made`) || "null");
} catch { /* storage off: the bank and the address only */ }
if (!(made && made.board && made.id === wanted)) made = packed ? await unpack(packed, wanted) : null;
if (made) {
  const { id, size, h, w, grade, clues } = made;
  cfg.index = [...cfg.index, { id, size, h, w, grade, clues }];
  cfg.first = { ...made, made: true, packed };
}
const has = (id) => cfg.index.some((b) => b.id === id);
// An address naming a board this page does not know: said in one line, with the list.
const unknown = wanted && !has(wanted) ? wanted : null;
const firstId = has(wanted) ? wanted : has(lastPlayed()) ? lastPlayed()
  : cfg.first && has(cfg.first.id) ? cfg.first.id : cfg.index.length ? cfg.index[0].id : null;
const dataUrl = (id) => `${cfg.data}${encodeURIComponent(id)}.json`;
const traceUrl = (id) => `${cfg.data}hints-${lang}/${encodeURIComponent(id)}.json`;
let early = firstId && !(cfg.first && cfg.first.id === firstId)
  ? { id: firstId, res: fetch(dataUrl(firstId)).catch(() => null) } : null;

// The checker module's exports (the header above says what each does). Boards, answers
// and trace steps are the bank's JSON, untyped here.
/**
 * @typedef {{rule: string, cells: number[][], params?: object}} Violation
 * @typedef {ReturnType<typeof makeView>} View
 * @typedef {object} Checker
 * @property {(board: any, answer: any) => Violation[]} violations
 * @property {(board: any, view: View) => any} toAnswer
 * @property {(board: any, answer: any) => ArrayLike<number>} answerStates
 * @property {(board: any, view: View, r: number, c: number, x: number, y: number, s: number) => string} cellSvg
 * @property {(board: any, view: View, r: number, c: number, lang: string) => string} [cellText]
 * @property {(board: any) => ArrayLike<number | null | undefined>} [fixed]
 * @property {(board: any) => unknown[]} [regions]
 * @property {(board: any, view: View) => [string, object][] | null} [readout]
 * @property {(board: any, step: any, input: any, answer: any) => [number, number][]} [traceUnits]
 * @property {(board: any, view: View) => Violation[]} [irreparable]
 * @property {(board: any, view: View) => boolean} [finished]
 * @property {(board: any) => number} [digitMax]
 * @property {(board: any, view: View) => boolean} [complete]
 * @property {(state: number, want: number) => boolean} [fits]
 * @property {(state: number) => boolean} [helper]
 */
/** @type {Checker} */
const P = await import(new URL(`./${cfg.slug}.js`, import.meta.url).href);

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
    try { localStorage.setItem(`play:${cfg.slug}:last`, id); } catch { /* off */ }
  },
};

// ---- state ---------------------------------------------------------------------------
let entry = null;          // the board's data file
let board = null;
let states = null;         // Uint8Array, one state per unit
let fixed = null;          // Array of fixed state or null, per unit
let view = null;           // what the checker's hooks see
let undoStack = [];        // each item: [[unit, from, to], ...]
let redoStack = [];
/** @type {number | [number, number]} */
let cursor = 0;            // cells: a cell index; edges: [y, x] on the doubled grid
// Highlights: bad (a problem's cells), first (the first problem's cells, drawn strongly),
// hint (what the hint decides), why (the cells that justify it), detail (the hint's
// second level), and the edges model's badEdge / hintEdge.
let marks = noMarks();
let hintAt = null;         // {id, k}: the trace step the last hint showed (level 2 next)
let solved = false;
let elapsed = 0;           // ms before the current run of the clock
let runningSince = null;   // performance.now() while the clock runs
let loadSeq = 0;
let cands = null;          // candidates: Uint16Array per cell, bit d for digit d (or null)

function noMarks() {
  return { bad: new Set(), first: new Set(), hint: new Set(), why: new Set(), detail: new Set(),
    badEdge: new Set(), hintEdge: new Set() };
}

// ---- picker --------------------------------------------------------------------------
const boards = cfg.index;
const sizeSel = /** @type {HTMLSelectElement} */ ($("pick-size"));
const gradeSel = /** @type {HTMLSelectElement} */ ($("pick-grade"));
const boardSel = /** @type {HTMLSelectElement} */ ($("pick-board"));
const levelSel = /** @type {HTMLSelectElement} */ ($("pick-level"));
const LEVELS = cfg.levels || [];
// A phone's layout (play.css): the pickers folded, the controls under the board.
const PHONE = window.matchMedia("(max-width: 40rem)");
const SIDE = window.matchMedia("(min-width: 60rem)");
const rated = boards.some((b) => b.difficulty);

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
  sizeSel.replaceChildren(option("", T.allSizes), ...sizes.map((s) => option(s, sizeText(s))));
  gradeSel.replaceChildren(option("", T.allGrades), ...grades.map((g) => option(g, gradeName(g))));
  const levels = LEVELS.filter((l) => boards.some((b) => b.difficulty === l));
  levelSel.replaceChildren(option("", T.allLevels), ...levels.map((l) => option(l, levelName(l))));
  levelSel.closest("label").hidden = !rated;
}

function levelName(l) {
  return (cfg.levelNames && cfg.levelNames[l]) || l;
}

// "Easy (count the numbers in a region)": the difficulty with the grade beside it in
// everyday words, or the grade alone.
function gradeText(b) {
  const g = gradeWords(b.grade);
  return b.difficulty ? fmt(T.levelGrade, { level: levelName(b.difficulty), grade: g }) : g;
}

// The rung's own name (the article's word for it), and the rung in everyday words
// (PlaySpec.text[lang].grades; the name where it has none).
function rungName(g) {
  return (cfg.rungNames && cfg.rungNames[g]) || g;
}
function gradeWords(g) {
  return (cfg.gradeWords && cfg.gradeWords[g]) || rungName(g);
}
// "count the numbers in a region (counting)": the words, then the rung's name.
function gradeName(g) {
  const words = gradeWords(g), name = rungName(g);
  return words === name ? name : fmt(T.gradeName, { words, name });
}

// A board size as the page prints it: "6×6", the form the articles use, not the
// data's "6x6".
function sizeText(size) {
  return String(size).replace("x", "×");
}

function boardLabel(b, n) {
  const rec = store.get(b.id);
  const mark = rec && rec.solved ? ` ${T.solvedMark}` : rec && rec.m ? ` ${T.startedMark}` : "";
  return fmt(T.boardOption, { n, id: b.id, size: sizeText(b.size), grade: gradeText(b), clues: b.clues }) + mark;
}

function fillBoards(keep) {
  const size = sizeSel.value, grade = gradeSel.value, level = levelSel.value;
  const list = boards.filter((b) => (!size || b.size === size) && (!grade || b.grade === grade)
    && (!level || b.difficulty === level));
  boardSel.replaceChildren(...list.map((b) => option(b.id, boardLabel(b, boards.indexOf(b) + 1))));
  if (keep && list.some((b) => b.id === keep)) boardSel.value = keep;
  return list;
}

function refreshLabel(id) {
  const o = [...boardSel.options].find((x) => x.value === id);
  const b = boards.find((x) => x.id === id);
  if (o && b) o.textContent = boardLabel(b, boards.indexOf(b) + 1);
}

for (const sel of [sizeSel, levelSel, gradeSel]) {
  sel.addEventListener("change", () => {
    filterCount();
    const list = fillBoards(entry && entry.id);
    if (list.length && (!entry || !list.some((b) => b.id === entry.id))) load(list[0].id);
  });
}
boardSel.addEventListener("change", () => load(boardSel.value));

// Filters (a phone's folded picker): opens the filters as a sheet over the page, closed
// again by the button, Escape or a tap outside the picker; it says how many filters are
// set, so a shortened list is not a surprise.
const moreBtn = $("pick-more");
function showFilters(open) {
  $("pick-filters").hidden = !open;
  moreBtn.setAttribute("aria-expanded", String(open));
}
function filterCount() {
  const n = [sizeSel, levelSel, gradeSel].filter((s) => s.value).length;
  moreBtn.textContent = n ? fmt(T.filtersOn, { n }) : moreBtn.dataset.label;
  moreBtn.setAttribute("aria-label", moreBtn.textContent);
}
moreBtn.dataset.label = moreBtn.textContent;
moreBtn.addEventListener("click", () => showFilters($("pick-filters").hidden));
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$("pick-filters").hidden && PHONE.matches) { showFilters(false); moreBtn.focus(); }
});
document.addEventListener("pointerdown", (e) => {
  if (PHONE.matches && !$("pick-filters").hidden
      && !(/** @type {Element} */ (e.target)).closest(".picker")) showFilters(false);
});
$("pick-prev").addEventListener("click", () => step(-1));
$("pick-next").addEventListener("click", nextUnsolved);
$("next-unsolved").addEventListener("click", nextUnsolved);

function step(d) {
  const opts = [...boardSel.options];
  const i = opts.findIndex((o) => o.value === boardSel.value);
  const j = i + d;
  if (j >= 0 && j < opts.length) load(opts[j].value);
}

// "→" and the solved banner's button: the next board of the list (as filtered) that is
// not solved yet, going round to the start; the next one when every board is solved.
function nextUnsolved() {
  const opts = [...boardSel.options];
  const i = opts.findIndex((o) => o.value === boardSel.value);
  for (let k = 1; k <= opts.length; k++) {
    const o = opts[(i + k) % opts.length];
    const rec = store.get(o.value);
    if (o.value !== boardSel.value && !(rec && rec.solved)) { load(o.value); return; }
  }
  step(1);
}

// ---- the view the checker's hooks see ------------------------------------------------
function refreshCounts() {
  if (view) countRegions(view);
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
  const { h, w } = board;
  const n = EDGES ? edgeCount(h, w) : h * w;
  fixed = P.fixed ? Array.from(P.fixed(board), (f) => (f === undefined ? null : f))
    : new Array(n).fill(null);
  states = new Uint8Array(n);
  const rec = store.get(id);
  const kept = rec && typeof rec.s === "string" ? decodePosition(rec.s, n) : null;
  if (kept) states.set(kept);
  fixed.forEach((f, i) => { if (f !== null) states[i] = f; });
  cands = CANDS ? decodeCands(rec && rec.c, n) || new Uint16Array(n) : null;
  view = makeView(board, cfg.model, IN, states, fixed, REGIONS ? P.regions(board) : null);
  view.assist = assistOn();
  elapsed = rec && rec.t > 0 ? rec.t : 0;
  // The move history survives a reload (saved with the marks), trial levels with it.
  undoStack = kept ? validMoves(rec.u, n) : [];
  redoStack = kept ? validMoves(rec.r, n) : [];
  trials = kept && Array.isArray(rec.tr)
    ? rec.tr.filter((k) => Number.isInteger(k) && k >= 0 && k <= undoStack.length) : [];
  // A shared position (#id&p=...) is laid over the kept one as one move, so Undo goes
  // back to the player's own marks.
  let restored = false;
  if (sharedPos !== null && parseHash().id === id) {
    const got = decodePosition(sharedPos, n);
    sharedPos = null;
    const c = CANDS ? decodeCands(parseHash().c, n) : null;
    if (c) cands = c;
    if (got) {
      const ch = [];
      got.forEach((s, i) => { if (fixed[i] === null && states[i] !== s) ch.push([i, states[i], s]); });
      for (const [i, , to] of ch) states[i] = to;
      if (ch.length) { undoStack.push(ch); redoStack = []; }
      restored = ch.length > 0;   // (a reload of one's own address changes nothing)
    }
  }
  showTrial();
  cursor = EDGES ? [1, 1] : Math.min(typeof cursor === "number" ? cursor : 0, n - 1);
  marks = noMarks();
  solved = false;
  store.last(id);
  if (boardSel.value !== id) {
    if (![...boardSel.options].some((o) => o.value === id)) {
      sizeSel.value = "";
      gradeSel.value = "";
      levelSel.value = "";
      filterCount();
      fillBoards();
    }
    boardSel.value = id;
  }
  setAddress();
  /** @type {HTMLAnchorElement} */ ($("pzl-link")).href = entry.url;
  $("print-url").textContent = entry.url;
  $("board-title").textContent = fmt(T.boardTitle, {
    n: boards.findIndex((b) => b.id === id) + 1, id, size: entry.size || `${h}x${w}`,
    grade: gradeText(entry), clues: entry.clues,
  });
  clearPanels();
  buildPad();
  $("share-out").hidden = true;
  solved = isSolved();
  if (!solved) startClock();
  // (the status line first: the board is fitted below it)
  showStatus(restored ? T.sharedRestored : "");
  wrap.style.removeProperty("--room");   // the title above may have changed its height
  draw();
  document.body.dataset.board = id;
  if (!performance.getEntriesByName("play-rendered").length) performance.mark("play-rendered");
  if (!entry.trace) loadTrace(entry);
}

// The status line under the board's title; while the first board shown stands in for an
// unknown one the address named, it says so, with a link to the list of every board.
function showStatus(text) {
  const out = $("play-status");
  out.classList.remove("unknown");
  if (text || !unknown || loadSeq !== 1) { out.textContent = text; return; }
  const a = document.createElement("a");
  a.href = cfg.list;
  a.textContent = T.boardList;
  out.replaceChildren(fmt(T.unknownBoard, { id: unknown }), " ", a);
  out.classList.add("unknown");
}

// A board's hint trace is a file of its own (hints-<lang>/<id>.json, the page's language
// only): fetched once the board is drawn. Resolves when entry.trace is there ([] if it
// cannot be had; a board made on the solve page has none unless this browser made it).
function loadTrace(e) {
  if (e.made) {
    if (!e.trace) e.trace = [];
    return Promise.resolve();
  }
  if (!e.tracePending) {
    e.tracePending = fetch(traceUrl(e.id)).then((res) => (res.ok ? res.json() : null))
      .catch(() => null).then((d) => { e.trace = (d && d.trace) || []; });
  }
  return e.tracePending;
}

// ---- drawing -------------------------------------------------------------------------
const wrap = $("board");

// SVG coordinates of an edge's two ends.
function edgeEnds(i) {
  const [r, c, side] = edgeAt(board.h, board.w, i);
  const x = PAD + (c + 1) * CELL, y = PAD + (r + 1) * CELL;
  return side === "r" ? [x, y - CELL, x, y] : [x - CELL, y, x, y];
}

function edgeSvg(i, st, cls) {
  const [x1, y1, x2, y2] = edgeEnds(i);
  if (st === 1) return `<line class="${cls}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}"/>`;
  const mx = (x1 + x2) / 2, my = (y1 + y2) / 2, a = CELL * 0.1;
  return `<path class="${cls} edge-mark" d="M${mx - a} ${my - a}L${mx + a} ${my + a}` +
    `M${mx + a} ${my - a}L${mx - a} ${my + a}"/>`;
}

function draw() {
  refreshCounts();
  const { h, w } = board;
  const W = w * CELL + 2 * PAD, H = h * CELL + 2 * PAD;
  const parts = [];
  const trial = exporting ? { all: new Set(), top: new Set() } : trialUnits();
  wrap.style.setProperty("--aspect", String(W / H));
  wrap.style.setProperty("--cols", String(w));
  parts.push(`<rect class="bg" x="${PAD}" y="${PAD}" width="${w * CELL}" height="${h * CELL}"/>`);
  const live = exporting ? { on: false, list: [], bad: new Set(), cited: new Set() } : liveProblems();
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      const x = PAD + c * CELL, y = PAD + r * CELL;
      const svg = P.cellSvg(board, view, r, c, x, y, CELL);
      let cls = "cell";
      if (marks.bad.has(i) || live.bad.has(i)) cls += " bad";
      // a clue no rule finds fault with, as the marks stand: greyed (live display)
      if (live.on && !live.cited.has(i) && CLUE.test(svg)) cls += " done";
      if (marks.first.has(i)) cls += " first";
      if (marks.hint.has(i)) cls += " hint";
      if (marks.why.has(i)) cls += " why";
      if (marks.detail.has(i)) cls += " detail";
      if (!EDGES && fixed[i] !== null) cls += " given";
      if (!EDGES && trial.all.has(i)) cls += trial.top.has(i) ? " trial top" : " trial";
      const st = EDGES ? "" : ` data-state="${states[i]}"`;
      parts.push(`<g class="${cls}" data-r="${r}" data-c="${c}"${st}>` +
        `<rect class="hl" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>` +
        svg + candSvg(i, x, y) + "</g>");
    }
  }
  let grid = "";
  for (let r = 1; r < h; r++) grid += `M${PAD} ${PAD + r * CELL}h${w * CELL}`;
  for (let c = 1; c < w; c++) grid += `M${PAD + c * CELL} ${PAD}v${h * CELL}`;
  parts.push(`<path class="grid" d="${grid}"/>`);
  // input.dots: a dot on every corner of the grid (a loop puzzle's lattice)
  if (IN.dots) {
    let d = "";
    for (let r = 0; r <= h; r++) {
      for (let c = 0; c <= w; c++) d += `M${PAD + c * CELL} ${PAD + r * CELL}h0`;
    }
    parts.push(`<path class="lattice" d="${d}"/>`);
  }
  // The hint's reasons (dashed) and the detail's cells (dotted) as outlines over the grid,
  // so they differ from the decided cells' shading by more than colour.
  for (const [set, cls] of [[marks.why, "why-box"], [marks.detail, "detail-box"], [marks.first, "first-box"]]) {
    for (const i of set) {
      const x = PAD + (i % w) * CELL, y = PAD + Math.floor(i / w) * CELL;
      parts.push(`<rect class="${cls}" x="${x + 2.5}" y="${y + 2.5}" width="${CELL - 5}" height="${CELL - 5}"/>`);
    }
  }
  if (REGIONS) {
    let d = "";
    for (let i = 0, n = edgeCount(h, w); i < n; i++) {
      const [[r1, c1], [r2, c2]] = edgeCells(h, w, i);
      if (view.region[r1 * w + c1] === view.region[r2 * w + c2]) continue;
      const [x1, y1, x2, y2] = edgeEnds(i);
      d += `M${x1} ${y1}L${x2} ${y2}`;
    }
    parts.push(`<path class="region" d="${d}"/>`);
  }
  // with the outline, the frame's lines are the player's: they go over it
  if (OUTLINE) parts.push(`<rect class="frame" x="${PAD}" y="${PAD}" width="${w * CELL}" height="${h * CELL}"/>`);
  if (EDGES) {
    for (const i of marks.hintEdge) parts.push(edgeSvg(i, 1, "edge-hl hint"));
    for (const i of marks.badEdge) parts.push(edgeSvg(i, 1, "edge-hl bad"));
    for (let i = 0; i < states.length; i++) {
      if (!states[i]) continue;
      const e = edgeAt(h, w, i);
      parts.push(`<g class="edge s${states[i]}${fixed[i] !== null ? " given" : ""}` +
        `${trial.all.has(i) ? (trial.top.has(i) ? " trial top" : " trial") : ""}" ` +
        `data-r="${e[0]}" data-c="${e[1]}" data-side="${e[2]}">${edgeSvg(i, states[i], "line")}</g>`);
    }
  }
  if (!OUTLINE) parts.push(`<rect class="frame" x="${PAD}" y="${PAD}" width="${w * CELL}" height="${h * CELL}"/>`);
  if (!exporting) parts.push(cursorSvg());
  wrap.classList.toggle("solved", solved && !exporting);
  wrap.innerHTML = `<svg id="board-svg" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="board-desc" ` +
    `xmlns="http://www.w3.org/2000/svg" style="aspect-ratio:${W}/${H}">${parts.join("")}</svg>`;
  if (!wrap.style.getPropertyValue("--room")) fitBoard();
  describe();
  showReadout();
  showLive(live);
  panCue();
  /** @type {HTMLButtonElement} */ ($("undo")).disabled = !undoStack.length;
  /** @type {HTMLButtonElement} */ ($("undo-all")).disabled = !undoStack.length;
  /** @type {HTMLButtonElement} */ ($("redo")).disabled = !redoStack.length;
  /** @type {HTMLButtonElement} */ ($("redo-all")).disabled = !redoStack.length;
  $("play-solved").hidden = !solved;
  if (solved) $("play-solved-text").textContent = fmt(T.solved, { time: clockText() });
}

// The moment a board is solved: said to screen readers (the live region) and the banner
// beside the toolbar brought into view if it is not.
let solvedNews = false;   // the next announce() says it too (it would overwrite it)

function announceSolved() {
  $("play-live").textContent = fmt(T.solved, { time: clockText() });
  solvedNews = true;
  const b = $("play-solved").getBoundingClientRect();
  if (b.top < 0 || b.bottom > window.innerHeight) $("play-solved").scrollIntoView({ block: "nearest" });
}

// The height the window leaves under the board's top (in page coordinates, so scrolling
// does not change it), less the number pad's under the board: the board is sized to fit
// it (play.css --room), so that the pad too is on a laptop's first screen.
// Below the side-by-side width the toolbar with Check follows the board (and the pad, a
// readout line, the pan cue): all of that is kept under it on the first screen too, the
// board giving up size for it down to cells of 28 px (play.css), where it pans instead.
function fitBoard() {
  const box = wrap.getBoundingClientRect();
  const top = box.top + window.scrollY;
  const pad = $("play-pad");
  let under = pad.hidden ? 0 : pad.offsetHeight + 2 * parseFloat(getComputedStyle(pad).marginTop);
  if (!SIDE.matches) under = Math.max(under, $("check").getBoundingClientRect().bottom - box.bottom + 6);
  wrap.style.setProperty("--room", `${Math.max(PHONE.matches ? 160 : 256, window.innerHeight - top - 12 - under)}px`);
}
window.addEventListener("resize", () => { if (board) { fitBoard(); panCue(); } });

// A board wider than its row (its cells would be below a finger's width otherwise) pans
// sideways inside the row: the row then says so (play.css .pans: a shadow on the side
// with more, and a line under the board), and loses the cue at the end it reaches.
const row = wrap.parentElement;
function panCue() {
  const more = row.scrollWidth - row.clientWidth > 1;
  row.classList.toggle("pans", more);
  row.classList.toggle("at-start", row.scrollLeft <= 1);
  row.classList.toggle("at-end", row.scrollLeft >= row.scrollWidth - row.clientWidth - 1);
  $("pan-cue").hidden = !more;
}
row.addEventListener("scroll", panCue, { passive: true });

function cursorSvg() {
  if (!EDGES) {
    const i = /** @type {number} */ (cursor);
    const cr = Math.floor(i / board.w), cc = i % board.w;
    return `<rect class="cursor" x="${PAD + cc * CELL + 3}" y="${PAD + cr * CELL + 3}" ` +
      `width="${CELL - 6}" height="${CELL - 6}"/>`;
  }
  const [y, x] = /** @type {[number, number]} */ (cursor);
  const e = cursorEdge();
  if (e === null) {
    return `<rect class="cursor" x="${PAD + ((x - 1) / 2) * CELL + 3}" y="${PAD + ((y - 1) / 2) * CELL + 3}" ` +
      `width="${CELL - 6}" height="${CELL - 6}"/>`;
  }
  const [x1, y1, x2, y2] = edgeEnds(e);
  return `<path class="cursor" d="M${x1} ${y1}L${x2} ${y2}"/>`;
}

// What the readout means, folded under it (and as its tooltip): open, it would push the
// toolbar far below the board on a phone. Made once, so that a move, which redraws the
// readout, does not close it while the player reads it.
/** @type {HTMLDetailsElement | null} */
let readoutHelp = null;

function showReadout() {
  const out = $("play-readout");
  const lines = P.readout && cfg.readout ? P.readout(board, view) || [] : [];
  /** @type {HTMLElement[]} */
  const nodes = lines.map(([key, params]) => para(fmt(cfg.readout[key] || key, params)));
  if (lines.length && cfg.readoutHelp) {
    if (!readoutHelp) {
      readoutHelp = document.createElement("details");
      readoutHelp.className = "readout-help";
      const s = document.createElement("summary");
      s.textContent = T.readoutWhat;
      readoutHelp.append(s, para(cfg.readoutHelp));
    }
    nodes.push(readoutHelp);
    out.title = cfg.readoutHelp;
  }
  out.replaceChildren(...nodes);
  out.hidden = !lines.length;
}

function stateName(st) {
  if (DIGITS && st > 2) return String(st - 2);
  return (IN.states[lang] || IN.states.en)[st] ?? String(st);
}

function cellText(r, c) {
  if (P.cellText) return P.cellText(board, view, r, c, lang);
  return EDGES ? "" : stateName(states[r * board.w + c]);
}

// Text alternative: a summary plus one line per row.
function describe() {
  const lines = [fmt(T.boardSummary, { h: board.h, w: board.w, clues: entry.clues })];
  for (let r = 0; r < board.h; r++) {
    const cells = [];
    for (let c = 0; c < board.w; c++) cells.push(cellText(r, c));
    lines.push(fmt(T.rowText, { r: r + 1 }) + " " + cells.join(T.sep));
  }
  if (EDGES) {
    const drawn = [];
    states.forEach((s, i) => { if (s) drawn.push(edgeName(i)); });
    if (drawn.length) lines.push(drawn.join(T.sep));
  }
  if (solved) lines.push(fmt(T.solved, { time: clockText() }));
  $("board-desc").textContent = lines.join(T.stop) + T.end;
}

function edgeAtText(i) {
  const { h, w } = board;
  const [[r, c], [r2, c2]] = edgeCells(h, w, i);
  // an outline edge: named by its one cell and the side it is on
  if (r < 0) return fmt(T.edgeTop, { r: 1, c: c + 1 });
  if (c < 0) return fmt(T.edgeLeft, { r: r + 1, c: 1 });
  if (r2 >= h) return fmt(T.edgeBottom, { r: r + 1, c: c + 1 });
  if (c2 >= w) return fmt(T.edgeRight, { r: r + 1, c: c + 1 });
  return fmt(T.edgeAt, { r: r + 1, c: c + 1, r2: r2 + 1, c2: c2 + 1 });
}

function edgeName(i) {
  return fmt(T.unit, { at: edgeAtText(i), state: stateName(states[i]) });
}

function announce() {
  let text;
  if (!EDGES) {
    const i = /** @type {number} */ (cursor);
    const r = Math.floor(i / board.w), c = i % board.w;
    text = fmt(T.unit, { at: fmt(T.at, { r: r + 1, c: c + 1 }), state: cellText(r, c) });
  } else {
    const e = cursorEdge();
    const [y, x] = /** @type {[number, number]} */ (cursor);
    text = e !== null ? edgeName(e) : fmt(T.unit, {
      at: fmt(T.at, { r: (y + 1) / 2, c: (x + 1) / 2 }), state: cellText((y - 1) / 2, (x - 1) / 2) });
  }
  if (solvedNews) text += T.stop + fmt(T.solved, { time: clockText() });
  solvedNews = false;
  $("play-live").textContent = text;
}

// ---- moves ---------------------------------------------------------------------------
function apply(changes) {
  if (!changes.length) return;
  for (const [i, , to] of changes) {
    states[i] = to;
    if (cands && to > 1) cands[i] = 0;   // cleared by the digit (or the blank)
  }
  undoStack.push(changes);
  redoStack = [];
  afterChange();
}

function afterChange() {
  // An undo below a trial level's start leaves that level empty, not gone.
  trials = trials.map((k) => Math.min(k, undoStack.length));
  marks = noMarks();
  clearPanels();
  const was = solved;
  solved = isSolved();
  if (solved && !was) stopClock();
  if (!solved && was) startClock();
  saveNow();
  setAddress();
  draw();
  if (entry) refreshLabel(entry.id);
  if (solved && !was) announceSolved();
}

function setUnit(i, to) {
  if (!board || i === null || fixed[i] !== null || states[i] === to) return;
  apply([[i, states[i], to]]);
}

function nextState(i, back) {
  const cyc = IN.cycle;
  const k = cyc.indexOf(states[i]);
  const to = back ? cyc[(k + cyc.length - 1) % cyc.length] : cyc[(k + 1) % cyc.length];
  return to === undefined ? 0 : to;
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

// Every move back (or forward) at once: one redraw, and each move stays on its stack, so
// Redo all (Undo all) brings them back.
function undoAll() {
  if (trials.length) { dropTrial(); return; }
  if (!undoStack.length) return;
  while (undoStack.length) {
    const ch = undoStack.pop();
    for (let k = ch.length - 1; k >= 0; k--) states[ch[k][0]] = ch[k][1];
    redoStack.push(ch);
  }
  afterChange();
}

function redoAll() {
  if (!redoStack.length) return;
  while (redoStack.length) {
    const ch = redoStack.pop();
    for (const [i, , to] of ch) states[i] = to;
    undoStack.push(ch);
  }
  afterChange();
}

// Helper marks are the states other than 0 (undecided) and 1 (the answer's own state):
// a dry dot, a "no line" cross; in a digit puzzle (the module's helper()) the numbered
// ring and the blank cross, not the digits. Clearing them keeps the answer.
function clearMarks() {
  if (!board) return;
  const ch = [];
  const helper = P.helper || ((s) => s > 1);
  states.forEach((s, i) => { if (fixed[i] === null && s && helper(s)) ch.push([i, s, 0]); });
  if (cands && cands.some((m) => m)) {
    cands.fill(0);
    if (!ch.length) { afterChange(); return; }
  }
  apply(ch);
}

// Trial levels, nested as in pzprjs: Trial opens a level over the one below (up to
// MAX_TRIALS deep); moves made in it are drawn apart (the innermost level's most
// strongly); Keep merges the innermost level's moves into the level below, Drop takes
// them back (they cannot be redone). trials holds each level's start in undoStack.
const MAX_TRIALS = 9;
let trials = [];

function trialUnits() {
  const all = new Set(), top = new Set();
  if (trials.length) {
    for (const ch of undoStack.slice(trials[0])) for (const [i] of ch) all.add(i);
    for (const ch of undoStack.slice(trials[trials.length - 1])) for (const [i] of ch) top.add(i);
  }
  return { all, top };
}

function startTrial() {
  if (!board || trials.length >= MAX_TRIALS) return;
  trials.push(undoStack.length);
  showTrial();
  saveNow();
  draw();
}

function keepTrial() {
  if (!trials.length) return;
  trials.pop();
  showTrial();
  saveNow();
  draw();
}

function dropTrial() {
  if (!trials.length) return;
  const at = trials.pop();
  while (undoStack.length > at) {
    const ch = undoStack.pop();
    for (let k = ch.length - 1; k >= 0; k--) states[ch[k][0]] = ch[k][1];
  }
  redoStack = [];
  showTrial();
  afterChange();
}

function showTrial() {
  const n = trials.length;
  $("trial").setAttribute("aria-pressed", String(n > 0));
  /** @type {HTMLButtonElement} */ ($("trial")).disabled = n >= MAX_TRIALS;
  $("trial").textContent = n ? T.trialDeeper : T.trialStart;
  $("trial-accept").hidden = !n;
  $("trial-drop").hidden = !n;
  $("trial-level").hidden = !n;
  $("trial-level").textContent = n ? fmt(T.trialLevel, { n }) : "";
  wrap.classList.toggle("trial", n > 0);
}

function reset() {
  if (!board) return;
  const ch = [];
  states.forEach((s, i) => { if (fixed[i] === null && s !== 0) ch.push([i, s, 0]); });
  apply(ch);
}

function isSolved() {
  refreshCounts();
  return P.violations(board, P.toAnswer(board, view)).length === 0
    && (!P.complete || P.complete(board, view));
}

// Whether a unit's state agrees with the solution's (a module may count a mark that the
// solution refines as agreeing: a "numbered" mark where the solution has a digit).
function fits(s, want) {
  return P.fits ? P.fits(s, want) : s === want;
}

// ---- pointer input -------------------------------------------------------------------
// Board position of a pointer event, in cells (x across, y down), or null off the board.
function boardPoint(e) {
  const svg = $("board-svg");
  if (!svg) return null;
  const rect = svg.getBoundingClientRect();
  const W = board.w * CELL + 2 * PAD, H = board.h * CELL + 2 * PAD;
  const x = (((e.clientX - rect.left) / rect.width) * W - PAD) / CELL;
  const y = (((e.clientY - rect.top) / rect.height) * H - PAD) / CELL;
  return { x, y };
}

function cellFromEvent(e) {
  const p = boardPoint(e);
  if (!p) return -1;
  const c = Math.floor(p.x), r = Math.floor(p.y);
  if (r < 0 || r >= board.h || c < 0 || c >= board.w) return -1;
  return r * board.w + c;
}

// Edges: the nearest grid corner, and the edge under the pointer (within a third of a
// cell of the line, not on the frame) or null.
function cornerAt(p) {
  return [Math.max(0, Math.min(board.h, Math.round(p.y))), Math.max(0, Math.min(board.w, Math.round(p.x)))];
}

function edgeUnder(p, band = 0.34) {
  const { h, w } = board;
  const m = OUTLINE ? band : 0;   // the outline's edges are reached from just outside too
  const r = Math.floor(Math.min(h - 1e-9, Math.max(0, p.y))), c = Math.floor(Math.min(w - 1e-9, Math.max(0, p.x)));
  if (p.y < -m || p.y >= h + m || p.x < -m || p.x >= w + m) return null;
  const fx = p.x - c, fy = p.y - r;
  /** @type {[number, number, number, "r" | "b"][]} */
  const sides = [[Math.abs(fx), r, c - 1, "r"], [Math.abs(1 - fx), r, c, "r"],
    [Math.abs(fy), r - 1, c, "b"], [Math.abs(1 - fy), r, c, "b"]];
  sides.sort((a, b) => a[0] - b[0]);
  const [d, er, ec, side] = sides[0];
  if (d > band || !isEdge(h, w, er, ec, side)) return null;
  return edgeIndex(h, w, er, ec, side);
}

// The edge between two neighbouring corners, or null on the frame.
/**
 * @param {number[]} a  a corner, [y, x]
 * @param {number[]} b  its neighbour
 */
function edgeBetween([y1, x1], [y2, x2]) {
  const { h, w } = board;
  if (y1 === y2) {           // a horizontal line: the "b" edge of the cell above it
    const r = y1 - 1, c = Math.min(x1, x2);
    return isEdge(h, w, r, c, "b") ? edgeIndex(h, w, r, c, "b") : null;
  }
  const r = Math.min(y1, y2), c = x1 - 1;
  return isEdge(h, w, r, c, "r") ? edgeIndex(h, w, r, c, "r") : null;
}

// Pointer input. Cells: press a cell to cycle it; drag on to give the cells you pass the
// same state. Edges: click a line to cycle it; drag along grid lines to draw, or (when
// the first line dragged over is drawn) to erase. One undo step per stroke. Right
// button or Shift cycles backwards.
let drag = null;

function paint(i) {
  if (i === null || fixed[i] !== null || states[i] === drag.to) return;
  drag.changes.push([i, states[i], drag.to]);
  states[i] = drag.to;
}

function endDrag() {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (EDGES && d.to === null && d.edge !== null && fixed[d.edge] === null) {
    const to = nextState(d.edge, d.back);
    if (to !== states[d.edge]) d.changes.push([d.edge, states[d.edge], to]);
    for (const [i, , t] of d.changes) states[i] = t;
  }
  if (d.changes.length) {
    undoStack.push(d.changes);
    redoStack = [];
  }
  afterChange();
}

// The focus ring and the cursor show for keyboard use only: a press on the board marks it
// as pointer-focused until the next key.
wrap.addEventListener("pointerdown", () => { wrap.dataset.pointer = ""; }, true);
wrap.addEventListener("keydown", () => { delete wrap.dataset.pointer; }, true);
wrap.addEventListener("blur", () => { delete wrap.dataset.pointer; });

wrap.addEventListener("pointerdown", (e) => {
  if (!board || (e.button !== 0 && e.button !== 2)) return;
  const back = e.button === 2 || e.shiftKey;
  if (EDGES) {
    const p = boardPoint(e);
    if (!p || p.x < -0.3 || p.y < -0.3 || p.x > board.w + 0.3 || p.y > board.h + 0.3) return;
    e.preventDefault();
    wrap.focus({ preventScroll: true });
    // A finger gets a wider band either side of a line than a mouse.
    const edge = edgeUnder(p, e.pointerType === "touch" ? 0.45 : 0.34);
    drag = { corner: cornerAt(p), edge, to: null, back, changes: [], id: e.pointerId };
    if (edge !== null) cursor = edgeCursor(edge);
  } else {
    const i = cellFromEvent(e);
    if (i < 0) return;
    e.preventDefault();
    wrap.focus({ preventScroll: true });
    lastTyped = null;
    // Digit puzzles: a press selects the cell (type, or use the pad); a press on the
    // selected cell cycles its marks. With the counting assist, a press cycles at once.
    if (DIGITS && !view.assist && i !== cursor) {
      cursor = i;
      draw();
      announce();
      return;
    }
    cursor = i;
    if (fixed[i] !== null) { draw(); return; }
    drag = { to: nextState(i, back), changes: [], seen: new Set([i]), id: e.pointerId };
    paint(i);
  }
  try { wrap.setPointerCapture(e.pointerId); } catch { /* synthetic events */ }
  draw();
});

wrap.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  if (EDGES) {
    const p = boardPoint(e);
    if (!p) return;
    const target = cornerAt(p);
    // Walk from the last corner to this one, one grid step at a time.
    let moved = false;
    while (drag.corner[0] !== target[0] || drag.corner[1] !== target[1]) {
      const [y, x] = drag.corner;
      const dy = Math.sign(target[0] - y), dx = Math.sign(target[1] - x);
      const next = Math.abs(target[0] - y) >= Math.abs(target[1] - x) ? [y + dy, x] : [y, x + dx];
      const i = edgeBetween(drag.corner, next);
      drag.corner = next;
      if (i === null) continue;
      if (drag.to === null) {
        // The first line of a stroke decides: drawn -> erase, else draw.
        const line = IN.cycle[0];
        drag.to = states[i] === line ? 0 : line;
      }
      paint(i);
      cursor = edgeCursor(i);
      moved = true;
    }
    if (moved) draw();
    return;
  }
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

// ---- keyboard ------------------------------------------------------------------------
// Edges: the cursor walks the doubled grid (y, x): odd/odd is a cell, one odd and one
// even an edge; grid corners are stepped over.
function cursorEdge() {
  const [y, x] = /** @type {[number, number]} */ (cursor);
  if (y % 2 === 1 && x % 2 === 0) return edgeIndex(board.h, board.w, (y - 1) / 2, x / 2 - 1, "r");
  if (y % 2 === 0 && x % 2 === 1) return edgeIndex(board.h, board.w, y / 2 - 1, (x - 1) / 2, "b");
  return null;
}

/** @returns {[number, number]} */
function edgeCursor(i) {
  const [r, c, side] = edgeAt(board.h, board.w, i);
  return side === "r" ? [2 * r + 1, 2 * c + 2] : [2 * r + 2, 2 * c + 1];
}

// Typing a digit writes it; a second digit typed into the same cell joins the first when
// the number still fits (1 then 2 gives 12 where 12 can be written), as on puzz.link.
let lastTyped = null;

function typeDigit(u, d) {
  if (u === null || fixed[u] !== null) return;
  if (candMode) { toggleCand(u, d); return; }
  const max = P.digitMax(board);
  let v = d;
  if (lastTyped === u && states[u] > 2 && (states[u] - 2) * 10 + d <= max) v = (states[u] - 2) * 10 + d;
  lastTyped = u;
  if (v === 0) { setUnit(u, 0); return; }
  if (v > max) return;
  setUnit(u, 2 + v);
}

function unitAtCursor() {
  return EDGES ? cursorEdge() : /** @type {number} */ (cursor);
}

function move(dy, dx) {
  const { h, w } = board;
  if (!EDGES) {
    const i = /** @type {number} */ (cursor);
    const r = Math.max(0, Math.min(h - 1, Math.floor(i / w) + dy));
    const c = Math.max(0, Math.min(w - 1, (i % w) + dx));
    cursor = r * w + c;
    return;
  }
  let [y, x] = /** @type {[number, number]} */ (cursor);
  y += dy;
  x += dx;
  if (y % 2 === 0 && x % 2 === 0) { y += dy; x += dx; }
  const k = OUTLINE ? 0 : 1;    // with the outline the cursor walks onto the frame's edges
  if (y >= k && y <= 2 * h - k && x >= k && x <= 2 * w - k && (y % 2 === 1 || x % 2 === 1)) cursor = [y, x];
}

wrap.addEventListener("keydown", (e) => {
  if (!board || e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const u = unitAtCursor();
  if (!/^[0-9]$/.test(k)) lastTyped = null;
  if (k in moves) {
    move(...moves[k]);
    draw();
  } else if (k === " " || k === "Enter") {
    if (u !== null && fixed[u] === null) setUnit(u, nextState(u, e.shiftKey));
  } else if (CANDS && k.toLowerCase() === IN.candidates.key) {
    setCandMode(!candMode);
  } else if (DIGITS && /^[0-9]$/.test(k)) {
    typeDigit(u, +k);
  } else if (k === "Backspace" || k === "Delete" || k === "0") {
    setUnit(u, 0);
  } else if (k.toLowerCase() in IN.keys) {
    setUnit(u, IN.keys[k.toLowerCase()]);
  } else {
    return;
  }
  announce();
  e.preventDefault();
});

document.addEventListener("keydown", (e) => {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
  const tag = (e.target && /** @type {Element} */ (e.target).tagName) || "";
  if (tag === "INPUT" || tag === "TEXTAREA") return;
  const k = e.key.toLowerCase();
  if (k === "z" && !e.shiftKey) undo();
  else if (k === "y" || (k === "z" && e.shiftKey)) redo();
  else return;
  e.preventDefault();
});

$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("undo-all").addEventListener("click", undoAll);
$("redo-all").addEventListener("click", redoAll);
$("clear-marks").addEventListener("click", clearMarks);
$("trial").addEventListener("click", startTrial);
$("trial-accept").addEventListener("click", keepTrial);
$("trial-drop").addEventListener("click", dropTrial);
$("zoom").addEventListener("click", () => {
  const on = !wrap.parentElement.classList.contains("zoomed");
  wrap.parentElement.classList.toggle("zoomed", on);
  $("zoom").setAttribute("aria-pressed", String(on));
});
// On a phone the rules start open: there is no room to show them beside the board.
if (PHONE.matches) {
  /** @type {HTMLDetailsElement} */ ($("play-rules")).open = true;
}
$("reset").addEventListener("click", reset);
$("share").addEventListener("click", share);

// ---- live error display ----------------------------------------------------------------
// A setting (off by default, kept for every puzzle under play:live): as the marks change,
// what Check would report is shown at once, the same rules in the same words (what no
// filling of the undecided units can repair, every broken rule once the board is
// finished), its cells shaded; and each clue (a cell drawn with the class "clue") that no
// rule cites, reading undecided units as off, is greyed as done.
const CLUE = /class="clue\b/;
function liveOn() {
  try { return localStorage.getItem("play:live") === "1"; } catch { return false; }
}
let live = liveOn();

function problems() {
  refreshCounts();
  const finished = isFinished();
  const found = !finished && P.irreparable ? P.irreparable(board, view)
    : P.violations(board, P.toAnswer(board, view));
  return sortViolations(found.map((v) => ({ ...v, cells: v.cells.map((c) => [...c]) })), RULE_IDS);
}

function liveProblems() {
  const out = { on: live && !solved, list: [], bad: new Set(), cited: new Set() };
  if (!out.on) return out;
  out.list = problems();
  for (const v of out.list) for (const [r, c] of v.cells) out.bad.add(r * board.w + c);
  for (const v of P.violations(board, P.toAnswer(board, view))) {
    for (const [r, c] of v.cells) out.cited.add(r * board.w + c);
  }
  return out;
}

function showLive(got) {
  const out = $("live-out");
  if (!got.on || !got.list.length) { out.replaceChildren(); return; }
  const [first, ...rest] = got.list;
  const line = violationItem(first, "p");
  line.className = "wrong";
  out.replaceChildren(line);
  if (rest.length) out.append(para(fmt(T.more, { n: rest.length }), "more"));
}

{
  const box = /** @type {HTMLInputElement} */ ($("live"));
  box.checked = live;
  box.addEventListener("change", () => {
    live = box.checked;
    try { localStorage.setItem("play:live", live ? "1" : "0"); } catch { /* off */ }
    if (board) draw();
  });
}

// ---- image export and a blank print ----------------------------------------------------
// The board as an SVG file (its styles written into it, in the light theme, without the
// cursor and highlights) or a PNG drawn from it at twice its size, with the player's marks
// or blank (the printed clues only), at the board's own aspect ratio; and the print of a
// blank board (the same choice, applied between beforeprint and afterprint).
let exporting = false;
const STYLE_PROPS = ["fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray",
  "stroke-linecap", "stroke-linejoin", "stroke-opacity", "opacity", "font-family", "font-size",
  "font-weight", "letter-spacing", "text-anchor", "dominant-baseline", "vector-effect", "display"];

// Draw the board as it would be exported (blank: the fixed units only), run f on the SVG
// element, and draw it back as it was.
function asExported(blank, f) {
  const saved = states.slice(), savedMarks = marks, savedCands = cands;
  if (blank) {
    fixed.forEach((x, i) => { states[i] = x === null ? 0 : x; });
    cands = null;
  }
  marks = noMarks();
  exporting = true;
  wrap.classList.add("light");
  try {
    draw();
    return f(/** @type {SVGSVGElement} */ (wrap.querySelector("svg")));
  } finally {
    wrap.classList.remove("light");
    exporting = false;
    states.set(saved);
    marks = savedMarks;
    cands = savedCands;
    draw();
  }
}

function exportSvg(blank) {
  return asExported(blank, (svg) => {
    const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
    const from = [svg, ...svg.querySelectorAll("*")], to = [copy, ...copy.querySelectorAll("*")];
    from.forEach((el, k) => {
      const cs = getComputedStyle(el);
      const style = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";");
      to[k].setAttribute("style", style);
      to[k].removeAttribute("class");
    });
    const [, , W, H] = svg.getAttribute("viewBox").split(" ").map(Number);
    for (const a of ["id", "role", "aria-labelledby"]) copy.removeAttribute(a);
    copy.setAttribute("width", String(W));
    copy.setAttribute("height", String(H));
    copy.setAttribute("style", `aspect-ratio:${W}/${H}`);
    return { text: new XMLSerializer().serializeToString(copy), W, H };
  });
}

async function exportPng(blank) {
  const { text, W, H } = exportSvg(blank);
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    await new Promise((ok, bad) => { img.onload = ok; img.onerror = bad; img.src = url; });
    const k = 2;
    const canvas = document.createElement("canvas");
    canvas.width = W * k;
    canvas.height = H * k;
    canvas.getContext("2d").drawImage(img, 0, 0, W * k, H * k);
    return await new Promise((ok) => canvas.toBlob(ok, "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

function saveFile(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

const exportName = (blank, ext) => `${cfg.slug}-${entry.id}${blank ? "-blank" : ""}.${ext}`;
const withMarks = () => /** @type {HTMLInputElement} */ ($("export-marks")).checked;
$("export-svg").addEventListener("click", () => {
  if (!board) return;
  const blank = !withMarks();
  saveFile(new Blob([exportSvg(blank).text], { type: "image/svg+xml" }), exportName(blank, "svg"));
});
$("export-png").addEventListener("click", async () => {
  if (!board) return;
  const blank = !withMarks();
  const png = await exportPng(blank);
  if (png) saveFile(png, exportName(blank, "png"));
});
// Print: with the marks (as Ctrl+P prints) or, unticked, the blank board.
let printBlank = false;
$("print-board").addEventListener("click", () => {
  printBlank = !withMarks();
  window.print();
});
window.addEventListener("beforeprint", () => {
  if (!board || !printBlank) return;
  const saved = states.slice();
  fixed.forEach((x, i) => { states[i] = x === null ? 0 : x; });
  printSaved = saved;
  marks = noMarks();
  exporting = true;
  draw();
});
let printSaved = null;
window.addEventListener("afterprint", () => {
  printBlank = false;
  if (!printSaved) return;
  states.set(printSaved);
  printSaved = null;
  exporting = false;
  draw();
});

// ---- digits: the number pad and the counting assist ------------------------------------
function assistOn() {
  if (!DIGITS) return false;
  try { return localStorage.getItem(`play:${cfg.slug}:assist`) === "1"; } catch { return false; }
}

// The pad (digit puzzles): one button per digit, then the marks and Clear; it writes into
// the selected cell, so a phone needs no keyboard.
function buildPad() {
  const pad = $("play-pad");
  if (!DIGITS) { pad.hidden = true; return; }
  const max = P.digitMax(board);
  const key = (label, st, name) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.dataset.state = String(st);
    b.setAttribute("aria-label", name);
    b.title = name;
    return b;
  };
  const btns = [];
  for (let d = 1; d <= max; d++) btns.push(key(String(d), 2 + d, fmt(T.padDigit, { d })));
  btns.push(key("○", 1, stateName(1)), key("×", 2, stateName(2)), key(T.padClear, 0, T.padClearLabel));
  if (CANDS) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = "cand-mode";
    b.textContent = T.candMode;
    b.title = fmt(T.candModeLabel, { key: IN.candidates.key.toUpperCase() });
    b.setAttribute("aria-label", b.title);
    b.setAttribute("aria-pressed", String(candMode));
    btns.push(b);
  }
  pad.replaceChildren(...btns);
  pad.hidden = false;
}

$("play-pad").addEventListener("pointerdown", (e) => e.preventDefault());   // keep the board's focus
$("play-pad").addEventListener("click", (e) => {
  const t = /** @type {Element} */ (e.target);
  if (t.closest("#cand-mode")) { setCandMode(!candMode); return; }
  const b = /** @type {HTMLButtonElement | null} */ (t.closest("button[data-state]"));
  if (!b || !board) return;
  lastTyped = null;
  const st = +b.dataset.state;
  if (candMode && st > 2) toggleCand(cursor, st - 2);
  else setUnit(cursor, st);
  announce();
});

// ---- candidates: small digits pencilled into a cell (input.candidates) ---------------------
// A bit per digit (1 to 9) per cell, shown in a cell with no digit or blank; toggled by a
// digit in candidate mode (the pad's button, or the key input.candidates.key), cleared
// when the cell gets its digit or its blank (apply), and by Clear marks. Kept with the
// saved position (record "c") and in the address (&c=), beside the marks.
function toggleCand(u, d) {
  if (!cands || u === null || fixed[u] !== null || states[u] > 1 || d < 1 || d > 9) return;
  if (d > P.digitMax(board)) return;
  cands[u] ^= 1 << d;
  saveNow();
  setAddress();
  draw();
}

function setCandMode(on) {
  candMode = on;
  const b = $("cand-mode");
  if (b) b.setAttribute("aria-pressed", String(on));
  wrap.classList.toggle("cand-mode", on);
}
let candMode = false;

function candSvg(i, x, y) {
  if (!cands || !cands[i] || states[i] > 1) return "";
  let out = "";
  for (let d = 1; d <= 9; d++) {
    if (!(cands[i] & (1 << d))) continue;
    const cx = x + CELL * (0.2 + 0.3 * ((d - 1) % 3)), cy = y + CELL * (0.2 + 0.3 * Math.floor((d - 1) / 3));
    out += `<text class="cand" x="${cx}" y="${cy}">${d}</text>`;
  }
  return out;
}

// "<cell>.<mask>" in base 36 for each cell with candidates, joined by "-"; null when the
// text is not that for n cells.
function encodeCands(c) {
  if (!c) return "";
  const out = [];
  c.forEach((m, i) => { if (m) out.push(`${i.toString(36)}.${m.toString(36)}`); });
  return out.join("-");
}

function decodeCands(text, n) {
  if (typeof text !== "string" || !/^(?:[0-9a-z]+\.[0-9a-z]+(?:-|$))*$/.test(text)) return null;
  const out = new Uint16Array(n);
  for (const part of text ? text.split("-") : []) {
    const [i, m] = part.split(".").map((x) => parseInt(x, 36));
    if (!(i < n) || !(m > 0 && m < 1024) || m & 1) return null;
    out[i] = m;
  }
  return out;
}

if (DIGITS) {
  const box = /** @type {HTMLInputElement} */ ($("assist"));
  box.closest("label").hidden = false;
  box.checked = assistOn();
  box.addEventListener("change", () => {
    try { localStorage.setItem(`play:${cfg.slug}:assist`, box.checked ? "1" : "0"); } catch { /* off */ }
    if (view) { view.assist = box.checked; afterChange(); }
  });
}

// Share: the address already carries the position (setAddress); the button copies it
// and shows it for copying by hand where the clipboard is closed.
async function share() {
  if (!entry) return;
  setAddress();
  const out = /** @type {HTMLInputElement} */ ($("share-out"));
  out.value = location.href;
  out.hidden = false;
  try {
    await navigator.clipboard.writeText(location.href);
    $("play-status").textContent = T.shareCopied;
  } catch {
    $("play-status").textContent = T.shareManual;
    out.select();
  }
}
$("check").addEventListener("click", check);
$("hint").addEventListener("click", hint);

// ---- check ---------------------------------------------------------------------------
// On an unfinished board Check reports only what no filling of the undecided units can
// repair (the module's irreparable(); without it, violations() of the board as it
// stands), and how many units are undecided; on a finished board every broken rule. The
// first problem is named in one line beside the board and its cells drawn strongly; the
// rest wait behind "N more". With nothing broken, a mark that differs from the solution
// is named; else "no mistakes so far".
function clearPanels() {
  $("check-out").replaceChildren();
  $("hint-out").replaceChildren();
}

function cellsText(cells) {
  return cells.map(([r, c]) => fmt(T.at, { r: r + 1, c: c + 1 })).join(T.sep);
}

// A violation's message: its rule's template in the page's language, filled with params
// (in English a count of one takes the singular: "has 1 cell", not "has 1 cells").
function message(v) {
  const t = RULE_TEXT[v.rule];
  return t === undefined ? v.rule : singular(fmt(t, v.params || {}));
}
function singular(text) {
  return lang === "en"
    ? text.replace(/\b1 ((?:numbered )?(?:cell|line|side|neighbour|number|piece|region|circle))s\b/g, "1 $1")
    : text;
}

function para(text, cls) {
  const p = document.createElement("p");
  if (cls) p.className = cls;
  p.textContent = text;
  return p;
}

function undecidedCount() {
  let n = 0;
  for (let i = 0; i < states.length; i++) if (states[i] === 0 && fixed[i] === null) n++;
  return n;
}

function undecidedText(n) {
  if (EDGES) return n === 1 ? T.undecidedLine : fmt(T.undecidedLines, { n });
  return n === 1 ? T.undecidedCell : fmt(T.undecidedCells, { n });
}

function isFinished() {
  return P.finished ? !!P.finished(board, view) : undecidedCount() === 0;
}

// A problem in one line: its message and (up to four of) its cells.
function violationItem(v, tag) {
  const el = document.createElement(tag);
  el.dataset.rule = v.rule;
  const cells = v.cells.length > 4
    ? fmt(T.cellsMore, { cells: cellsText(v.cells.slice(0, 3)), n: v.cells.length - 3 })
    : cellsText(v.cells);
  el.textContent = fmt(T.checkFirst, { message: message(v), cells });
  return el;
}

// Non-fixed units whose mark is set and differs from the solution, in unit order.
function offSolution() {
  const want = P.answerStates(board, entry.answer);
  const out = [];
  for (let i = 0; i < states.length; i++) {
    if (fixed[i] === null && states[i] !== 0 && !fits(states[i], want[i])) out.push(i);
  }
  return out;
}

function check() {
  if (!board) return;
  refreshCounts();
  marks = noMarks();
  const out = $("check-out");
  clearPanels();
  if (isSolved()) {
    out.append(para(fmt(T.solved, { time: clockText() }), "ok"));
    draw();
    return;
  }
  const finished = isFinished();
  const vs = problems();
  const left = undecidedCount();
  if (vs.length) {
    const [first, ...rest] = vs;
    for (const [r, c] of first.cells) marks.first.add(r * board.w + c);
    for (const v of rest) for (const [r, c] of v.cells) marks.bad.add(r * board.w + c);
    const line = violationItem(first, "p");
    line.className = "first wrong";
    out.append(line);
    if (rest.length) {
      const more = document.createElement("details");
      more.className = "more";
      const sum = document.createElement("summary");
      sum.textContent = fmt(T.more, { n: rest.length });
      const ul = document.createElement("ul");
      ul.append(...rest.map((v) => violationItem(v, "li")));
      more.append(sum, ul);
      out.append(more);
    }
    if (!finished) out.append(para(undecidedText(left), "undecided"));
  } else {
    const off = offSolution();
    if (off.length) {
      // This compares with the answer: it waits behind a spoiler warning, and the board
      // shows the unit only once the player opens it.
      const [u] = off;
      const box = document.createElement("details");
      box.className = "spoiler";
      const sum = document.createElement("summary");
      sum.textContent = T.spoiler;
      const what = DIGITS && states[u] > 2 ? "Digit" : "";
      box.append(sum, para(off.length > 1
        ? fmt(T[`offSolution${what}More`], { at: unitText(u), n: off.length - 1 })
        : fmt(T[`offSolution${what}`], { at: unitText(u) }), "first wrong"));
      box.addEventListener("toggle", () => {
        (EDGES ? marks.badEdge : marks.first)[box.open ? "add" : "delete"](u);
        draw();
      });
      out.append(para(T.noBreak, "ok"), box);
      if (!finished) out.append(para(undecidedText(left), "undecided"));
    } else {
      out.append(para(fmt(T.noMistakes, { n: left }), "ok"));
    }
  }
  draw();
}

// ---- hint ----------------------------------------------------------------------------
// A trace step is one deduction: "cells" ([r, c]) or, in the edges model, "edges"
// ([r, c, "r"|"b"]) with one state name per unit in "states" (mapped through
// input.trace); "why" (the cells that justify it), "rung", the sentence in "en"/"ja",
// "detail" {en, ja} and optional "detail_cells" for the second level. A module whose trace
// says something else exports traceUnits(board, step, input) -> [[unit, state], ...].
// A step without "why" (an older trace) is shown with its units and sentence alone.
function stepTargets(st) {
  if (P.traceUnits) return P.traceUnits(board, st, IN, entry.answer);
  const { h, w } = board;
  const units = EDGES ? (st.edges || []).map(([r, c, side]) => edgeIndex(h, w, r, c, side))
    : (st.cells || []).map(([r, c]) => r * w + c);
  return units.map((u, k) => [u, IN.trace[st.states[k]]]);
}

function unitText(i) {
  if (EDGES) return edgeAtText(i);
  return fmt(T.at, { r: Math.floor(i / board.w) + 1, c: (i % board.w) + 1 });
}

function textOf(x) {
  return x && typeof x === "object" ? x[lang] || x.en || "" : x || "";
}

async function hint() {
  if (!board) return;
  if (!entry.trace) {
    const e = entry;
    await loadTrace(e);
    if (e !== entry) return;
  }
  const out = $("hint-out");
  marks = noMarks();
  clearPanels();
  const p = document.createElement("p");
  if (solved) {
    p.className = "ok";
    p.textContent = fmt(T.solved, { time: clockText() });
    out.append(p);
    hintAt = null;
    draw();
    return;
  }
  // First wrong mark in unit order, if any.
  const wrong = offSolution();
  if (wrong.length) {
    const i = wrong[0];
    (EDGES ? marks.badEdge : marks.bad).add(i);
    p.className = "wrong";
    p.textContent = fmt(DIGITS && states[i] > 2 ? T.hintWrongDigit : T.hintWrong, { at: unitText(i) });
    out.append(p);
    hintAt = null;
    draw();
    return;
  }
  const trace = entry.trace || [];
  if (entry.made && !trace.length) {
    // a made board opened from its link: its steps are the solve page's to explain
    const a = document.createElement("a");
    a.href = `${cfg.solve}#${entry.url}`;
    a.textContent = T.hintMadeLink;
    p.append(T.hintMade, " ", a);
    out.append(p);
    hintAt = null;
    draw();
    return;
  }
  const k = trace.findIndex((s) => stepTargets(s).some(([u, want]) => states[u] !== want));
  if (k < 0) {
    p.textContent = T.hintNone;
    out.append(p);
    hintAt = null;
    draw();
    return;
  }
  const st = trace[k];
  // The same step as the last hint, still the next one: its second level.
  const level = hintAt && hintAt.id === entry.id && hintAt.k === k ? 2 : 1;
  hintAt = { id: entry.id, k };
  const units = stepTargets(st).map(([u]) => u);
  for (const u of units) (EDGES ? marks.hintEdge : marks.hint).add(u);
  // The step's cells are shown too (in the edges model a step may decide cells).
  for (const [r, c] of st.cells || []) marks.hint.add(r * board.w + c);
  for (const [r, c] of st.why || []) marks.why.add(r * board.w + c);
  // the step's kind in everyday words, with the rung's name (the article's) after it
  const head = document.createElement("strong");
  head.className = "rung";
  head.textContent = gradeWords(st.rung);
  p.className = "step";
  p.dataset.level = String(level);
  p.append(head);
  if (gradeWords(st.rung) !== rungName(st.rung)) {
    const name = document.createElement("span");
    name.className = "rung-name";
    name.textContent = rungName(st.rung);
    p.append(" ", name);
  }
  p.append(" ", st[lang] || st.en || "");
  out.append(p);
  const detail = textOf(st.detail);
  if (level === 2 && detail) {
    for (const [r, c] of st.detail_cells || []) marks.detail.add(r * board.w + c);
    out.append(para(detail, "detail"));
  }
  if (!st.why) {
    out.append(para(fmt(T.hintCells, {
      cells: st.cells ? cellsText(st.cells) : units.map(unitText).join(T.sep) }), "cells"));
  } else {
    out.append(para(T.hintLegend + (marks.detail.size ? ` ${T.hintDetailLegend}` : ""), "legend"));
  }
  if (level === 1 && detail) out.append(para(T.hintAgain, "again"));
  draw();
}

// ---- clock and storage ---------------------------------------------------------------
const MAX_HISTORY = 2000;

// A position as text: one base-36 character per unit (its state), and a run of four or
// more equal characters written "_" + the character + the run's length in base 36 + ".".
// Storage keeps the plain characters; the address (#id&p=...) the run-length form.
function encodePosition(st) {
  const chars = Array.from(st, (v) => v.toString(36));
  let out = "";
  for (let i = 0; i < chars.length;) {
    let j = i;
    while (j < chars.length && chars[j] === chars[i]) j++;
    out += j - i >= 4 ? `_${chars[i]}${(j - i).toString(36)}.` : chars[i].repeat(j - i);
    i = j;
  }
  return out;
}

// The states of n units from either form, or null when the text is not a position of n.
function decodePosition(text, n) {
  const out = [];
  const m = /^(?:[0-9a-z]|_[0-9a-z][0-9a-z]+\.)*$/.exec(text);
  if (!m) return null;
  for (const tok of text.match(/_[0-9a-z][0-9a-z]+\.|[0-9a-z]/g) || []) {
    if (tok[0] === "_") {
      const k = parseInt(tok.slice(2, -1), 36);
      if (out.length + k > n) return null;
      for (let j = 0; j < k; j++) out.push(parseInt(tok[1], 36));
    } else {
      out.push(parseInt(tok, 36));
    }
    if (out.length > n) return null;
  }
  return out.length === n ? Uint8Array.from(out) : null;
}

function validMoves(list, n) {
  if (!Array.isArray(list)) return [];
  const ok = (x) => Number.isInteger(x) && x >= 0;
  return list.filter((ch) => Array.isArray(ch) && ch.every((m) => Array.isArray(m) && m.length === 3
    && m.every(ok) && m[0] < n && m[1] < 36 && m[2] < 36));
}

// The address names the board and carries the position, so a copied link shares it.
function setAddress() {
  if (!entry) return;
  const enc = states.some((v, i) => v !== 0 && fixed[i] === null) ? encodePosition(states) : "";
  const c = encodeCands(cands);
  const want = `#${encodeURIComponent(entry.id)}${entry.packed ? `&b=${entry.packed}` : ""}` +
    `${enc || c ? `&p=${encodePosition(states)}` : ""}${c ? `&c=${c}` : ""}`;
  if (location.hash !== want) history.replaceState(null, "", want);
}
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
  // The history is kept up to its last MAX_HISTORY moves (a trial level that starts
  // before them is dropped with them).
  const cut = Math.max(0, undoStack.length - MAX_HISTORY);
  const c = encodeCands(cands);
  store.set(entry.id, { s: Array.from(states, (v) => v.toString(36)).join(""), t: Math.round(now()),
    ...(c ? { c } : {}),
    solved, m, u: undoStack.slice(cut), r: redoStack.slice(-MAX_HISTORY),
    tr: trials.map((k) => k - cut).filter((k) => k >= 0) });
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
  const { id, p, c } = parseHash();
  if (!id || !boards.some((b) => b.id === id)) return;
  if (entry && id === entry.id && (p === null || p === encodePosition(states))
      && (c || "") === encodeCands(cands)) return;
  sharedPos = p;
  load(id);
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
window.__play = {
  get states() { return Array.from(states || []); },
  get fixed() { return fixed; },
  get solved() { return solved; },
  get entry() { return entry; },
  get answer() { return board && P.toAnswer(board, view); },
  get solution() { return board && P.answerStates(board, entry.answer); },
  get marks() { return Object.fromEntries(Object.entries(marks).map(([k, v]) => [k, [...v]])); },
  get undecided() { return states ? undecidedCount() : 0; },
  get cursor() { return cursor; },
  get digitMax() { return DIGITS && board ? P.digitMax(board) : null; },
  get cands() { return cands ? Array.from(cands) : null; },
  exportSvg: (blank) => exportSvg(blank).text,
  targets: (k) => stepTargets(entry.trace[k]),
  message: (v) => message(v),
  // Set every free unit at once, as one move (tests).
  put(list) {
    const ch = [];
    list.forEach((s, i) => { if (fixed[i] === null && states[i] !== s) ch.push([i, states[i], s]); });
    apply(ch);
  },
  load,
};
