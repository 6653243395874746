"""Every sentence the terminal table says, in one place (so that it can be translated whole).

Each is an English source message, marked for the catalogues (`N_`) and translated when it is
said (`Session.say`). Plurals are whole sentences, never a word with "s" appended. Commands are
English words that each language may also name its own way (context "command" in the
catalogues); help lines are (syntax, what it does) pairs, laid out at any width.
"""

from __future__ import annotations

from campfire.i18n import N_, NC_, translator
from campfire.i18n.commands import english_verb, help_line, help_text

__all__ = ["english_verb", "help_line", "help_text"]

#: (syntax, what it does): the first word of the syntax is the command
GENERAL_HELP_ROWS = (
    (N_("table"), N_("draw the table again")),
    (N_("rules"), N_("the rules in short, and what the table's symbols mean")),
    (N_("save FILE"), N_("save the game so far as a record (replay or resume it later)")),
    (N_("help"), N_("this list")),
    (N_("quit"), N_("leave the game")),
)

HEADER = N_("{title} — {seats}")
TYPE_HELP = N_("Type 'help' for the commands.")
ROLE_YOU = N_("you")
ROLE_PERSON = N_("person")
ROLE_BOT = N_("bot")
ROLE_BOT_LEVEL = N_("{level} bot")
SEAT_ROLE = N_("seat {seat}: {role}")
PROMPT = N_("seat {seat} > ")
ERROR = "[red]✗[/] {message}"
DID_YOU_MEAN = N_("unknown command '{verb}': did you mean {suggestions}? (help lists them)")
OR = N_(" or ")
INPUT_ENDED = N_("Input ended before the game did; save it next time with 'save FILE'.")
LEFT = N_("You left the game.")
GOODBYE = N_("Goodbye.")
INTERRUPTED = N_("Interrupted: you left the game.")
KEPT = N_("The game is saved in {path}: resume it with 'campfire play {game} --resume {path}'.")
INPUT_ENDED_KEPT = N_("Input ended before the game did; the game so far is in {path}.")
CANNOT_RECORD = N_("cannot write the record to {path}: {reason}")
NOT_SAVED = N_("The game is not saved: 'save FILE' keeps it (replay or resume it later).")
CONFIRM_QUIT = N_("Leave without saving? yes, no, or save FILE > ")
YES = ("yes", "y", "quit")
PLAY_ON = N_("Then play on.")
AFTER_THE_GAME = N_(
    "The game is over: 'save FILE' keeps it, 'review' judges every move, 'table' shows it"
    " again, 'help' lists what else you can do, 'quit' leaves."
)
END_PROMPT = N_("game over > ")
UNKNOWN_AFTER = N_("unknown command '{verb}': the game is over (help lists what you can do)")
END_HELP_SAVE = (N_("save FILE"), N_("save the finished game as a record (replay it later)"))
END_HELP_REVIEW = (
    N_("review [SEAT]"),
    N_("every move judged by the top level: labels, better moves, accuracy"),
)
REVIEW_USAGE = N_("write 'review' for every seat, or 'review SEAT' for one")
REVIEWING = N_("Reviewing the game: every move is judged as the top level would judge it...")
REVIEW_YOU = N_("You (seat {seat})")
REVIEW_SEAT = N_("Seat {seat}")
REVIEW_SEAT_ROLE = N_("Seat {seat} ({role})")
END_HELP_TABLE = (N_("table"), N_("the table as the game ended"))
END_HELP_HELP = (N_("help"), N_("this list"))
END_HELP_QUIT = (N_("quit"), N_("leave"))
SAVE_USAGE = N_("write 'save FILE'")
CANNOT_SAVE = N_("cannot save to {path}: {reason}")
SAVED = N_("Saved to {path} (resume with --resume {path}).")
PASS_KEYBOARD = N_(
    "[bold]Seat {seat}'s turn.[/] Pass the keyboard to seat {seat}, then press Enter. "
)
SEAT_RULE = N_("seat {seat}")
GAME_OVER = N_("game over")
AND = N_(" and ")
SEAT = N_("seat {seat}")
TYPED_AHEAD = N_(
    "[yellow]Ignored {typed}, typed before this table was shown: type it again if you still"
    " mean it.[/]"
)

#: the commands of the table itself, each also accepted in the reader's language
COMMANDS = ("table", "rules", "save", "help", "quit", "yes", "no")
_COMMAND_WORDS = (
    NC_("command", "table"),
    NC_("command", "rules"),
    NC_("command", "save"),
    NC_("command", "review"),
    NC_("command", "help"),
    NC_("command", "quit"),
    NC_("command", "yes"),
    NC_("command", "no"),
)


#: the table's commands as English help (what the tests and the docs quote)
GENERAL_HELP = help_text(translator("en"), GENERAL_HELP_ROWS)
