// Slitherlink's checker module for the play page (the edges model with the outline).
// The same rule ids, cells and params as slitherlink/rules.py and partial.py.
// Units: every edge of the board, the outline included, numbered as grid.js numbers them
// with the outline on (the vertical segments row by row, then the horizontal ones),
// which is board.py's Layout. States: 0 undecided, 1 line, 2 cross.

function layout(h, w) {
  const nv = h * (w + 1);
  const ne = nv + (h + 1) * w;
  const W1 = w + 1;
  const cellEdges = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      cellEdges.push([nv + r * w + c, nv + (r + 1) * w + c, r * W1 + c, r * W1 + c + 1]);
    }
  }
  const ends = [];
  for (let r = 0; r < h; r++) for (let x = 0; x < W1; x++) ends.push([r * W1 + x, (r + 1) * W1 + x]);
  for (let y = 0; y <= h; y++) for (let c = 0; c < w; c++) ends.push([y * W1 + c, y * W1 + c + 1]);
  const nvert = (h + 1) * W1;
  const vertexEdges = Array.from({ length: nvert }, () => []);
  ends.forEach(([a, b], e) => { vertexEdges[a].push(e); vertexEdges[b].push(e); });
  const edgeCells = Array.from({ length: ne }, () => []);
  cellEdges.forEach((es, i) => { for (const e of es) edgeCells[e].push(i); });
  return { h, w, nv, ne, nvert, cellEdges, ends, vertexEdges, edgeCells };
}

const cache = new Map();
function lay(h, w) {
  const k = `${h}x${w}`;
  if (!cache.has(k)) cache.set(k, layout(h, w));
  return cache.get(k);
}

function cornerCells(h, w, v) {
  const y = Math.floor(v / (w + 1)), x = v % (w + 1);
  const out = [];
  for (const r of [y - 1, y]) for (const c of [x - 1, x]) if (r >= 0 && r < h && c >= 0 && c < w) out.push([r, c]);
  return out;
}

function cornerParams(w, v) {
  return { row: Math.floor(v / (w + 1)) + 1, col: (v % (w + 1)) + 1 };
}

function sideCells(L, edges) {
  const seen = new Set();
  for (const e of edges) for (const i of L.edgeCells[e]) seen.add(i);
  return [...seen].sort((a, b) => a - b).map((i) => [Math.floor(i / L.w), i % L.w]);
}

// Connected pieces of the lines (state 1): sorted edge lists, in order of their first edge.
function pieces(L, on) {
  const seen = new Uint8Array(L.ne);
  const out = [];
  for (let e0 = 0; e0 < L.ne; e0++) {
    if (on[e0] !== 1 || seen[e0]) continue;
    seen[e0] = 1;
    const stack = [e0], piece = [];
    while (stack.length) {
      const e = stack.pop();
      piece.push(e);
      for (const v of L.ends[e]) {
        for (const f of L.vertexEdges[v]) {
          if (on[f] === 1 && !seen[f]) { seen[f] = 1; stack.push(f); }
        }
      }
    }
    out.push(piece.sort((a, b) => a - b));
  }
  return out;
}

function largest(ps) {
  let best = 0;
  ps.forEach((p, i) => { if (p.length > ps[best].length) best = i; });
  return best;
}

function clueAt(board, i) {
  const v = board.clues[Math.floor(i / board.w)][i % board.w];
  return typeof v === "number" ? v : null;
}

// The rule check of lines `on` (1 a line, anything else none): rules.py's check().
function check(board, on) {
  const { h, w } = board;
  const L = lay(h, w);
  const out = [];
  if (!on.some((s) => s === 1)) out.push({ rule: "slither.noline", cells: [], params: { edges: L.ne } });
  const deg = L.vertexEdges.map((es) => es.filter((e) => on[e] === 1).length);
  deg.forEach((d, v) => {
    if (d === 3) out.push({ rule: "slither.branch", cells: cornerCells(h, w, v), params: cornerParams(w, v) });
    else if (d === 4) out.push({ rule: "slither.cross", cells: cornerCells(h, w, v), params: cornerParams(w, v) });
  });
  for (let i = 0; i < h * w; i++) {
    const k = clueAt(board, i);
    if (k === null) continue;
    const n = L.cellEdges[i].filter((e) => on[e] === 1).length;
    if (n !== k) {
      const r = Math.floor(i / w), c = i % w;
      out.push({ rule: "slither.count", cells: [[r, c]], params: { row: r + 1, col: c + 1, clue: k, count: n } });
    }
  }
  const ps = pieces(L, on);
  if (ps.length > 1) {
    const big = largest(ps);
    const rest = ps.filter((_, k) => k !== big).flat();
    out.push({ rule: "slither.loops", cells: sideCells(L, rest), params: { pieces: ps.length } });
  }
  deg.forEach((d, v) => {
    if (d === 1) out.push({ rule: "slither.deadend", cells: cornerCells(h, w, v), params: cornerParams(w, v) });
  });
  return out;
}

