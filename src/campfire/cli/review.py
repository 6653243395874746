"""`campfire review RECORD|DIR [--seat N] [--json] [--ray ADDRESS]`: every move judged."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer

from campfire.cli.common import Lang, RayAddress, chosen, fail, fail_error
from campfire.i18n import N_, Translator, translator


def review_files(
    paths: list[str], seat: int | None, lang: str = "en"
) -> list[tuple[str, Any, str | None]]:
    """Each record of `paths` reviewed: (path, (the review, the seats' names), None), or
    (path, None, why not), said in `lang`. Module level, so a Ray task can run it."""
    from campfire.cli.replay import TOO_DEEP
    from campfire.i18n import error_text
    from campfire.kernel.errors import RecordError
    from campfire.kernel.records import Record
    from campfire.review import review_record

    tr = translator(lang)
    out: list[tuple[str, Any, str | None]] = []
    for path in paths:
        try:
            record = Record.load(path)
            seats = None if seat is None else [seat]
            review = review_record(record, seats)
        except (RecordError, ValueError) as error:
            out.append((path, None, error_text(error, tr)))
        except (RecursionError, MemoryError):
            out.append((path, None, tr.gettext(TOO_DEEP)))
        else:
            names = _names(record.seats, record.players, tr)
            out.append((path, (review, names), None))
    return out


def _names(
    seats: list[dict[str, str | None]] | None, players: int, tr: Translator | None = None
) -> list[str]:
    tr = translator("en") if tr is None else tr
    _ = tr.gettext
    if seats is None:
        return [_("Seat {seat}", seat=s) for s in range(players)]
    out = []
    for s, entry in enumerate(seats):
        bot = entry.get("bot")
        who = entry.get("name") or (_("{level} bot", level=tr.level(bot)) if bot else None)
        out.append(_("Seat {seat} ({who})", seat=s, who=who) if who else _("Seat {seat}", seat=s))
    return out


def review(
    record_file: Annotated[
        Path,
        typer.Argument(metavar="RECORD", help=N_("a finished game's record, or a folder of them")),
    ],
    seat: Annotated[int | None, typer.Option(help=N_("review this seat's moves only"))] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("print the review as JSON"))] = False,
    ray: RayAddress = None,
    lang: Lang = None,
) -> None:
    """Judge every move of a finished game as the top level would: labels, the better move
    where one was lost, accuracy per seat. `--json` is the same in every language (its notes
    English); the words are told in `--lang`."""
    from campfire.bots.match import RayError, check_ray_address, on_ray

    tr = chosen(lang)
    if seat is not None and seat < 0:
        fail(N_("--seat must be a seat number, not {seat}"), seat=seat)
    if ray is not None:
        try:
            check_ray_address(ray)
        except RayError as error:
            fail_error(error)
    folder = record_file.is_dir()
    if folder:
        paths = sorted(str(p) for p in record_file.glob("*.json") if p.is_file())
        if not paths:
            fail(N_("no records (*.json) in {folder}"), folder=str(record_file))
    elif record_file.exists():
        paths = [str(record_file)]
    else:
        fail(N_("cannot read {file}: no such file or folder"), file=str(record_file))
    # the JSON's notes stay English (the contract); the words are said in the language
    said = "en" if as_json else tr.lang
    results: Iterable[list[tuple[str, Any, str | None]]]
    if ray is None:
        results = (review_files([path], seat, said) for path in paths)
    else:
        results = on_ray(ray, review_files, [([path], seat, said) for path in paths])
    documents = []
    try:
        for batch in results:
            for path, data, problem in batch:
                if problem is not None:
                    fail(f"{path}: {problem}" if folder else problem)  # said in the language
                documents.append((path, data))
    except RayError as error:
        fail_error(error)
    if as_json:
        found = [data[0].to_json() for _, data in documents]
        print(json.dumps(found if folder else found[0], indent=1))
        return
    show(documents, tr)


def show(documents: list[tuple[str, Any]], tr: Translator | None = None) -> None:
    from campfire.kernel.registry import get_game
    from campfire.review.text import lines

    tr = translator("en") if tr is None else tr
    for path, (review, names) in documents:
        title = tr.ngettext(
            "{game}, {n} player: {file}",
            "{game}, {n} players: {file}",
            review.players,
            game=get_game(review.game).title,
            file=path,
        )
        for line in lines(review, names, title, tr):
            print(line)


def register(app: typer.Typer) -> None:
    app.command("review")(review)
