"""Issue 48: nothing deleted that the tool did not write, nothing written outside the site,
every state repairable. Each case is one of the issue's items, reproduced as it was
found: refused in one line with exit status 2 and nothing touched, or repaired by the
build with one line saying so.

The sites are rendered from the committed JSON with the stages stubbed (they are not what
these tests are about), as in test_hardening.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from site_builder import cli, config, names, pipeline, targets
from site_builder.build import render_site
from site_builder.buildinfo import BUILD_INFO
from site_builder.check import check_site
from site_builder.deploy import MARKER, deploy
from site_builder.errors import UserError
from solvers import registry
from solvers.common import PlaySpec, Puzzle, RuleBook, Stage

REPO = Path(__file__).resolve().parent.parent
CLEAN_ENV = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}


def _copy_site(dest: Path, languages: list[str] | None = None) -> Path:
    dest.mkdir(parents=True)
    shutil.copytree(REPO / "content", dest / "content",
                    ignore=shutil.ignore_patterns("__pycache__"))
    text = (REPO / "site.toml").read_text(encoding="utf-8")
    if languages is not None:
        import re

        text = re.sub(r"(?m)^languages = .*$",
                      "languages = [" + ", ".join(f'"{x}"' for x in languages) + "]", text)
    (dest / "site.toml").write_text(text, encoding="utf-8")
    return dest


def _tree(d: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for here, dirs, files in os.walk(d):
        for name in (*dirs, *files):
            p = Path(here) / name
            rel = p.relative_to(d).as_posix()
            if p.is_symlink():
                out[rel] = f"-> {os.readlink(p)}".encode()
            elif p.is_file():
                out[rel] = p.read_bytes()
            else:
                out[rel + "/"] = b""
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = _copy_site(tmp_path_factory.mktemp("writes") / "site")
    render_site(root, root / "dist")
    return root


@pytest.fixture
def site(built: Path, tmp_path: Path) -> Path:
    root = tmp_path / "site"
    shutil.copytree(built, root, symlinks=True)
    return root


@pytest.fixture
def no_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "run_all", lambda *a, **k: [])


def _one_line(code: int, err: str, *needles: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("build-site: error: "), err
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def _run(root: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         *args: str) -> tuple[int, str]:
    monkeypatch.chdir(root)
    code = cli.main(list(args))
    return code, capsys.readouterr().err


def _git(cwd: Path, *args: str) -> str:
    env = dict(CLEAN_ENV, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


# --------------------------------------------------------------------------- 1. --out


def test_build_out_trusts_no_junk_manifest(site: Path, tmp_path: Path, no_stages: None,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`echo junk > v/.build.json; build --out v` once deleted v/notes.txt (exit 0)."""
    v = tmp_path / "v"
    v.mkdir()
    (v / "notes.txt").write_text("n\n")
    (v / BUILD_INFO).write_text("junk\n")
    before = _tree(v)
    code, err = _run(site, monkeypatch, capsys, "build", "-q", "--out", str(v))
    _one_line(code, err, "--out", "not a build's manifest", "nothing was written")
    assert _tree(v) == before


