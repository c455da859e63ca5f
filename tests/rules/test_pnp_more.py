"""Seed 000 rules added for issue 9: Speak, the Skill Check (first aid), bleeding and
knock-down from called shots, falling after a drop attack, putting out a fire, readied
actions other than attacks, and two one-handed actions at once."""

from __future__ import annotations

from wasteland.rules.events import AttackRolled, Healed, Note, ReactionOffered

from .kit import F, arena, attacks, damage, mods, only, private_grid


def _notes(ev, who=None):
    return [e.message for e in ev if isinstance(e, Note) and (who is None or e.name == who)]


def _offers(ev):
    return [(e.reactor, e.reaction, e.subject) for e in ev if isinstance(e, ReactionOffered)]


# --- Speak -------------------------------------------------------------------------------
def test_speak_is_a_free_action_that_is_logged_and_does_nothing():
    """Seed 000_4e72993430dea166.txt, Free Action (Speak: a short line of dialogue).
    Reading: offered in every reaction window, it spends the free action, nothing else."""
    a = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    a.act("ready")
    a.act("move toward ann")
    assert a.is_legal("speak") and a.whose() == "ann"
    ev = a.act("speak")
    assert any("speaks a short line" in m for m in _notes(ev, "ann"))
    assert a.c("ann").free_used and a.c("bob").hp == 40 and a.whose() == "bob"
    assert not a.is_legal("speak")  # not on one's own turn
    assert "speak" not in {x.split()[0] for x in a.legal()}


# --- Skill Check: first aid ----------------------------------------------------------------
def _medic(**ann):
    return arena([F("dweller", (0, 0), "ann", medicine=2, **ann), F("target", (1, 0), "cal"),
                  F("target", (9, 5), "bob", side=1)])


def test_first_aid_is_a_medicine_check_that_heals_and_stops_bleeding():
    """Seed 000_4e72993430dea166.txt, Large Action (Performing a Skill Check). Readings:
    first aid is 3d6 + Medicine ranks against 12 on oneself or an adjacent ally; success
    stops bleeding and heals 1d6 + ranks; it is the Large action."""
    a = _medic()
    cal = a.c("cal")
    cal.hp, cal.cond["bleeding"] = 30, 1
    assert a.is_legal("first_aid cal")
    a.rig.d6(4, 4, 2).d6(3)  # 10 + 2 = 12 vs 12: success; 1d6 = 3 + 2
    ev = a.act("first_aid cal")
    assert cal.hp == 35 and "bleeding" not in cal.cond
    (msg,) = _notes(ev, "ann")
    assert "Medicine check 3d6 (4+4+2) +2 Medicine = 12 vs 12, success" in msg
    assert "heals 1d6 (3) +2 = 5, 5 HP healed (HP 35/40)" in msg
    assert a.whose() == "cal"  # a Large action ends the turn


def test_first_aid_fails_below_12_and_has_limits():
    """Seed 000_4e72993430dea166.txt, Large Action (Skill Check). Readings: a check under
    the difficulty does nothing; the patient must be next to the medic (or be the medic);
    its healing works once per patient per fight; robots cannot be given first aid."""
    a = _medic()
    cal = a.c("cal")
    cal.hp = 30
    a.rig.d6(3, 3, 3)  # 9 + 2 = 11 < 12
    ev = a.act("first_aid cal")
    assert cal.hp == 30 and "failure" in _notes(ev, "ann")[0]
    b = _medic()
    b.c("cal").hp = 30
    b.c("cal").cond["first_aid"] = True
    assert not b.is_legal("first_aid cal")  # healed once already, not bleeding
    b.c("cal").cond["bleeding"] = 1
    assert b.is_legal("first_aid cal")
    far = arena([F("dweller", (0, 0), "ann"), F("target", (2, 0), "cal"),
                 F("target", (9, 5), "bob", side=1)])
    far.c("cal").hp = 30
    assert not far.is_legal("first_aid cal")
    far.c("ann").hp = 20
    assert far.is_legal("first_aid self")
    bot = arena([F("dweller", (0, 0), "ann"), F("target", (1, 0), "cal", kind="robot"),
                 F("target", (9, 5), "bob", side=1)])
    bot.c("cal").hp = 30
    assert not bot.is_legal("first_aid cal")


