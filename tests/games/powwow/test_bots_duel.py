"""The heads-up equilibrium (CFR+ on a round between two players) and the bot that plays it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from campfire.games.powwow import DISPUTE, GAME, Guess
from campfire.games.powwow.bots import ExpertBot, MediumBot
from campfire.games.powwow.bots.duel import (
    Duel,
    DuelBot,
    DuelGame,
    equilibrium,
    exploitability,
    medium_profile,
    solve,
    strategy,
)

SMALL = Duel(low=-2, high=12, cap=2)


@pytest.fixture(scope="module")
def small() -> DuelGame:
    return DuelGame(SMALL)


def test_cfr_drives_exploitability_towards_zero(small: DuelGame) -> None:
    early = exploitability(small, solve(small, 10))
    late = exploitability(small, solve(small, 300))
    assert late < early / 3
    assert 0 <= late < 0.003
    # medium's thresholds give their feather away: a best response takes far more from them
    assert exploitability(small, medium_profile(small)) > 0.1


def test_a_best_response_gains_at_least_the_value(small: DuelGame) -> None:
    rng = np.random.default_rng(3)
    for _ in range(3):
        profile = [
            strategy(rng.random(small.masks[d].shape)[:, None, :].repeat(15, 1), small.masks[d])
            for d in range(SMALL.cap)
        ]
        value = small.value(profile)
        assert small.best_response(0, profile) >= value - 1e-9
        assert small.best_response(1, profile) >= -value - 1e-9


@pytest.mark.parametrize("make", [lambda g: solve(g, 20), medium_profile])
def test_profiles_play_only_what_the_rules_allow(small: DuelGame, make: Any) -> None:
    for d, layer in enumerate(make(small)):
        assert np.allclose(layer.sum(axis=2), 1.0)
        assert not (layer * ~small.masks[d][:, None, :]).any()
        if d == 0:
            assert not layer[:, :, 0].any()  # nothing stands to dispute yet


def first_round(bots: Sequence[DuelBot], seed: int) -> int:
    """Player 0's gain in the first round of a two-player game: +1 if seat 1 took the buzzard."""
    state = GAME.new_state(2, {})
    rng = random.Random(seed)
    while not state.view(0).rounds:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        state.apply(bots[seat].choose(state.view(seat), state.legal_actions()))
    return 1 if state.view(0).rounds[0].loser == 1 else -1


def test_the_value_is_what_the_engine_pays() -> None:
    """Both seats play the solved duel in real rounds (medium past the cap): the buzzards
    they hand each other average to the value the tree computes."""
    bots = [DuelBot(1, SMALL, 100), DuelBot(2, SMALL, 100)]
    solved = bots[0].solved(GAME.new_state(2, {}).view(0))
    expected = solved.game.value(solved.profile)
    rounds = 6000
    mean = sum(float(first_round(bots, seed)) for seed in range(rounds)) / rounds
    assert abs(mean - expected) < 4 / rounds**0.5


def test_the_bot_follows_its_mix_and_medium_beyond_it() -> None:
    state = GAME.new_state(2, {})
    rng = random.Random(5)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    bot = DuelBot(7, SMALL, 50)
    view = state.view(state.to_move)
    mix = bot.mix(view)
    assert mix is not None and abs(sum(p for _, p in mix) - 1) < 1e-9
    assert all(isinstance(a, Guess) and SMALL.low <= a.value <= SMALL.high for a, _ in mix)
    assert bot.choose(view, state.legal_actions()) in [a for a, _ in mix]
    # past the cap the duel does not reach: medium's thresholds play
    state.apply(Guess(0))
    state.apply(Guess(1))
    assert state.to_move is not None
    view = state.view(state.to_move)
    assert bot.mix(view) is None
    assert bot.choose(view, state.legal_actions()) == MediumBot(0).choose(
        view, state.legal_actions()
    )


def test_the_mix_depends_on_what_the_seat_sees_only() -> None:
    """Re-deal the feather a seat cannot see: the mix it plays stays the same."""
    state = GAME.new_state(2, {})
    rng = random.Random(11)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    state.apply(Guess(4))
    me = state.to_move
    assert me is not None
    eq = equilibrium(SMALL, 30)
    before = eq.mix(state.view(me))
    for code in ("1", "20", "-10", "x2"):
        if code in state.view(1 - me).feathers[me]:
            continue
        other = GAME.sample_state(state.view(me), random.Random(0), chance="draw", own=[code])
        assert tuple(other.worn[me]) == (code,)
        assert eq.mix(other.view(me)) == before
    assert before is not None and any(a == DISPUTE for a, _ in before)


def test_more_than_two_players_fall_back_to_medium() -> None:
    state = GAME.new_state(4, {})
    rng = random.Random(2)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    view = state.view(state.to_move)
    assert DuelBot(0, SMALL, 10).mix(view) is None


@pytest.mark.parametrize(
    ("duel", "message"),
    [
        (Duel(cap=0), "cap"),
        (Duel(low=5, high=5), "range"),
        (Duel(used=("20", "20")), "used pile"),
    ],
)
def test_bad_duels_are_refused(duel: Duel, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        DuelGame(duel)


def test_the_best_response_earns_what_it_promises(small: DuelGame) -> None:
    """Played out, the response to medium earns exactly the best-response value."""
    medium = medium_profile(small)
    for player in (0, 1):
        sign = 1 if player == 0 else -1
        gain, response = small.respond(player, medium)
        assert gain == pytest.approx(sign * small.value(response))
        # well beyond what the same seat gets playing medium against medium
        assert gain > sign * small.value(medium) + 0.05


def test_the_expert_duels_a_seat_it_doubts() -> None:
    """With `duel`, the expert plays the equilibrium heads-up against a seat it does not read as
    medium ("doubted"), or against anyone ("always"); with none it never does."""
    state = GAME.new_state(2, {})
    rng = random.Random(5)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    view = state.view(state.to_move)
    legal = state.legal_actions()
    other = 1 - view.seat  # type: ignore[operator]
    for duel, doubt, duels in [
        ("always", False, True),
        ("doubted", True, True),
        ("doubted", False, False),
        (None, True, False),
    ]:
        expert = ExpertBot(3, budget=60, duel=duel)
        if expert.duelist is not None:
            expert.duelist = DuelBot(3, SMALL, 30)
        medium, easy = (-50.0, 0.0) if doubt else (0.0, -50.0)
        expert.loglik[other] = {"medium": medium, "easy": easy, "random": -50.0}
        assert expert._duels([other]) is duels
        if duels:
            assert expert.duelist is not None
            mix = expert.duelist.mix(view)
            assert mix is not None
            assert expert.choose(view, legal) in [a for a, _ in mix]


def test_an_unknown_duel_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="duel"):
        ExpertBot(0, duel="sometimes")
