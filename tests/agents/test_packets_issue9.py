"""The packet agent and issue 9's new action kinds: each is used where it fits the
packet, with a one-line reason true to the state, under each ruleset where it exists;
and the PnP cover step that left a gunman unable to shoot (robot_depot, seed 5)."""

from __future__ import annotations

from typing import Any

from wasteland.agents.packets import PacketAgent
from wasteland.rules.actions import Action
from wasteland.rules.battle import Combatant

from .test_packets import BOTH, WIDE, decide, first_attack, scenario, start

FULL = {".": "floor", "#": "wall", ",": "light_cover", "=": "full_cover"}


def medic(c: Combatant, ranks: int) -> None:
    """Give ``c`` PnP Medicine ranks (no built-in creature has any)."""
    pnp = c.creature.pnp.model_copy(update={"medicine": ranks})
    c.creature = c.creature.model_copy(update={"pnp": pnp})


# --- PnP: a step into cover is taken only where it can still shoot -------------------------
def test_pnp_no_step_into_full_cover_it_cannot_shoot_from() -> None:
    """robot_depot seed 5: ted stepped into a full-cover square (nobody shoots out of full
    cover, seed 000) and then spent his Large action drawing a knife. The nearest cover
    here is full: the dweller stays and shoots; with light cover there it steps in."""
    for cell, steps in (("=", False), (",", True)):
        rows = ["." * 14] * 7
        rows[3] = "..." + cell + "." * 10
        s = scenario([[("vault_dweller", (2, 3))], [("raider", (9, 3))]],
                     rows="\n".join(rows), legend=FULL)
        rs, b = start("pnp", s)
        fields: dict[str, Any] = {"distance": "charge", "called_freq": 0, "min_to_hit": 0}
        action, reason = decide(rs, b, **fields)
        assert (action == Action("cover")) is steps, reason
        if steps:
            assert "takes cover" in reason
            rs.apply(b, action)
            assert b.combatants[0].pos == b.grid.index(3, 3)
            action, reason = decide(rs, b, **fields)
        assert action == Action("attack", 1), reason


# --- PnP: putting out a fire ---------------------------------------------------------------
def test_pnp_puts_out_a_fire_that_would_burn_half_its_hp_or_more() -> None:
    """Seed 000, Burning: extinguish (a Large action) when the burn damage still to come is
    at least half the HP left (its own fire or an adjacent ally's); a smaller fire burns on
    while it fights."""
    sides = [[("vault_dweller", (2, 3)), ("vault_dweller", (2, 4))], [("raider", (6, 3))]]
    fields = {"chem_use": "never", "min_hp": 0, "distance": "charge", "called_freq": 0}
    for burn, hp, puts_out in ((5, 10, True), (4, 10, False), (12, 10, True)):
        for patient in (0, 1):
            rs, b = start("pnp", scenario(sides))
            c = b.combatants[patient]
            c.burn_left, c.burn_rate, c.hp = burn, 3, hp
            action, reason = decide(rs, b, **fields)
            assert (action == Action("extinguish", patient)) is puts_out, (burn, hp, reason)
            if puts_out:
                who = "its own fire" if patient == 0 else "the fire on vault_dweller_1"
                assert f"puts out {who}: {burn} burn damage to come against HP {hp}/" in reason


# --- PnP: first aid --------------------------------------------------------------------------
def test_pnp_first_aid_for_a_bleeding_patient() -> None:
    """Seed 000, Called Shots (bleeding) and Skill Check: a bleeding patient - itself, or
    an ally next to it - gets first aid (the stimpak stays for when HP run low); the same
    patient not bleeding and barely hurt does not."""
    sides = [[("vault_dweller", (2, 3)), ("vault_dweller", (2, 4))], [("raider", (6, 3))]]
    fields = {"min_hp": 0, "distance": "charge", "called_freq": 0}
    for patient in (0, 1):
        for bleeding in (True, False):
            rs, b = start("pnp", scenario(sides))
            c = b.combatants[patient]
            c.hp = c.max_hp - 3
            if bleeding:
                c.cond["bleeding"] = 1
            action, reason = decide(rs, b, **fields)
            assert (action == Action("first_aid", patient)) is bleeding, reason
            if bleeding:
                assert "bleeding 1 HP a turn" in reason and f"HP {c.hp}/{c.max_hp}" in reason


