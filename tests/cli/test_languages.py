"""The commands in French, German, Italian and Spanish: `--lang` (else LC_ALL/LANG) tells each
command's errors and its words for people in that language; the JSON stays the same."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from campfire.i18n import translator
from campfire.kernel import Record

EXAMPLES = Path(__file__).parent.parent / "data" / "records"
POWWOW = EXAMPLES / "powwow-basic-4p.json"


def campfire(
    *args: str, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command, in a subprocess whose locale variables say English unless `env`
    says otherwise (so that the tester's own LANG does not leak in)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    environ["COLUMNS"] = "200"  # Rich's tables unwrapped
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "campfire", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=environ,
    )


def cut(tmp_path: Path, entries: int) -> Path:
    """The basic 4-player Pow Wow example, cut short in its first round."""
    record = Record.load(POWWOW)
    record.moves = record.moves[:entries]
    path = tmp_path / "cut.json"
    record.save(path)
    return path


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single line of a refusal (status 2, nothing on standard output, no traceback)."""
    assert result.returncode == 2, result
    assert result.stdout == "" and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


#: (command line, the catalogue message it is refused with): one refusal of each command
REFUSALS = [
    (["simulate", "powwow", "--games", "0"], "--games must be at least 1"),
    (["simulate", "powwow", "--option", "buzzards=0"], "option {name}: {reason}, got {value}"),
    (
        ["simulate", "powwow", "--option", "buzzards=0"],
        "input should be greater than or equal to {ge}",
    ),
    (["simulate", "chess"], "unknown game {name} (games: {games})"),
    (["arena", "powwow", "--jobs", "0", "--games", "1"], "--jobs must be at least 1"),
    (
        ["arena", "powwow", "--bots", "genius"],
        "unknown bot level {level} for {game} (levels: {levels} or module:factory for a bot"
        " of your own)",
    ),
    (["replay", "{tmp}/missing.json"], "cannot read {file}: {reason}"),
    (["replay", "{tmp}"], "cannot read {file}: {reason}"),
    (
        ["odds", str(EXAMPLES / "wakatanka-4p.json"), "--seat", "0"],
        "odds are for Pow Wow records; {file} is a {game} game",
    ),
    (["odds", "{cut}", "--seat", "0", "--around", "-1"], "--around must be 0 or more"),
    (["odds", "{cut}", "--seat", "7"], "there is no seat {seat} with {n} players"),
    (["review", "{tmp}/missing.json"], "cannot read {file}: no such file or folder"),
    (
        ["review", "{cut}"],
        "the game is not finished after {entries} entries: only a finished game can be reviewed",
    ),
    (["play", "powwow", "--seat", "9"], "there is no seat {seat} with {n} players"),
]


def pattern(lang: str, message: str) -> re.Pattern[str]:
    """`message` in `lang` with anything in place of its placeholders."""
    told = translator(lang).gettext(message)
    return re.compile(".+".join(re.escape(part) for part in re.split(r"\{\w+\}", told)))


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize(("args", "message"), REFUSALS)
def test_each_commands_refusal_is_told_in_the_language(
    tmp_path: Path, lang: str, args: list[str], message: str
) -> None:
    given = [
        a.replace("{tmp}", str(tmp_path)).replace("{cut}", str(cut(tmp_path, 3))) for a in args
    ]
    english = one_line(campfire(*given))
    told = one_line(campfire(*given, "--lang", lang))
    assert english.startswith("campfire: ") and told.startswith("campfire: ")
    assert pattern("en", message).search(english), english  # the case refuses what it says
    assert pattern(lang, message).search(told), told
    assert not pattern("en", message).search(told), told
    assert told != english


def test_the_language_comes_from_lang_when_no_flag_says_it(tmp_path: Path) -> None:
    told = one_line(campfire("simulate", "powwow", "--games", "0", env={"LANG": "de_DE.UTF-8"}))
    assert told == "campfire: --games muss mindestens 1 sein"
    told = one_line(
        campfire("simulate", "powwow", "--games", "0", env={"LC_ALL": "fr_FR.UTF-8", "LANG": "de"})
    )
    assert told == "campfire: --games doit valoir au moins 1"
    # the flag wins over the environment
    told = one_line(
        campfire("simulate", "powwow", "--games", "0", "--lang", "it", env={"LANG": "de_DE"})
    )
    assert told == "campfire: --games deve essere almeno 1"


def test_a_language_not_offered_is_refused_with_the_languages_there_are() -> None:
    for command in (["simulate", "powwow"], ["replay", str(POWWOW)], ["review", str(POWWOW)]):
        told = one_line(campfire(*command, "--lang", "tlh"))
        assert told == "campfire: --lang 'tlh': the languages are en, fr, de, it, es"
    told = one_line(campfire("replay", str(POWWOW), "--lang", "tlh", env={"LANG": "es_ES"}))
    assert told == "campfire: --lang 'tlh': los idiomas son en, fr, de, it, es"


