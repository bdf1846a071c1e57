"""A site of one's own: `build-site new site`, site.toml and its errors, overrides through
the search path, puzzles found through entry points, and nothing written where there is
no site."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from site_builder import config
from site_builder.errors import UserError
from solvers import registry

REPO = Path(__file__).resolve().parent.parent


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "site_builder.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, check=False,
                          env=dict(os.environ, PYTHONPATH=str(REPO)))


def tree(path: Path) -> dict[str, str]:
    return {p.relative_to(path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("new") / "mysite"
    r = run(site.parent, "new", "site", str(site))
    assert r.returncode == 0, r.stderr
    assert "build-site serve" in r.stdout
    return site


def test_new_site_builds_only_renders_and_checks(made: Path) -> None:
    assert {"site.toml", "README.md", ".gitignore", "templates/README.md"} <= set(tree(made))
    cfg = config.load(made)
    assert list(cfg.puzzles) == registry.slugs()
    # the puzzles' shipped content is current against their code: the build only renders
    r = run(made, "build", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "all stages current" in r.stdout
    r = run(made, "check")
    assert r.returncode == 0, r.stdout + r.stderr
    # the content is the puzzles' own, byte for byte
    for slug in cfg.puzzles:
        assert tree(made / "content" / slug) == tree(REPO / "content" / slug)


def test_new_site_refuses_a_folder_in_use(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep me")
    r = run(tmp_path, "new", "site", str(tmp_path))
    assert r.returncode == 2 and "not an empty folder" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


@pytest.mark.parametrize("command", [["build"], ["serve", "--port", "0"], ["check"],
                                     ["deploy", "--dir", "x"], ["verify"]])
def test_no_site_no_writes(tmp_path: Path, command: list[str]) -> None:
    before = tree(tmp_path)
    r = run(tmp_path, *command)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "no site.toml in" in lines[0], r.stderr
    assert "build-site new site DIR" in lines[0]
    assert tree(tmp_path) == before and not list(tmp_path.iterdir())


def _site(tmp_path: Path, text: str) -> Path:
    (tmp_path / "site.toml").write_text(text)
    (tmp_path / "content").mkdir()
    return tmp_path


@pytest.mark.parametrize(("text", "needle"), [
    ('puzzles = ["nanro"]\ncolour = "red"\n', "key 'colour': unknown key (allowed: title,"),
    ('puzzles = ["no-such"]\n', "key 'puzzles': unknown puzzle 'no-such' (installed: "),
    ('puzzles = []\n', "key 'puzzles': expected a non-empty list"),
    ('puzzles = ["nanro"]\nlanguages = ["fr"]\n', "'fr' is not a language the theme has"),
    ('puzzles = ["nanro"]\n[deploy]\nbranch = 3\n', "key 'deploy.branch': expected a non-empty"),
    ('puzzles = ["nanro", "nanro"]\n', "a puzzle is listed twice"),
    ('puzzles = ["nanro"\n', "not valid TOML"),
    ('puzzles = ["nanro"]\ntitle = { en = "Mine" }\n', "key 'title': no text for ja"),
])
def test_bad_configuration_is_one_line(tmp_path: Path, text: str, needle: str) -> None:
    site = _site(tmp_path, text)
    r = run(site, "build")
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and str(site / "site.toml") in lines[0], r.stderr
    assert needle in lines[0], lines[0]
    assert sorted(p.name for p in site.iterdir()) == ["content", "site.toml"]


def test_a_language_without_its_article(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jinja2

    from site_builder.site import Site

    site = _site(tmp_path, 'puzzles = ["nanro"]\n')
    real = jinja2.ChoiceLoader.list_templates
    monkeypatch.setattr(jinja2.ChoiceLoader, "list_templates",
                        lambda self: [n for n in real(self) if n != "nanro/article.ja.md.j2"])
    with pytest.raises(UserError, match=r"key 'languages': 'ja' is listed, but nanro has no "
                                        r"nanro/article\.ja\.md\.j2"):
        Site(site, load_data=False)


def test_one_language_site(made: Path, tmp_path: Path) -> None:
    """A site in English only renders no Japanese page and links none."""
    import shutil

    site = tmp_path / "en-only"
    shutil.copytree(made, site, ignore=shutil.ignore_patterns("dist", ".cache"))
    toml = (site / "site.toml").read_text().replace('languages = ["en", "ja"]',
                                                      'languages = ["en"]')
    (site / "site.toml").write_text(toml + "")
    r = run(site, "build", "--quiet")
    assert r.returncode == 0, r.stderr
    pages = [p for p in tree(site / "dist") if p.endswith(".html")]
    assert pages and not [p for p in pages if p.startswith("ja/")]
    assert not [p for p in pages if 'hreflang="ja"' in (site / "dist" / p).read_text()]
    assert run(site, "check").returncode == 0


def test_a_site_template_overrides_the_puzzles(made: Path, tmp_path: Path) -> None:
    import shutil

    site = tmp_path / "over"
    shutil.copytree(made, site, ignore=shutil.ignore_patterns(".cache"))
    hook = site / "templates" / "sukoro" / "hook.en.md.j2"
    hook.parent.mkdir(parents=True)
    hook.write_text("My own words about this puzzle.\n")
    css = site / "templates" / "static" / "site.css"
    css.parent.mkdir(parents=True)
    css.write_text("body { color: #123; }\n")
    r = run(site, "build", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "My own words about this puzzle." in (site / "dist/index.html").read_text()
    assert (site / "dist/static/site.css").read_text() == "body { color: #123; }\n"
    assert run(site, "check").returncode == 0


def test_version_and_list() -> None:
    r = run(REPO, "--version")
    assert r.returncode == 0 and r.stdout.startswith("build-site ")
    for slug in registry.slugs():
        assert f"  {slug} {registry.version(slug)}" in r.stdout
    r = run(REPO, "list")
    assert r.returncode == 0, r.stdout + r.stderr
    for slug in registry.slugs():
        assert any(line.split()[:2] == [slug, registry.package(slug)]
                   for line in r.stdout.splitlines()), r.stdout


def test_every_argument_has_help() -> None:
    from site_builder.cli import _parser

    def walk(p) -> list[str]:  # type: ignore[no-untyped-def]
        bad = []
        for a in p._actions:
            if a.__class__.__name__ == "_SubParsersAction":
                for sub in a.choices.values():
                    bad += walk(sub)
            elif not a.help:
                bad.append(f"{p.prog} {a.dest}")
        return bad

    assert walk(_parser()) == []


def _with(monkeypatch: pytest.MonkeyPatch, extra: list[registry.Entry]) -> None:
    rows = registry._declared() + extra
    monkeypatch.setattr(registry, "_scan", lambda: registry.table(rows))
    registry.get.cache_clear()


def test_broken_plugins_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    _with(monkeypatch, [
        registry.Entry("ghost", "no_such_package_here:PUZZLE", "ghost-dist", "1.0"),
        registry.Entry("notapuzzle", "json:dumps", "odd-dist", "2.0"),
        registry.Entry("nanro", "solvers.nanro:PUZZLE", "copycat", "0.1"),
    ])
    try:
        problems = registry.problems()
        assert "cannot import no_such_package_here: ModuleNotFoundError" in problems["ghost"]
        assert "json:dumps is not a Puzzle" in problems["notapuzzle"]
        assert "slug declared by copycat (solvers.nanro:PUZZLE) and puzzle-portfolio" \
            in problems["nanro"]
        assert set(problems) == {"ghost", "notapuzzle", "nanro"}
        assert registry.get("sukoro").slug == "sukoro"  # the others still load
    finally:
        registry.get.cache_clear()


def test_a_broken_plugin_does_not_stop_the_others(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import shutil

    from site_builder import cli, pipeline

    site = tmp_path / "s"
    site.mkdir()
    shutil.copytree(REPO / "content" / "sukoro", site / "content" / "sukoro")
    (site / "site.toml").write_text('puzzles = ["sukoro", "ghost"]\n')
    _with(monkeypatch, [registry.Entry("ghost", "no_such_package_here:PUZZLE", "g", "1")])
    monkeypatch.setattr(pipeline, "run_all", lambda *a, **k: [])
    monkeypatch.chdir(site)
    try:
        code = cli.main(["build", "--quiet"])
    finally:
        registry.get.cache_clear()
    err = capsys.readouterr().err
    assert code == 1, err
    assert "skipped: puzzle plugin 'ghost' (g 1): cannot import no_such_package_here" in err
    assert (site / "dist" / "en" / "sukoro" / "index.html").is_file()
    assert not (site / "dist" / "en" / "ghost").exists()


def test_the_wheel_carries_the_theme_the_puzzles_and_their_content(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                        "-q", "-w", str(tmp_path), str(REPO)], capture_output=True, text=True,
                       timeout=600, check=False)
    assert r.returncode == 0, r.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "site_builder/theme/layout.html.j2" in names
    assert "site_builder/theme/static/play/play.js" in names
    assert "site_builder/pins/package-lock.json" in names
    for slug in ("canal-view", "nanro", "sashigane", "sukoro"):
        pkg = registry.package(slug).replace(".", "/")
        assert f"{pkg}/templates/article.ja.md.j2" in names, slug
        assert f"{pkg}/static/play/{slug}.js" in names, slug
        assert f"{pkg}/content/bank.json" in names, slug
    ep = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(ep).decode()
    assert "[build_site.puzzles]" in text


def test_a_plugin_wheel_carries_its_content_so_a_new_site_only_renders(tmp_path: Path) -> None:
    """Issue 47 item 7: the Slitherlink plugin's wheel ships the content its stages wrote
    (the files of content/slitherlink at wheel-build time, as the built-in puzzles' wheel
    does), so a site made by ``new site`` from installed wheels, with no checkout to fall
    back on, starts with every stage current and its first build only renders."""
    wheels, target = tmp_path / "wheels", tmp_path / "installed"
    for src in (REPO, REPO / "plugins" / "slitherlink"):
        r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "--no-build-isolation", "-w", str(wheels), str(src)],
                           capture_output=True, text=True, timeout=600, check=False)
        assert r.returncode == 0, r.stderr
    for wheel in wheels.glob("*.whl"):
        zipfile.ZipFile(wheel).extractall(target)
    shipped = target / "slitherlink" / "content"
    assert tree(shipped) == tree(REPO / "content" / "slitherlink")
    # the installed copies only (the checkout's site_builder would fall back on its content/)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(PYTHONPATH=str(target), BUILD_SITE_CACHE=str(tmp_path / "cache"))

    def tool(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "site_builder.cli", *args], cwd=cwd,
                              capture_output=True, text=True, timeout=600, check=False,
                              env=env)

    where = tool(tmp_path, "list")
    assert where.returncode == 0, where.stderr
    code = "import site_builder, slitherlink; print(site_builder.__file__, slitherlink.__file__)"
    r = subprocess.run([sys.executable, "-c", code],
                       capture_output=True, text=True, env=env, check=True, cwd=tmp_path)
    assert all(Path(line).is_relative_to(target) for line in r.stdout.split()), r.stdout
    site = tmp_path / "site"
    r = tool(tmp_path, "new", "site", str(site), "--puzzles", "slitherlink")
    assert r.returncode == 0, r.stderr
    assert "computes" not in r.stdout, r.stdout
    assert tree(site / "content" / "slitherlink") == tree(REPO / "content" / "slitherlink")
    r = tool(site, "build")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "all stages current" in r.stdout, r.stdout
    assert (site / "dist" / "en" / "slitherlink" / "index.html").is_file()