function answerOn(board, answer) {
  return [...answer.vert.join(""), ...answer.horiz.join("")].map((ch) => (ch === "1" ? 1 : 0));
}

export function violations(board, answer) {
  return check(board, answerOn(board, answer));
}

export function toAnswer(board, view) {
  const { h, w } = board;
  const nv = h * (w + 1);
  const st = view.states;
  const vert = [], horiz = [];
  for (let r = 0; r < h; r++) {
    let s = "";
    for (let x = 0; x <= w; x++) s += st[r * (w + 1) + x] === 1 ? "1" : "0";
    vert.push(s);
  }
  for (let y = 0; y <= h; y++) {
    let s = "";
    for (let c = 0; c < w; c++) s += st[nv + y * w + c] === 1 ? "1" : "0";
    horiz.push(s);
  }
  return { vert, horiz };
}

export function answerStates(board, answer) {
  return Uint8Array.from(answerOn(board, answer), (x) => (x ? 1 : 2));
}

export function cellSvg(board, view, r, c, x, y, s) {
  const v = board.clues[r][c];
  if (v === null || v === undefined) return "";
  return `<text class="clue" x="${x + s / 2}" y="${y + s / 2}">${v}</text>`;
}

export function cellText(board, view, r, c) {
  const v = board.clues[r][c];
  return v === null || v === undefined ? "" : String(v);
}

// What no filling of the undecided edges can repair: partial.py's irreparable().
export function irreparable(board, view) {
  const { h, w } = board;
  const L = lay(h, w);
  const st = Array.from(view.states);
  if (!st.includes(0)) return check(board, st);
  const out = [];
  for (let v = 0; v < L.nvert; v++) {
    let on = 0, free = 0;
    for (const e of L.vertexEdges[v]) { if (st[e] === 1) on++; else if (st[e] === 0) free++; }
    if (on === 3) out.push({ rule: "slither.branch", cells: cornerCells(h, w, v), params: cornerParams(w, v) });
    else if (on === 4) out.push({ rule: "slither.cross", cells: cornerCells(h, w, v), params: cornerParams(w, v) });
    else if (on === 1 && free === 0) out.push({ rule: "slither.deadend", cells: cornerCells(h, w, v), params: cornerParams(w, v) });
  }
  for (let i = 0; i < h * w; i++) {
    const k = clueAt(board, i);
    if (k === null) continue;
    const r = Math.floor(i / w), c = i % w;
    let on = 0, free = 0;
    for (const e of L.cellEdges[i]) { if (st[e] === 1) on++; else if (st[e] === 0) free++; }
    if (on > k) out.push({ rule: "slither.over", cells: [[r, c]], params: { row: r + 1, col: c + 1, clue: k, count: on } });
    else if (on + free < k) out.push({ rule: "slither.under", cells: [[r, c]], params: { row: r + 1, col: c + 1, clue: k, most: on + free } });
  }
  const ps = pieces(L, st);
  const closed = [];
  ps.forEach((p, k) => {
    const verts = new Set(p.flatMap((e) => L.ends[e]));
    if ([...verts].every((v) => L.vertexEdges[v].filter((e) => st[e] === 1).length === 2)) closed.push(k);
  });
  if (closed.length && ps.length > 1) {
    const k = closed[largest(closed.map((j) => ps[j]))];
    const rest = ps.filter((_, j) => j !== k).flat();
    out.push({ rule: "slither.closed", cells: sideCells(L, rest), params: { others: ps.length - 1 } });
  }
  return out;
}
