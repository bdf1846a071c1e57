"""Every claim chosen by its figure: each article is rendered from a content dict with one
figure pushed past the threshold of a sentence's condition, and the other wording must
appear (in both languages). The content dicts start from the committed JSON, with the
intervals the stats stage now adds computed from the counts it already stores."""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from site_builder.check import check_html
from site_builder.site import Site
from site_builder.tables import join_bands
from solvers import margins, registry

ROOT = Path(__file__).resolve().parent.parent


def _committed(slug: str, stage: str) -> dict[str, Any]:
    return json.loads((ROOT / "content" / slug / f"{stage}.json").read_text())["data"]


def _nanro_stats() -> dict[str, Any]:
    from solvers.nanro.studies import add_margins

    d = _committed("nanro", "stats")
    d.setdefault("halves_lean", {"size": "6x6", "bias": 0.4, "boards": 400,
                                 "numbered_share": 0.5945, "mark": margins.rate(73, 400)})
    for row in d["increments"]:       # a new sampled row (same shape as the stage's)
        row.setdefault("count_independent",
                       {"reveal": "each numbered cell printed with probability q",
                        **margins.rate(round(0.2 * row["boards"]), row["boards"])})
    _since_committed(d)
    add_margins(d)
    for row in d["budget"].values():
        row.setdefault("ci", {k: {"n": row["boards"], "mean": row[k], "lo": row[k],
                                  "hi": row[k]}
                              for k in ("regions_mean", "numbered_mean", "share_mean",
                                        "probe_share_mean")})
    return d


def _agreement_by_size(law: dict[str, Any], brute_cells: int = 36) -> None:
    """Stats written before the engine-agreement study ran per size get the shape the
    stage now writes (test data only: every board of a size compared, all agreeing)."""
    if "agreement_sizes" in law:
        return
    by: dict[str, Any] = {}
    for cell in law["cells"].values():
        h, w = (int(x) for x in cell["size"].split("x"))
        row = by.setdefault(cell["size"], {
            "boards": 0, "skipped_search_capped": 0,
            "sat": {"compared": 0, "agree": 0, "disagree": 0},
            "brute": {"every_board": h * w <= brute_cells, "compared": 0, "agree": 0,
                      "disagree": 0, "skipped_capped": 0}})
        row["boards"] += cell["boards"]
        for eng in ("sat", "brute") if h * w <= brute_cells else ("sat",):
            row[eng]["compared"] += cell["boards"]
            row[eng]["agree"] += cell["boards"]
    law["agreement_sizes"] = by
    law["agreement_sat"] = {k: sum(r["sat"][k] for r in by.values())
                            for k in ("compared", "agree", "disagree")}
    law["agreement_sat"]["skipped_search_capped"] = 0


def _since_committed(d: dict[str, Any]) -> None:
    """Keys the Nanro stats stage writes that a stats file written before may lack, as test
    data: the agreement per size, and an interval on the lean draw's numbered share (a
    half-point either side of the stored share; the stage bootstraps it over boards)."""
    _agreement_by_size(d["law"])
    lean = d.get("halves_lean")
    if lean is not None and "numbered_ci" not in lean:
        x = lean["numbered_share"]
        lean["numbered_ci"] = {"n": lean["boards"], "mean": x, "lo": x - 0.005, "hi": x + 0.005}


BASE: dict[str, Callable[[], dict[str, Any]]] = {"nanro/stats": _nanro_stats}


@pytest.fixture(scope="module")
def site() -> Site:
    return Site(ROOT)


def render(site: Site, slug: str, lang: str, data: dict[str, dict[str, Any]],
           template: str = "article") -> str:
    """The article (or hook) of ``slug`` as HTML, from ``data`` laid over the committed
    stage files; every figure on it is proved against the same data."""
    saved = dict(site.data)
    try:
        site.data.update(data)
        p = registry.get(slug)
        ctx = site.puzzle_ctx(p, lang)
        name = f"{slug}/{template}.{lang}.md.j2"
        html = str(site.markdown(name, ctx) if template == "article"
                   else site.markdown_inline(name, ctx))
        problems = check_html(name, html, {**site.data})
    finally:
        site.data.clear()
        site.data.update(saved)
    assert not problems, problems[:5]
    return html


def text(html: str) -> str:
    html = join_bands(html)        # a table's rows as written, wherever it was split
    html = re.sub(r"<(svg|script|style)\b.*?</\1>", " ", html, flags=re.DOTALL)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def base(*keys: str) -> dict[str, dict[str, Any]]:
    return {k: BASE[k]() for k in keys}


def set_rate(r: dict[str, Any], k: int, n: int | None = None) -> None:
    """Replace a {k, n, rate, lo, hi} record with k of n (its own n by default)."""
    r.update(margins.rate(k, r["n"] if n is None else n))


# -- the intervals themselves ----------------------------------------------------------------

@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0),
    (305, 494, 0.5738, 0.6592)])
def test_wilson_matches_the_textbook(k: int, n: int, lo: float, hi: float) -> None:
    got = margins.wilson(k, n)
    assert got == (pytest.approx(lo, abs=1e-4), pytest.approx(hi, abs=1e-4))


def test_differs_only_when_the_intervals_part() -> None:
    assert margins.differs(margins.rate(305, 494), margins.rate(2500, 4500)) is True
    assert margins.differs(margins.rate(262, 494), margins.rate(2500, 4500)) is False
    assert margins.differs((0.1, 0.2), 0.25) and not margins.differs((0.1, 0.2), 0.2)
    assert margins.outside(0.556, margins.rate(305, 494))


def test_bootstrap_is_seeded_by_the_sample_and_holds_the_mean() -> None:
    xs = [3, 5, 8, 13, 21, 34, 2, 1, 1, 4]
    a, b = margins.mean_ci(xs), margins.mean_ci(list(xs))
    assert a == b and a["lo"] < a["mean"] < a["hi"]
    assert margins.mean_ci(xs[:-1] + [5]) != a            # another sample, another draw
    assert margins.mean_ci([4, 4, 4]) == {"n": 3, "mean": 4.0, "lo": 4.0, "hi": 4.0}
    r = margins.ratio_ci([3, 4, 5, 9], [1, 2, 2, 3])
    assert r["ratio"] == 21 / 8 and r["lo"] < r["ratio"] < r["hi"]
    assert r == margins.ratio_ci([3, 4, 5, 9], [1, 2, 2, 3])


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError):
        margins.wilson(5, 4)
    assert margins.wilson(0, 0) == (0.0, 1.0)


