"""The shipped policies inside the search (issue 40, item 2; agents/guide.py): where a policy
was trained for a combatant's kind, its choice is scored beside the packet's, its likelier
actions are the single-action candidates and it plays that combatant's continuations."""

from __future__ import annotations

import random

import pytest

from wasteland.agents import search
from wasteland.agents.base import view_of
from wasteland.agents.guide import Guide, GuidedAgent, policies_for
from wasteland.agents.make import make_agent
from wasteland.agents.packets import PacketAgent
from wasteland.agents.policy import PolicyAgent
from wasteland.agents.search import PRUNE, SearchAgent, parse_budget
from wasteland.bestiary.suite import load_suite
from wasteland.rules.actions import ACTION_INDEX
from wasteland.rules.errors import WastelandError
from wasteland.rules.rulesets import get_ruleset

GUIDED = "search:rollouts=12,candidates=6,base=policy"
SEAT = "radscorpions_duel_f2d20"  # the radscorpion is side 1, two raiders side 0


def _battle(seed: int = 3, decisions: int = 0):
    """The seat's battle after ``decisions`` packet decisions."""
    s = next(x for x in load_suite() if x.id == SEAT)
    rs = get_ruleset(s.ruleset)
    b = rs.new_battle(s.load(), seed)
    packets = [make_agent("packet", k) for k in range(2)]
    for _ in range(decisions):
        v = view_of(rs, b)
        rs.apply(b, packets[b.combatants[v.decision.combatant].side].act(v))
    return rs, b


def _radscorpion_decision(rs, b):
    """Plays the packet on until the radscorpion (side 1) has a choice; its view."""
    packet = make_agent("packet", 9)
    while not b.over:
        v = view_of(rs, b)
        if b.combatants[v.decision.combatant].side == 1 and len(v.legal_ids) > 1:
            return v
        rs.apply(b, packet.act(v))
    raise AssertionError("the fight ended before the radscorpion chose")


def test_base_is_a_budget_word_that_names_itself_again() -> None:
    b = parse_budget("search:base=policy,turn=1")
    assert b.base == "policy" and parse_budget(b.text()) == b
    assert parse_budget("search").base == "packet"
    with pytest.raises(WastelandError, match="base must be one of packet, policy"):
        parse_budget("search:base=teacher")


def test_the_policies_by_kind_are_the_shipped_ones_of_the_ruleset() -> None:
    got = policies_for("f2d20")
    assert got["radscorpion"].name == "radscorpion_f2d20"
    assert got["super_mutant"].name == "super_mutant_f2d20"
    assert "raider" not in got
    assert policies_for("pnp")["radscorpion"].name == "radscorpion_pnp"


def test_the_guide_ranks_as_the_policy_agent_chooses() -> None:
    rs, b = _battle()
    v = _radscorpion_decision(rs, b)
    guide = Guide("f2d20", side=1)
    p = guide.policy(b, v.me.slot)
    assert p is not None and p.name == "radscorpion_f2d20"
    ranked = guide.ranked(v, p)
    assert {i for i, _ in ranked} == set(v.legal_ids)
    assert abs(sum(q for _, q in ranked) - 1) < 1e-9
    assert all(x[1] >= y[1] for x, y in zip(ranked, ranked[1:]))
    assert ACTION_INDEX[PolicyAgent(p).act(v)] == ranked[0][0]
    # the other side's combatants are the packet's, whatever their kind
    assert Guide("f2d20", side=0).policy(b, v.me.slot) is None


def test_a_guided_side_plays_its_policy_kinds_by_the_policy_and_the_rest_by_the_packet():
    rs, b = _battle()
    guide = Guide("f2d20", side=1)
    packet = PacketAgent(4)
    agent = GuidedAgent(guide, packet)
    seen = {0: 0, 1: 0}
    while not b.over and sum(seen.values()) < 40:
        v = view_of(rs, b)
        side = b.combatants[v.decision.combatant].side
        got = agent.act(v)
        if side == 1:
            assert ACTION_INDEX[got] == guide.ranked(v, guide.policy(b, v.me.slot))[0][0]
            assert agent.last_reason.startswith("policy radscorpion f2d20")
        else:
            assert agent.last_reason.startswith("packet: ")
        seen[side] += 1
        rs.apply(b, got)
    assert seen[0] and seen[1]


