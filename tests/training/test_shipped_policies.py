"""The shipped policies (wasteland/policies/): they match the running code, they were trained
from the shipped config of the same name, and - a quick version of issue 10's seat test -
each plays its creatures' seat better than the packet on the same seeds.

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
from wasteland.bestiary.loader import load_scenario, scenario_names
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
    assert m["observation_hash"] == observation_hash(), "retrain: the observation changed"
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
    assert p.manifest["config"] == cfg.model_dump(mode="json")
    assert p.ruleset == cfg.ruleset and sorted(p.kinds) == sorted(cfg.creatures)


def _seats(name: str) -> list[str]:
    kinds = load_policy(name).kinds
    return [s for s in scenario_names()
            if any(c.creature in kinds for side in load_scenario(s).sides for c in side.combatants)]


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_policy_wins_its_seat_more_than_the_packet(name: str) -> None:
    """On seeds 0..QUICK_FIGHTS-1 of every built-in map where its creatures fight, the
    policy in their seat wins more fights in all than the packet in the same seat."""
    pol = load_policy(name)
    policy_wins = packet_wins = 0
    for s in _seats(name):
        sc = load_scenario(s)
        policy_wins += seat(lambda k: PolicyAgent(pol, k), sc, pol.ruleset, sorted(pol.kinds),
                            fights=QUICK_FIGHTS).wins
        packet_wins += seat("packet", sc, pol.ruleset, sorted(pol.kinds), fights=QUICK_FIGHTS).wins
    assert policy_wins > packet_wins, (name, policy_wins, packet_wins)
