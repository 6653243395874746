"""Heads-up Pow Wow solved by CFR+: the equilibrium baseline of a round between two players.

With two players left (the end of every game, and the two-player variant) each sees the other's
one feather and not their own. That round is a two-player zero-sum game with perfect recall, so
counterfactual regret minimisation converges to an equilibrium of it: a strategy no opponent can
take more than the game's value from, whatever they do. Two abstractions keep it small: guesses
lie on the whole numbers from `low` to `high`, and after `cap` guesses both players finish the
round by medium's thresholds. Inside that game `exploitability` says how much the best possible
opponent gains over the value, for the equilibrium and for medium's thresholds alike.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt

from campfire.games.powwow.actions import DISPUTE, Action, Guess
from campfire.games.powwow.bots.legal import pick_legal
from campfire.games.powwow.bots.medium import MEDIUM, Style, threshold_action
from campfire.games.powwow.feathers import CODES, FEATHERS
from campfire.games.powwow.odds import Odds, distribution, seat_odds
from campfire.games.powwow.view import PowwowView

Array = npt.NDArray[np.float64]

DISPUTE_ACTION = 0  # action 0 disputes; action 1 + k raises (or opens) to `low + k`
#: far enough above any two-player total that every threshold player disputes there
_TOP = 100


@dataclass(frozen=True, slots=True)
class Duel:
    """The abstraction: the guesses a player may make, and when medium takes over (by default
    after two: the opening and its answer are the equilibrium's, solved in a third of a second)."""

    low: int = -15
    high: int = 35
    cap: int = 2
    used: tuple[str, ...] = ()

    @property
    def guesses(self) -> int:
        return self.high - self.low + 1


class DuelGame:
    """The game tree as arrays, one layer per number of guesses made.

    Player 0 opens. At depth `d` (guesses made) player `d % 2` acts, knowing the other's feather:
    player 0's private index is player 1's feather, and the other way round. Histories of a
    layer are the increasing sequences of grid indices of that length (perfect recall).
    """

    def __init__(self, duel: Duel = Duel(), style: Style = MEDIUM) -> None:
        if duel.cap < 1 or duel.high <= duel.low:
            raise ValueError("a duel needs a cap of at least one guess and a range of guesses")
        self.duel = duel
        self.style = style
        self.codes = CODES
        stack = Counter(FEATHERS)
        stack.subtract(duel.used)
        if any(n < 0 for n in stack.values()):
            raise ValueError("the used pile holds feathers the game does not have")
        self.stack = +stack
        n = len(self.codes)
        counts = np.array([self.stack[c] for c in self.codes], dtype=float)
        total = counts.sum()
        if total < 2:
            raise ValueError("fewer than two feathers left to deal")
        same = np.eye(n)
        #: w[a, b]: player 0 wears a, player 1 wears b
        self.deal = counts[:, None] * (counts[None, :] - same) / (total * (total - 1))
        self.deal = np.clip(self.deal, 0.0, None)
        self.histories = [
            list(itertools.combinations(range(duel.guesses), d)) for d in range(duel.cap + 1)
        ]
        self.index = [{h: i for i, h in enumerate(layer)} for layer in self.histories]
        self.last = [np.array([h[-1] if h else -1 for h in layer]) for layer in self.histories]
        self.parent = [np.zeros(0, dtype=int)] + [
            np.array([self.index[d - 1][h[:-1]] for h in self.histories[d]])
            for d in range(1, duel.cap + 1)
        ]
        self.masks = [self._mask(d) for d in range(duel.cap)]
        self._children: dict[int, npt.NDArray[np.int_]] = {}

    # -- the rules of the abstraction ------------------------------------------------------

    def _mask(self, d: int) -> npt.NDArray[np.bool_]:
        g = self.duel.guesses
        last = self.last[d]
        mask = np.zeros((len(last), g + 1), dtype=bool)
        mask[:, DISPUTE_ACTION] = d >= 1
        mask[:, 1:] = np.arange(g)[None, :] > last[:, None]
        return mask

    @cached_property
    def holds(self) -> Array:
        """holds[a, b, g - low]: P(total ≥ g) when the two wear a and b (over what `?` turns)."""
        duel = self.duel
        n = len(self.codes)
        out = np.zeros((n, n, _TOP - duel.low + 1))
        guesses = np.arange(duel.low, _TOP + 1)
        for i, a in enumerate(self.codes):
            for j, b in enumerate(self.codes):
                if self.deal[i, j] <= 0:
                    continue
                unseen = self.stack.copy()
                unseen.subtract((a, b))
                odds = distribution((a, b), 0, +unseen, duel.used)
                out[i, j] = [odds.at_least(int(g)) for g in guesses]
        return out

    @cached_property
    def seat_odds(self) -> list[Odds]:
        """The odds of a player who sees the other wear `codes[s]` (their own unknown)."""
        out = []
        for code in self.codes:
            unseen = self.stack.copy()
            unseen[code] -= 1
            if unseen[code] < 0:
                unseen[code] = 0
            out.append(distribution((code,), 1, +unseen, self.duel.used))
        return out

    def dispute_value(self, player: int, guess: int) -> Array:
        """Player 0's gain, per deal, when `player` disputes `guess`: the loser takes a buzzard."""
        return _dispute_gain(player, self.holds[:, :, min(guess, _TOP) - self.duel.low])

    def medium_move(self, seen: int, guess: int | None) -> int | None:
        """Medium's next guess for a player who sees `codes[seen]`, or None to dispute."""
        odds = self.seat_odds[seen]
        style = self.style
        if guess is None:
            return max(self.duel.low, odds.highest_holding(style.open_at))
        if odds.at_least(guess) < style.dispute_below or guess >= _TOP:
            return None
        target = odds.highest_holding(style.raise_to)
        return target if target > guess else guess + 1

    @cached_property
    def leaf(self) -> Array:
        """leaf[k]: player 0's gain per deal once `cap` guesses are made, the last `low + k`,
        and both finish the round by medium's thresholds."""
        low = self.duel.low
        n = len(self.codes)
        cont: dict[tuple[int, int], Array] = {}
        for guess in range(_TOP, low - 1, -1):
            for player in (0, 1):
                value = np.empty((n, n))
                for seen in range(n):
                    nxt = self.medium_move(seen, guess)
                    if nxt is None or nxt > _TOP:
                        row = self.dispute_value(player, guess)
                    else:
                        row = cont[(nxt, 1 - player)]
                    # player 0 sees player 1's feather (column b); player 1 sees row a
                    if player == 0:
                        value[:, seen] = row[:, seen]
                    else:
                        value[seen, :] = row[seen, :]
                cont[(guess, player)] = value
        actor = self.duel.cap % 2
        return np.stack([cont[(low + k, actor)] for k in range(self.duel.guesses)])

    # -- values of a strategy profile --------------------------------------------------------

    def dispute_values(self, d: int) -> Array:
        """(H, n, n): player 0's gain per deal when the actor at depth `d` disputes."""
        if d == 0:
            return np.zeros((1, *self.deal.shape))
        return _dispute_gain(d % 2, self.holds[:, :, self.last[d]].transpose(2, 0, 1))

    def raise_values(self, d: int, below: Array | None) -> Array:
        """Player 0's gain per deal after each raise at depth `d`: (G, n, n) when the next layer
        is the cap's (the same for every history), else (H, G, n, n) from `below`."""
        if d + 1 == self.duel.cap:
            return self.leaf
        assert below is not None
        return self.after_raises(d, below)

    def after_raises(self, d: int, below: Array) -> Array:
        """`below` (one row a history of depth d + 1) for each raise at depth `d`: (H, G, ...),
        zero where the raise is not allowed."""
        child = self.children(d)
        out = below[np.clip(child, 0, None)]
        out[child < 0] = 0.0
        return out

    def weigh(self, d: int, weight: Array, dispute: Array, raises: Array) -> Array:
        """Sum `weight * value` over the private index the actor does not know: (H, x, 1 + G).

        `weight` is (H, n, n), or (H, n, n, 1 + G) when it differs by action."""
        pick = "b" if d % 2 == 0 else "a"
        by_action = weight.ndim == 4
        wd = weight[..., 0] if by_action else weight
        wr = weight[..., 1:] if by_action else weight
        q0: Array = np.einsum(f"hab,hab->h{pick}", wd, dispute)
        rsub = "kab" if raises.ndim == 3 else "hkab"
        wsub = "habk" if by_action else "hab"
        qr: Array = np.einsum(f"{wsub},{rsub}->h{pick}k", wr, raises, optimize=True)
        return np.concatenate([q0[:, :, None], qr], axis=2)

    def expected(self, d: int, sigma: Array, dispute: Array, raises: Array) -> Array:
        """Player 0's gain per deal at each history of depth `d` under `sigma`: (H, n, n)."""
        pick = "b" if d % 2 == 0 else "a"
        rsub = "kab" if raises.ndim == 3 else "hkab"
        stay: Array = np.einsum(f"h{pick},hab->hab", sigma[:, :, 0], dispute)
        moved: Array = np.einsum(f"h{pick}k,{rsub}->hab", sigma[:, :, 1:], raises, optimize=True)
        return stay + moved

    def reaches(self, profile: list[Array]) -> tuple[list[Array], list[Array]]:
        """Each player's own reach to every history, by their private index."""
        n = len(self.codes)
        reach: tuple[list[Array], list[Array]] = ([np.ones((1, n))], [np.ones((1, n))])
        for d in range(self.duel.cap - 1):
            parent = self.parent[d + 1]
            take = 1 + self.last[d + 1]
            actor = d % 2
            for p in (0, 1):
                r = reach[p][d][parent]
                if p == actor:
                    r = r * profile[d][parent, :, take]
                reach[p].append(r)
        return reach

    def opponent_weight(self, d: int, reach: tuple[list[Array], list[Array]]) -> Array:
        """(H, n, n): the deal's chance times the reach of the player not acting at depth `d`."""
        if d % 2 == 0:
            weight: Array = self.deal[None] * reach[1][d][:, :, None]
        else:
            weight = self.deal[None] * reach[0][d][:, None, :]
        return weight

    def counterfactual(self, profile: list[Array]) -> tuple[list[Array], float]:
        """Each actor's counterfactual value of every action (H, x, 1 + G), and the game value."""
        reach = self.reaches(profile)
        q: list[Array] = [np.zeros(0)] * self.duel.cap
        below: Array | None = None
        for d in range(self.duel.cap - 1, -1, -1):
            dispute = self.dispute_values(d)
            raises = self.raise_values(d, below)
            sign = 1.0 if d % 2 == 0 else -1.0
            q[d] = sign * self.weigh(d, self.opponent_weight(d, reach), dispute, raises)
            below = self.expected(d, profile[d], dispute, raises)
        assert below is not None
        return q, float((self.deal * below[0]).sum())

    def value(self, profile: list[Array]) -> float:
        """Player 0's expected gain (buzzards given minus taken) under `profile`."""
        return self.counterfactual(profile)[1]

    def best_response(self, player: int, profile: list[Array]) -> float:
        """The most `player` can gain against the other's part of `profile`."""
        return self.respond(player, profile)[0]

    def respond(self, player: int, profile: list[Array]) -> tuple[float, list[Array]]:
        """`player`'s best response to the other's part of `profile`: its gain, and the profile
        with `player`'s layers replaced by the response (one action for sure at each turn).

        Bottom up, `best[h, x]` is the most `player` holding private index `x` can gain below
        history `h`, weighted by the chance of the deals and of the other's moves to `h`.
        """
        reach = self.reaches(profile)
        sign = 1.0 if player == 0 else -1.0
        other = 1 - player
        response = [layer.copy() for layer in profile]
        below: Array | None = None
        for d in range(self.duel.cap - 1, -1, -1):
            dispute = sign * self.dispute_values(d)
            leaf_layer = d + 1 == self.duel.cap
            raises = sign * self.leaf if leaf_layer else np.zeros_like(self.leaf)
            if d % 2 == player:
                weight = self.deal[None] * (
                    reach[other][d][:, :, None] if player == 0 else reach[other][d][:, None, :]
                )
            else:  # the other acts, by its private index: a for player 1, b for player 0
                sigma = profile[d]
                if player == 0:
                    weight = self.deal[None, :, :, None] * (
                        reach[other][d][:, :, None, None] * sigma[:, :, None, :]
                    )
                else:
                    weight = self.deal[None, :, :, None] * (
                        reach[other][d][:, None, :, None] * sigma[:, None, :, :]
                    )
            # summed over the other's private index, whoever acts: weighed as the responder's
            cf = self.weigh(player, weight, dispute, raises)
            if not leaf_layer:
                assert below is not None
                cf[:, :, 1:] = self.after_raises(d, below).transpose(0, 2, 1)  # (H, x, G)
            mask = self.masks[d][:, None, :]
            if d % 2 == player:
                masked = np.where(mask, cf, -np.inf)
                below = masked.max(axis=2)
                chosen = masked.argmax(axis=2)
                response[d] = np.zeros_like(profile[d])
                np.put_along_axis(response[d], chosen[:, :, None], 1.0, axis=2)
            else:
                below = np.where(mask, cf, 0.0).sum(axis=2)
        assert below is not None
        return float(below[0].sum()), response

    def children(self, d: int) -> npt.NDArray[np.int_]:
        """children[h, k]: the history after raising to `low + k` at `h`, or -1."""
        if d not in self._children:
            self._children[d] = self._child_table(d)
        return self._children[d]

    def _child_table(self, d: int) -> npt.NDArray[np.int_]:
        child = np.full((len(self.last[d]), self.duel.guesses), -1)
        for i, h in enumerate(self.histories[d]):
            start = h[-1] + 1 if h else 0
            for k in range(start, self.duel.guesses):
                child[i, k] = self.index[d + 1][(*h, k)]
        return child


def _dispute_gain(disputer: int, hold: Array) -> Array:
    """Player 0's gain when `disputer` disputes a guess that holds with chance `hold`."""
    return 1 - 2 * hold if disputer == 0 else 2 * hold - 1


def strategy(regrets: Array, mask: npt.NDArray[np.bool_]) -> Array:
    """Regret matching: play each action in proportion to its positive regret (uniform if none)."""
    positive = np.where(mask[:, None, :], np.maximum(regrets, 0.0), 0.0)
    total = positive.sum(axis=2, keepdims=True)
    uniform = np.broadcast_to(mask[:, None, :] / mask.sum(axis=1)[:, None, None], positive.shape)
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), uniform)


