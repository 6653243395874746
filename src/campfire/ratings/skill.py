"""Ratings: openskill's Plackett-Luce model, shown as one number on a 1500 scale.

A player's skill is openskill's (mu, sigma), starting at its defaults (25, 25/3). The number
shown is `1500 + SCALE * (mu - 25)` (1500 at the start; 20 points per unit of mu, so a first
win among four moves it by about 55); it is provisional (marked `?`) until the player has
`PROVISIONAL_GAMES` rated games in that game. Bots at rated tables carry a fixed skill per level,
calibrated from `campfire arena` (docs/accounts.md gives the run); their skill takes part in the
update of the people at the table but never moves itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

#: shown rating points per unit of mu; openskill's default mu of 25 reads `BASE`
SCALE = 20.0
BASE = 1500
MU = 25.0
#: rated games in a game before its rating loses the provisional mark
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Skill:
    """openskill's belief about one player: mean `mu`, uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The one number a player sees."""
        return round(BASE + SCALE * (self.mu - MU))


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial() -> Skill:
    model = _model()
    return Skill(float(model.mu), float(model.sigma))


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


#: fixed skill per bot level: mu is 25 plus the level's lead in mu over `medium` in
#: `campfire arena GAME --players 4 --bots LEVEL,medium,medium,medium --seed 2024`, sigma the
#: arena's sigma for the level (the runs and their figures: docs/accounts.md)
BOT_SKILLS: dict[str, dict[str, Skill]] = {
    "powwow": {
        "random": Skill(18.27, 2.03),
        "easy": Skill(20.14, 1.97),
        "medium": Skill(25.0, 1.87),
        "hard": Skill(65.86, 4.59),
        "expert": Skill(65.29, 4.75),
    },
    "wakatanka": {
        "random": Skill(17.81, 2.57),
        "easy": Skill(19.0, 2.47),
        "medium": Skill(25.0, 2.36),
        "hard": Skill(39.47, 5.08),
        "expert": Skill(56.31, 5.69),
    },
}


def bot_skill(game: str, level: str) -> Skill:
    """The fixed skill of a bot of `level` at a rated table of `game` (1500 if uncalibrated)."""
    return BOT_SKILLS.get(game, {}).get(level, initial())


def rate(skills: Sequence[Skill], ranks: Sequence[int], fixed: Sequence[bool]) -> list[Skill]:
    """Everyone's skill after one game finished in `ranks` (1 = first, ties share a place);
    a `fixed` seat (a bot) keeps its skill."""
    if not len(skills) == len(ranks) == len(fixed):
        raise ValueError("one skill, one rank and one fixed flag per seat")
    if len(skills) < 2:
        raise ValueError("a rated game needs at least two players")
    model = _model()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    rated = model.rate(teams, ranks=[float(r) for r in ranks])
    return [
        old if keep else Skill(float(team[0].mu), float(team[0].sigma))
        for old, keep, team in zip(skills, fixed, rated, strict=True)
    ]
