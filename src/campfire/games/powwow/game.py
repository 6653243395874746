"""Pow Wow as a kernel `Game`: options, record codecs, narration and determinization."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from campfire.games.powwow import actions, narration
from campfire.games.powwow.options import PowwowOptions
from campfire.games.powwow.state import PLAY, PowwowState
from campfire.games.powwow.view import PowwowView
from campfire.i18n import N_
from campfire.kernel.bots import BotFactory
from campfire.kernel.chance import ChanceMode
from campfire.kernel.encoding import Encoding
from campfire.kernel.errors import OptionError, Refusal
from campfire.kernel.events import Event
from campfire.kernel.options import parse_options
from campfire.kernel.state import Game
from campfire.kernel.text import TextInterface


class Powwow(Game[PowwowState]):
    name = "powwow"
    title = "Pow Wow"
    min_players = 2
    max_players = 8
    default_players = 4

    def new_state(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        chance: ChanceMode = "shuffle",
        narrate: bool = True,
    ) -> PowwowState:
        n = self.seated(self.default_players if players is None else players)
        return PowwowState(n, self.options(n, options), chance, narrate)

    def options(self, players: int, raw: Mapping[str, Any] | None) -> PowwowOptions:
        parsed = parse_options(PowwowOptions, raw)
        if parsed.first_player >= players:
            raise OptionError(
                Refusal(
                    N_("option 'first_player': there is no seat {seat} with {players} players"),
                    seat=parsed.first_player,
                    players=players,
                )
            )
        if parsed.feathers is not None:
            # a deal, every extra feather and a turned-over one must find a feather
            least = 2 * players + 1 if parsed.tomahawks else players + 1
            if len(parsed.feather_set()) < least:
                raise OptionError(
                    Refusal(
                        N_(
                            "option 'feathers': {players} players need at least {least} feathers"
                            " with tomahawks, not {count}"
                        )
                        if parsed.tomahawks
                        else N_(
                            "option 'feathers': {players} players need at least {least}"
                            " feathers, not {count}"
                        ),
                        players=players,
                        least=least,
                        count=len(parsed.feather_set()),
                    )
                )
        limit = parsed.end_after_eliminations
        if limit is not None and limit > players - 1:
            raise OptionError(
                Refusal(
                    N_(
                        "option 'end_after_eliminations': at most {most} players can go out with"
                        " {players} players, not {limit}"
                    ),
                    most=players - 1,
                    players=players,
                    limit=limit,
                )
            )
        return parsed

    def default_options(self) -> dict[str, Any]:
        return PowwowOptions().model_dump()

    def action_from_json(self, data: Mapping[str, Any]) -> actions.Action:
        return actions.from_json(data)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return actions.to_json(action)

    def summary(self, state: PowwowState) -> dict[str, Any]:
        return {
            "buzzards": list(state.buzzards),
            "out": list(state.out),
            "rounds": [r.to_json() for r in state.rounds],
        }

    def describe(self, event: Event, seat: int | None, lang: str = "en") -> str:
        return narration.describe(event, seat, lang)

    def sample_state(
        self,
        view: PowwowView,
        rng: random.Random,
        *,
        chance: ChanceMode = "draw",
        narrate: bool = False,
        own: Sequence[str] | None = None,
    ) -> PowwowState:
        """A state `view.seat` cannot tell from the real one.

        The seat's own feathers are `own` when given (a belief-weighted guess, say), otherwise
        drawn uniformly from the feathers it cannot see; the rest make up the stack.
        """
        if view.to_move is None:
            raise ValueError(Refusal(N_("a view can be filled in only when a player is to move")))
        unseen = Counter(view.options.feather_set())
        unseen.subtract(view.used)
        hidden_seats = []
        worn_now: list[list[str]] = []
        for s, worn in enumerate(view.feathers):
            seen = [f for f in worn if f is not None]
            if len(seen) < len(worn):
                hidden_seats.append(s)
            unseen.subtract(seen)
            worn_now.append(seen)
        pool = list(unseen.elements())
        rng.shuffle(pool)
        for s in hidden_seats:
            size = len(view.feathers[s])
            if s == view.seat and own is not None:
                if len(own) != size:
                    raise ValueError(
                        Refusal(
                            N_("seat {seat} wears {size} feathers, not {given}"),
                            seat=s,
                            size=size,
                            given=len(own),
                        )
                    )
                for f in own:
                    pool.remove(f)
                worn_now[s] = list(own)
            else:
                worn_now[s] = [pool.pop() for _ in range(size)]
        if len(pool) != view.stack_size:
            raise ValueError(Refusal(N_("the view does not account for every feather")))
        state = PowwowState(view.players, view.options, chance, narrate)
        state.history = []
        if chance == "draw":
            state.stack.set_unordered(pool)
        else:
            state.stack.set_order(pool)
        state.used = list(view.used)
        state.worn = worn_now
        state._question = any("?" in worn for worn in worn_now)
        state.buzzards = list(view.buzzards)
        state.out = list(view.out)
        state.active = [s not in view.out for s in range(view.players)]
        state.round = view.round
        state.first = view.first_player
        state.turn = view.to_move
        state.direction = view.direction
        state.guess = view.guess
        state.owner = view.owner
        state.agreed = view.agreed
        state.ready = list(view.tomahawks)
        state.turns = list(view.turns)
        state.rounds = list(view.rounds)
        state.phase = PLAY
        return state

    def encoding(self, players: int, options: Mapping[str, Any] | None = None) -> Encoding:
        from campfire.games.powwow.encoding import encoding

        return encoding(players, options)

    def coach(self, view: PowwowView) -> dict[str, Any]:
        """The coach's reading for `view.seat`: the blind odds and the bidding's (JSON-ready)."""
        from campfire.games.powwow.coach import coach

        return coach(view)

    def bot_levels(self) -> dict[str, BotFactory]:
        from campfire.games.powwow.bots import EasyBot, ExpertBot, HardBot, MediumBot

        return {
            **super().bot_levels(),
            "easy": EasyBot,
            "medium": MediumBot,
            "hard": HardBot,
            "expert": ExpertBot,
        }

    def tally(self, state: PowwowState) -> dict[str, int]:
        return {"rounds": len(state.rounds)}

    @cached_property
    def text(self) -> TextInterface:
        from campfire.games.powwow.text import PowwowText

        return PowwowText(self)

    def text_in(self, lang: str) -> TextInterface:
        from campfire.games.powwow.text import PowwowText

        return PowwowText(self, lang) if lang != "en" else self.text


GAME = Powwow()
PowwowState.game = GAME
