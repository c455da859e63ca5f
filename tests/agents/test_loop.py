"""The fight loop (wasteland/agents/loop.py): what each hook does, and that with none it
plays the fight a plain loop plays."""

from __future__ import annotations

from wasteland.agents.base import View, view_of
from wasteland.agents.loop import by_side, play
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.actions import Action
from wasteland.rules.battle import ACTIVE
from wasteland.rules.rulesets import get_ruleset


def battle(ruleset: str = "pnp", seed: int = 3):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), seed, keep_log=False)
    return rs, b


def packets(b, seed: int = 0):
    return [make_agent("packet", seed + i) for i in range(len(b.side_names))]


class Counting:
    """Random choices, counting how often it is asked and with how many choices."""

    name = last_reason = "counting"

    def __init__(self, seed: int) -> None:
        self.inner = make_agent("random", seed)
        self.asked: list[int] = []

    def act(self, view: View) -> Action:
        self.asked.append(len(view.legal_ids))
        return self.inner.act(view)


def test_with_no_hooks_it_plays_what_a_plain_loop_plays():
    rs, b = battle("f2d20")
    n, waiting = play(rs, b, by_side(b, packets(b)))
    rs2, plain = battle("f2d20")
    agents = packets(plain)
    count = 0
    while not plain.over:
        v = view_of(rs2, plain)
        rs2.apply(plain, agents[plain.combatants[v.decision.combatant].side].act(v))
        count += 1
    assert waiting is None and b.over
    assert (n, b.history, b.winner) == (count, plain.history, plain.winner)


def test_an_empty_seat_hands_its_decision_back_untouched():
    rs, b = battle()
    agents = packets(b)
    seats = [agents[0] if c.side == 0 else None for c in b.combatants]
    while True:
        n, dec = play(rs, b, seats)
        if dec is None:
            break
        assert b.combatants[dec.combatant].side == 1 and dec == rs.decider(b)
        rs.apply(b, agents[1].act(view_of(rs, b)))  # the caller answers it its own way
    assert b.over


def test_limit_and_stop_end_it_early():
    rs, b = battle()
    n, dec = play(rs, b, by_side(b, packets(b)), limit=5)
    assert (n, dec, len(b.moves)) == (5, None, 5)
    start = b.round
    n, _ = play(rs, b, by_side(b, packets(b)), stop=lambda b: b.round > start)
    assert n > 0 and not b.over and b.round == start + 1  # the fight goes on after


def test_forced_decisions_are_taken_without_asking_only_where_said():
    rs, b = battle("f2d20")  # 2d20 has decisions with only `end` legal
    asked, skipped = Counting(1), Counting(2)
    seats = by_side(b, [asked, skipped])
    play(rs, b, seats, forced=[c.side == 1 for c in b.combatants])
    assert 1 in asked.asked  # side 0 is asked even with one choice
    assert skipped.asked and 1 not in skipped.asked


def test_decide_apply_and_after_are_called_in_order_and_none_hands_back():
    rs, b = battle()
    calls: list[str] = []

    def decide(view, agent):
        calls.append("decide")
        return None if len(calls) > 6 else agent.act(view)

    def apply(view, agent, action):
        calls.append("apply")
        rs.apply(view.battle, action)

    n, dec = play(rs, b, by_side(b, packets(b)), decide=decide, apply=apply,
                  after=lambda *_: calls.append("after"))
    assert n == 2 and dec == rs.decider(b)
    assert calls == ["decide", "apply", "after"] * 2 + ["decide"]


def test_watch_is_called_only_while_someone_of_the_side_is_down():
    rs, b = battle()  # side 1 loses both its members, one after the other
    seen: list[int] = []
    party = [c for c in b.combatants if c.side == 1]
    play(rs, b, by_side(b, packets(b)),
         watch=(1, lambda: seen.append(sum(c.status != ACTIVE for c in party))))
    assert seen and all(seen) and seen[0] == 1 and seen[-1] == len(party)
    mine: list[int] = []
    rs, b = battle()
    play(rs, b, by_side(b, packets(b)), watch=(0, lambda: mine.append(1)))
    assert not mine and b.winner == 0  # the winners never had anyone down
