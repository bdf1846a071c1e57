// Sukoro: the rule checker and the input mapping for the play framework.
// Board JSON {h, w, clues}; answer JSON {rows}: a digit for a numbered cell, "." blank.
// Player states: 0 undecided, 1 numbered, 2 excluded. Printed clues are fixed numbered.
// There is no keypad: a numbered cell shows its live count of numbered neighbours.
import { DIRS, connectViolation, sortViolations } from "./grid.js";

export const RULES = ["sukoro.clue", "sukoro.count", "sukoro.equal", "sukoro.isolated",
  "sukoro.connect"];

export const MESSAGES = {
  "sukoro.clue": {
    en: "A printed number is not the count of numbered cells next to it.",
    ja: "印刷された数字と、隣の数字マスの数が違います。",
  },
  "sukoro.count": {
    en: "A number is not the count of numbered cells next to it.",
    ja: "数字が、隣の数字マスの数と違います。",
  },
  "sukoro.equal": {
    en: "Two adjacent numbers are equal.",
    ja: "同じ数字が隣り合っています。",
  },
  "sukoro.isolated": {
    en: "A numbered cell has no numbered neighbour.",
    ja: "隣に数字のない数字マスがあります。",
  },
  "sukoro.connect": {
    en: "The numbered cells do not form one connected group.",
    ja: "数字のマスがひとつながりになっていません。",
  },
};

// A sharper sentence for one violation, when its details are known.
export function message(v, lang) {
  if (v.rule === "sukoro.clue" && v.clue !== undefined) {
    if (v.count === null) {
      return lang === "ja" ? "印刷された数字のマスが空白になっています。"
        : "A printed number's cell is left blank.";
    }
    return lang === "ja"
      ? `印刷された ${v.clue} の隣の数字マスは ${v.count} 個です。`
      : `The printed ${v.clue} has ${v.count} numbered neighbour${v.count === 1 ? "" : "s"}, not ${v.clue}.`;
  }
  if (v.rule === "sukoro.connect" && v.pieces) {
    return lang === "ja"
      ? `数字のマスが ${v.pieces} つに分かれています。大きい一つ以外のマスを示します。`
      : `The numbers are in ${v.pieces} groups; the cells outside the largest are shown.`;
  }
  return MESSAGES[v.rule][lang];
}

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
        out.push({ rule: "sukoro.clue", cells: [[r, c]], clue: v, count: d[r][c] });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (!on[r][c]) continue;
      let n = 0;
      for (const [dy, dx] of DIRS) if (inside(r + dy, c + dx) && on[r + dy][c + dx]) n++;
      if (n !== d[r][c]) out.push({ rule: "sukoro.count", cells: [[r, c]] });
      if (n === 0) out.push({ rule: "sukoro.isolated", cells: [[r, c]] });
      if (c + 1 < w && on[r][c + 1] && d[r][c + 1] === d[r][c]) {
        out.push({ rule: "sukoro.equal", cells: [[r, c], [r, c + 1]] });
      }
      if (r + 1 < h && on[r + 1][c] && d[r + 1][c] === d[r][c]) {
        out.push({ rule: "sukoro.equal", cells: [[r, c], [r + 1, c]] });
      }
    }
  }
  const conn = connectViolation("sukoro.connect", on, h, w);
  if (conn) out.push(conn);
  return sortViolations(out, RULES);
}

// ---- input mapping -----------------------------------------------------------------

export const STATE_NAMES = {
  en: ["undecided", "numbered", "excluded"],
  ja: ["未定", "数字", "空白"],
};

// The order a click walks through: numbered -> excluded -> undecided.
export const CYCLE = [1, 2, 0];

export const KEYS = { n: 1, "#": 1, x: 2, ".": 2 };

export function fixedState(board, r, c) {
  return board.clues[r][c] !== null ? 1 : null;
}

export function answerState(answer, r, c) {
  return answer.rows[r][c] === "." ? 2 : 1;
}

export function traceState(name) {
  return name === "number" ? 1 : 2;
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
export function toAnswer(board, states) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    for (let c = 0; c < board.w; c++) {
      s += states[r * board.w + c] === 1 ? String(liveCount(board, states, r, c)) : ".";
    }
    rows.push(s);
  }
  return { rows };
}

export function cellSvg(board, states, r, c, x, y, s) {
  const v = board.clues[r][c];
  const st = states[r * board.w + c];
  const cx = x + s / 2, cy = y + s / 2;
  if (v !== null) {
    const shown = v === "?" ? liveCount(board, states, r, c) || "?" : v;
    return `<circle class="clue-ring" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="clue" x="${cx}" y="${cy}">${shown}</text>`;
  }
  if (st === 1) {
    return `<circle class="num-ring" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="num" x="${cx}" y="${cy}">${liveCount(board, states, r, c)}</text>`;
  }
  if (st === 2) {
    const a = s * 0.18;
    return `<path class="excl" d="M${cx - a} ${cy - a}L${cx + a} ${cy + a}M${cx + a} ${cy - a}L${cx - a} ${cy + a}"/>`;
  }
  return "";
}

export function cellText(board, states, r, c, lang) {
  const st = states[r * board.w + c];
  const v = board.clues[r][c];
  if (v !== null && v !== "?") return String(v);
  if (st === 1) return String(liveCount(board, states, r, c));
  return STATE_NAMES[lang][st];
}
