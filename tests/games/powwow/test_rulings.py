"""One test (or a few) per Pow Wow ruling, P1 to P12, on positions built on purpose."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from campfire.games.powwow import (
    AGREE,
    DISPUTE,
    FEATHERS,
    GAME,
    REVERSE,
    Guess,
    PowwowState,
    count,
)
from campfire.games.powwow.feathers import total
from campfire.kernel import IllegalAction, OptionError, Shuffle
from tests.builders import order_with_top, powwow


def settle(state: PowwowState, guess: int) -> None:
    """The seat to move guesses `guess`, the next one disputes."""
    state.apply(Guess(guess))
    state.apply(DISPUTE)


# --- P1 players -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_p1_two_to_eight_players(players: int) -> None:
    state = GAME.new_state(players)
    assert state.players == players


@pytest.mark.parametrize("players", [0, 1, 9, -3])
def test_p1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(OptionError, match="2 to 8 players"):
        GAME.new_state(players)


def test_p1_default_is_four_players() -> None:
    assert GAME.new_state().players == 4


# --- P2 feathers ------------------------------------------------------------------------------
def test_p2_the_36_feathers() -> None:
    spec = GAME.new_state().chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert Counter(spec.items) == Counter(
        {
            "1": 4,
            "2": 4,
            "3": 4,
            "4": 4,
            "5": 4,
            "10": 3,
            "15": 2,
            "20": 1,
            "0": 3,
            "-5": 2,
            "-10": 1,
            "x2": 1,
            "max0": 1,
            "zero": 1,
            "?": 1,
        }
    )
    assert len(FEATHERS) == 36


def test_p2_unknown_feather_codes_are_not_a_shuffle() -> None:
    state = GAME.new_state()
    order = list(order_with_top(()))
    order[0] = "7"
    with pytest.raises(IllegalAction, match="not being shuffled 7"):
        state.apply(Shuffle(tuple(order)))


# --- P3 first player --------------------------------------------------------------------------
def test_p3_first_player_defaults_to_seat_0() -> None:
    assert powwow().to_move == 0


def test_p3_first_player_option() -> None:
    state = powwow(5, first_player=3)
    assert state.to_move == 3
    assert state.view(0).first_player == 3


def test_p3_first_player_must_be_a_seat() -> None:
    with pytest.raises(OptionError, match="no seat 4"):
        GAME.new_state(4, {"first_player": 4})


# --- P4 dealing -------------------------------------------------------------------------------
def test_p4_deal_starts_with_the_first_player_and_goes_clockwise() -> None:
    state = powwow(4, ["1", "2", "3", "4"], first_player=2)
    view = state.view(None)
    assert view.round == 1
    worn = [state.worn[s] for s in range(4)]
    assert worn == [["3"], ["4"], ["1"], ["2"]]


def test_p4_short_stack_shuffles_stack_and_used_pile_together() -> None:
    # 8 players, no black feather in the first four rounds: 32 feathers dealt, 4 left.
    greens_first = [f for f in FEATHERS if f not in ("x2", "max0", "zero", "?")][:32]
    state = powwow(8, greens_first)
    for _ in range(3):
        settle(state, -20)  # total >= -20 always: the disputer loses
    assert state.round == 4 and state.stack.size == 4
    settle(state, -20)
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert len(spec.items) == 36  # 4 left in the stack + 32 on the used pile
    assert state.view(None).used == ()
    state.apply(Shuffle(order_with_top(["20", "15", "15", "10", "10", "10", "5", "5"])))
    assert state.to_move is not None
    assert sorted(f for worn in state.worn for f in worn) == sorted(
        ["20", "15", "15", "10", "10", "10", "5", "5"]
    )


def test_p4_no_shuffle_while_the_stack_is_enough() -> None:
    state = powwow(4, ["1", "2", "3", "4", "5", "5", "5", "5"])
    settle(state, 0)
    assert state.chance_due() is None
    assert state.round == 2


# --- P5 guesses -------------------------------------------------------------------------------
def test_p5_opening_guess_may_be_negative() -> None:
    state = powwow()
    state.apply(Guess(-20))
    assert state.guess == -20


def test_p5_later_guesses_strictly_higher() -> None:
    state = powwow()
    state.apply(Guess(10))
    with pytest.raises(IllegalAction, match="higher than the standing guess 10"):
        state.apply(Guess(10))
    with pytest.raises(IllegalAction):
        state.apply(Guess(3))
    state.apply(Guess(11))
    assert (state.guess, state.owner) == (11, 1)


@pytest.mark.parametrize("value", [-21, 239, 1000, -(10**9)])
def test_p5_guess_bounds(value: int) -> None:
    state = powwow()
    with pytest.raises(IllegalAction, match="between -20 and 238"):
        state.apply(Guess(value))


@pytest.mark.parametrize("value", [-20, 238])
def test_p5_bounds_are_inclusive(value: int) -> None:
    state = powwow()
    state.apply(Guess(value))
    assert state.guess == value


def test_p5_guess_must_be_whole() -> None:
    state = powwow()
    with pytest.raises(IllegalAction, match="whole number"):
        state.apply(Guess(2.5))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="whole number"):
        state.apply(Guess(True))


def test_p5_legal_guesses_are_every_value_above_the_standing_one() -> None:
    state = powwow()
    values = {a.value for a in state.legal_actions() if isinstance(a, Guess)}
    assert values == set(range(-20, 239))
    state.apply(Guess(200))
    values = {a.value for a in state.legal_actions() if isinstance(a, Guess)}
    assert values == set(range(201, 239))


# --- P6 disputes ------------------------------------------------------------------------------
def test_p6_no_dispute_without_a_guess() -> None:
    state = powwow()
    assert DISPUTE not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no guess to dispute"):
        state.apply(DISPUTE)


def test_p6_total_equal_to_guess_the_disputer_loses() -> None:
    state = powwow(4, ["5", "5", "2", "3"])  # total 15
    state.apply(Guess(15))
    state.apply(DISPUTE)
    last = state.rounds[-1]
    assert (last.total, last.guess, last.owner, last.disputer, last.loser) == (15, 15, 0, 1, 1)


def test_p6_total_below_guess_the_owner_loses() -> None:
    state = powwow(4, ["5", "5", "2", "3"])
    state.apply(Guess(10))
    state.apply(Guess(16))
    state.apply(DISPUTE)
    last = state.rounds[-1]
    assert (last.owner, last.disputer, last.loser) == (1, 2, 1)
    assert state.buzzards == [0, 1, 0, 0]


def test_p6_dispute_is_against_the_owner_of_the_standing_guess() -> None:
    state = powwow(4, ["5", "5", "2", "3"], tomahawks=True)
    state.apply(Guess(20))  # seat 0
    state.apply(AGREE)  # seat 1 owns 20 now
    state.apply(DISPUTE)  # seat 2 disputes seat 1
    last = state.rounds[-1]
    assert (last.owner, last.disputer, last.loser) == (1, 2, 1)


# --- P7 the total -----------------------------------------------------------------------------
def test_p7_green_blue_red() -> None:
    assert count(["20", "0", "-5", "-10", "3"]).total == 8


def test_p7_question_mark_turns_over_the_top_feather() -> None:
    state = powwow(4, ["?", "5", "5", "5", "10"])
    settle(state, 0)
    last = state.rounds[-1]
    assert last.turned_over == "10"
    assert last.total == 25
    assert "10" in state.used and "?" in state.used


def test_p7_turned_over_black_feather_applies_its_own_effect() -> None:
    state = powwow(4, ["?", "5", "5", "10", "x2"])
    settle(state, 0)
    assert state.rounds[-1].turned_over == "x2"
    assert state.rounds[-1].total == 40
    state = powwow(4, ["?", "5", "5", "10", "max0"])
    settle(state, 0)
    assert state.rounds[-1].total == 10


def test_p7_turned_over_zero_reshuffles_everything_after_the_round() -> None:
    state = powwow(4, ["?", "5", "5", "10", "zero"])
    settle(state, 0)
    assert state.rounds[-1].total == 20
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle" and len(spec.items) == 36


def test_p7_empty_stack_at_turn_over_is_a_shuffle_of_the_used_pile() -> None:
    state = powwow(2, ["?", "1"], tomahawks=True)
    # Empty the stack by hand: move every stack feather to the used pile.
    while state.stack.size:
        state.used.append(state.stack.pop())
    state.apply(Guess(0))
    state.apply(DISPUTE)
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert Counter(spec.items) == Counter(FEATHERS) - Counter(["?", "1"])
    state.apply(Shuffle(order_with_top(["15"], spec.items)))
    assert state.rounds[-1].turned_over == "15"
    assert state.rounds[-1].total == 16


def test_p7_max0_removes_exactly_one_of_tied_highest() -> None:
    assert count(["max0", "10", "10", "3"]).total == 13
    assert count(["max0", "10", "10", "3"]).removed == "10"


def test_p7_max0_without_green_does_nothing() -> None:
    result = count(["max0", "0", "-5"])
    assert (result.total, result.removed) == (-5, None)


def test_p7_order_question_then_max0_then_x2() -> None:
    # ? turns over 20; max0 removes the 20; x2 doubles 5 + 3; red counts once.
    assert count(["max0", "x2", "5", "3", "-5", "20"]).total == 11
    state = powwow(4, ["?", "max0", "x2", "5", "20"])
    settle(state, 0)
    assert state.rounds[-1].total == 10


def test_p7_black_feathers_count_zero_themselves() -> None:
    assert count(["zero", "?", "x2", "max0"]).total == 0


def test_p7_the_total_alone_is_the_counts_total() -> None:
    """`total`, which settles a round when nothing is narrated, is `count(...).total`: every
    hand of up to nine of the 36 feathers, drawn at random."""
    rng = random.Random(7)
    for _ in range(20_000):
        feathers = rng.sample(FEATHERS, rng.randrange(10))
        assert total(feathers) == count(feathers).total, feathers
    assert total(["max0", "x2", "5", "3", "-5", "20"]) == 11


# --- P8 after the round -----------------------------------------------------------------------
def test_p8_every_feather_of_the_round_goes_to_the_used_pile() -> None:
    state = powwow(4, ["?", "5", "5", "10", "3", "4"], tomahawks=True)
    state.apply(Guess(1, extra_feather_to=1))  # seat 1 takes the "3"
    state.apply(DISPUTE)
    assert sorted(state.used) == sorted(["?", "5", "5", "10", "3", "4"])
    assert state.rounds[-1].worn == (("?",), ("5", "3"), ("5",), ("10",))


def test_p8_zero_worn_reshuffles_all_36() -> None:
    state = powwow(4, ["zero", "5", "5", "10"])
    settle(state, 0)
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert Counter(spec.items) == Counter(FEATHERS)


def test_p8_zero_shuffle_comes_before_the_next_deal() -> None:
    state = powwow(4, ["zero", "5", "5", "10"])
    settle(state, 0)
    assert state.to_move is None
    state.apply(Shuffle(order_with_top(["20", "15", "15", "10"])))
    assert state.round == 2 and state.worn[1] == ["20"]  # seat 1 lost and opens


# --- P9 buzzards ------------------------------------------------------------------------------
@pytest.mark.parametrize("buzzards", [1, 5, 10])
def test_p9_a_player_with_that_many_buzzards_is_out(buzzards: int) -> None:
    state = powwow(3, buzzards=buzzards)
    rng = random.Random(1)
    while not state.out:
        if state.chance_due():
            state.apply(state.sample_chance(rng))
        elif state.to_move == 0:
            state.apply(Guess(238))  # seat 0 always guesses too high...
        else:
            state.apply(DISPUTE if state.owner == 0 else Guess(-20))  # ...and is disputed
    assert state.out == [0]
    assert state.buzzards == [buzzards, 0, 0]
    assert len(state.rounds) == buzzards


@pytest.mark.parametrize("buzzards", [0, 11, "3", 3.0, True])
def test_p9_buzzards_out_of_range(buzzards: object) -> None:
    with pytest.raises(OptionError, match="buzzards"):
        GAME.new_state(4, {"buzzards": buzzards})


def test_p9_loser_opens_next_round() -> None:
    state = powwow(4, ["1", "1", "1", "1", "2", "2", "2", "2"])
    state.apply(Guess(0))
    state.apply(Guess(100))  # seat 1's guess is too high
    state.apply(DISPUTE)
    assert state.rounds[-1].loser == 1
    assert state.to_move == 1 and state.view(0).first_player == 1


def test_p9_if_the_loser_is_out_the_next_active_player_clockwise_opens() -> None:
    state = powwow(4, buzzards=1)
    state.apply(Guess(0))
    state.apply(Guess(200))
    state.apply(DISPUTE)  # seat 1 loses its only buzzard and is out
    assert state.out == [1]
    assert state.to_move == 2


def test_p9_out_players_are_skipped_and_get_no_feather() -> None:
    state = powwow(4, buzzards=1)
    state.apply(Guess(0))
    state.apply(Guess(200))
    state.apply(DISPUTE)
    assert state.worn[1] == []
    state.apply(Guess(0))  # seat 2
    assert state.to_move == 3
    state.apply(Guess(1))
    assert state.to_move == 0
    state.apply(Guess(2))
    assert state.to_move == 2


# --- P10 end ----------------------------------------------------------------------------------
def test_p10_last_player_left_wins() -> None:
    state = powwow(2, buzzards=1)
    state.apply(Guess(238))
    state.apply(DISPUTE)
    assert state.is_terminal and state.winners() == [1]
    assert state.returns() == [-1.0, 1.0]
    assert state.to_move is None and list(state.legal_actions()) == []


def test_p10_end_after_eliminations_fewest_buzzards_win_with_ties() -> None:
    state = powwow(4, buzzards=2, end_after_eliminations=1)
    # seat 0 loses twice (out); seats 1..3 end with 0 buzzards each: three winners
    state.apply(Guess(238))
    state.apply(DISPUTE)
    assert state.to_move == 0
    state.apply(Guess(238))
    state.apply(DISPUTE)
    assert state.is_terminal
    assert state.winners() == [1, 2, 3]
    assert state.returns() == [-1.0, 1 / 3, 1 / 3, 1 / 3]


def test_p10_end_after_eliminations_single_winner() -> None:
    state = powwow(4, ["1"] * 4, buzzards=1, end_after_eliminations=2)
    state.apply(Guess(238))  # seat 0 loses, out
    state.apply(DISPUTE)
    assert not state.is_terminal
    state.apply(Guess(0))  # seat 1
    state.apply(Guess(200))  # seat 2 too high
    state.apply(DISPUTE)  # seat 3 wins the dispute: seat 2 out
    assert state.is_terminal and state.winners() == [1, 3]


@pytest.mark.parametrize("limit", [0, 4, "2"])
def test_p10_end_after_eliminations_range(limit: object) -> None:
    with pytest.raises(OptionError, match="end_after_eliminations"):
        GAME.new_state(4, {"end_after_eliminations": limit})


def test_p10_unknown_option_is_refused() -> None:
    with pytest.raises(OptionError, match="unknown option 'speed'"):
        GAME.new_state(4, {"speed": 3})


# --- P11 tomahawks ----------------------------------------------------------------------------
def test_p11_without_the_option_no_tomahawk_action_is_legal() -> None:
    state = powwow(4, tomahawks=False)
    state.apply(Guess(3))
    legal = state.legal_actions()
    assert AGREE not in legal and REVERSE not in legal
    assert all(getattr(a, "extra_feather_to", None) is None for a in legal)
    for action in (AGREE, REVERSE, Guess(5, extra_feather_to=2)):
        with pytest.raises(IllegalAction, match="tomahawks are not in play"):
            state.apply(action)


def test_p11_agree_takes_ownership_and_play_passes_on() -> None:
    state = powwow(4, tomahawks=True)
    state.apply(Guess(7))
    state.apply(AGREE)
    assert (state.guess, state.owner, state.agreed, state.to_move) == (7, 1, True, 2)
    assert state.ready == [True, False, True, True]


def test_p11_agree_needs_a_standing_guess() -> None:
    state = powwow(4, tomahawks=True)
    assert AGREE not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no guess to agree"):
        state.apply(AGREE)


def test_p11_a_guess_taken_by_agreeing_cannot_be_agreed_again() -> None:
    state = powwow(4, tomahawks=True)
    state.apply(Guess(7))
    state.apply(AGREE)
    assert AGREE not in state.legal_actions()
    with pytest.raises(IllegalAction, match="by agreeing"):
        state.apply(AGREE)
    state.apply(Guess(8))
    assert AGREE in state.legal_actions()


def test_p11_reverse_flips_direction_and_skips_the_owner() -> None:
    state = powwow(5, tomahawks=True)
    state.apply(Guess(3))  # seat 0 owns
    state.apply(REVERSE)  # seat 1: counter-clockwise; next would be seat 0, the owner: skip
    assert state.direction == -1 and state.to_move == 4
    assert (state.guess, state.owner) == (3, 0)
    state.apply(Guess(4))  # seat 4
    assert state.to_move == 3


def test_p11_reverse_without_a_guess_passes_the_opening() -> None:
    state = powwow(4, tomahawks=True)
    state.apply(REVERSE)
    assert state.to_move == 3 and state.guess is None
    assert DISPUTE not in state.legal_actions()


def test_p11_reverse_with_two_players_comes_back_to_the_reverser() -> None:
    state = powwow(2, tomahawks=True)
    state.apply(Guess(3))
    state.apply(REVERSE)
    assert state.to_move == 1 and not state.ready[1]
    assert REVERSE not in state.legal_actions()


def test_p11_one_tomahawk_per_round_ready_again_next_round() -> None:
    state = powwow(4, ["1"] * 4 + ["2"] * 4, tomahawks=True)
    state.apply(REVERSE)  # seat 0
    state.apply(Guess(1))  # seat 3
    state.apply(Guess(2))  # seat 2
    state.apply(Guess(3))  # seat 1
    assert state.to_move == 0
    assert REVERSE not in state.legal_actions() and AGREE not in state.legal_actions()
    with pytest.raises(IllegalAction, match="spent"):
        state.apply(REVERSE)
    state.apply(DISPUTE)
    assert state.ready == [True] * 4 and state.direction == 1


def test_p11_extra_feather_goes_on_top_to_another_active_player() -> None:
    state = powwow(4, ["1", "2", "3", "4", "20"], tomahawks=True)
    state.apply(Guess(5, extra_feather_to=2))
    assert state.worn[2] == ["3", "20"]
    assert (state.guess, state.owner, state.to_move) == (5, 0, 1)
    assert state.ready[0] is False


def test_p11_extra_feather_refusals() -> None:
    state = powwow(4, tomahawks=True)
    with pytest.raises(IllegalAction, match="another player"):
        state.apply(Guess(5, extra_feather_to=0))
    with pytest.raises(IllegalAction, match="no seat 7"):
        state.apply(Guess(5, extra_feather_to=7))
    state.apply(Guess(5, extra_feather_to=2))
    with pytest.raises(IllegalAction, match="two feathers"):
        state.apply(Guess(6, extra_feather_to=2))
    targets = {a.extra_feather_to for a in state.legal_actions() if isinstance(a, Guess)}
    assert targets == {None, 0, 3}


def test_p11_extra_feather_not_to_a_player_who_is_out() -> None:
    state = powwow(3, buzzards=1, tomahawks=True)
    state.apply(Guess(200))
    state.apply(DISPUTE)  # seat 0 out; seat 1 wins the dispute; seat 0 lost -> out, 1 opens
    assert state.out == [0] and state.to_move == 1
    with pytest.raises(IllegalAction, match="out"):
        state.apply(Guess(1, extra_feather_to=0))


def test_p11_extra_feather_from_an_empty_stack_shuffles_the_used_pile() -> None:
    state = powwow(3, ["1", "2", "3"], tomahawks=True)
    settle(state, -20)  # seat 1 loses; used pile holds 3 feathers
    while state.stack.size:
        state.used.append(state.stack.pop())
    state.apply(Guess(0, extra_feather_to=2))
    spec = state.chance_due()
    assert spec is not None and spec.kind == "shuffle"
    assert len(spec.items) == 36 - 3
    state.apply(Shuffle(order_with_top(["15"], spec.items)))
    assert state.worn[2][-1] == "15" and state.to_move == 2


def test_p11_direction_is_clockwise_at_the_start_of_every_round() -> None:
    state = powwow(4, tomahawks=True)
    state.apply(REVERSE)
    state.apply(Guess(0))
    state.apply(DISPUTE)
    assert state.direction == 1


# --- P12 who sees what ------------------------------------------------------------------------
def test_p12_a_seat_sees_every_feather_but_its_own() -> None:
    state = powwow(4, ["1", "2", "3", "4", "20"], tomahawks=True)
    state.apply(Guess(5, extra_feather_to=2))
    view = state.view(2)
    assert view.feathers == (("1",), ("2",), (None, None), ("4",))
    assert state.view(0).feathers == ((None,), ("2",), ("3", "20"), ("4",))


def test_p12_spectators_see_no_worn_feather() -> None:
    state = powwow(4)
    assert all(f is None for worn in state.view(None).feathers for f in worn)


def test_p12_public_parts_are_the_same_for_everyone() -> None:
    state = powwow(4, tomahawks=True)
    state.apply(Guess(3))
    state.apply(REVERSE)
    views = [state.view(s) for s in (None, 0, 1, 2, 3)]
    for view in views:
        assert (view.guess, view.owner, view.direction, view.tomahawks) == (
            3,
            0,
            -1,
            (True, False, True, True),
        )
        assert view.turns == views[0].turns and view.used == views[0].used
        assert view.stack_size == views[0].stack_size


def test_p12_the_stack_order_is_in_no_view() -> None:
    # two games dealt the same feathers in two rounds, the rest of their stacks in opposite
    # orders; one round played
    dealt = ["1", "2", "3", "4", "5", "5", "10", "10"]
    rest = list(order_with_top(dealt))[8:]
    states = []
    for below in (rest, rest[::-1]):
        state = GAME.new_state(4)
        state.apply(Shuffle((*dealt, *below)))
        settle(state, 5)
        states.append(state)
    first, second = states
    assert first.stack.order != second.stack.order  # different games...
    assert len(first.view(None).used) == 4  # ...with a used pile to show
    for seat in (None, 0, 1, 2, 3):
        data = first.view(seat).to_json()
        assert "stack" not in data and data["stack_size"] == 28
        assert data == second.view(seat).to_json()  # ...that no seat can tell apart


def test_p12_after_a_dispute_every_worn_feather_is_revealed() -> None:
    state = powwow(4, ["1", "2", "3", "4"])
    events = state.apply(Guess(0)) + state.apply(DISPUTE)
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.to is None and reveal.data["worn"] == [["1"], ["2"], ["3"], ["4"]]
    assert state.view(0).rounds[-1].worn == (("1",), ("2",), ("3",), ("4",))


def test_p12_dealt_feathers_are_told_to_everyone_but_the_wearer() -> None:
    state = GAME.new_state(3)
    events = state.apply(Shuffle(order_with_top(["5", "10", "15"])))
    private = [e for e in events if e.kind == "feather"]
    assert [(e.data["seat"], e.data["feather"], sorted(e.to or ())) for e in private] == [
        (0, "5", [1, 2]),
        (1, "10", [0, 2]),
        (2, "15", [0, 1]),
    ]
