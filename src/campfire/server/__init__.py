"""The game server: tables for people and bots, played in the browser (see `app.create_app`)."""

from campfire.server.http.app import create_app

__all__ = ["create_app"]
