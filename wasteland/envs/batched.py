"""Many single-agent battles stepped as one batch, into preallocated arrays.

``BattleBatch`` holds N Gymnasium envs that have ``action_masks()`` (SingleAgentEnv,
the training league's LeagueEnv), bare or inside Gymnasium wrappers (what
``gymnasium.make`` adds: OrderEnforcing, PassiveEnvChecker, TimeLimit) or SB3's
``Monitor``, and steps them all at once: each env is stepped through its wrappers, so a
Monitor records its episodes (its ``episode`` info comes back with the battle that ended)
and a TimeLimit cuts them, while the mask is read from the first env down the chain that
has ``action_masks()``, as those wrappers do not pass it on. The actions come from one
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

from wasteland.observe.encoding import OBS_SIZE, observation_box
from wasteland.rules.actions import N_ACTIONS
from wasteland.rules.errors import WastelandError

from .errors import EnvArgumentTypeError

EnvFn = Callable[[], Any]
MAX_BATCH = 4096
MAX_WORKERS = 64
MAX_WRAPPERS = 32  # how far down a chain of wrappers the mask is looked for
TAKES = ("the batched env takes makers of envs with action_masks() and the single-agent "
         "env's spaces (Box ({obs},), Discrete({n})): a SingleAgentEnv, bare or in "
         "Gymnasium wrappers (gymnasium.make's) or SB3's Monitor; got {got}")


def _refused(env: Any, why: str) -> WastelandError:
    return WastelandError(TAKES.format(obs=OBS_SIZE, n=N_ACTIONS,
                                       got=f"{type(env).__name__} ({why})"))


def _masks_of(env: Any) -> Callable[[], np.ndarray]:
    """``env.action_masks``, or that of the first env down its chain of wrappers that has
    it; one line naming what the batch takes for an env that has none or other spaces."""
    obs = getattr(env, "observation_space", None)
    act = getattr(env, "action_space", None)
    if getattr(obs, "shape", None) != (OBS_SIZE,):
        raise _refused(env, f"observation space {obs}")
    if not isinstance(act, spaces.Discrete) or int(act.n) != N_ACTIONS:
        raise _refused(env, f"action space {act}")
    inner = env
    for _ in range(MAX_WRAPPERS):
        fn = getattr(inner, "action_masks", None)
        if callable(fn):
            return fn
        inner = getattr(inner, "env", None)
        if inner is None:
            break
    raise _refused(env, "no action_masks() on it or on any env it wraps")


def _make(env_fns: Sequence[EnvFn]) -> tuple[list[Any], list[Callable[[], np.ndarray]]]:
    envs = [fn() for fn in env_fns]
    return envs, [_masks_of(env) for env in envs]


def _attr(env: Any, name: str) -> Any:
    """An attribute as SB3's DummyVecEnv reads it: through Gymnasium wrappers."""
    get = getattr(env, "get_wrapper_attr", None)
    return get(name) if callable(get) else getattr(env, name)


def _has(env: Any, name: str) -> bool:
    try:
        _attr(env, name)
    except AttributeError:
        return False
    return True


def _set(env: Any, name: str, value: Any) -> None:
    put = getattr(env, "set_wrapper_attr", None)
    if callable(put):
        put(name, value)
    else:
        setattr(env, name, value)


def _wrapped(env: Any, wrapper: type) -> bool:
    """Whether ``wrapper`` is somewhere in ``env``'s chain (SB3's env_is_wrapped)."""
    for _ in range(MAX_WRAPPERS):
        if isinstance(env, wrapper):
            return True
        env = getattr(env, "env", None)
        if env is None:
            return False
    return False


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


Masks = Sequence[Callable[[], np.ndarray]]


def _reset(envs: Sequence[Any], masks: Masks, a: _Arrays, lo: int,
           seeds: Sequence[int | None], options: dict[str, Any] | None) -> list[dict[str, Any]]:
    infos = []
    for k, env in enumerate(envs):
        obs, info = env.reset(seed=seeds[k], options=options)
        info.pop("action_mask", None)
        a.obs[lo + k] = obs
        a.masks[lo + k] = masks[k]()
        infos.append(info)
    return infos


def _step(envs: Sequence[Any], masks: Masks, a: _Arrays,
          lo: int) -> list[tuple[int, dict[str, Any]]]:
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
        a.obs[i] = obs
        a.masks[i] = masks[k]()
    return ended


def _call(envs: Sequence[Any], lo: int, indices: Sequence[int], name: str, args: tuple[Any, ...],
          kwargs: dict[str, Any], attr: bool) -> list[Any]:
    out = []
    for i in indices:
        env = envs[i - lo]
        if attr:
            out.append(_attr(env, name))
        else:
            out.append(_attr(env, name)(*args, **kwargs))
    return out


def _refuse_all(remote: Any, why: str) -> None:
    """A worker whose envs could not be made: every command is answered with why, so the
    parent reads one reply per command as always, until it closes the batch."""
    try:
        while True:
            cmd, _ = remote.recv()
            remote.send(None if cmd == "close" else ("error", why))
            if cmd == "close":
                return
    except (EOFError, KeyboardInterrupt):
        pass


