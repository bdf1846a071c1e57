// Shared helpers for the play framework and the rule checkers: cell lists, groups, the
// Python sort order, message templates, and the edge layout of the edges model.
// Cells are [row, col] pairs; every list a checker returns is row-major sorted.

export function cellCmp(a, b) {
  return a[0] - b[0] || a[1] - b[1];
}

// Python compares tuples of tuples element by element; a prefix sorts first.
export function cellsCmp(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = cellCmp(a[i], b[i]);
    if (d) return d;
  }
  return a.length - b.length;
}

// Sort violations by (position of the rule in ids, cells), as RuleBook.sort does. The
// framework calls this with the rule ids of the page's rules table; checkers need not.
export function sortViolations(list, ids) {
  const pos = new Map(ids.map((r, i) => [r, i]));
  for (const v of list) v.cells.sort(cellCmp);
  return list.sort((a, b) => pos.get(a.rule) - pos.get(b.rule) || cellsCmp(a.cells, b.cells));
}

// Fill a message template the way Python's str.format fills it from plain ints and
// strings: "{name}" takes params.name, "{{" and "}}" are literal braces.
export function fill(template, params) {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, k) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    if (!(k in params)) return m;
    const v = params[k];
    return v === null ? "None" : v === true ? "True" : v === false ? "False" : String(v);
  });
}

export const DIRS = [[-1, 0], [1, 0], [0, -1], [0, 1]];

// ---- the edges model's layout ---------------------------------------------------------
// Edge "r" of cell (r, c) lies between (r, c) and (r, c + 1); edge "b" between (r, c) and
// (r + 1, c). Indices: every "r" edge in reading order, then every "b" edge in reading
// order. Without the outline (PlaySpec input "outline": false, the default) only borders
// between two cells are edges and the frame is always drawn; with it, the board's outline
// is made of edges too: "r" edges with c = -1 (the left side) and "b" edges with r = -1
// (the top), so c runs from -1 to w - 1 and r from -1 to h - 1.

export function edgeCount(h, w, outline = false) {
  return outline ? h * (w + 1) + (h + 1) * w : h * (w - 1) + (h - 1) * w;
}

export function edgeIndex(h, w, r, c, side, outline = false) {
  if (outline) return side === "r" ? r * (w + 1) + c + 1 : h * (w + 1) + (r + 1) * w + c;
  return side === "r" ? r * (w - 1) + c : h * (w - 1) + r * w + c;
}

// [r, c, side] of edge i.
/** @returns {[number, number, "r" | "b"]} */
export function edgeAt(h, w, i, outline = false) {
  const k = outline ? 1 : 0;
  const nr = h * (w - 1 + 2 * k);
  if (i < nr) return [Math.floor(i / (w - 1 + 2 * k)), (i % (w - 1 + 2 * k)) - k, "r"];
  const j = i - nr;
  return [Math.floor(j / w) - k, j % w, "b"];
}

// The two cells on either side of an edge (with the outline, one may be off the board).
export function edgeCells(h, w, i, outline = false) {
  const [r, c, side] = edgeAt(h, w, i, outline);
  return side === "r" ? [[r, c], [r, c + 1]] : [[r, c], [r + 1, c]];
}

// Whether (r, c, side) names an edge.
export function isEdge(h, w, r, c, side, outline = false) {
  const k = outline ? -1 : 0;
  return side === "r" ? r >= 0 && r < h && c >= k && c + 1 + k < w
    : c >= 0 && c < w && r >= k && r + 1 + k < h;
}

// ---- the view: what a checker module's hooks see ----------------------------------------
// The framework builds it once per board (states and fixed are updated in place); the
// test runner builds it the same way. regionIds: the module's regions(board), or null.
export function makeView(board, model, input, states, fixed, regionIds) {
  const { h, w } = board;
  const v = {
    h, w, model, input, states, fixed,
    edge: (r, c, side) => {
      const o = !!(input && input.outline);
      return isEdge(h, w, r, c, side, o) ? states[edgeIndex(h, w, r, c, side, o)] : 0;
    },
    region: null, regionCells: null, count: null,
  };
  if (regionIds) {
    const ids = regionIds.flat();
    const byId = new Map();
    ids.forEach((id, i) => {
      if (!byId.has(id)) byId.set(id, []);
      byId.get(id).push(i);
    });
    const k = new Map([...byId.keys()].map((id, j) => [id, j]));
    v.region = Int32Array.from(ids, (id) => k.get(id));   // ids become 0, 1, ... in order
    v.regionCells = [...byId.values()];
    v.count = new Int32Array(h * w);
    countRegions(v);
  }
  return v;
}

