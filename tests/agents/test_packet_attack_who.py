"""The packet's ``attack_who: whomever_attacking_me`` (Fallout 2's AI.TXT, DESIGN.md's
packet fields): it attacks the enemy that last attacked it, whatever its slot (slot 0
too), while that enemy is up; otherwise the closest. Under every ruleset, and through the
engine: an attack marks its attacker on its target, and the packet picks that one."""

from __future__ import annotations

from wasteland.rules.actions import Action
from wasteland.rules.battle import DEAD, UNCONSCIOUS

from .test_packets import BOTH, END, first_attack, scenario, start, to_phase

FIELDS = {"attack_who": "whomever_attacking_me", "called_freq": 0, "distance": "stay",
          "min_to_hit": 0}
ROWS = "\n".join(["." * 9] * 7)


def _setup(rules: str):
    """Slot 0 a raider two squares farther off than slot 1, another raider; slot 2 the
    vault dweller, whose turn it is."""
    s = scenario([[("raider", (6, 5)), ("raider", (4, 3))], [("vault_dweller", (2, 3))]],
                 rows=ROWS)
    rs, b = start(rules, s, slot=2)
    return rs, b


@BOTH
def test_it_attacks_the_one_in_slot_0_that_attacked_it(rules: str) -> None:
    rs, b = _setup(rules)
    far, near, me = b.combatants
    me.last_attacker = far.slot  # slot 0
    action, reason = first_attack(rs, b, **FIELDS)
    assert (action.kind, action.target) == ("attack", far.slot) and "attacked me" in reason


@BOTH
def test_nobody_attacked_it_so_the_closest(rules: str) -> None:
    rs, b = _setup(rules)
    action, reason = first_attack(rs, b, **FIELDS)
    assert (action.kind, action.target) == ("attack", 1) and "closest" in reason


@BOTH
def test_an_attacker_that_is_down_is_not_chased(rules: str) -> None:
    for status in (UNCONSCIOUS, DEAD):
        rs, b = _setup(rules)
        far, near, me = b.combatants
        me.last_attacker = far.slot
        far.status = status
        action, reason = first_attack(rs, b, **FIELDS)
        assert (action.kind, action.target) == ("attack", near.slot) and "closest" in reason


@BOTH
def test_an_engine_attack_marks_the_attacker_and_the_packet_answers_it(rules: str) -> None:
    """The far raider (slot 0) shoots the vault dweller through the engine; then the
    dweller's packet attacks it rather than the closer raider."""
    s = scenario([[("raider", (6, 5)), ("raider", (4, 3))], [("vault_dweller", (2, 3))]],
                 rows=ROWS)
    rs, b = start(rules, s, slot=0)
    far, near, me = b.combatants
    if rules == "simple":
        to_phase(rs, b, far.slot, "action")
    assert me.last_attacker == -1
    attack = next(a for a in rs.legal_actions(b) if a.kind == "attack" and a.target == me.slot
                  and not a.option)
    rs.apply(b, attack)
    for _ in range(10):  # 2d20: the dice bought, then the roll
        if me.last_attacker != -1 or rs.decider(b).combatant != far.slot:
            break
        rs.apply(b, Action("noroll") if Action("noroll") in rs.legal_actions(b)
                 else rs.legal_actions(b)[0])
    assert me.last_attacker == far.slot
    for _ in range(200):
        d = rs.decider(b)
        if d.combatant == me.slot and d.slot in ("small", "act", "move"):
            break
        rs.apply(b, END)
    action, reason = first_attack(rs, b, **FIELDS)
    assert (action.kind, action.target) == ("attack", far.slot) and "attacked me" in reason
