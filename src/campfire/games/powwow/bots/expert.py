"""Expert: hard's belief and search, with every other seat read on its own record."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from campfire.bots.search import hypotheses, least_regret
from campfire.games.powwow.actions import Action, Dispute, Guess
from campfire.games.powwow.bots.belief import (
    FLOOR,
    MODEL,
    Memo,
    Moment,
    likelihood,
    posterior,
)
from campfire.games.powwow.bots.duel import DuelBot, play
from campfire.games.powwow.bots.easy import easy_action
from campfire.games.powwow.bots.hard import HardBot, RoundModel
from campfire.games.powwow.bots.legal import pick_legal
from campfire.games.powwow.bots.medium import threshold_action
from campfire.games.powwow.feathers import count
from campfire.games.powwow.odds import Odds, seat_odds
from campfire.games.powwow.state import PowwowState
from campfire.games.powwow.view import PowwowView

#: the kinds of player the expert tells apart, seat by seat
TYPES = ("medium", "easy", "random")
PRIOR = {"medium": 0.6, "easy": 0.3, "random": 0.1}
#: the chance of any one action for a player who picks at random (about one in thirty guesses)
RANDOM_LIKELIHOOD = 1 / 30


def _normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def easy_likelihood(view: PowwowView, action: Action) -> float:
    """How likely a player who counts what they see and adds 3 a feather of their own, with a
    wobble of about 4, takes `action` (easy's habits, and a person's)."""
    me = view.seat
    assert me is not None
    seen = [f for s, w in enumerate(view.feathers) if s != me for f in w if f is not None]
    estimate = count(seen).total + 3 * len(view.feathers[me])
    guess = view.guess
    spread = 4.2
    if guess is None:
        if not isinstance(action, Guess):
            return FLOOR
        # opens 2 to 8 below the estimate
        gap = estimate - action.value
        return FLOOR + sum(math.exp(-(((gap - k) / spread) ** 2) / 2) for k in range(2, 9)) / (
            7 * spread * math.sqrt(2 * math.pi)
        )
    disputes = _normal_cdf((guess - estimate - 1) / spread)
    if isinstance(action, Dispute):
        return FLOOR + disputes
    if isinstance(action, Guess):
        step = action.value - guess
        share = {1: 3 / 7, 2: 2 / 7, 3: 1 / 7, 5: 1 / 7}.get(step, 0.0)
        return FLOOR + (1 - disputes) * share
    return FLOOR + 0.2 * math.exp(-(((guess - estimate) / 4) ** 2))


def type_likelihoods(view: PowwowView, odds: Odds, action: Action) -> dict[str, float]:
    """P(action | the player is of each type), from the situation they faced."""
    return {
        "medium": likelihood(view, odds, action),
        "easy": easy_likelihood(view, action),
        "random": RANDOM_LIKELIHOOD,
    }


def _mixed_likelihood(past: PowwowView, m: Moment, mix: dict[str, float]) -> float:
    """P(the moment's action | what its player saw), its player read by its mixture of kinds."""
    odds = seat_odds(past) if mix["medium"] > 0 else None
    p = 0.0
    for kind, share in mix.items():
        if share <= 0:
            continue
        if kind == "medium":
            assert odds is not None
            p += share * likelihood(past, odds, m.action)
        elif kind == "easy":
            p += share * easy_likelihood(past, m.action)
        else:
            p += share * RANDOM_LIKELIHOOD
    return p


def mixed_belief(
    view: PowwowView, types: Callable[[int], dict[str, float]], memo: Memo | None = None
) -> dict[tuple[str, ...], float]:
    """P(own feathers | what the others did this round), each other seat read by its own
    posterior over the types (`types(seat)`): a seat that plays at random tells nothing, one
    that counts like easy tells through its estimate, one like medium through its odds.

    `memo` may carry the likelihoods over from an earlier call in the same round with the same
    `types` (the turns before stay as they were); by default each call starts afresh."""
    return posterior(view, lambda past, m: _mixed_likelihood(past, m, types(m.seat)), memo)


class ReadTable(RoundModel):
    """The round with every other seat played as read: each playing of a world draws each
    seat's kind from its posterior, then plays it by that kind's own policy (medium's
    thresholds, easy's count and feel, any legal move). The feel of a decision is drawn from the
    playing and the moment, so every option meets the same players."""

    def __init__(
        self,
        me: int,
        hidden: int,
        post: dict[tuple[str, ...], float],
        kinds: dict[int, dict[str, float]],
        seed: int,
    ) -> None:
        super().__init__(me, hidden, post)
        self.kinds = kinds
        self.seed = seed
        self.playing = 0
        self.drawn: dict[int, str] = {}

    def clear(self, world: object = None) -> None:
        super().clear(world)
        self.playing += 1
        rng = random.Random(self.seed * 100_003 + self.playing)
        self.drawn = {
            seat: rng.choices(list(mix), weights=list(mix.values()))[0]
            for seat, mix in self.kinds.items()
        }

    def policy(self, state: PowwowState, seat: int) -> Action:
        kind = self.drawn.get(seat, "medium")
        if kind == "medium":
            return super().policy(state, seat)
        rng = random.Random(hash((self.seed, self.playing, seat, len(state.turns))))
        legal = state.legal_actions()
        if kind == "easy":
            return easy_action(state.view(seat), legal, rng)
        return rng.choice(list(legal))


class ExpertBot(HardBot):
    """Hard's inference and search, with every other seat read on its own record.

    After each round every feather is shown, so the expert replays each other player's turns as
    they saw them and scores them under three kinds of player: medium (exact odds, thresholds),
    easy (a count of what they see plus a typical feather, with a wobble) and random. Each seat
    gets its own posterior over the kinds (`types`), so one always-disputer among medium players
    is told apart from the rest. The inference about its own feathers reads each seat by that
    posterior (`mixed_belief`). It searches, playing the others as medium, only when every other
    active seat is read as medium; otherwise it plays medium's thresholds on the per-seat belief:
    the robust baseline, which costs little when a reading is wrong.

    `read`: search there too, with the others played as read (`ReadTable`, each world played
    `repeat` times), keeping the thresholds unless an option beats them by `margin`; with
    `regret`, the minimax-regret choice over the kinds a doubted seat may be. Off by default:
    neither beat the thresholds measurably (docs/bots.md).

    `duel`: with two players left, play the equilibrium of the round (`duel.DuelBot`) where the
    other does not read as medium (`duel="doubted"`) or always (`duel="always"`).
    """

    def __init__(
        self,
        seed: int | None = None,
        budget: int = 1500,
        trust: float = 0.7,
        read: bool = False,
        regret: bool = False,
        margin: float = 0.02,
        repeat: int = 4,
        duel: str | None = None,
    ) -> None:
        super().__init__(seed, budget)
        if duel not in (None, "doubted", "always"):
            raise ValueError(f"duel is 'doubted', 'always' or None, not {duel!r}")
        self.duel = duel
        self.duelist = DuelBot(self.rng.randrange(2**32)) if duel is not None else None
        self.trust = trust
        self.read = read
        self.regret = regret
        self.margin = margin
        self.repeat = repeat
        self.loglik: dict[int, dict[str, float]] = {}
        self._memo_key: object = None
        self._memo: Memo = {}

    def reads_as_medium(self, seat: int) -> bool:
        """Whether the search may play `seat` as medium: medium is its likeliest kind by far and,
        once four of its turns are checked, it did exactly what medium would at least 60% of
        the time (a player with one fixed habit, medium otherwise, fails the second test)."""
        if self.types(seat)["medium"] < self.trust:
            return False
        judged = self.judged[seat]
        return judged < 4 or self.matched[seat] / judged >= 0.6

    def _duels(self, others: list[int]) -> bool:
        """Whether to play the heads-up equilibrium (`duel`) against the one player left."""
        if self.duelist is None or len(others) != 1:
            return False
        return self.duel == "always" or not self.reads_as_medium(others[0])

    def types(self, seat: int) -> dict[str, float]:
        """The posterior over the kinds of player `seat` is, from its record."""
        record = self.loglik.get(seat, {})
        logs = {t: math.log(PRIOR[t]) + record.get(t, 0.0) for t in TYPES}
        top = max(logs.values())
        weights = {t: math.exp(v - top) for t, v in logs.items()}
        total = sum(weights.values())
        return {t: w / total for t, w in weights.items()}

    def _choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        me = view.seat
        assert me is not None
        self._learn(view)
        if len(legal) == 1:
            return legal[0]
        others = [s for s in view.active if s != me]
        if self._duels(others):
            assert self.duelist is not None
            mix = self.duelist.mix(view)
            if mix is not None:
                return play(mix, legal, self.rng)
        post = mixed_belief(view, self.types, self._round_memo(view))
        if not all(self.reads_as_medium(s) for s in others):
            baseline = pick_legal(threshold_action(view, seat_odds(view, post)), legal)
            if not self.read:
                return baseline
            return self._read_search(view, legal, me, post, baseline)
        return self._search(view, legal, me, post)

    def _read_search(
        self,
        view: PowwowView,
        legal: Sequence[Action],
        me: int,
        post: dict[tuple[str, ...], float],
        baseline: Action,
    ) -> Action:
        """Search with the others played as read (`ReadTable`); the baseline stands unless an
        option beats it by `margin`, so a misreading costs little. With `regret`, the options
        are played against every kind a doubted seat may plausibly be, and the one whose worst
        shortfall (regret) over those kinds is least is taken: the minimax-regret choice."""
        mixes = {s: self.types(s) for s in view.active if s != me}
        tables = [mixes]
        if self.regret:
            tables = hypotheses(mixes, [s for s in mixes if not self.reads_as_medium(s)])
        seed = self.rng.randrange(2**31)

        def read_as(kinds: dict[int, dict[str, float]]) -> Callable[[int], RoundModel]:
            return lambda hidden: ReadTable(me, hidden, post, kinds, seed)

        options: list[Action] = []
        rows: list[list[float]] = []
        for kinds in tables:
            options, values = self._values(
                view, legal, me, post, read_as(kinds), also=[baseline], repeat=self.repeat
            )
            rows.append(values)
        return least_regret(options, rows, baseline, self.margin)

    def _round_memo(self, view: PowwowView) -> Memo:
        """The likelihoods of this round's turns so far, kept while the round and the readings
        of the seats last: later decisions of a round score only the turns since."""
        key = (
            view.round,
            tuple(view.used),
            tuple(tuple(self.types(s).values()) for s in range(view.players)),
        )
        if key != self._memo_key:
            self._memo_key, self._memo = key, {}
        return self._memo

    def observe(self, view: PowwowView) -> None:
        """Learn from `view` without choosing (`choose` does this first): the last round of a
        finished game, say, or a game the expert watches."""
        self._learn(view)

    def _judge(self, m: Moment, past: PowwowView) -> None:
        """Score one finished turn under every kind of player, and against the model."""
        try:
            odds = seat_odds(past)
        except ValueError:
            return
        record = self.loglik.setdefault(m.seat, {})
        for kind, p in type_likelihoods(past, odds, m.action).items():
            record[kind] = record.get(kind, 0.0) + math.log(max(p, 1e-9))
        self.judged[m.seat] += 1
        self.matched[m.seat] += threshold_action(past, odds, MODEL) == m.action
