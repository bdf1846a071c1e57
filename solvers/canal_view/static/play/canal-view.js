// Canal View: the rule checker and the drawing hooks for the play framework ("cells").
// Board JSON {h, w, clues}; answer JSON {rows}: "#" flooded, "." dry.
// Player states (PlaySpec.input): 0 undecided, 1 flooded, 2 marked dry. Clue cells are
// fixed dry. Rule ids and params match solvers/canal_view/rules.py violations().
import { DIRS, cellCmp, connectViolation, hashRowsToStates, statesToHashRows } from "./grid.js";

export function violations(board, answer) {
  const { h, w, clues } = board;
  const fl = answer.rows.map((row) => Array.from(row, (ch) => ch === "#"));
  const out = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (clues[r][c] !== null && fl[r][c]) {
        out.push({ rule: "canal.numbered", cells: [[r, c]], params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (let r = 0; r + 1 < h; r++) {
    for (let c = 0; c + 1 < w; c++) {
      if (fl[r][c] && fl[r][c + 1] && fl[r + 1][c] && fl[r + 1][c + 1]) {
        out.push({ rule: "canal.2x2", cells: [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]],
          params: { row: r + 1, col: c + 1, row2: r + 2, col2: c + 2 } });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (typeof v !== "number") continue;
      const n = seen(fl, h, w, r, c);
      if (n !== v) {
        out.push({ rule: "canal.count", cells: [[r, c]],
          params: { row: r + 1, col: c + 1, clue: v, seen: n } });
      }
    }
  }
  const conn = connectViolation("canal.connect", fl, h, w);
  if (conn) out.push(conn);
  return out;
}

// Flooded cells visible from (r, c): in each direction, the run that starts next to it.
export function seen(fl, h, w, r, c) {
  let n = 0;
  for (const [dy, dx] of DIRS) {
    let y = r + dy, x = c + dx;
    while (y >= 0 && y < h && x >= 0 && x < w && fl[y][x]) { n++; y += dy; x += dx; }
  }
  return n;
}

// ---- input mapping -----------------------------------------------------------------

export function fixed(board) {
  return board.clues.flat().map((v) => (v !== null ? 2 : null));
}

export const answerStates = (board, answer) => hashRowsToStates(answer);

// The answer the checker reads: undecided counts as dry.
export const toAnswer = statesToHashRows;

// SVG for one cell at (x, y) of side s.
export function cellSvg(board, view, r, c, x, y, s) {
  const v = board.clues[r][c];
  const st = view.states[r * board.w + c];
  if (v !== null) {
    return `<text class="clue" x="${x + s / 2}" y="${y + s / 2}">${v}</text>`;
  }
  if (st === 1) return `<rect class="fill" x="${x}" y="${y}" width="${s}" height="${s}"/>`;
  if (st === 2) return `<circle class="dot" cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.09}"/>`;
  return "";
}

export function cellText(board, view, r, c, lang) {
  const v = board.clues[r][c];
  if (v !== null) return String(v);
  return view.input.states[lang][view.states[r * board.w + c]];
}

// ---- irreparable: what no filling of the undecided cells can repair --------------------
// As solvers/canal_view/partial.py: with nothing undecided, every rule of violations();
// otherwise a flooded numbered cell, a closed 2x2, a number that already sees too many
// (canal.over: it and the cells it sees) or can no longer see enough (canal.short: it and the dry marks that end
// its views), and flooded cells walled apart by dry cells (canal.walled).
export function irreparable(board, view) {
  const { h, w, clues } = board;
  const st = view.states;
  const isClue = (y, x) => clues[y][x] !== null;
  let open = false;
  for (let i = 0; i < h * w; i++) {
    if (st[i] === 0 && clues[Math.floor(i / w)][i % w] === null) open = true;
  }
  if (!open) return violations(board, statesToHashRows(board, view));
  const out = [];
  const inside = (y, x) => y >= 0 && y < h && x >= 0 && x < w;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (isClue(r, c) && st[r * w + c] === 1) {
        out.push({ rule: "canal.numbered", cells: [[r, c]], params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (let r = 0; r + 1 < h; r++) {
    for (let c = 0; c + 1 < w; c++) {
      const i = r * w + c;
      if (st[i] === 1 && st[i + 1] === 1 && st[i + w] === 1 && st[i + w + 1] === 1) {
        out.push({ rule: "canal.2x2", cells: [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]],
          params: { row: r + 1, col: c + 1, row2: r + 2, col2: c + 2 } });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (typeof v !== "number") continue;
      let lo = 0, hi = 0;
      const seenCells = [], ends = [];
      for (const [dy, dx] of DIRS) {
        let y = r + dy, x = c + dx;
        while (inside(y, x) && st[y * w + x] === 1) {
          seenCells.push([y, x]); lo++; hi++; y += dy; x += dx;
        }
        while (inside(y, x) && st[y * w + x] !== 2) { hi++; y += dy; x += dx; }
        if (inside(y, x) && !isClue(y, x)) ends.push([y, x]);
      }
      const p = { row: r + 1, col: c + 1, clue: v };
      if (lo > v) {
        out.push({ rule: "canal.over", cells: [[r, c], ...seenCells].sort(cellCmp),
          params: { ...p, seen: lo } });
      } else if (hi < v) {
        out.push({ rule: "canal.short", cells: [[r, c], ...ends].sort(cellCmp),
          params: { ...p, most: hi } });
      }
    }
  }
  // parts of the not-dry cells, in order of their first cell; those holding flooded cells
  const part = new Int32Array(h * w).fill(-1);
  const wet = [];
  for (let s = 0; s < h * w; s++) {
    if (st[s] === 2 || part[s] >= 0) continue;
    part[s] = s;
    const stack = [s], fl = [];
    while (stack.length) {
      const i = stack.pop();
      const y = Math.floor(i / w), x = i % w;
      if (st[i] === 1) fl.push([y, x]);
      for (const [dy, dx] of DIRS) {
        const yy = y + dy, xx = x + dx, j = yy * w + xx;
        if (inside(yy, xx) && part[j] < 0 && st[j] !== 2) { part[j] = s; stack.push(j); }
      }
    }
    if (fl.length) wet.push(fl.sort(cellCmp));
  }
  if (wet.length > 1) {
    let best = 0;
    for (let i = 1; i < wet.length; i++) if (wet[i].length > wet[best].length) best = i;
    const cells = [];
    wet.forEach((g, i) => { if (i !== best) cells.push(...g); });
    out.push({ rule: "canal.walled", cells: cells.sort(cellCmp), params: { pieces: wet.length } });
  }
  return out;
}
