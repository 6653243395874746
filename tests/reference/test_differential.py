"""The engine against the naive reference implementations, game by game and move by move.

Thousands of random games (hypothesis-drawn seeds, every option and player count, both chance
modes) are played through both at once, with the same chance outcomes. At every position the
two must agree on whose turn it is, every public fact (buzzards, out, turns, totals, losers,
tokens, stacks, marker, winners...), what each seat sees (feathers of the others, own hand,
own cards on the tiles), the legal moves, and what is refused. A rule the engine gets wrong the
same way everywhere shows up here, where properties that compare the engine with itself cannot
see it. The engine is reached through the kernel API only, as JSON: nothing from
`campfire.games` is imported.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campfire.kernel import Draw, IllegalAction, Pick, Shuffle, Shuffled, State, get_game
from tests.reference.powwow import HIGHEST_GUESS, LOWEST_GUESS, RefPowwow
from tests.reference.wakatanka import ANIMALS, RefWakatanka

POWWOW = get_game("powwow")
WAKATANKA = get_game("wakatanka")
Move = tuple[Any, ...]

#: engine actions by reference move, made once (actions are immutable values)
_ACTIONS: dict[tuple[str, Move], Any] = {}


def engine_action(game: Any, move: Move, to_json: Any) -> Any:
    action = _ACTIONS.get((game.name, move))
    if action is None:
        action = _ACTIONS[(game.name, move)] = game.action_from_json(to_json(move))
    return action


#: reference moves by engine action, keyed by the action's id (the object is kept alive with
#: it, so an id is never reused), and the other way round. The engine hands out shared action
#: objects, so both stay small, and comparing several hundred legal actions at every position
#: becomes comparing sets of ids.
_MOVES: dict[int, tuple[Any, Move]] = {}
_IDS: dict[str, dict[Move, int]] = {"powwow": {}, "wakatanka": {}}
_KNOWN: set[int] = set()


def reference_move(game: Any, action: Any, from_json: Any) -> Move:
    known = _MOVES.get(id(action))
    if known is None or known[0] is not action:
        known = _MOVES[id(action)] = (action, from_json(game.action_to_json(action)))
        _IDS[game.name][known[1]] = id(action)
        _KNOWN.add(id(action))
    return known[1]


def same_legal(
    engine: State[Any, Any], legal: list[Move], from_json: Any, rng: random.Random
) -> None:
    """The engine's legal actions are exactly the reference's legal moves.

    Pow Wow with tomahawks ready has a couple of thousand legal actions (every guess for every
    seat that may take an extra feather): there, one position in four compares the whole sets,
    the others the count, every move that is not a guess, both ends of the list and a sample.
    """
    game = engine.game
    actions = engine.legal_actions()
    ids = set(map(id, actions))
    if len(ids) == len(actions) == len(legal) and ids <= _KNOWN:
        ids_of = _IDS[game.name]
        if len(legal) > 300 and rng.random() < 0.75:
            some = [legal[0], legal[-1], *rng.sample(legal, 20)]
            some += [m for m in OTHER_MOVES if m in legal]
            if all(ids_of.get(m) in ids for m in some):
                return
        elif {ids_of.get(m) for m in legal} == ids:
            return  # the usual case, settled by ids alone
    engine_legal = [reference_move(game, a, from_json) for a in actions]
    assert sorted(set(legal) - set(engine_legal)) == [], "legal by the rulings, refused"
    assert sorted(set(engine_legal) - set(legal)) == [], "refused by the rulings, legal"
    assert len(engine_legal) == len(legal), "the engine lists a legal action twice"


#: the moves that are not a guess or a play, checked at every position
OTHER_MOVES: list[Move] = [("dispute",), ("agree",), ("reverse",), ("call",), ("accept",)]


def games(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the chance outcomes, shared by both ------------------------------------------------------
class Chance:
    """Feeds the engine and the reference the same chance outcomes, in either chance mode."""

    def __init__(
        self, engine: State[Any, Any], rng: random.Random, mode: str, taken: list[str]
    ) -> None:
        self.engine = engine
        self.rng = rng
        self.mode = mode
        self.shuffles = 0
        self.taken = taken  # the reference's draws so far, in order (its own list)
        self.drawn = 0  # draw mode: how many of them the engine has drawn

    def shuffle(self, waiting: list[str], give: Any) -> None:
        """The reference waits for a shuffle of `waiting`: check the engine waits for the same
        one, then resolve both with one order (after trying a wrong order on both)."""
        order = list(waiting)
        self.rng.shuffle(order)
        if self.mode == "shuffle":
            spec = self.engine.chance_due()
            assert spec is not None and spec.kind == "shuffle", spec
            assert sorted(spec.items) == waiting
            if self.rng.random() < 0.2:
                wrong = order[1:]
                try:
                    self.engine.apply(Shuffle(tuple(wrong)))
                except IllegalAction:
                    pass
                else:
                    raise AssertionError("the engine took a shuffle that lacks a feather")
                assert give(wrong) is not None
            self.engine.apply(Shuffle(tuple(order)))
        else:
            notes = [e for e in self.engine.history if isinstance(e, Shuffled)]
            assert len(notes) == self.shuffles + 1, "the engine shuffles when the rules do not"
            assert sorted(notes[-1].items) == waiting
        self.shuffles += 1
        assert give(order) is None

    def draws(self) -> None:
        """Draw mode: the engine draws one by one what the reference took from the top."""
        while self.mode == "draw":
            spec = self.engine.chance_due()
            if spec is None or spec.kind != "draw" or self.drawn == len(self.taken):
                break  # (a draw the reference has not made yet waits for its shuffle)
            self.engine.apply(Draw(self.taken[self.drawn]))
            self.drawn += 1
        if self.mode == "draw" and not self.engine.is_terminal:
            # a draw the engine has not asked for yet is only fine while a shuffle comes first
            assert self.drawn == len(self.taken) or self.engine.to_move is None


def check_refusals(
    engine: State[Any, Any], legal: list[Move], candidates: list[Move], to_json: Any
) -> None:
    """Each candidate the reference finds illegal, the engine refuses (leaving the state as it
    was); a legal move made for the wrong seat is refused too."""
    game = engine.game
    seat = engine.to_move
    allowed = set(legal)
    for move in candidates:
        if move in allowed:
            continue
        action = engine_action(game, move, to_json)
        try:
            engine.apply(action, seat=seat)
        except IllegalAction:
            continue
        raise AssertionError(f"the engine took {move}, which the rulings forbid")
    if legal and engine.players > 1 and seat is not None:
        action = engine_action(game, legal[0], to_json)
        try:
            engine.apply(action, seat=(seat + 1) % engine.players)
        except IllegalAction:
            pass
        else:
            raise AssertionError("the engine took a move from a seat whose turn it is not")


# --- Pow Wow -----------------------------------------------------------------------------------
def powwow_json(move: Move) -> dict[str, Any]:
    if move[0] == "guess":
        out: dict[str, Any] = {"action": "guess", "value": move[1]}
        if move[2] is not None:
            out["extra_feather_to"] = move[2]
        return out
    return {"action": move[0]}


def powwow_move(data: dict[str, Any]) -> Move:
    if data["action"] == "guess":
        return ("guess", data["value"], data.get("extra_feather_to"))
    return (data["action"],)


def compare_powwow(engine: State[Any, Any], ref: RefPowwow, rng: random.Random) -> list[Move]:
    assert engine.to_move == ref.turn
    assert engine.is_terminal == ref.over
    assert engine.chance_due() is None
    assert sorted(engine.winners()) == sorted(ref.winners)
    for seat in range(ref.players):
        seen = engine.view(seat).feathers
        assert seen == tuple(
            (None,) * len(worn) if s == seat else tuple(worn) for s, worn in enumerate(ref.heads)
        )
    public = engine.view(None)
    assert public.feathers == tuple((None,) * len(worn) for worn in ref.heads)
    assert public.to_move == ref.turn
    assert list(public.buzzards) == ref.buzzards
    assert list(public.out) == ref.out
    assert public.round == ref.round
    assert public.first_player == ref.first
    assert public.direction == ref.direction
    assert public.guess == ref.guess
    assert public.owner == ref.owner
    assert public.agreed == ref.agreed
    # nobody holds a tomahawk when tomahawks are not in play
    assert list(public.tomahawks) == (ref.ready if ref.tomahawks else [False] * len(ref.ready))
    turns = [{"player": s, **POWWOW.action_to_json(a)} for s, a in public.turns]
    assert turns == [{"player": s, **powwow_json(m)} for s, m in ref.turns]
    assert sorted(public.used) == sorted(ref.used)
    assert public.stack_size == len(ref.stack)
    # the rounds so far were compared before: the newest one here, all in the summary at the end
    assert len(public.rounds) == len(ref.rounds)
    if ref.rounds:
        assert public.rounds[-1].to_json() == ref.rounds[-1]
    assert public.terminal == ref.over
    assert sorted(public.winners) == sorted(ref.winners)
    legal = ref.legal()
    same_legal(engine, legal, powwow_move, rng)
    return legal


def choose_powwow(ref: RefPowwow, legal: list[Move], rng: random.Random) -> Move:
    """A move that keeps games short but goes everywhere: disputes, tomahawks, both ends."""
    roll = rng.random()
    tomahawk: list[Move] = []
    if ref.tomahawks and ref.turn is not None and ref.ready[ref.turn]:
        allowed = set(legal)
        tomahawk = [("agree",), ("reverse",)]
        tomahawk += [("guess", HIGHEST_GUESS, t) for t in range(ref.players)]
        tomahawk = [m for m in tomahawk if m in allowed]
    if tomahawk and roll < 0.2:
        move = rng.choice(tomahawk)
        if move[0] == "guess":  # an extra feather, with a guess near the standing one
            low = LOWEST_GUESS if ref.guess is None else ref.guess + 1
            value = min(HIGHEST_GUESS, low + rng.randrange(6))
            return ("guess", value, move[2])
        return move
    if ("dispute",) in legal and (roll < 0.45 or ref.guess == HIGHEST_GUESS):
        return ("dispute",)
    if ref.guess is None:
        value = rng.choice([LOWEST_GUESS, HIGHEST_GUESS, rng.randint(-20, 60), rng.randint(0, 40)])
    else:
        value = min(HIGHEST_GUESS, ref.guess + 1 + rng.randrange(8))
    return ("guess", value, None)


def powwow_candidates(ref: RefPowwow, rng: random.Random) -> list[Move]:
    standing = 0 if ref.guess is None else ref.guess
    values = [LOWEST_GUESS - 1, HIGHEST_GUESS + 1, standing, standing - 1, standing + 1]
    targets: list[int | None] = [None, -1, ref.players, *range(ref.players)]
    out: list[Move] = [("dispute",), ("agree",), ("reverse",)]
    for _ in range(4):
        out.append(("guess", rng.choice(values), rng.choice(targets)))
    return out


def play_powwow(players: int, options: dict[str, Any], seed: int, mode: str) -> int:
    rng = random.Random(seed)
    engine = POWWOW.new_state(players, options, chance=mode, narrate=False)  # type: ignore[arg-type]
    ref = RefPowwow(players, **options)
    chance = Chance(engine, rng, mode, ref.taken)
    moves = 0
    while True:
        chance.draws()
        if ref.waiting is not None:
            chance.shuffle(ref.waiting, ref.shuffle)
            continue
        legal = compare_powwow(engine, ref, rng)
        if ref.over:
            break
        check_refusals(engine, legal, powwow_candidates(ref, rng), powwow_json)
        move = choose_powwow(ref, legal, rng)
        assert move in legal
        engine.apply(engine_action(POWWOW, move, powwow_json), seat=ref.turn)
        ref.act(move)
        moves += 1
    summary = POWWOW.summary(engine)
    assert summary == {"buzzards": ref.buzzards, "out": ref.out, "rounds": ref.rounds}
    return moves


@st.composite
def powwow_setups(draw: st.DrawFn) -> tuple[int, dict[str, Any], int, str]:
    players = draw(st.integers(2, 8))
    options: dict[str, Any] = {
        "buzzards": draw(st.integers(1, 10) if draw(st.integers(0, 9)) == 0 else st.integers(1, 3)),
        "tomahawks": draw(st.booleans()),
        "first_player": draw(st.integers(0, players - 1)),
        "end_after_eliminations": draw(st.none() | st.integers(1, players - 1))
        if players > 2
        else None,
    }
    return players, options, draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from(MODES))


MODES = ("shuffle", "draw")


@games(800)
@given(powwow_setups())
def test_powwow_matches_the_reference(setup: tuple[int, dict[str, Any], int, str]) -> None:
    play_powwow(*setup)


# --- Waka Tanka --------------------------------------------------------------------------------
def wakatanka_json(move: Move) -> dict[str, Any]:
    if move[0] == "play":
        return {"action": "play", "tile": move[1], "card": move[2]}
    if move[0] == "spell":
        return {"action": "spell", "tile": move[1]}
    return {"action": move[0]}


def wakatanka_move(data: dict[str, Any]) -> Move:
    if data["action"] == "play":
        return ("play", data["tile"], data["card"])
    if data["action"] == "spell":
        return ("spell", data["tile"])
    return (data["action"],)


def wakatanka_turn(seat: int, move: Move) -> dict[str, Any]:
    turn = {"player": seat, "action": move[0]}
    if len(move) > 1:
        turn["tile"] = move[1]
    return turn


def wakatanka_reveal(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "player": r["seat"],
        "action": r["action"],
        "tile": r["tile"],
        "cards": [{"placer": p, "card": c} for c, p in r["cards"]],
        "success": r["success"],
        "taker": r["taker"],
    }


def compare_wakatanka(engine: State[Any, Any], ref: RefWakatanka, rng: random.Random) -> list[Move]:
    assert engine.to_move == ref.turn
    assert engine.is_terminal == ref.over
    assert engine.chance_due() is None
    assert sorted(engine.winners()) == sorted(ref.winners)
    placed = [(tile, ref.stacks[tile]) for tile in ANIMALS if ref.stacks[tile]]
    for seat in range(ref.players):
        seen = engine.view(seat)
        assert seen.hand == tuple(sorted(ref.hands[seat]))
        for tile, cards in placed:  # (the public view below shows every stack's size)
            slots = [(slot.placer, slot.card) for slot in seen.stacks[tile]]
            assert slots == [(p, c if p == seat else None) for c, p in cards]
    public = engine.view(None)
    assert public.hand is None
    for tile in ANIMALS:
        slots = [(slot.placer, slot.card) for slot in public.stacks[tile]]
        assert slots == [(p, None) for _, p in ref.stacks[tile]]
    assert public.to_move == ref.turn
    assert public.marker == ref.marker
    assert list(public.hand_sizes) == [len(h) for h in ref.hands]
    assert list(public.tokens) == ref.tokens
    assert list(public.removed) == sorted(ref.removed)
    # the turns and reveals so far were compared before: the newest one here, all at the end
    assert len(public.turns) == len(ref.turns)
    if ref.turns:
        assert public.turns[-1].to_json() == wakatanka_turn(*ref.turns[-1])
    assert len(public.reveals) == len(ref.reveals)
    if ref.reveals:
        assert public.reveals[-1].to_json() == wakatanka_reveal(ref.reveals[-1])
    assert public.last_play == ref.last_play
    assert public.last_card == ref.last_card
    assert public.terminal == ref.over
    if ref.over:
        view = public.to_json()
        assert view["turns"] == [wakatanka_turn(s, m) for s, m in ref.turns]
        assert view["reveals"] == [wakatanka_reveal(r) for r in ref.reveals]
        assert view["winners"] == ref.winners
    legal = ref.legal()
    same_legal(engine, legal, wakatanka_move, rng)
    return legal


def choose_wakatanka(legal: list[Move], rng: random.Random) -> Move:
    """Mostly plays, with enough calls and spells that tokens and bluffs decide games."""
    roll = rng.random()
    for kind, chance in (("call", 0.25), ("spell", 0.4)):
        options = [m for m in legal if m[0] == kind]
        if options and roll < chance:
            return rng.choice(options)
    plays = [m for m in legal if m[0] == "play"]
    return rng.choice(plays or legal)


def wakatanka_candidates(ref: RefWakatanka, rng: random.Random) -> list[Move]:
    cards = [*ANIMALS, "mouse"]
    out: list[Move] = [("call",), ("accept",), ("spell", rng.choice(ANIMALS))]
    for _ in range(4):
        out.append(("play", rng.choice(ANIMALS), rng.choice(cards)))
    return out


def play_wakatanka(players: int, first_player: int, seed: int, mode: str) -> int:
    rng = random.Random(seed)
    options = {"first_player": first_player}
    engine = WAKATANKA.new_state(players, options, chance=mode, narrate=False)  # type: ignore[arg-type]
    ref = RefWakatanka(players, first_player)
    chance = Chance(engine, rng, mode, ref.taken)
    chance.shuffle(list(ref.waiting or []), ref.shuffle)
    spec = engine.chance_due()
    assert spec is not None and spec.kind == "pick" and sorted(spec.items) == sorted(ANIMALS)
    tile = rng.choice(ANIMALS)
    engine.apply(Pick("marker", tile))
    assert ref.place_marker(tile) is None
    chance.draws()
    moves = 0
    while True:
        legal = compare_wakatanka(engine, ref, rng)
        if ref.over:
            break
        check_refusals(engine, legal, wakatanka_candidates(ref, rng), wakatanka_json)
        move = choose_wakatanka(legal, rng)
        engine.apply(engine_action(WAKATANKA, move, wakatanka_json), seat=ref.turn)
        ref.act(move)
        moves += 1
    summary = WAKATANKA.summary(engine)
    assert summary == {
        "tokens": ref.tokens,
        "hands": [sorted(h) for h in ref.hands],
        "stacks": {tile: [c for c, _ in ref.stacks[tile]] for tile in ANIMALS},
        "removed": sorted(ref.removed),
        "marker": ref.marker,
    }
    return moves


@games(1200)
@given(
    st.integers(3, 6).flatmap(
        lambda n: st.tuples(
            st.just(n), st.integers(0, n - 1), st.integers(0, 2**32 - 1), st.sampled_from(MODES)
        )
    )
)
def test_wakatanka_matches_the_reference(setup: tuple[int, int, int, str]) -> None:
    play_wakatanka(*setup)
