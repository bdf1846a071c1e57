// Sukoro: the rule checker and the drawing hooks for the play framework ("cells").
// Board JSON {h, w, clues}; answer JSON {rows}: a digit for a numbered cell, "." blank.
// Player states (PlaySpec.input): 0 undecided, 1 numbered, 2 excluded. Printed clues are
// fixed numbered. There is no keypad: a numbered cell shows its live count of numbered
// neighbours. Rule ids and params match solvers/sukoro/board.py violations().
import { DIRS, connectViolation } from "./grid.js";

function digitAt(rows, r, c) {
  const ch = rows[r][c];
  return ch >= "0" && ch <= "9" ? ch.charCodeAt(0) - 48 : null;
}

export function violations(board, answer) {
  const { h, w, clues } = board;
  const d = [];
  for (let r = 0; r < h; r++) {
    const row = [];
    for (let c = 0; c < w; c++) row.push(digitAt(answer.rows, r, c));
    d.push(row);
  }
  const on = d.map((row) => row.map((v) => v !== null));
  const inside = (y, x) => y >= 0 && y < h && x >= 0 && x < w;
  const out = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (v === null) continue;
      if (!on[r][c] || (v !== "?" && d[r][c] !== v)) {
        out.push({ rule: "sukoro.clue", cells: [[r, c]], params: { row: r + 1, col: c + 1, clue: v } });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!on[r][c]) continue;
      const v = d[r][c];
      let n = 0;
      for (const [dy, dx] of DIRS) if (inside(r + dy, c + dx) && on[r + dy][c + dx]) n++;
      const at = { row: r + 1, col: c + 1 };
      if (n !== v) out.push({ rule: "sukoro.count", cells: [[r, c]], params: { ...at, value: v, count: n } });
      if (n === 0) out.push({ rule: "sukoro.isolated", cells: [[r, c]], params: at });
      if (c + 1 < w && on[r][c + 1] && d[r][c + 1] === v) {
        out.push({ rule: "sukoro.equal", cells: [[r, c], [r, c + 1]],
          params: { value: v, ...at, row2: r + 1, col2: c + 2 } });
      }
      if (r + 1 < h && on[r + 1][c] && d[r + 1][c] === v) {
        out.push({ rule: "sukoro.equal", cells: [[r, c], [r + 1, c]],
          params: { value: v, ...at, row2: r + 2, col2: c + 1 } });
      }
    }
  }
  const conn = connectViolation("sukoro.connect", on, h, w);
  if (conn) out.push(conn);
  return out;
}

// ---- input mapping -----------------------------------------------------------------

export function fixed(board) {
  return board.clues.flat().map((v) => (v !== null ? 1 : null));
}

export function answerStates(board, answer) {
  return answer.rows.flatMap((row) => Array.from(row, (ch) => (ch === "." ? 2 : 1)));
}

function liveCount(board, states, r, c) {
  let n = 0;
  for (const [dy, dx] of DIRS) {
    const y = r + dy, x = c + dx;
    if (y >= 0 && y < board.h && x >= 0 && x < board.w && states[y * board.w + x] === 1) n++;
  }
  return n;
}

// The answer the checker reads: undecided counts as blank, digits are the live counts.
export function toAnswer(board, view) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    for (let c = 0; c < board.w; c++) {
      s += view.states[r * board.w + c] === 1 ? String(liveCount(board, view.states, r, c)) : ".";
    }
    rows.push(s);
  }
  return { rows };
}

export function cellSvg(board, view, r, c, x, y, s) {
  const v = board.clues[r][c];
  const st = view.states[r * board.w + c];
  const cx = x + s / 2, cy = y + s / 2;
  if (v !== null) {
    const shown = v === "?" ? liveCount(board, view.states, r, c) || "?" : v;
    return `<circle class="ring-given" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="clue" x="${cx}" y="${cy}">${shown}</text>`;
  }
  if (st === 1) {
    return `<circle class="ring" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="ink" x="${cx}" y="${cy}">${liveCount(board, view.states, r, c)}</text>`;
  }
  if (st === 2) {
    const a = s * 0.18;
    return `<path class="cross" d="M${cx - a} ${cy - a}L${cx + a} ${cy + a}M${cx + a} ${cy - a}L${cx - a} ${cy + a}"/>`;
  }
  return "";
}

export function cellText(board, view, r, c, lang) {
  const st = view.states[r * board.w + c];
  const v = board.clues[r][c];
  if (v !== null && v !== "?") return String(v);
  if (st === 1) return String(liveCount(board, view.states, r, c));
  return view.input.states[lang][st];
}
