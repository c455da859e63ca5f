"""Side sight (``Encoder(sight="side")``, observe/encoding.py ``SIGHTS``): a side shares what
its members see. With own sight (the default) a combatant knows only what it has seen
itself. Each test reads features by name in a split room where only one member of a side
can see the enemy."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wasteland.agents.policy import PolicyAgent, load_policy, observation_hash
from wasteland.envs import combat_v0
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.observe.encoding import SIGHTS, Encoder, to_ego
from wasteland.rules.errors import WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

from .test_observation_v1 import SPLIT, block, scenario


def two_scouts(rules: str):  # type: ignore[no-untyped-def]
    """ted west of the wall, bob east of it; pip east of the wall, in bob's sight only."""
    rs = get_ruleset(rules)
    b = rs.new_battle(scenario(SPLIT, {"Vault": [("vault_dweller", (2, 1), "ted"),
                                                 ("vault_dweller", (7, 2), "bob")],
                                       "Raiders": [("raider", (8, 1), "pip")]}), 0)
    return rs, b


@pytest.mark.parametrize("rules", RULESETS)
def test_an_enemy_an_ally_sees_is_seen_by_the_side(rules: str) -> None:
    rs, b = two_scouts(rules)
    g = b.grid
    ted, bob, pip = b.combatants
    assert g.sight[bob.pos][pip.pos] and not g.sight[ted.pos][pip.pos]
    own = block(Encoder(b, rs), 0, 2)
    assert own["never_seen"] == 1.0 and own["seen"] == 0.0 and own["dx"] == 0.0
    side = Encoder(b, rs, "side")
    got = block(side, 0, 2)
    assert got["seen"] == 1.0 and got["never_seen"] == 0.0
    # where it really is, with ted's own line of sight (none) and no odds from behind a wall
    assert got["dx"] == pytest.approx((g.xs[pip.pos] - g.xs[ted.pos]) / (g.width - 1))
    assert got["in_los"] == 0.0 and got["hit_w0"] == 0.0
    assert got["hp_frac"] == 1.0
    # bob, the one who sees it, sees it the same way in either mode
    assert block(side, 1, 2)["seen"] == block(Encoder(b, rs), 1, 2)["seen"] == 1.0


@pytest.mark.parametrize("rules", RULESETS)
def test_the_side_remembers_what_a_member_saw(rules: str) -> None:
    rs, b = two_scouts(rules)
    g = b.grid
    ted, bob, pip = b.combatants
    side = Encoder(b, rs, "side")
    side.look(0)  # ted's decision: bob sees pip now, so both remember it
    then = g.xs[pip.pos]
    pip.pos = g.index(9, 1)
    pip.hp = 1
    bob.status = "dead"  # the one who saw it is down: nobody sees pip any more
    assert not g.sight[ted.pos][pip.pos]
    b.round += 1
    got = block(side, 0, 2)
    assert got["seen"] == 0.0 and got["never_seen"] == 0.0 and got["last_seen"] > 0.0
    assert got["dx"] == pytest.approx((then - g.xs[ted.pos]) / (g.width - 1))
    assert got["hp_frac"] == 1.0  # as it was then
    # own sight: ted never saw it (the memory written for the side is ted's own row now,
    # so a fresh battle is needed to see the difference)
    rs2, b2 = two_scouts(rules)
    own = Encoder(b2, rs2)
    own.look(0)
    b2.combatants[1].status = "dead"
    assert block(own, 0, 2)["never_seen"] == 1.0


def test_a_fallen_member_sees_nothing_for_the_side() -> None:
    rs, b = two_scouts("pnp")
    b.combatants[1].status = "dead"
    assert block(Encoder(b, rs, "side"), 0, 2)["never_seen"] == 1.0


def test_unknown_sight_is_a_one_line_error() -> None:
    rs, b = two_scouts("pnp")
    with pytest.raises(ValueError, match="sight must be one of own, side"):
        Encoder(b, rs, "team")
    for make in (lambda: combat_v0.raw_env(sight="team"),
                 lambda: SingleAgentEnv(sight="team")):
        with pytest.raises(WastelandError, match="unknown sight 'team'; available: own, side"):
            make()


def test_the_envs_observe_with_their_sight() -> None:
    """The AEC env's observation is its encoder's of that sight: the same as an Encoder of
    side sight kept beside it, at every third decision of a fight."""
    env = combat_v0.env(ruleset="f2d20", scenario="ruined_street", sight="side")
    env.reset(seed=4)
    raw = env.unwrapped
    mine = Encoder(raw.battle, raw.ruleset, "side", raw.memory)
    rng = np.random.default_rng(0)
    compared = 0
    for n, agent in enumerate(env.agent_iter()):
        if n > 300:
            break
        if raw.terminations[agent] or raw.truncations[agent]:
            env.step(None)
            continue
        dec = raw._decision
        if n % 3 == 0:
            want = mine.observe(dec.combatant, dec, mine.order(dec.combatant))
            assert np.array_equal(want, env.observe(agent)["observation"])
            compared += 1
        env.step(to_ego(int(rng.choice(raw._legal)), raw._order))
    assert compared > 20


def side_policy_files(tmp_path, sight: str = "side"):  # type: ignore[no-untyped-def]
    """A small random policy for the vault dwellers, of ``sight``, written to files."""
    from tests.training.kit import random_policy
    from wasteland.training.export import write_policy

    pol = random_policy("tiny", creatures=("vault_dweller",))
    pol.manifest.update(sight=sight, observation_hash=observation_hash(sight))
    return write_policy(pol, tmp_path / "pol")


def test_a_policys_sight_is_in_its_hash_and_manifest(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert observation_hash("own") == observation_hash()
    assert observation_hash("side") != observation_hash()
    npz, js = side_policy_files(tmp_path)
    assert load_policy(js).sight == "side"
    m = json.loads(js.read_text())
    m["observation_hash"] = observation_hash()  # side sight with own sight's hash: refused
    js.write_text(json.dumps(m))
    with pytest.raises(WastelandError, match="trained on another observation"):
        load_policy(js)
    m["sight"] = "team"
    js.write_text(json.dumps(m))
    with pytest.raises(WastelandError, match=r"sight 'team'; accepted: own, side"):
        load_policy(js)
    del m["sight"]  # no sight: own, as every policy before side sight
    js.write_text(json.dumps(m))
    assert load_policy(js).sight == "own"
    assert SIGHTS == ("own", "side")


@pytest.mark.parametrize("sight", SIGHTS)
def test_a_policy_plays_on_what_its_sight_shows(sight: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """PolicyAgent observes with its policy's sight: at a vault dweller's first decision,
    ted remembers pip (whom only bob sees) under side sight and not under own."""
    from wasteland.agents.base import view_of
    from wasteland.agents.make import make_agent

    npz, js = side_policy_files(tmp_path, sight)
    agent = PolicyAgent(load_policy(js), 0)
    rs, b = two_scouts("pnp")
    packet = make_agent("packet", 0)
    for _ in range(50):
        view = view_of(rs, b)
        if view.me.side == 0:
            break
        rs.apply(b, packet.act(view))
    assert view.me.side == 0
    agent.act(view)
    assert agent._enc.side_sight == (sight == "side")
    rows = agent._enc.memory.rows or [[None] * 3]
    knows = rows[0][2] is not None
    assert knows == (sight == "side")
