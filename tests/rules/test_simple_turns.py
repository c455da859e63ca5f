"""Simple's round (seed 001_0912b5c6442fb3b1.txt: Determining and Following Sequences,
Move Phase, Charge Phase, Action Phase, Ending a Round and Beginning the Next Round)."""

from __future__ import annotations

import pytest

from wasteland.rules.battle import ACTIVE

from .kitsimple import SEED, creature, sarena

A, B = creature("a"), creature("b")


def two(a=A, b=B, at_b=(8, 0), **kw):
    return sarena([("ann", (0, 0), 0, a), ("bob", at_b, 1, b)], **kw)


def test_sequence_is_d10_plus_sequence_and_ties_roll_off_highest_first():
    """Seed 001, Determining and Following Sequences: d10 + Sequence; the tied each roll a
    d10, the highest first."""
    a = two(seq=[5, 5], extra=[3, 7])
    assert [a.c("ann").initiative, a.c("bob").initiative] == [10, 10]
    assert [a.b.ids[s] for s in a.b.order] == ["bob", "ann"]
    assert "bob rolls sequence: d10 (5) +5 = 10 (tie broken by d10: 7)" in a.text()
    a = two(a=creature("a", sequence=9), seq=[2, 10])  # 11 against 15
    assert [a.b.ids[s] for s in a.b.order] == ["bob", "ann"]
    assert a.c("ann").initiative == 11 and a.c("bob").initiative == 15


def test_move_phase_runs_lowest_first_then_charge_and_action_highest_first():
    """Seed 001, Ending a Round: the move phase from the lowest sequence up, the charge and
    action phases from the highest down."""
    a = two()  # ann 15, bob 14
    assert a.whose() == ("bob", "move")
    a.act("end")
    assert a.whose() == ("ann", "move")
    a.act("end")
    assert a.whose() == ("ann", "action")  # no charge possible: the phase passes
    a.act("end")
    assert a.whose() == ("bob", "action")
    a.act("end")
    assert a.whose() == ("bob", "move") and a.b.round == 2


@pytest.mark.parametrize("stance,hexes", [("stand", 4), ("crouch", 2), ("prone", 1)])
def test_a_move_covers_hexes_by_stance(stance, hexes):
    """Seed 001, Move Phase: prone 1 hex, crouch 2, stand 4."""
    a = two(at_b=(11, 0))
    a.c("bob").cond["stance"] = stance
    a.act("move toward ann")
    assert a.b.grid.xy(a.c("bob").pos) == (11 - hexes, 0)


def test_running_covers_eight_hexes_and_forfeits_charge_and_action():
    """Seed 001, Move Phase: a run moves up to eight hexes; no charge or action phase."""
    a = two(at_b=(11, 0), a=creature("a", weapons=("knife",)))
    a.act("end")  # bob
    a.act("sprint toward bob")  # ann runs
    assert a.b.grid.xy(a.c("ann").pos) == (8, 0)
    assert a.legal() == {"end", "crouch", "prone", "drop"}  # free drops are still open
    a.act("end")
    # bob, one hand free of its pistol, may charge to take ann's knife (001 Disarm)
    assert a.whose() == ("bob", "charge") and a.legal() == {"end", "disarm ann"}
    a.act("end")
    assert a.whose() == ("bob", "action")  # ann, 3 hexes off, neither charges nor acts


def test_free_drops_before_and_after_the_move():
    """Seed 001, Move Phase: at the start or end of the move, stand to crouch or prone and
    crouch to prone are free."""
    a = two(at_b=(11, 0))
    a.act("crouch")
    assert a.whose() == ("bob", "move") and a.c("bob").cond["stance"] == "crouch"
    a.act("move toward ann")  # a crouched move: 2 hexes
    assert a.b.grid.xy(a.c("bob").pos) == (9, 0)
    assert a.legal() == {"end", "prone", "drop"}
    a.act("prone")
    assert a.c("bob").cond["stance"] == "prone" and a.legal() == {"end", "drop"}
    a.act("end")
    assert a.whose() == ("ann", "move")


def test_stance_changes_and_which_forfeit_the_round():
    """Seed 001, Move Phase: prone to crouch or crouch to stand is the move; prone to stand
    forfeits the charge and action phases."""
    a = two()
    a.c("bob").cond["stance"] = "prone"
    assert {"crouch", "stand"} <= a.legal()
    a.act("stand")
    assert a.c("bob").cond["forfeit"] == 1
    a.act("end")  # bob's free drops
    a.act("end")  # ann's move
    a.act("end")  # ann's action
    assert a.whose() == ("bob", "move") and a.b.round == 2  # bob had no action phase
    b = two()
    b.c("bob").cond["stance"] = "prone"
    b.act("crouch")
    assert b.c("bob").cond["stance"] == "crouch" and "forfeit" not in b.c("bob").cond


