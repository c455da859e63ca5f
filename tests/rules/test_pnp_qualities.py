"""The twelve weapon qualities of seed 000 (Weapon Qualities). Brutal is tested with the
crits (test_pnp_crits.py), Armor Piercing and Armor Vulnerable with the damage
(test_pnp_damage.py), Lobbed also with cover (test_pnp_attack.py)."""

from __future__ import annotations

from wasteland.rules.events import AttackRolled, Downed, Note

from .kit import F, arena, attacks, damage, mods, only

# --- Lucky -------------------------------------------------------------------------------


def test_lucky_adds_to_the_crit_chance_not_to_the_attack():
    """Seed 000_4e72993430dea166.txt, Lucky: a bonus to landing critical hits equal to its
    value (19 + Lucky 3 = 22 against Defense 12 + 10)."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["lucky_pistol"]),
               F("target", (3, 0), "bob", side=1, defense=12)])
    a.rig.d6(6, 6, 5).d6(1).d6(1)  # a crit: damage rolled twice
    atk = only(a.act("attack bob"), AttackRolled)
    assert "Lucky" not in mods(atk) and atk.total == 19
    assert ("Lucky", 3) in atk.crit_mods and atk.crit
    b = arena([F("gunner", (0, 0), "ann", weapons=["pistol"]),
               F("target", (3, 0), "bob", side=1, defense=12)])
    b.rig.d6(6, 6, 5).d6(1, 1)
    assert only(b.act("attack bob"), AttackRolled).crit is False


# --- Spread ------------------------------------------------------------------------------
def test_spread_hits_an_adjacent_foe_for_half_damage_with_its_own_roll():
    """Seed 000_4e72993430dea166.txt, Spread: per point, half damage to one more foe
    directly next to the primary target, rolling to hit as usual. Reading: allies next to
    the target are not foes and are not hit; half damage rounds down before DT."""
    a = arena([F("gunner", (0, 1), "ann", weapons=["shotgun"]),
               F("target", (3, 2), "dan"),
               F("target", (3, 1), "bob", side=1), F("target", (4, 1), "cal", side=1)])
    a.rig.d6(5, 5, 5).push(10, 6)  # bob: 17 vs 15, 6 damage
    a.rig.d6(5, 5, 4).push(10, 7)  # cal: 16 vs 15, 7 halved to 3
    ev = a.act("attack bob")
    rolls = attacks(ev)
    assert [(r.target, r.total, r.shots) for r in rolls] == [("bob", 17, [True]),
                                                               ("cal", 16, [True])]
    assert rolls[1].how == "sprays" and not rolls[1].crit
    dmg = {d.target: d for d in damage(ev)}
    assert dmg["bob"].raw == 6 and dmg["bob"].multiplier == 1.0
    assert (dmg["cal"].multiplier, dmg["cal"].raw, dmg["cal"].dealt) == (0.5, 3, 3)
    assert "dan" not in dmg and a.c("dan").hp == 40


def test_spread_is_one_extra_foe_per_point_and_rolls_even_if_the_primary_misses():
    """Seed 000_4e72993430dea166.txt, Spread: one additional foe per point of spread
    (Spread 1: one); reading: each extra target's roll is separate, so a miss on the
    primary target does not cancel it."""
    a = arena([F("gunner", (0, 1), "ann", weapons=["shotgun"]),
               F("target", (3, 1), "bob", side=1), F("target", (4, 1), "cal", side=1),
               F("target", (4, 2), "eve", side=1)])
    a.rig.d6(1, 1, 1)  # bob: miss
    a.rig.d6(1, 1, 2)  # cal: miss; eve is not rolled for
    ev = a.act("attack bob")
    assert [(r.target, r.shots) for r in attacks(ev)] == [("bob", [False]), ("cal", [False])]
    assert a.rig.left == 0


# --- Lethal ------------------------------------------------------------------------------
def test_lethal_kills_a_target_left_at_or_under_its_value():
    """Seed 000_4e72993430dea166.txt, Lethal: Lethal (5) leaving 5 or less HP deals 5 more
    damage, killing the target."""
    a = arena([F("brute", (0, 0), "ann", weapons=["switchblade"]),
               F("target", (1, 0), "bob", side=1, hp=8), F("target", (9, 5), "cal", side=1)])
    a.rig.d6(4, 4, 4).push(4, 3)  # 16 vs 15; 3 damage leaves 5
    ev = a.act("attack bob")
    (dmg,) = damage(ev)
    assert dmg.dealt == 3 and "Lethal (5)" in dmg.note and dmg.hp == 0
    assert only(ev, Downed).name == "bob"


def test_lethal_does_nothing_above_its_value():
    """Seed 000_4e72993430dea166.txt, Lethal: only at the Lethal value or below."""
    a = arena([F("brute", (0, 0), "ann", weapons=["switchblade"]),
               F("target", (1, 0), "bob", side=1, hp=9)])
    a.rig.d6(4, 4, 4).push(4, 3)  # leaves 6
    (dmg,) = damage(a.act("attack bob"))
    assert "Lethal" not in dmg.note and a.c("bob").hp == 6


# --- Warm-Up -----------------------------------------------------------------------------
def _minigun(**kw):
    return arena([F("gunner", (0, 0), "ann", weapons=["minigun"], ammo={"5mm": 60}),
                  F("target", (3, 0), "bob", side=1)], **kw)


def _rof(a, action="attack bob"):
    a.rig.d6(1, 1, 1)  # 5 vs 15: every shot misses, so no damage dice
    return len(only(a.act(action), AttackRolled).shots)


def test_warm_up_starts_at_rof_1_and_gains_1_each_consecutive_round():
    """Seed 000_4e72993430dea166.txt, Warm-Up: RoF 1 at first, +1 each consecutive round of
    attacking, up to the maximum."""
    a = _minigun()
    seen = []
    for _ in range(4):
        seen.append(_rof(a))
        a.act("end")  # bob
    assert seen == [1, 2, 3, 3]
    assert a.c("ann").wstate.loaded == 60 - 9


def test_warm_up_is_lost_after_a_round_without_attacking():
    """Seed 000_4e72993430dea166.txt, Warm-Up: the RoF rises over consecutive rounds; a
    round without attacking starts it over."""
    a = _minigun()
    assert _rof(a) == 1
    a.act("end")
    assert _rof(a) == 2
    a.act("end")
    a.act("end")  # ann skips round 3
    a.act("end")
    assert _rof(a) == 1


def test_warm_up_action_raises_rof_without_attacking():
    """Seed 000_4e72993430dea166.txt, Warm-Up: a player can warm up the weapon without
    attacking. Reading: it is the Large action, uses no ammunition and no dice."""
    a = _minigun()
    assert a.is_legal("warmup")
    ev = a.act("warmup")
    assert attacks(ev) == [] and a.whose() == "bob"
    assert a.c("ann").wstate.loaded == 60
    a.act("end")
    assert _rof(a) == 2


def test_warm_up_rises_once_per_round_not_per_attack():
    """Seed 000_4e72993430dea166.txt, Warm-Up: RoF grows each round; a free attack and a
    turn's attack in the same round fire at the same RoF."""
    a = _minigun(alert=(True, False))
    assert a.decider.reaction == "unguarded"
    a.rig.d6(6, 6, 6).d6(1, 1, 1)  # ann wins the opposed roll
    assert _rof(a) == 1  # the free attack before round 1's turns
    assert a.whose() == "ann" and a.b.round == 1
    assert _rof(a) == 1  # ann's own attack, still round 1
    a.act("end")
    assert _rof(a) == 2