def test_pnp_first_aid_for_a_hurt_patient_only_with_medicine_and_no_stimpak() -> None:
    """A hurt dweller (under the chem_use share) gets first aid when it has Medicine ranks
    and no stimpak will do: none left, or chem_use never. With a stimpak and chem_use
    allowing it, the stimpak; with no Medicine ranks, no first aid."""
    sides = [[("vault_dweller", (2, 3))], [("raider", (6, 3))]]
    base = {"min_hp": 0, "distance": "charge", "called_freq": 0}
    cases = (  # (medicine, stimpaks, chem_use, hp of 30) -> what it does
        (2, 0, "stims_when_hurt", 15, "first_aid"), (2, 0, "stims_when_hurt", 16, "other"),
        (2, 2, "never", 15, "first_aid"), (2, 2, "stims_when_hurt", 15, "stimpak"),
        (0, 0, "stims_when_hurt", 15, "other"), (1, 0, "always", 22, "first_aid"),
        (1, 0, "always", 23, "other"))
    for ranks, stims, chem, hp, does in cases:
        rs, b = start("pnp", scenario(sides))
        me = b.combatants[0]
        medic(me, ranks)
        me.items["stimpak"], me.hp = stims, hp
        action, reason = decide(rs, b, chem_use=chem, **base)
        kind = action.kind if action.kind in ("first_aid", "stimpak") else "other"
        assert kind == does, (ranks, stims, chem, hp, reason)
        if does == "first_aid":
            assert action.target == 0 and f"HP {hp}/30" in reason
            assert ("never uses chems" if chem == "never" else "no healing item left") in reason
            assert f"Medicine {ranks}" in reason


# --- PnP: an attack and a stimpak at once ------------------------------------------------------
def _hurt_dweller(distance: int) -> tuple[Any, Any]:
    rs, b = start("pnp", scenario([[("vault_dweller", (2, 3))], [("raider", (2 + distance, 3))]]))
    b.combatants[0].hp = 10  # of 30: under stims_when_hurt's 50%
    return rs, b


def test_pnp_pair_attack_and_stimpak_in_the_large_action_at_odds_it_accepts() -> None:
    """Its Small action spent, a hurt dweller shoots and takes its stimpak at once (-8 to
    the shot) while the odds at -8 meet min_to_hit; above them, the stimpak alone. The
    min_to_hit between the -8 odds and the plain odds shows the -8 is counted."""
    from wasteland.rules.pnp.odds import hit_chance

    rs, b = _hurt_dweller(3)
    b.slot = "large"
    me, raider = b.combatants
    plain = hit_chance(b, me, raider)
    fields: dict[str, Any] = {"min_hp": 0, "run_away_mode": "never", "called_freq": 0,
                              "distance": "charge"}
    action, reason = decide(rs, b, min_to_hit=0, **fields)
    assert action == Action("pair", 1, "stimpak"), reason
    paired = int(reason.split("% to hit")[0].split()[-1])
    assert paired < plain * 100 - 10 and "HP 10/30 under 50%" in reason
    action, reason = decide(rs, b, min_to_hit=paired - 1, **fields)  # shown rounded
    assert action == Action("pair", 1, "stimpak"), reason
    action, reason = decide(rs, b, min_to_hit=paired + 1, **fields)
    assert action == Action("stimpak", 0), reason
    assert paired + 1 < plain * 100
    b.slot = "small"  # with its Small action left: the stimpak now, the full shot after
    assert decide(rs, b, min_to_hit=0, **fields)[0] == Action("stimpak", 0)


