"""One set of caps (issue 23, item 3): what the bestiary and a scenario accept, a save
holds and resumes. Creatures and a weapon with every number at the caps of
wasteland/limits.py fight under each ruleset; the fight is saved at several points and
each save loads (schema, bounds and a replay) to the same state. And the library API's
typed errors: whose decision it is, asked of a battle that is over."""

from __future__ import annotations

import pytest
import yaml

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import DATA, Bestiary, default_bestiary, load_scenario, parse_entry
from wasteland.bestiary.models import Creature, Weapon
from wasteland.limits import MAX_COUNT, MAX_HP, MAX_MODIFIER, MAX_MULTIPLIER, MAX_STAT
from wasteland.rules import saves
from wasteland.rules.errors import BattleOverError, WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset


def _yaml(kind: str, name: str) -> dict:
    return yaml.safe_load((DATA / kind / f"{name}.yaml").read_text(encoding="utf-8"))


def capped_bestiary(sign: int) -> Bestiary:
    """The built-in bestiary with ``capped``: a raider whose every number sits at a cap
    (modifiers at +cap for ``sign`` 1, -cap for -1), armed with a weapon at the caps."""
    base = default_bestiary()
    b = Bestiary(dict(base.weapons), dict(base.armor), dict(base.items), dict(base.creatures),
                 dict(base.sources))
    w = _yaml("weapons", "10mm_pistol")
    w.update(id="capped_gun", damage="100d1000+10000", capacity=MAX_STAT, range_ft=MAX_STAT,
             qualities={"lucky": MAX_STAT, "brutal": MAX_MULTIPLIER,
                        "armor_vulnerable": MAX_MULTIPLIER, "armor_piercing": MAX_STAT})
    w["simple"].update(damage="100d1000+10000")
    b.add("weapons", parse_entry(Weapon, w, "capped_gun", "weapon"), DATA / "capped_gun.yaml")
    c = _yaml("creatures", "raider")
    c["id"] = "capped"
    mod = sign * MAX_MODIFIER
    c["pnp"].update(hp=MAX_HP, initiative=mod, strength=mod, perception=mod, luck=mod,
                    pdt=MAX_STAT, edt=MAX_STAT, ap=MAX_STAT, ammo={"10mm": MAX_COUNT},
                    items={"stimpak": MAX_COUNT},
                    weapons=[{"id": "capped_gun", "bonus": mod}, {"id": "machete", "bonus": mod}])
    c["f2d20"].update(hp=MAX_HP, initiative=MAX_MODIFIER if sign > 0 else 0, ammo={"10mm": MAX_COUNT},
                      items={"stimpak": MAX_COUNT},
                      attacks=[{"id": "capped_gun", "attribute": "body", "skill": "guns"}])
    c["simple"].update(hp=MAX_HP, ammo={"10mm": MAX_COUNT}, items={"stimpak": MAX_COUNT},
                       weapons=[{"id": "capped_gun"}, {"id": "machete"}])
    b.add("creatures", parse_entry(Creature, c, "capped", "creature"), DATA / "capped.yaml")
    b.check()
    return b


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fight_at_the_caps_saves_and_resumes(ruleset, sign):
    bestiary = capped_bestiary(sign)
    s = load_scenario("duel", bestiary)
    sides = [side.model_copy(update={"combatants": [
        p.model_copy(update={"creature": "capped", "id": None}) for p in side.combatants]})
        for side in s.sides]
    s = s.model_copy(update={"sides": sides})
    rs = get_ruleset(ruleset)
    b = rs.new_battle(s, 5, bestiary)
    agents = [make_agent("packet", k) for k in range(len(b.side_names))]
    checked = 0
    for _ in range(120):
        if b.over:
            break
        v = view_of(rs, b)
        rs.apply(b, agents[b.combatants[v.decision.combatant].side].act(v))
        # after every decision: a fight at the caps can be over in a few
        back = saves.loads(saves.dumps(b))
        assert saves.to_dict(back)["state"] == saves.to_dict(b)["state"]
        checked += 1
    assert checked >= 2
    assert max(c.max_hp for c in b.combatants) == MAX_HP  # the caps reached the battle


@pytest.mark.parametrize("ruleset", RULESETS)
def test_whose_decision_in_a_finished_battle_is_a_typed_one_line_error(ruleset):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("duel"), 3)
    agents = [make_agent("packet", k) for k in range(len(b.side_names))]
    while not b.over:
        v = view_of(rs, b)
        rs.apply(b, agents[b.combatants[v.decision.combatant].side].act(v))
    with pytest.raises(BattleOverError) as e:
        rs.decider(b)
    assert isinstance(e.value, WastelandError)
    assert "the battle is over" in str(e.value) and "nobody decides" in str(e.value)
    assert rs.legal_ids(b) == []
