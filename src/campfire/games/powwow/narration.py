"""Pow Wow's narration: one whole sentence per event, in the reader's language.

Each sentence exists whole for "you" and for another seat (languages conjugate differently),
plurals go through the catalogue. Only `campfire.i18n` is used: the rules know nothing of it.
"""

from __future__ import annotations

from campfire.i18n import Translator, translator
from campfire.kernel.events import Event


def feather(code: str, tr: Translator) -> str:
    """A feather as the table writes it; only the zero feather has a word."""
    if code == "zero":
        return tr.pgettext("feather", "zero")
    return {"max0": "max=0"}.get(code, code)


def describe(event: Event, seat: int | None, lang: str = "en") -> str:
    tr = translator(lang)
    _ = tr.gettext
    d = event.data
    kind = event.kind
    you = d.get("seat") == seat and seat is not None
    if kind == "shuffle":
        reason = d["reason"]
        if reason == "start":
            return _("The 36 feathers are shuffled into the stack.")
        if reason == "zero":
            return _("The zero feather was in play: all 36 feathers are shuffled into a new stack.")
        if reason == "short":
            return _(
                "Too few feathers for the deal: the stack and the used pile are shuffled together."
            )
        return _("The stack is empty: the used pile is shuffled into a new stack.")
    if kind == "round":
        if d["first_player"] == seat:
            return _("Round {round} begins. You open the guessing.", round=d["round"])
        return _(
            "Round {round} begins. Seat {seat} opens the guessing.",
            round=d["round"],
            seat=d["first_player"],
        )
    if kind == "deal":
        return ""  # the table shows the new feathers; no line per feather
    if kind == "feather":
        if not d["extra"]:
            return ""
        shown = feather(d["feather"], tr)
        if you:
            return _("Your extra feather is {feather}.", feather=shown)
        return _("Seat {seat}'s extra feather is {feather}.", seat=d["seat"], feather=shown)
    if kind == "guess":
        target = d["extra_feather_to"]
        value = tr.number(d["value"])
        if target is None:
            if you:
                return _("You guess {value}.", value=value)
            return _("Seat {seat} guesses {value}.", seat=d["seat"], value=value)
        if you:
            return _(
                "You guess {value}, throwing the tomahawk: seat {target} must take an extra"
                " feather.",
                value=value,
                target=target,
            )
        if target == seat:
            return _(
                "Seat {seat} guesses {value}, throwing the tomahawk: you must take an extra"
                " feather.",
                seat=d["seat"],
                value=value,
            )
        return _(
            "Seat {seat} guesses {value}, throwing the tomahawk: seat {target} must take an extra"
            " feather.",
            seat=d["seat"],
            value=value,
            target=target,
        )
    if kind == "extra_feather":
        return _("You take an extra feather without looking.") if you else ""
    if kind == "agree":
        guess = tr.number(d["guess"])
        if you:
            return _("You agree with {guess} (tomahawk) and now own it.", guess=guess)
        return _(
            "Seat {seat} agrees with {guess} (tomahawk) and now owns it.",
            seat=d["seat"],
            guess=guess,
        )
    if kind == "reverse":
        clockwise = d["direction"] == 1
        if you:
            if clockwise:
                return _("You reverse the direction (tomahawk): play goes clockwise.")
            return _("You reverse the direction (tomahawk): play goes counter-clockwise.")
        if clockwise:
            return _(
                "Seat {seat} reverses the direction (tomahawk): play goes clockwise.",
                seat=d["seat"],
            )
        return _(
            "Seat {seat} reverses the direction (tomahawk): play goes counter-clockwise.",
            seat=d["seat"],
        )
    if kind == "dispute":
        guess = tr.number(d["guess"])
        if you:
            return _("You dispute seat {owner}'s guess of {guess}!", owner=d["owner"], guess=guess)
        if d["owner"] == seat:
            return _("Seat {seat} disputes your guess of {guess}!", seat=d["seat"], guess=guess)
        return _(
            "Seat {seat} disputes seat {owner}'s guess of {guess}!",
            seat=d["seat"],
            owner=d["owner"],
            guess=guess,
        )
    if kind == "reveal":
        shown = "; ".join(
            _(
                "{name}: {feathers}",
                name=tr.seat(s, seat),
                feathers=" ".join(feather(f, tr) for f in worn),
            )
            for s, worn in enumerate(d["worn"])
            if worn
        )
        return _("The feathers are revealed: {shown}.", shown=shown)
    if kind == "turn_over":
        return _(
            "The ? feather turns over the top of the stack: {feather}.",
            feather=feather(d["feather"], tr),
        )
    if kind == "max0":
        if d["removed"] is None:
            return _("max=0 is in play, but there is no green feather to remove.")
        return _("max=0 removes the highest green feather, a {value}.", value=d["removed"])
    if kind == "x2":
        return _("x2 doubles the green feathers to {sum}.", sum=tr.number(d["green_sum"]))
    if kind == "total":
        total, guess = tr.number(d["total"]), tr.number(d["guess"])
        if d["total"] >= d["guess"]:
            return _(
                "The total is {total}, which reaches the guess {guess}.", total=total, guess=guess
            )
        return _(
            "The total is {total}, which falls short of the guess {guess}.",
            total=total,
            guess=guess,
        )
    if kind == "buzzard":
        n = d["buzzards"]
        if you:
            return tr.ngettext(
                "You take a buzzard ({n} in all).", "You take a buzzard ({n} in all).", n
            )
        return tr.ngettext(
            "Seat {seat} takes a buzzard ({n} in all).",
            "Seat {seat} takes a buzzard ({n} in all).",
            n,
            seat=d["seat"],
        )
    if kind == "out":
        if you:
            return _("You are out of the game.")
        return _("Seat {seat} is out of the game.", seat=d["seat"])
    if kind == "game_over":
        winners = d["winners"]
        names = tr.join(tr.seat(s, seat) for s in winners)
        return tr.ngettext(
            "Game over. Winner: {names}.", "Game over. Winners: {names}.", len(winners), names=names
        )
    return f"{kind}: {dict(d)}"
