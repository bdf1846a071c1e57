"""Measure the Canal View hint traces on the committed bank: CPU time, steps per board,
cells per step, steps per rung, probe and search steps, difficulty labels, bytes.

    .venv/bin/python benchmarks/canal_view_hints.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solvers.canal_view.bank import board_difficulty, effort
from solvers.canal_view.board import Answer, Board
from solvers.canal_view.hints import trace
from solvers.canal_view.stages import BANK_PARAMS


def main() -> None:
    bank = json.loads((ROOT / "content" / "canal-view" / "bank.json").read_text())
    boards = bank["data"]["boards"]
    spec = BANK_PARAMS["difficulty"]
    start = time.process_time()
    traces = {e["id"]: trace(Board.from_json(e["board"]), Answer.from_json(e["answer"]))
              for e in boards}
    cpu = time.process_time() - start
    steps = [len(t) for t in traces.values()]
    cells = [len(s["cells"]) for t in traces.values() for s in t]
    rungs = Counter(s["rung"] for t in traces.values() for s in t)
    effs = {i: effort(t) for i, t in traces.items()}
    print(f"boards {len(boards)}, trace CPU {cpu:.1f} s")
    print(f"steps per board: median {statistics.median(steps)}, min {min(steps)}, "
          f"max {max(steps)}")
    print(f"cells per step: median {statistics.median(cells)}, max {max(cells)}")
    print("steps per rung:", dict(rungs))
    print("boards with a probe step:", sum(1 for e in effs.values() if e["probes"]),
          "with a search step:", sum(1 for e in effs.values() if e["searches"]))
    for size in BANK_PARAMS["sizes"]:
        got = Counter(board_difficulty(e, spec) for i, e in effs.items()
                      if i.startswith(size + "-"))
        print(f"difficulty {size}:", {lv: got[lv] for lv in spec["levels"]})
    size = {i: len(json.dumps(t, ensure_ascii=False, separators=(",", ":")).encode())
            for i, t in traces.items()}
    big = max(size, key=size.get)
    print(f"trace bytes: median {statistics.median(size.values()):.0f}, largest {size[big]} "
          f"({big})")


if __name__ == "__main__":
    main()
