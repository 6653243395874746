"""Finishing rankings, openskill updates and per-game statistics (campfire.ratings)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from campfire.kernel.records import Record
from campfire.ratings import (
    PROVISIONAL_GAMES,
    Skill,
    add_up,
    bot_skill,
    finishing_ranks,
    game_stats,
    initial,
    places,
    provisional,
    rate,
)

RECORDS = Path(__file__).parents[1] / "data" / "records"


def load(name: str) -> tuple[Record, dict[str, Any]]:
    record = Record.load(RECORDS / f"{name}.json")
    expected = json.loads((RECORDS / f"{name}.expected.json").read_text())
    return record, expected


def fake(game: str, **fields: Any) -> Any:
    winners = fields.pop("winners")
    return SimpleNamespace(
        game=SimpleNamespace(name=game), is_terminal=True, winners=lambda: winners, **fields
    )


def test_places_share_ties_and_skip() -> None:
    assert places([(0.0,), (1.0,), (1.0,), (2.0,)]) == [1, 2, 2, 4]


def test_powwow_winner_then_later_out_is_better() -> None:
    record, expected = load("powwow-basic-4p")
    state = record.replay()
    ranks = finishing_ranks(state)
    (winner,) = expected["winners"]
    assert ranks[winner] == 1
    # the first out is last, the last out second
    out = expected["out"]
    assert [ranks[s] for s in out] == list(range(len(out) + 1, 1, -1))


def test_powwow_end_after_eliminations_places_the_survivors_by_buzzards() -> None:
    # seats 0 and 3 out (3 first); 1 won with 0 buzzards, 2 still in with 2
    state = fake("powwow", players=4, out=[3, 0], buzzards=[3, 0, 2, 3], winners=[1])
    assert finishing_ranks(state) == [3, 1, 2, 4]


def test_powwow_several_winners_share_first() -> None:
    state = fake("powwow", players=4, out=[0, 3], buzzards=[3, 1, 1, 3], winners=[1, 2])
    assert finishing_ranks(state) == [4, 1, 1, 3]


def test_wakatanka_winner_then_tokens_then_fewer_cards() -> None:
    state = fake("wakatanka", players=4, tokens=[1, 4, 1, 2], hand_size=[5, 3, 2, 9], winners=[1])
    assert finishing_ranks(state) == [4, 1, 3, 2]
    tied = fake("wakatanka", players=3, tokens=[0, 1, 0], hand_size=[4, 0, 4], winners=[1])
    assert finishing_ranks(tied) == [2, 1, 2]


def test_wakatanka_example_record() -> None:
    record, expected = load("wakatanka-4p")
    ranks = finishing_ranks(record.replay())
    assert ranks[expected["winners"][0]] == 1
    others = [s for s in range(4) if s not in expected["winners"]]
    keys = {s: (-expected["tokens"][s], len(expected["hands"][s])) for s in others}
    for a in others:
        for b in others:
            if keys[a] < keys[b]:
                assert ranks[a] < ranks[b]


def test_a_player_who_left_ranks_last_even_as_the_winner() -> None:
    record, expected = load("powwow-basic-4p")
    state = record.replay()
    (winner,) = expected["winners"]
    ranks = finishing_ranks(state, left=[winner])
    assert ranks[winner] == 4
    assert sorted(ranks) == [1, 2, 3, 4]
    both = finishing_ranks(state, left=[winner, expected["out"][-1]])
    assert both[winner] == both[expected["out"][-1]] == 3


def test_an_unfinished_game_has_no_ranking() -> None:
    record, _ = load("powwow-basic-4p")
    with pytest.raises(ValueError, match="finished"):
        finishing_ranks(record.replay(upto=5))


def test_rate_moves_people_by_rank_and_never_a_bot() -> None:
    start = initial()
    bot = Skill(30.0, 2.0)
    after = rate([start, start, bot, start], [2, 1, 3, 4], [False, False, True, False])
    assert after[2] == bot
    assert after[1].mu > after[0].mu > start.mu > after[3].mu
    assert all(s.sigma < start.sigma for i, s in enumerate(after) if i != 2)
    assert start.shown == 1500


def test_losing_to_a_strong_bot_costs_less_than_to_a_weak_one() -> None:
    start = initial()
    lost_to_strong = rate([start, Skill(35.0, 1.0)], [2, 1], [False, True])[0]
    lost_to_weak = rate([start, Skill(15.0, 1.0)], [2, 1], [False, True])[0]
    assert lost_to_weak.mu < lost_to_strong.mu < start.mu


def test_rate_refuses_mismatched_input() -> None:
    with pytest.raises(ValueError, match="one skill"):
        rate([initial()], [1, 2], [False])
    with pytest.raises(ValueError, match="two players"):
        rate([initial()], [1], [False])


def test_provisional_until_enough_games() -> None:
    assert provisional(PROVISIONAL_GAMES - 1)
    assert not provisional(PROVISIONAL_GAMES)


def test_every_bot_level_has_a_fixed_skill_rising_with_strength() -> None:
    from campfire.kernel.registry import get_game

    for game in ("powwow", "wakatanka"):
        levels = list(get_game(game).bot_levels())
        shown = [bot_skill(game, level).shown for level in levels]
        assert shown[0] < shown[-1], (game, shown)
        assert shown[levels.index("random")] < shown[levels.index("medium")]


def test_powwow_stats_match_the_rounds() -> None:
    record, expected = load("powwow-basic-4p")
    stats = game_stats(record)
    for seat, counts in enumerate(stats):
        rounds = [r for r in expected["rounds"] if seat in (r["owner"], r["disputer"])]
        assert counts["disputes_lost"] == sum(r["loser"] == seat for r in rounds)
        assert counts["disputes_won"] == sum(r["loser"] != seat for r in rounds)
        owned = [r for r in expected["rounds"] if r["owner"] == seat]
        assert counts["guesses_disputed"] == len(owned)
        assert counts["guesses_held"] == sum(r["total"] >= r["guess"] for r in owned)
        guesses = [m for m in record.moves if m.get("action") == "guess" and m["player"] == seat]
        assert counts["guesses"] == len(guesses)
    assert add_up(stats)["disputes_lost"] == len(expected["rounds"])


def test_wakatanka_stats_count_bluffs_and_calls() -> None:
    record, _ = load("wakatanka-4p")
    stats = game_stats(record)
    plays = [m for m in record.moves if m.get("action") == "play"]
    total = add_up(stats)
    assert total["bluffs_played"] == sum(m["card"] != m["tile"] for m in plays)
    assert total["calls"] == sum(m.get("action") == "call" for m in record.moves)
    # every right call caught exactly one bluff
    assert total["calls_right"] == total["bluffs_caught"] <= total["bluffs_played"]
    assert total["calls_right"] <= total["calls"]


def test_stats_of_an_unknown_game_are_refused() -> None:
    record, _ = load("powwow-basic-4p")
    record.game = "chess"
    with pytest.raises(ValueError, match="chess"):
        game_stats(record)
