"""Running the puzzles' stages as a graph of chunk tasks, with a content-hash cache.

A stage's key is a hash of: the schema, the puzzle package's code hash, the stage's
parameters, and the keys of the stages it reads. ``content/<slug>/<stage>.json`` stores
that key in ``producer.key``; a stage whose stored key matches is skipped.

The driver plans one task per (puzzle, stage, chunk) as soon as the stage's inputs are
ready (read from disk, or reduced in this run), hands the tasks to an executor (this
process, local processes, or a Dask distributed cluster), reduces each stage's partials in
chunk order and writes the stage's file itself. Workers only compute and return data, so
the bytes written never depend on the executor, the number of workers or the order in
which chunks finish.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.errors import UserError
from site_builder.jsonio import SCHEMA, read_stage, stage_path, write_json
from solvers import registry
from solvers.common import Puzzle, Stage, no_progress

DASK_HINT = "pip install -e '.[dask]'"
CONNECT_TIMEOUT = "20s"  # how long --scheduler tcp://... waits for the scheduler


def code_hash(puzzle: Puzzle, root: Path | None = None) -> str:
    """``puzzle.code_hash()``; with the site's ``root``, from its on-disk cache
    (``site_builder/codehash.py``: the same value, the sources parsed only when changed)."""
    if root is None:
        return puzzle.code_hash()
    from site_builder.codehash import code_hash as cached

    return cached(puzzle, root)


def stage_key(puzzle: Puzzle, stage: Stage, input_keys: dict[str, str],
              root: Path | None = None, code: str | None = None) -> str:
    """``code``: the puzzle's code hash when the caller has it already (a plan asks for
    it once per puzzle, not once per stage)."""
    code = code if code is not None else code_hash(puzzle, root)
    blob = json.dumps({"schema": SCHEMA, "code": code, "stage": stage.name,
                       "params": stage.params, "inputs": input_keys}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def _stored_key(path: Path, slug: str, stage: str, root: Path | None = None) -> str | None:
    """The key a stage file was written with; a corrupt file is an error, not a miss
    (``git checkout`` restores a tracked one, ``--regenerate`` rewrites it). With the
    site's ``root``, a file whose bytes the cache knows is not parsed again."""
    if not path.exists():
        return None
    cache = sha = None
    if root is not None:
        from site_builder.filecache import for_site

        cache = for_site(root)
        sha = cache.sha(path)
        if sha is not None and (known := cache.get("stagekey", f"{slug}/{stage}/{sha}")):
            return str(known)
    try:
        key = read_stage(path, slug, stage)["producer"]["key"]
    except UserError as e:
        raise UserError(f"{e} ({restore_hint(path)})") from None
    if cache is not None and sha is not None and isinstance(key, str):
        cache.put("stagekey", f"{slug}/{stage}/{sha}", key)
    return key


def restore_hint(path: Path) -> str:
    """How to get a broken content file back: ``git checkout -- FILE`` at once when git
    tracks it and it was modified, else rewriting it with ``--regenerate``."""
    import subprocess

    try:
        r = subprocess.run(["git", "status", "--porcelain", "--", path.name],
                           cwd=path.parent, capture_output=True, text=True, timeout=10,
                           check=False)
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", "--", path.name],
                                 cwd=path.parent, capture_output=True, timeout=10,
                                 check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        tracked = False
        r = None
    if tracked and r is not None and r.returncode == 0 and r.stdout.strip():
        shown = os.path.relpath(path)
        return (f"`git checkout -- {shown}` restores the committed file; or run with "
                "--regenerate to recompute it")
    return "run with --regenerate to rewrite it"


def all_stages(puzzle: Puzzle) -> tuple[Stage, ...]:
    """The puzzle's stages, then those it runs only when asked (``Puzzle.on_request``)."""
    out = (*puzzle.stages, *getattr(puzzle, "on_request", ()))
    if len({s.name for s in out}) != len(out):
        raise ValueError(f"{puzzle.slug}: two stages share a name")
    return out


def on_request(stage: Stage) -> bool:
    """A stage that runs only when named (``--stage slug/name``): a survey too big for
    the ordinary regenerate budget."""
    return bool(stage.params.get("on_request"))


