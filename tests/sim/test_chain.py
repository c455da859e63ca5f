"""`simulate --chain`: the party carries what it has left from fight to fight, the dead
stay out, the fallen come back at 1 HP, chains stop at the first fight not won, and the
numbers are the same for any number of processes."""

from __future__ import annotations

import json

import pytest

import wasteland.sim.chain as chain
from wasteland.rules.battle import DEAD
from wasteland.rules.rulesets import get_ruleset
from wasteland.sim.chain import OUT, ChainTally, build_chain, fight_chain
from wasteland.sim.fight import rounds_held
from wasteland.sim.request import SimRequest
from wasteland.sim.runner import run

from .kit import cli


def watched(monkeypatch):
    """Each stage's party as its fight begins and ends: (id, status, hp, max hp, rounds
    held, items, crippled)."""
    seen: list[tuple[list, list]] = []
    real = chain.play_out

    def party(b, side):
        return [(c.id, c.status, c.hp, c.max_hp, rounds_held(c), dict(c.items),
                 dict(c.crippled)) for c in b.combatants if c.side == side]

    def spy(rs, b, kinds, side, seed, first_round=0):
        before = party(b, side)
        rec = real(rs, b, kinds, side, seed, first_round)
        seen.append((before, party(b, side)))
        return rec

    monkeypatch.setattr(chain, "play_out", spy)
    return seen


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_what_is_left_after_a_fight_starts_the_next(monkeypatch, ruleset):
    spec = build_chain(SimRequest(ruleset=ruleset, chain="ruined_street,duel,vault_corridor"))
    rs = get_ruleset(ruleset)
    checked = dead_seen = revived = 0
    for seed in range(12):
        seen = watched(monkeypatch)
        r = fight_chain(rs, spec, seed)
        assert len(seen) == len(r.stages)
        assert all(st.won for st in r.stages[:-1])  # a chain stops at the first fight lost
        for (_, end), (start, _) in zip(seen, seen[1:]):
            starts = {row[0]: row for row in start}
            for cid, status, hp, max_hp, held, items, crippled in end:
                if status == DEAD:
                    assert cid not in starts  # the dead stay out
                    dead_seen += 1
                    continue
                _, _, hp2, max2, held2, items2, crippled2 = starts[cid]
                if status == "active":
                    assert hp2 == hp
                else:
                    assert hp2 == 1  # brought round at 1 HP
                    revived += 1
                assert (max2, held2, items2, crippled2) == (max_hp, held, items, crippled)
                checked += 1
    assert checked > 20
    if ruleset == "f2d20":
        assert dead_seen and revived


def test_records_say_out_for_the_dead_of_earlier_fights():
    spec = build_chain(SimRequest(ruleset="f2d20", chain="ruined_street,duel"))
    rs = get_ruleset("f2d20")
    found = False
    for seed in range(12):
        r = fight_chain(rs, spec, seed)
        for a, b in zip(r.stages, r.stages[1:]):
            for m1, m2 in zip(a.members, b.members):
                if m1.status == DEAD:
                    assert m2.status == OUT and m2.hp == 0
                    found = True
    assert found


def test_stage_one_is_the_fight_simulate_fights():
    from wasteland.sim.fight import fight

    from .kit import spec as sim_spec

    one = sim_spec("ruined_street", "pnp")
    spec = build_chain(SimRequest(chain="ruined_street,duel"))
    rs = get_ruleset("pnp")
    for seed in range(4):
        plain = fight(rs, one, seed)
        st = fight_chain(rs, spec, seed).stages[0]
        assert (st.winner, st.rounds) == (plain.winner, plain.rounds)
        assert [m.hp for m in st.members] == [m.hp_left for m in plain.members]


def test_one_two_and_four_processes_give_the_same_chains():
    spec = build_chain(SimRequest(chain="vault_corridor,duel"))
    one = list(run(spec, fight_chain, 3, 10, 1))
    assert list(run(spec, fight_chain, 3, 10, 2)) == one
    assert list(run(spec, fight_chain, 3, 10, 4)) == one


def test_the_tally_follows_the_chains():
    spec = build_chain(SimRequest(ruleset="f2d20", chain="ruined_street,duel"))
    t = ChainTally(spec)
    for r in run(spec, fight_chain, 0, 12, 1):
        t.add(r)
    rep = t.report()
    st = rep["stages"]
    assert st[0]["reached"] == 12 and st[1]["reached"] == st[0]["cleared"]["count"]
    assert rep["cleared_all"]["count"] == st[1]["cleared"]["count"]
    assert sum(rep["stopped_at"].values()) == 12 - rep["cleared_all"]["count"]
    assert rep["summary"].startswith("the party clears all 2 encounters in ")


def test_the_command(capsys, monkeypatch):
    code, out, err = cli(capsys, monkeypatch, "simulate", "--chain", "duel,vault_corridor",
                         "--party", "brawler,wastelander", "-n", "12", "--jobs", "2", "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["chain"] == ["duel", "vault_corridor"] and d["fights"] == 12
    ids = [m["id"] for m in d["stages"][1]["after"]["members"]]
    assert ids == ["brawler_0", "wastelander_0"]
    code, text, err = cli(capsys, monkeypatch, "simulate", "--chain", "duel,vault_corridor",
                          "-n", "12", "--jobs", "1")
    assert code == 0, err
    assert "How far the party gets" in text
    assert text.rstrip().splitlines()[-1].startswith("the party clears all 2 encounters")


@pytest.mark.parametrize(("args", "answer"), [
    (["--chain", "duel,nowhere"], "unknown scenario 'nowhere'"),
    (["--chain", " , "], "--chain: 1 to 20 scenarios"),
    (["--chain", "duel", "--scenario", "duel"], "--chain names the encounters; it takes no "
                                                "--scenario"),
    (["--chain", "duel", "--enemies", "raider"], "it takes no --enemies"),
    (["--chain", "duel", "--plot", "x.png"], "it takes no --plot"),
    (["--chain", "duel,vault_corridor", "--party", "9 brawler"], "11 combatants, at most 10"),
    (["--chain", "duel", "--side", "Martians"], "unknown side 'Martians'"),
])
def test_bad_input_is_one_line(capsys, monkeypatch, tmp_path, args, answer):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and answer in err, err


def test_a_weapon_taken_in_a_fight_stays_behind():
    """Reading (Simple's disarm): the next fight starts with its own weapons; one taken
    from an enemy and held does not carry, and its own weapon comes back."""
    from tests.rules.kitsimple import creature, sarena

    a = sarena([("ann", (0, 0), 0, creature("a", weapons=("claws",))),
                ("bob", (1, 0), 1, creature("b", weapons=("pistol",)))])
    while a.whose() != ("ann", "action"):
        a.act("end")
    a.rig.push(10, 10, 10)
    a.act("disarm bob")
    ann, bob = a.c("ann"), a.c("bob")
    assert ann.weapon.id == "pistol" and ann.active_weapon == 1
    kept = chain.lasting(ann)
    assert kept["active_weapon"] == 0 and len(kept["loaded"]) == 1
    fresh = sarena([("ann", (0, 0), 0, creature("a", weapons=("claws",))),
                    ("bob", (1, 0), 1, creature("b", weapons=("pistol",)))])
    chain.carry_onto(fresh.c("ann"), kept)
    chain.carry_onto(fresh.c("bob"), chain.lasting(bob))
    assert fresh.c("ann").weapon.id == "claws" and len(fresh.c("ann").weapons) == 1
    assert "gone" not in fresh.c("bob").cond and fresh.c("bob").weapon.id == "pistol"