def test_pnp_hurt_and_out_of_reach_moves_first_and_pairs_the_stimpak() -> None:
    """A knife its only weapon, the raider 4 squares off: a hurt dweller walks up (its Small action)
    keeping the stimpak, then stabs and takes it at once; a stimpak first would leave only
    the move."""
    rs, b = _hurt_dweller(4)
    me = b.combatants[0]
    me.weapons, me.weapon_states, me.weapon_bonus = (  # the combat knife alone
        me.weapons[1:], me.weapon_states[1:], me.weapon_bonus[1:])
    fields: dict[str, Any] = {"min_hp": 0, "run_away_mode": "never", "called_freq": 0,
                              "distance": "charge",
                              "best_weapon": "melee", "min_to_hit": 0}
    agent = PacketAgent(seed=1, overrides={me.id: fields})
    action, reason = decide(rs, b, agent)
    assert action == Action("move", 1, "toward") and "keeps its stimpak" in reason, reason
    rs.apply(b, action)
    assert b.slot == "large" and b.grid.dist(me.pos, b.combatants[1].pos) == 1
    action, reason = decide(rs, b, agent)
    assert action == Action("pair", 1, "stimpak"), reason


# --- weapons: no draw away from a weapon that strikes another enemy as well ----------------
@BOTH
def test_no_draw_away_from_a_weapon_that_strikes_another_enemy_as_well(rules: str) -> None:
    """Found when issue 9's actions changed ruined_street (2d20, seed 0): the brute, its
    rebar pike in hand and a brawler next to it, drew its grenade launcher for a far
    target (the one that attacked it) rather than strike the brawler; it strikes the
    brawler, the launcher stays away."""
    rows = "\n".join(["." * 22] * 5)
    sides = [[("super_mutant_brute", (14, 1))], [("brawler", (13, 2)), ("vault_dweller", (8, 1))]]
    rs, b = start(rules, scenario(sides, rows=rows))
    brute, brawler, dweller = b.combatants
    brute.active_weapon = next(i for i, w in enumerate(brute.weapons) if w.kind != "ranged")
    brute.last_attacker = dweller.slot
    fields = {"attack_who": "whomever_attacking_me", "best_weapon": "any", "called_freq": 0,
              "min_to_hit": 0, "distance": "charge", "area_attack_mode": "always"}
    action, reason = first_attack(rs, b, **fields)
    assert action == Action("attack", brawler.slot), reason
    assert brute.weapon.kind != "ranged"


# --- 2d20: difficulty 0 ------------------------------------------------------------------------
def test_2d20_rolls_at_difficulty_0_only_while_the_pool_has_room() -> None:
    """Seed 003, Sneak Attacks: at difficulty 0 it may roll anyway for AP. A brawler's
    blow at a big super mutant (Defense 1, big target -1) is difficulty 0: it rolls while
    the pool has room for the AP, and takes the hit unrolled when the pool is full."""
    s = scenario([[("brawler", (2, 3))], [("super_mutant", (3, 3))]])
    for pool, rolls in ((0, True), (5, True), (6, False)):
        rs, b = start("f2d20", s)
        b.book.pools[0] = pool
        fields = {"called_freq": 0, "min_to_hit": 0}
        agent = PacketAgent(seed=1, overrides={b.combatants[0].id: fields})
        for _ in range(4):
            if rs.decider(b).slot == "dice":
                break
            action, _ = decide(rs, b, agent)
            rs.apply(b, action)
        assert rs.decider(b).slot == "dice" and Action("noroll") in rs.legal_actions(b)
        action, reason = decide(rs, b, agent)
        if rolls:
            assert action == Action("buy", None, "0") and "rolls anyway at difficulty 0" in reason
        else:
            assert action == Action("noroll") and "AP pool full (6/6)" in reason, reason


# --- 2d20: prone and standing up ---------------------------------------------------------------
def _sniper(hp: int, enemy_at: tuple[int, int], enemy: str = "raider") -> tuple[Any, Any]:
    rs, b = start("f2d20", scenario([[("vault_dweller", (1, 3))], [(enemy, enemy_at)]],
                                    rows=WIDE))
    b.combatants[0].hp = hp
    return rs, b


