"""combat_v0, the PettingZoo AEC env: PettingZoo's own test suite, masks, turn order,
reactions, illegal actions, rewards, draws and the parallel view; the suite and the
ruleset-neutral properties run under every registered ruleset (RULESETS)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.test.api_test import play_test
from pettingzoo.test.parallel_test import parallel_api_test

from wasteland.agents import ScriptedAgent
from wasteland.agents.base import view_of
from wasteland.bestiary.loader import scenario_names
from wasteland.bestiary.models import Placement, Scenario, Side
from wasteland.envs import combat_v0
from wasteland.observe.encoding import (
    GLOBAL_FEATURES,
    OBS_SIZE,
    SLOT_FEATURES,
    SLOTS,
    B,
    G,
    ego_ids,
    feature_names,
    to_ego,
    to_table,
)
from wasteland.rules.actions import ACTION_INDEX, N_ACTIONS, Action
from wasteland.rules.errors import IllegalActionError
from wasteland.rules.names import RULESETS

END = ACTION_INDEX[Action("end")]


def arena(rows: list[str], sides: dict[str, list[tuple[str, tuple[int, int], str]]],
          max_rounds: int = 30) -> Scenario:
    """A scenario built in code from built-in creatures: side name -> (creature, at, id)."""
    return Scenario(
        id="test_arena", name="Test arena", map="\n".join(rows),
        legend={".": "floor", "#": "wall", "=": "heavy_cover"}, max_rounds=max_rounds,
        sides=[Side(name=name, combatants=[Placement(creature=cr, at=at, id=cid)
                                           for cr, at, cid in members])
               for name, members in sides.items()],
    )


def face_off(max_rounds: int = 30) -> Scenario:
    """Ted next to a radscorpion in an open room: walking away provokes its attack."""
    return arena(["#########", "#.......#", "#.......#", "#.......#", "#########"],
                 {"Vault": [("vault_dweller", (3, 2), "ted")],
                  "Radscorpions": [("radscorpion", (4, 2), "scorp")]}, max_rounds)


def random_play(e, rng: np.random.Generator, check=None) -> dict[str, float]:
    """Play one battle with random legal actions; returns each agent's total reward."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        if check is not None:
            check(e, agent, obs)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def scripted_play(e) -> dict[str, float]:
    totals = dict.fromkeys(e.possible_agents, 0.0)
    bot = ScriptedAgent()
    raw = e.unwrapped
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last(observe=False)
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        # the bot speaks the ruleset's table; the env's targets are observation blocks
        e.step(to_ego(ACTION_INDEX[bot.act(view_of(raw.ruleset, raw.battle))], raw.order()))
    return totals


# --- PettingZoo's test suite -------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", scenario_names())
def test_api(ruleset: str, scenario: str) -> None:
    # play_test stops when the first battle is over; every built-in scenario is one battle
    api_test(combat_v0.env(ruleset=ruleset, scenario=scenario), num_cycles=2000)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_api_play_test_over_several_battles(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset)
    api_test(e, num_cycles=2000)
    e.reset()
    obs0 = e.last()[0]["observation"]
    for _ in range(5):  # play_test resets without a seed: each battle is a new one
        play_test(e, obs0, num_cycles=2000)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seed(ruleset: str) -> None:
    seed_test(lambda **kw: combat_v0.env(ruleset=ruleset, **kw), num_cycles=300)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_parallel_api(ruleset: str) -> None:
    parallel_api_test(combat_v0.parallel_env(ruleset=ruleset), num_cycles=3000)


# parallel_seed, max_cycles, render and state at the defaults, and check_env:
# tests/envs/test_standard_checks.py


