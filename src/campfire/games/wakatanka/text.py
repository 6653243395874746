"""Waka Tanka in a terminal: the circle of tiles drawn with Rich, and the typed commands."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from campfire.games.wakatanka.actions import ACCEPT, CALL, Action, Call, Play, Spell
from campfire.games.wakatanka.cards import CARDS, TILES
from campfire.games.wakatanka.narration import animal, animals
from campfire.games.wakatanka.view import WakatankaView
from campfire.i18n import N_, NC_, Translator, translator
from campfire.i18n.commands import english_verb, help_text
from campfire.kernel.text import UnknownCommand

if TYPE_CHECKING:
    from campfire.games.wakatanka.game import Wakatanka

HELP_ROWS = (
    (
        N_("play TILE CARD"),
        N_("move the marker to TILE (next to it) and place CARD there face down"),
    ),
    (N_("call"), N_("call the bluff of the card just played")),
    (N_("spell TILE"), N_("reveal TILE's stack: two of its animal win a token")),
    (N_("accept"), N_("let the player who played their last card win")),
)
HELP = help_text(translator("en"), HELP_ROWS)
#: the commands, each also accepted in the reader's language
VERBS = ("play", "call", "spell", "accept")
_VERB_WORDS = (
    NC_("command", "play"),
    NC_("command", "call"),
    NC_("command", "spell"),
    NC_("command", "accept"),
)

RULES = N_("""\
Play a card face down on one of the two tiles next to the marker (◆), moving the marker there,
and say it is that tile's animal (a bluff or not). The next player may call: a bluff gives the
caller an apprentice token and the bluffer the stack; a true card gives the caller the stack.
A spell turns over any stack: two or more of its animal send the cards out of the game and
win a token; otherwise you take the stack. Four tokens, or an empty hand that the next player
accepts, win the game.

Table: ◆ the marker, › the tiles you may play on (the tiles form a circle: eagle is next to
coyote), the number after a tile is its stack; ★ a token, ▶ whose turn; mouse cards are never
true.""")


def _pick(word: str, names: tuple[str, ...], what: str, tr: Translator) -> str:
    """The tile or card `word` names, in English or the reader's language, or a prefix of one."""
    local = {animal(n, tr).lower(): n for n in names}
    if word in names:
        return word
    if word in local:
        return local[word]
    matches = {n for n in names if n.startswith(word)}
    matches |= {n for said, n in local.items() if said.startswith(word)}
    if len(matches) == 1:
        return matches.pop()
    raise ValueError(
        tr.gettext(
            "'{word}' is not {what} ({names})", word=word, what=what, names=animals(list(names), tr)
        )
    )


class WakatankaText:
    def __init__(self, game: Wakatanka, lang: str = "en") -> None:
        self.game = game
        self.tr = translator(lang)

    def render(self, view: WakatankaView) -> Any:
        _ = self.tr.gettext
        lines: list[Any] = [Text(_("Waka Tanka · the totem and its six tiles"), style="bold")]
        lines.extend(circle(view, self.tr))
        players = Table(box=None, pad_edge=False, header_style="bold")
        players.add_column(_("seat"))
        players.add_column(_("hand"))
        players.add_column(_("tokens"))
        for s in range(view.players):
            name = _("{seat} (you)", seat=s) if s == view.seat else f"{s}"
            if s == view.to_move:
                name = "▶ " + name
            players.add_row(
                name, str(view.hand_sizes[s]), "★" * view.tokens[s] + "·" * (4 - view.tokens[s])
            )
        lines.append(players)
        if view.hand is not None:
            counts = Counter(view.hand)
            shown = ", ".join(
                f"{n}× {animal(c, self.tr)}" if n > 1 else animal(c, self.tr)
                for c, n in sorted(counts.items(), key=lambda x: CARDS.index(x[0]))
            )
            lines.append(Text(_("Your hand: {cards}", cards=shown or _("empty")), style="bold"))
        if view.last_play is not None and not view.terminal:
            lines.append(Text(last_play_note(view, self.tr), style="yellow"))
        if view.removed:
            said = animals(list(view.removed), self.tr)
            lines.append(Text(_("Out of the game: {cards}", cards=said), style="dim"))
        return Group(*lines)

    def parse(self, command: str, view: WakatankaView) -> Action:
        _ = self.tr.gettext
        words = command.lower().split()
        if not words:
            raise ValueError(_("type a command (help lists them)"))
        verb, args = english_verb(self.tr, words[0], VERBS), words[1:]
        tile, card = _("a tile"), _("a card")
        if verb in ("play", "p"):
            if len(args) != 2:
                raise ValueError(_("write 'play TILE CARD', e.g. 'play owl mouse'"))
            return Play(_pick(args[0], TILES, tile, self.tr), _pick(args[1], CARDS, card, self.tr))
        if verb in ("spell", "s"):
            if len(args) != 1:
                raise ValueError(_("write 'spell TILE', e.g. 'spell bear'"))
            return Spell(_pick(args[0], TILES, tile, self.tr))
        if verb in ("call", "c", "accept", "a"):
            if args:
                raise ValueError(_("'{verb}' takes nothing after it", verb=words[0]))
            return CALL if verb.startswith("c") else ACCEPT
        raise UnknownCommand(verb)

    def command(self, action: Action) -> str:
        word = self.tr.pgettext
        if isinstance(action, Play):
            return (
                f"{word('command', 'play')} {animal(action.tile, self.tr)}"
                f" {animal(action.card, self.tr)}"
            )
        if isinstance(action, Spell):
            return f"{word('command', 'spell')} {animal(action.tile, self.tr)}"
        return word("command", "call") if isinstance(action, Call) else word("command", "accept")

    def help(self, view: WakatankaView) -> str:
        return help_text(self.tr, HELP_ROWS)

    def rules(self, view: WakatankaView) -> str:
        return self.tr.gettext(RULES)


