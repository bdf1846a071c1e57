"""How the pipeline's executors scale: per-task overhead, a chunked survey, 1 vs 2 workers.

    .venv/bin/python benchmarks/scale.py            # all three measurements
    .venv/bin/python benchmarks/scale.py --tasks 400 --repeat 3

1. Overhead: a stage of N no-op chunks, run by the driver on each executor (in-process,
   local processes, a Dask LocalCluster of 2); wall time per task, cluster start excluded.
2. A chunked survey (Sashigane's survey_beyond on 5x6: every L tiling × every mask,
   in 32 chunks that share no group) on local processes (2) and on a
   LocalCluster(2): the cluster should be within 15% of the processes.
3. The same survey with 1 and with 2 workers of each kind: the speed-up.

Needs the dask extra (``pip install -e '.[dask]'``). The machine may be shared: run it a
few times and read the best figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from site_builder import pipeline
from solvers import registry
from solvers.common import Stage

SURVEY = {"sizes": ["5x6"], "rows": 2, "chunks": 32}


def noop_chunks(inputs: Any, params: Any) -> list[dict[str, Any]]:
    return [{"key": i} for i in range(params["n"])]


def noop_map(chunk: Any, inputs: Any, params: Any, progress: Any = None) -> int:
    return chunk["key"]


def noop_reduce(partials: list[Any], inputs: Any, params: Any) -> dict[str, Any]:
    return {"n": len(partials)}


def _puzzle(stage: Stage) -> Any:
    real = registry.get("sashigane")
    return real.replace(stages=(stage,), on_request=())


def timed_run(puzzle: Any, executor: Any) -> float:
    """Seconds for the driver to run the puzzle's one stage on ``executor``."""
    saved = registry.get
    registry.get = lambda slug: puzzle  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            plans = [pipeline.plan(Path(tmp), puzzle.slug, regenerate=True)]
            start = time.perf_counter()
            pipeline.run_plans(Path(tmp), plans, executor, pipeline.Progress(quiet=True))
            return time.perf_counter() - start
    finally:
        registry.get = saved  # type: ignore[assignment]


def executors(workers: int) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if workers == 1:
        out.append(("in-process", lambda: pipeline.InProcess()))
    out.append((f"processes({workers})", lambda: pipeline.Processes(workers)))
    out.append((f"LocalCluster({workers})", lambda: pipeline.DaskCluster(f"local:{workers}")))
    return out


def best_of(puzzle: Any, make: Any, repeat: int) -> float:
    ex = make()
    try:
        timed_run(puzzle, ex)  # warm the workers (imports, first connections)
        return min(timed_run(puzzle, ex) for _ in range(repeat))
    finally:
        ex.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=int, default=400, help="no-op chunks (default 400)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    report: dict[str, Any] = {"overhead_ms": {}, "survey_s": {}}

    noop = _puzzle(Stage("noop", None, {"n": args.tasks}, chunks=noop_chunks, map=noop_map,
                         reduce=noop_reduce))
    for name, make in executors(1)[:1] + executors(2):  # in-process, processes, cluster
        t = best_of(noop, make, args.repeat)
        report["overhead_ms"][name] = round(1000 * t / args.tasks, 3)
        print(f"no-op chunk, {name:<16} {1000 * t / args.tasks:8.3f} ms per task", flush=True)

    (real,) = registry.get("sashigane").on_request
    params = {**real.params, **SURVEY, "on_request": False}  # planned like any stage here
    survey = _puzzle(real.replace(params=params))
    chunks = len(real.plan_chunks({}, params))
    print(f"survey: Sashigane survey_beyond on 5x6, {chunks} chunks", flush=True)
    for workers in (1, 2):
        for name, make in executors(workers):
            t = best_of(survey, make, args.repeat)
            report["survey_s"][name] = round(t, 2)
            print(f"survey, {name:<16} {t:8.2f} s", flush=True)
    s = report["survey_s"]
    report["cluster_over_processes"] = round(s["LocalCluster(2)"] / s["processes(2)"], 3)
    report["speedup_processes"] = round(s["processes(1)"] / s["processes(2)"], 2)
    report["speedup_cluster"] = round(s["LocalCluster(1)"] / s["LocalCluster(2)"], 2)
    print(f"LocalCluster(2) / processes(2): {report['cluster_over_processes']:.3f}  "
          f"speed-up 1->2 workers: processes {report['speedup_processes']:.2f}x, "
          f"LocalCluster {report['speedup_cluster']:.2f}x")
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
