"""`campfire review RECORD|DIR [--seat N] [--json] [--ray ADDRESS]`: every move judged."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from campfire.cli.common import RayAddress, fail


def review_files(paths: list[str], seat: int | None) -> list[tuple[str, Any, str | None]]:
    """Each record of `paths` reviewed: (path, (the review, the seats' names), None), or
    (path, None, why not). Module level, so a Ray task can run it."""
    from campfire.kernel.errors import RecordError
    from campfire.kernel.records import Record
    from campfire.review import review_record

    out: list[tuple[str, Any, str | None]] = []
    for path in paths:
        try:
            record = Record.load(path)
            seats = None if seat is None else [seat]
            review = review_record(record, seats)
        except (RecordError, ValueError) as error:
            out.append((path, None, str(error)))
        except (RecursionError, MemoryError):
            out.append((path, None, "the record is nested too deeply or too large to read"))
        else:
            names = _names(record.seats, record.players)
            out.append((path, (review, names), None))
    return out


def _names(seats: list[dict[str, str | None]] | None, players: int) -> list[str]:
    if seats is None:
        return [f"Seat {s}" for s in range(players)]
    out = []
    for s, entry in enumerate(seats):
        who = entry.get("name") or (f"{entry['bot']} bot" if entry.get("bot") else None)
        out.append(f"Seat {s} ({who})" if who else f"Seat {s}")
    return out


def review(
    record_file: Annotated[
        Path,
        typer.Argument(metavar="RECORD", help="a finished game's record, or a folder of them"),
    ],
    seat: Annotated[int | None, typer.Option(help="review this seat's moves only")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the review as JSON")] = False,
    ray: RayAddress = None,
) -> None:
    """Judge every move of a finished game as the top level would: labels, the better move
    where one was lost, accuracy per seat."""
    from campfire.bots.match import RayError, check_ray_address, on_ray

    if seat is not None and seat < 0:
        fail(f"--seat must be a seat number, not {seat}")
    if ray is not None:
        try:
            check_ray_address(ray)
        except RayError as error:
            fail(str(error))
    folder = record_file.is_dir()
    if folder:
        paths = sorted(str(p) for p in record_file.glob("*.json") if p.is_file())
        if not paths:
            fail(f"no records (*.json) in {record_file}")
    elif record_file.exists():
        paths = [str(record_file)]
    else:
        fail(f"cannot read {record_file}: no such file or folder")
    results: Iterable[list[tuple[str, Any, str | None]]]
    if ray is None:
        results = (review_files([path], seat) for path in paths)
    else:
        results = on_ray(ray, review_files, [([path], seat) for path in paths])
    documents = []
    try:
        for batch in results:
            for path, data, problem in batch:
                if problem is not None:
                    fail(f"{path}: {problem}" if folder else problem)
                documents.append((path, data))
    except RayError as error:
        fail(str(error))
    if as_json:
        found = [data[0].to_json() for _, data in documents]
        print(json.dumps(found if folder else found[0], indent=1))
        return
    show(documents)


def show(documents: list[tuple[str, Any]]) -> None:
    from campfire.kernel.registry import get_game
    from campfire.review.text import lines

    for path, (review, names) in documents:
        title = f"{get_game(review.game).title}, {review.players} players: {path}"
        for line in lines(review, names, title):
            print(line)


def register(app: typer.Typer) -> None:
    app.command("review")(review)