def test_heavy_armor_cannot_run_or_stand_up_from_prone():
    """Seed 001, Move Phase (N.B.): heavy armor forbids running and prone to stand."""
    a = two(b=creature("b", armor="power"))
    assert "sprint toward ann" not in a.legal() and "move toward ann" in a.legal()
    a.c("bob").cond["stance"] = "prone"
    assert "stand" not in a.legal() and "crouch" in a.legal()


def test_evading_is_minus_five_to_attacks_and_forfeits():
    """Seed 001, Move Phase: evade, -5 to every attack against you, no charge or action."""
    a = two(at_b=(6, 0))
    a.act("evade")
    a.act("end")  # bob's free drops
    a.act("end")  # ann's move
    a.rig.push(10, 10, 10)  # ann's check; then a miss needs no more dice
    a.rig.push(100, 50).push(6, 3)  # the critical roll and damage if it hits
    a.act("attack bob")
    check = [t for t in a.text() if "attacks bob" in t][0]
    assert "-5 evading target" in check
    assert a.whose() == ("bob", "move")  # bob forfeited its action


def test_a_heavy_weapon_after_moving_forbids_the_action_phase():
    """Seed 001, Move Phase (N.B.): with a heavy weapon in hand, anything but free actions
    in the move phase means no action phase."""
    a = two(b=creature("b", weapons=("minigun",)))
    a.act("move toward ann")
    a.act("end")  # bob's free drops
    a.act("end")  # ann's move
    a.act("end")  # ann's action
    assert a.whose() == ("bob", "move")  # no action phase for bob
    b = two(b=creature("b", weapons=("minigun",)))
    b.act("crouch")  # free only
    b.act("end")
    b.act("end")  # ann's move, then ann's action
    b.act("end")
    assert b.whose() == ("bob", "action")


def test_charge_from_standing_in_a_straight_line_of_one_to_four_hexes():
    """Seed 001, Charge Phase: standing, 1 to 4 hexes in a straight line, then a melee
    attack on the adjacent target."""
    knife = creature("a", weapons=("knife",))
    a = two(a=knife, at_b=(5, 0))
    a.act("end")  # bob
    a.act("end")  # ann
    assert a.whose() == ("ann", "charge") and "charge bob" in a.legal()
    a.rig.push(10, 10, 10).push(100, 50).push(4, 2)
    a.act("charge bob")
    assert a.b.grid.xy(a.c("ann").pos) == (4, 0)
    assert any("charges into bob" in t for t in a.text())
    far = two(a=knife, at_b=(6, 0))  # 5 hexes to stand next to it: too far
    far.act("end")
    far.act("end")
    assert far.whose() == ("bob", "action")  # no charge phase for ann, who has no gun...
    crouched = two(a=knife, at_b=(5, 0))
    crouched.act("end")
    crouched.act("crouch")
    crouched.act("end")
    # not from a crouch (ann, the higher sequence, would charge first); bob, standing,
    # may charge to disarm her (001 Disarm)
    assert crouched.whose() == ("bob", "charge") and crouched.legal() == {"end", "disarm ann"}


@pytest.mark.parametrize("legs,crippled,x,reach", [
    (2, 2, 3, True),    # two crippled legs: 2 hexes, enough to stand next to it
    (2, 2, 4, False),   # 3 hexes needed: too far on two crippled legs
    (2, 1, 5, True),    # one crippled leg: the full 4
    (6, 5, 5, True),    # more than two legs: the full 4 until all are crippled
    (6, 6, 4, False),   # all six crippled: halved
])
def test_two_crippled_legs_halve_the_charge(legs, crippled, x, reach):
    """Seed 001, Charge Phase and Crippled Effects: two crippled legs halve movement rates
    (rounded down), and a charge is movement: 4 hexes become 2; with more than two legs,
    only once all are crippled."""
    a = two(a=creature("a", weapons=("knife",), legs=legs), at_b=(x, 0))
    a.c("ann").crippled["leg"] = crippled
    a.act("end")  # bob
    a.act("end")  # ann
    if reach:
        assert a.whose() == ("ann", "charge") and "charge bob" in a.legal()
        a.rig.push(10, 10, 10).push(100, 50).push(4, 2)
        a.act("charge bob")
        assert a.b.grid.xy(a.c("ann").pos) == (x - 1, 0)
    else:  # ann, the higher sequence, would be asked first: no charge within her reach
        assert a.whose()[0] == "bob" and a.b.grid.xy(a.c("ann").pos) == (0, 0)


