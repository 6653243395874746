"""What every Waka Tanka bot needs: a legal action in the end."""

from __future__ import annotations

from collections.abc import Sequence

from campfire.games.wakatanka.actions import Action


def pick_legal(action: Action, legal: Sequence[Action]) -> Action:
    """`action` when the rules allow it, else the first legal action (never an illegal move)."""
    return action if action in legal else legal[0]
