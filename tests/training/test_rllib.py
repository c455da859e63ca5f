"""RLlib (issue 14, item 4): combat_v0 as an RLlib multi-agent env with nothing for the
user to wrap (the mask key RLlib's masking reads, turn-based agent dicts, one module per
creature kind, per-side returns, RLlib's env pre-check passing), a short PPO run through
`wasteland train --backend rllib`, and its exported policy playing through `policy:`."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

from wasteland.agents.policy import load_policy  # noqa: E402
from wasteland.observe.encoding import to_table  # noqa: E402
from wasteland.rules.actions import ACTION_TABLE  # noqa: E402
from wasteland.training.config import load_config  # noqa: E402
from wasteland.training.rllib_env import RLlibCombat, module_of, seats_of  # noqa: E402

from .kit import cli, one_line_error  # noqa: E402

MIRROR = ["arenas.share=1", "arenas.mirror=1"]


def env_of(name: str = "radscorpion_pnp", overrides: list[str] | None = None) -> RLlibCombat:
    return RLlibCombat({"config": load_config(name, overrides or []).model_dump(mode="json")})


def play(env: RLlibCombat, seed: int, rng: np.random.Generator, illegal: bool = False):
    """One episode with random legal actions (or, with ``illegal``, an action outside the
    mask on every step): the seats that decided, the returns, and the last step's dicts."""
    obs, _ = env.reset(seed=seed)
    deciders, returns = [], {}
    while True:
        assert len(obs) == 1  # turn-based: only the seat deciding gets an observation
        (aid, o), = obs.items()
        legal = np.flatnonzero(o["action_mask"])
        assert legal.size and o["action_mask"].dtype == np.float32
        deciders.append(aid)
        a = int(np.flatnonzero(o["action_mask"] == 0)[0]) if illegal else int(rng.choice(legal))
        obs, rew, term, trunc, info = env.step({aid: a})
        for k, v in rew.items():
            returns[k] = returns.get(k, 0.0) + v
        if term["__all__"] or trunc["__all__"]:
            return deciders, returns, (obs, rew, term, trunc, info)


def test_seats_are_named_by_side_kind_and_number_and_map_to_their_kinds_module():
    env = env_of("super_mutant_f2d20", ["arenas.share=0"])
    sc = env.scenarios[0]
    seats = seats_of(sc, env.kinds)
    kinds = {c.creature for s in sc.sides for c in s.combatants}
    assert seats and all(module_of(a) in env.kinds for a in seats.values())
    assert set(seats.values()) <= set(env.possible_agents)
    slot = 0
    for si, side in enumerate(sc.sides):  # slots in scenario order, as the battle numbers them
        for p in side.combatants:
            assert (slot in seats) == (p.creature in env.kinds)
            if slot in seats:
                assert seats[slot].startswith(f"{si}/{p.creature}/")
            slot += 1
    assert kinds - env.kinds  # the scenario has others, which the env plays itself
    assert module_of("1/super_mutant_brute/0") == "super_mutant_brute"


def test_the_observation_carries_rllibs_mask_key_and_the_mask_is_what_the_decider_knows():
    from wasteland.observe import fog

    env = env_of("super_mutant_f2d20", ["arenas.share=0"])
    obs, _ = env.reset(seed=3)
    (aid, o), = obs.items()
    assert set(o) == {"observations", "action_mask"}
    assert env.observation_spaces[aid].contains(o)
    b, R, inner = env.env.battle, env.env.ruleset, env.env
    legal = {to_table(i, inner.order()) for i in np.flatnonzero(o["action_mask"])}
    me = inner._decision.combatant
    # the ruleset's legal actions judged on the board as the decider knows it (observe/fog.py)
    assert legal == set(fog.mask(R, b, me, inner.sight == "side", memory=inner.memory)[0])
    assert env.possible_agents[0] == "0/super_mutant/0"


def test_only_learning_seats_decide_and_a_one_sided_fight_pays_plus_or_minus_one():
    # the ruined street only: in the config's mirror seat both sides are super mutants
    env = env_of("super_mutant_f2d20", ["arenas.share=0", "reward.shaping=0", "reward.draw=0",
                                        "scenarios=[ruined_street]"])
    rng = np.random.default_rng(0)
    seen = 0
    for seed in range(6):
        deciders, returns, (obs, rew, term, trunc, info) = play(env, seed, rng)
        assert {module_of(a) for a in deciders} <= env.kinds
        assert set(obs) == set(env.agents)  # every seat gets a last observation
        b = env.env.battle
        learner_side = {int(a.split("/")[0]) for a in env.agents}
        assert len(learner_side) == 1
        want = 0.0 if b.winner is None else (1.0 if b.winner in learner_side else -1.0)
        for a in env.agents:
            assert returns[a] == pytest.approx(want)
            assert info[a]["winner"] == (-1 if b.winner is None else b.winner)
        seen += b.winner is not None
    assert seen  # some fights were won or lost, not all drawn


