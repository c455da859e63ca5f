"""A packet's reason is true to the state (issue 41, item 5): it never calls a target
"out of reach" that it could attack from where it stands, nor one it attacked this very
round ("raider_0's AI: end: ted out of reach and no way closer this turn" right after
raider_0 shot ted twice, 2d20: its actions were spent, not the distance)."""

from __future__ import annotations

import pytest

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.tactics import tactics_of


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize("scenario, seed", [("desert_wash", 0), ("ruined_street", 1)])
def test_out_of_reach_is_said_only_of_a_target_out_of_reach(rules, scenario, seed):
    rs = get_ruleset(rules)
    b = rs.new_battle(load_scenario(scenario), seed)
    agents = [make_agent("packet", seed + i) for i in range(len(b.side_names))]
    ends = 0
    while not b.over:
        v = view_of(rs, b)
        me = b.combatants[v.decision.combatant]
        agent = agents[me.side]
        action = agent.act(v)
        why = str(agent.last_reason)
        if "out of reach" in why and action.kind == "end":
            name = why.split(" out of reach")[0].split()[-1]
            t = next(c for c in b.combatants if c.id == name)
            assert not tactics_of(b).can_attack(b, me, t, me.active_weapon), why
            assert me.cond.get("attacked") != b.round, why
        if action.kind == "end" and why.startswith("ends its turn: no action left"):
            ends += 1
        rs.apply(b, action)
    if rules == "f2d20":
        assert ends  # the case of the issue came up, and was said truly
