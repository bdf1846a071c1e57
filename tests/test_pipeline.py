"""The stage cache, atomic writes and the progress display, on a tiny stand-in puzzle."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from site_builder import pipeline
from site_builder.build import write_tree
from site_builder.errors import UserError
from solvers import registry
from solvers.common import PlaySpec, Puzzle, RuleBook, Stage

CALLS: list[str] = []


def _bank(inputs: Any, params: Any, progress: Any) -> dict[str, Any]:
    CALLS.append("bank")
    for i in range(params["n"]):
        progress(i + 1, params["n"], "boards")
    return {"boards": list(range(params["n"]))}


def _stats(inputs: Any, params: Any, progress: Any) -> dict[str, Any]:
    CALLS.append("stats")
    if params.get("fail"):
        raise RuntimeError("stage failed")
    return {"total": sum(inputs["bank"]["boards"])}


def make_puzzle(pkg: Path, n: int = 3, fail: bool = False) -> Puzzle:
    pkg.mkdir(exist_ok=True)
    (pkg / "code.py").write_text("SIZE = 1  # stand-in\n")
    return Puzzle(slug="toy", names={"en": "Toy", "ja": "トイ"}, pid="toy", package_dir=pkg,
                  rungs=("a",), rung_names={}, rules=RuleBook(()), board_from_json=None,
                  answer_from_json=None, decode=None, encode=None, violations=None, solve=None,
                  brute=None, answer_rows=None, render_board=None, draw_board=None,
                  generate=None, trace=None, play=PlaySpec("cells", {}, {}),
                  stages=(Stage("bank", _bank, {"n": n}),
                          Stage("stats", _stats, {"fail": fail}, ("bank",))))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    holder: dict[str, Puzzle] = {}
    monkeypatch.setattr(registry, "get", lambda slug: holder[slug])
    CALLS.clear()

    def install(**kw: Any) -> Puzzle:
        holder["toy"] = make_puzzle(tmp_path / "pkg", **kw)
        return holder["toy"]
    return install


def test_cache_skips_current_stages_and_reruns_dependents(toy: Any, tmp_path: Path) -> None:
    root = tmp_path / "root"
    toy()
    assert pipeline.run_all(root, ["toy"], jobs=1, quiet=True) == ["toy/bank", "toy/stats"]
    first = (root / "content/toy/stats.json").read_bytes()
    assert pipeline.run_all(root, ["toy"], jobs=1, quiet=True) == []
    toy(n=4)  # a parameter change makes bank stale, and stats with it
    assert pipeline.run_all(root, ["toy"], jobs=1, quiet=True) == ["toy/bank", "toy/stats"]
    toy(n=3)
    assert pipeline.run_all(root, ["toy"], jobs=1, quiet=True, regenerate=True) == \
        ["toy/bank", "toy/stats"]
    assert (root / "content/toy/stats.json").read_bytes() == first  # byte-identical
    doc = json.loads(first)
    assert doc["schema"] == 1 and doc["slug"] == "toy" and doc["stage"] == "stats"
    assert set(doc["producer"]) == {"code", "params", "inputs", "key"}


def test_code_change_makes_stages_stale(toy: Any, tmp_path: Path) -> None:
    root = tmp_path / "root"
    p = toy()
    pipeline.run_all(root, ["toy"], jobs=1, quiet=True)
    (p.package_dir / "code.py").write_text('"""Now documented."""\n\nSIZE = 1  # same code\n')
    assert pipeline.plan(root, "toy").todo == []       # a docstring and a comment only
    (p.package_dir / "code.py").write_text("SIZE = 2\n")
    assert pipeline.plan(root, "toy").todo == ["bank", "stats"]


def test_code_text_is_the_code_without_docstrings_or_comments(tmp_path: Path) -> None:
    from solvers.common import code_text

    f = tmp_path / "m.py"
    f.write_text('"""Module."""\nclass A:\n    """A."""\n    def f(self):\n'
                 '        """f."""\n        return 1  # one\n')
    plain = code_text(f)
    assert "Module" not in plain and '"""' not in plain and "one" not in plain
    f.write_text("class A:\n\n    def f(self):\n        return 1\n")
    assert code_text(f) == plain
    f.write_text("class A:\n    def f(self):\n        return 2\n")
    assert code_text(f) != plain


