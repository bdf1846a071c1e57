"""The rendering context: Jinja environments, JSON Nodes, page shells and relative links."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from functools import cached_property, partial
from pathlib import Path
from typing import Any

import budoux
import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup
from mdit_py_plugins.anchors import anchors_plugin
from mdit_py_plugins.superscript import superscript_plugin

from site_builder import charts, i18n, words
from site_builder.boards import board_svg
from site_builder.errors import UserError
from site_builder.jsonio import load_stages
from site_builder.provenance import (
    DataError,
    Filters,
    Node,
    ProvenanceError,
    TypedDigits,
    lit_vocabulary,
    strip_marks,
)
from site_builder.sources import shown_path, template_loader
from site_builder.tables import fit_tables

LANGS = ("en", "ja")

UI: dict[str, dict[str, str]] = i18n.table("site")


# One word per thing (site_builder/lang/*.toml, [glossary]): templates print these.
GLOSSARY: dict[str, dict[str, str]] = i18n.table("glossary")


def rel(from_path: str, target: str) -> str:
    """A relative URL from the page at ``from_path`` to ``target`` (both dist-relative).

    A target ending in ``/`` (or ``index.html``) is a directory and keeps its slash.
    """
    target = target.removesuffix("index.html")
    is_dir = target == "" or target.endswith("/")
    start = posixpath.dirname(from_path) or "."
    r = posixpath.relpath(target or ".", start)
    if is_dir:
        r = "./" if r == "." else r + "/"
    return r


# Hiragana, katakana, CJK ideographs and punctuation, full-width forms.
_CJK = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def _edge_char(tokens: list[Any], idx: int, step: int) -> str:
    """The character next to the line break at ``tokens[idx]``, looking back (step -1) or
    ahead (+1) through the inline tokens (markup such as ``<data>`` is skipped)."""
    i = idx + step
    while 0 <= i < len(tokens):
        t = tokens[i]
        if t.type == "text" and t.content:
            return t.content[-1] if step < 0 else t.content[0]
        if t.type in ("softbreak", "hardbreak"):
            return ""
        if t.type == "html_inline" and not t.content.startswith("</"):
            i += step  # <data ...> opens; its text follows
            continue
        i += step
    return ""


def _softbreak(self: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
    """A line break inside a paragraph is a space in English, but nothing between two
    Japanese characters (a space there reads as a stray gap)."""
    if _CJK.match(_edge_char(tokens, idx, -1)) and _CJK.match(_edge_char(tokens, idx, 1)):
        return ""
    return "\n"


# Japanese running text sets numbers and sizes solid with the words around them
# (「5×5では」, 「26倍」), as Japanese is written, whatever spacing a template used: the one
# rule for every page and README. A number is a printed figure (<data>) or a literal that
# starts with a digit (a size such as 8×8); Latin words keep their spaces.
_CJK_CLASS = _CJK.pattern
_NUMERAL_HTML = r'(?:<data\b[^>]*>[^<]*</data>|<span class="lit">[\d−][^<]*</span>)'
_NUMERAL_TEXT = "(?:\ue000[^\ue001]*\ue001(?:[\\d−—][^\ue002]*)?\ue002)"


def _solid(numeral: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    # emphasis may wrap the number: 「**91.5%** を」 is set solid as well
    return (re.compile(rf"(?<={_CJK_CLASS}) +(?=(?:<(?:strong|em)>)*{numeral})"),
            re.compile(rf"({numeral}(?:</(?:strong|em)>)*) +(?={_CJK_CLASS})"))


_SOLID_HTML, _SOLID_TEXT = _solid(_NUMERAL_HTML), _solid(_NUMERAL_TEXT)


def japanese_spacing(text: str, *, marked: bool = False) -> str:
    """``text`` with no space between a Japanese character and an adjacent number
    (``marked``: text-mode output, whose numbers are still in their sentinels)."""
    before, after = _SOLID_TEXT if marked else _SOLID_HTML
    return after.sub(r"\1", before.sub("", text))


_BUDOUX = budoux.load_default_japanese_parser()
# Elements whose Japanese text must not break inside a word: a break is allowed only
# between BudouX phrases (a <wbr>), with ``word-break: keep-all`` in site.css.
_PHRASED = re.compile(r"<(h[1-4]|th|caption|figcaption)\b([^>]*)>(.*?)</\1>", re.DOTALL)
_TAG = re.compile(r"(<[^>]+>)")
_ENTITY = re.compile(r"(&#?\w+;)")
# No break just inside an opening bracket or before closing punctuation.
_NO_BREAK = re.compile(r"(?<=[（「『【〔［｛〈《])<wbr>|<wbr>(?=[）」』】〕］｝〉》、。，．・：；？！])")
# Inline elements whose text is one unit (a figure, a literal, the heading's anchor).
_ATOMIC = re.compile(r'<(data|code|a class="header-anchor"|span class="lit")\b')


def _phrase(text: str) -> str:
    if not _CJK.search(text):
        return text
    out = []
    for part in _ENTITY.split(text):
        core = part.strip()
        if _ENTITY.fullmatch(part) or not core:
            out.append(part)
            continue
        lead, tail = part[: len(part) - len(part.lstrip())], part[len(part.rstrip()):]
        out.append(lead + "<wbr>".join(_BUDOUX.parse(core)) + tail)
    return _NO_BREAK.sub("", "".join(out))


def _phrase_inner(inner: str) -> str:
    out, skip = [], ""
    depth = 0
    for part in _TAG.split(inner):
        if part.startswith("<"):
            if skip:
                name = skip.split()[0]
                if part.startswith(f"<{name}"):
                    depth += 1
                elif part.startswith(f"</{name}"):
                    depth -= 1
                    if depth == 0:
                        skip = ""
            else:
                m = _ATOMIC.match(part)
                if m and not part.endswith("/>"):
                    skip, depth = m.group(1), 1
            out.append(part)
        else:
            out.append(part if skip else _phrase(part))
    return "".join(out)


def phrase_breaks(html: str) -> str:
    """Japanese headings, table headers and captions with a ``<wbr>`` between BudouX
    phrases, so a narrow screen wraps them between words, never inside one."""
    return _PHRASED.sub(lambda m: f"<{m[1]}{m[2]}>{_phrase_inner(m[3])}</{m[1]}>", html)


# A table's caption is the italic paragraph written right after it in the Markdown.
_CAPTIONED = re.compile(r"<table>\n((?:(?!<table>).)*?)</table>\n<p><em>((?:(?!</p>).)*)</em></p>\n",
                        re.DOTALL)


def table_captions(html: str) -> str:
    """Each table's following italic paragraph becomes its ``<caption>``, and each table
    sits in a wrapper that scrolls sideways on a narrow screen."""
    html = _CAPTIONED.sub(lambda m: f"<table>\n<caption>{m[2]}</caption>\n{m[1]}</table>\n",
                          html)
    html = fit_tables(html)
    return html.replace("<table>", '<div class="table-wrap"><table>').replace(
        "</table>", "</table></div>")


# Compiled templates are kept on disk under the site's .cache/jinja/, one folder per kind
# of environment (autoescape and the filters' mode change the code Jinja makes; the
# bucket key names only the template), so a fresh process does not compile an unchanged
# template again. Jinja compares a checksum of the source and its own version, so an
# edited template, or another Jinja, compiles afresh.
_ENVS: dict[tuple[Any, ...], jinja2.Environment] = {}
_PARSED: dict[tuple[str, Any], Any] = {}  # a stage file's data, by its path and bytes
# Markdown made HTML, by the Markdown text (block or inline): the conversion is a function
# of the text alone (the parser's setup is fixed in this module), so under serve an edit
# that leaves an article's text as it was (the layout, a figure it does not print) does not
# parse and render it again. Bounded: the oldest goes first.
_MD_HTML: dict[tuple[bool, str], str] = {}
_MD_KEEP = 512


def _md_memo(inline: bool, text: str, make: Callable[[str], str]) -> str:
    key = (inline, text)
    got = _MD_HTML.get(key)
    if got is None:
        got = _MD_HTML[key] = make(text)
        while len(_MD_HTML) > _MD_KEEP:
            del _MD_HTML[next(iter(_MD_HTML))]
    return got


def _bytecode_cache(root: Path, kind: str) -> jinja2.BytecodeCache | None:
    folder = root / ".cache" / "jinja" / kind
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a read-only checkout: compile in memory, as before
    return _SafeBytecodeCache(str(folder))


class _SafeBytecodeCache(jinja2.FileSystemBytecodeCache):
    """A compiled template that cannot be read back (a truncated or corrupt cache file)
    is compiled again, as if it were not there: the cache is only a speed-up."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:  # noqa: BLE001 (unpickling, unmarshalling: any fault is a miss)
            bucket.reset()


