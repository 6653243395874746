"""Account names: 3 to 20 letters, digits, `_` and `-`; one account per name as people read
it (`folding.name_key`: case, width, accents and look-alike letters folded), and never a word
the tables use for something else ("You", "Seat 2", "Bot 1", a bot level)."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from campfire.accounts.folding import name_key
from campfire.i18n import N_
from campfire.kernel import games
from campfire.kernel.errors import Refusal

NAME_MIN = 3
NAME_MAX = 20
#: "Seat2", "Bot-1", "player_3": how the tables name seats and bots (spaces cannot occur)
RESERVED = re.compile(r"^(you|spectator|(seat|bot|player)[-_]?\d+)$")
#: a deleted account's seats are shown under this name (not an account name: it has a space)
FORMER = "Former player"


class BadName(ValueError):
    """A name that cannot be an account's, with the reason a person reads."""


@cache
def _levels() -> frozenset[str]:
    return frozenset(name_key(level) for g in games().values() for level in g.bot_levels())


def _allowed(ch: str) -> bool:
    return ch in "_-" or unicodedata.category(ch) in ("Lu", "Ll", "Lt", "Lm", "Lo", "Nd")


def account_name(raw: str) -> str:
    """The name as the account keeps it (NFKC, as typed otherwise), or `BadName`."""
    name = unicodedata.normalize("NFKC", raw.strip())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadName(
            Refusal(
                N_("an account name has {least} to {most} characters, not {length}"),
                least=NAME_MIN,
                most=NAME_MAX,
                length=len(name),
            )
        )
    if not all(_allowed(ch) for ch in name):
        raise BadName(
            Refusal(
                N_("an account name holds letters, digits, '_' and '-' only (no spaces or symbols)")
            )
        )
    key = name_key(name)
    if RESERVED.match(key) or key in _levels():
        raise BadName(
            Refusal(
                N_(
                    "{name!r} is reserved (it names a seat, a bot or a bot level at the "
                    "tables): pick another name"
                ),
                name=name,
            )
        )
    return name
