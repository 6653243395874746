"""Waka Tanka: play cards face down around the totem and claim they are the right animal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campfire.games.wakatanka.actions import ACCEPT, CALL, Accept, Action, Call, Play, Spell
from campfire.games.wakatanka.cards import CARDS, TILES, deck
from campfire.games.wakatanka.game import GAME, Wakatanka
from campfire.games.wakatanka.options import WakatankaOptions
from campfire.games.wakatanka.state import WakatankaState
from campfire.games.wakatanka.view import Reveal, Slot, Turn, WakatankaView

if TYPE_CHECKING:
    from campfire.games.wakatanka.review import WakatankaJudge


def judge() -> WakatankaJudge:
    """The reviewer's judge of Waka Tanka (`campfire.review`), loaded when a review asks for
    it: the rules never import it, nor does it import the rules' game object."""
    from campfire.games.wakatanka.review import WakatankaJudge

    return WakatankaJudge()


__all__ = [
    "ACCEPT",
    "CALL",
    "CARDS",
    "GAME",
    "TILES",
    "Accept",
    "Action",
    "Call",
    "Play",
    "Reveal",
    "Slot",
    "Spell",
    "Turn",
    "Wakatanka",
    "WakatankaOptions",
    "WakatankaState",
    "WakatankaView",
    "deck",
    "judge",
]
