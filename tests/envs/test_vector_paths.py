"""The standard vector paths on the registered id (issue 42): SB3's make_vec_env,
gymnasium.make_vec to the batched env through the vector entry point, the batched env over
makers wrapped by gymnasium.make or SB3's Monitor, and RecordVideo writing a fight."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.monitor import Monitor

from wasteland.envs import ENV_ID, SingleAgentEnv
from wasteland.envs.batched import BatchedVectorEnv, BattleBatch
from wasteland.observe.encoding import OBS_SIZE
from wasteland.rules.actions import N_ACTIONS
from wasteland.rules.errors import WastelandError
from wasteland.training.batched import BatchedVecEnv


def pick(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int64)


def test_make_vec_env_on_the_registered_id() -> None:
    vec = make_vec_env(ENV_ID, n_envs=2, seed=0)  # asks for render_mode="rgb_array"
    try:
        obs = vec.reset()
        assert obs.shape == (2, OBS_SIZE)
        assert vec.get_attr("render_mode") == ["rgb_array", "rgb_array"]
        rng = np.random.default_rng(0)
        for _ in range(5):
            masks = np.array(vec.env_method("action_masks"))
            assert masks.shape == (2, N_ACTIONS) and masks.any(axis=1).all()
            obs, rewards, dones, infos = vec.step(pick(rng, masks))
            assert not any(i.get("illegal_action") for i in infos)
        frames = vec.get_images()
        assert [f.shape[2] for f in frames] == [3, 3] and frames[0].dtype == np.uint8
    finally:
        vec.close()


@pytest.mark.parametrize("mode", [None, "vector_entry_point"])
def test_make_vec_returns_the_batched_env(mode: str | None) -> None:
    vec = gymnasium.make_vec(ENV_ID, num_envs=64, vectorization_mode=mode, scenario="duel",
                             ruleset="f2d20")
    try:
        assert isinstance(vec, BatchedVectorEnv) and vec.num_envs == 64
        assert vec.spec is not None and vec.spec.id == ENV_ID
        obs, info = vec.reset(seed=3)
        # each battle is the single-agent env of the id's kwargs, seeded seed + i
        for i in (0, 63):
            single, _ = SingleAgentEnv(scenario="duel", ruleset="f2d20").reset(seed=3 + i)
            assert np.array_equal(obs[i], single)
        rng = np.random.default_rng(1)
        for _ in range(3):
            obs, rewards, term, trunc, info = vec.step(pick(rng, info["action_mask"]))
        assert obs.shape == (64, OBS_SIZE) and info["action_mask"].shape == (64, N_ACTIONS)
    finally:
        vec.close()


def test_make_vec_passes_workers_and_render_mode_to_the_batch() -> None:
    vec = gymnasium.make_vec(ENV_ID, num_envs=3, workers=2, scenario="duel",
                             render_mode="rgb_array")
    try:
        assert vec.batch.workers == 2
        vec.reset(seed=0)
        frames = vec.render()
        assert len(frames) == 3 and all(f.dtype == np.uint8 and f.ndim == 3 for f in frames)
    finally:
        vec.close()
    with pytest.raises(WastelandError, match="unknown ruleset"):
        gymnasium.make_vec(ENV_ID, num_envs=2, ruleset="gurps")


def made(ruleset: str) -> SingleAgentEnv:
    return SingleAgentEnv(scenario="duel", ruleset=ruleset)


def through_make(ruleset: str) -> gymnasium.Env:
    return gymnasium.make(ENV_ID, scenario="duel", ruleset=ruleset)


def in_monitor(ruleset: str) -> gymnasium.Env:
    return Monitor(SingleAgentEnv(scenario="duel", ruleset=ruleset))


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("maker", [through_make, in_monitor])
def test_the_batch_takes_wrapped_makers_and_keeps_the_monitor(maker, workers: int) -> None:
    bare = BattleBatch([partial(made, "pnp")] * 4)
    wrapped = BatchedVecEnv([partial(maker, "pnp")] * 4, workers=workers)
    try:
        bare.seed(7)
        bare.reset()
        wrapped.seed(7)
        obs = wrapped.reset()
        rng = np.random.default_rng(2)
        episodes = []
        for _ in range(60):
            assert np.array_equal(obs, bare.a.obs)
            assert np.array_equal(wrapped.action_masks(), bare.a.masks)
            acts = pick(rng, bare.a.masks)
            bare.step(acts)
            obs, rewards, dones, infos = wrapped.step(acts)
            episodes += [i["episode"] for i, d in zip(infos, dones) if d and "episode" in i]
        if maker is in_monitor:  # what the Monitor counted came back with the ended battles
            assert episodes and all(set(e) >= {"r", "l", "t"} for e in episodes)
            assert wrapped.env_is_wrapped(Monitor) == [True] * 4
        else:
            assert wrapped.env_is_wrapped(Monitor) == [False] * 4
    finally:
        bare.close()
        wrapped.close()


class NoMask(gymnasium.Env):
    """The single-agent env's spaces, but no action_masks()."""

    def __init__(self) -> None:
        env = SingleAgentEnv(scenario="duel")
        self.observation_space, self.action_space = env.observation_space, env.action_space


@pytest.mark.parametrize("maker, why", [
    (lambda: gymnasium.make("CartPole-v1"), "observation space"),
    (lambda: Monitor(NoMask()), "no action_masks"),
])
def test_a_maker_the_batch_cannot_take_is_one_line(maker, why: str) -> None:
    with pytest.raises(WastelandError) as err:
        BattleBatch([maker])
    msg = str(err.value)
    assert "\n" not in msg and why in msg and "takes makers of envs with action_masks()" in msg


def test_a_worker_that_cannot_make_its_envs_answers_in_one_line() -> None:
    batch = BattleBatch([partial(made, "pnp"), lambda: gymnasium.make("CartPole-v1")],
                        workers=2)
    try:
        for _ in range(2):  # the worker stays in step: each command gets its answer
            with pytest.raises(WastelandError) as err:
                batch.reset()
            assert "\n" not in str(err.value) and "observation space" in str(err.value)
    finally:
        batch.close()
    assert not any(p.is_alive() for p in batch.procs)


def test_record_video_writes_a_playable_fight(tmp_path: Path) -> None:
    pytest.importorskip("moviepy")
    from moviepy import VideoFileClip

    env = gymnasium.make(ENV_ID, scenario="duel", render_mode="rgb_array")
    folder = tmp_path / "videos"  # a new folder: RecordVideo warns when it overwrites
    env = gymnasium.wrappers.RecordVideo(env, str(folder), episode_trigger=lambda e: True)
    obs, info = env.reset(seed=4)
    first = env.unwrapped.render()
    rng = np.random.default_rng(4)
    frames = 1
    while True:
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        frames += 1
        if term or trunc:
            break
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].read_bytes()[4:8] == b"ftyp"  # an MP4 container
    clip = VideoFileClip(str(videos[0]))
    try:
        shot = list(clip.iter_frames())
        assert abs(len(shot) - frames) <= 1 and shot[0].shape == first.shape
        # the same picture, but for what the codec loses
        assert np.abs(shot[0].astype(int) - first.astype(int)).mean() < 8
    finally:
        clip.close()