def medium_profile(game: DuelGame) -> list[Array]:
    """Medium's thresholds as a strategy of the abstraction (one action for sure)."""
    n = len(game.codes)
    low, high = game.duel.low, game.duel.high
    profile = []
    for d in range(game.duel.cap):
        layer = np.zeros((len(game.last[d]), n, game.duel.guesses + 1))
        for i, k in enumerate(game.last[d]):
            guess = None if k < 0 else low + int(k)
            for seen in range(n):
                nxt = game.medium_move(seen, guess)
                if nxt is None or (nxt > high and guess is not None):
                    layer[i, seen, DISPUTE_ACTION] = 1.0
                else:  # an opening above the range opens at its top
                    layer[i, seen, 1 + min(max(nxt, low), high) - low] = 1.0
        profile.append(layer)
    return profile


def solve(game: DuelGame, iterations: int) -> list[Array]:
    """CFR+ (alternating updates, regrets floored at zero, linearly weighted average)."""
    cap = game.duel.cap
    regrets = [
        np.zeros((len(game.last[d]), len(game.codes), game.duel.guesses + 1)) for d in range(cap)
    ]
    average = [np.zeros_like(r) for r in regrets]
    for t in range(1, iterations + 1):
        for player in (0, 1):
            profile = [strategy(regrets[d], game.masks[d]) for d in range(cap)]
            q, _ = game.counterfactual(profile)
            reach = game.reaches(profile)
            for d in range(player, cap, 2):
                mask = game.masks[d][:, None, :]
                v = (profile[d] * q[d]).sum(axis=2, keepdims=True)
                regrets[d] = np.where(mask, np.maximum(regrets[d] + q[d] - v, 0.0), 0.0)
                average[d] += t * reach[player][d][:, :, None] * profile[d]
    return [strategy(a, game.masks[d]) for d, a in enumerate(average)]


