"""The checked-in OpenSpiel playthroughs are what OpenSpiel's tool makes today (OpenSpiel's own
regression practice: `integration_tests/playthrough_test.py`)."""

from __future__ import annotations

import pytest
from open_spiel.python.algorithms import generate_playthrough

from tests.envs.playthroughs import CONFIGS, SEED, generate, parse_flags, read


@pytest.mark.parametrize(("name", "game"), CONFIGS.items(), ids=list(CONFIGS))
def test_playthrough_regenerates_the_same(name: str, game: str) -> None:
    parse_flags()
    original = read(name)
    lines = original.splitlines()
    assert lines[0] == f"game: {game}"
    # the actions recorded are the ones a seeded random playthrough takes: replayed from them
    params = generate_playthrough._playthrough_params(lines)
    assert params["game_string"] == game
    again = generate_playthrough.playthrough(game, params["action_sequence"], seed=SEED)
    assert again == original
    assert generate(game) == original  # and from the seed alone
