"""`campfire odds` and the terminal's `odds` coach command (Pow Wow)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

from campfire.games.powwow.odds import seat_odds
from campfire.kernel import Record
from tests.cli.conftest import Run

EXAMPLES = Path("/work/shared/records/examples")


def unfinished(tmp_path: Path, entries: int) -> Path:
    """The basic 4-player example, cut short in its first round."""
    record = Record.load(EXAMPLES / "powwow-basic-4p.json")
    record.moves = record.moves[:entries]
    path = tmp_path / "cut.json"
    record.save(path)
    return path


def test_json_odds_are_exact_and_match_the_seat_view(campfire: Run, tmp_path: Path) -> None:
    path = unfinished(tmp_path, 3)
    result = campfire("odds", str(path), "--seat", "1", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    view = Record.load(path).replay().view(1)
    odds = seat_odds(view)
    assert data["seat"] == 1 and data["guess"] == view.guess
    assert sum(Fraction(row["exact"]) for row in data["distribution"]) == 1
    assert {row["total"]: Fraction(row["exact"]) for row in data["distribution"]} == {
        t: odds.exact(t) for t in odds.weights
    }
    guesses = [row["guess"] for row in data["at_least"]]
    assert view.guess in guesses and len(guesses) == 7
    for row in data["at_least"]:
        assert Fraction(row["exact"]) == odds.exact_at_least(row["guess"])
    from campfire.games.powwow.coach import coach

    assert data["read"] == coach(view)["read"]  # what the bidding reads, beside the blind odds


def test_odds_around_an_asked_guess(campfire: Run, tmp_path: Path) -> None:
    path = unfinished(tmp_path, 3)
    result = campfire("odds", str(path), "--seat", "1", "--json", "--guess", "30", "--around", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [row["guess"] for row in data["at_least"]] == [29, 30, 31]
    assert [row["guess"] for row in data["read"]["at_least"]] == [29, 30, 31]


def test_the_table_shows_the_standing_guess(campfire: Run, tmp_path: Path) -> None:
    result = campfire("odds", str(unfinished(tmp_path, 3)), "--seat", "2", "--around", "1")
    assert result.returncode == 0, result.stderr
    assert "← standing" in result.stdout and "P(total ≥ guess)" in result.stdout


def test_clear_errors(campfire: Run, tmp_path: Path) -> None:
    cases = [
        (["odds", str(EXAMPLES / "wakatanka-4p.json"), "--seat", "0"], "odds are for Pow Wow"),
        (
            ["odds", str(EXAMPLES / "powwow-basic-4p.json"), "--seat", "0"],
            "no round is in progress",
        ),
        (["odds", str(unfinished(tmp_path, 3)), "--seat", "7"], "there is no seat 7"),
        (["odds", str(tmp_path / "missing.json"), "--seat", "0"], "cannot read"),
    ]
    for args, message in cases:
        result = campfire(*args)
        assert result.returncode == 2, args
        assert message in result.stderr and "Traceback" not in result.stderr


def test_the_terminal_coach(campfire: Run) -> None:
    result = campfire(
        "play",
        "powwow",
        "--bots",
        "medium",
        "--seed",
        "3",
        stdin="help\nodds\nodds 25\nodds now\nquit\n",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"odds \[GUESS\] +the chances of the total", out)  # listed by help
    assert "Seat 0, round 1: your feather is unseen" in out
    assert "P(total ≥ guess)" in out
    assert "What the bidding says about your own feathers" in out  # the read beside the blind
    assert "25 ← asked" in out
    assert "'odds' takes nothing or one guess" in out


def test_no_coach_in_waka_tanka(campfire: Run) -> None:
    result = campfire("play", "wakatanka", "--bots", "medium", "--seed", "3", stdin="odds\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "unknown command 'odds'" in result.stdout
