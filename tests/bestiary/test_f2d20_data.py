"""The built-in bestiary carries a Fallout 2d20 stat block (seeds 002_265a8a3b5c20fde4.txt
and 003_938882289c4f9016.txt) for every weapon, armor and creature: weapon profiles with
combat dice, an ideal range band and a fire rate; DR per damage type; creature blocks in
Body / Mind with Melee / Guns / Other; player-character blocks in SPECIAL with skills and
three tag skills."""

from __future__ import annotations

import pytest

from wasteland.bestiary.loader import default_bestiary
from wasteland.bestiary.models import (
    RANGES_2D20,
    SKILLS_2D20,
    SPECIAL,
    Creature,
    DR2d20,
    Stats2d20,
    Weapon2d20,
)

B = default_bestiary()
CHARACTERS = sorted(cid for cid, c in B.creatures.items() if c.kind == "character")
CREATURES = sorted(cid for cid, c in B.creatures.items() if c.kind != "character")
MELEE_SKILLS = {"melee_weapons", "unarmed"}
RANGED_SKILLS = {"small_guns", "energy_weapons", "big_guns", "explosives", "throwing"}


def _block(c: Creature) -> Stats2d20:
    assert c.f2d20 is not None, f"{c.id} has no f2d20 block"
    return c.f2d20


def _profile(wid: str) -> Weapon2d20:
    p = B.weapons[wid].f2d20
    assert p is not None, f"{wid} has no f2d20 profile"
    return p


def _dr(aid: str) -> DR2d20:
    dr = B.armor[aid].f2d20
    assert dr is not None, f"{aid} has no f2d20 DR"
    return dr


def test_every_weapon_armor_and_creature_has_an_f2d20_block() -> None:
    assert [w for w, x in B.weapons.items() if x.f2d20 is None] == []
    assert [a for a, x in B.armor.items() if x.f2d20 is None] == []
    assert [c for c, x in B.creatures.items() if x.f2d20 is None] == []
    assert CHARACTERS and CREATURES


@pytest.mark.parametrize("wid", sorted(B.weapons))
def test_weapon_profiles_fit_the_weapon(wid: str) -> None:
    """Seed 003, Combat Dice / Range; seed 002, Increasing Damage (fire rate)."""
    w = B.weapons[wid]
    p = _profile(wid)
    assert 1 <= p.cd <= 10 and p.range in RANGES_2D20
    if w.kind == "ranged":
        assert p.skill in RANGED_SKILLS, wid
        if w.capacity:  # extra rounds beyond the one fired must fit the magazine
            assert p.fire_rate <= w.capacity - 1, wid
    else:
        assert p.skill in MELEE_SKILLS and p.fire_rate == 0, wid
        assert p.range == "close", wid  # melee: the (unused) default band
    if w.kind == "unarmed":
        assert p.skill == "unarmed", wid
    # energy and poison weapons keep their type across rulesets (toxic -> poison)
    pnp_to_2d20 = {"physical": {"physical"}, "energy": {"energy"},
                   "toxic": {"poison"}, "radiation": {"radiation", "physical"}}
    assert p.damage_type in pnp_to_2d20[w.damage_type], wid
    if w.damage_type == "radiation" and p.damage_type == "physical":
        assert p.effects.radioactive, f"{wid}: a radiation weapon needs Radioactive"


def test_showcase_weapon_profiles() -> None:
    w = {k: _profile(k) for k in B.weapons}
    assert w["10mm_pistol"].cd == 4 and w["10mm_pistol"].fire_rate == 2  # seed 002 example
    assert w["hunting_rifle"].effects.piercing >= 1 and w["hunting_rifle"].range == "long"
    assert w["assault_rifle"].effects.burst
    assert w["sawed_off_shotgun"].effects.spread and w["sawed_off_shotgun"].range == "close"
    assert w["handy_flamer"].effects.persistent and w["handy_flamer"].damage_type == "energy"
    assert w["minigun"].skill == "big_guns" and w["minigun"].fire_rate >= 4
    assert w["protectron_laser"].skill == "energy_weapons"
    assert w["sledgehammer"].effects.breaking
    assert w["glowing_touch"].effects.radioactive
    assert w["radscorpion_stinger"].effects.persistent
    effects = {name for p in w.values() for name, v in p.effects if v}
    assert effects == {"piercing", "vicious", "burst", "spread", "persistent", "breaking",
                       "radioactive"}  # every effect but Stun is on some weapon
    assert {p.range for p in w.values()} >= {"close", "medium", "long"}
    assert {p.damage_type for p in w.values()} == {"physical", "energy", "poison"}


def test_armor_dr_is_ordered_like_the_pnp_block() -> None:
    a = {k: _dr(k) for k in B.armor}
    assert a["vault_suit"].physical < a["leather_armor"].physical < a["metal_armor"].physical
    assert a["metal_armor"].physical <= a["combat_armor"].physical
    assert a["vault_suit"].radiation > 0  # vault suits were made for fallout
    for aid, dr in a.items():
        assert max(dr.physical, dr.energy, dr.radiation) <= 5, aid