def test_warm_up_legal_only_for_warm_up_weapons_below_their_maximum():
    """Seed 000_4e72993430dea166.txt, Warm-Up: only Warm-Up weapons, till the max RoF."""
    a = _minigun()
    for _ in range(3):
        _rof(a)
        a.act("end")
    assert not a.is_legal("warmup")
    b = arena([F("gunner", (0, 0), "ann"), F("target", (3, 0), "bob", side=1)])
    assert not b.is_legal("warmup")


# --- Recharging --------------------------------------------------------------------------
def test_recharging_reloads_itself_each_turn_up_to_capacity():
    """Seed 000_4e72993430dea166.txt, Recharging: the weapon reloads itself with its
    Recharging value in shots each turn. Reading: at the start of the wielder's turn."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["laser"], ammo={}),
               F("target", (3, 0), "bob", side=1)])
    st = a.c("ann").wstate
    st.loaded = 1
    seen = []
    for _ in range(3):
        a.act("end")
        seen.append(st.loaded)  # bob's turn: unchanged
        a.act("end")
        seen.append(st.loaded)
    assert seen == [1, 2, 2, 3, 3, 3]
    assert not a.is_legal("reload")


# --- Stunted Range -----------------------------------------------------------------------
def test_stunted_range_cannot_fire_beyond_its_range():
    """Seed 000_4e72993430dea166.txt, Stunted Range: cannot fire beyond its range (10 ft =
    2 squares), where other guns only take the range penalty."""
    near = arena([F("gunner", (0, 0), "ann", weapons=["flamer"]),
                  F("target", (2, 0), "bob", side=1)])
    assert near.is_legal("attack bob")
    far = arena([F("gunner", (0, 0), "ann", weapons=["flamer"]),
                 F("target", (3, 0), "bob", side=1)])
    assert not far.is_legal("attack bob")
    pistol = arena([F("gunner", (0, 0), "ann", weapons=["holdout"]),
                    F("target", (11, 0), "bob", side=1)])
    assert pistol.is_legal("attack bob")


# --- Lobbed ------------------------------------------------------------------------------
def test_lobbed_still_needs_a_physically_possible_path():
    """Seed 000_4e72993430dea166.txt, Lobbed: only if hitting the target is physically
    possible. Reading: a wall between the squares blocks it; full cover does not."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["grenade_launcher"]),
               F("target", (5, 0), "bob", side=1)], rows="..#..O....")
    assert not a.is_legal("attack bob")
    b = arena([F("gunner", (0, 0), "ann", weapons=["grenade_launcher"]),
               F("target", (5, 0), "bob", side=1)], rows="...O.O....")
    assert b.is_legal("attack bob")


