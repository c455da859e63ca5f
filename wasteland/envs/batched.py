"""Many single-agent battles stepped as one batch, into preallocated arrays.

``BattleBatch`` holds N Gymnasium envs that have ``action_masks()`` (SingleAgentEnv,
the training league's LeagueEnv) and steps them all at once: the actions come from one
int64 array, and each env writes its observation, mask, reward and done flags into its
row of preallocated arrays, resetting itself when its battle ends (the last observation of
the finished battle goes to that env's info as ``terminal_observation``). The opponents'
and allies' decisions (packet, scripted, league snapshots) happen inside each env's step,
so one batch step is one learner decision in every battle.

With ``workers`` > 1 the envs are split into that many shares stepped in parallel: this
process steps the first, a forked worker process each of the others, all writing into the
same arrays in shared memory: one message per worker per batch step, not one per env, and
only the finished battles' infos travel back. This is how a batch uses both cores of the
machine; ``workers`` 0 or 1 steps everything in this process.

Two faces on top: ``wasteland.training.batched.BatchedVecEnv`` (stable-baselines3's
VecEnv, with ``action_masks()`` for MaskablePPO) and ``BatchedVectorEnv`` below
(Gymnasium's vector API, autoreset in the same step).
"""

from __future__ import annotations

import mmap
import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from wasteland.rules.actions import N_ACTIONS
from wasteland.rules.errors import WastelandError

from .encoding import OBS_SIZE, observation_box
from .errors import EnvArgumentTypeError

EnvFn = Callable[[], Any]
MAX_BATCH = 4096
MAX_WORKERS = 64


