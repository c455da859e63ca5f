"""Saving, loading and replaying battles (DESIGN.md, Principles: deterministic)."""

from __future__ import annotations

import json
import random

import pytest

from wasteland.bestiary.loader import load_scenario, scenario_names
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.errors import SaveError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset


def _play(rs, b, rng, steps=None):
    n = 0
    while not b.over and (steps is None or n < steps):
        rs.apply(b, ACTION_TABLE[rng.choice(rs.legal_ids(b))])
        n += 1


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", scenario_names())
@pytest.mark.parametrize("cut", [1, 25, 60])
def test_saved_mid_fight_continues_exactly(ruleset, scenario, cut, tmp_path):
    rs = get_ruleset(ruleset)
    sc = load_scenario(scenario)
    a = rs.new_battle(sc, 11)
    _play(rs, a, random.Random(1), cut)
    path = tmp_path / "b.json"
    saves.save(a, path)
    b = saves.load(path)
    assert b.state() == a.state()
    assert b.history == a.history
    assert [e.text() for e in b.log] == [e.text() for e in a.log]  # the whole log, replayed
    ra, rb = random.Random(2), random.Random(2)
    _play(rs, a, ra)
    _play(rs, b, rb)
    assert a.state() == b.state()
    assert [e.text() for e in a.log] == [e.text() for e in b.log]
    assert a.history == b.history


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", scenario_names())
def test_replay_from_seed_and_actions_is_exact(ruleset, scenario):
    rs = get_ruleset(ruleset)
    sc = load_scenario(scenario)
    a = rs.new_battle(sc, 5)
    _play(rs, a, random.Random(9))
    b = saves.replay(ruleset, sc, 5, a.history)
    assert b.over and b.winner == a.winner
    assert b.state() == a.state()
    assert [e.text() for e in b.log] == [e.text() for e in a.log]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_fight_different_seed_differs(ruleset):
    rs = get_ruleset(ruleset)
    sc = load_scenario("vault_corridor")
    logs = []
    for seed in (3, 3, 4):
        b = rs.new_battle(sc, seed)
        _play(rs, b, random.Random(0))
        logs.append([e.text() for e in b.log])
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_save_is_self_contained_json(ruleset, tmp_path):
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), 1)
    d = json.loads(saves.dumps(b))
    assert d["format"] == "wasteland-battle"
    ids = {c["id"] for c in d["bestiary"]["creatures"]}
    assert {c.creature.id for c in b.combatants} == ids


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a Wasteland battle save"),
        ('{"format": "wasteland-battle", "version": 99}', "save version 99, this build reads 1 and 2"),
        ('{"format": "wasteland-battle", "version": 1, "ruleset": "pnp"}',
         "seed: Field required"),
    ],
)
def test_broken_saves_give_one_line(text, fragment):
    with pytest.raises(SaveError) as e:
        saves.loads(text, "game.json")
    msg = str(e.value)
    assert fragment in msg and "game.json" in msg and "\n" not in msg


def test_unknown_ruleset_in_save_is_named():
    rs = get_ruleset("pnp")
    d = saves.to_dict(rs.new_battle(load_scenario("vault_corridor"), 1))
    d["ruleset"] = "gurps"
    with pytest.raises(SaveError, match="unknown ruleset 'gurps'; available: pnp"):
        saves.from_dict(d)


def test_replay_rejects_history_of_the_wrong_actor():
    sc = load_scenario("vault_corridor")
    rs = get_ruleset("pnp")
    b = rs.new_battle(sc, 1)
    first = b.ids[rs.decider(b).combatant]
    other = next(i for i in b.ids if i != first)
    with pytest.raises(SaveError, match=f"expected {first} to act, found {other}"):
        saves.replay("pnp", sc, 1, [f"{other}: end"])


@pytest.mark.parametrize("window", ["dice", "boost", "free"])
def test_f2d20_save_inside_a_decision_window_continues_exactly(window, tmp_path):
    """A 2d20 battle saved while an attacker decides how many d20s to buy or combat dice
    to add, or while a readied attack is offered, loads into the same decision."""
    rs = get_ruleset("f2d20")
    rng = random.Random(4)
    for seed in range(40):
        a = rs.new_battle(load_scenario(scenario_names()[seed % len(scenario_names())]), seed)
        while not a.over and rs.decider(a).slot != window:
            rs.apply(a, ACTION_TABLE[rng.choice(rs.legal_ids(a))])
        if not a.over:
            break
    else:
        pytest.fail(f"no {window} decision came up")
    path = tmp_path / "w.json"
    saves.save(a, path)
    b = saves.load(path)
    assert rs.decider(b) == rs.decider(a)
    assert rs.legal_ids(b) == rs.legal_ids(a)
    _play(rs, a, random.Random(5))
    _play(rs, b, random.Random(5))
    assert a.state() == b.state() and a.history == b.history


@pytest.mark.parametrize("ruleset", RULESETS)
def test_finished_fights_save_and_load(ruleset, tmp_path):
    """A fight saved after its last action (what `fight --save` and a game's end write)."""
    rs = get_ruleset(ruleset)
    for i, scenario in enumerate(scenario_names()):
        a = rs.new_battle(load_scenario(scenario), 20 + i)
        _play(rs, a, random.Random(i))
        saves.save(a, tmp_path / "done.json")
        b = saves.load(tmp_path / "done.json")
        assert b.over and b.state() == a.state() and b.winner == a.winner


def test_a_2d20_save_from_before_untied_d20s_went_unasked_still_replays():
    """Until issue 26 a 2d20 table asked every party member's tie-break d20 at set-up,
    tied or not, and the save holds them: such a save replays with them (and keeps them),
    and a new one, which never asked them, replays without them."""
    from wasteland.rules.rollnotes import UNTIED

    sc = load_scenario("duel")
    fresh = saves.replay("f2d20", sc, 3, [])
    first = fresh.ids[fresh.order[0]]
    assert not any(m for m in fresh.history if m.startswith("@dice"))
    ted = sc.sides[0].combatants[0].id or "ted"
    legacy = [f"@dice {ted} 1d20 17 (initiative tie)"]
    old = saves.replay("f2d20", sc, 3, legacy)
    assert old.history[:1] == [f"@dice {ted} 1d20 17 ({UNTIED})"]
    assert old.ids[old.order[0]] == first  # nobody tied: the d20 orders nothing
    again = saves.replay("f2d20", sc, 3, old.history)  # saved again, it still replays
    assert again.history == old.history
