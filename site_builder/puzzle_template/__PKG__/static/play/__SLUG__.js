// __NAME__: the rule checker and the drawing hooks for the play framework ("cells" model).
// Board JSON {h, w, clues}; answer JSON {rows}: "#" shaded, "." white.
// Player states (presentation.PLAY): 0 undecided, 1 shaded, 2 marked white; numbered
// cells are fixed white. Rule ids, cells and params match rules.py's violations() and
// partial.py's irreparable() (the framework fills the messages from the rules table).
import { cellCmp, hashRowsToStates, statesToHashRows } from "./grid.js";

const P = "__SLUG__";

function neighbours(h, w, r, c) {
  const out = [];
  for (const [dy, dx] of [[-1, 0], [0, -1], [0, 1], [1, 0]]) {
    const y = r + dy, x = c + dx;
    if (y >= 0 && y < h && x >= 0 && x < w) out.push([y, x]);
  }
  return out;
}

// The shared part of both checks; on(y, x) says whether a cell is shaded.
function numberedAndTouch(board, on, out) {
  const { h, w, clues } = board;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (clues[r][c] !== null && on(r, c)) {
        out.push({ rule: `${P}.numbered`, cells: [[r, c]], params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!on(r, c)) continue;
      for (const [r2, c2] of [[r, c + 1], [r + 1, c]]) {
        if (r2 < h && c2 < w && on(r2, c2)) {
          out.push({ rule: `${P}.touch`, cells: [[r, c], [r2, c2]],
            params: { row: r + 1, col: c + 1, row2: r2 + 1, col2: c2 + 1 } });
        }
      }
    }
  }
}

export function violations(board, answer) {
  const { h, w, clues } = board;
  const on = (y, x) => answer.rows[y][x] === "#";
  const out = [];
  numberedAndTouch(board, on, out);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (typeof v !== "number") continue;
      const n = neighbours(h, w, r, c).filter(([y, x]) => on(y, x)).length;
      if (n !== v) {
        out.push({ rule: `${P}.count`, cells: [[r, c]],
          params: { row: r + 1, col: c + 1, clue: v, count: n } });
      }
    }
  }
  return out;
}

// What no filling of the undecided cells can repair (as partial.py).
export function irreparable(board, view) {
  const { h, w, clues } = board;
  const st = view.states;
  // numbered cells are fixed white: undecided there reads as white
  const state = (y, x) => (st[y * w + x] === 0 && clues[y][x] !== null ? 2 : st[y * w + x]);
  let open = false;
  for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) if (state(r, c) === 0) open = true;
  if (!open) return violations(board, statesToHashRows(board, view));
  const out = [];
  numberedAndTouch(board, (y, x) => state(y, x) === 1, out);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (typeof v !== "number") continue;
      const nb = neighbours(h, w, r, c);
      const shaded = nb.filter(([y, x]) => state(y, x) === 1);
      const white = nb.filter(([y, x]) => state(y, x) === 2);
      const p = { row: r + 1, col: c + 1, clue: v };
      if (shaded.length > v) {
        out.push({ rule: `${P}.over`, cells: [[r, c], ...shaded].sort(cellCmp),
          params: { ...p, count: shaded.length } });
      } else if (nb.length - white.length < v) {
        out.push({ rule: `${P}.short`, cells: [[r, c], ...white].sort(cellCmp),
          params: { ...p, most: nb.length - white.length } });
      }
    }
  }
  return out;
}

// ---- input mapping and drawing -------------------------------------------------------

export function fixed(board) {
  return board.clues.flat().map((v) => (v !== null ? 2 : null));
}

export const answerStates = (board, answer) => hashRowsToStates(answer);

// The answer the checker reads: undecided counts as white.
export const toAnswer = statesToHashRows;

export function cellSvg(board, view, r, c, x, y, s) {
  const v = board.clues[r][c];
  const st = view.states[r * board.w + c];
  if (v !== null) return `<text class="clue" x="${x + s / 2}" y="${y + s / 2}">${v}</text>`;
  if (st === 1) return `<rect class="fill" x="${x}" y="${y}" width="${s}" height="${s}"/>`;
  if (st === 2) return `<circle class="dot" cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.09}"/>`;
  return "";
}

export function cellText(board, view, r, c, lang) {
  const v = board.clues[r][c];
  if (v !== null) return String(v);
  return view.input.states[lang][view.states[r * board.w + c]];
}
