// Sukoro: the rule checker and the drawing hooks for the play framework ("cells").
// Board JSON {h, w, clues}; answer JSON {rows}: a digit for a numbered cell, "." blank.
// Player states (the digit puzzles' states, grid.js): 0 undecided, 1 numbered, 2 blank,
// 2 + d the digit d the player typed. Printed clues are fixed numbered. With the counting
// assist (off by default) a numbered cell shows and counts as its live count of numbered
// neighbours. Rule ids and params match solvers/sukoro/rules.py violations().
import {
  DIGIT0, DIRS, connectViolation, digitCellSvg, digitOf, digitTraceUnits, digitsComplete,
  fitsDigit, isHelper, isNumbered,
} from "./grid.js";

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

export const digitMax = () => 4;
export const helper = isHelper;
export const fits = fitsDigit;
export const complete = digitsComplete;

export function answerStates(board, answer) {
  return answer.rows.flatMap((row) => Array.from(row, (ch) => (ch >= "0" && ch <= "9" ? DIGIT0 + +ch : 2)));
}

const solutions = new WeakMap();
export function traceUnits(board, step, input, answer) {
  if (!solutions.has(answer)) solutions.set(answer, answerStates(board, answer));
  return digitTraceUnits(board, step, input, solutions.get(answer));
}

function liveCount(board, states, r, c) {
  let n = 0;
  for (const [dy, dx] of DIRS) {
    const y = r + dy, x = c + dx;
    if (y >= 0 && y < board.h && x >= 0 && x < board.w && isNumbered(states[y * board.w + x])) n++;
  }
  return n;
}

// The answer the checker reads: undecided counts as blank; a typed digit is itself, a
// printed clue its live count, a numbered mark its live count with the assist on (without
// it, "?": no digit yet, which the checker reads as blank and complete() as unfinished).
export function toAnswer(board, view) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    for (let c = 0; c < board.w; c++) {
      const st = view.states[r * board.w + c];
      const v = board.clues[r][c];
      // (a printed clue is written as its live count: the checker then names a clue whose
      // count is wrong by the clue rule, as Python does for the same answer)
      if (st > DIGIT0) s += String(st - DIGIT0);
      else if (v !== null) s += String(liveCount(board, view.states, r, c));
      else if (st === 1) s += view.assist ? String(liveCount(board, view.states, r, c)) : "?";
      else s += ".";
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
  return digitCellSvg(st, liveCount(board, view.states, r, c), view.assist, cx, cy, s);
}

export function cellText(board, view, r, c, lang) {
  const st = view.states[r * board.w + c];
  const v = board.clues[r][c];
  if (v !== null && v !== "?") return String(v);
  if (st > DIGIT0) return String(st - DIGIT0);
  if (st === 1 && view.assist) return String(liveCount(board, view.states, r, c));
  return view.input.states[lang][st];
}

// ---- the check that tells wrong from unfinished -----------------------------------
// Only what no filling of the undecided cells can repair (solvers/sukoro/partial.py, the
// same rule ids, cells and params), with a typed digit held to the rules as a printed
// clue is. A cell's digit is known once it is typed, or (numbered mark) once no
// neighbour is undecided.
export function irreparable(board, view) {
  const { h, w, clues } = board;
  const n = h * w;
  const st = view.states;
  const num = (i) => isNumbered(st[i]);
  const nb = [];
  for (let i = 0; i < n; i++) {
    const r = Math.floor(i / w), c = i % w;
    const a = [];
    if (r > 0) a.push(i - w);
    if (c > 0) a.push(i - 1);
    if (c + 1 < w) a.push(i + 1);
    if (r + 1 < h) a.push(i + w);
    nb.push(a);
  }
  const cell = (i) => [Math.floor(i / w), i % w];
  const at = (i) => ({ row: Math.floor(i / w) + 1, col: (i % w) + 1 });
  const byCell = (a, b) => a[0] - b[0] || a[1] - b[1];
  const known = new Array(n).fill(0);
  for (let i = 0; i < n; i++) {
    const d = clues[Math.floor(i / w)][i % w] === null ? digitOf(st[i]) : null;
    if (d !== null) known[i] = d;
    else if (num(i) && nb[i].every((j) => st[j] !== 0)) known[i] = nb[i].filter(num).length;
  }
  // a finished board reports as violations() does; before that, a clue's violation names
  // the cells that break it
  let finished = true;
  for (let i = 0; i < n; i++) if (st[i] === 0) finished = false;
  const out = [];
  for (let i = 0; i < n; i++) {
    const printed = clues[Math.floor(i / w)][i % w];
    const v = printed !== null ? printed : digitOf(st[i]);
    if (v === null) continue;
    if (printed !== null && st[i] === 2) {
      out.push({ rule: "sukoro.clue", cells: [cell(i)], params: { ...at(i), clue: v } });
      continue;
    }
    if (!num(i) || v === "?") continue;
    const on = nb[i].filter(num);
    const und = nb[i].filter((j) => st[j] === 0);
    if (finished) {
      if (on.length !== v) {
        out.push(printed !== null
          ? { rule: "sukoro.clue", cells: [cell(i)], params: { ...at(i), clue: v } }
          : { rule: "sukoro.count", cells: [cell(i)], params: { ...at(i), value: v, count: on.length } });
      }
    } else if (on.length > v) {
      out.push({ rule: "sukoro.over", cells: [i, ...on].map(cell).sort(byCell),
        params: { ...at(i), clue: v, count: on.length } });
    } else if (on.length + und.length < v) {
      const exc = nb[i].filter((j) => st[j] === 2);
      out.push({ rule: "sukoro.under", cells: [i, ...exc].map(cell).sort(byCell),
        params: { ...at(i), clue: v, most: on.length + und.length } });
    }
  }
  for (let i = 0; i < n; i++) {
    const v = known[i];
    if (!v) continue;
    const r = Math.floor(i / w), c = i % w;
    if (c + 1 < w && known[i + 1] === v) {
      out.push({ rule: "sukoro.equal", cells: [[r, c], [r, c + 1]],
        params: { value: v, row: r + 1, col: c + 1, row2: r + 1, col2: c + 2 } });
    }
    if (r + 1 < h && known[i + w] === v) {
      out.push({ rule: "sukoro.equal", cells: [[r, c], [r + 1, c]],
        params: { value: v, row: r + 1, col: c + 1, row2: r + 2, col2: c + 1 } });
    }
  }
  for (let i = 0; i < n; i++) {
    if (num(i) && nb[i].every((j) => st[j] === 2)) {
      out.push({ rule: "sukoro.isolated", cells: [cell(i)], params: at(i) });
    }
  }
  // parts: the numbered cells of each group of cells not marked blank
  const comp = new Int32Array(n).fill(-1);
  const groups = [];
  for (let i = 0; i < n; i++) {
    if (!num(i) || comp[i] >= 0) continue;
    const k = groups.length;
    comp[i] = k;
    const stack = [i], grp = [];
    while (stack.length) {
      const j = stack.pop();
      if (num(j)) grp.push(j);
      for (const m of nb[j]) {
        if (comp[m] < 0 && st[m] !== 2) { comp[m] = k; stack.push(m); }
      }
    }
    groups.push(grp);
  }
  if (groups.length > 1) {
    let best = 0;
    for (let k = 1; k < groups.length; k++) if (groups[k].length > groups[best].length) best = k;
    const rest = [];
    groups.forEach((g, k) => { if (k !== best) rest.push(...g.map(cell)); });
    rest.sort(byCell);
    out.push({ rule: "sukoro.connect", cells: rest, params: { pieces: groups.length } });
  }
  return out;
}
