"""The observation's per-combatant ``ally`` feature (wasteland/observe/encoding.py): 1 for
another combatant of the observer's side, 0 for the observer itself, for enemies and for
empty blocks; a downed ally is still an ally (who it was is what is left of it), under
every ruleset. Blocks are in egocentric order (``Encoder.order``); these tests read them
back in slot order through it."""

from __future__ import annotations

import pytest

from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.observe.encoding import SLOT_FEATURES, B, Encoder, G
from wasteland.rules.actions import MAX_COMBATANTS
from wasteland.rules.battle import UNCONSCIOUS
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

ROOM = ["#########", "#.......#", "#.......#", "#.......#", "#########"]


def room(sides: dict[str, list[tuple[str, tuple[int, int], str]]]) -> Scenario:
    return Scenario(
        id="encoding_room", name="Encoding room", map="\n".join(ROOM),
        legend={".": "floor", "#": "wall"}, max_rounds=10,
        sides=[Side(name=name, combatants=[Placement(creature=cr, at=at, id=cid)
                                           for cr, at, cid in members])
               for name, members in sides.items()])


def column(enc: Encoder, me: int, feature: str) -> list[float]:
    """``feature`` of every combatant slot in ``me``'s observation, in slot order (each
    slot's block found through ``enc.order(me)``), then the empty blocks."""
    obs = enc.observe(me)
    f = SLOT_FEATURES.index(feature)
    blocks = [float(obs[G + k * B + f]) for k in range(MAX_COMBATANTS)]
    order = enc.order(me)
    assert order[0] == me and sorted(order) == list(range(len(order)))
    return [blocks[order.index(s)] for s in range(len(order))] + blocks[len(order):]


TWO_A_SIDE = {"Vault": [("vault_dweller", (2, 2), "ted"), ("vault_dweller", (2, 3), "kat")],
              "Radscorpions": [("radscorpion", (6, 1), "scorp_a"),
                               ("radscorpion", (6, 3), "scorp_b")]}
EMPTY = [0.0] * (MAX_COMBATANTS - 4)


@pytest.mark.parametrize("rules", RULESETS)
def test_ally_marks_the_others_of_my_side(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(room(TWO_A_SIDE), 0)
    enc = Encoder(b, rs)
    expected = {0: [0, 1, 0, 0], 1: [1, 0, 0, 0], 2: [0, 0, 0, 1], 3: [0, 0, 1, 0]}
    for me, ally in expected.items():
        assert column(enc, me, "ally") == ally + EMPTY, (me, column(enc, me, "ally"))
        # ally, enemy and is_me split the present combatants between them
        assert column(enc, me, "enemy") == [float(me // 2 != k // 2) for k in range(4)] + EMPTY
        assert column(enc, me, "is_me") == [float(k == me) for k in range(4)] + EMPTY


@pytest.mark.parametrize("rules", RULESETS)
def test_ally_absent_when_alone_on_my_side(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(room({"Vault": [("vault_dweller", (2, 2), "ted")],
                            "Radscorpions": [("radscorpion", (6, 1), "scorp_a"),
                                             ("radscorpion", (6, 3), "scorp_b")]}), 0)
    enc = Encoder(b, rs)
    assert not any(column(enc, 0, "ally"))
    assert column(enc, 1, "ally") == [0, 0, 1] + [0.0] * (MAX_COMBATANTS - 3)


@pytest.mark.parametrize("rules", RULESETS)
def test_a_downed_ally_is_still_an_ally(rules: str) -> None:
    rs = get_ruleset(rules)
    b = rs.new_battle(room(TWO_A_SIDE), 0)
    kat = b.combatants[1]
    kat.hp, kat.status = 0, UNCONSCIOUS
    enc = Encoder(b, rs)
    me = 0
    assert column(enc, me, "ally")[:4] == [0, 1, 0, 0]
    assert column(enc, me, "alive")[:4] == [1, 0, 1, 1]
    assert column(enc, me, "enemy")[:4] == [0, 0, 1, 1]
