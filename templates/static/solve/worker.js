// The solve page's Web Worker: Pyodide from the site's own files, the project's solvers
// from solvers.zip, one board at a time. It names no puzzle.
//
// in:  {type: "init", pyodide: URL of the runtime folder, zip: URL, wheels: [URL, ...]}
//      {type: "solve", id, slug, text, timeout, maxNodes, trace}
// out: {type: "ready", ms}  {type: "fail", message}
//      {type: "progress", id, nodes, seconds}
//      {type: "done", id, reply}   reply: site_builder/solve_web.py solve_text's dict
// The page ends a long solve by terminating this worker and starting another.

let solveJson = null;
const booting = new Promise((resolve) => { self.bootResolve = resolve; });

async function boot(msg) {
  const t0 = performance.now();
  const { loadPyodide } = await import(msg.pyodide + "pyodide.mjs");
  const zipped = fetch(msg.zip).then((r) => {
    if (!r.ok) throw new Error(`${msg.zip}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  const py = await loadPyodide({ indexURL: msg.pyodide, stdout: () => {}, stderr: () => {} });
  const quiet = { messageCallback: () => {}, errorCallback: () => {} };
  await Promise.all([py.loadPackage(msg.wheels, quiet), zipped]);
  py.unpackArchive(await zipped, "zip", { extractDir: "/app" });
  py.runPython("import sys; sys.path.insert(0, '/app')");
  solveJson = py.pyimport("site_builder.solve_web").solve_json;
  return performance.now() - t0;
}

self.onmessage = async (e) => {
  const msg = e.data;
  if (msg.type === "init") {
    try {
      const ms = await boot(msg);
      self.postMessage({ type: "ready", ms });
    } catch (err) {
      self.postMessage({ type: "fail", message: String(err && err.message || err) });
    }
    self.bootResolve();
    return;
  }
  if (msg.type === "solve") {
    await booting;
    if (!solveJson) return;
    const progress = (nodes, seconds) =>
      self.postMessage({ type: "progress", id: msg.id, nodes, seconds });
    const t0 = performance.now();
    let reply;
    try {
      reply = JSON.parse(solveJson(msg.slug, msg.text, msg.timeout, msg.maxNodes || 0,
        msg.trace !== false, progress));
    } catch (err) {
      reply = { ok: false, error: "internal", message: String(err && err.message || err) };
    }
    self.postMessage({ type: "done", id: msg.id, reply, ms: performance.now() - t0 });
  }
};
