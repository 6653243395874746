"""Hard: the belief about its own feathers, then a search of the round over its options."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from campfire.bots.search import Playout, best, evaluate
from campfire.games.powwow.actions import AGREE, DISPUTE, REVERSE, Action, Dispute, Guess
from campfire.games.powwow.bots.belief import MODEL, Moment, belief, round_moments
from campfire.games.powwow.bots.legal import clamp, next_seat, pick_legal
from campfire.games.powwow.bots.medium import odds_after_extra, threshold_action
from campfire.games.powwow.feathers import GUESS_MIN
from campfire.games.powwow.odds import Odds, distribution, pool, seat_odds, unseen_by
from campfire.games.powwow.state import PowwowState
from campfire.games.powwow.view import PowwowView, RoundResult


def _determinized(view: PowwowView, own: tuple[str, ...]) -> PowwowState:
    """The full round when this seat's feathers are `own` (the stack stays unordered)."""
    from campfire.games.powwow.game import GAME

    return GAME.sample_state(view, random.Random(0), chance="draw", own=list(own))


class RoundModel:
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
            unseen = pool(state.options)
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

        action = threshold_action(view, self.odds(state, seat), MODEL, after_extra)
        if state.variant:  # a research variant's narrower guesses
            return pick_legal(action, state.legal_actions())
        return action

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
            return pick_legal(threshold_action(view, seat_odds(view)), legal)
        return self._search(view, legal, me, belief(view))

    def _search(
        self, view: PowwowView, legal: Sequence[Action], me: int, post: dict[tuple[str, ...], float]
    ) -> Action:
        """Play each option out in the worlds most likely under `post` (this seat's own feathers
        as the others' bids tell them), the likeliest first, as many as the budget allows."""
        options, values = self._values(view, legal, me, post)
        return options[0] if len(options) == 1 else best(options, values)

    def _values(
        self,
        view: PowwowView,
        legal: Sequence[Action],
        me: int,
        post: dict[tuple[str, ...], float],
        make: Callable[[int], RoundModel] | None = None,
        also: Sequence[Action] = (),
        repeat: int = 1,
    ) -> tuple[list[Action], list[float]]:
        """The options worth a search (with `also`), and their values played out by the model
        `make(hidden)` (by default, everyone as medium); with `repeat`, every world is played
        that many times while the budget lasts (for a model that draws habits afresh each time)."""
        seen, hidden, unseen = unseen_by(view)
        mine = distribution(seen, hidden, unseen, view.used, post)
        ranked = sorted(post.items(), key=lambda item: (-item[1], item[0]))
        options = self.options(view, mine, [own for own, _ in ranked[:3]], set(legal))
        options.extend(a for a in also if a not in options)
        if len(options) == 1:
            return options, [0.0]
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
        times = max(1, min(repeat, self.budget // (len(keep) * cost)))
        worlds = [
            (world, p / times) for own, p in keep for world in [_determinized(view, own)] * times
        ]
        model = RoundModel(me, hidden, post) if make is None else make(hidden)
        playout = Playout(model.policy, model.value, model.settle)
        return options, evaluate(options, worlds, playout, self.rng, on_world=model.clear)

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
                self._judge(m, m.seen_from(seen, result.worn, turns))
        if view.round not in self._checked and any(view.feathers):
            self._last_seen[view.round] = view

    def _judge(self, m: Moment, past: PowwowView) -> None:
        """Score one finished turn against the model, from the view its player had."""
        try:
            predicted = threshold_action(past, seat_odds(past), MODEL)
        except ValueError:  # a feather the replay cannot place: skip the turn
            return
        self.judged[m.seat] += 1
        self.matched[m.seat] += predicted == m.action

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
                unseen = pool(view.options)
                unseen.subtract(view.used)
                unseen.subtract(seen)
                theirs = distribution(seen, len(state.worn[nxt]), unseen, view.used)
                edge = theirs.highest_holding(MODEL.dispute_below) + 1
                values.update(v for v in (edge - 1, edge) if v >= floor)
        values = {clamp(v) for v in values}
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
