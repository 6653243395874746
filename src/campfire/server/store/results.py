"""Results of finished games: ratings, rating history, the profile's games (0006_ratings).

`Results.settle` writes everything one finished game changes in one transaction that begins by
inserting the game's row in `campfire_results`, keyed by the table id. When two processes see
the same game finish, the second insert fails on that key (PostgreSQL makes it wait for the
first transaction, then refuses it), the second transaction rolls back whole, and so each game
moves the ratings exactly once. Synchronous: the server calls it from worker threads.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import orjson
from sqlalchemy import Engine, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from campfire.kernel.records import Record
from campfire.kernel.registry import games as all_games
from campfire.ratings import (
    PROVISIONAL_GAMES,
    Skill,
    bot_skill,
    finishing_ranks,
    game_stats,
    initial,
    provisional,
    rate,
)
from campfire.ratings.stats import STAT_KEYS
from campfire.server.store.schema import (
    FINISHED,
    accounts_t,
    moves_t,
    player_games_t,
    ratings_t,
    results_t,
    reviews_t,
    seats_t,
    tables_t,
)

log = logging.getLogger("campfire.server")

#: leaderboard page size: default and most
PAGE_DEFAULT = 50
PAGE_MAX = 100
#: games a profile lists, by default and at most
RECENT_DEFAULT = 50
RECENT_MAX = 200
BOT = "bot"
#: a profile's review figures add up at most this many of the player's newest reviewed games
REVIEWED_MAX = 200
#: each reviewed seat's figures kept in memory (a stored review never changes)
REVIEW_SUMMARIES_KEPT = 20_000


def _shown(mu: float | None, sigma: float | None) -> int | None:
    return None if mu is None or sigma is None else Skill(mu, sigma).shown


def _one_snapshot(db: Any) -> None:
    """Make the reads of `db` see one moment: a game's row and its rating change commit
    together, and a profile read across that commit showed the game with the rating before
    it (PostgreSQL: one REPEATABLE READ transaction; SQLite: one read transaction)."""
    if db.dialect.name == "sqlite":
        db.exec_driver_sql("BEGIN")
    else:
        db.execution_options(isolation_level="REPEATABLE READ")


def _seat_summary(document: Any, seat: int, game: str) -> dict[str, Any] | None:
    """One seat's accuracy and teaching statistics from a stored review (None: the review
    does not judge that seat)."""
    try:
        accuracy = float(document["seats"][str(seat)]["accuracy"])
        stats = document.get("statistics", {}).get(str(seat), {})
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    numbers = {k: v for k, v in stats.items() if isinstance(v, (int, float))}
    return {"game": game, "accuracy": accuracy, "stats": numbers}


def _review_totals(games: list[dict[str, Any]]) -> dict[str, Any]:
    """A game's reviewed games added up: how many, the mean accuracy, each count summed and
    the average loss per decision averaged over the games."""
    if not games:
        return {"games": 0, "accuracy": None, "stats": {}}
    stats: dict[str, float] = {}
    for g in games:
        for k, v in g["stats"].items():
            stats[k] = stats.get(k, 0) + v
    if "average_loss" in stats:
        stats["average_loss"] = round(stats["average_loss"] / len(games), 4)
    return {
        "games": len(games),
        "accuracy": round(sum(g["accuracy"] for g in games) / len(games), 1),
        "stats": {k: (int(v) if k != "average_loss" else v) for k, v in stats.items()},
    }


class Results:
    """Reads and writes results through the storage's engine."""

    def __init__(self, engine: Engine) -> None:
        #: (table, seat) -> that seat's figures from the table's stored review
        self._summaries: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._summaries_lock = threading.Lock()
        self.engine = engine

    # --- writing ---------------------------------------------------------------------------
    def settle(self, table_id: str) -> bool:
        """Write the results of the finished game at `table_id`: the ratings it moves (a rated
        table) and a game row for every account that sat there. False when there is nothing to
        write: not finished, nobody with an account, or already written (by this process or
        another)."""
        with self.engine.connect() as db:
            if db.execute(
                select(results_t.c.table_id).where(results_t.c.table_id == table_id)
            ).first():
                return False
            row = db.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if row is None or row["status"] != FINISHED:
                return False
            seats = db.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).all()
            if not any(s.account_id for s in seats):
                return False
            entries = [
                orjson.loads(r.entry)
                for r in db.execute(
                    select(moves_t.c.entry)
                    .where(and_(moves_t.c.table_id == table_id, moves_t.c.idx < row["moves"]))
                    .order_by(moves_t.c.idx)
                )
            ]
        record = Record(row["game"], row["players"], orjson.loads(row["options"]), entries)
        state = record.replay()
        # a person whose seat a bot plays now handed it over or lost it to the clock
        left = [s.seat for s in seats if s.kind == BOT and s.account_id is not None]
        ranks = finishing_ranks(state, left)
        winners = set(state.winners())
        stats = game_stats(record)
        return self._write(table_id, row, seats, ranks, winners, left, stats)

    def unsettled(self, limit: int = 1000) -> list[str]:
        """Finished tables with a signed-in seat whose results are not written (the process that
        saw the game end stopped first): a starting process writes them."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(tables_t.c.id)
                .where(
                    and_(
                        tables_t.c.status == FINISHED,
                        tables_t.c.id.in_(
                            select(seats_t.c.table_id).where(seats_t.c.account_id.is_not(None))
                        ),
                        tables_t.c.id.not_in(select(results_t.c.table_id)),
                    )
                )
                .order_by(tables_t.c.updated)
                .limit(limit)
            )
            return [r.id for r in rows]

    def _write(
        self,
        table_id: str,
        row: Any,
        seats: Sequence[Any],
        ranks: list[int],
        winners: set[int],
        left: list[int],
        stats: list[dict[str, int]],
    ) -> bool:
        game, rated, now = row["game"], bool(row["rated"]), time.time()
        try:
            with self.engine.begin() as db:
                # first: the key that makes this happen once (a second writer stops here)
                db.execute(
                    insert(results_t).values(table_id=table_id, game=game, rated=rated, at=now)
                )
                people = {s.seat: s.account_id for s in seats if s.account_id is not None}
                before: dict[int, Skill] = {}
                counts: dict[int, tuple[int, int]] = {}
                after: dict[int, Skill] = {}
                if rated:
                    for seat, account in people.items():
                        before[seat], counts[seat] = self._locked(db, account, game, now)
                    skills = [
                        before.get(s.seat)
                        or (bot_skill(game, s.level) if s.kind == BOT and s.level else initial())
                        for s in seats
                    ]
                    fixed = [s.seat not in people for s in seats]
                    moved = rate(skills, ranks, fixed)
                    after = {seat: moved[seat] for seat in people}
                for seat, account in people.items():
                    won = seat in winners and seat not in left
                    db.execute(
                        insert(player_games_t).values(
                            table_id=table_id,
                            seat=seat,
                            account_id=account,
                            game=game,
                            rated=rated,
                            won=won,
                            rank=ranks[seat],
                            players=len(seats),
                            left=seat in left,
                            mu_before=before[seat].mu if rated else None,
                            sigma_before=before[seat].sigma if rated else None,
                            mu_after=after[seat].mu if rated else None,
                            sigma_after=after[seat].sigma if rated else None,
                            stats=orjson.dumps(stats[seat]).decode(),
                            at=now,
                        )
                    )
                    if rated:
                        games, wins = counts[seat]
                        db.execute(
                            update(ratings_t)
                            .where(
                                and_(ratings_t.c.account_id == account, ratings_t.c.game == game)
                            )
                            .values(
                                mu=after[seat].mu,
                                sigma=after[seat].sigma,
                                games=games + 1,
                                wins=wins + int(won),
                                updated=now,
                            )
                        )
        except IntegrityError:
            return False  # another process wrote this game's results first
        log.info("table %s: results written (%s)", table_id, "rated" if rated else "casual")
        return True

    @staticmethod
    def _locked(db: Any, account: str, game: str, now: float) -> tuple[Skill, tuple[int, int]]:
        """The account's rating in `game`, its row locked until the transaction ends (made at
        the start values when it has none yet)."""
        query = (
            select(ratings_t)
            .where(and_(ratings_t.c.account_id == account, ratings_t.c.game == game))
            .with_for_update()
        )
        found = db.execute(query).first()
        if found is None:
            start = initial()
            db.execute(
                insert(ratings_t).values(
                    account_id=account,
                    game=game,
                    mu=start.mu,
                    sigma=start.sigma,
                    games=0,
                    wins=0,
                    updated=now,
                )
            )
            return start, (0, 0)
        return Skill(found.mu, found.sigma), (found.games, found.wins)

    # --- reading ---------------------------------------------------------------------------
    def player(self, name: str, key: str, limit: int = RECENT_DEFAULT) -> dict[str, Any] | None:
        """The profile of the account whose folded name is `key` (None: no such account)."""
        with self.engine.connect() as db:
            _one_snapshot(db)
            account = db.execute(
                select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.name_key == key)
            ).first()
            if account is None:
                return None
            rows = db.execute(
                select(player_games_t)
                .where(player_games_t.c.account_id == account.id)
                .order_by(player_games_t.c.at.desc(), player_games_t.c.table_id)
            ).all()
            standing = {
                r.game: r
                for r in db.execute(select(ratings_t).where(ratings_t.c.account_id == account.id))
            }
        reviewed = self._reviewed(account.id)
        ratings: dict[str, Any] = {}
        for game in sorted(all_games()):
            mine = [r for r in rows if r.game == game]
            rated = [r for r in reversed(mine) if r.rated]
            s = standing.get(game)
            mu, sigma = (s.mu, s.sigma) if s else (initial().mu, initial().sigma)
            games = s.games if s else 0
            totals = dict.fromkeys(STAT_KEYS.get(game, ()), 0)
            for r in mine:
                for k, v in orjson.loads(r.stats).items():
                    totals[k] = totals.get(k, 0) + int(v)
            ratings[game] = {
                "rating": Skill(mu, sigma).shown,
                "games": games,
                "wins": s.wins if s else 0,
                "provisional": provisional(games),
                "provisional_games": PROVISIONAL_GAMES,
                "mu": round(mu, 4),
                "sigma": round(sigma, 4),
                "played": len(mine),
                "won": sum(1 for r in mine if r.won),
                "history": [
                    {
                        "table": r.table_id,
                        "before": _shown(r.mu_before, r.sigma_before),
                        "rating": _shown(r.mu_after, r.sigma_after),
                        "at": r.at,
                    }
                    for r in rated
                ],
                "stats": totals,
            }
        games_out = [
            {
                "table": r.table_id,
                "game": r.game,
                "rated": bool(r.rated),
                "won": bool(r.won),
                "rank": r.rank,
                "players": r.players,
                "left": bool(r.left),
                "at": r.at,
                "rating_before": _shown(r.mu_before, r.sigma_before),
                "rating_after": _shown(r.mu_after, r.sigma_after),
                "accuracy": reviewed.get((r.table_id, r.seat), {}).get("accuracy"),
            }
            for r in rows[:limit]
        ]
        review = {
            game: _review_totals([v for (t, _), v in reviewed.items() if v["game"] == game])
            for game in sorted(all_games())
        }
        return {"name": account.name, "ratings": ratings, "games": games_out, "review": review}

    def _reviewed(self, account_id: str) -> dict[tuple[str, int], dict[str, Any]]:
        """The account's newest finished games that have a stored review, with that seat's
        figures from it: `{(table, seat): {"game", "accuracy", "stats"}}`. Only reviews
        already stored count (a profile never has one made); each is read once a process."""
        with self.engine.connect() as db:
            keys = db.execute(
                select(player_games_t.c.table_id, player_games_t.c.seat, player_games_t.c.game)
                .join(reviews_t, reviews_t.c.table_id == player_games_t.c.table_id)
                .where(player_games_t.c.account_id == account_id)
                .order_by(player_games_t.c.at.desc(), player_games_t.c.table_id)
                .limit(REVIEWED_MAX)
            ).all()
            with self._summaries_lock:
                known = {
                    (k.table_id, k.seat): self._summaries.get((k.table_id, k.seat)) for k in keys
                }
            missing = sorted({t for (t, _), v in known.items() if v is None})
            texts = (
                dict(
                    db.execute(
                        select(reviews_t.c.table_id, reviews_t.c.review).where(
                            reviews_t.c.table_id.in_(missing)
                        )
                    ).all()
                )
                if missing
                else {}
            )
        out: dict[tuple[str, int], dict[str, Any]] = {}
        documents: dict[str, Any] = {}
        for k in keys:
            summary = known[(k.table_id, k.seat)]
            if summary is None:
                if k.table_id not in documents:
                    documents[k.table_id] = orjson.loads(texts.get(k.table_id) or "{}")
                summary = _seat_summary(documents[k.table_id], k.seat, k.game)
                if summary is None:
                    continue
                with self._summaries_lock:
                    self._summaries[(k.table_id, k.seat)] = summary
                    while len(self._summaries) > REVIEW_SUMMARIES_KEPT:
                        self._summaries.popitem(last=False)
            out[(k.table_id, k.seat)] = summary
        return out

    def leaderboard(self, game: str, offset: int, limit: int) -> dict[str, Any]:
        """One page of `game`'s rated players, best first (mu, then more games, then name)."""
        with self.engine.connect() as db:
            # counted as listed: a rating row of no account (one a game that ended as its
            # account was deleted wrote) is neither shown nor counted
            total = db.execute(
                select(func.count())
                .select_from(ratings_t)
                .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                .where(ratings_t.c.game == game)
            ).scalar_one()
            rows = db.execute(
                select(accounts_t.c.name, ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
                .join(accounts_t, accounts_t.c.id == ratings_t.c.account_id)
                .where(ratings_t.c.game == game)
                .order_by(ratings_t.c.mu.desc(), ratings_t.c.games.desc(), accounts_t.c.name_key)
                .offset(offset)
                .limit(limit)
            ).all()
        return {
            "game": game,
            "players": [
                {
                    "rank": offset + i + 1,
                    "name": r.name,
                    "rating": Skill(r.mu, r.sigma).shown,
                    "games": r.games,
                    "provisional": provisional(r.games),
                }
                for i, r in enumerate(rows)
            ],
            "offset": offset,
            "limit": limit,
            "total": int(total),
        }

    def seat_ratings(self, table_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Each table's signed-in seats with their rating in the table's game (1500 and
        provisional for an account that has none yet): `{table: {seat: {...}}}`."""
        if not table_ids:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(
                select(
                    seats_t.c.table_id,
                    seats_t.c.seat,
                    ratings_t.c.mu,
                    ratings_t.c.sigma,
                    ratings_t.c.games,
                )
                .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                .outerjoin(
                    ratings_t,
                    and_(
                        ratings_t.c.account_id == seats_t.c.account_id,
                        ratings_t.c.game == tables_t.c.game,
                    ),
                )
                .where(and_(seats_t.c.table_id.in_(table_ids), seats_t.c.account_id.is_not(None)))
            ).all()
        start = initial()
        out: dict[str, dict[str, Any]] = {}
        for r in rows:
            mu, sigma = (r.mu, r.sigma) if r.mu is not None else (start.mu, start.sigma)
            out.setdefault(r.table_id, {})[str(r.seat)] = {
                "rating": Skill(mu, sigma).shown,
                "provisional": provisional(r.games or 0),
            }
        return out