def test_a_refused_record_entry_is_told_in_the_language(tmp_path: Path) -> None:
    doc = json.loads(POWWOW.read_text())
    doc["moves"][1] = {"player": 4, "action": "guess", "value": 3}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    english = one_line(campfire("replay", str(path)))
    assert english.endswith("there is no seat 4 in a 4-player game")
    german = one_line(campfire("replay", str(path), "--lang", "de"))
    assert german.startswith('campfire: Eintrag 1 {"player": 4')
    assert german.endswith("in einer Partie mit 4 Spielern gibt es keinen Platz 4")


def test_replay_json_is_the_same_in_every_language() -> None:
    english = campfire("replay", str(POWWOW), "--json")
    assert english.returncode == 0, english.stderr
    for lang in ("fr", "de"):
        told = campfire("replay", str(POWWOW), "--json", "--lang", lang)
        assert told.returncode == 0 and told.stderr == ""
        assert told.stdout == english.stdout
    told = campfire("replay", str(POWWOW), "--json", env={"LANG": "it_IT.UTF-8"})
    assert told.stdout == english.stdout


def test_replay_narrates_in_the_language() -> None:
    result = campfire("replay", str(POWWOW), "--lang", "fr")
    assert result.returncode == 0, result.stderr
    winners = json.loads((EXAMPLES / "powwow-basic-4p.expected.json").read_text())["winners"]
    assert result.stdout.startswith("Pow Wow, 4 joueurs, options ")
    assert "Terminée après 40 entrées." in result.stdout
    assert f"Gagnant : place {winners[0]}." in result.stdout
    for english in ("Finished after", "Winner", "players, options", "Round "):
        assert english not in result.stdout


def test_simulate_and_arena_tables_in_the_language() -> None:
    result = campfire("simulate", "powwow", "--games", "2", "--lang", "de")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Pow Wow: 2 Partien, 4 Spieler" in out and "Siegquote" in out
    assert "Züge pro Partie: " in out and "Runden pro Partie: " in out and "Partien/s" in out
    assert "win rate" not in out and "games/s" not in out and "per game" not in out
    result = campfire("arena", "powwow", "--games", "4", "--jobs", "1", "--lang", "es")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Pow Wow: 4 partidas, 4 jugadores" in out and "tasa de victoria" in out
    assert "Paridad 25,0\xa0%" in out and "Alineación medium,medium,medium,medium" in out
    assert "Parity" not in out and "win rate" not in out


def test_odds_coach_in_german(tmp_path: Path) -> None:
    result = campfire("odds", str(cut(tmp_path, 3)), "--seat", "1", "--lang", "de")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Platz 1, Runde 1: deine Feder ist ungesehen; die erwartete Summe ist " in out
    assert "P(Summe ≥ Tipp)" in out and "← aktuell" in out
    assert "Was das Bieten über deine eigenen Federn sagt: erwartete Summe " in out
    assert "Deine Federn, die wahrscheinlichsten zuerst: " in out
    for english in ("Seat 1", "expected total", "standing", "guess", "bidding", "likely"):
        assert english not in out
    json_en = campfire("odds", str(cut(tmp_path, 3)), "--seat", "1", "--json")
    json_de = campfire("odds", str(cut(tmp_path, 3)), "--seat", "1", "--json", "--lang", "de")
    assert json_de.stdout == json_en.stdout  # the data is language-free


def test_the_terminal_coach_speaks_the_games_language() -> None:
    result = campfire(
        *("play", "powwow", "--bots", "medium", "--seed", "3", "--lang", "de"),
        stdin="help\nodds\nodds 25\nodds jetzt\nquit\n",
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"odds \[TIPP\] +die Chancen der Summe", out)  # listed by help
    assert "Platz 0, Runde 1: deine Feder ist ungesehen" in out
    assert "25 ← gefragt" in out
    assert "'odds' nimmt nichts oder einen Tipp, wie in 'odds 25'" in out
    assert "What the bidding says" not in out and "the chances of the total" not in out


def test_review_in_the_language_and_its_json_unchanged() -> None:
    english = campfire("review", str(POWWOW), "--seat", "0", "--json")
    assert english.returncode == 0, english.stderr
    spanish = campfire("review", str(POWWOW), "--seat", "0", "--json", "--lang", "es")
    assert spanish.stdout == english.stdout  # the contract: its notes stay English
    words = campfire("review", str(POWWOW), "--seat", "0", "--lang", "es")
    assert words.returncode == 0, words.stderr
    doc = json.loads(english.stdout)
    assert words.stdout.startswith(f"Pow Wow, 4 jugadores: {POWWOW}")
    accuracy = translator("es").percent(doc["seats"]["0"]["accuracy"] / 100, 1)
    assert f"precisión {accuracy}" in words.stdout
    for d in doc["decisions"]:
        assert d["note"] not in words.stdout  # every note told in Spanish
    assert "accuracy" not in words.stdout and "better" not in words.stdout


