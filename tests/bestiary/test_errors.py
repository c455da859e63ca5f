"""Broken bestiary and scenario files get a one-line BestiaryError that names the file,
the entry and the field (DESIGN.md, Principles: "Bad input gets a clear one-line error").

Fixtures: tests/data/broken/<kind>/<name>.yaml, one mistake each. A bestiary fixture is
dropped into a copy of the built-in data, so everything else in the folder is valid.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wasteland.bestiary.loader import (
    DATA,
    BestiaryError,
    bestiary_problems,
    load_bestiary,
    load_scenario,
    parse_entry,
)
from wasteland.bestiary.models import Creature, Scenario, Weapon

BROKEN = Path(__file__).resolve().parent.parent / "data" / "broken"


def bestiary_error(kind: str, name: str, tmp_path: Path) -> str:
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    shutil.copy(BROKEN / kind / f"{name}.yaml", root / kind / f"{name}.yaml")
    with pytest.raises(BestiaryError) as info:
        load_bestiary(root)
    return one_line(str(info.value))


def scenario_error(name: str) -> str:
    with pytest.raises(BestiaryError) as info:
        load_scenario(BROKEN / "scenarios" / f"{name}.yaml")
    return one_line(str(info.value))


def one_line(msg: str) -> str:
    assert "\n" not in msg and "\r" not in msg, f"not one line: {msg!r}"
    assert "Traceback" not in msg and "pydantic" not in msg.lower(), msg
    assert len(msg) < 600, msg
    return msg


# --- bestiary entries ------------------------------------------------------------------
# (kind, fixture, the entry named, the field path named, words of the explanation)
ENTRY_CASES = [
    ("creatures", "hp_lots", "'hp_lots'", "pnp.hp:", "valid integer"),
    ("creatures", "missing_defense", "'missing_defense'", "pnp.defense:", "missing required"),
    ("creatures", "unknown_weapon", "'unknown_weapon'", "pnp.weapons[1].id:",
     "unknown weapon 'plasma_caster'"),
    ("creatures", "typo_field", "'typo_field'", "pnp.perseption:", "unknown field"),
    ("creatures", "bad_location", "'bad_location'", "hit_locations[1].kind:", "'other'"),
    ("creatures", "unknown_armor", "'unknown_armor'", "pnp.armor:", "'power_armor'"),
    ("creatures", "unknown_item", "'unknown_item'", "pnp.items.jet:", "unknown item"),
    ("creatures", "unknown_ammo", "'unknown_ammo'", "pnp.ammo.12.7mm:", "no weapon uses"),
    ("creatures", "f2d20_no_body", "'f2d20_no_body'", "f2d20:",
     "needs body and mind (creatures) or special (characters)"),
    ("creatures", "f2d20_unknown_attack", "'f2d20_unknown_attack'", "f2d20.attacks[1].id:",
     "unknown weapon 'gauss_rifle'"),
    ("creatures", "f2d20_bad_tag", "'f2d20_bad_tag'", "f2d20:", "tag 'bartering' is not a skill"),
    ("weapons", "bad_dice", "'bad_dice'", "damage:", "'2x6+1' is not NdX+M"),
    ("weapons", "bad_hands", "'bad_hands'", "hands:", "0, 1 or 2"),
    ("weapons", "bad_quality", "'bad_quality'", "qualities.holy:", "unknown field"),
    ("armor", "bad_pdt", "armor 'bad_pdt'", "pdt:", "greater than or equal to 0"),
    ("items", "bad_heal", "'bad_heal'", "heal:", "'a lot' is not NdX+M"),
]


@pytest.mark.parametrize(("kind", "name", "entry", "field", "why"), ENTRY_CASES,
                         ids=[c[1] for c in ENTRY_CASES])
def test_broken_entry_names_file_entry_and_field(kind: str, name: str, entry: str, field: str,
                                                  why: str, tmp_path: Path) -> None:
    msg = bestiary_error(kind, name, tmp_path)
    assert msg.startswith(str(tmp_path / "data" / kind / f"{name}.yaml") + ": "), msg
    assert entry in msg and field in msg and why in msg, msg


def test_unknown_field_lists_the_fields_accepted_there(tmp_path: Path) -> None:
    msg = bestiary_error("creatures", "typo_field", tmp_path)
    assert "perception" in msg and "defense" in msg  # the PnP stat block's own fields
    assert "hit_locations" not in msg  # not the creature's top-level fields
    msg = bestiary_error("weapons", "bad_quality", tmp_path / "2")
    assert "armor_piercing" in msg and "lucky" in msg and "range_ft" not in msg


def test_unknown_weapon_lists_the_known_ones(tmp_path: Path) -> None:
    msg = bestiary_error("creatures", "unknown_weapon", tmp_path)
    assert "known:" in msg and "10mm_pistol" in msg and "lead_pipe" in msg


def test_every_broken_file_of_a_folder_is_listed_at_once(tmp_path: Path) -> None:
    # issue 26: `bestiary validate` stopped at the first bad file
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    for kind, name in [("weapons", "bad_dice"), ("creatures", "missing_defense"),
                       ("creatures", "unknown_weapon"), ("creatures", "unknown_armor")]:
        shutil.copy(BROKEN / kind / f"{name}.yaml", root / kind / f"{name}.yaml")
    b, problems = bestiary_problems(root)
    assert [p.split(": ")[0] for p in problems] == [
        str(root / k / f"{n}.yaml") for k, n in [
            ("weapons", "bad_dice"), ("creatures", "missing_defense"),
            ("creatures", "unknown_armor"), ("creatures", "unknown_weapon")]]
    assert "super_mutant" in b.creatures and "missing_defense" not in b.creatures
    assert bestiary_problems(DATA)[1] == []


def test_a_name_close_to_a_known_one_is_suggested(tmp_path: Path) -> None:
    # issue 26: 'supermutant' and 'radscorpoin' got the whole list and no "did you mean"
    with pytest.raises(BestiaryError, match=r"'supermutant' \(did you mean 'super_mutant'"):
        load_bestiary().creature("supermutant")
    with pytest.raises(BestiaryError, match=r"'vault_coridor' \(did you mean 'vault_corridor'"):
        load_scenario("vault_coridor")
    path = tmp_path / "typo.yaml"
    path.write_text((BROKEN / "scenarios" / "unknown_creature.yaml").read_text().replace(
        "deathclaw", "radscorpoin"))
    with pytest.raises(BestiaryError, match=r"'radscorpoin' \(did you mean 'radscorpion'"):
        load_scenario(path)
    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    raider = (root / "creatures" / "raider.yaml").read_text()
    (root / "creatures" / "raider.yaml").write_text(raider.replace("pipe_pistol", "pipe_pistl"))
    with pytest.raises(BestiaryError, match=r"'pipe_pistl' \(did you mean 'pipe_pistol'\?\)"):
        load_bestiary(root)
    # nothing close: no suggestion, the known names as before
    with pytest.raises(BestiaryError) as info:
        load_bestiary().creature("deathclaw")
    assert "did you mean" not in str(info.value) and "known: brawler" in str(info.value)


def test_bad_yaml_names_the_file_and_where(tmp_path: Path) -> None:
    msg = bestiary_error("creatures", "bad_yaml", tmp_path)
    assert "bad_yaml.yaml: bad YAML at line 6, column" in msg


def test_a_list_instead_of_an_entry(tmp_path: Path) -> None:
    msg = bestiary_error("creatures", "not_a_mapping", tmp_path)
    assert "not_a_mapping.yaml: expected a mapping of fields for a creature entry" in msg


def test_duplicate_ids_name_both_files(tmp_path: Path) -> None:
    msg = bestiary_error("creatures", "duplicate_id", tmp_path)
    assert "creature 'raider': id: duplicate" in msg
    assert "duplicate_id.yaml" in msg and "raider.yaml" in msg


def test_missing_bestiary_folder(tmp_path: Path) -> None:
    with pytest.raises(BestiaryError) as info:
        load_bestiary(tmp_path / "nowhere")
    assert "nowhere: not a bestiary folder" in one_line(str(info.value))


def test_several_mistakes_report_the_first_and_count_the_rest() -> None:
    data = {"id": "w", "name": "w", "kind": "melee", "damage": "2x6", "rof": 0, "reach": 9}
    with pytest.raises(BestiaryError) as info:
        parse_entry(Weapon, data, "w.yaml", "weapon")
    msg = one_line(str(info.value))
    assert msg.startswith("w.yaml: weapon 'w': ") and "(and 2 more)" in msg


def test_a_message_stays_one_line_whatever_the_validator_says() -> None:
    data = {"id": "c", "name": "c", "kind": "robot", "hit_locations": [],
            "pnp": {"hp": 0, "defense": 1, "initiative": 0, "speed": 1, "weapons": []}}
    with pytest.raises(BestiaryError) as info:
        parse_entry(Creature, data, Path("c.yaml"), "creature")
    assert "c.yaml: creature 'c': hit_locations:" in one_line(str(info.value))


# --- scenarios -------------------------------------------------------------------------
SCENARIO_CASES = [
    ("unknown_creature", "sides[1].combatants[1].creature:", "unknown creature 'deathclaw'"),
    ("on_wall", "sides[1].combatants[0].at:", "[3, 2] is a wall"),
    ("off_map", "sides[1].combatants[0].at:", "[12, 3] is off the 10x5 map"),
    ("char_not_in_legend", "map row 2 column 3:", "'X' is not in the legend"),
    ("long_legend_key", "legend:", "must be a single character"),
    ("unknown_feature", "legend.~:", "'floor'"),
    ("same_square", "sides[0].combatants[1].at:", "already taken"),
    ("duplicate_combatant_id", "sides[1].combatants[0].id:", "'ted' is used twice"),
    ("ragged_row", "map row 2:", "same width"),
    ("bad_lighting", "lighting:", "'heavily_obscured'"),
    ("one_side", "sides:", "at least 2"),
    ("bad_position", "sides[0].combatants[0].at:", "at most 2 items"),
    ("too_many", "sides:", "11 combatants, at most 10"),
    ("bad_agent", "sides[1].agent:", "unknown agent 'policy'; accepted: random, scripted, "
                                     "packet, policy:NAME"),
]


@pytest.mark.parametrize(("name", "field", "why"), SCENARIO_CASES,
                         ids=[c[0] for c in SCENARIO_CASES])
def test_broken_scenario_names_file_entry_and_field(name: str, field: str, why: str) -> None:
    msg = scenario_error(name)
    path = BROKEN / "scenarios" / f"{name}.yaml"
    assert msg.startswith(f"{path}: scenario {name!r}: {field}"), msg
    assert why in msg, msg


def test_a_widened_row_is_named_rather_than_row_0(tmp_path: Path) -> None:
    # issue 26: one row made wider was reported as row 0 (narrower than the widest)
    text = (BROKEN / "scenarios" / "ragged_row.yaml").read_text()
    path = tmp_path / "wide.yaml"
    path.write_text(text.replace("  #..#....#\n", "  #..#.......#\n"))
    with pytest.raises(BestiaryError) as info:
        load_scenario(path)
    msg = one_line(str(info.value))
    assert "map row 2: 12 characters wide, but 4 of the 5 rows are 10" in msg, msg


def test_unknown_creature_lists_the_known_ones() -> None:
    msg = scenario_error("unknown_creature")
    assert "known:" in msg and "radscorpion" in msg and "vault_dweller" in msg


def test_bad_scenario_yaml() -> None:
    msg = scenario_error("bad_yaml")
    assert msg.startswith(f"{BROKEN / 'scenarios' / 'bad_yaml.yaml'}: bad YAML at line 7")


def test_unknown_built_in_scenario_lists_the_choices() -> None:
    with pytest.raises(BestiaryError) as info:
        load_scenario("vault_coridor")
    msg = one_line(str(info.value))
    assert "unknown scenario 'vault_coridor'" in msg and "vault_corridor" in msg


def test_missing_scenario_file(tmp_path: Path) -> None:
    with pytest.raises(BestiaryError) as info:
        load_scenario(tmp_path / "gone.yaml")
    assert "gone.yaml: cannot read" in one_line(str(info.value))


def test_every_broken_fixture_is_exercised() -> None:
    used = {(k, n) for k, n, *_ in ENTRY_CASES}
    used |= {("creatures", n) for n in ("bad_yaml", "not_a_mapping", "duplicate_id")}
    used |= {("scenarios", n) for n, *_ in SCENARIO_CASES} | {("scenarios", "bad_yaml")}
    on_disk = {(p.parent.name, p.stem) for p in BROKEN.glob("*/*.yaml")}
    assert on_disk == used


def test_scenario_model_accepts_a_feature_list() -> None:
    s = Scenario.model_validate({
        "id": "s", "name": "s", "map": "..\n..", "legend": {".": ["floor", "smoke"]},
        "sides": [{"name": "a", "combatants": [{"creature": "raider", "at": [0, 0]}]},
                  {"name": "b", "combatants": [{"creature": "raider", "at": [1, 1]}]}],
    })
    assert s.rows() == ["..", ".."]


def test_fighting_under_a_ruleset_the_creature_has_no_stat_block_for() -> None:
    from wasteland.rules.rulesets import get_ruleset

    fixtures = BROKEN.parent
    bestiary = load_bestiary(fixtures / "bestiary")  # PnP-only fixture creatures
    scenario = load_scenario(fixtures / "scenarios" / "skirmish.yaml", bestiary)
    with pytest.raises(BestiaryError) as info:
        get_ruleset("f2d20").new_battle(scenario, 1, bestiary)
    assert "has no f2d20 stat block; it cannot fight under f2d20" in one_line(str(info.value))
