"""What simulate counts as lethal (wasteland/sim/verdict.py): a fight in which a party
member dies OR the party loses. A loss with nobody dead counts (under PnP a character at
0 HP falls unconscious, so PnP fights would otherwise never look lethal); issue 39 found
that dropping the loss from the count survived every test."""

from __future__ import annotations

from wasteland.sim.record import FightRecord, MemberRecord
from wasteland.sim.tally import Tally

from .kit import spec


def _fight(seed: int, winner: int | None, down: bool = False, died: bool = False
           ) -> FightRecord:
    member = MemberRecord(went_down=down, died=died, hp_lost=5, hp_left=0 if down else 10,
                          ammo_used=0, items_used=())
    return FightRecord(seed=seed, winner=winner, rounds=3, decisions=10, members=(member,))


def test_a_loss_without_a_death_is_lethal_a_draw_is_not():
    t = Tally(spec("duel"))
    cases = [(1, False, False, True),   # lost, nobody down or dead: lethal
             (1, True, False, True),    # lost, down, not dead: lethal
             (0, True, True, True),     # won, but a member died: lethal
             (0, True, False, False),   # won, a member went down and got up: not lethal
             (None, False, False, False)]  # a draw with nobody dead: not lethal
    for seed, (winner, down, died, lethal) in enumerate(cases):
        before = t.lethal
        t.add(_fight(seed, winner, down, died))
        assert t.lethal - before == lethal, cases[seed]
    rep = t.report()
    assert rep["lethal"]["count"] == 3 and rep["anyone_dies"]["count"] == 1


def test_losses_alone_move_the_verdict():
    """96 wins and 4 losses in which nobody went down: 4% lethal is past easy's 3%, so
    the encounter is medium (with the losses not counted it read easy)."""
    t = Tally(spec("duel"))
    for seed in range(100):
        t.add(_fight(seed, 1 if seed < 4 else 0))
    assert t.report()["lethal"]["count"] == 4
    assert t.verdict() == "medium"
