"""Waka Tanka's options (RULINGS W3)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from campfire.i18n import N_
from campfire.kernel.options import Options


class WakatankaOptions(Options):
    first_player: int = Field(0, ge=0, description=N_("the seat dealt first, who plays first"))
    # research variants: small games for solvers and tests, never offered at the tables
    RESEARCH: ClassVar[tuple[str, ...]] = ("animals", "cards", "tokens_to_win", "max_turns")
    animals: int = Field(
        6,
        ge=3,
        le=6,
        description=N_("research variant: the first k tiles in a circle, their animals"),
    )
    cards: int | None = Field(
        None,
        ge=1,
        le=6,
        description=N_("research variant: cards of each kind (default by players)"),
    )
    tokens_to_win: int = Field(4, ge=1, le=4, description=N_("research variant: tokens that win"))
    max_turns: int | None = Field(
        None,
        ge=1,
        description=N_(
            "research variant: the game ends after this many turns, won by the most"
            " tokens, then the fewest cards in hand"
        ),
    )
