"""Slitherlink boards our solvers had no part in, drawn by an answer-set model (not a test).

    .venv/bin/pip install clingo
    .venv/bin/python plugins/slitherlink/benchmarks/outside.py --count 6
    .venv/bin/python plugins/slitherlink/benchmarks/outside.py --seed 8 --count 2 --out fresh

The rules are written here as an answer-set program of their own (cell colours: inside
cells joined from the first inside cell, outside cells joined to the board's edge, no
2×2 checkerboard; a side is a line where the colours differ; a clue counts the lines
around its cell), which shares no code with ``slitherlink/``:

1. an answer: clingo with a fixed ``--seed``, random signs and ``--rand-freq``, under a
   random partial colouring chosen by our seeded RNG (halved until clingo can complete it);
2. every cell's clue;
3. clues taken away in a seeded random order while clingo proves the answer unique (the
   program with "not this answer" is UNSAT under the clues still on, held as
   externals set true in one control).

Output: ``outside/slitherlink-<H>x<W>.json`` (six boards a size: 24; the first five are
those ``--count 5`` drew), and with ``--seed 8 --out fresh`` the ``fresh`` corpus, from
seeds the outside set does not use, to check a change chosen on the outside set: ``{"boards": [{"board", "answer"}]}``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

RULES = """
cell(R,C) :- R = 0..H-1, C = 0..W-1, h(H), w(W).
adj(R,C,R+1,C) :- cell(R,C), cell(R+1,C).
adj(R,C,R,C+1) :- cell(R,C), cell(R,C+1).
adj(A,B,C,D) :- adj(C,D,A,B).
outer(R,C,M) :- cell(R,C), h(H), w(W),
    M = #count { 0 : R = 0; 1 : R = H-1; 2 : C = 0; 3 : C = W-1 }.
border(R,C) :- outer(R,C,M), M > 0.
{ in(R,C) } :- cell(R,C).
idx(R,C,R*W+C) :- cell(R,C), w(W).
seen(I) :- idx(R,C,I), in(R,C).
seen(I) :- seen(I-1), idx(_,_,I).
root(R,C) :- in(R,C), idx(R,C,I), not seen(I-1).
:- not seen(N-1), h(H), w(W), N = H*W.
reach(R,C) :- root(R,C).
reach(A,B) :- reach(R,C), adj(R,C,A,B), in(A,B).
:- in(R,C), not reach(R,C).
oreach(R,C) :- border(R,C), not in(R,C).
oreach(A,B) :- oreach(R,C), adj(R,C,A,B), not in(A,B).
:- cell(R,C), not in(R,C), not oreach(R,C).
:- in(R,C), in(R+1,C+1), not in(R,C+1), not in(R+1,C), cell(R+1,C+1).
:- not in(R,C), not in(R+1,C+1), in(R,C+1), in(R+1,C), cell(R+1,C+1).
diff(R,C,A,B) :- adj(R,C,A,B), in(R,C), not in(A,B).
diff(R,C,A,B) :- adj(R,C,A,B), not in(R,C), in(A,B).
sides(R,C,N+M) :- in(R,C), outer(R,C,M), N = #count { A,B : diff(R,C,A,B) }.
sides(R,C,N) :- cell(R,C), not in(R,C), N = #count { A,B : diff(R,C,A,B) }.
#external on(R,C,K) : cell(R,C), K = 0..4.
:- on(R,C,K), sides(R,C,N), N != K.
#show in/2.
"""


def _control(h: int, w: int, seed: int, extra: str = ""):
    import clingo

    ctl = clingo.Control(["--seed", str(seed), "--rand-freq=0.3", "--sign-def=rnd", "-t", "1"])
    ctl.add("base", [], f"h({h}). w({w}).\n" + RULES + extra)
    ctl.ground([("base", [])])
    return ctl


def _model(ctl, assumptions) -> set[tuple[int, int]] | None:

    got: list[set[tuple[int, int]]] = []
    with ctl.solve(assumptions=assumptions, yield_=True) as hd:
        for m in hd:
            got.append({(s.arguments[0].number, s.arguments[1].number)
                        for s in m.symbols(shown=True)})
            break
    return got[0] if got else None


def draw(h: int, w: int, rng: random.Random) -> dict:
    import clingo

    ctl = _control(h, w, rng.randrange(1 << 30))
    cells = [(r, c) for r in range(h) for c in range(w)]
    k = len(cells) // 6
    inside = None
    while inside is None:
        fix = rng.sample(cells, k)
        ass = [(clingo.Function("in", [clingo.Number(r), clingo.Number(c)]), rng.random() < 0.5)
               for r, c in fix]
        inside = _model(ctl, ass)
        k //= 2
    # the clues, then a control that forbids this answer
    def sides(r: int, c: int) -> int:
        me = (r, c) in inside
        n = 0
        for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = (a, b) in inside if 0 <= a < h and 0 <= b < w else False
            n += other != me
        return n
    clue = {cell: sides(*cell) for cell in cells}
    lits = ", ".join(f"in({r},{c})" if (r, c) in inside else f"not in({r},{c})" for r, c in cells)
    un = _control(h, w, 1, f":- {lits}.\n")
    on = set(cells)

    def atom(cell):
        return clingo.Function("on", [clingo.Number(cell[0]), clingo.Number(cell[1]),
                                      clingo.Number(clue[cell])])
    for cell in cells:
        un.assign_external(atom(cell), True)
    order = list(cells)
    rng.shuffle(order)
    for cell in order:
        on.discard(cell)
        un.assign_external(atom(cell), False)
        if _model(un, []) is not None:
            on.add(cell)        # another answer: this clue stays
            un.assign_external(atom(cell), True)
    clues = [[clue[(r, c)] if (r, c) in on else None for c in range(w)] for r in range(h)]

    def at(r: int, c: int) -> bool:
        return (r, c) in inside
    vert = ["".join("1" if at(r, x - 1) != at(r, x) else "0" for x in range(w + 1))
            for r in range(h)]
    horiz = ["".join("1" if at(y - 1, c) != at(y, c) else "0" for c in range(w))
             for y in range(h + 1)]
    return {"board": {"h": h, "w": w, "clues": clues}, "answer": {"vert": vert, "horiz": horiz}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", nargs="+", default=["10x10", "15x15", "20x20", "30x30"])
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="outside",
                    help="folder beside this file (the fresh corpus: --seed 8 --out fresh)")
    args = ap.parse_args()
    (HERE / args.out).mkdir(exist_ok=True)
    for size in args.sizes:
        h, w = map(int, size.split("x"))
        rng = random.Random(f"{args.seed}:{size}")
        boards = []
        for k in range(args.count):
            boards.append(draw(h, w, rng))
            print(size, k + 1, flush=True)
        path = HERE / args.out / f"slitherlink-{size}.json"
        path.write_text(json.dumps({"boards": boards}, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
