"""The arena: seat rotation, the tally of wins and ratings, intervals, processes, the plot."""

from __future__ import annotations

from pathlib import Path

import pytest

from campfire.bots.arena import (
    ArenaReport,
    GameResult,
    lineup,
    play_game,
    plot,
    run_arena,
    tally,
    wilson,
)
from campfire.bots.match import play_one
from campfire.kernel import Record, get_game


def test_wilson_interval_contains_the_rate_and_narrows_with_more_games() -> None:
    lo, hi = wilson(30, 100)
    assert lo < 0.3 < hi
    lo2, hi2 = wilson(300, 1000)
    assert hi2 - lo2 < hi - lo
    assert wilson(0, 50)[0] == pytest.approx(0.0) and wilson(50, 50)[1] == pytest.approx(1.0)
    # the textbook value: 95% interval of 8/10 is about (0.490, 0.943)
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)


def test_each_bot_takes_each_seat_in_turn() -> None:
    levels = ["hard", "medium", "easy", "random"]
    seats = [lineup(levels, i) for i in range(4)]
    assert seats[0] == levels
    for seat in range(4):
        assert sorted(s[seat] for s in seats) == sorted(levels)


def result(index: int, seats: tuple[str, ...], winners: tuple[int, ...]) -> GameResult:
    return GameResult(index, seats, winners, 10, tuple((name, 0.01, 5) for name in seats))


def test_tally_counts_a_bot_named_twice_together_and_shares_ties() -> None:
    report = ArenaReport("powwow", 3, {}, ["hard", "medium", "medium"], 0)
    games = [
        result(0, ("hard", "medium", "medium"), (0,)),
        result(1, ("medium", "medium", "hard"), (2,)),
        result(2, ("medium", "hard", "medium"), (0, 1)),  # a tie: half a win each
    ]
    tally(report, games)
    data = report.to_json()
    assert data["games"] == 3
    assert data["bots"]["hard"]["games"] == 3 and data["bots"]["medium"]["games"] == 6
    assert data["bots"]["hard"]["wins"] == 2.5 and data["bots"]["medium"]["wins"] == 0.5
    assert data["bots"]["hard"]["win_rate"] == pytest.approx(2.5 / 3, abs=1e-4)
    assert data["bots"]["hard"]["rating"] > data["bots"]["medium"]["rating"]
    lo, hi = data["bots"]["medium"]["ci95"]
    assert lo <= 0.5 / 6 <= hi


def test_a_game_of_the_arena_is_the_game_simulate_plays() -> None:
    levels = ["medium", "random", "easy"]
    game = play_game("wakatanka", 3, {}, levels, 7, 4)
    seats = lineup(levels, 4)
    same = play_one(get_game("wakatanka"), 3, {}, seats, "7/4")
    assert game.winners == tuple(same.winners())
    assert game.seats == tuple(seats)
    assert Record.of(same).replay().winners() == list(game.winners)


def test_processes_do_not_change_the_report() -> None:
    args = ("powwow", 3, ["medium", "easy", "random"], 12, 5, {"tomahawks": True})
    one = run_arena(*args, jobs=1).to_json()
    two = run_arena(*args, jobs=2).to_json()
    for data in (one, two):
        data.pop("seconds")
        for row in data["bots"].values():
            row.pop("ms_per_decision")
    assert one == two
    assert sum(row["wins"] for row in one["bots"].values()) == pytest.approx(12)


def test_runs_from_a_later_game_extend_an_earlier_run() -> None:
    args = ("wakatanka", 3, ["medium", "easy", "random"])
    whole = run_arena(*args, 6, 5).bots
    parts = [run_arena(*args, 3, 5, first=0).bots, run_arena(*args, 3, 5, first=3, jobs=2).bots]
    for name, record in whole.items():
        assert [p[name].games for p in parts] == [3, 3]
        assert sum(p[name].wins for p in parts) == pytest.approx(record.wins)
    assert run_arena(*args, 3, 5, first=3).bots["medium"].wins == parts[1]["medium"].wins


def test_progress_is_told_game_by_game() -> None:
    heard: list[int] = []
    run_arena("powwow", 2, ["easy", "random"], 5, 1, progress=heard.append)
    assert heard == [1, 2, 3, 4, 5]


def test_the_plot_is_a_png(tmp_path: Path) -> None:
    report = run_arena("powwow", 2, ["medium", "random"], 4, 0)
    path = tmp_path / "rates.png"
    plot(report, str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