def test_in_a_mirror_arena_both_sides_learn_and_their_returns_are_opposite():
    env = env_of("radscorpion_pnp", [*MIRROR, "reward.shaping=0", "reward.draw=0"])
    rng = np.random.default_rng(1)
    decided = 0
    for seed in range(4):
        deciders, returns, _ = play(env, seed, rng)
        sides = {int(a.split("/")[0]) for a in env.agents}
        assert sides == {0, 1}
        decided += len({int(a.split("/")[0]) for a in deciders}) == 2
        b = env.env.battle
        per_side = {s: [returns[a] for a in env.agents if a.startswith(f"{s}/")] for s in sides}
        if b.winner is not None:
            assert set(per_side[b.winner]) == {1.0} and set(per_side[1 - b.winner]) == {-1.0}
    assert decided  # both sides took decisions in the same fight


def test_an_action_outside_the_mask_plays_end_and_is_counted_not_raised():
    env = env_of("super_mutant_f2d20", ["arenas.share=0"])
    obs, _ = env.reset(seed=5)
    (aid, o), = obs.items()
    bad = int(np.flatnonzero(o["action_mask"] == 0)[0])
    env.step({aid: bad})
    assert env.illegal == 1
    assert ACTION_TABLE[bad].kind != "end"
    with pytest.raises(ValueError, match="the seat deciding is"):
        env.step({"0/nobody/0": 0})


def test_rllibs_own_env_pre_check_passes():
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    check_multiagent_environments(env_of("super_mutant_f2d20", ["arenas.share=0"]))
    check_multiagent_environments(env_of("radscorpion_pnp", MIRROR))


TRAIN = ["--set", "steps=400", "--set", "ppo.n_steps=200", "--set", "n_envs=1",
         "--set", "arenas.creature_count=[1,1]",
         "--set", "ppo.batch_size=50", "--set", "ppo.n_epochs=1", "--set", "network=[16,16]",
         *[x for m in MIRROR for x in ("--set", m)]]


@pytest.fixture(scope="module")
def rllib_run(tmp_path_factory):
    """`wasteland train radscorpion_pnp --backend rllib` for 400 steps of self-play: the
    run folder, the exit code, stdout and stderr (capsys is per test: captured here)."""
    import contextlib
    import io
    import sys

    from wasteland.cli.main import main

    run = tmp_path_factory.mktemp("rllib") / "run"
    out, err, argv = io.StringIO(), io.StringIO(), sys.argv
    sys.argv = ["wasteland", "train", "radscorpion_pnp", "--backend", "rllib", "--out", str(run),
                *TRAIN]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = argv
    return run, code, out.getvalue(), err.getvalue()


def test_a_short_rllib_run_trains_reports_per_side_returns_and_exports_per_kind(rllib_run):
    run, code, out, err = rllib_run
    assert code == 0, err
    assert "with RLlib for 400 steps" in out and "iteration 2: 400 steps" in out
    with open(run / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["steps"]) for r in rows] == [200, 400]
    last = rows[-1]
    assert int(last["episodes"]) > 0
    assert float(last["self_play"]) == 1.0  # mirror arenas: both sides learned
    assert last["return_side_0"] and last["return_side_1"]
    summary = json.loads((run / "summary.json").read_text())
    kinds = load_config("radscorpion_pnp").creatures
    assert len(summary["policies"]) == len(kinds)
    for kind in kinds:
        pol = load_policy(run / "policies" / f"radscorpion_pnp_{kind}.npz")
        assert pol.kinds == frozenset([kind]) and pol.manifest["trainer"] == "rllib"
        assert [w.shape for w in pol.weights] == [(pol.weights[0].shape[0], 16), (16, 16),
                                                  (16, len(ACTION_TABLE))]


def test_the_exported_arrays_are_the_rllib_modules_actor(rllib_run):
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    run = rllib_run[0]
    kind = "radscorpion"
    module = RLModule.from_checkpoint(
        run / "checkpoint" / "learner_group" / "learner" / "rl_module" / kind)
    pol = load_policy(run / "policies" / f"radscorpion_pnp_{kind}.npz")
    env = env_of("radscorpion_pnp", MIRROR)
    obs, _ = env.reset(seed=2)
    (aid, o), = obs.items()
    batch = {"obs": {"observations": torch.tensor(o["observations"][None]),
                     "action_mask": torch.ones(1, len(ACTION_TABLE))}}
    with torch.no_grad():
        want = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
    got = pol.logits(o["observations"].astype(np.float64))
    assert np.allclose(got, want, atol=1e-4)


