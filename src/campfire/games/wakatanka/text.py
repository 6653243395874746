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
from campfire.kernel.text import UnknownCommand

if TYPE_CHECKING:
    from campfire.games.wakatanka.game import Wakatanka

HELP = """\
play TILE CARD     move the marker to TILE (next to it) and place CARD there face down
call               call the bluff of the card just played
spell TILE         reveal TILE's stack: two of its animal win a token
accept             let the player who played their last card win"""

RULES = """\
Play a card face down on one of the two tiles next to the marker (◆), moving the marker there,
and say it is that tile's animal (a bluff or not). The next player may call: a bluff gives the
caller an apprentice token and the bluffer the stack; a true card gives the caller the stack.
A spell turns over any stack: two or more of its animal send the cards out of the game and
win a token; otherwise you take the stack. Four tokens, or an empty hand that the next player
accepts, win the game.

Table: ◆ the marker, › the tiles you may play on (the tiles form a circle: eagle is next to
coyote), the number after a tile is its stack; ★ a token, ▶ whose turn; mouse cards are never
true."""


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
        lines.extend(circle(view))
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
        if view.last_play is not None and not view.terminal:
            lines.append(Text(last_play_note(view), style="yellow"))
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
        raise UnknownCommand(verb)

    def command(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"play {action.tile} {action.card}"
        if isinstance(action, Spell):
            return f"spell {action.tile}"
        return "call" if isinstance(action, Call) else "accept"

    def help(self, view: WakatankaView) -> str:
        return HELP

    def rules(self, view: WakatankaView) -> str:
        return RULES


def _cell(view: WakatankaView, tile: str, near: set[str]) -> str:
    mark = "◆" if tile == view.marker else "›" if tile in near else " "
    return f"{mark}{tile} {len(view.stacks[tile])}"


def circle(view: WakatankaView) -> list[Text]:
    """The six tiles drawn as the circle they are, so both neighbours of the marker show
    (eagle and coyote sit side by side): ◆ marks the marker, › the tiles you may play on."""
    near: set[str] = set()
    if view.marker is not None:
        at = TILES.index(view.marker)
        near = {TILES[(at - 1) % 6], TILES[(at + 1) % 6]}
    cell = {t: _cell(view, t, near) for t in TILES}
    coyote, puma, bear, owl, buffalo, eagle = (cell[t] for t in TILES)
    rows = [
        f"{'':7}{coyote:<12}  {puma}",
        f"{eagle:<12}{'':14}{bear}",
        f"{'':7}{buffalo:<12}  {owl}",
    ]
    out = [Text(row.rstrip()) for row in rows]
    if view.marker is not None:
        left, right = (TILES[(TILES.index(view.marker) + d) % 6] for d in (-1, 1))
        out.append(Text(f"Marker on {view.marker}: next to it are {left} and {right}."))
    mine = [
        f"{tile}: {', '.join(c)}"
        for tile in TILES
        if (c := [s.card for s in view.stacks[tile] if s.card is not None])
    ]
    if mine:
        out.append(Text(f"Your cards in the stacks — {'; '.join(mine)}", style="dim"))
    return out


def last_play_note(view: WakatankaView) -> str:
    """Who may answer the last play: only the next player is told to call or accept."""
    assert view.last_play is not None
    who, tile = view.last_play
    next_up = view.to_move
    if who == view.seat:
        if view.last_card:
            return f"You played your last card on {tile}: the next player calls or accepts."
        return f"You just played on {tile}."
    name = f"Seat {who}"
    if view.last_card:
        if next_up == view.seat:
            return f"{name} just played their LAST card on {tile}: call or accept."
        return f"{name} just played their last card on {tile}: seat {next_up} calls or accepts."
    if next_up == view.seat:
        return f"{name} just played on {tile}: you may call."
    return f"{name} just played on {tile}."
