"""Help and rules text laid out for any terminal width: paragraphs reflow between words, and
lines of two columns ("guess N    announce a total...") become a table whose second column
wraps under itself.

The games write their help and rules as plain text (so they stay easy to read and translate);
this is the one place that decides how that text meets the width of the screen.
"""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

#: a line of two columns: the first, at least two spaces, the second
_ROW = re.compile(r"^(\s*\S.*?)\s{2,}(\S.*)$")


def layout(text: str) -> Group:
    """`text` as Rich renderables: blank lines separate blocks; a run of two-column lines is
    one table; other lines are prose, joined to the line before unless it ends with ':'."""
    parts: list[RenderableType] = []
    prose: list[str] = []
    rows: list[tuple[str, str]] = []

    def close_prose() -> None:
        if prose:
            parts.append(Text(" ".join(prose)))
            prose.clear()

    def close_rows() -> None:
        if rows:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(no_wrap=True)
            grid.add_column()
            for left, right in rows:
                grid.add_row(Text(left), Text(right))
            parts.append(grid)
            rows.clear()

    for line in text.splitlines():
        if not line.strip():
            close_prose()
            close_rows()
            parts.append(Text(""))
            continue
        row = _ROW.match(line)
        if row:
            close_prose()
            rows.append((row[1], row[2]))
            continue
        close_rows()
        if prose and prose[-1].endswith(":"):
            close_prose()
        prose.append(line.strip())
    close_prose()
    close_rows()
    return Group(*parts)
