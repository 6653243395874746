"""The seats a learner plays against, however they are named, for `CampfireEnv` and `VectorEnv`.

An opponent is given as

- a level name the game offers (``"random"``, ``"easy"`` … : `campfire.bots.levels(game)`);
- ``"module:factory"``: a bot factory of one's own, as ``campfire arena --bots`` takes it;
- a bot object (anything with ``choose(view, legal)``), the same object at every seat named;
- a bot factory: a class or a callable of one argument, the seed, returning a bot;
- a policy: a callable of two arguments, ``policy(observation, action_mask) -> action``, which
  sees the seat's encoded view and legal actions as the learner does (self-play). In
  `VectorEnv` a policy is called once per batch step with the rows where its seats are to move
  (``[k, obs]``, ``[k, num_actions]`` → ``[k]`` actions).

``"rule"`` is a rule bot on the observation vector, batched in NumPy (`rule_policy`), and
`VectorEnv` plays ``"random"`` batched (`RandomPolicy`: uniform among the legal actions) rather
than through `RandomBot`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from campfire.bots import imported_factory, make_bot
from campfire.i18n import N_
from campfire.kernel.bots import Bot, BotFactory
from campfire.kernel.errors import Refusal
from campfire.kernel.state import Game

Array = np.ndarray[Any, Any]
#: the learner's own kind of decision maker: encoded view and legal actions in, an action out
Policy = Callable[[Array, Array], Any]


@dataclass(frozen=True)
class Opponent:
    """One seat's opponent: exactly one of `factory` (a Campfire bot per game) and `policy`."""

    name: str
    factory: BotFactory | None = None
    policy: Policy | None = None


def _arguments(function: Callable[..., Any]) -> int | None:
    """How many positional arguments `function` needs (None when Python cannot say)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    return sum(
        1
        for p in signature.parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
    )


def research_options(options: Any) -> list[str]:
    """The research-variant options a game's parsed options set (none for a real game)."""
    research = getattr(options, "research", None)
    return list(research()) if research is not None else []


def opponent(
    game: Game[Any], spec: Any, players: int, options: Any = None, batched: bool = False
) -> Opponent:
    """`spec` as an `Opponent`, or a ValueError (TypeError for what is none of the forms) saying
    what is accepted. `batched`: ``"random"`` and ``"rule"`` are NumPy policies (`VectorEnv`)."""
    if isinstance(spec, str):
        if batched and spec == "random":
            return Opponent(spec, policy=RandomPolicy())
        if spec == "rule":
            research = research_options(getattr(game.encoding(players, options), "options", None))
            if research:
                raise ValueError(
                    Refusal(
                        N_(
                            "the 'rule' opponent plays the full game, not a research variant"
                            " ({options}): give 'random', a level or a policy"
                        ),
                        options=", ".join(research),
                    )
                )
            return Opponent(spec, policy=rule_policy(game, players, options))
        if ":" in spec:
            return Opponent(spec, factory=imported_factory(spec))
        make_bot(game, spec)  # ValueError naming the levels
        levels = game.bot_levels()
        return Opponent(spec, factory=levels[spec])
    if not isinstance(spec, type) and callable(getattr(spec, "choose", None)):
        bot: Bot = spec
        return Opponent(type(spec).__name__, factory=lambda seed: bot)
    if callable(spec):
        name = getattr(spec, "__name__", type(spec).__name__)
        if isinstance(spec, type) or _arguments(spec) == 1:
            return Opponent(name, factory=spec)
        if _arguments(spec) == 2:
            return Opponent(name, policy=spec)
        raise TypeError(
            Refusal(
                N_(
                    "{name} takes neither one argument (a bot factory: the seed) nor two (a"
                    " policy: observation and action mask)"
                ),
                name=name,
            )
        )
    raise TypeError(
        Refusal(
            N_(
                "an opponent is a level name, 'module:factory', a bot, a bot factory or a"
                " policy, not {spec}"
            ),
            spec=repr(spec),
        )
    )


def opponents(
    game: Game[Any], spec: Any, players: int, options: Any = None, batched: bool = False
) -> list[Opponent]:
    """One opponent for each of the `players - 1` other seats: `spec` alike for all, or a list
    or tuple of one per seat in seat order."""
    seats = players - 1
    specs = list(spec) if isinstance(spec, list | tuple) else [spec] * seats
    if len(specs) != seats:
        raise ValueError(
            Refusal(
                N_("opponents names {levels} levels for {seats} other seats"),
                levels=len(specs),
                seats=seats,
            )
        )
    return [opponent(game, one, players, options, batched) for one in specs]


