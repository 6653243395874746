"""Events: what happened, told to exactly the seats allowed to know it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple


class Event(NamedTuple):
    """One thing that happened (a named tuple: events are made on every move, so cheaply).

    `to` is None for a public event (every seat and every spectator sees it); otherwise only the
    listed seats receive it. A move usually yields a public event and, where some seats see more,
    a private one beside it ("seat 2 received a feather" for all, the feather itself for the rest).
    """

    kind: str
    data: Mapping[str, Any]
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.data}


def events_for(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events one seat (or a spectator, `None`) may receive."""
    return [event for event in events if event.visible_to(seat)]
