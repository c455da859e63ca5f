"""The search agent (issue 24): budgets named in one line, no peeking at the battle's
dice, the same decision for the same seed and budget, the packet's choice kept unless
another beats it beyond the noise, difficulty levels, and saves that resume exactly."""

from __future__ import annotations

import math
import random

import pytest

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.agents.search import (
    WEIGHTS,
    Arm,
    Budget,
    SearchAgent,
    candidates,
    features,
    paired,
    parse_budget,
    value,
)
from wasteland.bestiary.loader import load_scenario
from wasteland.cli.fight import fight_on, new_fight, resumed_fight, save_fight
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_INDEX
from wasteland.rules.errors import WastelandError
from wasteland.rules.fork import fork
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

SMALL = "search:rollouts=8,candidates=3,horizon=1"


@pytest.mark.parametrize("name, budget", [
    ("search", Budget()),
    ("search@0.2", Budget(seconds=0.2, given=frozenset({"seconds"}))),
    ("search:rollouts=64,horizon=0", Budget(rollouts=64, horizon=0,
                                            given=frozenset({"rollouts", "horizon"}))),
    ("search:candidates=3,z=2.5", Budget(candidates=3, z=2.5,
                                         given=frozenset({"candidates", "z"}))),
    ("search:rollouts=48", Budget(given=frozenset({"rollouts"}))),  # a default, but named
])
def test_budgets_parse_and_name_themselves_again(name, budget):
    assert parse_budget(name) == budget
    assert parse_budget(budget.text()) == budget


def test_a_ruleset_default_fills_only_what_the_name_left_unset():
    """docs/search.md, "2d20, second round": 2d20's continuations play to the end, with a
    stricter bar, its turns planned once and its policies guiding; a key the name sets wins
    over the ruleset's default."""
    from wasteland.agents.search import RULESET_DEFAULTS

    plain = parse_budget("search")
    assert plain.under("pnp") == plain and plain.under("simple") == plain
    f = plain.under("f2d20")
    assert (f.horizon, f.rollouts, f.z, f.turn, f.base) == (0, 20, 1.5, 1, "policy")
    assert set(RULESET_DEFAULTS["f2d20"]) == {"horizon", "rollouts", "z", "taper", "turn",
                                             "base"} and f.taper == 1
    named = parse_budget("search:rollouts=48,z=1").under("f2d20")
    assert (named.horizon, named.rollouts, named.z) == (0, 48, 1.0)
    assert parse_budget("search:rollouts=48").text() == "search:rollouts=48"


@pytest.mark.parametrize("name, fragment", [
    ("search@-1", "a time budget is 0.001 to 60 seconds a decision, got -1"),
    ("search@x", "'x' is not a number of seconds"),
    ("search@1e9", "a time budget is 0.001 to 60 seconds"),
    ("search:rollouts=0", "rollouts must be a whole number from 1 to 10000, got '0'"),
    ("search:rollouts=2.5", "rollouts must be a whole number"),
    ("search:rollouts=" + "9" * 5000, "rollouts must be a whole number"),
    ("search:depth=3", "'depth=3' is not key=value with a key of rollouts, candidates"),
    ("search:horizon", "'horizon' is not key=value"),
    ("search:", "unknown agent 'search:'"),
    ("searchx", "unknown agent 'searchx'"),
])
def test_a_bad_budget_is_one_line(name, fragment):
    with pytest.raises(WastelandError) as e:
        make_agent(name, 0)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def _battle(ruleset: str, seed: int = 4, scenario: str = "duel"):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed)
    packets = [make_agent("packet", s) for s in range(2)]
    for _ in range(3):  # a few decisions in, so the fight has some history
        v = view_of(rs, b)
        rs.apply(b, packets[b.combatants[v.decision.combatant].side].act(v))
    return rs, b


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_search_never_reads_the_battles_dice(ruleset):
    """Two battles that differ only in their RNG's state get the same decision and the
    same reason from searches with the same seed; and the battle's RNG is not advanced."""
    rs, a = _battle(ruleset)
    _, b = _battle(ruleset)
    b.rng.seed(999)  # the future dice differ, nothing else does
    assert a.state() != b.state() and {**a.state(), "rng": 0} == {**b.state(), "rng": 0}
    before = a.rng.getstate()
    got = []
    for battle in (a, b):
        agent = SearchAgent(SMALL, seed=5)
        got.append((agent.act(view_of(rs, battle)), agent.last_reason))
    assert got[0] == got[1]
    assert a.rng.getstate() == before


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_same_seed_and_budget_decide_the_same(ruleset):
    """A fight of a search agent against the packet, twice: the same decisions and reasons."""
    runs = []
    for _ in range(2):
        rs, b = _battle(ruleset, seed=7)
        agents = [SearchAgent(SMALL, seed=11), make_agent("packet", 1)]
        seen = []
        while not b.over and len(seen) < 30:
            v = view_of(rs, b)
            side = b.combatants[v.decision.combatant].side
            action = agents[side].act(v)
            seen.append((action, agents[side].last_reason))
            rs.apply(b, action)
        runs.append(seen)
    assert runs[0] == runs[1]
    assert any("continuations" in reason for _, reason in runs[0])