def test_wasteland_export_reads_an_rllib_run_from_its_checkpoint(rllib_run, capsys,
                                                                  monkeypatch, tmp_path):
    run = rllib_run[0]
    r = cli(capsys, monkeypatch, "export", str(run), "--name", "again", "--out", str(tmp_path))
    assert r.code == 0, r.err
    for kind in load_config("radscorpion_pnp").creatures:
        a = load_policy(tmp_path / f"again_{kind}.npz")
        b = load_policy(run / "policies" / f"radscorpion_pnp_{kind}.npz")
        assert all(np.array_equal(x, y) for x, y in zip(a.weights + a.biases,
                                                         b.weights + b.biases))
        assert a.kinds == frozenset([kind])


def test_the_exported_policy_plays_through_policy_agents(rllib_run, capsys, monkeypatch):
    run = rllib_run[0]
    npz = run / "policies" / "radscorpion_pnp_radscorpion.npz"
    r = cli(capsys, monkeypatch, "fight", "--ruleset", "pnp", "--scenario", "vault_corridor",
            "--agents", f"packet,policy:{npz}", "--seed", "3")
    assert r.code == 0, r.err
    assert "Result: " in r.out.splitlines()[-1]
    # and its radscorpions were played by the network, not by the packet fallback
    from wasteland.agents.base import view_of
    from wasteland.agents.make import make_agent
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.rulesets import get_ruleset

    R = get_ruleset("pnp")
    b = R.new_battle(load_scenario("vault_corridor"), 3)
    agent, packet = make_agent(f"policy:{npz}", 3), make_agent("packet", 3)
    reasons = []
    while not b.over and len(reasons) < 5:
        v = view_of(R, b)
        who = agent if v.me.creature.id == "radscorpion" else packet
        R.apply(b, who.act(v))
        if who is agent:
            reasons.append(agent.last_reason)
    assert reasons and all(r.startswith("policy radscorpion pnp radscorpion: ") for r in reasons)


def test_backend_options_are_checked_in_one_line(capsys, monkeypatch, tmp_path):
    one_line_error(cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--backend", "tf",
                       "--out", str(tmp_path / "a")), "--backend 'tf'", "sb3, rllib")
    one_line_error(cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--address", "auto",
                       "--out", str(tmp_path / "b")), "belong to --backend rllib")
    # an address nothing answers on: one line, and no run folder left to block a retry
    one_line_error(cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--backend", "rllib",
                       "--address", "127.0.0.1:9", "--out", str(tmp_path / "c")),
                   "--address 127.0.0.1:9")
    assert not (tmp_path / "c").exists()


def test_a_damaged_rllib_checkpoint_is_one_line(rllib_run, capsys, monkeypatch, tmp_path):
    """A file of the checkpoint changed after it was signed: refused before RLlib reads it;
    with its signature made again by this machine's key, RLlib's own refusal is one line."""
    import shutil

    from wasteland.training.signature import sign

    run = tmp_path / "run"
    shutil.copytree(rllib_run[0], run)
    state = run / "checkpoint" / "learner_group" / "learner" / "rl_module" / "radscorpion"
    for f in state.iterdir():
        if f.is_file():
            f.write_bytes(b"not a checkpoint")
    args = ("export", str(run), "--name", "x", "--out", str(tmp_path / "out"))
    one_line_error(cli(capsys, monkeypatch, *args), "signature does not match its files")
    sign(run / "checkpoint")
    one_line_error(cli(capsys, monkeypatch, *args), "not a readable RLlib checkpoint")


class WritesAFile:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self):
        return (exec, (f"open({self.path!r}, 'w').write('pwned')",))


@pytest.mark.parametrize("signature", ["none", "forged"])
def test_a_crafted_rllib_checkpoint_is_refused_unread(rllib_run, capsys, monkeypatch, tmp_path,
                                                      signature):
    """A run folder from elsewhere, whose pickles would write a file: export and resume
    refuse it in one line and nothing is unpickled (issue 23, item 1)."""
    import pickle
    import shutil

    from wasteland.training.signature import SIGNATURE

    run = tmp_path / "run"
    shutil.copytree(rllib_run[0], run)
    marker = tmp_path / "pwned"
    for pkl in (run / "checkpoint").rglob("*.pkl"):
        pkl.write_bytes(pickle.dumps(WritesAFile(str(marker))))
    if signature == "none":
        (run / SIGNATURE).unlink()
        why = "it has no signature"
    else:  # signed with another machine's key
        monkeypatch.setenv("WASTELAND_KEY_FILE", str(tmp_path / "their.key"))
        from wasteland.training.signature import sign

        sign(run / "checkpoint")
        monkeypatch.undo()
        why = "signature does not match"
    one_line_error(cli(capsys, monkeypatch, "export", str(run), "--name", "x", "--out",
                       str(tmp_path / "out")), why)
    one_line_error(cli(capsys, monkeypatch, "train", "radscorpion_pnp", "--backend", "rllib",
                       "--resume", str(run)), why)
    assert not marker.exists()