def exploitability(game: DuelGame, profile: list[Array]) -> float:
    """Half the sum of what each player's best response gains: zero at an equilibrium."""
    return (game.best_response(0, profile) + game.best_response(1, profile)) / 2


class Solved:
    """A profile of a duel, read at a seat's view: the mix of actions it plays there."""

    def __init__(self, game: DuelGame, profile: list[Array]) -> None:
        self.game = game
        self.profile = profile

    def mix(self, view: PowwowView) -> list[tuple[Action, float]] | None:
        """The profile's actions with their chances, or None where the duel does not reach
        (more than two players, tomahawks, guesses off its range or past its cap)."""
        me = view.seat
        game = self.game
        duel = game.duel
        if me is None or view.options.tomahawks or len(view.active) != 2:
            return None
        other = next(s for s in view.active if s != me)
        if len(view.feathers[me]) != 1 or len(view.feathers[other]) != 1:
            return None
        seen = view.feathers[other][0]
        if seen is None:
            return None
        history: list[int] = []
        for _, action in view.turns:
            if not isinstance(action, Guess) or action.extra_feather_to is not None:
                return None
            if not duel.low <= action.value <= duel.high:
                return None
            history.append(action.value - duel.low)
        d = len(history)
        if d >= duel.cap:
            return None
        h = game.index[d].get(tuple(history))
        if h is None:
            return None
        row = self.profile[d][h, game.codes.index(seen)]
        out: list[tuple[Action, float]] = []
        for k, p in enumerate(row):
            if p > 1e-9:
                out.append((DISPUTE if k == DISPUTE_ACTION else Guess(duel.low + k - 1), float(p)))
        return out


