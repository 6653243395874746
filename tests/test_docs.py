"""The worked examples of the rules pages play out in the engine exactly as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

from campfire.games.powwow import PowwowState
from campfire.kernel.records import apply_entry
from tests.builders import powwow, split_deck, wakatanka

DOCS = Path(__file__).parent.parent / "docs" / "rules"


def entries(page: str) -> list[dict[str, object]]:
    block = re.search(r"```json\n(.*?)```", (DOCS / page).read_text(), re.S)
    assert block is not None
    parsed: list[dict[str, object]] = json.loads("[" + block.group(1).strip().rstrip(",") + "]")
    return parsed


def test_powwow_worked_example() -> None:
    state = powwow(4, ["5", "x2", "10", "?", "max0"])
    for entry in entries("powwow.md"):
        apply_entry(state, entry)
    assert isinstance(state, PowwowState)
    last = state.rounds[-1]
    assert last.turned_over == "max0" and last.total == 10
    assert (last.guess, last.owner, last.disputer, last.loser) == (31, 3, 0, 3)
    assert state.to_move == 3 and sorted(state.used) == sorted(["5", "x2", "10", "?", "max0"])


def test_wakatanka_worked_example() -> None:
    state = wakatanka(split_deck(4, [["bear"], ["mouse"]]), marker="owl")
    for entry in entries("wakatanka.md"):
        apply_entry(state, entry)
    assert state.tokens == [0, 0, 1, 0]
    assert [(r.action, r.tile, r.cards, r.taker) for r in state.reveals] == [
        ("call", "puma", ((1, "mouse"),), 1),
        ("spell", "bear", ((0, "bear"),), 3),
    ]
    assert state.to_move == 0 and state.view(0).marker == "puma"