def _compiler_digest(root: Path, env: jinja2.Environment) -> str:
    """What Jinja's compiled code depends on besides a template's source (which the
    bytecode cache checks itself): whether each filter and test takes the context, the
    extensions, the options, and the code defining them (provenance, site, tracking)."""
    import hashlib

    from site_builder import filecache

    here = Path(__file__).resolve().parent
    parts = [jinja2.__version__, repr(sorted(
        (kind, name, str(getattr(fn, "jinja_pass_arg", None)))
        for kind, table in (("f", env.filters), ("t", env.tests)) for name, fn in table.items())),
             repr(sorted(env.extensions)), repr((env.autoescape, env.trim_blocks,
                                                 env.lstrip_blocks, env.keep_trailing_newline)),
             *(str(filecache.for_site(root).sha(here / m))
               for m in ("provenance.py", "site.py", "tracking.py"))]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:12]


def _numci(f: Filters) -> Any:
    """The ``numci`` filter: ``num``, then, for a sampled value (``site_builder.samples``),
    its interval in square brackets, each bound through ``num`` in the same format
    (``72.8% [70.1%–75.2%]``; Japanese: ``72.8%[70.1%～75.2%]``). The interval is read
    from the stage file's Node in the template's context, so it is tracked and proved
    like any other figure; a value that is not a sample prints as ``num`` prints it."""
    from jinja2 import pass_context

    @pass_context
    def numci(context: Any, node: Any, fmt: str | None = None, nullable: bool = False) -> Markup:
        text = f.num(node, fmt, nullable)
        table = f.samples()
        key = getattr(node, "path", None)
        if key not in table:
            return text
        root, _, rest = table[key].partition(".")
        stage = context.get(root.partition("/")[2])
        if stage is None or getattr(stage, "path", None) != root:
            return text
        ci = stage
        for part in rest.split("."):
            ci = ci[part]
        lo, hi = f.num(ci.lo, fmt), f.num(ci.hi, fmt)
        small = ("<small>", "</small>") if f.mode == "html" else ("", "")
        if context.get("lang") == "ja":
            return text + Markup(small[0] + "[") + lo + Markup("～") + hi + Markup("]" + small[1])
        return text + Markup(f" {small[0]}[") + lo + Markup("–") + hi + Markup(f"]{small[1]}")
    return numci


