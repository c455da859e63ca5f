"""`wasteland simulate`: its JSON, its table and verdict line, and one line for every bad
input."""

from __future__ import annotations

import json
import os
import sys

import pytest

from wasteland.sim.verdict import VERDICTS

from .kit import cli, closet

REPORT_KEYS = {
    "ruleset", "scenario", "sides", "party_side", "agents", "seed", "seeds", "requested",
    "until_precision", "precision_reached", "win_interval_width", "interrupted", "verdict",
    "summary", "backend", "address",
    "fights", "outcome", "anyone_down", "anyone_dies", "lethal", "rounds", "decisions_mean",
    "party_hp_lost",
    "ammo_used_mean", "items_used_mean", "stimpaks_used_mean", "members", "thresholds",
    "jobs", "seconds",
}
MEMBER_KEYS = {"id", "creature", "down", "dies", "hp_lost", "hp_left", "ammo_used_mean",
               "items_used_mean"}
DIST_KEYS = {"n", "mean", "median", "p10", "p90", "min", "max", "histogram"}


def test_json_has_every_number(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "vault_corridor",
                         "-n", "20", "--seed", "4", "--jobs", "2", "--json")
    assert code == 0, err
    assert err == ""  # no progress bar with --json
    d = json.loads(out)
    assert set(d) == REPORT_KEYS
    assert d["fights"] == d["requested"] == 20 and d["seeds"] == [4, 23]
    assert d["agents"] == {"Vault": "packet", "Radscorpions": "packet"}
    assert d["party_side"] == "Vault" and d["jobs"] == 2
    assert d["backend"] == "local" and d["address"] is None
    assert set(d["outcome"]) == {"win", "loss", "draw"}
    assert sum(v["count"] for v in d["outcome"].values()) == 20
    assert set(d["outcome"]["win"]) == {"count", "rate", "ci"}
    assert set(d["rounds"]) == DIST_KEYS and set(d["party_hp_lost"]) == DIST_KEYS
    assert [m["creature"] for m in d["members"]] == ["vault_dweller", "brawler"]
    assert all(set(m) == MEMBER_KEYS for m in d["members"])
    assert d["until_precision"] is None and d["precision_reached"] is None
    assert d["interrupted"] is False
    assert d["summary"].startswith(d["verdict"] + ": the party wins ")


def test_the_table_ends_with_the_verdict_line(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "20",
                         "--jobs", "1")
    assert code == 0, err
    lines = out.rstrip().splitlines()
    assert lines[0].startswith("duel under pnp: Vault (packet) vs Radscorpion (packet); 20 "
                               "fights, seeds 0-19")
    assert any("Outcome" in ln for ln in lines) and any("ted (vault_dweller)" in ln for ln in lines)
    assert lines[-1].split(":")[0] in ("trivial", "easy", "medium", "hard", "deadly")
    assert "the party wins" in lines[-1] and lines[-1].endswith("rounds")


def test_party_and_enemies_with_counts(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "ruined_street",
                         "--party", "brawler,wastelander", "--enemies",
                         "3 radscorpion, super_mutant", "-n", "20", "--jobs", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert [(m["id"], m["creature"]) for m in d["members"]] == [
        ("brawler_0", "brawler"), ("wastelander_0", "wastelander")]
    assert d["fights"] == 20


def test_the_party_can_be_another_side(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "--side",
                         "Radscorpion", "-n", "20", "--jobs", "1", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["party_side"] == "Radscorpion"
    assert [m["creature"] for m in d["members"]] == ["young_radscorpion"]
    code, out2, _ = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "20",
                        "--jobs", "1", "--json")
    vault = json.loads(out2)["outcome"]
    assert d["outcome"]["win"]["count"] == vault["loss"]["count"]
    assert d["outcome"]["draw"]["count"] == vault["draw"]["count"]


def test_ctrl_c_prints_the_fights_so_far_and_exits_130(capsys, monkeypatch):
    """The fights tallied before Ctrl-C are seeds 0..k-1, a run of their own."""
    import wasteland.sim.simulate as sim

    real = sim.run_fights

    def stopped(spec, seed, n, jobs=1, backend=None):
        for i, r in enumerate(real(spec, seed, n, jobs, backend)):
            if i == 7:
                raise KeyboardInterrupt
            yield r

    monkeypatch.setattr(sim, "run_fights", stopped)
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "50",
                         "--jobs", "1", "--json")
    assert code == 130 and err == "interrupted after 7 fights\n"
    d = json.loads(out)
    assert d["interrupted"] is True and d["fights"] == 7 and d["seeds"] == [0, 6]
    monkeypatch.setattr(sim, "run_fights", real)
    code, out2, _ = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "7",
                        "--jobs", "1", "--json")
    assert json.loads(out2)["outcome"] == d["outcome"]


def test_the_progress_bar_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "20",
                         "--jobs", "2")
    assert code == 0
    assert out.rstrip().splitlines()[-1].split(":")[0] in VERDICTS


def test_until_precision_says_when_the_cap_was_hit(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "50",
                         "--until-precision", "0.01", "--jobs", "1")
    assert code == 0, err
    assert "the cap of -n 50 fights was hit" in out


