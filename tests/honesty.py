"""What the honesty tests share: random positions of both games, re-deals of what one seat cannot
see, and the part of the deal a seat does see.

A seat's information is its view (`state.view(seat)`). `redeal` deals again everything the view
hides (`Game.sample_state`, as the bots' honesty test does): whatever a seat is shown must be the
same on the twin. `redeal` for *another* seat changes, most of the time, something this seat
sees (another seat's feathers in Pow Wow; this seat's own hand in Waka Tanka): whatever the seat
is shown must then change, so that a test of the first property can fail.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from campfire.kernel import Event, State, get_game

#: both games, with and without options, at several table sizes
CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("powwow", 2, {}),
    ("powwow", 4, {}),
    ("powwow", 3, {"tomahawks": True}),
    ("powwow", 5, {"tomahawks": True, "buzzards": 2, "end_after_eliminations": 2}),
    ("powwow", 6, {"buzzards": 1, "first_player": 4}),
    ("wakatanka", 3, {}),
    ("wakatanka", 4, {"first_player": 2}),
    ("wakatanka", 6, {}),
]


def case_id(case: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = case
    return "-".join([name, str(players), *(f"{k}={v}" for k, v in options.items())])


def positions(
    name: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    limit: int = 400,
    events: list[tuple[int, Event]] | None = None,
) -> Iterator[State[Any, Any]]:
    """Every position where a seat is to move in random games played one after another (the
    live state: clone it to keep it), `limit` of them. Chance and moves come from `seed`; when
    `events` is a list, it holds the events of the game so far (with the record length after
    each), as a table keeps them."""
    rng = random.Random(seed)
    game = get_game(name)
    found = 0
    while found < limit:
        state = game.new_state(players, options)
        if events is not None:
            events.clear()
        while not state.is_terminal and found < limit:
            seat = state.to_move
            if seat is None:
                told = state.apply(state.sample_chance(rng))
            else:
                yield state
                found += 1
                told = state.apply(rng.choice(state.legal_actions()))
            if events is not None:
                events.extend((len(state.history), event) for event in told)


def redeal(state: State[Any, Any], seat: int | None, rng: random.Random) -> State[Any, Any]:
    """`state` with everything `seat` cannot see dealt again (None: a spectator, who sees no
    hidden feather or card)."""
    view = state.view(seat)
    twin: State[Any, Any] = state.game.sample_state(view, rng, chance=state.mode)
    assert twin.view(seat) == view  # the seat cannot tell the two apart
    return twin


def hidden(state: Any) -> Any:
    """The dealt part of a state no seat sees whole: worn feathers or hands, and the stack."""
    if state.game.name == "powwow":
        return ([list(w) for w in state.worn], sorted(state.stack.items()))
    return ([sorted(h) for h in state.hands], [list(s) for s in state.stacks])


def visible(view: Any) -> Any:
    """The part of the deal the view's seat sees: the feathers on the other heads (Pow Wow), its
    own hand and the cards it placed face down (Waka Tanka) — each as a multiset, as every way
    a seat is shown its information counts them."""
    if hasattr(view, "feathers"):
        return tuple(tuple(sorted(f for f in worn if f is not None)) for worn in view.feathers)
    placed = tuple(
        tuple(sorted(slot.card for slot in view.stacks[tile] if slot.card is not None))
        for tile in sorted(view.stacks)
    )
    return (view.hand, placed)


def other_seat(seat: int, players: int, step: int) -> int:
    """A seat other than `seat`, turning with `step` so every other seat has its turn."""
    return (seat + 1 + step % (players - 1)) % players


class Tally:
    """Counts that keep a test from passing vacuously: re-deals that really changed the hidden
    part, and re-deals for another seat that changed what this seat sees."""

    def __init__(self) -> None:
        self.redealt = 0
        self.changed = 0
        self.visible = 0

    def twin(self, state: State[Any, Any], twin: State[Any, Any]) -> None:
        self.redealt += 1
        self.changed += hidden(twin) != hidden(state)

    def check(self, minimum: int) -> None:
        assert self.changed >= max(1, self.redealt // 3), (self.changed, self.redealt)
        assert self.visible >= minimum, self.visible
