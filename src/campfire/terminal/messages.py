"""Every sentence the terminal table says, in one place (so that it can be translated whole).

Plurals are whole sentences, never a word with "s" appended.
"""

from __future__ import annotations

GENERAL_HELP = """\
table              draw the table again
rules              the rules in short, and what the table's symbols mean
save FILE          save the game so far as a record (replay or resume it later)
help               this list
quit               leave the game"""

HEADER = "{title} — {seats}"
TYPE_HELP = "Type 'help' for the commands."
ROLE_YOU = "you"
ROLE_PERSON = "person"
ROLE_BOT = "bot"
ROLE_BOT_LEVEL = "{level} bot"
SEAT_ROLE = "seat {seat}: {role}"
PROMPT = "seat {seat} > "
ERROR = "[red]✗[/] {message}"
DID_YOU_MEAN = "unknown command '{verb}': did you mean {suggestions}? (help lists them)"
OR = " or "
INPUT_ENDED = "Input ended before the game did; save it next time with 'save FILE'."
LEFT = "You left the game."
GOODBYE = "Goodbye."
INTERRUPTED = "Interrupted: you left the game."
KEPT = "The game is saved in {path}: resume it with 'campfire play {game} --resume {path}'."
INPUT_ENDED_KEPT = "Input ended before the game did; the game so far is in {path}."
CANNOT_RECORD = "cannot write the record to {path}: {reason}"
NOT_SAVED = "The game is not saved: 'save FILE' keeps it (replay or resume it later)."
CONFIRM_QUIT = "Leave without saving? yes, no, or save FILE > "
YES = ("yes", "y", "quit")
PLAY_ON = "Then play on."
AFTER_THE_GAME = (
    "The game is over: 'save FILE' keeps it, 'review' judges every move, 'table' shows it"
    " again, 'help' lists what else you can do, 'quit' leaves."
)
END_PROMPT = "game over > "
UNKNOWN_AFTER = "unknown command '{verb}': the game is over (help lists what you can do)"
END_HELP_SAVE = "save FILE          save the finished game as a record (replay it later)"
END_HELP_REVIEW = (
    "review [SEAT]      every move judged by the top level: labels, better moves, accuracy"
)
REVIEW_USAGE = "write 'review' for every seat, or 'review SEAT' for one"
REVIEWING = "Reviewing the game: every move is judged as the top level would judge it..."
REVIEW_YOU = "You (seat {seat})"
REVIEW_SEAT = "Seat {seat}"
REVIEW_SEAT_ROLE = "Seat {seat} ({role})"
END_HELP_TABLE = "table              the table as the game ended"
END_HELP_HELP = "help               this list"
END_HELP_QUIT = "quit               leave"
SAVE_USAGE = "write 'save FILE'"
CANNOT_SAVE = "cannot save to {path}: {reason}"
SAVED = "Saved to {path} (resume with --resume {path})."
PASS_KEYBOARD = "[bold]Seat {seat}'s turn.[/] Pass the keyboard to seat {seat}, then press Enter. "
SEAT_RULE = "seat {seat}"
GAME_OVER = "game over"
WINNER = "[bold]Winner: {names}[/]"
WINNERS = "[bold]Winners: {names}[/]"
AND = " and "
SEAT = "seat {seat}"
TYPED_AHEAD = (
    "[yellow]Ignored {typed}, typed before this table was shown: type it again if you still"
    " mean it.[/]"
)
