"""The games' encodings: every legal action has a number and back, chance outcomes too, and an
observation is a fixed-size vector of the seat view that hidden information cannot change."""

from __future__ import annotations

import random
from array import array
from typing import Any

import numpy as np
import pytest

from campfire.games.powwow import DISPUTE, Guess
from campfire.games.powwow.actions import AGREE, GUESSES, extra_guesses
from campfire.games.powwow.feathers import CODES, FEATHERS
from campfire.games.wakatanka.actions import ACCEPT, CALL, PLAYS, Play, Spell
from campfire.games.wakatanka.cards import CARDS, TILES, deck, per_kind
from campfire.kernel import OptionError, get_game

CASES = [
    ("powwow", 2, {}),
    ("powwow", 4, {"tomahawks": True}),
    ("powwow", 8, {"tomahawks": True, "buzzards": 1}),
    ("wakatanka", 3, {}),
    ("wakatanka", 6, {"first_player": 2}),
]


def random_walk(name: str, players: int, options: dict[str, Any], seed: int):
    """Yield every state of one random draw-mode game, chance included."""
    game = get_game(name)
    state = game.new_state(players, options, chance="draw")
    rng = random.Random(seed)
    while not state.is_terminal:
        yield state
        if state.to_move is None:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_actions_chance_and_observations_round_trip(name, players, options):
    game = get_game(name)
    encoding = game.encoding(players, options)
    seen_actions: set[int] = set()
    for seed in range(3):
        for state in random_walk(name, players, options, seed):
            spec = state.chance_due()
            if spec is not None:
                for outcome, _ in state.chance_outcomes():
                    index = encoding.chance_index(outcome)
                    assert 0 <= index < encoding.num_chance_outcomes
                    assert encoding.chance_outcome(index, spec) == outcome
                continue
            legal = state.legal_actions()
            indices = encoding.legal_indices(legal)
            assert len(set(indices)) == len(indices)
            assert all(0 <= i < encoding.num_actions for i in indices)
            assert [encoding.action(i) for i in indices] == list(legal)
            assert [encoding.action_index(a) for a in legal] == indices
            seen_actions.update(indices)
            mask = encoding.legal_mask(legal)
            assert len(mask) == encoding.num_actions and set(mask) <= {0, 1}
            assert np.flatnonzero(np.frombuffer(mask, np.int8)).tolist() == sorted(indices)
            for seat in (state.to_move, None):
                vector = encoding.observe(state.view(seat))
                assert isinstance(vector, array) and vector.typecode == "f"
                assert len(vector) == encoding.observation_size
                assert all(0.0 <= x <= 1.0 for x in vector)
    assert len(seen_actions) > 10
    assert sum(size for _, size in encoding.sections) == encoding.observation_size


def test_action_numbers_follow_the_documented_layout():
    powwow = get_game("powwow").encoding(4, {"tomahawks": True})
    assert powwow.num_actions == 262 + 259 * 4
    assert powwow.action_index(Guess(-20)) == 0
    assert powwow.action_index(Guess(238)) == 258
    assert powwow.action_index(DISPUTE) == 259
    assert powwow.action_index(Guess(5, extra_feather_to=2)) == 262 + 259 * 2 + 25
    assert powwow.action(262 + 259 * 3 + 30) == Guess(10, 3)
    assert get_game("powwow").encoding(4).num_actions == 260
    wakatanka = get_game("wakatanka").encoding(4)
    assert wakatanka.num_actions == 50
    assert wakatanka.action_index(Play("puma", "mouse")) == 7 * 1 + 6
    assert wakatanka.action_index(CALL) == 42
    assert wakatanka.action_index(Spell("eagle")) == 48
    assert wakatanka.action_index(ACCEPT) == 49


@pytest.mark.parametrize(
    ("name", "options", "bad_index", "bad_action"),
    [
        ("powwow", {}, 260, Guess(239)),
        ("powwow", {}, -1, Guess(5, extra_feather_to=1)),
        ("wakatanka", {}, 50, Play("wolf", "owl")),
        ("wakatanka", {}, 7.0, "call"),
    ],
)
def test_numbers_and_actions_outside_the_space_are_refused(name, options, bad_index, bad_action):
    encoding = get_game(name).encoding(4, options)
    with pytest.raises(ValueError, match="not in 0"):
        encoding.action(bad_index)
    with pytest.raises(ValueError):
        encoding.action_index(bad_action)


