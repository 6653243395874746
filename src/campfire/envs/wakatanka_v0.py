"""Waka Tanka as a PettingZoo AEC environment.

    from campfire.envs import wakatanka_v0
    env = wakatanka_v0.env(players=4, render_mode="ansi")

Game options (`first_player`) are keyword arguments; the action numbers are described in
`campfire.games.wakatanka.encoding`.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from campfire.envs.aec import AgentID, CampfireAECEnv, Observation, wrap


def raw_env(
    players: int = 4, render_mode: str | None = None, max_steps: int | None = None, **options: Any
) -> CampfireAECEnv:
    return CampfireAECEnv("wakatanka", players, render_mode, max_steps, **options)


def env(
    players: int = 4, render_mode: str | None = None, max_steps: int | None = None, **options: Any
) -> AECEnv[AgentID, Observation, int]:
    return wrap(raw_env(players, render_mode, max_steps, **options))