@dataclass
class Plan:
    """What a puzzle needs: for each stage, its key and whether it must run."""

    slug: str
    keys: dict[str, str] = field(default_factory=dict)
    todo: list[str] = field(default_factory=list)


def plan(root: Path, slug: str, regenerate: bool = False,
         asked: frozenset[str] = frozenset()) -> Plan:
    """Decide which stages of ``slug`` are stale, in dependency order.

    An on-request stage is planned only when ``asked`` names it (``slug/stage``), and then
    always runs (its file is the record of that one run)."""
    puzzle = registry.get(slug)
    p = Plan(slug)
    code = code_hash(puzzle, root)  # the sources' stats looked at now, once
    for stage in all_stages(puzzle):
        inputs = {d: p.keys[d] for d in stage.deps}
        key = stage_key(puzzle, stage, inputs, root, code)
        p.keys[stage.name] = key
        if on_request(stage):
            if f"{slug}/{stage.name}" in asked:
                p.todo.append(stage.name)
            continue
        stale = any(d in p.todo for d in stage.deps)
        if regenerate or stale or _stored_key(stage_path(root, slug, stage.name), slug,
                                              stage.name, root) != key:
            p.todo.append(stage.name)
    return p


def dotted_key(data: Any, path: str = "") -> str | None:
    """The first key path holding a "." (page keys are dot-separated paths), or None."""
    if isinstance(data, dict):
        for k, v in data.items():
            here = f"{path}.{k}" if path else str(k)
            if "." in str(k):
                return here
            if (found := dotted_key(v, here)) is not None:
                return found
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if (found := dotted_key(v, f"{path}.{i}")) is not None:
                return found
    return None


class Failed:
    """What a task returns in place of its partial when the stage's own code raised: the
    cause in one line (picklable, the same through every executor)."""

    __slots__ = ("cause",)

    def __init__(self, cause: str) -> None:
        self.cause = cause


def cause(e: BaseException) -> str:
    """An exception as one line: its type, its message and the last line of code that
    raised it (``file:line``, the plugin's own when it is in the traceback)."""
    import traceback

    frames = traceback.extract_tb(e.__traceback__)
    text = " ".join(str(e).split())
    text = f"{type(e).__name__}{': ' + text[:300] if text else ''}"
    if frames:
        last = frames[-1]
        text += f" (at {Path(last.filename).name}:{last.lineno} in {last.name})"
    return text


def run_chunk(stage: Stage, chunk: Any, inputs: dict[str, Any]) -> tuple[Any, float]:
    """One task, wherever it runs: the chunk's partial and the CPU seconds it took; a
    ``Failed`` when the stage's code raised (the driver names plugin, stage and cause)."""
    cpu = time.process_time()
    try:
        partial = stage.run_chunk(chunk, inputs, stage.params, no_progress)
    except Exception as e:  # noqa: BLE001 - a plugin's fault, told in one line
        partial = Failed(cause(e))
    return partial, time.process_time() - cpu


def stage_failed(slug: str, stage: str, why: str) -> UserError:
    """The one line for a stage whose code raised (its file is left as it was)."""
    from solvers import registry

    e = registry.entries().get(slug)
    owner = f"puzzle plugin {slug!r}" + (f" ({e.dist} {e.version})" if e else "")
    return UserError(f"{owner}: stage {stage!r} failed: {why}; content/{slug}/{stage}.json "
                     "is unchanged")


