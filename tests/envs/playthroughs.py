"""The OpenSpiel playthroughs checked in under tests/data/playthroughs, made with OpenSpiel's
own tool (`open_spiel.python.algorithms.generate_playthrough`).

    PYTHONPATH=src python -m tests.envs.playthroughs   # writes them again

Each file is the playthrough of one configuration with seed 1; the full games' are gzipped
(their information-state tensors make megabytes of text)."""

from __future__ import annotations

import gzip
from pathlib import Path

from absl import flags

import campfire.envs.openspiel  # noqa: F401  (registers the games)

FOLDER = Path(__file__).resolve().parents[1] / "data" / "playthroughs"
SEED = 1
#: file name: game string (the default games, the variants the solver uses, a larger variant)
CONFIGS: dict[str, str] = {
    "powwow.txt.gz": "python_campfire_powwow",
    "powwow_tomahawks_3p.txt.gz": "python_campfire_powwow(players=3,tomahawks=True,buzzards=1)",
    "powwow_small.txt": (
        "python_campfire_powwow(players=2,buzzards=1,feathers=1 2 3,guess_min=1,guess_max=6,"
        "max_guesses=3)"
    ),
    "powwow_variant.txt": (
        "python_campfire_powwow(players=3,buzzards=1,feathers=1 2 3 4 5 x2 max0,guess_min=0,"
        "guess_max=15,max_guesses=4)"
    ),
    "wakatanka.txt.gz": "python_campfire_wakatanka",
    "wakatanka_small.txt": (
        "python_campfire_wakatanka(players=3,animals=3,cards=1,tokens_to_win=1,max_turns=6)"
    ),
    "wakatanka_variant.txt": (
        "python_campfire_wakatanka(players=3,animals=4,cards=2,tokens_to_win=2,max_turns=30)"
    ),
}


def parse_flags() -> None:
    """OpenSpiel's tool reads one absl flag (its default: actions by number)."""
    if not flags.FLAGS.is_parsed():
        flags.FLAGS(["playthrough"], known_only=True)


def generate(game_string: str) -> str:
    """The playthrough as OpenSpiel's tool writes it."""
    parse_flags()
    from open_spiel.python.algorithms import generate_playthrough

    text: str = generate_playthrough.playthrough(game_string, None, seed=SEED)
    return text


def read(name: str) -> str:
    path = FOLDER / name
    if name.endswith(".gz"):
        return gzip.decompress(path.read_bytes()).decode()
    return path.read_text(encoding="utf-8")


def write(name: str, text: str) -> None:
    path = FOLDER / name
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    FOLDER.mkdir(parents=True, exist_ok=True)
    for file_name, game in CONFIGS.items():
        write(file_name, generate(game))
        print(file_name)
