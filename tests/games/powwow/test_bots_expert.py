"""Pow Wow's expert (per-seat kinds of player) and the coach that shares its reading."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from campfire.bots import coach as game_coach
from campfire.games.powwow import DISPUTE, GAME, Action, PowwowView
from campfire.games.powwow.bots import (
    EasyBot,
    ExpertBot,
    MediumBot,
    ReadTable,
    RoundModel,
    easy_action,
    mixed_belief,
)
from campfire.games.powwow.coach import coach, read_odds_weights
from campfire.games.powwow.odds import unseen_by
from campfire.games.wakatanka import GAME as WAKATANKA
from tests.builders import powwow


class AlwaysDisputer:
    """Disputes every guess; opens like medium."""

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        return DISPUTE if DISPUTE in legal else MediumBot(0).choose(view, legal)


def play(bots: list[object], seed: int, **options: object) -> PowwowView:
    """A whole game; the last view of seat 0 (the expert learns from its last round too)."""
    state = GAME.new_state(len(bots), options)
    rng = random.Random(seed)
    while not state.is_terminal:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))  # type: ignore[attr-defined]
    if isinstance(bots[0], ExpertBot):
        bots[0].observe(state.view(0))
    return state.view(0)


def test_each_seat_gets_its_own_reading() -> None:
    expert = ExpertBot(1, budget=150)
    play([expert, AlwaysDisputer(), MediumBot(2), MediumBot(3)], 3, buzzards=6)
    assert expert.judged[1] >= 3 and expert.judged[2] >= 3
    assert not expert.reads_as_medium(1)  # the disputer is told apart ...
    assert expert.reads_as_medium(2)  # ... from the medium players beside it
    assert expert.reads_as_medium(3)
    assert expert.types(1)["medium"] < expert.types(2)["medium"]


def test_easy_players_are_read_as_easy() -> None:
    expert = ExpertBot(1, budget=150)
    play([expert, EasyBot(1), EasyBot(2), EasyBot(3)], 4)
    for seat in (1, 2, 3):
        kinds = expert.types(seat)
        assert kinds["easy"] > kinds["medium"], (seat, kinds)


class CheckedEasy(EasyBot):
    """Easy, checking each choice against `easy_action` with a twin of its coin."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.twin = random.Random(seed)
        self.moves = 0

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        action = super().choose(view, legal)
        assert easy_action(view, legal, self.twin) == action
        self.moves += 1
        return action


def test_easy_action_is_what_easy_chooses() -> None:
    """The search plays a seat read as easy by `easy_action`: the very choices of `EasyBot`."""
    bots = [CheckedEasy(s) for s in range(4)]
    play(list(bots), 2, tomahawks=True)
    assert sum(b.moves for b in bots) > 20


def test_the_read_table_plays_each_seat_as_its_kind() -> None:
    """Each playing draws every seat's kind from its reading: a seat read as easy for sure is
    played by easy's habits, one read as medium by the thresholds, and the draws differ from one
    playing to the next only for a seat whose reading is split."""
    state = GAME.new_state(4)
    rng = random.Random(4)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    me = state.to_move
    others = [s for s in range(4) if s != me]
    kinds = {
        others[0]: {"medium": 0.0, "easy": 1.0, "random": 0.0},
        others[1]: {"medium": 1.0, "easy": 0.0, "random": 0.0},
        others[2]: {"medium": 0.5, "easy": 0.0, "random": 0.5},
    }
    table = ReadTable(me, len(state.worn[me]), {}, kinds, seed=9)
    threshold = RoundModel(me, len(state.worn[me]), {})
    split = set()
    for _ in range(20):
        table.clear()
        assert table.drawn[others[0]] == "easy" and table.drawn[others[1]] == "medium"
        split.add(table.drawn[others[2]])
        assert table.policy(state, others[1]) == threshold.policy(state, others[1])
    assert split == {"medium", "random"}


