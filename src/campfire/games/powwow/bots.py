"""Pow Wow bots: easy (rules of thumb), medium (exact odds and thresholds), hard (inference and
search).

Every bot sees only its seat view. Medium turns the view into the exact distribution of the
round's total (`odds.seat_odds`) and acts on thresholds. Hard starts from the same odds but first
asks what its own feathers must be for the others to have acted as they did this round (they see
its feathers), then tries each promising action against every likely set of own feathers,
playing the rest of the round out with the others modelled as threshold players, and keeps the
action least likely to earn it the buzzard.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from campfire.bots.search import Playout, best, evaluate
from campfire.games.powwow.actions import (
    AGREE,
    DISPUTE,
    REVERSE,
    Action,
    Agree,
    Dispute,
    Guess,
    Reverse,
)
from campfire.games.powwow.feathers import GUESS_MAX, GUESS_MIN, count
from campfire.games.powwow.odds import (
    ALL,
    Odds,
    distribution,
    draws,
    seat_odds,
    unseen_by,
)
from campfire.games.powwow.state import PowwowState
from campfire.games.powwow.view import PowwowView, RoundResult


def _clamp(value: int) -> int:
    return max(GUESS_MIN, min(GUESS_MAX, value))


def _pick_legal(action: Action, legal: Sequence[Action]) -> Action:
    """`action` when the rules allow it, else the nearest safe thing (never an illegal move)."""
    if action in legal:
        return action
    if DISPUTE in legal:
        return DISPUTE
    return legal[0]


def next_seat(view: PowwowView, seat: int, direction: int, skip: int | None = None) -> int:
    """The next active player from `seat` in `direction` (as the rules step, P11)."""
    n = view.players
    nxt = seat
    while True:
        nxt = (nxt + direction) % n
        if nxt == seat:
            return seat
        if nxt not in view.out and nxt != skip:
            return nxt


# --- easy --------------------------------------------------------------------------------------
class EasyBot:
    """Counts what it sees, adds a typical feather for its own, and plays by feel.

    Its mistakes are a person's: the `?` and the black feathers' effects on its own head are
    ignored, the estimate wobbles, raises are small and disputes come late or early.
    """

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        rng = self.rng
        me = view.seat
        assert me is not None
        seen = [f for s, w in enumerate(view.feathers) if s != me for f in w if f is not None]
        estimate = count(seen).total + 3 * len(view.feathers[me]) + rng.gauss(0, 4)
        guess = view.guess
        ready = view.options.tomahawks and view.tomahawks[me]
        if guess is None:
            return _pick_legal(Guess(_clamp(round(estimate) - rng.randint(2, 8))), legal)
        margin = guess - estimate
        if ready and abs(margin) < 4 and rng.random() < 0.4:
            choice = AGREE if not view.agreed and margin < 0 and rng.random() < 0.5 else REVERSE
            return _pick_legal(choice, legal)
        if margin > rng.uniform(-1, 3):
            return DISPUTE
        value = _clamp(guess + rng.choice((1, 1, 1, 2, 2, 3, 5)))
        if ready and rng.random() < 0.15:
            targets = [s for s in view.active if s != me and len(view.feathers[s]) == 1]
            if targets:
                return _pick_legal(Guess(value, rng.choice(targets)), legal)
        return _pick_legal(Guess(value), legal)


# --- medium ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Style:
    """A threshold player: every decision compares exact probabilities with these numbers."""

    dispute_below: float = 0.5  # dispute when the standing guess holds with less than this
    raise_to: float = 0.95  # raise to the highest guess that holds with at least this
    open_at: float = 0.95  # the opening guess holds with at least this
    agree_at: float = 0.65  # agree when the guess holds this well but a raise would not
    reverse_from: float = 0.3  # reverse rather than dispute when the guess holds at least this
    extra_at: float = 0.8  # give the next player an extra feather when the raise still holds


MEDIUM = Style()


def threshold_action(
    view: PowwowView,
    odds: Odds,
    style: Style = MEDIUM,
    after_extra: Callable[[], Odds | None] | None = None,
) -> Action:
    """The medium decision, from the seat's odds (which may carry a belief about own feathers).

    `after_extra` gives the odds once one more unseen feather joins the round (the extra
    feather a tomahawk would hand out); by default they are computed from the view.
    """
    me = view.seat
    assert me is not None
    guess = view.guess
    ready = view.options.tomahawks and view.tomahawks[me]
    if guess is None:
        value = _clamp(odds.highest_holding(style.open_at))
        return _with_extra(view, value, style, after_extra) if ready else Guess(value)
    holds = odds.at_least(guess)
    if holds < style.dispute_below:
        if ready and holds >= style.reverse_from and view.players > 2:
            return REVERSE
        return DISPUTE
    if guess >= GUESS_MAX:
        return DISPUTE
    target = odds.highest_holding(style.raise_to)
    if target <= guess:
        if ready and not view.agreed and holds >= style.agree_at:
            return AGREE
        return Guess(guess + 1)
    value = _clamp(target)
    return _with_extra(view, value, style, after_extra) if ready else Guess(value)


def odds_after_extra(view: PowwowView) -> Odds | None:
    """The seat's odds once one more feather it cannot see joins the round."""
    seen, hidden, unseen = unseen_by(view)
    if sum(unseen.values()) <= hidden:
        return None
    return distribution(seen, hidden + 1, unseen, view.used)


