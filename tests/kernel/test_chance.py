"""Chance outcomes, the two chance modes, and stacks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campfire.games.powwow import FEATHERS
from campfire.kernel import (
    ChanceSpec,
    Draw,
    IllegalAction,
    Pick,
    Record,
    Shuffle,
    Shuffled,
    Stack,
    get_game,
)
from campfire.kernel.chance import permutation_problem


def test_permutation_problem_names_what_is_missing_and_extra() -> None:
    assert permutation_problem(["a", "b"], ["b", "a"]) is None
    problem = permutation_problem(["a", "a", "c"], ["a", "b", "c"])
    assert problem is not None
    assert "missing b" in problem and "not being shuffled a" in problem


def test_draw_outcomes_are_the_distinct_items_with_their_probabilities() -> None:
    spec = ChanceSpec("draw", ("1", "1", "5", "x2"))
    outcomes = dict(spec.outcomes())
    assert outcomes == {Draw("1"): 0.5, Draw("5"): 0.25, Draw("x2"): 0.25}


def test_a_whole_shuffle_is_not_enumerable() -> None:
    with pytest.raises(ValueError, match="draw mode"):
        ChanceSpec("shuffle", ("a", "b")).outcomes()


def test_pick_outcomes_are_equally_likely() -> None:
    spec = ChanceSpec("pick", ("owl", "bear"), "marker")
    assert spec.outcomes() == [(Pick("marker", "bear"), 0.5), (Pick("marker", "owl"), 0.5)]
    assert spec.check(Pick("marker", "wolf")) is not None
    assert spec.check(Draw("owl")) is not None


def test_stack_in_both_modes() -> None:
    ordered = Stack()
    ordered.set_order(["top", "middle", "bottom"])
    assert len(ordered) == 3 and not ordered.needs_draw and ordered.pop() == "top"
    unordered = Stack()
    unordered.set_unordered(["a", "b", "b"])
    assert unordered.needs_draw and unordered.items() == ["a", "b", "b"]
    unordered.take("b")
    assert unordered.items() == ["a", "b"] and len(unordered) == 2
    unordered.set_order(())  # emptied for a shuffle: nothing left of the draw-mode counts
    assert unordered.items() == [] and len(unordered) == 0 and not unordered.needs_draw
    ordered.set_unordered(["c"])
    assert ordered.items() == ["c"] and ordered.needs_draw


def test_sampling_is_seeded() -> None:
    game = get_game("powwow")
    a = game.new_state(4).sample_chance(random.Random(7))
    b = game.new_state(4).sample_chance(random.Random(7))
    assert a == b and isinstance(a, Shuffle) and Counter(a.order) == Counter(FEATHERS)


def test_a_sampled_shuffle_is_uniform_not_the_order_it_was_given() -> None:
    # 4,000 shuffles of four items: each lands on top and at the bottom about 1,000 times
    spec = ChanceSpec("shuffle", ["a", "b", "c", "d"])
    rng = random.Random(3)
    orders = [spec.sample(rng) for _ in range(4000)]
    assert all(isinstance(o, Shuffle) and sorted(o.order) == ["a", "b", "c", "d"] for o in orders)
    top = Counter(o.order[0] for o in orders if isinstance(o, Shuffle))
    bottom = Counter(o.order[-1] for o in orders if isinstance(o, Shuffle))
    assert all(850 < top[x] < 1150 and 850 < bottom[x] < 1150 for x in "abcd"), (top, bottom)
    assert len({o for o in orders}) == 24  # every one of the 4! orders turns up


def test_draw_mode_chance_is_one_draw_at_a_time() -> None:
    state = get_game("powwow").new_state(4, chance="draw")
    assert isinstance(state.history[0], Shuffled)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert {o.item for o, _ in outcomes if isinstance(o, Draw)} == set(FEATHERS)
    assert dict(outcomes)[Draw("1")] == pytest.approx(4 / 36)
    state.apply(Draw("20"))
    assert Draw("20") not in dict(state.chance_outcomes())  # the only 20 is gone
    with pytest.raises(IllegalAction, match="not in the stack"):
        state.apply(Draw("20"))
    with pytest.raises(IllegalAction, match="draw"):
        state.apply(Shuffle(tuple(FEATHERS)))


def test_shuffle_mode_refuses_draws_and_player_moves_before_the_shuffle() -> None:
    state = get_game("wakatanka").new_state(4)
    with pytest.raises(IllegalAction, match="shuffle of 35"):
        state.apply(Draw("owl"))
    with pytest.raises(IllegalAction, match="before anyone acts"):
        state.apply(state.game.action_from_json({"action": "call"}))


def test_a_draw_mode_game_folds_into_a_record_with_whole_shuffles() -> None:
    for name in ("powwow", "wakatanka"):
        game = get_game(name)
        rng = random.Random(3)
        state = game.new_state(game.default_players, chance="draw")
        while not state.is_terminal:
            if state.to_move is None:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        record = Record.of(state)
        assert all(entry.get("chance") != "draw" for entry in record.moves)
        replayed = record.replay()
        assert replayed.winners() == state.winners()
        assert game.summary(replayed) == game.summary(state)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "x2", "max0"]), min_size=1, max_size=30),
    st.data(),
)
def test_a_stack_lists_its_draws_like_a_spec_of_its_items(items: list[str], data: Any) -> None:
    stack = Stack()
    stack.set_unordered(items)
    while len(stack):
        spec = stack.draw_spec()
        plain = ChanceSpec("draw", stack.items())
        assert spec == plain and dict(spec.counts) == dict(plain.counts)
        assert spec.outcomes() == plain.outcomes()
        assert sum(p for _, p in spec.outcomes()) == pytest.approx(1.0)
        gone = next((i for i in ("a", "b", "c", "x2", "max0") if i not in plain.counts), None)
        if gone is not None:
            assert spec.check(Draw(gone)) == f"{gone!r} is not in the stack"
        assert spec.check(Pick("marker", "a")) == "a draw from the stack is due"
        item = data.draw(st.sampled_from(sorted(plain.counts)))
        assert spec.check(Draw(item)) is None
        stack.take(item)
        assert spec.outcomes() == plain.outcomes()  # a spec keeps the stack as it was
