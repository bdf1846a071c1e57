"""The theme's own words, one file a language: ``site_builder/lang/<lang>.toml``.

A translator edits one data file, not Python; every language file has the same tables
and the same keys (``tests/test_i18n.py``). The files sit beside the code rather than in
``theme/`` so that the build's code digest covers them (``incremental.code_files``): an
edited word re-renders every page, as an edited template does.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from site_builder.config import THEME_LANGS as LANGS

HERE = Path(__file__).parent / "lang"


@cache
def words(lang: str) -> dict[str, Any]:
    import tomllib

    with open(HERE / f"{lang}.toml", "rb") as f:
        return tomllib.load(f)


def table(name: str) -> dict[str, Any]:
    """One table of every language, as ``{lang: {key: text}}``."""
    return {lang: words(lang)[name] for lang in LANGS}
