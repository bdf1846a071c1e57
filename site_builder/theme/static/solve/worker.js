// The solve page's Web Worker: Pyodide from the site's own files, the project's solvers
// from solvers.zip, one board at a time. It names no puzzle.
//
// in:  {type: "init", pyodide: URL of the runtime folder, stdlib: URL of its standard
//       library's zip, zip: URL of solvers.zip, wheels: [URL, ...],
//       modules: the wheels' top-level modules (a solve that imports one before the
//       wheels are in waits for them), imports: those of their modules the solvers import
//       (imported once the wheels are in),
//       slug: the page's puzzle, whose modules are imported once the runtime is up,
//       onDemand: the wheels are fetched only when a solve first imports one of their
//       modules (python-sat is for the SAT step of hard boards alone), not once the
//       runtime is up}
//      {type: "solve", id, slug, text, timeout, maxNodes, trace, board, split}
//        (board: the editor's board JSON as a string, solved as its puzz.link URL;
//        split: the benchmark's, an ungraded solve timed afterwards, see
//        solve_web.solve_text)
//      {type: "help", id, slug, text, budget}   constructor help (solve_web.help_text)
//      (snapshot: false: never keep or restore the interpreter's memory, see boot)
// out: {type: "ready", ms, marks}  {type: "fail", message}  {type: "kept"} (the
//        interpreter's memory stored for the next visit)
//        (marks: ms from the worker's start to each phase of its start, and each file's
//        fetch as [start, end, bytes over the wire]; the benchmark reports them)
//      {type: "installing", id}   call id waits for the wheels' install (in the middle of
//        the solve, or, without promise integration, the same call then starts over)
//      {type: "installed", ms}   the wheels are in (ms: the install's own time)
//      {type: "warmed", ms}   the page's puzzle's modules imported (solve_web.warm)
//      {type: "warmedImports", ms}   the wheels' modules imported (solve_web.warm_imports)
//      {type: "progress", id, nodes, seconds}
//      {type: "done", id, reply, ms, timing}   reply: site_builder/solve_web.py
//        solve_text's dict (for a unique board reply.tracing is true and "traced" follows
//        with its trace); timing: where the worker's ms went (call's laps)
//      {type: "traced", id, trace, ms, timing}
//      {type: "helped", id, reply} {type: "helping", id, done, total}
// The page ends a long solve by terminating this worker and starting another.

let solveJson = null;
let helpJson = null;
let traceJson = null;
let installWheels = null;  // installs the wheels (once) when a solve first imports one
const booting = new Promise((resolve) => { self.bootResolve = resolve; });

// The interpreter's start (its memory once solve_web is imported) is kept between visits
// in the browser's Cache Storage, gzipped, under a key made of the runtime files' own
// content-hashed names: a later visit restores that memory (Pyodide's memory snapshot)
// instead of starting Python afresh. Made on a visit that found none, just before
// "ready" (Python then holds no JavaScript object), stored after it.
const SNAPSHOTS = "solve-snapshot";

async function storedSnapshot(key) {
  try {
    if (!self.caches || typeof DecompressionStream !== "function") return null;
    const hit = await (await caches.open(SNAPSHOTS)).match(key);
    if (!hit) return null;
    const body = hit.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(body).arrayBuffer());
  } catch {
    return null;
  }
}

async function keepSnapshot(key, snap) {
  try {
    if (!self.caches || typeof CompressionStream !== "function") return;
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old);   // one: this runtime's
    const body = new Blob([snap]).stream().pipeThrough(new CompressionStream("gzip"));
    await cache.put(key, new Response(body));
    self.postMessage({ type: "kept" });
  } catch { /* storage full or off: the next visit starts afresh */ }
}

async function dropSnapshot(key) {
  try { await (await caches.open(SNAPSHOTS)).delete(key); } catch { /* off */ }
}

