"""Naive second implementations of both games, for tests only.

Written straight from RULINGS.md in the plainest code (lists, loops, no shared helpers with
`src/`), so a rule the engine gets wrong the same way everywhere still shows up as a difference
(see `test_differential.py`). Nothing here may import from `campfire.games`.
"""