def test_bad_players_or_options_are_refused():
    with pytest.raises(OptionError, match="2 to 8 players"):
        get_game("powwow").encoding(9)
    with pytest.raises(OptionError, match="buzzards"):
        get_game("powwow").encoding(4, {"buzzards": 0})
    with pytest.raises(OptionError, match="3 to 6 players"):
        get_game("wakatanka").encoding(2)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_observations_cannot_tell_hidden_information(name, players, options):
    """Redeal what a seat cannot see: its observation stays exactly the same."""
    game = get_game(name)
    encoding = game.encoding(players, options)
    rng = random.Random(7)
    checked = 0
    for state in random_walk(name, players, options, 11):
        seat = state.to_move
        if seat is None:
            continue
        view = state.view(seat)
        other = game.sample_state(view, rng)
        assert encoding.observe(other.view(seat)) == encoding.observe(view)
        checked += 1
    assert checked > 3


def test_powwow_observation_shows_others_feathers_not_ones_own():
    encoding = get_game("powwow").encoding(3)
    state = get_game("powwow").new_state(3, {}, chance="draw")
    for feather in ("10", "x2", "?"):
        state.apply(next(o for o, _ in state.chance_outcomes() if o.item == feather))
    names = [name for name, _ in encoding.sections]
    start = sum(size for _, size in encoding.sections[: names.index("worn")])
    assert dict(encoding.sections)["worn"] == 3 * 15
    vector = encoding.observe(state.view(0))
    worn = vector[start : start + 45]
    assert list(worn[0:15]) == [0.0] * 15  # seat 0 cannot see its own 10
    assert worn[15 + 11] == 0.5  # seat 1's x2 (code 11), one feather
    assert worn[30 + 14] == 0.5  # seat 2's ? (code 14)


def test_reused_and_fresh_encodings_observe_alike():
    """Waka Tanka's encoding reuses the counts of the reveals it saw last: views of two games
    taken in turns, and a fresh encoding for each view, must give the same vectors."""
    game = get_game("wakatanka")
    shared = game.encoding(4)
    walks = [random_walk("wakatanka", 4, {}, seed) for seed in (21, 22)]
    compared = 0
    for states in zip(*walks, strict=False):
        for state in states:
            if state.to_move is None:
                continue
            view = state.view(state.to_move)
            assert shared.observe(view) == game.encoding(4).observe(view)
            compared += 1
    assert compared > 50


def test_legal_mask_takes_any_sequence_of_actions():
    """Pow Wow marks whole runs of guesses at once, Waka Tanka looks actions up by identity;
    other equal objects, a partial run or a mixture, in a list or a tuple, are marked the same."""
    powwow = get_game("powwow").encoding(3, {"tomahawks": True})
    wakatanka = get_game("wakatanka").encoding(4)
    cases: list[tuple[Any, list[Any]]] = [
        (powwow, [Guess(v) for v in range(200, 239)]),  # equal guesses, not the canonical ones
        (powwow, [*GUESSES[200:], DISPUTE]),  # a whole run of the canonical ones
        (powwow, [Guess(5), Guess(7), DISPUTE]),
        (powwow, [Guess(237), Guess(238), Guess(238, 1), Guess(236, 2)]),
        (powwow, [DISPUTE, *[Guess(v, 0) for v in range(-20, 239)]]),
        (powwow, [*extra_guesses(2)[100:], *GUESSES[:3], AGREE]),
        (wakatanka, [Play("puma", "mouse"), CALL, Spell("eagle")]),  # not the canonical objects
        (wakatanka, [PLAYS[0][1], PLAYS[5][6], ACCEPT]),
    ]
    state = get_game("powwow").new_state(3, {}, chance="draw")
    while state.to_move is None:
        state.apply(state.chance_outcomes()[0][0])
    cases.append((powwow, state.legal_actions()))  # the state's own shared tuple
    for encoding, legal in cases:
        for sequence in (legal, tuple(legal)):
            mask = encoding.legal_mask(sequence)
            assert len(mask) == encoding.num_actions
            marked = np.flatnonzero(np.frombuffer(mask, np.int8)).tolist()
            assert marked == sorted(encoding.legal_indices(legal))
            assert len(marked) == len(legal)
            mask[0] ^= 1  # each mask is the caller's own: asking again gives the same marks
            assert (
                np.flatnonzero(np.frombuffer(encoding.legal_mask(sequence), np.int8)).tolist()
                == marked
            )


