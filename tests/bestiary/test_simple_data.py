"""The built-in bestiary carries a J.E. Sawyer "Simple" stat block (seed
001_0912b5c6442fb3b1.txt) for every weapon, armor and creature: weapon profiles with a
skill, damage dice per hit, a damage type, a point-blank range in hexes and a critical
multiplier; DT per damage type on armor and creatures; creature blocks with HP, size,
sequence, Endurance and Luck, Defense, skill totals, stances, eyes and legs. HP and damage
keep the proportions of the PnP blocks, so that fights last a similar number of rounds.
The loader cross-checks the simple block like the others."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from wasteland.bestiary.loader import DATA, BestiaryError, default_bestiary, load_bestiary
from wasteland.bestiary.models import (
    SIZES_SIMPLE,
    SKILLS_SIMPLE,
    ArmorSimple,
    Creature,
    StatsSimple,
    WeaponSimple,
)
from wasteland.rules.dice import Dice

B = default_bestiary()
CHARACTERS = sorted(cid for cid, c in B.creatures.items() if c.kind == "character")
CREATURES = sorted(cid for cid, c in B.creatures.items() if c.kind != "character")
RANGED_SKILLS = {"guns", "big_guns", "energy_weapons", "throwing"}
MELEE_SKILLS = {"melee", "unarmed"}
HEAVY_WEAPONS = {"minigun", "missile_launcher"}  # the seed's rocket launcher / machinegun class
IMMUNE = 99  # DT that no hit in the bestiary gets past (as the f2d20 blocks' 99)


def _block(c: Creature) -> StatsSimple:
    assert c.simple is not None, f"{c.id} has no simple block"
    return c.simple


def _profile(wid: str) -> WeaponSimple:
    p = B.weapons[wid].simple
    assert p is not None, f"{wid} has no simple profile"
    return p


def _armor(aid: str) -> ArmorSimple:
    a = B.armor[aid].simple
    assert a is not None, f"{aid} has no simple DT"
    return a


def _mean(dice: str) -> float:
    d = Dice.parse(dice)
    return (d.minimum + d.maximum) / 2


def test_every_weapon_armor_and_creature_has_a_simple_block() -> None:
    assert [w for w, x in B.weapons.items() if x.simple is None] == []
    assert [a for a, x in B.armor.items() if x.simple is None] == []
    assert [c for c, x in B.creatures.items() if x.simple is None] == []
    assert CHARACTERS and CREATURES


@pytest.mark.parametrize("wid", sorted(B.weapons))
def test_weapon_profiles_fit_the_weapon(wid: str) -> None:
    w = B.weapons[wid]
    p = _profile(wid)
    if w.kind == "ranged":
        assert p.skill in RANGED_SKILLS and p.range > 0, wid
    else:  # melee and natural weapons: no range bands (seed 001: thrown and fired only)
        assert p.skill in MELEE_SKILLS and p.range == 0, wid
    if w.kind == "unarmed":
        assert p.skill == "unarmed", wid  # claws and stings use the unarmed skill
    # damage types follow the PnP block: toxic stings are poison; radiation (no Simple
    # type of its own) is read as poison too, the one type no armor gives DT against
    simple_types = {"physical": {"normal", "explosive"}, "energy": {"laser", "fire"},
                    "toxic": {"poison"}, "radiation": {"poison"}}
    assert p.damage_type in simple_types[w.damage_type], wid
    if p.damage_type == "explosive":
        assert w.qualities.splash, f"{wid}: an explosive weapon bursts (Splash in PnP)"
    # item size: two-handed and heavy weapons are large; pistols, knives, natural weapons small
    assert p.size == ("large" if w.hands == 2 or p.heavy else "small"), wid
    assert p.scope == ("scope" in w.description.lower()), wid
    assert p.crit in (2, 3), wid


def test_heavy_weapons() -> None:
    assert {wid for wid in B.weapons if _profile(wid).heavy} == HEAVY_WEAPONS
    for wid in HEAVY_WEAPONS:
        assert _profile(wid).skill == "big_guns", wid


def test_damage_keeps_the_pnp_proportions() -> None:
    ratios = {wid: _mean(_profile(wid).damage) / _mean(w.damage) for wid, w in B.weapons.items()}
    first = next(iter(ratios.values()))
    assert all(abs(r - first) < 1e-9 for r in ratios.values()), ratios


def test_ranges() -> None:
    """Point blank in hexes: pistols 8-10, rifles 15-20, the hunting rifle 25; a weapon with
    a longer PnP range never gets a shorter Simple one."""
    ranged = sorted((w for w in B.weapons.values() if w.kind == "ranged"),
                    key=lambda w: (w.range_ft, _profile(w.id).range))
    hexes = [_profile(w.id).range for w in ranged]
    assert hexes == sorted(hexes), [(w.id, w.range_ft, _profile(w.id).range) for w in ranged]
    for w in ranged:
        p = _profile(w.id)
        if p.skill == "guns" and w.hands == 1:
            assert 8 <= p.range <= 10, w.id
        if w.qualities.stunted_range:  # the flamer and the sawed-off: a few paces
            assert p.range <= 5, w.id
    assert 15 <= _profile("assault_rifle").range <= 20
    assert _profile("hunting_rifle").range == 25


def test_showcase_weapon_profiles() -> None:
    p = {k: _profile(k) for k in B.weapons}
    assert p["hunting_rifle"].crit == 3 and not p["hunting_rifle"].scope  # no scope fitted
    assert p["combat_knife"].crit == 3  # a knife for finishing off
    assert p["lead_pipe"].crit == 3  # Brutal 1 in PnP: x3 criticals
    assert p["protectron_laser"].damage_type == "laser"
    assert p["protectron_laser"].skill == "energy_weapons"
    assert p["handy_flamer"].damage_type == "fire" and p["handy_flamer"].skill == "big_guns"
    assert p["missile_launcher"].damage_type == "explosive"
    assert p["grenade_launcher"].damage_type == "explosive"
    assert not p["grenade_launcher"].heavy  # a break-open launcher, carried like a shotgun
    for wid in ("radscorpion_stinger", "young_radscorpion_stinger", "giant_radscorpion_stinger"):
        assert p[wid].damage_type == "poison", wid
    assert p["ghoul_claws"].damage_type == "normal"


def test_armor_dt() -> None:
    a = {k: _armor(k) for k in B.armor}
    assert a["vault_suit"].dt.normal < a["leather_armor"].dt.normal < a["metal_armor"].dt.normal
    assert a["metal_armor"].dt.normal <= a["combat_armor"].dt.normal
    for aid, x in a.items():
        assert not x.heavy, f"{aid}: only power-armor-like suits are heavy"
        assert x.dt.normal <= (2 if B.armor[aid].pdt <= 2 else 5), aid
        assert 3 <= x.dt.normal or B.armor[aid].pdt <= 2, aid  # combat and metal: 3-5
        assert x.dt.laser <= x.dt.normal, aid  # plates stop bullets better than beams
        assert x.dt.explosive == x.dt.normal and x.dt.poison == 0, aid
        # the same DT as the PnP block (normal: PDT; laser, plasma, fire, electrical: EDT)
        assert (x.dt.normal, x.dt.laser) == (B.armor[aid].pdt, B.armor[aid].edt), aid
        assert x.dt.laser == x.dt.plasma == x.dt.fire == x.dt.electrical, aid


@pytest.mark.parametrize("cid", sorted(B.creatures))
def test_creature_arsenal_matches_the_pnp_block(cid: str) -> None:
    c = B.creatures[cid]
    s = _block(c)
    assert [r.id for r in s.weapons] == [r.id for r in c.pnp.weapons]
    assert all(r.bonus == 0 for r in s.weapons), "skill totals carry the training"
    for r in s.weapons:
        _profile(r.id)
    assert s.armor == c.pnp.armor
    if s.armor:
        _armor(s.armor)
    assert s.ammo == c.pnp.ammo and s.items == c.pnp.items


@pytest.mark.parametrize("cid", sorted(B.creatures))
def test_creature_blocks(cid: str) -> None:
    c = B.creatures[cid]
    s = _block(c)
    assert s.size in SIZES_SIMPLE
    assert set(s.skills) <= set(SKILLS_SIMPLE)
    assert all(0 <= v <= 12 for v in s.skills.values()), s.skills
    for r in s.weapons:  # trained with every weapon it carries
        assert s.skills.get(_profile(r.id).skill, 0) >= 3, (cid, r.id)
    assert 0 <= s.defense <= 4
    assert s.defense == max(0, c.pnp.defense - 10)  # the PnP defense above a 10 base
    assert 1 <= s.endurance <= 10 and 1 <= s.luck <= 10
    for t in ("normal", "laser", "plasma", "fire", "explosive", "electrical"):
        assert getattr(s.dt, t) <= 6, (cid, t)
    assert s.dt.normal == c.pnp.pdt and s.dt.laser == c.pnp.edt
    assert s.dt.explosive == s.dt.normal
    assert s.dt.laser == s.dt.plasma == s.dt.fire == s.dt.electrical
    if c.pnp.poison_resistance == 100:
        assert s.dt.poison == IMMUNE, cid
    else:  # a share of an average sting (7.5) like the PnP resistance percentage
        assert s.dt.poison == round(c.pnp.poison_resistance * 7.5 / 100), cid


def test_hp_keeps_the_pnp_proportions() -> None:
    ratios = {cid: _block(c).hp / c.pnp.hp for cid, c in B.creatures.items()}
    first = next(iter(ratios.values()))
    assert all(abs(r - first) < 1e-9 for r in ratios.values()), ratios


def test_sizes() -> None:
    size = {cid: _block(c).size for cid, c in B.creatures.items()}
    for cid, c in B.creatures.items():
        if c.kind in ("human", "character", "ghoul"):
            assert size[cid] == "large", cid  # seed 001: human sized is large
    assert size["super_mutant"] == size["protectron"] == size["mr_handy"] == "large"
    for cid in ("super_mutant_brute", "giant_radscorpion", "sentry_bot"):
        assert size[cid] == "great", cid
    # seed 001 names "a small radscorpion" as its example of a small target
    assert size["radscorpion"] == "small" and size["young_radscorpion"] == "small"


def test_sequence_by_kind() -> None:
    for cid, c in B.creatures.items():
        seq = _block(c).sequence
        low, high = {"human": (4, 8), "character": (4, 8), "mutant": (3, 4), "ghoul": (6, 9),
                     "insect": (6, 9), "robot": (2, 7), "animal": (4, 9)}[c.kind]
        assert low <= seq <= high, (cid, seq)
    by_id = {cid: _block(c).sequence for cid, c in B.creatures.items()}
    assert by_id["protectron"] < by_id["sentry_bot"] < by_id["mr_handy"]  # walker < hover
    assert by_id["giant_radscorpion"] < by_id["radscorpion"] < by_id["young_radscorpion"]
    assert by_id["super_mutant_brute"] < by_id["super_mutant"]


def test_stances_eyes_and_legs() -> None:
    for cid, c in B.creatures.items():
        s = _block(c)
        # robots (hover, treads, a rigid walker) and scorpions (already at ground level)
        assert s.stances == (c.kind not in ("robot", "insect")), cid
        legs = sum(loc.count for loc in c.hit_locations if loc.kind == "leg")
        if c.kind != "robot":
            assert s.legs == legs and s.eyes == 2, cid
    b = {cid: _block(c) for cid, c in B.creatures.items()}
    assert (b["mr_handy"].eyes, b["mr_handy"].legs) == (3, 0)  # eye stalks, a thruster
    assert (b["sentry_bot"].eyes, b["sentry_bot"].legs) == (1, 0)  # sensor array, treads
    assert (b["protectron"].eyes, b["protectron"].legs) == (1, 2)  # sensor dome, two legs
    assert b["radscorpion"].legs == 6


def test_robots_and_resistant_creatures() -> None:
    for cid, c in B.creatures.items():
        s = _block(c)
        if c.kind == "robot":  # plating: 2-6, no less against bullets than beams
            assert 2 <= s.dt.normal <= 6 and s.dt.normal >= s.dt.laser, cid
            assert s.dt.poison == IMMUNE, cid
    assert _block(B.creatures["feral_ghoul"]).dt.normal == 0  # rotten skin stops nothing


def test_main_skills() -> None:
    skill = {cid: _block(c).skills for cid, c in B.creatures.items()}
    assert 5 <= skill["raider"]["guns"] <= 7
    assert (skill["super_mutant"]["guns"], skill["super_mutant"]["melee"]) == (6, 8)
    for cid, c in B.creatures.items():
        if c.kind in ("insect", "ghoul"):
            assert 6 <= skill[cid]["unarmed"] <= 8, cid


@pytest.mark.parametrize("cid", CHARACTERS)
def test_player_character_templates(cid: str) -> None:
    c = B.creatures[cid]
    s = _block(c)
    f = c.f2d20
    assert f is not None and f.special is not None
    # the same character as under 2d20: its Endurance and Luck, sequence half its
    # 2d20 initiative (Perception + Agility)
    assert (s.endurance, s.luck) == (f.special["endurance"], f.special["luck"])
    assert s.sequence == f.initiative // 2
    main = _profile(s.weapons[0].id)  # the template's signature weapon
    assert s.skills.get(main.skill, 0) >= 8, cid
    assert s.skills.get("medic", 0) >= 3, cid  # staunching a friend's bleeding
    assert s.items.get("stimpak", 0) >= 1 and s.armor is not None


# --- the loader's cross-checks ---------------------------------------------------------

def _raider_with(tmp_path: Path, simple: dict[str, Any], extra: dict[str, dict] | None = None,
                 ) -> str:
    """Load a copy of the built-in data plus a raider named 'broken' whose simple block is
    changed by ``simple``, and (``extra``) more entries by folder; the error's message."""
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    data = yaml.safe_load((DATA / "creatures" / "raider.yaml").read_text(encoding="utf-8"))
    data["id"] = "broken"
    data["simple"].update(simple)
    (root / "creatures" / "broken.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    for folder, entry in (extra or {}).items():
        (root / folder / f"{entry['id']}.yaml").write_text(yaml.safe_dump(entry), "utf-8")
    with pytest.raises(BestiaryError) as info:
        load_bestiary(root)
    msg = str(info.value)
    assert "\n" not in msg, msg
    assert msg.startswith(f"{root / 'creatures' / 'broken.yaml'}: creature 'broken': "), msg
    return msg


def _without_simple(folder: str, source: str, new_id: str) -> dict:
    data = yaml.safe_load((DATA / folder / f"{source}.yaml").read_text(encoding="utf-8"))
    data["id"] = new_id
    del data["simple"]
    return dict(data)


def test_the_raider_copy_loads_when_nothing_is_broken(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    data = yaml.safe_load((DATA / "creatures" / "raider.yaml").read_text(encoding="utf-8"))
    data["id"] = "broken"
    (root / "creatures" / "broken.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    assert _block(load_bestiary(root).creatures["broken"]).weapons[0].id == "pipe_pistol"


def test_unknown_weapon_in_the_simple_block(tmp_path: Path) -> None:
    msg = _raider_with(tmp_path, {"weapons": [{"id": "pipe_pistol"}, {"id": "gauss_rifle"}]})
    assert "simple.weapons[1].id: unknown weapon 'gauss_rifle'; known: " in msg, msg
    assert "10mm_pistol" in msg


def test_simple_block_naming_a_weapon_without_a_simple_profile(tmp_path: Path) -> None:
    old = _without_simple("weapons", "machete", "old_machete")
    msg = _raider_with(tmp_path, {"weapons": [{"id": "old_machete"}]}, {"weapons": old})
    assert "simple.weapons[0].id: weapon 'old_machete' has no simple profile (" in msg, msg
    assert "old_machete.yaml)" in msg


def test_a_pnp_block_may_name_a_weapon_without_a_simple_profile(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    old = _without_simple("weapons", "machete", "old_machete")
    (root / "weapons" / "old_machete.yaml").write_text(yaml.safe_dump(old), "utf-8")
    data = yaml.safe_load((DATA / "creatures" / "raider.yaml").read_text(encoding="utf-8"))
    data["id"] = "pnp_only"
    data["pnp"]["weapons"] = [{"id": "old_machete"}]
    del data["simple"], data["f2d20"]
    (root / "creatures" / "pnp_only.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    assert load_bestiary(root).creatures["pnp_only"].simple is None


def test_unknown_armor_in_the_simple_block(tmp_path: Path) -> None:
    msg = _raider_with(tmp_path, {"armor": "power_armor"})
    assert "simple.armor: unknown armor 'power_armor'; known: " in msg, msg
    assert "raider_armor" in msg


def test_simple_block_naming_armor_without_simple_dt(tmp_path: Path) -> None:
    old = _without_simple("armor", "raider_armor", "old_armor")
    msg = _raider_with(tmp_path, {"armor": "old_armor"}, {"armor": old})
    assert "simple.armor: armor 'old_armor' has no simple DT (" in msg, msg


def test_unknown_ammo_and_item_in_the_simple_block(tmp_path: Path) -> None:
    msg = _raider_with(tmp_path, {"ammo": {"12.7mm": 6}})
    assert "simple.ammo.12.7mm: no weapon uses ammunition '12.7mm'" in msg, msg
    msg = _raider_with(tmp_path / "2", {"items": {"jet": 1}})
    assert "simple.items.jet: unknown item" in msg, msg
