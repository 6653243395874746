"""Replies in the documented form: a body too large is `{"error": ...}` like every refusal,
`HEAD /` is answered, and no API schema is published (issue 24, item 9)."""

from __future__ import annotations

from collections.abc import Iterator

from campfire.server.http.requests import BODY_LIMIT
from tests.server.conftest import Client


def test_a_body_too_large_is_refused_in_json(client: Client) -> None:
    big = b'{"game": "powwow", "name": "' + b"x" * BODY_LIMIT + b'"}'
    said = client.http.post(
        "/api/tables", content=big, headers={"Content-Type": "application/json"}
    )

    def streamed() -> Iterator[bytes]:  # no Content-Length: the bytes read are counted
        for i in range(0, len(big), 1000):
            yield big[i : i + 1000]

    sent = client.http.post(
        "/api/tables", content=streamed(), headers={"Content-Type": "application/json"}
    )
    for response in (said, sent):
        assert response.status_code == 413
        assert response.headers["content-type"] == "application/json"
        assert response.json() == {
            "error": f"the request body has at most {BODY_LIMIT} bytes",
            "key": "the request body has at most {limit} bytes",
            "args": {"limit": BODY_LIMIT},
        }
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert client.app.state.storage.count() == 0


def test_head_of_the_pages_is_answered(client: Client) -> None:
    for path in ("/", "/t/abcdefghijkm"):
        head = client.http.head(path)
        assert head.status_code == 200, path
        assert head.headers["content-type"].startswith("text/html") and head.content == b""


def test_no_api_schema_is_published(client: Client) -> None:
    for path in ("/openapi.json", "/docs", "/redoc"):
        response = client.http.get(path)
        assert response.status_code == 404 and "error" in response.json(), path
