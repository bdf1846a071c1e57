"""Incremental builds equal clean builds: random edit sequences on a copy of the project.

Each sequence applies a few random edits, chosen among the kinds an author makes (an
article, the layout, a partial, the stylesheet, a play module, a JSON value, a file added,
a file removed, a solver module) and the places lookups look (issue 47: a file created,
removed or renamed at each layer of the search path: the site's static overrides of the
stylesheet and of a play module, a puzzle's static files and templates, the partials an
``ignore missing`` include and an include list name, a content file; the right side of
a comparison of two JSON values), builds incrementally into ``dist/`` (some builds killed
at a random step of their write phase, ``BUILD_SITE_FAULT``), then builds the same tree
clean (no record, no caches: ``.cache/`` moved aside) into ``dist-clean/`` and compares
the two folders byte for byte. Builds run as ``build-site`` processes with the copy first
on ``PYTHONPATH``, so the edits to the theme and the solvers are the copy's.
``INCREMENTAL_SEQUENCES`` (default 5) sets how many sequences run; the seeds are fixed.
The same edits are also made while ``build-site serve`` runs on a copy (the server killed
at a random step of a write phase, then restarted): ``INCREMENTAL_SERVE_SEQUENCES``
(default 2).

Besides: the record says what was kept (an edit that touches no page renders none of
them, mtimes and all), a corrupt cache is ignored with one line, the code-hash cache gives
``Puzzle.code_hash()`` for every puzzle, and ``check`` still catches a site older than a
partial template it uses.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from site_builder import codehash
from site_builder.filecache import FileCache
from solvers import registry

REPO = Path(__file__).resolve().parents[1]
SLUGS = ["nanro", "sukoro"]  # two puzzles keep each clean build short
SEQUENCES = int(os.environ.get("INCREMENTAL_SEQUENCES", "5"))
EDITS_PER_SEQUENCE = 4


def copy_project(dest: Path) -> Path:
    shutil.copytree(REPO, dest, ignore=shutil.ignore_patterns(
        ".git", ".venv", "dist", "dist.*", "dist-*", "__pycache__", "*.egg-info",
        ".pytest_cache", ".ruff_cache", "node_modules", ".cache", "benchmarks", "tests",
        "docs", "plugins"))
    toml = dest / "site.toml"
    toml.write_text(re.sub(r"^puzzles = .*$", f"puzzles = {json.dumps(SLUGS)}",
                           toml.read_text(encoding="utf-8"), flags=re.MULTILINE), encoding="utf-8")
    return dest


def build(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PYTHONPATH"] = str(project)
    r = subprocess.run([sys.executable, "-m", "site_builder.cli", "build", "--quiet",
                        "--jobs", "1", *args], cwd=project, env=env, capture_output=True,
                       text=True, timeout=900, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def tree(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file()}


def clean_build(project: Path) -> dict[str, bytes]:
    """The same tree built from nothing: no record, no file-hash or template cache."""
    cache, aside = project / ".cache", project / ".cache-aside"
    out = project / "dist-clean"
    shutil.rmtree(out, ignore_errors=True)
    if cache.exists():
        cache.rename(aside)
    try:
        build(project, "--out", "dist-clean")
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        if aside.exists():
            aside.rename(cache)
    files = tree(out)
    shutil.rmtree(out)
    return files


# ------------------------------------------------------------------ the edits


class Edits:
    """The edit kinds, each a random change of one file of the copy."""

    def __init__(self, project: Path, rng: random.Random) -> None:
        self.p, self.rng = project, rng
        self.added: list[Path] = []

    def word(self) -> str:
        return "".join(self.rng.choice("abcdefghij") for _ in range(self.rng.randint(3, 9)))

    def _append(self, rel: str, text: str) -> str:
        f = self.p / rel
        f.write_text(f.read_text(encoding="utf-8") + text, encoding="utf-8")
        return rel

    def article(self) -> str:
        slug = self.rng.choice(SLUGS).replace("-", "_")
        lang = self.rng.choice(["en", "ja"])
        return self._append(f"solvers/{slug}/templates/article.{lang}.md.j2",
                            f"\nAn edited sentence {self.word()}.\n")

    def layout(self) -> str:
        f = self.p / "site_builder/theme/layout.html.j2"
        text = f.read_text(encoding="utf-8")
        f.write_text(text.replace("</body>", f"<!-- {self.word()} --></body>", 1),
                     encoding="utf-8")
        return "layout"

    def partial(self) -> str:
        return self._append("site_builder/theme/shared/article.md.j2",
                            f"{{# {self.word()} #}}\n" if self.rng.random() < 0.5
                            else f"{{% macro m_{self.word()}() %}}x{{% endmacro %}}\n")

    def stylesheet(self) -> str:
        return self._append("site_builder/theme/static/site.css",
                            f"\n.e-{self.word()} {{ color: red; }}\n")

    def play_module(self) -> str:
        slug = self.rng.choice(SLUGS)
        pkg = slug.replace("-", "_")
        return self._append(f"solvers/{pkg}/static/play/{slug}.js", f"\n// {self.word()}\n")

    def json_value(self) -> str:
        slug = self.rng.choice(SLUGS)
        path = self.p / "content" / slug / "stats.json"
        doc = json.loads(path.read_text(encoding="utf-8"))
        leaves: list[tuple[Any, Any]] = []

        def walk(node: Any) -> None:
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for k, v in items:
                if isinstance(v, bool) or k in ("example", "board", "answer"):
                    continue  # a board's cells edited make no board: not an author's edit
                if isinstance(v, (int, float)):
                    leaves.append((node, k))
                elif isinstance(v, (dict, list)):
                    walk(v)

        walk(doc["data"])
        node, k = self.rng.choice(leaves)
        v = node[k]
        node[k] = v + self.rng.randint(1, 9) if isinstance(v, int) \
            else round(v * 1.01 + 0.001, 6)
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                        encoding="utf-8")
        return f"{slug}/stats.json"

    def file_added(self) -> str:
        kind = self.rng.choice(["static", "override"])
        if kind == "static":
            f = self.p / "templates" / "static" / f"extra-{self.word()}.txt"
            text = self.word() + "\n"
        else:  # a site override of the theme's 404 page, or of a puzzle's hook
            name = self.rng.choice(["404.html.j2", f"{SLUGS[0]}/hook.en.md.j2"])
            f = self.p / "templates" / name
            if f.exists():
                return self.file_removed()
            src = self.p / "site_builder" / "theme" / name if "/" not in name else \
                self.p / "solvers" / SLUGS[0].replace("-", "_") / "templates" / "hook.en.md.j2"
            text = src.read_text(encoding="utf-8") + f"{{# {self.word()} #}}\nOverride.\n"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text, encoding="utf-8")
        self.added.append(f)
        return f"added {f.relative_to(self.p)}"

    def file_removed(self) -> str:
        if not self.added:
            return self.file_added()
        f = self.added.pop(self.rng.randrange(len(self.added)))
        f.unlink()
        return f"removed {f.relative_to(self.p)}"

    def solver_module(self) -> str:
        slug = self.rng.choice(SLUGS).replace("-", "_")
        # a comment: the code hash (and so every stage) stays, solvers.zip changes
        mod = self.rng.choice(["ladder.py", "presentation.py", "rules.py"])
        return self._append(f"solvers/{slug}/{mod}", f"\n# {self.word()}\n")

    # -- the lookups' places (issue 47 item 1): a file created, removed or renamed at
    # each layer of the search path, an optional include, a comparison's right side

    def _toggle(self, f: Path, make: Callable[[], str]) -> str:
        """Create ``f`` (text from ``make``), or when it is there remove it or rename it
        away (to a name that is a new file of the same folder)."""
        if not f.exists():
            f.parent.mkdir(parents=True, exist_ok=True)
            f.write_text(make(), encoding="utf-8")
            return f"created {f.relative_to(self.p)}"
        if self.rng.random() < 0.5:
            f.unlink()
            return f"removed {f.relative_to(self.p)}"
        to = f.with_name(f"renamed-{self.word()}{f.suffix}")
        f.rename(to)
        self.added.append(to)
        return f"renamed {f.relative_to(self.p)} to {to.name}"

    def static_override(self) -> str:
        """The site's templates/static/ over the theme's stylesheet or a puzzle's play
        module."""
        slug = self.rng.choice(SLUGS)
        rel = self.rng.choice(["site.css", f"play/{slug}.js"])
        src = (self.p / "site_builder/theme/static/site.css" if rel == "site.css"
               else self.p / "solvers" / slug.replace("-", "_") / "static" / rel)
        return self._toggle(self.p / "templates" / "static" / rel,
                            lambda: src.read_text(encoding="utf-8") + f"\n/* {self.word()} */\n")

    def puzzle_file(self) -> str:
        """A file in a puzzle package's static/ (a new play asset) or templates/ (the
        optional partial a site article includes, looked up in the site first)."""
        slug = self.rng.choice(SLUGS)
        pkg = self.p / "solvers" / slug.replace("-", "_")
        f = self.rng.choice([pkg / "static" / "play" / f"extra-{slug}.txt",
                             pkg / "templates" / "opt.md.j2"])
        return self._toggle(f, lambda: f"A puzzle's file {self.word()}.\n")

    def optional_include(self) -> str:
        """The partial an ``ignore missing`` include and an include list name."""
        f = self.p / "templates" / "partials" / self.rng.choice(["opt.md.j2", "first.md.j2"])
        return self._toggle(f, lambda: f"Optional text {self.word()}.\n")

    def content_file(self) -> str:
        """A content file beside the stages (its keys' numerals are ``| lit``'s
        vocabulary, so every page depends on it)."""
        slug = self.rng.choice(SLUGS)
        f = self.p / "content" / slug / "notes.json"
        return self._toggle(f, lambda: json.dumps(
            {"data": {f"size {self.rng.randint(2, 30)}x5": self.word()}}) + "\n")

    def compared_value(self) -> str:
        """The right side of ``a == b`` in the site's article (``fuzz_setup``)."""
        path = self.p / "content" / "nanro" / "stats.json"
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["data"]["fuzz_b"] = self.rng.choice([1, 2])
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                        encoding="utf-8")
        return f"fuzz_b={doc['data']['fuzz_b']}"

    KINDS = ("article", "layout", "partial", "stylesheet", "play_module", "json_value",
             "file_added", "file_removed", "solver_module", "static_override",
             "puzzle_file", "optional_include", "content_file", "compared_value")

    def random(self) -> tuple[str, str]:
        kind = self.rng.choice(self.KINDS)
        edit: Callable[[], str] = getattr(self, kind)
        return kind, edit()


