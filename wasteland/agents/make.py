"""Making an agent from its name: ``make_agent("search:level=deadly", seed)``.

This is the one module that knows every kind of agent. It sits above the agent modules:
each of them imports agents/base.py (View, Agent, the helpers), none imports this one, so
the import graph sees where every kind comes from and has no circle. Each kind's module
is imported when that kind is first made, so a command that never searches never loads
the search."""

from __future__ import annotations

from typing import Any, Final, cast

from wasteland.rules.errors import WastelandError

from .base import AGENTS, LEVEL_AGENTS, Agent, agent_kind, check_ruleset

# the kinds maker() makes, one module each
KINDS: Final = ("random", "scripted", "packet", "policy", "cmd", "search", "sloppy")


def maker(kind: str) -> Any:
    """The class that makes agents of ``kind`` (one of KINDS), its module imported now."""
    if kind == "random":
        from .random_agent import RandomAgent
        return RandomAgent
    if kind == "scripted":
        from .scripted import ScriptedAgent
        return ScriptedAgent
    if kind == "packet":
        from .packets import PacketAgent
        return PacketAgent
    if kind == "policy":
        from .policy import PolicyAgent
        return PolicyAgent
    if kind == "cmd":
        from .external import CmdAgent
        return CmdAgent
    if kind == "search":
        from .search import SearchAgent
        return SearchAgent
    if kind == "sloppy":
        from .levels import SloppyAgent
        return SloppyAgent
    raise KeyError(kind)


def make_agent(name: str, seed: int = 0, ruleset: str | None = None) -> Agent:
    """An agent by name: random, scripted, packet, ``policy:NAME`` (a shipped policy,
    or ``policy:path/to/NAME.npz``) or ``cmd:COMMAND`` (a program speaking the agent
    protocol, agents/external.py). A policy agent keeps in ``kind`` the name that makes
    it again (its path made absolute), which a save records. With ``ruleset`` (a new
    battle's), an agent that cannot play it is refused in one line (check_ruleset)."""
    if ruleset is not None:
        agent = make_agent(name, seed)
        check_ruleset(agent, ruleset)
        return agent
    if name.startswith("policy:"):
        agent = maker("policy")(name[len("policy:"):], seed)
        agent.kind = agent_kind(name)
        return cast(Agent, agent)
    if name.startswith(("cmd:", "cmd@")):
        return cast(Agent, maker("cmd")(name, seed))
    if name == "scripted":  # no random state, so no seed
        return cast(Agent, maker("scripted")())
    if name in ("random", "packet", "sloppy"):
        return cast(Agent, maker(name)(seed))
    if name == "search" or name.startswith(("search@", "search:")):
        return cast(Agent, maker("search")(name, seed))
    if name in LEVEL_AGENTS:
        agent = make_agent(LEVEL_AGENTS[name], seed)
        try:
            agent.kind = name  # type: ignore[attr-defined]
        except AttributeError:  # the compiled packet takes no new attribute: "packet" it is
            pass
        return agent
    raise WastelandError(f"unknown agent {name!r}; available: {', '.join(AGENTS)}")