# --- Splash ------------------------------------------------------------------------------
SPLASH_MAP = "\n".join(["............", "............", "............", "......#.....",
                        "............"])


def _splash():
    return arena([F("gunner", (0, 2), "ann", weapons=["grenade_launcher"]),
                  F("target", (5, 1), "fred"),
                  F("target", (6, 2), "bob", side=1), F("target", (7, 2), "cal", side=1, pdt=2),
                  F("target", (8, 2), "dan", side=1), F("target", (9, 2), "eli", side=1),
                  F("target", (6, 4), "gil", side=1)], rows=SPLASH_MAP)


def test_splash_loses_1_damage_per_foot_from_the_impact():
    """Seed 000_4e72993430dea166.txt, Splash: full damage at the centre, 1 less per foot
    away. Readings: 5 ft per square; everyone in the blast is hit, allies too; each
    target's DT applies; the blast needs a line from the impact (walls shield)."""
    a = _splash()
    a.rig.d6(5, 5, 5).push(10, 6, 6)  # 17 vs 15; 2d10 = 12
    ev = a.act("attack bob")
    dealt = {d.target: d.dealt for d in damage(ev)}
    assert dealt == {"bob": 12, "fred": 7, "cal": 5, "dan": 2}
    assert "eli" not in dealt and "gil" not in dealt  # 15 ft: nothing left; behind a wall


def test_no_splash_on_a_miss():
    """Seed 000_4e72993430dea166.txt, Splash. Reading: a missed shot deals no damage at
    all (the seed gives no rule for where a miss lands)."""
    a = _splash()
    a.rig.d6(1, 1, 1)
    assert damage(a.act("attack bob")) == []