def test_the_policys_choice_is_the_one_to_beat_and_the_packets_is_a_candidate():
    """The arms: the policy's choice first (the keep rule's), the packet's next, and no
    single action the policy finds unlikely."""
    rs, b = _battle(seed=5)
    agent = SearchAgent(GUIDED, seed=2)
    calls: list = []

    def spy(rs_, b_, side, seed, arms, slot, horizon=None):
        calls.append(list(arms))

    agent._spend = spy  # type: ignore[method-assign]
    packet = make_agent("packet", 9)
    guide = Guide("f2d20", side=1)
    checked = differ = 0
    while not b.over and checked < 10:
        v = view_of(rs, b)
        if b.combatants[v.decision.combatant].side == 1 and len(v.legal_ids) > 1:
            ranked = guide.ranked(v, guide.policy(b, v.me.slot))
            likely = {i for i, q in ranked if q >= PRUNE}
            state = agent.rng.getstate()
            n = len(calls)
            agent.act(v)
            if len(calls) > n:
                arms = calls[-1]
                after = random.Random()
                after.setstate(state)
                packet_id = ACTION_INDEX[PacketAgent(after.getrandbits(62)).act(v)]
                assert arms[0].id == ranked[0][0] and arms[0].plan is None
                if packet_id != arms[0].id:
                    assert arms[1].id == packet_id and arms[1].plan is None
                    differ += 1
                singles = [a.id for a in arms[1:] if a.plan is None and a.id != packet_id]
                assert set(singles) <= likely
                checked += 1
        rs.apply(b, packet.act(v))
    assert checked and differ