def test_the_read_search_leaves_the_baseline_only_for_a_clear_gain() -> None:
    """Against players who are not medium the expert searches the table as read; an option
    must beat medium's thresholds by `margin` to be taken, so with an unreachable margin it
    plays them throughout, and with none it departs from them, legally, now and then."""
    departed: dict[tuple[float, bool], int] = {}
    for margin in (2.0, 0.0):
        for regret in (False, True):
            expert = ExpertBot(1, budget=300, read=True, regret=regret, margin=margin)
            taken: list[bool] = []
            real = expert._read_search

            def spy(
                view: PowwowView,
                legal: Sequence[Action],
                me: int,
                post: dict[tuple[str, ...], float],
                baseline: Action,
                real: Callable[..., Action] = real,
                taken: list[bool] = taken,
            ) -> Action:
                action = real(view, legal, me, post, baseline)
                assert action in legal
                taken.append(action != baseline)
                return action

            expert._read_search = spy  # type: ignore[method-assign]
            play([expert, EasyBot(1), AlwaysDisputer(), EasyBot(3)], 6, buzzards=6)
            assert len(taken) >= 10
            departed[margin, regret] = sum(taken)
    assert departed[2.0, False] == departed[2.0, True] == 0
    assert departed[0.0, False] > 0 and departed[0.0, True] > 0


class CheckedExpert(ExpertBot):
    """An expert that checks, at every decision, its belief carried through the round against
    the same belief worked out afresh."""

    carried = 0

    def _choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        self._learn(view)
        memo = self._round_memo(view)
        self.carried += bool(memo)
        assert mixed_belief(view, self.types, memo) == mixed_belief(view, self.types)
        return super()._choose(view, legal)


def test_the_belief_carried_through_a_round_is_the_belief_afresh() -> None:
    expert = CheckedExpert(1, budget=150)
    play([expert, MediumBot(1), EasyBot(2), MediumBot(3)], 5, tomahawks=True)
    assert expert.carried >= 3  # decisions that reused an earlier one's scores


def coached_position() -> PowwowView:
    """Seat 0 wears the 20; the three others (medium) have guessed with it in view."""
    state = powwow(4, ("1", "2", "3", "20"), first_player=1)
    rng = random.Random(0)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    assert state.worn[0] == ["20"]
    while state.to_move != 0:
        seat = state.to_move
        assert seat is not None
        state.apply(MediumBot(seat).choose(state.view(seat), state.legal_actions()))
    return state.view(0)


def test_the_coach_reads_the_feather_everyone_else_bid_on() -> None:
    view = coached_position()
    data = coach(view)
    guess = data["guess"]
    blind = next(r["p"] for r in data["at_least"] if r["guess"] == guess)
    read = next(r["p"] for r in data["read"]["at_least"] if r["guess"] == guess)
    assert blind < 0.5 < read  # blind says dispute; the bidding says the 20 is on this head
    assert data["read"]["own_feathers"][0]["feathers"] == ["20"]
    assert sum(r["p"] for r in data["read"]["distribution"]) == pytest.approx(1.0, abs=1e-4)
    json.dumps(data)  # JSON-ready


def test_the_coach_depends_on_the_view_alone() -> None:
    view = coached_position()
    state = GAME.sample_state(view, random.Random(5))
    assert state.view(0) == view
    assert coach(state.view(0)) == coach(view)
    assert game_coach(GAME, view) == coach(view)


def test_the_read_puts_weight_on_the_true_feathers() -> None:
    gains = []
    for seed in range(10):
        state = GAME.new_state(4)
        rng = random.Random(seed)
        bots = [MediumBot(s) for s in range(4)]
        while state.to_move is None or len(state.view(0).turns) < 3 or state.to_move != 0:
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.to_move
            state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
        view = state.view(0)
        own = tuple(sorted(state.worn[0]))
        _, _, unseen = unseen_by(view)
        prior = unseen[own[0]] / sum(unseen.values())
        gains.append(read_odds_weights(view)[own] / prior)
    assert sum(g > 1 for g in gains) >= 8


def test_the_coach_asks_for_a_guess_and_refuses_what_it_cannot_read() -> None:
    view = coached_position()
    data = coach(view, around=1, guess=25)
    assert [r["guess"] for r in data["at_least"]] == [24, 25, 26]
    assert [r["guess"] for r in data["read"]["at_least"]] == [24, 25, 26]
    with pytest.raises(ValueError, match="spectator"):
        coach(replace(view, seat=None))
    with pytest.raises(ValueError, match="no coach"):
        game_coach(WAKATANKA, view)
