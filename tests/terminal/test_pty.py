"""`campfire play` at a real (pseudo-)terminal, seen through a terminal emulator: what a person
sees, scroll-back included, with keys typed the way people type them."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from campfire.games.powwow.text import HELP, RULES
from campfire.kernel import RandomBot, Record, State, get_game
from campfire.terminal.messages import GENERAL_HELP
from tests.terminal.pty_terminal import Terminal


@pytest.fixture
def terminals(tmp_path: Path) -> Iterator[list[Terminal]]:
    """Terminals started in a test's own folder, all closed at its end."""
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def start(terminals: list[Terminal], cwd: Path, *args: str, **size: Any) -> Terminal:
    terminal = Terminal(*args, cwd=cwd, **size)
    terminals.append(terminal)
    return terminal


def used_pile_line(state: State[Any, Any]) -> str:
    """Seat 0's used pile line as it is drawn, on one line however long."""
    console = Console(file=io.StringIO(), width=1000, color_system=None)
    console.print(state.game.text.render(state.view(0)))
    out: str = console.file.getvalue()  # type: ignore[attr-defined]
    return next(line for line in out.splitlines() if line.startswith("Used pile ("))


def cut_by(line: str, width: int) -> bool:
    """Would a terminal `width` wide, wrapping `line` itself, cut a word of it in two?"""
    return any(line[at - 1] != " " != line[at] for at in range(width, len(line), width))


def long_used_pile(path: Path) -> State[Any, Any]:
    """A Pow Wow game saved at seat 0's turn with a used pile so long that a terminal 120 or 60
    columns wide cuts a feather in two when it wraps the line itself (the first such position
    of the first game, by seed, that has one)."""
    for seed in range(100):
        state: State[Any, Any] = get_game("powwow").new_state(4, {"buzzards": 10})
        rng, bot = random.Random(seed), RandomBot(seed)
        while not state.is_terminal:
            if state.to_move == 0:
                line = used_pile_line(state)
                if cut_by(line, 120) and cut_by(line, 60):
                    Record.of(state).save(path)
                    return state
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(bot.choose(state.view(state.to_move), state.legal_actions()))
    raise AssertionError("no game with a used pile that long")


@pytest.mark.parametrize("columns", [120, 60])
def test_every_line_wraps_between_words_at_the_terminals_width(
    terminals: list[Terminal], tmp_path: Path, columns: int
) -> None:
    saved = tmp_path / "long.json"
    state = long_used_pile(saved)
    game = start(
        terminals, tmp_path, "play", "powwow", "--resume", str(saved), "--bots", "random",
        columns=columns, rows=15,
    )  # fmt: skip
    game.expect("seat 0 > ")
    for command in ("help", "rules", "table"):
        game.type(f"{command}\r")
        game.expect("seat 0 > ")
    lines = game.lines()
    assert all(len(line) <= columns for line in lines)
    words = {word for line in lines for word in line.split()}
    for text in (HELP, RULES, GENERAL_HELP, "Pow Wow — seat 0: you, seat 1: random bot"):
        split = [word for word in text.split() if word not in words]
        assert not split, f"split at {columns} columns: {split}"
    # the used pile, drawn twice (on the turn and by 'table'), each feather whole
    used = sorted({"max0": "max=0"}.get(f, f) for f in state.view(0).used)
    piles = [i for i, line in enumerate(lines) if line.startswith("Used pile (")]
    assert len(piles) == 2
    for at in piles:
        end = next(i for i in range(at, len(lines)) if lines[i].startswith("Stack:"))
        shown = " ".join(lines[at:end]).split(":", 1)[1].split()
        assert sorted(shown) == used, (columns, lines[at:end])