def fuzz_setup(project: Path) -> None:
    """A site article that looks things up: an optional partial (``ignore missing``),
    an include list whose first name is missing at first, a puzzle's own partial looked
    up after the site's, and a comparison of two JSON values (``fuzz_a`` and ``fuzz_b``
    in nanro's stats). Idempotent."""
    art = project / "templates" / "nanro" / "article.ja.md.j2"
    if art.exists():
        return
    src = project / "solvers" / "nanro" / "templates" / "article.ja.md.j2"
    partials = project / "templates" / "partials"
    partials.mkdir(parents=True, exist_ok=True)
    (partials / "second.md.j2").write_text("Second.\n", encoding="utf-8")
    stats = project / "content" / "nanro" / "stats.json"
    doc = json.loads(stats.read_text(encoding="utf-8"))
    doc["data"].update(fuzz_a=1, fuzz_b=2)
    stats.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                     encoding="utf-8")
    art.parent.mkdir(parents=True, exist_ok=True)
    art.write_text(src.read_text(encoding="utf-8")
                   + '\n{% include "partials/opt.md.j2" ignore missing %}\n'
                   + '{% include ["partials/first.md.j2", "partials/second.md.j2"] %}\n'
                   + '{% include ["nanro/opt.md.j2", "partials/second.md.j2"] %}\n'
                   + "{% if stats.fuzz_a == stats.fuzz_b %}Alike.{% else %}Unlike.{% endif %}\n",
                   encoding="utf-8")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = copy_project(tmp_path_factory.mktemp("incremental") / "proj")
    build(p)
    return p


