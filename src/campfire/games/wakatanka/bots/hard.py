"""Hard: medium's best few options, each played on in many deals that fit the view."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from campfire.bots.search import Playout, best, evaluate
from campfire.games.wakatanka.actions import CALL, Action, Play, Spell
from campfire.games.wakatanka.bots.legal import pick_legal
from campfire.games.wakatanka.bots.medium import medium_action, scored_options
from campfire.games.wakatanka.cards import MOUSE, TOKENS_TO_WIN
from campfire.games.wakatanka.state import WakatankaState
from campfire.games.wakatanka.tracking import Tracker, track_pair
from campfire.games.wakatanka.view import Turn, WakatankaView


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
            return pick_legal(CALL, legal)
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
            lambda s: won_share(s, me),
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
                if public_move(predicted) == (turn.action, turn.tile):
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


def public_move(action: Action) -> tuple[str, str | None]:
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
    return next((a for a in legal if public_move(a) == public), None)


def won_share(state: WakatankaState, me: int) -> float | None:
    """`me`'s share of the win once the game is over (None while it goes on)."""
    if not state.is_terminal:
        return None
    winners = state.winners()
    return 1 / len(winners) if me in winners else 0.0
