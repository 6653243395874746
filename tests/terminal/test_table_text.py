"""The terminal table as a newcomer meets it: help that fits the table, a legend, the circle of
tiles drawn as a circle, bot moves paced, narration wrapped between words and said to "you"."""

from __future__ import annotations

import dataclasses
import io
import random
from typing import Any

from rich.console import Console

from campfire.bots import make_bot
from campfire.games.powwow.actions import Guess
from campfire.kernel.registry import get_game
from campfire.terminal import Session
from campfire.terminal.session import to_you


def printed(renderable: Any, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return str(out)


def test_help_lists_the_tomahawk_commands_only_when_tomahawks_are_in_play() -> None:
    game = get_game("powwow")
    plain = game.text.help(game.new_state(4).view(0))
    armed = game.text.help(game.new_state(4, {"tomahawks": True}).view(0))
    for command in ("agree", "reverse", "extra"):
        assert command not in plain
        assert command in armed
    assert "dispute" in plain and "guess N" in plain


def test_rules_give_a_legend_of_the_black_feathers_and_the_table() -> None:
    game = get_game("powwow")
    rules = game.text.rules(game.new_state(4).view(0))
    for symbol in ("?", "max=0", "x2", "zero", "●", "▶"):
        assert symbol in rules
    assert "Tomahawks" not in rules
    assert "Tomahawks" in game.text.rules(game.new_state(4, {"tomahawks": True}).view(0))
    wakatanka = get_game("wakatanka")
    assert "◆" in wakatanka.text.rules(wakatanka.new_state(3).view(0))


def test_the_tiles_are_drawn_as_a_circle_with_the_marker_and_its_two_neighbours() -> None:
    game = get_game("wakatanka")
    state = game.new_state(3)
    rng = random.Random(3)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    view = state.view(0)
    out = printed(game.text.render(view))
    lines = out.splitlines()
    # coyote and puma on top, eagle and bear in the middle, buffalo and owl below
    top = next(line for line in lines if "coyote" in line)
    middle = next(line for line in lines if "eagle" in line and "bear" in line)
    bottom = next(line for line in lines if "buffalo" in line and "owl" in line)
    assert "puma" in top
    assert lines.index(top) + 1 == lines.index(middle) == lines.index(bottom) - 1
    order = ["coyote", "puma", "bear", "owl", "buffalo", "eagle"]
    at = order.index(view.marker)
    left, right = order[(at - 1) % 6], order[(at + 1) % 6]
    assert f"◆{view.marker}" in out
    assert f"›{left}" in out and f"›{right}" in out
    assert out.count("›") == 2
    assert f"Marker on {view.marker}: next to it are {left} and {right}." in out


def test_the_wrap_from_eagle_to_coyote_shows() -> None:
    from campfire.games.wakatanka.text import circle

    game = get_game("wakatanka")
    state = game.new_state(3)
    rng = random.Random(3)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    view = dataclasses.replace(state.view(0), marker="eagle")
    text = "\n".join(line.plain for line in circle(view))
    assert "◆eagle" in text and "›coyote" in text and "›buffalo" in text
    assert "next to it are buffalo and coyote" in text


class Script:
    """A person who always guesses as high as the rules allow, so they soon go out."""

    def __init__(self) -> None:
        self.session: Session | None = None

    def __call__(self, prompt: str) -> str | None:
        assert self.session is not None
        state = self.session.state
        guesses = [a for a in state.legal_actions() if isinstance(a, Guess)]
        if not guesses:
            return "dispute"
        return f"guess {max(a.value for a in guesses if a.extra_feather_to is None)}"


def test_bot_moves_are_paced_also_after_you_are_out_and_the_end_drops_the_guess() -> None:
    game = get_game("powwow")
    state = game.new_state(4, {"buzzards": 1})
    rng = random.Random(5)
    bots = {s: make_bot(game, "random", s) for s in (1, 2, 3)}
    console = Console(file=io.StringIO(), width=80, color_system=None)
    pauses: list[bool] = []
    script = Script()
    session = Session(
        state,
        {0},
        bots,
        rng,
        console,
        script,
        False,
        pace=0.7,
        sleep=lambda seconds: pauses.append(0 in session.state.view(None).out),
    )
    script.session = session
    assert session.run() == 0
    assert pauses, "no pause between bot moves"
    assert any(pauses), "the bots were not paced once you were out"
    out = console.file.getvalue()  # type: ignore[attr-defined]
    finale = out[out.index("game over") :]
    assert "Standing guess" not in finale and "owns" not in finale
    assert "Winner" in finale


def test_a_session_without_pace_never_waits() -> None:
    game = get_game("powwow")
    bots = {s: make_bot(game, "random", s) for s in range(3)}
    console = Console(file=io.StringIO(), width=80, color_system=None)
    waited: list[float] = []
    session = Session(
        game.new_state(3, {"buzzards": 1}),
        set(),
        bots,
        random.Random(2),
        console,
        lambda prompt: None,
        False,
        sleep=waited.append,
    )
    assert session.run() == 0
    assert waited == []


def test_narration_wraps_between_words() -> None:
    game = get_game("powwow")
    bots = {s: make_bot(game, "random", s) for s in range(4)}
    console = Console(file=io.StringIO(), width=36, color_system=None, soft_wrap=True)
    session = Session(
        game.new_state(4, {"buzzards": 1}),
        set(),
        bots,
        random.Random(4),
        console,
        lambda prompt: None,
        False,
    )
    assert session.run() == 0
    out = console.file.getvalue()  # type: ignore[attr-defined]
    told = [line for line in out.splitlines() if line.startswith("  ")]
    assert any("feathers are revealed" in line for line in told)
    assert all(len(line) <= 36 for line in told), [line for line in told if len(line) > 36]
    # no word is cut: every word of the narration is whole on some line
    words = {w for line in told for w in line.split()}
    sentence = "The feathers are revealed:"
    assert all(w in words for w in sentence.split())


def test_messages_to_the_player_say_you() -> None:
    told = to_you("seat 0 played their last card: call or accept", 0)
    assert told == "you played your last card: call or accept"
    assert to_you("it is seat 0's turn, not seat 1's", 0) == "it is your turn, not seat 1's"
    game = get_game("powwow")
    state = game.new_state(3)
    rng = random.Random(1)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    seat = state.to_move
    state.apply(Guess(3), seat=seat)
    out = printed(game.text.render(state.view(seat)))
    assert "owned by you" in out and f"owned by seat {seat}" not in out
    assert "you: guess 3" in out


def test_messages_said_to_you_agree_with_you() -> None:
    for said, told in [
        ("seat 0 has no mouse in hand", "you have no mouse in hand"),
        ("seat 0 is out and wears no feather", "you are out and wear no feather"),
        ("seat 0 already wears two feathers (two at most)", "you already wear two feathers"),
    ]:
        assert to_you(said, 0).startswith(told)
    assert to_you("seat 1 has no mouse in hand", 0) == "seat 1 has no mouse in hand"


def test_playing_a_card_you_do_not_hold_says_you_have_none() -> None:
    from tests.builders import split_deck, wakatanka

    state = wakatanka(split_deck(4, [["owl"]]), marker="bear")
    console = Console(file=io.StringIO(), width=100, color_system=None)
    lines = iter(["play owl mouse", "play owl owl"])
    session = Session(state, {0}, {}, random.Random(1), console, lambda p: next(lines), False)
    assert session.human_turn(0) is None
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "✗ you have no mouse in hand" in out and "you has" not in out
