"""Pow Wow's bots: what each level does in positions where the right play is clear, and that
every level plays whole games, tomahawks included. Strength is measured by the arena
(`benchmarks/arena.py`), not here."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from campfire.bots import make_bot
from campfire.games.powwow import AGREE, DISPUTE, GAME, REVERSE, Action, Guess, PowwowView
from campfire.games.powwow.bots import (
    MEDIUM,
    EasyBot,
    HardBot,
    MediumBot,
    belief,
    round_moments,
    threshold_action,
)
from campfire.games.powwow.feathers import GUESS_MAX
from campfire.games.powwow.odds import seat_odds, unseen_by


def opening_view(players: int, seed: int, options: dict[str, object] | None = None) -> PowwowView:
    state = GAME.new_state(players, options or {})
    rng = random.Random(seed)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    return state.view(state.to_move)


def legal_for(view: PowwowView) -> list[Action]:
    return list(GAME.sample_state(view, random.Random(0)).legal_actions())


def test_every_level_is_registered() -> None:
    assert list(GAME.bot_levels()) == ["random", "easy", "medium", "hard", "expert"]
    for level in GAME.bot_levels():
        bot = make_bot(GAME, level, 3)
        view = opening_view(4, 1)
        assert bot.choose(view, legal_for(view)) in legal_for(view)


def test_medium_opens_with_the_highest_guess_it_is_sure_of() -> None:
    view = opening_view(4, 2)
    odds = seat_odds(view)
    action = MediumBot(0).choose(view, legal_for(view))
    assert isinstance(action, Guess)
    assert odds.at_least(action.value) >= MEDIUM.open_at > odds.at_least(action.value + 1)


@pytest.mark.parametrize("seed", range(6))
def test_medium_disputes_exactly_the_guesses_that_probably_fail(seed: int) -> None:
    base = opening_view(5, seed)
    odds = seat_odds(base)
    for guess in range(odds.lo - 1, odds.hi + 2):
        view = replace(base, guess=guess, owner=((base.seat or 0) - 1) % base.players)
        action = MediumBot(0).choose(view, legal_for(view))
        if odds.at_least(guess) < MEDIUM.dispute_below:
            assert action == DISPUTE
        else:
            assert isinstance(action, Guess) and action.value > guess
            assert action.value == guess + 1 or odds.at_least(action.value) >= MEDIUM.raise_to


def test_medium_reverses_or_agrees_with_a_tomahawk_where_a_threshold_says_so() -> None:
    base = opening_view(4, 3, {"tomahawks": True})
    odds = seat_odds(base)
    prev = ((base.to_move or 0) - 1) % base.players
    shaky = next(g for g in range(odds.lo, odds.hi + 1) if 0.3 <= odds.at_least(g) < 0.5)
    assert MediumBot(0).choose(replace(base, guess=shaky, owner=prev), legal_for(base)) == REVERSE
    tight = [
        g
        for g in range(odds.lo, odds.hi + 1)
        if odds.at_least(g) >= MEDIUM.agree_at and odds.highest_holding(MEDIUM.raise_to) <= g
    ]
    assert tight, "this position has a guess tight enough to agree with"
    view = replace(base, guess=tight[0], owner=prev)
    assert MediumBot(0).choose(view, legal_for(view)) == AGREE


def test_medium_always_disputes_the_highest_guess() -> None:
    view = replace(opening_view(3, 4), guess=GUESS_MAX, owner=2)
    assert threshold_action(view, seat_odds(view)) == DISPUTE


def test_easy_plays_by_feel_but_legally() -> None:
    view = opening_view(4, 5, {"tomahawks": True})
    bot = EasyBot(1)
    seen = Counter(type(bot.choose(view, legal_for(view))).__name__ for _ in range(50))
    assert seen["Guess"] == 50  # the opening: easy always guesses
    guessed = replace(view, guess=200, owner=3)
    assert EasyBot(2).choose(guessed, legal_for(guessed)) == DISPUTE


def test_round_moments_rebuild_what_each_player_faced() -> None:
    state = GAME.new_state(4, {"tomahawks": True})
    rng = random.Random(7)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    seen = []
    for action in (Guess(3), Guess(5, 3), REVERSE, AGREE):
        while state.to_move is None:
            state.apply(state.sample_chance(rng))
        seen.append((state.to_move, state.guess, state.direction, tuple(state.ready)))
        state.apply(action)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    moments = round_moments(state.view(state.to_move))
    assert [(m.seat, m.guess, m.direction, m.ready) for m in moments] == seen
    assert moments[2].extras == (1, 1, 1, 2)  # seat 3 wore its extra feather by then


def test_hard_learns_its_own_feather_from_the_others_guesses() -> None:
    """In two-player games the other seat sees this seat's feather: after a medium opening,
    hard's belief puts most of its weight where medium would have opened the same way."""
    gains = []
    for seed in range(12):
        state = GAME.new_state(2, {"first_player": 1})
        rng = random.Random(seed)
        while state.to_move is None:
            state.apply(state.sample_chance(rng))
        state.apply(MediumBot(0).choose(state.view(1), state.legal_actions()))
        view = state.view(0)
        own = tuple(state.worn[0])
        posterior = belief(view)
        _, _, unseen = unseen_by(view)
        prior = unseen[own[0]] / sum(unseen.values())
        assert posterior[own] > 0
        gains.append(posterior[own] / prior)
    assert sum(g > 1 for g in gains) >= 10  # the true feather almost always gains weight
    assert sum(gains) / len(gains) > 2