def _worker(remote: Any, parent: Any, env_fns: Sequence[EnvFn], lo: int, a: _Arrays) -> None:
    parent.close()
    try:
        envs, masks = _make(env_fns)
    except Exception as e:  # noqa: BLE001 - reported to the parent as one line
        _refuse_all(remote, f"{type(e).__name__}: {e}")
        return
    try:
        while True:
            cmd, data = remote.recv()
            if cmd == "step":
                remote.send(_step(envs, masks, a, lo))
            elif cmd == "reset":
                seeds, options = data
                remote.send(_reset(envs, masks, a, lo, seeds, options))
            elif cmd == "has":
                remote.send(all(_has(env, data) for env in envs))
            elif cmd == "wrapped":
                indices, wrapper = data
                remote.send([_wrapped(envs[i - lo], wrapper) for i in indices])
            elif cmd in ("call", "attr"):
                indices, name, args, kwargs = data
                remote.send(_call(envs, lo, indices, name, args, kwargs, cmd == "attr"))
            elif cmd == "set":
                indices, name, value = data
                for i in indices:
                    _set(envs[i - lo], name, value)
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
        try:
            self.envs, self._masks = _make(env_fns[lo:hi])
        except BaseException:
            self.close()  # the workers would wait for commands forever
            raise

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
        here = self._here(_reset, self.envs, self._masks, self.a, lo, seeds[lo:hi], options)
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
        here = self._here(_step, self.envs, self._masks, self.a, self.shares[0][0])
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
        here = all(_has(env, name) for env in self.envs)
        return all(self._gather()) and here

    def is_wrapped(self, wrapper: type, indices: Sequence[int] | None = None) -> list[bool]:
        """Whether each env's chain holds ``wrapper`` (SB3's ``env_is_wrapped``)."""
        parts = self._split(indices)
        for r, part in zip(self.remotes, parts[1:]):
            r.send(("wrapped", (part, wrapper)))
        lo = self.shares[0][0]
        here = [_wrapped(self.envs[i - lo], wrapper) for i in parts[0]]
        return here + [x for part in self._gather() for x in part]

    def set_attr(self, name: str, value: Any, indices: Sequence[int] | None = None) -> None:
        parts = self._split(indices)
        for r, part in zip(self.remotes, parts[1:]):
            r.send(("set", (part, name, value)))
        lo = self.shares[0][0]
        for i in parts[0]:
            _set(self.envs[i - lo], name, value)
        self._gather()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for env in getattr(self, "envs", ()):  # none when making them failed
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

    def render(self) -> tuple[Any, ...] | None:
        """Every env's render() in order, as Gymnasium's SyncVectorEnv gives them."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return tuple(self.batch.call("render"))

    def close_extras(self, **kwargs: Any) -> None:
        self.batch.close()


def make_vector_env(num_envs: int = 1, workers: int = 0, max_episode_steps: int | None = None,
                    **kwargs: Any) -> BatchedVectorEnv:
    """The ``vector_entry_point`` of the Wasteland Gymnasium ids: ``gymnasium.make_vec(id,
    num_envs=64)`` comes here with the id's kwargs and make_vec's own (scenario, ruleset,
    learner, opponents, render_mode, ...: the single-agent env's arguments, the same for
    every env) and returns ``num_envs`` single-agent envs as one BatchedVectorEnv.
    ``workers`` (a kwarg of make_vec here) steps them in that many processes;
    ``max_episode_steps`` (the id's, or given) cuts each episode with a TimeLimit, as
    ``gymnasium.make`` would."""
    from .single_agent import SingleAgentEnv

    if isinstance(num_envs, bool) or not isinstance(num_envs, int) or not 1 <= num_envs <= MAX_BATCH:
        raise WastelandError(f"num_envs must be a whole number from 1 to {MAX_BATCH}, got "
                             f"{str(num_envs)[:40]!r}")
    if max_episode_steps is not None and (isinstance(max_episode_steps, bool) or not isinstance(
            max_episode_steps, int) or max_episode_steps < 1):
        raise WastelandError(f"max_episode_steps must be a whole number of at least 1, got "
                             f"{str(max_episode_steps)[:40]!r}")
    SingleAgentEnv(**kwargs)  # a mistyped argument: one line here, before any worker starts

    def make() -> Any:
        env: Any = SingleAgentEnv(**kwargs)
        if max_episode_steps is not None:
            env = gymnasium.wrappers.TimeLimit(env, max_episode_steps)
        return env

    vec = BatchedVectorEnv([make] * num_envs, workers)
    vec.render_mode = kwargs.get("render_mode")
    vec.metadata = {**vec.metadata, "render_modes": SingleAgentEnv.metadata["render_modes"],
                    "render_fps": SingleAgentEnv.metadata["render_fps"]}
    return vec
