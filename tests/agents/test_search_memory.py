"""A search's continuations observe from what its combatants had seen (observe/memory.py):
each fork's observers (the guided agents, the learned value) share one copy of the
search's memory, so nothing seen in a what-if leaks back into the game's."""

from __future__ import annotations

from typing import Any

from wasteland.agents import search
from wasteland.agents.base import share_memory, view_of
from wasteland.agents.packets import PacketAgent
from wasteland.bestiary.loader import load_scenario
from wasteland.observe.memory import Memory, Sighting
from wasteland.rules.actions import ACTION_INDEX
from wasteland.rules.rulesets import get_ruleset


class Watcher:
    """A packet that notes the memory it is handed (wrapping one: compiled, the packet
    cannot be subclassed by a class the test defines)."""

    handed: list[tuple[Any, Memory]] = []

    def __init__(self, seed: int) -> None:
        self.packet = PacketAgent(seed)
        self.name = self.packet.name
        self.last_reason = ""

    def act(self, view: Any) -> Any:
        got = self.packet.act(view)
        self.last_reason = self.packet.last_reason
        return got

    def observe_with(self, battle: Any, memory: Memory) -> None:
        Watcher.handed.append((battle, memory))


def test_a_continuation_observes_from_a_copy_of_what_was_seen() -> None:
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 3)
    first = ACTION_INDEX[PacketAgent(1).act(view_of(rs, b))]
    seen = Memory()
    seen.row(0, len(b.combatants))[1] = Sighting(5, 0, (0.5,) * 20)
    judged: list[Memory | None] = []
    Watcher.handed = []
    search.continuation(rs, b, first, 0, 7, 1, lambda s, fields=None: Watcher(s),
                        outlook=search.Outlook(lambda f, side, m: judged.append(m) or 0.5, seen))
    forks = {id(f) for f, _ in Watcher.handed}
    copies = {id(m) for _, m in Watcher.handed}
    assert len(Watcher.handed) == len(b.side_names) and len(forks) == 1 and len(copies) == 1
    fork_memory = Watcher.handed[0][1]
    assert Watcher.handed[0][0] is not b and fork_memory is not seen
    assert fork_memory.rows == seen.rows and judged == [fork_memory]


def test_the_search_hands_its_guides_the_games_memory() -> None:
    """Handed the game's memory, a search observes the game's battle with it; another
    battle (a new game) with one of its own."""
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 3)
    agent = search.SearchAgent("search", 1)
    game = Memory()
    share_memory([agent], b, game)
    assert agent.memory_of(b) is game
    other = rs.new_battle(load_scenario("vault_corridor"), 4)
    assert agent.memory_of(other) is not game