def test_a_fork_shares_the_map_and_copies_the_state():
    rs, b = _battle("pnp")
    f = fork(b, 3)
    assert f.grid is b.grid and f.scenario is b.scenario
    assert {**f.state(), "rng": 0} == {**b.state(), "rng": 0}
    f.combatants[0].hp -= 5
    assert f.combatants[0].hp != b.combatants[0].hp
    assert fork(b, 3).rng.random() == fork(b, 3).rng.random() != fork(b, 4).rng.random()


def test_the_packets_choice_stands_unless_beaten_beyond_the_noise():
    base, close, clear = Arm(1, [0.5, 0.6, 0.4, 0.5]), Arm(2, [0.6, 0.5, 0.4, 0.6]), \
        Arm(3, [0.9, 1.0, 0.8, 0.9])
    d, se, n = paired(close, base)
    assert n == 4 and d == pytest.approx(0.025) and d < 1.0 * se  # kept: within the noise
    d, se, _ = paired(clear, base)
    assert d == pytest.approx(0.4) and d > 1.0 * se


def test_features_are_the_shares_standing_and_the_rounds_left():
    rs, b = _battle("pnp")
    me = b.combatants[0].side
    mine = [c for c in b.combatants if c.side == me]
    theirs = [c for c in b.combatants if c.side != me]
    theirs[0].hp = theirs[0].max_hp // 2
    a = sum(c.hp for c in mine) / sum(c.max_hp for c in mine)
    t = sum(c.hp for c in theirs) / sum(c.max_hp for c in theirs)
    left = 1 - b.round / b.max_rounds
    assert features(b, me) == pytest.approx((a, t, 1.0, 1.0, (a - t) * left, left))
    theirs[0].status = "unconscious"  # a downed combatant keeps no HP and does not stand
    assert features(b, me)[1:4] == pytest.approx((0.0, 1.0, 0.0))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_value_is_the_result_or_the_fitted_chance_of_winning(ruleset):
    rs, b = _battle(ruleset)
    me = b.combatants[0].side
    w = WEIGHTS[ruleset]
    z = w[0] + sum(wi * xi for wi, xi in zip(w[1:], features(b, me)))
    assert value(b, me) == pytest.approx(1 / (1 + math.exp(-z)))
    before, theirs = value(b, me), value(b, 1 - me)
    foe = next(c for c in b.combatants if c.side != me)
    foe.hp = max(1, foe.hp // 3)  # the enemy hurt: better for me, worse for it
    assert value(b, me) > before and value(b, 1 - me) < theirs
    b.over, b.winner = True, me
    assert value(b, me) == 1.0 and value(b, 1 - me) == 0.0
    b.winner = None  # the round limit: no side won, and the search counts it so
    assert value(b, me) == 0.0 == value(b, 1 - me)


def test_candidates_start_with_the_packets_choice_and_spread_over_kinds():
    rs, b = _battle("pnp")
    v = view_of(rs, b)
    choice = ACTION_INDEX[make_agent("packet", 0).act(v)]
    got = candidates(v, choice, 4)
    assert got[0] == choice and len(got) == min(4, len(v.legal_ids)) == len(set(got))
    assert set(got) <= set(v.legal_ids)


@pytest.mark.parametrize("level, kind", [("easy", "sloppy"), ("normal", "packet"),
                                         ("hard", "search"), ("deadly", "search")])
def test_levels_name_agents_and_are_remade_by_their_level(level, kind):
    from wasteland.agents.base import kind_of

    agent = make_agent(level, 3)
    assert kind_of(agent) == (level if level != "normal" else "packet") or kind_of(agent) == level
    assert type(agent).__name__.lower().startswith(kind)


def test_a_fight_with_a_search_agent_saved_anywhere_resumes_exactly(tmp_path):
    rng = random.Random(2)
    path = tmp_path / "f.json"
    for seed in range(3):
        agents = [SMALL, "packet"] if seed % 2 == 0 else ["hard", "sloppy"]
        whole, per_side = new_fight("pnp", "duel", seed, agents)
        fight_on(whole, per_side)
        cut = rng.randrange(len(whole.history))
        b, per_side = new_fight("pnp", "duel", seed, agents)
        fight_on(b, per_side, stop_after=cut)
        save_fight(b, per_side, path)
        resumed, per_side = resumed_fight(path, {})
        fight_on(resumed, per_side)
        assert resumed.history == whole.history and resumed.state() == whole.state()
        assert saves.load(path).history[:cut] == whole.history[:cut]


def test_plans_are_the_packet_with_one_field_changed_and_start_differently():
    from wasteland.agents.packets import PacketAgent
    from wasteland.agents.search import PLANS

    rs, b = _battle("pnp", scenario="vault_corridor")
    v = view_of(rs, b)
    agent = SearchAgent("search", seed=1)
    base_id = ACTION_INDEX[PacketAgent(9).act(v)]
    arms = agent._plans(v, 9, {base_id}, Budget().candidates)
    firsts = [a.id for a in arms]
    assert base_id not in firsts and len(set(firsts)) == len(firsts) <= Budget().candidates - 1
    for arm in arms:
        assert arm.plan in PLANS
        assert ACTION_INDEX[PacketAgent(9, {v.me.id: arm.plan.fields}).act(v)] == arm.id


@pytest.mark.parametrize("rival_better, spent", [(False, 12), (True, 43)])
def test_the_search_stops_early_when_no_candidate_beats_the_packets_choice(
        monkeypatch, rival_better, spent):
    """Rung one gives each of six arms 2 continuations; when none beats the packet's
    choice, the rest of the budget is not spent."""
    import wasteland.agents.search as search

    calls = []

    def fake(rs, b, first, side, seed, horizon, base, plan=None, slot=-1, judge=None):
        calls.append(first)
        return 0.5 + (0.1 if (first != base_id) == rival_better else -0.1)

    rs, b = _battle("pnp", scenario="vault_corridor")
    v = view_of(rs, b)
    agent = SearchAgent("search:plans=0", seed=1)
    from wasteland.agents.packets import PacketAgent

    base_id = ACTION_INDEX[PacketAgent(0).act(v)]
    arms = [Arm(i, []) for i in candidates(v, base_id, 6)]
    assert len(arms) == 6
    monkeypatch.setattr(search, "continuation", fake)
    agent._spend(rs, b, v.me.side, 0, arms, v.me.slot)
    assert len(calls) == spent


def test_the_search_beats_the_packet_in_a_suite_seat_on_the_same_seeds():
    """A short version of benchmarks/search.py (docs/search.md has the 100- and 1,000-fight
    runs): in the PnP storm drain seat, where the packet wins about half its fights against
    packets, the search at a small budget wins clearly more of the same 20 fights."""
    from wasteland.arena.suite import measure
    from wasteland.bestiary.suite import load_suite

    seat = next(s for s in load_suite() if s.id == "radscorpions_storm_drain_pnp")
    packet = measure(seat, "packet", fights=20)
    searched = measure(seat, "search:rollouts=24", fights=20)
    assert 6 <= packet.wins <= 14  # a seat with room
    assert searched.wins >= packet.wins + 3


def test_plans_2_fills_up_with_single_actions_that_do_not_put_off():
    from wasteland.agents.search import putting_off
    from wasteland.rules.actions import ACTION_TABLE, Action

    assert putting_off(Action("cover")) and putting_off(Action("move", 1, "away"))
    assert not putting_off(Action("move", 1, "toward")) and not putting_off(Action("attack", 1))
    calls = _plan2_arms("search:plans=2,candidates=8,full=0")
    assert calls
    filled = 0
    for arms in calls:
        singles = [a for a in arms if a.plan is None][1:]  # after the packet's own choice
        filled += bool(singles)
        assert len(arms) <= 8 and len({a.id for a in arms}) == len(arms)
        assert not any(putting_off(ACTION_TABLE[a.id]) for a in singles)
        # plans first, single actions after
        assert [a.plan is None for a in arms[1:]] == sorted(a.plan is None for a in arms[1:])
    assert filled


def _plan2_arms(name: str) -> list:
    """The candidates a search of ``name`` weighs at each decision of 6 rounds of a packet
    fight in vault_corridor (its continuations are not played)."""
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 3)
    packets = [make_agent("packet", s) for s in range(2)]
    calls: list = []
    agent = SearchAgent(name, seed=1)
    agent._spend = (lambda rs, b, side, seed, arms, slot, horizon=None:
                    calls.append(arms))
    while not b.over and b.round < 6:
        v = view_of(rs, b)
        if len(v.legal_ids) > 1:
            agent.act(v)
        rs.apply(b, packets[v.me.side].act(v))
    return calls


