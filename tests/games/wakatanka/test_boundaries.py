"""Waka Tanka rulings at their exact edges: a spell with mice and zero, one or two cards of the
tile's animal (W4), a call that looks at the top card only (W4), and the third token that does
not win while the fourth does, by call and by spell (W5). Every position is reached by play."""

from __future__ import annotations

import pytest

from campfire.games.wakatanka import CALL, Call, Play, Spell, WakatankaState
from tests.builders import split_deck, wakatanka


@pytest.mark.parametrize(
    ("cards", "success"),
    [
        (("mouse", "mouse", "mouse"), False),  # no owl: mice are no animal
        (("mouse", "mouse", "owl"), False),  # one owl and two mice: still one
        (("owl", "mouse", "mouse"), False),
        (("mouse", "owl", "owl"), True),  # exactly two owls
        (("owl", "mouse", "owl"), True),
    ],
)
def test_w4_a_spell_counts_only_the_tiles_animal(
    cards: tuple[str, str, str], success: bool
) -> None:
    first, second, third = cards
    # owl stack: seat 0 plays `first`, seat 2 `second`, seat 0 `third`; seats 1, 3 play away
    hands = split_deck(4, [[first, third], ["bear"], [second], ["bear"]])
    state = wakatanka(hands, marker="bear")
    state.apply(Play("owl", first))  # 0
    state.apply(Play("bear", "bear"))  # 1
    state.apply(Play("owl", second))  # 2
    state.apply(Play("buffalo", "bear"))  # 3
    state.apply(Play("owl", third))  # 0
    sizes = list(state.view(None).hand_sizes)
    state.apply(Spell("owl"))  # 1
    reveal = state.view(None).reveals[-1]
    assert [card for _, card in reveal.cards] == list(cards)
    assert reveal.success is success
    if success:
        assert state.tokens == [0, 1, 0, 0]
        assert sorted(state.view(None).removed) == sorted(cards)
        assert state.view(None).hand_sizes[1] == sizes[1]
    else:
        assert state.tokens == [0, 0, 0, 0] and reveal.taker == 1
        assert state.view(None).removed == ()
        assert state.view(None).hand_sizes[1] == sizes[1] + 3
    assert state.view(None).stacks["owl"] == () and state.to_move == 2


@pytest.mark.parametrize(
    ("below", "top", "bluff"), [("owl", "mouse", True), ("mouse", "owl", False)]
)
def test_w4_a_call_looks_at_the_top_card_only(below: str, top: str, bluff: bool) -> None:
    hands = split_deck(4, [[below], ["bear"], [top]])
    state = wakatanka(hands, marker="bear")
    state.apply(Play("owl", below))  # 0
    state.apply(Play("bear", "bear"))  # 1
    state.apply(Play("owl", top))  # 2: the owl stack is [below, top]
    sizes = list(state.view(None).hand_sizes)
    state.apply(CALL)  # 3
    reveal = state.view(None).reveals[-1]
    assert reveal.success is bluff
    assert reveal.taker == (2 if bluff else 3)
    assert state.tokens[3] == (1 if bluff else 0)
    taker = 2 if bluff else 3
    assert state.view(None).hand_sizes[taker] == sizes[taker] + 2


def three_tokens() -> WakatankaState:
    """Seat 1 calls three of seat 0's mouse bluffs; seats 2 and 3 put two pumas on puma and two
    coyotes on coyote on the way. Then seat 0 bluffs a fourth time, and it is seat 1's turn."""
    hands = split_deck(
        4, [["mouse"], [], ["coyote", "puma", "buffalo"], ["puma", "coyote", "eagle"]]
    )
    state = wakatanka(hands, marker="bear")
    moves: list[Play | Call] = [
        Play("puma", "mouse"),
        CALL,
        Play("coyote", "coyote"),
        Play("puma", "puma"),
        Play("bear", "mouse"),
        CALL,
        Play("puma", "puma"),
        Play("coyote", "coyote"),
        Play("eagle", "mouse"),
        CALL,
    ]
    for move in moves:
        state.apply(move)
    assert state.tokens == [0, 3, 0, 0]
    assert not state.is_terminal and state.winners() == []  # three tokens do not win
    assert state.to_move == 2
    state.apply(Play("buffalo", "buffalo"))  # 2
    state.apply(Play("eagle", "eagle"))  # 3
    state.apply(Play("buffalo", "mouse"))  # 0: a fourth bluff
    assert state.to_move == 1 and not state.is_terminal
    return state


def test_w5_three_tokens_do_not_win_the_fourth_by_a_call_does() -> None:
    state = three_tokens()
    state.apply(CALL)
    assert state.tokens[1] == 4
    assert state.is_terminal and state.winners() == [1]


def test_w5_the_fourth_token_by_a_spell_wins() -> None:
    state = three_tokens()
    assert [slot.placer for slot in state.view(None).stacks["puma"]] == [3, 2]
    state.apply(Spell("puma"))  # two pumas
    assert state.tokens[1] == 4
    assert state.is_terminal and state.winners() == [1]


def test_w5_a_failed_spell_at_three_tokens_gives_nothing() -> None:
    state = three_tokens()
    state.apply(Spell("eagle"))  # one eagle only
    assert not state.is_terminal and state.tokens[1] == 3 and state.to_move == 2
