"""Initiative and the action economy of Fallout 2d20 (seed 002: Initiative, Actions)."""

from __future__ import annotations

from wasteland.rules.events import BattleEnded, InitiativeRolled, RoundStarted

from .kit2d20 import F, arena


def _duel(pool: int = 0, **kw):
    a = arena([F("hero", (2, 2), "ann", **kw), F("dummy", (27, 2), "dum", side=1)])
    a.set_pool(0, pool)
    return a


def _rounds(events):
    return [e for e in events if isinstance(e, RoundStarted)]


# --- initiative ---------------------------------------------------------------------------

def test_the_initiator_takes_a_turn_before_the_first_round():
    """Seed 002_265a8a3b5c20fde4.txt, Initiative: the one who started the fight takes a
    turn at once; then round 1 runs from the highest Initiative down. Reading: the
    initiator is the quickest combatant of the first side that is not ambushed (side 0
    here), even when an enemy has a higher Initiative."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1, initiative=20)])
    assert a.whose() == "ann" and a.b.round == 0
    ev = a.act("end")
    (r,) = _rounds(ev)
    assert (r.round, r.order) == (1, ["dum", "ann"])
    assert a.whose() == "dum"


def test_an_ambushed_side_does_not_start_the_fight():
    """Seed 002_265a8a3b5c20fde4.txt, Initiative; reading: when side 0 is caught unaware
    (alert: false), the first alert side's quickest combatant starts the fight."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1),
               F("raider", (27, 4), "rad", side=1)], alert=(False, True))
    assert a.whose() == "rad" and a.b.round == 0


def test_rounds_run_from_highest_initiative_to_lowest():
    """Seed 002_265a8a3b5c20fde4.txt, Initiative: each round, turns go from the highest
    Initiative to the lowest, and the next round starts again from the highest."""
    a = arena([F("dummy", (2, 4), "dum"), F("hero", (2, 2), "ann"),
               F("raider", (27, 2), "rad", side=1)])
    assert a.whose() == "ann"  # the quickest of side 0 opens
    ev = a.act("end")
    assert _rounds(ev)[0].order == ["ann", "rad", "dum"]
    seen = []
    for _ in range(3):
        seen.append(a.whose())
        ev = a.act("end")
    assert seen == ["ann", "rad", "dum"]
    assert _rounds(ev)[0].round == 2 and a.whose() == "ann"


def test_initiative_ties_are_broken_by_a_d20():
    """Seed 002_265a8a3b5c20fde4.txt, Initiative: the GM decides ties; reading: each
    combatant rolls a d20 once at the start and the higher roll goes first."""
    a = arena([F("hero", (2, 2), "ann"), F("dummy", (27, 2), "dum", side=1),
               F("dummy", (27, 4), "dee", side=1)], ties=[10, 5, 15])
    ev = a.act("end")
    assert _rounds(ev)[0].order == ["ann", "dee", "dum"]
    ties = [n.text() for n in a.events if isinstance(n, InitiativeRolled) and n.tiebreak]
    # only the tied roll for their places; ann's d20 breaks no tie and is not shown
    assert ties == ["dee has Initiative 1 (tie-break d20: 15).",
                    "dum has Initiative 1 (tie-break d20: 5)."]


def test_a_fight_past_the_round_limit_is_a_draw():
    """Reading: the scenario's max_rounds ends the fight with no winner."""
    a = _duel()
    a.b.max_rounds = 1
    a.act("end")  # opening turn
    a.act("end")  # ann, round 1
    ev = a.act("end")  # dum, round 1: the limit is reached
    end = [e for e in ev if isinstance(e, BattleEnded)]
    assert end and end[0].winner is None and a.b.over and a.b.winner is None


# --- minor and major actions --------------------------------------------------------------