async function boot(msg) {
  const t0 = performance.now();
  /** @type {Record<string, number | number[]>} */
  const marks = {};
  const mark = (name) => { marks[name] = Math.round(performance.now() - t0); };
  const zipped = fetch(msg.zip).then((r) => {
    if (!r.ok) throw new Error(`${msg.zip}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const snapKey = new URL(`${msg.zip}?snapshot=${encodeURIComponent(msg.pyodide + " " + msg.stdlib)}`).href;
  const [{ loadPyodide }, stored] = await Promise.all([import(msg.pyodide + "pyodide.mjs"),
    msg.snapshot === false ? null : storedSnapshot(snapKey)]);
  mark("script");
  if (stored) marks.snapshot = stored.length;
  // solvers.zip goes into the file system before the interpreter starts (fsInit runs
  // once the WebAssembly is instantiated) and is imported from in place (zipimport): its
  // modules are bytecode when the build could compile them (site_builder/runtime.py)
  const app = "/app/solvers.zip";
  const options = (snap) => ({
    indexURL: msg.pyodide, stdLibURL: msg.stdlib, stdout: () => {}, stderr: () => {},
    ...(snap ? { _loadSnapshot: snap } : { _makeSnapshot: msg.snapshot !== false }),
    fsInit: async (FS) => {
      mark("wasm");
      const data = new Uint8Array(await zipped);
      FS.mkdir("/app");
      FS.writeFile(app, data);
    },
  });
  let py, web;
  if (stored) {
    try {
      py = await loadPyodide(options(stored));
      web = py.pyimport("site_builder.solve_web");
      mark("python");
    } catch {   // a snapshot this runtime cannot take: start afresh, and forget it
      py = null;
      await dropSnapshot(snapKey);
    }
  }
  let made = null;
  if (!py) {
    delete marks.snapshot;
    py = await loadPyodide(options(null));
    mark("python");
    py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(app)})`);
    web = py.pyimport("site_builder.solve_web");
    if (msg.snapshot !== false) {
      try { made = py.makeMemorySnapshot(); } catch { made = null; }
    }
  }
  mark("import");
  if (made) self.keep = () => keepSnapshot(snapKey, made).then(() => { made = null; });
  for (const r of /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("resource"))) {
    // each file's fetch: [start, end] in ms from the worker's start, bytes over the wire
    marks["fetch " + r.name.split("/").pop()] = [Math.round(r.startTime - t0),
      Math.round(r.responseEnd - t0), r.transferSize];
  }
  self.marks = marks;
  const quiet = { messageCallback: () => {}, errorCallback: () => {} };
  let installing = null;
  // one install for the worker's life: a solve that needs the wheels before they are in
  // waits for this one (a failed install is tried again by the next solve that needs it)
  installWheels = () => {
    if (!installing) {
      const t1 = performance.now();
      installing = py.loadPackage(msg.wheels, quiet).then(() => {
        web.undefer();
        self.marks.wheels = Math.round(performance.now() - t1);
        self.postMessage({ type: "installed", ms: performance.now() - t1 });
      }, (err) => {
        installing = null;
        throw err;
      });
    }
    return installing;
  };
  // python-sat (MiniSat, CaDiCaL) is only for the hard boards' last step: it goes in in the
  // background once the interpreter is up (see "init" below), and until it is in, a
  // solve that imports it waits there for the install under way (solve_web.defer)
  if (msg.wheels.length && msg.modules && msg.modules.length) {
    // (the page hears "installing": its watchdog does not count the wait)
    web.defer(msg.modules, () => {
      self.postMessage({ type: "installing", id: current });
      return installWheels();
    });
  } else if (msg.wheels.length) await installWheels();
  self.warm = (slug) => web.warm(slug);
  self.warmImports = (names) => web.warm_imports(names);
  solveJson = web.solve_json;
  helpJson = web.help_json;
  traceJson = web.trace_json;
  return performance.now() - t0;
}

// One call into Python; when it asked for a wheel not installed yet (it could not wait
// for it: no promise integration), wait for the install (the one under way, else a new
// one) and make the same call again (the solve starts over, as if the wheel had been
// there). ``lap``
// (optional) hears each phase's ms: "aborted" (the call that asked for the wheel),
// "wheel" (the wait for its install), "python" (the call that answered).
/** @param {(name: string, ms: number) => void} [lap] */
async function call(fn, id, lap = () => {}) {
  let t = performance.now();
  let reply = JSON.parse(await enter(fn));
  if (reply && reply.error === "wheel") {
    lap("aborted", performance.now() - t);
    self.postMessage({ type: "installing", id });
    t = performance.now();
    await installWheels();
    lap("wheel", performance.now() - t);
    t = performance.now();
    reply = JSON.parse(await enter(fn));
  }
  lap("python", performance.now() - t);
  return reply;
}

