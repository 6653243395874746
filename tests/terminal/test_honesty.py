"""The terminal keeps each seat's secrets: the table it prints for a seat (`Session.show_table`),
and the help and rules it prints for the seat's view, are unchanged when everything that seat
cannot see is dealt again, and the table changes when something the seat sees does
(`tests/honesty.py`)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

from campfire.kernel import State
from campfire.terminal import Session
from tests.honesty import CASES, Tally, case_id, other_seat, positions, redeal, visible

Case = tuple[str, int, dict[str, Any]]


def printed(state: State[Any, Any], seat: int) -> str:
    """What the terminal prints for `seat` when it draws the table, with the seat's help and
    rules (the only person playing at `seat`, everyone else a bot)."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None)
    session = Session(
        state=state,
        humans={seat},
        bots={},
        rng=random.Random(0),
        console=console,
        read_line=lambda prompt: None,
        interactive=False,
    )
    session.show_table(seat)
    view = state.view(seat)
    return "\n".join([out.getvalue(), state.game.text.help(view), state.game.text.rules(view)])


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_terminal_prints_a_seat_only_what_it_may_see(case: Case) -> None:
    name, players, options = case
    rng = random.Random(31)
    tally = Tally()
    for step, state in enumerate(positions(name, players, options, seed=31, limit=25)):
        for seat in range(players):
            shown = printed(state, seat)
            twin = redeal(state, seat, rng)
            tally.twin(state, twin)
            assert printed(twin, seat) == shown, (step, seat)
            variant = redeal(state, other_seat(seat, players, step), rng)
            if visible(variant.view(seat)) != visible(state.view(seat)):
                tally.visible += 1
                assert printed(variant, seat) != shown, (step, seat)
    tally.check(minimum=15)
