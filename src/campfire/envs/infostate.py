"""Perfect-recall information states of both games, for OpenSpiel's `information_state_*`.

A seat's observation (`encoding.observe(view)`) is what it sees now; tensor-based algorithms
(Deep CFR, NFSP, ...) need what it has seen and done all game long, one tensor per information
state. Each class here is the observation followed by what the observation leaves out, so that
two different information-state strings never share a tensor (tested over many random games).

Pow Wow, after the observation (`n` players, `C` feather codes, `T` the most turns a round can
hold, `R` the most rounds a game can hold):

- ``first_player`` (n): the round's first player, one-hot;
- ``worn_order`` (n x 2 x C): the feathers each seat is seen to wear, dealt one then extra one;
- ``turns`` (T x (2n + 5)): this round's turns in order, each its seat (one-hot), its kind
  (guess, dispute, agree, reverse), the guess scaled to 0..1 over the guess range and the seat
  given an extra feather (one-hot);
- ``rounds`` (R x (4n + 2nC + C + 1)): each finished round, all public: first player, the
  feathers worn in order, the feather turned over, the guess disputed (scaled), owner, disputer
  and loser (one-hot);
- ``past_turns`` (R x T): the turns of each finished round, one number a turn,
  ``(1 + seat + n * action) / (1 + n * num_actions)``.

Waka Tanka's view already holds the whole game (every turn and reveal); after the observation
comes ``history`` (one number a turn, up to the declared game length): ``(1 + seat + n * (kind +
14 * card)) / (1 + 112 n)`` with kind 0..5 a play on that tile, 6 a call, 7..12 a spell on that
tile, 13 accept, and card 0 for a face-down card the seat cannot see, else 1 + the card's index
(its own plays, and every card once revealed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.kernel.state import PlayerMove, State


class PowwowInfostate:
    """Pow Wow's perfect-recall information state for one encoding."""

    def __init__(self, encoding: Any) -> None:
        from campfire.games.powwow.actions import Agree, Dispute, Guess, Reverse
        from campfire.games.powwow.feathers import CODES, GUESS_MAX, GUESS_MIN

        self.encoding = encoding
        self._kinds = {Guess: 0, Dispute: 1, Agree: 2, Reverse: 3}
        self._dispute = Dispute
        self._codes = {code: i for i, code in enumerate(CODES)}
        options = encoding.options
        n = self.players = encoding.players
        c = self.codes = len(CODES)
        low = self.guess_min = getattr(encoding, "guess_min", GUESS_MIN)
        high = getattr(encoding, "guess_max", GUESS_MAX)
        self.span = max(high - low, 1)
        guesses = high - low + 1
        limit = getattr(options, "max_guesses", None)
        if limit is not None:
            guesses = min(guesses, limit)
        # guesses rise strictly, a tomahawk is used at most once a seat and round, one dispute
        self.max_turns = guesses + 1 + (n if options.tomahawks else 0)
        self.max_rounds = n * options.buzzards - 1  # a buzzard a round; the last one ends it
        self.turn_size = 2 * n + 5
        self.round_size = 4 * n + 2 * n * c + c + 1
        self.sections: tuple[tuple[str, int], ...] = (
            *encoding.sections,
            ("first_player", n),
            ("worn_order", n * 2 * c),
            ("turns", self.max_turns * self.turn_size),
            ("rounds", self.max_rounds * self.round_size),
            ("past_turns", self.max_rounds * self.max_turns),
        )
        self.size = sum(size for _, size in self.sections)
        self._scale = 1.0 / (1 + n * encoding.num_actions)

    def past_rounds(self, moves: list[PlayerMove]) -> list[list[tuple[int, int]]]:
        """The moves of the finished rounds as `(seat, action number)`, round by round (every
        round ends with a dispute); `moves` are the game's moves so far."""
        rounds: list[list[tuple[int, int]]] = []
        current: list[tuple[int, int]] = []
        index = self.encoding.action_index
        for seat, action in moves:
            current.append((seat, index(action)))
            if type(action) is self._dispute:
                rounds.append(current)
                current = []
        return rounds

    def tensor(self, view: Any, past: list[list[tuple[int, int]]]) -> np.ndarray:
        n, c = self.players, self.codes
        out = np.zeros(self.size, np.float32)
        observed = self.encoding.observe(view)
        at = len(observed)
        out[:at] = np.frombuffer(observed, np.float32)
        out[at + view.first_player] = 1.0
        at += n
        self._worn(out, at, view.feathers)
        at += n * 2 * c
        if len(view.turns) > self.max_turns:
            raise ValueError(
                Refusal(
                    N_("a round of {turns} turns is longer than {most}"),
                    turns=len(view.turns),
                    most=self.max_turns,
                )
            )
        for seat, action in view.turns:
            out[at + seat] = 1.0
            out[at + n + self._kinds[type(action)]] = 1.0
            value = getattr(action, "value", None)
            if value is not None:
                out[at + n + 4] = (value - self.guess_min) / self.span
                target = action.extra_feather_to
                if target is not None:
                    out[at + n + 5 + target] = 1.0
            at += self.turn_size
        at += (self.max_turns - len(view.turns)) * self.turn_size
        if len(view.rounds) > self.max_rounds:
            raise ValueError(
                Refusal(
                    N_("{rounds} rounds are more than {most}"),
                    rounds=len(view.rounds),
                    most=self.max_rounds,
                )
            )
        for result in view.rounds:
            out[at + result.first_player] = 1.0
            self._worn(out, at + n, result.worn)
            base = at + n + 2 * n * c
            if result.turned_over is not None:
                out[base + self._codes[result.turned_over]] = 1.0
            base += c
            out[base] = (result.guess - self.guess_min) / self.span
            out[base + 1 + result.owner] = 1.0
            out[base + 1 + n + result.disputer] = 1.0
            out[base + 1 + 2 * n + result.loser] = 1.0
            at += self.round_size
        at += (self.max_rounds - len(view.rounds)) * self.round_size
        for moves in past:
            for i, (seat, number) in enumerate(moves):
                out[at + i] = (1 + seat + n * number) * self._scale
            at += self.max_turns
        return out

    def _worn(self, out: np.ndarray, at: int, worn: Any) -> None:
        c = self.codes
        for seat, feathers in enumerate(worn):
            for slot, feather in enumerate(feathers):
                if feather is not None:
                    out[at + (2 * seat + slot) * c + self._codes[feather]] = 1.0

    def string(self, view: Any, past: list[list[tuple[int, int]]]) -> dict[str, Any]:
        return {**view.to_json(), "past_turns": [[list(m) for m in moves] for moves in past]}