def _compare(project: Path, incremental: dict[str, bytes], clean: dict[str, bytes],
             done: Any, out: str = "") -> None:
    missing = sorted(set(clean) - set(incremental))
    extra = sorted(set(incremental) - set(clean))
    differ = sorted(k for k in set(clean) & set(incremental) if clean[k] != incremental[k])
    assert not (missing or extra or differ), (done, missing[:5], extra[:5], differ[:5],
                                              out[-2000:])


@pytest.mark.parametrize("seed", range(SEQUENCES))
def test_incremental_dist_equals_a_clean_build(project: Path, seed: int) -> None:
    rng = random.Random(1000 + seed)
    fuzz_setup(project)
    edits = Edits(project, rng)
    done = []
    # three kinds chosen in turn (five sequences cover all fourteen), the rest at random
    forced = [Edits.KINDS[(3 * seed + i) % len(Edits.KINDS)] for i in range(3)]
    for i in range(EDITS_PER_SEQUENCE):
        if i < len(forced):
            done.append((forced[i], getattr(edits, forced[i])()))
        else:
            done.append(edits.random())
        roll = rng.random()
        if roll < 0.3:  # sometimes a build between edits, sometimes several at once
            build(project)
        elif roll < 0.6:  # a build killed at a random step of its write phase
            step = rng.randint(1, 60)
            r = _build_raw(project, fault=f"kill:{step}")
            assert r.returncode in (0, -9), r.stderr
            done.append(("killed", f"at step {step}" if r.returncode else "finished first"))
            _no_temp_inside(project / "dist")
    r = build(project, "--explain")
    assert "rendered" in r.stdout
    _no_temp_inside(project / "dist")
    _compare(project, tree(project / "dist"), clean_build(project), done, r.stdout)
    print(f"sequence {seed}: {[k for k, _ in done]}; {r.stdout.splitlines()[0]}")


def test_an_edit_no_page_reads_renders_nothing(project: Path) -> None:
    build(project)
    before = {p: p.stat().st_mtime_ns for p in (project / "dist").rglob("*") if p.is_file()}
    stats = project / "content" / "sukoro" / "stats.json"
    doc = json.loads(stats.read_text(encoding="utf-8"))
    doc["data"]["unread_by_any_page"] = 1
    stats.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                     encoding="utf-8")
    try:
        r = build(project, "--explain")
    finally:
        del doc["data"]["unread_by_any_page"]
        stats.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                         encoding="utf-8")
    assert "rendered 0," in r.stdout, r.stdout
    after = {p: p.stat().st_mtime_ns for p in (project / "dist").rglob("*") if p.is_file()}
    changed = sorted(str(p.relative_to(project)) for p in before if before[p] != after.get(p))
    assert changed == ["dist/.build.json"], changed  # its inputs hash names the new bytes
    r = build(project, "--explain")
    assert "rendered 0," in r.stdout


def test_a_one_puzzle_build_renders_only_what_its_new_json_changed(project: Path) -> None:
    """``--only sukoro`` (what ``--regenerate --only sukoro`` renders after its stages) is
    no change of options: a value the regeneration rewrites re-renders the pages that
    print it, nothing else."""
    build(project)
    r = build(project, "--only", "sukoro", "--explain")
    assert "rendered 0," in r.stdout, r.stdout
    stats = project / "content" / "sukoro" / "stats.json"
    good = stats.read_text(encoding="utf-8")
    doc = json.loads(good)
    key, value = next((k, v) for k, v in doc["data"].items()
                      if isinstance(v, int) and not isinstance(v, bool) and v > 1)
    doc["data"][key] = value + 1   # a figure the articles may print
    stats.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                     encoding="utf-8")
    try:
        r = build(project, "--only", "sukoro", "--explain")
    finally:
        stats.write_text(good, encoding="utf-8")
    rendered = [line.split()[1].rstrip(":") for line in r.stdout.splitlines()
                if line.startswith("  rendered ")]
    assert "every file" not in r.stdout, r.stdout
    assert rendered and all("/sukoro/" in "/" + path or path.endswith("index.html")
                            and path.count("/") <= 1 for path in rendered), rendered
    build(project)


