"""Strict bodies and messages that say what is wrong (issue 24, item 10): a number of players is
a JSON integer, an option's name is the one sent, a refused guess names the range legal now."""

from __future__ import annotations

import random

from campfire.games.powwow import Guess
from campfire.kernel import IllegalAction, OptionError, get_game
from tests.server.conftest import Client


def test_numbers_are_json_integers_not_strings_or_booleans(client: Client) -> None:
    for field, value in (("players", "3"), ("players", True), ("players", 3.0), ("seat", "0")):
        body = {"game": "powwow", "name": "Ana", field: value}
        response = client.http.post("/api/tables", json=body)
        assert response.status_code == 422, (field, value, response.text)
        assert response.json()["error"].startswith(f"{field}:"), response.text
    made = client.create("powwow", 3, name="Ana")
    joined = client.http.post(f"/api/tables/{made['id']}/join", json={"name": "Bob", "seat": "1"})
    assert joined.status_code == 422 and joined.json()["error"].startswith("seat:")
    assert client.app.state.storage.count() == 1


def test_an_option_refusal_names_the_option_sent() -> None:
    game = get_game("powwow")
    for name in ("", "options", "bogus"):
        try:
            game.new_state(3, {name: 1})
        except OptionError as error:
            assert str(error).startswith(f"unknown option {name!r} (options: "), error
        else:
            raise AssertionError(f"option {name!r} was accepted")


def test_a_refused_guess_names_the_range_legal_now() -> None:
    state = get_game("powwow").new_state(3)
    state.apply(state.sample_chance(random.Random(1)))
    state.apply(Guess(-1))
    for value in (-30, 300):
        try:
            state.apply(Guess(value))
        except IllegalAction as error:
            assert str(error) == f"a guess must be between 0 and 238, not {value}"
        else:
            raise AssertionError(f"guess {value} was accepted")
    assert min(a.value for a in state.legal_actions() if isinstance(a, Guess)) == 0
