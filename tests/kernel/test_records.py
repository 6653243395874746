"""Records: reading, writing, replaying, and refusing with a reason that names the entry."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from campfire.games.powwow import PowwowState
from campfire.kernel import RandomBot, Record, RecordError, get_game

EXAMPLES = Path(__file__).parent.parent / "data" / "records"


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = get_game("powwow")
    state = game.new_state(3, {"tomahawks": True})
    state.play_out([RandomBot(1)] * 3, random.Random(1))
    path = tmp_path / "game.json"
    Record.of(state).save(path)
    data = json.loads(path.read_text())
    assert data["format"] == 1 and data["game"] == "powwow" and data["players"] == 3
    assert data["options"]["tomahawks"] is True
    again = Record.load(path).replay()
    assert again.winners() == state.winners() and again.is_terminal


def test_options_may_be_omitted_or_partial() -> None:
    record = Record.from_json({"format": 1, "game": "powwow", "players": 3, "moves": []})
    state = record.replay()
    assert isinstance(state, PowwowState)
    assert state.options.buzzards == 3 and state.chance_due() is not None


SEATS: list[dict[str, str | None]] = [
    {"name": None, "bot": None},
    {"name": "Dana", "bot": None},
    {"name": None, "bot": "medium"},
    {"name": "Bot 3", "bot": "hard"},
]


def test_the_seats_header_is_kept_and_replay_ignores_it(tmp_path: Path) -> None:
    state = get_game("wakatanka").new_state(4)
    state.play_out([RandomBot(1)] * 4, random.Random(2))
    path = tmp_path / "game.json"
    Record.of(state, seats=SEATS).save(path)
    data = json.loads(path.read_text())
    assert list(data) == ["format", "game", "players", "options", "seats", "moves"]
    assert data["seats"] == SEATS
    loaded = Record.load(path)
    assert loaded.seats == SEATS
    assert loaded.replay().view(None).to_json() == state.view(None).to_json()
    assert "seats" not in Record.of(state).to_json()  # left out when nobody said
    assert Record.from_json(base()).seats is None


@pytest.mark.parametrize(
    ("seats", "reason"),
    [
        ({}, "'seats' must be a list with one object per seat"),
        (SEATS[:3], "'seats' lists 3 seats for 4 players"),
        ([*SEATS[:3], None], "'seats' entry 3 must be an object with exactly 'name' and 'bot'"),
        ([*SEATS[:3], {"name": None}], "entry 3 must be an object with exactly 'name' and 'bot'"),
        ([*SEATS[:3], {**SEATS[3], "x": "1"}], "entry 3 must be an object with exactly"),
        ([*SEATS[:3], {"name": 3, "bot": None}], "entry 3: 'name' must be a string or null"),
        ([*SEATS[:3], {"name": None, "bot": True}], "entry 3: 'bot' must be a string or null"),
    ],
)
def test_a_malformed_seats_header_is_refused(seats: Any, reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        Record.from_json(base(seats=seats))


def base(**changes: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": 1,
        "game": "wakatanka",
        "players": 4,
        "options": {},
        "moves": [],
    }
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    ("doc", "reason"),
    [
        ([], "must be a JSON object"),
        (base(format=2), "unsupported format 2"),
        ({k: v for k, v in base().items() if k != "format"}, "no 'format'"),
        (base(game="chess"), "unknown game 'chess'"),
        (base(players=7), "3 to 6 players, not 7"),
        (base(players="4"), "'players' must be a whole number"),
        (base(players=True), "'players' must be a whole number"),
        (base(options=[]), "'options' must be an object"),
        (base(moves={}), "'moves' must be a list"),
        (base(extra=1), "unknown key 'extra'"),
    ],
)
def test_malformed_documents_are_refused(doc: Any, reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        Record.from_json(doc)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"speed": 1}, "unknown option 'speed'"),
        ({"first_player": "0"}, "first_player"),
        ({"first_player": 9}, "no seat 9"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], reason: str) -> None:
    with pytest.raises(RecordError, match=reason):
        Record.from_json(base(options=options)).replay()


def test_an_illegal_entry_is_named_by_index() -> None:
    example = json.loads((EXAMPLES / "wakatanka-4p.json").read_text())
    example["moves"][5] = {"player": 3, "action": "spell", "tile": "coyote"}
    with pytest.raises(RecordError) as caught:
        Record.from_json(example).replay()
    assert caught.value.index == 5
    assert str(caught.value).startswith(
        'entry 5 {"player": 3, "action": "spell", "tile": "coyote"}: '
    )
    assert "no cards on coyote" in str(caught.value)


def test_a_wrong_permutation_is_refused() -> None:
    example = json.loads((EXAMPLES / "powwow-basic-4p.json").read_text())
    example["moves"][0]["order"][0] = "20"
    with pytest.raises(RecordError, match=r"entry 0 .*missing 15.*not being shuffled 20"):
        Record.from_json(example).replay()


def test_an_unfinished_record_is_a_position_not_an_error() -> None:
    example = json.loads((EXAMPLES / "powwow-basic-4p.json").read_text())
    example["moves"] = example["moves"][:13]  # ends right before a zero reshuffle
    state = Record.from_json(example).replay()
    assert not state.is_terminal and state.to_move is None and state.chance_due() is not None


def test_entries_after_the_end_are_refused() -> None:
    example = json.loads((EXAMPLES / "powwow-basic-4p.json").read_text())
    example["moves"].append({"player": 2, "action": "guess", "value": 1})
    with pytest.raises(RecordError, match=r"entry 40 .*the game is over"):
        Record.from_json(example).replay()
