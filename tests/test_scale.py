"""Chunked stages give the same bytes on every executor, and survive a killed worker.

Each heavy stage runs on a small parameter profile (seconds of work in all), with
``--jobs 1``, with local processes and with a Dask LocalCluster of two workers; every
file written must be byte-identical. A second LocalCluster run kills one worker process
as soon as the first chunk comes back: Dask reruns what it held, and the bytes stay the
same.
"""

from __future__ import annotations

import os
import signal
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from site_builder import pipeline
from solvers import registry
from solvers.common import Puzzle

# stage name -> parameters merged over the real ones: seconds, not minutes
PROFILES: dict[str, dict[str, dict[str, Any]]] = {
    "sashigane": {
        "bank": {"sizes": {"6x6": 2, "8x8": 2}},
        "stats": {"survey": ["2x6", "3x4", "3x5", "4x4"], "spec_survey": ["2x6", "3x4"],
                  "shapes": ["3x4"], "conventions": {"6x6": 4, "8x8": 2}, "coin_masks": 2,
                  "ladder_cap": 2000,
                  "ablation": {"seed": {"limit": 10, "cap": 500},
                               "standard": {"limit": 2, "cap": 200}}},
        "ledger": {"table": {"2": 6, "3": 4, "4": 6}, "beyond": ["3x5"],
                   "transpose_from": 12, "square_upto": 4},
    },
    "canal-view": {
        "bank": {"sizes": {"6x6": 3}},
        "stats": {"misread": {"boards": {"no2x2": 2, "broken": 2, "dryconnect": 2,
                                         "wholeline": 1}, "cap": 50, "node_cap": 2000},
                  "dial": {"6x6": {"draws": 3, "keep": [12, 8]}},
                  "trapdoor": {"size": "6x6", "draws": 3},
                  "scatter": {"size": "6x6", "draws": 3, "clues": 7, "small_max": 5,
                              "node_cap": 500},
                  "bank_spread": {"sizes": {"6x6": {"boards": 3, "seeds": 2}}}},
        "ledger": {"poly_n": [5, 6], "poly_beyond": [], "grids": ["3x3"], "grids_beyond": [],
                   "engines": {"size": "5x5", "boards": 2, "seed": 66, "cap": 100}},
    },
    "nanro": {
        "bank": {"sizes": ["6x6"], "per_grade": 1},
        "stats": {"halves": {"sizes": {"5x5": 3}, "qs": [1.0, 0.8]},
                  "budget": {"sizes": ["5x5"], "boards": 2},
                  "increments": [{"size": "6x6", "q": 0.9, "boards": 3}],
                  "ablation": [{"size": "6x6", "q": 0.9, "boards": 3}],
                  "dial": {"size": "6x6", "q": 0.9, "boards": 2, "ranges": [[1, 2], [2, 4]]},
                  "section_a": {"sizes": ["5x5"], "qs": [0.8], "boards": 4, "brute_cap": 5000,
                                "brute_cells": 25, "exception_cap": 20000}},
        "ledger": {"grids": [[2, 2], [2, 3]]},
    },
}


def small(slug: str) -> Puzzle:
    """The puzzle with only its profiled stages, on their small parameters."""
    puzzle = REAL_GET(slug)
    prof = PROFILES[slug]
    stages = tuple(replace(s, params={**s.params, **prof[s.name]})
                   for s in puzzle.stages if s.name in prof)
    return replace(puzzle, stages=stages)


REAL_GET = registry.get


@pytest.fixture(scope="module")
def patched() -> Any:
    cache = {slug: small(slug) for slug in PROFILES}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(registry, "get", lambda slug: cache[slug])
        yield


@pytest.fixture
def profiles(patched: Any) -> list[str]:
    return list(PROFILES)


def files(root: Path, slugs: list[str] | None = None) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted((root / "content").rglob("*.json"))
            if slugs is None or p.parent.name in slugs}


@pytest.fixture(scope="module")
def reference(patched: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """Every profiled stage run in this process (``--jobs 1``): the bytes to match."""
    root = tmp_path_factory.mktemp("one")
    ran = pipeline.run_all(root, list(PROFILES), jobs=1, quiet=True)
    assert ran == [f"{s}/{st}" for s in PROFILES for st in PROFILES[s]]
    return files(root)


def test_every_executor_writes_the_same_bytes(profiles: list[str], reference: dict[str, bytes],
                                              tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    assert len(reference) == sum(len(v) for v in PROFILES.values())
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


def test_a_killed_worker_changes_nothing(profiles: list[str], reference: dict[str, bytes],
                                        tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    slugs = ["sashigane"]
    executor = pipeline.DaskCluster("local:2")
    try:
        plans = [pipeline.plan(tmp_path, s) for s in slugs]
        progress = KillOnce(executor)
        ran = pipeline.run_plans(tmp_path, plans, executor, progress)
    finally:
        executor.close()
    assert progress.killed and ran == [f"sashigane/{st}" for st in PROFILES["sashigane"]]
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


def test_on_request_stage_runs_only_when_asked(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from solvers.sashigane.survey import survey

    real = REAL_GET("sashigane")
    (extra,) = real.on_request
    extra = replace(extra, params={**extra.params, "sizes": ["3x5", "4x5"], "chunks": 5})
    puzzle = replace(real, stages=(), on_request=(extra,))
    monkeypatch.setattr(registry, "get", lambda slug: puzzle)
    assert pipeline.run_all(tmp_path, ["sashigane"], jobs=1, quiet=True) == []
    ran = pipeline.run_all(tmp_path, ["sashigane"], jobs=2, quiet=True,
                           stages=["sashigane/survey_beyond"])
    assert ran == ["sashigane/survey_beyond"]
    import json
    data = json.loads((tmp_path / "content/sashigane/survey_beyond.json").read_text())["data"]
    for size in ("3x5", "4x5"):
        for kind, numbers in (("full", True), ("empty", False)):
            want = survey(*map(int, size.split("x")), numbers)
            want.pop("example", None)
            assert data[kind]["sizes"][size] == want
    assert data["computed"]["executor"] == "processes" and data["computed"]["chunks"] == 10
    with pytest.raises(pipeline.UserError, match="no such stage"):
        pipeline.run_all(tmp_path, ["sashigane"], stages=["sashigane/nothing"])


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