def _guarded(slug: str, stage: str, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``: a stage's own code run by the driver (its chunk plan, its reduce);
    an exception from it becomes ``stage_failed``'s one line."""
    try:
        return fn(*args)
    except UserError:
        raise
    except Exception as e:  # noqa: BLE001 - a plugin's fault, told in one line
        raise stage_failed(slug, stage, cause(e)) from None


def check_names(slugs: list[str]) -> None:
    """Every slug and stage name of the puzzles being built (and each stage's inputs)
    held to the one naming rule (``site_builder.names``), before anything is written."""
    from site_builder import names

    for slug in slugs:
        owner = f"puzzle plugin {slug!r}"
        names.check("puzzle slug", slug)
        try:
            stages = all_stages(registry.get(slug))
        except ValueError as e:
            raise UserError(f"{owner}: {e}") from None
        for s in stages:
            names.check("stage", s.name, owner)
            for d in s.deps:
                names.check(f"stage {s.name!r} reads the stage", d, owner)


# ---------------------------------------------------------------- executors


def _same(value: Any) -> Any:
    return value


class InProcess:
    """Runs each task at submission, in this process (``--jobs 1``): the reference."""

    name = "in-process"
    workers = 1

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        f: Future = Future()
        try:
            f.set_result(fn(*args))
        except BaseException as e:  # noqa: BLE001 - handed to the driver like a worker's
            f.set_exception(e)
        return f

    def submit_chunks(self, stage: Stage, chunks: list[Any], inputs: Any) -> list[Any]:
        return [self.submit(run_chunk, stage, chunk, inputs) for chunk in chunks]

    def share(self, value: Any) -> Any:
        return value

    def wait_first(self, pending: set[Any]) -> list[tuple[Any, Any]]:
        """(task, result) for each task finished (at least one); a failed task raises."""
        return [(f, f.result()) for f in wait(pending, return_when=FIRST_COMPLETED).done]

    def close(self) -> None:
        pass


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the driver ``parent`` dies, however it
    dies (a SIGKILL of the build runs no cleanup, and the workers would be left to init,
    computing chunks nobody collects). Linux: the kernel sends SIGKILL on the parent's
    death (``prctl(PR_SET_PDEATHSIG)``; strictly, the death of the thread that forked the
    worker: the pool lives inside one ``run_all`` call, in one thread); elsewhere a daemon
    thread polls the parent pid."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # the driver died before the prctl took hold
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watchdog", daemon=True).start()


class Processes(InProcess):
    """One process per core on this machine (concurrent.futures), the default."""

    name = "processes"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=die_with_parent,
                                        initargs=(os.getpid(),))

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self.pool.submit(fn, *args)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskCluster:
    """Tasks on a Dask distributed cluster: ``tcp://host:port`` or ``local:N`` (a
    LocalCluster of N single-threaded worker processes started for the run)."""

    name = "dask"

    def __init__(self, scheduler: str) -> None:
        try:
            import distributed
        except ImportError:
            raise UserError(f"--scheduler needs Dask distributed: {DASK_HINT}") from None
        self.distributed = distributed
        self.cluster = None
        if scheduler.startswith("local:"):
            try:
                n = int(scheduler.removeprefix("local:"))
            except ValueError:
                n = 0
            if not 1 <= n <= 512:  # as --jobs: a LocalCluster starts every worker at once
                raise UserError(f"--scheduler {scheduler[:40]}: expected local:N with "
                                "1 <= N <= 512")
            # Workers sample the running task's stack every 10 ms by default, which costs
            # pure-Python chunks about a quarter of their speed; this cluster does not.
            import dask

            with dask.config.set({"distributed.worker.profile.enabled": False}):
                self.cluster = distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
            self.client = distributed.Client(self.cluster)
        else:
            try:
                self.client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
            except OSError as e:
                raise UserError(f"--scheduler {scheduler}: cannot reach it ({e})") from None
        self.workers = max(1, len(self.client.scheduler_info(n_workers=-1)["workers"]))
        self.done = distributed.as_completed(with_results=True, raise_errors=True)
        self.name = f"dask {scheduler}"

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        f = self.client.submit(fn, *args, pure=False)
        self.done.add(f)
        return f

    def submit_chunks(self, stage: Stage, chunks: list[Any], inputs: Any) -> list[Any]:
        """A stage's chunks in one message to the scheduler."""
        n = len(chunks)
        fs = self.client.map(run_chunk, [stage] * n, chunks, [inputs] * n, pure=False)
        self.done.update(fs)
        return fs

    def share(self, value: Any) -> Any:
        """Send a stage's inputs to the cluster once, not with every chunk: as a task's
        result (not scattered data), so a worker lost with it recomputes it."""
        if not value:
            return value
        return self.client.submit(_same, value, pure=False)

    def wait_first(self, pending: set[Any]) -> list[tuple[Any, Any]]:
        """The tasks finished since the last call (at least one) with their results: an
        as_completed queue fed by ``submit`` that gathers results in batches, so a wait
        costs nothing per pending task and no round trip per result."""
        return [(f, r) for f, r in self.done.next_batch(block=True) if f in pending]

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def make_executor(jobs: int | None = None, scheduler: str | None = None) -> Any:
    if scheduler:
        return DaskCluster(scheduler)
    jobs = jobs or os.cpu_count() or 1
    return InProcess() if jobs <= 1 else Processes(jobs)


