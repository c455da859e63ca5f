"""Actions in plain words (issue 26, item 5): a label and a one-line explanation for
every kind of action in each ruleset, hit chances on the attack-like actions, an exact
word preferred when shortening, the plain words accepted as input."""

from __future__ import annotations

import random

import pytest

from tests.agents.test_packets import scenario, start, to_phase
from wasteland.bestiary.loader import load_scenario
from wasteland.cli.chances import extra_chances
from wasteland.cli.menu import labelled
from wasteland.cli.prompt import ChoiceError, match
from wasteland.rules.actions import KINDS, Action
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.words import BY_RULESET, COMMON, explain, label


def seen_actions(ruleset: str, scenarios: tuple[str, ...], fights: int = 2) -> set[Action]:
    """Every legal action offered in a few random fights."""
    rs = get_ruleset(ruleset)
    seen: set[Action] = set()
    for name in scenarios:
        for seed in range(fights):
            b = rs.new_battle(load_scenario(name), seed)
            rng = random.Random(seed)
            for _ in range(400):
                if b.over:
                    break
                legal = rs.legal_actions(b)
                seen.update(legal)
                rs.apply(b, rng.choice(legal))
    return seen


@pytest.mark.parametrize("ruleset", ["pnp", "simple", "f2d20"])
def test_every_kind_offered_has_its_own_explanation_and_a_label(ruleset):
    seen = seen_actions(ruleset, ("duel", "ruined_street"))
    kinds = {a.kind for a in seen}
    assert len(kinds) >= 8, kinds
    for kind in kinds:
        # its own words, not the fallback that only respells the kind
        assert kind in BY_RULESET[ruleset] or kind in COMMON, kind
        line = explain(kind, ruleset)
        assert line.endswith(".") and "\n" not in line and len(line) < 160
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("ruined_street"), 0)
    for a in seen:
        if a.target is not None and a.target >= len(b.ids):
            continue
        text = label(b, a, 0)
        assert "_" not in text.replace(b.ids[a.target] if a.target is not None else "", "")


def test_every_kind_of_the_table_is_explained_somewhere():
    covered = set(COMMON).union(*BY_RULESET.values())
    assert set(KINDS) <= covered, set(KINDS) - covered


def test_the_rulesets_explain_the_same_kind_by_their_own_rules():
    assert "zone" in explain("move", "f2d20") and "Speed" in explain("move", "pnp")
    assert "-8" in explain("attack2", "pnp") and "-8" in explain("attack2", "simple")
    assert "Burrow" in explain("cover", "f2d20")
    assert "+1 Defense" in explain(Action("boost", None, "1"), "f2d20", "defend")


def test_labels_name_the_weapon_the_penalty_and_the_paired_action():
    rs, b = start("pnp", scenario([[("raider", (2, 3))], [("raider", (3, 3))]]))
    me = b.combatants[0]
    w0, w1 = (w.name for w in me.weapons[:2])
    assert label(b, Action("attack2", 1), 0) == (
        f"two-weapon attack on raider_1: {w0} and {w1}, -8 each")
    assert label(b, Action("draw", None, "1"), 0) == f"draw {w1}"
    assert label(b, Action("pair", 1, "stimpak"), 0).endswith("-8 to the attack")
    assert label(b, Action("prepare", None, "cover"), 0) == "ready to take cover"
    assert label(b, Action("ready_to", None, "defend"), 0) == "ready a Defend"
    assert label(b, Action("attack", 1, "head"), 0) == "called shot at raider_1's head"
    assert label(b, Action("vats", 1, "head"), 0) == "V.A.T.S. shot at raider_1's head, 3 AP"
    assert label(b, Action("stimpak", 0), 0) == "stimpak yourself"


def test_pnp_menu_shows_the_plain_words_and_both_chances_of_a_two_weapon_attack():
    from wasteland.rules.pnp.combat import attack_mods
    from wasteland.rules.pnp.odds import p_3d6_at_least

    rs, b = start("pnp", scenario([[("raider", (2, 3))], [("raider", (3, 3))]]))
    b.slot = "large"
    me, foe = b.combatants
    legal = rs.legal_actions(b)
    assert Action("attack2", 1) in legal and Action("whip", 1) in legal
    shown = dict(zip(legal, labelled(b, rs, "large", legal,
                                     [a.text(b.ids, 0) for a in legal])))

    def p(ws, whip, extra):
        mods, defense, _, _ = attack_mods(b, me, foe, ws, None, False, whip)
        return round(100 * p_3d6_at_least(defense - sum(v for _, v in mods) - extra))

    w0, w1 = (w.name for w in me.weapons[:2])
    # the notation names the target: the words beside it do not again
    assert shown[Action("attack2", 1)].startswith(f"attack2 raider_1 - two weapons: {w0} and "
                                                  f"{w1}, -8 each (")
    assert f"({p(0, False, -8)}% and {p(1, False, -8)}% to hit)" in shown[Action("attack2", 1)]
    assert f"({p(0, True, 0)}% to hit" in shown[Action("whip", 1)]
    assert f"whip raider_1 - pistol whip with {w0} (" in shown[Action("whip", 1)]
    assert shown[Action("end")] == "end"  # plain already: no label


def test_simple_disarm_and_two_weapons_state_their_chances():
    from wasteland.rules.simple.odds import disarm_chance

    s = scenario([[("raider", (2, 3))], [("raider", (3, 3))]])
    rs, b = start("simple", s)
    to_phase(rs, b, 0, "action")
    me, foe = b.combatants
    assert Action("attack2", 1) in rs.legal_actions(b)
    got = extra_chances(b, me, Action("attack2", 1))
    plain = rs.hit_chance(b, me, foe)
    assert got is not None and len(got) == 2 and got[0] < plain  # -8 each
    me.cond["gone"] = [0, 1]  # empty-handed: it may take the raider's weapon
    assert extra_chances(b, me, Action("disarm", 1)) == (disarm_chance(b, me, foe),)


LEGAL = [Action("end"), Action("attack", 1), Action("attack2", 1), Action("whip", 1),
         Action("move", 1, "toward")]
LABELS = ["end", "attack young_radscorpion_0", "attack2 young_radscorpion_0",
          "whip young_radscorpion_0", "move toward young_radscorpion_0"]
PLAIN = ["end the turn", "attack young_radscorpion_0 with 10mm pistol",
         "two-weapon attack on young_radscorpion_0: 10mm pistol and knife, -8 each",
         "pistol whip young_radscorpion_0 with 10mm pistol",
         "walk toward young_radscorpion_0"]


def test_a_verb_typed_whole_wins_over_a_longer_one():
    assert match("attack you", LEGAL, LABELS) == Action("attack", 1)
    assert match("attack2 you", LEGAL, LABELS) == Action("attack2", 1)
    # neither typed whole: the plain attack, its variant typed in full (issue 41)
    assert match("att you", LEGAL, LABELS) == Action("attack", 1)


def test_the_plain_words_name_an_action_too():
    assert match("pistol whip you", LEGAL, LABELS, PLAIN) == Action("whip", 1)
    assert match("two-weapon", LEGAL, LABELS, PLAIN) == Action("attack2", 1)
    assert match("walk tow", LEGAL, LABELS, PLAIN) == Action("move", 1, "toward")
    with pytest.raises(ChoiceError, match="ambiguous"):
        match("young", LEGAL, LABELS, PLAIN)
    with pytest.raises(ChoiceError, match="not a legal action"):
        match("fly", LEGAL, LABELS, PLAIN)
