"""Waka Tanka for `campfire.envs.vector`: B games as NumPy arrays, one row per game.

The same rules as `state.py` (RULINGS W1-W6) in shuffle mode, written over arrays so a whole
batch moves with a few dozen NumPy operations. A tile's stack is kept as counts, not as a row of
cards: `placed[b, seat, tile, card]` counts the cards each seat put face down on each tile, which
is all a reveal needs (who takes what, whether a spell finds two of the animal, what each seat
was seen to take and give up) and all the observation shows; the one card whose place in a stack
matters, the top one that a call turns over, is the last play's card, kept apart. Hands are
`[B, players, 7]` counts. All of a game's chance (the shuffle and the marker) comes at its start,
so a game's record is its shuffle, its marker and its moves, logged as a row per batch step; the
JSON is made only when asked for. Each finished game replays through the scalar engine to the same
observations, legal actions and results (`tests/envs/test_vector.py`). Observations and masks are
`encoding.py`'s, made from arrays instead of a view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from campfire.games.wakatanka.cards import CARDS, TILES, TOKENS_TO_WIN, deck, per_kind
from campfire.games.wakatanka.encoding import (
    ACCEPT_INDEX,
    CALL_INDEX,
    NUM_ACTIONS,
    SPELL_BASE,
    WakatankaEncoding,
)
from campfire.games.wakatanka.game import GAME

Array = np.ndarray[Any, Any]

_KINDS = len(CARDS)  # 7: the six animals and the mouse
_TILES = len(TILES)
#: one-hot rows by index + 1 (row 0: none)
_ONE_HOT = np.vstack([np.zeros(8), np.eye(8)]).astype(np.float32)
#: each action's kind (0 play, 1 call, 2 spell, 3 accept), tile and card (-1 where none)
_KIND = np.array([0] * 42 + [1] + [2] * 6 + [3], np.int64)
_TILE_OF = np.array([a // 7 for a in range(42)] + [-1] + list(range(6)) + [-1], np.int64)
_CARD_OF = np.array([a % 7 for a in range(42)] + [-1] * 8, np.int64)
#: the two tiles next to the marker, by the marker's tile: a row of six flags
_NEXT_TO = np.array(
    [[(t - m) % _TILES in (1, _TILES - 1) for t in range(_TILES)] for m in range(_TILES)], np.bool_
)
#: counts of cards up to a whole deck, one row per count
_COUNTS = np.arange(43, dtype=np.float64)


class WakatankaBatch:
    """`num_envs` Waka Tanka games of `players` seats and `options`, chance from `seed`."""

    def __init__(
        self, num_envs: int, players: int, options: Mapping[str, Any], seed: int | None
    ) -> None:
        self.options = GAME.options(players, options)  # OptionError when bad
        self.encoding = WakatankaEncoding(players, self.options)
        self.num_envs = B = num_envs
        self.players = N = players
        self.rng = np.random.default_rng(seed)
        self.rows = np.arange(B)
        self.deck = np.array([CARDS.index(card) for card in deck(players)], np.int64)
        self.per_card = 1.0 / len(self.deck)  # one card as a share of the deck
        self.per_kind = 1.0 / per_kind(players)  # one card as a share of its kind
        # a count as the encoding writes it (a float64 product rounded once into float32),
        # looked up by the count instead of multiplied and cast at every step
        self.card_share = (_COUNTS * self.per_card).astype(np.float32)
        self.kind_share = (_COUNTS * self.per_kind).astype(np.float32)
        self.token_share = (_COUNTS / TOKENS_TO_WIN).astype(np.float32)
        first = self.options.first_player
        #: the seat dealt the i-th card
        self.dealt_to = (first + np.arange(len(self.deck))) % N
        self.next_seat = (np.arange(N) + 1) % N
        # counts of at most a deck: small integers keep the arrays small
        self.hands = np.zeros((B, N, _KINDS), np.int8)
        self.hand_size = np.zeros((B, N), np.int8)
        self.placed = np.zeros((B, N, _TILES, _KINDS), np.int8)  # face down, by placer
        self.by_placer = np.zeros((B, _TILES, N), np.int8)  # the same summed over the cards
        self.sizes = np.zeros((B, _TILES), np.int8)
        self.removed = np.zeros((B, _KINDS), np.int8)
        self.known = np.zeros((B, N, _KINDS), np.int8)  # seen taken, not seen given up since
        self.tokens = np.zeros((B, N), np.int8)
        self.marker = np.zeros(B, np.int64)
        self.marker_at_start = np.zeros(B, np.int64)  # for the record
        self.last_seat = np.full(B, -1, np.int64)  # the last play's seat (-1: none)
        self.last_tile = np.zeros(B, np.int64)
        self.last_kind = np.zeros(B, np.int64)  # the card it placed: the top of its tile
        self.last_card = np.zeros(B, np.bool_)
        self.turn = np.zeros(B, np.int64)
        # the log: a row per batch step (each game's action, -1 when it waited, and seat); each
        # game's first step, shuffle and marker
        self.log_moves = np.zeros((256, B), np.int8)
        self.log_seats = np.zeros((256, B), np.int8)
        self.t = 0
        self.t0 = 0
        self.start = np.zeros(B, np.int64)
        self.orders = np.zeros((B, len(self.deck)), np.int8)
        #: the games ended and not yet handed out: (row, first step, end step, order, marker)
        self.finished: list[tuple[int, int, int, Array, int]] = []
        self.final_seat = 0
        self.final: dict[int, Array] = {}
        self.action_json = [
            GAME.action_to_json(self.encoding.action(i)) for i in range(NUM_ACTIONS)
        ]

    # --- the batch -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._new_games(self.rows)

    def reset_rows(self, rows: Array) -> None:
        """New games in `rows`, their games dropped unfinished."""
        self._new_games(rows)

    def step(self, actions: Array) -> tuple[Array, Array, Array]:
        """Apply one legal action per game (a negative one: that game waits): rewards
        `[B, players]`, terminations `[B]` and the tokens of each game that ended."""
        B, N = self.num_envs, self.players
        if self.t - self.t0 >= len(self.log_moves):
            self._compact()
        seat = self.turn
        at = self.t - self.t0
        self.log_moves[at] = actions
        self.log_seats[at] = seat
        self.t += 1
        kind = np.where(actions < 0, -1, _KIND.take(np.maximum(actions, 0)))
        rewards = np.zeros((B, N), np.float32)
        over = np.zeros(B, np.bool_)
        scores = np.zeros((B, N), np.int64)
        winners = np.full(B, -1, np.int64)
        p = np.flatnonzero(kind == 0)
        if len(p):
            self._play(p, seat[p], actions[p])
        c = np.flatnonzero(kind == 1)
        if len(c):
            self._call(c, seat[c], winners)
        s = np.flatnonzero(kind == 2)
        if len(s):
            self._spell(s, seat[s], actions[s] - SPELL_BASE, winners)
        a = np.flatnonzero(kind == 3)
        if len(a):
            winners[a] = self.last_seat[a]  # the empty-handed player, who played last
        ended = np.flatnonzero(winners >= 0)
        if len(ended):
            self._end(ended, winners[ended], rewards, over, scores)
        return rewards, over, scores

    def records(self) -> list[tuple[int, dict[str, Any]]]:
        """(row, format-1 record) of each game finished since the last call."""
        finished, self.finished = self.finished, []
        options = self.options.model_dump()
        out = []
        for b, begun, ended, order, marker in finished:
            seats = self.log_seats[begun - self.t0 : ended - self.t0, b].tolist()
            moves = self.log_moves[begun - self.t0 : ended - self.t0, b].tolist()
            entries: list[dict[str, Any]] = [
                {"chance": "shuffle", "order": [CARDS[c] for c in order.tolist()]},
                {"chance": "marker", "tile": TILES[marker]},
            ]
            json = self.action_json
            entries += [
                {"player": seat, **json[move]}
                for seat, move in zip(seats, moves, strict=True)
                if move >= 0
            ]
            record = {
                "format": 1,
                "game": "wakatanka",
                "players": self.players,
                "options": options,
                "moves": entries,
            }
            out.append((b, record))
        return out

    # --- what the seats see ----------------------------------------------------------------
    def mask(self) -> Array:
        """The legal actions of the seat to move in every game `[B, 50]` (int8)."""
        B = self.num_envs
        out = np.empty((B, NUM_ACTIONS), np.int8)
        held = self.hands.reshape(-1, _KINDS).take(self.rows * self.players + self.turn, axis=0)
        plays = out[:, : _TILES * _KINDS].reshape(B, _TILES, _KINDS)  # a view: written in place
        np.logical_and(_NEXT_TO.take(self.marker, axis=0)[:, :, None], held[:, None, :], out=plays)
        out[:, CALL_INDEX] = self.last_seat >= 0
        np.greater(self.sizes, 0, out=out[:, SPELL_BASE : SPELL_BASE + _TILES])
        out[:, ACCEPT_INDEX] = 0
        last = np.flatnonzero(self.last_card)
        if len(last):
            out[last] = 0
            out[last, CALL_INDEX] = 1
            out[last, ACCEPT_INDEX] = 1
        return out

    def observe(
        self, viewer: Array | None = None, games: Array | None = None, ended: bool = False
    ) -> Array:
        """Every game's encoded view of `viewer` (default: the seat to move) `[B, obs]`, or
        only those of `games`; `ended`: as the games ended (nobody to move)."""

        def rows_of(array: Array) -> Array:
            return array if games is None else array[games]

        N = self.players
        B = self.num_envs if games is None else len(games)
        turn = rows_of(self.turn)
        seat = turn if viewer is None else viewer
        card_share, kind_share = self.card_share, self.kind_share
        mine = np.arange(B) * N + seat  # the viewer's place in a flattened [B, N, ...] array
        out = np.empty((B, self.encoding.observation_size), np.float32)
        out[:, :N] = _ONE_HOT[1 : N + 1, :N].take(seat, axis=0)
        if ended:
            out[:, N : 2 * N] = 0.0
        else:
            out[:, N : 2 * N] = _ONE_HOT[1 : N + 1, :N].take(turn, axis=0)
        at = 2 * N
        out[:, at : at + 6] = _ONE_HOT[1:7, :6].take(rows_of(self.marker), axis=0)
        at += 6
        hand = rows_of(self.hands).reshape(-1, _KINDS).take(mine, axis=0)
        out[:, at : at + 7] = kind_share.take(hand)
        at += 7
        out[:, at : at + N] = card_share.take(rows_of(self.hand_size))
        at += N
        out[:, at : at + N] = self.token_share.take(rows_of(self.tokens))
        at += N
        width = 1 + 7 + N
        stacks = out[:, at : at + 6 * width].reshape(B, 6, width)  # a view: written in place
        stacks[:, :, 0] = card_share.take(rows_of(self.sizes))
        own = rows_of(self.placed).reshape(-1, _TILES, _KINDS).take(mine, axis=0)
        stacks[:, :, 1:8] = kind_share.take(own)
        stacks[:, :, 8:] = card_share.take(rows_of(self.by_placer))
        at += 6 * width
        out[:, at : at + 7] = kind_share.take(rows_of(self.removed))
        at += 7
        last_seat = rows_of(self.last_seat)
        out[:, at : at + N] = _ONE_HOT[: N + 1, :N].take(last_seat + 1, axis=0)
        tile = np.where(last_seat >= 0, rows_of(self.last_tile) + 1, 0)
        out[:, at + N : at + N + 6] = _ONE_HOT[:7, :6].take(tile, axis=0)
        at += N + 6
        out[:, at] = rows_of(self.last_card)
        at += 1
        out[:, at : at + 7 * N] = kind_share.take(rows_of(self.known).reshape(B, 7 * N))
        return out

    # --- the rules -------------------------------------------------------------------------
    def _play(self, p: Array, seat: Array, actions: Array) -> None:
        """Move the marker to the tile, place the card face down there (W4)."""
        tile, card = _TILE_OF.take(actions), _CARD_OF.take(actions)
        N = self.players
        hands = self.hands.reshape(-1)
        hands[(p * N + seat) * _KINDS + card] -= 1
        sizes = self.hand_size.reshape(-1)
        where = p * N + seat
        sizes[where] -= 1
        placed = self.placed.reshape(-1)
        placed[((p * N + seat) * _TILES + tile) * _KINDS + card] += 1
        self.sizes.reshape(-1)[p * _TILES + tile] += 1
        self.by_placer.reshape(-1)[(p * _TILES + tile) * N + seat] += 1
        self.marker[p] = tile
        self.last_seat[p] = seat
        self.last_tile[p] = tile
        self.last_kind[p] = card
        self.last_card[p] = sizes[where] == 0
        self.turn[p] = self.next_seat.take(seat)

    def _reveal(self, games: Array, tile: Array, taker: Array) -> Array:
        """Turn `tile`'s stack face up in each game: what each seat is known to hold loses the
        cards it placed there, `taker` (-1: nobody, the cards leave the game) takes them all.
        The stack's cards by kind `[G, 7]`."""
        stack = self.placed[games, :, tile]  # [G, N, 7]
        cards: Array = stack.sum(axis=1)
        known = self.known[games]
        known -= stack
        np.maximum(known, 0, out=known)
        taking = taker >= 0
        t = np.flatnonzero(taking)
        known[t, taker[t]] += cards[t]
        self.known[games] = known
        g = games[t]
        self.hands[g, taker[t]] += cards[t]
        self.hand_size[g, taker[t]] += cards[t].sum(axis=1)
        self.placed[games, :, tile] = 0
        self.by_placer[games, tile] = 0
        self.sizes[games, tile] = 0
        self.last_seat[games] = -1
        return cards

    def _call(self, c: Array, seat: Array, winners: Array) -> None:
        """Reveal the tile just played on: its top card true, the caller takes the stack (and a
        last card wins); a bluff, the player takes it and the caller gains a token (W4, W5)."""
        player, tile = self.last_seat[c], self.last_tile[c]
        bluff = self.last_kind[c] != tile
        last_card = self.last_card[c]
        self._reveal(c, tile, np.where(bluff, player, seat))
        self.last_card[c] = False
        self.tokens[c, seat] += bluff
        won = bluff & (self.tokens[c, seat] >= TOKENS_TO_WIN)
        winners[c[won]] = seat[won]
        last = ~bluff & last_card
        winners[c[last]] = player[last]
        self.turn[c] = self.next_seat.take(seat)

    def _spell(self, s: Array, seat: Array, tile: Array, winners: Array) -> None:
        """Reveal any tile: two of its animal or more win a token and leave the game, fewer go
        to the caster's hand (W4)."""
        stack = self.placed[s, :, tile].sum(axis=1)
        success = stack[np.arange(len(s)), tile] >= 2
        cards = self._reveal(s, tile, np.where(success, -1, seat))
        done = np.flatnonzero(success)
        self.removed[s[done]] += cards[done]
        self.tokens[s, seat] += success
        won = success & (self.tokens[s, seat] >= TOKENS_TO_WIN)
        winners[s[won]] = seat[won]
        self.turn[s] = self.next_seat.take(seat)

    def _end(self, e: Array, winner: Array, rewards: Array, over: Array, scores: Array) -> None:
        """The games `e` ended with one winner each: rewards as `State.returns`, the final
        view, the log, and a new game in each."""
        N = self.players
        lose = np.float32(-1 / (N - 1))
        rewards[e] = lose
        rewards[e, winner] = 1.0
        over[e] = True
        scores[e] = self.tokens[e]
        final = self.observe(np.full(len(e), self.final_seat, np.int64), e, ended=True)
        for row, b in enumerate(e.tolist()):
            self.final[b] = final[row]
        t = self.t
        self.finished.extend(
            (b, begun, t, self.orders[b].copy(), marker)
            for b, begun, marker in zip(
                e.tolist(), self.start[e].tolist(), self.marker_at_start[e].tolist(), strict=True
            )
        )
        self._new_games(e)

    def _new_games(self, games: Array) -> None:
        """Shuffle, place the marker and deal in each game of `games` (W2, W3)."""
        G, N = len(games), self.players
        order = self.deck.take(self.rng.random((G, len(self.deck))).argsort(axis=1))
        marker = self.rng.integers(0, _TILES, G)
        where = (np.arange(G)[:, None] * N + self.dealt_to[None, :]) * _KINDS + order
        hands = np.bincount(where.ravel(), minlength=G * N * _KINDS).reshape(G, N, _KINDS)
        self.hands[games] = hands
        self.hand_size[games] = hands.sum(axis=2)
        self.placed[games] = 0
        self.by_placer[games] = 0
        self.sizes[games] = 0
        self.removed[games] = 0
        self.known[games] = 0
        self.tokens[games] = 0
        self.marker[games] = marker
        self.marker_at_start[games] = marker
        self.last_seat[games] = -1
        self.last_card[games] = False
        self.turn[games] = self.options.first_player
        self.orders[games] = order
        self.start[games] = self.t

    def _compact(self) -> None:
        """Make room in the log: drop the steps before every game still kept (live or not yet
        handed out), doubling the log when more than half of it is still needed."""
        kept = min([int(self.start.min())] + [begun for _, begun, _, _, _ in self.finished])
        needed = self.t - kept
        height = len(self.log_moves)
        if needed > height // 2:
            height *= 2
        moves = np.zeros((height, self.num_envs), np.int8)
        seats = np.zeros((height, self.num_envs), np.int8)
        moves[:needed] = self.log_moves[kept - self.t0 : self.t - self.t0]
        seats[:needed] = self.log_seats[kept - self.t0 : self.t - self.t0]
        self.log_moves, self.log_seats, self.t0 = moves, seats, kept
