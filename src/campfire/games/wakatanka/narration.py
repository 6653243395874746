"""Waka Tanka's narration: one whole sentence per event, in the reader's language.

Tiles and cards are named through the catalogue ("animal" context; with an article in the
"an animal" context, as languages give animals genders). Only `campfire.i18n` is used.
"""

from __future__ import annotations

from campfire.i18n import NC_, Translator, translator
from campfire.kernel.events import Event

#: the animals' names and their names with an article, for extraction
_ANIMALS = {
    "coyote": (NC_("animal", "coyote"), NC_("an animal", "a coyote")),
    "puma": (NC_("animal", "puma"), NC_("an animal", "a puma")),
    "bear": (NC_("animal", "bear"), NC_("an animal", "a bear")),
    "owl": (NC_("animal", "owl"), NC_("an animal", "an owl")),
    "buffalo": (NC_("animal", "buffalo"), NC_("an animal", "a buffalo")),
    "eagle": (NC_("animal", "eagle"), NC_("an animal", "an eagle")),
    "mouse": (NC_("animal", "mouse"), NC_("an animal", "a mouse")),
}


def animal(code: str, tr: Translator) -> str:
    """A tile or card by its name in `tr`'s language."""
    return tr.pgettext("animal", _ANIMALS[code][0]) if code in _ANIMALS else code


def an_animal(code: str, tr: Translator) -> str:
    return tr.pgettext("an animal", _ANIMALS[code][1]) if code in _ANIMALS else code


def animals(codes: list[str], tr: Translator) -> str:
    return ", ".join(animal(c, tr) for c in codes)


def describe(event: Event, seat: int | None, lang: str = "en") -> str:
    tr = translator(lang)
    _ = tr.gettext
    d = event.data
    kind = event.kind
    you = d.get("seat") == seat and seat is not None
    if kind == "shuffle":
        return tr.ngettext("The {n} card is shuffled.", "The {n} cards are shuffled.", d["count"])
    if kind == "marker":
        return _("The shaman marker starts on {tile}.", tile=animal(d["tile"], tr))
    if kind == "deal":
        sizes = ", ".join(
            _("{name} {count}", name=tr.seat(s, seat), count=tr.number(n))
            for s, n in enumerate(d["hand_sizes"])
        )
        return _("The cards are dealt: {sizes}.", sizes=sizes)
    if kind == "hand":
        cards = animals(d["cards"], tr)
        if you:
            return _("Your hand: {cards}.", cards=cards)
        return _("Seat {seat}'s hand: {cards}.", seat=d["seat"], cards=cards)
    if kind == "play":
        tile, said, n = animal(d["tile"], tr), an_animal(d["tile"], tr), d["hand_size"]
        if you:
            return tr.ngettext(
                "You move the marker to {tile} and place a card face down, saying it is {said}"
                " ({n} left in hand).",
                "You move the marker to {tile} and place a card face down, saying it is {said}"
                " ({n} left in hand).",
                n,
                tile=tile,
                said=said,
            )
        return tr.ngettext(
            "Seat {seat} moves the marker to {tile} and places a card face down, saying it is"
            " {said} ({n} left in hand).",
            "Seat {seat} moves the marker to {tile} and places a card face down, saying it is"
            " {said} ({n} left in hand).",
            n,
            seat=d["seat"],
            tile=tile,
            said=said,
        )
    if kind == "placed":
        card, tile = an_animal(d["card"], tr), animal(d["tile"], tr)
        if you:
            return _("You place {card} on {tile}.", card=card, tile=tile)
        return _("Seat {seat} places {card} on {tile}.", seat=d["seat"], card=card, tile=tile)
    if kind == "last_card":
        # only the next player may answer it: nobody else is told to call or accept
        if you:
            return _("That was your last card: the next player calls the bluff or accepts.")
        return _(
            "That was seat {seat}'s last card: the next player calls the bluff or accepts.",
            seat=d["seat"],
        )
    if kind == "call":
        tile, cards = animal(d["tile"], tr), animals(d["cards"], tr)
        if you:
            text = _("You call the bluff: {tile} shows {cards} (top last).", tile=tile, cards=cards)
        else:
            text = _(
                "Seat {seat} calls the bluff: {tile} shows {cards} (top last).",
                seat=d["seat"],
                tile=tile,
                cards=cards,
            )
        n = len(d["cards"])
        taker = d["taker"]
        if d["bluff"]:
            if taker == seat:
                then = tr.ngettext(
                    "It was a bluff: you take the card.",
                    "It was a bluff: you take the {n} cards.",
                    n,
                )
            else:
                then = tr.ngettext(
                    "It was a bluff: seat {taker} takes the card.",
                    "It was a bluff: seat {taker} takes the {n} cards.",
                    n,
                    taker=taker,
                )
        elif taker == seat:
            then = tr.ngettext(
                "The card was true: you take the card.",
                "The card was true: you take the {n} cards.",
                n,
            )
        else:
            then = tr.ngettext(
                "The card was true: seat {taker} takes the card.",
                "The card was true: seat {taker} takes the {n} cards.",
                n,
                taker=taker,
            )
        return f"{text} {then}"
    if kind == "spell":
        tile, cards = animal(d["tile"], tr), animals(d["cards"], tr)
        if you:
            text = _("You cast a spell on {tile}: it shows {cards}.", tile=tile, cards=cards)
        else:
            text = _(
                "Seat {seat} casts a spell on {tile}: it shows {cards}.",
                seat=d["seat"],
                tile=tile,
                cards=cards,
            )
        if d["success"]:
            then = _("The spell works: the cards leave the game.")
        elif d["taker"] == seat:
            then = _("The spell fails: you take the cards.")
        else:
            then = _("The spell fails: seat {taker} takes the cards.", taker=d["taker"])
        return f"{text} {then}"
    if kind == "token":
        n = d["tokens"]
        if you:
            return tr.ngettext(
                "You gain an apprentice token ({n} in all).",
                "You gain an apprentice token ({n} in all).",
                n,
            )
        return tr.ngettext(
            "Seat {seat} gains an apprentice token ({n} in all).",
            "Seat {seat} gains an apprentice token ({n} in all).",
            n,
            seat=d["seat"],
        )
    if kind == "accept":
        if you:
            return _("You accept seat {player}'s last card.", player=d["player"])
        if d["player"] == seat:
            return _("Seat {seat} accepts your last card.", seat=d["seat"])
        return _(
            "Seat {seat} accepts seat {player}'s last card.", seat=d["seat"], player=d["player"]
        )
    if kind == "game_over":
        names = tr.join(tr.seat(s, seat) for s in d["winners"])
        if d["reason"] == "tokens":
            return _("Game over. Winner: {names}, with four tokens.", names=names)
        return _("Game over. Winner: {names}, with an empty hand.", names=names)
    return f"{kind}: {dict(d)}"
