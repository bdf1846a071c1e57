"""SVG charts drawn at build time from JSON Nodes (template globals).

Charts are pictures: the digits on their axes are exempt from the prose check, but the
values they draw still come from JSON Nodes (or plain numbers taken from them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from site_builder.provenance import Node, format_value

PALETTE = ("#1f6f8b", "#e07a2f", "#7a9e3b", "#9b4f96", "#c44536", "#5c6f7b")
W, H = 640, 300
ML, MR, MT, MB = 64, 16, 36, 44


def _val(x: Any) -> float:
    v = x.v if isinstance(x, Node) else x
    return float(v) if v is not None else float("nan")


def _nice_max(m: float) -> float:
    if m <= 0 or math.isnan(m):
        return 1.0
    exp = 10 ** math.floor(math.log10(m))
    for step in (1, 2, 2.5, 5, 10):
        if step * exp >= m:
            return step * exp
    return 10 * exp


def _tick_text(v: float, fmt: str) -> str:
    if fmt.startswith("pct"):
        return format_value(v, "pct0")
    if fmt == "int":
        return format_value(round(v), "int")
    return format_value(v, fmt)


def _frame(title: str, y_max: float, fmt: str, y_label: str, legend: Sequence[str]) -> list[str]:
    out = [(f'<svg viewBox="0 0 {W} {H}" role="img" aria-label="{escape(title)}" '
           f'xmlns="http://www.w3.org/2000/svg" class="chart-svg">')]
    ph = H - MT - MB
    for i in range(5):
        v = y_max * i / 4
        y = MT + ph - ph * i / 4
        out.append(f'<line x1="{ML}" y1="{y:.1f}" x2="{W - MR}" y2="{y:.1f}" class="grid"/>')
        out.append(f'<text x="{ML - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                   f'{escape(_tick_text(v, fmt))}</text>')
    if y_label:
        out.append(f'<text x="14" y="{MT + ph / 2:.1f}" transform="rotate(-90 14 {MT + ph / 2:.1f})"'
                   f' text-anchor="middle" class="axis">{escape(y_label)}</text>')
    x = ML
    for i, name in enumerate(legend):
        out.append(f'<rect x="{x}" y="10" width="12" height="12" fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{x + 16}" y="20" class="legend">{escape(name)}</text>')
        x += 24 + 8 * len(name)
    return out


def _figure(svg: list[str], title: str) -> Markup:
    svg.append("</svg>")
    cap = f"<figcaption>{escape(title)}</figcaption>" if title else ""
    return Markup(f'<figure class="chart">{"".join(svg)}{cap}</figure>')


def bar_chart(labels: Sequence[Any], series: Mapping[str, Sequence[Any]], fmt: str = "int",
              stacked: bool = False, title: str = "", y_label: str = "",
              x_label: str = "") -> Markup:
    """Vertical bars: one group per label, one bar (or stacked segment) per series."""
    labels = [str(x.v if isinstance(x, Node) else x) for x in labels]
    names = list(series)
    vals = [[_val(x) for x in series[n]] for n in names]
    for n, row in zip(names, vals):
        if len(row) != len(labels):
            raise ValueError(f"bar_chart: series {n!r} has {len(row)} values for {len(labels)} labels")
    if stacked:
        top = max((sum(v for v in col if not math.isnan(v)) for col in zip(*vals)), default=1)
    else:
        top = max((v for row in vals for v in row if not math.isnan(v)), default=1)
    y_max = _nice_max(top)
    out = _frame(title, y_max, fmt, y_label, names if len(names) > 1 else [])
    pw, ph = W - ML - MR, H - MT - MB
    gw = pw / max(1, len(labels))
    bw = gw * 0.7 / (1 if stacked else max(1, len(names)))
    for gi, label in enumerate(labels):
        gx = ML + gi * gw + gw * 0.15
        base = 0.0
        for si, name in enumerate(names):
            v = vals[si][gi]
            if math.isnan(v):
                continue
            h = ph * v / y_max
            x = gx if stacked else gx + si * bw
            y = MT + ph - h - (ph * base / y_max if stacked else 0)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw:.1f}" height="{h:.1f}" '
                       f'fill="{PALETTE[si % len(PALETTE)]}"><title>{escape(name)} · '
                       f'{escape(label)}: {escape(format_value(v, fmt if fmt != "int" else "f0"))}'
                       f'</title></rect>')
            if stacked:
                base += v
        out.append(f'<text x="{ML + gi * gw + gw / 2:.1f}" y="{H - MB + 16}" text-anchor="middle"'
                   f' class="tick">{escape(label)}</text>')
    _x_label(out, x_label)
    return _figure(out, title)


def _x_label(out: list[str], x_label: str) -> None:
    if x_label:
        out.append(f'<text x="{ML + (W - ML - MR) / 2:.1f}" y="{H - 6}" text-anchor="middle" '
                   f'class="axis">{escape(x_label)}</text>')


def line_chart(xs: Sequence[Any], series: Mapping[str, Sequence[Any]], fmt: str = "pct0",
               x_label: str = "", y_label: str = "", title: str = "") -> Markup:
    """Lines over a shared x axis (numbers or labels), one per series, with dots."""
    xlabels = [str(x.v if isinstance(x, Node) else x) for x in xs]
    names = list(series)
    vals = [[_val(x) for x in series[n]] for n in names]
    top = max((v for row in vals for v in row if not math.isnan(v)), default=1)
    y_max = 1.0 if fmt.startswith("pct") and top <= 1 else _nice_max(top)
    out = _frame(title, y_max, fmt, y_label, names if len(names) > 1 else [])
    pw, ph = W - ML - MR, H - MT - MB
    n = len(xlabels)

    def px(i: int) -> float:
        return ML + (pw * i / (n - 1) if n > 1 else pw / 2)

    for si, row in enumerate(vals):
        color = PALETTE[si % len(PALETTE)]
        pts = [(px(i), MT + ph - ph * v / y_max) for i, v in enumerate(row) if not math.isnan(v)]
        if len(pts) > 1:
            d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            out.append(f'<polyline points="{d}" fill="none" stroke="{color}" stroke-width="2.5"/>')
        for (x, y), v in zip(pts, [v for v in row if not math.isnan(v)]):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{color}">'
                       f'<title>{escape(format_value(v, fmt if fmt != "int" else "f0"))}</title></circle>')
    for i, label in enumerate(xlabels):
        out.append(f'<text x="{px(i):.1f}" y="{H - MB + 16}" text-anchor="middle" class="tick">'
                   f'{escape(label)}</text>')
    _x_label(out, x_label)
    return _figure(out, title)
