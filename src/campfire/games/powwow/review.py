"""The Pow Wow judge: each move valued as the expert would value it, from the seat's view.

A move is worth the seat's chance to keep clear of the buzzard this round (a round is where a
move can lose: exactly one player takes the buzzard when it ends). The expert's own evaluation
gives it: the distribution of the seat's own feathers given what the others' bidding says, each
other seat read by what it has shown itself to be over the game so far (`bots.mixed_belief`
with the expert's per-seat reading), then the exact odds of the total in every likely world and
the rest of the round played out with everyone as medium (`HardBot._values`). A dispute is
valued exactly: the chance that the standing guess fails, under that reading.

The judge depends on the seat's views alone (never the state), so it judges a move from what
the seat could see when it was made. It does not import the game object: the package wires it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campfire.games.powwow.actions import Action, Guess
from campfire.games.powwow.bots.expert import ExpertBot, mixed_belief
from campfire.games.powwow.odds import seat_odds
from campfire.games.powwow.view import PowwowView
from campfire.i18n import N_
from campfire.kernel.errors import Refusal, decimal, percent
from campfire.kernel.records import Record
from campfire.kernel.state import State
from campfire.review.reviewer import Decision, Verdict, joined

#: the expert's search budget per judged move (playouts of own feathers × options)
BUDGET = 1500


def _said(action: Action) -> Refusal:
    """A move in words, as a message (the same words as the web review's)."""
    if isinstance(action, Guess):
        if action.extra_feather_to is None:
            return Refusal(N_("guess {value}"), value=action.value)
        return Refusal(
            N_("guess {value} (extra feather to seat {seat})"),
            value=action.value,
            seat=action.extra_feather_to,
        )
    return Refusal(type(action).__name__.lower())


class PowwowSeatJudge:
    """One seat's judge: an expert that learns the table from the seat's views only."""

    def __init__(self, seat: int, seed: int, budget: int = BUDGET) -> None:
        self.seat = seat
        self.expert = ExpertBot(seed, budget=budget)

    def observe(self, view: PowwowView) -> None:
        self.expert.observe(view)

    def judge(self, view: PowwowView, legal: Sequence[Action], played: Action) -> Verdict:
        expert = self.expert
        me = view.seat
        assert me is not None
        post = mixed_belief(view, expert.types, expert._round_memo(view))
        options, values = expert._values(view, legal, me, post, also=[played])
        if len(options) == 1:
            values = [0.0]
        played_value = values[options.index(played)]
        top = max(range(len(options)), key=lambda i: (round(values[i], 9), options[i] == played))
        best, best_value = options[top], values[top]
        read = seat_odds(view, post)
        detail: dict[str, Any] = {
            "kind": "odds",
            "played_value": round(played_value, 4),
            "best_value": round(best_value, 4),
            "expected_total": round(read.mean(), 2),
        }
        if view.guess is None:
            odds_text = Refusal(
                N_("the total is {mean} on average as the table reads"),
                mean=decimal(read.mean(), 1),
            )
        else:
            holds = read.at_least(view.guess)
            blind = seat_odds(view).at_least(view.guess)
            detail.update(guess=view.guess, holds=round(holds, 4), blind=round(blind, 4))
            odds_text = Refusal(
                N_("the standing guess {guess} holds {holds} as the table reads ({blind} blind)"),
                guess=view.guess,
                holds=percent(holds),
                blind=percent(blind),
            )
        if best != played and best_value - played_value > 0.0005:
            clear = Refusal(
                N_("clear of the buzzard: {played} {played_value}, {best} {best_value}"),
                played=_said(played),
                played_value=percent(played_value),
                best=_said(best),
                best_value=percent(best_value),
            )
        else:
            clear = Refusal(
                N_("clear of the buzzard: {played} {played_value}"),
                played=_said(played),
                played_value=percent(played_value),
            )
        return Verdict(best, best_value, played_value, joined([odds_text, clear]), detail)


class PowwowJudge:
    """Pow Wow's judge (see the module): a seat judge per seat, and the teaching statistics."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget

    def seat(self, seat: int, players: int) -> PowwowSeatJudge:
        return PowwowSeatJudge(seat, 1000 + seat, self.budget)

    def statistics(
        self, record: Record, state: State[Any, Any], decisions: Sequence[Decision], seat: int
    ) -> dict[str, Any]:
        """Disputes that were right (the guess failed) and wrong, this seat's guesses that held
        when disputed, and its average loss per decision."""
        rounds = state.game.summary(state)["rounds"]
        mine = [d.loss for d in decisions if d.seat == seat]
        return {
            "disputes_right": sum(r["disputer"] == seat and r["loser"] != seat for r in rounds),
            "disputes_wrong": sum(r["disputer"] == seat and r["loser"] == seat for r in rounds),
            "guesses_held": sum(r["owner"] == seat and r["loser"] != seat for r in rounds),
            "guesses_failed": sum(r["owner"] == seat and r["loser"] == seat for r in rounds),
            "average_loss": round(sum(mine) / len(mine), 4) if mine else 0.0,
        }


__all__ = ["BUDGET", "PowwowJudge", "PowwowSeatJudge"]