def test_plans_2_played_to_the_end_weighs_waiting_too():
    """With no cut (horizon 0, or few enough standing for ``full``) a single action that
    waits or backs off cannot hide its cost past the horizon, so it is a candidate too."""
    from wasteland.agents.search import putting_off
    from wasteland.rules.actions import ACTION_TABLE

    for name in ("search:plans=2,candidates=12,horizon=0,full=0",
                 "search:plans=2,candidates=12"):  # vault_corridor: 4 stand, full=4
        calls = _plan2_arms(name)
        assert any(putting_off(ACTION_TABLE[a.id]) for arms in calls
                   for a in arms[1:] if a.plan is None)


@pytest.mark.parametrize("full, standing_ok", [(0, False), (2, True), (1, False)])
def test_full_plays_small_fights_to_the_end(full, standing_ok):
    """With at most ``full`` combatants standing the continuations ignore the horizon."""
    rs, b = _battle("pnp")  # the duel: two stand
    horizons = []
    agent = SearchAgent(f"search:full={full},plans=0", seed=1)
    agent._spend = (lambda rs, b, side, seed, arms, slot, horizon=None:
                    horizons.append(horizon))
    agent.act(view_of(rs, b))
    assert horizons == [0 if standing_ok else Budget().horizon]


def test_wasteland_agents_lists_each_levels_measured_strength_and_time():
    from wasteland.agents.levels import LEVELS, MEASURED, measured

    assert set(MEASURED) == set(LEVELS)
    ratings = [MEASURED[k][0] for k in ("easy", "normal", "hard", "deadly")]
    assert ratings == sorted(ratings)  # harder levels measured stronger
    rating, seconds = MEASURED["hard"]
    assert measured("hard") == f"; rating {rating:.1f}, {seconds * 1000:.0f} ms a decision"
    assert "under 1 ms" in measured("normal") and measured("nightmare") == ""