def test_an_article_edit_renders_that_page_only(project: Path) -> None:
    build(project)
    art = project / "solvers" / "sukoro" / "templates" / "article.en.md.j2"
    good = art.read_text(encoding="utf-8")
    art.write_text(good + "\nOne more sentence.\n", encoding="utf-8")
    try:
        r = build(project, "--explain")
    finally:
        art.write_text(good, encoding="utf-8")
    rendered = [line.split()[1].rstrip(":") for line in r.stdout.splitlines()
                if line.startswith("  rendered ")]
    assert rendered == ["en/sukoro/index.html"], r.stdout
    assert "article.en.md.j2 changed" in r.stdout


def test_a_corrupt_cache_is_ignored_with_one_line(project: Path) -> None:
    build(project)
    cache = project / ".cache" / "filehash.json"
    cache.write_text("{not json", encoding="utf-8")
    for record in (project / ".cache" / "render").glob("*.json"):
        record.write_text("[1, 2", encoding="utf-8")
    from site_builder import stamp

    held = stamp.stamp_path(project, project / "dist", {"base_url": None, "only": None})
    held.parent.mkdir(parents=True, exist_ok=True)
    held.write_text("{1", encoding="utf-8")  # the stamp this build would read first
    r = build(project)
    assert "stamps" in r.stderr and "was corrupt" in r.stderr, r.stderr
    assert "filehash.json was corrupt" in r.stderr
    assert "unreadable" in r.stderr
    assert tree(project / "dist") == clean_build(project)
    json.loads(cache.read_text(encoding="utf-8"))  # rewritten


def test_check_catches_a_site_older_than_a_partial_it_uses(project: Path) -> None:
    build(project)
    env = dict(os.environ, PYTHONPATH=str(project))
    check = [sys.executable, "-m", "site_builder.cli", "check"]
    assert subprocess.run(check, cwd=project, env=env, capture_output=True,
                          check=False).returncode == 0
    partial = project / "site_builder" / "theme" / "shared" / "article.md.j2"
    good = partial.read_text(encoding="utf-8")
    partial.write_text(good + "{# only the partial changed #}\n", encoding="utf-8")
    try:
        r = subprocess.run(check, cwd=project, env=env, capture_output=True, text=True,
                           check=False)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "stale against content/ or templates/" in r.stdout
    finally:
        partial.write_text(good, encoding="utf-8")


def test_the_code_hash_cache_gives_each_puzzles_own_hash(tmp_path: Path) -> None:
    cache = FileCache(tmp_path / "filehash.json")
    for slug in registry.slugs():
        p = registry.get(slug)
        assert codehash.code_hash(p, cache=cache) == p.code_hash(), slug
    cache.save()
    again = FileCache(tmp_path / "filehash.json")  # from disk, nothing parsed
    for slug in registry.slugs():
        p = registry.get(slug)
        assert codehash.code_hash(p, cache=again) == p.code_hash(), slug


def test_a_build_with_nothing_to_do_is_told_from_the_stats(project: Path) -> None:
    """The stamp path (site_builder/stamp.py) answers only when nothing the last build
    read or wrote has changed; an edit, a file added and a file of dist/ removed each
    take the ordinary path, which puts things right."""
    build(project)
    time.sleep(2.5)  # inputs older than the stamp's racy window
    build(project)   # writes the stamp (nothing fresh any more)
    r = build(project)
    assert "(nothing read has changed)" in r.stdout, r.stdout
    page = project / "dist" / "en" / "sukoro" / "index.html"
    good = page.read_bytes()
    page.unlink()
    r = build(project)
    assert "(nothing read has changed)" not in r.stdout and page.read_bytes() == good
    hook = project / "solvers" / "sukoro" / "templates" / "hook.en.md.j2"
    text = hook.read_text(encoding="utf-8")
    hook.write_text(text + "More.\n", encoding="utf-8")
    try:
        r = build(project, "--explain")
        assert "(nothing read has changed)" not in r.stdout and "hook.en.md.j2 changed" in r.stdout
    finally:
        hook.write_text(text, encoding="utf-8")
    extra = project / "templates" / "static" / "new-file.txt"
    extra.parent.mkdir(parents=True, exist_ok=True)
    extra.write_text("new\n", encoding="utf-8")
    try:
        build(project)
        assert (project / "dist" / "static" / "new-file.txt").read_text() == "new\n"
    finally:
        extra.unlink()
    build(project)
    assert not (project / "dist" / "static" / "new-file.txt").exists()
    assert tree(project / "dist") == clean_build(project)


def test_the_cli_default_timeout_is_the_solvers() -> None:
    from site_builder import cli, solve

    assert cli.DEFAULT_TIMEOUT == solve.DEFAULT_TIMEOUT