SNIPER = {"distance": "snipe", "min_hp": 0, "run_away_mode": "never", "chem_use": "sometimes",
          "called_freq": 0, "min_to_hit": 0, "best_weapon": "ranged"}


def test_2d20_a_hurt_sniper_with_no_cover_drops_prone_before_it_shoots() -> None:
    """Prone (docs/rules/f2d20.md): shots from another zone are +1 against it. A sniper at
    or under half its HP, in a zone without cover and no enemy close, drops prone with its
    minor action (rather than aim); over half, or with an enemy in its zone, it aims."""
    for hp, at, drops in ((8, (9, 3), True), (9, (9, 3), False), (8, (4, 3), False)):
        rs, b = _sniper(hp, at)
        action, reason = decide(rs, b, **SNIPER)
        assert (action == Action("prone")) is drops, (hp, at, reason)
        if drops:
            assert f"HP {hp}/16, no cover in its zone, no enemy close" in reason
            rs.apply(b, action)
            action, reason = decide(rs, b, **SNIPER)
            assert action.kind == "attack", reason  # and shoots from the floor


def test_2d20_prone_stands_up_when_an_enemy_is_close_and_stays_down_otherwise() -> None:
    """Stand (a minor action, the turn's movement): prone with an enemy in its zone (the
    prone are easier to hit up close) it stands up; lying low from afar it stays down and
    shoots; healed over half, it stands."""
    for hp, at, stands in ((8, (4, 3), True), (8, (9, 3), False), (12, (9, 3), True)):
        rs, b = _sniper(hp, at)
        b.combatants[0].cond["prone"] = True
        action, reason = decide(rs, b, **SNIPER)
        assert (action == Action("stand")) is stands, (hp, at, reason)
        if stands:
            assert reason.startswith("stands up: ") and (
                "raider_0 is close" in reason if at == (4, 3) else "over half" in reason)
        else:
            assert action.kind in ("aim", "attack"), reason  # stays down and shoots


# --- 2d20: Assist, Rally with Speech, a readied Defend -------------------------------------------
def test_2d20_assists_an_ally_that_can_attack_when_it_has_no_attack_of_its_own() -> None:
    """Assist (seed 002): with no attack at odds it accepts (min_to_hit 100), the dweller
    assists the ally who can attack; with no ally able to attack, it rallies."""
    rows = "\n".join(["." * 30] * 7)
    sides = [[("vault_dweller", (1, 3)), ("wastelander", (1, 5))], [("raider", (20, 3))]]
    rs, b = start("f2d20", scenario(sides, rows=rows))
    fields = {"min_to_hit": 100, "distance": "stay", "chem_use": "never", "aggression": 60}
    action, reason = decide(rs, b, **fields)
    assert action == Action("assist", 1) and "assists wastelander_0 against raider_0" in reason
    b.combatants[1].ammo = {k: 0 for k in b.combatants[1].ammo}  # the wastelander's gun is dry
    b.combatants[1].weapons = b.combatants[1].weapons[:1]
    action, reason = decide(rs, b, **fields)
    assert action.kind in ("rally", "rally_with"), reason


def test_2d20_rallies_with_speech_when_it_is_the_better_pair() -> None:
    """Rally (seed 002) with CHA + Speech (a creature: Mind + Other) while an ally stands:
    the mr. handy's Speech TN 8 beats its Survival TN 7; alone, END + Survival."""
    rows = "\n".join(["." * 30] * 7)
    fields = {"min_to_hit": 100, "distance": "stay", "aggression": 60}
    for allies, kind in (([("mr_handy", (1, 5))], "rally_with"), ([], "rally")):
        rs, b = start("f2d20", scenario([[("mr_handy", (1, 3)), *allies], [("raider", (25, 3))]],
                                        rows=rows))
        if allies:
            b.combatants[1].cond["assist"] = 0  # already helped: nobody to assist
        action, reason = decide(rs, b, **fields)
        assert action.kind == kind, reason
        if kind == "rally_with":
            assert action.option == "speech" and "TN 8, not 7" in reason


