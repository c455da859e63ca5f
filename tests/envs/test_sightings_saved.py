"""What combatants have seen (observation v1's memory, observe/memory.py) belongs to the
observer, not the battle: the env holds it, a copy of the env carries it, a save keeps it
as the env's part (``state.extra.sightings``, where saves made while it lived in the
battle's dict have it) and loading gives it back; no rule makes it, so the history cannot
check it: a crafted one is refused in one line naming what is accepted."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.observe import memory
from wasteland.observe.encoding import Encoder
from wasteland.rules import saves
from wasteland.rules.errors import SaveError

# saved by the code before the memory left battle.extra (the env of ``played()``), with
# each agent's observation then: sha256 of its bytes, first 16 hex digits
OLD = Path(__file__).parent.parent / "data" / "saves" / "sightings_before_memory.json"
OLD_DIGESTS = ["9352e5bd0784217c", "a5eee58eb86ad6ab", "412722a505802310", "5bdf15b8b3c1a38c",
               "30103649a928f048", "0c0de0f0895ea992", "1139ec6c5b40dfbc", "6736ae279721f7b7"]


def played(seed: int = 2, steps: int = 40):  # type: ignore[no-untyped-def]
    env = combat_v0.env(ruleset="pnp", scenario="ruined_street")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _, _agent in zip(range(steps), env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env.unwrapped


def digest(x: np.ndarray) -> str:
    return hashlib.sha256(x.tobytes()).hexdigest()[:16]


def test_the_memory_is_the_envs_and_not_the_battles() -> None:
    raw = played()
    assert not hasattr(raw.battle, "sightings") and "sightings" not in raw.battle.extra_json()
    assert raw.memory is not None and any(r is not None for row in raw.memory.rows for r in row)


def test_a_save_made_before_the_memory_left_the_battle_resumes_as_it_was() -> None:
    """The save is the one today's env writes, byte for byte; loaded, its memory gives
    every combatant the observation it had when it was written."""
    raw = played()
    text = OLD.read_text()
    assert saves.dumps(raw.battle, raw.save_parts()) == text
    b, mem = memory.loads(text)
    enc = Encoder(b, raw.ruleset, memory=mem)
    me = raw._decision.combatant
    dec = raw.ruleset.decider(b)
    got = [digest(enc.observe(i, dec if i == me else None, look=False))
           for i in range(len(b.combatants))]
    assert got == OLD_DIGESTS
    # without its memory the same battle is observed otherwise: the part carries something
    bare = Encoder(saves.loads(text), raw.ruleset)
    assert [digest(bare.observe(i)) for i in range(len(b.combatants))] != OLD_DIGESTS


def test_a_save_keeps_what_each_combatant_has_seen() -> None:
    raw = played(seed=5)
    b, mem = memory.loads(saves.dumps(raw.battle, raw.save_parts()))
    assert mem.to_json() == json.loads(json.dumps(raw.memory.to_json()))
    me = raw._decision.combatant
    here, there = Encoder(raw.battle, raw.ruleset, memory=raw.memory), Encoder(b, raw.ruleset,
                                                                               memory=mem)
    assert np.array_equal(here.observe(me), there.observe(me))


@pytest.mark.parametrize("bad", [
    "junk", [["x"]], [[[5, 0, "hp"]]], [[[5, 9999, [0.5]]]], [[[-1, 0, [0.5]]]],
    [[[5, 0, [7.0] * 20]]], [[[5, 0, [0.5] * 21]]], [[[5, 0, [0.5]]]], [[None] * 11],
    [[[24 * 14, 0, [0.5] * 20]]],  # one square past the ruined street's 24 x 14
    [[[5, 9999, [0.5] * 20]]],  # a round still to come
])
def test_crafted_sightings_are_one_line(bad, tmp_path) -> None:  # type: ignore[no-untyped-def]
    raw = played()
    d = json.loads(saves.dumps(raw.battle, raw.save_parts()))
    d["state"]["extra"]["sightings"] = bad
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(d))
    for load in (lambda: memory.loads(json.dumps(d)), lambda: memory.load(path),
                 lambda: memory.load_part(path, saves.load(path))):
        with pytest.raises(SaveError) as e:
            load()
        msg = str(e.value)
        assert "\n" not in msg and "state.extra.sightings" in msg
        assert "accepted" in msg or "is not null or [square on the" in msg


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_an_env_copied_mid_fight_keeps_its_memory(how: str) -> None:
    """A copy of the env observes what the env does at every later decision: its memory
    came with it, and is its own from then on."""
    raw = played(seed=3, steps=30)
    twin = copy.deepcopy(raw) if how == "deepcopy" else pickle.loads(pickle.dumps(raw))
    assert twin.memory is not raw.memory and twin.memory.rows == raw.memory.rows
    assert twin._enc.memory is twin.memory  # the copy's encoder remembers in the copy's
    rng = np.random.default_rng(1)
    for _ in range(25):
        if raw._decision is None:
            break
        agent = raw.agent_selection
        mine, theirs = raw.observe(agent), twin.observe(agent)
        assert mine["observation"].tobytes() == theirs["observation"].tobytes()
        assert mine["action_mask"].tobytes() == theirs["action_mask"].tobytes()
        a = int(rng.choice(np.flatnonzero(mine["action_mask"])))
        raw.step(a)
        twin.step(a)
    assert twin.memory.rows == raw.memory.rows
