"""The "rgb_array" render (issue 42): a frame of the map with every combatant in its
side's colour under an HP bar, from the AEC, parallel and single-agent envs, the same for
the same battle, and changing as combatants move, bleed and die."""

from __future__ import annotations

import numpy as np
import pytest

from wasteland.agents import ScriptedAgent
from wasteland.agents.base import view_of
from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.envs import SingleAgentEnv, combat_v0
from wasteland.envs.errors import ResetNeededError
from wasteland.envs.frame import (
    BAR,
    CELL,
    DEAD_MARK,
    DECIDING,
    HP_LEFT,
    SIDE_COLOURS,
    TERRAIN_COLOURS,
    square_centre,
)
from wasteland.observe.encoding import to_ego
from wasteland.rules.actions import ACTION_INDEX
from wasteland.rules.battle import ACTIVE, DEAD
from wasteland.rules.names import RULESETS


def room() -> Scenario:
    """Ted and a radscorpion in an open room, two squares apart."""
    return Scenario(
        id="frame_room", name="Frame room", legend={".": "floor", "#": "wall"},
        map="\n".join(["##########", "#........#", "#........#", "##########"]),
        sides=[Side(name="Vault", combatants=[Placement(creature="vault_dweller", at=(2, 1),
                                                        id="ted")]),
               Side(name="Radscorpions", combatants=[Placement(creature="radscorpion",
                                                               at=(4, 1), id="scorp")])])


def colour_at(img: np.ndarray, grid, pos: int) -> tuple[int, ...]:
    return tuple(int(v) for v in img[square_centre(grid, pos)])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_env_draws_an_rgb_frame_of_the_map(ruleset: str) -> None:
    aec = combat_v0.env(ruleset=ruleset, scenario=room(), render_mode="rgb_array")
    aec.reset(seed=0)
    par = combat_v0.parallel_env(ruleset=ruleset, scenario=room(), render_mode="rgb_array")
    par.reset(seed=0)
    single = SingleAgentEnv(ruleset=ruleset, scenario=room(), render_mode="rgb_array")
    single.reset(seed=0)
    for e in (aec, par, single):
        assert "rgb_array" in e.metadata["render_modes"] and e.metadata["render_fps"] > 0
        img = e.render()
        b = e.unwrapped.battle
        assert img.dtype == np.uint8 and img.shape == (4 * CELL, 10 * CELL, 3)
        for c in b.combatants:  # each in its side's colour on its square
            assert colour_at(img, b.grid, c.pos) == SIDE_COLOURS[c.side]
        assert tuple(img[CELL + CELL // 2, 6 * CELL + CELL // 2]) == TERRAIN_COLOURS["."]
        assert tuple(img[CELL // 2, CELL // 2]) == TERRAIN_COLOURS["#"]
        x, y = b.grid.xy(b.combatants[e.unwrapped.ruleset.decider(b).combatant].pos)
        assert tuple(img[y * CELL, x * CELL + 5]) == DECIDING  # framed: its decision
    # the same battle, the same pixels; the frame is a new array each call
    assert np.array_equal(aec.render(), par.render())
    assert aec.render() is not aec.render()


def test_the_frame_follows_a_move() -> None:
    e = combat_v0.env(scenario=room(), render_mode="rgb_array")
    e.reset(seed=0)
    raw = e.unwrapped
    b = raw.battle
    while True:  # until a move is legal for ted
        agent = e.agent_selection
        moves = [a for a in raw.legal_ids() if raw.action_text(a).startswith("move away")]
        if agent == "ted" and moves:
            break
        e.step(int(raw.legal_ids()[0]))
    ted = b.combatants[0]
    before, start = e.render(), ted.pos
    e.step(moves[0])
    after = e.render()
    assert ted.pos != start
    assert colour_at(before, b.grid, start) == SIDE_COLOURS[0]
    assert colour_at(after, b.grid, start) == TERRAIN_COLOURS["."]
    assert colour_at(after, b.grid, ted.pos) == SIDE_COLOURS[0]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_frame_shows_wounds_and_the_dead(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario=room(), render_mode="rgb_array")
    e.reset(seed=2)
    raw = e.unwrapped
    b = raw.battle
    bot = ScriptedAgent()
    frames = [e.render()]
    for _agent in e.agent_iter():
        *_, term, trunc, _ = e.last(observe=False)
        if term or trunc:
            e.step(None)
            continue
        e.step(to_ego(ACTION_INDEX[bot.act(view_of(raw.ruleset, b))], raw.order()))
        frames.append(e.render())
    fallen = [c for c in b.combatants if c.status != ACTIVE]
    assert fallen and len(set(f.tobytes() for f in frames)) > 2
    last = frames[-1]
    for c in b.combatants:
        x, y = b.grid.xy(c.pos)
        centre = colour_at(last, b.grid, c.pos)
        if c.status == DEAD:
            assert centre == DEAD_MARK
        elif c.status == ACTIVE:
            assert centre == SIDE_COLOURS[c.side]
        else:  # down but not dead: its colour, dimmed
            assert centre == tuple(v // 2 for v in SIDE_COLOURS[c.side])
        if c.status != DEAD:  # the bar's green is the HP left
            bar = last[y * CELL + 2, x * CELL + 2:x * CELL + 2 + BAR]
            green = int((bar == HP_LEFT).all(axis=1).sum())
            assert green == max(0, min(BAR, round(BAR * c.hp / max(1, c.max_hp))))
            if c.status == ACTIVE and c.hp < c.max_hp:
                assert green < BAR


def test_render_before_reset_is_one_line() -> None:
    for e in (combat_v0.raw_env(scenario=room(), render_mode="rgb_array"),
              SingleAgentEnv(scenario=room(), render_mode="rgb_array")):
        with pytest.raises(ResetNeededError) as err:
            e.render()
        assert "\n" not in str(err.value) and "reset()" in str(err.value)
