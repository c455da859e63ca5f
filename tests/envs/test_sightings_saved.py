"""What combatants have seen (observation v1's memory, ``battle.sightings``) is
kept in a save and comes back on loading; no rule makes it, so the history cannot check
it: a crafted one is refused in one line naming what is accepted."""

from __future__ import annotations

import json

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.observe.encoding import Encoder
from wasteland.rules import saves
from wasteland.rules.errors import SaveError


def played(seed: int = 2, steps: int = 40):  # type: ignore[no-untyped-def]
    env = combat_v0.env(ruleset="pnp", scenario="ruined_street")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _, _agent in zip(range(steps), env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env.unwrapped


def test_a_save_keeps_what_each_combatant_has_seen() -> None:
    raw = played()
    b = raw.battle
    assert b.sightings
    back = saves.loads(saves.dumps(b))
    assert back.sightings == json.loads(json.dumps(b.sightings))
    me = raw._decision.combatant
    here, there = Encoder(b, raw.ruleset), Encoder(back, raw.ruleset)
    assert np.array_equal(here.observe(me), there.observe(me))


@pytest.mark.parametrize("bad", [
    "junk", [["x"]], [[[5, 0, "hp"]]], [[[5, 9999, [0.5]]]], [[[-1, 0, [0.5]]]],
    [[[5, 0, [7.0] * 20]]], [[[5, 0, [0.5] * 21]]], [[[5, 0, [0.5]]]], [[None] * 11],
    [[[24 * 14, 0, [0.5] * 20]]],  # one square past the ruined street's 24 x 14
])
def test_crafted_sightings_are_one_line(bad) -> None:  # type: ignore[no-untyped-def]
    b = played().battle
    d = json.loads(saves.dumps(b))
    d["state"]["extra"]["sightings"] = bad
    with pytest.raises(SaveError) as e:
        saves.loads(json.dumps(d))
    msg = str(e.value)
    assert "\n" not in msg and "state.extra.sightings" in msg
    assert "accepted" in msg or "is not null or [square on the" in msg
