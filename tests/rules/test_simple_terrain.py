"""Climbing and swimming under Simple (seed 001_0912b5c6442fb3b1.txt, Move Phase: "prone
move or climb up to one hex", "crouch move or swim up to two hexes"), on maps whose
legend marks ``water`` and ``climb`` squares; the other rulesets walk them as floor."""

from __future__ import annotations

import pytest

from wasteland.rules.goto import goto

from .kitsimple import SEED, creature, sarena

A, B = creature("a"), creature("b")
# a river (w) two columns wide at x = 4, 5 and a rubble wall to clamber over (H) at x = 8
RIVER = "\n".join(["....ww..H...."] * 5)


def two(at_a=(0, 2), at_b=(12, 2), rows=RIVER, **kw):
    return sarena([("ann", at_a, 0, A), ("bob", at_b, 1, B)], rows=rows, **kw)


def x_of(a, who):
    return a.b.grid.xy(a.c(who).pos)[0]


def to_anns_move(a):
    a.act("end")  # bob moves first (lower sequence)
    assert a.whose() == ("ann", "move")


def test_seed_file_is_cited():
    assert SEED.startswith("Seed 001")


@pytest.mark.parametrize("start, want", [
    (2, 4),   # stands at 2: walks to 3, enters the river at 4: a swim, two hexes in all
    (3, 5),   # at 3: into 4 and 5, both water: two hexes
    (4, 6),   # starts in the water: a swim, two hexes, out onto the bank at 6
    (0, 3),   # three dry hexes; the fourth would enter the river: a swim of four, no
])
def test_a_move_that_swims_covers_at_most_two_hexes(start, want):
    """Seed 001, Move Phase: swimming moves up to two hexes; a move that starts in or
    enters water is a swim (reading)."""
    a = two(at_a=(start, 2))
    to_anns_move(a)
    a.act("move toward bob")
    assert x_of(a, "ann") == want


def test_running_into_water_is_still_a_two_hex_swim():
    a = two(at_a=(3, 2))
    to_anns_move(a)
    a.act("sprint toward bob")
    assert x_of(a, "ann") == 5


def test_a_move_that_climbs_covers_one_hex():
    """Seed 001, Move Phase: climbing moves one hex; onto the climb hex, then no farther;
    off it, one hex (reading: leaving it is climbing down)."""
    a = two(at_a=(7, 2))
    to_anns_move(a)
    a.act("move toward bob")
    assert x_of(a, "ann") == 8
    b = two(at_a=(8, 2))
    to_anns_move(b)
    b.act("move toward bob")
    assert x_of(b, "ann") == 9
    c = two(at_a=(6, 2))  # two dry hexes, the climb would be the second: stops before it
    to_anns_move(c)
    c.act("move toward bob")
    assert x_of(c, "ann") == 7


def test_goto_reaches_only_what_the_climb_and_the_swim_allow():
    a = two(at_a=(3, 2))
    to_anns_move(a)
    reach = a.rs.destinations(a.b)
    g = a.b.grid
    xs = {g.xy(p)[0] for p in reach}
    assert max(xs) == 5 and min(xs) == 0  # east: the river stops it; west: a run of 3
    assert all(k <= 2 for p, k in reach.items() if g.xy(p)[0] >= 4)
    a.act("goto 5 2")
    assert a.b.grid.xy(a.c("ann").pos) == (5, 2)
    b = two(at_a=(7, 2))
    to_anns_move(b)
    xs = {g.xy(p)[0] for p in b.rs.destinations(b.b)}
    assert 8 in xs and 9 not in xs  # onto the rubble, not over it
    with pytest.raises(Exception, match="9"):
        b.rs.apply(b.b, goto(9, 2))


def test_a_charge_does_not_cross_water_or_climb():
    """Reading: a charge is a straight run on open ground, so not through water or over a
    climb; the same charge on dry ground is legal."""
    knife = creature("a", weapons=("knife",))
    a = sarena([("ann", (3, 2), 0, knife), ("bob", (7, 2), 1, B)],
               rows="\n".join(["....w........"] * 5))
    a.act("end")  # bob's move
    a.act("end")  # ann's move
    assert "charge bob" not in a.legal()
    dry = sarena([("ann", (3, 2), 0, knife), ("bob", (7, 2), 1, B)])
    dry.act("end")
    dry.act("end")
    assert "charge bob" in dry.legal()


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_the_other_rulesets_walk_water_and_climb_as_floor(ruleset):
    """Reading: seeds 000, 002 and 003 have no climbing or swimming, so those squares are
    walked like floor there."""
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.grid import SWIM_CAP, grid_for
    from wasteland.rules.rulesets import get_ruleset

    sc = load_scenario("duel")
    rows = [r.replace(".", "w") for r in sc.map.split("\n")]
    legend = {**sc.legend, "w": "water"}
    wet = sc.model_copy(update={"map": "\n".join(rows), "legend": legend})
    rs = get_ruleset(ruleset)
    b, d = rs.new_battle(wet, 5), rs.new_battle(sc, 5)
    wet_grid = grid_for(rows, {k: v if isinstance(v, list) else [v] for k, v in legend.items()})
    assert wet_grid.move_cap.count(SWIM_CAP) > 0
    for _ in range(40):
        if b.over:
            break
        assert rs.legal_ids(b) == rs.legal_ids(d)
        a = rs.legal_actions(b)[-1]
        rs.apply(b, a)
        rs.apply(d, a)
