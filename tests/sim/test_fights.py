"""The fast path fights the fight `wasteland fight` shows, and counts what happened in it."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from wasteland.bestiary.loader import default_bestiary
from wasteland.cli.fight import fight_on, new_fight
from wasteland.rules.battle import ACTIVE, DEAD
from wasteland.rules.rulesets import get_ruleset
from wasteland.sim.fight import fight
from wasteland.sim.runner import run_fights

from .kit import spec


@pytest.mark.parametrize(("ruleset", "agent", "seeds"), [
    ("pnp", "packet", (0, 7)), ("f2d20", "packet", (3, 4)), ("pnp", "random", (1,)),
    ("f2d20", "random", (2,))])
def test_fight_k_is_the_fight_of_wasteland_fight_seed_k(ruleset, agent, seeds):
    """The random agent leans on its seed at every decision, so it shows a side's agent
    seeded other than ``seed + side``; under 2d20 also one asked a decision with one legal
    action (the packet is not: fight.SKIPS_FORCED), which `wasteland fight` asks too."""
    s = spec("ruined_street", ruleset, agent)
    for seed in seeds:
        rec = fight(get_ruleset(ruleset), s, seed)
        b, agents = new_fight(ruleset, "ruined_street", seed, [agent, agent])
        result = fight_on(b, agents)
        assert rec.winner == b.winner and rec.rounds == b.round
        assert rec.decisions == len(result.decisions)
        party = [c for c in b.combatants if c.side == 0]
        assert [m.hp_lost for m in rec.members] == [c.max_hp - c.hp for c in party]
        assert [m.went_down for m in rec.members] == [c.status != ACTIVE for c in party]
        assert [m.died for m in rec.members] == [c.status == DEAD for c in party]


def test_fight_k_of_a_run_from_seed_s_is_wasteland_fight_seed_s_plus_k():
    """Through both commands: simulate --seed 5 fights seeds 5, 6, 7, ..."""
    def run(*args: str) -> dict:
        p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", *args, "--json"],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    duel = spec("duel", "f2d20", "packet")
    sim = run("simulate", "--scenario", "duel", "--ruleset", "f2d20", "--agents", "packet",
              "--seed", "5", "-n", "3", "--jobs", "1")
    records = list(run_fights(duel, 5, 3))
    outcome = Counter("win" if r.winner == 0 else "loss" if r.winner == 1 else "draw"
                      for r in records)
    assert {k: v["count"] for k, v in sim["outcome"].items()} == {
        k: outcome[k] for k in ("win", "loss", "draw")}
    assert sim["rounds"]["max"] == max(r.rounds for r in records)
    last = run("fight", "--scenario", "duel", "--ruleset", "f2d20", "--agents", "packet",
               "--seed", "7")
    assert last["rounds"] == records[2].rounds
    w = records[2].winner
    assert last["winner"] == (None if w is None else duel.side_names[w])
    vault = last["combatants"][0]
    assert records[2].members[0].hp_lost == vault["max_hp"] - vault["hp"]


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_stimpaks_used_are_the_stimpaks_the_log_shows(ruleset):
    stimpak = default_bestiary().items["stimpak"].name
    s = spec("ruined_street", ruleset, "packet")
    seen = 0
    for seed in range(3):
        rec = fight(get_ruleset(ruleset), s, seed)
        b, agents = new_fight(ruleset, "ruined_street", seed, ["packet", "packet"])
        fight_on(b, agents)
        ids = [c.id for c in b.combatants if c.side == 0]
        used = Counter(e.name for e in b.log  # type: ignore[attr-defined]
                       if e.kind == "healed" and e.item == stimpak)  # type: ignore[attr-defined]
        assert [dict(m.items_used).get("stimpak", 0) for m in rec.members] == [used[i] for i in ids]
        seen += sum(used.values())
    assert seen > 0  # the packets do use stimpaks here, so the check saw some


def test_ammunition_used_is_the_shots_fired_under_pnp():
    """A PnP attack event lists its shots; every shot from a weapon with ammunition is a
    round gone, whether from the magazine or reloaded from the pack."""
    weapons = {w.name: w.ammo for w in default_bestiary().weapons.values()}
    s = spec("ruined_street", "pnp", "packet")
    for seed in range(3):
        rec = fight(get_ruleset("pnp"), s, seed)
        b, agents = new_fight("pnp", "ruined_street", seed, ["packet", "packet"])
        fight_on(b, agents)
        ids = [c.id for c in b.combatants if c.side == 0]
        shots: Counter[str] = Counter()
        for e in b.log:
            d = e.to_dict()
            if d["event"] == "attack" and d["attacker"] in ids and weapons.get(d["weapon"]):
                shots[d["attacker"]] += len(d["shots"])
        assert [m.ammo_used for m in rec.members] == [shots[i] for i in ids]
        assert sum(shots.values()) > 0


def test_going_down_is_seen_even_when_the_member_is_back_up_at_the_end():
    """No rule revives today; a ruleset that did must not hide the fall."""
    rs = get_ruleset("pnp")
    revived: list[str] = []

    class Reviving:
        def __getattr__(self, name: str):
            return getattr(rs, name)

        def apply(self, b, action, check=True):
            # who fell in the last action is back before this one: down between decisions
            for c in b.combatants:
                if c.side == 0 and c.status != ACTIVE:
                    revived.append(c.id)
                    c.status, c.hp = ACTIVE, c.max_hp
                    b.occupied.setdefault(c.pos, c.slot)
                    b.count_standing()
            return rs.apply(b, action, check)

    s = spec("ruined_street", "pnp", "packet")
    plain = fight(rs, s, 3)
    assert any(m.went_down for m in plain.members)  # seed 3: someone falls
    rec = fight(Reviving(), s, 3)  # type: ignore[arg-type]
    assert revived
    ids = s.party_ids
    for cid in revived:
        assert rec.members[ids.index(cid)].went_down
        assert not rec.members[ids.index(cid)].died