# --- called shots: knock-down and bleeding -------------------------------------------------
def _called(target_kind="human"):
    return arena([F("gunner", (0, 0), "ann", perception=10),
                  F("target", (2, 0), "cal", weapons=["knife"]),
                  F("target", (3, 0), "bob", side=1, kind=target_kind)],
                 order=["ann", "bob", "cal"])


def test_critical_called_shot_to_a_leg_knocks_down_and_offers_prone_attacks():
    """Seed 000_4e72993430dea166.txt, Called Shots (a special bonus such as knocking the
    target down) and Free Action (Attack of Opportunity (Prone)). Readings: a critical
    called shot to a leg knocks the target prone; every alert enemy able to attack it may
    roll initiative for a free attack; the fallen spends its next Small action standing."""
    a = _called()
    a.rig.d6(6, 6, 6).d6(1, 1).d6(1, 1)
    ev = a.act("attack bob leg")
    assert a.c("bob").cond.get("prone")
    assert any("knocked down" in m for m in _notes(ev, "bob"))
    assert _offers(ev) == [("cal", "unguarded_enemy", "bob")]
    assert a.whose() == "cal" and a.decider.reaction == "unguarded"
    a.rig.d6(6, 6, 6).d6(1, 1, 1)  # cal wins the roll-off
    a.rig.d6(6, 6, 5).push(4, 2)  # cal's knife: hit, 1d4 = 2
    ev = a.act("attack bob")
    assert len(attacks(ev)) == 1 and a.c("cal").free_used
    # ann's attack ended her turn; bob's begins: standing up takes his Small action
    assert a.whose() == "bob" and a.decider.slot == "large"
    assert any("stands up" in m for m in _notes(ev, "bob"))
    assert "prone" not in a.c("bob").cond


def test_plain_crit_or_non_crit_called_shot_has_no_special_effect():
    """Seed 000_4e72993430dea166.txt, Called Shots. Reading: only a critical called shot
    gives the special bonus; a plain hit only counts toward crippling."""
    a = _called()
    a.rig.d6(5, 5, 5).d6(1, 1)  # 15 + 12 - 2 = 25 vs Defense 25: a hit, not a crit
    a.c("bob").creature = a.c("bob").creature.model_copy(update={
        "pnp": a.c("bob").creature.pnp.model_copy(update={"defense": 25})})
    ev = a.act("attack bob leg")
    assert only(ev, AttackRolled).crit is False
    assert not a.c("bob").cond and _offers(ev) == []


def test_critical_called_shot_to_an_arm_or_head_bleeds_until_stopped():
    """Seed 000_4e72993430dea166.txt, Called Shots (bleeding damage). Readings: a
    critical called shot to the head or an arm makes the target bleed 1 HP at the start
    of each of its turns; a stimpak or first aid stops it; robots do not bleed."""
    a = _called()
    a.rig.d6(6, 6, 6).d6(1, 1).d6(1, 1)
    a.act("attack bob arm")
    bob = a.c("bob")
    assert bob.cond.get("bleeding") == 1
    hp = bob.hp  # bob's turn has begun: he bled once
    assert hp == 40 - 4 - 1
    a.act("end")
    a.act("end")
    a.act("end")
    assert bob.hp == hp - 1
    bot = _called("robot")
    bot.rig.d6(6, 6, 6).d6(1, 1).d6(1, 1)
    bot.act("attack bob head")
    assert "bleeding" not in bot.c("bob").cond


def test_stimpak_stops_bleeding():
    """Reading of seed 000_4e72993430dea166.txt, Called Shots (bleeding): a stimpak stops
    the bleeding as it heals."""
    a = arena([F("dweller", (0, 0), "ann"), F("target", (9, 5), "bob", side=1)])
    ann = a.c("ann")
    ann.hp, ann.cond["bleeding"] = 20, 1
    a.rig.push(8, 1, 1)
    ev = a.act("stimpak self")
    assert only(ev, Healed).healed == 4 and "bleeding" not in ann.cond