@pytest.mark.parametrize("ruleset, horizon, rollouts", [("pnp", 2, 48), ("simple", 2, 48),
                                                        ("f2d20", 0, 20)])
def test_the_default_search_spends_its_rulesets_budget(ruleset, horizon, rollouts):
    """On a 4v4 map (more stand than ``full``) the default cuts at two rounds under PnP and
    Simple, and plays 2d20's continuations to the end, 20 of them (RULESET_DEFAULTS)."""
    rs, b = _battle(ruleset, scenario="ruined_street")
    seen = []
    agent = SearchAgent("search", seed=1)
    real = agent._spend

    def spy(rs_, b_, side, seed, arms, slot, horizon_=None):
        seen.append(horizon_)
        real(rs_, b_, side, seed, arms, slot, horizon_)
        seen.append(sum(len(a.values) for a in arms))

    agent._spend = spy
    packets = [make_agent("packet", s) for s in range(len(b.side_names))]
    while len(seen) < 6 and not b.over:
        v = view_of(rs, b)
        act = agent.act(v) if len(v.legal_ids) > 1 else packets[v.me.side].act(v)
        rs.apply(b, act)
    assert seen and all(h == horizon for h in seen[0::2])
    assert rollouts // 2 < max(seen[1::2]) <= rollouts


