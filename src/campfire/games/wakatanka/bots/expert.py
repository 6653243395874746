"""Expert: hard, with every other seat read on its own record (its kind, its calls, its
honesty), racing for tokens where it does not search."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from campfire.games.wakatanka.actions import CALL, Action
from campfire.games.wakatanka.bots.hard import HardBot, public_move
from campfire.games.wakatanka.bots.legal import pick_legal
from campfire.games.wakatanka.bots.medium import MEDIUM, Style, scored_options
from campfire.games.wakatanka.cards import TILES, TOKENS_TO_WIN, neighbours
from campfire.games.wakatanka.models import MEDIUM_CALL_RATE, seat_honesty, seat_records
from campfire.games.wakatanka.state import WakatankaState
from campfire.games.wakatanka.tracking import Tracker, track_pair
from campfire.games.wakatanka.view import Turn, WakatankaView

#: the expert's own worth of a token, in cards: a game against players who build stacks of true
#: cards (easy, medium) is a race for tokens, and taking a stack after a failed spell or call
#: costs less than medium's 3 says (measured in the arena: 5 to 6 wins the most against easy
#: players, more against a table with a random player, and anything from 3 to 6 is alike
#: against medium players)
EXPERT_TOKEN = 6.0
#: a token that wins the game (the fourth), for me or for the next player, in cards
WINNING_TOKEN = 20.0


def expert_style(view: WakatankaView) -> Style:
    """The expert's scoring weights at this point of the race: a token is worth `EXPERT_TOKEN`
    cards, and a fourth token (mine, or the next player's from calling my bluff) decides the
    game, which medium's fixed weights do not see."""
    me = view.seat
    assert me is not None
    nxt = (me + 1) % view.players
    return Style(
        token=WINNING_TOKEN if view.tokens[me] == TOKENS_TO_WIN - 1 else EXPERT_TOKEN,
        rival_token=WINNING_TOKEN if view.tokens[nxt] == TOKENS_TO_WIN - 1 else MEDIUM.rival_token,
    )


def expert_trackers(view: WakatankaView) -> tuple[Tracker, Tracker]:
    """Card tracking (mine and the public one) with every seat's honesty read on its own
    revealed cards from a weak prior (`models.seat_honesty`)."""
    honesty = seat_honesty(view)
    mine, public = track_pair(view)
    return replace(mine, honesty=honesty), replace(public, honesty=honesty)


def expert_options(view: WakatankaView, next_call_rate: float) -> list[tuple[float, Action]]:
    """The per-seat scored options, best first: the expert's robust baseline."""
    mine, public = expert_trackers(view)
    scored = scored_options(view, mine, public, expert_style(view), next_call_rate)
    scored.sort(key=lambda item: -item[0])
    return scored


#: the kinds of player the expert tells apart, and its prior over them (as in Pow Wow)
KINDS = ("medium", "easy", "random")
KIND_PRIOR = {"medium": 0.6, "easy": 0.3, "random": 0.1}
#: the share of a medium player's moves that the kind reading takes for a slip (any legal move)
#: rather than the move medium names in a world: medium itself never slips, but a dealt world is
#: only one that fits the view, so a little weight on every move keeps a wrong deal from ruling
#: medium out; the rest of medium's chance is the share of worlds in which medium names the move
MEDIUM_SLIP = 0.1
#: the worlds in which the expert replays each seat's moves to read its kind: each move's chances
#: are averages over them, and with hard's six those averages were noisy enough to misread a
#: medium seat; 24 cost about 10 ms a decision
LEARN_WORLDS = 24
#: no move is ruled out for any kind: a world dealt wrong must not decide a reading
KIND_FLOOR = 0.02


def easy_chance(world: WakatankaState, seen: tuple[str, str | None]) -> float:
    """P(a player of easy's habits makes the public move `seen` in `world`): calls a last card
    nine times in ten, otherwise calls with three of the animal or one time in ten, casts a
    spell on a tall stack three times in ten, plays a true card when it can, else a mouse."""
    seat = world.to_move
    assert seat is not None and world.marker is not None
    if world.last_card:
        return 0.9 if seen == ("call", None) else 0.1 if seen == ("accept", None) else 0.0
    hand = world.hands[seat]
    chances: dict[tuple[str, str | None], float] = {}
    rest = 1.0
    if world.last_play is not None:
        call = 1.0 if hand[world.last_play[1]] >= 3 else 0.1
        chances[("call", None)] = call
        rest *= 1 - call
    tall = [t for t in range(len(TILES)) if len(world.stacks[t]) >= 3]
    for t in tall:
        chances[("spell", TILES[t])] = rest * 0.3 / len(tall)
    if tall:
        rest *= 0.7
    sides = neighbours(world.marker)
    true = [t for t in sides if hand[t]]
    for t in true or sides:
        key = ("play", TILES[t])
        chances[key] = chances.get(key, 0.0) + rest / len(true or sides)
    return chances.get(seen, 0.0)


def kind_chances(world: WakatankaState, turn: Turn, predicted: Action) -> dict[str, float]:
    """P(the public move `turn`) in one dealt `world` for each kind of player: medium (what it
    names, but for a slip now and then: `MEDIUM_SLIP`), easy (its habits) and random (any legal
    action). Averaged over the worlds, medium's chance is the share of worlds that name the move:
    the worlds stand for the cards the player may hold."""
    seen = (turn.action, turn.tile)
    publics = [public_move(a) for a in world.legal_actions()]
    anything = publics.count(seen) / len(publics) if publics else 0.0
    named = 1.0 if public_move(predicted) == seen else 0.0
    return {
        "medium": (1 - MEDIUM_SLIP) * named + MEDIUM_SLIP * anything,
        "easy": easy_chance(world, seen),
        "random": anything,
    }


class ExpertBot(HardBot):
    """Hard's search, with every other seat read on its own record.

    Each seat's call rate is a posterior from its public record (`models.seat_records`), and the
    options are scored with the call rate of the player who may call this seat's play: against a
    loose caller it keeps to true cards (and lets them take the stack), against a tight one it
    bluffs more freely. The search leans on the others playing like medium, so it runs only when
    every other seat, one by one, is read as medium: its kind reading (`types`) says medium, its
    call rate is near medium's, and the others together fit as well as hard asks. Where they do
    not, the expert plays the per-seat scored choice, the robust baseline: misjudging a player
    there costs one option's expected gain, not a plan built on them. Before the others have
    made enough moves to be read at all, it plays medium's own choice, as hard does.
    """

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 40,
        options: int = 6,
        horizon: int = 8,
        trust: float | None = 0.45,
        call_band: tuple[float, float] = (0.2, 0.3),
        kind_trust: float = 0.4,
        learn_worlds: int = LEARN_WORLDS,
    ) -> None:
        super().__init__(seed, worlds, options, horizon, trust)
        self.call_band = call_band
        self.kind_trust = kind_trust
        self.learn_worlds = learn_worlds
        self.loglik: dict[int, dict[str, float]] = {}  # by seat: log-likelihood of each kind

    def types(self, seat: int) -> dict[str, float]:
        """The posterior over the kinds of player `seat` is, from its moves checked so far."""
        record = self.loglik.get(seat, {})
        logs = {k: math.log(KIND_PRIOR[k]) + record.get(k, 0.0) for k in KINDS}
        top = max(logs.values())
        weights = {k: math.exp(v - top) for k, v in logs.items()}
        total = sum(weights.values())
        return {k: w / total for k, w in weights.items()}

    def _weigh(
        self, world: WakatankaState, turn: Turn, predicted: Action, into: dict[str, float]
    ) -> None:
        for kind, p in kind_chances(world, turn, predicted).items():
            into[kind] = into.get(kind, 0.0) + p
        into["worlds"] = into.get("worlds", 0.0) + 1

    def _settle(self, moves: Sequence[Turn], weighed: list[dict[str, float]]) -> None:
        for turn, found in zip(moves, weighed, strict=True):
            worlds = found.get("worlds", 0.0)
            if not worlds:
                continue
            record = self.loglik.setdefault(turn.seat, {})
            for kind in KINDS:
                chance = max(KIND_FLOOR, found.get(kind, 0.0) / worlds)
                record[kind] = record.get(kind, 0.0) + math.log(chance)

    def reads_as_medium(self, view: WakatankaView) -> bool:
        """Whether every other seat's record fits the model the search plays them by."""
        if self.trust is None:
            return True
        fit = self.model_fit(view)
        if fit is None or fit < self.trust:
            return False
        records = seat_records(view)
        for seat in range(view.players):
            if seat == view.seat:
                continue
            if self.types(seat)["medium"] < self.kind_trust:
                return False
            tighter, looser = self.call_band
            if not -tighter <= records[seat].call_rate - MEDIUM_CALL_RATE <= looser:
                return False
        return True

    def _decide(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        me = view.seat
        assert me is not None
        if view.last_card:
            return pick_legal(CALL, legal)
        records = seat_records(view)
        nxt = (me + 1) % view.players
        mine, public = track_pair(view)
        scored = scored_options(view, mine, public, MEDIUM, records[nxt].call_rate)
        scored.sort(key=lambda item: -item[0])
        if self.trust is not None and self.model_fit(view) is None:
            # nothing is known of the table yet: medium's own choice, as hard plays it
            return next((a for _, a in scored if a in legal), legal[0])
        if not self.reads_as_medium(view):
            baseline = expert_options(view, records[nxt].call_rate)
            return next((a for _, a in baseline if a in legal), legal[0])
        options = [a for _, a in scored[: self.options] if a in legal]
        if len(options) <= 1:
            return options[0] if options else legal[0]
        return self._search(view, mine, options, me)
