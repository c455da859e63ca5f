"""Playing against a trained policy needs no torch and loads no pickle (issue 10, item 5):
a fresh interpreter plays whole fights with a PolicyAgent from a .npz, once through
seats.fight and once through `wasteland fight --agents packet,policy:PATH`, with every
pickle loader replaced by one that raises, and then holds no torch or stable-baselines3."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from wasteland.training.export import write_policy

from .kit import random_policy

CHILD = textwrap.dedent('''
    import contextlib, io, json, pickle, sys

    def refuse(*args, **kwargs):
        raise RuntimeError("a pickle was loaded")

    class Refused(pickle.Unpickler):
        def __init__(self, *args, **kwargs):
            refuse()

    pickle.load = refuse
    pickle.loads = refuse
    pickle.Unpickler = Refused

    from wasteland.agents.make import make_agent
    from wasteland.agents.policy import PolicyAgent, load_policy
    from wasteland.bestiary.loader import load_scenario
    from wasteland.training.seats import fight

    path = sys.argv[1]
    kinds = ["radscorpion", "young_radscorpion", "giant_radscorpion"]
    reasons = []

    class Watch(PolicyAgent):
        def act(self, view):
            action = super().act(view)
            reasons.append(self.last_reason)
            return action

    pol = load_policy(path)
    winners = []
    for scenario, ruleset in (("vault_corridor", "pnp"), ("desert_wash", "pnp")):
        winners.append(fight(load_scenario(scenario), ruleset, 5, 1, kinds,
                             lambda s: Watch(pol, s), lambda s: make_agent("packet", s)))

    from wasteland.cli.main import main

    out = io.StringIO()
    sys.argv = ["wasteland", "fight", "--scenario", "vault_corridor", "--seed", "3",
                "--agents", "packet,policy:" + path, "--json"]
    with contextlib.redirect_stdout(out):
        try:
            main()
        except SystemExit as e:
            code = e.code
    cli = json.loads(out.getvalue())
    print(json.dumps({
        "winners": winners, "policy_moves": sum(r.startswith("policy ") for r in reasons),
        "code": code, "result": cli["result"],
        "cli_policy_moves": sum(str(d.get("reason", "")).startswith("policy ")
                                for d in cli["decisions"]),
        "heavy": sorted(m for m in ("torch", "stable_baselines3", "sb3_contrib")
                        if m in sys.modules),
    }))
''')


def test_a_fight_against_a_policy_imports_no_torch_and_unpickles_nothing(tmp_path):
    npz, _ = write_policy(random_policy("tiny"), tmp_path / "pol")
    p = subprocess.run([sys.executable, "-c", CHILD, str(npz)], capture_output=True, text=True,
                       timeout=180, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["heavy"] == []
    assert got["code"] in (0, None) and got["result"] in ("win", "draw")
    assert got["policy_moves"] > 0 and got["cli_policy_moves"] > 0
    assert len(got["winners"]) == 2


def test_the_child_notices_a_pickle(tmp_path):
    """The guard works: the same child fails if the weights hold a pickled array and
    loading allowed pickles (here: a manifest that passes and an .npz numpy can only
    unpickle)."""
    import numpy as np

    npz, _ = write_policy(random_policy("tiny"), tmp_path / "pol")
    child = CHILD.replace("from wasteland.agents.policy import PolicyAgent, load_policy",
                          "from wasteland.agents.policy import PolicyAgent, load_policy\n"
                          "import numpy as np\n"
                          "np.load(sys.argv[1] + '.obj.npy', allow_pickle=True)")
    np.save(str(npz) + ".obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    p = subprocess.run([sys.executable, "-c", child, str(npz)], capture_output=True, text=True,
                       timeout=180, cwd=tmp_path)
    assert p.returncode != 0 and "a pickle was loaded" in p.stderr