def test_one_minor_and_one_major_action_per_turn():
    """Seed 002_265a8a3b5c20fde4.txt, Actions: one minor and one major action a turn.
    With an empty pool, after a minor action no other minor is offered, after the major
    action only ending the turn is."""
    a = _duel()
    a.act("draw 1")
    legal = a.legal()
    assert not {"aim", "draw 0", "move toward dum"} & legal
    assert {"ready", "sprint toward dum", "rally", "defend"} <= legal
    a.act("ready")
    assert a.legal() == {"end"}


def test_minor_and_major_in_any_order():
    """Seed 002_265a8a3b5c20fde4.txt, Actions: the two actions come in any order."""
    a = _duel()
    a.act("ready")
    assert "draw 1" in a.legal() and "ready" not in a.legal()
    a.act("draw 1")
    assert a.legal() == {"end"}


def test_end_passes_the_turn():
    """Seed 002_265a8a3b5c20fde4.txt, Pass: a combatant may do nothing; `end` ends the
    turn whatever is left unused."""
    a = _duel()
    assert "end" in a.legal()
    a.act("end")
    assert a.whose() == "ann" and a.b.round == 1
    a.act("end")
    assert a.whose() == "dum"


def test_an_extra_minor_action_costs_one_ap():
    """Seed 002_265a8a3b5c20fde4.txt, Actions: extra actions are bought with AP. Reading:
    an extra minor action costs 1 AP from the side's pool."""
    a = _duel(pool=1)
    a.act("draw 1")
    assert "aim" in a.legal()
    ev = a.act("aim")
    assert a.pool(0) == 0
    assert any("spends 1 AP on another minor action" in e.text() for e in ev)


def test_an_extra_major_action_costs_two_ap():
    """Seed 002_265a8a3b5c20fde4.txt, Actions: extra actions are bought with AP. Reading:
    an extra major action costs 2 AP."""
    a = _duel(pool=1)
    a.act("ready")
    assert "sprint toward dum" not in a.legal()  # 1 AP is not enough
    a.set_pool(0, 2)
    assert "sprint toward dum" in a.legal()
    ev = a.act("sprint toward dum")
    assert a.pool(0) == 0
    assert any("spends 2 AP on another major action" in e.text() for e in ev)


def test_never_more_than_two_minor_and_two_major_actions():
    """Seed 002_265a8a3b5c20fde4.txt, Actions: never more than two minor and two major
    actions in one turn, however much AP is left."""
    a = _duel(pool=6)
    a.act("draw 1")
    a.act("aim")
    assert not {"draw 0", "move toward dum", "aim"} & a.legal()
    a.act("ready")
    a.act("sprint toward dum")
    assert a.pool(0) == 3
    assert a.legal() == {"end"}


def test_only_one_movement_action_per_turn():
    """Seed 002_265a8a3b5c20fde4.txt, Actions: never more than one movement action (Move
    or Sprint) per turn, even with AP to buy more actions."""
    a = _duel(pool=6)
    a.act("move toward dum")
    legal = a.legal()
    assert "sprint toward dum" not in legal and "move toward dum" not in legal
    assert "aim" in legal and "ready" in legal
    b = _duel(pool=6)
    b.act("sprint toward dum")
    assert "move toward dum" not in b.legal() and "aim" in b.legal()


def test_a_torso_injury_forbids_bought_actions():
    """Reading: an injured torso cannot buy extra actions with AP."""
    a = _duel(pool=6)
    a.c("ann").crippled["torso"] = 1
    a.act("draw 1")
    assert not {"aim", "draw 0", "move toward dum"} & a.legal()
    a.act("ready")
    assert a.legal() == {"end"}


def test_an_injured_leg_cannot_sprint_and_two_cannot_move():
    """Reading: one leg injury forbids Sprint; two forbid any movement action."""
    a = _duel()
    a.c("ann").crippled["leg"] = 1
    legal = a.legal()
    assert "move toward dum" in legal and "sprint toward dum" not in legal
    a.c("ann").crippled["leg"] = 2
    legal = a.legal()
    assert "move toward dum" not in legal and "move away dum" not in legal
