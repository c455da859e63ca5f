"""Running an AI-vs-AI fight: the loop shared by `wasteland fight` and `make play`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wasteland.agents.base import Agent, make_agent, view_of
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.battle import Battle
from wasteland.rules.protocol import get_ruleset


@dataclass
class FightResult:
    battle: Battle
    decisions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def winner(self) -> str | None:
        b = self.battle
        return b.side_names[b.winner] if b.winner is not None else None

    def summary(self) -> dict[str, Any]:
        b = self.battle
        return {
            "scenario": b.scenario.id,
            "ruleset": b.ruleset,
            "seed": b.seed,
            "winner": self.winner,
            "result": "draw" if b.winner is None else "win",
            "rounds": b.round,
            **({"ap_pools": dict(zip(b.side_names, b.extra["pools"]))}
               if "pools" in b.extra else {}),
            "combatants": [
                {"id": c.id, "side": b.side_names[c.side], "hp": c.hp, "max_hp": c.max_hp,
                 "status": c.status}
                for c in b.combatants
            ],
        }


def run_fight(ruleset: str, scenario: str, seed: int, agents: list[str] | None = None,
              max_rounds: int | None = None,
              on_event: Callable[[str], None] | None = None) -> FightResult:
    """Fight to the end; ``agents`` names one agent kind per side (default scripted)."""
    rs = get_ruleset(ruleset)
    sc = load_scenario(scenario)
    b = rs.new_battle(sc, seed, max_rounds=max_rounds)
    kinds = agents or ["scripted"] * len(sc.sides)
    if len(kinds) == 1:
        kinds = kinds * len(sc.sides)
    per_side: list[Agent] = [make_agent(k, seed + i) for i, k in enumerate(kinds)]
    if len(per_side) < len(sc.sides):
        per_side += [make_agent("scripted")] * (len(sc.sides) - len(per_side))
    result = FightResult(b)
    shown = 0
    if on_event:
        from wasteland.rules.textmap import render_text

        on_event(render_text(b, rs, last_events=0))
        on_event("")
        for e in b.log:
            on_event(e.text())
        shown = len(b.log)
    while not b.over:
        v = view_of(rs, b)
        actor = b.combatants[v.decision.combatant]
        agent = per_side[actor.side]
        action = agent.act(v)
        text = action.text(b.ids, actor.slot)
        result.decisions.append({"round": b.round, "actor": actor.id, "action": text,
                                 "reason": agent.last_reason})
        if on_event:
            on_event(f"  > {actor.id}: {text}  ({agent.last_reason})")
        rs.apply(b, action)
        if on_event:
            for e in b.log[shown:]:
                on_event(e.text())
            shown = len(b.log)
    if on_event:
        from wasteland.rules.textmap import render_text

        on_event("")
        on_event(render_text(b, rs, last_events=0))
    return result
