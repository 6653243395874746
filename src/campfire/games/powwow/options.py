"""Pow Wow's options and their defaults (RULINGS P1, P3, P9, P10, P11)."""

from __future__ import annotations

from typing import ClassVar, Self

from pydantic import Field, model_validator

from campfire.games.powwow.feathers import CODES, GUESS_MAX, GUESS_MIN
from campfire.i18n import N_
from campfire.kernel.errors import Refusal
from campfire.kernel.options import Options


class PowwowOptions(Options):
    buzzards: int = Field(3, ge=1, le=10, description=N_("buzzards that put a player out"))
    tomahawks: bool = Field(
        False, description=N_("the advanced game: agree, reverse, extra feather")
    )
    end_after_eliminations: int | None = Field(
        None, ge=1, description=N_("end as soon as this many players are out")
    )
    first_player: int = Field(0, ge=0, description=N_("the seat that opens the first round"))
    # research variants: small games for solvers and tests, never offered at the tables
    RESEARCH: ClassVar[tuple[str, ...]] = ("guess_min", "guess_max", "feathers", "max_guesses")
    guess_min: int = Field(
        GUESS_MIN, ge=GUESS_MIN, le=GUESS_MAX, description=N_("research variant: the lowest guess")
    )
    guess_max: int = Field(
        GUESS_MAX, ge=GUESS_MIN, le=GUESS_MAX, description=N_("research variant: the highest guess")
    )
    feathers: str | None = Field(
        None,
        description=N_(
            "research variant: the feathers in play, codes separated by spaces"
            " (default: the 36 of the box)"
        ),
    )
    max_guesses: int | None = Field(
        None, ge=1, description=N_("research variant: at most this many guesses a round")
    )

    @model_validator(mode="after")
    def _variant(self) -> Self:
        if self.guess_min > self.guess_max:
            raise ValueError(
                Refusal(
                    N_("guess_min {low} is above guess_max {high}"),
                    low=self.guess_min,
                    high=self.guess_max,
                )
            )
        if self.feathers is not None:
            codes = self.feathers.split()
            if not codes:
                raise ValueError(Refusal(N_("feathers lists no feather")))
            unknown = sorted(set(codes) - set(CODES))
            if unknown:
                raise ValueError(
                    Refusal(
                        N_("feathers: {code} is not a feather code ({codes})"),
                        code=repr(unknown[0]),
                        codes=" ".join(CODES),
                    )
                )
        return self

    @property
    def narrows_guesses(self) -> bool:
        """A research variant that narrows the guesses (a guess range, fewer guesses a round):
        its legal actions are worked out in full, never read off the plain lists."""
        return (
            self.guess_min != GUESS_MIN
            or self.guess_max != GUESS_MAX
            or self.max_guesses is not None
        )

    def feather_set(self) -> tuple[str, ...]:
        """The feathers in play, sorted (the 36 unless a research variant names others)."""
        from campfire.games.powwow.feathers import FEATHERS

        return tuple(sorted(FEATHERS if self.feathers is None else self.feathers.split()))
