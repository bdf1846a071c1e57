"""puzz.link URLs for Canal View (pid ``canal``, Number16 body, width first)."""

from __future__ import annotations

import re

from solvers.common import PuzzleError

from .board import Board

PID = "canal"
PREFIX = "https://puzz.link/p?"
_HEX = "0123456789abcdef"
_LONG = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "@": (3, 8192), "%": (3, 8192),
         "*": (4, 12240), "$": (5, 77776)}
_QUERY_PAIR = re.compile(r"^[A-Za-z0-9_]+=[A-Za-z0-9_]*&")


def _decode_body(body: str, h: int, w: int) -> list:
    n = h * w
    vals: list = [None] * n
    i = 0
    pos = 0
    while pos < len(body) and i < n:
        ch = body[pos]
        if ch in _HEX:
            vals[i] = int(ch, 16)
            i += 1
            pos += 1
        elif ch in _LONG:
            k, base = _LONG[ch]
            digits = body[pos + 1:pos + 1 + k]
            if len(digits) != k or any(d not in _HEX for d in digits):
                raise PuzzleError(
                    f"body position {pos}: {ch!r} must be followed by {k} lower-case hex "
                    f"digits, got {digits!r}")
            vals[i] = base + int(digits, 16)
            i += 1
            pos += 1 + k
        elif ch == ".":
            vals[i] = "?"
            i += 1
            pos += 1
        elif "g" <= ch <= "z":
            i += int(ch, 36) - 15
            pos += 1
        else:
            # pzprjs skips such characters silently; pzprjs never writes them, so a URL that
            # holds one was damaged or hand-edited, and we say so instead of guessing
            raise PuzzleError(
                f"body position {pos}: character {ch!r} is not allowed in a Canal View body "
                "(expected 0-9, a-f, '.', '-', '+', '=', '@', '%', '*', '$' or g-z)")
    return vals


def decode(url: str) -> Board:
    """A puzz.link / pzv.jp / pzprxs URL (or its bare ``canal/W/H/body``) to a Board."""
    if not isinstance(url, str):
        raise PuzzleError(f"URL must be a string, got {type(url).__name__}")
    text = url.replace("\r", "").replace("\n", "")
    q = text.find("?")
    if q >= 0:
        text = text[q + 1:]
    while _QUERY_PAIR.match(text):
        text = text[_QUERY_PAIR.match(text).end():]
    parts = text.split("/")
    pid = parts[0]
    for suffix in ("_edit", "_play"):
        pid = pid.removesuffix(suffix)
    if pid != PID:
        raise PuzzleError(f"URL names puzzle {pid!r}; expected {PID!r} (Canal View)")
    rest = parts[1:]
    if rest and rest[0].startswith("v:"):
        rest = rest[1:]
    if rest and not rest[0].isdigit():
        rest = rest[1:]
    if len(rest) < 2:
        raise PuzzleError("URL is missing the width and height after 'canal/'")
    ws, hs = rest[0], rest[1]
    if not ws.isdigit():
        raise PuzzleError(f"width {ws!r} is not a decimal number")
    if not hs.isdigit():
        raise PuzzleError(f"height {hs!r} is not a decimal number")
    w, h = int(ws), int(hs)
    if w < 1 or h < 1:
        raise PuzzleError(f"board size {w}x{h} (width x height) must be at least 1x1")
    if w * h > 10000:
        raise PuzzleError(f"board size {w}x{h} is too large (more than 10000 cells)")
    body_parts = rest[2:]
    if body_parts and body_parts[-1] == "":
        body_parts = body_parts[:-1]
    body = "/".join(body_parts)
    vals = _decode_body(body, h, w)
    return Board(h, w, tuple(tuple(vals[r * w:(r + 1) * w]) for r in range(h)))


def _value(v) -> str:
    if v == "?":
        return "."
    if v < 16:
        return _HEX[v]
    if v < 256:
        return f"-{v:02x}"
    if v < 4096:
        return f"+{v:03x}"
    if v < 8192:
        return f"={v - 4096:03x}"
    if v < 12240:
        return f"@{v - 8192:03x}"
    if v < 77776:
        return f"*{v - 12240:04x}"
    return f"${v - 77776:05x}"


def encode(board: Board) -> str:
    """The URL pzprjs writes for this board (puzz.link prefix, trailing-slash rule)."""
    out = []
    count = 0
    for row in board.clues:
        for v in row:
            if v is None:
                count += 1
                if count == 20:
                    out.append("z")
                    count = 0
                continue
            if count:
                out.append(chr(ord("g") + count - 1))
                count = 0
            out.append(_value(v))
    if count:
        out.append(chr(ord("g") + count - 1))
    tail = f"{PID}/{board.w}/{board.h}/{''.join(out)}"
    if not tail[-1].isascii() or not tail[-1].isalnum():
        tail += "/"
    return PREFIX + tail
