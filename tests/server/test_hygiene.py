"""What every response carries (security headers, no server banner), JSON bodies only as JSON,
forwarded addresses trusted only from the proxies named, and table ids never shared."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from campfire.server import create_app
from tests.server.conftest import Client, Server, free_port, run_server_process, wait_until_up

Serve = Callable[..., Client]


def test_every_response_carries_the_security_headers(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    for path in (
        "/",
        f"/t/{made['id']}",
        "/replay/abcdefghijkm",
        "/rules/powwow",
        "/static/app.css",
        "/games/powwow/table.js",
        "/api/games",
        f"/api/tables/{made['id']}",
        "/api/tables/abcdefghijkm",  # a refusal too
    ):
        response = client.http.get(path)
        policy = response.headers["content-security-policy"]
        for part in (
            "default-src 'self'",
            "script-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
        ):
            assert part in policy, (path, policy)
        assert "unsafe-eval" not in policy
        assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
        assert response.headers["referrer-policy"] == "no-referrer", path
        assert response.headers["x-frame-options"] == "DENY", path
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert "server" not in response.headers, (path, response.headers.get("server"))


def test_pages_hold_no_inline_scripts(client: Client) -> None:
    """The policy allows no inline script: a page that had one would stop working."""
    import re

    for path in ("/", "/t/abcdefghijkm", "/replay/abcdefghijkm", "/rules/powwow"):
        page = client.http.get(path).text
        for tag in re.findall(r"<script\b[^>]*>", page):
            assert "src=" in tag, (path, tag)
        assert not re.search(r"\son[a-z]+\s*=", page), path


def test_json_endpoints_refuse_other_content_types(client: Client) -> None:
    made = client.create("powwow", 2, name="Ana")
    body = b'{"game": "powwow"}'
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None):
        headers = {"Content-Type": kind} if kind else {}
        for path in ("/api/tables", f"/api/tables/{made['id']}/join"):
            response = client.http.post(path, content=body, headers=headers)
            assert response.status_code == 415, (path, kind, response.text)
            assert "Content-Type: application/json" in response.json()["error"]
    with_charset = client.http.post(
        "/api/tables", content=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert with_charset.status_code == 201


def test_two_processes_with_the_same_seed_never_draw_the_same_table_id(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'ids.sqlite3'}"
    ids: list[str] = []
    for _ in range(2):
        with Server(create_app(url, seed=5, bot_pause=0.0)) as server:
            client = Client(server.base, server.ws_base)
            ids += [client.create("powwow", 2)["id"] for _ in range(3)]
            client.close()
    assert len(set(ids)) == 6
    # a fixed salt draws the same ids again: a restart finds them taken and draws on
    fixed: list[str] = []
    for _ in range(2):
        with Server(create_app(url, seed=5, bot_pause=0.0, id_salt="same")) as server:
            client = Client(server.base, server.ws_base)
            fixed += [client.create("powwow", 2)["id"] for _ in range(2)]
            client.close()
    assert len(set(fixed)) == 4


@pytest.fixture
def process_on(tmp_path: Path) -> Iterator[Callable[..., str]]:
    started = []

    def start(*flags: str) -> str:
        port = free_port()
        db = f"sqlite:///{tmp_path / f'p{port}.sqlite3'}"
        process = run_server_process(db, port, "--tables-per-minute", "2", *flags)
        started.append(process)
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base, process)
        return base

    yield start
    for process in started:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def post_from(base: str, forwarded: str) -> httpx.Response:
    return httpx.post(
        base + "/api/tables",
        json={"game": "powwow", "players": 2},
        headers={"X-Forwarded-For": forwarded},
        timeout=20,
    )


def test_forwarded_addresses_count_only_from_trusted_proxies(
    process_on: Callable[..., str],
) -> None:
    # no proxy trusted (the default): a rotating X-Forwarded-For does not make new addresses
    direct = process_on()
    answers = [post_from(direct, f"203.0.113.{i}").status_code for i in range(3)]
    assert answers == [201, 201, 429]
    banner = httpx.get(direct + "/api/games", timeout=20)
    assert "server" not in banner.headers
    # behind a trusted proxy, each client is counted for itself
    proxied = process_on("--forwarded-allow-ips", "127.0.0.1")
    assert [post_from(proxied, f"198.51.100.{i}").status_code for i in range(3)] == [201] * 3
    same = [post_from(proxied, "192.0.2.7").status_code for _ in range(3)]
    assert same == [201, 201, 429]
