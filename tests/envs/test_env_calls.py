"""Env calls made wrongly are one line (issue 39, item 6): each a WastelandError and also the
Python type a caller would catch (envs/errors.py). parallel_env.step with a list gave a
traceback, before reset it returned five empty dicts; action_text(10**9) gave a traceback
and action_text(-1) named a block that does not exist."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.envs.batched import BattleBatch
from wasteland.envs.errors import (
    ActionIdError,
    EnvArgumentTypeError,
    ResetNeededError,
    UnknownAgentError,
)
from wasteland.envs.single_agent import SingleAgentEnv
from wasteland.observe import text
from wasteland.rules.actions import N_ACTIONS, Action
from wasteland.rules.errors import IllegalActionError, WastelandError


def _one_line(e: pytest.ExceptionInfo[BaseException], fragment: str) -> None:
    assert isinstance(e.value, WastelandError)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_parallel_step_before_reset_is_refused_not_answered_with_nothing():
    p = combat_v0.parallel_env(scenario="duel")
    with pytest.raises(ResetNeededError) as e:
        p.step({"ted": 0})
    _one_line(e, "step() before reset(): call reset() first")
    assert isinstance(e.value, RuntimeError)


@pytest.mark.parametrize("actions", [[0], (0,), None, "end", 3, np.array([0])])
def test_parallel_step_takes_a_dict_by_agent(actions):
    p = combat_v0.parallel_env(scenario="duel")
    p.reset(seed=1)
    with pytest.raises(EnvArgumentTypeError) as e:
        p.step(actions)
    _one_line(e, "step() takes a dict of actions by agent name ({'ted': 3, ...}), got "
                 f"{type(actions).__name__}")
    assert isinstance(e.value, TypeError)


def test_parallel_step_names_an_unknown_agent_and_still_ends_quietly():
    p = combat_v0.parallel_env(scenario="duel")
    p.reset(seed=1)
    with pytest.raises(UnknownAgentError) as e:
        p.step({"Ted": 0})
    _one_line(e, "unknown agent 'Ted'; agents: ted, young_radscorpion_0")
    assert isinstance(e.value, KeyError) and str(e.value).startswith("unknown")
    # the episode played to its end: then a step returns nothing, as PettingZoo's do
    while p.agents:
        raw = p.unwrapped
        p.step({raw.agent_selection: int(np.flatnonzero(
            raw.observe(raw.agent_selection)["action_mask"])[0])})
    assert p.step({}) == ({}, {}, {}, {}, {})


@pytest.mark.parametrize("action, error, fragment", [
    (10**9, ActionIdError, "action id 1000000000 is not in the action table; ids are 0..318"),
    (-1, ActionIdError, "action id -1 is not in the action table"),
    (N_ACTIONS, ActionIdError, f"action id {N_ACTIONS} is not in the action table"),
    (np.int64(-5), ActionIdError, "action id -5 is not"),
    (10**100, ActionIdError, "is not in the action table"),
    ("3", EnvArgumentTypeError, "action id '3' (str) is not an integer"),
    (1.0, EnvArgumentTypeError, "action id 1.0 (float) is not an integer"),
    (True, EnvArgumentTypeError, "action id True (bool) is not an integer"),
    (None, EnvArgumentTypeError, "(NoneType) is not an integer"),
])
def test_action_text_refuses_what_is_not_an_action_id(action, error, fragment):
    raw = combat_v0.raw_env(scenario="duel")
    raw.reset(seed=1)
    for call in (lambda: raw.action_text(action), lambda: text.action_text(raw, action)):
        with pytest.raises(error) as e:
            call()
        _one_line(e, fragment)
    if error is ActionIdError:  # also what a caller of a bad index or value catches
        assert isinstance(e.value, IndexError) and isinstance(e.value, ValueError)
    else:
        assert isinstance(e.value, TypeError)


def test_action_text_keeps_answering_every_id_of_the_table():
    raw = combat_v0.raw_env(scenario="duel")
    raw.reset(seed=1)
    assert raw.action_text(0) == raw.action_text(np.int64(0)) == raw.action_text(np.array([0]))
    assert all(raw.action_text(i) for i in range(N_ACTIONS))


@pytest.mark.parametrize("call, name", [
    (lambda e: e.step(0), "step()"),
    (lambda e: e.observe("ted"), "observe()"),
    (lambda e: e.last(), "last()"),
    (lambda e: e.order(), "order()"),
    (lambda e: e.action_text(0), "action_text()"),
    (lambda e: e.state(), "state()"),
])
def test_the_raw_aec_env_before_reset_says_so(call, name):
    with pytest.raises(ResetNeededError) as e:
        call(combat_v0.raw_env(scenario="duel"))
    _one_line(e, f"{name} before reset(): call reset() first")


@pytest.mark.parametrize("call", [lambda e: e.observe("nobody"), lambda e: e.order("nobody"),
                                  lambda e: e.action_text(0, "nobody"),
                                  lambda e: e.observe(["ted"])])
def test_an_unknown_agent_is_named(call):
    raw = combat_v0.raw_env(scenario="duel")
    raw.reset(seed=1)
    with pytest.raises(UnknownAgentError) as e:
        call(raw)
    _one_line(e, "; agents: ted, young_radscorpion_0")


def test_the_single_agent_env_before_reset_and_after_the_end():
    env = SingleAgentEnv(scenario="duel", opponents="packet")
    for call, name in ((lambda: env.step(0), "step()"),
                       (lambda: env.env_action(Action("end")), "env_action()")):
        with pytest.raises(ResetNeededError) as e:
            call()
        _one_line(e, f"{name} before reset(): call reset() first")
    env.reset(seed=1)
    with pytest.raises(EnvArgumentTypeError) as e:
        env.env_action("end")  # type: ignore[arg-type]
    _one_line(e, "env_action takes an Action, got str 'end'")
    with pytest.raises(IllegalActionError) as e:
        env.env_action(Action("attack", 99))
    _one_line(e, "is not in the action table")
    done = False
    while not done:
        *_, term, trunc, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        done = term or trunc
    with pytest.raises(ResetNeededError) as e:
        env.step(0)
    _one_line(e, "step() called on a finished episode; call reset() first")


@pytest.mark.parametrize("actions, fragment", [
    (np.array([1.7, 0.0]), "got an array of float64"),
    (np.array([True, False]), "got an array of bool"),
    (np.array([10**30, 0], dtype=object), "got an array of object"),
    (["end", "end"], "got an array of <U3"),
])
def test_a_batch_takes_integer_actions_only(actions, fragment):
    """A float array was cut to integers without a word (1.7 played action 1)."""
    batch = BattleBatch([partial(SingleAgentEnv, scenario="duel", opponents="packet")] * 2)
    try:
        batch.reset()
        before = batch.a.obs.copy()
        with pytest.raises(EnvArgumentTypeError) as e:
            batch.step(actions)
        _one_line(e, f"actions must be integers (action ids 0..{N_ACTIONS - 1}), {fragment}")
        assert np.array_equal(batch.a.obs, before)  # nothing was stepped
    finally:
        batch.close()


def test_a_batch_stepped_before_reset_says_so():
    batch = BattleBatch([partial(SingleAgentEnv, scenario="duel", opponents="packet")])
    try:
        with pytest.raises(ResetNeededError) as e:
            batch.step(np.array([0]))
        _one_line(e, "step() before reset(): call reset() first")
    finally:
        batch.close()
