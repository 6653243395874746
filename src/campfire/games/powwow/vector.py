"""Pow Wow for `campfire.envs.vector`: B games as NumPy arrays, one row per game.

The same rules as `state.py` (RULINGS P1-P12) in shuffle mode, written over arrays so a whole
batch moves with a few dozen NumPy operations: each game's face-down stack is a row of feather
codes drawn from the left, heads are `[B, players, 2]` codes, every kind of action is applied
over the whole batch with masked writes, and rounds are counted, shuffles made and new rounds
and games dealt for every game that disputes at once. With few seats the arrays are small, so
a step's cost is its number of NumPy calls: seat arithmetic is looked up in tables by the set of
seats still in rather than worked out. Every game logs its moves (a row per batch step) and
shuffles, so each finished game is a format-1 record that replays through the scalar engine to
the same game (`tests/envs/test_vector.py` checks it, observation by observation). Observations
and masks are `encoding.py`'s, made from arrays instead of a view.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
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
_DECK = np.bincount([_CODE[f] for f in FEATHERS], minlength=len(CODES))  # the 36, by code
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
_OUT = np.iinfo(np.int64).max  # a seat out of the game, where the fewest buzzards win
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
#: the same with its flag before it: the (flag, value) pair the encoding writes for a guess
_GUESSED2 = np.stack([np.arange(len(_GUESSED)) > 0, _GUESSED], axis=1).astype(np.float32)
#: the plain guesses and the dispute by the same index: row 0 (no guess) every guess and no
#: dispute, row i every guess from the (i - 1)-th on and the dispute
_MASKS = np.concatenate([_FROM, (np.arange(GUESS_COUNT + 1) > 0)[:, None]], axis=1).astype(np.int8)
#: one-hot rows by seat + 1 (row 0: nobody)
_ONE_HOT = np.vstack([np.zeros(8), np.eye(8)]).astype(np.float32)


@cache
def _tables(players: int) -> tuple[Array, Array, Array, Array, Array, Array]:
    """Seat arithmetic looked up instead of worked out, by the set of seats still in (a bit per
    seat): the next seat from a seat in a direction passing over one seat, the first player of
    a round from the loser, each seat's place in the deal from the first player, how many are
    dealt; the seat one-hot pairs of the observation; the results by the set of winners."""
    N = players
    sets = 1 << N
    # NEXT[((bits * N + seat) * 2 + back) * (N + 1) + skip + 1]
    following = np.zeros(sets * N * 2 * (N + 1), np.int64)
    first = np.zeros(sets * N, np.int64)
    rank = np.full((sets * N, N), -1, np.int64)
    dealt = np.zeros(sets, np.int64)
    for bits in range(sets):
        dealt[bits] = bin(bits).count("1")
        for seat in range(N):
            for back in range(2):
                step = -1 if back else 1
                for skip in range(-1, N):
                    found = seat
                    for k in range(1, N):
                        other = (seat + step * k) % N
                        if bits >> other & 1 and other != skip:
                            found = other
                            break
                    following[((bits * N + seat) * 2 + back) * (N + 1) + skip + 1] = found
            first[bits * N + seat] = (
                seat if bits >> seat & 1 else following[((bits * N + seat) * 2) * (N + 1)]
            )
            place = 0
            for k in range(N):
                other = (seat + k) % N
                if bits >> other & 1:
                    rank[bits * N + seat, other] = place
                    place += 1
    hot = np.zeros((N * N, 2 * N), np.float32)  # the viewer and the seat to move
    for viewer in range(N):
        for mover in range(N):
            hot[viewer * N + mover, viewer] = 1.0
            hot[viewer * N + mover, N + mover] = 1.0
    results = np.zeros((sets, N), np.float64)  # float64 quotients, rounded once into float32
    for won in range(sets):
        k = int(dealt[won])
        if 0 < k < N:
            lower = k <= N - k
            for seat in range(N):
                if won >> seat & 1:
                    results[won, seat] = 1.0 if lower else (N - k) / k
                else:
                    results[won, seat] = -k / max(N - k, 1) if lower else -1.0
    return following, first, rank, dealt, hot, results


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
        self.seat_rows = self.rows * N  # a seat's place in a flattened [B, players] array
        self.stack_rows = self.rows * len(FEATHERS)
        self.limit = self.options.buzzards
        self.eliminations = self.options.end_after_eliminations
        self.tomahawks = self.options.tomahawks
        self.everyone = (1 << N) - 1
        tables = _tables(N)
        self.following, self.first_of, self.rank, self.dealt, self.hot, self.results = tables
        self.powers = 1 << np.arange(N)  # a seat's bit
        self.stack = np.zeros((B, len(FEATHERS)), np.int8)  # codes, drawn from `pos` on
        self.size = np.zeros(B, np.int64)  # feathers laid out in `stack` at its last shuffle
        self.pos = np.zeros(B, np.int64)
        self.used = np.zeros((B, len(CODES)), np.int64)  # the used pile, a count per code
        self.worn = np.full((B, N, 2), -1, np.int64)
        self.nworn = np.zeros((B, N), np.int64)
        self.question = np.zeros(B, np.bool_)
        self.buzzards = np.zeros((B, N), np.int64)
        self.active = np.ones((B, N), np.bool_)
        self.bits = np.full(B, self.everyone, np.int64)  # the seats still in, a bit each
        self.nout = np.zeros(B, np.int64)
        self.first = np.zeros(B, np.int64)
        self.turn = np.zeros(B, np.int64)
        self.back = np.zeros(B, np.bool_)  # the turn goes clockwise (reversed)
        self.guess = np.full(B, _NONE, np.int64)
        self.owner = np.full(B, -1, np.int64)
        self.agreed = np.zeros(B, np.bool_)
        self.ready = np.ones((B, N), np.bool_)
        self.latest = np.full((B, N), _NONE, np.int64)  # each seat's latest guess this round
        # the log of every game: a row per step of the batch (the action and seat of each
        # game), so a step logs with two row writes; `start` is the step each game began at
        # (steps counted from the first, row 0 of the log being step `t0`); shuffles are kept
        # per game with how many moves came before each
        self.log_moves = np.zeros((256, B), np.int16)
        self.log_seats = np.zeros((256, B), np.int8)
        self.t = 0
        self.t0 = 0
        self.start = np.zeros(B, np.int64)
        self.shuffles: list[list[tuple[int, Array]]] = [[] for _ in range(B)]
        #: the games ended and not yet handed out: (row, first step, end step, shuffles)
        self.finished: list[tuple[int, int, int, list[tuple[int, Array]]]] = []
        #: whose view `final` keeps, and that view at the end of each game ended (by row)
        self.final_seat = 0
        self.final: dict[int, Array] = {}
        self.action_json = [
            GAME.action_to_json(self.encoding.action(i)) for i in range(self.encoding.num_actions)
        ]
        self.slots = np.arange(len(FEATHERS))  # the places of a stack

    # --- the batch -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._new_games(self.rows)
        self._shuffle(self.rows)
        self._start_round(self.rows)

    def reset_rows(self, rows: Array) -> None:
        """New games in `rows`, their games dropped unfinished."""
        self._new_games(rows)
        self._shuffle(rows)
        self._start_round(rows)

    def step(self, actions: Array) -> tuple[Array, Array, Array]:
        """Apply one legal action per game: rewards `[B, players]`, terminations `[B]` and the
        buzzards of each game that ended `[B, players]`. A negative action: that game waits.

        Every kind of action is applied over the whole batch at once (masked writes), so a
        step costs about the same number of NumPy calls whatever the games do; only a dispute
        (counting a round, starting the next or a new game) works on the games that dispute."""
        B, N = self.num_envs, self.players
        seat = self.turn
        if self.t - self.t0 >= len(self.log_moves):
            self._compact()
        at = self.t - self.t0
        self.log_moves[at] = actions
        self.log_seats[at] = seat
        self.t += 1
        dispute = actions == DISPUTE_INDEX
        waiting = actions < 0
        some_wait = waiting.any()
        if self.tomahawks:
            extra = actions >= EXTRA_BASE
            guessing = (actions < GUESS_COUNT) | extra
            if some_wait:
                guessing &= ~waiting
            value = np.where(extra, (actions - EXTRA_BASE) % GUESS_COUNT, actions)
            value += GUESS_MIN
        else:
            guessing = ~dispute
            if some_wait:
                guessing &= ~waiting
            value = actions + GUESS_MIN
        key = self.bits * N
        key += seat
        key *= 2
        key += self.back
        key *= N + 1  # the next seat, passing over none
        following = self.following.take(key)
        np.copyto(self.guess, value, where=guessing)
        np.copyto(self.owner, seat, where=guessing)
        latest = self.latest.reshape(-1)
        mine = self.seat_rows + seat
        if self.tomahawks:
            latest[mine] = np.where(guessing, value, latest[mine])
            self.agreed &= ~guessing
            agree = actions == AGREE_INDEX
            self.turn = np.where(guessing | agree, following, seat)
            self._tomahawks(actions, seat, extra, agree, key)
        else:
            latest[mine] = np.where(guessing, value, latest[mine])
            self.turn = np.where(guessing, following, seat)
        rewards = np.zeros((B, N), np.float32)
        over = np.zeros(B, np.bool_)
        scores = np.zeros((B, N), np.int64)
        d = np.flatnonzero(dispute)
        if len(d):
            self._settle(d, seat[d], rewards, over, scores)
        return rewards, over, scores

    def _tomahawks(
        self, actions: Array, seat: Array, extra: Array, agree: Array, key: Array
    ) -> None:
        """What an extra feather, an agreement and a reverse do besides a guess."""
        ready = self.ready.reshape(-1)
        if extra.any():
            e = np.flatnonzero(extra)
            target = (actions[e] - EXTRA_BASE) // GUESS_COUNT
            ready[self.seat_rows[e] + seat[e]] = False
            feather = self._draw(e)
            self.worn[e, target, 1] = feather
            self.nworn[e, target] = 2
            self.question[e] |= feather == _QUESTION
        if agree.any():
            g = np.flatnonzero(agree)
            ready[self.seat_rows[g] + seat[g]] = False
            self.owner[g] = seat[g]
            self.agreed[g] = True
        reverse = actions == REVERSE_INDEX
        if reverse.any():
            r = np.flatnonzero(reverse)
            ready[self.seat_rows[r] + seat[r]] = False
            back = self.back[r]
            self.back[r] = ~back
            # the same key in the other direction, passing over the owner
            turned = key[r] + np.where(back, -(self.players + 1), self.players + 1)
            self.turn[r] = self.following.take(turned + self.owner[r] + 1)

    def records(self) -> list[tuple[int, dict[str, Any]]]:
        """(row, format-1 record) of each game finished since the last call."""
        finished, self.finished = self.finished, []
        options = self.options.model_dump()
        out = []
        for b, begun, ended, shuffles in finished:
            seats = self.log_seats[begun - self.t0 : ended - self.t0, b]
            moves = self.log_moves[begun - self.t0 : ended - self.t0, b]
            entries: list[dict[str, Any]] = []
            at = 0
            for i, (seat, action) in enumerate(zip(seats.tolist(), moves.tolist(), strict=True)):
                while at < len(shuffles) and shuffles[at][0] == i:
                    entries.append(_shuffle_json(shuffles[at][1]))
                    at += 1
                if action >= 0:  # else the game waited at that step
                    entries.append({"player": seat, **self.action_json[action]})
            entries.extend(_shuffle_json(order) for _, order in shuffles[at:])
            record = {
                "format": 1,
                "game": "powwow",
                "players": self.players,
                "options": options,
                "moves": entries,
            }
            out.append((b, record))
        return out

    # --- what the seats see ----------------------------------------------------------------
    def mask(self) -> Array:
        """The legal actions of the seat to move in every game `[B, num_actions]` (int8)."""
        index = self.guess - (GUESS_MIN - 1)
        np.maximum(index, 0, out=index)  # 0: no guess, else the lowest guess left + 1
        if not self.tomahawks:
            return _MASKS.take(index, axis=0)
        B, seat = self.num_envs, self.turn
        out = np.zeros((B, self.encoding.num_actions), np.int8)
        out[:, : DISPUTE_INDEX + 1] = _MASKS.take(index, axis=0)
        guesses = out[:, :GUESS_COUNT]
        ready = self.ready.reshape(-1).take(self.seat_rows + seat)
        out[:, AGREE_INDEX] = ready & (index > 0) & ~self.agreed
        out[:, REVERSE_INDEX] = ready
        for target in range(self.players):
            able = ready & (seat != target) & self.active[:, target]
            able &= self.nworn[:, target] == 1
            base = EXTRA_BASE + GUESS_COUNT * target
            np.multiply(guesses, able[:, None], out=out[:, base : base + GUESS_COUNT])
        return out

    def observe(
        self, viewer: Array | None = None, games: Array | None = None, ended: bool = False
    ) -> Array:
        """Every game's encoded view of `viewer` (default: the seat to move) `[B, obs]`, or
        only those of `games` (then `viewer` is one per game of `games`); `ended`: the games
        have just ended, their round's feathers gone (nothing worn: not worked out).

        Every column is written (no zeroing first); one-hots and guesses are rows of tables."""

        def rows_of(array: Array) -> Array:
            return array if games is None else array[games]

        N = self.players
        B = self.num_envs if games is None else len(games)
        codes = len(CODES)
        turn = rows_of(self.turn)
        seat = turn if viewer is None else viewer
        # float32 throughout: whole counts and halves are exact, and a quotient worked out in
        # float64 and written into it rounds once, exactly as `encoding.observe` rounds it
        out = np.empty((B, self.encoding.observation_size), np.float32)
        out[:, : 2 * N] = self.hot.take(seat * N + turn, axis=0)
        out[:, 2 * N] = rows_of(self.back)
        at = 2 * N + 1
        if ended:  # worn and wearing: nothing
            out[:, at : at + N * codes + N] = 0.0
            at += N * codes + N
        else:
            seen = out[:, at : at + N * codes].reshape(B, N, codes)  # a view: written in place
            worn_codes = rows_of(self.worn)
            worn = worn_codes[:, :, 0] * (len(CODES) + 1)
            worn += worn_codes[:, :, 1]
            worn += len(CODES) + 2
            seen[...] = _PAIR.take(worn, axis=0)
            seen[np.arange(B), seat] = 0.0  # a seat never sees its own feathers
            at += N * codes
            np.multiply(rows_of(self.nworn), 0.5, out=out[:, at : at + N], casting="unsafe")
            at += N
        out[:, at : at + N] = rows_of(self.buzzards) / self.limit
        at += N
        np.logical_not(rows_of(self.active), out=out[:, at : at + N], casting="unsafe")
        at += N
        out[:, at : at + N] = rows_of(self.ready) if self.tomahawks else 0.0  # off: no tomahawk
        at += N
        index = rows_of(self.guess) - (GUESS_MIN - 1)
        np.maximum(index, 0, out=index)
        out[:, at : at + 2] = _GUESSED2.take(index, axis=0)
        at += 2
        out[:, at : at + N] = _ONE_HOT[: N + 1, :N].take(rows_of(self.owner) + 1, axis=0)
        at += N
        out[:, at] = rows_of(self.agreed)
        at += 1
        latest = rows_of(self.latest) - (GUESS_MIN - 1)
        np.maximum(latest, 0, out=latest)
        out[:, at : at + 2 * N] = _GUESSED2.take(latest, axis=0).reshape(B, 2 * N)
        at += 2 * N
        np.multiply(rows_of(self.used), _SHARE, out=out[:, at : at + codes], casting="unsafe")
        at += codes
        out[:, at] = (rows_of(self.size) - rows_of(self.pos)) / len(FEATHERS)
        return out

    def _final_views(self, games: Array) -> None:
        """`final_seat`'s view of each game of `games` as it ended: the round counted, its
        feathers gone to the used pile, nobody to move."""
        N = self.players
        out = self.observe(np.full(len(games), self.final_seat, np.int64), games, ended=True)
        out[:, N : 2 * N] = 0.0
        for row, b in enumerate(games.tolist()):
            self.final[b] = out[row]

    # --- the rules -------------------------------------------------------------------------
    def _new_games(self, games: Array) -> None:
        """New games in `games`: all 36 feathers in the used pile, for the shuffle that starts
        a game (made with the other shuffles of the step)."""
        self.buzzards[games] = 0
        self.active[games] = True
        self.bits[games] = self.everyone
        self.nout[games] = 0
        self.start[games] = self.t
        self.first[games] = self.options.first_player
        self.size[games] = 0
        self.pos[games] = 0
        self.used[games] = _DECK
        shuffles = self.shuffles
        for b in games.tolist():
            shuffles[b] = []

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
        # the j-th feather's code: how many codes end at or before j, one search for all the
        # games (each game's ends and places lifted above the last game's)
        lift = np.arange(0, 64 * G, 64)[:, None]
        ends = total.cumsum(axis=1)
        ends += lift
        laid = np.searchsorted(ends.ravel(), (slots + lift).ravel(), side="right")
        laid -= np.repeat(np.arange(0, len(CODES) * G, len(CODES)), width)
        keys = self.rng.random((G, width))
        keys[slots[None, :] >= n[:, None]] = 2.0
        places = keys.argsort(axis=1)
        places += np.arange(0, width * G, width)[:, None]
        order = laid.take(places).astype(np.int8)
        self.stack[games] = order
        self.size[games] = n
        self.pos[games] = 0
        self.used[games] = 0
        made = (self.t - self.start[games]).tolist()  # the moves of each game before it
        for b, row, k, before in zip(games.tolist(), order, n.tolist(), made, strict=True):
            self.shuffles[b].append((before, row[:k]))

    def _draw(self, games: Array) -> Array:
        """The next feather of each game's stack, shuffling the used pile in when it is empty."""
        empty = games[self.pos[games] >= self.size[games]]
        if len(empty):
            self._shuffle(empty)
        pos = self.pos[games]
        feather = self.stack.reshape(-1).take(self.stack_rows[games] + pos)
        self.pos[games] = pos + 1
        return feather

    def _settle(
        self, games: Array, disputer: Array, rewards: Array, over: Array, scores: Array
    ) -> None:
        """Count the round of each game in `games`, give the buzzard, go on: the next round, or
        a new game for each game that ended (its rewards, termination and scores written)."""
        N, G = self.players, len(games)
        turned = np.full(G, -1, np.int64)
        q = np.flatnonzero(self.question[games])
        if len(q):
            turned[q] = self._draw(games[q])
        # the feathers of the round, counted by code: the worn ones and the one turned over
        # (-1: none, counted in a last column dropped after), one bincount for all the games
        codes = len(CODES) + 1
        shown = np.concatenate([self.worn[games].reshape(G, 2 * N), turned[:, None]], 1)
        shown %= codes
        shown += np.arange(0, G * codes, codes)[:, None]
        counts = np.bincount(shown.ravel(), minlength=G * codes)
        counts = counts.reshape(G, codes)[:, :-1]
        greens = counts[:, :8]
        green_sum = greens @ _GREEN
        top = _GREEN[7 - np.argmax(greens[:, ::-1] > 0, axis=1)]
        top *= (counts[:, _MAX0] > 0) & (green_sum > 0)
        green_sum -= top
        green_sum *= (counts[:, _X2] > 0) + 1
        total = green_sum + counts @ _OTHER
        loser = np.where(total >= self.guess[games], disputer, self.owner[games])
        self.used[games] += counts
        lost = self.seat_rows[games] + loser
        buzzards = self.buzzards.reshape(-1)
        buzzards[lost] += 1
        first = self.first_of.take(self.bits[games] * N + loser)
        out = buzzards[lost] >= self.limit
        if out.any():
            o, seat = games[out], loser[out]
            self.active[o, seat] = False
            self.bits[o] &= ~(1 << seat)
            self.nout[o] += 1
            ended = self.dealt.take(self.bits[o]) == 1
            if self.eliminations is not None:
                ended |= self.nout[o] >= self.eliminations
            first[out] = self.first_of.take(self.bits[o] * N + seat)
            if ended.any():
                self._end(o[ended], rewards, over, scores)
        self.first[games] = first
        going = ~over[games]
        if not going.all():
            self._new_games(games[~going])
        # one shuffle for all: a new game's, one after a zero feather, one when the stack is
        # too short for the deal (never after either of the others)
        shuffle = going & (counts[:, _ZERO] > 0)
        shuffle |= self.size[games] - self.pos[games] < self.dealt.take(self.bits[games])
        if shuffle.any():
            self._shuffle(games[shuffle])
        self._start_round(games)

    def _end(self, e: Array, rewards: Array, over: Array, scores: Array) -> None:
        """The games `e` ended: their rewards, termination, scores and log."""
        buzzards = np.where(self.active[e], self.buzzards[e], _OUT)
        won = buzzards == buzzards.min(axis=1, keepdims=True)
        rewards[e] = self.results.take(won @ self.powers, axis=0)
        over[e] = True
        self._final_views(e)
        scores[e] = self.buzzards[e]
        t, shuffles = self.t, self.shuffles
        self.finished.extend(
            (b, begun, t, shuffles[b])
            for b, begun in zip(e.tolist(), self.start[e].tolist(), strict=True)
        )

    def _start_round(self, games: Array) -> None:
        """Deal the round (the stack holds enough: shuffled before when short)."""
        N = self.players
        self.latest[games] = _NONE
        self.guess[games] = _NONE
        self.owner[games] = -1
        self.agreed[games] = False
        self.back[games] = False
        self.ready[games] = True
        first = self.first[games]
        key = self.bits[games] * N + first
        rank = self.rank.take(key, axis=0)  # each seat's place in the deal, -1: not dealt
        dealt = self.dealt.take(self.bits[games])
        pos = self.pos[games]
        where = rank + pos[:, None]
        np.clip(where, 0, len(FEATHERS) - 1, out=where)
        where += self.stack_rows[games][:, None]
        feather = self.stack.reshape(-1).take(where)
        worn = np.full((len(games), N, 2), -1, np.int64)
        on = rank >= 0
        np.copyto(worn[:, :, 0], feather, where=on)
        self.worn[games] = worn
        self.nworn[games] = on
        self.pos[games] = pos + dealt
        self.question[games] = (worn[:, :, 0] == _QUESTION).any(axis=1)
        self.turn[games] = first

    def _compact(self) -> None:
        """Make room in the log: drop the steps before every game still kept (live or not yet
        handed out), doubling the log when more than half of it is still needed."""
        kept = min([int(self.start.min())] + [begun for _, begun, _, _ in self.finished])
        needed = self.t - kept
        height = len(self.log_moves)
        if needed > height // 2:
            height *= 2
        moves = np.zeros((height, self.num_envs), np.int16)
        seats = np.zeros((height, self.num_envs), np.int8)
        moves[:needed] = self.log_moves[kept - self.t0 : self.t - self.t0]
        seats[:needed] = self.log_seats[kept - self.t0 : self.t - self.t0]
        self.log_moves, self.log_seats, self.t0 = moves, seats, kept


def _shuffle_json(order: Array) -> dict[str, Any]:
    return {"chance": "shuffle", "order": [CODES[c] for c in order.tolist()]}
