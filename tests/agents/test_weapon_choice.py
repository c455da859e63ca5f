"""Weapon choice under both rulesets (issue 9): no agent trades a loaded weapon it can use
for a worse one, and a reason that calls the weapon in hand empty is only given when it is.

"Loaded and usable" is each ruleset's own notion: PnP, rounds in the magazine (or no
magazine) and the hands to hold it; 2d20, which fires from the ammunition carried, rounds
of its ammunition (or none needed) and the arms to hold it. A draw away from such a weapon
is only allowed when the weapon drawn can strike some enemy from here that the one in hand
cannot, or strikes one of them at least as well (the ruleset's exact hit chance times the
mean damage of a hit); or, for the packet agent, when the reason names the packet field
that asks for it (best_weapon, distance charge, area_attack_mode, its own blast).

Every built-in scenario, a few fixed seeds, the packet agent and the scripted agent
playing both sides.
"""

from __future__ import annotations

import pytest

from wasteland.agents.base import Agent, view_of
from wasteland.agents.packets import PacketAgent, damage_per_hit
from wasteland.agents.scripted import ScriptedAgent
from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.names import RULESETS
from wasteland.rules.protocol import Ruleset
from wasteland.rules.rulesets import get_ruleset

SEEDS = (0, 1, 2)
# a packet field's words in a reason (agents/packets/traits.py): best_weapon, distance
# charge, area_attack_mode
FIELD_REASONS = ("prefers ", "any weapon will do", " to charge ", "never fires area weapons",
                 "keeps area fire off its own", "its own blast")


def loaded(rules: str, c: Combatant, ws: int) -> bool:
    """Whether weapon slot ``ws`` can fire now without reloading (melee: always)."""
    w = c.weapons[ws]
    if rules == "f2d20":
        return w.ammo is None or c.ammo.get(w.ammo, 0) > 0
    from wasteland.rules.pnp.stats import has_round

    return has_round(c, ws)


def holdable(rules: str, c: Combatant, ws: int) -> bool:
    w = c.weapons[ws]
    if rules == "f2d20":
        from wasteland.rules.f2d20.stats import usable

        return usable(c, w)
    from wasteland.rules.pnp.stats import can_wield

    return can_wield(c, w)


def can_strike(rules: str, rs: Ruleset, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
    if rules == "f2d20":
        return bool(rs.can_attack(b, c, t, ws))  # type: ignore[attr-defined]
    from wasteland.rules.pnp.combat import can_attack

    return can_attack(b, c, t, ws)


def value(rs: Ruleset, b: Battle, c: Combatant, t: Combatant, ws: int) -> float:
    """The ruleset's exact chance to hit ``t`` with slot ``ws`` times a hit's mean damage."""
    held = c.active_weapon
    c.active_weapon = ws
    try:
        chance = float(rs.hit_chance(b, c, t, None))  # type: ignore[attr-defined]
    finally:
        c.active_weapon = held
    return chance * damage_per_hit(b, c, ws, t)


def draw_problem(rules: str, rs: Ruleset, b: Battle, c: Combatant, new: int,
                 reason: str, agent: Agent) -> str | None:
    """Why drawing slot ``new`` is a trade of a loaded, usable weapon for a worse one."""
    cur = c.active_weapon
    if not (loaded(rules, c, cur) and holdable(rules, c, cur)):
        return None
    if isinstance(agent, PacketAgent) and any(f in reason for f in FIELD_REASONS):
        return None
    for e in b.enemies_of(c):
        if not can_strike(rules, rs, b, c, e, new):
            continue
        if not can_strike(rules, rs, b, c, e, cur):
            return None
        if value(rs, b, c, e, new) >= value(rs, b, c, e, cur):
            return None
    return (f"drops its loaded {c.weapons[cur].name} for {c.weapons[new].name}, which strikes "
            f"no enemy from here better")


def fight(rules: str, scenario: str, seed: int, kind: str) -> list[str]:
    """Fight to the end; the problems found, one line each."""
    rs = get_ruleset(rules)
    b = rs.new_battle(load_scenario(scenario), seed, keep_log=False)
    b.quiet = True
    agents: list[Agent] = [PacketAgent(seed + i) if kind == "packet" else ScriptedAgent()
                           for i in range(len(b.scenario.sides))]
    bad: list[str] = []
    for _ in range(5000):
        if b.over:
            break
        v = view_of(rs, b)
        me = v.me
        agent = agents[me.side]
        a = agent.act(v)
        reason = agent.last_reason
        where = f"{rules} {scenario} seed {seed} round {b.round} {me.id}: {a.kind} ({reason})"
        if "empty" in reason and loaded(rules, me, me.active_weapon):
            bad.append(f"{where}: says empty, but {me.weapon.name} is loaded")
        if a.kind == "draw":
            why = draw_problem(rules, rs, b, me, int(a.option or 0), reason, agent)
            if why:
                bad.append(f"{where}: {why}")
        rs.apply(b, a)
    return bad


@pytest.mark.parametrize("kind", ["packet", "scripted"])
@pytest.mark.parametrize("rules", RULESETS)
def test_no_agent_drops_a_loaded_weapon_for_a_worse_one(rules: str, kind: str) -> None:
    bad = [line for name in scenario_names() for seed in SEEDS
           for line in fight(rules, name, seed, kind)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("kind", ["packet", "scripted"])
def test_f2d20_pistols_stay_drawn_in_ruined_street(kind: str) -> None:
    """The case of the issue: under 2d20, val and ted keep their 10mm pistols (36 rounds,
    no target in sight on their first turn) instead of drawing knives."""
    rs = get_ruleset("f2d20")
    b = rs.new_battle(load_scenario("ruined_street"), 1, keep_log=False)
    b.quiet = True
    agents: list[Agent] = [PacketAgent(1 + i) if kind == "packet" else ScriptedAgent()
                           for i in range(2)]
    seen: dict[str, list[str]] = {"val": [], "ted": []}
    while b.round <= 1 and not b.over:
        v = view_of(rs, b)
        agent = agents[v.me.side]
        a = agent.act(v)
        if v.me.id in seen:
            seen[v.me.id].append(f"{a.kind} ({agent.last_reason})")
            assert v.me.weapon.name == "10mm pistol", seen
            assert a.kind != "draw", seen
        rs.apply(b, a)
    assert seen["val"] and seen["ted"]
