"""The batched env (wasteland/envs/batched.py, wasteland/training/batched.py; issue 25): the
same observations, masks and rewards as the single env and the AEC env for the same seeds,
in one process or spread over workers, with SB3's and Gymnasium's vector APIs on top."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.envs.batched import BatchedVectorEnv, BattleBatch
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.rules.errors import WastelandError

SETUPS = [("pnp", "vault_corridor"), ("f2d20", "ruined_street"), ("simple", "vault_corridor")]


def make(ruleset: str, scenario: str) -> SingleAgentEnv:
    return SingleAgentEnv(scenario=scenario, ruleset=ruleset, opponents="packet",
                          reward_shaping=0.1)


def pick(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


@pytest.mark.parametrize(("ruleset", "scenario"), SETUPS)
def test_a_batch_steps_like_its_envs_one_by_one(ruleset: str, scenario: str) -> None:
    n = 3
    batch = BattleBatch([partial(make, ruleset, scenario) for _ in range(n)])
    alone = [make(ruleset, scenario) for _ in range(n)]
    batch.seed(11)
    batch.reset()
    for i, env in enumerate(alone):
        obs, _ = env.reset(seed=11 + i)
        assert np.array_equal(batch.a.obs[i], obs)
        assert np.array_equal(batch.a.masks[i], env.action_masks())
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        acts = pick(rng, batch.a.masks)
        done = dict(batch.step(acts))
        for i, env in enumerate(alone):
            obs, r, term, trunc, _ = env.step(int(acts[i]))
            assert batch.a.rewards[i] == np.float32(r)
            assert (batch.a.terminated[i], batch.a.truncated[i]) == (term, trunc)
            if term or trunc:
                assert np.array_equal(done[i]["terminal_observation"], obs)
                obs, _ = env.reset()
                ended += 1
            else:
                assert i not in done
            assert np.array_equal(batch.a.obs[i], obs)
            assert np.array_equal(batch.a.masks[i], env.action_masks())
    assert ended >= 1
    batch.close()


@pytest.mark.parametrize(("ruleset", "scenario"), SETUPS)
def test_a_batch_sees_what_the_aec_env_shows(ruleset: str, scenario: str) -> None:
    """Replaying each finished battle's moves through combat_v0 (same battle seed) gives
    the batch's observation and mask at every learner decision, and the same outcome."""
    n = 2
    batch = BattleBatch([partial(make, ruleset, scenario) for _ in range(n)])
    batch.seed(5)
    batch.reset()
    seen: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(n)]
    finished = []
    rng = np.random.default_rng(1)
    while len(finished) < 3:
        battles = [env.battle for env in batch.envs]
        acts = pick(rng, batch.a.masks)
        for i in range(n):
            seen[i].append((batch.a.obs[i].copy(), batch.a.masks[i].copy(), int(acts[i])))
        for i, _info in batch.step(acts):
            finished.append((battles[i], seen[i], float(batch.a.rewards[i])))
            seen[i] = []
    for battle, views, last_reward in finished:
        aec = combat_v0.env(ruleset=ruleset, scenario=scenario)
        aec.reset(options={"battle_seed": battle.seed})
        raw = aec.unwrapped
        learner = {c.slot for c in battle.combatants if c.side == 0}
        k = 0
        for actor, action in battle.moves:
            assert raw._decision.combatant == actor
            if actor not in learner:  # the packet decided on the true battle, as the
                raw.ruleset.apply(raw.battle, action)  # GM's NPCs do: played as it chose
                raw._advance()
                continue
            # the learner's env ids (a move on stale knowledge is a goto in the history;
            # one refused leaves none, and the decision comes again: observe/fog.py)
            while True:
                agent = aec.agent_selection
                obs = aec.observe(agent)
                want_obs, want_mask, act = views[k]
                assert np.array_equal(obs["observation"], want_obs), k
                assert np.array_equal(obs["action_mask"].astype(bool), want_mask), k
                k += 1
                aec.step(act)
                if not raw.infos[agent].get("refused"):
                    break
        assert k == len(views) and raw.battle.over
        won = raw.battle.winner == 0
        assert (last_reward > 0.5) == won


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_fill_the_same_arrays_as_one_process(workers: int) -> None:
    fns = [partial(make, "f2d20", "ruined_street") for _ in range(4)]
    here, there = BattleBatch(fns), BattleBatch(fns, workers=workers)
    try:
        # this process steps the first share itself, a forked worker each of the others
        assert len(there.procs) == workers - 1 and len(there.envs) == there.shares[0][1]
        for b in (here, there):
            b.seed(3)
            b.reset()
        rng = np.random.default_rng(2)
        for _ in range(60):
            acts = pick(rng, here.a.masks)
            d1, d2 = here.step(acts), there.step(acts)
            assert [i for i, _ in d1] == [i for i, _ in d2]
            for name in ("obs", "masks", "rewards", "terminated", "truncated"):
                assert np.array_equal(getattr(here.a, name), getattr(there.a, name)), name
        assert there.get_attr("learner") == [0] * 4
        assert there.has_attr("action_masks") and not there.has_attr("no_such_thing")
        there.set_attr("tag", "x", indices=[0, 3])
        assert [getattr(e, "tag", None) for e in there.envs] == ["x"] + [None] * (len(there.envs) - 1)
        assert there.call("action_masks", indices=[3])[0].tolist() == here.a.masks[3].tolist()
    finally:
        here.close()
        there.close()


