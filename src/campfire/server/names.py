"""When two names at a table are the same name: compared as people read them, not as code
points, so nobody can sit beside someone under a name that reads the same.

The fold: NFKC (fullwidth, ligatures, mathematical letters), case folding, accents and other
combining marks dropped (so "ALİCE", whose "İ" folds to "i" and a dot, reads "alice"), then
every letter or digit that looks like a Latin one read as that one (Unicode's confusables, as
`campfire/accounts/lookalikes.txt` ships them, shared with account names): "Аlice" with a
Cyrillic "А" is "alice" too.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

LOOKALIKES = Path(__file__).parent.parent / "accounts" / "lookalikes.txt"


@cache
def _lookalikes() -> dict[int, str]:
    table: dict[int, str] = {}
    for line in LOOKALIKES.read_text().splitlines():
        if line and not line.startswith("#"):
            point, latin = line.split()
            table[int(point, 16)] = latin
    return table


def name_key(name: str) -> str:
    """The name as a table compares it: two names with one key cannot sit at one table."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        ch for ch in unicodedata.normalize("NFD", folded) if unicodedata.category(ch) != "Mn"
    )
    return unicodedata.normalize("NFKC", bare.translate(_lookalikes())).casefold()
