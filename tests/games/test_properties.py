"""Thousands of random games of both games, checking what must always hold.

- every feather / card is always somewhere (nothing created, nothing lost);
- a seat's view never holds what the seat may not see (a state re-dealt in every hidden part the
  seat cannot tell gives the very same view, and the seat's own secrets are masked);
- `legal_actions()` is exactly what `apply` accepts, and a refused action changes nothing;
- the record of any game, finished or not, in either chance mode, replays to the same position.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.games import powwow as pw
from campfire.games import wakatanka as wt
from campfire.kernel import IllegalAction, RandomBot, Record, State, get_game
from campfire.kernel.chance import DrawSpec

Setup = tuple[str, int, dict[str, Any], int, str]


@st.composite
def setups(draw: st.DrawFn, modes: tuple[str, ...] = ("shuffle", "draw")) -> Setup:
    name = draw(st.sampled_from(["powwow", "wakatanka"]))
    seed = draw(st.integers(0, 2**32 - 1))
    mode = draw(st.sampled_from(modes))
    if name == "powwow":
        players = draw(st.integers(2, 8))
        options: dict[str, Any] = {
            "tomahawks": draw(st.booleans()),
            # the whole range the engine accepts (1-10); long games only with few players
            "buzzards": draw(st.integers(1, 10) if players <= 3 else st.integers(1, 4)),
            "first_player": draw(st.integers(0, players - 1)),
        }
        if players > 2 and draw(st.booleans()):
            options["end_after_eliminations"] = draw(st.integers(1, players - 1))
        return name, players, options, seed, mode
    players = draw(st.integers(3, 6))
    return name, players, {"first_player": draw(st.integers(0, players - 1))}, seed, mode


def conserved(state: State[Any, Any]) -> list[str]:
    if isinstance(state, pw.PowwowState):
        return state.all_feathers()
    assert isinstance(state, wt.WakatankaState)
    return state.all_cards()


def everything(state: State[Any, Any]) -> list[str]:
    if isinstance(state, pw.PowwowState):
        return sorted(pw.FEATHERS)
    return sorted(wt.deck(state.players))


def random_game(
    setup: Setup, check: Callable[[State[Any, Any], random.Random], None]
) -> State[Any, Any]:
    name, players, options, seed, mode = setup
    rng = random.Random(seed)
    state: State[Any, Any] = get_game(name).new_state(players, options, chance=mode)  # type: ignore[arg-type]
    bot = RandomBot(seed)
    while not state.is_terminal:
        check(state, rng)
        if state.to_move is None:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(bot.choose(state.view(state.to_move), state.legal_actions()))
    check(state, rng)
    return state


def snapshot(state: State[Any, Any]) -> str:
    """Everything observable about a state, as text."""
    views = [state.view(s).to_json() for s in [None, *range(state.players)]]
    legal = [repr(a) for a in state.legal_actions()]
    record = Record.of(state).to_json() if state.mode == "shuffle" else None
    due = state.chance_due()
    return json.dumps([views, legal, record, repr(due), state.to_move], default=repr)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_nothing_is_ever_created_or_lost(setup: Setup) -> None:
    def check(state: State[Any, Any], rng: random.Random) -> None:
        assert conserved(state) == everything(state)

    final = random_game(setup, check)
    assert final.winners() and all(0 <= s < final.players for s in final.winners())
    assert abs(sum(final.returns())) < 1e-9


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_views_hold_nothing_a_seat_may_not_see(setup: Setup) -> None:
    game = get_game(setup[0])

    def check(state: State[Any, Any], rng: random.Random) -> None:
        if state.to_move is None or rng.random() > 0.3:
            return
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            twin = game.sample_state(view, rng)
            assert twin.view(seat) == view, "the view changed with what the seat cannot see"
            if seat == state.to_move:
                assert twin.legal_actions() == state.legal_actions()
            masked(state, view)

    random_game(setup, check)


def masked(state: State[Any, Any], view: Any) -> None:
    seat = view.seat
    if isinstance(view, pw.PowwowView):
        for s, worn in enumerate(view.feathers):
            hidden = s == seat or seat is None
            assert all((f is None) == hidden for f in worn)
        assert "stack" not in view.to_json()
        return
    assert isinstance(view, wt.WakatankaView)
    for slots in view.stacks.values():
        for slot in slots:
            assert (slot.card is not None) == (slot.placer == seat)
    assert "hands" not in view.to_json()
    if seat is None:
        assert view.hand is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(("shuffle",)))
def test_legal_actions_are_exactly_what_apply_accepts(setup: Setup) -> None:
    def check(state: State[Any, Any], rng: random.Random) -> None:
        if state.to_move is None or rng.random() > 0.2:
            return
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        before = snapshot(state)
        compared = False
        for action in rng.sample(universe(state), 25):
            trial = state.clone()
            try:
                trial.apply(action)
            except IllegalAction as refusal:
                assert action not in legal, f"{action} is listed legal but refused: {refusal}"
                assert str(refusal)
                if not compared:  # a refused action leaves everything as it was
                    assert snapshot(trial) == before
                    compared = True
                continue
            assert action in legal, f"{action} was accepted but is not listed legal"
        assert snapshot(state) == before  # the trials ran on clones

    random_game(setup, check)


def universe(state: State[Any, Any]) -> list[Any]:
    """A large set of actions, legal or not."""
    if isinstance(state, pw.PowwowState):
        guesses = [pw.Guess(v) for v in range(-22, 241)]
        extras = [pw.Guess(v, t) for v in range(-20, 60, 7) for t in range(-1, state.players + 1)]
        return [*guesses, *extras, pw.DISPUTE, pw.AGREE, pw.REVERSE]
    plays = [wt.Play(t, c) for t in wt.TILES for c in wt.CARDS]
    return [*plays, *(wt.Spell(t) for t in wt.TILES), wt.CALL, wt.ACCEPT, wt.Play("wolf", "owl")]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.floats(0.0, 1.0))
def test_a_record_of_any_game_replays_to_the_same_state(setup: Setup, cut: float) -> None:
    states: list[State[Any, Any]] = []

    def check(state: State[Any, Any], rng: random.Random) -> None:
        # In draw mode a deal under way has no record form (a record shuffles whole stacks).
        if state.mode == "shuffle" or not state.is_chance:
            states.append(state.clone())

    random_game(setup, check)
    state = states[int(cut * (len(states) - 1))]
    text = Record.of(state).dumps()
    replayed = Record.loads(text).replay()
    assert replayed.game.summary(replayed) == state.game.summary(state)
    assert replayed.to_move == state.to_move and replayed.winners() == state.winners()
    assert replayed.is_terminal == state.is_terminal
    if state.to_move is not None:
        assert replayed.legal_actions() == state.legal_actions()
    for seat in [None, *range(state.players)]:
        assert replayed.view(seat) == state.view(seat)


def expected_view(state: State[Any, Any], seat: int | None) -> dict[str, Any]:
    """What each field of `seat`'s view must hold, by name, read off the state: the views are
    built by position for speed, so this catches two fields of one type swapped."""
    if isinstance(state, pw.PowwowState):
        return {
            "seat": seat,
            "players": state.players,
            "options": state.options,
            "round": state.round,
            "first_player": state.first,
            "to_move": state.to_move,
            "direction": state.direction,
            "feathers": tuple(
                tuple(None if s == seat or seat is None else f for f in worn)
                for s, worn in enumerate(state.worn)
            ),
            "buzzards": tuple(state.buzzards),
            "out": tuple(state.out),
            "tomahawks": tuple(r and state.options.tomahawks for r in state.ready),
            "guess": state.guess,
            "owner": state.owner,
            "agreed": state.agreed,
            "turns": tuple(state.turns),
            "used": tuple(state.used),
            "stack_size": len(state.stack),
            "rounds": tuple(state.rounds),
            "terminal": state.is_terminal,
            "winners": tuple(state.winners()),
        }
    assert isinstance(state, wt.WakatankaState)
    return {
        "seat": seat,
        "players": state.players,
        "options": state.options,
        "to_move": state.to_move,
        "marker": None if state.marker is None else wt.TILES[state.marker],
        "hand": None
        if seat is None
        else tuple(
            sorted(c for c, n in zip(wt.CARDS, state.hands[seat], strict=True) for _ in range(n))
        ),
        "hand_sizes": tuple(state.hand_size),
        "tokens": tuple(state.tokens),
        "stacks": {
            tile: tuple(
                wt.Slot(placer, wt.CARDS[card] if placer == seat else None)
                for card, placer in state.stacks[t]
            )
            for t, tile in enumerate(wt.TILES)
        },
        "removed": tuple(state.removed),
        "turns": tuple(state.turns),
        "reveals": tuple(state.reveals),
        "last_play": None
        if state.last_play is None
        else (state.last_play[0], wt.TILES[state.last_play[1]]),
        "last_card": state.last_card,
        "terminal": state.is_terminal,
        "winners": tuple(state.winners()),
    }


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_every_view_field_holds_what_its_name_says(setup: Setup) -> None:
    def check(state: State[Any, Any], rng: random.Random) -> None:
        if rng.random() > 0.3:
            return
        for seat in [None, *range(state.players)]:
            view = state.view(seat)
            want = expected_view(state, seat)
            assert set(want) == {f.name for f in dataclasses.fields(view)}
            for name, value in want.items():
                got = getattr(view, name)
                assert got == value and type(got) is type(value), f"{name}: {got!r}"

    random_game(setup, check)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_the_to_move_attribute_is_what_to_move_says(setup: Setup) -> None:
    """Adapters read `to_move_attribute` straight off the state in their hot loops: it must
    hold what `to_move` says at every step, chance and the end included."""
    name = setup[0]
    attribute = get_game(name).new_state(setup[1], setup[2]).to_move_attribute
    assert attribute is not None  # both games keep the seat to move in one attribute

    def check(state: State[Any, Any], rng: random.Random) -> None:
        assert getattr(state, attribute) == state.to_move

    random_game(setup, check)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_the_due_stack_is_the_draw_chance_due_says(setup: Setup) -> None:
    """OpenSpiel's adapter lists a draw's outcomes from `due_stack()` instead of `chance_due()`:
    the stack must hold the very counts the spec would (every draw of draw mode, none else)."""

    def check(state: State[Any, Any], rng: random.Random) -> None:
        stack = state.due_stack()
        spec = state.chance_due()
        if stack is None:
            assert not (state.mode == "draw" and type(spec) is DrawSpec)
            return
        assert type(spec) is DrawSpec
        draws, numbers, size = stack.tally()
        assert (draws, tuple(numbers), size) == spec.tally
        assert size == sum(numbers) > 0

    random_game(setup, check)
