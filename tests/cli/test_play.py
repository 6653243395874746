"""`campfire play`: whole games typed in from a script, the way a person (or a script) plays."""

from __future__ import annotations

import json
import re
from pathlib import Path

from campfire.games.wakatanka import CARDS, TILES
from campfire.kernel import Record
from tests.cli.conftest import Run

POWWOW_SCRIPT = ["dispute", "guess -20", "guess 200"] * 2000
WAKATANKA_SCRIPT = (["accept", "call"] + [f"play {t} {c}" for t in TILES for c in CARDS]) * 400


def test_a_scripted_powwow_game_runs_to_the_end(campfire: Run) -> None:
    result = campfire(
        "play",
        "powwow",
        "--players",
        "4",
        "--bots",
        "random",
        "--seed",
        "5",
        "--option",
        "tomahawks=true",
        stdin="\n".join(POWWOW_SCRIPT),
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    out = result.stdout
    assert "Pow Wow — seat 0: you, seat 1: random bot" in out
    assert "Round 1 begins" in out and "The total is" in out
    assert "Winner" in out and "game over" in out
    assert "Used pile" in out and "Stack:" in out  # the table is drawn
    assert "there is no guess to dispute yet" in out  # a refused command is explained


def test_a_scripted_wakatanka_game_runs_to_the_end(campfire: Run) -> None:
    result = campfire(
        "play",
        "wakatanka",
        "--players",
        "3",
        "--seed",
        "2",
        "--bots",
        "random",
        stdin="\n".join(WAKATANKA_SCRIPT),
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    out = result.stdout
    assert "Your hand:" in out and "Winner" in out
    assert "You place" in out  # your own face-down card is told to you


def test_mistyped_and_illegal_commands_get_a_message_and_the_same_prompt(campfire: Run) -> None:
    script = ["bogus", "guess", "guess twelve", "guess 300", "agree", "help", "table", "quit"]
    result = campfire("play", "powwow", "--seed", "1", stdin="\n".join(script))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "unknown command 'bogus'" in out
    assert "guess needs a number" in out
    assert "must be a whole number, not 'twelve'" in out
    assert "between -20 and 238, not 300" in out
    assert "tomahawks are not in play" in out
    assert "dispute" in out and "save FILE" in out  # help
    assert "guess N extra S" not in out  # without tomahawks, help leaves their commands out
    assert out.count("seat 0 > ") == len(script)
    assert "You left the game." in out


def test_save_then_resume(campfire: Run, tmp_path: Path) -> None:
    saved = tmp_path / "saved.json"
    result = campfire("play", "powwow", "--seed", "3", stdin=f"guess 4\nsave {saved}\nquit\n")
    assert result.returncode == 0, result.stderr
    assert f"Saved to {saved}" in result.stdout
    record = json.loads(saved.read_text())
    assert {"player": 0, "action": "guess", "value": 4} in record["moves"]
    position = Record.load(saved).replay()
    assert not position.is_terminal
    result = campfire(
        "play", "powwow", "--resume", str(saved), "--seed", "3", stdin="\n".join(POWWOW_SCRIPT)
    )
    assert result.returncode == 0, result.stderr
    assert "Winner" in result.stdout


def test_input_ending_early_says_so(campfire: Run) -> None:
    result = campfire("play", "wakatanka", "--seed", "1", stdin="")
    assert result.returncode == 1
    assert "Input ended before the game did" in result.stdout


def test_hot_seat_shows_only_public_events(campfire: Run) -> None:
    result = campfire(
        "play",
        "wakatanka",
        "--players",
        "3",
        "--seat",
        "0",
        "--seat",
        "1",
        "--bots",
        "random",
        "--seed",
        "4",
        stdin="\n".join(WAKATANKA_SCRIPT),
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "seat 0: person, seat 1: person, seat 2: random bot" in out
    assert "hand:" not in out.split("game over")[0].replace(
        "Your hand:", ""
    )  # no one's hand is told
    assert not re.search(r"places? an? \w+ on \w+", out)  # face-down cards stay untold
    assert "seat 1 > " in out and "seat 0 > " in out


def test_bots_option_can_seat_another_person(campfire: Run) -> None:
    result = campfire(
        "play",
        "powwow",
        "--players",
        "3",
        "--bots",
        "human,random",
        "--seed",
        "2",
        stdin="\n".join(POWWOW_SCRIPT),
    )
    assert result.returncode == 0, result.stderr
    assert "seat 0: person, seat 1: person, seat 2: random bot" in result.stdout


def test_bad_arguments(campfire: Run) -> None:
    for args, reason in [
        (["--seat", "5"], "no seat 5"),
        (["--bots", "random,random,random,random"], "names 4 levels for 3 seats"),
        (["--option", "tomahawks=maybe"], "option 'tomahawks'"),
    ]:
        result = campfire("play", "powwow", *args, stdin="quit\n")
        assert result.returncode == 2 and reason in result.stderr, result.stderr


# --- the command line's polish ------------------------------------------------------------------
def test_version(campfire: Run) -> None:
    from campfire import __version__

    result = campfire("--version")
    assert result.returncode == 0 and result.stdout == f"campfire {__version__}\n"


def test_bots_help_lists_every_level_and_the_header_names_each_bots_level(campfire: Run) -> None:
    from campfire.kernel.registry import games, get_game

    help_text = " ".join(campfire("play", "--help").stdout.split())
    for name in games():
        for level in get_game(name).bot_levels():
            assert level in help_text, level
    assert "human (another person at this keyboard)" in help_text
    result = campfire(
        "play", "powwow", "--players", "3", "--bots", "easy,medium", "--seed", "1", stdin=""
    )
    assert "Pow Wow — seat 0: you, seat 1: easy bot, seat 2: medium bot" in result.stdout


def test_a_mistyped_command_gets_did_you_mean_and_a_bare_number_is_a_guess(campfire: Run) -> None:
    script = ["gues 5", "disput", "tabel", "xyzzy", "7"]
    result = campfire("play", "powwow", "--seed", "1", stdin="\n".join(script))
    out = result.stdout
    assert "✗ unknown command 'gues': did you mean 'guess'" in out
    assert "did you mean 'dispute'?" in out and "did you mean 'table'?" in out
    assert "✗ unknown command 'xyzzy' (help lists them)" in out
    assert "You guess 7." in out


def test_yes_no_words_are_accepted_for_a_yes_or_no_option(campfire: Run, tmp_path: Path) -> None:
    for word, armed in [("yes", True), ("on", True), ("1", True), ("No", False), ("off", False)]:
        saved = tmp_path / f"{word}.json"
        result = campfire(
            "play", "powwow", "--option", f"tomahawks={word}", stdin=f"save {saved}\n"
        )
        assert f"Saved to {saved}" in result.stdout, result.stderr
        assert json.loads(saved.read_text())["options"]["tomahawks"] is armed
    result = campfire("play", "powwow", "--option", "buzzards=yes", stdin="")
    assert result.returncode == 2 and "option 'buzzards'" in result.stderr


# --- resuming: the same bots, and flags that contradict the record are refused ------------------
def saved_against_medium(campfire: Run, tmp_path: Path) -> Path:
    saved = tmp_path / "medium.json"
    result = campfire(
        "play", "powwow", "--players", "3", "--bots", "medium,hard", "--seed", "3",
        "--option", "buzzards=2", stdin=f"guess 4\nsave {saved}\n",
    )  # fmt: skip
    assert f"Saved to {saved}" in result.stdout, result.stderr
    return saved


def test_a_record_keeps_the_bot_levels_and_resume_seats_the_same_bots(
    campfire: Run, tmp_path: Path
) -> None:
    saved = saved_against_medium(campfire, tmp_path)
    record = json.loads(saved.read_text())
    assert record["seats"] == [
        {"name": None, "bot": None},
        {"name": None, "bot": "medium"},
        {"name": None, "bot": "hard"},
    ]
    # the same flags again, or none at all: the record's bots sit down again
    for flags in ([], ["--players", "3", "--option", "buzzards=2", "--bots", "medium,hard"]):
        result = campfire("play", "powwow", "--resume", str(saved), *flags, stdin="")
        assert result.returncode == 1, result.stderr  # input ended at seat 0's turn
        assert "seat 0: you, seat 1: medium bot, seat 2: hard bot" in result.stdout


def test_resume_refuses_flags_that_conflict_with_the_record(campfire: Run, tmp_path: Path) -> None:
    saved = saved_against_medium(campfire, tmp_path)
    for flags, reason in [
        (["--players", "4"], f"--players 4 conflicts with {saved}, a game of 3 players"),
        (["--option", "buzzards=3"], f"--option buzzards=3 conflicts with {saved}, played with"),
        (["--option", "tomahawks=yes"], "--option tomahawks=true conflicts with"),
        (["--option", "speed=1"], "unknown option 'speed'"),
        (["--bots", "random"], "--bots random conflicts with the record's seats (seat 0: human,"),
        (["--seat", "1"], "--seat 1 conflicts with the record, where people sat at 0"),
    ]:
        result = campfire("play", "powwow", "--resume", str(saved), *flags, stdin="")
        assert result.returncode == 2, (flags, result.stdout[-500:])
        assert result.stderr.startswith(f"campfire: {reason}"), result.stderr
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    record = json.loads(saved.read_text())
    record["seats"][2]["bot"] = "grandmaster"
    saved.write_text(json.dumps(record))
    result = campfire("play", "powwow", "--resume", str(saved), stdin="")
    assert result.returncode == 2 and "bot of level 'grandmaster'" in result.stderr
    record["seats"] = record["seats"][:2]
    saved.write_text(json.dumps(record))
    result = campfire("play", "powwow", "--resume", str(saved), stdin="")
    assert result.returncode == 2
    assert "'seats' lists 2 seats for 3 players" in result.stderr


def test_quit_asks_first_when_the_game_is_not_saved(campfire: Run, tmp_path: Path) -> None:
    saved = tmp_path / "kept.json"
    script = ["guess 4", "quit", "no", "quit", f"save {saved}", "quit"]
    result = campfire("play", "powwow", "--seed", "3", stdin="\n".join(script))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("The game is not saved: 'save FILE' keeps it") == 2
    assert out.count("Leave without saving? yes, no, or save FILE > ") == 2
    assert "Then play on." in out
    assert f"Saved to {saved}" in out and "You left the game." in out
    assert f"The game is saved in {saved}" in out
    assert Record.load(saved).replay().to_move == 0
    # saved already: quit leaves at once
    result = campfire("play", "powwow", "--resume", str(saved), stdin="quit\n")
    assert result.returncode == 0 and "Leave without saving?" not in result.stdout


def test_record_writes_the_whole_game_and_refuses_a_file_it_cannot_write(
    campfire: Run, tmp_path: Path
) -> None:
    kept = tmp_path / "kept.json"
    result = campfire(
        "play", "powwow", "--seed", "5", "--record", str(kept), stdin="\n".join(POWWOW_SCRIPT)
    )
    assert result.returncode == 0, result.stderr
    assert Record.load(kept).replay().is_terminal
    assert (
        Record.load(kept).seats
        == [{"name": None, "bot": None}] + [{"name": None, "bot": "random"}] * 3
    )
    result = campfire("play", "powwow", "--record", str(tmp_path / "no" / "such.json"), stdin="")
    assert result.returncode == 2
    assert result.stderr.startswith(f"campfire: cannot write the record to {tmp_path}/no/such")


def test_play_tells_its_errors_in_the_language_asked(campfire: Run) -> None:
    """`--lang` also speaks the command's own errors (the English ones stay as they were)."""
    result = campfire("play", "powwow", "--lang", "fr", "--players", "3", "--seat", "7")
    assert result.returncode == 2
    assert result.stderr == "campfire: il n'y a pas de place 7 avec 3 joueurs\n"
    result = campfire("play", "chess", "--lang", "de")
    assert result.returncode == 2
    assert result.stderr.startswith("campfire: unbekanntes Spiel 'chess' (Spiele: ")
    result = campfire("play", "powwow", "--lang", "en", "--players", "3", "--seat", "7")
    assert result.stderr == "campfire: there is no seat 7 with 3 players\n"


def test_play_tells_a_bad_resume_in_spanish(campfire: Run, tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    result = campfire("play", "powwow", "--lang", "es", "--resume", str(missing))
    assert result.returncode == 2
    assert result.stderr.startswith(f"campfire: no se puede reanudar {missing}: ")
    assert "Traceback" not in result.stderr
