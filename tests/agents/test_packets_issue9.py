"""The packet agent and issue 9's new action kinds: each is used where it fits the
packet, with a one-line reason true to the state, under each ruleset where it exists;
and the PnP cover step that left a gunman unable to shoot (robot_depot, seed 5)."""

from __future__ import annotations

from typing import Any

from wasteland.agents.packets import PacketAgent
from wasteland.rules.actions import Action
from wasteland.rules.battle import Combatant

from .test_packets import BOTH, decide, first_attack, scenario, start

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
            assert ("chem_use never" if chem == "never" else "no healing item left") in reason
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
