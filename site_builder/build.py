"""`build-site build`: bring the JSON up to date, render every page, swap dist/ in whole."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import config, deps, leftovers, links, pipeline
from site_builder import incremental as inc
from site_builder.buildinfo import BUILD_INFO, README_NAMES, inputs_hash, source_state
from site_builder.errors import UserError
from site_builder.incremental import Files, Job, Outcome
from site_builder.jsonio import dumps, read_bytes, read_json
from solvers import registry

if TYPE_CHECKING:  # the renderer (Jinja, Markdown) loads only when a page must be made
    from markupsafe import Markup

    from site_builder.site import Site


@dataclass
class BuildReport:
    pages: int = 0
    files: int = 0
    seconds: float = 0.0
    stages_run: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # puzzles whose plugin is broken
    # a broken plugin whose pages the last build made: dist/ kept as it was; the pages of
    # that puzzle (dist paths) and why
    kept_pages: list[str] = field(default_factory=list)
    kept_why: str = ""
    outcome: Outcome = field(default_factory=Outcome)  # rendered, kept, removed


def _readme_files(site: Site, p: Any) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {}
    table: dict[str, Any] = {}
    for lang, name in README_NAMES.items():
        if lang not in site.langs:
            continue
        text, entries = site.text(f"{p.slug}/README.{lang}.md.j2", site.puzzle_ctx(p, lang))
        files[f"{p.slug}/{name}"] = text
        table[name] = entries
    files[f"{p.slug}/README.provenance.json"] = dumps(table)
    return files


def site_jobs(site: Site, values: dict[str, Any]) -> list[Job]:
    """The site as render jobs, in order (a job reads ``values`` of those before it):
    each page, each puzzle's README text and play files, the solve runtime and pages, the
    404 page, each static file. What one job shares with another (the index hooks, which
    are also the articles' descriptions; the index cards) is made once per build and
    counts as an input of every job that uses it."""
    from site_builder import play, solve_page
    from site_builder.boards import board_svg
    from site_builder.sources import static_candidates, static_sources

    langs = site.langs

    def hook(lang: str, p: Any) -> Markup:
        return deps.shared(("hook", lang, p.slug), lambda: site.markdown_inline(
            f"{p.slug}/hook.{lang}.md.j2", site.puzzle_ctx(p, lang)))

    def hooks() -> dict[str, dict[str, Markup]]:
        return {lang: {p.slug: hook(lang, p) for p in site.puzzles} for lang in langs}

    def cards() -> list[dict[str, Any]]:
        return deps.shared(("cards",), lambda: [
            {"slug": p.slug, "names": dict(p.names),
             "board": board_svg(p, site.node(p.slug, "bank").boards[0], label=p.names["en"])}
            for p in site.puzzles])

    def root_index() -> Files:
        return {"index.html": site.render_page(
            "index.html.j2", lang=langs[0], path="index.html",
            title=" · ".join(site.config.title[lang] for lang in langs),
            alternates={**{lang: f"{lang}/index.html" for lang in langs},
                        "x-default": "index.html"},
            cards=cards(), hooks=hooks(), show_langs=langs)}

    def lang_index(lang: str) -> Files:
        return {f"{lang}/index.html": site.render_page(
            "index.html.j2", lang=lang, path=f"{lang}/index.html",
            title=site.config.title[lang], cards=cards(), hooks=hooks(), show_langs=(lang,))}

    def article(lang: str, p: Any, kind: str) -> Files:
        ctx = site.puzzle_ctx(p, lang)
        if kind == "article":
            path, title = f"{lang}/{p.slug}/index.html", p.names[lang]
        else:
            path, title = f"{lang}/{p.slug}/readme/index.html", f"{p.names[lang]} · README"
        body = site.markdown(f"{p.slug}/{kind}.{lang}.md.j2", ctx)
        return {path: site.render_page(
            "article.html.j2", lang=lang, path=path, title=title,
            description=str(hook(lang, p).striptags()), body=body,
            **{k: v for k, v in ctx.items() if k != "lang"})}

    def play_job(p: Any) -> Files:
        bank = site.data[f"{p.slug}/bank"]
        deps.observe("v", f"{p.slug}/bank", bank)  # read raw, whole
        return play.play_files(site, p, bank)

    def runtime_job() -> tuple[Files, Any]:
        from site_builder import runtime

        # what was fetched is an input; .cache/pyc is not (its entries are keyed by what
        # they were compiled from, and other checkouts sharing the cache add to it)
        deps.record_file(str(runtime.HOME / runtime.CACHE) + os.sep)
        shared, cfg = runtime.site_files(runtime.HOME, tuple(p.slug for p in site.puzzles))
        return dict(shared), cfg

    def solve_job(p: Any) -> Files:
        cfg = values["runtime"]
        deps.record_value("runtime", deps.digest(cfg))
        return solve_page.solve_files(site, p, cfg)

    def not_found() -> Files:
        # A host serves 404.html for any missing path, however deep, so its links and its
        # stylesheet are absolute: under --base-url, else from the host's root.
        root_url = site.base_url or "/"
        return {"404.html": site.render_page("404.html.j2", lang=langs[0], path="404.html",
                                             title=site.ui(langs[0])["notfound"], alternates={},
                                             show_langs=langs,  # only the site's languages
                                             link=lambda target: root_url + target)}

    def static_job(dest: str, src: Path) -> Files:
        # the file that answered, and each place looked at before it (where a file is
        # missing now, so one created there later takes over: a negative input)
        for place in static_candidates(site.root, site.puzzles, dest):
            deps.record_file(str(place))
            if place == src:
                break
        deps.record_file(str(src))
        return {dest: read_bytes(src)}

    jobs = [Job("index", root_index)]
    for lang in langs:
        jobs.append(Job(f"index/{lang}", partial(lang_index, lang)))
        for p in site.puzzles:
            jobs.append(Job(f"article/{lang}/{p.slug}", partial(article, lang, p, "article")))
            jobs.append(Job(f"readme/{lang}/{p.slug}", partial(article, lang, p, "README")))
    for p in site.puzzles:
        jobs.append(Job(f"readme-text/{p.slug}", partial(_readme_files, site, p)))
        jobs.append(Job(f"play/{p.slug}", partial(play_job, p)))
    jobs.append(Job("runtime", runtime_job))
    jobs += [Job(f"solve/{p.slug}", partial(solve_job, p)) for p in site.puzzles]
    jobs.append(Job("404", not_found))
    jobs += [Job(f"static:{dest}", partial(static_job, dest, src))
             for dest, src in static_sources(site.root, site.puzzles).items()]
    return jobs


def finish_files(files: dict[str, Any], base_url: str) -> Files:
    """What follows from the list of pages: the sitemap (under an absolute base URL only)
    and robots.txt."""
    out: Files = {}
    # The sitemap protocol takes absolute URLs only, so without --base-url there is no
    # sitemap (build_site says so) and robots.txt names none.
    if has_sitemap(base_url):
        out["sitemap.xml"] = _sitemap(sorted(k for k in files if k.endswith(".html")
                                             and k != "404.html"), base_url)
    out["robots.txt"] = "User-agent: *\nAllow: /\n" + (
        f"Sitemap: {base_url}sitemap.xml\n" if has_sitemap(base_url) else "")
    return out


def run_job(job: Job) -> tuple[Files, Any, deps.Recorder]:
    with deps.recording() as rec:
        got = job.run()
    files, value = got if isinstance(got, tuple) else (got, None)
    return files, value, rec


def render_all(root: Path, base_url: str = "", slugs: list[str] | None = None) -> dict[str, str | bytes]:
    """Every file of the site, keyed by its path inside dist/ (every job run)."""
    from site_builder.site import Site

    site = Site(root, base_url, slugs)
    site.data.load_all()  # a fault in any JSON file is named before any page renders
    files: dict[str, str | bytes] = {}
    values: dict[str, Any] = {}
    deps.reset_shared()
    from site_builder.provenance import reset_typed

    reset_typed()
    try:
        for job in site_jobs(site, values):
            out, values[job.id], _ = run_job(job)
            files.update(out)
    finally:
        deps.reset_shared()
    files.update(finish_files(files, site.base_url))
    return files


def has_sitemap(base_url: str) -> bool:
    """Whether a site served from ``base_url`` gets a sitemap: only under an absolute
    http(s) URL, the only kind of address the sitemap protocol allows in <loc>."""
    return base_url.startswith(("http://", "https://"))


def _sitemap(pages: list[str], base: str) -> str:
    """The sitemap of ``pages`` (dist paths) under the absolute URL ``base``."""
    from xml.sax.saxutils import escape

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
    folders (``targets.tool_folders``), or a folder that holds anything and no trusted
    build manifest (``targets.check_target``). Empty, absent and earlier builds' folders
    are taken."""
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
    from site_builder import targets
    from site_builder.buildinfo import input_paths

    loadable = [s for s in config.load(root).puzzles if s not in registry.problems()]
    for folder in [*input_paths(site, loadable), *targets.tool_folders(site)]:
        d = folder.resolve()
        if out.is_relative_to(d) or d.is_relative_to(out):
            raise refuse(f"it overlaps {d}, which the build reads or the tool is made of")
    if out.is_dir():
        from site_builder.filecache import for_site

        try:
            targets.check_target(out, "--out", site, for_site(site).sha,
                                 tail=" (give --out an empty or new folder, or one an "
                                      "earlier build wrote)")
        except OSError as e:
            raise _cannot_write(out, e) from None


def _restore_swapped(out: Path) -> None:
    """A whole-folder swap (``write_tree``) killed between its two renames left no
    ``out`` and the old site as ``.NAME.old-PID``: put the old site back (all old)."""
    if out.exists():
        return
    prefix = f".{out.name}.old-"
    try:
        olds = sorted(p for p in out.parent.iterdir() if p.name.startswith(prefix)
                      and leftovers.owner_pid(p.name, prefix) is not None
                      and not leftovers.alive(leftovers.owner_pid(p.name, prefix) or 0))
    except OSError:
        return
    if olds:
        os.replace(olds[-1], out)


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


def render_site(root: Path, out: Path, base_url: str = "", slugs: list[str] | None = None) -> int:
    """Render from the JSON as it is (no stages) into ``out``. Returns pages."""
    return render_incremental(root, out, base_url, slugs).pages


def _build_info(root: Path, shas: dict[str, str], base_url: str, slugs: list[str],
                inputs: str, typed: dict[str, list[str]]) -> str:
    """The text of ``.build.json``: what the check compares the site with (inputs hash,
    the file list and each file's sha256: the manifest), the source state, and where
    digits typed in a template print."""
    return dumps({"inputs": inputs, "base_url": base_url, "slugs": slugs,
                  "files": sorted(shas), "manifest": dict(sorted(shas.items())),
                  "source": source_state(root, slugs), "typed": typed})


VOCABULARY = "the numerals | lit takes"


def _targets(page: str, html: str | bytes, base_url: str) -> list[str]:
    """The dist paths a page's references name (``links``), for the reference check."""
    text = html if isinstance(html, str) else html.decode("utf-8", "replace")
    return sorted({t for ref in links.references(text)
                   if (t := links.target(page, ref, base_url)) is not None})


def _job_typed(root: Path) -> dict[str, list[str]]:
    """The typed digits the job just run printed (``provenance.typed_table``, reset
    before each job), by digit run -> ``template:line``."""
    from site_builder.provenance import reset_typed, typed_table
    from site_builder.sources import shown_path

    table = typed_table(lambda f: shown_path(root, f, f))
    reset_typed()
    return table


def _typed(jobs: dict[str, Any]) -> dict[str, list[str]]:
    """Where typed digits printed across the site: the union of every job's own (a kept
    job's from its record), so an incremental build names exactly what a clean one does:
    a job re-rendered brings its new lines, and its old ones go with its old record."""
    merged: dict[str, set[str]] = {}
    for job in jobs.values():
        for run, wheres in (job.get("typed") or {}).items():
            merged.setdefault(run, set()).update(wheres)
    return {k: sorted(v) for k, v in sorted(merged.items())}


def render_incremental(root: Path, out: Path, base_url: str = "",
                       slugs: list[str] | None = None) -> Outcome:
    """Bring ``out`` up to date with the tree: re-run the render jobs whose recorded
    inputs changed (``site_builder/incremental.py``), write only the files whose bytes
    differ, remove the files no job makes any more. Without a usable record of the last
    build into ``out``, every job runs and the folder is swapped in whole."""
    out = out.resolve()
    check_out(root, out)
    site_slugs = list(slugs or config.load(root).puzzles)
    from site_builder.sources import check_links

    check_links(root, [registry.get(s) for s in site_slugs])
    cache = inc.for_site(root)
    rec_path = inc.record_path(root, out)
    with inc.locked(rec_path):
        outcome = _render_locked(root, out, base_url, slugs, site_slugs, cache, rec_path)
    cache.save()
    from site_builder import targets

    targets.remember(root, out)  # the folder is this tool's: repairable when spoilt
    return outcome


def _source_recorded(root: Path, out: Path, slugs: list[str]) -> bool:
    """Whether ``out``'s ``.build.json`` names the source state the tree is in now
    (computed on every build: a file added to a puzzle's package, which no job reads,
    makes the tree ``+dirty`` all the same, and the deploy message says so)."""
    try:
        info = read_json(out / BUILD_INFO)
    except UserError:
        return False
    return isinstance(info, dict) and info.get("source") == source_state(root, slugs)


def _outputs_intact(out: Path, jobs: dict[str, Any]) -> bool:
    return all(inc.stat_of(out / rel) == [size, mtime]
               for job in jobs.values() for rel, (_, size, mtime) in job["outputs"].items())


def clean_files(root: Path, base_url: str = "", slugs: list[str] | None = None) -> Files:
    """Every file a clean build of ``root`` into an empty folder writes, ``.build.json``
    included, rendered in memory: no record read or written, nothing written at all
    (``check --fresh`` compares dist/ with it)."""
    site_slugs = list(slugs or config.load(root).puzzles)
    from site_builder.sources import check_links

    check_links(root, [registry.get(s) for s in site_slugs])
    cache = inc.for_site(root)
    collected: Files = {}
    _render_locked(root, root / ".cache" / "fresh-check", base_url, slugs, site_slugs, cache,
                   root / ".cache" / "render" / "fresh-check.json", collect=collected)
    return collected


def _render_locked(root: Path, out: Path, base_url: str, slugs: list[str] | None,
                   site_slugs: list[str], cache: Any, rec_path: Path,
                   collect: Files | None = None) -> Outcome:
    """``collect``: render as a clean build does (no record used) and put every file
    there instead of writing anything."""
    started = time.time_ns()
    if collect is None:
        inc.finish_switch(out)  # a build killed after its commit point: finish its switch
        _restore_swapped(out)
    puzzles = [registry.get(s) for s in site_slugs]
    # (site_slugs is what Site renders: ``slugs`` or site.toml's list, so that --only,
    # which names the site's puzzles explicitly, does not count as a change of options)
    state = inc.build_state(root, cache, puzzles, {"base_url": base_url, "slugs": site_slugs})
    in_state = inc.inputs_state(root, cache, puzzles)
    record = None if collect is not None else inc.load_record(rec_path)
    info_stat = inc.stat_of(out / BUILD_INFO)
    usable = (record is not None and record.get("state") == state and info_stat is not None
              and record.get("info") == info_stat)
    if record is None:
        full_why = f"no record of an earlier build into {out.name}/"
    elif record.get("state") != state:
        full_why = "the options, site.toml or the code that renders changed"
    else:
        full_why = f"{out.name}/{BUILD_INFO} is not the one the last build wrote"
    from site_builder.stamp import git_files

    head = deps.digest([inc.stat_of(Path(f)) for f in git_files(root)])
    if usable and record is not None and record.get("inputs_state") == in_state \
            and record.get("head") == head \
            and all(inc.file_sha(cache, path) == sha
                    for path, sha in record.get("trees", {}).items()) \
            and _outputs_intact(out, record["jobs"]) \
            and _source_recorded(root, out, site_slugs):
        # nothing any job reads has changed and dist/ is as the last build left it
        kept = sum(len(j["outputs"]) for j in record["jobs"].values())
        pages = sum(1 for j in record["jobs"].values() for k in j["outputs"]
                    if k.endswith(".html"))
        return Outcome(kept=kept, files=kept, pages=pages, unchanged_inputs=True)

    from site_builder.site import Site

    old_jobs: dict[str, Any] = record["jobs"] if usable and record is not None else {}
    site = Site(root, base_url, slugs)
    inputs = inc.Inputs(root, cache, lambda name: _template_file(site, name),
                        lambda stage: site.data[stage])
    values: dict[str, Any] = {}
    # ``| lit`` takes only the rules' vocabulary, which the JSON's keys are part of: a
    # change to it may fail a page that did not change, so every job depends on it
    digests: dict[str, str] = {VOCABULARY: deps.digest(sorted(site.lit_vocabulary))}
    new_jobs: dict[str, Any] = {}
    fresh: dict[str, tuple[Files, str]] = {}  # job id -> (files, why)
    deps.reset_shared()
    from site_builder.provenance import reset_typed

    reset_typed()
    try:
        for job in site_jobs(site, values):
            old = old_jobs.get(job.id)
            why = "new" if old is None else None
            if old is not None:
                for rel, (_, size, mtime) in old["outputs"].items():
                    if inc.stat_of(out / rel) != [size, mtime]:
                        why = f"{rel} was changed or removed in {out.name}/"
                        break
                else:
                    why = inputs.why_stale(old, digests)
            if why is None and old is not None:
                new_jobs[job.id] = old
                values[job.id] = old.get("value")
                digests[job.id] = old.get("digest", "")
                continue
            files, value, rec = run_job(job)
            values[job.id] = value
            digests[job.id] = deps.digest(value)
            new_jobs[job.id] = _job_entry(root, cache, started, rec, files, value,
                                         digests[job.id])
            new_jobs[job.id]["typed"] = _job_typed(root)
            new_jobs[job.id]["values"][VOCABULARY] = digests[VOCABULARY]
            fresh[job.id] = (files, why or "new")
    finally:
        deps.reset_shared()

    outputs = {rel for j in new_jobs.values() for rel in j["outputs"]}
    tail = finish_files(dict.fromkeys(outputs), site.base_url)
    new_jobs["sitemap"] = {"outputs": {rel: [inc.sha_bytes(inc._bytes(c)), 0, 0]
                                       for rel, c in tail.items()}}
    old_tail = old_jobs.get("sitemap", {}).get("outputs", {})
    fresh["sitemap"] = ({rel: c for rel, c in tail.items()
                         if old_tail.get(rel, [None])[0] != new_jobs["sitemap"]["outputs"][rel][0]
                         or inc.stat_of(out / rel) != old_tail[rel][1:]},
                        "the list of pages changed")
    outputs |= set(tail)
    if usable and record is not None and record.get("inputs_state") == in_state:
        inputs_value = str(record["inputs_value"])
    else:
        inputs_value = inputs_hash(root, site_slugs)
    outcome = Outcome(full=not usable, why_full="" if usable else full_why)
    old_outputs = {rel: v for j in old_jobs.values() for rel, v in j["outputs"].items()}
    # every reference on every page names a file the build writes: the targets of the
    # pages rendered now from their new text, of the pages kept from the record (their
    # bytes are the recorded ones); on a fault, links.check names it from every page
    rendered = {rel: c for files, _ in fresh.values() for rel, c in files.items()}
    for job_id, job in new_jobs.items():
        if job_id in fresh or "links" not in job:
            job["links"] = {rel: _targets(rel, rendered[rel] if rel in rendered
                                          else read_bytes(out / rel), site.base_url)
                            for rel in job["outputs"] if rel.endswith(".html")}
    if any(t.startswith("../") or t not in outputs
           for job in new_jobs.values() for ts in job["links"].values() for t in ts):
        every: dict[str, str | bytes] = {
            rel: rendered[rel] if rel in rendered else
            read_bytes(out / rel) if rel.endswith(".html") else b"" for rel in outputs}
        links.check(every, site.base_url)
        raise UserError("a page links to a file the build does not write")  # unreachable
    writes: dict[str, bytes] = {}
    for job_id, (files, why) in fresh.items():
        for rel, content in files.items():
            data = inc._bytes(content)
            sha = inc.sha_bytes(data)
            new_jobs[job_id]["outputs"][rel][0] = sha
            before = old_outputs.get(rel)
            if usable and before is not None and before[0] == sha \
                    and inc.stat_of(out / rel) == before[1:]:
                outcome.unchanged += 1
                new_jobs[job_id]["outputs"][rel][1:] = before[1:]
                continue
            writes[rel] = data
            outcome.rendered.append((rel, why))
    removed = sorted(set(old_outputs) - outputs) if usable else []
    outcome.removed = removed
    outcome.files = len(outputs)
    outcome.pages = sum(1 for rel in outputs if rel.endswith(".html"))
    outcome.kept = len(outputs) - len(writes) - outcome.unchanged
    shas = {rel: row[0] for j in new_jobs.values() for rel, row in j["outputs"].items()}
    info = _build_info(root, shas, base_url, site_slugs, inputs_value, _typed(new_jobs))

    if not usable:
        # no record to trust: every file written into a fresh folder, swapped in whole
        everything: Files = {}
        for files, _ in fresh.values():
            everything.update(files)
        everything[BUILD_INFO] = info
        if collect is not None:
            collect.update(everything)
            return outcome
        rec_path.unlink(missing_ok=True)
        write_tree(out, everything)
        for job in new_jobs.values():
            for rel, row in job["outputs"].items():
                row[1:] = inc.stat_of(out / rel) or [0, 0]
        inc.save_record(rec_path, _record(state, in_state, head, inputs_value,
                                          inc.stat_of(out / BUILD_INFO), new_jobs))
        outcome.kept = 0
        return outcome
    # the changed files staged beside dist/, then switched in under a journal: a kill or
    # a full disk before the journal leaves dist/ and its record as they were (the next
    # build needs only the changed files' space again), after it the switch is finished
    # by whichever build comes next (incremental.finish_switch)
    staged = dict(writes)
    info_stat = inc.stat_of(out / BUILD_INFO)
    if info_stat is None or (out / BUILD_INFO).read_text(encoding="utf-8") != info:
        staged[BUILD_INFO] = info.encode("utf-8")
    try:
        stats = inc.stage_files(out, staged)
    except OSError as e:
        raise _cannot_write(out, e) from None
    for job in new_jobs.values():
        for rel, row in job["outputs"].items():
            if rel in stats:
                row[1:] = stats[rel]
            elif rel in old_outputs:
                row[1:] = old_outputs[rel][1:]  # left as it was on disk
    record = _record(state, in_state, head, inputs_value, stats.get(BUILD_INFO, info_stat),
                     new_jobs)
    if not staged and not removed:
        inc.save_record(rec_path, record)
        return outcome
    try:
        inc.commit_switch(out, sorted(staged), removed, rec_path, record)
    except OSError as e:
        raise _cannot_write(out, e) from None
    inc.finish_switch(out)
    return outcome


def _record(state: str, in_state: str, head: str, inputs_value: str,
            info: list[int] | None, jobs: dict[str, Any]) -> dict[str, Any]:
    """The render record of a build (``incremental.load_record`` reads it)."""
    return {"version": inc.VERSION, "state": state, "inputs_state": in_state, "head": head,
            "inputs_value": inputs_value, "info": info,
            "trees": {path: sha for j in jobs.values()
                      for path, sha in j.get("files", {}).items() if path.endswith(os.sep)},
            "jobs": jobs}


def _template_file(site: Site, name: str) -> str | None:
    """The file Jinja loads for ``name`` now (the search path: site, puzzle, theme)."""
    import jinja2

    try:
        return site.loader.get_source(site.html_env, name)[1]
    except jinja2.TemplateNotFound:
        return None


UNSURE = "changed during the build"  # never equal to a hash: the next build looks again
_MARGIN_NS = 50_000_000  # file timestamps run on a coarse clock, a few ms behind


def _job_entry(root: Path, cache: Any, started: int, rec: deps.Recorder, files: Files,
               value: Any, digest: str) -> dict[str, Any]:
    """A job's record: what it read (with each file's hash now) and what it wrote. A file
    modified after the build started is recorded as UNSURE: the render may have read it
    before the edit, so the next build must not take it as current."""
    from site_builder.jsonio import stage_path

    def sha(path: str) -> str | None:
        try:
            st = os.stat(path.rstrip(os.sep) or path)
        except OSError:
            return None if not path.endswith(os.sep) else inc.file_sha(cache, path)
        if st.st_mtime_ns >= started - _MARGIN_NS and not path.endswith(os.sep):
            return UNSURE
        return inc.file_sha(cache, path)

    json_deps = {}
    for stage, obs in inc.observations(rec).items():
        slug, _, name = stage.partition("/")
        json_deps[stage] = {"sha": sha(str(stage_path(root, slug, name))), "obs": obs}
    return {"templates": {n: [f, sha(f) if f else None] for n, f in sorted(rec.templates.items())},
            "files": {f: sha(f) for f in sorted(rec.files)},
            "values": dict(sorted(rec.values.items())),
            "json": json_deps, "value": value, "digest": digest,
            "outputs": {rel: [None, 0, 0] for rel in files}}


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
    lost = _last_pages(out, sorted(broken))
    if lost:
        # the last good site stays: rendering without the broken puzzle would delete its
        # pages (and change every page that lists it), so nothing in dist/ changes
        info = read_json(out / BUILD_INFO)
        manifest = info.get("manifest") if isinstance(info, dict) else None
        n = len(manifest) if isinstance(manifest, dict) else 0
        pages = sum(1 for k in (manifest or {}) if k.endswith(".html"))
        return BuildReport(pages=pages, files=n, seconds=time.monotonic() - start,
                           stages_run=ran, skipped=sorted(broken),
                           outcome=Outcome(kept=n, files=n, pages=pages),
                           kept_pages=lost,
                           kept_why="; ".join(broken[s] for s in sorted(broken)))
    outcome = render_incremental(root, out, base_url, render_slugs)
    tidy(out, log)
    if not has_sitemap(base_url) and not quiet:
        notice("no sitemap.xml: the sitemap protocol needs absolute URLs; give --base-url "
               "https://... to write one", log)
    return BuildReport(pages=outcome.pages, files=outcome.files,
                       seconds=time.monotonic() - start, stages_run=ran,
                       skipped=sorted(broken), outcome=outcome)


def _last_pages(out: Path, slugs: list[str]) -> list[str]:
    """The files of ``slugs`` (puzzles) that the last build into ``out`` wrote."""
    if not slugs or not (out / BUILD_INFO).is_file():
        return []
    try:
        info = read_json(out / BUILD_INFO)
    except UserError:
        return []
    had = info.get("slugs") if isinstance(info, dict) else None
    files = info.get("files") if isinstance(info, dict) else None
    if not isinstance(had, list) or not isinstance(files, list):
        return []
    gone = [s for s in slugs if s in had]
    return sorted(f for f in files if isinstance(f, str) and any(
        f.startswith(f"{s}/") or f"/{s}/" in f for s in gone))


def tidy(out: Path, log: Any) -> list[str]:
    """Remove from ``out`` the files its new manifest does not name (a file put there
    by hand: the check would fail on it and block a deploy), in one line saying so."""
    from site_builder import targets

    gone = targets.remove_strays(out.resolve())
    if gone:
        shown = ", ".join(gone[:5]) + (f" and {len(gone) - 5} more" if len(gone) > 5 else "")
        log(f"build-site: removed from {out.name}/ what no build wrote: {shown}")
    return gone


_NOTICES: set[str] = set()


def notice(text: str, log: Any) -> None:
    """A notice is said once per process (a preview rebuilds many times)."""
    if text not in _NOTICES:
        _NOTICES.add(text)
        log(text)
