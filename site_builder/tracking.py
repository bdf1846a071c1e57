"""The recording halves of the render: JSON Nodes and a Jinja environment that tell the
active ``deps`` recorders what a job read (kept apart from ``deps`` so that a build with
nothing to render imports neither Jinja nor the renderer)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jinja2

from site_builder.deps import _STACK, observe, record_template
from site_builder.provenance import Node

# ---------------------------------------------------------------------------- Nodes


class TrackedNode(Node):
    """A ``Node`` that tells the active recorders which values a page observed."""

    __slots__ = ()

    def _child(self, key: Any) -> Node:
        n = Node._child(self, key)
        return TrackedNode(n._value, n._path)

    def __iter__(self) -> Iterator[Node]:
        observe("k", self._path, self._value)
        return (TrackedNode(n._value, n._path) for n in Node.__iter__(self))

    def items(self) -> list[tuple[str, Node]]:
        observe("k", self._path, self._value)
        return [(k, TrackedNode(n._value, n._path)) for k, n in Node.items(self)]

    def __len__(self) -> int:
        observe("k", self._path, self._value)
        return Node.__len__(self)

    def __contains__(self, key: Any) -> bool:
        observe("k", self._path, self._value)
        return Node.__contains__(self, key)

    def __bool__(self) -> bool:
        observe("k", self._path, self._value)
        return Node.__bool__(self)

    @property
    def v(self) -> Any:
        observe("v", self._path, self._value)
        return self._value

    def __eq__(self, other: object) -> bool:
        # both sides of a comparison are read whole: ``a == b`` turns when either moves
        observe("v", self._path, self._value)
        if isinstance(other, TrackedNode):
            observe("v", other._path, other._value)
        return Node.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = Node.__hash__

    def __str__(self) -> str:
        observe("v", self._path, self._value)
        return Node.__str__(self)


# ---------------------------------------------------------------------------- Jinja


class TrackingEnvironment(jinja2.Environment):
    """Jinja's environment, recording every template a render loads (the page itself,
    ``extends``, ``include``, ``import``: all go through ``_load_template``), and every
    name it looked for and did not find (an ``include ... ignore missing``, the names of
    an include list before the one that answered): a file created there later changes
    the page, so the name's absence is an input too (recorded as coming from nowhere)."""

    def _load_template(self, name: Any, globals: Any) -> jinja2.Template:
        try:
            t = super()._load_template(name, globals)
        except jinja2.TemplateNotFound:
            if _STACK and isinstance(name, str):
                record_template(name, None)
            raise
        if _STACK:
            record_template(str(name), t.filename)
        return t