@pytest.mark.parametrize("cid", sorted(B.creatures))
def test_attacks_resolve_to_weapons_with_f2d20_profiles(cid: str) -> None:
    c = B.creatures[cid]
    f = _block(c)
    for a in f.attacks:
        assert a.id in B.weapons, (cid, a.id)
        assert B.weapons[a.id].f2d20 is not None, (cid, a.id)
    # the same arsenal in both rulesets
    assert [a.id for a in f.attacks] == [r.id for r in c.pnp.weapons]
    if f.armor:
        assert B.armor[f.armor].f2d20 is not None
    needed = {B.weapons[a.id].ammo for a in f.attacks}
    assert set(f.ammo) <= needed, f"{cid} carries ammunition for no weapon it has"
    for a in f.attacks:
        w = B.weapons[a.id]
        if w.ammo:
            assert f.ammo.get(w.ammo, 0) > 0, f"{cid} has no {w.ammo} for {w.id}"
    assert set(f.items) <= set(B.items)


@pytest.mark.parametrize("cid", CREATURES)
def test_creature_blocks(cid: str) -> None:
    c = B.creatures[cid]
    f = _block(c)
    assert f.special is None and f.body is not None and f.mind is not None
    assert not f.tags and not f.skills
    assert 1 <= f.defense <= 3
    assert 5 <= f.hp <= 60
    for a in f.attacks:
        w = B.weapons[a.id]
        skill = a.skill or ("guns" if w.kind == "ranged" else "melee")
        assert getattr(f, skill) >= 1, f"{cid} attacks with {a.id} using an untrained {skill}"
    names = {loc.name for loc in c.hit_locations} | {loc.kind for loc in c.hit_locations}
    assert set(f.dr_by_location) <= names, f"{cid}: dr_by_location names no hit location"


def test_creature_scale_and_abilities() -> None:
    f = {cid: _block(B.creatures[cid]) for cid in CREATURES}
    assert f["young_radscorpion"].hp < f["radscorpion"].hp < f["giant_radscorpion"].hp
    assert f["super_mutant"].hp < f["super_mutant_brute"].hp
    assert f["feral_ghoul"].hp < f["glowing_one"].hp
    assert max(f.values(), key=lambda s: s.hp) is f["sentry_bot"]
    assert "little" in f["young_radscorpion"].abilities
    for cid in ("giant_radscorpion", "super_mutant_brute", "sentry_bot"):
        assert "big" in f[cid].abilities, cid
    for cid in ("young_radscorpion", "radscorpion", "giant_radscorpion"):
        assert "burrow" in f[cid].abilities, cid
        carapace = f[cid].dr_by_location["carapace"]
        assert carapace.physical > f[cid].dr.physical  # the shell is the hard part
    for cid, c in B.creatures.items():
        s = _block(c)
        if c.kind == "robot":  # robots shrug off radiation and poison
            assert s.dr.radiation >= 50 and s.dr.poison >= 50, cid
            assert s.dr.physical >= 2 and s.dr.energy >= 2, cid
        if c.kind in ("ghoul", "mutant"):
            assert s.dr.radiation >= 50, cid


@pytest.mark.parametrize("cid", CHARACTERS)
def test_player_character_templates(cid: str) -> None:
    f = _block(B.creatures[cid])
    assert f.special is not None and set(f.special) == set(SPECIAL)
    assert all(4 <= v <= 10 for v in f.special.values()), f.special
    assert 36 <= sum(f.special.values()) <= 44
    skills: dict[str, int] = {k: v for k, v in f.skills.items()}
    assert all(0 <= v <= 6 for v in skills.values()) and set(skills) <= set(SKILLS_2D20)
    assert len(f.tags) == 3 and len(set(f.tags)) == 3 and set(f.tags) <= set(SKILLS_2D20)
    for t in f.tags:
        assert skills.get(t, 0) >= 2, f"{cid}: tag skill {t} starts at rank 2 or more"
    main = _profile(f.attacks[0].id)  # the template's signature weapon
    assert skills.get(main.skill, 0) >= 1 and main.skill in f.tags, cid
    for a in f.attacks:
        assert skills.get(_profile(a.id).skill, 0) >= 1, (cid, a.id)
    sp = f.special
    assert f.initiative == sp["perception"] + sp["agility"]
    assert sp["endurance"] + sp["luck"] <= f.hp <= sp["endurance"] + sp["luck"] + 5
    assert f.defense == (2 if sp["agility"] >= 9 else 1)
    assert f.items.get("stimpak", 0) >= 1 and f.armor is not None


def test_healing_items() -> None:
    assert B.items["stimpak"].f2d20_heal == 4
    assert 0 < B.items["healing_powder"].f2d20_heal < B.items["stimpak"].f2d20_heal
