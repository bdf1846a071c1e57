"""`build-site verify`: every banked board re-proved unique by each method the puzzle
offers."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any


def run(args: Any, root: Path) -> int:
    """Re-prove every banked board unique, by each method the puzzle offers: the ladder,
    the second engine (boards up to ``brute_max_cells``) and the puzzle's independent
    confirmers (``Puzzle.confirm``: name -> (board, answer) -> bool). A board counts as
    confirmed by a method when that method finds the banked answer and no other."""
    from site_builder.jsonio import read_stage, stage_path
    from site_builder.schema import check_bank
    from solvers import registry

    slugs = args.slugs or registry.slugs()
    report: dict[str, Any] = {}
    failures: list[str] = []
    for slug in slugs:
        puzzle = registry.get(slug)
        extra = puzzle.confirm
        path = stage_path(root, slug, "bank")
        bank = read_stage(path, slug, "bank")["data"]
        check_bank(path, puzzle, bank)
        by_size: dict[str, dict[str, int]] = {}
        by_grade: dict[str, int] = {}
        methods = {"ladder": 0, "brute": 0, **{name: 0 for name in extra}}
        unique = independent = brute_checked = 0
        times = []
        for e in bank["boards"]:
            board = puzzle.board_from_json(e["board"])
            answer = puzzle.answer_from_json(e["answer"])
            want = puzzle.answer_rows(answer)
            t0 = time.perf_counter()
            res = puzzle.solve(board, limit=2)
            times.append(time.perf_counter() - t0)
            ok = len(res.solutions) == 1 and puzzle.answer_rows(res.solutions[0]) == want
            methods["ladder"] += ok
            s = by_size.setdefault(e["size"], {"boards": 0, "unique": 0,
                                               **{m: 0 for m in methods}})
            s["ladder"] += ok
            others = []
            if e["h"] * e["w"] <= puzzle.brute_max_cells:
                bres = puzzle.brute(board, limit=2)
                brute_checked += 1
                b_ok = len(bres.solutions) == 1 and puzzle.answer_rows(bres.solutions[0]) == want
                methods["brute"] += b_ok
                s["brute"] += b_ok
                others.append(b_ok)
            for name, check in extra.items():
                c_ok = bool(check(board, answer))
                methods[name] += c_ok
                s[name] += c_ok
                others.append(c_ok)
            # proven: the ladder finds the banked answer alone and no other method that ran
            # disagrees; independent: some method sharing no code with the ladder confirmed it
            proven = ok and all(others)
            independent += bool(others) and all(others)
            s["boards"] += 1
            if proven:
                unique += 1
                s["unique"] += 1
                by_grade[res.rung or "none"] = by_grade.get(res.rung or "none", 0) + 1
            else:
                failures.append(f"{slug} {e['id']}: not proven unique (a method disagrees)")
        report[slug] = {"boards": len(bank["boards"]), "unique": unique, "by_size": by_size,
                        "by_grade": by_grade, "brute_checked": brute_checked,
                        "methods": methods, "independent": independent}
        if not args.json:
            import statistics

            med = statistics.median(times) * 1000 if times else 0.0
            print(f"{slug}: {unique}/{len(bank['boards'])} boards proven unique, {independent} "
                  f"also by a method sharing no code with the ladder; median {med:.1f} ms a "
                  "board (ladder)")
            print("  confirmed by: " + ", ".join(f"{m} {n}" for m, n in methods.items())
                  + f" (second engine run on {brute_checked})")
            for size, s in by_size.items():
                print(f"  {size}: {s['unique']}/{s['boards']} ("
                      + ", ".join(f"{m} {s[m]}" for m in methods) + ")")
            print("  grades: " + ", ".join(f"{g} {n}" for g, n in by_grade.items()))
    if args.json:
        print(json.dumps(report, ensure_ascii=False, sort_keys=True))
    for f in failures:
        print(f, file=sys.stderr)
    return 1 if failures else 0


