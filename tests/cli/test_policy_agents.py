"""Trained policies are agents like the others (issue 10, item 4): `fight --agents
policy:NAME`, `play --ai` and `gm --ai`, a scenario side's `agent`, the single-agent env's
opponents; saved and resumed with their random state; refused in one line when unknown
or trained for another observation table.

The policy is a tiny random network written to tmp_path in the shipped format."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from menus import last_menu
from rich.console import Console
from test_resume import cut as upto  # the answers after a resume, "quit" at a count

from wasteland.agents.policy import (
    FORMAT,
    OBSERVATION_VERSION,
    Policy,
    PolicyAgent,
    action_hash,
    observation_hash,
)
from wasteland.cli.fight import fight_on, new_fight, resumed_fight, save_fight
from wasteland.cli.game import npc_agents
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.cli.session import rng_snapshot
from wasteland.observe.encoding import OBS_SIZE
from wasteland.rules import saves
from wasteland.rules.actions import N_ACTIONS
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.training.export import write_policy

# NPCs whose packets call shots by coin flips, so a lost random state shows; a policy
# trained for raiders leaves the mr_handy to its fallback packet
SQUAD = "wastelander,brawler"
ENEMIES = "raider,mr_handy"


def make_policy(folder: Path, name: str = "tiny", ruleset: str = "pnp",
                creatures: tuple[str, ...] = (), seed: int = 0) -> Path:
    """NAME.npz + NAME.json in ``folder``: OBS_SIZE -> 8 -> N_ACTIONS, random weights."""
    rng = np.random.default_rng(seed)
    manifest = {"format": FORMAT, "name": name, "ruleset": ruleset, "creatures": list(creatures),
                "observation_hash": observation_hash(), "action_hash": action_hash(),
                "layers": 2, "activation": "tanh"}
    policy = Policy(name, manifest, [rng.normal(size=(OBS_SIZE, 8)), rng.normal(size=(8, N_ACTIONS))],
                    [rng.normal(size=8), rng.normal(size=N_ACTIONS)], "tanh", frozenset(creatures))
    npz, _ = write_policy(policy, folder)
    return npz


def cli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wasteland.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def one_line_error(p: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert p.returncode == 2, p.stdout[-500:]
    assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1, p.stderr
    assert fragment in p.stderr, p.stderr


def console() -> Console:
    return Console(file=io.StringIO(), width=200)


def out(con: Console) -> str:
    return con.file.getvalue()  # type: ignore[attr-defined]


def same(a: Battle, b: Battle) -> None:
    assert b.over == a.over and b.winner == a.winner
    assert b.state() == a.state()
    assert b.history == a.history
    assert [e.text() for e in b.log] == [e.text() for e in a.log]


# --- fight ---------------------------------------------------------------------------------
def test_fight_with_a_policy_agent_gives_the_policy_s_reasons(tmp_path):
    make_policy(tmp_path)
    p = cli("fight", "--scenario", "duel", "--seed", "2", "--agents", "policy:tiny.npz,packet",
            "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    decisions = json.loads(p.stdout)["decisions"]
    mine = [d["reason"] for d in decisions if d["actor"] == "ted"]
    theirs = [d["reason"] for d in decisions if d["actor"] != "ted"]
    assert mine and all(r.startswith("policy tiny: ") for r in mine), mine[:3]
    assert theirs and not any(r.startswith("policy ") for r in theirs)


def test_a_policy_plays_only_its_creatures_and_the_packet_the_others(tmp_path):
    make_policy(tmp_path, creatures=("raider",))
    p = cli("fight", "--scenario", "ruined_street", "--agents", "packet,policy:tiny.npz",
            "--json", "--seed", "1", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    reasons = {d["actor"]: d["reason"] for d in json.loads(p.stdout)["decisions"]}
    assert reasons["raider_0"].startswith("policy tiny: ")
    assert reasons["grunt"].startswith("packet (tiny not trained for Super mutant): ")


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_a_fight_with_a_policy_agent_stopped_anywhere_resumes_exactly(ruleset, tmp_path):
    """Its kind (the policy's path) and both random states (its own, and its fallback
    packet's, which calls shots by coin flips) come back from the save."""
    npz = make_policy(tmp_path / "p", ruleset=ruleset, creatures=("raider",))
    rng = random.Random(4)
    path = tmp_path / "f.json"
    for seed in range(6):
        agents = ["random", f"policy:{npz}"] if seed % 2 else [f"policy:{npz}", "packet"]
        scenario = "ruined_street" if seed % 3 else "desert_wash"
        whole, per_side = new_fight(ruleset, scenario, seed, agents)
        fight_on(whole, per_side)
        b, per_side = new_fight(ruleset, scenario, seed, agents)
        fight_on(b, per_side, stop_after=rng.randrange(1, len(whole.history)))
        save_fight(b, per_side, path)
        saved = json.loads(path.read_text())["session"]["agents"]
        assert f"policy:{npz}" in [a["kind"] for a in saved]
        resumed, per_side = resumed_fight(path, {})
        assert any(isinstance(a, PolicyAgent) for a in per_side)
        fight_on(resumed, per_side)
        same(whole, resumed)


def test_the_fight_command_saves_and_resumes_a_policy_agent(tmp_path):
    make_policy(tmp_path / "p")
    p = cli("fight", "--scenario", "duel", "--agents", "policy:p/tiny.npz,packet", "--save",
            "f.json", "--seed", "1", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    agents = json.loads((tmp_path / "f.json").read_text())["session"]["agents"]
    assert agents[0]["kind"] == f"policy:{tmp_path / 'p' / 'tiny.npz'}"  # found from anywhere
    again = cli("fight", "--resume", str(tmp_path / "f.json"), cwd=tmp_path / "p")
    assert again.returncode == 0 and "Result: " in again.stdout, again.stderr


# --- play and gm: --ai -----------------------------------------------------------------------
def player(con: Console) -> Iterator[str]:
    """The first attack on the menu, else a mix of the others, read from the output alone
    (so a resumed game gets the same answers)."""
    n = 0
    while True:
        parts = [text for _, text in last_menu(out(con))]
        hits = [i for i, p in enumerate(parts) if p.startswith("attack ")]
        yield (str(hits[0] + 1) if hits else str(2 + n % (len(parts) - 1))
               if len(parts) > 2 else "1")
        n += 1


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_play_with_ai_policy_saves_and_resumes_with_the_same_agent(ruleset, tmp_path):
    npz = make_policy(tmp_path, ruleset=ruleset, creatures=("raider",))
    ai = f"policy:{npz}"
    con = console()
    start(GameSetup(ruleset, "duel", "0", 5, save_to=tmp_path / "whole.json", character=SQUAD,
                    enemies=ENEMIES, ai=ai), con, upto(player(con), 0, None))
    whole = saves.load(tmp_path / "whole.json")
    assert whole.over and "raider_0: " in out(con) and "(policy tiny: " in out(con)
    assert "(packet (tiny not trained for Mr. Handy): " in out(con)
    session = whole.session
    assert session["options"]["ai"] == ai
    assert [(a["kind"], a["side"]) for a in session["agents"]] == [(ai, 1)]
    answers = out(con).count("\n> ")
    assert answers > 3
    for cut in (1, answers // 2, answers - 1):
        part = tmp_path / f"part{cut}.json"
        con = console()
        start(GameSetup(ruleset, "duel", "0", 5, save_to=part, character=SQUAD, enemies=ENEMIES,
                        ai=ai), con, upto(player(con), 0, cut))
        assert "quit." in out(con)
        # the fallback packet's coin flips come back as they were, not from its seed
        b = saves.load(part)
        npc = npc_agents(b)[1]
        assert isinstance(npc, PolicyAgent)
        saved = json.loads(part.read_text())["session"]["agents"][0]
        assert rng_snapshot(npc) == {k: saved[k] for k in ("rng", "fallback_rng")}
        con2 = console()
        start(GameSetup(resume=part), con2, upto(player(con2), cut, None))
        same(whole, saves.load(part))


def test_play_with_ai_policy_resumes_remembering_what_its_npcs_had_seen(tmp_path):
    """In the ruined street's walls and dark the policy's NPCs remember enemies out of
    sight (observe/memory.py): the game keeps that memory in its save and the resumed
    game hands it back to them, so a game stopped anywhere plays on as the whole one."""
    ai = f"policy:{make_policy(tmp_path)}"
    con = console()
    setup = GameSetup("pnp", "ruined_street", "0", 1, save_to=tmp_path / "whole.json", ai=ai)
    start(setup, con, upto(player(con), 0, None))
    whole = saves.load(tmp_path / "whole.json")
    answers = out(con).count("\n> ")
    assert answers > 20
    cut = answers // 2
    part = tmp_path / "part.json"
    con = console()
    start(replace(setup, save_to=part), con, upto(player(con), 0, cut))
    seen = json.loads(part.read_text())["state"]["extra"]["sightings"]
    assert any(r is not None for row in seen for r in row)
    con2 = console()
    start(GameSetup(resume=part), con2, upto(player(con2), cut, None))
    same(whole, saves.load(part))


def test_play_and_gm_resume_the_ai_s_random_state_even_mid_proposal(tmp_path):
    """--ai random draws at every decision: a resume that lost its state, or saved it
    after the proposal the GM had not yet accepted, would play another game."""
    con = console()
    start(GameSetup("pnp", "duel", "0", 2, save_to=tmp_path / "whole.json", character=SQUAD,
                    enemies=ENEMIES, ai="random"), con, upto(player(con), 0, None))
    whole = saves.load(tmp_path / "whole.json")
    answers = out(con).count("\n> ")
    for cut in (2, answers // 2):
        part = tmp_path / f"part{cut}.json"
        con = console()
        start(GameSetup("pnp", "duel", "0", 2, save_to=part, character=SQUAD, enemies=ENEMIES,
                        ai="random"), con, upto(player(con), 0, cut))
        con2 = console()
        start(GameSetup(resume=part), con2, upto(player(con2), cut, None))
        same(whole, saves.load(part))

    def gm_until(con: Console, accept: int) -> Iterator[str]:
        """Accept ``accept`` proposals (the party's first choice meanwhile), then end the
        input while the next proposal waits."""
        while True:
            if "proposes:" in out(con).rstrip().splitlines()[-1]:
                if not accept:
                    return
                accept -= 1
                yield ""
            else:
                yield "1"

    for accept in (1, 4):
        con = console()
        start_gm(GameSetup("pnp", "duel", "0", 2, save_to=tmp_path / f"g{accept}.json",
                           character=SQUAD, enemies=ENEMIES, ai="random"), con,
                 gm_until(con, accept))
        waiting = [ln for ln in out(con).splitlines() if " proposes: " in ln][-1]
        con2 = console()
        start_gm(GameSetup(resume=tmp_path / f"g{accept}.json"), con2, iter([]))
        assert [ln for ln in out(con2).splitlines() if " proposes: " in ln] == [waiting]


def test_gm_with_ai_policy_proposes_with_its_reasons_and_resumes(tmp_path):
    npz = make_policy(tmp_path)
    ai = f"policy:{npz}"

    def the_gm(con: Console) -> Iterator[str]:  # Enter for proposals, else the first entry
        while True:
            yield "" if "proposes:" in out(con).rstrip().splitlines()[-1] else "1"

    con = console()
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / "whole.json", ai=ai), con,
             upto(the_gm(con), 0, None))
    # the reasons come on the line above the proposal (issue 26: the proposal first)
    assert "young_radscorpion_0 proposes: " in out(con) and ": policy tiny: " in out(con)
    whole = saves.load(tmp_path / "whole.json")
    assert whole.over and whole.session["agents"][0]["kind"] == ai
    part = tmp_path / "part.json"
    con = console()
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=part, ai=ai), con, upto(the_gm(con), 0, 5))
    con2 = console()
    # the same --ai as the save: accepted
    start_gm(GameSetup(resume=part, ai=ai), con2, upto(the_gm(con2), 5, None))
    assert ": policy tiny: " in out(con2)
    same(whole, saves.load(part))


