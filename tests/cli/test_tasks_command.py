"""`wasteland tasks` (issue 42, item 4): every registered task with its family, ruleset,
map, line-up and the packet's record there; filters; bad options are one line."""

from __future__ import annotations

import json

import gymnasium
import pytest

import wasteland.envs  # noqa: F401  (registers the tasks)
from tests.training.kit import cli, one_line_error


def test_it_lists_every_registered_task_with_the_packets_record(capsys, monkeypatch):
    r = cli(capsys, monkeypatch, "tasks")
    assert r.code == 0, r.err
    registered = sorted(k for k in gymnasium.registry if k.startswith("Wasteland/")
                        and k != "Wasteland/Combat-v0")
    listed = sorted(line.split()[0] for line in r.out.splitlines()
                    if line.startswith("Wasteland/"))
    assert listed == registered and len(listed) == 45
    assert "\n    Vault: brawler, vault_dweller | *Radscorpion: young_radscorpion, " \
           "radscorpion, radscorpion\n" in r.out
    duel = next(line for line in r.out.splitlines()
                if line.startswith("Wasteland/RadscorpionDuel-pnp-v0 "))
    assert duel.split()[1:6] == ["radscorpions", "pnp", "built-in", "duel", "49.6%"]
    assert duel.endswith("[47.5, 51.8] of 2,000")  # docs/seats.md's row
    assert r.out.rstrip().endswith("45 tasks; * marks the learner's side (a mirror: either, "
                                   "drawn at reset)")


def test_json_and_filters(capsys, monkeypatch):
    r = cli(capsys, monkeypatch, "tasks", "--family", "robots", "--ruleset", "F2D20",
            "--kind", "mirror", "--json")
    assert r.code == 0, r.err
    rows = json.loads(r.out)
    assert [x["id"] for x in rows] == ["Wasteland/RobotMirror-f2d20-v0"]
    row = rows[0]
    assert row["learner_side"] is None and row["lineup"][0]["creatures"] == ["sentry_bot"] * 2
    assert row["packet"]["fights"] == 2000 and len(row["definition_hash"]) == 16
    held = json.loads(cli(capsys, monkeypatch, "tasks", "--kind", "held-out", "--json").out)
    assert len(held) == 18 and {x["kind"] for x in held} == {"held-out"}


@pytest.mark.parametrize(("args", "fragment"), [
    (("--family", "dragons"), "--family: unknown family 'dragons'; known: radscorpions, "
                              "super_mutants, robots"),
    (("--ruleset", "gurps"), "--ruleset: unknown ruleset 'gurps'; known: pnp, simple, f2d20"),
    (("--kind", "x" * 500), "--kind: unknown kind 'xxxx"),
    (("--bogus",), "No such option: --bogus"),
])
def test_bad_options_are_one_line(capsys, monkeypatch, args, fragment):
    one_line_error(cli(capsys, monkeypatch, "tasks", *args), fragment)
