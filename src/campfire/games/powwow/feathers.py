"""The 36 feathers and how a round's total is counted (RULINGS P2, P7)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

GREEN: dict[str, int] = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "10": 10, "15": 15, "20": 20}
BLUE_RED: dict[str, int] = {"0": 0, "-5": -5, "-10": -10}
BLACK = ("x2", "max0", "zero", "?")

FEATHERS: tuple[str, ...] = (
    *("1", "2", "3", "4", "5") * 4,
    *("10",) * 3,
    *("15",) * 2,
    "20",
    *("0",) * 3,
    "-5",
    "-5",
    "-10",
    *BLACK,
)
assert len(FEATHERS) == 36

#: every feather code, in the order the rulings list them
CODES: tuple[str, ...] = ("1", "2", "3", "4", "5", "10", "15", "20", "0", "-5", "-10", *BLACK)

GUESS_MIN = -20
GUESS_MAX = 238


def color(feather: str) -> str:
    if feather in GREEN:
        return "green"
    if feather == "0":
        return "blue"
    if feather in BLUE_RED:
        return "red"
    return "black"


class Count(NamedTuple):
    """A round's total with the steps that made it (a named tuple: one is made every round)."""

    total: int
    green_sum: int
    removed: str | None  # the green feather `max0` took away
    doubled: bool  # `x2` was in play


def count(feathers: Iterable[str]) -> Count:
    """Total of the feathers in play, the `?` feather's turned-over feather included."""
    greens: list[int] = []
    others = 0
    has_max0 = has_x2 = False
    for feather in feathers:
        value = GREEN.get(feather)
        if value is not None:
            greens.append(value)
        elif feather in BLUE_RED:
            others += BLUE_RED[feather]
        elif feather == "max0":
            has_max0 = True
        elif feather == "x2":
            has_x2 = True
    removed = None
    if has_max0 and greens:
        top = max(greens)
        greens.remove(top)
        removed = str(top)
    green_sum = sum(greens)
    if has_x2:
        green_sum *= 2
    # Count(...) without the named tuple's Python constructor (a round's every count)
    return _new_tuple(Count, (green_sum + others, green_sum, removed, has_x2))


def total(feathers: Sequence[str]) -> int:
    """`count(feathers).total` without the `Count` (making a named tuple costs more than the
    sum): a round is settled at this when nothing is narrated. Without `max0` and `x2` the
    total is the sum of the feathers' values."""
    if "max0" in feathers or "x2" in feathers:
        return count(feathers).total
    result = 0
    for feather in feathers:
        result += _VALUE[feather]
    return result


_new_tuple = tuple.__new__
#: each feather's value in a total without `max0` and `x2` (the black ones count zero)
_VALUE: dict[str, int] = {**GREEN, **BLUE_RED, **dict.fromkeys(BLACK, 0)}
