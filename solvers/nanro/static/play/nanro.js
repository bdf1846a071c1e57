// Nanro: the rule checker and the drawing hooks for the play framework ("regions").
// Board JSON {h, w, regions, clues, labels?}; answer JSON {rows}: "#" numbered, "." blank.
// Player states (the digit puzzles' states, grid.js): 0 undecided, 1 numbered, 2 blank,
// 2 + d the digit d the player typed. Printed clues are fixed numbered. With the counting
// assist (off by default) a numbered cell shows its region's live count of numbered cells.
// violations() returns {rule, cells, params} exactly as Python's violations() does for
// the rows; the player's answer also carries "digits" (typed digits, row by row), each
// held to its region's count (rule nanro.digit, its text in PlaySpec.input.rules).
import {
  DIGIT0, connectViolation, digitCellSvg, digitOf, digitTraceUnits, digitsComplete, fitsDigit,
  isHelper, isNumbered, sortViolations,
} from "./grid.js";

export const RULES = ["nanro.2x2", "nanro.clash", "nanro.clue", "nanro.digit", "nanro.hint",
  "nanro.over", "nanro.short", "nanro.connect", "nanro.cut", "nanro.empty"];

// Each region's count of numbered cells, given a predicate on cells.
function regionCounts(board, isOn) {
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
  if (answer.digits) {
    for (let r = 0; r < h; r++) {
      for (let c = 0; c < w; c++) {
        const d = answer.digits[r][c];
        if (d !== null && on[r][c] && d !== count.get(g[r][c])) {
          out.push({ rule: "nanro.digit", cells: [[r, c]],
            params: { value: d, row: r + 1, col: c + 1, count: count.get(g[r][c]) } });
        }
      }
    }
  }
  const conn = connectViolation("nanro.connect", on, h, w);
  if (conn) out.push(conn);
  for (const [k, n] of [...count.entries()].sort((a, b) => a[0] - b[0])) {
    if (n === 0) {
      const [r, c] = first.get(k);
      out.push({ rule: "nanro.empty", cells: members.get(k).slice(), params: { row: r + 1, col: c + 1 } });
    }
  }
  return sortViolations(out, RULES);
}

// The broken rules no filling of the undecided cells can repair (Python's
// solvers/nanro/partial.py, rule for rule): a 2×2 of numbers; equal numbers across a
// border once both regions are fully decided; a region over its printed count or short of
// room for it; a fully decided region without a number; numbers that blank cells split
// into parts. With no undecided cell it is violations() itself.
export function irreparable(board, view) {
  const { h, w, regions: g, clues } = board;
  const st = view.states;
  if (!Array.from(st).includes(0)) return violations(board, toAnswer(board, view));
  const on = (r, c) => isNumbered(st[r * w + c]);
  const members = new Map();
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const k = g[r][c];
      if (!members.has(k)) members.set(k, []);
      members.get(k).push([r, c]);
    }
  }
  const count = new Map();
  const open = new Map();
  for (const [k, m] of members) {
    count.set(k, m.filter(([r, c]) => on(r, c)).length);
    open.set(k, m.filter(([r, c]) => st[r * w + c] === 0).length);
  }
  const out = [];
  for (let r = 0; r + 1 < h; r++) {
    for (let c = 0; c + 1 < w; c++) {
      if (on(r, c) && on(r, c + 1) && on(r + 1, c) && on(r + 1, c + 1)) {
        out.push({ rule: "nanro.2x2", cells: [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]],
          params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!on(r, c)) continue;
      const a = g[r][c];
      for (const [x, y] of [[r, c + 1], [r + 1, c]]) {
        if (x >= h || y >= w || !on(x, y)) continue;
        const b = g[x][y];
        if (a !== b && open.get(a) === 0 && open.get(b) === 0 && count.get(a) === count.get(b)) {
          out.push({ rule: "nanro.clash", cells: [[r, c], [x, y]],
            params: { value: count.get(a), row: r + 1, col: c + 1 } });
        }
      }
    }
  }
  // a typed digit its region's count can no longer reach, or has passed
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const d = clues[r][c] === null ? digitOf(st[r * w + c]) : null;
      const k = g[r][c];
      if (d !== null && (count.get(k) > d || count.get(k) + open.get(k) < d)) {
        out.push({ rule: "nanro.digit", cells: [[r, c]],
          params: { value: d, row: r + 1, col: c + 1, count: count.get(k) } });
      }
    }
  }
  const told = new Set();   // regions already reported over or short (once each)
  const wrongCount = ([r, c], k, want) => {
    if (told.has(k)) return;
    told.add(k);
    const n = count.get(k);
    const room = n + open.get(k);
    const key = (x) => x[0] * w + x[1];
    if (n > want) {
      const cells = new Map([[key([r, c]), [r, c]]]);
      for (const x of members.get(k)) if (on(x[0], x[1])) cells.set(key(x), x);
      out.push({ rule: "nanro.over", cells: [...cells.values()],
        params: { clue: want, count: n, row: r + 1, col: c + 1 } });
    } else if (room < want) {
      const cells = new Map([[key([r, c]), [r, c]]]);
      for (const x of members.get(k)) if (st[key(x)] === 2) cells.set(key(x), x);
      out.push({ rule: "nanro.short", cells: [...cells.values()],
        params: { clue: want, room, row: r + 1, col: c + 1 } });
    }
  };
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (v === null || v === undefined) continue;
      const k = g[r][c];
      if (!on(r, c)) {
        out.push({ rule: "nanro.clue", cells: [[r, c]],
          params: { clue: String(v), row: r + 1, col: c + 1, count: count.get(k) } });
      } else if (v !== "?") {
        wrongCount([r, c], k, v);
      }
    }
  }
  (board.labels || []).forEach((lab, k) => {
    if (lab === null || lab === undefined) return;
    wrongCount(members.get(k)[0], k, lab);
  });
  // parts of the cells that are not blank, each holding numbers, found in reading order
  const part = new Int32Array(h * w).fill(-1);
  const parts = [];
  for (let i = 0; i < h * w; i++) {
    if (!isNumbered(st[i]) || part[i] >= 0) continue;
    const k = parts.length;
    part[i] = k;
    const stack = [i];
    const nums = [];
    while (stack.length) {
      const j = stack.pop();
      const r = Math.floor(j / w), c = j % w;
      if (isNumbered(st[j])) nums.push([r, c]);
      for (const [x, y] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
        const q = x * w + y;
        if (x >= 0 && x < h && y >= 0 && y < w && part[q] < 0 && st[q] !== 2) {
          part[q] = k;
          stack.push(q);
        }
      }
    }
    parts.push(nums);
  }
  if (parts.length > 1) {
    let best = 0;
    parts.forEach((p, i) => { if (p.length > parts[best].length) best = i; });
    const cells = parts.filter((_, i) => i !== best).flat();
    // and the blank cells that touch two parts (where a blank mark cut them apart)
    for (let i = 0; i < h * w; i++) {
      if (st[i] !== 2) continue;
      const r = Math.floor(i / w), c = i % w;
      const near = new Set();
      for (const [x, y] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
        if (x >= 0 && x < h && y >= 0 && y < w && part[x * w + y] >= 0) near.add(part[x * w + y]);
      }
      if (near.size >= 2) cells.push([r, c]);
    }
    out.push({ rule: "nanro.cut", cells, params: { groups: parts.length } });
  }
  for (const [k, m] of [...members.entries()].sort((a, b) => a[0] - b[0])) {
    if (count.get(k) === 0 && open.get(k) === 0) {
      const [r, c] = m[0];
      out.push({ rule: "nanro.empty", cells: m.slice(), params: { row: r + 1, col: c + 1 } });
    }
  }
  return sortViolations(out, RULES);
}

