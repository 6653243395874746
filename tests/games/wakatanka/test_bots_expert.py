"""Waka Tanka's expert: per-seat models read off the public record, and what they change."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from campfire.bots import make_bot
from campfire.games.wakatanka import GAME
from campfire.games.wakatanka.actions import CALL, Action, Play, Spell
from campfire.games.wakatanka.bots import (
    EXPERT_TOKEN,
    MEDIUM,
    MEDIUM_SLIP,
    WINNING_TOKEN,
    EasyBot,
    ExpertBot,
    MediumBot,
    ReadTable,
    at_call_rate,
    easy_action,
    easy_chance,
    expert_options,
    expert_style,
    kind_chances,
    medium_action,
    scored_options,
)
from campfire.games.wakatanka.models import (
    MEDIUM_CALL_RATE,
    called_chance,
    seat_honesty,
    seat_records,
)
from campfire.games.wakatanka.state import WakatankaState
from campfire.games.wakatanka.tracking import HONESTY, track
from campfire.games.wakatanka.view import Turn, WakatankaView


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


def dealt(seed: int) -> tuple[WakatankaState, int]:
    """A fresh four-player game, dealt with `seed`, and the seat whose turn it is first."""
    state = GAME.new_state(4)
    rng = random.Random(seed)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    return state, state.to_move


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
    records = seat_records(play(bots, 11, limit=160))
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
        state, seat = dealt(seed)
        view = state.view(seat)
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


def test_each_seat_is_read_as_its_own_kind() -> None:
    for seed in (4, 5, 10):
        expert = ExpertBot(1, worlds=3, options=3, horizon=3)
        last = play([expert, EasyBot(1), MediumBot(2), MediumBot(3)], seed, limit=200)
        assert expert.judged[1] >= 4 and expert.judged[2] >= 4
        easy, medium = expert.types(1), expert.types(2)
        assert easy["easy"] > easy["medium"], easy  # the easy player is told apart ...
        assert medium["medium"] > 0.5, medium  # ... from the medium players beside it
        assert expert.types(3)["medium"] > 0.5
        assert not expert.reads_as_medium(last)  # so the search, which plays all as medium, waits


def test_easy_chance_is_a_distribution_that_names_easys_own_moves() -> None:
    rng = random.Random(3)
    state = GAME.new_state(4)
    bots = [EasyBot(s) for s in range(4)]
    checked = 0
    while not state.is_terminal and checked < 80:
        if state.to_move is None:
            state.apply(state.sample_chance(rng))
            continue
        seat = state.to_move
        legal = state.legal_actions()
        moves = {(m.action, m.tile) for m in (_turn(seat, a) for a in legal)}
        assert sum(easy_chance(state, m) for m in moves) == pytest.approx(1.0)
        action = bots[seat].choose(state.view(seat), legal)
        turn = _turn(seat, action)
        assert easy_chance(state, (turn.action, turn.tile)) > 0
        # medium too is a distribution over the public moves, most of it on the move it names
        medium = {
            (m.action, m.tile): kind_chances(state, m, action)["medium"]
            for m in (_turn(seat, a) for a in legal)
        }
        assert sum(medium.values()) == pytest.approx(1.0)
        assert medium[(turn.action, turn.tile)] >= 1 - MEDIUM_SLIP
        state.apply(action)
        checked += 1
    assert checked >= 20


def _turn(seat: int, action: Action) -> Turn:
    """The public turn an action makes."""
    if isinstance(action, Play):
        return Turn(seat, "play", action.tile)
    if isinstance(action, Spell):
        return Turn(seat, "spell", action.tile)
    return Turn(seat, "call" if action == CALL else "accept")


def test_a_players_honesty_is_read_from_few_reveals() -> None:
    view = play(
        [
            ExpertBot(1, worlds=3, options=3, horizon=3),
            make_bot(GAME, "random", 1),
            EasyBot(2),
            EasyBot(3),
        ],
        4,
        limit=200,
    )
    shown = [sum(1 for r in view.reveals for p, _ in r.cards if p == s) for s in range(4)]
    assert shown[1] >= 4
    honesty = seat_honesty(view)
    tracked = track(view).honesty
    assert honesty[1] < tracked[1] < HONESTY  # any card at all: read so sooner than tracking does
    assert honesty[1] < 0.5 < honesty[2]


def test_the_fourth_token_decides_the_game_in_the_experts_weights() -> None:
    state, me = dealt(0)
    view = state.view(me)
    assert expert_style(view).token == EXPERT_TOKEN > MEDIUM.token
    assert expert_style(view).rival_token == MEDIUM.rival_token
    tokens = [0, 0, 0, 0]
    tokens[me] = 3
    tokens[(me + 1) % 4] = 3
    ahead = replace(view, tokens=tuple(tokens))
    assert expert_style(ahead).token == WINNING_TOKEN
    assert expert_style(ahead).rival_token == WINNING_TOKEN


def test_before_the_table_can_be_read_the_expert_plays_mediums_choice() -> None:
    for seed in range(6):
        state, seat = dealt(seed)
        view = state.view(seat)
        expert = ExpertBot(seed, worlds=3, options=3, horizon=3)
        assert expert.model_fit(view) is None
        rate = seat_records(view)[(seat + 1) % 4].call_rate
        scored = scored_options(view, track(view), track(view, public=True), MEDIUM, rate)
        best = max(scored, key=lambda item: item[0])[1]
        assert expert.choose(view, state.legal_actions()) == best


def _call_options(call_first: bool) -> list[tuple[float, Action]]:
    """Scored options with a call on top (or second)."""
    play = Play("bear", "mouse")
    return [(1.0, CALL), (0.5, play)] if call_first else [(1.0, play), (0.5, CALL)]


def test_a_seat_read_at_mediums_call_rate_plays_mediums_own_choice() -> None:
    rng = random.Random(0)
    for call_first in (True, False):
        scored = _call_options(call_first)
        top = scored[0][1]
        assert all(at_call_rate(scored, MEDIUM_CALL_RATE, rng) == top for _ in range(200))
    no_call: list[tuple[float, Action]] = [(1.0, Play("bear", "mouse")), (0.2, Spell("bear"))]
    assert at_call_rate(no_call, 1.0, rng) == Play("bear", "mouse")


def test_a_seats_read_rate_moves_its_calls_as_the_models_weigh_them() -> None:
    rng = random.Random(1)
    for call_first in (True, False):
        scored = _call_options(call_first)
        for rate in (0.0, 0.16, 0.5, 0.8, 1.0):
            share = sum(at_call_rate(scored, rate, rng) == CALL for _ in range(2000)) / 2000
            assert share == pytest.approx(called_chance(float(call_first), rate), abs=0.04)


def test_a_table_read_as_medium_plays_as_hards_model_does() -> None:
    rng = random.Random(2)
    state, _ = dealt(3)
    medium = {s: {"medium": 1.0, "easy": 0.0, "random": 0.0} for s in range(1, 4)}
    table = ReadTable(0, medium, [MEDIUM_CALL_RATE] * 4, rng)
    table.deal(state)
    assert table.kinds == {1: "medium", 2: "medium", 3: "medium"}
    moves = 0
    while not state.is_terminal and moves < 120:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        action = table(state, seat)
        view = state.view(seat)
        if seat == 0:  # the expert itself plays its baseline
            rate = seat_records(view)[1].call_rate
            assert action == expert_options(view, rate)[0][1]
        else:
            assert action == medium_action(view)
        state.apply(action)
        moves += 1
    assert moves == 120 or state.is_terminal


def test_each_seat_is_played_in_the_search_by_a_kind_drawn_from_its_reading() -> None:
    rng = random.Random(4)
    mixed = {"medium": 0.5, "easy": 0.3, "random": 0.2}
    types = {1: {"medium": 0.0, "easy": 1.0, "random": 0.0}, 2: mixed}
    table = ReadTable(0, types, [MEDIUM_CALL_RATE] * 4, rng)
    drawn: dict[str, int] = {}
    for _ in range(3000):
        table.deal(None)
        assert table.kinds[1] == "easy"
        drawn[table.kinds[2]] = drawn.get(table.kinds[2], 0) + 1
    for kind, share in mixed.items():
        assert drawn[kind] / 3000 == pytest.approx(share, abs=0.03)
    # a seat drawn as easy plays easy's habits, with the search's own coin
    easy = {"medium": 0.0, "easy": 1.0, "random": 0.0}
    for seed in range(20):
        state, seat = dealt(seed)
        me = (seat + 1) % 4
        table = ReadTable(
            me, {s: easy for s in range(4) if s != me}, [0.3] * 4, random.Random(seed)
        )
        table.deal(state)
        twin = random.Random()
        twin.setstate(table.rng.getstate())
        expected = easy_action(state.view(seat), state.legal_actions(), twin)
        assert table(state, seat) == expected


@pytest.mark.parametrize("regret", [False, True])
def test_the_mixture_search_keeps_the_baseline_unless_an_option_beats_it_by_the_margin(
    regret: bool,
) -> None:
    """With a margin no value can clear, the searching expert plays its baseline (the per-seat
    scored option) at every decision once the table can be read; with none, it leaves it. So
    does the minimax-regret choice over the kinds a doubted seat may be (`regret`)."""
    checked = left = 0
    for seed in (6, 7):
        sure = ExpertBot(
            seed, worlds=4, options=3, horizon=3, mixture=True, margin=2.0, regret=regret
        )
        bots: list[object] = [sure, EasyBot(1), MediumBot(2), AlwaysCaller()]
        rng = random.Random(seed)
        state = GAME.new_state(4)
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(rng))
                continue
            view, legal = state.view(seat), state.legal_actions()
            if seat == 0 and not view.last_card and sure.model_fit(view) is not None:
                baseline = expert_options(view, seat_records(view)[1].call_rate)
                expected = next(a for _, a in baseline if a in legal)
                free = copy.deepcopy(sure)
                free.margin = 0.0
                left += free.choose(view, legal) != expected
                assert sure.choose(view, legal) == expected
                checked += 1
                state.apply(expected)
                continue
            state.apply(bots[seat].choose(view, legal))  # type: ignore[attr-defined]
    assert checked >= 10
    assert left > 0  # the search does leave the baseline where it finds any gain at all