def equilibrium(duel: Duel, iterations: int = 200) -> Solved:
    """CFR+'s profile of `duel`: what neither seat can be exploited by much."""
    game = DuelGame(duel)
    return Solved(game, solve(game, iterations))


def medium_response(duel: Duel) -> Solved:
    """Each seat's best response to medium's thresholds: the most a player who knows medium's
    rules can take from it (a benchmark's exploiter, itself exploitable)."""
    game = DuelGame(duel)
    medium = medium_profile(game)
    responses = [game.respond(player, medium)[1] for player in (0, 1)]
    return Solved(game, [responses[d % 2][d] for d in range(duel.cap)])


class DuelBot:
    """Heads-up, a solved profile of the round (by default the equilibrium), solved for the
    feathers still in the stack once a round; elsewhere, and past the duel's cap, medium's
    thresholds."""

    def __init__(
        self,
        seed: int | None = None,
        duel: Duel = Duel(),
        iterations: int = 200,
        solver: Callable[[Duel], Solved] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.duel = duel
        self.solver = solver or (lambda d: equilibrium(d, iterations))
        self._solved: dict[tuple[str, ...], Solved] = {}

    def solved(self, view: PowwowView) -> Solved:
        """The duel of this round's stack, solved once and kept for the round."""
        used = tuple(sorted(view.used))
        found = self._solved.get(used)
        if found is None:
            self._solved = {used: self.solver(replace(self.duel, used=used))}
            found = self._solved[used]
        return found

    def mix(self, view: PowwowView) -> list[tuple[Action, float]] | None:
        if view.options.tomahawks or len(view.active) != 2:
            return None
        return self.solved(view).mix(view)

    def choose(self, view: PowwowView, legal: Sequence[Action]) -> Action:
        mix = self.mix(view)
        if mix is None:
            return pick_legal(threshold_action(view, seat_odds(view)), legal)
        return play(mix, legal, self.rng)


def play(mix: list[tuple[Action, float]], legal: Sequence[Action], rng: random.Random) -> Action:
    """One action drawn from `mix` with its chances."""
    actions, weights = zip(*mix, strict=True)
    return pick_legal(rng.choices(actions, weights=weights)[0], legal)
