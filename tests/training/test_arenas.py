"""Procedurally generated arenas (wasteland/training/arenas.py) and the held-out maps
(wasteland/training/heldout/) of issue 10."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from wasteland.bestiary.loader import BestiaryError, check_scenario, default_bestiary, load_scenario
from wasteland.limits import map_size_problem
from wasteland.rules.grid import grid_for
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset
from wasteland.training import arenas
from wasteland.training.arenas import (
    CREATURES_SIDE,
    FAMILIES,
    FOES,
    FOES_SIDE,
    ArenaError,
    packet_fight,
    random_arena,
)

HELDOUT = Path(arenas.__file__).parent / "heldout"
CONFIGS = Path(arenas.__file__).parent / "configs"
FAR = 1 << 20  # the grid's walking distance between squares with no route
# the line-up random_arena drew for seed 11 before wide ranges were allowed (2026-12-05)
EXPECTED_11 = [["brawler", "raider"], ["radscorpion", "young_radscorpion"]]


def _arena(seed: int, family: str = "radscorpions", **kw):
    return random_arena(np.random.default_rng(seed), FAMILIES[family], FOES, **kw)


def _legend(sc) -> dict[str, list[str]]:
    return {k: [v] if isinstance(v, str) else list(v) for k, v in sc.legend.items()}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_arenas_validate_and_lay_out_under_both_rulesets(family):
    for seed in range(25):
        sc = _arena(seed, family)
        check_scenario(sc, default_bestiary(), f"arena {seed}")  # raises on any problem
        for name in RULESETS:
            b = get_ruleset(name).new_battle(sc, seed, keep_log=False)
            assert len(set(b.ids)) == len(b.ids)
            assert b.max_rounds == 30


def test_every_start_is_floor_and_every_combatant_can_walk_to_every_other():
    for seed in range(80):
        sc = _arena(seed, ("radscorpions", "super_mutants", "robots")[seed % 3],
                    creature_count=(1, 5), foe_count=(1, 5))
        rows = sc.rows()
        grid = grid_for(rows, _legend(sc))
        squares = [grid.index(*p.at) for s in sc.sides for p in s.combatants]
        assert len(set(squares)) == len(squares)
        for s in sc.sides:
            for p in s.combatants:
                assert sc.legend[rows[p.at[1]][p.at[0]]] == "floor", (seed, p)
        for a in squares:
            dist = grid.walk_distances(a)
            assert all(dist[b] < FAR for b in squares), seed
        # no open square is shut off either (a cut-off zone would never see a fight)
        open_ = [i for i in range(grid.n_cells) if grid.passable[i]]
        assert all(grid.walk_distances(squares[0])[i] < FAR for i in open_), seed


def test_same_generator_state_gives_the_same_arena_and_others_differ():
    for seed in (0, 7, 123):
        assert _arena(seed).model_dump() == _arena(seed).model_dump()
    maps = {_arena(seed).map for seed in range(30)}
    assert len(maps) == 30
    rng = np.random.default_rng(5)
    first, second = random_arena(rng, ["radscorpion"], FOES), random_arena(rng, ["radscorpion"], FOES)
    assert first.map != second.map


def test_sizes_counts_and_sides_stay_within_bounds():
    for seed in range(200):
        sc = _arena(seed, ("radscorpions", "super_mutants", "robots")[seed % 3],
                    creature_count=(2, 4), foe_count=(1, 2), name=f"arena_{seed}")
        rows = sc.rows()
        w, h = len(rows[0]), len(rows)
        assert all(len(r) == w for r in rows)
        assert arenas.WIDTH[0] <= w <= arenas.WIDTH[1] and arenas.HEIGHT[0] <= h <= arenas.HEIGHT[1]
        assert map_size_problem(w, h) is None
        assert set(rows[0]) == set(rows[-1]) == {"#"} and all(r[0] == r[-1] == "#" for r in rows)
        assert sc.id == f"arena_{seed}" and sc.max_rounds == 30
        sides = {s.name: s for s in sc.sides}
        assert set(sides) == {CREATURES_SIDE, FOES_SIDE}
        mine, theirs = sides[CREATURES_SIDE].combatants, sides[FOES_SIDE].combatants
        assert 2 <= len(mine) <= 4 and 1 <= len(theirs) <= 2
        assert {p.creature for p in mine} <= set(FAMILIES[("radscorpions", "super_mutants",
                                                          "robots")[seed % 3]])
        assert {p.creature for p in theirs} <= set(FOES)
        # opposite ends: every creature on one side of every foe
        cx, fx = [p.at[0] for p in mine], [p.at[0] for p in theirs]
        assert max(cx) < min(fx) or max(fx) < min(cx)


def test_side_order_ends_and_numbers_vary():
    order, ends, counts = set(), set(), set()
    for seed in range(60):
        sc = _arena(seed)
        order.add(sc.sides[0].name)
        mine = next(s for s in sc.sides if s.name == CREATURES_SIDE).combatants
        theirs = next(s for s in sc.sides if s.name == FOES_SIDE).combatants
        ends.add(mine[0].at[0] < theirs[0].at[0])
        counts.add((len(mine), len(theirs)))
    assert order == {CREATURES_SIDE, FOES_SIDE}
    assert ends == {True, False}
    assert len(counts) >= 5


def test_arenas_vary_walls_cover_ground_and_light():
    glyphs: set[str] = set()
    lights: set[str] = set()
    sizes = set()
    for seed in range(300):
        sc = _arena(seed)
        rows = sc.rows()
        inner = "".join(r[1:-1] for r in rows[1:-1])
        glyphs |= {f for ch in set(inner) for f in _legend(sc)[ch]}
        lights.add(sc.lighting)
        sizes.add((len(rows[0]), len(rows)))
    assert glyphs == {"floor", "wall", "light_cover", "heavy_cover", "full_cover", "high_ground",
                      "darkness", "smoke"}
    assert lights == {"clear", "obscured", "heavily_obscured", "unseen"}
    assert len(sizes) > 40


def test_mirror_arenas_and_large_sides():
    sc = random_arena(np.random.default_rng(3), ["radscorpion"], ["radscorpion"],
                      creature_count=(5, 5), foe_count=(5, 5))
    ids = [p.id for s in sc.sides for p in s.combatants]
    assert len(ids) == 10 and len(set(ids)) == 10
    for name in RULESETS:
        get_ruleset(name).new_battle(sc, 0, keep_log=False)


def test_wide_line_ups_share_the_battles_combatants():
    # one to eight a side (issue 40): each arena stays within the battle's 10, both ends
    # of both ranges are drawn, and sides larger than any seat's (5+) come up
    counts = []
    for seed in range(300):
        sc = random_arena(np.random.default_rng(seed), FAMILIES["radscorpions"], FOES,
                          creature_count=(1, 8), foe_count=(1, 8), ruleset="f2d20")
        mine, theirs = (len(s.combatants) for s in sc.sides
                        if s.name in (CREATURES_SIDE, FOES_SIDE))
        counts.append((mine, theirs) if sc.sides[0].name == CREATURES_SIDE else (theirs, mine))
    assert all(a + b <= 10 and a >= 1 and b >= 1 for a, b in counts)
    assert {1, 8} <= {a for a, _ in counts} and 1 in {b for _, b in counts}
    assert max(b for _, b in counts) >= 6


def test_narrow_ranges_draw_the_same_arenas_as_before():
    # configs trained on (1, 3) keep their arenas: the cap changes no draw within it
    sc = random_arena(np.random.default_rng(11), FAMILIES["radscorpions"], FOES,
                      ruleset="f2d20")
    assert [[p.creature for p in s.combatants] for s in sc.sides] == EXPECTED_11


@pytest.mark.parametrize("kwargs, message", [
    ({"creatures": []}, "creatures must be a non-empty list"),
    ({"creatures": "radscorpion"}, "creatures must be a non-empty list"),
    ({"foes": ["deathclaw"]}, "foes: unknown creature 'deathclaw'; known: brawler"),
    ({"creature_count": (0, 2)}, "creature_count must be (low, high)"),
    ({"foe_count": (3, 2)}, "foe_count must be (low, high)"),
    ({"creature_count": (6, 8), "foe_count": (5, 8)}, "more than 10 combatants"),
    ({"ruleset": "gurps"}, "unknown ruleset 'gurps'; available: pnp, f2d20, simple"),
    ({"rng": 7}, "rng must be a numpy.random.Generator"),
    ({"name": ""}, "name must be a non-empty string"),
])
def test_bad_arguments_get_one_line_errors(kwargs, message):
    args = {"rng": np.random.default_rng(0), "creatures": ["radscorpion"], "foes": FOES, **kwargs}
    rng, creatures, foes = args.pop("rng"), args.pop("creatures"), args.pop("foes")
    with pytest.raises(ArenaError) as e:
        random_arena(rng, creatures, foes, **args)
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_packet_against_packet_is_roughly_even_over_arenas(ruleset):
    """A quick version of `python -m wasteland.training.arenas` (400 a family there)."""
    for family, kinds in FAMILIES.items():
        wins = 0
        for seed in range(60):
            sc = random_arena(np.random.default_rng(seed), kinds, FOES, ruleset=ruleset)
            wins += packet_fight(sc, ruleset, seed) == CREATURES_SIDE
        assert 0.2 <= wins / 60 <= 0.8, (family, ruleset, wins)


# --- held-out maps ---------------------------------------------------------------------

HELDOUT_SIDES = {"radscorpions": "Radscorpions", "super_mutants": "Super mutants",
                 "robots": "Robots"}


def test_two_heldout_maps_per_family_each_loads_by_path_and_lays_out():
    files = sorted(HELDOUT.glob("*.yaml"))
    per_family: dict[str, int] = {}
    for path in files:
        sc = load_scenario(str(path))  # a path, the way `wasteland fight --scenario` takes one
        assert sc.id == path.stem
        names = [s.name for s in sc.sides]
        family = next(f for f, side in HELDOUT_SIDES.items() if side in names)
        per_family[family] = per_family.get(family, 0) + 1
        creatures = next(s for s in sc.sides if s.name == HELDOUT_SIDES[family]).combatants
        assert {p.creature for p in creatures} & set(FAMILIES[family]), path
        for name in RULESETS:
            b = get_ruleset(name).new_battle(sc, 0, keep_log=False)
            grid = b.grid
            for c in b.combatants:  # everyone can reach everyone: the fight can happen
                assert all(grid.walk_distances(c.pos)[o.pos] < FAR for o in b.combatants)
    assert per_family == {"radscorpions": 2, "super_mutants": 2, "robots": 2}
    assert (HELDOUT / "README.md").is_file()


def test_heldout_maps_are_new_and_unused_in_training():
    from wasteland.bestiary.loader import scenario_names

    builtin = {load_scenario(n).map for n in scenario_names()}
    used = " ".join(p.read_text() for p in CONFIGS.glob("*.yaml")) if CONFIGS.is_dir() else ""
    for path in HELDOUT.glob("*.yaml"):
        sc = load_scenario(path)
        assert sc.id not in scenario_names() and sc.map not in builtin
        assert sc.id not in used and path.name not in used, f"{path.name} is used in training"


def test_a_broken_heldout_path_is_one_line():
    with pytest.raises(BestiaryError) as e:
        load_scenario(str(HELDOUT / "no_such_map.yaml"))
    assert "cannot read" in str(e.value) and "\n" not in str(e.value)
