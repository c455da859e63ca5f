"""Helpers for the training tests: small random policies, and the `wasteland` command run
in this process (so torch and the bestiary are imported once for the whole module)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from wasteland.agents.policy import FORMAT, Policy, action_hash, observation_hash
from wasteland.observe.encoding import OBS_SIZE
from wasteland.rules.actions import N_ACTIONS


def random_policy(name: str = "tiny", ruleset: str = "pnp",
                  creatures: tuple[str, ...] = ("radscorpion", "young_radscorpion",
                                                "giant_radscorpion"),
                  hidden: tuple[int, ...] = (16, 8), activation: str = "tanh",
                  seed: int = 0) -> Policy:
    """A policy with random weights, shaped like an exported one (float32 values)."""
    rng = np.random.default_rng(seed)
    widths = [OBS_SIZE, *hidden, N_ACTIONS]
    weights = [rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32).astype(np.float64)
               for a, b in zip(widths, widths[1:])]
    biases = [rng.normal(0, 0.1, b).astype(np.float32).astype(np.float64) for b in widths[1:]]
    manifest = {"format": FORMAT, "name": name, "ruleset": ruleset, "creatures": list(creatures),
                "observation_hash": observation_hash(), "action_hash": action_hash(),
                "layers": len(weights), "activation": activation, "network": list(hidden)}
    return Policy(name, manifest, weights, biases, activation, frozenset(creatures))


@dataclass
class Result:
    code: int
    out: str
    err: str


def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
        ) -> Result:
    """``wasteland ARGS`` through the real entry point (main(): one-line errors, exit codes),
    in this process."""
    from wasteland.cli.main import main

    capsys.readouterr()
    monkeypatch.setattr(sys, "argv", ["wasteland", *args])
    code = 0
    try:
        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    got = capsys.readouterr()
    return Result(code, got.out, got.err)


def one_line_error(r: Result, *fragments: str) -> None:
    assert r.code == 2, (r.code, r.out, r.err)
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert "Traceback" not in r.err
    for f in fragments:
        assert f in r.err, (f, r.err)


def policy_arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


# `wasteland train` flags for a run of 1,024 steps on the smallest network with one quick
# evaluation: for tests of what a training run does with one config field
TINY_TRAIN = ("--set", "imitation.decisions=200", "--set", "imitation.epochs=2",
              "--set", "steps=1024", "--set", "ppo.n_steps=128", "--set", "n_envs=2",
              "--set", "vec_env=dummy", "--set", "ppo.batch_size=64",
              "--set", "network=[16,16]", "--set", "evaluation.every=1024",
              "--set", "evaluation.fights=2", "--no-progress")


def tb_scalars(run: Path, tag: str) -> list[float]:
    """The values a run logged to TensorBoard under ``tag``, in order."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = list((run / "tb").rglob("events.out.tfevents.*"))
    assert events, "no TensorBoard log"
    acc = EventAccumulator(str(events[0].parent))
    acc.Reload()
    return [e.value for e in acc.Scalars(tag)]
