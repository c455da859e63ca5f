"""The shipped policies (wasteland/policies/): they match the running code, they were trained
from the shipped config of the same name, and - a quick version of issue 25's seat test -
each plays its creatures' benchmark seats better than the packet on the same seeds.

The full sweeps (1,000 fights, held-out maps, mirror arenas) are benchmarks/policy_seats.py;
here a smaller, fixed set of seeds. Fights are deterministic for a seed (argmax policy,
seeded packets and dice), so these are exact checks, not flaky ones: a change to the engine,
the packet, the observation or the action table that makes a policy worse fails them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wasteland.agents.policy import (
    PolicyAgent,
    action_hash,
    load_policy,
    observation_hash,
    shipped_names,
)
from wasteland.bestiary.models import Scenario
from wasteland.bestiary.suite import FAMILIES, load_suite, select
from wasteland.training.config import load_config
from wasteland.training.seats import seat

SHIPPED = shipped_names()
ROOT = Path(__file__).resolve().parents[2] / "wasteland" / "policies"
QUICK_FIGHTS = 200


def test_the_shipped_list_matches_the_files() -> None:
    on_disk = sorted(p.stem for p in ROOT.glob("*.json"))
    assert SHIPPED == on_disk
    for n in SHIPPED:
        assert (ROOT / f"{n}.npz").is_file(), n


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policy_matches_the_observation_and_action_table(name: str) -> None:
    """Fails after any change to the observation features, their order or the action table
    until the policies are retrained (docs/training.md)."""
    m = json.loads((ROOT / f"{name}.json").read_text())
    assert m["observation_hash"] == observation_hash(m.get("sight", "own")), \
        "retrain: the observation changed"
    width = load_policy(name, check=False).weights[-1].shape[1]
    # the table may have grown at the end since (its first `width` entries are unchanged)
    assert m["action_hash"] == action_hash(width), "retrain: the action table changed"
    load_policy(name)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policy_was_trained_from_its_shipped_config(name: str) -> None:
    """`wasteland train NAME` reproduces it: the manifest's config is the shipped one."""
    p = load_policy(name)
    cfg = load_config(name)
    assert p.manifest["config_hash"] == cfg.hash()
    assert p.manifest["config"] == cfg.dump()
    assert p.ruleset == cfg.ruleset and sorted(p.kinds) == sorted(cfg.creatures)


def _seats(name: str) -> list[tuple[Scenario, int | None]]:
    """The benchmark suite's built-in seats with a bar for the policy's family and ruleset
    (docs/seats.md): the seats issue 25's seat test is taken on, the packet winning about
    35-65% there."""
    pol = load_policy(name)
    family = next(f for f, ks in FAMILIES.items() if pol.kinds & set(ks))
    return [(s.load(), s.side) for s in select(load_suite(), family, pol.ruleset, bar_only=True)
            if s.kind == "built-in"]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policy_wins_its_seat_more_than_the_packet(name: str) -> None:
    """On seeds 0..QUICK_FIGHTS-1 of every built-in benchmark seat of its family and
    ruleset, the policy in their seat wins more fights in all than the packet in the same
    seat (the full test, 1,000 fights with intervals, is benchmarks/policy_seats.py)."""
    pol = load_policy(name)
    policy_wins = packet_wins = 0
    seats = _seats(name)
    assert seats, f"{name}: no benchmark seat for its family and ruleset"
    for sc, side in seats:
        policy_wins += seat(lambda k: PolicyAgent(pol, k), sc, pol.ruleset, sorted(pol.kinds),
                            seat_side=side, fights=QUICK_FIGHTS).wins
        packet_wins += seat("packet", sc, pol.ruleset, sorted(pol.kinds), seat_side=side,
                            fights=QUICK_FIGHTS).wins
    assert policy_wins > packet_wins, (name, policy_wins, packet_wins)


TEACHERS = Path(__file__).resolve().parents[2] / "wasteland" / "training" / "configs" / "teachers"


@pytest.mark.parametrize("path", sorted(TEACHERS.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_shipped_teacher_was_trained_from_its_config(path: Path) -> None:
    """A shipped config that distils names teachers in configs/teachers/: each is the
    export of the config of the same name beside it, and loads with the running code (an
    observation change refuses it until it is retrained, as a shipped policy)."""
    cfg = load_config(str(path))
    p = load_policy(path.with_suffix(".npz"))
    assert p.manifest["config_hash"] == cfg.hash() and p.manifest["config"] == cfg.dump()
    assert p.name == cfg.id == path.stem
    assert p.ruleset == cfg.ruleset and sorted(p.kinds) == sorted(cfg.creatures)


def test_every_teacher_a_shipped_config_names_ships() -> None:
    from wasteland.training.config import config_names

    named = {v for n in config_names() for v in
             [load_config(n).expert.teacher, *load_config(n).expert.teachers.values()]
             if v.startswith("policy:teachers/")}
    assert named, "no shipped config distils from teachers"
    for v in named:
        assert (TEACHERS.parent / v[len("policy:"):]).is_file(), v
