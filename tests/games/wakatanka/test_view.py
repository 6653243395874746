"""A view's JSON reuses the JSON of turn records it met before: it must still be exactly the JSON of
this view's own records, game after game (records of a finished game are freed and their ids
reused)."""

from __future__ import annotations

import random

from campfire.games.wakatanka.state import WakatankaState
from campfire.kernel import get_game


def test_every_views_json_is_the_json_of_its_own_turns_and_reveals() -> None:
    game = get_game("wakatanka")
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_state(3 + seed % 3)
        while not state.is_terminal:
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
                continue
            state.apply(rng.choice(state.legal_actions()))
            seat = rng.randrange(state.players)
            view = state.view(seat)
            out = view.to_json()
            assert out["turns"] == [t.to_json() for t in view.turns]
            assert out["reveals"] == [r.to_json() for r in view.reveals]
            assert len(out["reveals"]) == len(view.reveals) and len(out["turns"]) == len(view.turns)


def test_views_of_clones_and_sampled_states_show_their_own_game() -> None:
    """Views of one position share one tuple of turns (and its JSON); a clone that plays on, a
    state sampled from a view, and the original each show exactly their own turns and reveals,
    whichever was viewed first."""
    game = get_game("wakatanka")

    def shows_its_own(state: WakatankaState) -> None:
        for seat in [None, *range(state.players)]:
            out = state.view(seat).to_json()
            assert out["turns"] == [t.to_json() for t in state.turns]
            assert out["reveals"] == [r.to_json() for r in state.reveals]
            assert out["options"] == state.options.model_dump()

    def step(state: WakatankaState, rng: random.Random) -> None:
        if state.to_move is None:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))

    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_state(3 + seed % 3)
        assert isinstance(state, WakatankaState)
        while not state.is_terminal:
            step(state, rng)
            if rng.random() < 0.3:
                shows_its_own(state)
                other = state.clone()
                for _ in range(rng.randrange(1, 4)):
                    if not other.is_terminal:
                        step(other, rng)
                shows_its_own(other)
                shows_its_own(state)
                if state.to_move is not None:
                    sampled = game.sample_state(state.view(state.to_move), rng)
                    assert isinstance(sampled, WakatankaState)
                    shows_its_own(sampled)
                    shows_its_own(state)