def test_corrupt_compiled_templates_and_stamp_are_misses(project: Path) -> None:
    build(project)
    for f in (project / ".cache" / "jinja").rglob("*"):
        if f.is_file():
            f.write_bytes(f.read_bytes()[:40])  # truncated mid-way
    for f in (project / ".cache" / "stamps").glob("*.json"):
        f.write_text("{oops", encoding="utf-8")
    art = project / "solvers" / "sukoro" / "templates" / "article.en.md.j2"
    good = art.read_text(encoding="utf-8")
    art.write_text(good + "\nA sentence to render.\n", encoding="utf-8")
    try:
        build(project)
    finally:
        art.write_text(good, encoding="utf-8")
    build(project)
    assert tree(project / "dist") == clean_build(project)


def _rendered(out: str) -> list[str]:
    return [line.split()[1].rstrip(":") for line in out.splitlines()
            if line.startswith("  rendered ")]


def test_a_file_created_where_a_lookup_looked_restales_what_looked(project: Path) -> None:
    """Negative inputs (issue 47 item 1): the places a lookup looked before the one that
    answered, the names an ``ignore missing`` include or an include list did not find,
    and the right side of a comparison of two JSON values are inputs of the page."""
    build(project)
    theme_css = project / "site_builder" / "theme" / "static" / "site.css"
    site_css = project / "templates" / "static" / "site.css"
    override = project / "templates" / "sukoro" / "article.en.md.j2"
    partials = project / "templates" / "lookup"  # the fuzz's templates/partials aside
    stats = project / "content" / "sukoro" / "stats.json"
    good_stats = stats.read_text(encoding="utf-8")
    if site_css.exists():  # left by the fuzz: the theme's answers at first here
        site_css.unlink()
        build(project)
    try:
        # a static file created in the site's templates/static/ over the theme's
        site_css.parent.mkdir(parents=True, exist_ok=True)
        site_css.write_text(theme_css.read_text(encoding="utf-8") + "\n.x { color: red }\n",
                            encoding="utf-8")
        r = build(project, "--explain")
        assert (project / "dist/static/site.css").read_bytes() == site_css.read_bytes()
        assert _rendered(r.stdout) == ["static/site.css"], r.stdout
        assert "templates/static/site.css created" in r.stdout
        site_css.unlink()  # removed: the theme's answers again
        build(project)
        assert (project / "dist/static/site.css").read_bytes() == theme_css.read_bytes()

        # an optional include, an include list and a comparison of two JSON values
        src = project / "solvers" / "sukoro" / "templates" / "article.en.md.j2"
        override.parent.mkdir(parents=True, exist_ok=True)
        partials.mkdir(parents=True, exist_ok=True)
        (partials / "second.md.j2").write_text("Second-choice.\n", encoding="utf-8")
        override.write_text(
            src.read_text(encoding="utf-8")
            + '\n{% include "lookup/opt.md.j2" ignore missing %}\n'
            + '{% include ["lookup/first.md.j2", "lookup/second.md.j2"] %}\n'
            + "{% if stats.ablation.disconnect.lost_share == stats.ablation.both.lost_share %}"
            + "Alike.{% else %}Unlike.{% endif %}\n", encoding="utf-8")
        build(project)
        page = project / "dist" / "en" / "sukoro" / "index.html"
        text = page.read_text(encoding="utf-8")
        assert "Second-choice." in text and "Unlike." in text and "Optional-part" not in text
        (partials / "opt.md.j2").write_text("Optional-part.\n", encoding="utf-8")
        r = build(project, "--explain")
        assert "Optional-part." in page.read_text(encoding="utf-8"), r.stdout
        assert _rendered(r.stdout) == ["en/sukoro/index.html"], r.stdout
        (partials / "first.md.j2").write_text("First-choice.\n", encoding="utf-8")
        r = build(project, "--explain")
        text = page.read_text(encoding="utf-8")
        assert "First-choice." in text and "Second-choice." not in text, r.stdout
        doc = json.loads(good_stats)
        abl = doc["data"]["ablation"]
        abl["both"]["lost_share"] = abl["disconnect"]["lost_share"]  # the right side
        stats.write_text(json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n",
                         encoding="utf-8")
        r = build(project, "--explain")
        assert "Alike." in page.read_text(encoding="utf-8"), r.stdout
        assert tree(project / "dist") == clean_build(project)
    finally:
        site_css.unlink(missing_ok=True)
        override.unlink(missing_ok=True)
        shutil.rmtree(partials, ignore_errors=True)
        stats.write_text(good_stats, encoding="utf-8")
    build(project)


