"""The learned value (agents/valuenet.py, docs/search.md "A learned value"): the shipped
files load and judge what they must, a file that does not match the code is refused in
one line, and the search's ``value=learned`` key parses, round-trips and plays a legal
fight."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from wasteland.agents import valuenet
from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.agents.packets import PacketAgent
from wasteland.agents.search import parse_budget
from wasteland.agents.valuenet import N_FEATURES, load_value, shipped_value, value_features
from wasteland.bestiary.loader import load_scenario
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.battle import ACTIVE, DEAD
from wasteland.rules.errors import WastelandError
from wasteland.rules.fork import fork
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset


def _battle(ruleset: str, scenario: str = "ruined_street", decisions: int = 30, seed: int = 4):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed, keep_log=False)
    b.quiet = True
    agents = [PacketAgent(s) for s in range(len(b.side_names))]
    for _ in range(decisions):
        if b.over:
            break
        v = view_of(rs, b)
        rs.apply(b, agents[b.combatants[v.decision.combatant].side].act(v), check=False)
    return rs, b


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_shipped_value_loads_and_gives_a_chance_for_each_side(ruleset):
    net = shipped_value(ruleset)
    assert net.manifest["ruleset"] == ruleset
    _, b = _battle(ruleset)
    assert not b.over
    x = value_features(b, 0)
    assert x.shape == (N_FEATURES,) and np.isfinite(x).all()
    p0, p1 = net(b, 0), net(b, 1)
    assert 0.0 < p0 < 1.0 and 0.0 < p1 < 1.0
    assert abs(p0 + p1 - 1.0) < 0.5  # two sides' chances of one fight (draws aside)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_finished_battle_is_worth_exactly_one_to_its_winner_and_zero_to_the_loser(ruleset):
    _, b = _battle(ruleset, "duel", 4000)
    assert b.over and b.winner is not None
    net = shipped_value(ruleset)
    assert net(b, b.winner) == 1.0
    assert net(b, 1 - b.winner) == 0.0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_side_with_one_combatant_left_at_one_hp_is_behind(ruleset):
    """Ruined street: three of one side's four fallen and the last at 1 HP, the other side
    whole; the fight is not over until the ruleset looks, and the value says who leads."""
    _, b = _battle(ruleset, decisions=2)
    for loser in (0, 1):
        f = fork(b, 1)
        mine = [c for c in f.combatants if c.side == loser]
        for c in mine[1:]:
            c.status = DEAD
            c.hp = 0
        mine[0].hp = 1
        assert mine[0].status == ACTIVE and not f.over
        net = shipped_value(ruleset)
        assert net(f, loser) < 0.3
        assert net(f, 1 - loser) > 0.7


def _copy(tmp_path, ruleset: str):
    src = valuenet._paths(ruleset, None)
    for p in src:
        shutil.copy(p, tmp_path / p.name)
    return tmp_path / f"{ruleset}.json"


@pytest.mark.parametrize("change, words", [
    ({"feature_hash": "0123456789abcdef"}, "trained on other features"),
    ({"ruleset": "simple"}, "is for ruleset 'simple'"),
    ({"format": "wasteland-policy-1"}, "is not a wasteland-value-1 manifest"),
    ({"layers": [[N_FEATURES, 32], [64, 64], [64, 1]]}, "layer 1 has shape [64, 64], expected [32, k]"),
    ({"layers": [[N_FEATURES + 1, 64], [64, 64], [64, 1]]}, "layer 0 has shape"),
    ({"layers": "many"}, "layers must be"),
])
def test_a_manifest_that_does_not_match_the_code_is_refused_in_one_line(tmp_path, change, words):
    js = _copy(tmp_path, "pnp")
    m = json.loads(js.read_text())
    m.update(change)
    js.write_text(json.dumps(m))
    with pytest.raises(WastelandError) as e:
        load_value("pnp", tmp_path)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_weights_whose_shape_differs_from_the_manifest_are_refused_in_one_line(tmp_path):
    js = _copy(tmp_path, "pnp")
    arrays = {k: np.zeros((3, 3)) if k == "w1" else v
              for k, v in np.load(tmp_path / "pnp.npz").items()}
    np.savez(tmp_path / "pnp.npz", **arrays)
    assert js.exists()
    with pytest.raises(WastelandError) as e:
        load_value("pnp", tmp_path)
    assert "array w1 has shape (3, 3)" in str(e.value) and "\n" not in str(e.value)


def test_the_copied_files_load_as_they_are(tmp_path):
    """The refusals above come from the change each makes, not from the copy."""
    _copy(tmp_path, "pnp")
    assert load_value("pnp", tmp_path).ruleset == "pnp"


@pytest.mark.parametrize("name, text", [
    ("search:value=learned", "search:value=learned"),
    ("search:rollouts=8,value=learned,z=2", "search:rollouts=8,z=2,value=learned"),
    ("search:value=logistic", "search:value=logistic"),
])
def test_the_value_key_parses_and_names_itself_again(name, text):
    budget = parse_budget(name)
    assert budget.text() == text
    assert parse_budget(budget.text()) == budget
    assert budget.value == name.split("value=")[1].split(",")[0]


def test_a_value_key_with_another_word_is_refused_in_one_line():
    with pytest.raises(WastelandError) as e:
        parse_budget("search:value=neural")
    assert "logistic, learned" in str(e.value) and "\n" not in str(e.value)


def test_the_search_with_the_learned_value_plays_a_legal_fight_to_the_end():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 2, keep_log=False)
    b.quiet = True
    agents = [make_agent("search:value=learned,rollouts=6,candidates=3,full=0", 5),
              make_agent("packet", 6)]
    reasons = []
    for _ in range(3000):
        if b.over:
            break
        v = view_of(rs, b)
        side = b.combatants[v.decision.combatant].side
        action = agents[side].act(v)
        assert ACTION_TABLE.index(action) in v.legal_ids
        rs.apply(b, action)
        if side == 0:
            reasons.append(agents[0].last_reason)
    assert b.over
    assert any("learned value" in r for r in reasons)


def test_the_search_says_in_one_line_when_its_learned_value_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(valuenet, "_LOADED", {})
    monkeypatch.setattr(valuenet, "_paths", lambda r, folder: (tmp_path / f"{r}.npz",
                                                              tmp_path / f"{r}.json"))
    rs, b = _battle("pnp", decisions=2)
    agent = make_agent("search:value=learned,rollouts=4", 1)
    with pytest.raises(WastelandError) as e:
        for _ in range(20):  # until a decision with more than one candidate
            v = view_of(rs, b)
            rs.apply(b, agent.act(v))
    assert "learned value pnp: no value file" in str(e.value) and "\n" not in str(e.value)


def test_the_search_judges_its_cut_continuations_with_the_learned_value(monkeypatch):
    """Every cut continuation of a value=learned search is judged by the ruleset's learned
    value (here a stand-in that counts its calls), none by the logistic one."""
    from wasteland.agents import search

    calls: list[int] = []
    monkeypatch.setattr(valuenet, "_LOADED",
                        {"pnp": lambda f, side, memory=None: calls.append(side) or 0.5})
    monkeypatch.setattr(search, "value", lambda f, side: 1 / 0 if not f.over else 0.0)
    rs, b = _battle("pnp", decisions=2)
    agent = make_agent("search:value=learned,rollouts=8,horizon=1,full=0", 1)
    for _ in range(40):
        if calls:
            break
        rs.apply(b, agent.act(view_of(rs, b)))
    assert calls and set(calls) <= {0, 1}


@pytest.mark.parametrize("argv, fragment", [
    (["--rulesets", "nope"], "--rulesets: nope; accepted: pnp"),
    (["--fights", "0"], "--fights must be 1 to 1,000,000, got 0"),
    (["--seed", "-1"], "--seed must be 0 to"),
])
def test_the_value_trainer_refuses_bad_arguments_in_one_line(capsys, argv, fragment) -> None:
    from wasteland.training.value import main

    with pytest.raises(SystemExit) as err:
        main(argv)
    assert err.value.code == 2 and fragment in capsys.readouterr().err


def _rows_one_by_one(b):
    """valuenet.rows as it read each combatant's observation on its own (before the rows
    were taken all at once): the reference the batched reading must equal bit for bit."""
    from wasteland.observe.encoding import MAX_COMBATANTS, B, Encoder, G

    valuenet.rows(b)  # fills the column indices
    gi, si, ni, mi, enemy, alive, dist, _ = valuenet._IDX
    enc = Encoder(b)
    standing = [c for c in b.combatants if c.status == ACTIVE]
    out = np.zeros((len(standing), len(valuenet.ROW)), np.float32)
    for r, c in enumerate(standing):
        o = enc.observe(c.slot, None, None, True)
        blocks = o[G:].reshape(MAX_COMBATANTS, B)
        foes = blocks[1:][(blocks[1:, enemy] > 0) & (blocks[1:, alive] > 0)]
        k = 0
        out[r, k:k + len(gi)] = o[gi]
        k += len(gi)
        out[r, k:k + len(si)] = blocks[0, si]
        k += len(si)
        if len(foes):
            out[r, k:k + len(ni)] = foes[0, ni]
            out[r, k + len(ni):k + len(ni) + len(mi)] = foes[:, mi].max(axis=0)
            out[r, -1] = foes[:, dist].mean()
    return out, [c.side for c in standing]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_rows_read_at_once_equal_each_combatants_own_reading(ruleset):
    """The value's rows, taken for every standing combatant in one go, equal what each
    combatant's observation gives on its own, and each camp's pooled rows numpy's mean and
    max of them, to the last bit: on packet fights of the
    built-in maps, and one against nine (numpy's mean sums eight and more foes pairwise)."""
    from wasteland.training.arenas import random_arena

    rs = get_ruleset(ruleset)
    lone = random_arena(np.random.default_rng(1), ["super_mutant"], ["raider"],
                        creature_count=(1, 1), foe_count=(9, 9), ruleset=ruleset)
    checked = 0
    for scenario in ("ruined_street", "desert_wash", "robot_depot", lone):
        sc = load_scenario(scenario) if isinstance(scenario, str) else scenario
        for seed in range(3):
            b = rs.new_battle(sc, seed, keep_log=False)
            b.quiet = True
            agents = [PacketAgent(seed + s) for s in range(len(b.side_names))]
            for _ in range(60):
                if b.over:
                    break
                want, sides = _rows_one_by_one(b)
                got, got_sides = valuenet.rows(b)
                assert got.tobytes() == want.tobytes() and got_sides == sides
                for side in range(len(b.side_names)):  # each camp pooled as numpy's own
                    mine = np.array([s == side for s in sides], dtype=bool)
                    pooled = [np.zeros(len(valuenet.ROW), np.float32)] * 4
                    for k, camp in enumerate((want[mine], want[~mine])):
                        if len(camp):
                            pooled[2 * k:2 * k + 2] = [camp.mean(axis=0), camp.max(axis=0)]
                    x = value_features(b, side)
                    assert x[:4 * len(valuenet.ROW)].tobytes() == np.concatenate(
                        pooled).astype(np.float32).tobytes()
                checked += 1
                v = view_of(rs, b)
                rs.apply(b, agents[b.combatants[v.decision.combatant].side].act(v),
                         check=False)
    assert checked > 400
