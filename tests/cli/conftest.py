from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def campfire() -> Run:
    """Run the real `campfire` command in a subprocess."""

    def run(
        *args: str, stdin: str | None = None, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "campfire", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    return run
