"""The generic reviewer: a finished record walked move by move, each seat judged from its view.

Nothing here knows a game's rules. The game's judge (`Judge`) makes one `SeatJudge` per seat;
the reviewer shows that seat judge the seat's view before every player move (`observe`, so it
can learn what the seat learned) and asks it about each of the seat's own moves (`judge`). A
seat judge is never given the state, so it cannot judge from what the seat could not see.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from campfire.i18n import N_
from campfire.kernel.errors import IllegalAction, RecordError, Refusal
from campfire.kernel.records import Record, apply_entry, entry_from_json, reason_of
from campfire.kernel.state import Game, PlayerMove, State

#: the labels, from the best to the worst, and the loss at which each one starts
LABELS = ("good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = {"good": 0.0, "inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}


#: a forced move's note
FORCED = N_("forced: the only move")
#: two parts of a judge's note, one after the other
PARTS = N_("{first}; {rest}")


def joined(parts: Sequence[str]) -> str:
    """A judge's note of several parts ("the odds ...; clear of the buzzard ..."), each a
    `Refusal`, as one `Refusal` that every language can punctuate its own way."""
    if not parts:
        return ""
    out = parts[-1]
    for part in reversed(parts[:-1]):
        out = Refusal(PARTS, first=part, rest=out)
    return out


def note_message(note: str) -> Any:
    """A note as data for a reader elsewhere (`Refusal.to_json`), or the text as it is."""
    return note.to_json() if isinstance(note, Refusal) else note


def label(loss: float) -> str:
    """The label of a move that gave up `loss` of the seat's expected share of the win."""
    out = LABELS[0]
    for name in LABELS:
        if loss >= THRESHOLDS[name]:
            out = name
    return out


def accuracy(losses: Sequence[float]) -> float:
    """A seat's accuracy in percent: 100 × (1 − its mean loss over the moves it chose), 100
    when every move was forced (a forced move tells nothing of the player)."""
    if not losses:
        return 100.0
    return round(100.0 * (1.0 - sum(losses) / len(losses)), 1)


@dataclass(frozen=True)
class Verdict:
    """A judge's answer about one move: the move the top level would make, what the played
    move and that one are worth to the seat (its expected share of the win, in [0, 1]), and
    the odds or read that decided it, in words (`note`: a `Refusal`, English as a string, its
    template and values for any other language) and as data (`detail`)."""

    best: Any
    best_value: float
    played_value: float
    note: str
    detail: Mapping[str, Any] = field(default_factory=dict)


class SeatJudge(Protocol):
    """The judge of one seat's moves over one game, fed that seat's views in order."""

    def observe(self, view: Any) -> None:
        """The seat's view before a player move (anyone's): what the seat knows then."""

    def judge(self, view: Any, legal: Sequence[Any], played: Any) -> Verdict:
        """The verdict on `played`, chosen from `view` among `legal` (two or more)."""
        ...


class Judge(Protocol):
    """A game's judge: a seat judge per seat, and the statistics of a finished game."""

    def seat(self, seat: int, players: int) -> SeatJudge: ...

    def statistics(
        self, record: Record, state: State[Any, Any], decisions: Sequence[Decision], seat: int
    ) -> dict[str, Any]:
        """What teaches, for `seat`, from the finished game and its judged decisions."""
        ...


@dataclass(frozen=True)
class Decision:
    """One player move judged. `index` is the entry's index in the record's `moves`; `played`
    and `best` are actions as the record writes them (without `player`)."""

    index: int
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    loss: float
    label: str
    note: str
    forced: bool = False
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "loss": self.loss,
            "label": self.label,
            "note": self.note,
        }


