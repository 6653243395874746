"""Pow Wow for `campfire.envs.vector`: B games as NumPy arrays, one row per game.

The same rules as `state.py` (RULINGS P1-P12) in shuffle mode, written over arrays so a whole
batch moves with a few dozen NumPy operations: each game's face-down stack is a row of feather
codes drawn from the left, heads are `[B, players, 2]` codes, and rounds are counted for every
game that disputes at once. Rare events (a reshuffle) are handled game by game. Every game logs
its moves and shuffles, so each finished game is a format-1 record that replays through the
scalar engine to the same game (`tests/envs/test_vector.py` checks it, observation by
observation). Observations and masks are `encoding.py`'s, made from arrays instead of a view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from campfire.games.powwow.encoding import (
    AGREE_INDEX,
    DISPUTE_INDEX,
    EXTRA_BASE,
    GUESS_COUNT,
    REVERSE_INDEX,
    PowwowEncoding,
)
from campfire.games.powwow.feathers import CODES, FEATHERS, GUESS_MAX, GUESS_MIN
from campfire.games.powwow.game import GAME

Array = np.ndarray[Any, Any]

_CODE = {code: i for i, code in enumerate(CODES)}
_ALL = np.array(sorted(_CODE[f] for f in FEATHERS), np.int8)  # the 36 feathers as codes
_GREEN = np.array([1, 2, 3, 4, 5, 10, 15, 20], np.int64)  # codes 0..7, increasing
_OTHER = np.zeros(len(CODES), np.int64)
_OTHER[[_CODE["0"], _CODE["-5"], _CODE["-10"]]] = [0, -5, -10]
_X2, _MAX0, _ZERO, _QUESTION = (_CODE[c] for c in ("x2", "max0", "zero", "?"))
#: the guesses from each start on: _FROM[start] is a row of 0s then 1s
_FROM = (np.arange(GUESS_COUNT)[None, :] >= np.arange(GUESS_COUNT + 1)[:, None]).astype(np.int8)
#: half a feather of each code, one-hot (the last row, reached by code -1, is no feather)
_HALF = np.vstack([np.eye(len(CODES)) / 2, np.zeros(len(CODES))]).astype(np.float32)
_SHARE = np.array([1 / FEATHERS.count(code) for code in CODES])
_NONE = -1000  # no guess
_SPAN = GUESS_MAX - GUESS_MIN
#: what a head shows, by its two codes (each -1 for none) as (first + 1) * 16 + second + 1:
#: half a feather of each, one row gathered instead of two rows added at every step
_PAIR = np.array(
    [_HALF[a - 1] + _HALF[b - 1] for a in range(len(CODES) + 1) for b in range(len(CODES) + 1)],
    np.float32,
)
#: a guess as the encoding writes it (float64 quotients rounded once into float32), by
#: `max(guess - GUESS_MIN + 1, 0)`: 0 for no guess (_NONE)
_GUESSED = np.array([0.0] + [(v - GUESS_MIN) / _SPAN for v in range(GUESS_MIN, GUESS_MAX + 1)])


class PowwowBatch:
    """`num_envs` Pow Wow games of `players` seats and `options`, chance from `seed`."""

    def __init__(
        self, num_envs: int, players: int, options: Mapping[str, Any], seed: int | None
    ) -> None:
        self.options = GAME.options(players, options)  # OptionError when bad
        self.encoding = PowwowEncoding(players, self.options)
        self.num_envs = B = num_envs
        self.players = N = players
        self.rng = np.random.default_rng(seed)
        self.rows = np.arange(B)
        self.limit = self.options.buzzards
        self.eliminations = self.options.end_after_eliminations
        self.tomahawks = self.options.tomahawks
        self.stack = np.zeros((B, len(FEATHERS)), np.int8)  # codes, drawn from `pos` on
        self.size = np.zeros(B, np.int64)  # feathers laid out in `stack` at its last shuffle
        self.pos = np.zeros(B, np.int64)
        self.used = np.zeros((B, len(CODES)), np.int64)  # the used pile, a count per code
        self.worn = np.full((B, N, 2), -1, np.int8)
        self.nworn = np.zeros((B, N), np.int64)
        self.question = np.zeros(B, np.bool_)
        self.buzzards = np.zeros((B, N), np.int64)
        self.active = np.ones((B, N), np.bool_)
        self.nout = np.zeros(B, np.int64)
        self.first = np.zeros(B, np.int64)
        self.turn = np.zeros(B, np.int64)
        self.direction = np.ones(B, np.int64)
        self.guess = np.full(B, _NONE, np.int64)
        self.owner = np.full(B, -1, np.int64)
        self.agreed = np.zeros(B, np.bool_)
        self.ready = np.ones((B, N), np.bool_)
        self.latest = np.full((B, N), _NONE, np.int64)  # each seat's latest guess this round
        # the log of each game: its moves (seat, action number) and its shuffles, each shuffle
        # with how many moves came before it
        self.moves = np.zeros((B, 256), np.int16)
        self.seats = np.zeros((B, 256), np.int8)
        self.count = np.zeros(B, np.int64)
        self.shuffles: list[list[tuple[int, Array]]] = [[] for _ in range(B)]
        self.finished: list[tuple[Array, Array, list[tuple[int, Array]]]] = []
        self.action_json = [
            GAME.action_to_json(self.encoding.action(i)) for i in range(self.encoding.num_actions)
        ]
        self.steps = np.arange(1, N)  # the seats after a seat, in steps of one
        self.slots = np.arange(len(FEATHERS))  # the places of a stack

    # --- the batch -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._new_games(self.rows)

    def step(self, actions: Array) -> tuple[Array, Array, Array]:
        """Apply one legal action per game: rewards `[B, players]`, terminations `[B]` and the
        buzzards of each game that ended `[B, players]`."""
        B, rows = self.num_envs, self.rows
        seat = self.turn.copy()
        count = self.count
        if count.max() >= self.moves.shape[1]:
            self._grow()
        self.moves[rows, count] = actions
        self.seats[rows, count] = seat
        self.count += 1
        extra = actions >= EXTRA_BASE
        plain = actions < GUESS_COUNT
        guessing = plain | extra
        following = self._next(seat, self.direction, np.full(B, -1))
        if guessing.any():
            g = np.flatnonzero(guessing)
            a = actions[g]
            value = np.where(extra[g], (a - EXTRA_BASE) % GUESS_COUNT, a) + GUESS_MIN
            self.guess[g] = value
            self.owner[g] = seat[g]
            self.agreed[g] = False
            self.latest[g, seat[g]] = value
            self.turn[g] = following[g]
        if extra.any():
            e = np.flatnonzero(extra)
            target = (actions[e] - EXTRA_BASE) // GUESS_COUNT
            self.ready[e, seat[e]] = False
            feather = self._draw(e)
            self.worn[e, target, 1] = feather
            self.nworn[e, target] = 2
            self.question[e] |= feather == _QUESTION
        agree = actions == AGREE_INDEX
        if agree.any():
            g = np.flatnonzero(agree)
            self.ready[g, seat[g]] = False
            self.owner[g] = seat[g]
            self.agreed[g] = True
            self.turn[g] = following[g]
        reverse = actions == REVERSE_INDEX
        if reverse.any():
            r = np.flatnonzero(reverse)
            self.ready[r, seat[r]] = False
            self.direction[r] = -self.direction[r]
            self.turn[r] = self._next(seat[r], self.direction[r], self.owner[r], r)
        rewards = np.zeros((B, self.players), np.float64)
        over = np.zeros(B, np.bool_)
        scores = np.zeros((B, self.players), np.int64)
        dispute = actions == DISPUTE_INDEX
        if dispute.any():
            d = np.flatnonzero(dispute)
            ended = self._settle(d, seat[d], rewards)
            if len(ended):
                over[ended] = True
                scores[ended] = self.buzzards[ended]
                for b in ended.tolist():
                    n = int(self.count[b])
                    self.finished.append(
                        (self.seats[b, :n].copy(), self.moves[b, :n].copy(), self.shuffles[b])
                    )
                self._new_games(ended)
        return rewards.astype(np.float32), over, scores

    def records(self) -> list[dict[str, Any]]:
        """The format-1 records of the games finished since the last call."""
        finished, self.finished = self.finished, []
        options = self.options.model_dump()
        out = []
        for seats, moves, shuffles in finished:
            entries: list[dict[str, Any]] = []
            at = 0
            for i, (seat, action) in enumerate(zip(seats.tolist(), moves.tolist(), strict=True)):
                while at < len(shuffles) and shuffles[at][0] == i:
                    entries.append(_shuffle_json(shuffles[at][1]))
                    at += 1
                entries.append({"player": seat, **self.action_json[action]})
            entries.extend(_shuffle_json(order) for _, order in shuffles[at:])
            out.append(
                {
                    "format": 1,
                    "game": "powwow",
                    "players": self.players,
                    "options": options,
                    "moves": entries,
                }
            )
        return out

    # --- what the seats see ----------------------------------------------------------------
    def mask(self) -> Array:
        """The legal actions of the seat to move in every game `[B, num_actions]` (int8)."""
        B, rows, seat = self.num_envs, self.rows, self.turn
        out = np.zeros((B, self.encoding.num_actions), np.int8)
        has_guess = self.guess != _NONE
        start = np.where(has_guess, self.guess + 1 - GUESS_MIN, 0)
        guesses = _FROM[start]  # the guesses from `start` on, as a row of bytes
        out[:, :GUESS_COUNT] = guesses
        out[:, DISPUTE_INDEX] = has_guess
        if self.tomahawks:
            ready = self.ready[rows, seat]
            out[:, AGREE_INDEX] = ready & has_guess & ~self.agreed
            out[:, REVERSE_INDEX] = ready
            for target in range(self.players):
                able = ready & (seat != target) & self.active[:, target]
                able &= self.nworn[:, target] == 1
                base = EXTRA_BASE + GUESS_COUNT * target
                out[:, base : base + GUESS_COUNT] = guesses * able[:, None]
        return out

    def observe(self, viewer: Array | None = None) -> Array:
        """Every game's encoded view of `viewer` (default: the seat to move) `[B, obs]`."""
        B, N, rows = self.num_envs, self.players, self.rows
        codes = len(CODES)
        seat = self.turn if viewer is None else viewer
        # float32 throughout: whole counts and halves are exact, and a quotient worked out in
        # float64 and written into it rounds once, exactly as `encoding.observe` rounds it
        out = np.zeros((B, self.encoding.observation_size), np.float32)
        out[rows, seat] = 1.0
        out[rows, N + self.turn] = 1.0
        out[:, 2 * N] = self.direction == -1
        at = 2 * N + 1
        seen = out[:, at : at + N * codes].reshape(B, N, codes)  # a view: written in place
        worn = self.worn.astype(np.int64)
        worn += 1
        seen[...] = _PAIR[worn[:, :, 0] * (len(CODES) + 1) + worn[:, :, 1]]
        seen[rows, seat] = 0.0  # a seat never sees its own feathers
        at += N * codes
        out[:, at : at + N] = self.nworn / 2
        at += N
        out[:, at : at + N] = self.buzzards / self.limit
        at += N
        out[:, at : at + N] = ~self.active
        at += N
        out[:, at : at + N] = self.ready
        at += N
        has_guess = self.guess != _NONE
        out[:, at] = has_guess
        out[:, at + 1] = _GUESSED[np.maximum(self.guess - (GUESS_MIN - 1), 0)]
        at += 2
        owned = np.flatnonzero(self.owner >= 0)
        out[owned, at + self.owner[owned]] = 1.0
        at += N
        out[:, at] = self.agreed
        at += 1
        latest = self.latest
        guessed = latest != _NONE
        out[:, at : at + 2 * N : 2] = guessed
        out[:, at + 1 : at + 2 * N : 2] = _GUESSED[np.maximum(latest - (GUESS_MIN - 1), 0)]
        at += 2 * N
        out[:, at : at + codes] = self.used * _SHARE
        at += codes
        out[:, at] = (self.size - self.pos) / len(FEATHERS)
        return out

    # --- the rules -------------------------------------------------------------------------
    def _new_games(self, games: Array) -> None:
        self.buzzards[games] = 0
        self.active[games] = True
        self.nout[games] = 0
        self.count[games] = 0
        self.first[games] = self.options.first_player
        # the first shuffle of every new game at once: each row a permutation of the 36
        orders = self.rng.permuted(np.broadcast_to(_ALL, (len(games), len(_ALL))), axis=1)
        self.stack[games] = orders
        self.size[games] = len(_ALL)
        self.pos[games] = 0
        self.used[games] = 0
        for b, order in zip(games.tolist(), orders, strict=True):
            self.shuffles[b] = [(0, order)]
        self._start_round(games)

    def _shuffle(self, games: Array) -> None:
        """Shuffle each game's stack and used pile together (the whole 36 at a start), all
        the games at once: each game's feathers laid out sorted from their counts, then put in
        the order of independent uniform keys (a uniform permutation; the slots past a game's
        feathers keep keys above every real one, so they stay at the end)."""
        G = len(games)
        width = len(FEATHERS)
        slots = self.slots
        stack = self.stack[games].astype(np.int64)
        left = (slots >= self.pos[games][:, None]) & (slots < self.size[games][:, None])
        # the feathers left on each stack, counted by code (one bincount for all the games)
        flat = (np.arange(G)[:, None] * len(CODES) + stack)[left]
        held = np.bincount(flat, minlength=G * len(CODES)).reshape(G, len(CODES))
        total = held + self.used[games]
        n = total.sum(axis=1)
        ends = total.cumsum(axis=1)
        laid = (slots[None, :, None] >= ends[:, None, :]).sum(axis=2)  # j-th feather's code
        keys = self.rng.random((G, width))
        keys[slots[None, :] >= n[:, None]] = 2.0
        order = np.take_along_axis(laid, keys.argsort(axis=1), axis=1).astype(np.int8)
        self.stack[games] = order
        self.size[games] = n
        self.pos[games] = 0
        self.used[games] = 0
        count = self.count
        for b, row, k in zip(games.tolist(), order, n.tolist(), strict=True):
            self.shuffles[b].append((int(count[b]), row[:k]))

    def _draw(self, games: Array) -> Array:
        """The next feather of each game's stack, shuffling the used pile in when it is empty."""
        empty = games[self.pos[games] >= self.size[games]]
        if len(empty):
            self._shuffle(empty)
        feather = self.stack[games, self.pos[games]]
        self.pos[games] += 1
        return feather

    def _next(
        self, seat: Array, direction: Array, skip: Array, games: Array | None = None
    ) -> Array:
        """The next active seat from `seat` in `direction`, passing over `skip`; the seat itself
        when there is none."""
        rows = self.rows if games is None else games
        N = self.players
        candidates = (seat[:, None] + direction[:, None] * self.steps[None, :]) % N
        able = self.active[rows[:, None], candidates] & (candidates != skip[:, None])
        found = able.any(axis=1)
        pick = candidates[np.arange(len(rows)), able.argmax(axis=1)]
        return np.where(found, pick, seat)

    def _settle(self, games: Array, disputer: Array, rewards: Array) -> Array:
        """Count the round of each game in `games`, give the buzzard, go on; the games that
        ended (their rewards written)."""
        N = self.players
        turned = np.full(len(games), -1, np.int64)
        q = np.flatnonzero(self.question[games])
        if len(q):
            turned[q] = self._draw(games[q])
        # the feathers of the round, counted by code: the worn ones and the one turned over
        # (-1: none, counted in a last column dropped after), one bincount for all the games
        codes = len(CODES) + 1
        shown = np.concatenate([self.worn[games].reshape(len(games), 2 * N), turned[:, None]], 1)
        flat = np.arange(len(games))[:, None] * codes + (shown.astype(np.int64) % codes)
        counts = np.bincount(flat.ravel(), minlength=len(games) * codes)
        counts = counts.reshape(len(games), codes)[:, :-1]
        greens = counts[:, :8]
        green_sum = greens @ _GREEN
        any_green = greens.any(axis=1)
        top = _GREEN[7 - np.argmax(greens[:, ::-1] > 0, axis=1)]
        green_sum = green_sum - np.where((counts[:, _MAX0] > 0) & any_green, top, 0)
        green_sum = np.where(counts[:, _X2] > 0, 2 * green_sum, green_sum)
        total = green_sum + counts @ _OTHER
        guess = self.guess[games]
        owner = self.owner[games]
        loser = np.where(total >= guess, disputer, owner)
        self.used[games] += counts
        self.worn[games] = -1
        self.nworn[games] = 0
        self.buzzards[games, loser] += 1
        out = self.buzzards[games, loser] >= self.limit
        self.active[games[out], loser[out]] = False
        self.nout[games[out]] += 1
        remaining = self.active[games].sum(axis=1)
        ended = out & (remaining == 1)
        if self.eliminations is not None:
            ended |= out & (self.nout[games] >= self.eliminations)
        if ended.any():
            e = games[ended]
            buzzards = np.where(self.active[e], self.buzzards[e], np.iinfo(np.int64).max)
            won = buzzards == buzzards.min(axis=1, keepdims=True)
            k = won.sum(axis=1, keepdims=True)
            lower = k <= N - k
            win = np.where(lower, 1.0, (N - k) / k)
            lose = np.where(lower, -k / np.maximum(N - k, 1), -1.0)
            rewards[e] = np.where(won, win, lose)
            rewards[e[(k == N).ravel()]] = 0.0
        going = ~ended
        g = games[going]
        loser = loser[going]
        self.first[g] = np.where(
            self.active[g, loser],
            loser,
            self._next(loser, np.ones(len(g), np.int64), np.full(len(g), -1), g),
        )
        zero = counts[going, _ZERO] > 0
        if zero.any():
            self._shuffle(g[zero])
        self._start_round(g)
        finished: Array = games[ended]
        return finished

    def _start_round(self, games: Array) -> None:
        N = self.players
        self.latest[games] = _NONE
        self.guess[games] = _NONE
        self.owner[games] = -1
        self.agreed[games] = False
        self.question[games] = False
        self.direction[games] = 1
        self.ready[games] = True
        order = (self.first[games][:, None] + np.arange(N)[None, :]) % N
        dealt = self.active[games[:, None], order]
        short = games[self.size[games] - self.pos[games] < dealt.sum(axis=1)]
        if len(short):
            self._shuffle(short)
        rank = np.cumsum(dealt, axis=1) - dealt
        where = np.minimum(self.pos[games][:, None] + rank, len(FEATHERS) - 1)
        feather = self.stack[games[:, None], where]
        self.worn[games[:, None], order, 0] = np.where(dealt, feather, -1)
        self.nworn[games[:, None], order] = dealt
        self.pos[games] += dealt.sum(axis=1)
        self.question[games] = (dealt & (feather == _QUESTION)).any(axis=1)
        self.turn[games] = self.first[games]

    def _grow(self) -> None:
        width = self.moves.shape[1]
        self.moves = np.concatenate([self.moves, np.zeros_like(self.moves)], axis=1)
        self.seats = np.concatenate([self.seats, np.zeros_like(self.seats)], axis=1)
        assert self.moves.shape[1] == 2 * width


def _shuffle_json(order: Array) -> dict[str, Any]:
    return {"chance": "shuffle", "order": [CODES[c] for c in order.tolist()]}