// The live per-region count: for every cell, how many cells of its region are in the
// state input.count (default 1).
export function countRegions(v) {
  if (!v.regionCells) return;
  const on = v.input.count === undefined ? 1 : v.input.count;
  // Digit puzzles: a written digit counts as well as the "numbered" mark.
  const hit = v.input.digits ? (s) => s === 1 || s > 2 : (s) => s === on;
  for (const cells of v.regionCells) {
    let n = 0;
    for (const i of cells) if (hit(v.states[i])) n++;
    for (const i of cells) v.count[i] = n;
  }
}

// Orthogonally connected groups of the cells where same(a, b) holds for neighbours a, b
// (indices r * w + c), each sorted, in reading order of their first cell.
export function groupsBy(h, w, keep, same) {
  const seen = new Uint8Array(h * w);
  const out = [];
  for (let i = 0; i < h * w; i++) {
    if (seen[i] || !keep(i)) continue;
    const group = [];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const j = stack.pop();
      const y = Math.floor(j / w), x = j % w;
      group.push([y, x]);
      for (const [dy, dx] of DIRS) {
        const ny = y + dy, nx = x + dx;
        const k = ny * w + nx;
        if (ny >= 0 && ny < h && nx >= 0 && nx < w && !seen[k] && keep(k) && same(j, k)) {
          seen[k] = 1;
          stack.push(k);
        }
      }
    }
    out.push(group.sort(cellCmp));
  }
  return out;
}

// The connect rule: when the marked cells (on[r][c] true) form more than one
// orthogonal group, one violation listing every marked cell outside the largest group
// (ties: the group holding the earliest cell in reading order counts as largest).
export function connectViolation(rule, on, h, w) {
  const groups = groupsBy(h, w, (i) => on[Math.floor(i / w)][i % w], () => true);
  if (groups.length <= 1) return null;
  let best = 0;
  for (let i = 1; i < groups.length; i++) if (groups[i].length > groups[best].length) best = i;
  const cells = [];
  groups.forEach((g, i) => { if (i !== best) cells.push(...g); });
  cells.sort(cellCmp);
  return { rule, cells, params: { pieces: groups.length } };
}

// Answers written as rows of "#" (the unit is on) and "." (off), one character a cell: the
// solution in player states (1 on, 2 off) and the player's cells back as rows (undecided
// reads as off). For puzzles whose answer JSON is {rows} in that form.
export function hashRowsToStates(answer) {
  return answer.rows.flatMap((row) => Array.from(row, (ch) => (ch === "#" ? 1 : 2)));
}

export function statesToHashRows(board, view) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    for (let c = 0; c < board.w; c++) s += view.states[r * board.w + c] === 1 ? "#" : ".";
    rows.push(s);
  }
  return { rows };
}

// ---- digit puzzles (input.digits) -----------------------------------------------------
// States: 0 undecided, 1 numbered (a number goes here, its digit not written yet), 2
// blank (×), 2 + d the digit d. With the counting assist (view.assist) a numbered cell
// counts as its live count; without it the board is complete only once every numbered
// cell has its digit.
export const DIGIT0 = 2;
export const isNumbered = (s) => s === 1 || s > DIGIT0;
export const digitOf = (s) => (s > DIGIT0 ? s - DIGIT0 : null);
// A "numbered" or blank mark is a helper; the digits are the answer.
export const isHelper = (s) => s === 1 || s === 2;
// A numbered mark where the solution has a digit is not wrong, only not finished.
export const fitsDigit = (s, want) => s === want || (s === 1 && want > DIGIT0);

export function digitsComplete(board, view) {
  if (view.assist) return true;
  for (let i = 0; i < view.states.length; i++) {
    if (view.states[i] === 1 && view.fixed[i] === null) return false;
  }
  return true;
}

// A hint trace step ("cells" with "states" names) as units and the states it asks for:
// a "number" becomes the solution's digit (a printed clue stays numbered).
export function digitTraceUnits(board, step, input, solution) {
  return (step.cells || []).map(([r, c], k) => {
    const u = r * board.w + c;
    const s = input.trace[step.states[k]];
    const printed = board.clues[r][c] !== null && board.clues[r][c] !== undefined;
    return [u, s === 1 && !printed ? solution[u] : s];
  });
}

// A digit cell's drawing: a written digit in ink; a numbered mark as a hollow ring (with
// the assist, a ring holding the live count); a blank mark as a cross.
export function digitCellSvg(st, count, assist, cx, cy, s) {
  if (st > DIGIT0) return `<text class="ink" x="${cx}" y="${cy}">${st - DIGIT0}</text>`;
  if (st === 1) {
    return assist ? `<circle class="ring" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="ink" x="${cx}" y="${cy}">${count}</text>`
      : `<circle class="ring mark" cx="${cx}" cy="${cy}" r="${s * 0.3}"/>`;
  }
  if (st === 2) {
    const a = s * 0.18;
    return `<path class="cross" d="M${cx - a} ${cy - a}L${cx + a} ${cy + a}M${cx + a} ${cy - a}L${cx - a} ${cy + a}"/>`;
  }
  return "";
}
