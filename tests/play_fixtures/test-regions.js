// test-regions: the checker module of the framework's "regions" test puzzle.
// Board JSON {h, w, regions, clues}; answer JSON {rows}: a digit for a numbered cell (its
// region's count), "." blank. States (PlaySpec.input): 0 undecided, 1 numbered, 2 blank.

export function regions(board) {
  return board.regions;
}

export function violations(board, answer) {
  const { h, w } = board;
  const out = [];
  const cellsOf = new Map();
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const id = board.regions[r][c];
      if (!cellsOf.has(id)) cellsOf.set(id, []);
      cellsOf.get(id).push([r, c]);
      if (board.clues[r][c] !== null && answer.rows[r][c] === ".") {
        out.push({ rule: "one.given", cells: [[r, c]], params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (const cells of cellsOf.values()) {
    const [r0, c0] = cells[0];
    const on = cells.filter(([r, c]) => answer.rows[r][c] !== ".");
    if (!on.length) out.push({ rule: "one.none", cells, params: { row: r0 + 1, col: c0 + 1 } });
    else if (on.length > 1) {
      out.push({ rule: "one.many", cells: on, params: { row: r0 + 1, col: c0 + 1, count: on.length } });
    }
  }
  return out;
}

export function fixed(board) {
  return board.clues.flat().map((v) => (v !== null ? 1 : null));
}

export function answerStates(board, answer) {
  return answer.rows.flatMap((row) => Array.from(row, (ch) => (ch === "." ? 2 : 1)));
}

// Numbered cells carry their region's live count (view.count, kept by the framework).
export function toAnswer(board, view) {
  const rows = [];
  for (let r = 0; r < board.h; r++) {
    let s = "";
    for (let c = 0; c < board.w; c++) {
      const i = r * board.w + c;
      s += view.states[i] === 1 ? String(Math.min(9, view.count[i])) : ".";
    }
    rows.push(s);
  }
  return { rows };
}

export function cellSvg(board, view, r, c, x, y, s) {
  const i = r * board.w + c;
  const cx = x + s / 2, cy = y + s / 2;
  if (view.states[i] === 1) {
    const ring = board.clues[r][c] !== null ? "ring-given" : "ring";
    return `<circle class="${ring}" cx="${cx}" cy="${cy}" r="${s * 0.4}"/>` +
      `<text class="ink" x="${cx}" y="${cy}">${view.count[i]}</text>`;
  }
  if (view.states[i] === 2) return `<circle class="dot" cx="${cx}" cy="${cy}" r="${s * 0.09}"/>`;
  return "";
}

export function cellText(board, view, r, c, lang) {
  const i = r * board.w + c;
  return view.states[i] === 1 ? String(view.count[i]) : view.input.states[lang][view.states[i]];
}

// What no filling of the undecided cells repairs (the Python regions_irreparable): a
// given number marked blank, two numbered cells in one region, a region decided blank.
export function irreparable(board, view) {
  const { h, w } = board;
  const st = view.states;
  const out = [];
  const cellsOf = new Map();
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const id = board.regions[r][c];
      if (!cellsOf.has(id)) cellsOf.set(id, []);
      cellsOf.get(id).push([r, c]);
      if (board.clues[r][c] !== null && st[r * w + c] === 2) {
        out.push({ rule: "one.given", cells: [[r, c]], params: { row: r + 1, col: c + 1 } });
      }
    }
  }
  for (const cells of cellsOf.values()) {
    const [r0, c0] = cells[0];
    const on = cells.filter(([r, c]) => st[r * w + c] === 1);
    const open = cells.some(([r, c]) => st[r * w + c] === 0);
    if (!on.length && !open) out.push({ rule: "one.none", cells, params: { row: r0 + 1, col: c0 + 1 } });
    else if (on.length > 1) {
      out.push({ rule: "one.many", cells: on, params: { row: r0 + 1, col: c0 + 1, count: on.length } });
    }
  }
  return out;
}
