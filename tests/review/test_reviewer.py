"""The reviewer: one decision per player move, legal best moves, honest judgements.

Judgements depend on a seat's views only: at points of a game, a copy of the seat's judge (its
reading of the table as it stands) judges the move on a twin position, re-dealt in everything
the seat cannot see, and must say exactly what the judge says on the real one.
"""

from __future__ import annotations

import random
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest

from campfire.bots import make_bot
from campfire.games.powwow.review import PowwowJudge
from campfire.games.wakatanka.review import WakatankaJudge
from campfire.kernel import PlayerMove, Record, RecordError, get_game
from campfire.kernel.records import entry_from_json
from campfire.review import LABELS, THRESHOLDS, Review, judge_for, label, review_record
from campfire.review.reviewer import _decide

DATA = Path(__file__).parent.parent / "data" / "records"
RECORDS = ["powwow-basic-4p.json", "powwow-tomahawks-5p.json", "wakatanka-4p.json"]


def small(name: str) -> Any:
    """A judge with a small budget: the same evaluation, fewer worlds (quicker tests)."""
    return PowwowJudge(budget=200) if name == "powwow" else WakatankaJudge(worlds=6, horizon=5)


@pytest.fixture(scope="module")
def reviews() -> dict[str, tuple[Record, Review]]:
    out = {}
    for name in RECORDS:
        record = Record.load(DATA / name)
        out[name] = (record, review_record(record, judge=small(record.game)))
    return out


@pytest.mark.parametrize("name", RECORDS)
def test_exactly_one_decision_per_player_move(
    reviews: dict[str, tuple[Record, Review]], name: str
) -> None:
    record, review = reviews[name]
    moves = [i for i, raw in enumerate(record.moves) if "player" in raw]
    assert [d.index for d in review.decisions] == moves
    assert [d.seat for d in review.decisions] == [record.moves[i]["player"] for i in moves]
    for d in review.decisions:
        raw = dict(record.moves[d.index])
        del raw["player"]
        assert d.played == raw  # as the record writes it


@pytest.mark.parametrize("name", RECORDS)
def test_each_best_move_is_legal_on_its_position(
    reviews: dict[str, tuple[Record, Review]], name: str
) -> None:
    record, review = reviews[name]
    game = get_game(record.game)
    differs = 0
    for d in review.decisions:
        state = record.replay(d.index)
        assert state.to_move == d.seat
        state.apply(game.action_from_json(d.best), seat=d.seat)  # raises if illegal
        differs += d.best != d.played
        assert 0.0 <= d.loss <= 1.0
        assert d.label == label(d.loss)
        assert (d.loss == 0.0) == (d.best == d.played)
        assert d.note
    assert differs > 0  # some moves were found wanting, so the check covers a real best move


@pytest.mark.parametrize("name", RECORDS)
def test_seat_figures_follow_the_decisions(
    reviews: dict[str, tuple[Record, Review]], name: str
) -> None:
    record, review = reviews[name]
    data = review.to_json()
    assert set(data) == {"game", "players", "decisions", "seats"}
    assert data["game"] == record.game and data["players"] == record.players
    assert set(data["seats"]) == {str(s) for s in range(record.players)}
    for seat, figures in data["seats"].items():
        assert set(figures) == {"accuracy", "mistakes", "blunders"}
        mine = [d for d in data["decisions"] if d["seat"] == int(seat)]
        losses = [d["loss"] for d in mine]
        assert figures["accuracy"] == pytest.approx(100 * (1 - sum(losses) / len(losses)), abs=0.1)
        assert figures["mistakes"] == sum(d["label"] == "mistake" for d in mine)
        assert figures["blunders"] == sum(d["label"] == "blunder" for d in mine)
        for d in mine:
            assert set(d) == {"index", "seat", "played", "best", "loss", "label", "note"}


