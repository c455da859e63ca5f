"""Free actions as reactions (seed 000: Free Action): 5-ft step, readied action, attacks
of opportunity on movement and on an unguarded enemy, one free action between turns."""

from __future__ import annotations

from wasteland.rules.events import AttackRolled, Moved, OpposedInitiative, ReactionOffered

from .kit import F, arena, attacks, damage, only


def _offers(events):
    return [(e.reactor, e.reaction, e.subject) for e in events if isinstance(e, ReactionOffered)]


# --- 5-ft step ---------------------------------------------------------------------------
def test_five_foot_step_offered_when_an_ally_moves_next_to_you():
    """Seed 000_4e72993430dea166.txt, Free Action / 5ft Step: a character may move one square
    when an ally moves directly next to them; the decision passes to that character."""
    a = arena([F("gunner", (0, 2), "ann"), F("target", (6, 2), "cal"),
               F("target", (11, 5), "bob", side=1)])
    ev = a.act("move toward cal")
    assert ("cal", "5ft_step", "ann") in _offers(ev)
    d = a.decider
    assert (a.b.ids[d.combatant], d.slot, d.reaction, a.b.ids[d.subject]) == (
        "cal", "free", "step", "ann")
    assert a.legal() >= {"end", "step toward bob", "step away bob"}
    assert "step toward ann" not in a.legal()  # already next to ann
    start = a.c("cal").pos
    ev = a.act("step toward bob")
    moved = only(ev, Moved)
    assert moved.squares == 1 and a.b.grid.dist(start, a.c("cal").pos) == 1
    assert a.c("cal").free_used
    assert a.whose() == "ann" and a.decider.slot == "large"


def test_no_step_offered_when_the_ally_stops_out_of_reach():
    """Seed 000_4e72993430dea166.txt, Free Action / 5ft Step: only an ally moving directly
    next to the character triggers the step."""
    a = arena([F("gunner", (0, 2), "ann"), F("target", (11, 2), "cal"),
               F("target", (11, 5), "bob", side=1)])
    ev = a.act("move toward cal")
    assert _offers(ev) == []
    assert a.whose() == "ann"


def test_five_foot_step_does_not_provoke_an_attack_of_opportunity():
    """Seed 000_4e72993430dea166.txt, Free Action: the 5-ft step is a single square of
    repositioning; reading: it provokes no attack of opportunity."""
    a = arena([F("gunner", (0, 2), "ann"), F("target", (6, 2), "cal"),
               F("brute", (7, 2), "bob", side=1)])
    a.act("move toward cal")
    assert a.whose() == "cal"
    ev = a.act("step away bob")
    assert a.b.grid.dist(a.c("cal").pos, a.c("bob").pos) == 2
    assert _offers(ev) == [] and not a.b.reactions
    assert not a.c("bob").free_used
    assert a.whose() == "ann"


# --- readied action ----------------------------------------------------------------------
def test_readied_attack_fires_when_an_enemy_ends_a_move_in_range():
    """Seed 000_4e72993430dea166.txt, Large Action / Free Action: ready an action, then do
    the readied action as a Free action when its condition comes."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    assert a.is_legal("ready")
    a.act("ready")  # a Large action: the turn ends
    assert a.c("ann").readied and a.whose() == "bob"
    ev = a.act("move toward ann")
    assert _offers(ev) == [("ann", "readied_attack", "bob")]
    d = a.decider
    assert (a.b.ids[d.combatant], d.slot, d.reaction) == ("ann", "free", "readied")
    assert a.legal() == {"end", "speak", "attack bob", "attack bob head", "attack bob arm",
                         "attack bob leg"}
    a.rig.d6(5, 5, 5).d6(3, 4)  # 15 + 3 = 18 vs 15; 2d6 = 7
    ev = a.act("attack bob")
    assert not any(isinstance(e, OpposedInitiative) for e in ev)  # no roll-off for readied
    atk = only(ev, AttackRolled)
    assert atk.total == 18 and atk.shots == [True] and atk.how == "makes a free attack on"
    assert damage(ev)[0].dealt == 7 and a.c("bob").hp == 33
    assert not a.c("ann").readied and a.c("ann").free_used
    assert a.whose() == "bob" and a.decider.slot == "large"


def test_readied_melee_attack_needs_the_enemy_within_reach():
    """Seed 000_4e72993430dea166.txt, Melee: a melee weapon cannot attack outside its
    range, so a readied knife does not fire at an enemy that stops two squares away."""
    a = arena([F("brute", (0, 0), "ann"), F("target", (8, 0), "bob", side=1)])
    a.act("ready")
    ev = a.act("move toward ann")  # 6 squares: stops at (2, 0), two squares from ann
    assert a.c("bob").pos == a.b.grid.index(2, 0)
    assert _offers(ev) == []


def test_readied_action_lasts_until_the_start_of_your_next_turn():
    """Seed 000_4e72993430dea166.txt, Free Action / readied action; reading: a readied
    action lapses at the start of the readier's next turn."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    a.act("ready")
    a.act("end")  # bob does nothing
    assert a.whose() == "ann" and not a.c("ann").readied


