"""Who may give first aid (issue 41, item 5): the bestiary says (a creature's
``first_aid``, by default people only), and each ruleset offers the action only to them.

- Simple, seed 001_0912b5c6442fb3b1.txt, Death and Fatigue: another *player* staunches a
  bleed-out with an Average Medic check; Removing a Crippled status: Medic (Mechanics for
  a robot patient). A radscorpion has no Medic skill and no hands to use it with.
- 2d20, seed 002_265a8a3b5c20fde4.txt, First Aid: an INT + Medicine test "to patch the
  wounds of yourself or an ally"; a creature's Other skill stands in for Medicine only for
  those that can give first aid at all (docs/rules/f2d20.md, reading).
- PnP, seed 000: silent; reading (docs/rules/pnp.md): a free hand and the bestiary's
  ``first_aid``.
"""

from __future__ import annotations

import json

import pytest

from wasteland.bestiary.loader import Bestiary, check_scenario, default_bestiary
from wasteland.bestiary.models import Scenario
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.edits import apply_edit
from wasteland.rules.names import RULESETS
from wasteland.rules.protocol import Ruleset
from wasteland.rules.rulesets import get_ruleset

WIDE = "\n".join(["." * 30] * 7)  # 2d20 cuts it into five zones


def battle(rules: str, medic: str, can: bool | None = None) -> tuple[Ruleset, Battle]:
    """Two ``medic`` creatures side by side (their ``first_aid`` set to ``can`` unless
    None), the second one in need of first aid, and a raider far off."""
    s = Scenario.model_validate({
        "id": "aid", "name": "aid", "map": WIDE, "lighting": "clear",
        "legend": {".": "floor"},
        "sides": [{"name": "patients", "combatants": [
            {"creature": medic, "at": [2, 3]}, {"creature": medic, "at": [2, 4]}]},
            {"name": "far", "combatants": [{"creature": "raider", "at": [27, 3]}]}]})
    beasts = default_bestiary()
    if can is not None:  # a copy: the default bestiary is shared
        base = beasts
        beasts = Bestiary(weapons=base.weapons, armor=base.armor, items=base.items,
                          creatures={**base.creatures, medic: base.creatures[medic].model_copy(
                              update={"first_aid": can})})
    check_scenario(s, beasts, "aid")
    rs = get_ruleset(rules)
    b = rs.new_battle(s, 1, beasts)
    # the GM's corrections, so that a replay hurts the patient too: hurt (PnP and 2d20
    # first aid heals), a leg crippled (Simple's first aid fixes it)
    who = b.ids[1]
    apply_edit(b, rs, f"hp {who} -{b.combatants[1].max_hp // 2}")
    apply_edit(b, rs, f"condition {who} crippled leg")
    return rs, b


def aid_offered(rs: Ruleset, b: Battle) -> set[Action]:
    """The first aid offered to the first one at any of its decisions in two rounds
    (everyone ends every decision); stops at the first decision that offers some."""
    got: set[Action] = set()
    while not b.over and b.round <= 2:
        if rs.decider(b).combatant == 0:
            got = {a for a in rs.legal_actions(b) if a.kind == "first_aid"}
            if got:
                return got
        rs.apply(b, Action("end"))
    return got


def test_the_bestiary_says_who_gives_first_aid():
    beasts = default_bestiary().creatures
    people = {c.id for c in beasts.values() if c.medic}
    assert people == {"vault_dweller", "wastelander", "raider", "brawler"}
    assert all(c.first_aid is not None for c in beasts.values())  # each file says it


@pytest.mark.parametrize("rules", RULESETS)
def test_a_radscorpion_never_gives_first_aid_a_raider_does(rules):
    rs, b = battle(rules, "radscorpion")
    assert not aid_offered(rs, b), rs.legal_actions(b)
    rs, b = battle(rules, "raider")
    assert Action("first_aid", 1) in aid_offered(rs, b)


@pytest.mark.parametrize("rules", RULESETS)
def test_a_creature_file_may_say_it_can(rules):
    """The data decides, not the kind: a radscorpion written as a medic is offered it,
    a raider written as none is not."""
    rs, b = battle(rules, "radscorpion", can=True)
    assert Action("first_aid", 1) in aid_offered(rs, b)
    rs, b = battle(rules, "raider", can=False)
    assert not aid_offered(rs, b)


def test_a_save_from_before_the_field_replays_its_radscorpion_first_aid(tmp_path):
    """An old save whose radscorpion gave first aid (anyone with a free hand could, then)
    still loads and replays exactly."""
    rs, b = battle("pnp", "radscorpion", can=True)
    assert Action("first_aid", 1) in aid_offered(rs, b)
    rs.apply(b, Action("first_aid", 1))
    assert any("gives first aid" in e.text() for e in b.log)
    d = saves.to_dict(b)
    for creature in d["bestiary"]["creatures"]:
        del creature["first_aid"]  # as saves were written before it
    path = tmp_path / "old.json"
    path.write_text(json.dumps(d))
    back = saves.load(path)
    assert back.history == b.history and [e.text() for e in back.log] == [
        e.text() for e in b.log]
