// Run a play-page checker module over a batch of cases, the way the play page does, and
// print what it finds as JSON.
// Usage: node run_checker.mjs <checker module path> <batch.json>
//
// batch.json: {"model", "input", "rules": [{id, cells, en, ja}], "cases": [...],
//              "fills": [[template, params], ...]}
// A case is one of
//   {"board", "answer"}                    run violations() on that answer;
//   {"board", "states": [s per unit]}      player states (fixed units forced as on the
//                                          page) -> toAnswer() -> violations();
//   {"board", "answer", "flips": [[unit, state], ...]}
//                                          answerStates(answer), those units changed,
//                                          fixed units forced -> toAnswer() -> violations().
// Irreparable mode: a case with "irreparable": true builds the player states as above
// ("states", or "answer" + "flips"), then sets the units listed in "clear" to 0
// (undecided), forces the fixed units, builds the view as the page does (grid.js
// makeView) and calls the module's irreparable(board, view) instead; its output case also
// carries "states" (the states checked), "undecided" (how many non-fixed units are in
// state 0) and "finished" (the module's finished(board, view), default: undecided is 0).
// With "digits": true in the batch (digit puzzles), states are kept as typed and the
// assist is off; each case's output also carries "complete" (the module's complete()).
// Output: {"cases": [{"answer": the answer checked, "violations": [{rule, cells, params,
// en, ja}, ...]}, ...], "fills": [text, ...]}. Violations are sorted by the rules table
// and their messages filled from it in both languages, by the framework's own functions.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modPath, batchPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modPath).href);
const grid = await import(new URL("grid.js", pathToFileURL(modPath)).href);
const batch = JSON.parse(readFileSync(batchPath, "utf8"));
// The rules table, then the player's own rules (input.rules), as the page orders them.
const own = Object.entries(batch.input.rules || {}).map(([id, t]) => ({ id, ...t }));
const ids = [...batch.rules, ...own].map((r) => r.id);
const byId = Object.fromEntries([...batch.rules, ...own].map((r) => [r.id, r]));

// The view the page builds for these states (fixed units forced; "clear" units undecided).
function pageView(board, states, clear) {
  const n = batch.model === "edges" ? grid.edgeCount(board.h, board.w, !!batch.input.outline)
    : board.h * board.w;
  const fixed = (mod.fixed ? Array.from(mod.fixed(board)) : new Array(n).fill(null))
    .map((f) => (f === undefined ? null : f));
  const st = Uint8Array.from(states);
  if (st.length !== n) throw new Error(`expected ${n} states, got ${st.length}`);
  for (const i of clear || []) st[i] = 0;
  fixed.forEach((f, i) => { if (f !== null) st[i] = f; });
  // Digit puzzles: Python knows numbered and blank cells, not typed digits, so the
  // cases compared with it are played with the counting assist on and every digit read
  // as a numbered mark (the typed digits' own rule is tested apart: "digits" cases).
  if (batch.input.digits && !batch.digits) for (let i = 0; i < n; i++) if (st[i] > 2) st[i] = 1;
  const regions = batch.model === "regions" ? mod.regions(board) : null;
  const view = grid.makeView(board, batch.model, batch.input, st, fixed, regions);
  view.assist = !!batch.input.digits && !batch.digits;
  return view;
}

function undecided(view) {
  return Array.from(view.states).filter((s, i) => s === 0 && view.fixed[i] === null).length;
}

function finished(board, view) {
  return mod.finished ? !!mod.finished(board, view) : undecided(view) === 0;
}

const cases = batch.cases.map((c) => {
  let answer = c.answer;
  let states = c.states;
  if (!states && c.flips) {
    states = Array.from(mod.answerStates(c.board, c.answer));
    for (const [i, s] of c.flips) states[i] = s;
  }
  let vs, extra = {};
  if (c.irreparable) {
    const view = pageView(c.board, states, c.clear);
    answer = mod.toAnswer(c.board, view);
    if (!mod.irreparable) throw new Error(`${modPath} exports no irreparable()`);
    vs = mod.irreparable(c.board, view);
    extra = { states: Array.from(view.states), undecided: undecided(view),
      finished: finished(c.board, view) };
  } else {
    if (states) {
      const view = pageView(c.board, states);
      answer = mod.toAnswer(c.board, view);
      if (batch.digits) extra = { complete: mod.complete ? !!mod.complete(c.board, view) : true };
    }
    vs = mod.violations(c.board, answer);
  }
  vs = grid.sortViolations(vs.map((v) => ({ ...v, cells: v.cells.map((x) => [...x]) })), ids);
  return {
    answer, ...extra,
    violations: vs.map((v) => ({
      rule: v.rule, cells: v.cells, params: v.params,
      en: byId[v.rule] ? grid.fill(byId[v.rule].en, v.params) : null,
      ja: byId[v.rule] ? grid.fill(byId[v.rule].ja, v.params) : null,
    })),
  };
});
const fills = (batch.fills || []).map(([t, p]) => grid.fill(t, p));
process.stdout.write(JSON.stringify({ cases, fills }));
