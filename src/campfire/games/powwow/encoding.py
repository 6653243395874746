"""Pow Wow for learning libraries: numbered actions and a fixed-size view vector.

Actions (every guess from -20 to 238, RULINGS P5):

- ``value + 20``: a plain guess (0 … 258), then ``259``: dispute;
- with tomahawks only: ``260`` agree, ``261`` reverse, and
  ``262 + 259 * target + value + 20``: a guess that gives seat `target` an extra feather.

Chance outcomes (draw mode): the drawn feather's position in `CODES`.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from campfire.games.powwow.actions import (
    AGREE,
    DISPUTE,
    GUESSES,
    REVERSE,
    Action,
    Agree,
    Dispute,
    Guess,
    Reverse,
    extra_guesses,
)
from campfire.games.powwow.feathers import CODES, GUESS_MAX, GUESS_MIN
from campfire.games.powwow.options import PowwowOptions
from campfire.games.powwow.state import PLAY, PowwowState
from campfire.games.powwow.view import PowwowView
from campfire.i18n import N_
from campfire.kernel.chance import ChanceOutcome, ChanceSpec, Draw
from campfire.kernel.errors import Refusal

GUESS_COUNT = GUESS_MAX - GUESS_MIN + 1  # 259
DISPUTE_INDEX = GUESS_COUNT
AGREE_INDEX = GUESS_COUNT + 1
REVERSE_INDEX = GUESS_COUNT + 2
EXTRA_BASE = GUESS_COUNT + 3

_CODE_INDEX = {code: i for i, code in enumerate(CODES)}
_MASKS_KEPT = 1024  # more legal-action tuples than the state ever hands out


class PowwowEncoding:
    """Pow Wow's action numbers and observation for `players` seats and `options`.

    The observation (all values between 0 and 1), in `sections` order: the viewer's seat and the
    seat to move (one-hot), the direction (1: counter-clockwise), the feathers each seat is seen
    to wear (count of each code, halved; nothing for the viewer's own), how many each wears
    (halved), buzzards (over the limit), who is out, ready tomahawks, the standing guess (flag,
    scaled value), its owner (one-hot) and whether it was agreed, each seat's latest guess this
    round (flag, scaled value), the used pile (share of each code) and the stack's size.
    """

    num_chance_outcomes = len(CODES)

    def __init__(self, players: int, options: PowwowOptions) -> None:
        self.players = players
        self.options = options
        n = players
        # the guess range (a research variant may narrow it): plain guesses are numbered from
        # its lowest, then dispute, agree, reverse and the extra-feather guesses by target
        self.guess_min, self.guess_max = options.guess_min, options.guess_max
        low, end = options.guess_min - GUESS_MIN, options.guess_max - GUESS_MIN + 1
        count = self.guess_count = end - low
        self._guesses = GUESSES[low:end]
        self._span = max(options.guess_max - options.guess_min, 1)
        self._dispute, self._agree, self._reverse = count, count + 1, count + 2
        self._extra_base = count + 3
        self.num_actions = self._extra_base + count * n if options.tomahawks else count + 1
        feathers = options.feather_set()
        self._feathers = len(feathers)
        self._code_share = [1 / max(feathers.count(code), 1) for code in CODES]
        codes = len(CODES)
        self.sections: tuple[tuple[str, int], ...] = (
            ("seat", n),
            ("to_move", n),
            ("direction", 1),
            ("worn", n * codes),
            ("wearing", n),
            ("buzzards", n),
            ("out", n),
            ("tomahawks", n),
            ("guess", 2),
            ("owner", n),
            ("agreed", 1),
            ("latest_guess", 2 * n),
            ("used", codes),
            ("stack", 1),
        )
        self.observation_size = sum(size for _, size in self.sections)
        self._blank = array("f", [0.0]) * self.observation_size
        # Legal actions are the canonical objects of the action tables, so their numbers can be
        # looked up by identity: far cheaper than hashing a dataclass for every legal guess.
        by_id: dict[int, int] = {id(guess): i for i, guess in enumerate(self._guesses)}
        by_id[id(DISPUTE)] = self._dispute
        if options.tomahawks:
            by_id[id(AGREE)] = self._agree
            by_id[id(REVERSE)] = self._reverse
            for target in range(n):
                base = self._extra_base + count * target
                for i, guess in enumerate(extra_guesses(target)[low:end]):
                    by_id[id(guess)] = base + i
        self._by_id = by_id
        self._extra_tables = (
            [extra_guesses(t)[low:end] for t in range(n)] if options.tomahawks else []
        )
        # the sorted legal numbers when no tomahawk can be used, by the lowest legal guess
        # (the state's shared tuples, numbered once): [0] before any guess, [start + 1] after
        self._plain_numbers = [list(range(count))] + [
            [*range(start, count), self._dispute] for start in range(count + 1)
        ]
        # the same by the standing guess (None: none yet), read at every turn
        self._by_guess: dict[int | None, list[int]] = {None: self._plain_numbers[0]}
        for value in range(options.guess_min, options.guess_max + 1):
            self._by_guess[value] = self._plain_numbers[value - options.guess_min + 2]
        # no tomahawk and the whole guess range: the legal numbers are always a plain list
        self._plain = not options.tomahawks and not options.narrows_guesses
        # the masks of legal-action tuples seen, by identity: (the tuple, kept alive, its mask)
        self._masks: dict[int, tuple[Sequence[Any], bytes]] = {}
        # the used pile last seen and its shares
        self._used: tuple[tuple[str, ...], array[float]] = ((), self._blank[: len(CODES)])

    # --- actions ---------------------------------------------------------------------------
    def action_index(self, action: Any) -> int:
        known = self._by_id.get(id(action))
        if known is not None:
            return known
        kind = type(action)
        if kind is Dispute:
            return self._dispute
        if kind is Agree or kind is Reverse:
            if not self.options.tomahawks:
                raise ValueError(
                    Refusal(
                        N_("{action} needs tomahawks, which are not in play"),
                        action=kind.__name__.lower(),
                    )
                )
            return self._agree if kind is Agree else self._reverse
        if kind is not Guess:
            raise ValueError(
                Refusal(N_("{action} is not a {game} action"), action=repr(action), game="Pow Wow")
            )
        value, target = action.value, action.extra_feather_to
        low, high = self.guess_min, self.guess_max
        if not isinstance(value, int) or not low <= value <= high:
            raise ValueError(
                Refusal(
                    N_("a guess is from {low} to {high}, not {value}"),
                    low=low,
                    high=high,
                    value=repr(value),
                )
            )
        if target is None:
            return value - low
        if not self.options.tomahawks:
            raise ValueError(Refusal(N_("an extra feather needs tomahawks, which are not in play")))
        if not isinstance(target, int) or not 0 <= target < self.players:
            raise ValueError(
                Refusal(N_("there is no seat {seat} to take an extra feather"), seat=repr(target))
            )
        return self._extra_base + self.guess_count * target + value - low

    def action(self, index: int) -> Action:
        if not isinstance(index, int) or not 0 <= index < self.num_actions:
            raise ValueError(
                Refusal(
                    N_("action {index} is not in 0..{last}"),
                    index=repr(index),
                    last=self.num_actions - 1,
                )
            )
        count = self.guess_count
        if index < count:
            return self._guesses[index]
        if index == self._dispute:
            return DISPUTE
        if index == self._agree:
            return AGREE
        if index == self._reverse:
            return REVERSE
        target, offset = divmod(index - self._extra_base, count)
        return self._extra_tables[target][offset]

    def legal_numbers(self, state: PowwowState) -> list[int]:
        """`sorted(legal_indices(state.legal_actions()))` read off the state when no tomahawk
        can be used: OpenSpiel asks for the legal numbers at every turn. The list is shared
        (one per lowest legal guess): read-only. A research variant or a ready tomahawk
        numbers the legal actions in full."""
        if state.phase != PLAY:
            return []
        if self._plain:  # the usual game: no tomahawk, every guess (the state's options)
            return self._by_guess[state.guess]
        seat: int = state.turn  # type: ignore[assignment]  # a seat in PLAY
        if state.variant or (state.options.tomahawks and state.ready[seat]):
            return sorted(self.legal_indices(state.legal_actions()))
        return self._by_guess[state.guess]

    def legal_indices(self, legal: Sequence[Any]) -> list[int]:
        try:
            return list(map(self._by_id.__getitem__, map(id, legal)))
        except KeyError:  # an action that is not one of the canonical objects
            return [self.action_index(action) for action in legal]

    def legal_mask(self, legal: Sequence[Any]) -> bytearray:
        # Without tomahawks the state hands out one shared tuple per lowest legal guess: the
        # mask of a tuple seen before is copied. Keeping the tuple keeps its id from being
        # reused by another object.
        seen = self._masks.get(id(legal))
        if seen is not None and seen[0] is legal:
            return bytearray(seen[1])
        mask = self._mask(legal)
        if type(legal) is tuple:
            if len(self._masks) >= _MASKS_KEPT:
                self._masks.clear()
            self._masks[id(legal)] = (legal, bytes(mask))
        return mask

    def _mask(self, legal: Sequence[Any]) -> bytearray:
        # Legal guesses come as whole runs of one guess table (every guess above the standing
        # one): a run is recognised with one tuple comparison and marked with one slice.
        mask = bytearray(self.num_actions)
        if type(legal) is not tuple:
            legal = tuple(legal)  # compares equal to a guess table only as a tuple
        get = self._by_id.get
        i, count = 0, len(legal)
        while i < count:
            action = legal[i]
            index = get(id(action))
            if index is None:
                index = self.action_index(action)
            run = self._run_at(index)
            if run is not None:
                table, offset = run
                length = len(table) - offset
                if legal[i : i + length] == table[offset:]:
                    mask[index : index + length] = b"\x01" * length
                    i += length
                    continue
            mask[index] = 1
            i += 1
        return mask

    def _run_at(self, index: int) -> tuple[tuple[Guess, ...], int] | None:
        """The guess table holding action `index` and its position there (None: not a guess)."""
        if index < self.guess_count:
            return self._guesses, index
        if index >= self._extra_base:
            target, offset = divmod(index - self._extra_base, self.guess_count)
            return self._extra_tables[target], offset
        return None

    # --- chance ----------------------------------------------------------------------------
    def chance_index(self, outcome: ChanceOutcome) -> int:
        if isinstance(outcome, Draw) and outcome.item in _CODE_INDEX:
            return _CODE_INDEX[outcome.item]
        raise ValueError(
            Refusal(N_("{outcome} is not a {game} draw"), outcome=repr(outcome), game="Pow Wow")
        )

    def chance_outcome(self, index: int, spec: ChanceSpec) -> ChanceOutcome:
        if spec.kind != "draw":
            raise ValueError(
                Refusal(
                    N_("a {kind} has no numbered outcomes in {game}"),
                    kind=spec.kind,
                    game="Pow Wow",
                )
            )
        if not isinstance(index, int) or not 0 <= index < len(CODES):
            raise ValueError(
                Refusal(
                    N_("chance outcome {index} is not in 0..{last}"),
                    index=repr(index),
                    last=len(CODES) - 1,
                )
            )
        return Draw(CODES[index])

    # --- observation -----------------------------------------------------------------------
    def observe(self, view: PowwowView) -> array[float]:
        n = self.players
        codes = len(CODES)
        out = self._blank[:]
        if view.seat is not None:
            out[view.seat] = 1.0
        if view.to_move is not None:
            out[n + view.to_move] = 1.0
        at = 2 * n
        if view.direction == -1:
            out[at] = 1.0
        at += 1
        wearing = at + n * codes
        code_index = _CODE_INDEX
        for s, worn in enumerate(view.feathers):
            out[wearing + s] = len(worn) / 2
            base = at + s * codes
            for feather in worn:
                if feather is not None:
                    out[base + code_index[feather]] += 0.5  # halves add up exactly in float32
        at = wearing + n
        limit = self.options.buzzards  # a player is out on reaching it
        for s, buzzards in enumerate(view.buzzards):
            if buzzards:
                out[at + s] = buzzards / limit
        at += n
        for s in view.out:
            out[at + s] = 1.0
        at += n
        if self.options.tomahawks:  # off: no seat holds a tomahawk (all zeros)
            for s, ready in enumerate(view.tomahawks):
                if ready:
                    out[at + s] = 1.0
        at += n
        if view.guess is not None:
            out[at] = 1.0
            out[at + 1] = (view.guess - self.guess_min) / self._span
        at += 2
        if view.owner is not None:
            out[at + view.owner] = 1.0
        at += n
        if view.agreed:
            out[at] = 1.0
        at += 1
        for seat, action in view.turns:
            value = getattr(action, "value", None)
            if value is not None:
                out[at + 2 * seat] = 1.0
                out[at + 2 * seat + 1] = (value - self.guess_min) / self._span
        at += 2 * n
        if view.used:
            out[at : at + codes] = self._used_shares(view.used)
        at += codes
        out[at] = view.stack_size / self._feathers
        return out

    def _used_shares(self, used: tuple[str, ...]) -> array[float]:
        """The used pile as the share of each code's feathers in it, counted then scaled (summing
        thirds in float32 would round differently). The pile changes only between rounds: the
        shares of the pile last seen are reused while it stays the same. The caller copies them."""
        last, shares = self._used
        if used != last:
            counts = [0] * len(CODES)
            for feather in used:
                counts[_CODE_INDEX[feather]] += 1
            shares = array(
                "f", [k * share for k, share in zip(counts, self._code_share, strict=True)]
            )
            self._used = (used, shares)
        return shares


def encoding(players: int, options: Mapping[str, Any] | None = None) -> PowwowEncoding:
    from campfire.games.powwow.game import GAME

    GAME.seated(players)
    return PowwowEncoding(players, GAME.options(players, options))
