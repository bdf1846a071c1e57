// Sashigane: the rule checker and the drawing hooks for the play framework ("edges").
// Board JSON {h, w, rules: "seed"|"standard", cells: [[token, ...], ...]} with tokens
// "." empty, "o" circle, "oN" numbered circle, "^" "v" "<" ">" arrows, "?" mark.
// Answer JSON {pieces: [[piece index or -1, ...], ...], stray: [[[r, c], [r, c]], ...]}.
// The same rules, in the same order, with the same cells and params as the Python
// package's violations() (solvers/sashigane/rules.py). States per edge (PlaySpec.input):
// 0 undecided, 1 line, 2 no-line mark; undecided reads as no line.
import { edgeIndex } from "./grid.js";

export const RULES = ["sashigane.cover", "sashigane.border", "sashigane.shape",
  "sashigane.circles", "sashigane.no_circle", "sashigane.corner", "sashigane.arrows",
  "sashigane.no_arrow", "sashigane.arrow_end", "sashigane.arrow_point", "sashigane.size",
  "sashigane.bent", "sashigane.grown", "sashigane.corner_lost", "sashigane.arm_cut",
  "sashigane.arrow_joined", "sashigane.region", "sashigane.region_size"];

const ARROWS = { "^": "up", v: "down", "<": "left", ">": "right" };

function parseCell(tok) {
  if (tok[0] === "o") return { kind: "circle", n: tok.length > 1 ? Number(tok.slice(1)) : null };
  if (tok in ARROWS) return { kind: "arrow", dir: ARROWS[tok] };
  return { kind: tok === "?" ? "mark" : "empty" };
}

// The L that the cells (row-major indices) form, or null.
export function lShape(cells, w) {
  let r0 = Infinity, r1 = -1, c0 = Infinity, c1 = -1;
  for (const i of cells) {
    const r = Math.floor(i / w), c = i % w;
    r0 = Math.min(r0, r); r1 = Math.max(r1, r); c0 = Math.min(c0, c); c1 = Math.max(c1, c);
  }
  if (r1 === r0 || c1 === c0 || cells.length !== (r1 - r0) + (c1 - c0) + 1) return null;
  const have = new Set(cells);
  for (const rr of [r0, r1]) {
    for (const cc of [c0, c1]) {
      let all = true;
      for (let c = c0; c <= c1 && all; c++) all = have.has(rr * w + c);
      for (let r = r0; r <= r1 && all; r++) all = have.has(r * w + cc);
      if (!all) continue;
      const farC = cc === c0 ? c1 : c0, farR = rr === r0 ? r1 : r0;
      return {
        corner: rr * w + cc,
        ends: [rr * w + farC, farR * w + cc],
        toward: [cc > farC ? "right" : "left", rr > farR ? "down" : "up"],
      };
    }
  }
  return null;
}

const cmpCells = (a, b) => a[0] - b[0] || a[1] - b[1];

function cmpList(a, b) {
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const d = cmpCells(a[k], b[k]);
    if (d) return d;
  }
  return a.length - b.length;
}

// The rules one piece (row-major cell indices) breaks (Python's piece_violations).
function pieceRules(board, clue, cells, add) {
  const w = board.w;
  const seed = (board.rules || "seed") === "seed";
  const at = (i) => ({ row: Math.floor(i / w) + 1, col: (i % w) + 1 });
  const circles = cells.filter((i) => clue[i].kind === "circle");
  const arrows = cells.filter((i) => clue[i].kind === "arrow");
  const shape = lShape(cells, w);
  const first = at(Math.min(...cells));
  if (!shape) add("sashigane.shape", cells, { size: cells.length, ...first });
  if (circles.length > 1) add("sashigane.circles", circles, { count: circles.length, ...first });
  if (shape) {
    if (seed && !circles.length) add("sashigane.no_circle", cells, first);
    for (const i of circles) if (i !== shape.corner) add("sashigane.corner", [i], at(i));
    if (seed && arrows.length > 1) {
      add("sashigane.arrows", arrows, { count: arrows.length, ...first });
    }
    if (seed && !arrows.length) add("sashigane.no_arrow", cells, first);
    for (const i of arrows) {
      const k = shape.ends.indexOf(i);
      if (k < 0) add("sashigane.arrow_end", [i], at(i));
      else if (clue[i].dir !== shape.toward[k]) add("sashigane.arrow_point", [i], at(i));
    }
  }
  for (const i of circles) {
    const n = clue[i].n;
    if (n !== null && n > 0 && n !== cells.length) {
      add("sashigane.size", [i], { number: n, size: cells.length, ...at(i) });
    }
  }
}

