"""The seat suite (wasteland/bestiary/suite.py, measured by wasteland/arena/suite.py,
docs/seats.md): seats where the packet in the creatures' seat wins 35-65% against
packets, for every family and ruleset."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from wasteland.agents.make import make_agent
from wasteland.arena.suite import measure
from wasteland.bestiary.suite import (
    BAND,
    FAMILIES,
    FIRST,
    SUITE_FILE,
    SUITE_ORDER,
    SuiteError,
    load_suite,
    select,
)
from wasteland.rules.rulesets import get_ruleset

MAIN = ("radscorpions", "super_mutants", "robots")


@pytest.fixture(scope="module")
def seats():
    return load_suite()


def test_the_suite_loads_and_its_ids_name_family_map_and_ruleset(seats):
    assert len(seats) >= 36
    for s in seats:
        assert s.id == f"{s.family}_{s.map}_{s.ruleset}"
        assert s.scenario.name == f"{s.id}.yaml"
        assert s.kinds == FAMILIES[s.family]


@pytest.mark.parametrize("family", MAIN)
@pytest.mark.parametrize("ruleset", SUITE_ORDER)
def test_every_family_and_ruleset_has_two_built_in_and_two_held_out_seats_with_a_bar(
        seats, family, ruleset):
    mine = select(seats, family, ruleset, bar_only=True)
    maps = {kind: {s.map for s in mine if s.kind == kind} for kind in ("built-in", "held-out")}
    assert len(maps["built-in"]) >= 2, maps
    assert len(maps["held-out"]) >= 2, maps


@pytest.mark.parametrize("family", ("super_mutants", "robots"))
@pytest.mark.parametrize("ruleset", SUITE_ORDER)
def test_super_mutants_and_robots_have_a_mirror_seat_per_ruleset(seats, family, ruleset):
    assert [s.kind for s in select(seats, family, ruleset)].count("mirror") == 1


def test_no_radscorpion_mirror(seats):
    assert not [s for s in select(seats, "radscorpions") if s.kind == "mirror"]


def test_held_out_seats_are_the_held_out_maps(seats):
    held = {"radscorpions": {"quarry_pit", "storm_drain"},
            "super_mutants": {"overpass", "chapel_ruins"},
            "robots": {"substation", "roadside_diner"}}
    for s in seats:
        if s.kind == "held-out":
            assert s.map in held[s.family]
            assert s.base == f"training/heldout/{s.map}.yaml"


def test_every_seat_scenario_builds_a_battle_under_its_ruleset(seats):
    for s in seats:
        sc = s.load()
        b = get_ruleset(s.ruleset).new_battle(sc, 0, keep_log=False)
        kinds = set(s.kinds)
        sides = [0, 1] if s.side is None else [s.side]
        for side in sides:  # the seat's creatures are on the seat's side(s)
            assert any(c.side == side and c.creature.id in kinds for c in b.combatants), s.id


def test_recorded_rates_with_a_bar_are_in_the_band(seats):
    for s in seats:
        assert s.fights == 2000 and s.wins + s.losses + s.draws == s.fights
        if s.bar:
            assert BAND[0] <= s.rate <= BAND[1], s.id
        else:
            assert s.note and not BAND[0] <= s.rate <= BAND[1], s.id


REPLAYED = {"pnp": "radscorpions_duel_pnp", "simple": "robots_mirror_simple",
            "f2d20": "radscorpions_duel_f2d20"}


@pytest.mark.parametrize("ruleset", SUITE_ORDER)
def test_a_replay_of_the_first_100_seeds_gives_the_stored_count(seats, ruleset):
    s = next(x for x in seats if x.id == REPLAYED[ruleset])
    assert s.ruleset == ruleset
    assert measure(s, "packet", fights=FIRST).wins == s.first100


class SideSpy:
    """The packet, noting the side of every combatant it decides for."""

    def __init__(self, seed: int, seen: list[int]) -> None:
        self.agent, self.seen = make_agent("packet", seed), seen

    def act(self, view):
        self.seen.append(view.me.side)
        return self.agent.act(view)


def test_mirror_seats_swap_sides_and_hold_the_same_line_up_on_both(seats):
    mirrors = [s for s in seats if s.kind == "mirror"]
    assert mirrors
    for s in mirrors:
        sc = s.load()
        a, b = ([p.creature for p in side.combatants] for side in sc.sides)
        assert a == b and set(a) <= set(s.kinds), s.id
        width = len(sc.rows()[0])
        assert [(width - 1 - p.at[0], p.at[1]) for p in sc.sides[0].combatants] == \
            [tuple(p.at) for p in sc.sides[1].combatants]
    s = mirrors[0]
    log: list[int] = []
    starts: list[int] = []

    def spy(seed: int) -> SideSpy:  # made once a fight, for the seat
        starts.append(len(log))
        return SideSpy(seed, log)

    measure(s, spy, fights=4)
    bounds = [*starts, len(log)]
    assert [sorted(set(log[bounds[i]:bounds[i + 1]])) for i in range(4)] == [[0], [1], [0], [1]]
    assert [s.sides_for(k) for k in range(4)] == [0, 1, 0, 1]


# ---- a bad suite file is one line naming the file and the field ---------------------------

def broken(tmp_path: Path, change) -> Path:
    folder = tmp_path / "seats"
    shutil.copytree(SUITE_FILE.parent, folder)
    data = yaml.safe_load((folder / "suite.yaml").read_text())
    change(data)
    (folder / "suite.yaml").write_text(yaml.safe_dump(data))
    return folder / "suite.yaml"


def first_bar(data):
    return next(i for i, e in enumerate(data["seats"]) if e["bar"])


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["seats"][0].update(family="ants"), "seats[0].family", "unknown family 'ants'"),
    (lambda d: d["seats"][1].update(scenario="nowhere.yaml"), "seats[1].scenario",
     "no scenario file"),
    (lambda d: d["seats"][first_bar(d)]["packet"].update(wins=10, losses=1990 - d["seats"][
        first_bar(d)]["packet"]["draws"], first100=0), "packet", "outside the band"),
    (lambda d: d["seats"][2].update(ruleset="chess"), "seats[2].ruleset", "pnp"),
    (lambda d: d["seats"][2].pop("packet"), "seats[2].packet", "missing"),
    (lambda d: d["seats"][0]["packet"].update(fights=10 ** 30), "seats[0].packet.fights",
     "less than or equal to"),
    (lambda d: d["seats"][0].update(side=10 ** 9), "seats[0].side", "less than or equal to"),
    (lambda d: d.update(band=[0.35, float("nan")]), "band", "finite"),
    (lambda d: d.update(band=[-1, 0.65]), "band", "greater than or equal to 0"),
])
def test_a_bad_suite_file_is_one_line_naming_the_file_and_field(tmp_path, change, field, words):
    path = broken(tmp_path, change)
    with pytest.raises(SuiteError) as e:
        load_suite(path)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: ") and field in msg and words in msg, msg


def test_a_missing_suite_file_is_one_line(tmp_path):
    with pytest.raises(SuiteError, match="cannot read"):
        load_suite(tmp_path / "none.yaml")


def test_select_refuses_an_unknown_family_or_ruleset(seats):
    with pytest.raises(SuiteError, match="unknown family 'ants'; known: radscorpions"):
        select(seats, "ants")
    with pytest.raises(SuiteError, match="unknown ruleset 'chess'"):
        select(seats, ruleset="chess")


# ---- readers ------------------------------------------------------------------------------

def test_evaluate_on_the_suite_fights_each_scenario_under_its_own_ruleset(seats):
    from wasteland.arena.field import make_field
    from wasteland.arena.tournament import schedule

    f = make_field("random,packet", None, "pnp,simple", 1, 0, 1, suite="robots")
    wanted = [s for s in select(seats, "robots", bar_only=True) if s.ruleset != "f2d20"]
    assert [sc.id for sc in f.scenarios] == [s.id for s in wanted]
    plan = schedule(f)
    assert len(plan) == 2 * len(wanted)
    assert {(f.scenarios[sc].id, r) for _, sc, r, _ in plan} == {(s.id, s.ruleset) for s in wanted}


def test_evaluate_suite_errors_are_one_line():
    from wasteland.arena.field import make_field
    from wasteland.rules.errors import WastelandError

    with pytest.raises(WastelandError, match="--suite: unknown family 'ants'; accepted: all"):
        make_field("random,packet", None, None, 1, 0, 1, suite="ants")
    with pytest.raises(WastelandError, match="give one"):
        make_field("random,packet", "duel", None, 1, 0, 1, suite="all")


def test_the_tuner_writes_scenarios_that_read_back_the_same(seats):
    from wasteland.arena.tuner import dump_scenario, knobs, scenario_of

    s = next(x for x in seats if x.kind == "held-out")
    data = yaml.safe_load(s.scenario.read_text())
    assert yaml.safe_load(dump_scenario(data, ["a header"])) == data
    for stronger in (True, False):
        for _effect, _label, new in knobs(data, s.ruleset, s.kinds, s.side, stronger):
            assert new["map"] == data["map"]  # the map stays; only the line-ups change
            scenario_of(new)  # and the new line-up is a valid scenario


def test_a_seat_whose_side_the_scenario_lacks_is_one_line():
    import dataclasses

    seat = next(s for s in load_suite() if s.side is not None)
    bad = dataclasses.replace(seat, side=5)
    with pytest.raises(SuiteError) as e:
        bad.load()
    assert str(e.value) == (f"seat {seat.id}: side 5, but {seat.scenario.name} has sides 0-1")
