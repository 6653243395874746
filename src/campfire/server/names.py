"""When two names at a table are the same name: compared as people read them, not as code
points, so nobody can sit beside someone under a name that reads the same."""

from __future__ import annotations


def name_key(name: str) -> str:
    """The name as a table compares it (whatever its case)."""
    return name.casefold()
