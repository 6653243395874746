"""A draining process tells its sockets to reconnect a slice of tables at a time: each table's
sockets together (the table moves whole to its next process), the slices about even, every
table in exactly one, in order."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import pytest

from campfire.server.tables.handover import _slices
from campfire.server.tables.live import LiveTable


@dataclass
class Held:
    """What slicing reads of a table: its sockets here."""

    name: str
    connections: set[int] = field(default_factory=set)


@pytest.mark.parametrize(
    ("sockets", "count"),
    [([4] * 200, 32), ([1, 7, 3, 4, 4, 2, 9, 1], 3), ([5], 8), ([4, 4], 1), ([2] * 10, 10)],
)
def test_slices_keep_each_tables_sockets_together_about_evenly(
    sockets: list[int], count: int
) -> None:
    tables = [Held(f"t{i}", set(range(n))) for i, n in enumerate(sockets)]
    slices = _slices(cast("list[LiveTable]", tables), count)
    assert [cast("Held", t) for part in slices for t in part] == tables  # each once, in order
    assert 1 <= len(slices) <= count
    sizes = [sum(len(t.connections) for t in part) for part in slices]
    fair = sum(sockets) / len(slices)
    assert max(sizes) <= fair + max(sockets)  # no slice more than a table above its share


def test_no_tables_no_slices() -> None:
    assert _slices([], 5) == []
