"""Issue 43: no command destroys what it did not make, and nothing outside the tree reaches
the site. Each case: refused in one line with exit status 2 and nothing touched, or caught
by `build-site check` (exit 1) with its path; the build and the check otherwise unchanged.

The sites here are rendered from the committed JSON with the stages stubbed (they are not
what these tests are about), as in test_site_guards.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from site_builder import cli, links, pipeline
from site_builder.build import render_all, render_site
from site_builder.buildinfo import BUILD_INFO
from site_builder.check import check_site
from site_builder.errors import UserError
from site_builder.provenance import Filters, ProvenanceError, lit_vocabulary
from solvers import registry

REPO = Path(__file__).resolve().parent.parent


def _copy_site(dest: Path) -> Path:
    dest.mkdir(parents=True)
    shutil.copytree(REPO / "content", dest / "content",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(REPO / "site.toml", dest / "site.toml")
    return dest


def _tree(d: Path) -> dict[str, bytes]:
    """Every file under ``d`` with its bytes, links as ``-> target``."""
    out: dict[str, bytes] = {}
    for here, dirs, files in os.walk(d):
        for name in (*dirs, *files):
            p = Path(here) / name
            rel = p.relative_to(d).as_posix()
            if p.is_symlink():
                out[rel] = f"-> {os.readlink(p)}".encode()
            elif p.is_file():
                out[rel] = p.read_bytes()
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site folder with its whole site rendered into dist/ (no stage run)."""
    root = _copy_site(tmp_path_factory.mktemp("hardening") / "site")
    render_site(root, root / "dist")
    return root


@pytest.fixture
def no_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "run_all", lambda *a, **k: [])