class WakatankaInfostate:
    """Waka Tanka's perfect-recall information state for one encoding (the view holds the whole
    game; the tensor adds its turns, with every card the seat knows)."""

    def __init__(self, encoding: Any, max_turns: int) -> None:
        from campfire.games.wakatanka.cards import CARD_INDEX, TILE_INDEX

        self.encoding = encoding
        self._tiles = TILE_INDEX
        self._cards = CARD_INDEX
        n = self.players = encoding.players
        self.max_turns = max_turns
        self.sections: tuple[tuple[str, int], ...] = (*encoding.sections, ("history", max_turns))
        self.size = sum(size for _, size in self.sections)
        self._scale = 1.0 / (1 + 112 * n)

    def past_rounds(self, moves: list[PlayerMove]) -> list[list[tuple[int, int]]]:
        return []  # the view has it all

    def cards(self, view: Any) -> list[int]:
        """The card of each turn as the seat knows it: 0 unknown (or no play), else 1 + card."""
        known = [0] * len(view.turns)
        pending: dict[str, list[int]] = {tile: [] for tile in self._tiles}
        reveals = iter(view.reveals)
        last_tile = ""
        for i, turn in enumerate(view.turns):
            if turn.action == "play":
                assert turn.tile is not None
                pending[turn.tile].append(i)
                last_tile = turn.tile
            elif turn.action in ("call", "spell"):
                tile = last_tile if turn.action == "call" else turn.tile
                reveal = next(reveals)
                for at, (_, card) in zip(pending[reveal.tile], reveal.cards, strict=True):
                    known[at] = 1 + self._cards[card]
                pending[reveal.tile] = []
                assert tile == reveal.tile
        for tile, slots in view.stacks.items():
            for at, slot in zip(pending[tile], slots, strict=True):
                if slot.card is not None:
                    known[at] = 1 + self._cards[slot.card]
        return known

    def tensor(self, view: Any, past: list[list[tuple[int, int]]]) -> np.ndarray:
        n = self.players
        if len(view.turns) > self.max_turns:
            raise ValueError(
                Refusal(
                    N_("{turns} turns are more than the {most} declared"),
                    turns=len(view.turns),
                    most=self.max_turns,
                )
            )
        out = np.zeros(self.size, np.float32)
        observed = self.encoding.observe(view)
        at = len(observed)
        out[:at] = np.frombuffer(observed, np.float32)
        tiles = self._tiles
        for i, (turn, card) in enumerate(zip(view.turns, self.cards(view), strict=True)):
            action = turn.action
            if action == "play":
                kind = tiles[turn.tile]
            elif action == "call":
                kind = 6
            elif action == "spell":
                kind = 7 + tiles[turn.tile]
            else:
                kind = 13
            out[at + i] = (1 + turn.seat + n * (kind + 14 * card)) * self._scale
        return out

    def string(self, view: Any, past: list[list[tuple[int, int]]]) -> dict[str, Any]:
        out: dict[str, Any] = view.to_json()
        return out


def moves(state: State[Any, Any]) -> list[PlayerMove]:
    """The player moves in a state's history, in order."""
    return [entry for entry in state.history if type(entry) is PlayerMove]
