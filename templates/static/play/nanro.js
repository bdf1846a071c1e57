// Nanro: the rule checker and the input mapping for the play framework (regions model).
// Board JSON {h, w, regions, clues, labels?}; answer JSON {rows}: "#" numbered, "." blank.
// Player states: 0 undecided, 1 numbered, 2 blank mark. Printed clues are fixed numbered.
// No keypad: every numbered cell shows its region's live count of numbered cells.
// violations() returns {rule, cells, params} exactly as Python's violations() does; the
// framework fills the messages from the puzzle's one rules table.
import { DIRS, connectViolation, sortViolations } from "./grid.js";

export const RULES = ["nanro.2x2", "nanro.clash", "nanro.clue", "nanro.hint",
  "nanro.connect", "nanro.empty"];

export const STATE_NAMES = {
  en: ["undecided", "numbered", "blank"],
  ja: ["未定", "数字", "空白"],
};
export const CYCLE = [1, 2, 0];
export const KEYS = { n: 1, "#": 1, x: 2, ".": 2 };

// Each region's count of numbered cells, given a predicate on cells.
export function regionCounts(board, isOn) {
  const counts = new Map();
  for (let r = 0; r < board.h; r++) {
    for (let c = 0; c < board.w; c++) {
      const k = board.regions[r][c];
      if (!counts.has(k)) counts.set(k, 0);
      if (isOn(r, c)) counts.set(k, counts.get(k) + 1);
    }
  }
  return counts;
}

export function violations(board, answer) {
  const { h, w, regions: g, clues } = board;
  const on = answer.rows.map((row) => Array.from(row, (ch) => ch === "#"));
  const count = regionCounts(board, (r, c) => on[r][c]);
  const first = new Map();
  const members = new Map();
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const k = g[r][c];
      if (!first.has(k)) { first.set(k, [r, c]); members.set(k, []); }
      members.get(k).push([r, c]);
    }
  }
  const out = [];
  for (let r = 0; r + 1 < h; r++) {
    for (let c = 0; c + 1 < w; c++) {
      if (on[r][c] && on[r][c + 1] && on[r + 1][c] && on[r + 1][c + 1]) {
        out.push({ rule: "nanro.2x2", cells: [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]],
          params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!on[r][c]) continue;
      for (const [x, y] of [[r, c + 1], [r + 1, c]]) {
        if (x < h && y < w && on[x][y] && g[x][y] !== g[r][c]
            && count.get(g[x][y]) === count.get(g[r][c])) {
          out.push({ rule: "nanro.clash", cells: [[r, c], [x, y]],
            params: { value: count.get(g[r][c]), row: r + 1, col: c + 1 } });
        }
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (v === null || v === undefined) continue;
      const n = count.get(g[r][c]);
      if (!on[r][c] || (v !== "?" && v !== n)) {
        out.push({ rule: "nanro.clue", cells: [[r, c]],
          params: { clue: String(v), row: r + 1, col: c + 1, count: n } });
      }
    }
  }
  (board.labels || []).forEach((lab, k) => {
    if (lab !== null && lab !== undefined && lab !== count.get(k)) {
      const [r, c] = first.get(k);
      out.push({ rule: "nanro.hint", cells: members.get(k).slice(),
        params: { label: lab, count: count.get(k), row: r + 1, col: c + 1 } });
    }
  });
  const conn = connectViolation("nanro.connect", on, h, w);
  if (conn) out.push({ rule: conn.rule, cells: conn.cells, params: { groups: conn.pieces } });
  for (const [k, n] of [...count.entries()].sort((a, b) => a[0] - b[0])) {
    if (n === 0) {
      const [r, c] = first.get(k);
      out.push({ rule: "nanro.empty", cells: members.get(k).slice(), params: { row: r + 1, col: c + 1 } });
    }
  }
  return sortViolations(out, RULES);
}

// ---- input mapping ------------------------------------------------------------------

export function fixedState(board, r, c) {
  return board.clues[r][c] === null ? null : 1;
}

export function fixed(board) {
  const out = [];
  for (let r = 0; r < board.h; r++) {
    for (let c = 0; c < board.w; c++) out.push(fixedState(board, r, c));
  }
  return out;
}

export function answerState(answer, r, c) {
  return answer.rows[r][c] === "#" ? 1 : 2;
}

export function answerStates(answer) {
  const out = [];
  for (const row of answer.rows) for (const ch of row) out.push(ch === "#" ? 1 : 2);
  return out;
}

export function traceState(name) {
  return name === "number" ? 1 : 2;
}

export function toAnswer(board, states) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let row = "";
    for (let c = 0; c < board.w; c++) row += states[r * board.w + c] === 1 ? "#" : ".";
    rows.push(row);
  }
  return { rows };
}

// The live count a numbered cell shows: its region's numbered cells in the player's grid.
export function liveCount(board, states, r, c) {
  const k = board.regions[r][c];
  let n = 0;
  for (let y = 0; y < board.h; y++) {
    for (let x = 0; x < board.w; x++) {
      if (board.regions[y][x] === k && states[y * board.w + x] === 1) n++;
    }
  }
  return n;
}

export function cellText(board, states, r, c, lang) {
  const s = states[r * board.w + c];
  const clue = board.clues[r][c];
  const name = STATE_NAMES[lang === "ja" ? "ja" : "en"][s];
  if (clue !== null) return `${clue} (${name})`;
  return s === 1 ? `${liveCount(board, states, r, c)} (${name})` : name;
}

export { DIRS };