export function violations(board, answer) {
  const { w } = board;
  const clue = board.cells.flat().map(parseCell);
  const pieces = answer.pieces.flat();
  const rc = (i) => [Math.floor(i / w), i % w];
  const at = (i) => ({ row: Math.floor(i / w) + 1, col: (i % w) + 1 });
  const out = [];
  const add = (rule, cells, params = {}) =>
    out.push({ rule, cells: cells.map((c) => (typeof c === "number" ? rc(c) : c)).sort(cmpCells),
      params });
  pieces.forEach((p, i) => { if (p < 0) add("sashigane.cover", [i], at(i)); });
  for (const [a, b] of answer.stray || []) {
    add("sashigane.border", [a, b], { row: a[0] + 1, col: a[1] + 1, row2: b[0] + 1, col2: b[1] + 1 });
  }
  const groups = [];
  pieces.forEach((p, i) => {
    if (p < 0) return;
    while (groups.length <= p) groups.push([]);
    groups[p].push(i);
  });
  for (const cells of groups) if (cells.length) pieceRules(board, clue, cells, add);
  const order = Object.fromEntries(RULES.map((r, k) => [r, k]));
  return out.sort((a, b) => order[a.rule] - order[b.rule] || cmpList(a.cells, b.cells));
}

// Pieces from drawn borders: vert[r][c] between (r, c) and (r, c+1), horz[r][c] between
// (r, c) and (r+1, c). Pieces are numbered in reading order of their first cell; a drawn
// border with the same piece on both sides is kept as stray.
export function fromBorders(h, w, vert, horz) {
  const lab = new Array(h * w).fill(-1);
  let n = 0;
  for (let s = 0; s < h * w; s++) {
    if (lab[s] >= 0) continue;
    lab[s] = n;
    const stack = [s];
    while (stack.length) {
      const i = stack.pop(), r = Math.floor(i / w), c = i % w;
      const nb = [];
      if (c + 1 < w && !vert[r][c]) nb.push(i + 1);
      if (c > 0 && !vert[r][c - 1]) nb.push(i - 1);
      if (r + 1 < h && !horz[r][c]) nb.push(i + w);
      if (r > 0 && !horz[r - 1][c]) nb.push(i - w);
      for (const j of nb) if (lab[j] < 0) { lab[j] = n; stack.push(j); }
    }
    n++;
  }
  const stray = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      if (c + 1 < w && vert[r][c] && lab[i] === lab[i + 1]) stray.push([[r, c], [r, c + 1]]);
      if (r + 1 < h && horz[r][c] && lab[i] === lab[i + w]) stray.push([[r, c], [r + 1, c]]);
    }
  }
  stray.sort((a, b) => cmpList(a, b));
  const rows = [];
  for (let r = 0; r < h; r++) rows.push(lab.slice(r * w, (r + 1) * w));
  return stray.length ? { pieces: rows, stray } : { pieces: rows };
}