class Fails(SingleAgentEnv):
    """An env that raises in step once told to."""

    boom = False

    def step(self, action):  # type: ignore[no-untyped-def]
        if self.boom:
            raise RuntimeError("boom")
        return super().step(action)


def test_a_failure_in_this_process_leaves_the_workers_in_step() -> None:
    fns = [partial(Fails, scenario="vault_corridor", ruleset="pnp", opponents="packet")] * 4
    batch = BattleBatch(fns, workers=2)
    try:
        batch.seed(0)
        batch.reset()
        batch.set_attr("boom", True, indices=[0])
        with pytest.raises(RuntimeError, match="boom"):
            batch.step(pick(np.random.default_rng(0), batch.a.masks))
        # the workers' answers to that step were read: the next command gets its own
        assert batch.get_attr("boom") == [True, False, False, False]
    finally:
        batch.close()


def test_maskable_ppo_trains_on_the_batched_vec_env() -> None:
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from wasteland.training.batched import BatchedVecEnv

    vec = BatchedVecEnv([partial(make, "pnp", "vault_corridor") for _ in range(4)])
    try:
        assert is_masking_supported(vec)
        vec.seed(0)
        obs = vec.reset()
        masks = get_action_masks(vec)
        assert masks.shape == (4, vec.action_space.n) and masks.any(axis=1).all()
        model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=64, n_epochs=1, seed=0,
                            device="cpu")
        model.learn(256)
        assert model.num_timesteps == 256
        acts, _ = model.predict(obs, action_masks=get_action_masks(vec), deterministic=True)
        assert all(get_action_masks(vec)[i, a] for i, a in enumerate(acts))
    finally:
        vec.close()


def test_the_gymnasium_vector_api_resets_in_the_same_step() -> None:
    env = BatchedVectorEnv([partial(make, "pnp", "vault_corridor") for _ in range(3)])
    obs, info = env.reset(seed=0)
    assert obs.shape == (3, env.single_observation_space.shape[0])
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(0)
    finals = 0
    for _ in range(200):
        obs, rew, term, trunc, info = env.step(pick(rng, info["action_mask"]))
        if "_final_obs" in info:
            assert (info["_final_obs"] == (term | trunc)).all()
            finals += int(info["_final_obs"].sum())
    assert finals >= 1
    env.close()


@pytest.mark.parametrize(("n", "workers", "words"), [
    (0, 0, "1 to 4096 envs"), (2, -1, "workers must be"), (2, True, "workers must be")])
def test_bad_batch_arguments_are_one_line(n: int, workers: int, words: str) -> None:
    with pytest.raises(WastelandError, match=words):
        BattleBatch([partial(make, "pnp", "vault_corridor")] * n, workers)


def test_a_wrong_number_of_actions_is_one_line() -> None:
    batch = BattleBatch([partial(make, "pnp", "vault_corridor")] * 2)
    batch.reset()
    with pytest.raises(WastelandError, match="3 actions for 2 envs"):
        batch.step(np.zeros(3, dtype=np.int64))
