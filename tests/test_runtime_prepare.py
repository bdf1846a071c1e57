"""Issue 47 item 7: the solve runtime's compression is done once, beside the runtime, by
``python -m site_builder.runtime`` (the fetch), not by each new site's first build."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from site_builder import runtime


def _fake_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small stand-in for the fetched runtime (the real one is 15 MB and its brotli
    takes a minute): the Pyodide files of the pinned version; no Node, so no bytecode."""
    version = runtime.pyodide_version()
    blob = os.urandom(2048) * 8   # compresses well, and is over the 4 KiB floor
    fake = {f"{runtime.OUT}/pyodide-{version}/{name}": blob[i:] + blob[:i]
            for i, name in enumerate(runtime.PYODIDE_FILES)}
    monkeypatch.setattr(runtime, "files", lambda root: dict(fake))

    def no_node(*args: object, **kw: object) -> tuple[bytes, bytes]:
        raise runtime.RuntimeMissing("no Node in this test")

    monkeypatch.setattr(runtime, "compiled", no_node)


def test_the_fetch_compresses_once_so_a_first_build_compresses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _fake_runtime(monkeypatch)
    monkeypatch.setattr(runtime, "HOME", tmp_path)
    assert runtime.main([]) == 0
    err = capsys.readouterr().err
    assert "compressed files ready in" in err, err
    kept = {p.name for p in (tmp_path / runtime.ZIP_CACHE).iterdir()}
    assert any(n.endswith(".br") for n in kept) and any(n.endswith(".gz") for n in kept)

    # a site's first build (site_files, from the same home) finds every compressed file
    # made already: it compresses nothing
    import brotli  # type: ignore[import-untyped, import-not-found, unused-ignore]

    def refuse(*args: object, **kw: object) -> bytes:
        raise AssertionError("compressed again at build time")

    monkeypatch.setattr(brotli, "compress", refuse)
    monkeypatch.setattr(gzip, "compress", refuse)
    out, cfg = runtime.site_files(tmp_path)
    assert cfg["available"]
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"):
        assert sum(1 for n in out if n.endswith(f"/{name}.br")) == 1, name
    assert sum(1 for n in out if "/python_stdlib-" in n and n.endswith(".zip.br")) == 1
