"""What a request may carry: the JSON bodies, names, seat tokens, and their clear refusals."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from campfire.i18n import N_
from campfire.kernel import games
from campfire.server.names import invisible
from campfire.server.refusals import Refusal, Refused

#: the largest request body and WebSocket message accepted
BODY_LIMIT = 8 * 1024
MESSAGE_LIMIT = 4 * 1024
NAME_LIMIT = 24

ModelT = TypeVar("ModelT", bound=BaseModel)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateBody(_Body):
    game: str = Field(max_length=40)
    players: StrictInt | None = Field(None, ge=1, le=64)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    #: seat -> bot level; every other seat is for a person
    bots: dict[int, Annotated[str, Field(max_length=40)]] = Field(
        default_factory=dict, max_length=64
    )
    #: the creator's display name: they sit down at once (at `seat`, or the first free seat)
    #: and are the table's host
    name: str | None = Field(None, max_length=200)
    seat: StrictInt | None = Field(None, ge=0, le=63)
    #: shown in the lobby; by default a table is reachable by its invite link only
    listed: StrictBool = False
    #: seconds per turn (one of the server's clock choices); None: no clock
    clock: StrictInt | None = None
    #: ratings move after each game; every person at the table is signed in
    rated: StrictBool = False


class JoinBody(_Body):
    name: str = Field(max_length=200)
    seat: StrictInt | None = Field(None, ge=0, le=63)


class ActBody(_Body):
    action: dict[str, Any] = Field(max_length=8)
    #: the record length the player's view showed: a stale move is refused, not misapplied
    at: StrictInt | None = Field(None, ge=0)


class BotBody(_Body):
    #: one of the game's bot levels; the server's default level when left out
    level: str | None = Field(None, max_length=40)


#: names the tables use for something else: "You" in narration, seats and bots, bot levels
RESERVED_NAME = re.compile(r"^(you|spectator|(seat|bot|player) ?\d+)$", re.IGNORECASE)


def bot_level_names() -> set[str]:
    return {level.casefold() for game in games().values() for level in game.bot_levels()}


SURROGATE = re.compile("[\ud800-\udfff]")
SURROGATE_REFUSAL = Refusal(
    N_(
        "the text holds a lone surrogate (a \\ud800-\\udfff escape without its pair), "
        "which is not a character: nothing was done"
    )
)


def lone_surrogate(value: Any) -> bool:
    """Whether a parsed JSON value holds, in any string or key, half of a surrogate pair:
    JSON's `\\ud800` escapes allow it, but it is no text and cannot be sent on or stored."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def display_name(raw: str) -> str:
    """A name people can read: trimmed, single spaces, no control characters, 1 to 24 long,
    and not one the table uses for something else."""
    name = " ".join(raw.split())
    if not name:
        raise Refused(422, Refusal(N_("a name cannot be empty")))
    if len(name) > NAME_LIMIT:
        raise Refused(
            422,
            Refusal(
                N_("a name has at most {limit} characters, not {length}"),
                limit=NAME_LIMIT,
                length=len(name),
            ),
        )
    if invisible(name):
        raise Refused(422, Refusal(N_("a name cannot hold control or invisible characters")))
    if RESERVED_NAME.match(name) or name.casefold() in bot_level_names():
        raise Refused(
            422,
            Refusal(
                N_(
                    "{name!r} is reserved (it names a seat, a bot or a bot level at the "
                    "table): pick another name"
                ),
                name=name,
            ),
        )
    return name


def first_error(error: ValidationError | RequestValidationError) -> str:
    """The first thing wrong with a body: the field, and the validator's words (Pydantic's
    English: a page never sends such a body, a program does)."""
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    message = str(first.get("msg", "invalid"))
    return Refusal(N_("{field}: {problem}"), field=where, problem=message) if where else message


async def read_body(request: Request, model: type[ModelT]) -> ModelT:
    raw = await request.body()
    if not raw:
        raise Refused(400, Refusal(N_("the request needs a JSON body")))
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(
            415,
            Refusal(
                N_("the body must be sent as 'Content-Type: application/json', not {kind!r}"),
                kind=kind[:60],
            ),
        )
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:
        raise Refused(
            400, Refusal(N_("the body is not valid JSON: {error}"), error=str(error))
        ) from None
    if not isinstance(data, dict):
        raise Refused(422, Refusal(N_("the body must be a JSON object")))
    if lone_surrogate(data):
        raise Refused(400, SURROGATE_REFUSAL)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise Refused(422, first_error(error)) from None


def bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 100:
        raise Refused(401, Refusal(N_("send the seat token as 'Authorization: Bearer <token>'")))
    return token.strip()


def query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter within [low, high], or a 422 that says what was wrong."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Refused(
            422, Refusal(N_("{name} must be a whole number, not {raw!r}"), name=name, raw=raw[:40])
        ) from None
    if not low <= value <= high:
        raise Refused(
            422,
            Refusal(
                N_("{name} must be between {low} and {high}, not {value}"),
                name=name,
                low=low,
                high=high,
                value=value,
            ),
        )
    return value
