"""Recorded fights: the same seed gives the same fight, bit for bit, whatever is done to
make the engine or the agents faster.

tests/data/recorded_fights.json holds, for fights of every built-in scenario under every
ruleset (packet against packet, and random against random), a digest of everything a
fight shows: each decision's action and reason, every event's text with its dice, and
the final state. The speed work of issue 11 must leave every digest as it is. Record
again (``python tests/rules/test_recorded_fights.py``) only for a change that is meant
to change fights (a rule, the packet's tactics), and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.bestiary.loader import load_scenario, scenario_names  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402

RECORD = Path(__file__).resolve().parents[1] / "data" / "recorded_fights.json"
SEEDS = {"packet": tuple(range(8)), "random": (0, 1, 2)}


def fight_digest(ruleset: str, scenario: str, seed: int, agent: str,
                 quiet: bool = False) -> dict[str, object]:
    """The fight's digests: ``moves`` (decisions, reasons, final state) and ``log`` (every
    event's text); a quiet fight (no log, as simulations run) has only ``moves``."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed, keep_log=not quiet)
    b.quiet = quiet
    agents = [make_agent(agent, seed + side) for side in range(len(b.side_names))]
    h = hashlib.sha256()
    decisions = 0
    while not b.over:
        v = view_of(rs, b)
        actor = b.combatants[v.decision.combatant]
        ag = agents[actor.side]
        action = ag.act(v)
        h.update(f"{v.decision}|{v.legal_ids}|{action.text(b.ids, actor.slot)}|"
                 f"{ag.last_reason}\n".encode())
        rs.apply(b, action)
        decisions += 1
    final = [(c.id, c.hp, c.status, c.pos, sorted(c.ammo.items()), sorted(c.items.items()),
              sorted(c.crippled.items()), c.cond) for c in b.combatants]
    h.update(repr(final).encode())
    out: dict[str, object] = {"decisions": decisions, "rounds": b.round, "winner": b.winner,
                              "moves": h.hexdigest()}
    if not quiet:
        out["log"] = hashlib.sha256("\n".join(e.text() for e in b.log).encode()).hexdigest()
    return out


def cases() -> list[tuple[str, str, int, str]]:
    return [(r, s, seed, agent) for r in RULESETS for s in scenario_names()
            for agent, seeds in SEEDS.items() for seed in seeds]


def key(case: tuple[str, str, int, str]) -> str:
    return "/".join(map(str, case))


@pytest.fixture(scope="module")
def recorded() -> dict[str, dict[str, object]]:
    return json.loads(RECORD.read_text())


def test_every_case_is_recorded(recorded: dict[str, dict[str, object]]) -> None:
    assert sorted(recorded) == sorted(key(c) for c in cases())


@pytest.mark.parametrize("case", cases(), ids=key)
def test_fight_replays_as_recorded(case: tuple[str, str, int, str],
                                   recorded: dict[str, dict[str, object]]) -> None:
    assert fight_digest(*case) == recorded[key(case)]


@pytest.mark.parametrize("case", cases()[::3], ids=key)
def test_quiet_fight_plays_the_same(case: tuple[str, str, int, str],
                                    recorded: dict[str, dict[str, object]]) -> None:
    want = {k: v for k, v in recorded[key(case)].items() if k != "log"}
    assert fight_digest(*case, quiet=True) == want


if __name__ == "__main__":
    RECORD.write_text(json.dumps({key(c): fight_digest(*c) for c in cases()}, indent=1) + "\n")
    print(f"recorded {len(cases())} fights in {RECORD}")
