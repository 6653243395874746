"""`--ray`: arena and simulate spread their games over a Ray cluster (here a local Ray instance
of one CPU, started once for the module) with exactly the results of a local run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
import typer
from typer.testing import CliRunner

from campfire.bots.arena import run_arena
from campfire.cli import arena, simulate
from tests.cli.conftest import Run


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, _node_ip_address="127.0.0.1")
    yield
    ray.shutdown()


def results(report: dict[str, Any]) -> dict[str, Any]:
    """The report without its timings (which no two runs share)."""
    report = {k: v for k, v in report.items() if k != "seconds"}
    report["bots"] = {
        name: {k: v for k, v in row.items() if k != "ms_per_decision"}
        for name, row in report["bots"].items()
    }
    return report


def test_the_arena_on_ray_reports_what_a_local_run_reports(local_ray: None) -> None:
    lineup = ["easy", "random", "random"]
    here = run_arena("wakatanka", 3, lineup, 20, 5, jobs=1)
    spread = run_arena("wakatanka", 3, lineup, 20, 5, ray="local")
    assert spread.games == 20
    assert results(spread.to_json()) == results(here.to_json())
    assert sum(bot.games for bot in spread.bots.values()) == 60


def test_simulate_on_ray_plays_the_same_games(local_ray: None, tmp_path: Path) -> None:
    app = typer.Typer()  # the two commands, in this process: it has Ray open already
    arena.register(app)
    simulate.register(app)
    runner = CliRunner()
    common = ["simulate", "powwow", "--players", "3", "--games", "18", "--seed", "3", "--json"]
    here = runner.invoke(app, [*common, "--records", str(tmp_path / "here")])
    spread = runner.invoke(app, [*common, "--records", str(tmp_path / "ray"), "--ray", "local"])
    assert here.exit_code == 0 and spread.exit_code == 0, spread.output
    a, b = json.loads(here.stdout), json.loads(spread.stdout)
    for key in ("wins", "moves", "rounds"):
        assert a[key] == b[key]
    files = sorted(p.name for p in (tmp_path / "here").glob("*.json"))
    assert len(files) == 18
    assert files == sorted(p.name for p in (tmp_path / "ray").glob("*.json"))
    for name in files:
        assert (tmp_path / "here" / name).read_text() == (tmp_path / "ray" / name).read_text()


@pytest.mark.parametrize("command", ["arena", "simulate"])
def test_a_bad_ray_address_is_refused_in_one_line(campfire: Run, command: str) -> None:
    result = campfire(command, "powwow", "--games", "2", "--ray", "nowhere")
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "campfire: --ray takes local, auto, HOST:PORT or ray://HOST:PORT, not 'nowhere'"
    )
