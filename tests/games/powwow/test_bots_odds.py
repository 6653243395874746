"""Pow Wow's exact odds: the seat's distribution of the total, checked against the rules engine.

The reference is independent of `odds.py`: for every set of feathers the seat may wear, a state
is dealt with exactly those feathers, the standing guess is disputed, and every chance outcome
the engine then asks for (the `?` feather's turn-over, a shuffle of the used pile first when the
stack is empty) is enumerated through the kernel; the totals the engine counts are tallied.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest

from campfire.games.powwow import DISPUTE, GAME, Action, Guess, PowwowState, PowwowView
from campfire.games.powwow.odds import Odds, draws, report, seat_odds, unseen_by


def engine_totals(view: PowwowView) -> dict[int, Fraction]:
    """P(total = t) as exact fractions, by dealing and disputing through the engine."""
    _, hidden, unseen = unseen_by(view)
    left = sum(unseen.values())
    out: dict[int, Fraction] = {}
    for own, ways in draws(unseen, hidden):
        p_own = Fraction(ways)
        for i in range(hidden):
            p_own /= left - i
        state = GAME.sample_state(view, random.Random(0), chance="draw", own=list(own))
        if state.guess is None:
            state.apply(Guess(-20))
        rounds = len(state.rounds)
        state.apply(DISPUTE)
        branches = [(state, p_own)]
        while branches:
            branch, p = branches.pop()
            if len(branch.rounds) > rounds:
                total = branch.rounds[-1].total
                out[total] = out.get(total, Fraction(0)) + p
                continue
            spec = branch.chance_due()
            assert spec is not None, "the round stopped short of its count"
            counts = Counter(spec.items)
            for item, n in counts.items():
                nxt = branch.clone()
                nxt.apply(next(o for o, _ in spec.outcomes() if getattr(o, "item", None) == item))
                branches.append((nxt, p * Fraction(n, len(spec.items))))
    return out


def positions() -> Iterator[tuple[str, PowwowView]]:
    """Views of every kind the odds must handle, from seeded games that favour long rounds."""
    for seed in range(60):
        rng = random.Random(seed)
        players = (2, 4, 8)[seed % 3]
        state: PowwowState = GAME.new_state(players, {"tomahawks": True}, chance="draw")
        for _ in range(300):
            if state.is_terminal:
                break
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
                continue
            for seat in range(players):
                view = state.view(seat)
                if seat in view.out:
                    continue
                seen, hidden, unseen = unseen_by(view)
                tags = {"one" if hidden == 1 else "two"}
                if "?" in seen:
                    tags.add("? seen")
                if unseen["?"]:
                    tags.add("? maybe own")
                if view.stack_size == 0 and ("?" in seen or unseen["?"]):
                    tags.add("empty stack")  # `?` turns over the used pile, shuffled
                for tag in tags:
                    yield tag, view
            legal = state.legal_actions()
            action: Action
            extras = [a for a in legal if isinstance(a, Guess) and a.extra_feather_to is not None]
            if extras and rng.random() < 0.5:
                action = min(extras, key=lambda a: a.value)
            elif state.guess is not None and rng.random() < 0.2:
                action = DISPUTE
            else:
                action = legal[0] if rng.random() < 0.7 else rng.choice(legal)
            state.apply(action)


def sample_positions(per_tag: int) -> dict[str, list[PowwowView]]:
    chosen: dict[str, list[PowwowView]] = {}
    for tag, view in positions():
        bucket = chosen.setdefault(tag, [])
        if len(bucket) < per_tag:
            bucket.append(view)
        if len(chosen) == 5 and all(len(b) >= per_tag for b in chosen.values()):
            break
    return chosen


POSITIONS = sample_positions(4)


def test_every_kind_of_position_is_covered() -> None:
    assert set(POSITIONS) == {"one", "two", "? seen", "? maybe own", "empty stack"}
    assert all(len(views) == 4 for views in POSITIONS.values())


@pytest.mark.parametrize("tag", sorted(POSITIONS))
def test_odds_equal_the_engines_count(tag: str) -> None:
    for view in POSITIONS[tag]:
        odds = seat_odds(view)
        expected = engine_totals(view)
        assert sum(expected.values()) == 1
        assert {t: odds.exact(t) for t in odds.weights} == dict(expected)
        assert sum(odds.exact(t) for t in odds.weights) == 1


def test_at_least_matches_the_distribution() -> None:
    view = POSITIONS["two"][0]
    odds = seat_odds(view)
    for guess in range(odds.lo - 2, odds.hi + 3):
        exact = sum((odds.exact(t) for t in odds.weights if t >= guess), Fraction(0))
        assert odds.exact_at_least(guess) == exact
        assert odds.at_least(guess) == pytest.approx(float(exact))
    best = odds.highest_holding(0.9)
    assert odds.at_least(best) >= 0.9 > odds.at_least(best + 1)


def test_a_belief_about_own_feathers_reweights_the_odds() -> None:
    view = POSITIONS["one"][0]
    seen, _, unseen = unseen_by(view)
    certain = next(f for f in sorted(unseen) if unseen[f] > 0 and f not in ("?", "x2", "max0"))
    believed = seat_odds(view, own_weights={(certain,): 1.0})
    assert believed.items() != seat_odds(view).items()
    if "?" not in seen:  # with the own feather known and no `?` about, the total is one number
        assert len(believed.weights) == 1


def test_the_report_names_the_standing_guess() -> None:
    view = next(v for v in POSITIONS["one"] if v.guess is not None)
    data = report(view, around=2)
    assert [row["guess"] for row in data["at_least"]] == list(
        range(view.guess - 2, view.guess + 3)  # type: ignore[operator]
    )
    assert sum(Fraction(row["exact"]) for row in data["distribution"]) == 1
    standing = next(row for row in data["at_least"] if row["guess"] == view.guess)
    assert Fraction(standing["exact"]) == seat_odds(view).exact_at_least(view.guess)  # type: ignore[arg-type]


def test_spectators_and_empty_tables_have_no_odds() -> None:
    state = GAME.new_state(3, chance="draw")
    while state.to_move is None:
        state.apply(state.sample_chance(random.Random(1)))
    with pytest.raises(ValueError, match="spectator"):
        report(state.view(None))
    view = state.view(0)
    bare = view.__class__(
        **{**{f: getattr(view, f) for f in view.__slots__}, "feathers": ((), (), ())}
    )
    with pytest.raises(ValueError, match="no round"):
        report(bare)


def test_odds_type_is_plain_data() -> None:
    odds = Odds({3: 1, 5: 3}, 4)
    assert odds.items() == [(3, 0.25), (5, 0.75)]
    assert odds.at_least(4) == 0.75 and odds.at_least(-100) == 1.0 and odds.at_least(6) == 0.0
    assert odds.mean() == 4.5
