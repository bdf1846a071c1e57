"""`serve` sends a precompressed ``.br`` or ``.gz`` file with its Content-Encoding when
the browser accepts it, as static hosts do (issue 51, item 7: the solve runtime went out
uncompressed, 19.3 MB cold, against 4.8 MB from a static host). The file handler of
``serve`` on a folder of its own, in a thread, asked over plain HTTP."""

from __future__ import annotations

import gzip
import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.serve import accepts, files_server, precompressed


def test_accept_encoding_is_read_with_its_weights():
    assert accepts("gzip, deflate, br", "br") and accepts("gzip, deflate, br", "gzip")
    assert not accepts("gzip, deflate", "br")
    assert not accepts("br;q=0, gzip", "br") and accepts("br;q=0.5", "br")
    assert not accepts("", "gzip")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[tuple[int, Path]]:

    out = tmp_path_factory.mktemp("dist")
    body = b"0123456789" * 2000
    (out / "static").mkdir()
    (out / "static" / "a.zip").write_bytes(body)
    (out / "static" / "a.zip.br").write_bytes(b"brotli bytes")
    (out / "static" / "a.zip.gz").write_bytes(gzip.compress(body, mtime=0))
    (out / "static" / "b.mjs").write_bytes(b"export {};")
    (out / "static" / "b.mjs.gz").write_bytes(gzip.compress(b"export {};", mtime=0))
    (out / "index.html").write_bytes(b"<html><head></head><body>page</body></html>")
    (out / "index.html.gz").write_bytes(b"never sent")
    with files_server(out, wait=10) as port:
        yield port, out


def _get(port: int, path: str, accept: str | None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        if accept is not None:
            conn.putheader("Accept-Encoding", accept)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_the_br_or_gz_sibling_goes_out_with_its_encoding(site):
    port, out = site
    status, h, body = _get(port, "/static/a.zip", "gzip, deflate, br")
    assert status == 200 and h["content-encoding"] == "br" and body == b"brotli bytes"
    assert h["content-type"] == "application/zip" and h["vary"] == "Accept-Encoding"
    status, h, body = _get(port, "/static/a.zip", "gzip, deflate")
    assert h["content-encoding"] == "gzip" and gzip.decompress(body) == b"0123456789" * 2000
    assert int(h["content-length"]) == (out / "static" / "a.zip.gz").stat().st_size
    status, h, body = _get(port, "/static/a.zip", None)
    assert "content-encoding" not in h and body == b"0123456789" * 2000
    # a module script keeps its JavaScript type under gzip
    _, h, _ = _get(port, "/static/b.mjs", "gzip")
    assert h["content-encoding"] == "gzip" and h["content-type"].startswith("text/javascript")
    # a page is never swapped (the live reload rewrites it), nor a file without a sibling
    _, h, body = _get(port, "/", "gzip, br")
    assert "content-encoding" not in h and b"page" in body
    assert precompressed(str(out / "static" / "b.mjs"), "br") is None