def test_ai_that_contradicts_the_save_is_refused_in_one_line(tmp_path):
    npz = make_policy(tmp_path)
    path = tmp_path / "p.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=path, ai=f"policy:{npz}"), console(),
          iter(["quit"]))
    with pytest.raises(WastelandError) as e:
        start(GameSetup(resume=path, ai="packet"), console(), iter(["quit"]))
    assert f"--ai packet conflicts with {path}, saved with --ai policy:{npz}" in str(e.value)
    assert "\n" not in str(e.value)
    plain = tmp_path / "plain.json"
    start_gm(GameSetup("pnp", "duel", "0", 3, save_to=plain), console(), iter(["quit"]))
    with pytest.raises(WastelandError, match="--ai random conflicts with .*saved with no --ai"):
        start_gm(GameSetup(resume=plain, ai="random"), console(), iter(["quit"]))
    data = json.loads(plain.read_text())  # a save from before --ai: its NPCs were packets
    del data["session"]["options"]["ai"]
    plain.write_text(json.dumps(data))
    with pytest.raises(WastelandError, match="--ai random conflicts with .*saved with no --ai"):
        start_gm(GameSetup(resume=plain, ai="random"), console(), iter(["quit"]))


@pytest.mark.parametrize("command", ["play", "gm"])
@pytest.mark.parametrize("ai, fragment", [
    ("genius", "unknown agent 'genius'; available: random, scripted, packet, policy:NAME"),
    ("policy:nowhere", "unknown policy 'nowhere'; shipped policies:"),
    ("policy:gone/tiny.npz", "policy tiny: no manifest gone/tiny.json"),
])
def test_an_unknown_ai_is_one_line_before_anything_is_played(command, ai, fragment, tmp_path):
    p = cli(command, "--ai", ai, cwd=tmp_path, stdin="1\n" * 5)
    one_line_error(p, fragment)
    assert p.stdout == ""  # nothing was shown or played
    assert not list(tmp_path.iterdir())  # nor saved


