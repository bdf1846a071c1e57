"""`build-site build`: bring the JSON up to date, render every page, swap dist/ in whole."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from site_builder import config, leftovers, links, pipeline, play, solve_page
from site_builder.boards import board_svg
from site_builder.buildinfo import BUILD_INFO, inputs_hash, manifest, source_state
from site_builder.errors import UserError
from site_builder.jsonio import dumps, read_json
from site_builder.site import Site
from site_builder.sources import static_files
from solvers import registry


@dataclass
class BuildReport:
    pages: int = 0
    files: int = 0
    seconds: float = 0.0
    stages_run: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # puzzles whose plugin is broken


def _readme_files(site: Site, p: Any) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {}
    table: dict[str, Any] = {}
    for lang, name in (("en", "README.md"), ("ja", "README.ja.md")):
        if lang not in site.langs:
            continue
        text, entries = site.text(f"{p.slug}/README.{lang}.md.j2", site.puzzle_ctx(p, lang))
        files[f"{p.slug}/{name}"] = text
        table[name] = entries
    files[f"{p.slug}/README.provenance.json"] = dumps(table)
    return files


def render_all(root: Path, base_url: str = "", slugs: list[str] | None = None) -> dict[str, str | bytes]:
    """Every file of the site, keyed by its path inside dist/."""
    site = Site(root, base_url, slugs)
    files: dict[str, str | bytes] = {}
    hooks = {lang: {p.slug: site.markdown_inline(f"{p.slug}/hook.{lang}.md.j2",
                                                 site.puzzle_ctx(p, lang))
                    for p in site.puzzles} for lang in site.langs}
    cards = [{"slug": p.slug, "names": dict(p.names),
              "board": board_svg(p, site.node(p.slug, "bank").boards[0], label=p.names["en"])}
             for p in site.puzzles]
    langs = site.langs
    files["index.html"] = site.render_page(
        "index.html.j2", lang=langs[0], path="index.html",
        title=" · ".join(site.config.title[lang] for lang in langs),
        alternates={**{lang: f"{lang}/index.html" for lang in langs}, "x-default": "index.html"},
        cards=cards, hooks=hooks, show_langs=langs)
    for lang in langs:
        files[f"{lang}/index.html"] = site.render_page(
            "index.html.j2", lang=lang, path=f"{lang}/index.html",
            title=site.config.title[lang], cards=cards, hooks=hooks, show_langs=(lang,))
        for p in site.puzzles:
            ctx = site.puzzle_ctx(p, lang)
            body = site.markdown(f"{p.slug}/article.{lang}.md.j2", ctx)
            files[f"{lang}/{p.slug}/index.html"] = site.render_page(
                "article.html.j2", lang=lang, path=f"{lang}/{p.slug}/index.html",
                title=p.names[lang], description=str(hooks[lang][p.slug].striptags()),
                body=body, **{k: v for k, v in ctx.items() if k != "lang"})
            readme = site.markdown(f"{p.slug}/README.{lang}.md.j2", ctx)
            files[f"{lang}/{p.slug}/readme/index.html"] = site.render_page(
                "article.html.j2", lang=lang, path=f"{lang}/{p.slug}/readme/index.html",
                title=f"{p.names[lang]} · README", description=str(hooks[lang][p.slug].striptags()),
                body=readme, **{k: v for k, v in ctx.items() if k != "lang"})
    for p in site.puzzles:
        files.update(_readme_files(site, p))
        files.update(_play_files(site, p))
    files.update(solve_page.all_files(site, root))  # the solve pages and their runtime
    # A host serves 404.html for any missing path, however deep, so its links and its
    # stylesheet are absolute: under --base-url, else from the host's root.
    root_url = site.base_url or "/"
    files["404.html"] = site.render_page("404.html.j2", lang="en", path="404.html",
                                         title="Page not found", alternates={},
                                         show_langs=langs,  # links only the site's languages
                                         link=lambda target: root_url + target)
    files.update(static_files(site.root, site.puzzles))
    # The sitemap protocol takes absolute URLs only, so without --base-url there is no
    # sitemap (build_site says so) and robots.txt names none.
    if has_sitemap(site.base_url):
        files["sitemap.xml"] = _sitemap(sorted(k for k in files if k.endswith(".html")
                                               and k != "404.html"), site.base_url)
    files["robots.txt"] = "User-agent: *\nAllow: /\n" + (
        f"Sitemap: {site.base_url}sitemap.xml\n" if has_sitemap(site.base_url) else "")
    return files


def _play_files(site: Site, p: Any) -> dict[str, str | bytes]:
    return play.play_files(site, p, site.data[f"{p.slug}/bank"])


def has_sitemap(base_url: str) -> bool:
    """Whether a site served from ``base_url`` gets a sitemap: only under an absolute
    http(s) URL, the only kind of address the sitemap protocol allows in <loc>."""
    return base_url.startswith(("http://", "https://"))


def _sitemap(pages: list[str], base: str) -> str:
    """The sitemap of ``pages`` (dist paths) under the absolute URL ``base``."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    for page in pages:
        loc = page.removesuffix("index.html")
        lines.append(f"  <url><loc>{escape(base + loc)}</loc></url>")
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"