def test_commands_typed_ahead_are_never_played_on_a_position_not_shown(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    game = start(
        terminals, tmp_path, "play", "powwow", "--bots", "medium", "--seed", "3", "--pace", "0"
    )
    game.expect("seat 0 > ")
    game.type("guess 10\rdispute\r")  # at once: the dispute is typed before the bots guess
    game.expect("You guess 10.")
    shown = game.expect("seat 0 > ")
    assert "Standing guess: 13" in shown  # the position the bots left
    assert "Ignored 'dispute', typed before this table was shown" in shown
    game.type("table\r")  # whatever was queued would have been played by now
    game.expect("seat 0 > ")
    assert "You dispute" not in game.text
    game.type("dispute\r")  # typed once the table is shown: played
    game.expect("You dispute seat 3's guess of 13!")


def test_the_hot_seat_leaves_nothing_of_the_last_seats_table_to_scroll_back_to(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    game = start(
        terminals, tmp_path, "play", "powwow", "--players", "3", "--seat", "0", "--seat", "1",
        "--seed", "5", "--pace", "0", columns=80, rows=10,
    )  # fmt: skip
    game.expect("Pass the keyboard to seat 0")
    game.type("\r")
    game.expect("seat 0 > ")
    seat_1_seen = re.compile(r"^(▶ )?1 (?!\(you\))")  # seat 1's row, as another seat sees it
    for _ in range(3):  # seat 0's table drawn again and again: it scrolls up out of sight
        game.type("table\r")
        game.expect("seat 0 > ")
    history = game.lines()[: -game.rows]
    assert any(seat_1_seen.match(line) for line in history)  # seat 1's feather, scrolled up
    game.type("guess 3\r")
    game.expect("Pass the keyboard to seat 1")
    assert not any("0 (you)" in line or seat_1_seen.match(line) for line in game.lines())
    game.type("guess 7\r")  # typed at the pass screen, before seat 1's table is shown
    game.expect("seat 1 > ")
    lines = game.lines()
    assert not any("0 (you)" in line or seat_1_seen.match(line) for line in lines), lines
    assert any(re.match(r"^(▶ )?1 \(you\) +▒▒", line) for line in lines)  # hidden from seat 1
    assert "Ignored 'guess 7', typed before this table was shown" in game.text
    assert "You guess 7" not in game.text and "Seat 1 guesses 7" not in game.text


# --- never lose a game --------------------------------------------------------------------------
def saved_file(folder: Path) -> Path:
    (path,) = folder.glob("campfire-powwow-*.json")
    return path


@pytest.mark.parametrize(
    ("key", "goodbye", "status"),
    [("\x03", "Interrupted: you left the game.", 130), ("\x04", "You left the game.", 0)],
)
def test_ctrl_c_or_ctrl_d_at_the_prompt_leaves_with_the_game_saved_and_named(
    terminals: list[Terminal], tmp_path: Path, key: str, goodbye: str, status: int
) -> None:
    game = start(
        terminals, tmp_path, "play", "powwow", "--seed", "1", "--pace", "0", columns=250
    )  # wide enough for the file's whole name on one line
    game.expect("seat 0 > ")
    game.type("guess 5\r")
    game.expect("seat 0 > ")
    game.type(key)
    game.expect(goodbye)
    assert game.wait() == status
    path = saved_file(tmp_path)
    assert f"The game is saved in {path}: resume it with" in " ".join(game.text.split())
    assert {"player": 0, "action": "guess", "value": 5} in Record.load(path).moves
    assert Record.load(path).replay().to_move == 0


def test_ctrl_c_while_the_bots_play_saves_the_game_up_to_the_last_whole_move(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    game = start(terminals, tmp_path, "play", "powwow", "--seed", "1", "--pace", "30")
    game.expect("seat 0 > ")
    game.type("guess 5\r")
    game.expect("Seat 1 guesses")  # then the bots wait 30 s a move
    game.type("\x03")
    game.expect("Interrupted")
    assert game.wait() == 130
    record = Record.load(saved_file(tmp_path))
    assert record.moves[-1]["player"] == 1  # seat 1's guess, the last move made
    assert record.replay().to_move == 2


def test_the_finished_game_waits_to_be_saved_and_record_writes_every_move(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    kept = tmp_path / "kept.json"
    game = start(
        terminals, tmp_path, "play", "powwow", "--players", "2", "--option", "buzzards=1",
        "--seed", "1", "--pace", "0", "--record", str(kept), columns=250,
    )  # fmt: skip
    game.expect("seat 0 > ")
    game.type("guess 30\r")
    game.expect("seat 0 > ")
    # written as the game goes: the guess and the bot's answer are in the file already
    assert Record.load(kept).moves[-2:] == [
        {"player": 0, "action": "guess", "value": 30},
        {"player": 1, "action": "guess", "value": 185},
    ]
    game.type("dispute\r")
    game.expect("game over > ")  # the program waits
    assert Record.load(kept).replay().is_terminal
    game.type("sav\r")
    game.expect("did you mean 'save'?")
    game.type(f"save {tmp_path / 'end.json'}\r")
    game.expect(f"Saved to {tmp_path / 'end.json'}")
    assert Record.load(tmp_path / "end.json").replay().winners() == [0]
    game.type("quit\r")
    game.expect("Goodbye.")
    assert game.wait() == 0
    assert not list(tmp_path.glob("campfire-*.json"))  # saved already: nothing more to keep


def test_interrupting_a_recorded_game_names_the_record_and_writes_no_other_file(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    kept = tmp_path / "kept.json"
    game = start(
        terminals, tmp_path, "play", "wakatanka", "--seed", "2", "--pace", "0",
        "--record", str(kept), columns=250,
    )  # fmt: skip
    game.expect("seat 0 > ")
    game.type("\x03")
    game.expect("Interrupted")
    assert game.wait() == 130
    assert f"The game is saved in {kept}" in " ".join(game.text.split())
    assert Record.load(kept).replay().to_move == 0
    assert [p.name for p in tmp_path.iterdir()] == ["kept.json"]


def test_review_after_the_game_judges_every_move_and_save_still_works(
    terminals: list[Terminal], tmp_path: Path
) -> None:
    game = start(
        terminals, tmp_path, "play", "powwow", "--players", "2", "--option", "buzzards=1",
        "--seed", "1", "--pace", "0", columns=250,
    )  # fmt: skip
    game.expect("seat 0 > ")
    game.type("guess 30\r")
    game.expect("seat 0 > ")
    game.type("dispute\r")
    game.expect("game over > ")
    game.type("review\r")
    game.expect("Reviewing the game")
    you = game.expect(re.compile(r"You \(seat 0\)( \(won\))?: accuracy (\d+\.\d)%"))
    game.expect(re.compile(r"Seat 1 \([a-z]+ bot\)( \(won\))?: accuracy"))
    game.expect("game over > ")
    # the same review as `campfire review` gives of the saved game, move by move
    game.type(f"save {tmp_path / 'end.json'}\r")
    game.expect(f"Saved to {tmp_path / 'end.json'}")
    from campfire.review import review_record

    review = review_record(Record.load(tmp_path / "end.json"))
    assert f"accuracy {review.summary(0)['accuracy']:.1f}%" in you
    seat0 = review.of_seat(0)
    assert [d.played for d in seat0] == [
        {"action": "guess", "value": 30},
        {"action": "dispute"},
    ]
    for d in seat0:
        assert d.label in game.text
        if d.best != d.played:
            assert d.note in game.text
    game.type("review 5\r")
    game.expect("write 'review' for every seat, or 'review SEAT' for one")
    game.type("quit\r")
    game.expect("Goodbye.")
    assert game.wait() == 0
