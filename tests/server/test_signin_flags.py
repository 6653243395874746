"""`campfire serve --signin-per-account/--signin-per-address/--signin-window`: the operator sets
the sign-in limits; values that make no sense stop the server with one clear line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import free_port, run_server_process, wait_until_up

PASSWORD = "correct horse battery"


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--signin-per-account", "0", "--signin-per-account must be at least 1, not 0"),
        ("--signin-per-address", "-3", "--signin-per-address must be at least 1, not -3"),
        ("--signin-window", "0", "--signin-window must be between 1 and 86400 seconds, not 0"),
        ("--signin-window", "90000", "--signin-window must be between 1 and 86400 seconds"),
        ("--signin-window", "soon", "Invalid value for '--signin-window'"),
    ],
)
def test_bad_sign_in_limits_are_refused_clearly(
    tmp_path: Path, flag: str, value: str, said: str
) -> None:
    db = f"sqlite:///{tmp_path}/flags.sqlite3"
    bad = subprocess.run(
        [sys.executable, "-m", "campfire", "serve", "--db", db, flag, value],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2, bad.stdout + bad.stderr
    assert said in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


def test_the_operator_sets_the_sign_in_limits(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/limits.sqlite3"
    port = free_port()
    process = run_server_process(
        db,
        port,
        "--signin-per-account",
        "2",
        "--signin-per-address",
        "50",
        "--signin-window",
        "45",
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
        made = httpx.post(base + "/api/accounts", json={"name": "Alice", "password": PASSWORD})
        assert made.status_code == 201, made.text
        for _ in range(2):
            wrong = httpx.post(
                base + "/api/session", json={"name": "Alice", "password": "nope!!!!"}
            )
            assert wrong.status_code == 401, wrong.text
        limited = httpx.post(base + "/api/session", json={"name": "alice", "password": PASSWORD})
        assert limited.status_code == 429, limited.text
        # counted over the operator's window, not the default 300 s
        assert 1 <= int(limited.headers["retry-after"]) <= 45
        assert "too many sign-in attempts for this account" in limited.json()["error"]
    finally:
        process.terminate()
        process.wait(timeout=30)
