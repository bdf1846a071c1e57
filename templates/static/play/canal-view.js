// Canal View: the rule checker and the input mapping for the play framework.
// Board JSON {h, w, clues}; answer JSON {rows}: "#" flooded, "." dry.
// Player states: 0 undecided, 1 flooded, 2 marked dry. Clue cells are fixed dry.
import { DIRS, connectViolation, sortViolations } from "./grid.js";

export const RULES = ["canal.numbered", "canal.2x2", "canal.count", "canal.connect"];

export const MESSAGES = {
  "canal.numbered": {
    en: "A numbered cell is flooded; numbered cells stay dry.",
    ja: "数字のマスが水路になっています。数字のマスは陸地です。",
  },
  "canal.2x2": {
    en: "A 2×2 block is entirely flooded.",
    ja: "2×2 のマスがすべて水路になっています。",
  },
  "canal.count": {
    en: "A number does not match the flooded cells it can see.",
    ja: "数字と、そこから見える水路のマスの数が違います。",
  },
  "canal.connect": {
    en: "The flooded cells do not form one connected canal.",
    ja: "水路がひとつながりになっていません。",
  },
};

// A sharper sentence for one violation, when its details are known.
export function message(v, lang) {
  if (v.rule === "canal.count" && v.seen !== undefined) {
    return lang === "ja"
      ? `${v.clue} から見える水路は ${v.seen} マスで、${v.clue} マスではありません。`
      : `This ${v.clue} sees ${v.seen} flooded cell${v.seen === 1 ? "" : "s"}, not ${v.clue}.`;
  }
  if (v.rule === "canal.connect" && v.pieces) {
    return lang === "ja"
      ? `水路が ${v.pieces} つに分かれています。大きい一つ以外のマスを示します。`
      : `The canal is in ${v.pieces} pieces; the cells outside the largest are shown.`;
  }
  return MESSAGES[v.rule][lang];
}

export function violations(board, answer) {
  const { h, w, clues } = board;
  const fl = answer.rows.map((row) => Array.from(row, (ch) => ch === "#"));
  const out = [];
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      if (clues[r][c] !== null && fl[r][c]) out.push({ rule: "canal.numbered", cells: [[r, c]] });
    }
  }
  for (let r = 0; r + 1 < h; r++) {
    for (let c = 0; c + 1 < w; c++) {
      if (fl[r][c] && fl[r][c + 1] && fl[r + 1][c] && fl[r + 1][c + 1]) {
        out.push({ rule: "canal.2x2", cells: [[r, c], [r, c + 1], [r + 1, c], [r + 1, c + 1]] });
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = clues[r][c];
      if (typeof v !== "number") continue;
      const n = seen(fl, h, w, r, c);
      if (n !== v) out.push({ rule: "canal.count", cells: [[r, c]], clue: v, seen: n });
    }
  }
  const conn = connectViolation("canal.connect", fl, h, w);
  if (conn) out.push(conn);
  return sortViolations(out, RULES);
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

export const STATE_NAMES = {
  en: ["undecided", "flooded", "dry"],
  ja: ["未定", "水路", "陸地"],
};

// The order a click walks through: flooded -> dry mark -> undecided.
export const CYCLE = [1, 2, 0];

// Keys that set a state directly (documented on the page).
export const KEYS = { f: 1, "#": 1, d: 2, ".": 2, x: 2 };

export function fixedState(board, r, c) {
  return board.clues[r][c] !== null ? 2 : null;
}

export function answerState(answer, r, c) {
  return answer.rows[r][c] === "#" ? 1 : 2;
}

export function traceState(name) {
  return name === "flooded" ? 1 : 2;
}

// The answer the checker reads: undecided counts as dry.
export function toAnswer(board, states) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    for (let c = 0; c < board.w; c++) s += states[r * board.w + c] === 1 ? "#" : ".";
    rows.push(s);
  }
  return { rows };
}

// SVG for one cell at (x, y) of side s.
export function cellSvg(board, states, r, c, x, y, s) {
  const v = board.clues[r][c];
  const st = states[r * board.w + c];
  if (v !== null) {
    return `<text class="clue" x="${x + s / 2}" y="${y + s / 2}">${v}</text>`;
  }
  if (st === 1) return `<rect class="flooded" x="${x}" y="${y}" width="${s}" height="${s}"/>`;
  if (st === 2) return `<circle class="dry" cx="${x + s / 2}" cy="${y + s / 2}" r="${s * 0.09}"/>`;
  return "";
}

export function cellText(board, states, r, c, lang) {
  const v = board.clues[r][c];
  if (v !== null) return String(v);
  return STATE_NAMES[lang][states[r * board.w + c]];
}
