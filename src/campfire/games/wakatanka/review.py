"""The Waka Tanka judge: card tracking, then determinized playouts, from the seat's view.

A move is worth the seat's expected share of the win. The judge tracks the cards as the seat
could (`tracking.track_pair`: its hand, the cards it placed, every reveal and who took what),
takes medium's best few options by that tracking, the expert's own best and the move played,
deals many worlds of the hidden cards that fit the view, weighed by how well they fit what the
others chose to play (`HardBot.deal`), and plays every option on in each world as the expert
itself would search the table (`expert.ReadTable`): the seat by the expert's own scoring
(`expert_options`), every other seat as a kind of player (medium, easy or random) drawn for
each world from the expert's reading of that seat's record so far (`ExpertBot.types`, learnt
from the seat's views as the expert learns them), a seat drawn as medium calling at its own
read rate. A playout runs to the end of the game, or for `horizon` turns and is then valued by
who is nearest to winning (`race`). Every option meets the same worlds and the same kinds, so
their difference is not the luck of the deal.

The judge depends on the seat's views alone (never the state), and it does not import the game
object: the package wires it.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from typing import Any

from campfire.bots.search import Playout, evaluate
from campfire.games.wakatanka.actions import Action, Play, Spell
from campfire.games.wakatanka.bots.expert import (
    EXPERT_TOKEN,
    ExpertBot,
    ReadTable,
    expert_options,
)
from campfire.games.wakatanka.bots.hard import HardBot, won_share
from campfire.games.wakatanka.bots.medium import scored_options
from campfire.games.wakatanka.cards import TILE_INDEX, TOKENS_TO_WIN
from campfire.games.wakatanka.models import seat_records
from campfire.games.wakatanka.tracking import Tracker, track_pair
from campfire.games.wakatanka.view import WakatankaView
from campfire.i18n import N_
from campfire.kernel.errors import Refusal, percent
from campfire.kernel.records import Record
from campfire.kernel.state import State
from campfire.review.reviewer import Decision, Verdict, joined

#: worlds dealt per judged move, options searched beside the move played, turns played on
WORLDS = 24
OPTIONS = 5
HORIZON = 8


def race(tokens: Sequence[int], hands: Sequence[int], seat: int, scale: float = 1.5) -> float:
    """`seat`'s chance to win where a playout stops, from tokens and hand sizes: each player is
    as far from winning as the nearer of their two goals, the tokens still missing (each worth
    `EXPERT_TOKEN` cards, as the expert counts them) or the cards still in hand (hard's
    `standing`, with the expert's worth of a token)."""
    distance = [
        min((TOKENS_TO_WIN - t) * EXPERT_TOKEN, h + 0.5) for t, h in zip(tokens, hands, strict=True)
    ]
    weights = [math.exp(-d / scale) for d in distance]
    return weights[seat] / sum(weights)


def _said(action: Action) -> Refusal:
    """A move in words, as a message (the same words as the web review's; the animals are
    named in the reader's language)."""
    if isinstance(action, Play):
        return Refusal(N_("{card} on {tile}"), card=action.card, tile=action.tile)
    if isinstance(action, Spell):
        return Refusal(N_("spell on {tile}"), tile=action.tile)
    return Refusal(type(action).__name__.lower())


class WakatankaSeatJudge:
    """One seat's judge: its own random stream, so the same views always get the same
    verdicts."""

    def __init__(
        self,
        seat: int,
        seed: int,
        worlds: int = WORLDS,
        options: int = OPTIONS,
        horizon: int = HORIZON,
    ) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.dealer = HardBot(seed, worlds=worlds, horizon=horizon, trust=None)
        self.dealer.rng = self.rng
        self.options = options
        self.horizon = horizon
        #: the expert's reading of the others (their kinds), from this seat's views only, with
        #: its own random stream: learnt at each judged move, as the expert learns at its own
        self.reader = ExpertBot(seed + 7919, trust=None)

    def observe(self, view: WakatankaView) -> None:
        """Nothing to learn between moves: the tracking reads the whole public record."""

    def judge(self, view: WakatankaView, legal: Sequence[Action], played: Action) -> Verdict:
        me = view.seat
        assert me is not None
        self.reader._learn(view)
        self.reader._previous = (view, played)
        mine, public = track_pair(view)
        scored = sorted(scored_options(view, mine, public), key=lambda item: -item[0])
        options = [a for _, a in scored if a in legal][: self.options]
        nxt = (me + 1) % view.players
        rates = [r.call_rate for r in seat_records(view)]
        racing = expert_options(view, rates[nxt])
        for action in (next((a for _, a in racing if a in legal), played), played):
            if action not in options:
                options.append(action)
        for action in legal:  # a call answered by accept: both are always weighed
            if len(options) >= 2:
                break
            if action not in options:
                options.append(action)
        worlds = self.dealer.deal(view, mine)
        others = {s: self.reader.types(s) for s in range(view.players) if s != me}
        table = ReadTable(me, others, rates, self.rng)
        playout = Playout(
            table,
            lambda s: won_share(s, me),
            horizon=self.horizon,
            fallback=lambda s: race(s.tokens, s.hand_size, me),
        )
        values = evaluate(options, worlds, playout, self.rng, table.deal)
        top = max(range(len(options)), key=lambda i: (round(values[i], 9), options[i] == played))
        best = options[top]
        played_value = best_value = values[options.index(played)]
        if best != played:
            best_value, played_value = self.again(view, mine, playout, table, best, played)
        detail: dict[str, Any] = {
            "kind": "read",
            "played_value": round(played_value, 4),
            "best_value": round(best_value, 4),
        }
        reads: list[str] = []
        if view.last_play is not None:
            bluff = mine.bluff_chance(view)
            detail["bluff_chance"] = round(bluff, 4)
            reads.append(
                Refusal(
                    N_("the card just played is a bluff {chance} by your tracking"),
                    chance=percent(bluff),
                )
            )
        for action in dict.fromkeys((played, best)):
            if isinstance(action, Spell):
                works = mine.spell_chance(view, action.tile)
                detail[f"spell_{action.tile}"] = round(works, 4)
                reads.append(
                    Refusal(
                        N_("a spell on {tile} works {chance}"),
                        tile=action.tile,
                        chance=percent(works),
                    )
                )
            elif (
                isinstance(action, Play)
                and action.card != action.tile
                and f"believed_{action.tile}" not in detail
            ):
                believed = public.true_chance(me, TILE_INDEX[action.tile])
                detail[f"believed_{action.tile}"] = round(believed, 4)
                reads.append(
                    Refusal(
                        N_("the others believe a {tile} from you {chance}"),
                        tile=action.tile,
                        chance=percent(believed),
                    )
                )
        if best != played and best_value - played_value > 0.0005:
            share = Refusal(
                N_("share of the win: {played} {played_value}, {best} {best_value}"),
                played=_said(played),
                played_value=percent(played_value),
                best=_said(best),
                best_value=percent(best_value),
            )
        else:
            share = Refusal(
                N_("share of the win: {played} {played_value}"),
                played=_said(played),
                played_value=percent(played_value),
            )
        return Verdict(best, best_value, played_value, joined([*reads, share]), detail)

    def again(
        self,
        view: WakatankaView,
        mine: Tracker,
        playout: Playout,
        table: ReadTable,
        best: Action,
        played: Action,
    ) -> tuple[float, float]:
        """The best move and the played one valued again, in fresh worlds: the best of several
        noisy estimates is biased upwards, so the first estimates do not measure the loss. The
        played move's value is the best's less the mean difference over the worlds, less one
        standard error of it (at least nothing): noise alone charges a move next to nothing."""
        diffs = []
        total = 0.0
        for world, _ in self.dealer.deal(view, mine):
            table.deal(world)  # both moves meet the same kinds of player in the same world
            a = playout.after(world, best, self.rng)
            b = playout.after(world, played, self.rng)
            total += a
            diffs.append(a - b)
        best_value = total / len(diffs)
        mean = statistics.fmean(diffs)
        error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        return best_value, best_value - max(0.0, mean - error)


class WakatankaJudge:
    """Waka Tanka's judge (see the module): a seat judge per seat, and the statistics."""

    def __init__(
        self, worlds: int = WORLDS, options: int = OPTIONS, horizon: int = HORIZON
    ) -> None:
        self.worlds = worlds
        self.options = options
        self.horizon = horizon

    def seat(self, seat: int, players: int) -> WakatankaSeatJudge:
        return WakatankaSeatJudge(seat, 2000 + seat, self.worlds, self.options, self.horizon)

    def statistics(
        self, record: Record, state: State[Any, Any], decisions: Sequence[Decision], seat: int
    ) -> dict[str, Any]:
        """Bluffs played (a card that is not its tile's animal) and caught (called), calls
        right (a bluff exposed) and wrong, spells cast and won, and the average loss."""
        bluffs = sum(
            1
            for raw in record.moves
            if raw.get("player") == seat
            and raw.get("action") == "play"
            and raw["card"] != raw["tile"]
        )
        reveals = state.view(None).reveals
        calls = [r for r in reveals if r.action == "call"]
        spells = [r for r in reveals if r.action == "spell" and r.seat == seat]
        mine = [d.loss for d in decisions if d.seat == seat]
        return {
            "bluffs_played": bluffs,
            "bluffs_caught": sum(r.success and r.cards[-1][0] == seat for r in calls),
            "calls_right": sum(r.seat == seat and r.success for r in calls),
            "calls_wrong": sum(r.seat == seat and not r.success for r in calls),
            "spells_cast": len(spells),
            "spells_won": sum(r.success for r in spells),
            "average_loss": round(sum(mine) / len(mine), 4) if mine else 0.0,
        }


__all__ = ["HORIZON", "OPTIONS", "WORLDS", "WakatankaJudge", "WakatankaSeatJudge"]
