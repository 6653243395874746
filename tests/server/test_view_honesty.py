"""The server keeps each seat's secrets: the update a seat's connection gets (`update_for`, as it
goes on the wire) is unchanged when everything that seat cannot see is dealt again, and changes
when something it sees does; a spectator's is unchanged whoever's secrets are dealt again
(`tests/honesty.py`)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from campfire.kernel import Event, State, get_game
from campfire.server.store.schema import PLAYING
from campfire.server.tables.connections import encode
from campfire.server.tables.live import LiveTable, Seat
from campfire.server.tables.webgame import web_game
from tests.honesty import CASES, Tally, case_id, other_seat, positions, redeal, visible

Case = tuple[str, int, dict[str, Any]]


def table_at(state: State[Any, Any], options: dict[str, Any], at: int) -> LiveTable:
    """A playing table of people at every seat (none connected), holding `state` after `at`
    entries of its record (a re-dealt state has no record of its own)."""
    game = state.game
    return LiveTable(
        id="t",
        game=game,
        web=web_game(game),
        players=state.players,
        options=options,
        seats=[Seat(s, "human", name=f"P{s}") for s in range(state.players)],
        settled=state,
        status=PLAYING,
        created=0.0,
        updated=0.0,
        at=at,
    )


def wire(
    state: State[Any, Any],
    options: dict[str, Any],
    seat: int | None,
    events: list[tuple[int, Event]],
) -> str:
    """The full update `seat` gets at a table holding `state` after `events` (None: a
    spectator), encoded for the wire."""
    at = events[-1][0] if events else 0
    return encode(table_at(state, options, at).update_for(seat, events, full=True))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_a_seat_and_a_spectator_get_only_what_they_may_see(case: Case) -> None:
    name, players, options = case
    assert get_game(name).name == name
    rng = random.Random(21)
    tally = Tally()
    events: list[tuple[int, Event]] = []
    for step, state in enumerate(
        positions(name, players, options, seed=21, limit=60, events=events)
    ):
        for seat in range(players):
            sent = wire(state, options, seat, events)
            twin = redeal(state, seat, rng)
            tally.twin(state, twin)
            assert wire(twin, options, seat, events) == sent, (step, seat)
            variant = redeal(state, other_seat(seat, players, step), rng)
            if variant.view(seat) != state.view(seat):
                tally.visible += visible(variant.view(seat)) != visible(state.view(seat))
                assert wire(variant, options, seat, events) != sent, (step, seat)
        watched = wire(state, options, None, events)
        twin = redeal(state, None, rng)
        tally.twin(state, twin)
        assert wire(twin, options, None, events) == watched, step
        for seat in range(players):  # a re-deal for any seat keeps everything public
            assert wire(redeal(state, seat, rng), options, None, events) == watched, (step, seat)
    tally.check(minimum=15)
