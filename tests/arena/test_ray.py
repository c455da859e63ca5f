"""`evaluate --backend ray`: the same games, the same numbers as the local backend, on
the local Ray instance of 2 CPUs that the simulation's Ray tests start (its files under
pytest's tmp folder)."""

from __future__ import annotations

import pytest

from wasteland.arena.report import report

from .kit import played, small

pytest.importorskip("ray")

from tests.sim import test_ray as sim_ray  # noqa: E402

# the simulation's fixture, not a copy: a local instance set up and checked the same way
backend = sim_ray.backend


def test_ray_plays_the_local_games(backend):
    f = small("random,scripted,packet", n=3, seed=21, rulesets="pnp,f2d20")
    here = played(f, jobs=1)
    there = played(f, backend=backend)
    assert there.fought == here.fought == 36
    assert there.games == here.games
    assert report(there) == report(here)


def test_the_command_on_ray_prints_the_local_numbers(backend, capsys, monkeypatch):
    import json

    from tests.sim.kit import cli

    args = ("evaluate", "--agents", "random,packet", "--scenarios", "duel", "--rulesets",
            "simple", "-n", "3", "--json", "--no-cache")
    code, out, err = cli(capsys, monkeypatch, *args, "--jobs", "1")
    assert code == 0, err
    local = json.loads(out)
    code, out, err = cli(capsys, monkeypatch, *args, "--backend", "ray")
    assert code == 0, err
    there = json.loads(out)
    assert (local["backend"], there["backend"], there["jobs"]) == ("local", "ray", None)
    for r in (local, there):
        for k in ("seconds", "jobs", "backend"):
            r.pop(k)
    assert there == local and local["games"] == 6