def test_statistics_teach_what_happened(reviews: dict[str, tuple[Record, Review]]) -> None:
    record, review = reviews["powwow-basic-4p.json"]
    rounds = get_game("powwow").summary(record.replay())["rounds"]
    stats = review.statistics
    assert sum(s["disputes_right"] + s["disputes_wrong"] for s in stats.values()) == len(rounds)
    assert sum(s["disputes_wrong"] + s["guesses_failed"] for s in stats.values()) == len(rounds)
    record, review = reviews["wakatanka-4p.json"]
    stats = review.statistics
    reveals = record.replay().view(None).reveals
    calls = [r for r in reveals if r.action == "call"]
    assert sum(s["calls_right"] + s["calls_wrong"] for s in stats.values()) == len(calls)
    assert sum(s["bluffs_caught"] for s in stats.values()) == sum(r.success for r in calls)
    for seat, s in stats.items():
        assert s["bluffs_caught"] <= s["bluffs_played"]
        assert s["spells_won"] <= s["spells_cast"]
        bluffs = [
            raw
            for raw in record.moves
            if raw.get("player") == seat
            and raw.get("action") == "play"
            and raw["card"] != raw["tile"]
        ]
        assert s["bluffs_played"] == len(bluffs)


def test_labels_and_their_thresholds() -> None:
    assert [label(x) for x in (0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 1.0)] == [
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert list(THRESHOLDS) == list(LABELS)


def test_a_forced_move_loses_nothing_and_asks_no_judge() -> None:
    class NoJudge:
        def observe(self, view: Any) -> None:
            raise AssertionError("not asked")

        def judge(self, view: Any, legal: Any, played: Any) -> Any:
            raise AssertionError("a forced move needs no judgement")

    game = get_game("wakatanka")
    record = Record.load(DATA / "wakatanka-4p.json")
    index = next(i for i, raw in enumerate(record.moves) if "player" in raw)
    state = record.replay(index)
    move = entry_from_json(game, record.moves[index])
    assert isinstance(move, PlayerMove)
    decision = _decide(game, index, move, None, [move.action], {move.seat: NoJudge()})
    assert (decision.loss, decision.label, decision.forced) == (0.0, "good", True)
    assert decision.best == decision.played
    assert state.to_move == move.seat


def test_unfinished_records_and_absent_seats_are_refused() -> None:
    record = Record.load(DATA / "powwow-basic-4p.json")
    unfinished = Record(record.game, record.players, record.options, record.moves[:-3])
    with pytest.raises(RecordError, match="not finished"):
        review_record(unfinished)
    with pytest.raises(ValueError, match="no seat 4"):
        review_record(record, seats=[4])
    only = review_record(record, seats=[2], judge=small("powwow"))
    assert {d.seat for d in only.decisions} == {2}
    assert list(only.to_json()["seats"]) == ["2"]


def test_the_package_wires_the_judge_one_way() -> None:
    assert isinstance(judge_for(get_game("powwow")), PowwowJudge)
    assert isinstance(judge_for(get_game("wakatanka")), WakatankaJudge)
    for name in ("powwow", "wakatanka"):
        rules = Path(__file__).parents[2] / "src" / "campfire" / "games" / name / "game.py"
        assert "review" not in rules.read_text()
        judge = rules.with_name("review.py").read_text()
        assert f"campfire.games.{name}.game" not in judge and "import GAME" not in judge


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("powwow", 4, {}), ("powwow", 3, {"tomahawks": True}), ("wakatanka", 4, {})],
)
def test_judgements_ignore_what_the_seat_could_not_see(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = get_game(name)
    rng = random.Random(11)
    state = game.new_state(players, options)
    bots = [make_bot(game, "medium" if s % 2 else "easy", s) for s in range(players)]
    judge = small(name)
    judges = {s: judge.seat(s, players) for s in range(players)}
    compared = differed = 0
    while not state.is_terminal and compared < 10:
        seat = state.to_move
        if seat is None:
            state.apply(state.sample_chance(rng))
            continue
        for s, seat_judge in judges.items():
            seat_judge.observe(state.view(s))
        view = state.view(seat)
        legal = state.legal_actions()
        played = bots[seat].choose(view, legal)
        if len(state.history) % 3 == 0:
            twin = game.sample_state(view, random.Random(len(state.history)), chance=state.mode)
            assert twin.view(seat) == view
            differed += _hidden(twin) != _hidden(state)
            copy = deepcopy(judges[seat])  # the reading of the table as it stands
            on_twin = copy.judge(twin.view(seat), twin.legal_actions(), played)
            real = judges[seat].judge(view, legal, played)
            assert on_twin == real
            compared += 1
        state.apply(played)
    assert compared >= 5
    assert differed >= 3  # the twins really were dealt differently


def _hidden(state: Any) -> Any:
    if state.game.name == "powwow":
        return [list(w) for w in state.worn]
    return [list(h) for h in state.hands]
