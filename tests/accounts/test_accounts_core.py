"""The accounts core: name rules and folding, password rules and hashing, session ids and
cookies, sign-in limits."""

from __future__ import annotations

import asyncio

import pytest

from campfire.accounts.folding import name_key
from campfire.accounts.limits import SignInLimit, TooMany
from campfire.accounts.names import BadName, account_name
from campfire.accounts.passwords import BadPassword, Busy, Hasher, check_password
from campfire.accounts.sessions import (
    COOKIE,
    clearing_header,
    cookie_header,
    id_hash,
    new_id,
    plausible,
)

#: a cheap cost for tests of the pool (the real cost is measured in benchmarks/signin.py)
CHEAP = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


@pytest.mark.parametrize("name", ["Ann", "alice_2", "Bär-Tom", "李小龙", "a" * 20])
def test_good_names(name: str) -> None:
    assert account_name(f"  {name} ") == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ab", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("Ann Lee", "letters, digits"),
        ("<script>", "letters, digits"),
        ("ann!", "letters, digits"),
        ("ann\u200b", "letters, digits"),
        ("You", "reserved"),
        ("YOU", "reserved"),
        ("Seat2", "reserved"),
        ("seat_2", "reserved"),
        ("Bot1", "reserved"),
        ("Bot-12", "reserved"),
        ("Yоu", "reserved"),  # a Cyrillic о
        ("Ѕеаt2", "reserved"),  # Cyrillic Ѕ, е, а
    ],
)
def test_bad_names(name: str, why: str) -> None:
    with pytest.raises(BadName, match=why):
        account_name(name)


def test_bot_level_names_are_reserved() -> None:
    from campfire.kernel import games

    level = next(iter(next(iter(games().values())).bot_levels()))
    with pytest.raises(BadName, match="reserved"):
        account_name(level.upper())


def test_look_alikes_fold_together() -> None:
    assert name_key("Аlice") == name_key("alice")  # Cyrillic А
    assert name_key("ALİCE") == name_key("alice")
    assert name_key("ａｌｉｃｅ") == name_key("alice")  # fullwidth
    assert name_key("alice") != name_key("alicia")


def test_password_rules() -> None:
    assert check_password("correct horse battery") == "correct horse battery"
    assert check_password("x" * 200)  # long passphrases are welcome
    with pytest.raises(BadPassword, match="at least 8"):
        check_password("short")
    with pytest.raises(BadPassword, match="most common"):
        check_password("password")
    with pytest.raises(BadPassword, match="most common"):
        check_password("Iloveyou")  # compared ignoring case
    with pytest.raises(BadPassword, match="at most"):
        check_password("x" * 257)
    with pytest.raises(BadPassword, match="account name"):
        check_password("gandalf-the-grey", "Gandalf-the-Grey")
    # no composition rules: only letters, only digits are fine when not common
    assert check_password("zqxwvutsrpk")
    assert check_password("90817263544")


def test_hash_is_argon2id_and_verifies() -> None:
    async def run() -> None:
        hasher = Hasher()
        try:
            stored = await hasher.hash("correct horse battery")
            assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
            assert "correct horse" not in stored
            assert await hasher.verify("correct horse battery", stored)
            assert not await hasher.verify("correct horse batterY", stored)
            # an unknown account: the same work, and no
            assert not await hasher.verify("correct horse battery", None)
            assert not await hasher.verify("anything at all", "not a hash")
        finally:
            hasher.close()

    asyncio.run(run())


def test_hasher_refuses_past_its_queue_and_keeps_the_loop_free() -> None:
    async def run() -> None:
        hasher = Hasher(**CHEAP, workers=1, queue=2)
        try:
            # three waiting hashes fill the pool and queue: the fourth is refused at once
            jobs = [asyncio.create_task(hasher.hash(f"passphrase {i}")) for i in range(3)]
            await asyncio.sleep(0)
            with pytest.raises(Busy):
                await hasher.hash("one too many")
            done = await asyncio.gather(*jobs)
            assert all(h.startswith("$argon2id$") for h in done)
            # and the pool is free again
            assert await hasher.verify("passphrase 0", done[0])
        finally:
            hasher.close()

    asyncio.run(run())


def test_session_ids_and_cookie() -> None:
    a, b = new_id(), new_id()
    assert a != b and plausible(a) and plausible(b)
    assert id_hash(a) != a and len(id_hash(a)) == 64
    assert not plausible(None) and not plausible("short") and not plausible(a[:-1] + "!")
    cookie = cookie_header(a, secure=False)
    assert cookie.startswith(f"{COOKIE}={a};")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert "; Secure" in cookie_header(a, secure=True)
    assert "Max-Age=0" in clearing_header(secure=False)


def test_sign_in_limit_per_account_and_address() -> None:
    from campfire.server.cluster.bus import Bus

    async def run() -> None:
        bus = Bus()
        limit = SignInLimit(bus.hit, per_account=3, per_address=5, window=60)
        for _ in range(3):
            await limit.attempt("Alice", "10.0.0.1")
        with pytest.raises(TooMany, match="this account") as caught:
            await limit.attempt("ALICE", "10.0.0.2")  # the name is counted folded
        assert 0 < caught.value.wait <= 60
        await limit.attempt("bob", "10.0.0.1")
        # 10.0.0.1 has made 5 attempts now (3 at Alice, bob, carol): a sixth is refused
        await limit.attempt("carol", "10.0.0.1")
        with pytest.raises(TooMany, match="your address"):
            await limit.attempt("dave", "10.0.0.1")

    asyncio.run(run())