class _LazyData(dict):
    """``slug/stage`` -> data, each puzzle's files read on the first key asked of it (a
    build that re-renders one puzzle's pages reads that puzzle's JSON only)."""

    def __init__(self, load: Callable[[str], None], slugs: set[str]) -> None:
        super().__init__()
        self._load, self._pending = load, set(slugs)

    def _fill(self, key: Any) -> None:
        slug = str(key).partition("/")[0]
        if slug in self._pending:
            self._pending.discard(slug)
            self._load(slug)

    def __missing__(self, key: Any) -> Any:
        self._fill(key)
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        self._fill(key)
        return dict.__contains__(self, key)

    def load_all(self) -> None:
        for slug in sorted(self._pending):
            self._fill(f"{slug}/")

    # whatever looks at the whole mapping sees every puzzle's files
    def values(self) -> Any:
        self.load_all()
        return dict.values(self)

    def items(self) -> Any:
        self.load_all()
        return dict.items(self)

    def keys(self) -> Any:
        self.load_all()
        return dict.keys(self)

    def __iter__(self) -> Any:
        self.load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.load_all()
        return dict.__len__(self)

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in self else default  # noqa: SIM401 (dict.get skips loading)


class Site:
    """Everything a template can reach; built once per render of the whole site."""

    def __init__(self, root: Path, base_url: str = "", slugs: list[str] | None = None,
                 *, load_data: bool = True) -> None:
        """``load_data=False``: read no stage files (pages that need none: the play pages
        rendered alone for tests, benchmarks and previews)."""
        from site_builder import config
        from solvers import registry

        self.root = root
        self.config = config.load(root)
        self.langs = self.config.languages
        self.base_url = base_url.rstrip("/") + "/" if base_url else ""
        self.puzzles = [registry.get(s) for s in (slugs or self.config.puzzles)]
        self.loader = template_loader(root, self.puzzles)
        self._check_articles()
        by_slug = {p.slug: p for p in self.puzzles}
        self.data: _LazyData = _LazyData(lambda slug: self.data.update(
            self._stages(by_slug[slug])), set(by_slug) if load_data else set())
        self.md = (MarkdownIt("commonmark", {"html": True, "typographer": False})
                   .enable("table")
                   .use(anchors_plugin, max_level=3, permalink=True, permalinkSymbol="#")
                   .use(superscript_plugin))
        self.md.add_render_rule("softbreak", _softbreak)

    def _stages(self, p: Any) -> dict[str, Any]:
        """``load_stages`` of one puzzle, each file's parse kept in this process while its
        bytes are the same (the preview re-renders without parsing unchanged JSON again:
        a figure edited in stats.json does not parse the bank again)."""
        from site_builder import deps, filecache

        cache = filecache.for_site(self.root)

        def keep(path: Path, read: Callable[[], Any]) -> Any:
            key = (str(path), cache.sha(path))
            if key not in _PARSED:
                for k in [k for k in _PARSED if k[0] == key[0]]:
                    deps.thaw([_PARSED.pop(k)])
                _PARSED[key] = read()
                deps.freeze([_PARSED[key]])
            return _PARSED[key]

        return load_stages(self.root, p, keep)

    def _check_articles(self) -> None:
        """Every puzzle has its article, README and hook in every language the site has:
        else one line naming site.toml's key and the template that is missing."""
        names = set(self.loader.list_templates())
        self.template_names = frozenset(names)
        for p in self.puzzles:
            for lang in self.langs:
                for kind in ("article", "README", "hook"):
                    name = f"{p.slug}/{kind}.{lang}.md.j2"
                    if name not in names:
                        raise UserError(
                            f"{self.config.path}: key 'languages': {lang!r} is listed, but "
                            f"{p.slug} has no {name} (add templates/{name}, or drop {lang})")

    # -- environments ------------------------------------------------------------------
    def _env(self, mode: str, autoescape: bool) -> jinja2.Environment:
        """One environment per site, puzzles, settings and set of template files, kept
        for the process (a preview re-renders with the templates it compiled), with
        templates compiled once across processes (``.cache/jinja/``)."""
        from site_builder.tracking import TrackingEnvironment

        key = (str(self.root), tuple(p.slug for p in self.puzzles), mode, autoescape,
               self.template_names, tuple(sorted(self.ui("en").items())),
               tuple(sorted(self.ui("ja").items())), self.langs, self.lit_vocabulary)
        if key in _ENVS:
            # Jinja's own cache trusts a file whose mtime is the one it read (taken after
            # the read: an edit in between is missed); the render record decides what is
            # current, and the compiled code is on disk, so each build loads afresh
            env = _ENVS[key]
            if env.cache is not None:
                env.cache.clear()
            # which values are samples is read from this site's data, afresh
            env.provenance_filters._samples = self._sample_patterns  # type: ignore[attr-defined]
            return env
        for k in [k for k in _ENVS if k[:4] == key[:4]]:
            del _ENVS[k]  # the template files or settings changed: start afresh
        env = TrackingEnvironment(
            loader=self.loader,
            autoescape=autoescape, undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True,
            extensions=[TypedDigits])  # records where digits typed in a template print
        f = Filters(mode, self.lit_vocabulary, samples=self._sample_patterns)
        env.filters["num"] = f.num
        env.filters["lit"] = f.lit
        env.filters.update(words.FILTERS)
        env.filters["numci"] = _numci(f)
        env.provenance_filters = f  # type: ignore[attr-defined]
        env.bytecode_cache = _bytecode_cache(self.root, f"{mode}-{int(autoescape)}-"
                                             f"{_compiler_digest(self.root, env)}")
        env.globals.update(bar_chart=charts.bar_chart, line_chart=charts.line_chart,
                           ui={lang: self.ui(lang) for lang in UI},
                           glossary=GLOSSARY)
        _ENVS[key] = env
        return env

    def _sample_patterns(self) -> dict[str, str]:
        """The site's sampled values and the keys of their intervals (``samples``), read
        from the stage files' ``samples`` and the puzzles' ``SAMPLES`` when first needed."""
        from site_builder.samples import declared, expand

        raw = {}
        for p in self.puzzles:
            for stage in p.stage_names:
                try:
                    raw[f"{p.slug}/{stage}"] = self.data[f"{p.slug}/{stage}"]
                except (KeyError, UserError):
                    continue
        return expand(declared(raw, self.puzzles), raw)

    @cached_property
    def lit_vocabulary(self) -> frozenset[str]:
        """The numerals ``| lit`` may print (``provenance.lit_vocabulary``)."""
        return lit_vocabulary(self.puzzles, self.root)

    @cached_property
    def html_env(self) -> jinja2.Environment:
        return self._env("html", True)

    @cached_property
    def md_env(self) -> jinja2.Environment:
        return self._env("html", False)

    @cached_property
    def text_env(self) -> jinja2.Environment:
        return self._env("text", False)

    def node(self, slug: str, stage: str) -> Node:
        from site_builder.tracking import TrackedNode

        return TrackedNode(self.data[f"{slug}/{stage}"], f"{slug}/{stage}")

    def puzzle_ctx(self, p: Any, lang: str) -> dict[str, Any]:
        """What a puzzle's templates see: one Node per stage file (``bank``, ``stats`` ...),
        the puzzle's names and rungs, and ``board_svg`` drawing with its renderer."""
        from site_builder import deps
        from site_builder.jsonio import stage_path

        ctx: dict[str, Any] = {s: self.node(p.slug, s) for s in p.stage_names}
        for s in getattr(p, "on_request", ()):  # whether the file is there matters
            deps.record_file(str(stage_path(self.root, p.slug, s.name)))
        ctx.update({s.name: self.node(p.slug, s.name) for s in getattr(p, "on_request", ())
                    if f"{p.slug}/{s.name}" in self.data})
        from site_builder.play import play_facts

        ctx.update(lang=lang, board_svg=partial(board_svg, p), g=GLOSSARY[lang],
                   play=play_facts(p, lang),
                   puzzle={"slug": p.slug, "names": dict(p.names), "name": p.names[lang],
                           "rungs": list(p.rungs),
                           "rung_names": {r: p.rung_name(r, lang)
                                          for r in (*p.rungs, "search")}})
        return ctx

    # -- rendering ---------------------------------------------------------------------
    def _render(self, env: jinja2.Environment, name: str, ctx: dict[str, Any]) -> str:
        try:
            return env.get_template(name).render(**ctx)
        except jinja2.TemplateSyntaxError as e:
            where = shown_path(self.root, e.filename, e.name or name)
            raise UserError(f"{where}:{e.lineno}: template syntax error: {e.message}") from None
        except jinja2.TemplateNotFound as e:
            raise UserError(f"templates/{e.name}: template not found (looked in the site's "
                            "templates/, the puzzle's and the theme's)") from None
        except DataError as e:
            raise UserError(f"{e} (printed by {self.where(name, e)})") from None
        except (ProvenanceError, jinja2.UndefinedError) as e:
            raise UserError(f"{self.where(name, e)}: {e}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise UserError(f"{self.where(name)}: cannot read template ({e})") from None

    def where(self, name: str, error: BaseException | None = None) -> str:
        """``file:line`` of the template frame an error was raised in (the innermost
        one: an include or a parent layout where the error happened there), else the
        file of ``name``."""
        tb = error.__traceback__ if error is not None else None
        found = None
        while tb is not None:
            f = tb.tb_frame
            if f.f_code.co_filename.endswith(".j2"):
                found = (f.f_code.co_filename, tb.tb_lineno)
            tb = tb.tb_next
        if found is not None:
            return f"{shown_path(self.root, found[0], name)}:{found[1]}"
        try:
            _, filename, _ = self.loader.get_source(self.html_env, name)
        except Exception:  # noqa: BLE001 (the file is not there: name it as asked)
            filename = None
        return shown_path(self.root, filename, name)

    def markdown(self, name: str, ctx: dict[str, Any]) -> Markup:
        return Markup(_md_memo(False, self._render(self.md_env, name, ctx),
                               lambda text: table_captions(self.md.render(text))))

    def markdown_inline(self, name: str, ctx: dict[str, Any]) -> Markup:
        # spaced here too: a hook is also a page's meta description, outside the page body
        return Markup(_md_memo(True, self._render(self.md_env, name, ctx).strip(),
                               lambda text: japanese_spacing(self.md.renderInline(text))))

    def text(self, name: str, ctx: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        return strip_marks(japanese_spacing(self._render(self.text_env, name, ctx), marked=True))

    def ui(self, lang: str) -> dict[str, str]:
        """The theme's words in ``lang``, with the site's own title and tagline."""
        return {**UI[lang], "site": self.config.title[lang],
                "tagline": self.config.tagline[lang]}

    def render_page(self, template: str, *, lang: str, path: str, title: str,
                    alternates: dict[str, str] | None = None, description: str = "",
                    link: Callable[[str], str] | None = None, **ctx: Any) -> str:
        """Render a page template that extends layout.html.j2, written at ``path``.
        Links are relative to ``path`` unless ``link`` maps a dist path to a URL."""
        if alternates is None:
            parts = path.split("/", 1)
            alternates = {lang: path}
            for other in self.langs:
                if other != lang and parts[0] == lang and len(parts) == 2:
                    alternates[other] = f"{other}/{parts[1]}"
        canon = path.removesuffix("index.html")
        full = dict(ctx)
        full.update(
            lang=lang, page_path=path, title=title, description=description, t=self.ui(lang),
            rel=link or (lambda target: rel(path, target)), alternates=alternates,
            canonical=self.base_url + canon if self.base_url else "",
            base_url=self.base_url, puzzles=self.puzzles)
        # Japanese text also sits on English pages (the bilingual index, the 404 page).
        return phrase_breaks(japanese_spacing(self._render(self.html_env, template, full)))
