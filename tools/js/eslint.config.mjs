// ESLint over the browser JavaScript (the files tsconfig.json type-checks) and the test
// helpers written in JavaScript. scripts/test runs it from the repository root:
//   tools/js/node_modules/.bin/eslint -c tools/js/eslint.config.mjs
import js from "@eslint/js";
import globals from "globals";

const BROWSER = [
  "site_builder/theme/static/play/*.js",
  "site_builder/theme/static/solve/*.js",
  "solvers/*/static/play/*.js",
  "plugins/*/*/static/play/*.js",
  "site_builder/puzzle_template/*/static/play/*.js",
  "tests/play_fixtures/*.js",
];

export default [
  { ignores: ["**/node_modules/", "dist/", ".venv/"] },
  {
    ...js.configs.recommended,
    files: [...BROWSER, "site_builder/testing_js/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["site_builder/theme/static/solve/worker.js"],
    languageOptions: { globals: globals.worker },
  },
  { files: ["site_builder/testing_js/*.mjs"], languageOptions: { globals: globals.node } },
];
