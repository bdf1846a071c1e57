"""Running each puzzle's stages with a content-hash cache, puzzles in parallel processes.

A stage's key is a hash of: the schema, the puzzle package's code hash, the stage's
parameters, and the keys of the stages it reads. ``content/<slug>/<stage>.json`` stores
that key in ``producer.key``; a stage whose stored key matches is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

from site_builder.errors import UserError
from site_builder.jsonio import SCHEMA, read_stage, stage_path, write_json
from solvers import registry
from solvers.common import Puzzle, Stage


def stage_key(puzzle: Puzzle, stage: Stage, input_keys: dict[str, str]) -> str:
    blob = json.dumps({"schema": SCHEMA, "code": puzzle.code_hash(), "stage": stage.name,
                       "params": stage.params, "inputs": input_keys}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def _stored_key(path: Path, slug: str, stage: str) -> str | None:
    """The key a stage file was written with; a corrupt file is an error, not a miss
    (``--regenerate`` rewrites it)."""
    if not path.exists():
        return None
    try:
        return read_stage(path, slug, stage)["producer"]["key"]
    except UserError as e:
        raise UserError(f"{e} (run with --regenerate to rewrite it)") from None


@dataclass
class Plan:
    """What a puzzle needs: for each stage, its key and whether it must run."""

    slug: str
    keys: dict[str, str] = field(default_factory=dict)
    todo: list[str] = field(default_factory=list)


def plan(root: Path, slug: str, regenerate: bool = False) -> Plan:
    """Decide which stages of ``slug`` are stale, in dependency order."""
    puzzle = registry.get(slug)
    p = Plan(slug)
    for stage in puzzle.stages:
        inputs = {d: p.keys[d] for d in stage.deps}
        key = stage_key(puzzle, stage, inputs)
        p.keys[stage.name] = key
        stale = any(d in p.todo for d in stage.deps)
        if regenerate or stale or _stored_key(stage_path(root, slug, stage.name), slug,
                                              stage.name) != key:
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


def run_stages(root: str, slug: str, todo: list[str], keys: dict[str, str],
               progress_q: Any = None) -> list[str]:
    """Run the stale stages of one puzzle (in a worker process). Returns the stages run."""
    root_p = Path(root)
    puzzle = registry.get(slug)
    data: dict[str, Any] = {}
    done: list[str] = []
    for stage in puzzle.stages:
        if stage.name not in todo:
            continue
        for dep in stage.deps:
            if dep not in data:
                data[dep] = read_stage(stage_path(root_p, slug, dep), slug, dep)["data"]
        start = time.monotonic()

        def progress(n: int, total: int, note: str = "", _s: str = stage.name,
                     _t: float = start) -> None:
            if progress_q is not None:
                progress_q.put((slug, _s, n, total, note, time.monotonic() - _t))

        progress(0, 0, "starting")
        result = stage.run({d: data[d] for d in stage.deps}, stage.params, progress)
        if (bad := dotted_key(result)) is not None:
            raise UserError(f"{slug} stage {stage.name} wrote the key {bad!r}; keys must not "
                            "contain '.' (pages name figures by dot-separated key paths)")
        doc = {"schema": SCHEMA, "slug": slug, "stage": stage.name,
               "producer": {"code": puzzle.code_hash(), "params": stage.params,
                            "inputs": {d: keys[d] for d in stage.deps},
                            "key": keys[stage.name]},
               "data": result}
        write_json(stage_path(root_p, slug, stage.name), doc)
        data[stage.name] = result
        done.append(f"{slug}/{stage.name}")
        if progress_q is not None:
            progress_q.put((slug, stage.name, -1, 0, "done", time.monotonic() - start))
    return done


class ProgressPrinter:
    """Reads progress tuples from a queue and prints one status line per stage."""

    def __init__(self, q: Any, stream: Any = None, quiet: bool = False) -> None:
        self.q = q
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.last: dict[tuple[str, str], float] = {}
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.thread.join()

    def _loop(self) -> None:
        while not self._stop.is_set() or not self.q.empty():
            try:
                item = self.q.get(timeout=0.2)
            except (queue.Empty, EOFError, OSError):
                continue
            self.show(*item)

    def show(self, slug: str, stage: str, n: int, total: int, note: str, elapsed: float) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        k = (slug, stage)
        if n == -1:
            self.stream.write(f"  {slug:<11} {stage:<7} done in {elapsed:6.1f}s\n")
        else:
            if n not in (0,) and now - self.last.get(k, 0.0) < 2.0:
                return
            self.last[k] = now
            if total > 0 and n > 0:
                left = elapsed * (total - n) / n
                eta = f"{int(left // 60)}:{int(left % 60):02d} left"
                where = f"{n}/{total} ({100 * n / total:4.1f}%)"
            else:
                eta, where = "", ""
            self.stream.write(f"  {slug:<11} {stage:<7} {where} {eta} {note}".rstrip() + "\n")
        self.stream.flush()


def run_all(root: Path, slugs: list[str], *, regenerate: bool = False, jobs: int | None = None,
            quiet: bool = False, log: Callable[[str], None] | None = None) -> list[str]:
    """Bring every listed puzzle's stages up to date. Returns the stages that ran."""
    plans = [plan(root, s, regenerate) for s in slugs]
    work = [p for p in plans if p.todo]
    if not work:
        return []
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(work)))
    if log and not quiet:
        for p in work:
            log(f"stages to run: {p.slug}: {', '.join(p.todo)}")
    ran: list[str] = []
    if jobs == 1:
        q: Any = queue.Queue()
        with ProgressPrinter(q, quiet=quiet):
            for p in work:
                ran += run_stages(str(root), p.slug, p.todo, p.keys, q)
        return ran
    import multiprocessing as mp

    with mp.Manager() as manager:
        q = manager.Queue()
        with ProgressPrinter(q, quiet=quiet), ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(run_stages, str(root), p.slug, p.todo, p.keys, q)
                       for p in work]
            for f in futures:
                ran += f.result()
    return ran