def test_2d20_readies_a_defend_for_a_coming_brawler_when_not_aggressive() -> None:
    """Ready (seed 002) a Defend: no attack at odds it accepts, a brawler that can reach it
    next turn, aggression under 50; at 50 it rallies instead."""
    rows = "\n".join(["." * 30] * 7)
    s = scenario([[("vault_dweller", (1, 3))], [("feral_ghoul", (8, 3))]], rows=rows)
    base = {"min_to_hit": 100, "distance": "stay", "chem_use": "never"}
    for aggression, readies in ((49, True), (50, False)):
        rs, b = start("f2d20", s)
        action, reason = decide(rs, b, aggression=aggression, **base)
        assert (action == Action("ready_to", None, "defend")) is readies, reason
        if readies:
            assert "feral_ghoul_0 comes within reach" in reason and "a steady fighter" in reason


# --- 2d20: first aid ---------------------------------------------------------------------------
def test_2d20_first_aid_stabilizes_a_dying_ally_next_to_it() -> None:
    """Seed 002, First Aid and Dying: a dying ally next to it is stabilized first; a
    stabilized one, or one two squares off, is not."""
    from wasteland.rules.battle import UNCONSCIOUS

    sides = [[("vault_dweller", (2, 3)), ("wastelander", (2, 4))], [("raider", (20, 3))]]
    for stable, at, aids in ((False, (2, 4), True), (True, (2, 4), False),
                             (False, (2, 5), False)):
        rs, b = start("f2d20", scenario(sides, rows=WIDE))
        ally = b.combatants[1]
        b.set_pos(ally, b.grid.index(*at))
        ally.status, ally.hp = UNCONSCIOUS, 0
        ally.cond.update({"dying": True, "prone": True, **({"stable": True} if stable else {})})
        action, reason = decide(rs, b, chem_use="never", min_hp=0)
        assert (action == Action("first_aid", 1)) is aids, reason
        if aids:
            assert "dying, to stabilize it" in reason


def test_2d20_first_aid_heals_when_hurt_with_no_healing_item() -> None:
    """The dweller (Medicine 2), at or under half its HP with chem_use never and no attack
    worth its major action (min_to_hit 100), gives itself first aid (it heals only the
    Medicine rank, so not in place of an attack); over half it does not; a feral ghoul
    (its Other as Medicine) never does."""
    for creature, hp, to_hit, aids in (("vault_dweller", 8, 100, True),
                                       ("vault_dweller", 9, 100, False),
                                       ("vault_dweller", 8, 0, False),
                                       ("feral_ghoul", 4, 100, False)):
        rs, b = start("f2d20", scenario([[(creature, (2, 3))], [("raider", (8, 3))]],
                                        rows=WIDE))
        b.combatants[0].hp = hp
        action, reason = decide(rs, b, chem_use="never", min_hp=0, run_away_mode="never",
                                min_to_hit=to_hit, distance="stay")
        assert (action == Action("first_aid", 0)) is aids, (creature, hp, reason)
        if aids:
            assert f"HP {hp}/16 under 50%, never uses chems, Medicine 2" in reason


def test_pnp_packets_never_speak() -> None:
    """Speak (seed 000, a free action) has no effect on a fight: a packet offered it in
    its reaction windows never spends its free action on it."""
    from wasteland.agents.base import view_of
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.rulesets import get_ruleset

    rs = get_ruleset("pnp")
    offered = 0
    for seed in range(3):
        b = rs.new_battle(load_scenario("ruined_street"), seed, keep_log=False)
        agent = PacketAgent(seed)
        while not b.over:
            view = view_of(rs, b)
            action = agent.act(view)
            if Action("speak") in view.legal:
                offered += 1
                assert action != Action("speak"), agent.last_reason
            rs.apply(b, action)
    assert offered > 0
