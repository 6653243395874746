"""The real `campfire` command in a pseudo-terminal, seen through a terminal emulator (pyte):
what a person at a terminal sees, scroll-back included, and keys typed as they type them."""

from __future__ import annotations

import codecs
import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path
from typing import Any

import pyte

#: escape sequences, stripped from the raw output to search it as text
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-B]")
#: how long to wait for what the program is expected to print before the test fails
PATIENCE = 120.0


def _controlling_terminal() -> None:  # pragma: no cover - runs in the child
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`campfire ARGS` at a `columns` x `rows` terminal."""

    def __init__(self, *args: str, columns: int = 100, rows: int = 30, cwd: Path) -> None:
        self.columns, self.rows = columns, rows
        self.screen = pyte.HistoryScreen(columns, rows, history=100_000, ratio=0.5)
        self.stream = pyte.ByteStream(self.screen)
        self.text = ""  # everything printed, escape sequences stripped
        self._raw = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._changed = threading.Condition()
        self._closed = False
        self.mark = 0  # `expect` looks for text printed after this offset
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "campfire", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            preexec_fn=_controlling_terminal,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the program has ended and the terminal is gone
                data = b""
            with self._changed:
                if not data:
                    self._closed = True
                    self._changed.notify_all()
                    return
                self.stream.feed(data)
                self._raw += self._decoder.decode(data)
                self.text = ANSI.sub("", self._raw).replace("\r", "")
                self._changed.notify_all()

    # --- typing and waiting ----------------------------------------------------------------
    def type(self, keys: str) -> None:
        """Keys as typed: Enter is "\\r", Ctrl-C "\\x03", Ctrl-D "\\x04"."""
        os.write(self.master, keys.encode())

    def expect(self, text: str | re.Pattern[str]) -> str:
        """Wait until `text` is printed after the mark, move the mark past it, and return what
        was printed up to it."""
        pattern = text if isinstance(text, re.Pattern) else re.compile(re.escape(text))
        with self._changed:
            found = self._changed.wait_for(
                lambda: pattern.search(self.text, self.mark) is not None or self._closed,
                timeout=PATIENCE,
            )
            match = pattern.search(self.text, self.mark)
            if not found or match is None:
                raise AssertionError(
                    f"{pattern.pattern!r} never came; the terminal shows:\n{self.text[-3000:]}"
                )
            before = self.text[self.mark : match.end()]
            self.mark = match.end()
            return before

    def wait(self) -> int:
        """The exit status once the program has ended (and printed all it had to)."""
        status = self.process.wait(timeout=PATIENCE)
        with self._changed:
            self._changed.wait_for(lambda: self._closed, timeout=PATIENCE)
        return status

    # --- what the screen holds -------------------------------------------------------------
    def lines(self) -> list[str]:
        """Every line the terminal keeps: the scroll-back, then the visible screen."""
        with self._changed:
            history = [
                "".join(line[x].data for x in range(self.columns)).rstrip()
                for line in self.screen.history.top
            ]
            return history + [line.rstrip() for line in self.screen.display]

    def close(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=PATIENCE)
        self._reader.join(timeout=PATIENCE)
        os.close(self.master)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
