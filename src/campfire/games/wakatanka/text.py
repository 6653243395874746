"""Waka Tanka in a terminal: the circle of tiles drawn with Rich, and the typed commands."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from campfire.games.wakatanka.actions import ACCEPT, CALL, Action, Call, Play, Spell
from campfire.games.wakatanka.cards import CARDS, TILES
from campfire.games.wakatanka.view import WakatankaView

if TYPE_CHECKING:
    from campfire.games.wakatanka.game import Wakatanka

HELP = """\
play TILE CARD     move the marker to TILE (next to it) and place CARD there face down
call               call the bluff of the card just played
spell TILE         reveal TILE's stack: two of its animal win a token
accept             let the player who played their last card win"""


def _pick(word: str, names: tuple[str, ...], what: str) -> str:
    matches = [n for n in names if n.startswith(word)]
    if word in names:
        return word
    if len(matches) == 1:
        return matches[0]
    raise ValueError(f"'{word}' is not {what} ({', '.join(names)})")


class WakatankaText:
    def __init__(self, game: Wakatanka) -> None:
        self.game = game

    def render(self, view: WakatankaView) -> Any:
        lines: list[Any] = [Text("Waka Tanka · the totem and its six tiles", style="bold")]
        circle = Table(box=None, pad_edge=False, header_style="bold")
        circle.add_column("")
        circle.add_column("tile")
        circle.add_column("cards")
        for tile in TILES:
            slots = view.stacks[tile]
            mark = "◆" if tile == view.marker else ""
            mine = [s.card for s in slots if s.card is not None]
            cards = f"{len(slots)}" + (f"  (yours: {', '.join(mine)})" if mine else "")
            circle.add_row(Text(mark, style="bold yellow"), tile, cards)
        lines.append(circle)
        players = Table(box=None, pad_edge=False, header_style="bold")
        players.add_column("seat")
        players.add_column("hand")
        players.add_column("tokens")
        for s in range(view.players):
            name = f"{s}" + (" (you)" if s == view.seat else "")
            if s == view.to_move:
                name = "▶ " + name
            players.add_row(
                name, str(view.hand_sizes[s]), "★" * view.tokens[s] + "·" * (4 - view.tokens[s])
            )
        lines.append(players)
        if view.hand is not None:
            counts = Counter(view.hand)
            shown = ", ".join(
                f"{n}× {c}" if n > 1 else c
                for c, n in sorted(counts.items(), key=lambda x: CARDS.index(x[0]))
            )
            lines.append(Text(f"Your hand: {shown or 'empty'}", style="bold"))
        if view.last_play is not None:
            who, tile = view.last_play
            note = f"Seat {who} just played on {tile}: you may call."
            if view.last_card:
                note = f"Seat {who} just played their LAST card on {tile}: call or accept."
            lines.append(Text(note, style="yellow"))
        if view.removed:
            lines.append(Text(f"Out of the game: {', '.join(view.removed)}", style="dim"))
        return Group(*lines)

    def parse(self, command: str, view: WakatankaView) -> Action:
        words = command.lower().split()
        if not words:
            raise ValueError("type a command (help lists them)")
        verb, args = words[0], words[1:]
        if verb in ("play", "p"):
            if len(args) != 2:
                raise ValueError("write 'play TILE CARD', e.g. 'play owl mouse'")
            return Play(_pick(args[0], TILES, "a tile"), _pick(args[1], CARDS, "a card"))
        if verb in ("spell", "s"):
            if len(args) != 1:
                raise ValueError("write 'spell TILE', e.g. 'spell bear'")
            return Spell(_pick(args[0], TILES, "a tile"))
        if verb in ("call", "c", "accept", "a"):
            if args:
                raise ValueError(f"'{verb}' takes nothing after it")
            return CALL if verb.startswith("c") else ACCEPT
        raise ValueError(f"unknown command '{verb}' (help lists them)")

    def command(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"play {action.tile} {action.card}"
        if isinstance(action, Spell):
            return f"spell {action.tile}"
        return "call" if isinstance(action, Call) else "accept"

    def help(self) -> str:
        return HELP
