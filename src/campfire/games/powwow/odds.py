"""Exact odds of a round's total as one seat sees it (RULINGS P7, P12).

A seat sees every worn feather but its own, and the used pile. Its own feathers are drawn from
the feathers it cannot see, and when `?` is in play the feather it turns over is the top of what
is left of the stack (the used pile, shuffled, if the stack is empty). Enumerating these few
draws gives the distribution of the total exactly: integer weights over a common denominator,
so `Fraction`s come out exact and floats come out fast.

Bots use the same enumeration with a belief over the seat's own feathers (`own_weights`), and
with other seats' points of view (`odds_for`), which is what inference about the others needs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from campfire.games.powwow.feathers import BLUE_RED, FEATHERS, GREEN
from campfire.games.powwow.view import PowwowView
from campfire.i18n import Translator

# A partial count of the feathers in play: (green sum, highest green, blue+red sum, flags).
Partial = tuple[int, int, int, int]
X2, MAX0, QUESTION = 1, 2, 4
EMPTY: Partial = (0, 0, 0, 0)
_FLAG = {"x2": X2, "max0": MAX0, "?": QUESTION, "zero": 0}
ALL = Counter(FEATHERS)


def pool(options: Any) -> Counter[str]:
    """A fresh count of every feather in play: the 36, or a research variant's set."""
    if getattr(options, "feathers", None) is None:
        return ALL.copy()
    return Counter(options.feather_set())


def add(partial: Partial, feather: str) -> Partial:
    gsum, gmax, other, flags = partial
    value = GREEN.get(feather)
    if value is not None:
        return (gsum + value, value if value > gmax else gmax, other, flags)
    value = BLUE_RED.get(feather)
    if value is not None:
        return (gsum, gmax, other + value, flags)
    return (gsum, gmax, other, flags | _FLAG[feather])


def add_all(partial: Partial, feathers: Iterable[str]) -> Partial:
    for feather in feathers:
        partial = add(partial, feather)
    return partial


def total(partial: Partial) -> int:
    """The round's total once every feather of `partial` is in play (`?` already turned)."""
    gsum, gmax, other, flags = partial
    if flags & MAX0:
        gsum -= gmax  # zero when there is no green feather
    if flags & X2:
        gsum *= 2
    return gsum + other


@dataclass(frozen=True, slots=True)
class Odds:
    """The distribution of the total: `weights[t] / denominator` is P(total = t)."""

    weights: Mapping[int, float]
    denominator: float
    lo: int = field(init=False)
    _tail: tuple[float, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        lo = min(self.weights)
        hi = max(self.weights)
        dense = [0.0] * (hi - lo + 1)
        for t, w in self.weights.items():
            dense[t - lo] += w
        tail = [0.0] * len(dense)
        acc = 0.0
        for i in range(len(dense) - 1, -1, -1):
            acc += dense[i]
            tail[i] = acc / self.denominator
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "_tail", tuple(tail))

    @property
    def hi(self) -> int:
        return self.lo + len(self._tail) - 1

    def at_least(self, guess: int) -> float:
        """P(total ≥ guess): the chance that the guess holds."""
        i = guess - self.lo
        if i <= 0:
            return 1.0
        if i >= len(self._tail):
            return 0.0
        return self._tail[i]

    def probability(self, value: int) -> float:
        return self.weights.get(value, 0) / self.denominator

    def exact(self, value: int) -> Fraction:
        """P(total = value) as an exact fraction (integer weights only)."""
        return Fraction(int(self.weights.get(value, 0)), int(self.denominator))

    def exact_at_least(self, guess: int) -> Fraction:
        hits = sum(int(w) for t, w in self.weights.items() if t >= guess)
        return Fraction(hits, int(self.denominator))

    def highest_holding(self, confidence: float) -> int:
        """The highest guess that holds with at least `confidence` (lo when none does)."""
        tail = self._tail
        i = len(tail) - 1
        while i > 0 and tail[i] < confidence - 1e-12:
            i -= 1
        return self.lo + i

    def mean(self) -> float:
        return sum(t * w for t, w in self.weights.items()) / self.denominator

    def items(self) -> list[tuple[int, float]]:
        """(total, probability), lowest total first."""
        return [(t, self.weights[t] / self.denominator) for t in sorted(self.weights)]


