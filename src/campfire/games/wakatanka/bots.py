"""Waka Tanka bots: easy (habits), medium (card tracking and expected gains), hard (search).

Every bot sees only its seat view. Medium tracks the cards (`tracking.track`) and scores each
option by what it expects to gain in tokens and cards. Hard plays out the game a little way from
each promising option, in many deals of the hidden cards that fit both the view and what the
others chose to play, with everyone modelled as medium, and keeps the best option.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from campfire.bots.search import Playout, best, evaluate
from campfire.games.wakatanka.actions import ACCEPT, CALL, Action, Play, Spell
from campfire.games.wakatanka.cards import (
    CARD_INDEX,
    MOUSE,
    TILE_INDEX,
    TILES,
    TOKENS_TO_WIN,
    neighbours,
)
from campfire.games.wakatanka.models import (
    MEDIUM_CALL_RATE,
    called_chance,
    seat_honesty,
    seat_records,
)
from campfire.games.wakatanka.state import WakatankaState
from campfire.games.wakatanka.tracking import Tracker, at_least, track_pair
from campfire.games.wakatanka.view import Slot, Turn, WakatankaView


def _pick_legal(action: Action, legal: Sequence[Action]) -> Action:
    return action if action in legal else legal[0]


# --- easy --------------------------------------------------------------------------------------
class EasyBot:
    """Plays a true card when it has one, bluffs with a mouse when it must, calls on a hunch.

    Human habits and slips: it remembers only its own hand, casts spells on tall stacks on a
    whim, and now and then lets a player who played their last card win.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        rng = self.rng
        hand = view.hand or ()
        if view.last_card:
            return ACCEPT if rng.random() < 0.1 else CALL
        if view.last_play is not None:
            _, tile = view.last_play
            if hand.count(tile) >= 3 or rng.random() < 0.1:
                return CALL
        tall = [t for t in TILES if len(view.stacks[t]) >= 3]
        if tall and rng.random() < 0.3:
            return _pick_legal(Spell(rng.choice(tall)), legal)
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return rng.choice(list(legal))
        true = [a for a in plays if a.card == a.tile]
        if true:
            return rng.choice(true)
        mice = [a for a in plays if a.card == "mouse"]
        return rng.choice(mice or plays)


# --- medium ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Style:
    """What medium weighs: every option is scored in cards (a card less in hand is worth 1)."""

    token: float = 3.0  # a token of mine, in cards
    rival_token: float = 1.5  # a token for someone else
    call_at: float = 0.5  # the others call a card they think a bluff this likely
    spell_at: float = 0.55  # the others cast a spell that works this likely
    keep_animal: float = 0.3  # the worth of keeping an animal card rather than a mouse
    honesty: float = 0.8  # how likely the others think a card of mine is true


MEDIUM = Style()


def scored_options(
    view: WakatankaView,
    mine: Tracker,
    public: Tracker,
    style: Style = MEDIUM,
    next_call_rate: float | None = None,
) -> list[tuple[float, Action]]:
    """Every sensible option with the gain medium expects from it.

    `next_call_rate`: how often the next player (the one who may call this seat's play) calls
    when they can, as their record shows (None: as medium assumes everyone does).
    """
    me = view.seat
    assert me is not None and view.marker is not None
    if view.last_card:
        return [(0.0, CALL)]  # accepting hands the game over; a call may not
    out: list[tuple[float, Action]] = []
    if view.last_play is not None:
        _, name = view.last_play
        bluff = mine.bluff_chance(view)
        size = len(view.stacks[name])
        out.append((bluff * style.token - (1 - bluff) * size, CALL))
    for name in TILES:
        size = len(view.stacks[name])
        if size:
            works = mine.spell_chance(view, name)
            out.append((works * style.token - (1 - works) * size, Spell(name)))
    hand = view.hand or ()
    kinds = sorted(set(hand), key=CARD_INDEX.__getitem__)
    last = len(hand) == 1
    for tile in neighbours(TILE_INDEX[view.marker]):
        name = TILES[tile]
        stack = view.stacks[name]
        for card in kinds:
            if card == name:
                gain = 100.0 if last else 1.0 - _spell_risk(stack, tile, me, mine, public, style)
                gain -= style.keep_animal * 0.5
                if next_call_rate is not None and not last:
                    # a loose caller calls true cards too, and takes the stack for it
                    wrong = max(0.0, called_chance(0.1, next_call_rate) - 0.1)
                    gain += wrong * 0.3 * (len(stack) + 1)
            else:
                doubted = 1 - public.true_chance(me, tile) >= style.call_at
                called = 1.0 if last or doubted else 0.1
                if next_call_rate is not None and not last:
                    called = called_chance(called, next_call_rate)
                gain = 1.0 - called * (len(stack) + 1 + style.rival_token)
                if card != "mouse":
                    gain -= style.keep_animal
            out.append((gain, Play(name, card)))
    return out


