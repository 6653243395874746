"""The determinized search driver, on Pow Wow positions whose values are known exactly."""

from __future__ import annotations

import random

import pytest

from campfire.bots.search import Playout, best, evaluate, hypotheses, least_regret
from campfire.games.powwow import DISPUTE, GAME, Dispute, Guess, PowwowState
from campfire.games.powwow.state import PLAY


def position() -> PowwowState:
    state = GAME.new_state(3, {"tomahawks": True}, chance="draw")
    rng = random.Random(4)
    while state.to_move is None:
        state.apply(state.sample_chance(rng))
    state.apply(Guess(5))
    return state


def test_best_prefers_the_first_of_equal_options() -> None:
    assert best(["a", "b", "c"], [0.2, 0.5, 0.5]) == "b"
    assert best(["a", "b"], [0.3, 0.3 + 1e-12]) == "a"


def test_chance_is_enumerated_at_the_first_draw() -> None:
    """An extra feather's value is the exact mean over the feathers the stack may give."""
    state = position()
    seat = state.to_move
    assert seat is not None
    target = next(s for s in range(3) if s != seat)
    option = Guess(9, target)

    def value(s: PowwowState) -> float | None:
        if s.to_move != seat and s.phase == PLAY and len(s.worn[target]) == 2:
            return float(s.worn[target][1] == "20")  # 1 when the extra feather was the 20
        return None

    playout = Playout(lambda s, seat: DISPUTE, value)
    got = playout.after(state, option, random.Random(0))
    stack = state.stack.items()
    assert got == pytest.approx(stack.count("20") / len(stack))


def test_settle_ends_a_playout_without_applying_the_action() -> None:
    state = position()
    calls: list[object] = []

    def settle(s: object, action: object) -> float | None:
        calls.append(action)
        return 0.25 if isinstance(action, Dispute) else None

    playout = Playout(lambda s, seat: DISPUTE, lambda s: None, settle)
    assert playout.after(state, Guess(7), random.Random(0)) == 0.25
    assert calls == [Guess(7), DISPUTE]
    assert state.guess == 5  # the position searched from is untouched


def test_a_horizon_needs_a_fallback() -> None:
    state = position()
    endless = Playout(lambda s, seat: Guess((s.guess or 0) + 1), lambda s: None, horizon=3)
    with pytest.raises(RuntimeError, match="horizon"):
        endless.after(state, Guess(6), random.Random(0))
    valued = Playout(
        lambda s, seat: Guess((s.guess or 0) + 1),
        lambda s: None,
        horizon=3,
        fallback=lambda s: float(s.guess),
    )
    assert valued.after(state, Guess(6), random.Random(0)) == 9.0


def test_evaluate_weighs_worlds() -> None:
    state = position()
    other = state.clone()
    other.guess = 20
    playout = Playout(lambda s, seat: DISPUTE, lambda s: None, lambda s, a: float(s.guess))
    values = evaluate([DISPUTE], [(state, 3.0), (other, 1.0)], playout, random.Random(0))
    assert values == [pytest.approx((3 * 5 + 20) / 4)]
    with pytest.raises(ValueError, match="weight"):
        evaluate([DISPUTE], [(state, 0.0)], playout, random.Random(0))


def test_the_least_regret_option_hedges_between_readings() -> None:
    # "raise" is best if the seat is medium and worst if it is random; "hold" is never far off
    rows = [[0.9, 0.7, 0.2], [0.1, 0.6, 0.5]]  # options: raise, hold, dispute
    options = ["raise", "hold", "dispute"]
    assert least_regret(options, rows, "dispute", margin=0.0) == "hold"
    # the baseline stands unless the choice lowers the worst regret by more than the margin
    assert least_regret(options, rows, "dispute", margin=0.5) == "dispute"
    # one reading: the best option, if it beats the baseline by more than the margin
    assert least_regret(options, rows[:1], "hold", margin=0.1) == "raise"
    assert least_regret(options, rows[:1], "hold", margin=0.25) == "hold"


def test_hypotheses_play_each_plausible_kind_of_a_doubted_seat_for_sure() -> None:
    mixes = {
        1: {"medium": 0.5, "easy": 0.45, "random": 0.05},
        2: {"medium": 0.95, "easy": 0.05, "random": 0.0},
    }
    tables = hypotheses(mixes, doubted=[1])
    assert [t[1] for t in tables] == [
        {"medium": 1.0, "easy": 0.0, "random": 0.0},
        {"medium": 0.0, "easy": 1.0, "random": 0.0},
    ]  # random is below the floor: not a kind seat 1 plausibly is
    assert all(t[2] == mixes[2] for t in tables)  # the seat not in doubt stays as read
    assert hypotheses(mixes, doubted=[]) == [mixes]
