"""Mutation run over the rules and the kernel: does the suite kill realistic bugs?

    nice -n 10 .venv/bin/python -m benchmarks.mutations             # every mutation
    nice -n 10 .venv/bin/python -m benchmarks.mutations --only pw-  # those whose name starts so
    .venv/bin/python -m benchmarks.mutations --list                 # the mutations, no run

Each mutation is a small edit a person could plausibly make (an off-by-one, a missed case, a
check dropped, a wrong index), applied one at a time to a copy of the repository in a
temporary folder (src, tests, pyproject; never this work tree). The copy's tests run against the
copy's `src` (it comes first on PYTHONPATH, also for the `campfire` processes the CLI tests
start), stopping at the first failure (`pytest -x`): a failure kills the mutation, a green run
means it survived. For speed the server folder never runs (tests/server: the server reads the
rules only through the kernel), and by default neither do the bots and the research adapters
(`--suite all` adds them); the most telling tests run first, with Hypothesis' shrinking off. A
mutation whose run passes the time limit is undecided, listed apart and left out of the rate.

Prints each mutation's fate, then the kill rate and the survivors. The reference for the rate
is the target of the issue that asked for the run: at least 97% killed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.97

PW = "src/campfire/games/powwow/"
WT = "src/campfire/games/wakatanka/"
K = "src/campfire/kernel/"

#: the tests run for each mutation, most telling (and quickest to fail) first: "rules" is every
#: test of the rules, the kernel and what reads them (records, terminal, CLI); "all" adds the
#: bots and the research adapters (slow, and on a shared machine too slow for a run of dozens)
SUITES = {
    "rules": [
        "tests/games/powwow/test_boundaries.py",
        "tests/games/wakatanka/test_boundaries.py",
        "tests/games/powwow/test_rulings.py",
        "tests/games/wakatanka/test_rulings.py",
        "tests/kernel",
        "tests/test_docs.py",
        "tests/reference",
        "tests/games/test_properties.py",
        "tests/terminal",
        "tests/cli",
    ],
}
SUITES["all"] = [*SUITES["rules"], "tests/games", "tests/bots", "tests/envs"]

#: loaded by the copy's root conftest: no shrinking (a first failure is all a kill needs) and
#: no example database (nothing of a mutant is kept for later runs)
CONFTEST = """\
from hypothesis import Phase, settings