# ---------------------------------------------------------------- progress


class Progress:
    """One bar per running stage (chunks done / total, rate, time left), drawn by tqdm
    from completed tasks: the same display whatever the executor. When the stream is not
    a terminal (a CI log, a pipe), one plain line per stage start and end instead."""

    def __init__(self, quiet: bool = False, stream: Any = None,
                 live: bool | None = None) -> None:
        self.quiet = quiet
        self.stream = stream or sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)()) if live is None else live
        self.bars: dict[tuple[str, str], Any] = {}
        self.plain: dict[tuple[str, str], tuple[float, int]] = {}

    def start(self, slug: str, stage: str, total: int) -> None:
        if self.quiet:
            return
        if not self.live:
            self.plain[slug, stage] = (time.monotonic(), total)
            self.stream.write(f"  {slug} {stage}: {total} chunk{'s' * (total != 1)}\n")
            self.stream.flush()
            return
        from tqdm import tqdm

        self.bars[slug, stage] = tqdm(total=total, desc=f"{slug} {stage}", unit="chunk",
                                      file=self.stream, leave=True, dynamic_ncols=True,
                                      mininterval=0.5)

    def advance(self, slug: str, stage: str) -> None:
        if (bar := self.bars.get((slug, stage))) is not None:
            bar.update(1)

    def finish(self, slug: str, stage: str) -> None:
        if (bar := self.bars.pop((slug, stage), None)) is not None:
            bar.close()
        if (began := self.plain.pop((slug, stage), None)) is not None:
            self.stream.write(f"  {slug} {stage}: done in {time.monotonic() - began[0]:.1f} s\n")
            self.stream.flush()

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()
        self.bars.clear()
        self.plain.clear()


# ---------------------------------------------------------------- the driver


@dataclass
class _Running:
    """A stage whose chunks are out: partials arrive in any order, kept in chunk order."""

    slug: str
    stage: Stage
    inputs: dict[str, Any]
    partials: list[Any]
    left: int
    cpu: float = 0.0
    start: float = field(default_factory=time.monotonic)


def _write(root: Path, puzzle: Puzzle, stage: Stage, keys: dict[str, str],
           result: dict[str, Any]) -> None:
    if (bad := dotted_key(result)) is not None:
        raise UserError(f"{puzzle.slug} stage {stage.name} wrote the key {bad!r}; keys must "
                        "not contain '.' (pages name figures by dot-separated key paths)")
    doc = {"schema": SCHEMA, "slug": puzzle.slug, "stage": stage.name,
           "producer": {"code": code_hash(puzzle, root), "params": stage.params,
                        "inputs": {d: keys[d] for d in stage.deps}, "key": keys[stage.name]},
           "data": result}
    write_json(stage_path(root, puzzle.slug, stage.name), doc)


