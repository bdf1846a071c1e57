// The solve Web Worker's own globals: what worker.js keeps on self between its boot and
// the messages that use it. Included by tsconfig.worker.json.

interface WorkerGlobalScope {
  /** settles worker.js's `booting` once "init" is handled (booted or failed) */
  bootResolve: (value?: unknown) => void;
  /** stores the interpreter's memory snapshot made at boot (null once called) */
  keep: (() => Promise<void>) | null;
  /** ms from the worker's start to each phase of its boot; each file's fetch as
   * [start, end, bytes over the wire] */
  marks: Record<string, number | number[]>;
  /** solve_web.warm: import the page's puzzle's modules */
  warm: (slug: string) => void;
  /** solve_web.warm_imports: import the wheels' modules the solvers use */
  warmImports: (names: string[]) => void;
}

declare namespace WebAssembly {
  /** JavaScript promise integration, where the browser has it (not yet in TypeScript's
   * lib): worker.js tests for it */
  var Suspending: (new (fn: (...args: never[]) => unknown) => object) | undefined;
}
