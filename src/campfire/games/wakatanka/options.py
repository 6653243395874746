"""Waka Tanka's options (RULINGS W3)."""

from __future__ import annotations

from pydantic import Field

from campfire.kernel.options import Options


class WakatankaOptions(Options):
    first_player: int = Field(0, ge=0, description="the seat dealt first, who plays first")
