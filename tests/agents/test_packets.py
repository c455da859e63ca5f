"""The packet agent: each AI packet field changes what it does, under both rulesets where
the field means something there; every decision is legal and carries a one-line reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from wasteland.agents.base import view_of
from wasteland.agents.packets import PacketAgent
from wasteland.agents.packets.traits import chems
from wasteland.agents.random_agent import RandomAgent
from wasteland.bestiary.loader import check_scenario, default_bestiary, load_scenario, scenario_names
from wasteland.bestiary.models import Scenario
from wasteland.rules.actions import ACTION_INDEX, Action
from wasteland.rules.battle import Battle
from wasteland.rules.names import RULESETS
from wasteland.rules.protocol import Ruleset
from wasteland.rules.rulesets import get_ruleset

BOTH = pytest.mark.parametrize("rules", RULESETS)
END = Action("end")
OPEN = "\n".join(["." * 14] * 7)
WIDE = "\n".join(["." * 30] * 7)  # 2d20 cuts it into five zones, six squares wide


def scenario(sides: list[list[tuple[str, tuple[int, int]]]], rows: str = OPEN,
             ai: dict[tuple[int, int], dict[str, Any]] | None = None,
             lighting: str = "clear", legend: dict[str, Any] | None = None) -> Scenario:
    """A scenario built in code: ``sides`` lists (creature, (x, y)) per side; ``ai`` gives
    per-placement packet overrides by (side, index)."""
    ai = ai or {}
    s = Scenario.model_validate({
        "id": "packet_test", "name": "packet test", "map": rows, "lighting": lighting,
        "legend": legend or {".": "floor", "#": "wall", ",": "light_cover"},
        "sides": [{"name": f"side{si}", "combatants": [
            {"creature": cr, "at": list(at), **({"ai": ai[(si, ci)]} if (si, ci) in ai else {})}
            for ci, (cr, at) in enumerate(side)]} for si, side in enumerate(sides)],
    })
    check_scenario(s, default_bestiary(), "packet_test")
    return s


def start(rules: str, s: Scenario, slot: int = 0, seed: int = 0) -> tuple[Ruleset, Battle]:
    """A fresh battle where combatant ``slot`` decides (the others end their turns)."""
    rs = get_ruleset(rules)
    b = rs.new_battle(s, seed)
    for _ in range(200):
        if rs.decider(b).combatant == slot and rs.decider(b).slot in ("small", "act", "move"):
            return rs, b
        rs.apply(b, END)
    raise AssertionError(f"combatant {slot} never got a turn")


def decide(rs: Ruleset, b: Battle, agent: PacketAgent | None = None,
           **overrides: Any) -> tuple[Action, str]:
    """The packet agent's action and reason for whoever decides now; ``overrides`` are
    packet fields for that combatant."""
    who = b.combatants[rs.decider(b).combatant]
    agent = agent or PacketAgent(seed=1, overrides={who.id: overrides} if overrides else None)
    view = view_of(rs, b)
    action = agent.act(view)
    assert ACTION_INDEX[action] in view.legal_ids, f"illegal: {action.text(b.ids, who.slot)}"
    assert agent.last_reason and "\n" not in agent.last_reason
    return action, agent.last_reason


def to_phase(rs: Ruleset, b: Battle, slot: int, phase: str) -> None:
    """Simple: everyone passes until combatant ``slot`` decides in ``phase``."""
    for _ in range(200):
        d = rs.decider(b)
        if d.combatant == slot and d.slot == phase:
            return
        rs.apply(b, END)
    raise AssertionError(f"combatant {slot} never reached its {phase} phase")


def first_attack(rs: Ruleset, b: Battle, **overrides: Any) -> tuple[Action, str]:
    """Let the deciding combatant take what it does before attacking (2d20: aim; a sniper:
    a step back; PnP: a top-up) and return its first attack, or what ends its turn."""
    who = b.combatants[rs.decider(b).combatant]
    agent = PacketAgent(seed=1, overrides={who.id: overrides} if overrides else None)
    for _ in range(30):
        action, reason = decide(rs, b, agent)
        if action.kind in ("attack", "vats") or (
                action.kind == "end" and b.slot not in ("move", "charge")):
            break  # Simple: its move and charge phases (a charge too) come before its action
        rs.apply(b, action)
        while b.ruleset == "simple" and not b.over and rs.decider(b).combatant != who.slot:
            rs.apply(b, END)  # the others pass, up to its next phase
        if rs.decider(b).combatant != who.slot:
            break
    return action, reason


def moves(a: Action) -> bool:
    return a.kind in ("move", "sprint", "step", "cover")


# --- the packet: creature, scenario overrides, agent overrides ------------------------------
def test_scenario_ai_overrides_apply_by_placement_and_agent_overrides_win() -> None:
    s = scenario([[("raider", (1, 1)), ("raider", (1, 4))], [("feral_ghoul", (10, 3))]],
                 ai={(0, 1): {"min_hp": 80, "attack_who": "strongest"}})
    rs = get_ruleset("pnp")
    b = rs.new_battle(s, 0)
    agent = PacketAgent(overrides={"raider_1": {"attack_who": "closest"}})
    first, second, ghoul = (agent.packet(c, b) for c in b.combatants)
    assert first == b.combatants[0].creature.ai  # no override: the creature's own packet
    assert (second.min_hp, second.attack_who) == (80, "closest")  # scenario, then agent
    assert ghoul == b.combatants[2].creature.ai
    # a new battle with another scenario drops the cached packets
    b2 = rs.new_battle(scenario([[("raider", (1, 1)), ("raider", (1, 4))],
                                 [("feral_ghoul", (10, 3))]]), 0)
    assert agent.packet(b2.combatants[1], b2).min_hp == b2.combatants[1].creature.ai.min_hp


@BOTH
def test_scenario_override_changes_the_decision(rules: str) -> None:
    """min_to_hit 100 set in the scenario file keeps the dweller's pistol quiet. (Under
    Simple its shot at the raider in the open is certain, 2d10 + 10 against 12: in dim
    light it is not.)"""
    sides = [[("vault_dweller", (2, 3))], [("raider", (5, 3))]]
    light = "obscured" if rules == "simple" else "clear"
    rs, b = start(rules, scenario(sides, lighting=light))
    assert first_attack(rs, b)[0].kind in ("attack", "vats")
    rs, b = start(rules, scenario(sides, ai={(0, 0): {"min_to_hit": 100}}, lighting=light))
    assert first_attack(rs, b)[0].kind not in ("attack", "vats")


# --- run_away_mode / min_hp and hurt_too_much ---------------------------------------------
@BOTH
def test_a_coward_flees_at_its_threshold_and_not_above(rules: str) -> None:
    sides = [[("raider", (13, 3))], [("feral_ghoul", (16, 3))]]
    rs, b = start(rules, scenario(sides, rows=WIDE))
    me, ghoul = b.combatants
    at = me.max_hp // 2  # min_hp 50: at or under half its HP it runs
    me.hp = at
    action, reason = decide(rs, b, min_hp=50, chem_use="never")
    assert action.kind in ("move", "sprint") and action.option == "away"
    assert action.target == ghoul.slot and "50%" in reason
    me.hp = at + 1
    action, _ = decide(rs, b, min_hp=50, chem_use="never")
    assert action.option != "away"


@BOTH
def test_run_away_mode_names_a_threshold(rules: str) -> None:
    rs, b = start(rules, scenario([[("raider", (13, 3))], [("feral_ghoul", (16, 3))]],
                                  rows=WIDE))
    me = b.combatants[0]
    me.hp = me.max_hp * 45 // 100  # under bleeding (50%), over not_feeling_good (25%)
    assert decide(rs, b, min_hp=0, run_away_mode="bleeding", chem_use="never")[0].option == "away"
    assert decide(rs, b, min_hp=0, run_away_mode="not_feeling_good",
                  chem_use="never")[0].option != "away"


@BOTH
def test_a_coward_comes_back_when_no_enemy_is_near(rules: str) -> None:
    """Fleeing lasts while an enemy could close in; far from them it fights on (a gun
    shoots, from where it stands)."""
    far = "\n".join(["." * 30] * 3)
    rs, b = start(rules, scenario([[("raider", (1, 1))], [("feral_ghoul", (28, 1))]], rows=far))
    me = b.combatants[0]
    me.hp = 1
    action, reason = decide(rs, b, min_hp=50, chem_use="never")
    assert action.option != "away" and "no enemy is near" in reason


@BOTH
def test_hurt_too_much_flees_with_an_injured_leg(rules: str) -> None:
    rs, b = start(rules, scenario([[("raider", (13, 3))], [("feral_ghoul", (16, 3))]],
                                  rows=WIDE))
    me = b.combatants[0]
    assert decide(rs, b, min_hp=0, hurt_too_much=["leg"])[0].option != "away"
    me.crippled["leg"] = 1
    action, reason = decide(rs, b, min_hp=0, hurt_too_much=["leg"])
    assert action.option == "away" and "its leg hurt too much" in reason
    assert decide(rs, b, min_hp=0, hurt_too_much=["arm"])[0].option != "away"


# --- distance ---------------------------------------------------------------------------
@BOTH
def test_a_sniper_backs_away_from_a_close_enemy(rules: str) -> None:
    sides = [[("vault_dweller", (13, 3))], [("feral_ghoul", (15, 3))]]
    rs, b = start(rules, scenario(sides, rows=WIDE))
    action, reason = decide(rs, b, distance="snipe", best_weapon="ranged")
    assert action == Action("move", 1, "away"), reason
    rs, b = start(rules, scenario(sides, rows=WIDE))
    action, reason = first_attack(rs, b, distance="charge", best_weapon="ranged")
    assert action.kind in ("attack", "vats"), reason


def test_a_2d20_gunman_in_reach_steps_out_of_it_instead_of_drawing_a_knife() -> None:
    """2d20: a gun within an enemy's reach pays +2 difficulty, and a one-zone room has no
    farther zone; the dweller keeps its pistol, steps out of the scorpion's reach with the
    free minor action and then shoots (not the knife at TN 6)."""
    room = "\n".join(["." * 8] * 4)
    sides = [[("vault_dweller", (0, 1))], [("young_radscorpion", (0, 0))]]
    rs, b = start("f2d20", scenario(sides, rows=room))
    me = b.combatants[0]
    action, reason = decide(rs, b, distance="snipe", best_weapon="ranged")
    assert action == Action("move", 1, "away") and "shoot from range" in reason, reason
    rs.apply(b, action)
    assert b.grid.dist(me.pos, b.combatants[1].pos) > 1 and me.weapon.kind == "ranged"
    action, reason = first_attack(rs, b, distance="snipe", best_weapon="ranged")
    assert action.kind == "attack" and me.weapon.kind == "ranged", reason


@BOTH
def test_charge_closes_in(rules: str) -> None:
    far = "\n".join(["." * 30] * 3)
    rs, b = start(rules, scenario([[("feral_ghoul", (1, 1))], [("raider", (28, 1))]], rows=far))
    action, reason = decide(rs, b, distance="charge")
    assert action.kind in ("move", "sprint") and action.option == "toward"
    assert action.target == 1 and reason.startswith("charges")


@BOTH
def test_stay_never_moves(rules: str) -> None:
    """A protectron told to stay holds its square through a whole fight, out of reach or
    not, hurt or not."""
    for seed in range(4):
        rs = get_ruleset(rules)
        s = load_scenario("robot_depot")
        b = rs.new_battle(s, seed, keep_log=False)
        agent = PacketAgent(seed, overrides={c.id: {"distance": "stay", "min_hp": 50}
                                             for c in b.combatants})
        posts = {c.slot: c.pos for c in b.combatants if c.creature.id == "protectron"}
        other = RandomAgent(seed)
        while not b.over:
            view = view_of(rs, b)
            me = view.me
            if me.slot in posts:
                a = agent.act(view)
                assert not moves(a), agent.last_reason
            else:
                a = other.act(view)
            rs.apply(b, a)
            for slot, pos in posts.items():
                assert b.combatants[slot].pos == pos or not b.combatants[slot].up


@BOTH
def test_stay_close_keeps_near_its_leader(rules: str) -> None:
    wide = "\n".join(["." * 30] * 5)
    sides = [[("raider", (1, 2)), ("raider", (14, 2))], [("feral_ghoul", (28, 2))]]
    rs, b = start(rules, scenario(sides, rows=wide), slot=1)
    action, reason = decide(rs, b, distance="stay_close", min_to_hit=90)
    assert action == Action("move", 0, "toward") and "keeps close to" in reason


# --- attack_who -------------------------------------------------------------------------
def _three_raiders(rules: str) -> tuple[Ruleset, Battle]:
    sides = [[("vault_dweller", (2, 3))], [("raider", (4, 3)), ("raider", (5, 1)),
                                           ("raider", (6, 5))]]
    rs, b = start(rules, scenario(sides, rows="\n".join(["." * 9] * 7)))
    _, near, mid, far = b.combatants
    near.hp, mid.hp, far.hp = near.max_hp, 2, near.max_hp - 1
    return rs, b


@BOTH
@pytest.mark.parametrize("who, target", [("closest", 1), ("weakest", 2), ("strongest", 1)])
def test_attack_who_picks_its_target(rules: str, who: str, target: int) -> None:
    rs, b = _three_raiders(rules)
    action, reason = first_attack(rs, b, attack_who=who, min_to_hit=0, called_freq=0,
                                  distance="charge")
    assert action.kind == "attack" and action.target == target, reason
    assert who.split("_")[0] in reason or (who == "closest" and "closest" in reason)


@BOTH
def test_attack_who_whomever_attacking_me(rules: str) -> None:
    rs, b = _three_raiders(rules)
    b.combatants[0].last_attacker = 3
    fields = {"attack_who": "whomever_attacking_me", "called_freq": 0, "distance": "charge"}
    action, reason = first_attack(rs, b, **fields)
    assert (action.kind, action.target) == ("attack", 3) and "attacked me" in reason
    rs, b = _three_raiders(rules)  # nobody has attacked it: the closest
    assert first_attack(rs, b, **fields)[0].target == 1


# --- min_to_hit ---------------------------------------------------------------------------
@BOTH
def test_min_to_hit_withholds_an_attack_below_the_odds(rules: str) -> None:
    light = "obscured" if rules == "simple" else "clear"  # Simple: in the open, certain
    sides = [[("vault_dweller", (2, 3))], [("raider", (5, 3))]]
    rs, b = start(rules, scenario(sides, lighting=light))
    action, reason = first_attack(rs, b, min_to_hit=0, called_freq=0, distance="charge")
    assert action.kind == "attack"
    chance = int(reason.split("% to hit")[0].split()[-1])
    rs, b = start(rules, scenario(sides, lighting=light))
    action, _ = first_attack(rs, b, min_to_hit=min(100, chance + 5), called_freq=0,
                             distance="charge")
    assert action.kind not in ("attack", "vats")


@BOTH
def test_a_free_attack_respects_min_to_hit(rules: str) -> None:
    """Readied attacks (both rulesets) wait for odds the packet accepts."""
    light = "obscured" if rules == "simple" else "clear"  # Simple: in the open, certain
    rs, b = start(rules, scenario([[("vault_dweller", (2, 3))], [("raider", (9, 3))]],
                                  lighting=light))
    # Simple has no readied attack: an overwatch cone is its free attack on a mover
    ready = Action("overwatch", 1) if rules == "simple" else Action("ready")
    for _ in range(40):  # the dweller readies; the raider walks up
        d = rs.decider(b)
        if d.reaction is not None:
            break
        a = ready if d.combatant == 0 else Action("move", 0, "toward")
        rs.apply(b, a if ACTION_INDEX[a] in rs.legal_ids(b) else END)
    assert rs.decider(b).reaction is not None
    assert decide(rs, b, min_to_hit=0)[0].kind == "attack"
    action, reason = decide(rs, b, min_to_hit=100)
    assert action == END and "it attacks at 100% or better" in reason


# --- chem_use -----------------------------------------------------------------------------
@BOTH
def test_chem_use_heals_when_hurt_and_never_when_never(rules: str) -> None:
    rs, b = start(rules, scenario([[("vault_dweller", (2, 3))], [("raider", (10, 3))]]))
    me = b.combatants[0]
    me.hp = max(1, me.max_hp // 3)
    if rules == "simple":  # a stimpak is used in the action phase
        to_phase(rs, b, 0, "action")
    action, reason = decide(rs, b, chem_use="stims_when_hurt", min_hp=0)
    if rules == "f2d20":  # seed 002: a chem not in hand is drawn first (a minor action)
        assert action == Action("draw_chem", None, "stimpak") and "uses stimpaks when hurt" in reason
        assert decide(rs, b, chem_use="never", min_hp=0)[0].kind != "draw_chem"
        b.book.pools[me.side] = 1  # the AP for a second minor action, to take it now
        rs.apply(b, action)
        action, reason = decide(rs, b, chem_use="stims_when_hurt", min_hp=0)
    assert action == Action("stimpak", 0) and "uses stimpaks when hurt" in reason
    assert decide(rs, b, chem_use="never", min_hp=0)[0].kind != "stimpak"
    me.hp = me.max_hp - 1  # barely scratched: not yet
    assert decide(rs, b, chem_use="stims_when_hurt", min_hp=0)[0].kind != "stimpak"


# --- best_weapon --------------------------------------------------------------------------
@BOTH
def test_best_weapon_draws_the_preferred_kind(rules: str) -> None:
    rs, b = start(rules, scenario([[("vault_dweller", (2, 3))], [("raider", (6, 3))]]))
    b.combatants[0].active_weapon = 1  # the knife in hand
    action, reason = decide(rs, b, best_weapon="ranged")
    assert action == Action("draw", None, "0") and "prefers ranged weapons" in reason
    rs, b = start(rules, scenario([[("vault_dweller", (2, 3))], [("raider", (3, 3))]]))
    action, reason = decide(rs, b, best_weapon="melee")  # the raider in reach of the knife
    assert action == Action("draw", None, "1") and "prefers melee weapons" in reason


# --- called_freq --------------------------------------------------------------------------
@BOTH
def test_called_freq_100_calls_every_shot_and_0_none(rules: str) -> None:
    """PnP: the dweller's V.A.T.S. shots cost no odds. 2d20: a called shot adds 1 to the
    difficulty, which the brawler can afford against a big super mutant in reach."""
    sides = ([[("vault_dweller", (2, 3))], [("raider", (4, 3))]] if rules == "pnp" else
             [[("brawler", (2, 3))], [("super_mutant", (3, 3))]])
    for freq, called in ((100, True), (0, False)):
        for seed in range(5):
            rs, b = start(rules, scenario(sides), seed=seed)
            action, reason = first_attack(rs, b, called_freq=freq)
            assert action.kind in ("attack", "vats"), reason
            assert (action.option is not None) is called, reason
            if called:
                assert "it always aims at a body part" in reason


@BOTH
def test_a_called_shot_that_costs_too_much_is_not_taken(rules: str) -> None:
    """Without V.A.T.S. AP (PnP) or at 2d20 odds a called shot would cut too far, the
    packet fires a plain shot even at called_freq 100."""
    rs, b = start(rules, scenario([[("raider", (2, 3))], [("raider", (9, 3))]]))
    action, reason = first_attack(rs, b, called_freq=100, distance="charge",
                                  best_weapon="ranged")
    assert action == Action("attack", 1), reason


# --- area_attack_mode ---------------------------------------------------------------------
@BOTH
def test_be_careful_holds_an_area_weapon_near_an_ally(rules: str) -> None:
    """The brute's grenade launcher: not at a raider with the brute's own raider next to
    it (be_careful), but yes when nobody of its side is near (or with always). Under 2d20
    a burst carries on only into enemies, so be_careful fires there too."""
    if rules == "simple":
        pytest.skip("Simple has no area damage (seed 001 gives no blast rule): a grenade "
                    "hits its target alone, so nothing endangers an ally or the shooter")
    rows = "\n".join(["." * 14] * 7)
    near = [[("super_mutant_brute", (1, 3)), ("raider", (8, 4))], [("raider", (8, 3))]]
    alone = [[("super_mutant_brute", (1, 3)), ("raider", (1, 6))], [("raider", (8, 3))]]
    careful_near = rules == "f2d20"
    for sides, mode, fires in ((near, "be_careful", careful_near), (near, "always", True),
                               (alone, "be_careful", True), (alone, "never", False)):
        rs, b = start(rules, scenario(sides, rows=rows))
        action, reason = decide(rs, b, area_attack_mode=mode, best_weapon="ranged",
                                called_freq=0)
        if not fires:
            assert ("it never fires area weapons" if mode == "never" else
                    "keeps area fire off its own") in reason, reason
        action, reason = decide(rs, b, area_attack_mode=mode, best_weapon="ranged",
                                called_freq=0)
        if action.kind == "aim":
            rs.apply(b, action)
            action, reason = decide(rs, b, area_attack_mode=mode, best_weapon="ranged",
                                    called_freq=0)
        assert (action == Action("attack", 2)) is fires, (mode, action, reason)


# --- every decision: legal, with a one-line reason ----------------------------------------
@BOTH
@pytest.mark.parametrize("name", scenario_names())
def test_packets_only_pick_legal_actions_in_random_fights(rules: str, name: str) -> None:
    """Packets against random agents and against packets, every scenario: every action is
    legal (apply checks it) and every reason is one non-empty line."""
    rs = get_ruleset(rules)
    s = load_scenario(name)
    decisions = 0
    for seed in range(3):
        b = rs.new_battle(s, seed, keep_log=False)
        packet = PacketAgent(seed)
        other = RandomAgent(seed) if seed < 2 else PacketAgent(seed + 100)
        side = seed % 2
        while not b.over:
            view = view_of(rs, b)
            agent = packet if view.me.side == side else other
            action = agent.act(view)
            if agent is packet:
                decisions += 1
                assert ACTION_INDEX[action] in view.legal_ids
                assert agent.last_reason.strip() and "\n" not in agent.last_reason
            rs.apply(b, action)
    assert decisions > 10


@BOTH
def test_fuzz_packets_with_random_packets_and_damage(rules: str) -> None:
    """A few hundred decisions from random packets (every field drawn at random) in
    battles knocked about at random: HP, crippled limbs, empty guns."""
    rng = random.Random(7)
    rs = get_ruleset(rules)
    names = scenario_names()
    fields = {
        "aggression": range(0, 101, 10), "min_to_hit": range(0, 101, 20),
        "min_hp": range(0, 101, 25),
        "run_away_mode": ["none", "coward", "finger_hurts", "bleeding", "not_feeling_good",
                          "tourniquet", "never"],
        "hurt_too_much": [[], ["leg"], ["arm", "blind"], ["head"]],
        "distance": ["stay_close", "charge", "snipe", "stay"],
        "attack_who": ["closest", "weakest", "strongest", "whomever_attacking_me"],
        "chem_use": ["never", "sometimes", "always", "stims_when_hurt"],
        "best_weapon": ["any", "melee", "ranged", "unarmed"],
        "called_freq": range(0, 101, 25), "area_attack_mode": ["always", "be_careful", "never"],
    }
    total = 0
    for k in range(12):
        b = rs.new_battle(load_scenario(names[k % len(names)]), k, keep_log=False)
        over = {c.id: {f: rng.choice(list(v)) for f, v in fields.items()} for c in b.combatants}
        agent = PacketAgent(k, overrides=over)
        for _ in range(60):
            if b.over:
                break
            for c in b.combatants:
                if c.up and rng.random() < 0.05:
                    c.hp = max(1, c.hp - rng.randint(1, c.max_hp // 2))
                if c.up and rng.random() < 0.02:
                    c.crippled[rng.choice(["leg", "arm", "head"])] = 1
            view = view_of(rs, b)
            action = agent.act(view)
            assert ACTION_INDEX[action] in view.legal_ids, (agent.last_reason, action)
            assert agent.last_reason.strip() and "\n" not in agent.last_reason
            rs.apply(b, action)
            total += 1
    assert total >= 300


@BOTH
def test_splash_weapon_is_never_fired_at_its_own_feet_boundary(rules: str) -> None:
    """The self-blast guard at its boundary: the brute fires its grenade launcher (splash;
    2d20 burst) at a raider AREA_RADIUS + 1 squares away, and holds it one square closer,
    saying why - even with area_attack_mode always."""
    if rules == "simple":
        pytest.skip("Simple has no area damage (seed 001 gives no blast rule): a grenade "
                    "hits its target alone, so nothing endangers an ally or the shooter")
    from wasteland.agents.packets import AREA_RADIUS

    fields = {"area_attack_mode": "always", "best_weapon": "ranged", "called_freq": 0,
              "distance": "stay", "min_to_hit": 0}
    for gap, fires in ((AREA_RADIUS + 1, True), (AREA_RADIUS, False)):
        rs, b = start(rules, scenario([[("super_mutant_brute", (1, 3))],
                                       [("raider", (1 + gap, 3))]]))
        brute = b.combatants[0]
        assert b.grid.dist(brute.pos, b.combatants[1].pos) == gap
        assert brute.weapon.name == "grenade launcher"
        agent = PacketAgent(seed=1, overrides={brute.id: fields})
        said = []
        for _ in range(6):  # up to its attack (2d20: after aiming) or the end of its turn
            action, reason = decide(rs, b, agent)
            said.append(reason)
            if action.kind in ("attack", "end"):
                break
            rs.apply(b, action)
        launcher = brute.weapon.name == "grenade launcher"
        assert (action == Action("attack", 1) and launcher) is fires, (gap, said)
        assert any("too close to its own blast" in r for r in said) is not fires, said


def test_radaway_when_radiation_has_cut_max_hp_to_the_chem_use_share() -> None:
    """2d20 (seed 002, Radiation Damage, Take Chem): radiation lowers maximum HP; a packet
    draws its RadAway and takes it once the maximum is at or under its chem_use share of
    its full HP (stims_when_hurt: 50%, so 8 of the dweller's 16), not above, never with
    chem_use never; and not while HP are fine but the maximum is."""
    s = scenario([[("vault_dweller", (2, 3))], [("raider", (27, 3))]], rows=WIDE)
    for max_hp, chem, uses in ((8, "stims_when_hurt", True), (9, "stims_when_hurt", False),
                               (4, "never", False), (12, "always", True),
                               (13, "always", False)):
        rs, b = start("f2d20", s)
        me = b.combatants[0]
        assert me.max_hp == 16
        me.max_hp = me.hp = max_hp
        action, reason = decide(rs, b, chem_use=chem, min_hp=0)
        assert (action == Action("draw_chem", None, "radaway")) is uses, (max_hp, chem, reason)
        if not uses:
            assert "RadAway" not in reason
            continue
        assert f"{max_hp}/16" in reason and chems(chem) in reason
        b.book.pools[me.side] = 1  # the AP for a second minor action
        rs.apply(b, action)
        action, reason = decide(rs, b, chem_use=chem, min_hp=0)
        assert action == Action("radaway", 0) and "takes RadAway" in reason
        rs.apply(b, action)
        assert me.max_hp == min(16, max_hp + 4) and me.items["radaway"] == 0


def test_simple_packet_with_nothing_in_hand_takes_the_enemys_weapon() -> None:
    """Simple (seed 001, Disarm): a packet whose weapons are gone (taken or dropped) takes
    the weapon of the enemy beside it, with both hands open; armed, it strikes instead."""
    s = scenario([[("raider", (2, 3))], [("raider", (3, 3))]])
    rs, b = start("simple", s)
    b.combatants[0].cond["gone"] = [0, 1]  # pipe pistol and machete
    to_phase(rs, b, 0, "action")
    action, reason = decide(rs, b)
    assert action == Action("disarm", 1) and "nothing to strike with" in reason
    rs, b = start("simple", s)
    to_phase(rs, b, 0, "action")
    assert decide(rs, b)[0].kind == "attack"


def test_simple_packet_with_empty_hands_closes_in_to_take_a_weapon_else_keeps_away() -> None:
    """Simple (seed 001, Disarm; reading: empty hands cannot strike): in the move phase a
    packet with nothing in hand walks to the nearest enemy holding a weapon it can take,
    rather than standing by an enemy it cannot hurt; with nothing to take it keeps away."""
    from wasteland.rules.hexes import hexes_for

    s = scenario([[("raider", (2, 3))], [("raider", (9, 3))]])
    rs, b = start("simple", s)
    b.combatants[0].cond["gone"] = [0, 1]
    to_phase(rs, b, 0, "move")
    hexes = hexes_for(b.grid)
    d0 = hexes.dist(b.combatants[0].pos, b.combatants[1].pos)
    action, reason = decide(rs, b)
    assert action.kind in ("move", "sprint") and action.option == "toward", reason
    assert "closes in on raider_1 to take its" in reason
    rs.apply(b, action)
    assert hexes.dist(b.combatants[0].pos, b.combatants[1].pos) < d0
    # the enemy's hands are empty too: nothing to take, and it cannot strike
    rs, b = start("simple", s)
    b.combatants[0].cond["gone"] = [0, 1]
    b.combatants[1].cond["gone"] = [0, 1]
    to_phase(rs, b, 0, "move")
    action, reason = decide(rs, b)
    assert action == Action("move", 1, "away") and "nothing it can take" in reason


def test_the_2d20_window_reasons_count_dice_and_ammunition_in_good_english():
    """The packet's buy and boost reasons (a GM reads them): one extra d20 / two extra d20s,
    one combat die for one round / two combat dice for two rounds, with the number the
    action takes."""
    import re

    rs = get_ruleset("f2d20")
    said: dict[str, set[int]] = {"buy": set(), "boost": set()}
    for seed in range(12):
        b = rs.new_battle(load_scenario("ruined_street"), seed, keep_log=False)
        agents = [PacketAgent(seed=s) for s in range(len(b.side_names))]
        while not b.over:
            v = view_of(rs, b)
            agent = agents[b.combatants[v.decision.combatant].side]
            a = agent.act(v)
            why = agent.last_reason or ""
            if a.kind == "buy" and (m := re.match(r"buys (\d+) extra (d20s?) \(", why)):
                n = int(m.group(1))
                assert (n, m.group(2)) == (int(a.option), "d20" if n == 1 else "d20s"), why
                said["buy"].add(n)
            elif a.kind == "boost" and why.startswith("adds"):  # not the Defense window
                m = re.match(r"adds (\d+) combat (die|dice) for (\d+) (round of ammunition|"
                             r"rounds of ammunition|AP) \(", why)
                assert m, why
                n = int(m.group(1))
                assert n == int(m.group(3)) == int(a.option), why
                assert m.group(2) == ("die" if n == 1 else "dice"), why
                assert m.group(4) in ("AP", "round of ammunition" if n == 1 else
                                      "rounds of ammunition"), why
                said["boost"].add(n)
            rs.apply(b, a)
    # one and other counts of each (0 extra d20s is plural too)
    assert 1 in said["buy"] and said["buy"] - {1}, said
    assert 1 in said["boost"] and max(said["boost"]) > 1, said


def test_2d20_a_second_attack_costs_ap_only_the_aggressive_pay_at_long_odds() -> None:
    """2d20 (seed 002, Actions; docs/rules/f2d20.md: an extra major action costs 2 AP, a
    reading): the packet pays for
    another attack only at fair odds, and the more aggressive it is the lower the odds it
    calls fair (0.5 at aggression 0 down to 0.2 at 100). A raider 8 squares from another,
    its major action spent and 10 AP in its pool: about 19% to hit, 35% with dice bought."""
    s = scenario([[("raider", (1, 3))], [("raider", (9, 3))]])
    rs, b = start("f2d20", s)
    b.book.major, b.book.pools[0] = 1, 10
    bold, why = decide(rs, b, aggression=100, min_to_hit=0)
    assert bold in (Action("aim"), Action("attack", 1)), why
    assert "raider_1" in why
    shy, why = decide(rs, b, aggression=0, min_to_hit=0)
    assert shy == END and "no more attacks" in why, why
