"""Chance: outcomes stated explicitly, so a game never depends on a random generator.

A shuffled face-down stack can be resolved in two equivalent ways, and a state picks one when it
is created (its chance mode):

- ``"shuffle"``: the shuffle is one chance outcome, the whole new order (`Shuffle`). This is how
  a game record states it, and what replay, simulation and the server use.
- ``"draw"``: the shuffle itself is certain (the items become an unordered stack) and every draw
  from it is a chance outcome of its own (`Draw`), with one outcome per distinct item left and
  its probability. This is what search bots and OpenSpiel want.

Drawing uniformly one item at a time from an unordered stack gives exactly the distribution of a
uniform shuffle, so both modes play the same game; `records.record_of` turns a draw-mode history
into a record with whole shuffles.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import getitem
from typing import Literal

from campfire.i18n import N_
from campfire.kernel.errors import Refusal

ChanceMode = Literal["shuffle", "draw"]


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A whole new order of a stack, top first."""

    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """The item a draw from an unordered stack turned up."""

    item: str


@dataclass(frozen=True, slots=True)
class Pick:
    """One choice among a few equally likely values (for example a starting tile)."""

    kind: str
    value: str


ChanceOutcome = Shuffle | Draw | Pick

_DRAWS: dict[str, Draw] = {}


def drawn(item: str) -> Draw:
    """The `Draw` of `item`: outcomes are immutable, so one object per item spares building
    them anew at every chance node (search and OpenSpiel enumerate them all the time)."""
    outcome = _DRAWS.get(item)
    if outcome is None:
        outcome = _DRAWS[item] = Draw(item)
    return outcome


@dataclass(frozen=True, slots=True)
class Shuffled:
    """History note of a draw-mode state: these items became an unordered stack.

    It is not a chance outcome (nothing random happened yet); `records.record_of` folds it and
    the draws that follow into one `Shuffle`.
    """

    items: tuple[str, ...]


class ChanceSpec:
    """The chance outcome a state is waiting for (immutable).

    kind ``"shuffle"``: `items` is the multiset being shuffled (sorted).
    kind ``"draw"``: `items` is the multiset drawn from (sorted).
    kind ``"pick"``: `items` are the equally likely values; `label` names what is picked.

    A draw spec is made at every draw of a search or an OpenSpiel game, so it can be made from
    the stack's counts directly, and `items` is only spelled out when somebody asks.
    """

    __slots__ = ("_counts", "_items", "kind", "label")

    def __init__(
        self,
        kind: Literal["shuffle", "draw", "pick"],
        items: Iterable[str] = (),
        label: str = "",
        *,
        counts: Mapping[str, int] | None = None,
    ) -> None:
        self.kind = kind
        self.label = label
        self._items: tuple[str, ...] | None = None if counts is not None else tuple(items)
        self._counts = counts

    @property
    def items(self) -> tuple[str, ...]:
        if self._items is None:
            self._items = tuple(item for item, n in self.counts.items() for _ in range(n))
        return self._items

    @property
    def counts(self) -> Mapping[str, int]:
        """The distinct items, sorted, with how many of each."""
        if self._counts is None:
            self._counts = dict(sorted(Counter(self.items).items()))
        return self._counts

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ChanceSpec):
            return NotImplemented
        return (self.kind, self.label, self.items) == (other.kind, other.label, other.items)

    def __hash__(self) -> int:
        return hash((self.kind, self.label, self.items))

    def __repr__(self) -> str:
        return f"ChanceSpec({self.kind!r}, {self.items!r}, {self.label!r})"

    def __str__(self) -> str:
        return str(self.said())

    def said(self) -> Refusal:
        """What this chance is, as a message (told in the reader's language at the edge)."""
        if self.kind == "shuffle":
            return Refusal(N_("a shuffle of {n} items"), n=len(self.items))
        if self.kind == "draw":
            return Refusal(N_("a draw from the stack"))
        return Refusal(N_("a {label}"), label=self.label)

    def outcomes(self) -> list[tuple[ChanceOutcome, float]]:
        """Every outcome with its probability; a whole shuffle is not enumerable."""
        if self.kind == "shuffle":
            raise ValueError(
                Refusal(N_("a whole shuffle has too many outcomes to list; use draw mode"))
            )
        counts = self.counts
        share = 1 / sum(counts.values())
        if self.kind == "draw":
            draws = _DRAWS
            return [(draws.get(item) or drawn(item), n * share) for item, n in counts.items()]
        return [(Pick(self.label, value), n * share) for value, n in counts.items()]

    def sample(self, rng: random.Random) -> ChanceOutcome:
        if self.kind == "shuffle":
            order = list(self.items)
            rng.shuffle(order)
            return Shuffle(tuple(order))
        if self.kind == "draw":
            return drawn(rng.choice(self.items))
        return Pick(self.label, rng.choice(self.items))

    def _due(self) -> Refusal:
        return Refusal(N_("{what} is due"), what=self.said())

    def check(self, outcome: ChanceOutcome) -> str | None:
        """Why `outcome` cannot resolve this chance (a `Refusal`), or None when it can."""
        if self.kind == "shuffle":
            if not isinstance(outcome, Shuffle):
                return self._due()
            return permutation_problem(outcome.order, self.items)
        if self.kind == "draw":
            if not isinstance(outcome, Draw):
                return self._due()
            if outcome.item not in self.counts:
                return Refusal(N_("{item} is not in the stack"), item=repr(outcome.item))
            return None
        if not isinstance(outcome, Pick) or outcome.kind != self.label:
            return self._due()
        if outcome.value not in self.counts:
            return Refusal(
                N_("{value} is not a possible {label}"),
                value=repr(outcome.value),
                label=self.label,
            )
        return None