// The area rung's budget (solvers/sashigane/ladder.py size_budget): cells left for the
// unnumbered circles after the printed numbers, and the least and most they can fill.
export function budget(board) {
  const { h, w } = board;
  let k = 0, left = h * w;
  for (const tok of board.cells.flat()) {
    const c = parseCell(tok);
    if (c.kind !== "circle") continue;
    if (c.n === null) k += 1;
    else left -= c.n;
  }
  return { left, least: 3 * k, most: (h + w - 1) * k, open: k };
}

// ---- hooks of the play framework ------------------------------------------------------

// The answer the player's lines draw (undecided and no-line marks read as no line).
export function toAnswer(board, view) {
  const { h, w } = board;
  const vert = [], horz = [];
  for (let r = 0; r < h; r++) {
    const row = [];
    for (let c = 0; c + 1 < w; c++) row.push(view.edge(r, c, "r") === 1 ? 1 : 0);
    vert.push(row);
  }
  for (let r = 0; r + 1 < h; r++) {
    const row = [];
    for (let c = 0; c < w; c++) row.push(view.edge(r, c, "b") === 1 ? 1 : 0);
    horz.push(row);
  }
  return fromBorders(h, w, vert, horz);
}

// The solution as edge states: a line between different pieces, a no-line mark elsewhere.
export function answerStates(board, answer) {
  const { h, w } = board;
  const p = answer.pieces.flat();
  const out = new Array(h * (w - 1) + (h - 1) * w).fill(2);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      if (c + 1 < w && p[i] !== p[i + 1]) out[edgeIndex(h, w, r, c, "r")] = 1;
      if (r + 1 < h && p[i] !== p[i + w]) out[edgeIndex(h, w, r, c, "b")] = 1;
    }
  }
  for (const [[r, c], [r2]] of answer.stray || []) {
    out[edgeIndex(h, w, r, c, r2 === r ? "r" : "b")] = 1;
  }
  return out;
}

const TIP = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

export function cellSvg(board, view, r, c, x, y, s) {
  const k = parseCell(board.cells[r][c]);
  const cx = x + s / 2, cy = y + s / 2;
  if (k.kind === "circle") {
    // Two or more digits in a smaller size, so the number stays inside its circle.
    const cls = k.n !== null && String(k.n).length > 1 ? "clue narrow" : "clue";
    const n = k.n === null ? "" : `<text class="${cls}" x="${cx}" y="${cy}">${k.n}</text>`;
    return `<circle class="ring-given" cx="${cx}" cy="${cy}" r="${s * 0.38}"/>${n}`;
  }
  if (k.kind === "arrow") {
    const [dx, dy] = TIP[k.dir];
    const a = s * 0.3, t = s * 0.16;
    const tx = cx + dx * a, ty = cy + dy * a;
    const px = -dy * t, py = dx * t;
    const hx = tx - dx * t, hy = ty - dy * t;
    return `<path class="arrow" d="M${cx - dx * a} ${cy - dy * a}L${tx} ${ty}` +
      `M${hx + px} ${hy + py}L${tx} ${ty}L${hx - px} ${hy - py}"/>`;
  }
  if (k.kind === "mark") return `<text class="clue" x="${cx}" y="${cy}">?</text>`;
  return "";
}

const NAMES = {
  en: { up: "arrow up", down: "arrow down", left: "arrow left", right: "arrow right",
    circle: "circle", mark: "question mark" },
  ja: { up: "上向きの矢印", down: "下向きの矢印", left: "左向きの矢印", right: "右向きの矢印",
    circle: "丸", mark: "はてな" },
};

export function cellText(board, view, r, c, lang) {
  const k = parseCell(board.cells[r][c]);
  const t = NAMES[lang] || NAMES.en;
  if (k.kind === "circle") return k.n === null ? t.circle : `${t.circle} ${k.n}`;
  if (k.kind === "arrow") return t[k.dir];
  if (k.kind === "mark") return t.mark;
  return "";
}

// Beside the board: the area rung's size budget for the unnumbered circles.
export function readout(board) {
  const b = budget(board);
  return [["budget", { left: b.left, least: b.least, most: b.most, open: b.open }]];
}

