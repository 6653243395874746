"""`campfire simulate`: bot games, their summary and their records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from campfire.kernel import Record, get_game
from tests.cli.conftest import Run


@pytest.mark.parametrize(("game", "players"), [("powwow", 5), ("wakatanka", 4)])
def test_summary_and_records(campfire: Run, tmp_path: Path, game: str, players: int) -> None:
    result = campfire(
        "simulate",
        game,
        "--players",
        str(players),
        "--games",
        "12",
        "--seed",
        "4",
        "--records",
        str(tmp_path),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 12 and summary["players"] == players
    assert len(summary["wins"]) == players and sum(summary["wins"]) >= 12
    assert summary["moves"]["min"] <= summary["moves"]["mean"] <= summary["moves"]["max"]
    # the rate is the games over the time they took (what the time is, is not a test's business)
    assert summary["seconds"] > 0
    # both are rounded (seconds to 1 ms, the rate to 0.1): the rate lies within what they allow
    low, high = summary["seconds"] - 0.0005, summary["seconds"] + 0.0005
    assert 12 / high - 0.05 <= summary["games_per_second"] <= 12 / max(low, 1e-9) + 0.05
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 12
    wins = [0] * players
    lengths = []
    tallies: dict[str, float] = {}
    for path in files:
        state = Record.load(path).replay()
        assert state.is_terminal
        for seat in state.winners():
            wins[seat] += 1
        lengths.append(sum(1 for e in state.history if hasattr(e, "seat")))
        for key, value in get_game(game).tally(state).items():
            tallies[key] = tallies.get(key, 0) + value / 12
    assert wins == summary["wins"]
    assert summary["moves"] == {"mean": sum(lengths) / 12, "min": min(lengths), "max": max(lengths)}
    assert tallies and all(summary[key] == pytest.approx(v) for key, v in tallies.items())


def test_the_same_seed_gives_the_same_games(campfire: Run, tmp_path: Path) -> None:
    for run in ("a", "b"):
        result = campfire(
            "simulate", "wakatanka", "--games", "3", "--seed", "9", "--records", str(tmp_path / run)
        )
        assert result.returncode == 0, result.stderr
    for path in (tmp_path / "a").glob("*.json"):
        assert path.read_text() == (tmp_path / "b" / path.name).read_text()


def test_human_readable_summary(campfire: Run) -> None:
    result = campfire(
        "simulate", "powwow", "--games", "5", "--option", "tomahawks=true", "--option", "buzzards=2"
    )
    assert result.returncode == 0, result.stderr
    assert (
        "win rate" in result.stdout
        and "games/s" in result.stdout
        and "rounds per game" in result.stdout
    )


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--bots", "genius"], "unknown bot level 'genius'"),
        (["--bots", "random,random"], "names 2 levels for 4 seats"),
        (["--option", "buzzards=99"], "option 'buzzards'"),
        (["--option", "oops"], "key=value"),
        (["--players", "12"], "2 to 8 players"),
        (["--games", "0"], "at least 1"),
    ],
)
def test_bad_arguments_get_one_clear_line(campfire: Run, args: list[str], reason: str) -> None:
    result = campfire("simulate", "powwow", *args)
    assert result.returncode == 2
    assert reason in result.stderr and "Traceback" not in result.stderr


def test_unknown_game(campfire: Run) -> None:
    result = campfire("simulate", "chess")
    assert result.returncode == 2 and "unknown game 'chess'" in result.stderr
