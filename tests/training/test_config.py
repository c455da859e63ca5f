"""Training configs (issue 10, item 1): every shipped config loads, ``--set`` overrides
nested keys with YAML values, and a bad config or override is refused in one line that
names the file and field and what is accepted - through load_config and the command."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wasteland.bestiary.loader import BestiaryError, load_scenario
from wasteland.rules.errors import WastelandError
from wasteland.training.config import (
    CONFIGS,
    TrainConfig,
    config_names,
    load_config,
    training_scenario,
)

from .kit import cli, one_line_error

SHIPPED = config_names()


def test_six_configs_ship():
    assert len(SHIPPED) >= 6
    for family in ("radscorpion", "super_mutant", "robot"):
        for ruleset in ("pnp", "f2d20"):
            assert f"{family}_{ruleset}" in SHIPPED


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_config_loads(name):
    cfg = load_config(name)
    assert isinstance(cfg, TrainConfig)
    assert cfg.id == name and name.endswith("_" + cfg.ruleset)
    for s in cfg.scenarios:  # each named scenario holds some of its creatures
        sc = training_scenario(s)
        assert any(p.creature in cfg.creatures for side in sc.sides for p in side.combatants)
    assert cfg.opponents[0].start == 0
    # a path to the file loads the same config
    assert load_config(str(CONFIGS / f"{name}.yaml")) == cfg


def test_overrides_nested_keys_and_yaml_values():
    base = load_config("radscorpion_pnp")
    cfg = load_config("radscorpion_pnp", [
        "steps=2048", "ppo.learning_rate=1e-4", "ppo.n_steps=64", "network=[16, 16]",
        "evaluation.scenarios=[duel]", "arenas.creature_count=[2, 2]", "subproc=true",
        "activation=relu", "opponents=[{start: 0, mix: {random: 1}}, {start: 0.5, mix: {league: 1}}]",
        "description=a = sign stays in the value",
    ])
    assert cfg.steps == 2048 and cfg.ppo.n_steps == 64
    assert cfg.ppo.learning_rate == pytest.approx(1e-4)
    assert cfg.ppo.batch_size == base.ppo.batch_size  # the rest of the section is kept
    assert cfg.network == [16, 16] and cfg.activation == "relu" and cfg.subproc is True
    assert cfg.evaluation.scenarios == ["duel"]
    assert cfg.evaluation.every == base.evaluation.every
    assert cfg.arenas.creature_count == (2, 2)
    assert cfg.description == "a = sign stays in the value"
    assert [p.start for p in cfg.opponents] == [0, 0.5]
    assert cfg.phase_at(0.4).mix == {"random": 1} and cfg.phase_at(0.7).mix == {"league": 1}
    assert cfg.hash() != base.hash()
    assert load_config("radscorpion_pnp") == base  # overrides never touch the shipped file


def test_override_makes_a_section_missing_from_the_file(tmp_path):
    p = tmp_path / "mine.yaml"
    p.write_text("id: mine\nruleset: f2d20\ncreatures: [super_mutant]\nscenarios: [ruined_street]\n")
    cfg = load_config(str(p), ["league.keep=2", "reward.draw=-1"])
    assert cfg.league.keep == 2 and cfg.reward.draw == -1
    assert cfg.ppo.n_steps == 1024  # defaults fill the rest


CFG = "radscorpion_pnp.yaml"


@pytest.mark.parametrize("override, error, fragments", [
    ("steps", WastelandError, ["--set 'steps'", "expected key=value"]),
    ("=3", WastelandError, ["expected key=value"]),
    ("nosuch=1", BestiaryError, [CFG, "nosuch: unknown field", "accepted here:", "steps"]),
    ("ppo.nosuch=1", BestiaryError, [CFG, "ppo.nosuch: unknown field", "n_steps"]),
    ("steps=lots", BestiaryError, [CFG, "steps:", "valid integer"]),
    ("ppo.n_steps=[1]", BestiaryError, [CFG, "ppo.n_steps:", "valid integer"]),
    ("ruleset=gurps", BestiaryError, [CFG, "ruleset:", "'pnp', 'f2d20' or 'simple'"]),
    ("network=[0]", BestiaryError, [CFG, "network: layer widths are 1 to 1024"]),
    ("steps.x=1", WastelandError, ["steps", CFG, "not a section"]),
    ("creatures=[radscorpion, dragon]", BestiaryError,
     [CFG, "creatures: unknown creature 'dragon'", "known: ", "radscorpion"]),
    ("arenas.foes=[nobody]", BestiaryError, [CFG, "arenas.foes: unknown creature 'nobody'"]),
    ("scenarios=[ruined_street]", BestiaryError,
     [CFG, "scenario 'ruined_street' has none of its creatures", "radscorpion"]),
    ("evaluation.scenarios=[robot_depot]", BestiaryError,
     [CFG, "scenario 'robot_depot' has none of its creatures"]),
    ("opponents=[{start: 0.5, mix: {packet: 1}}, {start: 0.2, mix: {random: 1}}]",
     BestiaryError, [CFG, "opponents: phases start at 0 and in order of start"]),
    ("opponents=[{start: 0, mix: {packet: 1}}, {start: 0.6, mix: {random: 1}}, "
     "{start: 0.3, mix: {league: 1}}]", BestiaryError,
     [CFG, "opponents: phases start at 0 and in order of start"]),
    ("opponents=[{start: 0.1, mix: {packet: 1}}]", BestiaryError,
     [CFG, "phases start at 0"]),
    ("opponents=[{start: 0, mix: {gm: 1}}]", BestiaryError,
     [CFG, "opponents[0].mix", "'packet', 'random' or 'league'"]),
    ("opponents=[{start: 0, mix: {packet: 0}}]", BestiaryError,
     [CFG, "mix needs positive weights"]),
])
def test_a_bad_override_is_one_line_naming_file_and_field(override, error, fragments):
    _refused_in_one_line("radscorpion_pnp", override, error, fragments)


def _refused_in_one_line(config: str, override: str, error: type[Exception],
                         fragments: list[str]) -> None:
    with pytest.raises(error) as e:
        load_config(config, [override])
    msg = str(e.value)
    assert "\n" not in msg
    for f in fragments:
        assert f in msg, (f, msg)


def test_an_unknown_scenario_names_the_accepted_ones():
    with pytest.raises(BestiaryError) as e:
        load_config("radscorpion_pnp", ["scenarios=[nowhere]"])
    msg = str(e.value)
    assert "\n" not in msg and "unknown scenario 'nowhere'" in msg and "duel" in msg


def test_an_unknown_scenario_names_the_config_file():
    with pytest.raises(BestiaryError) as e:
        load_config("radscorpion_pnp", ["scenarios=[nowhere]"])
    assert CFG in str(e.value) and "scenarios" in str(e.value)


@pytest.mark.parametrize("text, fragments", [
    ("- just\n- a list\n", ["mine.yaml", "expected a mapping"]),
    ("id: mine\nruleset: pnp\ncreatures: [radscorpion]\nscenarios: [duel]\nstepz: 5\n",
     ["mine.yaml", "stepz: unknown field"]),
    ("id: mine\nruleset: pnp\nscenarios: [duel]\n", ["mine.yaml", "creatures: missing required"]),
    ("id: Mine!\nruleset: pnp\ncreatures: [radscorpion]\nscenarios: [duel]\n",
     ["mine.yaml", "id:", "pattern"]),
    ("id: mine\nruleset: pnp\ncreatures: [radscorpion]\nscenarios: []\n",
     ["mine.yaml", "no scenarios: list some, or set arenas.share to 1"]),
    ("id: [unclosed\n", ["mine.yaml"]),
])
def test_a_bad_config_file_is_one_line(tmp_path, text, fragments):
    p = tmp_path / "mine.yaml"
    p.write_text(text)
    with pytest.raises(BestiaryError) as e:
        load_config(str(p))
    msg = str(e.value)
    assert "\n" not in msg
    for f in fragments:
        assert f in msg, (f, msg)


def test_arenas_only_config_needs_no_scenarios(tmp_path):
    p = tmp_path / "mine.yaml"
    p.write_text("id: mine\nruleset: pnp\ncreatures: [radscorpion]\narenas: {share: 1}\n")
    assert load_config(str(p)).scenarios == []


def test_a_missing_config_file_is_one_line(tmp_path):
    with pytest.raises(BestiaryError, match="gone.yaml: cannot read"):
        load_config(str(tmp_path / "gone.yaml"))


def test_an_unknown_config_name_lists_the_shipped_ones():
    with pytest.raises(WastelandError) as e:
        load_config("nosuch")
    msg = str(e.value)
    assert "unknown training config 'nosuch'" in msg
    assert all(n in msg for n in SHIPPED)


# --- through the command --------------------------------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    (["nosuch"], ["unknown training config 'nosuch'", "radscorpion_pnp"]),
    (["radscorpion_pnp", "--set", "ppo.nosuch=1"], [CFG, "ppo.nosuch: unknown field"]),
    (["radscorpion_pnp", "--set", "steps"], ["expected key=value"]),
    (["radscorpion_pnp", "--set", "creatures=[dragon]"], ["unknown creature 'dragon'"]),
    (["radscorpion_pnp", "--resume", "nowhere"], ["--resume nowhere: not a training run"]),
    (["gone.yaml"], ["gone.yaml: cannot read"]),
    # issue 23: these trained 2,048 steps while the run said 1 or 2
    (["radscorpion_pnp", "--set", "steps=true"], [CFG, "steps: Input should be a valid integer"]),
    (["radscorpion_pnp", "--set", "steps=2.0"], [CFG, "steps: Input should be a valid integer"]),
    (["radscorpion_pnp", "--set", "steps=1"], [CFG, "steps 1 is less than one rollout",
                                                "ppo.n_steps 256 x n_envs 32 = 8,192"]),
    (["radscorpion_pnp", "--set", "subproc=1"], [CFG, "subproc: Input should be a valid boolean"]),
    (["radscorpion_pnp", "--set", "ppo.gamma=.nan"], [CFG, "ppo.gamma"]),
    (["radscorpion_pnp", "--set", "reward.draw=true"], [CFG, "reward.draw", "boolean, not a number"]),
])
def test_train_command_refuses_in_one_line(capsys, monkeypatch, tmp_path, args, fragments):
    r = cli(capsys, monkeypatch, "train", *args)
    one_line_error(r, *fragments)
    assert list(tmp_path.iterdir()) == []  # nothing made before the config is good


def test_train_nosuch_in_a_subprocess_is_one_line(tmp_path):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", "train", "nosuch"],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    assert "unknown training config 'nosuch'" in p.stderr
    assert not Path(tmp_path, "runs").exists()


def test_config_yaml_written_by_a_run_loads_back(tmp_path):
    """prepare_run writes the config as run; it loads back to the same config."""
    from wasteland.training.run import prepare_run

    cfg, run = prepare_run("robot_f2d20", ["steps=9000", "network=[8]"], tmp_path / "r", None)
    assert (run / "config.yaml").is_file()
    again = load_config(str(run / "config.yaml"))
    assert again == cfg and again.steps == 9000 and again.network == [8]
    assert yaml.safe_load((run / "config.yaml").read_text())["id"] == "robot_f2d20"


def test_a_seat_of_the_suite_is_a_training_scenario():
    """``seat:NAME`` names a seat of the benchmark suite (wasteland/bestiary/seats/), so a config
    can train on the line-up it is measured on, from any working folder."""
    from wasteland.training.config import SEATS, training_scenario

    cfg = load_config("super_mutant_f2d20", ["scenarios=[seat:super_mutants_ruined_street_f2d20]"])
    sc = training_scenario(cfg.scenarios[0])
    assert sc == load_scenario(SEATS / "super_mutants_ruined_street_f2d20.yaml")
    assert sc != load_scenario("ruined_street")  # the tuned line-up, not the built-in one


@pytest.mark.parametrize("name", ["seat:no_such_seat", "seat:../configs/robot_pnp"])
def test_an_unknown_seat_is_one_line_listing_the_seats(name):
    with pytest.raises(BestiaryError) as e:
        load_config("super_mutant_f2d20", [f"scenarios=[{name}]"])
    msg = str(e.value)
    assert "\n" not in msg and "unknown seat" in msg and "super_mutants_scrap_yard_f2d20" in msg


def test_a_simple_config_plays_its_seats_in_the_league_env():
    """Simple (J.E. Sawyer's rules) trains like the others: its arenas and seats play."""
    import numpy as np

    from wasteland.training.league_env import LeagueEnv

    cfg = load_config("super_mutant_f2d20", [
        "ruleset=simple", "scenarios=[seat:super_mutants_ruined_street_simple]",
        "arenas.share=0.5"])
    env = LeagueEnv(cfg)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    maps, ended = set(), 0
    for _ in range(600):
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term or trunc:
            maps.add(info["map"].split(" ")[0])
            ended += 1
            obs, _ = env.reset()
    assert env.env.ruleset.name == "simple"
    assert ended >= 3 and maps == {"arena", "super_mutants_ruined_street_simple"}


def test_an_unknown_teacher_is_one_line_before_training():
    with pytest.raises(BestiaryError) as e:
        load_config("super_mutant_f2d20", ["expert.teacher=genius"])
    msg = str(e.value)
    assert "\n" not in msg and "expert.teacher" in msg and "unknown agent 'genius'" in msg


@pytest.mark.parametrize("override, fragments", [
    ('expert.teachers={"seat:super_mutants_ruined_street_f2d20": genius}',
     ["expert.teachers['seat:super_mutants_ruined_street_f2d20']", "unknown agent 'genius'"]),
    ("expert.teachers={duel: packet}",
     ["expert.teachers: 'duel' is not one of the config's scenarios", "scenarios: ",
      "seat:super_mutants_scrap_yard_f2d20"]),
    ("expert.teachers={ruined_street: [packet]}", ["expert.teachers.ruined_street", "string"]),
])
def test_a_bad_per_map_teacher_is_one_line_before_training(override, fragments):
    _refused_in_one_line("super_mutant_f2d20", override, BestiaryError, fragments)


def test_per_map_teachers_leave_a_config_hash_alone_until_set():
    plain = load_config("super_mutant_f2d20")
    assert "teachers" not in plain.dump()["expert"]
    mapped = load_config("super_mutant_f2d20", ["expert.teachers={ruined_street: scripted}"])
    assert mapped.expert.teachers == {"ruined_street": "scripted"}
    assert mapped.hash() != plain.hash()


def test_a_relative_teacher_file_is_found_in_the_working_folder_then_the_configs(
        tmp_path, monkeypatch):
    """A shipped config names its teachers relative to the configs folder and so trains
    from any working folder; a user's file of the same relative name comes first."""
    import wasteland.training.config as config

    shipped, work = tmp_path / "configs", tmp_path / "work"
    (shipped / "teachers").mkdir(parents=True)
    (work / "teachers").mkdir(parents=True)
    (shipped / "teachers" / "duel.npz").write_bytes(b"")
    monkeypatch.setattr(config, "CONFIGS", shipped)
    monkeypatch.chdir(work)
    assert config.teacher_agent("policy:teachers/duel.npz") == \
        f"policy:{shipped / 'teachers' / 'duel.npz'}"
    (work / "teachers" / "duel.npz").write_bytes(b"")
    assert config.teacher_agent("policy:teachers/duel.npz") == "policy:teachers/duel.npz"
    for name in ("packet", "search:rollouts=8", "policy:robot_pnp",
                 f"policy:{tmp_path / 'elsewhere.npz'}", "policy:teachers/missing.npz"):
        assert config.teacher_agent(name) == name


def test_side_sight_is_in_the_hash_only_when_set_and_always_in_the_manifest():
    """`sight: side` (observe/encoding.py SIGHTS) is a new field: a config without it keeps
    its hash, so the shipped manifests still match; set, it reaches the league env and
    the policy's manifest with its own observation hash. The manifest says `sight`
    either way (issue 42: "own" too)."""
    import torch.nn as nn

    from wasteland.agents.policy import observation_hash
    from wasteland.training.export import policy_from_linears
    from wasteland.training.league_env import LeagueEnv

    plain = load_config("radscorpion_pnp")
    assert "sight" not in plain.dump() and plain.sight == "own"
    side = load_config("radscorpion_pnp", ["sight=side"])
    assert side.dump()["sight"] == "side" and side.hash() != plain.hash()
    layers = [nn.Linear(4, 3)]
    assert policy_from_linears(layers, "x", plain, ["radscorpion"]).manifest["sight"] == "own"
    assert load_config("radscorpion_f2d20").sight == "side"  # the one shipped that way
    m = policy_from_linears(layers, "x", side, ["radscorpion"]).manifest
    assert m["sight"] == "side" and m["observation_hash"] == observation_hash("side")
    env = LeagueEnv(side)
    env.reset(seed=0)
    assert env.env._enc.side_sight


def test_an_unknown_sight_is_one_line_before_training():
    _refused_in_one_line("radscorpion_f2d20", "sight=team", BestiaryError, ["sight", "own", "side"])