def powwow_reference(view: Any, encoding: Any) -> np.ndarray:
    """Pow Wow's observation computed plainly from its documented layout."""
    n, codes = view.players, list(CODES)
    one_hot = _one_hot
    latest = [[0.0, 0.0] for _ in range(n)]
    for seat, action in view.turns:  # each seat's latest guess this round
        if isinstance(action, Guess):
            latest[seat] = [1.0, (action.value + 20) / 258]
    parts = {
        "seat": one_hot(view.seat, n),
        "to_move": one_hot(view.to_move, n),
        "direction": [1.0 if view.direction == -1 else 0.0],
        "worn": [list(worn).count(code) / 2 for worn in view.feathers for code in codes],
        "wearing": [len(worn) / 2 for worn in view.feathers],
        "buzzards": [b / encoding.options.buzzards for b in view.buzzards],
        "out": [1.0 if seat in view.out else 0.0 for seat in range(n)],
        "tomahawks": [1.0 if ready else 0.0 for ready in view.tomahawks],
        "guess": [0.0, 0.0] if view.guess is None else [1.0, (view.guess + 20) / 258],
        "owner": one_hot(view.owner, n),
        "agreed": [1.0 if view.agreed else 0.0],
        "latest_guess": [x for pair in latest for x in pair],
        "used": [view.used.count(code) / FEATHERS.count(code) for code in codes],
        "stack": [view.stack_size / 36],
    }
    return _joined(parts, encoding)


def wakatanka_reference(view: Any, encoding: Any) -> np.ndarray:
    """Waka Tanka's observation computed plainly from its documented layout."""
    n, kind, cards_in_deck = view.players, per_kind(view.players), len(deck(view.players))
    one_hot = _one_hot

    def by_kind(cards: Any) -> list[float]:
        cards = list(cards)
        return [cards.count(card) / kind for card in CARDS]

    known = [[0] * 7 for _ in range(n)]  # cards seen taken and not seen given up since
    for reveal in view.reveals:
        for placer, card in reveal.cards:
            known[placer][CARDS.index(card)] = max(0, known[placer][CARDS.index(card)] - 1)
        if reveal.taker is not None:
            for _, card in reveal.cards:
                known[reveal.taker][CARDS.index(card)] += 1
    stacks: list[float] = []
    for tile in TILES:
        slots = view.stacks[tile]
        stacks.append(len(slots) / cards_in_deck)
        stacks += by_kind(slot.card for slot in slots if slot.card is not None)
        stacks += [[s.placer for s in slots].count(p) / cards_in_deck for p in range(n)]
    last_seat, last_tile = view.last_play if view.last_play else (None, None)
    parts = {
        "seat": one_hot(view.seat, n),
        "to_move": one_hot(view.to_move, n),
        "marker": one_hot(None if view.marker is None else TILES.index(view.marker), 6),
        "hand": by_kind(view.hand or ()),
        "hand_sizes": [size / cards_in_deck for size in view.hand_sizes],
        "tokens": [tokens / 4 for tokens in view.tokens],
        "stacks": stacks,
        "removed": by_kind(view.removed),
        "last_play": one_hot(last_seat, n)
        + one_hot(None if last_tile is None else TILES.index(last_tile), 6),
        "last_card": [1.0 if view.last_card else 0.0],
        "known": [count / kind for row in known for count in row],
    }
    return _joined(parts, encoding)


def _one_hot(index: int | None, size: int) -> list[float]:
    return [1.0 if i == index else 0.0 for i in range(size)]


def _joined(parts: dict[str, list[float]], encoding: Any) -> np.ndarray:
    assert [(name, len(parts[name])) for name, _ in encoding.sections] == list(encoding.sections)
    return np.array([x for name, _ in encoding.sections for x in parts[name]], np.float32)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_observations_hold_exactly_the_documented_values(name, players, options):
    """Every value of the vector, on every view of several games (each seat's and the
    spectator's), equals the plain computation of the documented layout, in float32."""
    encoding = get_game(name).encoding(players, options)
    reference = powwow_reference if name == "powwow" else wakatanka_reference
    checked = 0
    for seed in range(10):
        for state in random_walk(name, players, options, seed):
            for seat in (None, *range(players)):
                view = state.view(seat)
                observed = np.frombuffer(encoding.observe(view), np.float32)
                expected = reference(view, encoding)
                assert observed.tobytes() == expected.tobytes(), (observed != expected).nonzero()
                checked += 1
    assert checked > 300