# --- falling after a drop attack ----------------------------------------------------------
def test_drop_attack_lands_next_to_the_target_and_takes_falling_damage():
    """Seed 000_4e72993430dea166.txt, Drop Attack ("you might take damage in the
    process"). Readings: the attacker jumps down to a free square next to the target,
    taking 1 damage per 5 ft beyond the first 5 (10 ft: 1), DT not applying."""
    a = arena([F("brute", (0, 0), "ann"), F("target", (1, 0), "bob", side=1)])
    g = private_grid(a)
    g.heights[a.c("ann").pos] = 10
    a.rig.d6(4, 4, 4).push(4, 1)
    ev = a.act("attack bob")
    assert mods(only(ev, AttackRolled))["drop attack"] == 2
    assert damage(ev)[0].raw == 1 + 3
    ann = a.c("ann")
    assert g.heights[ann.pos] == 0 and g.dist(ann.pos, a.c("bob").pos) == 1
    assert ann.hp == 50 - 1
    assert any("drops 10 ft" in m and "= 1 (HP 49/50)" in m for m in _notes(ev, "ann"))


def test_a_5_ft_drop_hurts_nothing_and_no_landing_square_means_no_fall():
    """Seed 000_4e72993430dea166.txt, Drop Attack. Readings: the first 5 ft are free; with
    no free square below next to the target, the attacker strikes from where it stands."""
    a = arena([F("brute", (0, 0), "ann"), F("target", (1, 0), "bob", side=1)])
    private_grid(a).heights[a.c("ann").pos] = 5
    a.rig.d6(4, 4, 4).push(4, 1)
    a.act("attack bob")
    assert a.c("ann").hp == 50 and a.c("ann").pos != a.b.grid.index(0, 0)
    b = arena([F("brute", (0, 0), "ann"), F("target", (1, 0), "bob", side=1),
               F("target", (1, 1), "dan", side=1)])
    g = private_grid(b)
    g.heights[b.c("ann").pos] = g.heights[g.index(0, 1)] = 10  # a ledge, not a drop
    b.rig.d6(4, 4, 4).push(4, 1)
    b.act("attack bob")
    assert b.c("ann").hp == 50 and b.c("ann").pos == b.b.grid.index(0, 0)


# --- putting out a fire --------------------------------------------------------------------
def test_putting_out_a_fire_is_a_large_action_on_oneself_or_an_adjacent_ally():
    """Seed 000_4e72993430dea166.txt, Burning ("until ... the fire is extinguished").
    Reading: the burning creature, or an ally next to it, puts it out as a Large action."""
    a = arena([F("target", (0, 0), "ann"), F("target", (1, 0), "cal"),
               F("target", (3, 0), "dee"), F("target", (9, 5), "bob", side=1)])
    assert not a.is_legal("extinguish self")
    for who in ("ann", "cal", "dee"):
        a.c(who).burn_rate, a.c(who).burn_left = 2, 6
    assert a.is_legal("extinguish self") and a.is_legal("extinguish cal")
    assert not a.is_legal("extinguish dee")  # two squares away
    ev = a.act("extinguish cal")
    assert (a.c("cal").burn_left, a.c("cal").burn_rate) == (0, 0)
    assert "puts out the fire on cal" in _notes(ev, "ann")[0]
    assert a.whose() == "cal" and a.c("cal").hp == 40  # no burn tick at cal's turn
    assert a.c("ann").burn_left == 6


# --- readied actions other than attacks -----------------------------------------------------
def test_readied_cover_is_taken_when_a_seen_enemy_ends_a_move():
    """Seed 000_4e72993430dea166.txt, Large Action (ready an action) and Free Action (do
    a readied action). Reading: the readied action (cover, stimpak or reload) triggers
    when an enemy in sight ends a move, and lapses at the start of the readier's turn."""
    rows = "\n".join(["............", "..,.........", "............"])
    a = arena([F("gunner", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)], rows=rows)
    assert a.is_legal("prepare cover") and not a.is_legal("prepare stimpak")
    ev = a.act("prepare cover")
    assert a.c("ann").cond["ready"] == "cover" and a.whose() == "bob"
    ev = a.act("move toward ann")
    assert _offers(ev) == [("ann", "readied_action", "bob")]
    assert a.legal() == {"end", "speak", "prepare cover"}
    ev = a.act("prepare cover")
    assert a.b.grid.xy(a.c("ann").pos) == (2, 1) and a.c("ann").free_used
    assert "ready" not in a.c("ann").cond


