"""SVG charts drawn at build time from JSON Nodes (template globals).

Charts are pictures: the digits on their axes are exempt from the prose check, but the
values they draw still come from JSON Nodes (or plain numbers taken from them).

Each chart is drawn twice, for a wide and for a narrow screen (site.css shows one): a
picture scales its text with its width, so the narrow drawing has fewer units across and
larger type, and its text stays at least 11 px on a 390 px phone.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import budoux
from markupsafe import Markup, escape

from site_builder.boards import encode_src, src_attr
from site_builder.provenance import Node, format_value

PALETTE = ("#1f6f8b", "#e07a2f", "#7a9e3b", "#9b4f96", "#c44536", "#5c6f7b")


@dataclass(frozen=True)
class Layout:
    """One drawing of a chart: its width and height in picture units, the plot's margins
    (left, right, bottom; the top follows the legend) and the font size in those units."""

    name: str
    w: int
    h: int
    ml: int
    mr: int
    mb: int
    font: int


# Wide: shown when the page's column is at least 600 px (12 units -> 11.2 px or more).
# Narrow: 360 units drawn into a phone's ~350 px column (13 units -> 12.6 px at 390 px).
WIDE = Layout("wide", 640, 300, 64, 16, 44, 12)
NARROW = Layout("narrow", 360, 320, 50, 10, 46, 13)
LAYOUTS = (WIDE, NARROW)
SLANT = 35  # degrees: the turn of x labels too long to sit side by side

_WIDE_CHAR = re.compile(r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f"
                        r"\uff00-\uff60\uffe0-\uffe6]")


def text_width(s: str, font: float) -> float:
    """An estimate of the drawn width of ``s``: a full em per CJK character, 0.6 else."""
    return sum(font if _WIDE_CHAR.match(ch) else 0.6 * font for ch in s)


_PHRASES = budoux.load_default_japanese_parser()


def wrap_label(label: str, font: float, room: float, most: int = 3) -> list[str]:
    """``label`` in lines no wider than ``room``, broken between words (BudouX phrases
    in Japanese, spaces else); ``[label]`` when it fits or cannot fit in ``most`` lines."""
    if text_width(label, font) <= room:
        return [label]
    words = _PHRASES.parse(label) if _WIDE_CHAR.search(label) else label.split(" ")
    sep = "" if _WIDE_CHAR.search(label) else " "
    lines: list[str] = []
    for word in words:
        trial = (lines[-1] + sep + word).strip() if lines else word.strip()
        if lines and text_width(trial, font) <= room:
            lines[-1] = trial
        else:
            lines.append(word.strip())
    if len(lines) > most or any(text_width(x, font) > room for x in lines):
        return [label]
    return lines


def _label(x: Any) -> str:
    """An axis label; a board size ``8x8`` is written ``8×8`` as in the prose."""
    return re.sub(r"(?<=\d)x(?=\d)", "×", str(x.v if isinstance(x, Node) else x))


def _val(x: Any) -> float:
    v = x.v if isinstance(x, Node) else x
    return float(v) if v is not None else float("nan")


def _nice_scale(m: float) -> tuple[float, int]:
    """The axis top and the number of grid steps (at most five) for a largest value
    ``m``: steps of 1, 2 or 5 times a power of ten, so every tick label is round."""
    if m <= 0 or math.isnan(m):
        return 1.0, 4
    exp = 10.0 ** math.floor(math.log10(m / 5))
    for mult in (1, 2, 5, 10, 20):
        step = mult * exp
        n = max(1, math.ceil(m / step - 1e-9))
        if n <= 5:
            return round(step * n, 12), n
    return m, 4


def _tick_text(v: float, fmt: str, step: float = 1.0) -> str:
    if fmt.startswith("pct"):
        whole = abs(step * 100 - round(step * 100)) < 1e-9
        return format_value(v, "pct0" if whole else "pct1")
    if fmt == "int":
        return format_value(round(v), "int")
    return format_value(v, fmt)


class _Plot:
    """The frame of one drawing: legend rows, y grid and ticks, axis labels."""

    def __init__(self, lay: Layout, title: str, scale: tuple[float, int], fmt: str,
                 y_label: str, legend: Sequence[str], x_extra: float = 0.0,
                 colors: Sequence[Sequence[str]] | None = None) -> None:
        """``colors``: per legend entry, the colours its swatch shows (several when the
        entry stands for series drawn as one line); default one palette colour each."""
        self.lay, f = lay, lay.font
        y_max, steps = scale
        self.mb = lay.mb + round(x_extra)
        # Legend entries flow left to right and wrap onto new rows.
        rows: list[list[tuple[float, str, int]]] = [[]]
        x = float(lay.ml)
        for i, name in enumerate(legend):
            width = f + 4 + text_width(name, f)
            if rows[-1] and x + width > lay.w - lay.mr:
                rows.append([])
                x = float(lay.ml)
            rows[-1].append((x, name, i))
            x += width + f
        self.mt = (len(rows) if legend else 0) * (f + 6) + f + 8
        self.pw, self.ph = lay.w - lay.ml - lay.mr, lay.h - self.mt - self.mb
        out = [(f'<svg viewBox="0 0 {lay.w} {lay.h}" role="img" aria-label="{escape(title)}" '
                f'xmlns="http://www.w3.org/2000/svg" class="chart-svg {lay.name}" '
                f'font-size="{f}">')]
        for ri, row in enumerate(rows if legend else []):
            ly = 8 + ri * (f + 6)          # the legend row's top
            for x, name, i in row:
                swatch = colors[i] if colors else (PALETTE[i % len(PALETTE)],)
                part = f / len(swatch)
                for ci, color in enumerate(swatch):
                    out.append(f'<rect x="{x + ci * part:.1f}" y="{ly}" width="{part:.1f}" '
                               f'height="{f}" fill="{color}"/>')
                out.append(f'<text x="{x + f + 4:.1f}" y="{ly + f - 2}" class="legend">'
                           f'{escape(name)}</text>')
        for i in range(steps + 1):
            v = y_max * i / steps
            y = self.mt + self.ph - self.ph * i / steps
            out.append(f'<line x1="{lay.ml}" y1="{y:.1f}" x2="{lay.w - lay.mr}" y2="{y:.1f}" '
                       f'class="grid"/>')
            out.append(f'<text x="{lay.ml - 5}" y="{y + f / 3:.1f}" text-anchor="end" '
                       f'class="tick">{escape(_tick_text(v, fmt, y_max / steps))}</text>')
        if y_label:
            yc = self.mt + self.ph / 2
            out.append(f'<text x="{f}" y="{yc:.1f}" transform="rotate(-90 {f} {yc:.1f})"'
                       f' text-anchor="middle" class="axis">{escape(y_label)}</text>')
        self.out = out

    def x_ticks(self, labels: Sequence[Sequence[str]], xs: Sequence[float], room: float,
                slant: bool = False) -> None:
        """Labels (each a list of lines) under the plot at ``xs``; when they would collide
        (each has ``room`` units), only every k-th is written, starting with the first.
        ``slant``: each label on one line, turned to rise to the left of its place."""
        f = self.lay.font
        if slant:
            y = self.lay.h - self.mb + f * 0.8
            for lines, x in zip(labels, xs, strict=True):
                xx = x + f / 3
                self.out.append(f'<text x="{xx:.1f}" y="{y:.1f}" text-anchor="end" class="tick" '
                                f'transform="rotate(-{SLANT} {xx:.1f} {y:.1f})">'
                                f'{escape("".join(lines))}</text>')
            return
        need = max((text_width(x, f) for lines in labels for x in lines), default=0) + f * 0.5
        step = max(1, math.ceil(need / room)) if room > 0 else 1
        for i, (lines, x) in enumerate(zip(labels, xs, strict=True)):
            if i % step:
                continue
            for li, line in enumerate(lines):
                y = self.lay.h - self.mb + f + 4 + li * (f + 2)
                self.out.append(f'<text x="{x:.1f}" y="{y}" text-anchor="middle" '
                                f'class="tick">{escape(line)}</text>')

    def x_label(self, x_label: str) -> None:
        lay = self.lay
        if x_label:
            self.out.append(f'<text x="{lay.ml + self.pw / 2:.1f}" y="{lay.h - 6}" '
                            f'text-anchor="middle" class="axis">{escape(x_label)}</text>')

    def svg(self) -> str:
        return "".join(self.out) + "</svg>"


def _figure(svgs: Sequence[str], title: str, fn: str, args: dict[str, Any]) -> Markup:
    """The chart's two drawings in a ``<figure>`` whose ``data-src`` holds the call (its
    Node arguments as JSON keys, the series as ``[name, values]`` pairs in their order):
    ``build-site check`` draws it again from ``content/``
    and compares the bytes, so a tick, a label or a tooltip edited is caught."""
    cap = f"<figcaption>{escape(title)}</figcaption>" if title else ""
    src = src_attr({"chart": fn, "args": encode_src(args)})
    return Markup(f'<figure class="chart" {src}>{"".join(svgs)}{cap}</figure>')


def bar_chart(labels: Sequence[Any], series: Mapping[str, Sequence[Any]], fmt: str = "int",
              stacked: bool = False, title: str = "", y_label: str = "",
              x_label: str = "") -> Markup:
    """Vertical bars: one group per label, one bar (or stacked segment) per series."""
    call = {"labels": list(labels), "series": [[k, list(v)] for k, v in series.items()],
            "fmt": fmt, "stacked": stacked, "title": title, "y_label": y_label,
            "x_label": x_label}
    labels = [_label(x) for x in labels]
    names = list(series)
    vals = [[_val(x) for x in series[n]] for n in names]
    for n, row in zip(names, vals, strict=True):
        if len(row) != len(labels):
            raise ValueError(f"bar_chart: series {n!r} has {len(row)} values for {len(labels)} labels")
    if stacked:
        top = max((sum(v for v in col if not math.isnan(v)) for col in zip(*vals, strict=True)), default=1)
    else:
        top = max((v for row in vals for v in row if not math.isnan(v)), default=1)
    scale = _nice_scale(top)
    y_max = scale[0]
    svgs = []
    for lay in LAYOUTS:
        gw = (lay.w - lay.ml - lay.mr) / max(1, len(labels))
        wrapped = [wrap_label(label, lay.font, gw * 0.95) for label in labels]
        slant = any(text_width(x, lay.font) > gw * 0.95 for w in wrapped for x in w)
        if slant:  # too long even in lines: the labels are turned, the plot rises
            wrapped = [[label] for label in labels]
            extra = max(text_width(x, lay.font) for x in labels) * math.sin(
                math.radians(SLANT)) - lay.font - (0 if x_label else lay.font + 6)
        else:
            extra = (max((len(w) for w in wrapped), default=1) - 1) * (lay.font + 2)
        plot = _Plot(lay, title, scale, fmt, y_label, names if len(names) > 1 else [],
                     x_extra=max(0.0, extra))
        out, ph, mt = plot.out, plot.ph, plot.mt
        bw = gw * 0.7 / (1 if stacked else max(1, len(names)))
        for gi, label in enumerate(labels):
            gx = lay.ml + gi * gw + gw * 0.15
            base = 0.0
            for si, name in enumerate(names):
                v = vals[si][gi]
                if math.isnan(v):
                    continue
                h = ph * v / y_max
                x = gx if stacked else gx + si * bw
                y = mt + ph - h - (ph * base / y_max if stacked else 0)
                out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw:.1f}" height="{h:.1f}" '
                           f'fill="{PALETTE[si % len(PALETTE)]}"><title>{escape(name)} · '
                           f'{escape(label)}: {escape(format_value(v, fmt if fmt != "int" else "f0"))}'
                           f'</title></rect>')
                if stacked:
                    base += v
        plot.x_ticks(wrapped, [lay.ml + gi * gw + gw / 2 for gi in range(len(labels))], gw, slant)
        plot.x_label(x_label)
        svgs.append(plot.svg())
    return _figure(svgs, title, "bar_chart", call)


# Two lines closer than this share of the axis everywhere overlap in the picture (at most
# about five units apart in a plot some 220 units high, under the 7-unit dots).
NEAR = 0.025


def coinciding(vals: Sequence[Sequence[float]], y_max: float) -> list[tuple[list[int], str]]:
    """The series' indexes grouped where their lines would cover each other (gaps in the
    same places and every value within ``NEAR`` of the axis of the group's first), in
    order of first appearance, each with the sign its legend joins their names with:
    ``=`` when the values are identical, ``≈`` when only close."""
    groups: list[tuple[list[int], str]] = []
    for i, row in enumerate(vals):
        for members, _ in groups:
            first = vals[members[0]]
            if all(math.isnan(a) == math.isnan(b) and (math.isnan(a) or abs(a - b) <= NEAR * y_max)
                   for a, b in zip(first, row, strict=True)):
                members.append(i)
                break
        else:
            groups.append(([i], "="))
    out = []
    for members, _ in groups:
        same = all(all((math.isnan(a) and math.isnan(b)) or a == b
                       for a, b in zip(vals[members[0]], vals[m], strict=True)) for m in members)
        out.append((members, "=" if same else "≈"))
    return out


def line_chart(xs: Sequence[Any], series: Mapping[str, Sequence[Any]], fmt: str = "pct0",
               x_label: str = "", y_label: str = "", title: str = "") -> Markup:
    """Lines over a shared x axis (numbers or labels), one per series, with dots."""
    call = {"xs": list(xs), "series": [[k, list(v)] for k, v in series.items()], "fmt": fmt,
            "x_label": x_label, "y_label": y_label, "title": title}
    xlabels = [_label(x) for x in xs]
    names = list(series)
    vals = [[_val(x) for x in series[n]] for n in names]
    top = max((v for row in vals for v in row if not math.isnan(v)), default=1)
    scale = (1.0, 4) if fmt.startswith("pct") and top <= 1 else _nice_scale(top)
    y_max = scale[0]
    n = len(xlabels)
    groups = coinciding(vals, y_max)
    legend = [f" {sign} ".join(names[i] for i in g) for g, sign in groups]
    colors = [[PALETTE[i % len(PALETTE)] for i in g] for g, _ in groups]
    svgs = []
    for lay in LAYOUTS:
        plot = _Plot(lay, title, scale, fmt, y_label, legend if len(names) > 1 else [],
                     colors=colors)
        out, pw, ph, mt = plot.out, plot.pw, plot.ph, plot.mt
        # A half-label inset each side keeps the end labels inside the picture.
        inset = min(pw / 4, max((text_width(s, lay.font) for s in xlabels), default=0) / 2)

        def px(i: int, lay: Layout = lay, inset: float = inset, pw: float = pw) -> float:
            return lay.ml + inset + ((pw - 2 * inset) * i / (n - 1) if n > 1 else pw / 2 - inset)

        for group, _ in groups:
            # Lines that would cover each other: the first is drawn whole, each further
            # one as dashes of its own colour over it (and smaller dots), so every series
            # shows, and the legend joins their names.
            k = len(group)
            for j, si in enumerate(group):
                row = vals[si]
                color = PALETTE[si % len(PALETTE)]
                pts = [(px(i), mt + ph - ph * v / y_max) for i, v in enumerate(row)
                       if not math.isnan(v)]
                dash = (f' stroke-dasharray="6 {6 * (k - 1)}" stroke-dashoffset="{-6 * (j - 1)}"'
                        if j else "")
                if len(pts) > 1:
                    d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
                    out.append(f'<polyline points="{d}" fill="none" stroke="{color}" '
                               f'stroke-width="2.5"{dash}/>')
                r = 3.5 if j == 0 else 2.0
                for (x, y), v in zip(pts, [v for v in row if not math.isnan(v)], strict=True):
                    out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{color}">'
                               f'<title>{escape(format_value(v, fmt if fmt != "int" else "f0"))}</title></circle>')
        room = (pw - 2 * inset) / (n - 1) if n > 1 else pw
        plot.x_ticks([[x] for x in xlabels], [px(i) for i in range(n)], room)
        plot.x_label(x_label)
        svgs.append(plot.svg())
    return _figure(svgs, title, "line_chart", call)