def draws(unseen: Counter[str], hidden: int) -> list[tuple[tuple[str, ...], int]]:
    """Every multiset of `hidden` feathers drawn from `unseen`, with its count of ordered draws."""
    if hidden == 0:
        return [((), 1)]
    items = [(f, n) for f, n in unseen.items() if n > 0]
    if hidden == 1:
        return [((f,), n) for f, n in items]
    out: list[tuple[tuple[str, ...], int]] = []
    if hidden == 2:
        for i, (f, n) in enumerate(items):
            if n > 1:
                out.append(((f, f), n * (n - 1)))
            for g, m in items[i + 1 :]:
                out.append(((f, g), 2 * n * m))
        return out

    def pick(start: int, left: int, chosen: tuple[str, ...], ways: int, orders: int) -> None:
        # `orders` counts the distinct orders of `chosen` so far (multinomial, built up)
        if left == 0:
            out.append((chosen, ways * orders))
            return
        for i in range(start, len(items)):
            feather, n = items[i]
            for m in range(1, min(n, left) + 1):
                taken = len(chosen) + m
                orders_m = orders * math.comb(taken, m)
                pick(i + 1, left - m, chosen + (feather,) * m, ways * _falling(n, m), orders_m)

    pick(0, hidden, (), 1, 1)
    return out


#: each feather's effect on a partial count: (green value, blue/red value, flag)
EFFECT: dict[str, tuple[int, int, int]] = {
    **{f: (v, 0, 0) for f, v in GREEN.items()},
    **{f: (0, v, 0) for f, v in BLUE_RED.items()},
    **{f: (0, 0, flag) for f, flag in _FLAG.items()},
}


def distribution(
    seen: Iterable[str],
    hidden: int,
    unseen: Counter[str],
    used: Sequence[str],
    own_weights: Mapping[tuple[str, ...], float] | None = None,
) -> Odds:
    """The total when `hidden` more feathers come from `unseen` (the rest is the stack).

    `own_weights` maps a sorted tuple of the hidden feathers to its probability; without it
    every draw is as likely as the feathers' numbers make it, and the weights stay integers.
    (The loops are written out: bots call this thousands of times per decision.)
    """
    base = add_all(EMPTY, seen)
    left = sum(unseen.values())
    if left < hidden:
        raise ValueError("fewer unseen feathers than hidden ones")
    stack_left = left - hidden
    spare = stack_left if stack_left > 0 else len(used)  # what `?` may turn over
    if stack_left > 0:
        pile = [(f, n, *EFFECT[f]) for f, n in unseen.items() if n > 0]
    else:
        pile = [(f, n, *EFFECT[f]) for f, n in Counter(used).items()]
    weights: dict[int, float] = {}
    get = weights.get
    for own, ways in draws(unseen, hidden):
        if own_weights is not None:
            w: float = own_weights.get(tuple(sorted(own)), 0.0)
            if not w:
                continue
        else:
            w = ways
        gsum, gmax, other, flags = base
        for feather in own:
            fg, fo, ff = EFFECT[feather]
            gsum += fg
            if fg > gmax:
                gmax = fg
            other += fo
            flags |= ff
        if flags & QUESTION and spare:
            for feather, n, fg, fo, ff in pile:
                if stack_left > 0:
                    n -= own.count(feather)
                    if n <= 0:
                        continue
                g = gsum + fg
                f = flags | ff
                if f & MAX0:
                    g -= fg if fg > gmax else gmax
                if f & X2:
                    g *= 2
                t = g + other + fo
                weights[t] = get(t, 0) + w * n
        else:
            g = gsum
            if flags & MAX0:
                g -= gmax
            if flags & X2:
                g *= 2
            t = g + other
            weights[t] = get(t, 0) + w * (spare or 1)
    if not weights:
        raise ValueError("no way to deal the hidden feathers")
    if own_weights is None:
        denominator: float = (spare or 1) * _falling(left, hidden)
    else:
        denominator = sum(weights.values())
    return Odds(weights, denominator)


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def unseen_by(view: PowwowView, seat: int | None = None) -> tuple[list[str], int, Counter[str]]:
    """What `seat` sees worn, how many feathers it wears, and every feather it cannot see.

    `view` must show everything `seat` sees: its own view, or the view of a seat that sees all
    of `seat`'s neighbours (the other seats' feathers must be visible).
    """
    seat = view.seat if seat is None else seat
    if seat is None:
        raise ValueError("odds are for a seat, not for a spectator")
    seen: list[str] = []
    for s, worn in enumerate(view.feathers):
        if s == seat:
            continue
        for feather in worn:
            if feather is None:
                raise ValueError(f"seat {view.seat} cannot see what seat {seat} sees")
            seen.append(feather)
    unseen = pool(view.options)
    unseen.subtract(view.used)
    unseen.subtract(seen)
    if any(n < 0 for n in unseen.values()):
        raise ValueError("the feathers in view are not a part of the feathers in play")
    return seen, len(view.feathers[seat]), unseen


