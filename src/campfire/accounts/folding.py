"""When two names are the same name: compared as people read them, not as code points, so
nobody can sit beside (or sign up as) someone under a name that reads the same.

The fold: NFKC (fullwidth, ligatures, mathematical letters), case folding, accents and other
combining marks dropped (so "ALİCE", whose "İ" folds to "i" and a dot, reads "alice"), then
every letter or digit that looks like a Latin one read as that one (Unicode's confusables, as
`lookalikes.txt` beside this module ships them): "Аlice" with a Cyrillic "А" is "alice" too.
Table names and account names share this fold.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

LOOKALIKES = Path(__file__).parent / "lookalikes.txt"


@cache
def _lookalikes() -> dict[int, str]:
    table: dict[int, str] = {}
    for line in LOOKALIKES.read_text().splitlines():
        if line and not line.startswith("#"):
            point, latin = line.split()
            table[int(point, 16)] = latin
    return table


def name_key(name: str) -> str:
    """The name as compared: two names with one key are the same name."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(
        ch for ch in unicodedata.normalize("NFD", folded) if unicodedata.category(ch) != "Mn"
    )
    return unicodedata.normalize("NFKC", bare.translate(_lookalikes())).casefold()
