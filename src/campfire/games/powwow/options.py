"""Pow Wow's options and their defaults (RULINGS P1, P3, P9, P10, P11)."""

from __future__ import annotations

from pydantic import Field

from campfire.kernel.options import Options


class PowwowOptions(Options):
    buzzards: int = Field(3, ge=1, le=10, description="buzzards that put a player out")
    tomahawks: bool = Field(False, description="the advanced game: agree, reverse, extra feather")
    end_after_eliminations: int | None = Field(
        None, ge=1, description="end as soon as this many players are out"
    )
    first_player: int = Field(0, ge=0, description="the seat that opens the first round")