@pytest.mark.parametrize(("args", "answer"), [
    (["--enemies", "3 deathclaw"], "unknown creature 'deathclaw'; known: "),
    (["--party", "brawler,ghost"], "unknown creature 'ghost'; known: "),
    (["--scenario", "nowhere"], "unknown scenario 'nowhere'; built-in: "),
    (["--ruleset", "chess"], "unknown ruleset 'chess'; available: pnp, f2d20"),
    (["--agents", "packet,robot"], "unknown agent 'robot'; available: "),
    (["--agents", "packet,packet,packet"], "--agents names 3 agents; scenario 'vault_corridor' "
                                           "has 2 sides"),
    (["-n", "0"], "-n must be 1 to 1,000,000 fights, got 0"),
    (["-n", "-5"], "-n must be 1 to 1,000,000 fights, got -5"),
    (["-n", "1000001"], "-n must be 1 to 1,000,000 fights, got 1000001"),
    (["--jobs", "0"], "--jobs must be at least 1 process, got 0"),
    (["--until-precision", "0"], "--until-precision must be between 0 and 1"),
    (["--until-precision", "1"], "--until-precision must be between 0 and 1"),
    (["--until-precision", "-0.1"], "--until-precision must be between 0 and 1"),
    (["--side", "5"], "unknown side '5'; sides: 0 Vault, 1 Radscorpions"),
    (["--enemies", "0 radscorpion"], "--enemies: '0 radscorpion': a count from 1 to 10"),
    (["--enemies", "11 radscorpion"], "--enemies: '11 radscorpion': a count from 1 to 10"),
    (["--enemies", "two radscorpion"], "--enemies: 'two radscorpion' is not a creature id"),
    (["--enemies", "\u00b2 radscorpion"], "--enemies: '\u00b2 radscorpion': a count from 1 to 10"),
    (["--party", "6 brawler", "--enemies", "5 raider"], "at most 10"),
    (["--party", "3 brawler", "--scenario", "{tiny}"], "no free square left for brawler"),
    (["--seed", "9223372036854775807", "-n", "2"], "--seed: the fights use seeds"),
    (["-n", "many"], "error: Invalid value for '-n' / '--fights'"),
])
def test_bad_input_is_one_line(capsys, monkeypatch, tmp_path, args, answer):
    tiny = tmp_path / "closet.yaml"
    tiny.write_text(closet("brawler", "raider"), encoding="utf-8")
    args = [a.replace("{tiny}", str(tiny)) for a in args]
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", *args)
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("error: ") and answer in err, err


@pytest.mark.parametrize("mode", [
    ({"scenario": "duel", "side": "1"}, ["--scenario", "duel", "--side", "1"]),
    ({"scenario": "duel", "enemies": "radscorpion", "balance": "enemies", "target": "hard",
      "given": frozenset({"--target"})},
     ["--scenario", "duel", "--enemies", "radscorpion", "--balance", "enemies", "--target",
      "hard"]),
    ({"chain": "duel,vault_corridor"}, ["--chain", "duel,vault_corridor"]),
])
def test_the_request_is_answered_as_the_command_prints_it(capsys, monkeypatch, mode):
    from wasteland.sim.modes import answer
    from wasteland.sim.request import SimRequest

    def timeless(d):
        return {k: timeless(v) if isinstance(v, dict) else v for k, v in d.items()
                if k != "seconds"}

    fields, args = mode
    rep = answer(SimRequest(fights=8, jobs=1, **fields))
    code, out, _ = cli(capsys, monkeypatch, "simulate", *args, "-n", "8", "--jobs", "1", "--json")
    assert code == 0 and timeless(json.loads(out)) == timeless(json.loads(json.dumps(rep)))


def test_a_mode_refuses_what_it_has_no_use_for():
    from wasteland.rules.errors import WastelandError
    from wasteland.sim.modes import answer
    from wasteland.sim.request import SimRequest

    with pytest.raises(WastelandError, match="^--chain names the encounters; it takes no --plot$"):
        answer(SimRequest(chain="duel", plot="x.png", given=frozenset({"--plot"})))


def test_jobs_past_the_cores_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", "--jobs", "4")
    assert code == 2 and out == ""
    assert err == "error: --jobs must be at most 3, this machine's cores, got 4\n"
    code, out, err = cli(capsys, monkeypatch, "evaluate", "--agents", "random,packet", "-n", "1",
                         "--jobs", "4", "--no-cache")
    assert code == 2 and err == "error: --jobs must be at most 3, this machine's cores, got 4\n"


def test_counts_in_creature_lists_and_the_plain_lists_still_work():
    from wasteland.sim.encounter import creature_ids, encounter

    assert creature_ids("3 radscorpion, super_mutant", "--enemies") == [
        "radscorpion"] * 3 + ["super_mutant"]
    assert creature_ids(" brawler ,, wastelander", "--party") == ["brawler", "wastelander"]
    assert creature_ids("", "--party") == []
    sc, me = encounter("duel", "Vault", "brawler,wastelander", "super_mutant,2 raider")
    assert me == 0
    assert [p.creature for p in sc.sides[0].combatants] == ["brawler", "wastelander"]
    assert [p.creature for p in sc.sides[1].combatants] == ["super_mutant", "raider", "raider"]
    spots = [tuple(p.at) for s in sc.sides for p in s.combatants]
    assert len(set(spots)) == len(spots)
