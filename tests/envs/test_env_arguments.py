"""Bad env arguments are the project's typed one-line errors (issue 23, item 2): a reset
option the envs do not take was silently ignored (options={"scenario": ...}); a
battle_seed or reward_shaping of the wrong type raised a bare ValueError."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from wasteland.envs import combat_v0
from wasteland.rules.errors import WastelandError


@pytest.mark.parametrize("options, fragment", [
    ({"scenario": "duel"}, "reset option 'scenario' is the constructor's: make another env"),
    ({"ruleset": "f2d20", "battle_seed": 3}, "reset option 'ruleset' is the constructor's"),
    ({"battle_seed": "x"}, "battle_seed must be a whole number from 0 to"),
    ({"battle_seed": True}, "battle_seed must be a whole number"),
    ({"battle_seed": 1.5}, "battle_seed must be a whole number"),
    ({"battle_seed": -1}, "battle_seed must be a whole number"),
    ({"battle_seed": 2**70}, "battle_seed must be a whole number"),
    ([("battle_seed", 1)], "reset options must be a dict"),
])
@pytest.mark.parametrize("which", ["aec", "gym"])
def test_bad_reset_options_are_one_line(options, fragment, which):
    e = (combat_v0.env(scenario="duel") if which == "aec"
         else gymnasium.make("Wasteland/Combat-v0", scenario="duel"))
    with pytest.raises(WastelandError, match=fragment.replace("(", r"\(")):
        e.reset(seed=1, options=options)


def test_another_unknown_option_is_warned_about_and_ignored():
    e = combat_v0.raw_env(scenario="duel")
    with pytest.warns(UserWarning, match="ignoring unknown reset options colour"):
        e.reset(seed=1, options={"colour": "red", "battle_seed": 4})
    assert e.battle.seed == 4


def test_a_good_battle_seed_of_numpy_type_is_taken():
    e = combat_v0.raw_env(scenario="duel")
    e.reset(options={"battle_seed": np.int64(7)})
    first = e.battle.seed
    e.reset(options={"battle_seed": 7})
    assert first == e.battle.seed == 7


@pytest.mark.parametrize("value", ["x", True, float("nan"), float("inf"), -0.5, 1e9])
def test_bad_reward_shaping_is_one_line(value):
    with pytest.raises(WastelandError, match="reward_shaping must be a number from 0 to 100"):
        combat_v0.raw_env(scenario="duel", reward_shaping=value)
    with pytest.raises(WastelandError, match="reward_shaping must be a number from 0 to 100"):
        gymnasium.make("Wasteland/Combat-v0", scenario="duel", reward_shaping=value)


@pytest.mark.parametrize("make", [
    lambda **kw: gymnasium.make("Wasteland/Combat-v0", scenario="duel", **kw),
    lambda **kw: gymnasium.make_vec("Wasteland/Combat-v0", num_envs=1, scenario="duel", **kw),
])
def test_an_unknown_env_keyword_is_one_line_naming_the_accepted_ones(make):
    """The single-agent env takes its options by keyword (envs/env_options.py): a
    mistyped one is refused in one line that names it and what is accepted."""
    with pytest.raises(WastelandError) as e:
        make(draw_rewad=0.5)
    msg = str(e.value)
    assert "\n" not in msg and "unknown argument 'draw_rewad'" in msg
    assert "accepted: scenario, ruleset, learner, opponents, max_rounds," in msg
    assert isinstance(e.value, TypeError)  # as Python's own refusal of a keyword is
    env = make(draw_reward=0.5, sight="side", max_rounds=3)  # the real ones are taken
    inner = env.unwrapped if hasattr(env, "unwrapped") else env
    if isinstance(inner, gymnasium.Env):
        assert (inner.draw_reward, inner.sight, inner.max_rounds) == (0.5, "side", 3)


@pytest.mark.parametrize("bad, fragment", [
    ({"draw_reward": 2}, "draw_reward must be a number from -1 to 1"),
    ({"sight": "team"}, "unknown sight 'team'; available: own, side"),
    ({"illegal_action": "boom"}, "unknown illegal_action 'boom'; available:"),
    ({"render_mode": "svg"}, "unknown render_mode 'svg'; available:"),
])
def test_a_bad_env_option_value_is_one_line(bad, fragment):
    with pytest.raises(WastelandError, match=fragment) as e:
        gymnasium.make("Wasteland/Combat-v0", scenario="duel", **bad)
    assert "\n" not in str(e.value)