def run_plans(root: Path, plans: list[Plan], executor: Any, progress: Progress) -> list[str]:
    """Run every planned stage on ``executor``; returns ``slug/stage`` in plan order."""
    puzzles = {p.slug: registry.get(p.slug) for p in plans}
    data: dict[tuple[str, str], Any] = {}
    waiting = [(p, s) for p in plans for s in all_stages(puzzles[p.slug]) if s.name in p.todo]
    running: dict[tuple[str, str], _Running] = {}
    tasks: dict[Any, tuple[str, str, int]] = {}
    done: set[str] = set()

    def inputs_of(p: Plan, stage: Stage) -> dict[str, Any] | None:
        out = {}
        for d in stage.deps:
            if d in p.todo:
                if (p.slug, d) not in data:
                    return None
                out[d] = data[p.slug, d]
            else:
                if (p.slug, d) not in data:
                    data[p.slug, d] = read_stage(stage_path(root, p.slug, d), p.slug, d)["data"]
                out[d] = data[p.slug, d]
        return out

    def finish(run: _Running, plan_: Plan) -> None:
        puzzle = puzzles[run.slug]
        cpu = time.process_time()
        result = _guarded(run.slug, run.stage.name, run.stage.combine, run.partials,
                          run.inputs, run.stage.params)
        if on_request(run.stage):  # the record of how this one figure was computed
            result = {**result, "computed": {
                "executor": executor.name, "workers": executor.workers,
                "chunks": len(run.partials), "cpu_seconds": round(run.cpu, 1),
                "reduce_cpu_seconds": round(time.process_time() - cpu, 1),
                "wall_seconds": round(time.monotonic() - run.start, 1)}}
        _write(root, puzzle, run.stage, plan_.keys, result)
        data[run.slug, run.stage.name] = result
        done.add(f"{run.slug}/{run.stage.name}")
        progress.finish(run.slug, run.stage.name)

    def launch() -> None:
        for item in list(waiting):
            p, stage = item
            inputs = inputs_of(p, stage)
            if inputs is None:
                continue
            waiting.remove(item)
            chunks = _guarded(p.slug, stage.name, stage.plan_chunks, inputs, stage.params)
            run = _Running(p.slug, stage, inputs, [None] * len(chunks), len(chunks))
            running[p.slug, stage.name] = run
            progress.start(p.slug, stage.name, len(chunks))
            if not chunks:
                finish(running.pop((p.slug, stage.name)), p)
                continue
            futures = executor.submit_chunks(stage, chunks, executor.share(inputs))
            for i, f in enumerate(futures):
                tasks[f] = (p.slug, stage.name, i)

    by_slug = {p.slug: p for p in plans}
    try:
        launch()
        while tasks:
            for f, (partial, cpu) in executor.wait_first(set(tasks)):
                slug, name, i = tasks.pop(f)
                if isinstance(partial, Failed):
                    raise stage_failed(slug, name, partial.cause)
                run = running[slug, name]
                run.partials[i] = partial
                run.cpu += cpu
                run.left -= 1
                progress.advance(slug, name)
                if run.left == 0:
                    finish(running.pop((slug, name)), by_slug[slug])
            launch()
    finally:
        for f in tasks:
            f.cancel()
        progress.close()
    if waiting:  # a dependency that never became ready: a planning bug, not a user error
        raise RuntimeError(f"stages never became ready: {[(p.slug, s.name) for p, s in waiting]}")
    return [f"{p.slug}/{s}" for p in plans for s in p.todo if f"{p.slug}/{s}" in done]


def run_all(root: Path, slugs: list[str], *, regenerate: bool = False, jobs: int | None = None,
            scheduler: str | None = None, stages: list[str] | None = None, quiet: bool = False,
            log: Callable[[str], None] | None = None, stream: Any = None) -> list[str]:
    """Bring every listed puzzle's stages up to date. Returns the stages that ran.

    ``jobs`` 1 runs in this process, more in that many local processes (default: one per
    core); ``scheduler`` (``tcp://host:port`` or ``local:N``) runs on Dask distributed
    instead. ``stages`` names on-request stages (``slug/stage``) to run as well.
    """
    from site_builder import filecache

    check_names(list(slugs))
    asked = frozenset(stages or ())
    for name in asked:
        slug, _, st = name.partition("/")
        if slug not in slugs or st not in [s.name for s in all_stages(registry.get(slug))]:
            raise UserError(f"--stage {name}: no such stage among the puzzles being built")
    from site_builder import stagelock

    with stagelock.Claim(root) as claim:  # content/ writable, one build running stages
        if regenerate:  # every stage runs: claimed before planning, which hashes the code
            claim.take(list(slugs))
        plans = [plan(root, s, regenerate, asked) for s in slugs]
        filecache.for_site(root).save()
        work = [p for p in plans if p.todo]
        if not work:
            return []
        claim.take([p.slug for p in work])
        if log and not quiet:
            for p in work:
                log(f"stages to run: {p.slug}: {', '.join(p.todo)}")
        executor = make_executor(jobs, scheduler)
        try:
            return run_plans(root, work, executor, Progress(quiet, stream))
        finally:
            executor.close()