# --- Burning -----------------------------------------------------------------------------
def _burn(**target):
    a = arena([F("gunner", (0, 0), "ann", weapons=["flamer"]),
               F("target", (2, 0), "bob", side=1, **target)])
    return a


def test_burning_seed_example_2_per_turn_until_6_dealt():
    """Seed 000_4e72993430dea166.txt, Burning: Burning (2), 2d6 energy: 8 at once, then a
    second roll of 6 is dealt 2 per turn until all 6 is dealt. Reading: at the start of
    the burning creature's turns."""
    a = _burn()
    a.rig.d6(5, 5, 5).d6(4, 4).d6(3, 3)
    ev = a.act("attack bob")
    bob = a.c("bob")
    assert damage(ev)[0].dealt == 8
    assert any(isinstance(e, Note) and "catches fire" in e.message for e in ev)
    # ann's attack ended her turn; bob's turn began with the first 2 burn damage
    assert (bob.hp, bob.burn_rate, bob.burn_left) == (40 - 8 - 2, 2, 4)
    hp = []
    for _ in range(3):
        a.act("end")  # bob
        a.act("end")  # ann
        hp.append(bob.hp)
    assert hp == [28, 26, 26] and bob.burn_left == 0 and bob.burn_rate == 0


def test_burning_pool_is_the_second_roll_less_edt():
    """Seed 000_4e72993430dea166.txt, Burning: roll damage again, subtracting EDT; the
    damage over time is then not reduced by DT again."""
    a = _burn(edt=2)
    a.rig.d6(5, 5, 5).d6(4, 4).d6(3, 3)  # 8 - 2 = 6 now; 6 - 2 = 4 to burn
    a.act("attack bob")
    bob = a.c("bob")
    assert (bob.hp, bob.burn_left) == (40 - 6 - 2, 2)


def test_one_burning_effect_at_a_time_the_higher_value_applies():
    """Seed 000_4e72993430dea166.txt, Burning: only one burning effect at a time; if
    re-ignited the higher Burning value applies. Reading: the larger remaining pool is
    kept (pools do not add up)."""
    a = _burn()
    bob = a.c("bob")
    bob.burn_rate, bob.burn_left = 4, 3
    a.rig.d6(5, 5, 5).d6(1, 1).d6(3, 3)  # new fire: Burning 2, pool 6
    a.act("attack bob")
    # bob's turn started: one effect, rate max(4, 2) = 4, pool max(3, 6) = 6, less 4
    assert (bob.burn_rate, bob.burn_left, bob.hp) == (4, 2, 40 - 2 - 4)
    b = _burn()
    bob = b.c("bob")
    bob.burn_rate, bob.burn_left = 1, 10
    b.rig.d6(5, 5, 5).d6(1, 1).d6(3, 3)
    b.act("attack bob")
    assert (bob.burn_rate, bob.burn_left) == (2, 8)


def test_burning_can_kill_at_the_start_of_the_turn():
    """Seed 000_4e72993430dea166.txt, Burning: the damage over time is real damage."""
    a = arena([F("gunner", (0, 0), "ann", weapons=["flamer"]),
               F("target", (2, 0), "bob", side=1, hp=9), F("target", (9, 5), "cal", side=1)])
    a.rig.d6(5, 5, 5).d6(4, 3).d6(3, 3)  # 7 now, leaving 2; the first tick of 2 kills
    ev = a.act("attack bob")
    assert only(ev, Downed).name == "bob" and a.whose() == "cal"


# --- Armor Piercing / Armor Vulnerable: see test_pnp_damage.py ---------------------------