// ---- input mapping (the digit puzzles' states, grid.js) -------------------------------

export function fixed(board) {
  return board.clues.flat().map((v) => (v !== null ? 1 : null));
}

export function regions(board) {
  return board.regions;
}

// The largest digit: the largest region (a region's count cannot pass its size).
export function digitMax(board) {
  const size = new Map();
  for (const row of board.regions) for (const k of row) size.set(k, (size.get(k) || 0) + 1);
  return Math.min(33, Math.max(...size.values()));
}

export const helper = isHelper;
export const fits = fitsDigit;
export const complete = digitsComplete;

// The solution in player states: each numbered cell its region's count, as a digit.
export function answerStates(board, answer) {
  const count = regionCounts(board, (r, c) => answer.rows[r][c] === "#");
  return answer.rows.flatMap((row, r) => Array.from(row, (ch, c) =>
    (ch === "#" ? DIGIT0 + count.get(board.regions[r][c]) : 2)));
}

const solutions = new WeakMap();
export function traceUnits(board, step, input, answer) {
  if (!solutions.has(answer)) solutions.set(answer, answerStates(board, answer));
  return digitTraceUnits(board, step, input, solutions.get(answer));
}

// The answer the checker reads: undecided counts as blank; "digits" holds each typed
// digit (null elsewhere: a printed clue, a blank, or a numbered mark, which counts as
// its region's count with the assist on and is unfinished without it, see complete()).
export function toAnswer(board, view) {
  const rows = [], digits = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    const ds = [];
    for (let c = 0; c < board.w; c++) {
      const st = view.states[r * board.w + c];
      s += isNumbered(st) ? "#" : ".";
      ds.push(board.clues[r][c] === null ? digitOf(st) : null);
    }
    rows.push(s);
    digits.push(ds);
  }
  return { rows, digits };
}

// A printed clue in dark ink (a "?" shows its region's live count once it has one); the
// player's digits, marks and (with the assist) live counts as grid.js draws them.
export function cellSvg(board, view, r, c, x, y, s) {
  const i = r * board.w + c;
  const v = board.clues[r][c];
  const st = view.states[i];
  const cx = x + s / 2, cy = y + s / 2;
  if (v !== null) {
    const shown = v === "?" ? view.count[i] || "?" : v;
    return `<circle class="ring-given" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="clue" x="${cx}" y="${cy}">${shown}</text>`;
  }
  return digitCellSvg(st, view.count[i], view.assist, cx, cy, s);
}

export function cellText(board, view, r, c, lang) {
  const i = r * board.w + c;
  const st = view.states[i];
  const v = board.clues[r][c];
  if (v !== null && v !== "?") return String(v);
  if (st > DIGIT0) return String(st - DIGIT0);
  if (st === 1 && view.assist) return String(view.count[i]);
  return view.input.states[lang][st];
}