def test_build_out_trusts_a_manifest_only_when_its_hashes_match(
        site: Path, tmp_path: Path, no_stages: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A real .build.json copied beside one's own files is not a build's folder."""
    v = tmp_path / "v"
    v.mkdir()
    (v / "notes.txt").write_text("n\n")
    shutil.copy2(site / "dist" / BUILD_INFO, v / BUILD_INFO)
    before = _tree(v)
    code, err = _run(site, monkeypatch, capsys, "build", "-q", "--out", str(v))
    _one_line(code, err, "--out", "are missing or hold other bytes", "nothing was written")
    assert _tree(v) == before


# --------------------------------------------------------------------------- 2. --dir


def test_deploy_dir_refuses_a_folder_no_deploy_wrote(site: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`deploy --dir` once took any folder holding an index.html and deleted its photos/."""
    www = tmp_path / "www"
    (www / "photos").mkdir(parents=True)
    (www / "index.html").write_text("<p>my page</p>\n")
    (www / "photos" / "cat.jpg").write_bytes(b"\xff\xd8cat")
    before = _tree(www)
    code, err = _run(site, monkeypatch, capsys, "deploy", "--dir", str(www))
    _one_line(code, err, "--dir", "no .build.json", "never deleted")
    assert _tree(www) == before


@pytest.mark.parametrize("where", ["content/m", "site_builder/theme/m", "solvers/m"])
def test_deploy_dir_never_writes_into_the_tools_folders(where: str, site: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """`deploy --dir content/m` and `--dir site_builder/theme/m` were once accepted."""
    target = (site if where.startswith("content") else REPO) / where
    code, err = _run(site, monkeypatch, capsys, "deploy", "--dir", str(target))
    _one_line(code, err, "--dir", "it overlaps", "nothing was written")
    assert not target.exists()


def test_deploy_dir_mirrors_over_its_own_mirror_but_not_over_a_file_put_there(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    www = tmp_path / "www"
    code, err = _run(site, monkeypatch, capsys, "deploy", "--dir", str(www))
    assert code == 0, err
    assert _tree(www) == _tree(site / "dist")
    code, err = _run(site, monkeypatch, capsys, "deploy", "--dir", str(www))
    assert code == 0, err  # an earlier mirror: its manifest matches
    (www / "CNAME").write_text("puzzles.example.org\n")
    before = _tree(www)
    code, err = _run(site, monkeypatch, capsys, "deploy", "--dir", str(www))
    _one_line(code, err, "--dir", "1 file(s) no deploy wrote (CNAME)")
    assert _tree(www) == before


# --------------------------------------------------------------------------- 3. names


def _bank(inputs: Any, params: Any, progress: Any) -> dict[str, Any]:
    return {"boards": [1, 2]}


def _boom(inputs: Any, params: Any, progress: Any) -> dict[str, Any]:
    return {"x": 1 // params["zero"]}


def _toy(pkg: Path, *stages: Stage, slug: str = "toy") -> Puzzle:
    pkg.mkdir(exist_ok=True)
    (pkg / "code.py").write_text("SIZE = 1\n")
    return Puzzle(slug=slug, names={"en": "Toy", "ja": "トイ"}, pid="toy", package_dir=pkg,
                  rungs=("a",), rung_names={}, rules=RuleBook(()), board_from_json=None,
                  answer_from_json=None, decode=None, encode=None, violations=None,
                  solve=None, brute=None, answer_rows=None, render_board=None,
                  draw_board=None, generate=None, trace=None, play=PlaySpec("cells", {}, {}),
                  stages=stages)


@pytest.mark.parametrize("name", ["../../../escaped-ledger", "a/b", "Bank", "en", "shared",
                                  ".hidden", "", "x" * 65])
def test_a_stage_name_that_breaks_the_rule_is_refused_before_any_write(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Stage("../../../escaped-ledger", ...)` once wrote escaped-ledger.json into the
    site's parent folder."""
    root = tmp_path / "a" / "b" / "site"
    root.mkdir(parents=True)
    toy = _toy(tmp_path / "pkg", Stage("bank", _bank, {}), Stage(name, _bank, {}, ("bank",)))
    monkeypatch.setattr(registry, "get", lambda slug: toy)
    before = _tree(tmp_path)
    with pytest.raises(UserError, match=r"puzzle plugin 'toy': stage .* \(lower-case"):
        pipeline.run_all(root, ["toy"], jobs=1, quiet=True)
    assert _tree(tmp_path) == before


def test_the_one_rule_takes_every_name_in_use() -> None:
    for slug in registry.slugs():
        assert names.problem(slug) is None, slug
        for s in pipeline.all_stages(registry.get(slug)):
            assert names.problem(s.name) is None, (slug, s.name)
    assert names.problem("my-puzzle2") is None
    for bad in ("../x", "a/b", "A", "2x", "a.b", "a b", "play", "static", "index", "runtime",
                "ja", "en", "shared", "é"):
        assert names.problem(bad) is not None, bad
    assert names.file_problem("play/my-puzzle.js") is None
    for bad in ("../x.js", "play/.x.js", "play/X.js", "play//x.js", "play/x..js"):
        assert names.file_problem(bad) is not None, bad


def test_a_plugin_file_name_that_breaks_the_rule_is_refused(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from site_builder import sources

    fake = site / "fakestatic"
    (fake / "play").mkdir(parents=True)
    (fake / "play" / "Sukoro Copy.js").write_text("x")
    monkeypatch.setattr(sources, "plugin_static", lambda p: fake)
    with pytest.raises(UserError, match="'play/Sukoro Copy.js' is not a file name a plugin"):
        sources.static_sources(site, [registry.get("sukoro")])


def test_site_toml_listing_a_plugin_with_a_reserved_slug_is_refused(tmp_path: Path) -> None:
    """A plugin named `en` or `shared` once built and passed `check`."""
    for slug in ("en", "shared", "static"):
        with pytest.raises(UserError, match=f"key 'puzzles': the puzzle plugin's slug "
                                            f"'{slug}' is reserved"):
            config.parse(tmp_path, f'puzzles = ["{slug}"]\n', installed=[slug, "sukoro"])


# --------------------------------------------------------------------------- 4. own folders


@pytest.mark.parametrize("args", [["build", "-q", "--out", "{repo}/solvers/x"],
                                  ["new", "site", "{repo}/site_builder/theme/x"],
                                  ["new", "puzzle", "zzz", "{repo}/site_builder/theme/pz"],
                                  ["new", "site", "{site}/content/x"],
                                  ["new", "site", "{site}/templates/x"]])
def test_nothing_is_written_into_the_tools_own_folders(args: list[str], site: Path,
                                                      no_stages: None,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """`build --out solvers/x` once wrote the 52 MB site into the solvers package."""
    args = [a.format(repo=REPO, site=site) for a in args]
    code, err = _run(site, monkeypatch, capsys, *args)
    _one_line(code, err, "overlaps", "nothing was written")
    assert not Path(args[-1]).exists()


# --------------------------------------------------------------------------- 5. --to


def test_deploy_to_refuses_a_commit_made_by_hand_on_the_pages_branch(site: Path,
                                                                     tmp_path: Path) -> None:
    """A hand commit adding foreign.txt (or a CNAME) on top of a deploy kept .build.json
    and .nojekyll in its tree, and the next deploy replaced it without --force."""
    bare = tmp_path / "pages.git"
    _git(tmp_path, "init", "-q", "--bare", str(bare))
    out = site / "dist"
    assert deploy(out, str(bare))
    work = tmp_path / "work"
    _git(tmp_path, "clone", "-q", "-b", "gh-pages", str(bare), str(work))
    (work / "CNAME").write_text("puzzles.example.org\n")
    _git(work, "add", "CNAME")
    _git(work, "commit", "-qm", "Create CNAME")
    _git(work, "push", "-q", "origin", "gh-pages")
    tip = _git(tmp_path, "--git-dir", str(bare), "rev-parse", "gh-pages")
    (out / "robots.txt").write_text("User-agent: *\n")  # a new site to publish
    with pytest.raises(UserError, match=r"is not a previous deploy.*its message is not a "
                                        r"deploy's.*--force"):
        deploy(out, str(bare))
    assert _git(tmp_path, "--git-dir", str(bare), "rev-parse", "gh-pages") == tip

    # the marker message kept (an amended deploy commit) with a file added: the tree
    # is not the site its manifest lists
    _git(work, "reset", "-q", "--hard", "HEAD~1")
    (work / "foreign.txt").write_text("mine\n")
    _git(work, "add", "foreign.txt")
    msg = _git(work, "log", "-1", "--format=%B")
    assert MARKER in msg
    _git(work, "commit", "-q", "--amend", "-m", msg)
    _git(work, "push", "-q", "-f", "origin", "gh-pages")
    tip = _git(tmp_path, "--git-dir", str(bare), "rev-parse", "gh-pages")
    with pytest.raises(UserError, match=r"its tree differs from the site its .build.json "
                                        r"lists \(foreign.txt\)"):
        deploy(out, str(bare))
    assert _git(tmp_path, "--git-dir", str(bare), "rev-parse", "gh-pages") == tip
    assert deploy(out, str(bare), force=True)  # the one way past


# --------------------------------------------------------------------------- 6. repair


def test_a_stray_file_in_dist_is_removed_by_the_build_in_one_line(
        site: Path, no_stages: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A stray file once survived `build` (exit 0) while `check` failed on it, blocking
    deploy until it was deleted by hand."""
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    (site / "dist" / "stray.txt").write_text("x\n")
    (site / "dist" / "en" / "junk").mkdir()
    (site / "dist" / "en" / "junk" / "a.txt").write_text("y\n")
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    said = [x for x in err.splitlines() if "what no build wrote" in x]
    assert said == [("build-site: removed from dist/ what no build wrote: en/junk/a.txt, "
                    "stray.txt, en/junk/")], err
    assert not (site / "dist" / "stray.txt").exists()
    assert not (site / "dist" / "en" / "junk").exists()
    assert check_site(site / "dist", site) == []


@pytest.mark.parametrize("spoil", ["folder", "junk", "gone"])
def test_a_broken_build_json_is_replaced(spoil: str, site: Path, no_stages: None,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A .build.json that became a folder once made every build refuse ("holds 12
    entries ... and no .build.json")."""
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    info = site / "dist" / BUILD_INFO
    good = info.read_bytes()
    info.unlink()
    if spoil == "folder":
        info.mkdir()
        (info / "x").write_text("x")
    elif spoil == "junk":
        info.write_text("junk\n")
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    assert info.is_file() and json.loads(info.read_bytes())["manifest"] == \
        json.loads(good)["manifest"]
    assert check_site(site / "dist", site) == []


# --------------------------------------------------------------------------- 7. new


@pytest.mark.parametrize("slug", ["play", "shared", "en", "ja", "static", "index", "runtime"])
def test_new_puzzle_refuses_a_reserved_slug(slug: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """`new puzzle play` was accepted, and every site using it failed ("ships
    static/play/play.js, which the theme already has"); `en` and `shared` built."""
    code, err = _run(tmp_path, monkeypatch, capsys, "new", "puzzle", slug, str(tmp_path / "p"))
    _one_line(code, err, f"'{slug}' is reserved")
    assert not (tmp_path / "p").exists()


def test_new_site_with_a_puzzle_named_twice_leaves_nothing(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    """`new site D --puzzles sukoro sukoro` said "File exists" and left D half-written."""
    code, err = _run(tmp_path, monkeypatch, capsys, "new", "site", "D", "--puzzles", "sukoro",
                     "sukoro")
    _one_line(code, err, "sukoro twice")
    assert not (tmp_path / "D").exists()


def test_new_site_that_fails_half_way_leaves_nothing(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from site_builder import scaffold

    def full(*a: Any, **k: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(scaffold.shutil, "copytree", full)
    for dest in (tmp_path / "new", tmp_path / "empty"):
        if dest.name == "empty":
            dest.mkdir()
        with pytest.raises(UserError, match="No space left on device.*nothing was left"):
            scaffold.new_site(dest, ["sukoro"])
        assert (dest.exists() and not any(dest.iterdir())) if dest.name == "empty" \
            else not dest.exists()


# --------------------------------------------------------------------------- 8. one language


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_site_in_one_language_builds_checks_and_deploys(lang: str, tmp_path: Path,
                                                         no_stages: None,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """`languages = ["ja"]` once failed: "404.html: links to '/en/index.html'"."""
    root = _copy_site(tmp_path / "site", [lang])
    code, err = _run(root, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    dist = root / "dist"
    other = "en" if lang == "ja" else "ja"
    assert (dist / lang / "index.html").is_file() and not (dist / other).exists()
    page = (dist / "404.html").read_text(encoding="utf-8")
    assert f'<html lang="{lang}">' in page and f"/{other}/" not in page
    readme = "README.md" if lang == "en" else "README.ja.md"
    assert (dist / "sukoro" / readme).is_file()
    assert check_site(dist, root) == []
    code, err = _run(root, monkeypatch, capsys, "deploy", "--dir", str(tmp_path / "www"))
    assert code == 0, err


def test_the_404_page_of_a_two_language_site_is_as_before(built: Path) -> None:
    """The 404 template now follows the site's languages; for en and ja it writes the
    lines the fixed two-language template wrote (taken from a build before the change:
    the whole page's sha256 was the same, 628ba103...)."""
    page = (built / "dist" / "404.html").read_text(encoding="utf-8").splitlines()
    assert page[1] == '<html lang="en">'
    assert page[22:25] == [
        '<h1>Page not found · <span lang="ja">ページが<wbr>見つかりません</span></h1>',
        ('<p>There is nothing at this address. <span lang="ja">このアドレスには何もありません。'
        '</span></p>'),
        ('<p><a href="/en/index.html">All puzzles</a> · <a href="/ja/index.html" lang="ja">'
        'パズル一覧</a></p>')]


# --------------------------------------------------------------------------- 9. plugin raises


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_stage_that_raises_is_one_line_naming_plugin_stage_and_cause(
        jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin stage that raised printed a 44-line traceback."""
    root = tmp_path / "site"
    toy = _toy(tmp_path / "pkg", Stage("bank", _bank, {}),
               Stage("stats", _boom, {"zero": 0}, ("bank",)))
    monkeypatch.setattr(registry, "get", lambda slug: toy)
    with pytest.raises(UserError) as e:
        pipeline.run_all(root, ["toy"], jobs=jobs, quiet=True)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith("puzzle plugin 'toy': stage 'stats' failed: ZeroDivisionError: "
                          "integer division or modulo by zero (at test_hardening_writes.py:"), msg
    assert msg.endswith("in _boom); content/toy/stats.json is unchanged"), msg
    assert not (root / "content" / "toy" / "stats.json").exists()


def test_the_cli_prints_a_raising_stage_as_one_line(site: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    def raising(*a: Any, **k: Any) -> list[str]:
        toy = _toy(tmp_path / "pkg", Stage("bank", _boom, {"zero": 0}))
        monkeypatch.setattr(registry, "get", lambda slug: toy)
        return pipeline.run_plans(site, [pipeline.Plan("toy", {"bank": "k"}, ["bank"])],
                                  pipeline.InProcess(), pipeline.Progress(quiet=True))

    monkeypatch.setattr(pipeline, "run_all", raising)
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    _one_line(code, err, "puzzle plugin 'toy': stage 'bank' failed: ZeroDivisionError")


# --------------------------------------------------------------------------- 10. source state


def test_the_no_change_build_records_the_source_state_of_now(
        site: Path, no_stages: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """After `echo x > solvers/sukoro/NOTES.txt` the build took the no-change path and
    kept the clean state. Here a folder of the site stands for the puzzle's package
    (what the source state covers and no page reads)."""
    from site_builder import buildinfo, stamp

    pkg = site / "pkg"
    pkg.mkdir()
    (pkg / "code.py").write_text("X = 1\n")
    plain, stamped = buildinfo.input_paths, stamp.inputs
    monkeypatch.setattr(buildinfo, "input_paths",
                        lambda root, slugs: [*plain(root, slugs), root / "pkg"])
    # the fast no-change answer (stamp.py) watches every puzzle package's folder, so a
    # file added there takes the build to the renderer's no-change path, as here
    monkeypatch.setattr(stamp, "inputs",
                        lambda root, puzzles: [*stamped(root, puzzles), str(root / "pkg")])
    shutil.rmtree(site / "dist")
    _git(site, "init", "-q")
    (site / ".gitignore").write_text("/dist/\n/.cache/\n")
    _git(site, "add", "-A")
    _git(site, "commit", "-qm", "site")
    head = _git(site, "rev-parse", "HEAD")
    for _ in range(2):
        code, err = _run(site, monkeypatch, capsys, "build", "-q")
        assert code == 0, err
    info = json.loads((site / "dist" / BUILD_INFO).read_text())
    assert info["source"] == {"commit": head, "state": head[:12], "changed": []}
    (pkg / "NOTES.txt").write_text("x\n")
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    info = json.loads((site / "dist" / BUILD_INFO).read_text())
    assert info["source"] == {"commit": head, "state": f"{head[:12]}+dirty",
                              "changed": ["pkg/NOTES.txt"]}
    (pkg / "NOTES.txt").unlink()
    code, err = _run(site, monkeypatch, capsys, "build", "-q")
    assert code == 0, err
    info = json.loads((site / "dist" / BUILD_INFO).read_text())
    assert info["source"]["state"] == head[:12]


# --------------------------------------------------------------------------- 11. pid aliases


# pzprjs src/pzpr/variety.js: the names (pid and every alias value) it reads for each of
# our genres; Slitherlink's entry carries { kanpen: "slitherlink" }, the others none
PZPRJS_NAMES = {"canal": (), "nanro": (), "sashigane": (), "sukoro": (),
                "slither": ("slitherlink",)}


def test_every_puzzle_takes_each_pid_alias_pzprjs_reads() -> None:
    from site_builder.solve import load_board, pid_aliases
    from site_builder.solve_web import classify

    for slug in registry.slugs():
        p = registry.get(slug)
        assert set(pid_aliases(p)) == set(PZPRJS_NAMES[p.pid]), slug
        url = p.encode(p.board_from_json(
            json.loads((REPO / "content" / slug / "bank.json").read_bytes())
            ["data"]["boards"][0]["board"]))
        want = p.board_from_json(json.loads(json.dumps(load_board(p, url).to_json())))
        for alias in pid_aliases(p):
            for suffix in ("", "_edit"):
                text = url.replace(f"?{p.pid}/", f"?{alias}{suffix}/")
                assert load_board(p, text).to_json() == want.to_json(), (slug, text)
                assert classify(p, text) is None
                bare = text.split("?", 1)[1]
                assert load_board(p, bare).to_json() == want.to_json()
            for other in registry.slugs():  # another puzzle's page names the genre
                if other != slug:
                    got = classify(registry.get(other), url.replace(f"?{p.pid}/", f"?{alias}/"))
                    assert got is not None and got["error"] == "other" and got["slug"] == slug


def test_the_slitherlink_cli_solves_its_alias_pid(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`solve slitherlink` once refused the slitherlink pid ("expected 'slither'")."""
    if "slitherlink" not in registry.slugs():
        pytest.skip("the Slitherlink plugin is not installed")
    p = registry.get("slitherlink")
    board = json.loads((REPO / "content" / "slitherlink" / "bank.json").read_bytes()
                       )["data"]["boards"][0]["board"]
    url = p.encode(p.board_from_json(board)).replace("?slither/", "?slitherlink/")
    code = cli.main(["solve", "slitherlink", url, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    alias = json.loads(out.out)
    assert cli.main(["solve", "slitherlink", url.replace("?slitherlink/", "?slither/"),
                     "--json"]) == 0
    own = json.loads(capsys.readouterr().out)
    assert alias["solutions"] == own["solutions"] == 1 and alias["answer"] == own["answer"]


def _sha(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def test_targets_trust_rule_on_its_own(tmp_path: Path) -> None:
    """The trust rule: a manifest that parses and whose hashes match the files it lists."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.html").write_bytes(b"a")
    (d / BUILD_INFO).write_text(json.dumps({"manifest": {"a.html": _sha(b"a")}}))
    assert targets.trusted(d) == (True, "")
    (d / "a.html").write_bytes(b"b")
    assert targets.trusted(d)[0] is False
    (d / BUILD_INFO).write_text(json.dumps({"manifest": {"../x": _sha(b"a")}}))
    assert targets.trusted(d)[0] is False
    (d / BUILD_INFO).write_text(json.dumps({"manifest": {}}))  # lists nothing: no build's
    assert targets.trusted(d) == (False, ("its .build.json lists no file (a build lists every "
                                         "file it wrote)"))
