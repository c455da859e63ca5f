"""What a person at the table reads (issue 13, items 3 and 4): the menu's hit chances and
costs, NPC alternatives numbered before the GM answers, the target number before a
physical roll, undo from a dice prompt, and the log's plain wording."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console

from wasteland.bestiary.loader import load_scenario
from wasteland.cli.gm import start_gm
from wasteland.cli.menu import labelled, layout, notes
from wasteland.cli.orders import aims_first
from wasteland.cli.play import GameSetup
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.rules.events import AttackRolled, DamageDealt, article
from wasteland.rules.rulesets import get_ruleset


def duel(ruleset: str, seed: int = 1):
    rs = get_ruleset(ruleset)
    return rs, rs.new_battle(load_scenario("duel"), seed)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20", "simple"])
def test_every_attack_on_the_menu_states_the_rulesets_own_hit_chance(ruleset):
    rs, b = duel(ruleset)
    for _ in range(10):  # to the first decision that offers an attack (Simple: its phase)
        legal = rs.legal_actions(b)
        if any(a.kind == "attack" for a in legal):
            break
        rs.apply(b, Action("end"))
    dec = rs.decider(b)
    c = b.combatants[dec.combatant]
    labels = [a.text(b.ids, c.slot) for a in legal]
    shown = dict(zip(legal, labelled(b, rs, dec.slot, legal, labels)))
    attacks = [a for a in legal if a.kind == "attack"]
    assert attacks
    # 2d20: an attack aims first while the minor action is free (the aim rule's default,
    # wasteland/cli/orders.py), and its chance counts Aim's reroll
    aim = {"aim": True} if aims_first(b, rs, c.slot, attacks[0]) else {}
    assert bool(aim) is (ruleset == "f2d20")
    for a in attacks:
        want = round(100 * rs.hit_chance(b, c, b.combatants[a.target], a.option, **aim))
        assert f"({want}% to hit" in shown[a], shown[a]
    assert shown[legal[0]] == "end"  # nothing to add to an action that costs nothing more


def test_pnp_menu_says_what_the_small_slot_attack_and_vats_cost():
    rs, b = duel("pnp")
    assert rs.decider(b).slot == "small"
    assert "spends both actions" in notes(b, rs, "small", Action("attack", 1))
    assert "spends both actions" not in notes(b, rs, "large", Action("attack", 1))
    assert "spends both actions" not in notes(b, rs, "small", Action("cover"))
    assert "3 AP" in notes(b, rs, "small", Action("vats", 1, "head"))
    assert "2 AP" in notes(b, rs, "small", Action("vats", 1, "leg"))


def test_pnp_menu_warns_that_a_clip_reload_empties_the_magazine_first():
    rs, b = duel("pnp")
    ted = b.combatants[0]
    assert ted.weapon.magazine == "clip"
    ted.wstate.loaded = ted.weapon.capacity - 2
    got = notes(b, rs, "small", Action("reload"))
    assert got == [f"empties the {ted.weapon.capacity - 2} rounds first: loaded after 2 actions"]
    ted.wstate.loaded = 1
    assert notes(b, rs, "small", Action("reload")) == [
        "empties the round first: loaded after 2 actions"]
    ted.wstate.loaded = 0  # nothing to lose
    assert notes(b, rs, "small", Action("reload")) == []


def test_layout_never_splits_an_entry_and_numbers_them_in_order():
    entries = [f"attack raider_{i} head (16% to hit, spends both actions)" for i in range(6)]
    lines = layout(entries, 80)
    assert all(len(ln) <= 80 for ln in lines)
    joined = "   ".join(ln.strip() for ln in lines)
    assert re.findall(r"(\d+)\) ", joined) == [str(i) for i in range(1, 7)]
    assert all(f"{i + 1}) {e}" in joined for i, e in enumerate(entries))
    assert layout(["x" * 100], 80) == ["  1) " + "x" * 100]  # too long: a line of its own


SET_UP = re.compile(r"Roll (\d+)d(\d+) for \S+ \((initiative|initiative tie|sequence)\)")


def gm(tmp_path, ruleset, lines, physical=True, set_up=True):
    """The output of a GM session fed ``lines``; with ``set_up``, the party's set-up rolls
    (initiative, sequence) are answered with 3s before them."""
    con = Console(file=io.StringIO(), width=200)

    def answers():
        for line in lines:
            while set_up:
                out = [ln for ln in con.file.getvalue().splitlines() if ln.strip()]
                m = SET_UP.search(out[-1]) if out else None
                if not m:
                    break
                yield " ".join([str(min(3, int(m.group(2))))] * int(m.group(1)))
            yield line

    start_gm(GameSetup(ruleset, "duel", "0", 4, save_to=tmp_path / "gm.json",
                       physical_dice=physical), con, answers())
    return con.file.getvalue()


def test_a_number_at_an_npc_proposal_names_an_alternative_the_gm_was_shown(tmp_path):
    """Issue 26: the proposal comes first; ? lists the alternatives a number names."""
    out = gm(tmp_path, "pnp", ["1", "?", "1", "quit"], physical=False)
    assert "could (small):" not in out.split("proposes:")[0]  # not before the proposal
    npc_menu = out.split("young_radscorpion_0 could (small):")[1].split("> 1")[0]
    assert "1) end" in npc_menu
    assert saves.load(tmp_path / "gm.json").history[-1] == "young_radscorpion_0: end"


def test_the_gm_sees_what_a_physical_roll_is_against_before_rolling(tmp_path):
    rs, b = duel("pnp", 4)
    ted, scorp = b.combatants
    from wasteland.rules.pnp.combat import attack_mods

    mods, defense, _, _ = attack_mods(b, ted, scorp, ted.active_weapon, None, False, False)
    need = defense - sum(v for _, v in mods)
    out = gm(tmp_path, "pnp", ["attack young_radscorpion_0", "quit"])
    before_roll = out.split("Roll 3d6 for ted (attack)")[0]
    assert before_roll.rstrip().endswith(
        f"against Defense {defense}: {need} or more on the dice")
    assert "to hit young_radscorpion_0: 3d6" in before_roll


@pytest.mark.parametrize("ruleset, script, roll, words", [
    ("f2d20", ["attack young_radscorpion_0"], "Roll 2d20 for ted",
     ["attacks young_radscorpion_0 with 10mm pistol: 2d20, each at or under TN ",
      "(small guns) is a success", "; difficulty 2 (+1 Defense"]),
    # Simple: ted stands in the move phase, the radscorpion moves, charges, attacks first
    ("simple", ["1", "", "", "", "attack young_radscorpion_0"], "Roll 2d10 for ted",
     ["attacks young_radscorpion_0 with 10mm pistol: 2d10 + guns ", "or more on the dice"]),
])
def test_the_other_rulesets_state_their_target_before_a_physical_roll(
        tmp_path, ruleset, script, roll, words):
    out = gm(tmp_path, ruleset, script + ["quit"])
    assert roll in out
    note = out.split(roll)[0].rstrip().splitlines()[-1]
    assert all(w in note for w in words), note


def test_undo_at_a_dice_prompt_takes_the_action_back(tmp_path):
    out = gm(tmp_path, "pnp", ["attack young_radscorpion_0", "undo", "quit"])
    assert "undone: ted: attack young_radscorpion_0 (not taken); ted decides again" in out
    b = saves.load(tmp_path / "gm.json")
    # only the set-up roll stays: the attack and its dice are gone
    assert b.history == ["@dice ted 3d6 3 3 3 (initiative)"]
    assert b.combatants[0].wstate.loaded == b.combatants[0].weapon.capacity
    assert out.count("ted decides (small):") == 2


def test_resistances_read_as_percentages_and_injuries_take_the_right_article():
    d = DamageDealt("x", "1d6", [3], [], 1.0, 3, "Poison Resistance %", 20, 2, "toxic", 5, 9)
    assert " - Poison Resistance 20% = 2 " in d.text()
    d = DamageDealt("x", "1d6", [3], [], 1.0, 3, "PDT", 2, 1, "physical", 5, 9)
    assert " - PDT 2 = 1 " in d.text()
    assert (article("arm"), article("leg"), article("eye")) == ("an", "a", "an")


def test_vats_attacks_log_the_part_aimed_at_and_the_ap_spent():
    rs, b = duel("pnp")
    ap = b.combatants[0].ap
    ev = [e for e in rs.apply(b, Action("vats", 1, "head")) if isinstance(e, AttackRolled)][0]
    assert ev.text().startswith(
        "ted uses V.A.T.S. on young_radscorpion_0's head (3 AP) with 10mm pistol: 3d6")
    assert b.combatants[0].ap == ap - 3


@pytest.mark.parametrize("ruleset, roll, faces", [
    ("pnp", "Roll 3d6 for ted (initiative)", "6 5 4"),
    ("simple", "Roll 1d10 for ted (sequence)", "4"),
])  # 2d20 asks only a tie's d20, and the duel has none (tests/cli/test_turn_order.py)
def test_the_partys_set_up_rolls_are_asked_saved_and_replayed(tmp_path, ruleset, roll, faces):
    out = gm(tmp_path, ruleset, ["undo", faces, "quit"], set_up=False)
    assert out.index(roll) < out.index("this game saves to")  # asked before the fight
    assert "nothing to undo before the fight starts" in out
    saved = saves.load(tmp_path / "gm.json")  # replayed from the history, dice included
    entry = saved.history[0]
    assert entry.startswith("@dice ted ") and entry.endswith(f" {faces} ({roll.split('(')[1]}")
    direct = get_ruleset(ruleset).new_battle(
        load_scenario("duel"), 4, dice_hook=lambda who, s, n, why: (
            [int(x) for x in faces.split()] if who == 0 else None))
    assert saved.order == direct.order
    assert [c.initiative for c in saved.combatants] == [c.initiative for c in direct.combatants]


def test_quitting_during_the_set_up_rolls_saves_nothing(tmp_path):
    out = gm(tmp_path, "pnp", ["quit"], set_up=False)
    assert "quit during the set-up rolls; nothing was saved" in out
    assert not (tmp_path / "gm.json").exists()
