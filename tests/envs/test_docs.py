"""The examples of docs/research.md run as written."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_page_has_an_example_for_each_interface():
    text = "\n".join(EXAMPLES)
    for name in (
        "encoding(",
        "powwow_v0.env(",
        "gymnasium.make(",
        "pyspiel.load_game(",
        "VectorEnv(",
    ):
        assert name in text


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_example_runs(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), {})
    printed = out.getvalue()
    assert printed.strip()
    # a `print(...)  # text` line promises `text` in the output
    for promised in re.findall(r"^print\(.*\)  # (.*)$", code, re.M):
        assert promised in printed
