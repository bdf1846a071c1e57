// test-edges: the checker module of the framework's "edges" test puzzle (dominoes).
// Board JSON {h, w}; answer JSON {right, down}: "1" where a line separates cell (r, c)
// from its right / lower neighbour. States per edge (PlaySpec.input): 0 undecided,
// 1 line, 2 no-line mark.
import { edgeIndex, groupsBy } from "./grid.js";

function pieces(h, w, line) {
  return groupsBy(h, w, () => true, (a, b) => !line(a, b));
}

export function violations(board, answer) {
  const { h, w } = board;
  const line = (a, b) => {
    const [r, c] = [Math.floor(Math.min(a, b) / w), Math.min(a, b) % w];
    return (Math.abs(a - b) === 1 ? answer.right[r][c] : answer.down[r][c]) === "1";
  };
  const out = [];
  const pieceOf = new Int32Array(h * w);
  pieces(h, w, line).forEach((p, k) => {
    for (const [r, c] of p) pieceOf[r * w + c] = k;
    if (p.length !== 2) {
      out.push({ rule: "domino.size", cells: p, params: { row: p[0][0] + 1, col: p[0][1] + 1, size: p.length } });
    }
  });
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const i = r * w + c;
      for (const [r2, c2, on] of [[r, c + 1, c + 1 < w && answer.right[r][c] === "1"],
        [r + 1, c, r + 1 < h && answer.down[r][c] === "1"]]) {
        if (on && pieceOf[i] === pieceOf[r2 * w + c2]) {
          out.push({ rule: "domino.dangling", cells: [[r, c], [r2, c2]],
            params: { row: r + 1, col: c + 1, row2: r2 + 1, col2: c2 + 1 } });
        }
      }
    }
  }
  return out;
}

export function answerStates(board, answer) {
  const st = (ch) => (ch === "1" ? 1 : 2);
  return [...answer.right.flatMap((row) => Array.from(row, st)),
    ...answer.down.flatMap((row) => Array.from(row, st))];
}

export function toAnswer(board, view) {
  const { h, w } = board;
  const right = [], down = [];
  for (let r = 0; r < h; r++) {
    let s = "";
    for (let c = 0; c + 1 < w; c++) s += view.edge(r, c, "r") === 1 ? "1" : "0";
    right.push(s);
  }
  for (let r = 0; r + 1 < h; r++) {
    let s = "";
    for (let c = 0; c < w; c++) s += view.edge(r, c, "b") === 1 ? "1" : "0";
    down.push(s);
  }
  return { right, down };
}

export function cellSvg() {
  return "";
}

// Beside the board: how many dominoes the drawn lines close off so far.
export function readout(board, view) {
  const { h, w } = board;
  const line = (a, b) => {
    const [r, c] = [Math.floor(Math.min(a, b) / w), Math.min(a, b) % w];
    return view.edge(r, c, Math.abs(a - b) === 1 ? "r" : "b") === 1;
  };
  const done = pieces(h, w, line).filter((p) => p.length === 2).length;
  return [["pieces", { done, total: Math.floor((h * w) / 2) }]];
}

// A trace step lists "edges" with "states" (the framework's default), or "cells" with
// the "pieces" they belong to: between two listed neighbours there is a line exactly
// when their pieces differ.
export function traceUnits(board, step, input) {
  const { h, w } = board;
  if (step.edges) {
    return step.edges.map(([r, c, side], k) => [edgeIndex(h, w, r, c, side), input.trace[step.states[k]]]);
  }
  const piece = new Map(step.cells.map(([r, c], k) => [r * w + c, step.pieces[k]]));
  const out = [];
  for (const [i, p] of piece) {
    const r = Math.floor(i / w), c = i % w;
    for (const [j, side] of [[i + 1, "r"], [i + w, "b"]]) {
      if ((side === "r" ? c + 1 < w : r + 1 < h) && piece.has(j)) {
        out.push([edgeIndex(h, w, r, c, side), piece.get(j) !== p ? input.trace.line : input.trace.none]);
      }
    }
  }
  return out;
}

// What no filling of the undecided lines repairs (the Python edges_irreparable): cells
// joined by "no line" marks into three or more, a cell closed in by lines on every side,
// a line inside a piece the marks already join.
export function irreparable(board, view) {
  const { h, w } = board;
  const between = (a, b) => {
    const [r, c] = [Math.floor(Math.min(a, b) / w), Math.min(a, b) % w];
    return view.edge(r, c, Math.abs(a - b) === 1 ? "r" : "b");
  };
  const out = [];
  const pieceOf = new Int32Array(h * w);
  groupsBy(h, w, () => true, (a, b) => between(a, b) === 2).forEach((p, k) => {
    for (const [r, c] of p) pieceOf[r * w + c] = k;
    if (p.length > 2) {
      out.push({ rule: "domino.size", cells: p, params: { row: p[0][0] + 1, col: p[0][1] + 1, size: p.length } });
    }
  });
  for (const p of groupsBy(h, w, () => true, (a, b) => between(a, b) !== 1)) {
    if (p.length === 1) {
      out.push({ rule: "domino.size", cells: p, params: { row: p[0][0] + 1, col: p[0][1] + 1, size: 1 } });
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      for (const [r2, c2, side] of [[r, c + 1, "r"], [r + 1, c, "b"]]) {
        if (r2 < h && c2 < w && view.edge(r, c, side) === 1 && pieceOf[r * w + c] === pieceOf[r2 * w + c2]) {
          out.push({ rule: "domino.dangling", cells: [[r, c], [r2, c2]],
            params: { row: r + 1, col: c + 1, row2: r2 + 1, col2: c2 + 1 } });
        }
      }
    }
  }
  return out;
}
