"""`simulate --backend ray`: the same fights as Ray tasks, the same numbers as one local
process for every mode; a missing ray or a bad address is one line. One local Ray
instance with 2 CPUs serves the whole module, its files under pytest's tmp folder."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from wasteland.sim.branch import fight_from, from_spec
from wasteland.sim.chain import ChainTally, build_chain, fight_chain
from wasteland.sim.request import SimRequest
from wasteland.sim.runner import make_backend, run, run_fights
from wasteland.sim.simulate import CHECK_EVERY, simulate

from .kit import cli, spec
from .test_from import mid_fight

ray = pytest.importorskip("ray")

from wasteland.sim.ray_backend import (  # noqa: E402
    FIRST_BATCH,
    INSTALL,
    MAX_BATCH,
    RayBackend,
    batch_size,
    token_mode,
)

CHECKOUT = Path(__file__).resolve().parents[2]


def checkout_files() -> set[str]:
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                         cwd=CHECKOUT, capture_output=True, text=True, check=True).stdout
    return set(out.splitlines())


@pytest.fixture(scope="module")
def backend(tmp_path_factory):
    before = checkout_files()
    # a short path: Ray's sockets live under the temp dir and a Unix socket's path is
    # limited to about 100 characters
    temp = tmp_path_factory.mktemp("ray")
    # with Ray's default (token), a new instance writes a token to ~/.ray/auth_token
    mode = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False, _temp_dir=str(temp))
    yield RayBackend()
    ray.shutdown()
    if mode is None:
        del os.environ["RAY_AUTH_MODE"]
    else:
        os.environ["RAY_AUTH_MODE"] = mode
    assert checkout_files() == before, "Ray left files in the checkout"


def same_but_where(a: dict, b: dict) -> None:
    for r in (a, b):
        for k in ("seconds", "jobs", "backend", "address"):
            r.pop(k, None)
    assert a == b


def test_plain_fights_are_the_local_ones_in_seed_order(backend):
    s = spec("ruined_street", "pnp")
    here = list(run_fights(s, 3, 30, jobs=1))
    there = list(run_fights(s, 3, 30, backend=backend))
    assert [r.seed for r in there] == list(range(3, 33))
    assert there == here
    assert simulate(s, 30, 3, 1).report() == simulate(s, 30, 3, backend=backend).report()


def test_f2d20_and_a_saved_moment(backend):
    s = spec("desert_wash", "f2d20")
    assert list(run_fights(s, 0, 12, backend=backend)) == list(run_fights(s, 0, 12))
    b = mid_fight("pnp")
    fs = from_spec(b, None, 0)
    assert list(run(fs, fight_from, 5, 20, backend=backend)) == list(run(fs, fight_from, 5, 20))


def test_chains_are_the_local_ones(backend):
    cs = build_chain(SimRequest(chain="ruined_street,duel"))
    local = simulate(cs, 30, 0, 1, fn=fight_chain, tally=ChainTally(cs)).report()
    remote = simulate(cs, 30, 0, fn=fight_chain, tally=ChainTally(cs), backend=backend).report()
    assert remote == local


def test_until_precision_stops_at_the_same_fight(backend):
    from wasteland.sim.encounter import encounter

    sc, _ = encounter("ruined_street", "0", None, "young_radscorpion")
    s = type(spec())("pnp", sc, spec().agents, 0)
    sim = simulate(s, 1000, 0, until_precision=0.05, backend=backend)
    assert sim.tally.n == 2 * CHECK_EVERY and sim.precision_reached


@pytest.mark.parametrize("mode", [
    ["--scenario", "duel", "-n", "20"],
    ["--chain", "duel,vault_corridor", "-n", "10"],
    ["--scenario", "duel", "--enemies", "radscorpion", "--balance", "enemies", "--target",
     "hard", "-n", "10"],
])
def test_the_command_prints_the_local_numbers(backend, capsys, monkeypatch, mode):
    code, out, _ = cli(capsys, monkeypatch, "simulate", *mode, "--json", "--jobs", "1")
    assert code == 0
    code, there, err = cli(capsys, monkeypatch, "simulate", *mode, "--json", "--backend", "ray")
    assert code == 0 and err == ""
    remote = json.loads(there)
    assert remote["backend"] == "ray" and remote["jobs"] is None
    same_but_where(json.loads(out), remote)


def test_batches_are_about_a_tenth_of_a_second_and_spread_at_the_end():
    assert batch_size(None, 1000, 8) == FIRST_BATCH
    assert batch_size(0.009, 10_000, 8) == 11  # pnp ruined_street: 9 ms a fight
    assert batch_size(0.0015, 10_000, 8) == 67  # a duel
    assert batch_size(0.2, 10_000, 8) == 1
    assert batch_size(1e-7, 10**6, 8) == MAX_BATCH
    assert batch_size(0.001, 40, 8) == 5  # the last fights go to every CPU
    assert batch_size(0.001, 3, 8) == 1


@pytest.mark.parametrize(("args", "answer"), [
    (["--address", "127.0.0.1:1"], "error: --address 127.0.0.1:1: no Ray cluster reachable there"),
    (["--address", "no-such-host.invalid:6379"], "error: --address no-such-host.invalid:6379: "
                                                  "no Ray cluster reachable there"),
    (["--address", "head"], "error: --address must be HOST:PORT"),
    (["--jobs", "2"], "error: --jobs sizes the local pool"),
])
def test_bad_ray_input_is_one_line(backend, capsys, monkeypatch, args, answer):
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", "--backend", "ray", *args)
    assert code == 2 and out == ""
    assert err.startswith(answer) and err.count("\n") == 1, err


@pytest.mark.parametrize(("args", "answer"), [
    (["--backend", "spark"], "error: --backend must be one of local, ray, got 'spark'"),
    (["--address", "10.0.0.5:6379"], "error: --address names a Ray cluster; it needs --backend ray"),
])
def test_bad_backend_is_one_line(capsys, monkeypatch, args, answer):
    code, _, err = cli(capsys, monkeypatch, "simulate", "-n", "5", *args)
    assert code == 2 and err == answer + "\n"


def test_without_ray_installed_it_is_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # what find_spec and import see without it
    with pytest.raises(Exception, match="ray is not installed"):
        make_backend("ray")
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", "--backend", "ray")
    assert code == 2 and out == "" and err == f"error: {INSTALL}\n"


def test_the_command_does_not_import_ray():
    code = ("import sys; from wasteland.cli.main import app; import wasteland.cli.simulate, "
            "wasteland.sim.runner, wasteland.sim.simulate; print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=CHECKOUT).stdout
    assert out.strip() == "False"


def test_a_ray_token_on_this_machine_asks_for_token_auth(monkeypatch, tmp_path):
    for var in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    token_mode()
    assert "RAY_AUTH_MODE" not in os.environ
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("0" * 64)
    token_mode()
    assert os.environ["RAY_AUTH_MODE"] == "token"