def test_readied_reload_and_stimpak_and_one_readied_action_at_a_time():
    """Seed 000_4e72993430dea166.txt, Large Action (ready an action). Readings: one
    readied action at a time; a readied reload or stimpak is done as the free action."""
    a = arena([F("dweller", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    a.c("ann").wstate.loaded = 0
    a.c("ann").hp = 20
    assert a.is_legal("prepare reload") and a.is_legal("prepare stimpak")
    a.act("prepare stimpak")
    a.act("move toward ann")
    a.rig.push(8, 1, 1)
    ev = a.act("prepare stimpak")
    assert only(ev, Healed).hp == 24
    b = arena([F("dweller", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    b.c("ann").wstate.loaded = 0
    b.act("prepare reload")
    b.act("move toward ann")
    b.act("prepare reload")
    assert b.c("ann").wstate.reload_step == 1  # a clip: the unloading step
    c = arena([F("dweller", (0, 0), "ann"), F("target", (11, 0), "bob", side=1)])
    c.c("ann").wstate.loaded = 0
    c.act("prepare reload")
    c.act("end")  # bob does not move; ann's next turn begins and the readied action lapses
    assert "ready" not in c.c("ann").cond and c.is_legal("prepare reload")
    c.c("ann").cond["ready"] = "cover"
    assert not c.is_legal("ready") and not c.is_legal("prepare reload")


# --- two one-handed actions at once ---------------------------------------------------------
def test_attack_and_stimpak_at_once_each_hand_doing_one():
    """Seed 000_4e72993430dea166.txt, Using Two Weapons ("or perform other actions
    simultaneously", each possible one-handed, -8 to related rolls). Reading: a shot with
    a one-handed weapon at -8 and a stimpak on oneself (no roll to penalise)."""
    a = arena([F("dweller", (0, 0), "ann"), F("target", (3, 0), "bob", side=1, defense=5)])
    assert not a.is_legal("pair bob stimpak")  # not hurt
    a.c("ann").hp = 20
    assert a.is_legal("pair bob stimpak")
    a.rig.d6(4, 4, 4).d6(1, 1).push(8, 2, 2)  # 12 + 2 + 2 - 8 = 8 vs 5; 2d6 = 2; 2d8+2 = 6
    ev = a.act("pair bob stimpak")
    assert mods(only(ev, AttackRolled))["two weapons"] == -8
    assert only(ev, Healed).hp == 26 and a.whose() == "bob"
    c = arena([F("dweller", (0, 0), "ann"), F("target", (3, 0), "bob", side=1)])
    c.c("ann").hp = 20
    c.c("ann").crippled["arm"] = 1
    assert not c.is_legal("pair bob stimpak")


def test_shoot_and_pistol_whip_at_once():
    """Seed 000_4e72993430dea166.txt, Using Two Weapons and Pistol Whip: a shot with one
    gun and a whip with the other, both at -8, next to the target only."""
    a = arena([F("gunner", (0, 0), "ann", weapons=[("pistol", 1), "holdout"]),
               F("target", (1, 0), "bob", side=1, defense=5)])
    assert a.is_legal("pair bob whip")
    a.rig.d6(4, 4, 4).d6(1, 1)  # pistol: 12 + 2 + 1 - 8 = 7 vs 5, 2d6 = 2
    a.rig.d6(4, 4, 4).push(4, 3)  # whip: 12 + 2 + 1 STR - 1 - 8 = 6 vs 5, 1d4 = 3
    ev = a.act("pair bob whip")
    rolls = attacks(ev)
    assert [r.total for r in rolls] == [7, 6]
    assert all(mods(r)["two weapons"] == -8 for r in rolls)
    assert mods(rolls[1])["pistol whip"] == -1
    far = arena([F("gunner", (0, 0), "ann", weapons=[("pistol", 1), "holdout"]),
                 F("target", (3, 0), "bob", side=1)])
    assert not far.is_legal("pair bob whip") and far.is_legal("attack2 bob")
