"""The terminal table in French, German, Italian and Spanish: a whole game of each game played
at a real (pseudo-)terminal with the language's own commands, narrated in that language from
the first line to the last (no English sentence left), with the right plural forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campfire.i18n import translator
from tests.terminal.pty_terminal import Terminal

LANGS = ("fr", "de", "it", "es")
#: sentences only the English narration and table say
ENGLISH = (
    "Round ",
    "begins",
    "guesses",
    "The total is",
    "takes a buzzard",
    "Game over",
    "Winner",
    "Standing guess",
    "Used pile",
    "Stack:",
    "shuffled",
    "Type 'help'",
    "the marker",
    "last card",
    "Your hand",
    "unknown command",
)
#: the feather, in each language's help (the contract)
FEATHER = {"fr": "plume", "de": "Feder", "it": "piuma", "es": "pluma"}


def play_out(game: Terminal, lang: str, turn: list[str]) -> str:
    """At seat 0's prompt, answer every turn with `turn`'s commands (in order, the first one
    accepted) until the game ends, then leave in the language's words; all that was printed."""
    tr = translator(lang)
    prompt = tr.gettext("seat {seat} > ", seat=0)
    over = tr.gettext("game over > ")
    refused = re.compile(r"✗")
    either = re.compile(f"{re.escape(prompt)}|{re.escape(over)}")
    printed = prompt
    while not printed.endswith(over):
        for command in turn:
            game.type(f"{command}\r")
            printed = game.expect(either)
            if not refused.search(printed):
                break
        else:
            raise AssertionError(f"every command of {turn} was refused:\n{printed}")
    game.type(f"{tr.pgettext('command', 'quit')}\r")
    game.expect(tr.gettext("Leave without saving? yes, no, or save FILE > "))
    game.type(f"{tr.pgettext('command', 'yes')}\r")
    assert game.wait() == 0
    return game.text


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_pow_wow_game_is_narrated_in_the_players_language(
    tmp_path: Path, lang: str
) -> None:
    tr = translator(lang)
    word = tr.pgettext
    with Terminal(
        "play", "powwow", "--lang", lang, "--players", "3", "--seed", "5", "--pace", "0",
        cwd=tmp_path, columns=120,
    ) as game:  # fmt: skip
        game.expect(tr.gettext("seat {seat} > ", seat=0))
        game.type(f"{word('command', 'help')}\r")
        help_text = game.expect(tr.gettext("seat {seat} > ", seat=0))
        assert FEATHER[lang] in help_text
        # the language's own words, with the English ones named beside them
        assert f"{word('command', 'dispute')} (dispute)" in help_text
        # dispute when a guess stands, else open with a guess of 5 in the language's words
        text = play_out(game, lang, [word("command", "dispute"), f"{word('command', 'guess')} 5"])
    for english in ENGLISH:
        assert english not in text, f"{english!r} left in English"
    # the bots' level is shown in the language ("random" stays the identifier in the record)
    assert tr.gettext("{level} bot", level=word("level", "random")) in text
    assert "random bot" not in text
    said = tr.ngettext(
        "Game over. Winner: {names}.", "Game over. Winners: {names}.", 1, names=""
    ).rstrip(".")
    assert said in text
    # plural forms: the stack counts its feathers (33 face down at the start: the plural)
    stack = tr.ngettext("Stack: {n} feather face down.", "Stack: {n} feathers face down.", 33)
    assert stack in text
    assert (
        tr.gettext(
            "The total is {total}, which falls short of the guess {guess}.", total=0, guess=0
        )[:6]
        in text
    )


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_waka_tanka_game_is_narrated_in_the_players_language(
    tmp_path: Path, lang: str
) -> None:
    tr = translator(lang)
    word = tr.pgettext
    with Terminal(
        "play", "wakatanka", "--lang", lang, "--players", "3", "--seed", "2", "--pace", "0",
        cwd=tmp_path, columns=140,
    ) as game:  # fmt: skip
        game.expect(tr.gettext("seat {seat} > ", seat=0))
        # call when a card was just played, accept a last card, else play a mouse (or any card)
        # on either tile next to the marker, named in the language
        animals = [
            tr.pgettext("animal", a)
            for a in ("coyote", "puma", "bear", "owl", "buffalo", "eagle", "mouse")
        ]
        plays = [
            f"{word('command', 'play')} {tile.lower()} {card.lower()}"
            for tile in animals[:6]
            for card in animals
        ]
        text = play_out(game, lang, [word("command", "accept"), *plays])
    for english in ENGLISH:
        assert english not in text, f"{english!r} left in English"
    assert tr.ngettext("The {n} card is shuffled.", "The {n} cards are shuffled.", 28) in text
