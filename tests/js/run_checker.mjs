// Run a play-page rule checker over a batch of grids and print its violations as JSON.
// Usage: node run_checker.mjs <checker module path> <cases.json>
// cases.json: [{"board": {...}, "answer": {"rows": [...]}}, ...]
// Output: [[{"rule": ..., "cells": [[r, c], ...]}, ...], ...] (one list per case).
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modPath, casesPath] = process.argv.slice(2);
const mod = await import(pathToFileURL(modPath).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const out = cases.map(({ board, answer }) =>
  mod.violations(board, answer).map((v) => ({ rule: v.rule, cells: v.cells })));
process.stdout.write(JSON.stringify(out));
