"""The keyboard of a real terminal: what was typed before the screen showed what it answers.

A person may type ahead while the bots play; those lines were typed without seeing the position
they would be played on, so they are taken off the terminal's input (and shown) rather than
played.
"""

from __future__ import annotations

import os
import select
import termios


def typed_ahead(fd: int) -> list[str]:
    """Take every line typed ahead off the terminal `fd` and return them (blank ones left out);
    a line still being typed is dropped with them (the terminal's input is flushed)."""
    data = b""
    while select.select([fd], [], [], 0)[0]:
        chunk = os.read(fd, 4096)  # a terminal in line mode gives one whole line a read
        if not chunk:
            break
        data += chunk
    termios.tcflush(fd, termios.TCIFLUSH)
    return [line.strip() for line in data.decode(errors="replace").splitlines() if line.strip()]