def _with_extra(
    view: PowwowView, value: int, style: Style, after_extra: Callable[[], Odds | None] | None
) -> Guess:
    """Guess `value`, throwing the tomahawk at the next player if the guess survives it."""
    me = view.seat
    assert me is not None
    nxt = next_seat(view, me, view.direction)
    if nxt == me or len(view.feathers[nxt]) != 1 or len(view.feathers[me]) != 1:
        return Guess(value)  # with two unseen feathers already, no more uncertainty is wanted
    after = after_extra() if after_extra is not None else odds_after_extra(view)
    if after is not None and after.at_least(value) >= style.extra_at:
        return Guess(value, nxt)
    return Guess(value)


class MediumBot:
    """Exact odds from the seat view, then guess or dispute by thresholds (see `Style`)."""

    def __init__(self, seed: int | None = None, style: Style = MEDIUM) -> None:
        self.rng = random.Random(seed)
        self.style = style

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        return _pick_legal(threshold_action(view, seat_odds(view), self.style), legal)


# --- hard --------------------------------------------------------------------------------------
#: how the others are modelled: threshold players like medium, whose thresholds hard is unsure of
MODEL = MEDIUM
#: the share of the likelihood that trusts the model's exact choice; the rest is a softer reading
#: (a guess says its maker thinks the total likely reaches it, a dispute that it likely does not)
SHARP = 0.85
FLOOR = 1e-3


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _raise_cdf(p: float) -> float:
    """P(a threshold player's raise threshold is at most p), thresholds spread around 0.9."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    return 1 / (1 + math.exp(-(_logit(p) - 2.2) / 0.8))


def _dispute_chance(holds: float) -> float:
    """P(a threshold player disputes a guess they think holds with `holds`)."""
    return 1 / (1 + math.exp((holds - 0.5) / 0.08))


def soft_likelihood(view: PowwowView, odds: Odds, action: Action) -> float:
    """How likely a threshold player with these odds and unknown thresholds takes `action`."""
    guess = view.guess
    holds = 1.0 if guess is None else odds.at_least(guess)
    if isinstance(action, Dispute):
        return _dispute_chance(holds)
    if isinstance(action, Agree):
        assert guess is not None
        return 0.5 * (1 - _dispute_chance(holds)) * (1 - _raise_cdf(odds.at_least(guess + 1)))
    if isinstance(action, Reverse):
        return 0.3 * math.exp(-(((holds - 0.45) / 0.2) ** 2))
    assert isinstance(action, Guess)
    stay = 1.0 if guess is None else 1 - _dispute_chance(holds)
    v = action.value
    if guess is not None and v == guess + 1:
        value = 1 - _raise_cdf(odds.at_least(v + 1))
    else:
        value = _raise_cdf(odds.at_least(v)) - _raise_cdf(odds.at_least(v + 1))
    return stay * value


def likelihood(view: PowwowView, odds: Odds, action: Action) -> float:
    """P(action) under the model of the others: mostly medium exactly, partly a soft reading."""
    exact = threshold_action(view, odds, MODEL) == action
    return FLOOR + SHARP * exact + (1 - SHARP) * soft_likelihood(view, odds, action)


@dataclass(frozen=True, slots=True)
class Moment:
    """The public situation before one turn of this round (rebuilt from the view's turns)."""

    index: int
    seat: int
    action: Action
    guess: int | None
    owner: int | None
    agreed: bool
    direction: int
    ready: tuple[bool, ...]
    extras: tuple[int, ...]  # feathers each seat wore then

    def seen_from(
        self,
        view: PowwowView,
        worn: Sequence[Sequence[str | None]],
        turns: tuple[tuple[int, Action], ...],
    ) -> PowwowView:
        """The view this turn's player had: `worn` gives every seat's feathers as they are
        now (the first `extras[s]` of them were on by then); the player's own stay hidden."""
        feathers = tuple(
            (None,) * self.extras[s] if s == self.seat else tuple(worn[s][: self.extras[s]])
            for s in range(view.players)
        )
        return replace(
            view,
            seat=self.seat,
            to_move=self.seat,
            feathers=feathers,
            guess=self.guess,
            owner=self.owner,
            agreed=self.agreed,
            direction=self.direction,
            tomahawks=self.ready,
            turns=turns[: self.index],
        )


def round_moments(view: PowwowView) -> list[Moment]:
    """Each turn taken so far this round, with the situation its player faced."""
    guess: int | None = None
    owner: int | None = None
    agreed = False
    direction = 1
    ready = [True] * view.players
    worn = [0 if s in view.out else 1 for s in range(view.players)]
    out = []
    for i, (seat, action) in enumerate(view.turns):
        out.append(
            Moment(i, seat, action, guess, owner, agreed, direction, tuple(ready), tuple(worn))
        )
        if isinstance(action, Guess):
            guess, owner, agreed = action.value, seat, False
            if action.extra_feather_to is not None:
                ready[seat] = False
                worn[action.extra_feather_to] += 1
        elif isinstance(action, Agree):
            owner, agreed, ready[seat] = seat, True, False
        elif isinstance(action, Reverse):
            direction, ready[seat] = -direction, False
    return out


def _worn_then(own: tuple[str, ...], worn: int) -> tuple[str, ...]:
    """The seat's feathers a past turn's player saw (the first `worn` it got), as a multiset:
    the others' readings depend on nothing else of them, so a belief scores each once."""
    return tuple(sorted(own[:worn]))


def _ordered_own(unseen: Counter[str], hidden: int) -> list[tuple[tuple[str, ...], int]]:
    """The seat's own feathers in the order it got them, with their numbers of ways."""
    if hidden < 2:
        return draws(unseen, hidden)
    out: list[tuple[tuple[str, ...], int]] = []
    for first, n in unseen.items():
        if n <= 0:
            continue
        for second, m in unseen.items():
            ways = n * (m - 1 if second == first else m)
            if ways > 0:
                out.append(((first, second), ways))
    return out


def belief(view: PowwowView) -> dict[tuple[str, ...], float]:
    """P(own feathers | what the others did this round), by sorted feathers.

    The others see this seat's feathers: for each possible set, rebuild what every other player
    saw before each of their turns, and weigh the set by how likely they were to act as they did.
    """
    me = view.seat
    assert me is not None
    _, hidden, unseen = unseen_by(view)
    moments = [m for m in round_moments(view) if m.seat != me]
    posterior: dict[tuple[str, ...], float] = {}
    memo: dict[tuple[int, tuple[str, ...]], float] = {}
    for own, ways in _ordered_own(unseen, hidden):
        weight = float(ways)
        worn = [own if s == me else view.feathers[s] for s in range(view.players)]
        for m in moments:
            seen = (m.index, _worn_then(own, m.extras[me]))
            p = memo.get(seen)
            if p is None:
                past = m.seen_from(view, worn, view.turns)
                p = memo[seen] = likelihood(past, seat_odds(past), m.action)
            weight *= p
        key = tuple(sorted(own))
        posterior[key] = posterior.get(key, 0.0) + weight
    total = sum(posterior.values())
    return {own: w / total for own, w in posterior.items()}


def _determinized(view: PowwowView, own: tuple[str, ...]) -> PowwowState:
    """The full round when this seat's feathers are `own` (the stack stays unordered)."""
    from campfire.games.powwow.game import GAME

    return GAME.sample_state(view, random.Random(0), chance="draw", own=list(own))


class _Model:
    """Everyone as a threshold player in a determinized round, and the exact end of it.

    A dispute is valued the moment it is chosen: P(this seat takes the buzzard), exact over what
    `?` may turn over, since the stack of a determinized round is known.
    """

    def __init__(self, me: int, hidden: int, post: dict[tuple[str, ...], float]) -> None:
        self.me = me
        self.hidden = hidden
        self.post = post
        self.cache: dict[tuple[int, tuple[tuple[str, ...], ...]], Odds] = {}
        self.extra_cache: dict[tuple[int, tuple[tuple[str, ...], ...]], Odds | None] = {}
        self.totals: dict[tuple[str, ...], Odds] = {}

    def clear(self, world: object = None) -> None:
        self.cache.clear()
        self.extra_cache.clear()
        self.totals.clear()

    def odds(self, state: PowwowState, seat: int) -> Odds:
        key = (seat, tuple(tuple(w) for w in state.worn))
        odds = self.cache.get(key)
        if odds is None:
            seen = [f for s, w in enumerate(state.worn) if s != seat for f in w]
            unseen = ALL.copy()
            unseen.subtract(state.used)
            unseen.subtract(seen)
            hidden = len(state.worn[seat])
            weights = self.post if seat == self.me and hidden == self.hidden else None
            odds = distribution(seen, hidden, unseen, state.used, weights)
            self.cache[key] = odds
        return odds

    def holds(self, state: PowwowState, guess: int) -> float:
        """P(total ≥ guess) when every worn feather is known."""
        worn = tuple(sorted(f for w in state.worn for f in w))
        odds = self.totals.get(worn)
        if odds is None:
            odds = distribution(worn, 0, Counter(state.stack.items()), state.used)
            self.totals[worn] = odds
        return odds.at_least(guess)

    def policy(self, state: PowwowState, seat: int) -> Action:
        view = state.view(seat)
        key = (seat, tuple(tuple(w) for w in state.worn))

        def after_extra() -> Odds | None:
            if key not in self.extra_cache:
                self.extra_cache[key] = odds_after_extra(view)
            return self.extra_cache[key]

        return threshold_action(view, self.odds(state, seat), MODEL, after_extra)

    def settle(self, state: PowwowState, action: Action) -> float | None:
        """P(this seat keeps clear of the buzzard) once `action` disputes; None otherwise."""
        if not isinstance(action, Dispute):
            return None
        assert state.guess is not None
        holds = self.holds(state, state.guess)
        if state.to_move == self.me:
            return 1 - holds
        return holds if state.owner == self.me else 1.0

    @staticmethod
    def value(state: PowwowState) -> float | None:
        return None  # a round only ends with a dispute, which `settle` values


def round_turns(
    seen: PowwowView, mine: tuple[PowwowView, Action] | None, result: RoundResult
) -> tuple[tuple[int, Action], ...]:
    """A finished round's turns as far as this seat can rebuild them: those of its last view of
    the round, its own move made from that view, and the dispute that ended the round when it
    answered the last guess known (a round whose later turns were missed keeps what is sure)."""
    turns = seen.turns
    if mine is not None and mine[0] is seen and seen.seat is not None:
        turns = (*turns, (seen.seat, mine[1]))  # my own last move, then who answered
    last_guess = next((a.value for _, a in reversed(turns) if isinstance(a, Guess)), None)
    if last_guess == result.guess and result.disputer != seen.seat:
        turns = (*turns, (result.disputer, DISPUTE))
    return turns


class HardBot:
    """Inference about its own feathers from the others' play, then a search over its options.

    `budget` bounds the work of one decision: the number of (own feathers, option) pairs played
    out. It is a count, not a clock, so the same views and seed always give the same choices.

    Both steps trust the model of the others (medium's thresholds). Hard checks that trust: once
    a round is over every feather is shown, so it replays each other player's turns of that round
    (as it saw them) and counts how often the model named the very action taken. While the active
    players it has checked follow the model less than half the time, it stops leaning on it and
    plays medium's own thresholds.
    """

    def __init__(self, seed: int | None = None, budget: int = 1500) -> None:
        self.rng = random.Random(seed)
        self.budget = budget
        self._last_seen: dict[int, PowwowView] = {}  # the latest view of each round in play
        self._checked: set[int] = set()  # rounds already replayed against the model
        self.matched: Counter[int] = Counter()  # by seat: turns the model named exactly
        self.judged: Counter[int] = Counter()  # by seat: turns checked
        self._mine: dict[int, tuple[PowwowView, Action]] = {}  # my last move of each round

    def model_fit(self, view: PowwowView) -> float | None:
        """How often the active others did what the model said (None: too few turns seen)."""
        others = [s for s in view.active if s != view.seat]
        judged = sum(self.judged[s] for s in others)
        if judged < 6:
            return None
        return sum(self.matched[s] for s in others) / judged

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        action = self._choose(view, legal)
        self._mine[view.round] = (view, action)
        return action

    def _choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        me = view.seat
        assert me is not None
        self._learn(view)
        if len(legal) == 1:
            return legal[0]
        fit = self.model_fit(view)
        if fit is not None and fit < 0.5:
            return _pick_legal(threshold_action(view, seat_odds(view)), legal)
        return self._search(view, legal, me, belief(view))

    def _search(
        self, view: PowwowView, legal: Sequence[Action], me: int, post: dict[tuple[str, ...], float]
    ) -> Action:
        """Play each option out in the worlds most likely under `post` (this seat's own feathers
        as the others' bids tell them), the likeliest first, as many as the budget allows."""
        seen, hidden, unseen = unseen_by(view)
        mine = distribution(seen, hidden, unseen, view.used, post)
        ranked = sorted(post.items(), key=lambda item: (-item[1], item[0]))
        options = self.options(view, mine, [own for own, _ in ranked[:3]], set(legal))
        if len(options) == 1:
            return options[0]
        # an option that hands out an extra feather costs one playout per feather it may draw
        cost = sum(
            15 if isinstance(a, Guess) and a.extra_feather_to is not None else 1 for a in options
        )
        keep: list[tuple[tuple[str, ...], float]] = []
        mass = 0.0
        for own, p in ranked:
            keep.append((own, p))
            mass += p
            if mass >= 0.995 or (len(keep) + 1) * cost > self.budget:
                break
        model = _Model(me, hidden, post)
        worlds = [(_determinized(view, own), p) for own, p in keep]
        playout = Playout(model.policy, model.value, model.settle)
        values = evaluate(options, worlds, playout, self.rng, on_world=model.clear)
        return best(options, values)

    def _learn(self, view: PowwowView) -> None:
        """Replay the rounds that ended since the last look against the model of the others."""
        for number, result in enumerate(view.rounds, start=1):
            if number in self._checked:
                continue
            self._checked.add(number)
            seen = self._last_seen.pop(number, None)
            mine = self._mine.pop(number, None)
            if seen is None:
                continue
            turns = round_turns(seen, mine, result)
            for m in round_moments(replace(seen, turns=turns)):
                if m.seat == seen.seat:
                    continue
                past = m.seen_from(seen, result.worn, turns)
                try:
                    predicted = threshold_action(past, seat_odds(past), MODEL)
                except ValueError:  # a feather the replay cannot place: skip the turn
                    continue
                self.judged[m.seat] += 1
                self.matched[m.seat] += predicted == m.action
        if view.round not in self._checked and any(view.feathers):
            self._last_seen[view.round] = view

    def options(
        self,
        view: PowwowView,
        mine: Odds,
        likely: list[tuple[str, ...]],
        legal: set[Action],
    ) -> list[Action]:
        """The few actions worth a search: disputing, the cautious raise, raises at a range of
        confidence, raises that put the next player on the edge of disputing, and the tomahawk's
        three uses."""
        me = view.seat
        assert me is not None
        guess = view.guess
        floor = GUESS_MIN if guess is None else guess + 1
        values = {floor} if guess is not None else set()
        for confidence in (0.995, 0.98, 0.95, 0.9, 0.8, 0.7, 0.6, 0.5):
            values.add(max(floor, mine.highest_holding(confidence)))
        nxt = next_seat(view, me, view.direction)
        if nxt != me:
            for own in likely:
                state = _determinized(view, own)
                seen = [f for s, w in enumerate(state.worn) if s != nxt for f in w]
                unseen = ALL.copy()
                unseen.subtract(view.used)
                unseen.subtract(seen)
                theirs = distribution(seen, len(state.worn[nxt]), unseen, view.used)
                edge = theirs.highest_holding(MODEL.dispute_below) + 1
                values.update(v for v in (edge - 1, edge) if v >= floor)
        values = {_clamp(v) for v in values}
        out: list[Action] = []
        if guess is not None:
            out.append(DISPUTE)
        out.extend(Guess(v) for v in sorted(values))
        out.extend(a for a in (AGREE, REVERSE) if a in legal)
        if view.options.tomahawks and view.tomahawks[me]:
            targets = []
            seat = me
            for _ in range(2):  # the next two players, who answer the guess first
                seat = next_seat(view, seat, view.direction)
                if seat != me and seat not in targets and len(view.feathers[seat]) == 1:
                    targets.append(seat)
            for target in targets:
                for v in sorted({min(values), max(floor, mine.highest_holding(0.9))}):
                    out.append(Guess(v, target))
        return [a for a in out if a in legal]


# --- expert ------------------------------------------------------------------------------------
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


def _mixed_likelihood(past: PowwowView, m: Moment, mixes: dict[int, dict[str, float]]) -> float:
    """P(the moment's action | what its player saw), its player read by its mixture of kinds."""
    mix = mixes[m.seat]
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


#: a past turn's likelihood by (turn index, the feathers of this seat its player saw)
Memo = dict[tuple[int, tuple[str, ...]], float]


def mixed_belief(
    view: PowwowView, types: Callable[[int], dict[str, float]], memo: Memo | None = None
) -> dict[tuple[str, ...], float]:
    """P(own feathers | what the others did this round), each other seat read by its own
    posterior over the types (`types(seat)`): a seat that plays at random tells nothing, one
    that counts like easy tells through its estimate, one like medium through its odds.

    `memo` may carry the likelihoods over from an earlier call in the same round with the same
    `types` (the turns before stay as they were); by default each call starts afresh."""
    me = view.seat
    assert me is not None
    _, hidden, unseen = unseen_by(view)
    moments = [m for m in round_moments(view) if m.seat != me]
    mixes = {m.seat: types(m.seat) for m in moments}
    posterior: dict[tuple[str, ...], float] = {}
    memo = {} if memo is None else memo
    for own, ways in _ordered_own(unseen, hidden):
        weight = float(ways)
        worn = [own if s == me else view.feathers[s] for s in range(view.players)]
        for m in moments:
            seen = (m.index, _worn_then(own, m.extras[me]))
            p = memo.get(seen)
            if p is None:
                p = memo[seen] = _mixed_likelihood(m.seen_from(view, worn, view.turns), m, mixes)
            weight *= p
        key = tuple(sorted(own))
        posterior[key] = posterior.get(key, 0.0) + weight
    total = sum(posterior.values())
    return {own: w / total for own, w in posterior.items()}


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
    """

    def __init__(self, seed: int | None = None, budget: int = 1500, trust: float = 0.7) -> None:
        super().__init__(seed, budget)
        self.trust = trust
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
        post = mixed_belief(view, self.types, self._round_memo(view))
        if not all(self.reads_as_medium(s) for s in others):
            return _pick_legal(threshold_action(view, seat_odds(view, post)), legal)
        return self._search(view, legal, me, post)

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

    def _learn(self, view: PowwowView) -> None:
        """Replay the rounds that ended since the last look, scoring every type seat by seat."""
        for number, result in enumerate(view.rounds, start=1):
            if number in self._checked:
                continue
            self._checked.add(number)
            seen = self._last_seen.pop(number, None)
            mine = self._mine.pop(number, None)
            if seen is None:
                continue
            turns = round_turns(seen, mine, result)
            for m in round_moments(replace(seen, turns=turns)):
                if m.seat == seen.seat:
                    continue
                past = m.seen_from(seen, result.worn, turns)
                try:
                    odds = seat_odds(past)
                except ValueError:
                    continue
                record = self.loglik.setdefault(m.seat, {})
                for kind, p in type_likelihoods(past, odds, m.action).items():
                    record[kind] = record.get(kind, 0.0) + math.log(max(p, 1e-9))
                self.judged[m.seat] += 1
                self.matched[m.seat] += threshold_action(past, odds, MODEL) == m.action
        if view.round not in self._checked and any(view.feathers):
            self._last_seen[view.round] = view