# --- batched policies ----------------------------------------------------------------------
class RandomPolicy:
    """Uniform among the legal actions of each row (the scores of the legal ones are uniform
    keys, so the largest is a uniform pick); `VectorEnv.reset` seeds it."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: Array, mask: Array) -> Array:
        scores = np.asarray(self.rng.random(mask.shape)) * mask
        chosen: Array = scores.argmax(axis=-1)
        return chosen


def rule_policy(game: Game[Any], players: int, options: Any = None) -> Policy:
    """A plain rule bot for `game`, on encoded views alone (so it can see nothing its seat may
    not), batched: one NumPy pass for any number of rows."""
    encoding = game.encoding(players, options)
    at, offsets = 0, {}
    for name, size in encoding.sections:
        offsets[name] = at
        at += size
    if game.name == "powwow":
        return _PowwowRule(players, offsets)
    if game.name == "wakatanka":
        return _WakatankaRule(players, offsets)
    raise ValueError(
        Refusal(N_("{game} has no rule bot: give a level, a bot or a policy"), game=game.title)
    )


#: Pow Wow's feather codes' values for the estimate (specials count nothing)
_POWWOW_VALUES = np.array([1, 2, 3, 4, 5, 10, 15, 20, 0, -5, -10, 0, 0, 0, 0], np.float64)
#: the value of a feather one cannot see: about the mean of the 36
_POWWOW_MEAN = 3.0


@dataclass(frozen=True)
class _PowwowRule:
    """Estimate the total as the feathers seen plus the deck's mean for each one unseen; dispute
    a standing guess more than one above it, else guess the estimate or the lowest guess allowed."""

    players: int
    offsets: dict[str, int]

    def __call__(self, observation: Array, mask: Array) -> Array:
        from campfire.games.powwow.encoding import DISPUTE_INDEX, GUESS_COUNT

        observation, mask = np.atleast_2d(observation), np.atleast_2d(mask)
        n, codes = self.players, len(_POWWOW_VALUES)
        at = self.offsets["worn"]
        worn = observation[:, at : at + n * codes] * 2  # counts: halves in the view
        wearing = observation[:, self.offsets["wearing"] : self.offsets["wearing"] + n] * 2
        unseen = wearing.sum(axis=1) - worn.sum(axis=1)
        estimate = worn.reshape(len(worn), n, codes) @ _POWWOW_VALUES
        total = estimate.sum(axis=1) + unseen * _POWWOW_MEAN
        target = np.clip(np.rint(total).astype(np.int64) + 20, 0, GUESS_COUNT - 1)
        guesses = mask[:, :GUESS_COUNT]
        lowest = guesses.argmax(axis=1)  # the lowest legal guess (0 when none is legal)
        has_guess = guesses.any(axis=1)
        choice = np.where(has_guess, np.maximum(lowest, target), DISPUTE_INDEX)
        dispute = (mask[:, DISPUTE_INDEX] == 1) & ((lowest > target + 1) | ~has_guess)
        return np.where(dispute, DISPUTE_INDEX, choice)


@dataclass(frozen=True)
class _WakatankaRule:
    """Call a last card; else play a true card when one is in hand (onto the larger stack);
    else play the card held most; with no card to play, cast a spell or call."""

    players: int
    offsets: dict[str, int]

    def __call__(self, observation: Array, mask: Array) -> Array:
        from campfire.games.wakatanka.encoding import ACCEPT_INDEX, CALL_INDEX, SPELL_BASE

        observation, mask = np.atleast_2d(observation), np.atleast_2d(mask)
        rows = np.arange(len(mask))
        plays = mask[:, :42].reshape(len(mask), 6, 7).astype(np.float64)
        true = plays[:, np.arange(6), np.arange(6)]  # the tile's own animal, by tile
        width = 8 + self.players
        at = self.offsets["stacks"]
        sizes = observation[:, at : at + 6 * width : width]
        score = np.where(true > 0, 1.0 + sizes, 0.0)
        best = score.argmax(axis=1)
        hand = observation[:, self.offsets["hand"] : self.offsets["hand"] + 7]
        playable = plays.max(axis=1) > 0
        card = np.where(playable, hand + 1.0, 0.0).argmax(axis=1)
        tile = plays[rows, :, card].argmax(axis=1)
        choice = np.where(score.max(axis=1) > 0, 8 * best, 7 * tile + card)
        no_play = ~playable.any(axis=1)
        spells = mask[:, SPELL_BASE : SPELL_BASE + 6]
        choice = np.where(no_play & spells.any(axis=1), SPELL_BASE + spells.argmax(axis=1), choice)
        call = (mask[:, ACCEPT_INDEX] == 1) | (no_play & ~spells.any(axis=1))
        return np.where(call, CALL_INDEX, choice)