def seat_odds(view: PowwowView, own_weights: Mapping[tuple[str, ...], float] | None = None) -> Odds:
    """The distribution of this round's total as `view.seat` sees it."""
    if not any(view.feathers):
        raise ValueError("no round is in progress: nobody wears a feather")
    seen, hidden, unseen = unseen_by(view)
    return distribution(seen, hidden, unseen, view.used, own_weights)


def odds_for(
    worn: Sequence[Sequence[str]], seat: int, used: Sequence[str], extra_hidden: int = 0
) -> Odds:
    """The odds as `seat` sees them when every worn feather is known (a determinized round).

    `extra_hidden` adds feathers still to be drawn (an extra feather nobody has seen yet).
    """
    seen = [f for s, w in enumerate(worn) if s != seat for f in w]
    unseen = ALL.copy()
    unseen.subtract(used)
    unseen.subtract(seen)
    return distribution(seen, len(worn[seat]) + extra_hidden, unseen, used)


# --- the coach: what `campfire odds` and the terminal's `odds` command show -------------------
def report(view: PowwowView, around: int = 3) -> dict[str, Any]:
    """The odds of `view.seat` as plain data: every total, and P(total ≥ g) near the guess."""
    if view.seat is None:
        raise ValueError("odds are for a seat, not for a spectator")
    if not any(view.feathers):
        raise ValueError("no round is in progress: nobody wears a feather")
    odds = seat_odds(view)
    centre = view.guess
    if centre is None:
        centre = odds.highest_holding(0.5)
    return {
        "seat": view.seat,
        "round": view.round,
        "own_feathers": len(view.feathers[view.seat]),
        "guess": view.guess,
        "owner": view.owner,
        "mean": round(odds.mean(), 3),
        "distribution": [
            {"total": t, "p": round(p, 6), "exact": str(odds.exact(t))} for t, p in odds.items()
        ],
        "at_least": [
            {"guess": g, "p": round(odds.at_least(g), 6), "exact": str(odds.exact_at_least(g))}
            for g in range(centre - around, centre + around + 1)
        ],
    }


def render(data: Mapping[str, Any], tr: Translator | None = None) -> list[Any]:
    """The report as lines for a Rich console, in `tr`'s language (English by default)."""
    from rich.table import Table
    from rich.text import Text

    from campfire.i18n import translator

    tr = translator("en") if tr is None else tr
    _ = tr.gettext
    seat = data["seat"]
    own = data["own_feathers"]
    if own:
        unseen = tr.ngettext("your feather is unseen", "your {n} feathers are unseen", own)
    else:
        unseen = _("you wear no feather")
    head = _(
        "Seat {seat}, round {round}: {unseen}; the expected total is {mean}.",
        seat=seat,
        round=data["round"],
        unseen=unseen,
        mean=tr.decimal(data["mean"], 2),
    )
    lines: list[Any] = [Text(head, style="bold")]
    widest = max(row["p"] for row in data["distribution"])
    totals = Table(box=None, pad_edge=False, header_style="bold")
    totals.add_column(_("total"), justify="right")
    totals.add_column(_("chance"), justify="right")
    totals.add_column("")
    for row in data["distribution"]:
        bar = "█" * max(1, round(24 * row["p"] / widest))
        totals.add_row(str(row["total"]), tr.percent(row["p"], 1), Text(bar, style="green"))
    lines.append(totals)
    guesses = Table(box=None, pad_edge=False, header_style="bold")
    guesses.add_column(_("guess"), justify="right")
    guesses.add_column(_("P(total ≥ guess)"), justify="right")
    guesses.add_column(_("exactly"), justify="right")
    for row in data["at_least"]:
        mark = _(" ← standing") if row["guess"] == data["guess"] else ""
        guesses.add_row(f"{row['guess']}{mark}", tr.percent(row["p"], 1), row["exact"])
    lines.append(guesses)
    if data["guess"] is None:
        lines.append(Text(_("No guess stands yet: the values shown are around the median total.")))
    return lines