def _cannot_write(out: Path, e: OSError) -> UserError:
    at = f" at {e.filename}" if e.filename and Path(e.filename) != out else ""
    return UserError(f"{out}: cannot write the site there ({e.strerror or e}{at}); build "
                     "elsewhere with --out DIR")


def check_writable(out: Path) -> None:
    """Fail before any stage runs when the site could not be written into ``out``'s
    folder: a read-only checkout, no permission, a file in the way."""
    out = out.resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        os.rmdir(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.probe-"))
    except OSError as e:
        raise _cannot_write(out, e) from None
    if out.exists() and not out.is_dir():
        raise UserError(f"{out}: a file is in the way of the site folder; build elsewhere "
                        "with --out DIR")


def check_out(root: Path, out: Path) -> None:
    """Refuse, before anything is read or written, an output folder that replacing whole
    would destroy what the build did not make: the site folder or a folder above it, the
    home or a root folder, a folder inside content/ or templates/ or the tool's own
    folders, or a folder that holds anything and no ``.build.json`` (the marker every
    build writes). Empty, absent and earlier builds' folders are taken."""
    out = out.resolve()
    site = root.resolve()

    def refuse(why: str) -> UserError:
        return UserError(f"--out {out}: {why}; nothing was written (give --out an empty or "
                         "new folder, or one an earlier build wrote)")

    if out == Path(out.anchor) or out == Path.home().resolve():
        raise refuse("refusing to replace a root or home folder with the site")
    if out == site or site.is_relative_to(out):
        raise refuse(f"this would replace the site folder {site} (and everything in it) "
                     "with the built site")
    from site_builder.buildinfo import input_paths

    loadable = [s for s in config.load(root).puzzles if s not in registry.problems()]
    for folder in input_paths(site, loadable):
        d = folder.resolve()
        if out.is_relative_to(d) or d.is_relative_to(out):
            raise refuse(f"it overlaps {d}, which the build reads")
    if out.is_dir() and not (out / BUILD_INFO).is_file():
        try:
            entries = sorted(e.name for e in out.iterdir())
        except OSError as e:
            raise _cannot_write(out, e) from None
        if entries:
            shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
            raise refuse(f"it holds {len(entries)} entries ({shown}) and no {BUILD_INFO}, "
                         "so no build made it, and the build replaces the folder whole")


def write_tree(out: Path, files: dict[str, str | bytes]) -> None:
    """Write ``files`` into a fresh sibling folder, then swap it in for ``out``. Such
    sibling folders that a killed build left (named for its process) are removed first."""
    out = out.resolve()
    for kind in ("tmp", "old"):
        leftovers.clean(out.parent, f".{out.name}.{kind}-")
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
        for rel_path, content in files.items():
            dest = tmp / rel_path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        if out.exists():
            os.replace(out, old)
        os.replace(tmp, out)
    except OSError as e:
        # a read-only checkout (EROFS), a folder without write permission (EACCES), a
        # file where a folder must be (ENOTDIR, EEXIST), a full disk: one line, and the
        # old site stays where it was
        raise _cannot_write(out, e) from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def build_info(root: Path, files: dict[str, str | bytes], base_url: str,
               slugs: list[str]) -> str:
    """The text of ``.build.json`` for ``files``: what the check compares the site with
    (inputs hash, the file list and each file's sha256) and the source state."""
    from site_builder.provenance import typed_table
    from site_builder.sources import shown_path

    return dumps({"inputs": inputs_hash(root, slugs), "base_url": base_url, "slugs": slugs,
                  "files": sorted(files), "manifest": manifest(files),
                  "source": source_state(root, slugs),
                  "typed": typed_table(lambda f: shown_path(root, f, f))})


def render_site(root: Path, out: Path, base_url: str = "", slugs: list[str] | None = None) -> int:
    """Render from the JSON as it is (no stages) and swap the result in. Returns pages."""
    check_out(root, out)
    site_slugs = list(slugs or config.load(root).puzzles)
    from site_builder.sources import check_links

    check_links(root, [registry.get(s) for s in site_slugs])
    from site_builder.provenance import reset_typed

    reset_typed()
    files = render_all(root, base_url, slugs)
    links.check(files, base_url.rstrip("/") + "/" if base_url else "")
    files[BUILD_INFO] = build_info(root, files, base_url, site_slugs)
    write_tree(out, files)
    return sum(1 for k in files if k.endswith(".html"))


def _site_slugs(out_root: Path, out: Path, only: list[str]) -> list[str]:
    """The puzzles a ``--only`` build renders: those of the site in ``out`` plus ``only``,
    in registry order. No site there: a UserError (a one-puzzle site would replace it)."""
    info_path = out / BUILD_INFO
    if not info_path.is_file():
        raise UserError(f"{out}: no site built here to render {', '.join(only)} into; run "
                        "`build-site build` once without --only (or give --out a folder "
                        "that holds a site)")
    info = read_json(info_path)
    have = info.get("slugs") if isinstance(info, dict) else None
    if not isinstance(have, list):
        raise UserError(f"{info_path}: key 'slugs' is missing or not a list; rebuild the "
                        "whole site without --only")
    shown = config.load(out_root).puzzles
    return [s for s in shown if s in set(only) | set(have)]


def build_site(root: Path, out: Path, *, only: list[str] | None = None, regenerate: bool = False,
               jobs: int | None = None, base_url: str = "", quiet: bool = False,
               scheduler: str | None = None, stages: list[str] | None = None) -> BuildReport:
    start = time.monotonic()

    def log(msg: str) -> None:
        print(msg, file=sys.stderr)

    # a puzzle plugin that cannot be loaded is named, and the others still build
    broken = {s: why for s, why in registry.problems().items()
              if s in config.load(root).puzzles}
    for why in broken.values():
        log(f"build-site: skipped: {why}")
    shown = [s for s in config.load(root).puzzles if s not in broken]
    for s in only or []:
        registry.get(s)  # raises a clear error for an unknown slug
        if s not in shown:
            raise UserError(f"--only {s}: the site does not show this puzzle (add it to "
                            f"puzzles in {root / config.SITE_FILE})")
    slugs = only or list(shown)
    check_out(root, out)
    check_writable(out)
    render_slugs = shown if broken else None
    if only:
        # --only narrows the stages that run, never the site: the named puzzles are
        # rendered into the existing one, beside every puzzle it already holds
        render_slugs = [s for s in _site_slugs(root, out, only) if s not in broken]

    ran = pipeline.run_all(root, slugs, regenerate=regenerate, jobs=jobs, scheduler=scheduler,
                           stages=stages, quiet=quiet, log=log)
    files_pages = render_site(root, out, base_url, render_slugs)
    if not has_sitemap(base_url) and not quiet:
        log("no sitemap.xml: the sitemap protocol needs absolute URLs; give --base-url "
            "https://... to write one")
    info = read_json(out / BUILD_INFO)
    return BuildReport(pages=files_pages, files=len(info["files"]),
                       seconds=time.monotonic() - start, stages_run=ran,
                       skipped=sorted(broken))
