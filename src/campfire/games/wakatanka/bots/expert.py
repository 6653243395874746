"""Expert: hard, with every other seat read on its own record (its kind, its calls, its
honesty), racing for tokens where it does not search."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace

from campfire.bots.search import Playout, evaluate, hypotheses, least_regret
from campfire.games.wakatanka.actions import CALL, Action
from campfire.games.wakatanka.bots.easy import easy_action
from campfire.games.wakatanka.bots.hard import HardBot, public_move, standing, won_share
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
    sides = neighbours(world.marker, world.animals)
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


def at_call_rate(scored: Sequence[tuple[float, Action]], rate: float, rng: random.Random) -> Action:
    """Medium's best of `scored`, with its calls made at a seat's own `rate` instead of
    medium's: a looser caller also calls where medium would not, a tighter one drops some of
    medium's calls for its best other option (as `models.called_chance` weighs them)."""
    top = max(scored, key=lambda item: item[0])[1]
    if not any(a == CALL for _, a in scored):
        return top
    if top == CALL:
        if rate >= MEDIUM_CALL_RATE or rng.random() < rate / MEDIUM_CALL_RATE:
            return CALL
        rest = [item for item in scored if item[1] != CALL]
        return max(rest, key=lambda item: item[0])[1] if rest else CALL
    loose = (rate - MEDIUM_CALL_RATE) / (1 - MEDIUM_CALL_RATE)
    return CALL if loose > 0 and rng.random() < loose else top


class ReadTable:
    """The others in the expert's playouts as it reads them: before each dealt world every
    other seat is drawn a kind from its posterior (`ExpertBot.types`), so the search weighs the
    options over a mixture of tables, not one table of medium players; a seat drawn as medium
    makes its calls at its own read rate. The expert plays itself by its baseline
    (`expert_options`)."""

    def __init__(
        self,
        me: int,
        types: dict[int, dict[str, float]],
        rates: Sequence[float],
        rng: random.Random,
    ) -> None:
        self.me = me
        self.types = types
        self.rates = rates
        self.rng = rng
        self.kinds: dict[int, str] = {}

    def deal(self, world: object) -> None:
        """Draw every other seat's kind for the next world (`evaluate`'s `on_world`)."""
        self.kinds = {
            seat: self.rng.choices(KINDS, [mix[k] for k in KINDS])[0]
            for seat, mix in self.types.items()
        }

    def __call__(self, state: WakatankaState, seat: int) -> Action:
        kind = self.kinds.get(seat, "medium")
        if kind == "random":
            return self.rng.choice(state.legal_actions())
        view = state.view(seat)
        if kind == "easy":
            return easy_action(view, state.legal_actions(), self.rng)
        if seat == self.me:
            nxt = (seat + 1) % state.players
            return expert_options(view, self.rates[nxt])[0][1]
        scored = scored_options(view, *track_pair(view))
        if view.last_card:
            return max(scored, key=lambda item: item[0])[1]
        return at_call_rate(scored, self.rates[seat], self.rng)


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

    `mixture`: search at every decision once the table can be read, with the others played as
    read (`ReadTable`), keeping the baseline unless an option beats it by `margin` (a share of
    a win); with `regret`, the minimax-regret choice over the kinds a doubted seat may be. Off
    by default: against easy players it lost to the baseline (docs/bots.md).
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
        mixture: bool = False,
        margin: float = 0.1,
        regret: bool = False,
    ) -> None:
        super().__init__(seed, worlds, options, horizon, trust)
        self.mixture = mixture
        self.regret = regret
        self.margin = margin
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
        baseline = expert_options(view, records[nxt].call_rate)
        fallback = next((a for _, a in baseline if a in legal), legal[0])
        options = [a for _, a in scored[: self.options] if a in legal]
        if not self.mixture:
            if not self.reads_as_medium(view):
                return fallback
            if len(options) <= 1:
                return options[0] if options else legal[0]
            return self._search(view, mine, options, me)
        if fallback not in options:
            options.append(fallback)
        if len(options) <= 1:
            return options[0]
        rates = [r.call_rate for r in records]
        return self._mixed_search(view, mine, options, me, rates, fallback)

    def _mixed_search(
        self,
        view: WakatankaView,
        mine: Tracker,
        options: list[Action],
        me: int,
        rates: Sequence[float],
        fallback: Action,
    ) -> Action:
        """Hard's search with the others played as read (`ReadTable`); the baseline `fallback`
        stands unless an option beats it by `margin`. With `regret`, the options are played
        against every kind a doubted seat may plausibly be (in the same worlds), and the one
        whose worst shortfall over those kinds is least is taken: the minimax-regret choice."""
        others = {s: self.types(s) for s in range(view.players) if s != me}
        tables = [others]
        if self.regret:
            doubted = [s for s, mix in others.items() if mix["medium"] < self.kind_trust]
            tables = hypotheses(others, doubted)
        worlds = self.deal(view, mine)
        rows = []
        for kinds in tables:
            table = ReadTable(me, kinds, rates, self.rng)
            playout = Playout(
                table,
                lambda s: won_share(s, me),
                horizon=self.horizon,
                fallback=lambda s: standing(s.tokens, s.hand_size, me, 1.5),
            )
            rows.append(evaluate(options, worlds, playout, self.rng, table.deal))
        return least_regret(options, rows, fallback, self.margin)