def test_ansi_render_shows_map_status_and_events() -> None:
    e = combat_v0.env(scenario=face_off(), render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    lines = text.splitlines()
    assert lines[0] == "#########"
    assert lines[2] == "#..01...#"  # slot digits on the map
    assert any(line.lstrip("> ").startswith("0 ted") and "HP" in line for line in lines)
    assert any("initiative" in line for line in lines)  # the last events


# --- spaces, masks, turn order -----------------------------------------------------------
def test_spaces_are_shared_and_fixed() -> None:
    e = combat_v0.raw_env()
    for r in RULESETS:  # one layout for every ruleset
        assert combat_v0.raw_env(ruleset=r).observation_space("ted") == e.observation_space("ted")
    spaces = {id(e.observation_space(a)) for a in e.possible_agents}
    assert len(spaces) == 1
    box = e.observation_space(e.possible_agents[0])["observation"]
    assert box.shape == (OBS_SIZE,) == (len(feature_names()),)
    assert OBS_SIZE == len(GLOBAL_FEATURES) + 10 * len(SLOT_FEATURES)
    assert e.action_space(e.possible_agents[0]).n == N_ACTIONS
    other = combat_v0.raw_env(scenario=face_off())
    assert other.observation_space("ted") == e.observation_space(e.possible_agents[0])


def test_agents_are_the_combatants() -> None:
    e = combat_v0.env(scenario=face_off())
    e.reset(seed=0)
    assert e.possible_agents == e.agents == ["ted", "scorp"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_mask_is_legal_ids_for_the_decider_and_zero_for_the_others(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario="vault_corridor")
    raw = e.unwrapped
    seen = {"checks": 0}

    def check(env, agent, obs) -> None:
        b = raw.battle
        dec = raw.ruleset.decider(b)
        assert agent == b.ids[dec.combatant]
        order = raw.order()
        assert order == raw.order(agent) and order[0] == dec.combatant
        assert sorted(order) == list(range(len(b.combatants)))
        legal = raw.ruleset.legal_ids(b)
        mask = np.flatnonzero(obs["action_mask"]).tolist()
        assert mask == sorted(ego_ids(legal, order)) == sorted(raw.legal_ids())
        assert sorted(to_table(i, order) for i in mask) == sorted(legal)
        assert obs["observation"][GLOBAL_FEATURES.index("deciding")] == 1.0
        for other in env.agents:
            if other != agent:
                o = env.observe(other)
                assert not o["action_mask"].any()
                assert o["observation"][GLOBAL_FEATURES.index("deciding")] == 0.0
        seen["checks"] += 1

    for seed in range(2):
        e.reset(seed=seed)
        random_play(e, np.random.default_rng(seed), check)
    assert seen["checks"] > 20


def test_same_agent_decides_several_times_in_a_row() -> None:
    far = arena(["##############", "#............#", "##############"],
                {"Vault": [("vault_dweller", (1, 1), "ted")],
                 "Radscorpions": [("radscorpion", (12, 1), "scorp")]})
    e = combat_v0.env(scenario=far)
    e.reset(seed=1)
    first = e.agent_selection
    # block 1: the other one, whoever decides (block 0 is the decider itself)
    assert e.unwrapped.action_text(ACTION_INDEX[Action("move", 1, "toward")]) == (
        "move toward " + ("scorp" if first == "ted" else "ted"))
    e.step(ACTION_INDEX[Action("move", 1, "toward")])  # PnP: a small action
    assert e.agent_selection == first  # the same combatant takes its large action
    assert e.unwrapped.battle.slot == "large"
    e.step(END)
    assert e.agent_selection != first


def test_reaction_moves_agent_selection_to_the_reactor() -> None:
    e = combat_v0.env(scenario=face_off())
    e.reset(seed=3)
    raw = e.unwrapped
    move_away = ACTION_INDEX[Action("move", 1, "away")]
    for _ in range(10):
        if e.agent_selection == "scorp":
            e.step(END)
            continue
        assert e.observe("ted")["action_mask"][move_away]
        e.step(move_away)
        break
    dec = raw.ruleset.decider(raw.battle)
    assert dec.reaction == "opportunity"
    assert e.agent_selection == "scorp"
    obs = e.observe("scorp")
    v = obs["observation"]
    assert raw.order("scorp") == raw.order() == [1, 0]  # scorp's own block, then ted's
    assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(
        ego_ids(raw.ruleset.legal_ids(raw.battle), raw.order()))
    assert obs["action_mask"][ACTION_INDEX[Action("attack", 1)]]  # ted is block 1
    assert raw.action_text(ACTION_INDEX[Action("attack", 1)]) == "attack ted"
    assert v[GLOBAL_FEATURES.index("reaction_opportunity")] == 1.0
    assert v[GLOBAL_FEATURES.index("slot_free")] == 1.0
    subj = SLOT_FEATURES.index("reaction_subject")
    assert v[G + 1 * B + subj] == 1.0 and v[G + 0 * B + subj] == 0.0
    assert not e.observe("ted")["action_mask"].any()
    e.step(END)  # decline: ted's walk resumes and his turn goes on
    assert e.agent_selection == "ted" or raw.battle.over


def test_observation_is_egocentric() -> None:
    e = combat_v0.env(scenario=face_off())
    e.reset(seed=0)
    ted, scorp = e.observe("ted")["observation"], e.observe("scorp")["observation"]
    is_me, enemy, dx = (SLOT_FEATURES.index(f) for f in ("is_me", "enemy", "dx"))
    # block 0 is always me, block 1 the other one
    assert ted[G + is_me] == 1.0 and ted[G + B + enemy] == 1.0
    assert scorp[G + is_me] == 1.0 and scorp[G + B + enemy] == 1.0
    assert ted[G + enemy] == scorp[G + enemy] == ted[G + B + is_me] == scorp[G + B + is_me] == 0
    assert ted[G + dx] == scorp[G + dx] == 0.0  # my own offset
    assert ted[G + B + dx] > 0 > scorp[G + B + dx]  # scorp east of ted, ted west of scorp
    assert not ted[G + 2 * B:].any()  # empty blocks are zeros


# --- illegal actions ---------------------------------------------------------------------
def test_illegal_action_raises_one_line_with_the_legal_list() -> None:
    e = combat_v0.env(scenario=face_off(), illegal_action="raise")
    e.reset(seed=0)
    mask = e.observe(e.agent_selection)["action_mask"]
    # the last masked-off action aimed at a combatant there is (the empty blocks' own
    # message: test_egocentric.py)
    bad = int([i for i in np.flatnonzero(mask == 0)
               if "no combatant" not in e.unwrapped.action_text(int(i))][-1])
    with pytest.raises(IllegalActionError) as err:
        e.step(bad)
    msg = str(err.value)
    assert "\n" not in msg and "legal: end" in msg
    assert e.unwrapped.action_text(bad) in msg
    e.step(END)  # the env is unharmed


def test_illegal_action_end_replaces_it() -> None:
    e = combat_v0.env(scenario=face_off(), illegal_action="end")
    e.reset(seed=0)
    agent = e.agent_selection
    raw = e.unwrapped
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[-1])
    history = len(raw.battle.history)
    e.step(bad)
    assert raw.battle.history[history].endswith(": end")
    assert e.infos[agent] == {"illegal_action": True}
    assert e.agent_selection != agent or raw.battle.reactions
    nxt = e.agent_selection
    e.step(END)
    assert e.infos[nxt] == {}


# --- rewards and the end -----------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_win_gives_plus_one_to_winners_and_minus_one_to_losers(ruleset: str) -> None:
    for seed in range(5):
        e = combat_v0.env(ruleset=ruleset, scenario="vault_corridor")
        e.reset(seed=seed)
        totals = scripted_play(e)
        b = e.unwrapped.battle
        if b.winner is None:
            continue
        for c in b.combatants:
            assert totals[c.id] == (1.0 if c.side == b.winner else -1.0)
        assert e.agents == []
        return
    pytest.fail("no battle had a winner")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_draw_by_round_limit_truncates_with_zero_reward(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario=face_off(max_rounds=1))
    e.reset(seed=0)
    truncs = {}
    rewards = {}
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        if term or trunc:
            truncs[agent] = (term, trunc)
            rewards[agent] = reward
            e.step(None)
        else:
            e.step(END)
    assert e.unwrapped.battle.end_reason == "max_rounds"
    assert truncs == {"ted": (False, True), "scorp": (False, True)}
    assert rewards == {"ted": 0.0, "scorp": 0.0}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reward_shaping_pays_damage_as_it_happens(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario="vault_corridor", reward_shaping=0.1)
    e.reset(seed=0)
    totals = scripted_play(e)
    b = e.unwrapped.battle
    for c in b.combatants:
        outcome = 0.0 if b.winner is None else (1.0 if c.side == b.winner else -1.0)
        shaped = 0.1 * (c.damage_dealt - c.damage_taken) / c.max_hp
        assert totals[c.id] == pytest.approx(outcome + shaped)
    assert any(c.damage_taken for c in b.combatants)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_downed_combatants_stay_until_the_end(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario="vault_corridor")
    rng = np.random.default_rng(0)
    for seed in range(10):
        e.reset(seed=seed)

        def check(env, agent, obs) -> None:
            raw = env.unwrapped
            assert env.agents == env.possible_agents
            assert raw.battle.combatants[raw.possible_agents.index(agent)].status == "active"

        random_play(e, rng, check)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_max_cycles_ends_turns_then_truncates(ruleset: str) -> None:
    e = combat_v0.env(ruleset=ruleset, scenario=face_off(), max_cycles=3)
    e.reset(seed=0)
    counts = dict.fromkeys(e.agents, 0)
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc
            e.step(None)
            continue
        counts[agent] += 1
        e.step(END)
    assert counts == {"ted": 3, "scorp": 3}


def test_battle_seed_comes_from_the_env_rng() -> None:
    a, b = combat_v0.raw_env(), combat_v0.raw_env()
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.battle.seed == b.battle.seed
    a.reset(seed=8)
    assert a.battle.seed != b.battle.seed
    a.reset(options={"battle_seed": 123})
    assert a.battle.seed == 123


def test_render_mode_keeps_the_log_only_when_rendering() -> None:
    quiet = combat_v0.raw_env()
    quiet.reset(seed=0)
    assert quiet.battle.keep_log is False and quiet.battle.log == []
    loud = combat_v0.raw_env(render_mode="ansi")
    loud.reset(seed=0)
    assert loud.battle.keep_log is True and loud.battle.log


def test_parallel_env_applies_only_the_deciders_action() -> None:
    p = combat_v0.parallel_env(scenario=face_off())
    obs, infos = p.reset(seed=0)
    assert set(obs) == {"ted", "scorp"}
    raw = p.unwrapped
    decider = raw.agent_selection
    other = "ted" if decider == "scorp" else "scorp"
    assert obs[decider]["action_mask"].any() and not obs[other]["action_mask"].any()
    n = len(raw.battle.history)
    # the other agent's action is ignored even though it is not legal for anyone
    obs, rew, term, trunc, info = p.step({decider: END, other: N_ACTIONS - 1})
    assert raw.battle.history[n:] == [f"{decider}: end"]


def test_bad_arguments_are_one_line_errors() -> None:
    from wasteland.rules.errors import WastelandError

    for kw in ({"illegal_action": "ignore"}, {"render_mode": "rgb"},
               {"scenario": "no_such_place"}, {"max_cycles": 0}):
        with pytest.raises(WastelandError) as err:
            combat_v0.raw_env(**kw)
        assert "\n" not in str(err.value)


# --- the Fallout 2d20 economy in the observation, zones in the picture -------------------
ECONOMY = ("pool_mine", "pool_enemy", "minor_used", "major_used", "moved")


def feature(obs: np.ndarray, name: str) -> float:
    return float(obs[GLOBAL_FEATURES.index(name)])


def test_f2d20_observation_has_the_slot_and_the_ap_economy() -> None:
    e = combat_v0.env(ruleset="f2d20", scenario="vault_corridor")
    raw = e.unwrapped
    seen: set[str] = set()

    def check(env, agent, obs) -> None:
        b = raw.battle
        dec = raw.ruleset.decider(b)
        v = obs["observation"]
        assert obs["observation"] in env.observation_space(agent)["observation"]
        seen.add(dec.slot)
        for s in SLOTS:
            assert feature(v, f"slot_{s}") == (1.0 if dec.slot == s else 0.0)
        assert feature(v, "slot_other") == (0.0 if dec.slot in SLOTS else 1.0)
        me = b.combatants[dec.combatant]
        pools = b.book.pools
        assert feature(v, "pool_mine") == pytest.approx(pools[me.side] / 6)
        enemy = max(p for si, p in enumerate(pools) if si != me.side)
        assert feature(v, "pool_enemy") == pytest.approx(enemy / 6)
        mine = b.order[b.turn] == dec.combatant
        assert feature(v, "minor_used") == (b.book.minor / 2 if mine else 0.0)
        assert feature(v, "major_used") == (b.book.major / 2 if mine else 0.0)
        assert feature(v, "moved") == (1.0 if mine and b.book.moved else 0.0)
        if dec.slot in ("dice", "boost"):  # the attack's target is marked like a subject
            subj = SLOT_FEATURES.index("reaction_subject")
            marked = [k for k in range(len(b.combatants)) if v[G + k * B + subj]]
            assert [raw.order()[k] for k in marked] == [dec.subject]
            kind = "buy" if dec.slot == "dice" else "boost"
            assert all(raw.action_text(i).startswith(kind) or (  # noroll: difficulty 0
                kind == "buy" and raw.action_text(i) == "noroll")
                       for i in np.flatnonzero(obs["action_mask"]))
        # nobody else sees anything of the decision, but everyone sees the pools
        for other in env.agents:
            if other != agent:
                o = env.observe(other)["observation"]
                assert feature(o, "deciding") == 0.0
                assert not o[GLOBAL_FEATURES.index("slot_small"):][:len(SLOTS) + 1].any()
                side = b.combatants[raw.possible_agents.index(other)].side
                assert feature(o, "pool_mine") == pytest.approx(pools[side] / 6)

    rng = np.random.default_rng(0)
    for seed in range(6):
        e.reset(seed=seed)
        random_play(e, rng, check)
    assert {"act", "dice", "boost"} <= seen


def test_pnp_observation_has_no_ap_economy() -> None:
    e = combat_v0.env(ruleset="pnp", scenario="vault_corridor")

    def check(env, agent, obs) -> None:
        for name in ECONOMY + ("slot_act", "slot_dice", "slot_boost", "slot_defend",
                               "slot_other"):
            assert feature(obs["observation"], name) == 0.0
        band = SLOT_FEATURES.index("range_band")
        assert not obs["observation"][G + band::B].any()

    e.reset(seed=0)
    random_play(e, np.random.default_rng(0), check)


def test_f2d20_weapons_fire_from_the_supply() -> None:
    e = combat_v0.raw_env(ruleset="f2d20", scenario=face_off())
    e.reset(seed=0)
    ted = e.observe("ted")["observation"]
    b = e.battle
    pistol = b.combatants[0].weapon  # 10mm pistol: no magazine to load under 2d20
    assert pistol.ammo and pistol.magazine != "none"
    assert feature(ted, "loaded_frac") == 1.0 and feature(ted, "reloading") == 0.0
    left = b.combatants[0].ammo[pistol.ammo]
    assert feature(ted, "reserve") == pytest.approx(min(1.0, left / (pistol.capacity * 4)))
    assert feature(ted, "speed") == 0.0  # 2d20 moves by zones
    b.combatants[0].ammo[pistol.ammo] = 0
    scorp = e.observe("scorp")["observation"]
    assert e.order("scorp") == [1, 0]  # ted is block 1 of scorp's view
    assert scorp[G + B + SLOT_FEATURES.index("weapon_empty")] == 1.0
    assert scorp[G + SLOT_FEATURES.index("weapon_empty")] == 0.0  # scorp's claws
    assert feature(e.observe("ted")["observation"], "loaded_frac") == 0.0
    # the range band to an adjacent enemy: same zone, Close
    assert ted[G + B + SLOT_FEATURES.index("range_band")] == 0.0


def test_f2d20_range_band_and_zone_cover_in_the_geometry() -> None:
    e = combat_v0.raw_env(ruleset="f2d20", scenario="ruined_street")
    e.reset(seed=0)
    b = e.battle
    z = e.ruleset.zones(b)
    band, cover = SLOT_FEATURES.index("range_band"), SLOT_FEATURES.index("cover")
    state = e.state()  # the full view: enemies never seen yet show no geometry otherwise
    for me in range(len(b.combatants)):
        v = state[me * OBS_SIZE:(me + 1) * OBS_SIZE]
        assert feature(v, "cover") == pytest.approx(z.cover(z.zone_of[b.combatants[me].pos]) / 3)
        order = e.order(b.ids[me])
        assert order[0] == me and sorted(order) == list(range(len(b.combatants)))
        for k, o in enumerate(b.combatants[j] for j in order):
            assert v[G + k * B + band] == pytest.approx(z.band(b.combatants[me].pos, o.pos) / 3)
            assert v[G + k * B + cover] == pytest.approx(z.cover(z.zone_of[o.pos]) / 3)


def test_f2d20_illegal_action_end_in_a_window_takes_the_cheapest_choice() -> None:
    e = combat_v0.env(ruleset="f2d20", scenario="vault_corridor", illegal_action="end")
    raw = e.unwrapped
    rng = np.random.default_rng(3)
    for seed in range(10):
        e.reset(seed=seed)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            dec = raw.ruleset.decider(raw.battle)
            if dec.slot in ("dice", "boost"):
                assert not obs["action_mask"][END]
                n = len(raw.battle.history)
                e.step(END)  # not legal here
                want = "buy 0" if dec.slot == "dice" else "boost 0"
                assert raw.battle.history[n] == f"{agent}: {want}"
                assert e.infos[agent] == {"illegal_action": True}
                return
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no dice or boost window came up")


def test_f2d20_ansi_render_shows_zones_and_pools() -> None:
    e = combat_v0.env(ruleset="f2d20", scenario=face_off(), render_mode="ansi")
    e.reset(seed=0)
    raw = e.unwrapped
    lines = e.render().splitlines()
    # the terrain and the zone map side by side, the combatants on both
    assert lines[0] == "#########   #########"
    terrain, zones = lines[2].split("   ")
    assert terrain == "#..01...#"
    assert zones[3:5] == "01" and zones[1] == zones[2] == "A"
    assert any(line.startswith("Zone cover: A (Z0)") for line in lines)
    pools = raw.battle.book.pools
    assert f"AP pools: Vault {pools[0]}, Radscorpions {pools[1]}" in lines
    assert any(" zone Z0 (A)" in line and "ted" in line for line in lines)
    assert any("deciding: act" in line for line in lines)


def test_env_card_states_the_shapes() -> None:
    doc = combat_v0.__doc__
    assert f'{{"observation": ({OBS_SIZE},), "action_mask": ({N_ACTIONS},)}}' in doc
    assert f"[0, {N_ACTIONS - 1}]" in doc


def test_f2d20_radiation_lowers_max_hp_and_shaping_uses_the_starting_max() -> None:
    glow = arena(["#########", "#.......#", "#.......#", "#.......#", "#########"],
                 {"Vault": [("vault_dweller", (3, 1), "ted"), ("vault_dweller", (3, 3), "amy")],
                  "Ghouls": [("glowing_one", (4, 1), "glow"), ("glowing_one", (4, 3), "lumen")]})
    e = combat_v0.env(ruleset="f2d20", scenario=glow, reward_shaping=0.1)
    raw = e.unwrapped
    rng = np.random.default_rng(0)
    for seed in range(30):
        e.reset(seed=seed)
        start = {c.id: c.max_hp for c in raw.battle.combatants}
        totals = random_play(e, rng)
        b = raw.battle
        for c in b.combatants:
            outcome = 0.0 if b.winner is None else (1.0 if c.side == b.winner else -1.0)
            shaped = 0.1 * (c.damage_dealt - c.damage_taken) / start[c.id]
            assert totals[c.id] == pytest.approx(outcome + shaped)
        if any(c.max_hp < start[c.id] for c in b.combatants):
            return
    pytest.fail("radiation never lowered anybody's maximum HP")