# -- Nanro ---------------------------------------------------------------------------------

def test_nanro_margins_come_from_the_stored_counts() -> None:
    d = _nanro_stats()
    row = d["increments"][1]
    assert row["ci"]["count"]["k"] == round(row["rates"]["count"] * row["boards"])
    lo, hi = margins.wilson(row["ci"]["count"]["k"], row["boards"])
    assert (row["ci"]["count"]["lo"], row["ci"]["count"]["hi"]) == (lo, hi)
    assert lo < row["rates"]["count"] < hi


NANRO_DENSE = {"en": "so that the full ladder completes most boards",
               "ja": "ほとんどの盤を解けるよう"}
NANRO_THIN = {"en": "though even so the full ladder completes",
              "ja": "それでも完全な推論の梯子が解き切るのは"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nanro_denser_print_claim_follows_the_ablation_rates(site: Site, lang: str) -> None:
    data = base("nanro/stats")
    d = data["nanro/stats"]
    for row in d["ablation"].values():
        set_rate(row["ci"]["full"], round(0.9 * row["boards"]))
    d["derived"]["ablation_dense"] = True
    page = text(render(site, "nanro", lang, data))
    assert NANRO_DENSE[lang] in page and NANRO_THIN[lang] not in page
    d["derived"]["ablation_dense"] = False
    page = text(render(site, "nanro", lang, data))
    assert NANRO_THIN[lang] in page and NANRO_DENSE[lang] not in page


def test_nanro_ablation_dense_is_decided_by_the_intervals() -> None:
    from solvers.nanro.studies import add_margins

    d = _committed("nanro", "stats")
    for row in d["ablation"].values():
        row["full"] = 0.9
    assert add_margins(d)["derived"]["ablation_dense"] is True
    d["ablation"]["10x10"]["full"] = 0.52          # 52 of 100: the interval reaches 0.42
    assert add_margins(d)["derived"]["ablation_dense"] is False


CLASH = {"en": ("loses more boards when removed", "wins more boards when added",
                "the intervals cannot tell what border clash wins"),
         "ja": ("よりも、抜いたときに失う分", "より、足したときに稼ぐ分", "を、区間の上では区別できません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("added", "dropped", "which"),
                         [(3, 40, 0), (60, 3, 1), (20, 21, 2)])
def test_nanro_clash_comparison_follows_the_intervals(site: Site, lang: str, added: int,
                                                      dropped: int, which: int) -> None:
    data = base("nanro/stats")
    d = data["nanro/stats"]
    inc = d["derived"]["increments_ci"]["8x8_q90"]["clash"]
    set_rate(inc, added)
    d["derived"]["increments"]["8x8_q90"]["clash"] = inc["rate"]
    drop = d["ablation"]["8x8"]["ci"]["drop"]["clash"]
    set_rate(drop, dropped)
    d["ablation"]["8x8"]["drop"]["clash"] = drop["rate"]
    page = text(render(site, "nanro", lang, data))
    if lang == "en":
        page = page.replace("`", "")
    wanted = CLASH[lang][which].replace("`", "")
    assert wanted in page
    for i, other in enumerate(CLASH[lang]):
        if i != which:
            assert other.replace("`", "") not in page, other


INDEP = {"en": ("is not comparable with ours", "cannot tell apart from ours"),
         "ja": ("そのまま比べられません", "区別できません。")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nanro_count_method_sentence_follows_the_intervals(site: Site, lang: str) -> None:
    data = base("nanro/stats")
    row = data["nanro/stats"]["increments"][1]
    n = row["boards"]
    set_rate(row["count_independent"], round(0.25 * n))
    set_rate(row["ci"]["count"], round(0.08 * n))
    assert INDEP[lang][0] in text(render(site, "nanro", lang, data))
    set_rate(row["count_independent"], round(0.09 * n))
    page = text(render(site, "nanro", lang, data))
    assert INDEP[lang][0] not in page


ONE_TWO = {"en": ("a map of dominoes only is one of them", "domino maps had answers"),
           "ja": ("ドミノだけの分割もその一つ", "個に答えがありました")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nanro_one_two_claim_does_not_generalise(site: Site, lang: str) -> None:
    data = base("nanro/stats")
    rows = data["nanro/stats"]["dial"]["rows"]
    page = text(render(site, "nanro", lang, data))
    assert rows[2]["legal"] > 0 and ONE_TWO[lang][0] in page
    rows[2]["legal"], rows[2]["proved_none"] = 0, rows[2]["tried"]
    for k in ("regions_mean", "share_mean", "unique"):
        rows[2][k] = None
    rows[2]["rates"] = {lv: None for lv in rows[2]["rates"]}
    page = text(render(site, "nanro", lang, data))
    assert ONE_TWO[lang][0] not in page


def test_render_helper_refuses_an_unproved_page(site: Site) -> None:
    """The helper proves every figure: a page whose data disagree must fail it."""
    data = base("nanro/stats")
    html = render(site, "nanro", "en", data)
    bad = copy.deepcopy(data)
    bad["nanro/stats"]["increments"][1]["ci"]["count"]["lo"] += 0.5
    assert check_html("x", html, {**site.data, **bad})


# -- Sukoro --------------------------------------------------------------------------------

def _sukoro_stats(recheck: int = 2747, draws: int = 4940) -> dict[str, Any]:
    from solvers.sukoro.studies import add_margins

    d = _committed("sukoro", "stats")
    # the test's own draw replaces the stored one, whose count is the data's, not the case's
    d["sampling"]["recheck"] = {"size": "6x6", "clues": 3, "draws": draws,
                                "random_none": recheck, "random_none_share": recheck / draws}
    return add_margins(d)


RECHECK = {"en": ("by chance, and the original write-up", "Our row lies within those margins",
                  "the write-up's way of drawing differs from ours",
                  "lies within the margins of the larger draw"),
           "ja": ("この差は偶然です", "表の行はこの誤差の幅に収まっています",
                  "元の記事の抽出の仕方はここでのものと違います", "引き直した値の誤差の幅に収まります")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("none", "shown"), [(2747, (0, 3)), (3050, (1, 2)), (2300, (0, 2))])
def test_sukoro_spec_row_verdict_comes_from_the_recheck(site: Site, lang: str, none: int,
                                                        shown: tuple[int, ...]) -> None:
    d = _sukoro_stats(recheck=none)
    page = text(render(site, "sukoro", lang, {"sukoro/stats": d}))
    assert "6x6_3" not in page
    for i, phrase in enumerate(RECHECK[lang]):
        assert (phrase in page) == (i in shown), phrase


BASE["sukoro/stats"] = _sukoro_stats


def test_sukoro_margins_come_from_the_stored_counts() -> None:
    d = _sukoro_stats()
    row = d["sampling"]["rows"][0]
    ci = row["ci"]["random_none"]
    assert (ci["k"], ci["n"]) == (row["random_none"], row["random"])
    assert ci["lo"] < row["random_none_share"] < ci["hi"]
    four = d["digits"]["clues"]["ci"]["4"]
    assert four["n"] == d["digits"]["clues"]["numbers"]
    assert four["k"] / four["n"] == pytest.approx(d["digits"]["clues"]["4"])


def _digit(d: dict[str, Any], side: str, digit: str, share: float) -> None:
    s = d["digits"][side]
    s[digit] = share
    s["ci"][digit] = margins.rate(round(share * s["numbers"]), s["numbers"])


FOURS = {"en": ("fours are printed less often than they occur",
                "fours are printed more often than they occur",
                "fours are printed about as often as they occur"),
         "ja": ("「四」は一マスも空白にせず、答えの中の割合より少なく",
                "答えの中の割合より多く印刷されます",
                "「四」は一マスも空白にしないのに、印刷される割合は答えの中の割合とほぼ同じ")}
ELIMINATE = {"en": "digits that eliminate are the ones that cannot be deleted",
             "ja": "消去に強い数字ほど、消せずに残る"}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("four", "which"), [(0.03, 0), (0.15, 1), (0.084, 2)])
def test_sukoro_fours_sentence_follows_the_intervals(site: Site, lang: str, four: float,
                                                     which: int) -> None:
    data = base("sukoro/stats")
    d = data["sukoro/stats"]
    _digit(d, "clues", "4", four)
    page = text(render(site, "sukoro", lang, data))
    assert FOURS[lang][which] in page
    for i, other in enumerate(FOURS[lang]):
        if i != which:
            assert other not in page
    assert (ELIMINATE[lang] in page) == (which == 0)


ONES = {"en": ("ones survive more often than they occur", "ones are printed less often",
               "ones are printed about as often"),
        "ja": ("「一」は答えの中の割合よりも多く生き残ります",
               "「一」は最大三マスを一気に空白へ落とすのに、答えの中の割合より少なく",
               "「一」は最大三マスを一気に空白へ落とすのに、印刷される割合")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("one", "which"), [(0.40, 0), (0.15, 1), (0.25, 2)])
def test_sukoro_ones_sentence_follows_the_intervals(site: Site, lang: str, one: float,
                                                    which: int) -> None:
    data = base("sukoro/stats")
    d = data["sukoro/stats"]
    _digit(d, "clues", "1", one)
    _digit(d, "clues", "4", 0.03)           # fours printed less often: only ones decide
    page = text(render(site, "sukoro", lang, data))
    assert ONES[lang][which] in page
    for i, other in enumerate(ONES[lang]):
        if i != which:
            assert other not in page, other
    assert (ELIMINATE[lang] in page) == (which == 0)


HONEST = {"en": ("Honest clue sets do better", "Even honest clue sets fare no better"),
          "ja": ("答えから読んだ方がましですが", "答えから読んだ手掛かりでも成績は変わらず")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sukoro_honest_versus_random_follows_the_intervals(site: Site, lang: str) -> None:
    data = base("sukoro/stats")
    sm = data["sukoro/stats"]["sampling"]
    page = text(render(site, "sukoro", lang, data))
    assert HONEST[lang][0] in page and HONEST[lang][1] not in page
    sm["true_unique"] = 1            # 1 of 220 against 1 of 4,940: the intervals overlap
    sm["ci"]["true_unique"] = margins.rate(1, sm["true"])
    page = text(render(site, "sukoro", lang, data))
    assert HONEST[lang][1] in page and HONEST[lang][0] not in page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sukoro_fewest_digits_are_printed_figures(site: Site, lang: str) -> None:
    data = base("sukoro/stats")
    ledger = copy.deepcopy(_committed("sukoro", "ledger"))
    last = list(ledger["true_sets"])[-1]
    ledger["true_sets"][last].update(fewest=4, median=5.0)
    data["sukoro/ledger"] = ledger
    page = render(site, "sukoro", lang, data)
    key = f"sukoro/ledger.true_sets.{last}"
    assert f'data-key="{key}.fewest" data-fmt="int">4<' in page
    assert f'data-key="{key}.median" data-fmt="f0">5<' in page


# -- Sashigane -----------------------------------------------------------------------------

def _sashigane_stats(change: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    from solvers.sashigane.studies import add_margins

    d = _committed("sashigane", "stats")
    if change is not None:
        change(d)
    return add_margins(d)


BASE["sashigane/stats"] = _sashigane_stats


def _convention(d: dict[str, Any], size: str, long: int, short: int) -> None:
    r = d["conventions"]["sizes"][size]
    n = r["answers"]
    r.update(long=long, short=short, long_share=long / n, short_share=short / n,
             long_minus_short=(long - short) / n)
    d["conventions"]["flips"] = len({x["long_share"] > x["short_share"]
                                     for x in d["conventions"]["sizes"].values()}) > 1


LONG = {"en": ("ahead at every size, by more than the margins", "but not by more than the margins",
               "Which convention is ahead changes"),
        "ja": ("その差は誤差の幅を超えています", "どこでも誤差の幅を超えているわけではありません",
               "どちらの規約が上かは盤の大きさで入れ替わります")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sashigane_long_arm_claim_follows_the_intervals(site: Site, lang: str) -> None:
    page = text(render(site, "sashigane", lang, {"sashigane/stats": _sashigane_stats()}))
    assert LONG[lang][0] in page
    # 12×12: 60 against 55 of 400, ahead but inside the margins
    d = _sashigane_stats(lambda d: _convention(d, "12x12", 60, 55))
    assert not d["conventions"]["long_ahead"] and not d["conventions"]["flips"]
    page = text(render(site, "sashigane", lang, {"sashigane/stats": d}))
    assert LONG[lang][1] in page and LONG[lang][0] not in page
    # 12×12: the short arm ahead, so the order flips
    d = _sashigane_stats(lambda d: _convention(d, "12x12", 40, 80))
    page = text(render(site, "sashigane", lang, {"sashigane/stats": d}))
    assert LONG[lang][2] in page and LONG[lang][0] not in page


CLUSTER = {"en": ("a local Dask cluster of", "a Dask cluster of"),
           "ja": ("ローカルクラスタで", "台のクラスタで")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sashigane_cluster_says_what_it_was(site: Site, lang: str) -> None:
    sb = _committed("sashigane", "survey_beyond")
    assert sb["computed"]["executor"].startswith("dask local")
    page = render(site, "sashigane", lang, {"sashigane/stats": _sashigane_stats(),
                                            "sashigane/survey_beyond": sb})
    assert CLUSTER[lang][0] in text(page)
    assert 'data-key="sashigane/survey_beyond.computed.workers"' in page
    sb = copy.deepcopy(sb)
    sb["computed"]["executor"] = "dask tcp://scheduler:8786"
    page = text(render(site, "sashigane", lang, {"sashigane/stats": _sashigane_stats(),
                                                 "sashigane/survey_beyond": sb}))
    assert CLUSTER[lang][1] in page and CLUSTER[lang][0] not in page


def test_sashigane_coin_interval_counts_answers_not_flips() -> None:
    r = _sashigane_stats()["conventions"]["sizes"]["12x12"]
    assert r["ci"]["coin"]["n_eff"] == r["answers"] < r["coin_boards"]
    assert (r["ci"]["coin"]["lo"], r["ci"]["coin"]["hi"]) == margins.wilson(
        r["coin_share"] * r["answers"], r["answers"])


# -- Canal View ----------------------------------------------------------------------------

PER_BOARD = ("visibility", "sandwich", "sightlines", "compositions", "ladder", "lakes")


def _strip_ci(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _strip_ci(v) for k, v in x.items() if k != "ci"}
    return x


@functools.cache
def _canal_recomputed() -> tuple[dict[str, Any], dict[str, Any]]:
    """The committed stats, and the per-board figures of every size and the flip table
    computed again from the committed bank by the stage's own code (about 5 s of CPU)."""
    from solvers.canal_view.studies import _board_figures, _flip_table, _sizes

    bank = _committed("canal-view", "bank")["boards"]
    sizes, by_size = _sizes(bank)
    got = {s: _board_figures(bank, by_size[s], lambda *a: None) for s in sizes}
    flips = _flip_table([frozenset(f) for s in sizes for f in got[s]["flips"]],
                        [k for s in sizes for k in got[s]["flips_per_board"]])
    return _committed("canal-view", "stats"), {"sizes": got, "flips": flips}


def _canal_stats() -> dict[str, Any]:
    """The committed stats with the intervals the stage now adds: the dial's, the
    misreadings' and the other rates' from their stored counts, the per-board means and
    ratios' (visibility, sandwich, sightlines, compositions, ladder, lakes, flips) from the
    committed bank's boards."""
    from solvers.canal_view.studies import add_margins

    committed, again = _canal_recomputed()
    d = add_margins(copy.deepcopy(committed))
    for s in d["sizes"]:
        for name in PER_BOARD:
            if name == "ladder":              # an interval per rung
                for r, row in d[name][s].items():
                    row["ci"] = copy.deepcopy(again["sizes"][s][name][r]["ci"])
            else:
                d[name][s]["ci"] = copy.deepcopy(again["sizes"][s][name]["ci"])
    d["flips"]["ci"] = copy.deepcopy(again["flips"]["ci"])
    d["ladder_steps"] = {s: copy.deepcopy(again["sizes"][s]["ladder_steps"]) for s in d["sizes"]}
    return d


def test_canal_view_intervals_leave_every_stored_figure_as_it_was() -> None:
    """The figures the stage computed before it carried intervals are the ones it
    computes now: the committed stats equal the recomputed ones, intervals aside."""
    committed, again = _canal_recomputed()
    for s in committed["sizes"]:
        for name in PER_BOARD:
            assert _strip_ci(again["sizes"][s][name]) == _strip_ci(committed[name][s]), name
    assert _strip_ci(again["flips"]) == _strip_ci(committed["flips"])
    for s in committed["sizes"]:                    # the step interval holds the stored steps
        lad, st = committed["ladder"][s], again["sizes"][s]["ladder_steps"]["flow_over_block"]
        diff = (lad["flow"]["cells_all"] - lad["block"]["cells_all"]) - (
            lad["block"]["cells_all"] - lad["arm"]["cells_all"])
        assert st["ratio"] == pytest.approx(diff, abs=2e-4) and st["lo"] <= st["ratio"] <= st["hi"]


def test_canal_view_new_intervals_hold_their_figures(canal: dict[str, Any]) -> None:
    for s in canal["sizes"]:
        n = canal["boards"][s]
        sw, lk, cp = canal["sandwich"][s], canal["lakes"][s], canal["compositions"][s]
        for row, key, pick in ((sw, "per_cell", "ratio"), (sw, "canal", "mean"),
                               (lk, "lakes", "mean"), (lk, "loops", "mean"),
                               (cp, "numbers", "mean"), (cp, "fits", "ratio"),
                               (cp, "ray_cells", "ratio")):
            c = row["ci"][key]
            assert c["n"] == n and c[pick] == pytest.approx(row[key], abs=5e-5), key
            assert c["lo"] <= row[key] <= c["hi"] and c["lo"] < c["hi"], key
        assert lk["ci"]["with_lake"]["k"] == lk["with_lake"]
        assert lk["ci"]["with_lake"]["n"] == n
        for name in ("no2x2", "broken", "dryconnect", "wholeline"):
            m = canal["misread"][name][s]
            assert m["ci"]["none"]["k"] == m["none"] and m["ci"]["none"]["n"] == m["boards"]
    f = canal["flips"]
    assert f["ci"]["not_number_share"]["ratio"] == pytest.approx(f["not_number_share"], abs=5e-5)
    assert f["ci"]["not_number_share"]["n"] == canal["total_boards"]


BASE["canal-view/stats"] = _canal_stats


@pytest.fixture(scope="module")
def canal() -> dict[str, Any]:
    return _canal_stats()


def test_canal_view_visibility_intervals_hold_the_stored_figures(canal: dict[str, Any]) -> None:
    for s in canal["sizes"]:
        v = canal["visibility"][s]
        for k in ("says", "share", "hidden"):
            assert v["ci"][k]["ratio"] == pytest.approx(v[k], abs=5e-5)
            assert v["ci"][k]["lo"] < v[k] < v["ci"][k]["hi"]


def _ratio(d: dict[str, Any], size: str, key: str, lo: float, hi: float) -> None:
    r = d["visibility"][size]["ci"][key]
    r.update(lo=lo, hi=hi, ratio=(lo + hi) / 2)


BLIND = {"en": ("not because its numbers are smaller", "and its numbers are smaller too",
                "though not by more room behind each stopper",
                "the larger board sees more of its canal", "about equally short-sighted"),
         "ja": ("数字が小さくなるからではなく", "数字そのものも小さくなっています",
                "途切れた先の空間が広いせいとは言えません",
                "大きい盤の方が水路をよく見ています", "近眼の度合いは、区間の上では区別できません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("which", range(5))
def test_canal_view_blindness_sentence_follows_the_intervals(
        site: Site, canal: dict[str, Any], lang: str, which: int) -> None:
    d = copy.deepcopy(canal)
    small, big = d["sizes"][0], d["sizes"][-1]
    if which == 1:                                    # big board's numbers clearly smaller
        _ratio(d, big, "says", 3.0, 3.3)
    elif which == 2:                                  # hidden runs overlap
        _ratio(d, big, "hidden", 1.7, 1.9)
    elif which == 3:                                  # the larger board sees more
        _ratio(d, big, "share", 0.80, 0.85)
    elif which == 4:                                  # shares overlap
        _ratio(d, big, "share", 0.70, 0.74)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert BLIND[lang][which].lower() in page.lower()
    for i, other in enumerate(BLIND[lang]):
        if i != which:
            assert other.lower() not in page.lower(), other
    assert small != big


CAREFUL = {"en": ("careful erasure reaches counts that random erasure cannot",
                  "careful erasure is not the only way there", "cannot be compared at the same count"),
           "ja": ("ランダムでは届かない少なさまで行けます", "確かめながら消さなくても届きます",
                  "同じ個数で比べられません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_canal_view_careful_erasure_claim_follows_the_dial(site: Site, canal: dict[str, Any],
                                                           lang: str) -> None:
    d = copy.deepcopy(canal)
    big = d["sizes"][-1]
    dial = d["dial"][big]
    top = d["compositions"][big]["ci"]["numbers"]["hi"]
    k = min(x for x in dial["keep"] if x > top)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert CAREFUL[lang][0] in page
    row = dial["rows"][str(k)]                        # random erasure at k keeps most boards
    row.update(unique=70, rate=70 / dial["draws"], ci=margins.rate(70, dial["draws"]))
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert CAREFUL[lang][1] in page and CAREFUL[lang][0] not in page
    # a mean below every row, but an interval that reaches past the largest: the rows
    # cannot be said to keep more numbers than the shipped boards carry
    c = d["compositions"][big]
    c["numbers"] = max(dial["keep"]) - 0.5
    c["ci"]["numbers"].update(mean=c["numbers"], lo=c["numbers"] - 1, hi=max(dial["keep"]) + 0.5)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert CAREFUL[lang][2] in page and CAREFUL[lang][0] not in page


SHAPE_ONLY = {"en": ("are stopped only by the shape rules", "which break no rule at all"),
              "ja": ("形のルールだけで止められています", "二つ目の答えになっていて")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_canal_view_shape_rules_claim_needs_every_flip_rejected(
        site: Site, canal: dict[str, Any], lang: str) -> None:
    d = copy.deepcopy(canal)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert SHAPE_ONLY[lang][0] in page and SHAPE_ONLY[lang][1] not in page
    d["flips"]["nothing"] = 3
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert SHAPE_ONLY[lang][1] in page and SHAPE_ONLY[lang][0] not in page


FLOW = {"en": ("The jump at flow, larger at both sizes", "is not clearly larger than the step at block"),
        "ja": ("どちらの大きさでも", "はっきり上回るとは言えません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_canal_view_flow_jump_claim_follows_the_steps(site: Site, canal: dict[str, Any],
                                                      lang: str) -> None:
    d = copy.deepcopy(canal)
    small, big = d["sizes"][0], d["sizes"][-1]
    for s in (small, big):                            # the step at flow clearly larger
        d["ladder_steps"][s]["flow_over_block"].update(lo=0.02, hi=0.08, ratio=0.05)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert FLOW[lang][0] in page and FLOW[lang][1] not in page
    step = d["ladder_steps"][big]["flow_over_block"]
    step.update(lo=-0.01, hi=0.05, ratio=0.02)         # ahead, but not by the interval
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    assert FLOW[lang][1] in page and FLOW[lang][0] not in page
    at = page.index(FLOW[lang][1])
    assert big.replace("x", "×") in page[max(0, at - 200):at]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_canal_view_sizes_beyond_are_named_not_counted_in_words(
        site: Site, canal: dict[str, Any], lang: str) -> None:
    page = text(render(site, "canal-view", lang, {"canal-view/stats": canal}))
    assert "two sizes further" not in page and "二つ先" not in page
    beyond = _committed("canal-view", "ledger")["poly_beyond"]
    assert all(str(n) in page for n in beyond)


# -- hooks ---------------------------------------------------------------------------------

STATS = {"canal-view": _canal_stats, "sashigane": _sashigane_stats, "nanro": _nanro_stats,
         "sukoro": _sukoro_stats}
DATUM = re.compile(r'<data value="[^"]*" data-key="([^"]+)" data-fmt="([^"]+)"')


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", list(STATS))
def test_hook_prints_the_bodys_figure(site: Site, slug: str, lang: str) -> None:
    """A figure the hook shares with the article is printed the same way (same key, same
    format), so the two can never show one number rounded two ways."""
    data = {f"{slug}/stats": STATS[slug]()}
    hook = DATUM.findall(render(site, slug, lang, data, template="hook"))
    body = set(DATUM.findall(render(site, slug, lang, data)))
    shared = [(k, f) for k, f in hook if any(k == bk for bk, _ in body)]
    assert shared
    for key, fmt in shared:
        assert (key, fmt) in body, (key, fmt, sorted(f for k, f in body if k == key))


SPEC = {"en": ("outside our interval", "the gap is the way the print is drawn",
               "does not explain the gap alone", "within the margins of ours"),
        "ja": ("ここでの区間の外にあります", "印刷するマスの選び方から来ています",
               "選び方だけでは差を説明できません", "ここでの値とは区間の上で区別できません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("ours", "independent", "shown"),
                         [(21, 50, (0, 1)), (21, 25, (0, 2)), (55, 50, (3,))])
def test_nanro_spec_count_column_is_set_against_its_interval(
        site: Site, lang: str, ours: int, independent: int, shown: tuple[int, ...]) -> None:
    from solvers.nanro.studies import add_margins

    d = _committed("nanro", "stats")
    _since_committed(d)
    row = d["increments"][1]
    n = row["boards"]
    row["rates"]["count"] = ours / n
    row["count_independent"] = {"reveal": "each numbered cell printed with probability q",
                                **margins.rate(independent, n)}
    add_margins(d)
    page = text(render(site, "nanro", lang, {"nanro/stats": d}))
    for i, phrase in enumerate(SPEC[lang]):
        assert (phrase in page) == (i in shown), phrase


WORSE = {"en": ("worse still (", "no better ("), "ja": ("さらに弱く（", "同じく弱く（")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nanro_values_against_positions_follows_the_intervals(site: Site, lang: str) -> None:
    data = base("nanro/stats")
    row = data["nanro/stats"]["halves"]["q100"]["sizes"]["10x10"]
    page = text(render(site, "nanro", lang, data))
    assert WORSE[lang][0] in page and WORSE[lang][1] not in page
    n = row["boards"]
    row["value"] = 10 / n                       # 10 against 14 of 300: intervals overlap
    row["ci"]["value"] = margins.rate(10, n)
    page = text(render(site, "nanro", lang, data))
    assert WORSE[lang][1] in page and WORSE[lang][0] not in page


LEAN = {"en": ("its positions-only figure lies outside ours at", "a difference of method, not chance",
               "does not explain the gap alone", "lies within our"),
        "ja": ("こちらの区間の外にあります", "方法の違いから来ています",
               "答えの作り方だけでは差を説明できません", "どれもここでの")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("mark6", "lean", "shown"),
                         [(55, 73, (0, 1)), (55, 110, (0, 2)), (36, 73, (3,))])
def test_nanro_spec_halves_verdict_comes_from_the_lean_draw(
        site: Site, lang: str, mark6: int, lean: int, shown: tuple[int, ...]) -> None:
    from solvers.nanro.studies import add_margins

    d = _committed("nanro", "stats")
    _since_committed(d)
    q1 = d["halves"]["q100"]["sizes"]
    q1["6x6"]["mark"] = mark6 / q1["6x6"]["boards"]
    if 3 in shown:                               # the other sizes inside ours as well
        q1["8x8"]["mark"] = 0.09
        q1["5x5"]["mark"], q1["5x5"]["value"] = 0.36, 0.015
    d["halves_lean"] = {"size": "6x6", "bias": 0.4, "boards": 400, "numbered_share": 0.59,
                        "mark": margins.rate(lean, 400)}
    _since_committed(d)
    for row in d["increments"]:
        row["count_independent"] = {"reveal": "each numbered cell printed with probability q",
                                    **margins.rate(50, row["boards"])}
    add_margins(d)
    page = text(render(site, "nanro", lang, {"nanro/stats": d}))
    for i, phrase in enumerate(LEAN[lang]):
        assert (phrase in page) == (i in shown), phrase


COIN = {"en": ("coin flip at every size, by more than the margins.", "though not everywhere by more than the margins",
               "does no better than the coin"),
        "ja": ("誤差の幅を超えてコイン投げに勝ちました", "コイン投げを上回りましたが",
               "を上回りませんでした")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sashigane_beating_the_coin_follows_the_intervals(site: Site, lang: str) -> None:
    def every_size(d: dict[str, Any], short_over: float) -> None:
        for size, r in d["conventions"]["sizes"].items():
            short = round((r["coin_share"] + short_over) * r["answers"])
            _convention(d, size, r["long"], short)
        rows = d["conventions"]["sizes"].values()
        d["conventions"]["consistent_beats_coin"] = all(
            min(r["long_share"], r["short_share"]) > r["coin_share"] for r in rows)

    for over, which in ((0.15, 0), (0.01, 1), (-0.01, 2)):
        d = _sashigane_stats(lambda d, o=over: every_size(d, o))
        page = text(render(site, "sashigane", lang, {"sashigane/stats": d}))
        for i, phrase in enumerate(COIN[lang]):
            assert (phrase in page) == (i == which), (over, phrase)


# -- Canal View: the sandwich, the lakes and the misreadings follow their intervals -------

def _ci(c: dict[str, Any], lo: float, hi: float) -> None:
    c.update(lo=lo, hi=hi)


SANDWICH = {"en": ("the real rate is under two", "the real rate is short of four",
                   "the real rate is close to four"),
            "ja": ("二回にも届きません", "四回には届きません", "四回近くまで見られています")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("which", range(3))
def test_canal_view_sandwich_rate_follows_the_intervals(
        site: Site, canal: dict[str, Any], lang: str, which: int) -> None:
    d = copy.deepcopy(canal)
    big = d["sizes"][-1]
    c = d["sandwich"][big]["ci"]["per_cell"]
    if which == 1:                                    # the interval reaches two
        _ci(c, 1.8, 2.1)
    elif which == 2:                                  # ... and four
        _ci(c, 3.5, 4.0)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    for i, phrase in enumerate(SANDWICH[lang]):
        assert (phrase in page) == (i == which), phrase


LAKES = {"en": ("dry pockets sealed off by the canal are the norm, and so are closed loops",
                "though closed loops of canal around them are not the norm at every size",
                "dry pockets sealed off by the canal are not the norm at every size"),
         "ja": ("その周りを回る水路の輪も当たり前に現れます",
                "水路の輪はどの大きさでも当たり前とまでは言えません",
                "池が当たり前とまでは、どの大きさでも言えるわけではありません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("which", range(3))
def test_canal_view_lakes_are_the_norm_only_when_the_intervals_say_so(
        site: Site, canal: dict[str, Any], lang: str, which: int) -> None:
    d = copy.deepcopy(canal)
    small = d["sizes"][0]
    n = d["boards"][small]
    lk = d["lakes"][small]
    if which >= 1:                                    # loops on half the boards or fewer
        lk["with_loop"] = n // 2
        lk["ci"]["with_loop"] = margins.rate(n // 2, n)
    if which == 2:                                    # lakes too
        lk["with_lake"] = n // 2
        lk["ci"]["with_lake"] = margins.rate(n // 2, n)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    for i, phrase in enumerate(LAKES[lang]):
        assert (phrase in page) == (i == which), phrase


NO_ANSWER = {"en": ("the board typically has no answer at all",
                    "the board usually still has some other answer",
                    "the board often has no answer at all, though not at every size"),
             "ja": ("たいていは解が一つもなくなります", "たいていは想定解でない別の解が残ります",
                    "どの大きさでも半分を超えるとまでは言えません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("which", range(3))
def test_canal_view_added_rule_wording_follows_the_no_answer_intervals(
        site: Site, canal: dict[str, Any], lang: str, which: int) -> None:
    d = copy.deepcopy(canal)
    rows = [d["misread"][k][s] for k in ("dryconnect", "wholeline") for s in d["sizes"]]
    for j, row in enumerate(rows):
        n = row["boards"]
        if which == 1 or (which == 2 and j == 0):     # few boards without an answer
            row["none"] = 1
            row["ci"]["none"] = margins.rate(1, n)
    page = text(render(site, "canal-view", lang, {"canal-view/stats": d}))
    for i, phrase in enumerate(NO_ANSWER[lang]):
        assert (phrase in page) == (i == which), phrase


# -- Nanro: the engine-agreement study at every size of section A ------------------------

@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nanro_agreement_is_printed_per_size_and_engine(site: Site, lang: str) -> None:
    d = _nanro_stats()
    by = d["law"]["agreement_sizes"]
    assert set(by) == {"5x5", "6x6", "8x8", "10x10"}
    big = by["10x10"]
    big["sat"].update(compared=big["boards"] - 2, agree=big["boards"] - 3, disagree=1)
    big["skipped_search_capped"] = 2
    page = text(render(site, "nanro", lang, {"nanro/stats": d}))
    only = "(exceptions only)" if lang == "en" else "（例外のみ）"
    at = [page.index(f" {s.replace('x', '×')} {by[s]['boards']:,} {by[s]['brute']['compared']:,}")
          for s in ("5x5", "6x6", "8x8", "10x10")]
    assert at == sorted(at)                           # in order of size
    for s, i in zip(("5x5", "6x6", "8x8", "10x10"), at, strict=True):
        row = by[s]
        head = f" {s.replace('x', '×')} {row['boards']:,} {row['brute']['compared']:,}"
        marked = page[i + len(head):].lstrip().startswith(only)
        assert marked == (not row["brute"]["every_board"]), s
    sat_cells = f"{big['sat']['compared']:,} {big['sat']['agree']:,} 0 2"
    assert sat_cells in page
    sat = d["law"]["agreement_sat"]
    words = (f"agreed on {sat['agree']:,} of {sat['compared']:,} boards and disagreed on "
             f"{sat['disagree']:,}" if lang == "en" else
             f"{sat['compared']:,} 問中 {sat['agree']:,} 問で一致し、不一致は {sat['disagree']:,} 問")
    assert words in page


# -- the bank-wide ablation shares carry their intervals ---------------------------------

def test_ablation_shares_carry_wilson_intervals_from_their_counts() -> None:
    sa = _sashigane_stats()
    for part in ("seed", "standard"):
        for name, row in sa["ablation"][part].items():
            c = row["ci"]["lost"]
            assert (c["k"], c["n"]) == (row["lost"], sa["boards"]), name
            assert c["rate"] == pytest.approx(row["lost_share"])
            assert c["lo"] <= c["rate"] <= c["hi"]
    su = _sukoro_stats()
    for name in ("none", "equal", "disconnect", "both"):
        c = su["ablation"][name]["ci"]["lost"]
        assert (c["k"], c["n"]) == (su["ablation"][name]["lost"], su["boards"])


ARROW = {"en": ("Where an arrow sits matters far more than where it points",
                "so the bank cannot tell which matters more"),
         "ja": ("どこを向くかよりどこに乗るかのほうがずっと効いています",
                "どちらが効くかはこの盤集では決まりません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sashigane_arrow_position_claim_needs_the_intervals_apart(site: Site, lang: str) -> None:
    d = _sashigane_stats()
    assert d["ablation"]["end_apart"] is True
    page = text(render(site, "sashigane", lang, {"sashigane/stats": d}))
    assert ARROW[lang][0] in page and ARROW[lang][1] not in page

    def close(x: dict[str, Any]) -> None:              # "on an end" barely ahead
        seed = x["ablation"]["seed"]
        seed["end"].update(lost=6, lost_share=6 / x["boards"])
        seed["point"].update(lost=4, lost_share=4 / x["boards"])
    d = _sashigane_stats(close)
    assert d["ablation"]["end_apart"] is False
    page = text(render(site, "sashigane", lang, {"sashigane/stats": d}))
    assert ARROW[lang][1] in page and ARROW[lang][0] not in page


LEAN_SHARE = {"en": ("less than our usual answers at", "cannot be told apart"),
              "ja": ("より少なくなります", "二つの作り方を区別できません")}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_nanro_lean_draw_numbers_less_only_when_the_intervals_part(site: Site,
                                                                   lang: str) -> None:
    from solvers.nanro.studies import add_margins

    d = _nanro_stats()
    usual = d["budget"]["6x6"]["ci"]["share_mean"]
    lean = d["halves_lean"]
    lean["numbered_ci"].update(lo=usual["lo"] - 0.03, hi=usual["lo"] - 0.01)
    add_margins(d)
    assert lean["usual_more"] is True
    page = text(render(site, "nanro", lang, {"nanro/stats": d}))
    assert LEAN_SHARE[lang][0] in page and LEAN_SHARE[lang][1] not in page
    lean["numbered_ci"].update(lo=usual["lo"] - 0.02, hi=usual["lo"] + 0.001)
    add_margins(d)
    assert lean["usual_more"] is False
    page = text(render(site, "nanro", lang, {"nanro/stats": d}))
    assert LEAN_SHARE[lang][1] in page and LEAN_SHARE[lang][0] not in page


def test_section_a_cells_and_sukoro_edits_carry_wilson_intervals() -> None:
    law = _nanro_stats()["law"]
    for key, cell in law["cells"].items():
        n = cell["boards"]
        for lv, v in cell["rates"].items():
            c = cell["ci"][lv]
            assert c["n"] == n and c["k"] == round(v * n) and c["lo"] <= v <= c["hi"], key
        assert cell["ci"]["unique"]["k"] == round(cell["unique"] * n)
    ed = _sukoro_stats()["edits"]
    assert (ed["ci"]["moved_none"]["k"], ed["ci"]["moved_none"]["n"]) == (ed["moved_none"],
                                                                          ed["moved"])
    assert ed["ci"]["moved_none"]["rate"] == pytest.approx(ed["moved_none_share"])


def test_sashigane_sizes_where_the_coin_wins_are_listed_apart(site: Site) -> None:
    """Issue 49: two sizes where the short arm does no better than the coin ran together
    ("(49.0%)on 12×12"); each is now its own clause."""
    def change(d: dict[str, Any]) -> None:
        conv = d["conventions"]
        conv["consistent_beats_coin"] = False
        for r in conv["sizes"].values():
            _convention(d, next(s for s, x in conv["sizes"].items() if x is r),
                        r["long"], max(0, int(r["coin_share"] * r["answers"]) - 1))
    d = _sashigane_stats(change)
    page = text(render(site, "sashigane", "en", {"sashigane/stats": d}))
    said = re.findall(r"the short-arm convention \([^)]*\) does no better than the coin "
                      r"\([^)]*\)(.)", page)
    assert len(said) == len(d["conventions"]["sizes"]) >= 2, said
    assert said[:-1] == [";"] * (len(said) - 1) and ")on " not in page


# -- Issue 49: sentences about the site, printed from what they describe -----------------------

def _with_play(monkeypatch: pytest.MonkeyPatch, slug: str, **input_changes: Any) -> None:
    """The puzzle's play spec with some input keys changed (a page that changed)."""
    from solvers.common import PlaySpec

    p = registry.get(slug)
    spec = p.play
    changed = PlaySpec(spec.model, {**spec.input, **input_changes}, spec.text, spec.css)
    monkeypatch.setitem(p.__dict__, "play", changed)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", ["nanro", "sukoro"])
def test_play_sentence_follows_the_play_spec(site: Site, monkeypatch: pytest.MonkeyPatch,
                                             slug: str, lang: str) -> None:
    """Issue 49 item 1: the digit puzzles' articles said the play page had no keypad and
    showed counts by itself; the sentence now comes from the play spec: a number pad and
    an assist that starts off, and neither once the spec has no typed digits."""
    pad = {"en": "number pad", "ja": "数字パッド"}[lang]
    off = {"en": "off until you switch it on", "ja": "最初は切ってあります"}[lang]
    page = text(render(site, slug, lang, {}))
    assert pad in page and off in page
    assert "no keypad" not in page and "テンキーがありません" not in page
    assert "you never type a digit" not in page and "数字を打ち込むことはありません" not in page
    _with_play(monkeypatch, slug, digits=False)
    page = text(render(site, slug, lang, {}))
    assert pad not in page and off not in page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_slitherlink_proof_count_comes_from_confirm(site: Site, lang: str) -> None:
    """Issue 49 item 2: 'proved unique three times' while the second engine ran on 24 of
    72; the sentence now reads the confirm data."""
    c = _committed("slitherlink", "confirm")
    three = {"en": "proved unique three times", "ja": "三つの方法で答えが一つだと証明"}[lang]
    page = text(render(site, "slitherlink", lang, {"slitherlink/confirm": c}))
    assert (three in page) == (c["by_method"]["brute"] == c["total"])
    every = copy.deepcopy(c)
    every["by_method"]["brute"] = every["total"]
    page = text(render(site, "slitherlink", lang, {"slitherlink/confirm": every}))
    assert three in page


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", list(registry.slugs()))
def test_machine_details_only_in_the_methods_note(site: Site, slug: str, lang: str) -> None:
    """Issue 49 item 3: the build machine (its load, its cores) sat in the running prose
    as 'this machine'; it is now in one methods note, a block quote at the end."""
    html = render(site, slug, lang, {})
    notes = re.findall(r"<blockquote>(.*?)</blockquote>", html, flags=re.DOTALL)
    assert len(notes) == 1 and 'data-key="' + slug + '/timing.machine.load"' in notes[0]
    prose = html.replace(notes[0], "")
    assert "timing.machine" not in prose
    assert "this machine" not in text(html) and "このマシン" not in text(html)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_slitherlink_rarest_digit_is_set_against_every_loop(site: Site, lang: str) -> None:
    """Issue 49 item 5: the 3 is rarest only in the generator's loops; over every 4×5 loop
    counted once the 0 is, and the article prints that exact reference beside the sample."""
    ledger = _committed("slitherlink", "ledger")
    share = ledger["signatures"]["4x5"]["digit_share"]
    assert min(("0", "1", "2", "3"), key=share.__getitem__) == "0"
    html = render(site, "slitherlink", lang, {})
    assert 'data-key="slitherlink/ledger.signatures.4x5.digit_share.0"' in html
    assert 'data-key="slitherlink/stats.reference.ci.full_share.3.lo"' in html
    mechanism = {"en": "emptiness is what the rest of the board already implies",
                 "ja": "空白は盤のほかの部分がすでに物語っている"}[lang]
    assert mechanism not in text(html)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_canal_view_no_thin_fringe(site: Site, lang: str) -> None:
    """Issue 49 item 6: 'a thin fringe of the answer' against 1,058 of 1,142 canal cells
    seen; the sentence now prints the unseen cells from the data."""
    html = render(site, "canal-view", lang, {})
    assert "thin fringe" not in text(html) and "ほんの縁" not in text(html)
    assert 'data-key="canal-view/stats.sightlines.8x8.unseen_cells"' in html.split("</p>", 3)[1]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("slug", list(registry.slugs()))
def test_no_unexplained_spec(site: Site, slug: str, lang: str) -> None:
    """Issue 49 item 8: 'the spec', 'Beyond the spec', rung ids in code font."""
    page = text(render(site, slug, lang, {}))
    assert not re.search(r"\bthe spec\b|Beyond the spec|the spec's|仕様", page)
    assert not re.search(r"`(count|block|clash|reach|deg|neq|conn|probe)`", page)