// With JavaScript promise integration (WebAssembly.Suspending), Python is entered with
// callPromising, so an import of a wheel not in yet can wait for its install in the
// middle of the solve (solve_web._block); without it, a plain call, and such an import
// ends the call (WheelNeeded) and call() above starts it over once the wheel is in.
const JSPI = typeof WebAssembly.Suspending === "function";
function enter([f, ...args]) {
  return JSPI ? f.callPromising(...args) : f(...args);
}

const round1 = (ms) => Math.round(ms * 10) / 10;

// One request in Python at a time, in the order they came: a call that waits for the
// wheels' install (solve_web._block) lets the worker's event loop run, and a request that
// arrived meanwhile must not start in the middle of it (solve_web keeps the last board).
let queue = Promise.resolve();
let current = null;   // the id of the request in Python
function inTurn(task) {
  const run = queue.then(task);
  queue = run.catch(() => {});
  return run;
}

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type === "solve" || msg.type === "help") {
    await booting;
    return inTurn(() => { current = msg.id; return handle(msg); });
  }
  if (msg.type === "init") {
    try {
      const ms = await boot(msg);
      self.postMessage({ type: "ready", ms, marks: self.marks });
      if (self.keep) { const keep = self.keep; self.keep = null; keep(); }
      // the wheels' fetch starts first (the network meanwhile), then the puzzle's own
      // modules, before its first solve asks for them; every puzzle's ladder may reach
      // python-sat on a hard board. A solve that arrives meanwhile runs at once.
      if (msg.wheels.length && msg.modules && msg.modules.length && !msg.onDemand) {
        // once in, the wheel's modules the solvers import are compiled and imported, in
        // turn with the solves (one waiting for the install imports them itself first)
        installWheels().then(() => inTurn(() => {
          const t = performance.now();
          self.warmImports(msg.imports || []);
          self.postMessage({ type: "warmedImports", ms: performance.now() - t });
        }), () => {});   // a solve that needs the wheel meets the error
      }
      if (msg.slug) {
        const t = performance.now();
        self.warm(msg.slug);
        self.postMessage({ type: "warmed", ms: performance.now() - t });
      }
    } catch (err) {
      self.postMessage({ type: "fail", message: String(err && err.message || err) });
    }
    self.bootResolve();
  }
};

async function handle(msg) {
  if (msg.type === "solve") {
    if (!solveJson) return;
    const progress = (nodes, seconds) =>
      self.postMessage({ type: "progress", id: msg.id, nodes, seconds });
    const t0 = performance.now();
    // where this solve's time went (ms), for the benchmark: see call's lap, and the
    // Python side's own split in reply.timing
    const timing = {};
    const lap = (name, ms) => { timing[name] = round1((timing[name] || 0) + ms); };
    let reply;
    try {
      reply = await call([solveJson, msg.slug, msg.text || "", msg.timeout,
        msg.maxNodes || 0, false, progress, msg.board || "", !!msg.split], msg.id, lap);
      if (reply.ok && msg.trace !== false) reply.result.trace = null;
    } catch (err) {
      reply = { ok: false, error: "internal", message: String(err && err.message || err) };
    }
    // the verdict and the grade first; then the explanation (seconds on a hard board)
    const solved = performance.now() - t0;
    const later = msg.trace !== false && reply.ok && reply.result.solutions === 1;
    if (later) reply.tracing = true;
    self.postMessage({ type: "done", id: msg.id, reply, ms: solved, timing });
    if (later) {
      let trace;
      const traced = {};
      try {
        trace = await call([traceJson], msg.id,
          (name, ms) => { traced[name] = round1((traced[name] || 0) + ms); });
      } catch {
        trace = null;
      }
      self.postMessage({ type: "traced", id: msg.id, trace, ms: performance.now() - t0,
        timing: traced });
    }
  }
  if (msg.type === "help") {
    if (!helpJson) return;
    const progress = (done, total) =>
      self.postMessage({ type: "helping", id: msg.id, done, total });
    let reply;
    try {
      reply = await call([helpJson, msg.slug, msg.text, msg.budget, progress], msg.id);
    } catch (err) {
      reply = { ok: false, error: "internal", message: String(err && err.message || err) };
    }
    self.postMessage({ type: "helped", id: msg.id, reply });
  }
}
