"""`simulate --from SAVE` and the copies it plays: the rest of a saved fight, each
continuation with its own dice, the same numbers for any number of processes, and the
battle it starts from untouched."""

from __future__ import annotations

import json

import pytest

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import load_scenario
from wasteland.rules import saves
from wasteland.rules.rulesets import get_ruleset
from wasteland.sim.branch import branch, fight_from, from_spec
from wasteland.sim.runner import run
from wasteland.sim.simulate import simulate

from .kit import cli


def mid_fight(ruleset: str = "pnp", decisions: int = 60, scenario: str = "ruined_street"):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), 3)
    agents = [make_agent("packet", 3), make_agent("packet", 4)]
    for _ in range(decisions):
        v = view_of(rs, b)
        rs.apply(b, agents[b.combatants[v.decision.combatant].side].act(v))
    assert not b.over
    return b


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_a_branch_is_the_same_state_with_other_dice_and_leaves_the_battle_alone(ruleset):
    b = mid_fight(ruleset)
    before = json.dumps(saves.to_dict(b))
    c = branch(b, 11)
    mine, theirs = c.state(), b.state()
    assert mine.pop("rng") != theirs.pop("rng")
    assert mine == theirs
    assert c.quiet and not c.keep_log and c.dice_hook is None and c.log == []
    spec = from_spec(b, None, 0)
    records = [fight_from(get_ruleset(ruleset), spec, s) for s in range(6)]
    assert len({(r.winner, r.rounds, r.decisions) for r in records}) > 1  # they differ
    assert json.dumps(saves.to_dict(b)) == before
    again = [fight_from(get_ruleset(ruleset), spec, s) for s in range(6)]
    assert again == records  # and each depends on its seed only


def test_one_two_and_four_processes_give_the_same_continuations():
    spec = from_spec(mid_fight("f2d20", 30), None, 0)
    one = list(run(spec, fight_from, 5, 8, 1))
    assert list(run(spec, fight_from, 5, 8, 2)) == one
    assert list(run(spec, fight_from, 5, 8, 4)) == one
    reports = [simulate(spec, 8, 5, jobs, fn=fight_from).report() for jobs in (1, 2)]
    assert reports[0] == reports[1]


def test_what_happened_before_the_moment_is_not_counted():
    """kat is down when the save is made: she does not go down again from here, and the
    HP she lost before is not lost here; rounds count past the saved one."""
    b = mid_fight("pnp", 60)
    kat = b.by_id("kat")
    assert kat.status != "active"
    spec = from_spec(b, None, 0)
    rs = get_ruleset("pnp")
    for s in range(5):
        r = fight_from(rs, spec, s)
        m = r.members[spec.party_ids.index("kat")]
        assert not m.went_down and m.hp_lost == 0 and not m.died
        assert r.rounds == branch_end_round(b, s, spec) - b.round


def branch_end_round(b, seed, spec):
    from wasteland.sim.fight import play_out

    c = branch(b, seed)
    play_out(get_ruleset(b.ruleset), c, spec.agents, 0, seed)
    return c.round


def test_simulate_from_a_save(capsys, monkeypatch, tmp_path):
    path = tmp_path / "mid.json"
    saves.save(mid_fight("pnp", 60), path)
    code, out, err = cli(capsys, monkeypatch, "simulate", "--from", str(path), "-n", "12",
                         "--jobs", "2", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["from"] == {"save": str(path), "round": 5, "decides": "raider_1"}
    assert d["fights"] == 12 and d["agents"] == {"Party": "packet", "Raiders": "packet"}
    assert [m["id"] for m in d["members"]] == ["kat", "drifter", "val", "ted"]
    assert d["members"][0]["down"]["count"] == 0
    code, text, err = cli(capsys, monkeypatch, "simulate", "--from", str(path), "-n", "12",
                          "--jobs", "1")
    assert code == 0, err
    assert f"from {path}, round 5, raider_1 to decide" in text
    assert text.rstrip().splitlines()[-1].startswith(d["verdict"] + ": the party wins")


def test_the_side_of_a_play_save_is_the_people_s(tmp_path):
    import io

    from rich.console import Console

    from wasteland.cli.play import GameSetup, start
    from wasteland.sim.branch import party_side

    con = Console(file=io.StringIO())
    start(GameSetup("pnp", "duel", "Radscorpion", 2, save_to=tmp_path / "p.json"), con,
          iter(["1", "quit"]))
    b = saves.load(tmp_path / "p.json")
    assert party_side(b, None) == 1 and party_side(b, "Vault") == 0


@pytest.mark.parametrize(("args", "answer"), [
    (["--scenario", "duel"], "--from continues the saved fight; it takes no --scenario"),
    (["--enemies", "raider"], "it takes no --enemies"),
    (["--agents", "packet,packet,packet"], "--agents names 3 agents; the fight has 2 sides"),
    (["--agents", "robot"], "unknown agent 'robot'"),
    (["--side", "Martians"], "unknown side 'Martians'"),
    (["-n", "0"], "-n must be 1 to"),
])
def test_bad_input_is_one_line(capsys, monkeypatch, tmp_path, args, answer):
    path = tmp_path / "mid.json"
    saves.save(mid_fight("pnp", 20), path)
    code, out, err = cli(capsys, monkeypatch, "simulate", "--from", str(path), *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and answer in err, err


def test_a_missing_damaged_or_finished_save_is_one_line(capsys, monkeypatch, tmp_path):
    rs = get_ruleset("pnp")
    done = rs.new_battle(load_scenario("duel"), 1)
    agents = [make_agent("packet", 1), make_agent("packet", 2)]
    while not done.over:
        v = view_of(rs, done)
        rs.apply(done, agents[done.combatants[v.decision.combatant].side].act(v))
    saves.save(done, tmp_path / "done.json")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    for name, answer in (("nothere.json", "No such file"), ("bad.json", "not JSON"),
                         ("done.json", "the fight is over (")):
        code, out, err = cli(capsys, monkeypatch, "simulate", "--from", str(tmp_path / name))
        assert code == 2 and len(err.splitlines()) == 1 and answer in err, err
