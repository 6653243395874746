"""When two names at a table are the same name: compared as people read them, not as code
points, so nobody can sit beside someone under a name that reads the same. The fold is the
accounts' (`campfire.accounts.folding`: NFKC, case, combining marks, Unicode's look-alikes),
so a table name and an account name compare alike.
"""

from __future__ import annotations

import unicodedata

from campfire.accounts.folding import LOOKALIKES, name_key

__all__ = ["LOOKALIKES", "invisible", "name_key"]


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
