"""`campfire review`: the JSON contract, a folder of records, Ray, and one clear line for
anything refused."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from campfire.kernel import Record
from tests.cli.conftest import Run

EXAMPLES = Path(__file__).parent.parent / "data" / "records"
POWWOW = EXAMPLES / "powwow-basic-4p.json"
KEYS = {"index", "seat", "played", "best", "loss", "label", "note"}


def player_moves(path: Path) -> list[int]:
    return [i for i, raw in enumerate(Record.load(path).moves) if "player" in raw]


@pytest.mark.parametrize("name", ["powwow-tomahawks-5p.json", "wakatanka-4p.json"])
def test_review_json_has_one_decision_per_player_move(campfire: Run, name: str) -> None:
    result = campfire("review", str(EXAMPLES / name), "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    record = Record.load(EXAMPLES / name)
    assert list(doc) == ["game", "players", "decisions", "seats"]
    assert (doc["game"], doc["players"]) == (record.game, record.players)
    assert [d["index"] for d in doc["decisions"]] == player_moves(EXAMPLES / name)
    for d in doc["decisions"]:
        assert set(d) == KEYS
        raw = dict(record.moves[d["index"]])
        assert raw.pop("player") == d["seat"]
        assert d["played"] == raw
        assert 0 <= d["loss"] <= 1
        assert d["label"] in ("good", "inaccuracy", "mistake", "blunder")
    assert list(doc["seats"]) == [str(s) for s in range(record.players)]
    for figures in doc["seats"].values():
        assert set(figures) == {"accuracy", "mistakes", "blunders"}


def test_review_of_one_seat_and_in_words(campfire: Run) -> None:
    whole = json.loads(campfire("review", str(POWWOW), "--json").stdout)
    result = campfire("review", str(POWWOW), "--seat", "2", "--json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert list(doc["seats"]) == ["2"]
    assert doc["decisions"] == [d for d in whole["decisions"] if d["seat"] == 2]
    assert doc["seats"]["2"] == whole["seats"]["2"]
    words = campfire("review", str(POWWOW), "--seat", "2")
    assert words.returncode == 0, words.stderr
    assert f"Seat 2 (won): accuracy {doc['seats']['2']['accuracy']:.1f}%" in words.stdout
    lost = [d for d in doc["decisions"] if d["best"] != d["played"]]
    assert lost
    for d in lost:  # the better move and the note that decided it, beside the move
        assert d["note"] in words.stdout
        assert f"better {d['best']['action']}" in words.stdout
    assert "Seat 1" not in words.stdout


def test_review_of_a_folder_reviews_every_record(campfire: Run, tmp_path: Path) -> None:
    for name in ("powwow-basic-4p.json", "powwow-tomahawks-5p.json"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    result = campfire("review", str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    docs = json.loads(result.stdout)
    assert [d["players"] for d in docs] == [4, 5]  # in the order of the files' names
    one = json.loads(campfire("review", str(tmp_path / "powwow-basic-4p.json"), "--json").stdout)
    assert docs[0] == one
    words = campfire("review", str(tmp_path))
    assert words.returncode == 0
    assert "powwow-basic-4p.json" in words.stdout and "powwow-tomahawks-5p.json" in words.stdout


def _refused(result: object, message: str) -> None:
    assert result.returncode != 0  # type: ignore[attr-defined]
    err: str = result.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in err
    assert err.strip().splitlines() == [f"campfire: {message}"] or message in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_bad_input_is_refused_in_one_line(campfire: Run, tmp_path: Path) -> None:
    _refused(campfire("review", str(tmp_path / "none.json")), "cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    _refused(campfire("review", str(bad)), "not valid JSON")
    doc = json.loads(POWWOW.read_text())
    doc["moves"] = doc["moves"][:10]
    part = tmp_path / "part.json"
    part.write_text(json.dumps(doc))
    _refused(campfire("review", str(part)), "the game is not finished after 10 entries")
    _refused(campfire("review", str(POWWOW), "--seat", "4"), "no seat 4 in a 4-player game")
    _refused(campfire("review", str(POWWOW), "--seat", "-1"), "--seat must be a seat number")
    empty = tmp_path / "empty"
    empty.mkdir()
    _refused(campfire("review", str(empty)), "no records")
    shutil.copy(POWWOW, empty / "a.json")
    (empty / "b.json").write_text(json.dumps(doc))
    _refused(campfire("review", str(empty), "--json"), "b.json: the game is not finished")
    _refused(campfire("review", str(POWWOW), "--ray", "nowhere"), "--ray takes local")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    yield
    ray.shutdown()


def test_review_of_a_folder_on_ray_is_the_local_review(local_ray: None, tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from campfire.cli import review

    for name in ("powwow-basic-4p.json", "powwow-tomahawks-5p.json"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    app = typer.Typer()  # the command in this process: it has Ray open already
    review.register(app)
    app.command("unused")(lambda: None)  # two commands, so `review` is named on the line
    runner = CliRunner()
    here = runner.invoke(app, ["review", str(tmp_path), "--json"])
    spread = runner.invoke(app, ["review", str(tmp_path), "--json", "--ray", "local"])
    assert here.exit_code == 0 and spread.exit_code == 0, spread.output
    assert json.loads(spread.stdout) == json.loads(here.stdout)
    assert len(json.loads(here.stdout)) == 2
