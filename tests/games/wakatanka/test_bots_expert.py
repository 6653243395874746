"""Waka Tanka's expert: per-seat models read off the public record, and what they change."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from campfire.games.wakatanka import GAME
from campfire.games.wakatanka.actions import CALL, Action, Play
from campfire.games.wakatanka.bots import ExpertBot, MediumBot, medium_action, scored_options
from campfire.games.wakatanka.models import MEDIUM_CALL_RATE, called_chance, seat_records
from campfire.games.wakatanka.tracking import track
from campfire.games.wakatanka.view import WakatankaView


class AlwaysCaller:
    """Calls whenever a call is legal; otherwise medium."""

    def choose(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        return CALL if CALL in legal else medium_action(view)


def play(bots: list[object], seed: int, limit: int = 2000) -> WakatankaView:
    """A game between `bots` (cut at `limit` turns); the last public view."""
    state = GAME.new_state(len(bots))
    rng = random.Random(seed)
    turns = 0
    while not state.is_terminal and turns < limit:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))  # type: ignore[attr-defined]
        turns += 1
    return state.view(0)


def test_called_chance_keeps_medium_for_a_medium_caller_and_moves_with_the_rate() -> None:
    for guess in (0.1, 0.5, 1.0):
        assert called_chance(guess, MEDIUM_CALL_RATE) == pytest.approx(guess)
        assert called_chance(guess, 1.0) == pytest.approx(1.0)
        assert called_chance(guess, 0.0) == pytest.approx(0.0)
    rates = [0.0, 0.1, 0.32, 0.6, 0.9]
    chances = [called_chance(0.1, r) for r in rates]
    assert chances == sorted(chances)


def test_one_always_caller_among_model_players_is_told_apart() -> None:
    expert = ExpertBot(1, worlds=3, options=3, horizon=3)
    bots: list[object] = [expert, AlwaysCaller(), MediumBot(2), MediumBot(3)]
    records = seat_records(play(bots, 4, limit=160))
    assert records[1].chances >= 6
    assert records[1].calls == records[1].chances
    assert records[1].call_rate > 0.6
    for seat in (2, 3):
        assert abs(records[seat].call_rate - MEDIUM_CALL_RATE) < 0.2, records[seat]
        assert records[1].call_rate > records[seat].call_rate + 0.25


def test_the_records_count_chances_and_calls_from_the_public_turns() -> None:
    view = play([MediumBot(s) for s in range(4)], 2, limit=60)
    records = seat_records(view)
    chances = sum(r.chances for r in records)
    plays = sum(1 for t in view.turns[:-1] if t.action == "play")
    assert chances == plays
    assert sum(r.calls for r in records) == sum(
        1
        for a, b in zip(view.turns, view.turns[1:], strict=False)
        if a.action == "play" and b.action == "call"
    )
    assert sum(r.turns for r in records) == len(view.turns)


def test_a_loose_caller_next_makes_bluffs_cost_more() -> None:
    for seed in range(30):
        state = GAME.new_state(4)
        rng = random.Random(seed)
        while state.to_move is None:
            state.apply(state.sample_chance(rng))
        view = state.view(state.to_move)
        mine, public = track(view), track(view, public=True)
        medium = dict((a, g) for g, a in scored_options(view, mine, public))
        loose = dict((a, g) for g, a in scored_options(view, mine, public, next_call_rate=0.95))
        bluffs = [a for a in medium if isinstance(a, Play) and a.card != a.tile]
        true = [a for a in medium if isinstance(a, Play) and a.card == a.tile]
        if bluffs and true:
            assert all(loose[a] <= medium[a] for a in bluffs)
            assert any(loose[a] < medium[a] for a in bluffs)
            assert all(loose[a] >= medium[a] for a in true)
            return
    raise AssertionError("no opening offered both a bluff and a true card")


def test_expert_searches_only_where_every_seat_reads_as_medium() -> None:
    expert = ExpertBot(1, worlds=3, options=3, horizon=3)
    last = play([expert, MediumBot(1), MediumBot(2), MediumBot(3)], 5, limit=120)
    assert expert.reads_as_medium(last)
    wary = ExpertBot(1, worlds=3, options=3, horizon=3)
    last = play([wary, AlwaysCaller(), MediumBot(2), MediumBot(3)], 5, limit=120)
    assert not wary.reads_as_medium(last)
