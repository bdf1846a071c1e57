"""Chunked stages give the same bytes on every executor, and survive a killed worker.

Each heavy stage of every registered puzzle runs on its quick parameters
(``Stage.small``, seconds of work in all; a stage that must and gives none fails), with
``--jobs 1``, with local processes and with a Dask LocalCluster of two workers; every
file written must be byte-identical. A second LocalCluster run kills one worker process
as soon as the first chunk comes back: Dask reruns what it held, and the bytes stay the
same.
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from site_builder import pipeline
from solvers import registry
from solvers.common import Puzzle, Stage

REAL_GET = registry.get
SLUGS = tuple(registry.slugs())
# The stages the executors must be run on: every chunked one, and these (the heavy
# stages, chunked or not). Each must give its quick parameters (``Stage.small``).
COVERED = ("bank", "stats", "ledger")


def needs_small(stage: Stage) -> bool:
    return stage.chunked or stage.name in COVERED


def shrunk(stage: Stage) -> Stage:
    """The stage on its quick parameters (``Stage.small`` merged over ``params``)."""
    return stage.replace(params={**stage.params, **stage.small})


def without_small(slug: str) -> list[str]:
    """The stages of ``slug`` this test must run that give no quick parameters."""
    real = REAL_GET(slug)
    return [f"{slug}/{s.name}" for s in (*real.stages, *real.on_request)
            if needs_small(s) and not s.small]


def small(slug: str) -> Puzzle:
    """The puzzle with only its stages that give quick parameters, on those; a stage that
    must give them and does not fails here, so it is never left out unseen."""
    missing = without_small(slug)
    assert not missing, f"no quick parameters (Stage.small in stages.py) for {missing}"
    puzzle = REAL_GET(slug)
    return puzzle.replace(stages=tuple(shrunk(s) for s in puzzle.stages if s.small))


def test_every_executed_stage_gives_quick_parameters() -> None:
    """Every chunked stage of every registered puzzle (and every bank, stats and ledger
    stage) says how to run it in seconds: a stage without is a failure, never a skip."""
    missing = [name for slug in SLUGS for name in without_small(slug)]
    assert not missing, f"give these stages small= in their stages.py: {missing}"


@pytest.fixture(scope="module")
def patched() -> Any:
    cache = {slug: small(slug) for slug in SLUGS}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "get", lambda slug: cache[slug])
        yield cache


@pytest.fixture
def profiles(patched: Any) -> list[str]:
    return list(SLUGS)


def ran_names(puzzles: dict[str, Puzzle], slugs: Any) -> list[str]:
    return [f"{slug}/{st.name}" for slug in slugs for st in puzzles[slug].stages]


def files(root: Path, slugs: list[str] | None = None) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted((root / "content").rglob("*.json"))
            if slugs is None or p.parent.name in slugs}


@pytest.fixture(scope="module")
def reference(patched: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every stage on its quick parameters, run in this process (``--jobs 1``): the bytes
    to match."""
    root = tmp_path_factory.mktemp("one")
    ran = pipeline.run_all(root, list(SLUGS), jobs=1, quiet=True)
    assert ran == ran_names(patched, SLUGS)
    return files(root)


def test_every_executor_writes_the_same_bytes(patched: dict[str, Puzzle], profiles: list[str],
                                              reference: dict[str, bytes],
                                              tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    assert len(reference) == len(ran_names(patched, SLUGS))
    pipeline.run_all(tmp_path / "procs", profiles, jobs=2, quiet=True)
    assert files(tmp_path / "procs") == reference
    pipeline.run_all(tmp_path / "dask", profiles, scheduler="local:2", quiet=True)
    assert files(tmp_path / "dask") == reference


class KillOnce(pipeline.Progress):
    """Kills one worker process of the cluster when the first chunk comes back."""

    def __init__(self, executor: pipeline.DaskCluster) -> None:
        super().__init__(quiet=True)
        self.executor, self.killed = executor, 0

    def advance(self, slug: str, stage: str) -> None:
        if not self.killed:
            pids = self.executor.client.run(os.getpid)
            victim = min(pids.values())
            os.kill(victim, signal.SIGKILL)
            self.killed = victim


def test_a_killed_worker_changes_nothing(patched: dict[str, Puzzle], profiles: list[str],
                                        reference: dict[str, bytes], tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    slugs = ["sashigane"]   # one puzzle is enough: its chunks outnumber the workers
    executor = pipeline.DaskCluster("local:2")
    try:
        plans = [pipeline.plan(tmp_path, s) for s in slugs]
        progress = KillOnce(executor)
        ran = pipeline.run_plans(tmp_path, plans, executor, progress)
    finally:
        executor.close()
    assert progress.killed and ran == ran_names(patched, slugs)
    assert files(tmp_path) == {k: v for k, v in reference.items()
                               if k.startswith("content/sashigane/")}


def test_scheduler_without_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_dask(name: str, *a: Any, **kw: Any) -> Any:
        if name.split(".")[0] in ("dask", "distributed"):
            raise ImportError(name)
        return real(name, *a, **kw)
    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(pipeline.UserError, match=r"pip install -e '\.\[dask\]'"):
        pipeline.make_executor(scheduler="local:2")


ON_REQUEST = [(slug, st.name) for slug in SLUGS for st in REAL_GET(slug).on_request]


@pytest.mark.parametrize(("slug", "name"), ON_REQUEST)
def test_on_request_stage_runs_only_when_asked(slug: str, name: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """An on-request stage runs only when named; named, it writes (on local processes)
    what the stage computes in this process, plus the record of how it was computed."""
    real = REAL_GET(slug)
    (extra,) = [st for st in real.on_request if st.name == name]
    assert extra.small, f"{slug}/{name}: no quick parameters (Stage.small)"
    extra = shrunk(extra)
    deps = tuple(shrunk(st) for st in real.stages if st.name in extra.deps)
    puzzle = real.replace(stages=deps, on_request=(extra,))
    monkeypatch.setattr(registry, "get", lambda _: puzzle)
    assert pipeline.run_all(tmp_path, [slug], jobs=1, quiet=True) == [
        f"{slug}/{st.name}" for st in deps]
    ran = pipeline.run_all(tmp_path, [slug], jobs=2, quiet=True, stages=[f"{slug}/{name}"])
    assert ran == [f"{slug}/{name}"]

    def data_of(stage: str) -> Any:
        return json.loads((tmp_path / f"content/{slug}/{stage}.json").read_text())["data"]

    data = data_of(name)
    inputs = {d: data_of(d) for d in extra.deps}
    computed = data.pop("computed")
    assert data == json.loads(json.dumps(extra.run(inputs, extra.params)))
    assert computed["executor"] == "processes"
    assert computed["chunks"] == len(extra.plan_chunks(inputs, extra.params))
    with pytest.raises(pipeline.UserError, match="no such stage"):
        pipeline.run_all(tmp_path, [slug], stages=[f"{slug}/nothing"])


def test_scheduler_address_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(pipeline, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(pipeline.UserError, match="local:N"):
        pipeline.make_executor(scheduler="local:none")
    with pytest.raises(pipeline.UserError, match="cannot reach"):
        pipeline.DaskCluster("tcp://127.0.0.1:9")


def test_build_options_parse() -> None:
    from site_builder.cli import _parser

    args = _parser().parse_args(["build", "--scheduler", "local:2", "--stage",
                                 "sashigane/survey_beyond", "--jobs", "3"])
    assert (args.scheduler, args.stage, args.jobs) == ("local:2", ["sashigane/survey_beyond"], 3)