class _Arrays:
    """The batch's buffers, laid out one after another in one block of memory: anonymous
    shared memory (``mmap(-1)``) when worker processes share them, which a forked worker
    inherits with no file or /dev/shm entry to clean up."""

    FIELDS: tuple[tuple[str, Any, int], ...] = (("obs", np.float32, OBS_SIZE), ("masks", np.bool_, N_ACTIONS),
              ("rewards", np.float32, 0), ("terminated", np.bool_, 0),
              ("truncated", np.bool_, 0), ("actions", np.int64, 0))

    def __init__(self, n: int, shared: bool = False) -> None:
        sizes = []
        for _name, dtype, width in self.FIELDS:
            nbytes = n * max(1, width) * np.dtype(dtype).itemsize
            sizes.append(-(-nbytes // 8) * 8)  # each field 8-byte aligned
        total = sum(sizes)
        self.block: Any = mmap.mmap(-1, total) if shared else bytearray(total)
        at = 0
        for (name, dtype, width), size in zip(self.FIELDS, sizes):
            shape = (n, width) if width else (n,)
            count = int(np.prod(shape))
            setattr(self, name, np.frombuffer(self.block, dtype=dtype, count=count,
                                              offset=at).reshape(shape))
            at += size

    obs: np.ndarray
    masks: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    actions: np.ndarray


def _write(a: _Arrays, i: int, env: Any, obs: np.ndarray) -> None:
    a.obs[i] = obs
    a.masks[i] = env.action_masks()


def _reset(envs: Sequence[Any], a: _Arrays, lo: int, seeds: Sequence[int | None],
           options: dict[str, Any] | None) -> list[dict[str, Any]]:
    infos = []
    for k, env in enumerate(envs):
        obs, info = env.reset(seed=seeds[k], options=options)
        info.pop("action_mask", None)
        _write(a, lo + k, env, obs)
        infos.append(info)
    return infos


def _step(envs: Sequence[Any], a: _Arrays, lo: int) -> list[tuple[int, dict[str, Any]]]:
    """Step env ``k`` with ``actions[lo + k]``; the infos of the battles that ended."""
    ended = []
    acts = a.actions
    for k, env in enumerate(envs):
        i = lo + k
        obs, reward, term, trunc, info = env.step(int(acts[i]))
        a.rewards[i] = reward
        a.terminated[i] = term
        a.truncated[i] = trunc
        if term or trunc:
            info.pop("action_mask", None)
            info["terminal_observation"] = np.array(obs, dtype=np.float32)
            info["TimeLimit.truncated"] = bool(trunc and not term)
            obs, reset_info = env.reset()
            info["reset_info"] = {k2: v for k2, v in reset_info.items() if k2 != "action_mask"}
            ended.append((i, info))
        _write(a, i, env, obs)
    return ended


def _call(envs: Sequence[Any], lo: int, indices: Sequence[int], name: str, args: tuple[Any, ...],
          kwargs: dict[str, Any], attr: bool) -> list[Any]:
    out = []
    for i in indices:
        env = envs[i - lo]
        if attr:
            out.append(getattr(env, name))
        else:
            out.append(getattr(env, name)(*args, **kwargs))
    return out


def _worker(remote: Any, parent: Any, env_fns: Sequence[EnvFn], lo: int, a: _Arrays) -> None:
    parent.close()
    envs = [fn() for fn in env_fns]
    try:
        while True:
            cmd, data = remote.recv()
            if cmd == "step":
                remote.send(_step(envs, a, lo))
            elif cmd == "reset":
                seeds, options = data
                remote.send(_reset(envs, a, lo, seeds, options))
            elif cmd == "has":
                remote.send(all(hasattr(env, data) for env in envs))
            elif cmd in ("call", "attr"):
                indices, name, args, kwargs = data
                remote.send(_call(envs, lo, indices, name, args, kwargs, cmd == "attr"))
            elif cmd == "set":
                indices, name, value = data
                for i in indices:
                    setattr(envs[i - lo], name, value)
                remote.send(None)
            elif cmd == "close":
                for env in envs:
                    env.close()
                remote.send(None)
                break
    except (EOFError, KeyboardInterrupt):
        pass
    except Exception as e:  # noqa: BLE001 - reported to the parent as one line
        remote.send(("error", f"{type(e).__name__}: {e}"))


class BattleBatch:
    """N envs from ``env_fns`` stepped together (see the module docstring). ``workers``:
    processes that step them in parallel, this one included: the batch is cut into that
    many contiguous shares, this process steps the first and a forked worker each of the
    others (0 or 1: all of them here)."""

    def __init__(self, env_fns: Sequence[EnvFn], workers: int = 0) -> None:
        n = len(env_fns)
        if not 1 <= n <= MAX_BATCH:
            raise WastelandError(f"a batch holds 1 to {MAX_BATCH} envs, got {n}")
        if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= MAX_WORKERS:
            raise WastelandError(f"workers must be a whole number from 0 to {MAX_WORKERS}, "
                                 f"got {workers!r}")
        self.n = n
        self.workers = min(workers, n)
        self.closed = False
        self.observation_space = observation_box()
        self.action_space: spaces.Discrete = spaces.Discrete(N_ACTIONS)
        self._seeds: list[int | None] = [None] * n
        self._options: dict[str, Any] | None = None
        self.remotes: list[Any] = []
        self.procs: list[Any] = []
        # This process steps the first share while the workers step theirs: it would
        # otherwise sleep through every step, and each worker woken costs a wake-up (on
        # two cores, a third busy process is one too many).
        # Forked: the workers inherit the shared arrays and the env makers as they are
        # (nothing pickled); they are made before any trainer thread starts.
        shares = max(1, self.workers)
        self.a = _Arrays(n, shared=shares > 1)
        bounds = np.linspace(0, n, shares + 1).astype(int)
        self.shares = [(int(bounds[w]), int(bounds[w + 1])) for w in range(shares)]
        ctx = mp.get_context("fork")
        for lo, hi in self.shares[1:]:
            remote, child = ctx.Pipe()
            p = ctx.Process(target=_worker, args=(child, remote, list(env_fns[lo:hi]), lo,
                                                  self.a), daemon=True)
            p.start()
            child.close()
            self.remotes.append(remote)
            self.procs.append(p)
        lo, hi = self.shares[0]
        self.envs = [fn() for fn in env_fns[lo:hi]]

    # --- batch operations ---------------------------------------------------------------
    def _gather(self) -> list[Any]:
        out = []
        for r in self.remotes:
            got = r.recv()
            if isinstance(got, tuple) and len(got) == 2 and got[0] == "error":
                raise WastelandError(f"batched env worker failed: {got[1]}")
            out.append(got)
        return out

    def _here(self, fn: Callable[..., list[Any]], *args: Any) -> list[Any]:
        """This process's share of a command the workers were sent: should it fail, their
        answers are read first, so the pipes stay in step for the next command."""
        try:
            return fn(*args)
        except BaseException:
            try:
                self._gather()
            except WastelandError:
                pass
            raise

    def seed(self, seed: int | None) -> None:
        """The next reset seeds env ``i`` with ``seed + i`` (SB3's convention)."""
        self._seeds = [None if seed is None else int(seed) + i for i in range(self.n)]

    def reset(self, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        seeds, self._seeds = self._seeds, [None] * self.n
        for r, (lo, hi) in zip(self.remotes, self.shares[1:]):
            r.send(("reset", (seeds[lo:hi], options)))
        lo, hi = self.shares[0]
        here = self._here(_reset, self.envs, self.a, lo, seeds[lo:hi], options)
        return here + [info for part in self._gather() for info in part]

    def step(self, actions: np.ndarray) -> list[tuple[int, dict[str, Any]]]:
        """Step every env with ``actions``; the (index, info) of each battle that ended."""
        acts = np.asarray(actions).reshape(-1)
        if acts.shape != (self.n,):
            raise WastelandError(f"{acts.shape[0]} actions for {self.n} envs")
        if acts.dtype.kind not in "iu":  # a float would be cut to an integer without a word
            raise EnvArgumentTypeError(f"actions must be integers (action ids 0..{N_ACTIONS - 1}),"
                                       f" got an array of {acts.dtype}")
        self.a.actions[:] = acts
        for r in self.remotes:
            r.send(("step", None))
        here = self._here(_step, self.envs, self.a, self.shares[0][0])
        return here + [e for part in self._gather() for e in part]

    def _split(self, indices: Sequence[int] | None) -> list[list[int]]:
        idx = list(range(self.n)) if indices is None else [int(i) for i in indices]
        return [[i for i in idx if lo <= i < hi] for lo, hi in self.shares]

    def _ask(self, cmd: str, parts: list[list[int]], name: str, args: tuple[Any, ...],
             kwargs: dict[str, Any]) -> list[Any]:
        for r, part in zip(self.remotes, parts[1:]):
            r.send((cmd, (part, name, args, kwargs)))
        here = self._here(_call, self.envs, self.shares[0][0], parts[0], name, args, kwargs,
                          cmd == "attr")
        return here + [x for part in self._gather() for x in part]

    def call(self, name: str, *args: Any, indices: Sequence[int] | None = None,
             **kwargs: Any) -> list[Any]:
        return self._ask("call", self._split(indices), name, args, kwargs)

    def get_attr(self, name: str, indices: Sequence[int] | None = None) -> list[Any]:
        return self._ask("attr", self._split(indices), name, (), {})

    def has_attr(self, name: str) -> bool:
        """Whether every env has ``name``, asked where the envs live."""
        for r in self.remotes:
            r.send(("has", name))
        here = all(hasattr(env, name) for env in self.envs)
        return all(self._gather()) and here

    def set_attr(self, name: str, value: Any, indices: Sequence[int] | None = None) -> None:
        parts = self._split(indices)
        for r, part in zip(self.remotes, parts[1:]):
            r.send(("set", (part, name, value)))
        lo = self.shares[0][0]
        for i in parts[0]:
            setattr(self.envs[i - lo], name, value)
        self._gather()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for env in self.envs:
            env.close()
        for r in self.remotes:
            try:
                r.send(("close", None))
                r.recv()
            except (EOFError, BrokenPipeError, OSError):
                pass
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.terminate()


class BatchedVectorEnv(gymnasium.vector.VectorEnv):
    """Gymnasium's vector API over a BattleBatch: ``step`` returns the batch's arrays
    (copies), and ``infos["action_mask"]`` the masks; a battle that ends is reset in the
    same step (``autoreset_mode`` SAME_STEP), its last observation in
    ``infos["final_obs"]`` where ``infos["_final_obs"]`` is set."""

    metadata: dict[str, Any] = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, env_fns: Sequence[EnvFn], workers: int = 0) -> None:
        self.batch = BattleBatch(env_fns, workers)
        self.num_envs = self.batch.n
        self.single_observation_space = self.batch.observation_space
        self.single_action_space = self.batch.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(
            self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            self.batch._seeds = list(seed)
        else:
            self.batch.seed(seed)
        self.batch.reset(options)
        return self.batch.a.obs.copy(), {"action_mask": self.batch.a.masks.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        ended = self.batch.step(np.asarray(actions))
        a = self.batch.a
        infos: dict[str, Any] = {"action_mask": a.masks.copy()}
        if ended:
            final = np.zeros_like(a.obs)
            flag = np.zeros(self.num_envs, dtype=np.bool_)
            for i, info in ended:
                final[i] = info["terminal_observation"]
                flag[i] = True
            infos["final_obs"], infos["_final_obs"] = final, flag
        return (a.obs.copy(), a.rewards.copy(), a.terminated.copy(), a.truncated.copy(), infos)

    def action_masks(self) -> np.ndarray:
        return self.batch.a.masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()