def permutation_problem(order: Sequence[str], items: Iterable[str]) -> str | None:
    """Why `order` is not a permutation of `items`, or None when it is."""
    want = Counter(items)
    got = Counter(order)
    if got == want:
        return None
    missing = sorted((want - got).elements())
    extra = sorted((got - want).elements())
    said = Refusal(
        N_("the shuffle must order exactly the {n} items being shuffled"), n=sum(want.values())
    )
    if missing:
        said = Refusal(
            N_("{first}; {rest}"),
            first=said,
            rest=Refusal(N_("missing {items}"), items=" ".join(missing)),
        )
    if extra:
        said = Refusal(
            N_("{first}; {rest}"),
            first=said,
            rest=Refusal(N_("not being shuffled {items}"), items=" ".join(extra)),
        )
    return said


Outcomes = list[tuple[ChanceOutcome, float]]


class _Layout:
    """The distinct items of an unordered stack, sorted, as shared `Draw` outcomes and with their
    positions; made once per set of items, since a game reshuffles the same ones again and again.

    It also keeps every ``(draw, probability)`` pair a draw from such a stack can have, by stack
    size: listing a draw's outcomes is then picking pairs, with nothing to build.
    """

    __slots__ = ("_pairs", "draws", "most", "position")

    def __init__(self, kinds: tuple[str, ...]) -> None:
        self.draws = tuple(drawn(item) for item in kinds)
        self.position = {item: i for i, item in enumerate(kinds)}
        self.most = 0  # the most of one item any stack of this layout held
        self._pairs: dict[int, list[tuple[tuple[ChanceOutcome, float], ...]]] = {}

    def hold(self, most: int) -> None:
        if most > self.most:
            self.most = most
            self._pairs.clear()

    def pairs(self, size: int) -> list[tuple[tuple[ChanceOutcome, float], ...]]:
        """For each item, its outcome with the probability of drawing it when n of the `size`
        items left are that item, at index n."""
        pairs = self._pairs.get(size)
        if pairs is None:
            share = 1 / size
            numbers = range(self.most + 1)
            pairs = self._pairs[size] = [tuple((d, n * share) for n in numbers) for d in self.draws]
        return pairs


_LAYOUTS: dict[tuple[str, ...], _Layout] = {}


def _layout(counts: Mapping[str, int]) -> _Layout:
    kinds = tuple(sorted(counts))
    layout = _LAYOUTS.get(kinds)
    if layout is None:
        layout = _LAYOUTS[kinds] = _Layout(kinds)
    layout.hold(max(counts.values(), default=0))
    return layout


_NOTHING = _layout({})


