"""The server's log lines: text for a person (the default), or one JSON object a line for a log
collector (`campfire serve --log-format json`).

A JSON line has `time` (UTC, ISO 8601), `level`, `logger`, `message`, and `table` when the line
concerns one table: given as `extra={"table": id}`, or taken from `TABLE`, which the request or
task working on a table sets (a task started from there inherits it). Pure: imports nothing of
the server.
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging
from typing import Any

#: the table the running request or task works on (None: no one table)
TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("campfire_table", default=None)

FORMATS = ("text", "json")


class TableFilter(logging.Filter):
    """Put the table the current task works on into the record (unless `extra` gave one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "table", None) is None:
            record.table = TABLE.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line; an exception's traceback goes into `exception`."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        table = getattr(record, "table", None)
        if table is None:
            table = TABLE.get()
        if table is not None:
            out["table"] = table
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def log_config(log_format: str, level: str = "WARNING") -> dict[str, Any]:
    """A `logging.config.dictConfig` for the server and uvicorn: every line to stderr, as text
    or as JSON."""
    if log_format not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {log_format!r}")
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if log_format == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
        "formatter": "main",
        "filters": ["table"],
    }
    loggers = ("campfire", "uvicorn", "uvicorn.error", "uvicorn.access")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"table": {"()": TableFilter}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "root": {"handlers": ["main"], "level": level},
        "loggers": {name: {"handlers": [], "level": level, "propagate": True} for name in loggers},
    }