def test_taper_halves_the_continuations_for_each_action_already_taken_this_turn(monkeypatch):
    """2d20's default (taper=1): once the combatant whose turn it is has taken an action
    this turn (read from the battle's minor and major counts), its next decision gets
    half the continuations; a decision that opens the turn gets them all."""
    import wasteland.agents.search as search_mod

    rs = get_ruleset("f2d20")
    b = rs.new_battle(load_scenario("ruined_street"), 2)
    packets = [make_agent("packet", s) for s in range(len(b.side_names))]
    calls = [0]
    real = search_mod.continuation

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(search_mod, "continuation", counting)
    seen: list[tuple[int, int, int]] = []  # (actions done, tapered, whole) a decision
    while not b.over and len(seen) < 8:
        v = view_of(rs, b)
        owner = v.decision.slot == "act" and b.order[b.turn] == v.me.slot
        done = econ.minor + econ.major if (econ := b.book.economy()) else 0
        if owner and len(v.legal_ids) > 1 and done <= 1:
            spent = []
            for name in ("search:candidates=2,plans=0", "search:candidates=2,plans=0,taper=0"):
                calls[0] = 0
                SearchAgent(name, seed=3).act(v)
                spent.append(calls[0])
            seen.append((done, *spent))
        rs.apply(b, packets[v.me.side].act(v))
    assert {d for d, _, _ in seen} == {0, 1}
    for done, tapered, whole in seen:
        assert whole == 20 and tapered == (20 if done == 0 else 10)


def test_a_kept_choice_says_when_a_better_looking_rival_was_too_close_to_switch():
    """When the search keeps the packet's choice though a rival scored higher, the reason
    says the lead was inside the noise; when the rival scored lower, it does not."""
    import re

    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 7, keep_log=False)
    agents = [make_agent("packet", 0), make_agent("hard", 1)]
    kept = []
    while not b.over and len(kept) < 400:
        v = view_of(rs, b)
        side = b.combatants[v.decision.combatant].side
        action = agents[side].act(v)
        reason = agents[side].last_reason or ""
        m = re.search(r"keeps the packet's .*?; next best .*? ([+-]\d+)% "
                      r"(?:give or take|in the one)", reason)
        if m:
            kept.append((int(m.group(1)), "too close to switch" in reason))
        rs.apply(b, action)
    assert any(d > 0 for d, _ in kept) and any(d <= 0 for d, _ in kept), kept
    assert all(said == (d > 0) for d, said in kept), kept