def test_check_fresh_compares_the_folder_with_a_clean_build(project: Path, tmp_path: Path) -> None:
    """``check --fresh`` (issue 47 item 5) renders the site in memory and compares it
    with dist/ file by file: a page that matches its manifest but not what a clean build
    makes now (what an incremental build that missed an input leaves) fails it, and
    ``deploy`` refuses to publish it; plain ``check`` says how many files it compared."""
    build(project)
    env = dict(os.environ, PYTHONPATH=str(project))
    cli = [sys.executable, "-m", "site_builder.cli"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cli, *args], cwd=project, env=env, capture_output=True,
                              text=True, check=False)

    r = run("check", "--fresh")
    assert r.returncode == 0, r.stdout + r.stderr
    files = len(tree(project / "dist"))
    assert f"{files - 1} files compared with its manifest, {files} with a clean build" \
        in r.stdout, r.stdout
    page = project / "dist" / "en" / "sukoro" / "index.html"
    info_path = project / "dist" / ".build.json"
    good_page, good_info = page.read_bytes(), info_path.read_bytes()
    try:
        stale = good_page.replace(b"</main>", b"<p>An old sentence.</p></main>", 1)
        assert stale != good_page
        page.write_bytes(stale)
        info = json.loads(good_info)
        info["manifest"]["en/sukoro/index.html"] = hashlib.sha256(stale).hexdigest()
        info_path.write_text(json.dumps(info), encoding="utf-8")
        r = run("check")
        assert r.returncode == 0, r.stdout + r.stderr  # the manifest agrees with the page
        r = run("check", "--fresh")
        assert r.returncode == 1, r.stdout + r.stderr
        assert "en/sukoro/index.html: differs from what a clean build writes now" in r.stdout
        assert ".build.json: differs from a clean build's in keys manifest (1 file(s): " \
            "en/sukoro/index.html)" in r.stdout, r.stdout
        r = run("deploy", "--dir", str(tmp_path / "published"))
        assert r.returncode == 1 and not (tmp_path / "published").exists(), r.stderr
        assert "en/sukoro/index.html: differs" in r.stderr
    finally:
        page.write_bytes(good_page)
        info_path.write_bytes(good_info)
    build(project)


