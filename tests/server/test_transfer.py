"""Pages and scripts travel compressed, and the game scripts are revalidated by ETag (issue 24,
item 13: about 100 KB of scripts and styles a table page)."""

from __future__ import annotations

from tests.server.conftest import Client


def test_scripts_and_pages_are_gzip_compressed(client: Client) -> None:
    for path in ("/static/table.js", "/static/app.css", "/games/powwow/table.js", "/t/x"):
        plain = client.http.get(path, headers={"Accept-Encoding": "identity"})
        packed = client.http.get(path, headers={"Accept-Encoding": "gzip"})
        assert plain.status_code == packed.status_code == 200, path
        assert "content-encoding" not in plain.headers
        assert packed.headers["content-encoding"] == "gzip", path
        assert packed.content == plain.content  # httpx unpacks it
        assert int(packed.headers["content-length"]) < len(plain.content) / 2, path
        assert "frame-ancestors 'none'" in packed.headers["content-security-policy"]


def test_game_scripts_carry_an_etag_and_are_revalidated(client: Client) -> None:
    for path in ("/games/powwow/table.js", "/games/wakatanka/table.css", "/static/table.js"):
        first = client.http.get(path)
        tag = first.headers["etag"]
        assert first.headers["cache-control"] == "no-cache"
        again = client.http.get(path, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b"", path
        stale = client.http.get(path, headers={"If-None-Match": '"other"'})
        assert stale.status_code == 200 and stale.content == first.content