def test_the_games_option_descriptions_are_in_the_catalogues() -> None:
    """The lobby shows each option's description through the page catalogue (`_()`)."""
    from campfire.games.powwow.options import PowwowOptions
    from campfire.games.wakatanka.options import WakatankaOptions

    for model in (PowwowOptions, WakatankaOptions):
        for name, field in model.model_fields.items():
            assert field.description, name
            for lang in ("fr", "de", "it", "es"):
                assert translator(lang).gettext(field.description) != field.description, name


def test_help_is_told_in_the_language_of_lang_or_the_environment() -> None:
    from campfire.cli import COMMAND_HELP, _register, app

    result = campfire("simulate", "--help", "--lang", "de")
    assert result.returncode == 0, result.stderr
    assert "Bot-Partien spielen und zusammenfassen" in result.stdout
    assert "wie viele Partien gespielt werden" in result.stdout
    assert "how many games to play" not in result.stdout
    result = campfire("--help", env={"LANG": "fr_FR.UTF-8"})
    assert "Pow Wow et Waka Tanka : jouer, rejouer, analyser, simuler." in result.stdout
    english = campfire("odds", "--help")
    assert "whose point of view" in english.stdout
    # every command's docstring (the help typer shows) is one of the marked messages
    import inspect

    import typer

    _register()
    command = typer.main.get_command(app)
    for name in ("play", "replay", "simulate", "arena", "odds", "review"):
        shown = inspect.cleandoc(command.commands[name].help or "")  # type: ignore[attr-defined]
        assert shown in COMMAND_HELP, name
        assert translator("it").gettext(shown) != shown, name
        for param in command.commands[name].params:  # type: ignore[attr-defined]
            said = getattr(param, "help", None)
            if said:
                assert translator("es").gettext(said) != said, (name, said)


@pytest.mark.parametrize(
    ("args", "env", "lang", "message", "values"),
    [
        (
            ["--port", "0", "--lang", "fr"],
            {},
            "fr",
            "--port must be between 1 and 65535, not {value}",
            {"value": 0},
        ),
        (
            ["--workers", "2"],
            {"LANG": "de_DE.UTF-8"},
            "de",
            "--workers above 1 needs --redis: the processes share tables through Redis",
            {},
        ),
        (
            ["--log-format", "xml", "--lang", "es"],
            {},
            "es",
            "--log-format must be one of {formats}, not {value}",
            {"formats": "text, json", "value": "'xml'"},
        ),
    ],
)
def test_serve_refuses_its_flags_in_the_language(
    args: list[str], env: dict[str, str], lang: str, message: str, values: dict[str, object]
) -> None:
    line = one_line(campfire("serve", *args, env=env))
    said = translator(lang).gettext(message, **values)
    assert line == f"campfire: {said}"
    assert said != message.format(**values)


def test_db_upgrade_tells_what_it_did_in_the_language(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'campfire.sqlite3'}"
    first = campfire("db", "upgrade", "--db", url, "--lang", "de")
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith("Datenbank von Revision keiner auf "), first.stdout
    again = campfire("db", "upgrade", "--db", url, env={"LC_ALL": "it_IT.UTF-8"})
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("il database è aggiornato (revisione "), again.stdout
    english = campfire("db", "upgrade", "--db", url)
    assert english.stdout.startswith("the database is up to date (revision "), english.stdout
    broken = campfire("db", "upgrade", "--db", "nosuch://x", "--lang", "fr")
    assert broken.returncode == 2
    assert broken.stderr.startswith(
        "campfire: impossible de mettre à jour la base de données 'nosuch://x' : "
    ), broken.stderr


def test_serve_and_db_upgrade_help_in_the_language() -> None:
    serve = campfire("serve", "--help", "--lang", "fr")
    assert serve.returncode == 0, serve.stderr
    said = " ".join(serve.stdout.split())  # the help is wrapped to the terminal
    assert "Servir le salon et les tables à http://HOST:PORT" in said
    assert "secondes qu'un bot attend avant de jouer" in said
    assert "seconds a bot waits" not in said
    upgrade = campfire("db", "upgrade", "--help", env={"LANG": "es_ES.UTF-8"})
    assert upgrade.returncode == 0, upgrade.stderr
    assert "Crea las tablas" in " ".join(upgrade.stdout.split())
