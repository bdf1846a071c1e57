// The pages' deliberate globals: handles the browser tests (tests/test_*browser.py,
// tests/test_visitor_*.py) and the benchmarks read through page.evaluate. Included by
// tsconfig.json. `any` marks JSON that the page reads untyped: the page's config, a
// board's data file and the solve worker's replies.

interface PlayHandle {
  readonly states: number[];
  readonly fixed: (number | null)[] | null;
  readonly solved: boolean;
  /** the board's data file (JSON) */
  readonly entry: any;
  /** the checker module's toAnswer(): the answer JSON */
  readonly answer: any;
  readonly solution: ArrayLike<number> | null;
  readonly marks: Record<string, number[]>;
  readonly undecided: number;
  /** cells: a cell index; edges: [y, x] on the doubled grid */
  readonly cursor: number | [number, number];
  readonly digitMax: number | null;
  readonly cands: number[] | null;
  /** the units and states hint trace step k asks for */
  targets(k: number): [number, number][];
  message(v: { rule: string; cells?: number[][]; params?: object }): string;
  exportSvg(blank: boolean): string;
  /** set every free unit at once, as one move */
  put(list: number[]): void;
  load(id: string): Promise<void>;
}

interface SolveHandle {
  /** the page's config (#solve-config) */
  cfg: any;
  /** set by the benchmark: an ungraded solve timed afterwards */
  split?: boolean;
  startMs?: number;
  bootMs?: number;
  bootMarks?: Record<string, number | number[]>;
  /** the interpreter's memory is stored for the next visit */
  kept?: boolean;
  wheelMs?: number;
  warmMs?: number;
  importsMs?: number;
  installs?: number;
  solveMs?: number;
  traceMs?: number | null;
  timing?: Record<string, number>;
  /** the last solve's reply, and the last constructor help's (solve_web.py's JSON) */
  reply?: any;
  help?: any;
}

interface Window {
  /** play.js */
  __play: PlayHandle;
  /** solve.js */
  __solve: SolveHandle;
  /** solve.js: its board editor */
  __solve_editor: import("../../site_builder/theme/static/solve/editor.js").Editor;
}
