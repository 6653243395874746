"""A view's JSON reuses the JSON of turn records it met before: it must still be exactly the JSON of
this view's own records, game after game (records of a finished game are freed and their ids
reused)."""

from __future__ import annotations

import random

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