def test_a_policy_whose_observation_hash_was_edited_is_refused_in_one_line(tmp_path):
    make_policy(tmp_path)
    manifest = json.loads((tmp_path / "tiny.json").read_text())
    manifest["observation_hash"] = "0123456789abcdef"
    (tmp_path / "tiny.json").write_text(json.dumps(manifest))
    want = (f"policy tiny: trained on another observation (observation_hash "
            f"0123456789abcdef in tiny.json; {OBSERVATION_VERSION}, {observation_hash()} in "
            f"this version); retrain it")
    one_line_error(cli("fight", "--agents", "policy:tiny.npz", cwd=tmp_path), want)
    one_line_error(cli("play", "--ai", "policy:./tiny.npz", cwd=tmp_path, stdin="1\n"), want)


def test_the_help_names_the_ai_option():
    for command in ("play", "gm"):
        p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", command, "--help"],
                           capture_output=True, text=True, timeout=60)
        text = " ".join(p.stdout.split())
        assert "--ai AGENT" in text and "policy:NAME" in text, text


# --- a scenario side's agent ---------------------------------------------------------------
THREE_SIDES = """\
id: three
name: Three sides
max_rounds: 8
legend: {".": floor, "#": wall}
map: |
  ##########
  #........#
  #........#
  #........#
  ##########
sides:
  - name: Vault
    combatants: [{creature: vault_dweller, at: [1, 1], id: ted}]
  - name: Raiders
    combatants: [{creature: raider, at: [8, 1]}]
  - name: Bugs
    agent: policy:pol/tiny.npz
    combatants: [{creature: young_radscorpion, at: [5, 3]}]
"""