def _cell(view: WakatankaView, tile: str, near: set[str], tr: Translator) -> str:
    mark = "◆" if tile == view.marker else "›" if tile in near else " "
    return f"{mark}{animal(tile, tr)} {len(view.stacks[tile])}"


def circle(view: WakatankaView, tr: Translator | None = None) -> list[Text]:
    """The six tiles drawn as the circle they are, so both neighbours of the marker show
    (eagle and coyote sit side by side): ◆ marks the marker, › the tiles you may play on."""
    tr = tr or translator("en")
    _ = tr.gettext
    near: set[str] = set()
    if view.marker is not None:
        at = TILES.index(view.marker)
        near = {TILES[(at - 1) % 6], TILES[(at + 1) % 6]}
    cell = {t: _cell(view, t, near, tr) for t in TILES}
    coyote, puma, bear, owl, buffalo, eagle = (cell[t] for t in TILES)
    rows = [
        f"{'':7}{coyote:<12}  {puma}",
        f"{eagle:<12}{'':14}{bear}",
        f"{'':7}{buffalo:<12}  {owl}",
    ]
    out = [Text(row.rstrip()) for row in rows]
    if view.marker is not None:
        left, right = (TILES[(TILES.index(view.marker) + d) % 6] for d in (-1, 1))
        out.append(
            Text(
                _(
                    "Marker on {tile}: next to it are {left} and {right}.",
                    tile=animal(view.marker, tr),
                    left=animal(left, tr),
                    right=animal(right, tr),
                )
            )
        )
    mine = [
        f"{animal(tile, tr)}: {animals(c, tr)}"
        for tile in TILES
        if (c := [s.card for s in view.stacks[tile] if s.card is not None])
    ]
    if mine:
        out.append(
            Text(_("Your cards in the stacks — {cards}", cards="; ".join(mine)), style="dim")
        )
    return out


def last_play_note(view: WakatankaView, tr: Translator | None = None) -> str:
    """Who may answer the last play: only the next player is told to call or accept."""
    assert view.last_play is not None
    tr = tr or translator("en")
    _ = tr.gettext
    who, code = view.last_play
    tile = animal(code, tr)
    next_up = view.to_move
    if who == view.seat:
        if view.last_card:
            return _(
                "You played your last card on {tile}: the next player calls or accepts.", tile=tile
            )
        return _("You just played on {tile}.", tile=tile)
    if view.last_card:
        if next_up == view.seat:
            return _(
                "Seat {seat} just played their LAST card on {tile}: call or accept.",
                seat=who,
                tile=tile,
            )
        return _(
            "Seat {seat} just played their last card on {tile}: seat {next} calls or accepts.",
            seat=who,
            tile=tile,
            next=next_up,
        )
    if next_up == view.seat:
        return _("Seat {seat} just played on {tile}: you may call.", seat=who, tile=tile)
    return _("Seat {seat} just played on {tile}.", seat=who, tile=tile)