def test_a_guided_search_keeps_the_policys_choice_unless_beaten_beyond_the_noise(monkeypatch):
    rs, b = _battle()
    v = _radscorpion_decision(rs, b)
    guide = Guide("f2d20", side=1)
    pick = guide.ranked(v, guide.policy(b, v.me.slot))[0][0]
    for edge in (-0.05, 0.3):
        def fake(rs_, b_, first, side, seed, horizon, base, plan=None, slot=-1, judge=None,
                 edge=edge):
            # every other candidate a little behind the policy's choice, or far ahead
            noise = (seed // 7919) % 2 * 0.1
            return 0.5 + noise + (0.0 if first == pick else edge)

        monkeypatch.setattr(search, "continuation", fake)
        agent = SearchAgent(GUIDED, seed=1)
        got = ACTION_INDEX[agent.act(v)]
        assert (got == pick) == (edge < 0)
        assert ("keeps the policy's" in agent.last_reason) == (edge < 0)


def test_a_guided_search_says_which_policy_played_and_plays_a_legal_fight():
    rs, b = _battle(seed=2)
    agents = [make_agent("packet", 1), SearchAgent(GUIDED, seed=4)]
    reasons = []
    while not b.over:
        v = view_of(rs, b)
        side = b.combatants[v.decision.combatant].side
        action = agents[side].act(v)
        if side == 1:
            reasons.append(agents[1].last_reason)
        rs.apply(b, action)  # checked: an illegal action raises
    searched = [r for r in reasons if "continuations" in r]
    assert searched and all("policy radscorpion f2d20 playing Radscorpion" in r for r in searched)


def test_the_guided_search_never_reads_the_battles_dice():
    rs, a = _battle(seed=6, decisions=3)
    _, b = _battle(seed=6, decisions=3)
    views = [_radscorpion_decision(rs, a), _radscorpion_decision(rs, b)]
    b.rng.seed(999)  # the future dice differ, nothing else does
    assert {**a.state(), "rng": 0} == {**b.state(), "rng": 0} and a.state() != b.state()
    got = []
    for v in views:
        agent = SearchAgent(GUIDED, seed=5)
        got.append((agent.act(v), agent.last_reason))
    assert got[0] == got[1]


def test_the_continuations_play_the_searching_side_by_its_policies(monkeypatch):
    rs, b = _battle()
    v = _radscorpion_decision(rs, b)
    bases = []

    def fake(rs_, b_, first, side, seed, horizon, base, plan=None, slot=-1, judge=None):
        bases.append((base, plan))
        return 0.5

    monkeypatch.setattr(search, "continuation", fake)
    for name, guided in ((GUIDED, True), ("search:rollouts=12,candidates=6,base=packet", False)):
        bases.clear()
        SearchAgent(name, seed=1).act(v)
        assert bases
        for base, _plan in bases:
            side_agent = base(3)
            assert isinstance(side_agent, GuidedAgent) == guided
            # a plan's follower is its packet with the plan's fields, guided or not
            assert isinstance(base(3, {"x": {"aggression": 10}}), PacketAgent)
            if guided:
                got = side_agent.act(v)
                p = side_agent.guide.policy(b, v.me.slot)
                assert ACTION_INDEX[got] == side_agent.guide.ranked(v, p)[0][0]


def test_a_followed_turn_names_the_policy_only_for_the_kinds_it_plays():
    """In the ruined street the super mutants are the policy's, the raiders beside them the
    packet's: a turn each follows says whose it is."""
    from wasteland.bestiary.loader import load_scenario

    rs = get_ruleset("f2d20")
    b = rs.new_battle(load_scenario("ruined_street"), 3)
    agents = [make_agent("packet", 1), SearchAgent("search:rollouts=6,candidates=3", seed=4)]
    said: dict[str, set[str]] = {}
    while not b.over and b.round < 4:
        v = view_of(rs, b)
        side = b.combatants[v.decision.combatant].side
        action = agents[side].act(v)
        reason = agents[side].last_reason
        if side == 1 and "follows its turn" in reason:
            whose = "policy" if "(the policy's)" in reason else "packet"
            said.setdefault(v.me.creature.id, set()).add(whose)
        rs.apply(b, action)
    assert said.get("raider") == {"packet"}
    assert said.get("super_mutant", set()) | said.get("super_mutant_brute", set()) == {"policy"}


class _Scripted(SearchAgent):
    """A search whose continuations are replaced by set values: under the policy's play
    every candidate is worth ``guided``; under the packet's, the packet's own choice is worth
    ``packet`` and the rest 0.1 (so each pass's choice and value are known in advance)."""

    def __init__(self, guided: float, packet: float) -> None:
        super().__init__("search:rollouts=8,candidates=4,base=both,turn=1", 5)
        self.values = (guided, packet)
        self.passes: list[str] = []

    def _spend(self, rs, b, side, seed, arms, slot, horizon=None):  # type: ignore[override]
        under_packet = self.runner is self.base
        self.passes.append("packet" if under_packet else "policy")
        for k, a in enumerate(arms):
            v = (self.values[1] if k == 0 else 0.1) if under_packet else self.values[0]
            a.values = [v] * 4


@pytest.mark.parametrize("guided, packet, packet_wins", [(0.4, 0.9, True), (0.6, 0.3, False)])
def test_both_bases_take_the_choice_the_better_base_values_most(
        guided: float, packet: float, packet_wins: bool) -> None:
    rs, b = _battle()
    v = _radscorpion_decision(rs, b)
    agent = _Scripted(guided, packet)
    got = ACTION_INDEX[agent.act(v)]
    assert agent.passes == ["policy", "packet"]  # the same candidates, played out twice
    packet_choice = ACTION_INDEX[agent.base(0).act(v)]
    guide = Guide("f2d20", side=1)
    p = guide.policy(b, v.me.slot)
    policy_choice = guide.ranked(v, p)[0][0]
    if packet_wins:
        assert got == packet_choice
        assert f"the policy's play {guided:.0%}" in agent.last_reason
        assert agent.turn_plan is None  # the policy would follow the turn: search again
    else:
        assert got == policy_choice
        assert f"the packet's play {packet:.0%}" in agent.last_reason


def test_both_is_a_base_word() -> None:
    b = parse_budget("search:base=both")
    assert b.base == "both" and parse_budget(b.text()) == b


def test_wide_adds_one_action_of_each_kind_and_target_the_policy_all_but_rules_out() -> None:
    """``wide=1``: after the policy's likelier actions, the packet's breadth (one of each
    kind and target): on a map it never saw the policy can be sure of the wrong thing
    (docs/search.md, "Wide candidates"). Without it no such action is weighed."""
    rs, b = _battle(seed=5)
    guide = Guide("f2d20", side=1)
    packet = make_agent("packet", 9)
    unlikely = {False: 0, True: 0}
    checked = 0
    while not b.over and checked < 10:
        v = view_of(rs, b)
        if b.combatants[v.decision.combatant].side == 1 and len(v.legal_ids) > 2:
            ranked = dict(guide.ranked(v, guide.policy(b, v.me.slot)))
            for wide in (False, True):
                agent = SearchAgent(f"search:rollouts=12,candidates=10,plans=0,base=policy,"
                                    f"wide={int(wide)}", seed=2)
                calls: list = []

                def spy(*a, calls=calls, **k):
                    calls.append(list(a[4]))
                agent._spend = spy  # type: ignore[method-assign]
                agent.act(v)
                if not calls:
                    continue  # one candidate: nothing was weighed
                singles = [a.id for a in calls[-1][2:]]  # after the policy's and packet's
                low = [ranked[i] < PRUNE for i in singles]
                assert set(singles) <= set(v.legal_ids) and (wide or not any(low))
                assert low == sorted(low)  # the policy's likelier actions come first
                unlikely[wide] += sum(low)
            checked += 1
        rs.apply(b, packet.act(v))
    assert checked and unlikely[True] and not unlikely[False]
    assert parse_budget("search:wide=1").text() == "search:wide=1"
