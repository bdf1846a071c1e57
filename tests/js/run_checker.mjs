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
// Output: {"cases": [{"answer": the answer checked, "violations": [{rule, cells, params,
// en, ja}, ...]}, ...], "fills": [text, ...]}. Violations are sorted by the rules table
// and their messages filled from it in both languages, by the framework's own functions.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modPath, batchPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modPath).href);
const grid = await import(new URL("grid.js", pathToFileURL(modPath)).href);
const batch = JSON.parse(readFileSync(batchPath, "utf8"));
const ids = batch.rules.map((r) => r.id);
const byId = Object.fromEntries(batch.rules.map((r) => [r.id, r]));

function pageAnswer(board, states) {
  const n = batch.model === "edges" ? grid.edgeCount(board.h, board.w) : board.h * board.w;
  const fixed = mod.fixed ? Array.from(mod.fixed(board)) : new Array(n).fill(null);
  const st = Uint8Array.from(states);
  if (st.length !== n) throw new Error(`expected ${n} states, got ${st.length}`);
  fixed.forEach((f, i) => { if (f !== null && f !== undefined) st[i] = f; });
  const regions = batch.model === "regions" ? mod.regions(board) : null;
  const view = grid.makeView(board, batch.model, batch.input, st, fixed, regions);
  return mod.toAnswer(board, view);
}

const cases = batch.cases.map((c) => {
  let answer = c.answer;
  if (c.states) answer = pageAnswer(c.board, c.states);
  else if (c.flips) {
    const st = Array.from(mod.answerStates(c.board, c.answer));
    for (const [i, s] of c.flips) st[i] = s;
    answer = pageAnswer(c.board, st);
  }
  const vs = grid.sortViolations(mod.violations(c.board, answer), ids);
  return {
    answer,
    violations: vs.map((v) => ({
      rule: v.rule, cells: v.cells, params: v.params,
      en: byId[v.rule] ? grid.fill(byId[v.rule].en, v.params) : null,
      ja: byId[v.rule] ? grid.fill(byId[v.rule].ja, v.params) : null,
    })),
  };
});
const fills = (batch.fills || []).map(([t, p]) => grid.fill(t, p));
process.stdout.write(JSON.stringify({ cases, fills }));