def test_spread_cannot_reach_a_foe_in_full_cover():
    """Seed 000_4e72993430dea166.txt, Spread ("rolling to hit as usual") and Cover (full
    cover cannot be attacked): a foe next to the target but in full cover is not hit."""
    a = arena([F("gunner", (0, 1), "ann", weapons=["shotgun"]),
               F("target", (3, 1), "bob", side=1), F("target", (4, 1), "cal", side=1),
               F("target", (4, 2), "eve", side=1)],
              rows="\n".join(["............", "....O.......", "............"]))
    a.rig.d6(1, 1, 1)  # bob: miss
    a.rig.d6(1, 1, 2)  # eve, the one foe next to bob that can be attacked
    ev = a.act("attack bob")
    assert [r.target for r in attacks(ev)] == ["bob", "eve"]
    assert not any(r.mods and ("lobbed over full cover", -5) in r.mods for r in attacks(ev))


# --- issue 9 defects: burning and Armor Piercing; splash on bystanders ------------------
def _with_qualities(a, cid, **q):
    """Give ``cid``'s first weapon extra qualities (a copy; the fixture stays as it is)."""
    c = a.c(cid)
    w = c.weapons[0]
    c.weapons[0] = w.model_copy(update={"qualities": w.qualities.model_copy(update=q)})


def test_burning_roll_is_lowered_by_armor_piercing_like_edt():
    """Seed 000_4e72993430dea166.txt, Damage ("reduce the target's PDT and EDT by the Armor
    Piercing amount") and Burning (the second roll less EDT): an AP 2 flamer against EDT 3
    meets EDT 1 on the hit and on the burn roll."""
    a = _burn(edt=3)
    _with_qualities(a, "ann", armor_piercing=2)
    a.rig.d6(5, 5, 5).d6(4, 4).d6(3, 3)  # hit: 8 - 1 = 7; burn: 6 - 1 = 5, 2 now
    ev = a.act("attack bob")
    bob = a.c("bob")
    assert damage(ev)[0].dealt == 7
    assert (bob.hp, bob.burn_left) == (40 - 7 - 2, 3)
    fire = next(e for e in ev if isinstance(e, Note) and "catches fire" in e.message)
    assert "2d6 (3+3) - EDT (less 2 for armor piercing) 1 = 5 burn damage" in fire.message


def test_splash_on_a_bystander_is_not_a_hit_so_no_minimum_of_1():
    """Seed 000_4e72993430dea166.txt, Damage: "a hit always does at least one damage";
    Splash: damage falls by 1 per foot. A bystander caught in the blast was not hit, so
    splash damage under its DT does nothing."""
    a = _splash()
    a.c("fred").creature = a.c("fred").creature.model_copy(update={
        "pnp": a.c("fred").creature.pnp.model_copy(update={"pdt": 9})})
    a.rig.d6(5, 5, 5).push(10, 6, 6)  # 12 at bob; fred 5 ft away: 7 - PDT 9
    ev = a.act("attack bob")
    dealt = {d.target: d.dealt for d in damage(ev)}
    assert dealt["bob"] == 12 and dealt["fred"] == 0 and a.c("fred").hp == 40


def test_lethal_does_not_apply_to_splash_on_bystanders():
    """Seed 000_4e72993430dea166.txt, Lethal (a weapon that damages the target and leaves it
    at or under the value kills it) and Splash: a bystander was not the weapon's target."""
    a = _splash()
    _with_qualities(a, "ann", lethal=40)
    a.c("cal").hp = 10
    a.rig.d6(5, 5, 5).push(10, 6, 6)  # bob 12 (28 left: Lethal 40 finishes him)
    ev = a.act("attack bob")
    assert a.c("bob").hp == 0
    assert a.c("cal").hp == 10 - 5 and a.c("fred").hp == 40 - 7
    assert not any("Lethal" in d.note for d in damage(ev) if d.target != "bob")


def test_splash_on_allies_is_not_damage_dealt():
    """What reward shaping reads (issue 10): a blast that also catches the thrower's ally
    counts as damage dealt only for the enemies; the ally's loss is damage taken."""
    a = _splash()
    a.rig.d6(5, 5, 5).push(10, 6, 6)  # bob 12, fred (ann's ally) 7, cal 5, dan 2
    a.act("attack bob")
    assert a.c("ann").damage_dealt == 12 + 5 + 2
    assert a.c("fred").damage_taken == 7
