"""Running an AI-vs-AI fight: the loop shared by `wasteland fight` and `make play`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wasteland.agents.base import Agent, View, handed_memory, kind_of, share_memory
from wasteland.agents.loop import NO_LIMIT, by_side, play
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import load_scenario
from wasteland.observe.memory import Memory
from wasteland.observe.memory import load as load_with_memory
from wasteland.observe.memory import parts as memory_parts
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.words import plainly

from .session import (
    agent_record,
    check_resume_options,
    new_session,
    restore_agent,
    rng_snapshot,
)


@dataclass
class FightResult:
    battle: Battle
    decisions: list[dict[str, Any]] = field(default_factory=list)
    # program agents' (cmd:) faults by side, then kind: each played by a fallback action
    faults: dict[str, dict[str, int]] = field(default_factory=dict)

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
            **({"ap_pools": dict(zip(b.side_names, econ.pools))}
               if (econ := b.book.economy()) is not None else {}),
            **({"agent_faults": self.faults} if self.faults else {}),
            "combatants": [
                {"id": c.id, "side": b.side_names[c.side], "hp": c.hp, "max_hp": c.max_hp,
                 "status": c.status}
                for c in b.combatants
            ],
        }


def new_fight(ruleset: str, scenario: str, seed: int, agents: list[str] | None = None,
              max_rounds: int | None = None) -> tuple[Battle, list[Agent]]:
    """A fresh battle and one agent per side: ``agents`` names their kinds in side order
    (one name serves every side); a side it does not name plays by the agent its scenario
    names for it, else the packet, as in play, gm and simulate."""
    rs = get_ruleset(ruleset)
    sc = load_scenario(scenario)
    defaults = [side.agent or "packet" for side in sc.sides]
    kinds = list(agents or [])
    if len(kinds) == 1:
        kinds = kinds * len(sc.sides)
    if len(kinds) > len(sc.sides):
        raise WastelandError(f"--agents names {len(kinds)} agents; scenario {sc.id!r} has "
                             f"{len(sc.sides)} sides ({', '.join(s.name for s in sc.sides)})")
    kinds = kinds + defaults[len(kinds):]
    b = rs.new_battle(sc, seed, max_rounds=max_rounds)
    per_side: list[Agent] = [make_agent(k, seed + i, ruleset) for i, k in enumerate(kinds)]
    b.session = new_session("fight", {"ruleset": ruleset, "scenario": scenario, "seed": seed,
                                      "agents": ",".join(kinds), "max_rounds": max_rounds})
    share_memory(per_side, b, Memory())  # what the agents that observe have seen: one memory
    return b, per_side


def resumed_fight(path: Path, options: dict[str, Any]) -> tuple[Battle, list[Agent]]:
    """The fight saved in ``path`` with its agents as they were (options given along with
    --resume must agree with the save), remembering what they had seen."""
    b, memory = load_with_memory(path)
    if b.session.get("command") != "fight":
        raise WastelandError(f"{path}: a {b.session.get('command', 'saved')} game, not a fight; "
                             f"resume it with wasteland {b.session.get('command', 'play')}")
    check_resume_options(b.session["options"], options, path)
    from wasteland.agents.external import check_saved_programs

    check_saved_programs([rec["kind"] for rec in b.session["agents"]], options.get("agents"),
                         path, "--agents", b.session["options"].get("agents"))
    per_side: list[Agent] = []
    for rec in b.session["agents"]:
        agent = make_agent(rec["kind"])
        restore_agent(agent, rec)
        per_side.append(agent)
    share_memory(per_side, b, memory)
    return b, per_side


def run_fight(ruleset: str, scenario: str, seed: int, agents: list[str] | None = None,
              max_rounds: int | None = None,
              on_event: Callable[[str], None] | None = None) -> FightResult:
    """Fight to the end; ``agents`` names one agent kind per side (default packet)."""
    b, per_side = new_fight(ruleset, scenario, seed, agents, max_rounds)
    return fight_on(b, per_side, on_event)


def save_fight(b: Battle, per_side: list[Agent], path: Path) -> None:
    """Save the fight with its agents' random state, so that it resumes exactly."""
    b.session["agents"] = [agent_record(kind_of(a), a, i) for i, a in enumerate(per_side)]
    saves.save(b, path, memory_parts(handed_memory(per_side, b)))


def fight_on(b: Battle, per_side: list[Agent], on_event: Callable[[str], None] | None = None,
             save_to: Path | None = None, stop_after: int | None = None) -> FightResult:
    """Let the agents fight ``b`` to the end (or for ``stop_after`` decisions), saving to
    ``save_to`` every round, at the end and on Ctrl-C (then KeyboardInterrupt goes on)."""
    rs = get_ruleset(b.ruleset)
    result = FightResult(b)
    shown = len(b.log)

    def write() -> None:
        if save_to is not None:
            save_fight(b, per_side, save_to)

    if on_event:
        from wasteland.rules.textmap import render_text

        on_event(render_text(b, rs, last_events=0))
        on_event("")
        for e in b.log:
            on_event(e.text())
    saved_round = b.round
    write()
    mark = len(b.moves)
    # while a decision is made and applied: its agent's random state from before, so that
    # a stop in between leaves the fight and the agent as if the decision never began
    pending: tuple[Agent, dict[str, Any]] | None = None

    def decide(v: View, agent: Agent) -> Action:
        nonlocal pending, mark
        mark = len(b.moves)
        pending = (agent, rng_snapshot(agent))
        return agent.act(v)

    def take(v: View, agent: Agent, action: Action) -> None:
        nonlocal pending, mark, shown, saved_round
        actor = b.combatants[v.decision.combatant]
        text = action.text(b.ids, actor.slot)
        result.decisions.append({"round": b.round, "actor": actor.id, "action": text,
                                 "reason": agent.last_reason})
        if on_event:
            on_event(f"  > {actor.id}: {plainly(b, action, actor.slot)}  ({agent.last_reason})")
        rs.apply(b, action)
        pending, mark = None, len(b.moves)
        if on_event:
            for e in b.log[shown:]:
                on_event(e.text())
            shown = len(b.log)
        if b.round != saved_round:
            saved_round = b.round
            write()

    try:
        play(rs, b, by_side(b, per_side), decide=decide, apply=take,
             limit=NO_LIMIT if stop_after is None else stop_after)
    except KeyboardInterrupt:
        if pending is not None:
            restore_agent(*pending)
        if mark != len(b.moves):  # stopped inside an action: the fight as it was before it
            memory = handed_memory(per_side, b)
            result.battle = b = saves.rewind(b, b.history[:mark])
            if memory is not None:  # what was seen before the action stays seen
                share_memory(per_side, b, memory)
        write()
        raise Interrupted(result) from None
    write()
    from wasteland.agents.external import close_agents, faults_of

    result.faults = {b.side_names[i]: faults_of([a]) for i, a in enumerate(per_side)
                     if hasattr(a, "faults")}
    if b.over:
        close_agents(per_side, b)
    if on_event and b.over:
        from wasteland.rules.textmap import render_text

        on_event("")
        on_event(render_text(b, rs, last_events=0))
    return result


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a fight; ``result.battle`` is the fight as saved."""

    def __init__(self, result: FightResult) -> None:
        super().__init__()
        self.result = result
