"""Typed commands in the reader's language: each command keeps its English word and is also
accepted in the reader's own (the catalogues' "command" context), and help shows both."""

from __future__ import annotations

from collections.abc import Sequence

from campfire.i18n import Translator

#: the column the help's descriptions start at (wider syntax pushes them on)
HELP_COLUMN = 19


def command_word(tr: Translator, verb: str) -> str:
    """The reader's own word for the English command `verb` (itself in English)."""
    return tr.pgettext("command", verb)


def help_line(tr: Translator, syntax: str, what: str) -> str:
    """One help row, its syntax in the reader's language with the English command after it
    when the two differ ("contester (dispute)"), then what it does."""
    said = tr.gettext(syntax)
    english = syntax.split()[0]
    if said.split()[0].lower() != english:
        first, _, rest = said.partition(" ")
        said = f"{first} ({english})" + (f" {rest}" if rest else "")
    return f"{said:<{HELP_COLUMN - 2}}  {tr.gettext(what)}"


def help_text(tr: Translator, rows: Sequence[tuple[str, str]]) -> str:
    return "\n".join(help_line(tr, syntax, what) for syntax, what in rows)


def english_verb(tr: Translator, word: str, verbs: Sequence[str]) -> str:
    """The English command that `word` names in the reader's language (or `word` itself)."""
    lowered = word.lower()
    for verb in verbs:
        if lowered == verb or lowered == tr.pgettext("command", verb).lower():
            return verb
    return lowered
