"""puzz.link URLs for Canal View (pid ``canal``, Number16 body, width first)."""

from __future__ import annotations

from solvers.puzzlink import decode_number16, encode_cells, expect_end, join_url, split_url

from .board import Board

PID = "canal"
_HEX = "0123456789abcdef"


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or its bare ``canal/W/H/body``) to a Board."""
    w, h, body = split_url(url, PID)
    vals, end = decode_number16(body, h * w, 0, "Canal View")
    expect_end(body, end, h * w)
    return Board(h, w, tuple(tuple(vals[r * w:(r + 1) * w]) for r in range(h)))


# v is an int past its first test; mypy does not narrow int | str by == "?", and
# an isinstance would change the hashed code: hence the ignores below
def _value(v: int | str) -> str:
    if v == "?":
        return "."
    if v < 16:  # type: ignore[operator]  # an int: see above
        return _HEX[v]  # type: ignore[index]  # an int: see above
    if v < 256:  # type: ignore[operator]  # an int: see above
        return f"-{v:02x}"
    if v < 4096:  # type: ignore[operator]  # an int: see above
        return f"+{v:03x}"
    if v < 8192:  # type: ignore[operator]  # an int: see above
        return f"={v - 4096:03x}"  # type: ignore[operator]  # an int: see above
    if v < 12240:  # type: ignore[operator]  # an int: see above
        return f"@{v - 8192:03x}"  # type: ignore[operator]  # an int: see above
    if v < 77776:  # type: ignore[operator]  # an int: see above
        return f"*{v - 12240:04x}"  # type: ignore[operator]  # an int: see above
    return f"${v - 77776:05x}"  # type: ignore[operator]  # an int: see above


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (Number16 body)."""
    return join_url(PID, board.w, board.h, encode_cells(board.clues, "g", 20, _value))
