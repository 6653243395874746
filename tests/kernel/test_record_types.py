"""Every field of a record with a JSON value of the wrong type is refused with a clear
`RecordError` naming the field, never accepted and never a traceback. Booleans are not numbers
(`true == 1` in Python), and `1.0` is not the whole number 1."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from campfire.games.wakatanka import deck
from campfire.kernel import Record, RecordError
from tests.builders import order_with_top

SHUFFLE = {"chance": "shuffle", "order": list(order_with_top([]))}
POWWOW: dict[str, Any] = {
    "format": 1,
    "game": "powwow",
    "players": 4,
    "options": {"tomahawks": True},
    "moves": [SHUFFLE, {"player": 0, "action": "guess", "value": 3, "extra_feather_to": 1}],
}
WAKATANKA: dict[str, Any] = {
    "format": 1,
    "game": "wakatanka",
    "players": 4,
    "options": {},
    "moves": [
        {"chance": "shuffle", "order": list(deck(4))},
        {"chance": "marker", "tile": "owl"},
        {"player": 0, "action": "play", "tile": "bear", "card": "bear"},
        {"player": 1, "action": "spell", "tile": "bear"},
    ],
}
#: JSON values of every type; each case below leaves out the ones the field may hold
VALUES: list[Any] = [True, False, 0, 1, 1.0, 2.5, "1", "", None, [], [1], {}, {"a": 1}]


def refused(document: dict[str, Any], match: str) -> None:
    with pytest.raises(RecordError, match=match):
        Record.from_json(document).replay()


def test_the_documents_used_here_are_valid() -> None:
    assert Record.from_json(copy.deepcopy(POWWOW)).replay().to_move == 1
    assert Record.from_json(copy.deepcopy(WAKATANKA)).replay().to_move == 2


def with_header(base: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    document = copy.deepcopy(base)
    document[key] = value
    return document


@pytest.mark.parametrize("value", [v for v in VALUES if not (type(v) is int and v == 1)])
def test_format_must_be_the_whole_number_1(value: Any) -> None:
    refused(with_header(POWWOW, "format", value), "format")


@pytest.mark.parametrize("value", VALUES)
def test_game_must_be_a_name(value: Any) -> None:
    refused(with_header(POWWOW, "game", value), "game")


@pytest.mark.parametrize("value", [*[v for v in VALUES if type(v) is not int], 4.0])
def test_players_must_be_a_whole_number(value: Any) -> None:
    refused(with_header(POWWOW, "players", value), "players")


@pytest.mark.parametrize("value", [v for v in VALUES if not isinstance(v, dict)])
def test_options_must_be_an_object(value: Any) -> None:
    refused(with_header(POWWOW, "options", value), "options")


@pytest.mark.parametrize("value", [v for v in VALUES if not isinstance(v, list)] + ["moves"])
def test_moves_must_be_a_list(value: Any) -> None:
    refused(with_header(POWWOW, "moves", value), "moves")


WHOLE_NUMBER_WRONG = [True, False, 3.0, 2.5, "3", None, [3], {}]


@pytest.mark.parametrize(
    ("game", "option", "value"),
    [
        *[("powwow", "buzzards", v) for v in WHOLE_NUMBER_WRONG],
        *[("powwow", "first_player", v) for v in WHOLE_NUMBER_WRONG],
        *[("powwow", "end_after_eliminations", v) for v in WHOLE_NUMBER_WRONG if v is not None],
        *[("powwow", "tomahawks", v) for v in [0, 1, 1.0, "true", None, [], {}]],
        *[("wakatanka", "first_player", v) for v in WHOLE_NUMBER_WRONG],
    ],
)
def test_option_of_the_wrong_type(game: str, option: str, value: Any) -> None:
    document = copy.deepcopy(POWWOW if game == "powwow" else WAKATANKA)
    document["options"] = {option: value}
    refused(document, f"option '{option}'")


def with_entry(base: dict[str, Any], index: int, **fields: Any) -> dict[str, Any]:
    document = copy.deepcopy(base)
    document["moves"][index].update(fields)
    return document


@pytest.mark.parametrize("value", [v for v in VALUES if not isinstance(v, dict)])
def test_an_entry_must_be_an_object(value: Any) -> None:
    document = copy.deepcopy(POWWOW)
    document["moves"][1] = value
    refused(document, "entry 1 .*must be a JSON object")


@pytest.mark.parametrize("value", [v for v in VALUES if v != "shuffle"])
def test_chance_kind_must_be_a_known_name(value: Any) -> None:
    refused(with_entry(POWWOW, 0, chance=value), "entry 0 .*unknown chance kind")


@pytest.mark.parametrize(
    "value", [*[v for v in VALUES if v != []], [1] * 36, [True] * 36, [None] * 36]
)
def test_shuffle_order_must_be_a_list_of_names(value: Any) -> None:
    refused(with_entry(POWWOW, 0, order=value), "entry 0 .*'order' must be a list of names")


@pytest.mark.parametrize("value", [v for v in VALUES if not isinstance(v, str)])
def test_marker_tile_must_be_a_name(value: Any) -> None:
    refused(with_entry(WAKATANKA, 1, tile=value), "entry 1 .*'tile' must be a name")


@pytest.mark.parametrize("value", [v for v in VALUES if type(v) is not int])
def test_player_must_be_a_seat_number(value: Any) -> None:
    refused(with_entry(POWWOW, 1, player=value), "entry 1 .*'player' must be a seat number")


@pytest.mark.parametrize("value", VALUES)
def test_action_must_be_a_known_name(value: Any) -> None:
    refused(with_entry(POWWOW, 1, action=value), "entry 1 .*unknown action")
    refused(with_entry(WAKATANKA, 2, action=value), "entry 2 .*unknown action")


@pytest.mark.parametrize("value", [True, False, 3.0, 2.5, "3", None, [3], {}])
def test_guess_value_must_be_a_whole_number(value: Any) -> None:
    refused(with_entry(POWWOW, 1, value=value), "entry 1 .*a guess is a whole number")


@pytest.mark.parametrize("value", [True, False, 1.0, "1", [1], {}])
def test_extra_feather_to_must_be_a_seat_number(value: Any) -> None:
    refused(with_entry(POWWOW, 1, extra_feather_to=value), "entry 1 .*'extra_feather_to'")


@pytest.mark.parametrize("value", [v for v in VALUES if v != ""] + ["Owl"])
@pytest.mark.parametrize(("index", "key"), [(2, "tile"), (2, "card"), (3, "tile")])
def test_waka_tanka_names_must_be_tiles_and_cards(index: int, key: str, value: Any) -> None:
    refused(with_entry(WAKATANKA, index, **{key: value}), f"entry {index} .*is not a {key}")


@pytest.mark.parametrize(
    ("base", "index"),
    [(POWWOW, 0), (POWWOW, 1), (WAKATANKA, 1), (WAKATANKA, 2), (WAKATANKA, 3)],
)
def test_an_entry_with_an_unknown_key_is_refused(base: dict[str, Any], index: int) -> None:
    refused(with_entry(base, index, note="by hand"), f"entry {index} .*unexpected key 'note'")


@pytest.mark.parametrize("seat", [4, 7, -1])
def test_a_seat_beyond_the_table_is_named_as_such(seat: int) -> None:
    refused(with_entry(POWWOW, 1, player=seat), f"there is no seat {seat} in a 4-player game")