// ---- the partial check (Python: solvers/sashigane/partial.py) --------------------------

const STEP = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };
const SIDES = [[-1, 0], [1, 0], [0, -1], [0, 1]];

// Every edge as [unit, cell a, cell b], in unit order.
function edgeList(h, w) {
  const out = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c + 1 < w; c++) out.push([edgeIndex(h, w, r, c, "r"), r * w + c, r * w + c + 1]);
  }
  for (let r = 0; r + 1 < h; r++) {
    for (let c = 0; c < w; c++) out.push([edgeIndex(h, w, r, c, "b"), r * w + c, (r + 1) * w + c]);
  }
  return out;
}

// Component label per cell (the smallest cell of its component) over the given links.
function components(n, links) {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x) => {
    while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; }
    return x;
  };
  for (const [a, b] of links) {
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  return parent.map((_, i) => find(i));
}

function groupsOf(comp) {
  const out = new Map();
  comp.forEach((k, i) => {
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(i);
  });
  return [...out.entries()].sort((a, b) => a[0] - b[0]);
}

// Whether connected cells are part of some L of width 1.
export function withinL(cells, w) {
  const rs = cells.map((i) => Math.floor(i / w)), cs = cells.map((i) => i % w);
  if (new Set(rs).size === 1 || new Set(cs).size === 1) return true;
  for (const r of [Math.min(...rs), Math.max(...rs)]) {
    for (const c of [Math.min(...cs), Math.max(...cs)]) {
      if (rs.every((rr, k) => rr === r || cs[k] === c)) return true;
    }
  }
  return false;
}

function statesOf(board, view) {
  return edgeList(board.h, board.w).map(([u]) => view.states[u]);
}

// The board counts as complete when no edge is undecided, or when the lines close off
// whole pieces: no line inside a region, and as many regions as circles (standard rules:
// every region an L). Then Check reports every broken rule.
export function finished(board, view) {
  const { h, w } = board;
  const edges = edgeList(h, w);
  const st = statesOf(board, view);
  if (st.every((s) => s !== 0)) return true;
  const region = components(h * w, edges.filter((e, k) => st[k] !== 1).map(([, a, b]) => [a, b]));
  if (edges.some(([, a, b], k) => st[k] === 1 && region[a] === region[b])) return false;
  const groups = groupsOf(region);
  if ((board.rules || "seed") === "seed") {
    return groups.length === board.cells.flat().filter((t) => t[0] === "o").length;
  }
  return groups.every(([, cells]) => lShape(cells, w) !== null);
}