def test_overwatch_interrupts_the_next_move_and_costs_that_rounds_move_and_charge():
    """Seed 001, Action Phase: an overwatch cone lets one attack interrupt an enemy entering
    it in the next move phase; the watcher neither moves nor charges that round."""
    a = two(at_b=(11, 0))
    a.act("end")  # bob
    a.act("end")  # ann
    a.act("overwatch bob")  # ann's action
    a.act("end")  # bob's action
    assert a.b.round == 2 and a.whose() == ("bob", "move")
    a.act("move toward ann")
    assert a.whose() == ("ann", "free")  # the interrupt, mid-move
    assert a.rs.decider(a.b).reaction == "overwatch"
    a.rig.push(10, 1, 1)  # a miss
    a.act("attack bob")
    assert a.c("bob").status == ACTIVE and a.b.grid.xy(a.c("bob").pos) == (7, 0)
    assert a.whose() == ("bob", "move")  # its move went on; a free drop is left
    assert "overwatch" not in a.c("ann").cond  # one interrupt
    a.act("end")
    assert a.whose() == ("ann", "action")  # ann skipped its move phase


def test_newcomers_join_at_the_end_and_roll_among_themselves():
    """Seed 001, Determining and Following Sequences: newcomers are added at the end; several
    in one round roll for their places as at the start of a battle."""
    from wasteland.rules.newcomers import join

    a = two()
    a.b.dice_hook = None
    a.rig.push(10, 2)
    join(a.b, "b", (3, 3), 1, "cid1", bestiary=_bestiary(a))
    a.rig.push(10, 9)
    join(a.b, "b", (4, 3), 1, "cid2", bestiary=_bestiary(a))
    assert [a.b.ids[s] for s in a.b.order] == ["ann", "bob", "cid2", "cid1"]
    a.rig.push(10, 8)  # a third one, the next round, goes after them whatever it rolls
    a.b.book.late_round = 0
    join(a.b, "b", (5, 3), 1, "cid3", bestiary=_bestiary(a))
    assert [a.b.ids[s] for s in a.b.order][-1] == "cid3"


def _bestiary(a):
    from wasteland.bestiary.loader import Bestiary

    from .kitsimple import ARMOR, ITEMS, WEAPONS

    return Bestiary(weapons=dict(WEAPONS), armor=dict(ARMOR), items=dict(ITEMS),
                    creatures={"b": B.model_copy(update={"id": "b"})})


def test_seed_file_is_cited():
    assert SEED.endswith("001_0912b5c6442fb3b1.txt")


def test_no_charge_at_an_enemy_already_adjacent():
    """Reading (docs/rules/simple.md): a charge closes in on its target; one already next
    to it strikes in the action phase instead."""
    knife = creature("a", weapons=("knife",))
    a = two(a=knife, at_b=(1, 0))
    a.act("end")  # bob
    a.act("end")  # ann
    assert a.whose() == ("ann", "action")  # no charge phase: bob is already adjacent
    assert "attack bob" in a.legal()


def test_move_legality_agrees_with_where_a_move_goes():
    """legal_ids asks movement.can_step, apply walks with movement.next_step: over random
    fights on every built-in scenario they agree for every combatant and direction; and
    the attacks legal_ids offers (attack_spots) are those can_attack allows."""
    import random as _random

    from wasteland.bestiary.loader import load_scenario, scenario_names
    from wasteland.rules.actions import ACTION_TABLE
    from wasteland.rules.hexes import hexes_for
    from wasteland.rules.simple import Simple
    from wasteland.rules.simple.attack import SPOTS, attack_spots, can_attack
    from wasteland.rules.simple.movement import can_step, next_step

    rs = Simple()
    rng = _random.Random(3)
    checked = 0
    for k, name in enumerate(scenario_names() * 3):
        b = rs.new_battle(load_scenario(name), k, keep_log=False)
        h = hexes_for(b.grid)
        while not b.over:
            for c in b.combatants:
                for t in b.combatants:
                    if c is t or c.status != ACTIVE or t.status != ACTIVE:
                        continue
                    for mode in ("toward", "away"):
                        want = next_step(b, h, c, mode, t.pos) is not None
                        assert can_step(b, h, c.pos, mode, t.pos) == want, (name, mode)
                        checked += 1
                    # the attacks offered: attack_spots makes can_attack's checks at once
                    ws = c.active_weapon
                    assert attack_spots(b, c, t, ws) == [
                        loc for loc in SPOTS if can_attack(b, c, t, ws, loc)], name
            ids = rs.legal_ids(b)
            rs.apply(b, ACTION_TABLE[ids[int(rng.random() * len(ids))]], check=False)
    assert checked > 10_000
