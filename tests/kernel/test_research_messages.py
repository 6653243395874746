"""The research encodings' and the chance's errors are marked messages: English as strings (what
a researcher reads by default), told in any language at the edge with their values."""

from __future__ import annotations

import random

import pytest

from campfire.games.powwow.actions import Guess
from campfire.games.powwow.encoding import encoding as powwow_encoding
from campfire.games.powwow.game import GAME as POWWOW
from campfire.games.wakatanka.actions import Spell
from campfire.games.wakatanka.encoding import encoding as wakatanka_encoding
from campfire.i18n import error_text, translator
from campfire.kernel.chance import ChanceSpec, Draw, Shuffle
from campfire.kernel.errors import IllegalAction, OptionError


def refused(call: object, *args: object) -> BaseException:
    with pytest.raises((ValueError, OptionError, IllegalAction, RuntimeError)) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value


def told(error: BaseException, lang: str, template: str) -> str:
    """The error in `lang`, checked to be the catalogue's own sentence and not the English."""
    reason = error.args[0]
    assert reason.template == template
    said = error_text(error, translator(lang))
    assert said == translator(lang).gettext(template, **reason.values) or "{first}" in template
    assert said != str(error)
    return said


def test_the_encodings_errors_are_english_and_told_in_french_and_german() -> None:
    pow_wow = powwow_encoding(4)
    out_of_range = refused(pow_wow.action, 10_000)
    assert str(out_of_range) == f"action 10000 is not in 0..{pow_wow.num_actions - 1}"
    assert told(out_of_range, "fr", "action {index} is not in 0..{last}").startswith(
        "l'action 10000 n'est pas dans 0.."
    )
    low_guess = refused(pow_wow.action_index, Guess(10_000))
    assert told(low_guess, "de", "a guess is from {low} to {high}, not {value}").startswith(
        "ein Tipp liegt zwischen"
    )
    waka = wakatanka_encoding(4)
    not_a_tile = refused(waka.action_index, Spell("moon"))
    assert told(not_a_tile, "fr", "{tile} is not a tile (tiles: {tiles})").startswith(
        "'moon' n'est pas une tuile (tuiles : "
    )
    outcome = refused(waka.chance_index, Draw("dragon"))
    told(outcome, "de", "{outcome} is not a {game} draw or marker")
    players = refused(wakatanka_encoding, 9)
    assert str(players) == "Waka Tanka takes 3 to 6 players, not 9"
    assert told(players, "it", "{game} takes {least} to {most} players, not {players}") != str(
        players
    )


def test_the_chance_errors_are_told_in_spanish() -> None:
    shuffle = ChanceSpec("shuffle", ("a", "b", "c"))
    whole = refused(shuffle.outcomes)
    told(whole, "es", "a whole shuffle has too many outcomes to list; use draw mode")
    problem = shuffle.check(Shuffle(("a", "b", "z")))
    assert problem == (
        "the shuffle must order exactly the 3 items being shuffled; missing c; not being shuffled z"
    )
    spanish = error_text(ValueError(problem), translator("es"))
    tr = translator("es")
    assert tr.gettext("missing {items}", items="c") in spanish
    assert tr.gettext("not being shuffled {items}", items="z") in spanish
    assert "missing" not in spanish
    due = ChanceSpec("draw", ("a", "b")).check(Shuffle(("a", "b")))
    assert due == "a draw from the stack is due"
    assert error_text(ValueError(due), tr) == tr.gettext(
        "{what} is due", what=tr.gettext("a draw from the stack")
    )


def test_a_view_that_cannot_be_filled_in_says_so_in_german() -> None:
    game = POWWOW
    state = game.new_state(3)
    rng = random.Random(1)
    while state.chance_due() is not None:
        state.apply(state.sample_chance(rng))
    view = state.view(0)
    wrong = refused(lambda: game.sample_state(view, random.Random(2), own=["x"] * 9))
    assert told(wrong, "de", "seat {seat} wears {size} feathers, not {given}").startswith(
        "Platz 0 trägt"
    )


def test_the_environments_refusals_are_english_and_told_in_french_and_italian() -> None:
    from campfire.envs.gymnasium_env import CampfireEnv
    from campfire.envs.vector import VectorEnv

    seat = refused(lambda: CampfireEnv("powwow", players=3, seat=7))
    assert str(seat) == "seat must be 0..2, not 7"
    assert told(seat, "fr", "seat must be 0..{last}, not {seat}") == (
        "seat doit être dans 0..2, pas 7"
    )
    size = refused(lambda: VectorEnv("powwow", num_envs=0))
    assert told(size, "it", "num_envs must be a whole number of at least 1, not {value}") == (
        "num_envs deve essere un numero intero di almeno 1, non 0"
    )
    unready = refused(CampfireEnv("powwow", players=3).step, 0)
    told(unready, "de", "call reset() before using the environment")
