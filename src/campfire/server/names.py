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


def invisible(text: str) -> bool:
    """Whether the text holds control, format, surrogate, private or unassigned characters:
    what a name or a chat line may not, as it could hide or reorder what others read. A
    zero-width joiner that joins two emoji into one (👨‍👩‍👧) is part of what is seen."""
    return any(
        unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and not _emoji_joiner(text, i)
        for i, ch in enumerate(text)
    )


#: what may stand before a joiner inside an emoji sequence: a symbol, a skin tone (Sk)
_JOINED = ("So", "Sk")


def _emoji_joiner(text: str, i: int) -> bool:
    """Whether text[i] is a zero-width joiner between two parts of one emoji."""
    if text[i] != "\u200d" or i == 0 or i + 1 >= len(text):
        return False
    before, after = text[i - 1], text[i + 1]
    joined = before == "\ufe0f" or unicodedata.category(before) in _JOINED  # or after VS16
    return joined and unicodedata.category(after) == "So"
