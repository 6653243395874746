"""Research interfaces (the `rl` extra): PettingZoo, Gymnasium and OpenSpiel.

- `campfire.envs.powwow_v0.env(...)`, `campfire.envs.wakatanka_v0.env(...)`: PettingZoo AEC
- `campfire.envs.gymnasium_env.CampfireEnv`: one learner seat against bots (Gymnasium)
- `import campfire.envs.openspiel` registers `python_campfire_powwow` and
  `python_campfire_wakatanka` with OpenSpiel

Nothing is imported here, so each library is needed only when its adapter is used.
"""
