"""Article tables that fit their column.

Markdown gives a table as one ``<thead>`` row and ``<tbody>`` rows, each cell on a line
of its own. A table too wide for the article's column (820 px on a laptop) is split
into bands of columns stacked in the same table: each band repeats the first column
(the rows' labels) under a header row of its own, so a 15-column table of counts reads
as two 8-column ones, nothing is cut and nothing scrolls on a laptop. One table, one
caption: what the caption says of a dash or a blank holds for every band.

Widths are estimated from the text (the browser is not asked): a character of Latin
text or digits is about 0.56 em, a Japanese one 1 em, at the table's 0.92 rem of 17 px,
plus 20 px of padding per cell; a header of several words wraps (site.css gives it
7.5 em at the least, class ``words``), a header of one word or number does not. A
table still wider than a phone's screen scrolls sideways in its wrapper (site.css), with
shadows at the edge that has more.
"""

from __future__ import annotations

import math
import re

EM = 0.92 * 17            # px: the table's font size (site.css .article table)
CELL_PAD = 20             # px: a cell's padding left and right
COLUMN = 820              # px: the article's column at 1280 px
BUDGET = COLUMN - 40      # what a band may take, with a margin for the estimate's error
WORDS_MIN = 7.5           # em: a header of several words (site.css .article th.words)
TEXT_MAX = 16             # em: a body cell of prose wraps at about this width

_TABLE = re.compile(r"<table>\n(<caption>.*?</caption>\n)?<thead>\n<tr>\n(.*?)</tr>\n</thead>\n"
                    r"<tbody>\n(.*?)</tbody>\n</table>", re.DOTALL)
_ROW = re.compile(r"<tr>\n(.*?)</tr>\n", re.DOTALL)
_CELL = re.compile(r"<(t[hd])([^>]*)>(.*?)</\1>\n", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _text(cell: str) -> str:
    return _TAG.sub("", cell).replace("&amp;", "&").strip()


def _ems(text: str) -> float:
    return sum(1.0 if ord(ch) >= 0x2E80 else 0.56 for ch in text)


def _words(text: str) -> bool:
    """A header that wraps: several words, longer than a short label."""
    return (" " in text and len(text) > 12) or (_ems(text) > 8 and any(ord(c) >= 0x2E80 for c in text))


def _head_width(text: str) -> float:
    if _words(text):
        longest = max((_ems(w) for w in text.split()), default=0.0)
        return max(WORDS_MIN, longest) * EM + CELL_PAD
    return _ems(text) * EM + CELL_PAD


def _body_width(text: str) -> float:
    return min(_ems(text), TEXT_MAX) * EM + CELL_PAD


def _bands(widths: list[float]) -> list[list[int]]:
    """The columns after the first, in bands of consecutive columns as even in width as
    the fewest bands that each fit the budget (with the first column) allow."""
    first, rest = widths[0], widths[1:]
    room = BUDGET - first
    if not rest or sum(rest) <= room or max(rest) > room:
        return [list(range(1, len(widths)))]
    for k in range(2, len(rest) + 1):
        per = math.ceil(len(rest) / k)
        bands = [list(range(1 + i, 1 + min(i + per, len(rest)))) for i in range(0, len(rest), per)]
        if all(sum(widths[j] for j in band) <= room for band in bands):
            return bands
    return [[j] for j in range(1, len(widths))]


def _cells(row: str) -> list[tuple[str, str, str]]:
    return _CELL.findall(row)


def _cell(tag: str, attrs: str, inner: str) -> str:
    return f"<{tag}{attrs}>{inner}</{tag}>\n"


def _mark_words(tag: str, attrs: str, inner: str) -> str:
    if tag == "th" and _words(_text(inner)) and "class=" not in attrs:
        attrs += ' class="words"'
    return _cell(tag, attrs, inner)


def _fit(m: re.Match[str]) -> str:
    caption, head_row, body = m[1] or "", m[2], m[3]
    head = _cells(head_row)
    rows = [_cells(r) for r in _ROW.findall(body)]
    if not head or any(len(r) != len(head) for r in rows):
        return m[0]                       # not a plain grid: left as it is
    widths = [max([_head_width(_text(head[j][2]))] + [_body_width(_text(r[j][2])) for r in rows])
              for j in range(len(head))]
    bands = _bands(widths)

    def tr(cells: list[tuple[str, str, str]], cols: list[int], marked: bool = False) -> str:
        keep = [cells[0]] + [cells[j] for j in cols]
        out = (_mark_words(*c) if marked else _cell(*c) for c in keep)
        return "<tr>\n" + "".join(out) + "</tr>\n"

    first, *more = bands
    out = [f"<table>\n{caption}<thead>\n", tr(head, first, True), "</thead>\n<tbody>\n"]
    out += [tr(r, first) for r in rows]
    out.append("</tbody>\n")
    for band in more:
        # a band's own header row: its cells are column headers (scope), in the body
        heads = [(t, a + ' scope="col"', i) for t, a, i in head]
        out.append('<tbody class="band">\n' + tr(heads, band, True).replace("<td", "<th")
                   .replace("</td>", "</th>"))
        out += [tr(r, band) for r in rows]
        out.append("</tbody>\n")
    out.append("</table>")
    return "".join(out)


def fit_tables(html: str) -> str:
    """Every Markdown table of ``html`` split into bands that fit the column, its headers
    of several words marked to wrap (see the module's note)."""
    return _TABLE.sub(_fit, html)


_FITTED = re.compile(r"<table>\n(?:<caption>.*?</caption>\n)?<thead>\n.*?</table>", re.DOTALL)
_BODY = re.compile(r'<tbody( class="band")?>\n(.*?)</tbody>\n', re.DOTALL)


def _join(m: re.Match[str]) -> str:
    table = m[0]
    bodies = _BODY.findall(table)
    if len(bodies) < 2:
        return table
    rows = [_cells(r) for r in _ROW.findall(bodies[0][1])]
    for _, body in bodies[1:]:
        band = [_cells(r) for r in _ROW.findall(body)]
        heads, band = band[0], band[1:]
        head_end = table.index("</tr>\n</thead>")
        table = table[:head_end] + "".join(_cell("th", a.replace(' scope="col"', ""), i)
                                           for _, a, i in heads[1:]) + table[head_end:]
        rows = [r + b[1:] for r, b in zip(rows, band, strict=True)]
    start = table.index("<tbody>")
    body = "".join("<tr>\n" + "".join(_cell(*c) for c in r) + "</tr>\n" for r in rows)
    return table[:start] + "<tbody>\n" + body + "</tbody>\n</table>"


def join_bands(html: str) -> str:
    """The tables of ``html`` as written, each band a split table was shown in joined back
    to its rows (``fit_tables``'s inverse but for the headers' wrap marks): for readers of
    a page's text that must not depend on where a table was split."""
    return _FITTED.sub(_join, html)