settings.register_profile(
    "mutations", phases=[Phase.explicit, Phase.generate], database=None, print_blob=False
)
settings.load_profile("mutations")
"""


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str
    edits: tuple[tuple[str, str, str], ...]  # (file, text, replacement), each found once


def m(name: str, what: str, *edits: tuple[str, str, str]) -> Mutation:
    return Mutation(name, what, edits)


MUTATIONS = [
    # --- Pow Wow -----------------------------------------------------------------------------
    m(
        "pw-short-deal",
        "reshuffle when the stack holds exactly as many feathers as players (P4)",
        (
            PW + "state.py",
            "if self.stack.size < len(self._deal_order):",
            "if self.stack.size <= len(self._deal_order):",
        ),
    ),
    m(
        "pw-tie-goes-to-owner",
        "a total equal to the guess makes the owner lose (P6)",
        (
            PW + "state.py",
            "loser = disputer if counted.total >= guess else owner",
            "loser = disputer if counted.total > guess else owner",
        ),
    ),
    m(
        "pw-loser-swapped",
        "the disputer loses when the guess was too high (P6)",
        (
            PW + "state.py",
            "loser = disputer if counted.total >= guess else owner",
            "loser = owner if counted.total >= guess else disputer",
        ),
    ),
    m(
        "pw-out-one-late",
        "a player is out one buzzard after the limit (P9)",
        (
            PW + "state.py",
            "if self.buzzards[loser] >= self.options.buzzards:",
            "if self.buzzards[loser] > self.options.buzzards:",
        ),
    ),
    m(
        "pw-next-opener",
        "the player after the loser opens the next round (P9)",
        (
            PW + "state.py",
            "self.first = loser if self.active[loser] else self._step(loser, 1)",
            "self.first = self._step(loser, 1)",
        ),
    ),
    m(
        "pw-turned-zero",
        "a zero turned over by ? does not reshuffle (P7, P8)",
        (
            PW + "state.py",
            'if "zero" in in_play:',
            'if "zero" in in_play[: len(in_play) - (self.rounds[-1].turned_over is not None)]:',
        ),
    ),
    m(
        "pw-direction-kept",
        "the direction is not reset to clockwise at a new round (P11)",
        (
            PW + "state.py",
            "        self.direction = 1\n        self.ready = [True] * self.players",
            "        self.ready = [True] * self.players",
        ),
    ),
    m(
        "pw-tomahawks-kept-spent",
        "spent tomahawks are not ready again at a new round (P11)",
        (
            PW + "state.py",
            "        self.direction = 1\n        self.ready = [True] * self.players",
            "        self.direction = 1",
        ),
    ),
    m(
        "pw-reverse-no-skip",
        "reverse does not skip the owner of the standing guess (P11)",
        (
            PW + "state.py",
            "self.turn = self._step(seat, self.direction, skip=self.owner)",
            "self.turn = self._step(seat, self.direction)",
        ),
    ),
    m(
        "pw-agree-twice",
        "a guess taken by agreeing can be agreed with again (P11)",
        (PW + "state.py", "if guess is not None and not self.agreed:", "if guess is not None:"),
        (
            PW + "state.py",
            "            if self.agreed:\n                return (",
            "            if False:\n                return (",
        ),
    ),
    m(
        "pw-extra-on-two",
        "an extra feather may go to a player who already wears two (P11)",
        (
            PW + "state.py",
            "if s != seat and self.active[s] and len(self.worn[s]) == 1",
            "if s != seat and self.active[s] and len(self.worn[s]) <= 2",
        ),
        (PW + "state.py", "if len(self.worn[target]) != 1:", "if len(self.worn[target]) > 2:"),
    ),
    m(
        "pw-guess-max",
        "guesses accepted up to 240 (P5)",
        (PW + "feathers.py", "GUESS_MAX = 238", "GUESS_MAX = 240"),
    ),
    m(
        "pw-guess-min",
        "guesses accepted down to -21 (P5)",
        (PW + "feathers.py", "GUESS_MIN = -20", "GUESS_MIN = -21"),
    ),
    m(
        "pw-max0-ties",
        "max0 removes every tied highest green feather (P7)",
        (
            PW + "feathers.py",
            "        greens.remove(top)",
            "        greens = [g for g in greens if g != top]",
        ),
    ),
    m(
        "pw-x2-red",
        "x2 doubles the red feathers too (P7)",
        (
            PW + "feathers.py",
            "return Count(green_sum + others, green_sum, removed, has_x2)",
            "return Count(green_sum + others * (2 if has_x2 else 1), green_sum, removed, has_x2)",
        ),
    ),
    m(
        "pw-feathers",
        "a 15 instead of the 20 among the 36 feathers (P2)",
        (PW + "feathers.py", '    *("15",) * 2,\n    "20",', '    *("15",) * 3,'),
    ),
    m(
        "pw-extra-question",
        "a ? taken as an extra feather is not turned over (P7, P11)",
        (
            PW + "state.py",
            '        if feather == "?":\n            self._question = True',
            '        if feather == "?" and not extra:\n            self._question = True',
        ),
    ),
    m(
        "pw-short-forgets-stack",
        "a short stack's last feathers are left out of the reshuffle (P4)",
        (
            PW + "state.py",
            "self._shuffle_items = tuple(sorted([*self.stack.items(), *self.used]))",
            "self._shuffle_items = tuple(sorted(self.used or self.stack.items()))",
        ),
    ),
    m(
        "pw-end-one-late",
        "end_after_eliminations ends one elimination late (P10)",
        (
            PW + "state.py",
            "(limit is not None and len(self.out) >= limit)",
            "(limit is not None and len(self.out) > limit)",
        ),
    ),
    m(
        "pw-most-buzzards-win",
        "after end_after_eliminations the most buzzards win (P10)",
        (
            PW + "state.py",
            "fewest = min(self.buzzards[s] for s in remaining)",
            "fewest = max(self.buzzards[s] for s in remaining)",
        ),
    ),
    m(
        "pw-reverse-no-flip",
        "reverse does not flip the direction (P11)",
        (
            PW + "state.py",
            "        self.direction = -self.direction\n",
            "        self.direction = self.direction\n",
        ),
    ),
    # --- Waka Tanka ---------------------------------------------------------------------------
    m(
        "wt-spell-mice",
        "a spell counts mice towards its animal (W4)",
        (
            WT + "state.py",
            "success = sum(1 for card, _ in cards if card == tile) >= 2",
            "success = sum(1 for card, _ in cards if card in (tile, 6)) >= 2",
        ),
    ),
    m(
        "wt-spell-three",
        "a spell needs three of its animal (W4)",
        (
            WT + "state.py",
            "success = sum(1 for card, _ in cards if card == tile) >= 2",
            "success = sum(1 for card, _ in cards if card == tile) > 2",
        ),
    ),
    m(
        "wt-call-bottom",
        "a call checks the bottom card instead of the top one (W4)",
        (WT + "state.py", "bluff = cards[-1][0] != tile", "bluff = cards[0][0] != tile"),
    ),
    m(
        "wt-three-tokens",
        "three tokens win (W5)",
        (WT + "cards.py", "TOKENS_TO_WIN = 4", "TOKENS_TO_WIN = 3"),
    ),
    m(
        "wt-true-last-card",
        "a true last card that is called does not end the game (W5)",
        (WT + "state.py", "        last_card = self.last_card\n", "        last_card = False\n"),
    ),
    m(
        "wt-turn-after-call",
        "after a call the turn passes from the player called, not the caller (W4)",
        (
            WT + "state.py",
            "        self.turn = (seat + 1) % self.players\n        return events\n\n"
            "    def _spell",
            "        self.turn = (player + 1) % self.players\n        return events\n\n"
            "    def _spell",
        ),
    ),
    m(
        "wt-no-wrap",
        "eagle and coyote are not neighbours (W2)",
        (
            WT + "cards.py",
            "return ((tile - 1) % 6, (tile + 1) % 6)",
            "return (max(tile - 1, 0), min(tile + 1, 5))",
        ),
    ),
    m(
        "wt-deck-four",
        "4 players get all 6 of each kind (W1)",
        (
            WT + "cards.py",
            "return {3: 4, 4: 5}.get(players, 6)",
            "return {3: 4, 4: 6}.get(players, 6)",
        ),
    ),
    m(
        "wt-deal-from-0",
        "the deal starts at seat 0 whoever the first player is (W3)",
        (
            WT + "state.py",
            "seat = (self.options.first_player + self._deal_next) % self.players",
            "seat = self._deal_next % self.players",
        ),
    ),
    m(
        "wt-call-after-spell",
        "a call is allowed right after a spell (W4)",
        (
            WT + "state.py",
            "        self.last_play = None\n        if success and self._gain_token",
            "        if success and self._gain_token",
        ),
    ),
    m(
        "wt-accept-winner",
        "accept makes the accepting player win (W5)",
        (WT + "state.py", "        winner = self.last_play[0]\n", "        winner = seat\n"),
    ),
    # --- kernel -------------------------------------------------------------------------------
    m(
        "k-format-true",
        'a record with "format": true is accepted',
        (
            K + "records.py",
            'if not _is_int(data["format"]) or data["format"] != FORMAT:',
            'if data["format"] != FORMAT:',
        ),
    ),
    m(
        "k-bool-seat",
        "booleans are taken for whole numbers in records (true is seat 1)",
        (
            K + "records.py",
            "return isinstance(value, int) and not isinstance(value, bool)",
            "return isinstance(value, int)",
        ),
    ),
    m(
        "k-no-shuffle",
        "a sampled shuffle never shuffles",
        (K + "chance.py", "            rng.shuffle(order)\n", ""),
    ),
    m(
        "k-permutation-set",
        "a shuffle is checked as a set, not a multiset",
        (K + "chance.py", "    if got == want:\n", "    if set(got) == set(want):\n"),
    ),
    m(
        "k-draw-none-left",
        "a draw of an item none of which is left is accepted",
        (
            K + "chance.py",
            "            if i is not None and self._numbers[i]:",
            "            if i is not None:",
        ),
    ),
    m(
        "k-any-seat",
        "a move made for a seat whose turn it is not is accepted",
        (
            K + "state.py",
            "        if seat is not None and seat != who:",
            "        if seat is not None and seat != who and False:",
        ),
    ),
    m(
        "k-loose-options",
        "options take loose types (true for a number, '3' for 3)",
        (
            K + "options.py",
            'model_config = ConfigDict(extra="forbid", strict=True, frozen=True)',
            'model_config = ConfigDict(extra="forbid", strict=False, frozen=True)',
        ),
    ),
    m(
        "k-shuffle-extra-keys",
        "a shuffle entry may carry unknown keys",
        (K + "records.py", '            _exact_keys(raw, {"chance", "order"})\n', ""),
    ),
    m(
        "k-player-range",
        "a record entry for a seat beyond the table is played for the seat to move",
        (
            K + "records.py",
            "        if not 0 <= move.seat < state.players:",
            "        if move.seat < 0:",
        ),
    ),
]


def copy_repository(into: Path) -> None:
    for name in ("src", "tests", "docs"):
        shutil.copytree(
            ROOT / name, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
    for name in ("pyproject.toml", "README.md", "Makefile"):
        shutil.copy2(ROOT / name, into / name)
    (into / "conftest.py").write_text(CONFTEST)


def apply(copy: Path, mutation: Mutation) -> dict[Path, str]:
    """Edit the copy; the original text of every file touched, to put back."""
    originals: dict[Path, str] = {}
    for file, old, new in mutation.edits:
        path = copy / file
        current = path.read_text()
        originals.setdefault(path, current)
        if current.count(old) != 1:
            raise SystemExit(f"{mutation.name}: the text to mutate is not found once in {file}")
        path.write_text(current.replace(old, new))
    return originals


def run_tests(copy: Path, tests: list[str], timeout: float) -> tuple[str, float, str]:
    """'killed', 'survived' or 'timeout', the seconds taken, and the first failing test."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(copy / "src"), str(copy)])
    env.pop("CAMPFIRE_SCREENSHOTS", None)
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "--no-header",
        "-rf",
        *tests,
    ]
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - started, ""
    seconds = time.perf_counter() - started
    if done.returncode == 0:
        return "survived", seconds, ""
    failed = next(
        (line.split()[1] for line in done.stdout.splitlines() if line.startswith("FAILED ")), ""
    )
    if not failed:  # an error while collecting: the mutant does not even import
        failed = next((line for line in done.stdout.splitlines() if "Error" in line), "error")
    return "killed", seconds, failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="run the mutations whose name starts so")
    parser.add_argument("--list", action="store_true", help="list the mutations and stop")
    parser.add_argument("--suite", choices=sorted(SUITES), default="rules")
    parser.add_argument("--baseline", action="store_true", help="first run the unmutated suite")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per mutation")
    args = parser.parse_args()
    chosen = [mu for mu in MUTATIONS if mu.name.startswith(args.only)]
    if args.list:
        for mu in chosen:
            print(f"{mu.name:26} {mu.what}")
        return
    tests = SUITES[args.suite]
    # stopped by its process id: end the test run and remove the copy, as on Ctrl-C
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(f"suite {args.suite!r}: {' '.join(tests)}", flush=True)
    fates: dict[str, list[Mutation]] = {"killed": [], "survived": [], "timeout": []}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="campfire-mutations-") as folder:
        copy = Path(folder)
        copy_repository(copy)
        if args.baseline:
            baseline, seconds, failed = run_tests(copy, tests, args.timeout)
            if baseline != "survived":
                raise SystemExit(f"the unmutated suite does not pass ({baseline}: {failed})")
            print(f"unmutated: the suite passes in {seconds:.0f} s", flush=True)
        for mu in chosen:
            originals = apply(copy, mu)
            try:
                fate, seconds, failed = run_tests(copy, tests, args.timeout)
            finally:
                for path, text in originals.items():
                    path.write_text(text)
            fates[fate].append(mu)
            by = f" by {failed}" if failed else ""
            print(f"{fate:8} {seconds:5.0f} s  {mu.name:26} {mu.what}{by}", flush=True)
    decided = len(fates["killed"]) + len(fates["survived"])
    rate = len(fates["killed"]) / decided if decided else 0.0
    print()
    print(
        f"mutations: {len(chosen)}, killed: {len(fates['killed'])}, "
        f"survived: {len(fates['survived'])}, undecided (over {args.timeout:.0f} s): "
        f"{len(fates['timeout'])}; {time.perf_counter() - started:.0f} s in all"
    )
    print(f"kill rate: {rate:.1%} of those decided (reference: the target of {TARGET:.0%})")
    print("survivors: " + (", ".join(mu.name for mu in fates["survived"]) or "none"))
    for mu in fates["survived"]:
        print(f"  {mu.name}: {mu.what}")
    for mu in fates["timeout"]:
        print(f"  undecided: {mu.name}: {mu.what}")


if __name__ == "__main__":
    main()
