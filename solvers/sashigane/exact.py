"""The ledger stage: L tilings of empty boards, counted three ways.

* the scanner with a memo on the covered set, on h×w;
* the same scanner on the transposed board w×h (it walks a different order);
* the transfer matrix over column profiles (``transfer.py``), also past the scanner's
  reach.

The 2×n row is checked against a(n) = a(n−1) + 2·a(n−3) (OEIS A052537, generating
function (1−x)/(1−x−2x³)), and the most pieces of any tiling against ⌊h·w/3⌋.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solvers.common import Progress, no_progress
from solvers.grid import parse_size

from .brute import count_tilings
from .transfer import count


def a052537(n: int) -> list[int]:
    """Coefficients 0..n of (1−x)/(1−x−2x³)."""
    a = [1, 0, 0]
    while len(a) <= n:
        a.append(a[-1] + 2 * a[-3])
    a[0] = 1
    return a[:n + 1]


def ledger_chunks(inputs: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One chunk per row of the table (h×1 … h×n), one per size past it."""
    table = {int(k): v for k, v in params["table"].items()}
    return ([{"key": f"row/{h}", "h": h, "n": n} for h, n in sorted(table.items())]
            + [{"key": f"beyond/{size}", "size": size} for size in params["beyond"]])


def ledger_map(chunk: Mapping[str, Any], inputs: Mapping[str, Any], params: Mapping[str, Any],
               progress: Progress = no_progress) -> Any:
    if "size" in chunk:
        h, w = parse_size(chunk["size"])
        n, most = count(h, w)
        return {"h": h, "w": w, "tilings": n, "most_pieces": most, "bound": h * w // 3}
    h = chunk["h"]
    cells = {}
    for w in range(1, chunk["n"] + 1):
        n, most = count_tilings(h, w)
        tm, tmost = count(h, w)
        entry: dict[str, Any] = {"h": h, "w": w, "tilings": n, "transfer": tm,
                                 "most_pieces": most if n else None,
                                 "bound": h * w // 3,
                                 "transfer_agrees": tm == n and (tmost == most or n == 0)}
        if h * w > params["transpose_from"]:
            tn, _ = count_tilings(w, h)
            entry["transposed"] = tn
            entry["transpose_agrees"] = tn == n
        cells[f"{h}x{w}"] = entry
    return cells


def ledger_reduce(partials: list[Any], inputs: Mapping[str, Any],
                  params: Mapping[str, Any]) -> dict[str, Any]:
    got = {c["key"]: p for c, p in zip(ledger_chunks(inputs, params), partials, strict=True)}
    table = {int(k): v for k, v in params["table"].items()}
    rows: dict[str, Any] = {}
    cells: dict[str, Any] = {}
    for h in sorted(table):
        part = got[f"row/{h}"]
        cells.update(part)
        rows[str(h)] = [e["tilings"] for e in part.values()]
    beyond = {size: got[f"beyond/{size}"] for size in params["beyond"]}
    two = rows["2"]
    gf = a052537(len(two))
    recurrence = all(two[i] == two[i - 1] + 2 * two[i - 3] for i in range(3, len(two)))
    checked = [c for c in cells.values() if "transposed" in c]
    square = [cells[f"{k}x{k}"]["tilings"] if f"{k}x{k}" in cells else count_tilings(k, k)[0]
              for k in range(1, params.get("square_upto", 6) + 1)]
    at_bound = [k for k, c in {**cells, **beyond}.items()
                if c["tilings"] and c["most_pieces"] == c["bound"]]
    return {
        "rows": rows, "cells": cells, "beyond": beyond,
        "square": square,
        "three_by_three": cells["3x3"]["tilings"],
        "two_by_n": {"terms": len(two), "recurrence": recurrence,
                     "gf_matches": two == gf[1:len(two) + 1]},
        "transpose": {"checked": len(checked),
                      "agree": sum(1 for c in checked if c["transpose_agrees"])},
        "transfer": {"checked": len(cells),
                     "agree": sum(1 for c in cells.values() if c["transfer_agrees"])},
        "max_pieces": {"4x6": cells["4x6"]["most_pieces"], "bound_4x6": cells["4x6"]["bound"],
                       "sizes_at_bound": len(at_bound),
                       "sizes": len([c for c in {**cells, **beyond}.values() if c["tilings"]])},
    }


def ledger(inputs: Mapping[str, Any], params: Mapping[str, Any],
           progress: Progress = no_progress) -> dict[str, Any]:
    """The whole ledger in this process (the pipeline runs it chunk by chunk)."""
    chunks = ledger_chunks(inputs, params)
    return ledger_reduce([ledger_map(c, inputs, params) for c in chunks], inputs, params)