@dataclass
class Review:
    """The review of one finished record, for the seats asked about."""

    game: str
    players: int
    decisions: list[Decision]
    seats: list[int]
    winners: list[int]
    statistics: dict[int, dict[str, Any]]

    def of_seat(self, seat: int) -> list[Decision]:
        return [d for d in self.decisions if d.seat == seat]

    def summary(self, seat: int) -> dict[str, Any]:
        """A seat's accuracy and how many of its moves were mistakes and blunders."""
        mine = self.of_seat(seat)
        return {
            "accuracy": accuracy([d.loss for d in mine if not d.forced]),
            "mistakes": sum(d.label == "mistake" for d in mine),
            "blunders": sum(d.label == "blunder" for d in mine),
        }

    def to_json(self) -> dict[str, Any]:
        """The document `campfire review --json` prints (the shape is a contract)."""
        return {
            "game": self.game,
            "players": self.players,
            "decisions": [d.to_json() for d in self.decisions],
            "seats": {str(s): self.summary(s) for s in self.seats},
        }

    def to_full_json(self) -> dict[str, Any]:
        """`to_json` and, for the browser, the statistics per seat, the winners and each
        decision's detail (the odds or read that decided it)."""
        out = self.to_json()
        for row, decision in zip(out["decisions"], self.decisions, strict=True):
            row["forced"] = decision.forced
            row["detail"] = dict(decision.detail)
            # the note as a message and its values, so that each reader is told it in their
            # language (`campfire.review.localized`); "note" stays the English sentence
            row["note_message"] = note_message(decision.note)
        out["statistics"] = {str(s): self.statistics[s] for s in self.seats}
        out["winners"] = self.winners
        return out


def judge_for(game: Game[Any]) -> Judge:
    """The judge the game's package offers (`judge()`); ValueError when it offers none."""
    package = importlib.import_module(type(game).__module__.rpartition(".")[0])
    make = getattr(package, "judge", None)
    if make is None:
        raise ValueError(Refusal(N_("{game} has no reviewer"), game=game.title))
    judge: Judge = make()
    return judge


def finished(record: Record) -> State[Any, Any]:
    """The record replayed to its end; RecordError when it breaks a rule or is unfinished."""
    state = record.replay()
    if not state.is_terminal:
        raise RecordError(
            Refusal(
                N_(
                    "the game is not finished after {entries} entries: only a finished game"
                    " can be reviewed"
                ),
                entries=len(record.moves),
            )
        )
    return state


def review_record(
    record: Record, seats: Iterable[int] | None = None, judge: Judge | None = None
) -> Review:
    """Every player move of the finished `record` by `seats` (all by default), judged.

    RecordError for a record that breaks the rules or is unfinished; ValueError for a seat that
    is not at the table or a game without a judge.
    """
    end = finished(record)
    wanted = list(range(record.players)) if seats is None else sorted(set(seats))
    for seat in wanted:
        if not 0 <= seat < record.players:
            raise ValueError(
                Refusal(
                    N_("there is no seat {seat} in a {players}-player game"),
                    seat=seat,
                    players=record.players,
                )
            )
    game = end.game
    judge = judge_for(game) if judge is None else judge
    judges = {seat: judge.seat(seat, record.players) for seat in wanted}
    state = record.new_state()
    decisions: list[Decision] = []
    for index, raw in enumerate(record.moves):
        try:
            move = entry_from_json(game, raw)
        except ValueError as error:  # replayed once already: cannot happen, but say so
            raise RecordError(reason_of(error), index, raw) from None
        if isinstance(move, PlayerMove):
            for seat, seat_judge in judges.items():
                seat_judge.observe(state.view(seat))
            if move.seat in judges:
                decisions.append(
                    _decide(game, index, move, state.view(move.seat), state.legal_actions(), judges)
                )
        try:
            apply_entry(state, raw)
        except (ValueError, IllegalAction) as error:
            raise RecordError(reason_of(error), index, raw) from None
    statistics = {s: judge.statistics(record, end, decisions, s) for s in wanted}
    return Review(record.game, record.players, decisions, wanted, end.winners(), statistics)


def _decide(
    game: Game[Any],
    index: int,
    move: PlayerMove,
    view: Any,
    legal: Sequence[Any],
    judges: Mapping[int, SeatJudge],
) -> Decision:
    played = game.action_to_json(move.action)
    if len(legal) == 1:
        return Decision(index, move.seat, played, played, 0.0, "good", Refusal(FORCED), True)
    verdict = judges[move.seat].judge(view, legal, move.action)
    loss = min(1.0, max(0.0, verdict.best_value - verdict.played_value))
    best = move.action if loss <= 0.0 else verdict.best
    return Decision(
        index,
        move.seat,
        played,
        game.action_to_json(best),
        round(loss, 4),
        label(loss),
        verdict.note,
        False,
        verdict.detail,
    )


def review_document(record: dict[str, Any]) -> dict[str, Any]:
    """The whole review (`Review.to_full_json`) of a finished record given as JSON. Module
    level and plain data in and out, so a worker process can run it (the server does)."""
    return review_record(Record.from_json(record)).to_full_json()
