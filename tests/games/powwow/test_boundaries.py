"""Pow Wow rulings at their exact edges: the stack against the deal (P4), the last feather for
`?` and an extra feather (P7, P11), the lowest and highest guess (P5). A rule off by one here
is wrong the same way in every game, so random games cannot see it; these positions can."""

from __future__ import annotations

from collections import Counter

import pytest

from campfire.games.powwow import DISPUTE, FEATHERS, GAME, Guess, PowwowState
from campfire.kernel import IllegalAction, Shuffle

#: the stack, top first: every feather but `?` and `zero`, those two at the very bottom, so the
#: rounds before them turn nothing over and shuffle nothing
_PLAIN = sorted(f for f in FEATHERS if f not in ("?", "zero"))
ORDER = (*_PLAIN, "?", "zero")


def start(players: int, **options: object) -> PowwowState:
    state = GAME.new_state(players, {"buzzards": 10, **options})
    state.apply(Shuffle(ORDER))
    return state


def on_top(feather: str, items: list[str]) -> Shuffle:
    rest = list(items)
    rest.remove(feather)
    return Shuffle((feather, *rest))


def settle(state: PowwowState, extra_to: int | None = None) -> None:
    """The opener guesses -20 (any total reaches it: the disputer loses), the next disputes."""
    state.apply(Guess(-20, extra_to))
    state.apply(DISPUTE)


def test_p4_stack_holding_exactly_as_many_feathers_as_players_deals_without_a_shuffle() -> None:
    state = start(4)
    for _ in range(8):
        settle(state)  # 32 feathers dealt, 4 left
    assert state.round == 9 and state.chance_due() is None
    assert state.view(None).stack_size == 0
    worn = sorted(f for seat in range(4) for f in state.worn[seat])
    assert worn == sorted(ORDER[32:])  # the four left were dealt
    assert len(state.view(None).used) == 32


def test_p4_stack_holding_one_feather_fewer_than_players_is_shuffled_with_the_used_pile() -> None:
    state = start(4, tomahawks=True)
    settle(state, extra_to=1)  # round 1 takes 5 feathers
    for _ in range(7):
        settle(state)  # 33 taken in all, 3 left
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert Counter(spec.items) == Counter(FEATHERS)  # the 3 left and the 33 used
    assert state.view(None).used == () and state.view(None).stack_size == 0
    state.apply(Shuffle(ORDER))
    assert [state.worn[s] for s in state.view(None).active] == [[f] for f in ORDER[:4]]


def test_p4_stack_holding_one_feather_more_than_players_deals_without_a_shuffle() -> None:
    state = start(5)
    for _ in range(6):
        settle(state)  # 30 dealt, 6 left
    assert state.round == 7 and state.chance_due() is None
    assert state.view(None).stack_size == 1
    settle(state)  # now 1 left for 5 players: too few
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle" and len(spec.items) == 36


def question_round(players: int, rounds_before: int) -> PowwowState:
    """`players` seats, `rounds_before` rounds settled: the round now dealt wears `?`."""
    state = start(players, tomahawks=True)
    for _ in range(rounds_before):
        settle(state)
    assert any("?" in worn for worn in state.worn)
    return state


def test_p7_question_mark_turns_over_the_last_feather_of_the_stack_without_a_shuffle() -> None:
    state = question_round(7, 4)  # 35 dealt: `?` worn, `zero` alone in the stack
    assert state.view(None).stack_size == 1
    state.apply(Guess(-20))
    state.apply(DISPUTE)
    assert state.view(None).rounds[-1].turned_over == "zero"
    # the turned-over zero reshuffles all 36 after the round (and nothing before it)
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle" and len(spec.items) == 36


def test_p7_question_mark_with_an_empty_stack_shuffles_the_used_pile_first() -> None:
    state = question_round(6, 5)  # all 36 dealt: the stack is empty
    used = sorted(state.view(None).used)
    assert state.view(None).stack_size == 0 and len(used) == 30
    state.apply(Guess(-20))
    state.apply(DISPUTE)
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert sorted(spec.items) == used  # the used pile only: the worn feathers stay in play
    state.apply(on_top("20", used))
    assert state.view(None).rounds[-1].turned_over == "20"


def test_p11_extra_feather_takes_the_last_feather_of_the_stack_without_a_shuffle() -> None:
    state = question_round(7, 4)
    state.apply(Guess(-20, extra_feather_to=1))
    assert state.chance_due() is None
    assert state.worn[1][1] == "zero" and state.view(None).stack_size == 0


def test_p11_extra_feather_from_an_empty_stack_shuffles_the_used_pile_first() -> None:
    state = question_round(6, 5)
    used = sorted(state.view(None).used)
    opener = state.to_move
    assert opener is not None and opener != 2
    state.apply(Guess(-20, extra_feather_to=2))
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle" and sorted(spec.items) == used
    state.apply(on_top("15", used))
    assert state.worn[2][1] == "15" and state.to_move == (opener + 1) % 6


@pytest.mark.parametrize(("value", "legal"), [(-21, False), (-20, True), (238, True), (239, False)])
def test_p5_opening_guess_at_each_bound_and_one_beyond(value: int, legal: bool) -> None:
    state = start(3)
    assert (Guess(value) in state.legal_actions()) is legal
    if legal:
        state.apply(Guess(value))
        assert state.guess == value
    else:
        with pytest.raises(IllegalAction, match="between -20 and 238"):
            state.apply(Guess(value))
        assert state.guess is None


def test_p5_after_238_only_a_dispute_is_left() -> None:
    state = start(3)
    state.apply(Guess(237))
    assert [a.value for a in state.legal_actions() if isinstance(a, Guess)] == [238]
    state.apply(Guess(238))
    assert list(state.legal_actions()) == [DISPUTE]
    with pytest.raises(IllegalAction):
        state.apply(Guess(239))


def test_p5_a_later_guess_of_minus_20_is_never_higher() -> None:
    state = start(3)
    state.apply(Guess(-20))
    assert min(a.value for a in state.legal_actions() if isinstance(a, Guess)) == -19
    with pytest.raises(IllegalAction, match="higher than the standing guess -20"):
        state.apply(Guess(-20))