@pytest.fixture
def site(built: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built site folder, for a test to spoil."""
    root = tmp_path / "site"
    shutil.copytree(built, root, symlinks=True)
    return root


def _one_line(code: int, err: str, *needles: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("build-site: error: "), err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def _build(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
           *args: str) -> tuple[int, str]:
    monkeypatch.chdir(root)
    code = cli.main(["build", "-q", *args])
    return code, capsys.readouterr().err


# --------------------------------------------------------------------------- 1. --out


@pytest.mark.parametrize("where", [".", "..", "content", "content/sukoro", "mydata", "home"])
def test_build_out_never_replaces_what_no_build_made(where: str, site: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     no_stages: None,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`build --out .` once left only the site in a checkout (exit 0); `--out mydata`
    deleted mydata/file.txt."""
    (site / "mydata").mkdir()
    (site / "mydata" / "file.txt").write_text("mine\n")
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine too\n")
    monkeypatch.setenv("HOME", str(home))
    out = str(home) if where == "home" else where
    before, before_home = _tree(tmp_path), _tree(home)
    code, err = _build(site, monkeypatch, capsys, "--out", out)
    _one_line(code, err, "--out", "nothing was written")
    assert _tree(tmp_path) == before and _tree(home) == before_home


def test_build_out_takes_an_empty_a_new_and_an_earlier_builds_folder(
        site: Path, monkeypatch: pytest.MonkeyPatch, no_stages: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    (site / "empty").mkdir()
    for out in ("empty", "new/deeper", "dist"):
        code, err = _build(site, monkeypatch, capsys, "--out", out)
        assert code == 0, err
        assert (site / out / BUILD_INFO).is_file()  # the marker the next build looks for
    assert _tree(site / "empty") == _tree(site / "dist")


def test_write_tree_removes_a_killed_builds_leftovers(site: Path, monkeypatch: pytest.MonkeyPatch,
                                                      no_stages: None,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = site / f".dist.tmp-{dead.pid}"
    (stale / "en").mkdir(parents=True)
    live = site / f".dist.old-{os.getppid()}"  # a process that still runs: not touched
    live.mkdir()
    code, err = _build(site, monkeypatch, capsys, "--out", "dist")
    assert code == 0, err
    assert not stale.exists() and live.is_dir()


# --------------------------------------------------------------------------- 3. links


def test_a_link_out_of_the_tree_is_refused_naming_it(site: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     no_stages: None,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`ln -s /etc/passwd templates/static/leak.txt` once put the password file into
    dist/static/leak.txt and the check passed."""
    (site / "templates" / "static").mkdir(parents=True)
    (site / "templates" / "static" / "leak.txt").symlink_to("/etc/passwd")
    before = _tree(site / "dist")
    code, err = _build(site, monkeypatch, capsys)
    _one_line(code, err, "templates/static/leak.txt", "/etc/passwd", "outside")
    assert _tree(site / "dist") == before


def test_an_include_through_a_link_out_of_the_tree_is_refused(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_stages: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "secret.md.j2"
    secret.write_text("a secret outside the site\n")
    (site / "templates" / "sukoro").mkdir(parents=True)
    (site / "templates" / "sukoro" / "hook.en.md.j2").symlink_to(secret)
    code, err = _build(site, monkeypatch, capsys)
    _one_line(code, err, "templates/sukoro/hook.en.md.j2", str(secret))
    # a folder linked from outside, and a link to nothing, the same way
    (site / "templates" / "sukoro" / "hook.en.md.j2").unlink()
    (site / "templates" / "sukoro" / "hook.en.md.j2").symlink_to(tmp_path / "gone")
    _one_line(*_build(site, monkeypatch, capsys), "does not exist")
    (site / "templates" / "sukoro" / "hook.en.md.j2").unlink()
    (site / "content" / "sukoro" / "more").symlink_to(tmp_path, target_is_directory=True)
    _one_line(*_build(site, monkeypatch, capsys), "content/sukoro/more")


def test_a_link_inside_the_site_is_read_and_written_as_a_regular_file(
        site: Path, monkeypatch: pytest.MonkeyPatch, no_stages: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    (site / "templates" / "static").mkdir(parents=True)
    (site / "notes.txt").write_text("the site's own file\n")
    (site / "templates" / "static" / "notes.txt").symlink_to(site / "notes.txt")
    code, err = _build(site, monkeypatch, capsys)
    assert code == 0, err
    got = site / "dist" / "static" / "notes.txt"
    assert not got.is_symlink() and got.read_text() == "the site's own file\n"
    assert not [p for p in (site / "dist").rglob("*") if p.is_symlink()]
    assert check_site(site / "dist", site) == []


# --------------------------------------------------------------------------- 4. the manifest


def test_check_fails_added_missing_changed_and_linked_files_by_path(site: Path) -> None:
    """An added extra.html ("Price 12345") and a foreign link once passed the check."""
    dist = site / "dist"
    assert check_site(dist, site) == []
    (dist / "extra.html").write_text("<p>Price 12345</p>\n")
    (dist / "static" / "leak.txt").symlink_to("/etc/passwd")
    (dist / "robots.txt").unlink()
    with open(dist / "static" / "site.css", "a") as f:
        f.write("body { color: red }\n")
    problems = check_site(dist, site)
    assert sorted(p.split(":")[0] for p in problems) == [
        "extra.html", "robots.txt", "static/leak.txt", "static/site.css"], problems
    assert any("not written by the build" in p for p in problems)
    assert any("symbolic link" in p for p in problems)
    monkey = cli.main  # and as the command: exit 1, the status for problems in the pages
    os.chdir(site)
    assert monkey(["check", str(dist)]) == 1


def test_the_manifest_holds_every_file_with_its_sha256(built: Path) -> None:
    import hashlib

    info = json.loads((built / "dist" / BUILD_INFO).read_text())
    on_disk = {k for k in _tree(built / "dist") if k != BUILD_INFO}
    assert set(info["manifest"]) == on_disk == set(info["files"])
    for name in ("index.html", "static/site.css"):
        assert info["manifest"][name] == hashlib.sha256(
            (built / "dist" / name).read_bytes()).hexdigest()


def test_a_missing_stylesheet_fails_the_build_naming_page_and_reference(built: Path) -> None:
    """With the theme's site.css deleted the build once exited 0, every page linking a
    stylesheet that was not there."""
    files = render_all(built)
    assert links.broken(files, {k: v for k, v in files.items() if k.endswith(".html")
                                and isinstance(v, str)}) == []
    del files["static/site.css"]
    with pytest.raises(UserError, match=r"^404.html: links to '/static/site.css', and the "
                                        r"build writes no static/site.css \(and \d+ more\)"):
        links.check(files)


def test_a_page_linking_a_missing_file_fails_the_build(site: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       no_stages: None,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    (site / "templates" / "sukoro").mkdir(parents=True)
    (site / "templates" / "sukoro" / "hook.en.md.j2").write_text(
        'Look: <img src="pics/nothere.png" alt="">\n')
    before = _tree(site / "dist")
    code, err = _build(site, monkeypatch, capsys)
    _one_line(code, err, "en/index.html: links to 'pics/nothere.png'", "en/pics/nothere.png")
    assert _tree(site / "dist") == before


@pytest.mark.parametrize(("page", "ref", "base", "want"), [
    ("en/a/index.html", "../../static/x.css", "", "static/x.css"),
    ("en/a/index.html", "./", "", "en/a/index.html"),
    ("en/a/index.html", "../b/#top", "", "en/b/index.html"),
    ("404.html", "/static/x.css", "", "static/x.css"),
    ("404.html", "/sub/static/x.css", "https://h.example/sub/", "static/x.css"),
    ("en/index.html", "https://h.example/sub/ja/", "https://h.example/sub/", "ja/index.html"),
    ("en/index.html", "https://elsewhere.example/", "", None),
    ("en/index.html", "mailto:a@b.example", "", None),
    ("en/index.html", "#main", "", None),
    ("en/index.html", "../../../etc/passwd", "", "../../etc/passwd"),
])
def test_reference_targets(page: str, ref: str, base: str, want: str | None) -> None:
    assert links.target(page, ref, base) == want


# --------------------------------------------------------------------------- 8. lit


def test_lit_takes_the_rules_vocabulary_and_nothing_else() -> None:
    puzzles = [registry.get(s) for s in registry.slugs()]
    vocab = lit_vocabulary(puzzles)
    lit = Filters("html", vocab)._lit
    for word in ("2×2", "1", "4", "1-2-1", "OEIS A052537", "⌊h·w/3⌋", "95%"):
        lit(word)
    for figure in ("14,800", "12345", "3.2", "72.8%", "101"):
        with pytest.raises(ProvenanceError, match="not a numeral of the rules' vocabulary"):
            lit(figure)


def test_a_figure_through_lit_fails_the_build_naming_template_and_line(
        site: Path, monkeypatch: pytest.MonkeyPatch, no_stages: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`{{ "14,800" | lit }}` in an article once passed the check (exit 0)."""
    (site / "templates" / "sukoro").mkdir(parents=True)
    (site / "templates" / "sukoro" / "hook.en.md.j2").write_text(
        'A {{ "2×2" | lit }} block,\nand {{ "14,800" | lit }} boards.\n')
    before = _tree(site / "dist")
    code, err = _build(site, monkeypatch, capsys)
    _one_line(code, err, "templates/sukoro/hook.en.md.j2:2", "14,800")
    assert _tree(site / "dist") == before


def test_check_names_the_template_and_line_of_a_typed_number(
        site: Path, monkeypatch: pytest.MonkeyPatch, no_stages: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A typed number was caught, but the message named only the built page."""
    (site / "templates" / "sukoro").mkdir(parents=True)
    (site / "templates" / "sukoro" / "hook.en.md.j2").write_text(
        "Sukoro in a line,\nfor the price of 12345 coins.\n")
    code, err = _build(site, monkeypatch, capsys)
    assert code == 0, err
    problems = check_site(site / "dist", site)
    assert problems and all("(typed at templates/sukoro/hook.en.md.j2:2)" in p
                            for p in problems), problems
    assert {p.split(":")[0] for p in problems} == {"index.html", "en/index.html"}


def test_typed_digits_leave_the_pages_byte_identical(built: Path, tmp_path: Path) -> None:
    """Recording where digits are typed changes no rendered byte: the same templates
    rendered without the recording extension (in a copy of the site, whose compiled
    templates are its own) give the same files."""
    from site_builder import site as site_module

    with_ext = render_all(built)
    other = _copy_site(tmp_path / "plain")
    plain = site_module.TypedDigits.filter_stream
    try:
        site_module.TypedDigits.filter_stream = lambda self, stream: stream  # type: ignore[method-assign]
        site_module._ENVS.clear()
        without = render_all(other)
    finally:
        site_module.TypedDigits.filter_stream = plain  # type: ignore[method-assign]
        site_module._ENVS.clear()
    from site_builder.provenance import typed_table

    assert typed_table() == {}  # the extension did not run: the comparison means something
    assert with_ext.keys() == without.keys()
    assert [k for k in with_ext if with_ext[k] != without[k]] == []


# --------------------------------------------------------------------------- 9. source state


def _git(cwd: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_the_build_records_its_source_state_and_deploy_names_it(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_stages: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Uncommitted template edits once deployed as `Deploy site built from dc29fe7`."""
    from site_builder.deploy import deploy

    shutil.rmtree(site / "dist")
    (site / "templates" / "sukoro").mkdir(parents=True)
    hook = site / "templates" / "sukoro" / "hook.en.md.j2"
    hook.write_text("Sukoro, in my words.\n")
    _git(site, "init", "-q")
    _git(site, "add", "-A")
    _git(site, "commit", "-qm", "site")
    head = _git(site, "rev-parse", "HEAD")
    code, err = _build(site, monkeypatch, capsys)
    assert code == 0, err
    info = json.loads((site / "dist" / BUILD_INFO).read_text())
    assert info["source"] == {"commit": head, "state": head[:12], "changed": []}

    hook.write_text("Sukoro, in other words.\n")
    code, err = _build(site, monkeypatch, capsys)
    assert code == 0, err
    info = json.loads((site / "dist" / BUILD_INFO).read_text())
    assert info["source"] == {"commit": head, "state": f"{head[:12]}+dirty",
                              "changed": ["templates/sukoro/hook.en.md.j2"]}
    bare = tmp_path / "pages.git"
    _git(tmp_path, "init", "-q", "--bare", str(bare))
    deploy(site / "dist", str(bare))
    msg = _git(tmp_path, "--git-dir", str(bare), "log", "-1", "--format=%B", "gh-pages")
    assert msg.splitlines()[0] == (f"Deploy site built from {head[:12]}+dirty (changed: "
                                   "templates/sukoro/hook.en.md.j2) (build-site deploy)")
