"""Pow Wow, the plain way (RULINGS P1-P12), as a reference for the differential test.

Actions are tuples: ("guess", value, target or None), ("dispute",), ("agree",), ("reverse",).
The stack is a list, top first. Whenever the rules call for a shuffle, `waiting` holds the
sorted feathers to shuffle and nothing else may happen until `shuffle(order)` is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

GREEN_VALUES = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "10": 10, "15": 15, "20": 20}
OTHER_VALUES = {"0": 0, "-5": -5, "-10": -10}

ALL_FEATHERS = (
    ["1"] * 4
    + ["2"] * 4
    + ["3"] * 4
    + ["4"] * 4
    + ["5"] * 4
    + ["10"] * 3
    + ["15"] * 2
    + ["20"]
    + ["0"] * 3
    + ["-5", "-5", "-10"]
    + ["x2", "max0", "zero", "?"]
)

LOWEST_GUESS = -20
HIGHEST_GUESS = 238

Move = tuple[Any, ...]


def total_of(feathers: list[str]) -> int:
    """P7: max0 takes away one highest green feather, then x2 doubles the greens."""
    greens = []
    for feather in feathers:
        if feather in GREEN_VALUES:
            greens.append(GREEN_VALUES[feather])
    if "max0" in feathers and len(greens) > 0:
        highest = greens[0]
        for value in greens:
            if value > highest:
                highest = value
        greens.remove(highest)
    green_sum = 0
    for value in greens:
        green_sum = green_sum + value
    if "x2" in feathers:
        green_sum = green_sum * 2
    others = 0
    for feather in feathers:
        if feather in OTHER_VALUES:
            others = others + OTHER_VALUES[feather]
    return green_sum + others


class RefPowwow:
    def __init__(
        self,
        players: int,
        buzzards: int = 3,
        tomahawks: bool = False,
        end_after_eliminations: int | None = None,
        first_player: int = 0,
    ) -> None:
        self.players = players
        self.buzzard_limit = buzzards
        self.tomahawks = tomahawks
        self.end_after = end_after_eliminations
        self.first = first_player
        self.stack: list[str] = []
        self.used: list[str] = []
        self.heads: list[list[str]] = [[] for _ in range(players)]
        self.buzzards = [0] * players
        self.out: list[int] = []
        self.round = 0
        self.turn: int | None = None
        self.direction = 1
        self.guess: int | None = None
        self.owner: int | None = None
        self.agreed = False
        self.ready = [True] * players
        self.turns: list[tuple[int, Move]] = []
        self.rounds: list[dict[str, Any]] = []
        self.disputer: int | None = None
        self.over = False
        self.winners: list[int] = []
        self.waiting: list[str] | None = None
        self.taken: list[str] = []  # every feather drawn from the stack, in order
        self.after_shuffle: Callable[[], None] = self.new_round
        self.ask_for_shuffle(list(ALL_FEATHERS), self.new_round)

    # --- chance ----------------------------------------------------------------------------
    def ask_for_shuffle(self, feathers: list[str], then: Callable[[], None]) -> None:
        self.turn = None
        self.waiting = sorted(feathers)
        self.after_shuffle = then

    def shuffle(self, order: list[str]) -> str | None:
        """Give the shuffle asked for; the reason it is refused, or None."""
        if self.waiting is None:
            return "no shuffle is due"
        if sorted(order) != self.waiting:
            return "not a permutation of the feathers being shuffled"
        self.stack = list(order)
        self.waiting = None
        self.after_shuffle()
        return None

    def take_top(self) -> str:
        feather = self.stack.pop(0)
        self.taken.append(feather)
        return feather

    # --- rounds ----------------------------------------------------------------------------
    def active(self, seat: int) -> bool:
        return seat not in self.out

    def active_clockwise_from(self, seat: int) -> list[int]:
        seats = []
        for k in range(self.players):
            s = (seat + k) % self.players
            if self.active(s):
                seats.append(s)
        return seats

    def new_round(self) -> None:
        self.round = self.round + 1
        self.turns = []
        self.guess = None
        self.owner = None
        self.agreed = False
        self.disputer = None
        self.direction = 1
        self.ready = [True] * self.players
        dealt_to = self.active_clockwise_from(self.first)
        if len(self.stack) < len(dealt_to):
            everything = self.stack + self.used
            self.stack = []
            self.used = []
            self.ask_for_shuffle(everything, self.deal)
        else:
            self.deal()

    def deal(self) -> None:
        for seat in self.active_clockwise_from(self.first):
            self.heads[seat].append(self.take_top())
        self.turn = self.first

    def next_player(self, seat: int, direction: int, skip: int | None = None) -> int:
        for k in range(1, self.players + 1):
            s = (seat + k * direction) % self.players
            if self.active(s) and s != skip:
                return s
        return seat

    def draw_top(self, then: Callable[[str], None]) -> None:
        """Take the top feather; an empty stack is first refilled from the used pile."""
        if len(self.stack) == 0:
            pile = self.used
            self.used = []

            def after() -> None:
                then(self.take_top())

            self.ask_for_shuffle(pile, after)
        else:
            then(self.take_top())

    # --- turns -----------------------------------------------------------------------------
    def legal(self) -> list[Move]:
        if self.over or self.waiting is not None or self.turn is None:
            return []
        seat = self.turn
        lowest = LOWEST_GUESS if self.guess is None else self.guess + 1
        moves: list[Move] = [("guess", value, None) for value in range(lowest, HIGHEST_GUESS + 1)]
        if self.guess is not None:
            moves.append(("dispute",))
        if self.tomahawks and self.ready[seat]:
            if self.guess is not None and not self.agreed:
                moves.append(("agree",))
            moves.append(("reverse",))
            for target in range(self.players):
                if target != seat and self.active(target) and len(self.heads[target]) == 1:
                    moves += [("guess", v, target) for v in range(lowest, HIGHEST_GUESS + 1)]
        return moves

    def act(self, move: Move) -> None:
        seat = self.turn
        assert seat is not None
        self.turns.append((seat, move))
        if move[0] == "guess":
            self.guess = move[1]
            self.owner = seat
            self.agreed = False
            following = self.next_player(seat, self.direction)
            target = move[2]
            if target is None:
                self.turn = following
                return
            self.ready[seat] = False
            self.turn = None

            def wear(feather: str) -> None:
                self.heads[target].append(feather)
                self.turn = following

            self.draw_top(wear)
        elif move[0] == "agree":
            self.ready[seat] = False
            self.owner = seat
            self.agreed = True
            self.turn = self.next_player(seat, self.direction)
        elif move[0] == "reverse":
            self.ready[seat] = False
            self.direction = -self.direction
            self.turn = self.next_player(seat, self.direction, skip=self.owner)
        else:
            self.disputer = seat
            self.turn = None
            question = False
            for worn in self.heads:
                if "?" in worn:
                    question = True
            if question:
                self.draw_top(self.count)
            else:
                self.count(None)

    def count(self, turned: str | None) -> None:
        in_play = []
        for worn in self.heads:
            in_play.extend(worn)
        if turned is not None:
            in_play.append(turned)
        total = total_of(in_play)
        assert self.guess is not None and self.owner is not None and self.disputer is not None
        loser = self.disputer if total >= self.guess else self.owner
        self.rounds.append(
            {
                "first_player": self.first,
                "worn": [list(w) for w in self.heads],
                "turned_over": turned,
                "total": total,
                "guess": self.guess,
                "owner": self.owner,
                "disputer": self.disputer,
                "loser": loser,
            }
        )
        self.used.extend(in_play)
        self.heads = [[] for _ in range(self.players)]
        self.buzzards[loser] = self.buzzards[loser] + 1
        if self.buzzards[loser] == self.buzzard_limit:
            self.out.append(loser)
            left = [s for s in range(self.players) if self.active(s)]
            ended = len(left) == 1
            if self.end_after is not None and len(self.out) >= self.end_after:
                ended = True
            if ended:
                fewest = min(self.buzzards[s] for s in left)
                self.winners = [s for s in left if self.buzzards[s] == fewest]
                self.over = True
                self.turn = None
                return
        if self.active(loser):
            self.first = loser
        else:
            self.first = self.next_player(loser, 1)
        if "zero" in in_play:
            everything = self.stack + self.used
            self.stack = []
            self.used = []
            self.ask_for_shuffle(everything, self.new_round)
        else:
            self.new_round()
