"""The terminal session itself, in process: what it draws, the commands it reads, how it
answers mistakes, and its pace (when it draws, when it waits, when a bot just plays)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console

from campfire.bots import make_bot
from campfire.kernel import Bot, Record, Shuffle, State, get_game
from campfire.terminal import Session
from tests.builders import order_with_top, split_deck, wakatanka


class Screen:
    """A console writing to memory, and the lines typed at it."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.out = io.StringIO()
        self.console = Console(
            file=self.out, width=120, color_system=None, highlight=False, soft_wrap=True
        )
        self.lines = list(lines)
        self.prompts: list[str] = []

    def read_line(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if not self.lines:
            return None
        return self.lines.pop(0)

    @property
    def text(self) -> str:
        return self.out.getvalue()


def powwow_session(
    lines: Iterable[str],
    humans: set[int] = frozenset({0}),  # type: ignore[assignment]
    bots: dict[int, Bot] | None = None,
    **options: Any,
) -> tuple[Session, Screen]:
    state: State[Any, Any] = get_game("powwow").new_state(4, options)
    state.apply(Shuffle(order_with_top(["1", "2", "3", "4", "5", "10", "15", "20"])))
    screen = Screen(lines)
    session = Session(
        state, set(humans), bots or {}, random.Random(1), screen.console, screen.read_line, False
    )
    return session, screen


# --- drawing ------------------------------------------------------------------------------------
def test_the_powwow_table_shows_every_feather_but_your_own() -> None:
    session, screen = powwow_session([])
    session.show_table(0)
    lines = screen.text.splitlines()
    row = {
        line.split()[1 if line.startswith("▶") else 0]: line for line in lines if line[:3].strip()
    }
    assert "▒▒" in row["0"] and " 1 " not in row["0"]  # your own feather, hidden
    assert " 2 " in row["1"] and " 3 " in row["2"] and " 4 " in row["3"]
    assert "▶ 0 (you)" in screen.text  # whose turn
    assert "No guess stands yet." in screen.text
    assert "Used pile (0)" in screen.text and "Stack: 32 feathers face down." in screen.text


def test_the_powwow_table_shows_the_standing_guess_the_turns_and_the_tomahawks() -> None:
    session, screen = powwow_session([], tomahawks=True)
    session.state.apply(get_game("powwow").text.parse("guess 7", session.state.view(0)))
    session.state.apply(get_game("powwow").text.parse("reverse", session.state.view(1)))
    session.show_table(0)
    assert "Standing guess: 7, owned by you." in screen.text
    assert "This round — you: guess 7, 1: reverse" in screen.text
    assert "counter-clockwise" in screen.text
    assert screen.text.count("ready") == 3 and "—" in screen.text


def test_the_waka_tanka_table_shows_your_hand_the_tiles_and_your_own_face_down_card() -> None:
    state = wakatanka(split_deck(4, [["owl", "owl", "mouse"]]), marker="bear")
    screen = Screen([])
    session = Session(state, {0}, {}, random.Random(1), screen.console, screen.read_line, False)
    state.apply(state.game.text.parse("play owl mouse", state.view(0)))
    session.show_table(0)
    text = screen.text
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand: "))
    hand = state.view(0).hand or ()
    for card in set(hand):
        n = hand.count(card)
        assert (f"{n}× {card}" if n > 1 else card) in hand_line
    assert "mouse" not in hand_line  # the one mouse is on owl now
    assert "Your cards in the stacks — owl: mouse" in text  # seat 0 sees its own card on owl
    assert "You just played on owl." in text and "you may call" not in text
    other = Screen([])
    Session(state, {1}, {}, random.Random(1), other.console, other.read_line, False).show_table(1)
    assert "Your cards in the stacks" not in other.text
    assert "mouse" not in other.text.split("Your hand")[0]
    # only the next player is told they may call
    assert "Seat 0 just played on owl: you may call." in other.text


# --- commands -----------------------------------------------------------------------------------
def test_a_command_plays_the_move_and_the_events_are_told() -> None:
    session, screen = powwow_session(["guess 12"])
    assert session.human_turn(0) is None
    assert session.state.view(None).guess == 12 and session.state.to_move == 1
    assert "You guess 12." in screen.text
    assert screen.prompts == ["seat 0 > "]


def test_help_lists_the_games_commands_the_extras_and_the_general_ones() -> None:
    called: list[tuple[int, list[str]]] = []
    session, screen = powwow_session(["help", "?", "quit"], tomahawks=True)
    session.commands = {
        "hint": (
            "hint               a test command",
            lambda s, seat, args: called.append((seat, args)),
        )
    }
    assert session.human_turn(0) == 0
    assert screen.text.count("guess N extra S") == 2
    assert screen.text.count("a test command") == 2 and "save FILE" in screen.text
    assert "You left the game." in screen.text
    assert session.state.view(None).guess is None  # nothing was played


def test_an_extra_command_gets_the_seat_and_the_words_after_it() -> None:
    called: list[tuple[int, list[str]]] = []
    session, _ = powwow_session(["hint a b", "guess 3"])
    session.commands = {"hint": ("hint", lambda s, seat, args: called.append((seat, args)))}
    assert session.human_turn(0) is None
    assert called == [(0, ["a", "b"])]


def test_table_draws_again_and_blank_lines_are_ignored() -> None:
    session, screen = powwow_session(["", "   ", "table", "guess 1"])
    session.human_turn(0)
    assert screen.text.count("Stack: 32 feathers face down.") == 2  # on the turn, then 'table'
    assert len(screen.prompts) == 4


def test_save_writes_a_record_that_replays_to_the_same_position(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session, screen = powwow_session(["guess 5", f"save {path}", "quit"])
    session.human_turn(0)
    session.state.apply(get_game("powwow").text.parse("guess 6", session.state.view(1)))
    session.state.apply(get_game("powwow").text.parse("guess 8", session.state.view(2)))
    session.state.apply(get_game("powwow").text.parse("guess 9", session.state.view(3)))
    assert session.human_turn(0) == 0
    assert f"Saved to {path} (resume with --resume {path})." in screen.text
    replayed = Record.load(path).replay()
    assert replayed.view(0).to_json() == session.state.view(0).to_json()


# --- mistakes -----------------------------------------------------------------------------------
def test_mistakes_get_a_message_and_the_same_prompt_and_change_nothing(tmp_path: Path) -> None:
    session, screen = powwow_session(
        [
            "bogus",
            "guess",
            "guess twelve",
            "guess 300",
            "dispute",
            "agree",
            "save",
            f"save {tmp_path / 'no' / 'such' / 'dir.json'}",
            "guess 4",
        ]
    )
    before = session.state.view(0).to_json()
    assert session.human_turn(0) is None
    text = screen.text
    assert "✗ unknown command 'bogus'" in text
    assert "✗ guess needs a number" in text
    assert "✗ the guess must be a whole number, not 'twelve'" in text
    assert "✗ a guess must be between -20 and 238, not 300" in text
    assert "✗ there is no guess to dispute yet" in text
    assert "tomahawks are not in play" in text
    assert "✗ write 'save FILE'" in text
    assert "✗ cannot save to" in text
    assert text.count("✗") == 8
    assert screen.prompts == ["seat 0 > "] * 9
    before["turns"] = [{"player": 0, "action": "guess", "value": 4}]
    before["guess"], before["owner"], before["to_move"] = 4, 0, 1
    assert session.state.view(0).to_json() == before  # only the last command played


def test_a_move_out_of_turn_order_is_refused_for_the_seat_typing() -> None:
    state = wakatanka(split_deck(4, [["owl"]]), marker="bear")
    screen = Screen(["play coyote owl", "play owl dragon", "call", "play owl owl"])
    session = Session(state, {0}, {}, random.Random(1), screen.console, screen.read_line, False)
    assert session.human_turn(0) is None
    assert "✗ the marker is on bear: it moves to puma or owl, not coyote" in screen.text
    assert "'dragon' is not" in screen.text
    assert "✗ a call must come right after a play" in screen.text
    assert state.view(None).marker == "owl"


def test_input_ending_before_the_game_leaves_with_status_1() -> None:
    game = get_game("powwow")
    bots = {s: make_bot(game, "random", s) for s in (1, 2, 3)}
    session, screen = powwow_session(["guess 3"], bots=bots)
    assert session.run() == 1  # the bots play on until seat 0's next turn finds no input
    assert len(screen.prompts) == 2
    assert "Input ended before the game did; save it next time with 'save FILE'." in screen.text
    assert not session.state.is_terminal


# --- pace and audience --------------------------------------------------------------------------
def test_bots_play_without_drawing_and_the_person_sees_the_table_on_each_turn() -> None:
    game = get_game("powwow")
    bots = {s: make_bot(game, "random", s) for s in (1, 2, 3)}
    session, screen = powwow_session(["dispute", "guess -20"] * 400, bots=bots)
    assert session.run() == 0
    state = session.state
    assert state.is_terminal
    turns_of_0 = len(screen.prompts)
    assert turns_of_0 > 0
    # the table is drawn once per turn of the person (plus once at the end), never per bot move
    assert screen.text.count("Stack: ") == turns_of_0 + 1 - screen.text.count("✗")
    assert "game over" in screen.text and "Winner" in screen.text
    assert "Pow Wow — seat 0: you, seat 1: bot, seat 2: bot, seat 3: bot" in screen.text


def test_one_person_hears_their_private_events_two_at_one_keyboard_hear_only_public_ones() -> None:
    hands = split_deck(4, [["owl"], ["owl"]])
    alone = Screen(["play owl owl"])
    state = wakatanka(hands, marker="bear")
    Session(state, {0}, {}, random.Random(1), alone.console, alone.read_line, False).human_turn(0)
    assert "You move the marker to owl and place a card face down" in alone.text
    assert "You place an owl on owl." in alone.text  # told to seat 0 only
    shared = Screen(["play owl owl"])
    state = wakatanka(hands, marker="bear")
    session = Session(state, {0, 1}, {}, random.Random(1), shared.console, shared.read_line, False)
    session.human_turn(0)
    assert "Seat 0 moves the marker to owl and places a card face down" in shared.text
    assert "on owl." not in shared.text  # the screen is shared: the card stays secret


def test_hot_seat_hands_the_keyboard_over_and_waits_for_enter_when_interactive() -> None:
    state = wakatanka(split_deck(4, [["owl"], ["bear"]]), marker="bear")
    screen = Screen(["play owl owl", "play bear bear"])
    waited: list[str] = []
    cleared: list[bool] = []

    def wait(prompt: Any = "", **_: Any) -> str:
        waited.append(str(prompt))
        return ""

    screen.console.input = wait  # type: ignore[method-assign]
    screen.console.clear = lambda *a, **k: cleared.append(True)  # type: ignore[method-assign]
    session = Session(state, {0, 1}, {}, random.Random(1), screen.console, screen.read_line, True)
    session.human_turn(0)
    session.human_turn(1)
    assert len(waited) == 2 and "Pass the keyboard to seat 1" in waited[1]
    assert len(cleared) == 4  # the screen is wiped before and after each hand-over
    session.hand_over(1)  # the same seat again: nothing to hand over, no wait
    assert len(waited) == 2


def test_hot_seat_without_a_terminal_marks_each_hand_over_without_waiting() -> None:
    state = wakatanka(split_deck(4, [["owl"], ["bear"]]), marker="bear")
    screen = Screen(["play owl owl", "play bear bear"])
    session = Session(state, {0, 1}, {}, random.Random(1), screen.console, screen.read_line, False)
    session.human_turn(0)
    session.human_turn(1)
    rules = [line.strip("─ ") for line in screen.text.splitlines() if line.startswith("──")]
    assert rules == ["seat 0", "seat 1"]
    first, second = screen.text.split("─ seat 1 ─")
    assert "0 (you)" in first and "1 (you)" not in first  # each sees the table as its own seat
    assert "1 (you)" in second and "0 (you)" not in second


def test_lines_typed_before_the_table_was_shown_are_shown_and_not_played() -> None:
    session, screen = powwow_session(["guess 4"])
    queued = [["dispute", "guess 9"]]
    session.typed_ahead = lambda: queued.pop() if queued else []
    assert session.human_turn(0) is None
    assert "Ignored 'dispute' and 'guess 9', typed before this table was shown" in screen.text
    assert session.state.view(None).guess == 4  # only what was typed at the prompt played


def test_after_the_game_the_commands_are_a_table_more_can_join() -> None:
    game = get_game("powwow")
    bots = {s: make_bot(game, "random", s) for s in (1, 2, 3)}
    session, screen = powwow_session(["dispute", "guess -20"] * 400, bots=bots)
    assert session.play() is None and session.state.is_terminal
    session.interactive = True  # a person at a terminal: the finished game waits for them
    seen: list[list[str]] = []
    session.end_commands["review"] = ("review    look back", lambda s, args: seen.append(args))
    screen.lines[:] = ["help", "review 3", "reveiw", "quit", "yes"]
    assert session.after_the_game() == 0
    assert seen == [["3"]]
    assert "look back" in screen.text and "save FILE" in screen.text  # help lists the table
    assert "did you mean 'review'?" in screen.text
    assert screen.prompts[-5:] == ["game over > "] * 4 + [
        "Leave without saving? yes, no, or save FILE > "
    ]
    assert "Goodbye." in screen.text
