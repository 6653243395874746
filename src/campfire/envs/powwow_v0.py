"""Pow Wow as a PettingZoo AEC environment.

    from campfire.envs import powwow_v0
    env = powwow_v0.env(players=4, tomahawks=True, render_mode="ansi")

Game options (`buzzards`, `tomahawks`, `end_after_eliminations`, `first_player`) are keyword
arguments; the action numbers are described in `campfire.games.powwow.encoding`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from campfire.envs.aec import AgentID, CampfireAECEnv, Observation, wrap


def raw_env(
    players: int = 4, render_mode: str | None = None, max_steps: int | None = None, **options: Any
) -> CampfireAECEnv:
    return CampfireAECEnv("powwow", players, render_mode, max_steps, **options)


def env(
    players: int = 4, render_mode: str | None = None, max_steps: int | None = None, **options: Any
) -> AECEnv[AgentID, Observation, int]:
    return wrap(raw_env(players, render_mode, max_steps, **options))