# --- attack of opportunity on movement --------------------------------------------------
WIDE = "\n".join(["." * 16] * 5)


def _aoo(**kw):
    a = arena([F("gunner", (4, 2), "ann"), F("brute", (3, 2), "bob", side=1)], rows=WIDE, **kw)
    ev = a.act("move away bob")
    return a, ev


def test_leaving_a_square_next_to_a_melee_enemy_offers_an_attack_of_opportunity():
    """Seed 000_4e72993430dea166.txt, Free Action / Attack of Opportunity (Movement): an
    enemy leaving a square next to a melee wielder gives that wielder a reaction."""
    a, ev = _aoo()
    assert _offers(ev) == [("bob", "attack_of_opportunity", "ann")]
    d = a.decider
    assert (a.b.ids[d.combatant], d.slot, d.reaction, a.b.ids[d.subject]) == (
        "bob", "free", "opportunity", "ann")
    assert a.c("ann").pos == a.b.grid.index(4, 2)  # the move waits for the reaction
    assert "attack ann" in a.legal() and "end" in a.legal()


def test_attack_of_opportunity_when_the_mover_loses_the_initiative_roll():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Movement): both roll
    Initiative; if the mover loses, the other makes a free attack."""
    a, _ = _aoo()
    a.rig.d6(6, 6, 5).d6(1, 2, 3)  # bob 17 vs ann 6: bob wins
    a.rig.d6(4, 4, 4).d6(3)  # 12 +1 PER +3 STR +1 skill = 17 vs 12; 1d4 = 3 - PDT 2
    ev = a.act("attack ann")
    roll = only(ev, OpposedInitiative)
    assert (roll.reactor_total, roll.subject_total, roll.won) == (17, 6, True)
    atk = only(ev, AttackRolled)
    assert atk.total == 17 and atk.shots == [True]
    assert damage(ev)[0].dealt == 1 and a.c("ann").hp == 29
    moved = only(ev, Moved)  # then the move goes on
    assert moved.squares == 6
    assert a.c("bob").free_used


def test_no_attack_of_opportunity_when_the_mover_wins_the_initiative_roll():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Movement): only a mover who
    loses the roll is attacked."""
    a, _ = _aoo()
    a.rig.d6(1, 1, 1).d6(6, 6, 6)
    ev = a.act("attack ann")
    assert only(ev, OpposedInitiative).won is False
    assert attacks(ev) == []
    assert only(ev, Moved).squares == 6


def _aoo_mods():
    a = arena([F("gunner", (4, 2), "ann", initiative=1),
               F("brute", (3, 2), "bob", side=1, initiative=3)], rows=WIDE,
              init=[(6, 6, 6), (1, 1, 1)])
    a.act("move away bob")
    return a


def test_opposed_initiative_adds_the_initiative_modifiers():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Movement): the two "roll
    Initiative against each other", i.e. 3d6 + Initiative modifier each."""
    a = _aoo_mods()
    a.rig.d6(2, 2, 2).d6(4, 3, 3)  # bob 6 + 3 = 9 vs ann 10 + 1 = 11
    ev = a.act("attack ann")
    roll = only(ev, OpposedInitiative)
    assert (roll.reactor_total, roll.subject_total, roll.won) == (9, 11, False)
    assert attacks(ev) == []


def test_opposed_initiative_ties_are_rerolled():
    """Seed 000_4e72993430dea166.txt, Initiative: reroll ties (applied to the opposed
    initiative roll of an attack of opportunity too)."""
    a = _aoo_mods()
    a.rig.d6(3, 3, 3).d6(5, 5, 1)  # 9 + 3 = 12 vs 11 + 1 = 12: a tie, rerolled
    a.rig.d6(1, 1, 1).d6(6, 6, 6)  # 3 + 3 = 6 vs 18 + 1 = 19: ann wins
    ev = a.act("attack ann")
    roll = only(ev, OpposedInitiative)
    assert (roll.reactor_total, roll.subject_total, roll.won) == (6, 19, False)
    assert attacks(ev) == [] and a.rig.left == 0


def test_no_attack_of_opportunity_from_a_ranged_wielder():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Movement): only a character
    wielding a melee weapon gets it."""
    a = arena([F("gunner", (4, 0), "ann"), F("gunner", (5, 0), "bob", side=1)])
    ev = a.act("move away bob")
    assert _offers(ev) == [] and a.whose() == "ann"


def test_moving_through_squares_next_to_a_melee_enemy_provokes_once():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Movement): leaving or moving
    through squares next to the wielder provokes; reading: one offer per move."""
    a = arena([F("gunner", (3, 1), "ann"), F("brute", (5, 1), "bob", side=1),
               F("target", (11, 1), "cal", side=1)], order=["ann", "bob", "cal"])
    a.act("move toward cal")
    assert a.whose() == "bob" and a.decider.reaction == "opportunity"
    ev = a.act("end")  # bob lets it pass
    assert not a.c("bob").free_used  # declining keeps the free action
    assert _offers(ev) == []
    assert a.whose() == "ann" and a.decider.slot == "large"
    assert a.b.grid.dist(a.c("ann").pos, a.b.grid.index(3, 1)) == 6