class DrawSpec(ChanceSpec):
    """A draw from an unordered stack, as it stood when the spec was made.

    Search and OpenSpiel make one at every draw and list its outcomes, so it keeps the stack's
    counts as they are (a number per distinct item, zero for one drawn out) and lists the
    outcomes with no dictionary in between.
    """

    __slots__ = ("_layout", "_numbers", "_size", "tally")

    def __init__(self, layout: _Layout, numbers: tuple[int, ...], size: int) -> None:
        self.kind = "draw"
        self.label = ""
        self._items = None
        self._counts = None
        self._layout = layout
        self._numbers = numbers
        self._size = size
        #: The stack in numbers: its distinct items as shared `Draw`s, sorted (the same tuple
        #: for every stack of the same items), how many of each are left (zero for one drawn
        #: out) and how many in all. An adapter that numbers outcomes its own way (OpenSpiel's)
        #: lists them from this without building and sorting pairs at every draw (a plain
        #: attribute: it reads it at every draw).
        self.tally: tuple[tuple[Draw, ...], tuple[int, ...], int] = (layout.draws, numbers, size)

    @property
    def counts(self) -> Mapping[str, int]:
        if self._counts is None:
            self._counts = {
                draw.item: n for draw, n in zip(self._layout.draws, self._numbers, strict=True) if n
            }
        return self._counts

    def outcomes(self) -> Outcomes:
        numbers = self._numbers
        return list(compress(map(getitem, self._layout.pairs(self._size), numbers), numbers))

    def check(self, outcome: ChanceOutcome) -> str | None:
        if type(outcome) is Draw:
            i = self._layout.position.get(outcome.item)
            if i is not None and self._numbers[i]:
                return None
        return super().check(outcome)


class Stack:
    """A face-down stack in either chance mode.

    Shuffle mode keeps a known order (`order`, top last, so a draw is a pop); draw mode keeps an
    unordered multiset (how many of each distinct item, in sorted order) and each draw is a
    chance outcome. A stack is never both.
    """

    __slots__ = ("_layout", "_numbers", "_spec", "order", "size")

    def __init__(self) -> None:
        self.order: list[str] = []
        self.size = 0
        self._layout = _NOTHING
        self._numbers: list[int] = []  # draw mode: how many of each of `_layout`'s items
        self._spec: DrawSpec | None = None  # the draw spec, kept until the stack changes

    def __len__(self) -> int:
        return self.size

    def copy(self) -> Stack:
        other = Stack.__new__(Stack)
        other.order = self.order.copy()
        other.size = self.size
        other._layout = self._layout
        other._numbers = self._numbers.copy()
        other._spec = self._spec
        return other

    def set_order(self, top_first: Sequence[str]) -> None:
        self.order = list(reversed(top_first))
        self._layout = _NOTHING
        self._numbers = []
        self.size = len(self.order)
        self._spec = None

    def set_unordered(self, items: Iterable[str]) -> None:
        counts = Counter(items)
        self.order = []
        self._layout = _layout(counts)
        self._numbers = [counts[draw.item] for draw in self._layout.draws]
        self.size = sum(self._numbers)
        self._spec = None

    @property
    def needs_draw(self) -> bool:
        """True when the next draw is a chance outcome (draw mode, stack not empty)."""
        return not self.order and self.size > 0

    def pop(self) -> str:
        """The top item of an ordered stack."""
        self.size -= 1
        self._spec = None
        return self.order.pop()

    def take(self, item: str) -> None:
        """Remove the drawn `item` from an unordered stack."""
        self._numbers[self._layout.position[item]] -= 1
        self.size -= 1
        self._spec = None

    def items(self) -> list[str]:
        """Everything in the stack, sorted (its order is never part of the answer)."""
        if self.order:
            return sorted(self.order)
        pairs = zip(self._layout.draws, self._numbers, strict=True)
        return [draw.item for draw, n in pairs for _ in range(n)]

    def tally(self) -> tuple[tuple[Draw, ...], Sequence[int], int]:
        """An unordered stack as `DrawSpec.tally` holds it (its distinct items as shared `Draw`s,
        how many of each are left, how many in all), read now: the counts are the stack's own,
        good until it changes."""
        return self._layout.draws, self._numbers, self.size

    def draw_spec(self) -> ChanceSpec:
        spec = self._spec
        if spec is None:
            if self.order:
                counts = Counter(self.order)
                layout = _layout(counts)
                numbers = tuple(counts[draw.item] for draw in layout.draws)
            else:
                layout, numbers = self._layout, tuple(self._numbers)
            spec = self._spec = DrawSpec(layout, numbers, self.size)
        return spec