def _build_raw(project: Path, *args: str, fault: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PYTHONPATH"] = str(project)
    if fault:
        env["BUILD_SITE_FAULT"] = fault
    return subprocess.run([sys.executable, "-m", "site_builder.cli", "build", "--quiet",
                           "--jobs", "1", *args], cwd=project, env=env, capture_output=True,
                          text=True, timeout=900, check=False)


def _no_temp_inside(d: Path) -> None:
    odd = [p for p in d.rglob("*") if p.name.startswith(".") and p.name != ".build.json"]
    assert not odd, odd


def test_a_write_phase_stopped_anywhere_leaves_all_old_or_all_new(project: Path) -> None:
    """Never half-written (issue 47 item 3): a build killed at any step of its write
    phase leaves dist/ as it was (before the journal) or has the next build finish the
    switch (after it), never a temporary file inside dist/; a full disk while staging
    leaves dist/ and its record as they were, so the next build is incremental again."""
    build(project)
    layout = project / "site_builder" / "theme" / "layout.html.j2"
    good = layout.read_text(encoding="utf-8")
    stages = project / "dist"
    try:
        # a layout edit stages 25 files (24 pages, .build.json): steps 1-25, the
        # journal 26, the moves 27-51
        seen = set()
        for n, fault in enumerate(["kill:1", "kill:13", "full:3", "kill:26", "kill:27",
                                   "kill:40", "kill:51"]):
            old = tree(stages)
            layout.write_text(good.replace("</body>", f"<!-- edit {n} --></body>", 1),
                              encoding="utf-8")
            r = _build_raw(project, fault=fault)
            journal = project / ".dist.switch.json"
            _no_temp_inside(stages)
            if fault.startswith("full"):
                assert r.returncode != 0 and "cannot write the site" in r.stderr, r.stderr
                assert tree(stages) == old and not (project / ".dist.stage").exists()
                r = build(project, "--explain")  # needs only the changed files' room
                assert "every file" not in r.stdout and "rendered" in r.stdout, r.stdout
            else:
                assert r.returncode == -9, (fault, r.returncode, r.stderr)
                seen.add(journal.exists())
                if not journal.exists():
                    assert tree(stages) == old, fault  # stopped before the commit point
                else:
                    check = subprocess.run(
                        [sys.executable, "-m", "site_builder.cli", "check"], cwd=project,
                        env=dict(os.environ, PYTHONPATH=str(project)), capture_output=True,
                        text=True, check=False)
                    assert check.returncode == 1 and "switching its files in" in check.stdout
                r = build(project, "--explain")
                assert "every file" not in r.stdout, (fault, r.stdout)
            assert not journal.exists() and not (project / ".dist.stage").exists()
            _no_temp_inside(stages)
            assert f"<!-- edit {n} -->" in (stages / "index.html").read_text(encoding="utf-8")
        assert seen == {False, True}  # stopped before the commit point and after it
        assert tree(stages) == clean_build(project)
    finally:
        layout.write_text(good, encoding="utf-8")
    build(project)


def test_a_plugin_that_breaks_keeps_the_last_good_site(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """Issue 47 item 4: a plugin that raises on import after a good build changes
    nothing in dist/; the build exits 1 as before, and its summary names the pages it
    kept and why, with the file and line the import raised at; serve's overlay too."""
    from site_builder import cli, pipeline, serve

    site = tmp_path / "s"
    shutil.copytree(REPO / "content" / "sukoro", site / "content" / "sukoro")
    (site / "site.toml").write_text('puzzles = ["sukoro"]\n', encoding="utf-8")
    monkeypatch.setattr(pipeline, "run_all", lambda *a, **k: [])
    monkeypatch.chdir(site)
    assert cli.main(["build", "--quiet"]) == 0
    good = tree(site / "dist")
    (tmp_path / "brokenmod.py").write_text('"""A plugin."""\nraise RuntimeError("boom")\n',
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    rows = [r for r in registry._declared() if r.slug != "sukoro"]
    rows.append(registry.Entry("sukoro", "brokenmod:PUZZLE", "broken-dist", "1"))
    monkeypatch.setattr(registry, "_scan", lambda: registry.table(rows))
    registry.get.cache_clear()
    shutil.rmtree(site / ".cache" / "stamps", ignore_errors=True)  # (the plugin's files
    # did not change here, so a stamp would answer "nothing read has changed")
    capsys.readouterr()
    try:
        assert cli.main(["build", "--quiet"]) == 1
        err = capsys.readouterr().err
        assert tree(site / "dist") == good
        assert "kept the last build in dist as it was" in err, err
        assert "en/sukoro/index.html" in err or "and " in err
        assert f"raised at {tmp_path / 'brokenmod.py'}:2" in err, err
        rebuild = serve.Rebuilder(site, site / "dist", log=lambda _s: None)
        assert rebuild([str(site / "site.toml")]) is None
        assert rebuild.status["file"] == str(tmp_path / "brokenmod.py")
        assert rebuild.status["line"] == 2
        assert tree(site / "dist") == good
    finally:
        registry.get.cache_clear()


def test_eject_copies_to_the_overriding_place_and_never_overwrites(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 47 item 8: ``build-site eject NAME`` copies a theme's or a puzzle's template
    or static file to where the site's copy overrides it, and refuses to overwrite."""
    from site_builder import cli
    from site_builder.sources import THEME

    site = tmp_path / "s"
    site.mkdir()
    (site / "site.toml").write_text('puzzles = ["sukoro"]\n', encoding="utf-8")
    monkeypatch.chdir(site)
    pkg = Path(registry.get("sukoro").package_dir)
    for name, src in [("layout.html.j2", THEME / "layout.html.j2"),
                      ("static/site.css", THEME / "static" / "site.css"),
                      ("sukoro/article.en.md.j2", pkg / "templates" / "article.en.md.j2"),
                      ("static/play/sukoro.js", pkg / "static" / "play" / "sukoro.js")]:
        assert cli.main(["eject", name]) == 0, name
        assert (site / "templates" / name).read_bytes() == src.read_bytes(), name
        (site / "templates" / name).write_text("mine\n", encoding="utf-8")
        capsys.readouterr()
        assert cli.main(["eject", name]) == 2
        assert "exists already" in capsys.readouterr().err
        assert (site / "templates" / name).read_text(encoding="utf-8") == "mine\n"
    for bad in ("nothing.html.j2", "../site.toml", "static/none.css"):
        assert cli.main(["eject", bad]) == 2, bad
    assert not (tmp_path / "site.toml").exists()


def test_the_runtime_fetch_advice_names_no_repository_script(tmp_path: Path) -> None:
    """Issue 47 item 8: a pip-installed tool has no scripts/ folder to run."""
    from site_builder import runtime

    with pytest.raises(runtime.RuntimeMissing) as e:
        runtime.files(tmp_path)
    assert "python -m site_builder.runtime" in str(e.value)
    assert "scripts/" not in str(e.value)


# ------------------------------------------------------------------ the fuzz under serve

SERVE_SEQUENCES = int(os.environ.get("INCREMENTAL_SERVE_SEQUENCES", "2"))


class _Serving:
    """``build-site serve`` on the copy, its output collected line by line."""

    def __init__(self, project: Path, fault: str = "") -> None:
        import socket
        import threading

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(PYTHONPATH=str(project), PYTHONUNBUFFERED="1")
        if fault:
            env["BUILD_SITE_FAULT"] = fault
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "site_builder.cli", "serve", "--port", str(port)],
            cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[tuple[float, str]] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def ready(self, timeout: float = 300) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            if any("Ctrl+C to stop" in line for _, line in self.lines):
                return True
            time.sleep(0.1)
        return False

    def settle(self, since: float, timeout: float = 300, quiet: float = 2.5) -> None:
        """Until a rebuild began after ``since`` and none followed for ``quiet`` s (or
        the server died)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and self.proc.poll() is None:
            ours = [at for at, line in self.lines if at > since and "[serve]" in line]
            if ours and time.monotonic() - ours[-1] > quiet:
                return
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(2)  # Ctrl+C
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def serve_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = copy_project(tmp_path_factory.mktemp("incremental-serve") / "proj")
    build(p)
    return p


@pytest.mark.parametrize("seed", range(SERVE_SEQUENCES))
def test_serve_keeps_dist_equal_to_a_clean_build(serve_project: Path, seed: int) -> None:
    """The fuzz under ``serve``: the edits are made while it serves (each seen and
    re-rendered in process, or in a fresh interpreter after a Python edit), the server
    itself killed at a random step of a write phase; then dist/ as served, or as the
    restarted server left it, equals a clean build."""
    project = serve_project
    rng = random.Random(2000 + seed)
    fuzz_setup(project)
    edits = Edits(project, rng)
    step = rng.randint(1, 80)
    server = _Serving(project, fault=f"kill:{step}")
    done: list[tuple[str, str]] = [("serve killed at step", str(step))]
    try:
        if server.ready():
            for i in range(EDITS_PER_SEQUENCE):
                kind = Edits.KINDS[(5 * seed + 3 * i) % len(Edits.KINDS)]
                at = time.monotonic()
                time.sleep(0.05)
                done.append((kind, getattr(edits, kind)()))
                server.settle(at)
                if server.proc.poll() is not None:
                    break
        died = server.proc.poll() is not None
        failed = any("rebuild failed" in line for _, line in server.lines)
        print(f"serve sequence {seed}: {done}; killed: {died}, a rebuild failed: {failed}")
        if not died and not failed:
            time.sleep(1)
            served = tree(project / "dist")
            server.stop()
            _compare(project, served, clean_build(project), done,
                     "\n".join(line for _, line in server.lines))
            _no_temp_inside(project / "dist")
            return
    finally:
        server.stop()
    # killed (or a rebuild stopped by the kill in its fresh interpreter): a new server
    # finishes the switch and brings dist/ up to date
    again = _Serving(project)
    try:
        assert again.ready(), "\n".join(line for _, line in again.lines)
        time.sleep(1)
        served = tree(project / "dist")
    finally:
        again.stop()
    _compare(project, served, clean_build(project), done + [("restarted", "")],
             "\n".join(line for _, line in server.lines + again.lines))
    _no_temp_inside(project / "dist")


def test_a_switch_left_unfinished_is_never_nothing_to_do(tmp_path: Path) -> None:
    """The stamp's "nothing read has changed" answer is not given while a build's
    switch is unfinished: the ordinary path finishes it."""
    from site_builder import stamp

    root, out = tmp_path / "site", tmp_path / "site" / "dist"
    out.mkdir(parents=True)
    (root / "site.toml").write_text("", encoding="utf-8")
    (out / "index.html").write_text("x", encoding="utf-8")
    old = time.time() - 60
    for p in (root / "site.toml", root, out / "index.html", out):
        os.utime(p, (old, old))
    stamp.save(root, out, {}, [], {"pages": 1})
    assert stamp.unchanged(root, out, {}) == {"pages": 1}
    (root / ".dist.switch.json").write_text("{}", encoding="utf-8")
    assert stamp.unchanged(root, out, {}) is None


_LIVE_LAYOUT_EDIT = """
import json, sys
from pathlib import Path
from markdown_it import MarkdownIt
from site_builder import deps, play
from site_builder.build import build_site

p = Path.cwd()
layout = p / "templates" / "layout.html.j2"
theme = (p / "site_builder" / "theme" / "layout.html.j2").read_text(encoding="utf-8")
layout.parent.mkdir(exist_ok=True)
layout.write_text(theme, encoding="utf-8")
build_site(p, p / "dist", quiet=True)
calls = {"md": 0, "hint files": 0, "big digest": 0}
real_render, real_trace, real_dumps = MarkdownIt.render, play.trace_entry, deps.json.dumps

def render(self, *a, **k):
    calls["md"] += 1
    return real_render(self, *a, **k)

def trace_entry(b, lang):
    calls["hint files"] += 1
    return real_trace(b, lang)

def dumps(obj, *a, **k):
    got = real_dumps(obj, *a, **k)
    calls["big digest"] += len(got) > 1_000_000
    return got

MarkdownIt.render, play.trace_entry, deps.json.dumps = render, trace_entry, dumps
layout.write_text(theme.replace("</body>", "<!-- layout edited --></body>", 1),
                  encoding="utf-8")
build_site(p, p / "dist", quiet=True)

# a figure file saved again (other bytes, as an editor's reformat): its own parse only
from site_builder import jsonio
real_read = jsonio.read_stage

def read_stage(path, *a, **k):
    calls["parsed " + Path(path).name] = calls.get("parsed " + Path(path).name, 0) + 1
    return real_read(path, *a, **k)

jsonio.read_stage = read_stage
stats = p / "content" / "sukoro" / "stats.json"
stats.write_text(json.dumps(json.loads(stats.read_text("utf-8")), ensure_ascii=False,
                            indent=1, sort_keys=True) + "\\n", encoding="utf-8")
build_site(p, p / "dist", quiet=True)
print(json.dumps(calls))
"""


def test_a_layout_edit_in_a_live_process_converts_no_markdown_and_encodes_no_board_again(
        tmp_path: Path) -> None:
    """Issue 47 item 6: under serve (one process), an edit of the layout every page extends
    re-renders every page, but the articles' Markdown (whose text did not change) is not
    converted again, the play pages' hint files (whose bank did not change) are not
    encoded again, and the bank is not digested again for the record; the result is still
    a clean build's, byte for byte. Then a stage file saved with other bytes is parsed
    again, and no other (the bank is not read again for a figure file)."""
    p = copy_project(tmp_path / "proj")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["PYTHONPATH"] = str(p)
    r = subprocess.run([sys.executable, "-c", _LIVE_LAYOUT_EDIT], cwd=p, env=env,
                       capture_output=True, text=True, timeout=900, check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    calls = json.loads(r.stdout.splitlines()[-1])
    pages = [f for f in (p / "dist").rglob("*.html") if "</body>" in f.read_text("utf-8")]
    assert len(pages) > 20
    assert all("<!-- layout edited -->" in f.read_text("utf-8") for f in pages)
    assert calls == {"md": 0, "hint files": 0, "big digest": 0, "parsed stats.json": 1}, calls
    _compare(p, tree(p / "dist"), clean_build(p), "after a layout edit in one process")