def scenario_file(tmp_path: Path, agent_of_raiders: str | None = None) -> Path:
    make_policy(tmp_path / "pol")
    text = THREE_SIDES
    if agent_of_raiders:
        text = text.replace("  - name: Raiders\n",
                            f"  - name: Raiders\n    agent: {agent_of_raiders}\n")
    (tmp_path / "maps").mkdir(exist_ok=True)
    path = tmp_path / "maps" / "three.yaml"
    path.write_text(text.replace("pol/", "../pol/"))  # relative to the scenario file
    return path


def reasons(p: subprocess.CompletedProcess[str]) -> dict[str, set[str]]:
    assert p.returncode == 0, p.stderr
    out: dict[str, set[str]] = {}
    for d in json.loads(p.stdout)["decisions"]:
        r = d["reason"]
        who = ("policy tiny" if r.startswith("policy tiny: ") else
               "random" if r.startswith("random pick") else "other")
        out.setdefault(d["actor"], set()).add(who)
    return out


def test_fight_plays_a_side_by_its_scenario_agent_unless_agents_names_it(tmp_path):
    path = scenario_file(tmp_path, "random")
    by = reasons(cli("fight", "--scenario", str(path), "--json", "--seed", "1", cwd=tmp_path))
    assert by["young_radscorpion_0"] == {"policy tiny"}
    assert by["raider_0"] == {"random"} and "policy tiny" not in by["ted"]
    # --agents naming fewer sides: the others keep their scenario agent
    by = reasons(cli("fight", "--scenario", str(path), "--agents", "packet,packet", "--json",
                     "--seed", "1", cwd=tmp_path))
    assert by["young_radscorpion_0"] == {"policy tiny"} and by["raider_0"] != {"random"}
    # one name plays every side; three name them all
    for agents in ("packet", "packet,packet,packet"):
        by = reasons(cli("fight", "--scenario", str(path), "--agents", agents, "--json",
                         "--seed", "1", cwd=tmp_path))
        assert "policy tiny" not in by["young_radscorpion_0"]
    p = cli("fight", "--scenario", str(path), "--agents", "packet,packet,packet,packet",
            cwd=tmp_path)
    one_line_error(p, "--agents names 4 agents; scenario 'three' has 3 sides")


