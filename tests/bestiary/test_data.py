"""The built-in bestiary: every entry loads, cross-references resolve, and the armory
covers what the PnP seed (000_4e72993430dea166.txt, Weapon Statistics and Weapon
Qualities) describes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wasteland.bestiary.loader import DATA, default_bestiary, load_bestiary
from wasteland.bestiary.models import Creature, Qualities

B = default_bestiary()
REQUIRED_CREATURES = {
    "young_radscorpion", "radscorpion", "giant_radscorpion", "super_mutant",
    "super_mutant_brute", "protectron", "mr_handy", "sentry_bot", "feral_ghoul", "raider",
}
PLAYER_TEMPLATES = {"vault_dweller": "10mm_pistol", "wastelander": "hunting_rifle",
                    "brawler": "lead_pipe"}
KIND_DIRS: dict[str, dict] = {"weapons": B.weapons, "armor": B.armor, "items": B.items,
                              "creatures": B.creatures}


def test_the_built_in_data_loads_and_cross_checks() -> None:
    fresh = load_bestiary()
    fresh.check()  # weapons, armor, ammunition and items named by creatures all exist
    assert set(fresh.creatures) == set(B.creatures)
    assert len(B.weapons) >= 12 and len(B.armor) >= 3 and "stimpak" in B.items


@pytest.mark.parametrize("kind", sorted(KIND_DIRS))
def test_one_entry_per_file_named_after_its_id(kind: str) -> None:
    files = sorted((DATA / kind).glob("*.yaml"))
    assert files
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(data, dict), path
        assert data["id"] == path.stem, f"{path}: id {data['id']!r} differs from the file name"
        assert data.get("description"), f"{path}: every entry has a description"
    assert {p.stem for p in files} == set(KIND_DIRS[kind])


def test_required_creatures_and_player_templates_exist() -> None:
    assert REQUIRED_CREATURES <= set(B.creatures)
    for cid, weapon in PLAYER_TEMPLATES.items():
        c = B.creatures[cid]
        assert c.kind == "character"
        assert c.pnp.weapons[0].id == weapon
        assert c.pnp.items.get("stimpak", 0) >= 1, f"{cid} carries stimpaks"
        assert c.pnp.vats and c.pnp.ap > 0
    for cid in REQUIRED_CREATURES:
        assert B.creatures[cid].kind != "character"


@pytest.mark.parametrize("cid", sorted(B.creatures))
def test_hit_locations_cover_the_d20_once(cid: str) -> None:
    c = B.creatures[cid]
    covered: list[int] = []
    for loc in c.hit_locations:
        assert loc.d20 is not None, f"{cid}: {loc.name} has no d20 range"
        lo, hi = loc.d20
        assert 1 <= lo <= hi <= 20
        covered += range(lo, hi + 1)
    assert sorted(covered) == list(range(1, 21)), f"{cid}: d20 ranges overlap or leave gaps"
    kinds = [loc.kind for loc in c.hit_locations]
    assert kinds.count("torso") == 1 and kinds.count("head") == 1


def _kinds(c: Creature) -> dict[str, int]:
    out: dict[str, int] = {}
    for loc in c.hit_locations:
        out[loc.kind] = out.get(loc.kind, 0) + loc.count
    return out


def test_creatures_have_their_own_body_plans() -> None:
    handy = _kinds(B.creatures["mr_handy"])
    assert "leg" not in handy and handy["other"] >= 1 and handy["arm"] == 3
    assert any(loc.name == "thruster" for loc in B.creatures["mr_handy"].hit_locations)
    scorp = _kinds(B.creatures["radscorpion"])
    assert scorp["leg"] > 2 and scorp["other"] >= 1  # many legs and a tail
    for cid in ("feral_ghoul", "raider", "super_mutant", "vault_dweller"):
        assert _kinds(B.creatures[cid]) == {"head": 1, "torso": 1, "arm": 2, "leg": 2}


def test_ai_packets_fit_the_creature() -> None:
    cr = B.creatures
    assert cr["radscorpion"].ai.distance == "charge"
    assert cr["protectron"].ai.distance == "stay"
    assert cr["sentry_bot"].ai.distance == "snipe"
    assert cr["raider"].ai.min_hp > 0  # runs when hurt
    for cid, c in cr.items():
        if c.kind in ("robot", "insect", "animal"):
            assert c.ai.chem_use == "never", cid


@pytest.mark.parametrize("cid", sorted(B.creatures))
def test_creatures_carry_ammunition_for_their_guns(cid: str) -> None:
    c = B.creatures[cid]
    weapons = [B.weapons[r.id] for r in c.pnp.weapons]
    needed = {w.ammo for w in weapons if w.ammo}
    assert set(c.pnp.ammo) <= needed, f"{cid} carries ammunition for no weapon it has"
    for w in weapons:
        if w.magazine != "none" and w.ammo and not w.qualities.recharging:
            assert c.pnp.ammo.get(w.ammo, 0) > 0, f"{cid} has no {w.ammo} for {w.id}"
    for item in c.pnp.items:
        assert B.items[item].kind == "healing"


def test_natural_weapons_need_no_hands() -> None:
    for cid, c in B.creatures.items():
        if c.kind in ("insect", "animal", "ghoul"):
            for ref in c.pnp.weapons:
                w = B.weapons[ref.id]
                assert w.hands == 0 and w.kind == "unarmed", (cid, w.id)
    for w in B.weapons.values():
        if w.kind == "unarmed":
            assert w.hands == 0, w.id


def test_weapons_are_consistent() -> None:
    for w in B.weapons.values():
        if w.kind == "ranged":
            assert w.range_ft > 0 and w.range_ft % 5 == 0, f"{w.id}: range in feet, 5-ft squares"
            assert w.min_range_ft % 5 == 0 and w.min_range_ft < w.range_ft
            assert w.style != "none"
        else:
            assert w.magazine == "none" and w.range_ft == 0, w.id
        if w.magazine == "none":
            assert w.ammo is None and w.capacity == 0, w.id
        else:
            assert w.capacity >= 1
            assert w.ammo or w.qualities.recharging, f"{w.id}: a magazine needs ammunition"
        if w.qualities.splash or w.qualities.lobbed:
            assert w.kind == "ranged"


def test_the_armory_covers_every_weapon_quality() -> None:
    """Seed 000, Weapon Qualities: all twelve appear on at least one built-in weapon."""
    default = Qualities()
    for name in Qualities.model_fields:
        users = [w.id for w in B.weapons.values()
                 if getattr(w.qualities, name) != getattr(default, name)]
        assert users, f"no built-in weapon has the {name} quality"


def test_the_armory_covers_magazines_damage_types_and_reach() -> None:
    """Seed 000, Magazine Types and Reloading; Damage Type; Weapon Range (reach 2)."""
    ws = list(B.weapons.values())
    assert {w.magazine for w in ws} == {"none", "internal", "clip", "complex"}
    types = {w.damage_type for w in ws}
    assert {"physical", "energy"} <= types and types & {"radiation", "toxic"}
    assert any(w.kind != "ranged" and w.reach >= 2 for w in ws)
    assert any(w.rof > 1 for w in ws)
    assert {"single", "semi", "auto"} <= {w.style for w in ws}


def test_showcase_weapons_sit_where_the_rules_expect() -> None:
    w = B.weapons
    assert w["minigun"].qualities.warm_up and w["minigun"].magazine == "complex"
    assert "minigun" in [r.id for r in B.creatures["sentry_bot"].pnp.weapons]
    laser = w["protectron_laser"]
    assert laser.qualities.recharging and laser.damage_type == "energy"
    assert B.creatures["protectron"].pnp.weapons[0].id == "protectron_laser"
    gl = w["grenade_launcher"].qualities
    assert gl.lobbed and gl.splash
    assert w["handy_flamer"].qualities.burning and w["handy_flamer"].qualities.stunted_range
    assert w["sawed_off_shotgun"].qualities.spread


def test_armor_is_ordered_by_protection() -> None:
    a = B.armor
    assert a["vault_suit"].pdt < a["leather_armor"].pdt < a["metal_armor"].pdt


def test_a_bestiary_folder_can_be_loaded_from_anywhere(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(DATA, tmp_path / "data")
    copy = load_bestiary(tmp_path / "data")
    assert copy.creatures == B.creatures and copy.weapons == B.weapons