def test_hard_disputes_the_impossible_and_raises_the_certain() -> None:
    base = opening_view(3, 6)
    odds = seat_odds(base)
    bot = HardBot(0, budget=200)
    impossible = replace(base, guess=odds.hi + 1, owner=((base.seat or 0) - 1) % base.players)
    assert bot.choose(impossible, legal_for(impossible)) == DISPUTE
    certain = replace(base, guess=odds.lo - 5, owner=((base.seat or 0) - 1) % base.players)
    assert isinstance(bot.choose(certain, legal_for(certain)), Guess)


def tomahawk_uses(levels: list[str], games: int) -> Counter[tuple[str, str]]:
    """What each level did with its tomahawk over some whole games."""
    used: Counter[tuple[str, str]] = Counter()
    for i in range(games):
        rng = random.Random(i)
        bots = [
            make_bot(GAME, level, i) if level != "hard" else HardBot(i, budget=150)
            for level in levels
        ]
        state = GAME.new_state(len(levels), {"tomahawks": True})
        while not state.is_terminal:
            seat = state.to_move
            if seat is None:
                state.apply(state.sample_chance(rng))
                continue
            action = bots[seat].choose(state.view(seat), state.legal_actions())
            if action == AGREE:
                used[levels[seat], "agree"] += 1
            elif action == REVERSE:
                used[levels[seat], "reverse"] += 1
            elif isinstance(action, Guess) and action.extra_feather_to is not None:
                used[levels[seat], "extra"] += 1
            state.apply(action)
    return used


def test_every_level_uses_every_tomahawk() -> None:
    used = tomahawk_uses(["hard", "medium", "easy", "medium"], 3)
    for level in ("easy", "medium", "hard"):
        for use in ("agree", "reverse", "extra"):
            assert used[level, use] > 0, (level, use, used)


def play_with(hard: HardBot, others: list[object], seed: int) -> list[PowwowView]:
    """A whole 4-player game, hard in seat 0; the views hard was shown."""
    state = GAME.new_state(4)
    rng = random.Random(seed)
    bots = [hard, *others]
    shown = []
    while not state.is_terminal:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        view = state.view(seat)
        if seat == 0:
            shown.append(view)
        state.apply(bots[seat].choose(view, state.legal_actions()))  # type: ignore[attr-defined]
    return shown


def test_hard_checks_its_model_of_the_others_once_rounds_are_revealed() -> None:
    trusting = HardBot(1, budget=200)
    play_with(trusting, [MediumBot(s) for s in range(3)], 3)
    assert sum(trusting.judged.values()) >= 10
    assert trusting.matched == trusting.judged  # medium players do exactly what the model says
    wary = HardBot(1, budget=200)
    shown = play_with(wary, [EasyBot(s) for s in range(3)], 3)
    fit = wary.model_fit(shown[-1])
    assert fit is not None and fit < 0.5
    # with the model found wanting, hard plays medium's thresholds
    view = shown[-1]
    legal = legal_for(view)
    assert wary.choose(view, legal) == MediumBot(0).choose(view, legal)


class _Disputer:
    """Disputes every guess; opens like medium."""

    def choose(self, view: PowwowView, legal: list[Action]) -> Action:
        return DISPUTE if DISPUTE in legal else MediumBot(0).choose(view, legal)


def test_hard_checks_the_dispute_that_answered_its_own_last_guess() -> None:
    # Seat 1 disputes every guess, so whenever hard guesses, its guess is the round's last move
    # before the dispute: hard's last view of that round does not show it, and the dispute can
    # only be judged once hard's own move is put back into the round.
    hard = HardBot(1, budget=100)
    shown = play_with(hard, [_Disputer(), _Disputer(), _Disputer()], 2)
    answered = [r for r in shown[-1].rounds if r.owner == 0 and r.disputer == 1]  # all learnt
    assert len(answered) >= 4
    assert hard.judged[1] == len(answered)
