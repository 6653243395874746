"""Shared pieces of the commands: games by name, options from the command line, errors."""

from __future__ import annotations

import sys
from typing import Annotated, Any, NoReturn

import typer

from campfire.i18n import (
    LANGUAGES,
    N_,
    PSEUDO,
    Translator,
    error_text,
    from_environment,
    language_of,
    refusal_text,
    translator,
)
from campfire.kernel.options import parse_option_value
from campfire.kernel.registry import games, get_game
from campfire.kernel.state import Game

#: `--ray ADDRESS` of the commands that play many bot games
RayAddress = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help=N_(
            "spread the games over the Ray cluster at ADDRESS (local: start Ray here);"
            " needs campfire-games[cluster]"
        ),
    ),
]


#: `--lang XX` of the commands that speak to people
Lang = Annotated[
    str | None,
    typer.Option(
        "--lang",
        metavar="LANG",
        help=N_(
            "the language of the output and errors: en, fr, de, it, es"
            " (default from LC_ALL, LC_MESSAGES or LANG, else en)"
        ),
    ),
]


#: the language the command's errors are told in (one command, one reader: set by `speak`)
_spoken: list[Translator] = [translator("en")]


def speak(lang: str) -> None:
    """Tell this command's errors in `lang` (`campfire play --lang`, or LC_ALL/LANG)."""
    _spoken[0] = translator(lang)


def spoken() -> Translator:
    """The translator of the command's language (set by `speak` or `chosen`)."""
    return _spoken[0]


def chosen(lang: str | None) -> Translator:
    """The language `--lang` names (else LC_ALL/LC_MESSAGES/LANG, else English), now spoken;
    a language that is not offered is refused in English, the only one sure to be read."""
    if lang is None:
        code = from_environment()
    elif language_of(lang) in (None, PSEUDO) and lang != PSEUDO:
        speak(from_environment())
        fail(
            N_("--lang {lang}: the languages are {languages}"),
            lang=repr(lang),
            languages=", ".join(LANGUAGES),
        )
    else:
        code = language_of(lang) or "en"
    speak(code)
    return spoken()


def fail(message: str, code: int = 2, /, **args: Any) -> NoReturn:
    """One clear line on standard error, and out: `message` in the spoken language (a
    catalogue message with its `{placeholders}` from `args`, or a `Refusal` the engine said;
    any other text as it is)."""
    tr = _spoken[0]
    if isinstance(getattr(message, "template", None), str):
        said = refusal_text(message, tr)
    else:
        said = tr.gettext(message, **args)
    print(f"campfire: {said}", file=sys.stderr)
    raise SystemExit(code)


def fail_error(error: BaseException, code: int = 2) -> NoReturn:
    """An engine error (option, record, rules) in the spoken language, and out."""
    print(f"campfire: {error_text(error, _spoken[0])}", file=sys.stderr)
    raise SystemExit(code)


def game_named(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except KeyError:
        fail(
            N_("unknown game {name} (games: {games})"),
            name=repr(name),
            games=", ".join(games()),
        )


def bot_games(
    game_name: str,
    players: int | None,
    option: list[str] | None,
    bots: str,
    games: int,
    imports: bool = False,
) -> tuple[Game[Any], int, dict[str, Any], list[str]]:
    """The checked set-up of a run of bot games: game, players, options and a level per seat."""
    from campfire.bots import seat_levels
    from campfire.kernel.errors import OptionError

    game = game_named(game_name)
    n = game.default_players if players is None else players
    options = options_from(option, game.default_options())
    try:
        game.new_state(n, options)
        levels = seat_levels(bots, n, game, imports=imports)
    except (OptionError, ValueError) as error:
        fail_error(error)
    if games < 1:
        fail(N_("--games must be at least 1"))
    return game, n, options, levels


#: the words a yes-or-no option takes on the command line, besides true and false
YES_NO = {"true": True, "yes": True, "on": True, "1": True}
YES_NO.update({"false": False, "no": False, "off": False, "0": False})


def options_from(pairs: list[str] | None, defaults: dict[str, Any] | None = None) -> dict[str, Any]:
    """`key=value` pairs as options; an option whose default is a bool (`defaults`, the game's)
    also takes yes/no, on/off and 1/0."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            fail(N_("--option takes key=value, not {pair}"), pair=repr(pair))
        key, value = key.strip(), value.strip()
        is_bool = defaults is not None and isinstance(defaults.get(key), bool)
        if is_bool and value.lower() in YES_NO:
            options[key] = YES_NO[value.lower()]
        else:
            options[key] = parse_option_value(value)
    return options