def _spell_risk(
    stack: Sequence[Slot], tile: int, me: int, mine: Tracker, public: Tracker, style: Style
) -> float:
    """What a true card on `stack` may cost: the next player's spell on it, if it works."""
    looks = [style.honesty if s.placer == me else public.true_chance(s.placer, tile) for s in stack]
    if at_least(2, [*looks, style.honesty]) < style.spell_at:
        return 0.0
    sure = 1 + sum(1 for s in stack if s.card == TILES[tile])
    unsure = [mine.true_chance(s.placer, tile) for s in stack if s.card is None]
    return at_least(2 - sure, unsure) * style.rival_token


def medium_action(view: WakatankaView, style: Style = MEDIUM) -> Action:
    options = scored_options(view, *track_pair(view), style)
    return max(options, key=lambda item: item[0])[1]


class MediumBot:
    """Card tracking, then the option with the best expected gain (see `Style`)."""

    def __init__(self, seed: int | None = None, style: Style = MEDIUM) -> None:
        self.rng = random.Random(seed)
        self.style = style

    def choose(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        return _pick_legal(medium_action(view, self.style), legal)


# --- hard --------------------------------------------------------------------------------------
def medium_policy(state: WakatankaState, seat: int) -> Action:
    """The model of every player in hard's playouts: medium, from that seat's own view."""
    return medium_action(state.view(seat))


def standing(tokens: Sequence[int], hands: Sequence[int], seat: int, scale: float) -> float:
    """A guess at `seat`'s chance to win from tokens and hand sizes alone.

    Each player is as far from winning as the nearer of their two goals: the tokens still
    missing (each worth a few cards) or the cards still in hand.
    """
    distance = [min((TOKENS_TO_WIN - t) * 2.5, h + 0.5) for t, h in zip(tokens, hands, strict=True)]
    weights = [math.exp(-d / scale) for d in distance]
    return weights[seat] / sum(weights)


def world_weight(state: WakatankaState, view: WakatankaView, mine: Tracker) -> float:
    """How well a dealt world fits what the others chose to play.

    A face-down card that is not its tile's animal, placed by someone who (in this world) holds
    that animal, is a bluff they need not have made: such worlds are less likely, by how honest
    that player has shown themselves to be.
    """
    weight = 1.0
    for tile, stack in enumerate(state.stacks):
        for card, placer in stack:
            if placer == view.seat or card == tile:
                continue
            if state.hands[placer][tile] > 0:
                weight *= 1 - mine.honesty[placer]
            elif card != MOUSE:
                weight *= 0.6 if state.hands[placer][MOUSE] else 1.0
    return weight


class HardBot:
    """Medium's best few options, each played on in many deals that fit the view.

    The deals are drawn by `Game.sample_state`, weighed by how well they fit the others' plays
    (`world_weight`) and resampled; every player then plays as medium for `horizon` turns, and
    the position is valued by who is nearest to winning. `worlds` and `options` bound the work.

    The search trusts that the others play like medium, so hard checks it: from its previous
    view it deals a few worlds, plays its own move in them, and asks medium what each other
    player would do next; the share of their actual moves (tile and kind: what everyone sees)
    that medium named is each player's fit. Until the others have made six moves, and while they
    fit less than `trust`, hard plays medium's choice instead of leaning on the model (`trust`
    None: always search).
    """

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = 40,
        options: int = 6,
        horizon: int = 8,
        trust: float | None = 0.45,
    ) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.options = options
        self.horizon = horizon
        self.trust = trust
        #: the dealt worlds in which the others' moves since this seat's last are replayed
        self.learn_worlds = 6
        self._previous: tuple[WakatankaView, Action] | None = None
        self.matched: dict[int, float] = {}  # by seat: moves medium named (a share per world)
        self.judged: dict[int, int] = {}  # by seat: moves checked

    def model_fit(self, view: WakatankaView) -> float | None:
        """How often the active others did what medium would have (None: too few moves seen)."""
        others = [s for s in range(view.players) if s != view.seat]
        judged = sum(self.judged.get(s, 0) for s in others)
        if judged < 6:
            return None
        return sum(self.matched.get(s, 0.0) for s in others) / judged

    def choose(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        self._learn(view)
        action = self._decide(view, legal)
        self._previous = (view, action)
        return action

    def _decide(self, view: WakatankaView, legal: Sequence[Action]) -> Action:
        me = view.seat
        assert me is not None
        if view.last_card:
            return _pick_legal(CALL, legal)
        mine, public = track_pair(view)
        scored = scored_options(view, mine, public)
        scored.sort(key=lambda item: -item[0])
        options = [a for _, a in scored[: self.options] if a in legal]
        if len(options) <= 1:
            return options[0] if options else legal[0]
        if self.trust is not None:
            fit = self.model_fit(view)
            if fit is None or fit < self.trust:
                return options[0]  # medium's own choice, until the model has earned some trust
        return self._search(view, mine, options, me)

    def _search(self, view: WakatankaView, mine: Tracker, options: list[Action], me: int) -> Action:
        """Play each option out with medium's policy in worlds dealt to fit what this seat saw."""
        worlds = self.deal(view, mine)
        playout = Playout(
            medium_policy,
            lambda s: _final(s, me),
            horizon=self.horizon,
            fallback=lambda s: standing(s.tokens, s.hand_size, me, 1.5),
        )
        values = evaluate(options, worlds, playout, self.rng)
        return best(options, values)

    def _learn(self, view: WakatankaView) -> None:
        """Score medium's predictions of the others' moves since this seat last moved."""
        if self._previous is None:
            return
        before, mine = self._previous
        self._previous = None
        done = len(before.turns) + 1  # the previous view's turns, then this seat's own move
        if view.turns[: len(before.turns)] != before.turns or len(view.turns) <= done:
            return
        moves = view.turns[done:]
        from campfire.games.wakatanka.game import GAME

        worlds = self.learn_worlds
        share = 1 / worlds
        weighed: list[dict[str, float]] = [{} for _ in moves]
        for _ in range(worlds):
            world = GAME.sample_state(before, self.rng)
            world.apply(mine)
            for k, turn in enumerate(moves):
                seat = world.to_move
                if world.is_terminal or seat != turn.seat:
                    break
                predicted = medium_policy(world, seat)
                self._weigh(world, turn, predicted, weighed[k])
                if _public(predicted) == (turn.action, turn.tile):
                    self.matched[seat] = self.matched.get(seat, 0.0) + share
                    world.apply(predicted)
                else:
                    actual = _as_played(world, turn)
                    if actual is None:
                        break
                    world.apply(actual)
        for turn in moves:
            self.judged[turn.seat] = self.judged.get(turn.seat, 0) + 1
        self._settle(moves, weighed)

    def _weigh(
        self, world: WakatankaState, turn: Turn, predicted: Action, into: dict[str, float]
    ) -> None:
        """A hook for a subclass: weigh `turn` in one dealt `world` (hard needs only the fit)."""

    def _settle(self, moves: Sequence[Turn], weighed: list[dict[str, float]]) -> None:
        """A hook for a subclass: what `_weigh` found for each of `moves`, over the worlds."""

    def deal(self, view: WakatankaView, mine: Tracker) -> list[tuple[WakatankaState, float]]:
        from campfire.games.wakatanka.game import GAME

        drawn = [GAME.sample_state(view, self.rng) for _ in range(2 * self.worlds)]
        weights = [world_weight(state, view, mine) for state in drawn]
        if sum(weights) <= 0:
            weights = [1.0] * len(drawn)
        chosen = self.rng.choices(drawn, weights, k=self.worlds)
        return [(state, 1.0) for state in chosen]


def _public(action: Action) -> tuple[str, str | None]:
    """What everyone sees of a move: its kind and tile."""
    if isinstance(action, Play):
        return ("play", action.tile)
    if isinstance(action, Spell):
        return ("spell", action.tile)
    return ("call" if action == CALL else "accept", None)


def _as_played(world: WakatankaState, turn: Turn) -> Action | None:
    """The move `turn` shows, in a dealt world: a play places the tile's animal if the player
    holds one there, else a mouse, else any card (None when the world cannot follow)."""
    legal = world.legal_actions()
    if turn.action == "play":
        plays = [a for a in legal if isinstance(a, Play) and a.tile == turn.tile]
        if not plays:
            return None
        for want in (turn.tile, "mouse"):
            for play in plays:
                if play.card == want:
                    return play
        return plays[0]
    public = (turn.action, turn.tile)
    return next((a for a in legal if _public(a) == public), None)


def _final(state: WakatankaState, me: int) -> float | None:
    if not state.is_terminal:
        return None
    winners = state.winners()
    return 1 / len(winners) if me in winners else 0.0


# --- expert ------------------------------------------------------------------------------------
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
    publics = [_public(a) for a in world.legal_actions()]
    anything = publics.count(seen) / len(publics) if publics else 0.0
    named = 1.0 if _public(predicted) == seen else 0.0
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
            return _pick_legal(CALL, legal)
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