def test_code_hash_follows_the_shared_modules_a_puzzle_imports(tmp_path: Path) -> None:
    """A puzzle's hash covers the shared modules its files import (lazily or not, and
    through other shared modules), and no others: Sashigane, which has no confirm stage,
    does not restale when ``confirm`` changes."""
    from solvers.common import shared_imports

    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("def f():\n    from solvers.confirm import confirm_one\n")
    names = [p.name for p in shared_imports([pkg / "a.py"])]
    assert "confirm.py" in names and "common.py" in names  # confirm imports common
    assert "bitconn.py" not in names and "svg.py" not in names and "registry.py" not in names
    sash = list(registry.get("sashigane").package_dir.rglob("*.py"))
    assert "confirm.py" not in [p.name for p in shared_imports(sash)]
    assert "confirm.py" in [p.name for p in shared_imports(
        list(registry.get("sukoro").package_dir.rglob("*.py")))]


def test_failed_stage_writes_nothing(toy: Any, tmp_path: Path) -> None:
    root = tmp_path / "root"
    toy(fail=True)
    with pytest.raises(UserError, match="puzzle plugin 'toy': stage 'stats' failed: "
                                        "RuntimeError: stage failed"):
        pipeline.run_all(root, ["toy"], jobs=1, quiet=True)
    assert sorted(p.name for p in (root / "content/toy").iterdir()) == ["bank.json"]


def test_dotted_key_is_refused_and_nothing_written(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    bad = make_puzzle(tmp_path / "pkg")
    bad = Puzzle(**{**bad.__dict__, "stages": (
        Stage("bank", lambda i, p, g: {"sizes": {"8.8": 1}}, {}),)})
    monkeypatch.setattr(registry, "get", lambda slug: bad)
    with pytest.raises(UserError, match=r"'sizes\.8\.8'"):
        pipeline.run_all(root, ["toy"], jobs=1, quiet=True)
    assert not (root / "content/toy/bank.json").exists()


def test_corrupt_stage_file_is_a_user_error(toy: Any, tmp_path: Path) -> None:
    root = tmp_path / "root"
    toy()
    pipeline.run_all(root, ["toy"], jobs=1, quiet=True)
    (root / "content/toy/bank.json").write_text("{not json")
    with pytest.raises(UserError, match=r"bank.json: corrupt JSON at line 1 column 2"):
        pipeline.plan(root, "toy")
    assert pipeline.plan(root, "toy", regenerate=True).todo == ["bank", "stats"]


def test_progress_shows_chunks_done_and_time_left(toy: Any, tmp_path: Path) -> None:
    out = io.StringIO()
    bar = pipeline.Progress(stream=out, live=True)      # as on a terminal
    bar.start("toy", "bank", 100)
    for _ in range(25):
        bar.advance("toy", "bank")
    bar.finish("toy", "bank")
    text = out.getvalue()
    assert "toy bank" in text and "25/100" in text
    assert "chunk/s" in text or "s/chunk" in text  # the rate; tqdm's [elapsed<left] too
    out = io.StringIO()
    toy()
    pipeline.run_all(tmp_path / "root", ["toy"], jobs=1, stream=out)
    # not a terminal (a log): one plain line as a stage starts and one as it ends
    lines = out.getvalue().splitlines()
    assert "  toy stats: 1 chunk" in lines and "\x1b" not in out.getvalue()
    assert any(line.startswith("  toy stats: done in ") for line in lines)


def test_jobs_and_processes_write_the_same_bytes(toy: Any, tmp_path: Path) -> None:
    toy()
    pipeline.run_all(tmp_path / "a", ["toy"], jobs=1, quiet=True)
    assert pipeline.run_all(tmp_path / "b", ["toy"], jobs=2, quiet=True) == \
        ["toy/bank", "toy/stats"]
    for name in ("bank", "stats"):
        assert (tmp_path / f"a/content/toy/{name}.json").read_bytes() == \
            (tmp_path / f"b/content/toy/{name}.json").read_bytes()


def test_write_tree_swaps_whole_folder(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    write_tree(out, {"a.html": "one", "sub/b.txt": b"two"})
    write_tree(out, {"a.html": "three"})
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == ["a.html"]

    class Boom(dict):
        def items(self):  # type: ignore[override]
            yield "ok.html", "x"
            raise OSError("disk full")
    # a write error is one line naming the folder and --out (issue 22), the old site kept
    with pytest.raises(UserError, match=r"cannot write the site there \(disk full\).*--out"):
        write_tree(out, Boom())
    assert (out / "a.html").read_text() == "three"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".dist")]
    shutil.rmtree(out)
