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