def test_play_and_gm_use_the_scenario_agent_for_npc_sides_unless_ai_is_given(tmp_path):
    path = scenario_file(tmp_path)
    con = console()
    start(GameSetup("pnp", str(path), "0", 1, save_to=tmp_path / "p.json"), con, iter(["1"] * 60))
    assert "young_radscorpion_0: " in out(con) and "(policy tiny: " in out(con)
    kinds = {a["side"]: a["kind"] for a in saves.load(tmp_path / "p.json").session["agents"]}
    assert kinds == {1: "packet", 2: f"policy:{tmp_path / 'pol' / 'tiny.npz'}"}
    con = console()
    start_gm(GameSetup("pnp", str(path), "Bugs", 1, save_to=tmp_path / "g.json"), con,
             iter(["", "1"] * 40))
    kinds = {a["side"]: a["kind"] for a in saves.load(tmp_path / "g.json").session["agents"]}
    assert kinds == {0: "packet", 1: "packet"}
    con = console()
    start(GameSetup("pnp", str(path), "0", 1, save_to=tmp_path / "q.json", ai="scripted"), con,
          iter(["1"] * 60))
    assert "(policy tiny: " not in out(con)
    kinds = {a["side"]: a["kind"] for a in saves.load(tmp_path / "q.json").session["agents"]}
    assert kinds == {1: "scripted", 2: "scripted"}


def test_the_env_s_opponents_default_to_the_scenario_agents(tmp_path):
    from wasteland.agents.scripted import ScriptedAgent
    from wasteland.envs.single_agent import SingleAgentEnv

    path = scenario_file(tmp_path)
    env = SingleAgentEnv(scenario=path, learner=0)
    env.reset(seed=1)
    kinds = {env.battle.ids[s]: type(a) for s, a in env.opponents.items()}  # type: ignore[union-attr]
    assert kinds == {"raider_0": ScriptedAgent, "young_radscorpion_0": PolicyAgent}
    env = SingleAgentEnv(scenario=path, learner=0, opponents="scripted")
    env.reset(seed=1)
    assert all(isinstance(a, ScriptedAgent) for a in env.opponents.values())
    env = SingleAgentEnv(scenario="duel")  # no agent in the scenario: scripted, as before
    env.reset(seed=1)
    assert all(isinstance(a, ScriptedAgent) for a in env.opponents.values())


@pytest.mark.parametrize("agent, fragment", [
    ("genius", "sides[1].agent: unknown agent 'genius'; accepted: random, scripted, packet, "
               "policy:NAME"),
    ("'policy:'", "sides[1].agent: unknown agent 'policy:'; accepted:"),
    ("policy:nowhere", "sides[1].agent: unknown policy 'nowhere'; shipped policies:"),
    ("policy:../pol/gone.npz", "sides[1].agent: no policy file "),
])
def test_a_bad_scenario_agent_is_one_line_naming_file_side_and_choices(agent, fragment,
                                                                     tmp_path):
    path = scenario_file(tmp_path, agent)
    for args in (("fight", "--scenario", str(path)), ("play", "--scenario", str(path)),
                 ("gm", "--scenario", str(path))):
        p = cli(*args, cwd=tmp_path, stdin="1\n")
        one_line_error(p, f"{path}: scenario 'three': {fragment}")
        assert "accepted: random, scripted, packet, policy:NAME" in p.stderr
