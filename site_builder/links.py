"""Every internal link and asset reference on every page names a file the build writes.

A page's ``href``, ``src`` and ``srcset`` attributes are read; a reference with a scheme
(``https:``, ``mailto:``, ``data:``), a protocol-relative one (``//host``) or a bare
fragment (``#top``) points elsewhere and is left alone, except an absolute URL under the
site's own ``base_url``, which is the site's. What is left is resolved against the page
(or the host's root, for ``/...``), a trailing ``/`` meaning its ``index.html``, and must
be one of the files the build writes.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Iterator
from html import unescape
from urllib.parse import unquote, urlsplit

from site_builder.errors import UserError

_TAG = re.compile(r"<[A-Za-z][^>]*>")
_ATTR = re.compile(r"""\s(href|src|srcset)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""")
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>|<!--.*?-->", re.DOTALL)


def references(html: str) -> Iterator[str]:
    """The URL in every href, src and srcset attribute of a tag (not inside a script's
    text or a comment)."""
    scrubbed = _SCRIPT.sub(lambda m: m.group(0)[:m.group(0).find(">") + 1]
                           if m.group(0).startswith("<script") else "", html)
    for tag in _TAG.finditer(scrubbed):
        for m in _ATTR.finditer(tag.group(0)):
            value = unescape(m.group(2) if m.group(2) is not None
                             else m.group(3) if m.group(3) is not None else m.group(4))
            if m.group(1) == "srcset":
                yield from (part.split()[0] for part in value.split(",") if part.split())
            else:
                yield value


def target(page: str, ref: str, base_url: str = "") -> str | None:
    """The dist path ``ref`` on ``page`` names, or None when it points off the site."""
    ref = ref.strip()
    if base_url and ref.startswith(base_url):
        ref = "/" + ref[len(base_url):]
        base = ""
    else:
        base = urlsplit(base_url).path if base_url else ""
    parts = urlsplit(ref)
    if parts.scheme or parts.netloc or not parts.path:
        return None  # another site, a mail address, data:, or only a fragment or query
    path = unquote(parts.path)
    if path.startswith("/"):
        # from the host's root: under --base-url https://h/sub/ the site starts at /sub/
        prefix = base.rstrip("/") + "/" if base else "/"
        if not path.startswith(prefix):
            return None if base else path  # outside the site's folder on its host
        joined = path[len(prefix):]
    else:
        joined = posixpath.join(posixpath.dirname(page), path)
    if path.endswith("/") or joined in ("", "."):
        joined = posixpath.join(joined, "index.html")
    norm = posixpath.normpath(joined)
    return norm if norm != "." else "index.html"


def broken(files: Iterable[str], pages: dict[str, str], base_url: str = "") -> list[str]:
    """``page: reference`` lines for each reference that names no file in ``files``."""
    have = set(files)
    out = []
    for page, html in sorted(pages.items()):
        for ref in references(html):
            t = target(page, ref, base_url)
            if t is not None and (t.startswith("../") or t not in have):
                out.append(f"{page}: links to {ref!r}, and the build writes no {t}")
    return out


def check(files: dict[str, str | bytes], base_url: str = "") -> None:
    """A UserError naming the first page and reference that resolves to no file."""
    pages = {k: v if isinstance(v, str) else v.decode("utf-8", "replace")
             for k, v in files.items() if k.endswith(".html")}
    bad = broken(files, pages, base_url)
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise UserError(f"{bad[0]}{more}")
