"""benchmarks/packet_hidden.py moves hidden enemies to their last-seen squares only while
the packet decides: the battle must be exactly as it was after every decision."""

from __future__ import annotations

from wasteland.agents.base import View
from wasteland.bestiary.suite import load_suite
from wasteland.rules.rulesets import get_ruleset

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


def test_enemies_never_seen_are_left_out_of_the_decision_only() -> None:
    """--ignore-never-seen: while the packet decides, an enemy its combatant has never seen
    is not standing (unless it knows of no enemy at all); after, every status is back."""
    mod = bench_module("packet_hidden")
    seat = next(s for s in load_suite() if s.id == "radscorpions_storm_drain_f2d20")
    R = get_ruleset("f2d20")
    b = R.new_battle(seat.load(), 5, keep_log=False)
    b.quiet = True
    agent = mod.LastSeenPacket(5, ignore_never_seen=True)
    left_out = {"n": 0}
    inner = agent.inner

    class Spy:
        def act(self, view: View):  # type: ignore[no-untyped-def]
            me = view.me
            seen = agent.last[me.slot]
            for e in view.battle.combatants:
                if e.side != me.side and e.status != "active" and e.hp > 0 \
                        and e.slot not in seen:
                    left_out["n"] += 1
                    assert e.status == mod.NOT_THERE
            return inner.act(view)

    agent.inner = Spy()
    steps = 0
    while not b.over and steps < 400:
        dec = R.decider(b)
        before = [(c.pos, c.status) for c in b.combatants]
        action = agent.act(View(b, R, dec, R.legal_ids(b)))
        assert [(c.pos, c.status) for c in b.combatants] == before
        R.apply(b, action)
        steps += 1
    assert left_out["n"] > 0
