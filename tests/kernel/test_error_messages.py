"""The engine's reasons (option and record errors) are marked messages with their values: the
engine never reads a catalogue, the edge tells them in the reader's language."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from campfire.i18n import error_text, translator
from campfire.kernel import Record, get_game
from campfire.kernel.errors import OptionError, RecordError

SRC = Path(__file__).parent.parent.parent / "src" / "campfire"
EXAMPLE = Path(__file__).parent.parent / "data" / "records" / "powwow-basic-4p.json"


@pytest.mark.parametrize(
    ("options", "english", "french"),
    [
        (
            {"buzzards": 0},
            "option 'buzzards': input should be greater than or equal to 1, got 0",
            "option 'buzzards' : la valeur doit être supérieure ou égale à 1, reçu 0",
        ),
        (
            {"bogus": 1},
            "unknown option 'bogus' (options: buzzards, tomahawks, end_after_eliminations,"
            " first_player, guess_min, guess_max, feathers, max_guesses)",
            "option inconnue 'bogus' (options : buzzards, tomahawks, end_after_eliminations,"
            " first_player, guess_min, guess_max, feathers, max_guesses)",
        ),
        (
            {"first_player": 6},
            "option 'first_player': there is no seat 6 with 4 players",
            "option 'first_player' : il n'y a pas de place 6 à 4 joueurs",
        ),
        (
            {"guess_min": 30, "guess_max": 20},
            "option 'options': value error, guess_min 30 is above guess_max 20, got"
            " {'guess_min': 30, 'guess_max': 20}",
            "option 'options' : valeur refusée, guess_min 30 est au-dessus de guess_max 20, reçu"
            " {'guess_min': 30, 'guess_max': 20}",
        ),
    ],
)
def test_an_option_error_is_english_as_a_string_and_told_in_any_language(
    options: dict[str, object], english: str, french: str
) -> None:
    with pytest.raises(OptionError) as caught:
        get_game("powwow").new_state(4, options)
    assert str(caught.value) == english
    assert error_text(caught.value, translator("en")) == english
    assert error_text(caught.value, translator("fr")) == french


def test_a_game_of_too_many_players_is_refused_in_german() -> None:
    with pytest.raises(OptionError) as caught:
        get_game("wakatanka").new_state(9)
    assert str(caught.value) == "Waka Tanka takes 3 to 6 players, not 9"
    told = error_text(caught.value, translator("de"))
    assert told == "Waka Tanka ist für 3 bis 6 Spieler, nicht 9"


def test_record_errors_are_told_in_the_language(tmp_path: Path) -> None:
    doc = json.loads(EXAMPLE.read_text())
    cases = [
        ({**doc, "format": 2}, "nicht unterstütztes Format 2 (erwartet: 1)"),
        ({**doc, "colour": 1}, "unbekannter Schlüssel 'colour' in der Aufzeichnung"),
        ({**doc, "game": "chess"}, "unbekanntes Spiel 'chess' (Spiele: powwow, wakatanka)"),
        ({**doc, "seats": []}, "'seats' nennt 0 Plätze für 4 Spieler"),
    ]
    for data, german in cases:
        with pytest.raises(RecordError) as caught:
            Record.from_json(data)
        assert error_text(caught.value, translator("de")) == german
        assert str(caught.value) != german
    bad = {**doc, "moves": [*doc["moves"][:1], {"player": 0, "action": "shout"}]}
    with pytest.raises(RecordError) as caught:
        Record.from_json(bad).replay()
    assert caught.value.index == 1
    assert str(caught.value) == (
        'entry 1 {"player": 0, "action": "shout"}: unknown action \'shout\''
        " (Pow Wow actions: guess, dispute, agree, reverse)"
    )
    assert error_text(caught.value, translator("it")) == (
        'voce 1 {"player": 0, "action": "shout"}: azione sconosciuta \'shout\''
        " (azioni di Pow Wow: guess, dispute, agree, reverse)"
    )
    with pytest.raises(RecordError) as caught:
        Record.load(tmp_path / "missing.json")
    assert error_text(caught.value, translator("es")).startswith("no se puede leer ")


def test_a_rules_refusal_inside_a_record_keeps_its_message() -> None:
    doc = json.loads(EXAMPLE.read_text())
    first = next(i for i, m in enumerate(doc["moves"]) if "player" in m)
    seat = doc["moves"][first]["player"]
    moves = [*doc["moves"][:first], {"player": (seat + 1) % 4, "action": "dispute"}]
    with pytest.raises(RecordError) as caught:
        Record.from_json({**doc, "moves": moves}).replay()
    english = str(caught.value)
    french = error_text(caught.value, translator("fr"))
    assert english.startswith(f"entry {first} ") and french.startswith(f"entrée {first} ")
    assert english.split(": ", 1)[1] != french.split(" : ", 1)[1]


def test_the_engine_imports_only_the_marker_from_the_catalogues() -> None:
    """The rules mark their messages (`N_`); only the edges (CLI, terminal, server) translate."""
    engine = [*sorted((SRC / "kernel").glob("*.py"))]
    for game in ("powwow", "wakatanka"):
        for name in ("game", "state", "options", "actions"):
            engine.append(SRC / "games" / game / f"{name}.py")
    for path in engine:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "campfire.i18n":
                assert [a.name for a in node.names] == ["N_"], path
            if isinstance(node, ast.Import):
                assert all(not a.name.startswith("campfire.i18n") for a in node.names), path
