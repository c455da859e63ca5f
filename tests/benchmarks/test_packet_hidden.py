"""benchmarks/packet_hidden.py moves hidden enemies to their last-seen squares only while
the packet decides: the battle must be exactly as it was after every decision."""

from __future__ import annotations

from wasteland.agents.base import View
from wasteland.arena.suite import load_suite
from wasteland.rules.protocol import get_ruleset

from .kit import bench_module


def test_the_last_seen_packet_puts_the_battle_back() -> None:
    mod = bench_module("packet_hidden")
    seat = next(s for s in load_suite() if s.id == "robots_robot_depot_f2d20")
    R = get_ruleset("f2d20")
    b = R.new_battle(seat.load(), 3, keep_log=False)
    b.quiet = True
    agent = mod.LastSeenPacket(3)
    steps = 0
    while not b.over and steps < 400:
        dec = R.decider(b)
        before = [c.pos for c in b.combatants]
        action = agent.act(View(b, R, dec, R.legal_ids(b)))
        assert [c.pos for c in b.combatants] == before
        R.apply(b, action)
        steps += 1
    # the depot's walls hide enemies: some decisions were made on last-seen squares
    assert agent.changed > 0 and agent.decisions == steps
