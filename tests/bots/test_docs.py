"""docs/bots.md: the bot of one's own it shows is real code that plays in the arena."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def test_the_example_bot_plays_in_the_arena(tmp_path: Path) -> None:
    code = re.search(r"```python\n# mybots.py\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert code is not None, "docs/bots.md lost its example bot"
    (tmp_path / "mybots.py").write_text(code.group(1))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "campfire",
            "arena",
            "powwow",
            "--players",
            "4",
            "--bots",
            "mybots:Bold,medium,medium,random",
            "--games",
            "4",
            "--jobs",
            "1",
            "--json",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert '"mybots:Bold"' in result.stdout


def test_the_arena_table_has_its_markers() -> None:
    text = DOC.read_text()
    assert text.count("<!-- arena table: start -->") == 1
    assert text.count("<!-- arena table: end -->") == 1