def test_entering_a_square_next_to_a_melee_enemy_does_not_provoke():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Movement): it is leaving (or
    passing through) the adjacent squares that provokes, not arriving."""
    a = arena([F("gunner", (0, 0), "ann"), F("brute", (5, 0), "bob", side=1)])
    ev = a.act("move toward bob")
    assert _offers(ev) == [] and a.c("ann").pos == a.b.grid.index(4, 0)


# --- attack of opportunity on an unguarded enemy ----------------------------------------
def test_unguarded_enemy_offers_a_free_attack_before_the_first_turn():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Prone): a character ready for
    combat may roll initiative against an unguarded enemy within attacking distance and
    attack if it wins. Reading: a side with alert: false is unguarded."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (5, 0), "bob", side=1)],
              alert=(True, False))
    assert ("ann", "unguarded_enemy", "bob") in _offers(a.events)
    d = a.decider
    assert (a.b.ids[d.combatant], d.slot, d.reaction) == ("ann", "free", "unguarded")
    a.rig.d6(6, 6, 6).d6(1, 1, 1)  # ann 18 vs bob 3
    a.rig.d6(5, 5, 5).d6(2, 2)  # 18 vs 15, 4 damage
    ev = a.act("attack bob")
    assert only(ev, OpposedInitiative).won
    assert only(ev, AttackRolled).shots == [True] and a.c("bob").hp == 36
    # then ann's first turn begins with her free action restored for the next window
    assert a.whose() == "ann" and a.decider.slot == "small"
    assert not a.c("ann").free_used


def test_unguarded_free_attack_lost_roll_means_no_attack():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Prone): if you win you get a
    free attack, so losing the roll gives none."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (5, 0), "bob", side=1)],
              alert=(True, False), order=["bob", "ann"])
    a.rig.d6(1, 1, 1).d6(6, 6, 6)
    ev = a.act("attack bob")
    assert attacks(ev) == []
    assert a.whose() == "bob" and a.decider.slot == "small"
    assert a.c("ann").free_used  # spent for the window before ann's turn
    assert not a.c("bob").unguarded  # bob's first turn has begun


def test_no_unguarded_attack_when_out_of_reach_or_both_alert():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Prone): the unguarded enemy
    must be within attacking distance, and only an unguarded enemy allows it."""
    a = arena([F("brute", (0, 0), "ann"), F("target", (5, 0), "bob", side=1)],
              alert=(True, False))
    assert _offers(a.events) == [] and a.decider.slot == "small"
    b = arena([F("gunner", (0, 0), "ann"), F("target", (5, 0), "bob", side=1)])
    assert _offers(b.events) == []


# --- one free action between turns -------------------------------------------------------
def test_only_one_free_action_between_turns():
    """Seed 000_4e72993430dea166.txt, Free Action: between turns a character performs one
    Free action; it comes back at the start of its own turn."""
    a = arena([F("brute", (5, 2), "ann"), F("target", (4, 2), "bob", side=1),
               F("target", (6, 2), "cal", side=1)], order=["ann", "bob", "cal"])
    a.act("end")
    a.act("move away ann")  # bob leaves ann's side
    assert a.whose() == "ann" and a.decider.reaction == "opportunity"
    a.rig.d6(6, 6, 6).d6(1, 1, 1).d6(1, 1, 1)  # wins the roll, then misses: 3+5 = 8 vs 15
    a.act("attack bob")
    assert a.c("ann").free_used
    a.act("end")  # bob's turn ends
    assert a.whose() == "cal"
    ev = a.act("move away ann")  # cal leaves too: ann has no free action left
    assert _offers(ev) == [] and a.whose() == "cal"
    a.act("end")
    assert a.whose() == "ann" and not a.c("ann").free_used


def test_unguarded_attack_is_offered_only_once_before_the_first_turn():
    """Seed 000_4e72993430dea166.txt, Attack of Opportunity (Prone): "suddenly unguarded".
    Reading: offered once, before the first turn; each unguarded combatant is on guard
    from the start of its own first turn."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (5, 0), "bob", side=1)],
              alert=(True, False))
    a.act("end")  # ann lets it pass
    assert a.whose() == "ann" and a.decider.slot == "small"
    a.act("end")
    assert a.whose() == "bob" and not a.c("bob").unguarded
    a.act("end")
    assert a.whose() == "ann" and a.decider.reaction is None