// What no way of deciding the undecided lines can repair.
export function irreparable(board, view) {
  const { h, w } = board;
  const n = h * w;
  const seed = (board.rules || "seed") === "seed";
  const clue = board.cells.flat().map(parseCell);
  const edges = edgeList(h, w);
  const st = statesOf(board, view);
  const rc = (i) => [Math.floor(i / w), i % w];
  const at = (i) => ({ row: Math.floor(i / w) + 1, col: (i % w) + 1 });
  const out = [];
  const add = (rule, cells, params = {}) =>
    out.push({ rule, cells: cells.map((c) => (typeof c === "number" ? rc(c) : c)).sort(cmpCells),
      params });
  const joined = components(n, edges.filter((e, k) => st[k] === 2).map(([, a, b]) => [a, b]));
  const region = components(n, edges.filter((e, k) => st[k] !== 1).map(([, a, b]) => [a, b]));
  const open = new Set(edges.filter((e, k) => st[k] === 0).map(([, a]) => region[a]));
  // The mark on side (dr, dc) of cell i, null off the board.
  const side = (i, dr, dc) => {
    const r = Math.floor(i / w), c = i % w, r2 = r + dr, c2 = c + dc;
    if (r2 < 0 || c2 < 0 || r2 >= h || c2 >= w) return null;
    return dr ? view.edge(Math.min(r, r2), c, "b") : view.edge(r, Math.min(c, c2), "r");
  };
  edges.forEach(([, a, b], k) => {
    if (st[k] === 1 && joined[a] === joined[b]) {
      const [r2, c2] = rc(b);
      add("sashigane.border", [a, b], { ...at(a), row2: r2 + 1, col2: c2 + 1 });
    }
  });
  for (const [key, cells] of groupsOf(region)) {
    if (!open.has(key)) {
      pieceRules(board, clue, cells, add);
      continue;
    }
    const circles = cells.filter((i) => clue[i].kind === "circle");
    const arrows = cells.filter((i) => clue[i].kind === "arrow");
    if (seed) {
      if (!circles.length || circles.length !== arrows.length) {
        add("sashigane.region", cells, { ...at(cells[0]), circles: circles.length,
          arrows: arrows.length });
      } else {
        const nums = circles.map((i) => clue[i].n);
        const least = nums.reduce((s, v) => s + (v ? v : 3), 0);
        const most = nums.reduce((s, v) => s + (v ? v : h + w - 1), 0);
        if (cells.length < least || cells.length > most) {
          add("sashigane.region_size", cells, { ...at(cells[0]), size: cells.length, least, most });
        }
      }
    }
    for (const i of circles) {
      const marks = SIDES.map(([dr, dc]) => side(i, dr, dc));
      const opened = marks.map((m) => m !== null && m !== 1);
      const tied = marks.map((m) => m === 2);
      let ok = false;
      for (const v of [0, 1]) {
        for (const x of [2, 3]) {
          if (opened[v] && opened[x] && tied.every((t, k) => !t || k === v || k === x)) ok = true;
        }
      }
      if (!ok) add("sashigane.corner_lost", [i], at(i));
    }
    for (const i of arrows) {
      const [dr, dc] = STEP[clue[i].dir];
      let r = Math.floor(i / w), c = i % w;
      for (;;) {
        const r2 = r + dr, c2 = c + dc;
        if (r2 < 0 || c2 < 0 || r2 >= h || c2 >= w) break;
        if (side(r * w + c, dr, dc) === 1) {
          add("sashigane.arm_cut", [i, r * w + c, r2 * w + c2], { ...at(i),
            row2: Math.min(r, r2) + 1, col2: Math.min(c, c2) + 1,
            row3: Math.max(r, r2) + 1, col3: Math.max(c, c2) + 1 });
        }
        if (!seed || clue[r2 * w + c2].kind === "circle") break;
        r = r2; c = c2;
      }
      for (const [er, ec] of SIDES) {
        if ((er !== dr || ec !== dc) && side(i, er, ec) === 2) {
          const j = i + er * w + ec;
          add("sashigane.arrow_joined", [i, j], { ...at(i), row2: Math.floor(j / w) + 1,
            col2: (j % w) + 1 });
        }
      }
    }
  }
  for (const [key, cells] of groupsOf(joined)) {
    if (!open.has(region[key]) || cells.length < 2) continue;
    const circles = cells.filter((i) => clue[i].kind === "circle");
    const arrows = cells.filter((i) => clue[i].kind === "arrow");
    const first = at(cells[0]);
    if (circles.length > 1) add("sashigane.circles", circles, { count: circles.length, ...first });
    if (seed && arrows.length > 1) add("sashigane.arrows", arrows, { count: arrows.length, ...first });
    if (!withinL(cells, w)) add("sashigane.bent", cells, { size: cells.length, ...first });
    for (const i of circles) {
      const v = clue[i].n;
      if (v !== null && v > 0 && cells.length > v) {
        add("sashigane.grown", [i], { ...at(i), number: v, size: cells.length });
      }
    }
  }
  const order = Object.fromEntries(RULES.map((r, k) => [r, k]));
  return out.sort((a, b) => order[a.rule] - order[b.rule] || cmpList(a.cells, b.cells));
}
