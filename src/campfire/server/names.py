"""When two names at a table are the same name: compared as people read them, not as code
points, so nobody can sit beside someone under a name that reads the same. The fold is the
accounts' (`campfire.accounts.folding`): a table and an account name compare alike."""

from __future__ import annotations

from campfire.accounts.folding import LOOKALIKES, name_key

__all__ = ["LOOKALIKES", "name_key"]
