"""Registered tasks (issue 42, item 4): every seat of the benchmark suite is a Gymnasium id
``Wasteland/<Family><Map>-<ruleset>-v<N>`` that gymnasium.make builds, with the learner in
the creatures' seat and packets on the rest; each task's definition has a hash held in
task_hashes.json, so a task changed without a new version fails here."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import wasteland.envs  # noqa: F401  (registers the tasks)
from wasteland.bestiary.suite import FAMILIES, load_suite
from wasteland.envs.tasks import MirrorSeatEnv, Task, camel, family_word, tasks

TABLE = Path(__file__).with_name("task_hashes.json")
TASKS = tasks()
IDS = [t.id for t in TASKS]
NAME = re.compile(r"Wasteland/(Radscorpion|SuperMutant|Robot)([A-Z][a-z]+)+-(pnp|simple|f2d20)-v\d+")


def test_every_seat_of_the_suite_is_a_registered_task_named_by_the_rule():
    seats = load_suite()
    assert len(TASKS) == len(seats) == 45
    assert sorted(t.seat.id for t in TASKS) == sorted(s.id for s in seats)
    assert len(set(IDS)) == len(IDS)
    for t in TASKS:
        s = t.seat
        assert NAME.fullmatch(t.id), t.id
        assert t.id == (f"Wasteland/{family_word(s.family)}{camel(s.map)}-{s.ruleset}"
                        f"-v{t.version}")
        assert t.id in gymnasium.registry
    assert "Wasteland/RadscorpionDuel-f2d20-v0" in IDS
    assert "Wasteland/SuperMutantRuinedStreet-pnp-v0" in IDS
    assert {t.seat.kind for t in TASKS} == {"built-in", "held-out", "mirror"}


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_make_reset_and_a_few_masked_steps(task: Task):
    env = gymnasium.make(task.id)
    inner = env.unwrapped
    s = task.seat
    assert isinstance(inner, MirrorSeatEnv) == (s.side is None)
    kw = env.spec.kwargs
    assert (kw["opponents"], kw["allies"], kw["sight"]) == ("packet", "packet", "own")
    assert (kw["reward_shaping"], kw["draw_reward"]) == (0.0, 0.0)
    assert kw.get("learner") == s.side and kw["learner_kinds"] == list(FAMILIES[s.family])
    obs, info = env.reset(seed=0)
    side = info.get("learner_side", s.side)
    env_side = inner.env if isinstance(inner, MirrorSeatEnv) else inner
    assert env_side.learner == side
    b = env_side.battle
    kinds = set(FAMILIES[s.family])
    mine = {c.slot for c in b.combatants if c.side == side and c.creature.id in kinds}
    assert set(env_side.learner_slots) == mine and mine
    assert b.ruleset == s.ruleset and b.scenario.id == s.load().id
    rng = np.random.default_rng(0)
    for _ in range(3):
        assert obs in env.observation_space
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            obs, info = env.reset()
    env.close()


def test_a_mirror_task_seats_the_learner_on_both_sides():
    env = gymnasium.make("Wasteland/RobotMirror-pnp-v0")
    sides = {env.reset(seed=k)[1]["learner_side"] for k in range(12)}
    assert sides == {0, 1}
    a = [env.reset(seed=5)[0] for _ in range(2)]
    assert np.array_equal(a[0], a[1])  # a seed gives the same side and battle


def test_make_vec_on_a_task_gives_the_batched_env_on_the_tasks_seat():
    from wasteland.envs.batched import BatchedVectorEnv

    vec = gymnasium.make_vec("Wasteland/RadscorpionDuel-f2d20-v0", num_envs=2)
    try:
        assert isinstance(vec, BatchedVectorEnv)
        obs, info = vec.reset(seed=3)
        single = gymnasium.make("Wasteland/RadscorpionDuel-f2d20-v0")
        first, _ = single.reset(seed=3)
        assert np.array_equal(obs[0], first)  # the same seat, the same first observation
        single.close()
    finally:
        vec.close()


def test_each_tasks_definition_is_the_one_recorded_for_its_version():
    """Changing a task (its map, line-up, learner, opponents, reward, observation, sight or
    round limit) changes its hash: give it a new version (VERSIONS in
    wasteland/envs/tasks.py) and record the new id's hash beside the old ones, never
    change a recorded hash (docs/tasks.md, "Versions")."""
    recorded = json.loads(TABLE.read_text())
    for t in TASKS:
        assert t.id in recorded, (f"{t.id} is not in {TABLE.name}: a new task or a new "
                                  f"version; add its hash {t.definition_hash()}")
        assert recorded[t.id] == t.definition_hash(), (
            f"{t.id}'s definition changed (hash {t.definition_hash()}, recorded "
            f"{recorded[t.id]}): bump its version in wasteland/envs/tasks.py VERSIONS and "
            f"add the new id's hash to {TABLE.name}; do not change a recorded hash")


def test_the_hash_moves_with_what_a_task_is(tmp_path: Path):
    t = next(t for t in TASKS if t.id == "Wasteland/RadscorpionDuel-pnp-v0")
    h = t.definition_hash()
    text = t.seat.scenario.read_text()
    moved = {}
    edits = {"line-up": text.replace("creature: radscorpion", "creature: giant_radscorpion", 1),
             "map": text.replace("#........#", "#.......##", 1),
             "round limit": re.sub(r"max_rounds: \d+", "max_rounds: 7", text),
             "comment only": "# a comment\n" + text}
    for what, edited in edits.items():
        assert edited != text, what
        path = tmp_path / f"{len(moved)}.yaml"
        path.write_text(edited)
        moved[what] = Task(replace(t.seat, scenario=path), 0).definition_hash() != h
    other_side = Task(replace(t.seat, side=0), 0).definition_hash() != h
    assert moved == {"line-up": True, "map": True, "round limit": True, "comment only": False}
    assert other_side
