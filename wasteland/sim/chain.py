"""Encounters in a row (`simulate --chain a,b,c`): the party fights one encounter after
another with what it has left, and the question is how far it gets.

What carries from one fight to the next, and what the fallen do, is this engine's reading
(the seeds have no rule for the time between fights; docs/rules/pnp.md, f2d20.md):

- HP, maximum HP (2d20's radiation lowers it until RadAway: 002 Radiation Damage),
  ammunition carried and in the magazines, items (stimpaks, RadAway), the weapon in hand,
  and lasting harm: crippled limbs and 2d20 injuries, PnP's limb damage toward crippling,
  2d20 DR broken by Breaking.
- Not carried, as they belong to the moment of a fight: position, action points, prone,
  aim, defend, readied actions, burrowing, stun, persistent damage, burning and bleeding
  (bound between fights), PnP's once-per-fight first aid, 2d20's Action Point pools (each
  fight starts its own, as a new scene does).
- Its own weapons, as it began the fight: one it took from an enemy (Simple's disarm)
  stays behind with the fight; one it dropped, put away or had taken is recovered between
  fights. The weapon in hand carries over when it is its own (else the first).
- The dead stay dead and out of every later fight. A member down but alive at the end of a
  won fight (PnP unconscious, 2d20 dying or stabilized) is brought round and fights on at
  1 HP, its injuries kept; no stimpak is spent for it.
- A chain stops at the first fight the party does not win (a loss or a draw): the party
  did not clear that encounter.

Stage 0 of chain i is fought with seed ``seed + i``, the fight `simulate` and `wasteland
fight --seed` show for the first encounter; stage k > 0 with a seed drawn from the text
"seed + i / k" (string seeding is the same in every process and Python release).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wasteland.bestiary.models import Scenario
from wasteland.limits import MAX_SEED
from wasteland.rules.battle import ACTIVE, DEAD, Combatant
from wasteland.rules.protocol import Ruleset

from .fight import play_out, rounds_held

if TYPE_CHECKING:
    from .request import SimRequest
    from .runner import Backend

# cond keys that outlast a fight; the rest of cond belongs to the fight's moment
LASTING = ("broken",)
DOWN, REVIVED, OUT = "down", "revived", "out"


@dataclass(frozen=True)
class Stage:
    scenario: Scenario  # as given; the party is placed anew for each set of survivors
    party: int  # the party's side in this scenario
    agents: tuple[str, ...]  # one per side


@dataclass(frozen=True, slots=True)
class MemberAfter:
    """A chain member after one fight (before any revival)."""

    hp: int  # HP at the end of the fight (0 when down or dead, or out before it)
    status: str  # active, unconscious, dead, or out (dead in an earlier fight)
    went_down: bool
    rounds_held: int
    items: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class StageRecord:
    winner: int | None
    won: bool
    rounds: int
    members: tuple[MemberAfter, ...]  # every chain member, in the chain's order


@dataclass(frozen=True, slots=True)
class ChainRecord:
    seed: int
    stages: tuple[StageRecord, ...]  # the fights fought: all, or up to the first not won


@dataclass(frozen=True)
class ChainSpec:
    ruleset: str
    stages: tuple[Stage, ...]
    member_ids: tuple[str, ...]
    member_creatures: tuple[str, ...]
    _placed: dict[tuple[int, tuple[str, ...]], Scenario] = field(
        default_factory=dict, compare=False, repr=False)

    # what Simulation.report reads: the first encounter's
    @property
    def scenario(self) -> Scenario:
        return self.stages[0].scenario

    @property
    def agents(self) -> tuple[str, ...]:
        return self.stages[0].agents

    @property
    def party(self) -> int:
        return self.stages[0].party

    @property
    def side_names(self) -> list[str]:
        return [s.name for s in self.scenario.sides]

    @property
    def party_ids(self) -> list[str]:
        return list(self.member_ids)

    @property
    def party_creatures(self) -> list[str]:
        return list(self.member_creatures)

    def scenario_for(self, k: int, alive: tuple[str, ...]) -> Scenario:
        """Stage k's scenario with the surviving members ``alive`` as its party side, by
        their ids, on the squares nearest where that side starts (cached per set)."""
        if k == 0:  # everyone stands at the first fight: the encounter as simulate fights it
            return self.stages[0].scenario
        key = (k, alive)
        if key not in self._placed:
            self._placed[key] = place_party(self, k, alive)
        return self._placed[key]


def place_party(spec: ChainSpec, k: int, alive: tuple[str, ...]) -> Scenario:
    from wasteland.bestiary.loader import check_scenario, default_bestiary
    from wasteland.rules.grid import grid_for
    from wasteland.sim.encounter import place

    stage = spec.stages[k]
    sc = stage.scenario
    legend: dict[str, list[str]] = {
        key: ([v] if isinstance(v, str) else list(v)) for key, v in sc.legend.items()}
    grid = grid_for(sc.rows(), legend)
    taken = {(p.at[0], p.at[1]) for si, s in enumerate(sc.sides) if si != stage.party
             for p in s.combatants}
    creature = dict(zip(spec.member_ids, spec.member_creatures))
    placed = place(sc, grid, stage.party, [creature[m] for m in alive], taken)
    for p, m in zip(placed, alive):
        p["id"] = m
    data = sc.model_dump()
    data["sides"][stage.party]["combatants"] = placed
    out = Scenario.model_validate(data)
    check_scenario(out, default_bestiary(), f"{sc.id} (chain stage {k + 1})")
    return out


def stage_seed(seed: int, k: int) -> int:
    if k == 0:
        return seed
    return random.Random(f"{seed}/{k}").randrange(MAX_SEED - 16)


def lasting(c: Combatant) -> dict[str, Any]:
    """What of ``c`` outlasts the fight (see the module's docstring)."""
    return {"hp": c.hp, "max_hp": c.max_hp, "ammo": dict(c.ammo), "items": dict(c.items),
            "loaded": [w.loaded for w in c.weapon_states[:c.own_weapons]],
            "active_weapon": c.active_weapon if c.active_weapon < c.own_weapons else 0,
            "crippled": dict(c.crippled), "limb_damage": dict(c.limb_damage),
            "cond": {k: c.cond[k] for k in LASTING if k in c.cond}}


def carry_onto(c: Combatant, d: dict[str, Any]) -> None:
    """Put a member's lasting state onto its combatant in a new battle."""
    import copy

    c.hp, c.max_hp = d["hp"], d["max_hp"]
    c.ammo, c.items = dict(d["ammo"]), dict(d["items"])
    for w, loaded in zip(c.weapon_states, d["loaded"]):
        w.loaded = loaded
    c.active_weapon = d["active_weapon"]
    c.crippled, c.limb_damage = dict(d["crippled"]), dict(d["limb_damage"])
    c.cond.update(copy.deepcopy(d["cond"]))


def fight_chain(rs: Ruleset, spec: ChainSpec, seed: int) -> ChainRecord:
    carried: dict[str, dict[str, Any]] = {}
    dead: set[str] = set()
    stages: list[StageRecord] = []
    for k, stage in enumerate(spec.stages):
        alive = tuple(m for m in spec.member_ids if m not in dead)
        s = stage_seed(seed, k)
        b = rs.new_battle(spec.scenario_for(k, alive), s, keep_log=False)
        for c in b.combatants:
            if c.side == stage.party and c.id in carried:
                carry_onto(c, carried[c.id])
        rec = play_out(rs, b, stage.agents, stage.party, s)
        fought = {c.id: (c, m) for c, m in zip(
            [c for c in b.combatants if c.side == stage.party], rec.members)}
        after = []
        for mid in spec.member_ids:
            if mid not in fought:
                after.append(MemberAfter(0, OUT, False, 0, ()))
                continue
            c, m = fought[mid]
            after.append(MemberAfter(max(c.hp, 0), c.status, m.went_down, rounds_held(c),
                                     tuple(sorted((i, n) for i, n in c.items.items() if n))))
            if c.status == DEAD:
                dead.add(mid)
            else:
                carried[mid] = lasting(c)
                if c.status != ACTIVE:
                    carried[mid]["hp"] = 1  # brought round between fights (the reading)
        won = b.winner == stage.party
        stages.append(StageRecord(b.winner, won, rec.rounds, tuple(after)))
        if not won:
            break
    return ChainRecord(seed, tuple(stages))


class ChainTally:
    """How far chains get, and what the party has left after each fight it won."""

    def __init__(self, spec: ChainSpec) -> None:
        self.spec = spec
        self.n = 0
        k, m = len(spec.stages), len(spec.member_ids)
        self.reached = [0] * k
        self.cleared = [0] * k
        self.outcomes = [Counter[str]() for _ in range(k)]
        self.rounds = [Counter[int]() for _ in range(k)]
        self.hp = [[Counter[int]() for _ in range(m)] for _ in range(k)]
        self.party_hp = [Counter[int]() for _ in range(k)]
        self.down = [[0] * m for _ in range(k)]
        self.dead = [[0] * m for _ in range(k)]
        self.ammo = [[0] * m for _ in range(k)]
        self.items: list[list[Counter[str]]] = [[Counter() for _ in range(m)] for _ in range(k)]
        self.anyone_down = self.anyone_died = 0
        self.next_seed: int | None = None

    def add(self, r: ChainRecord) -> None:
        assert self.next_seed in (None, r.seed), f"chain {r.seed} came out of seed order"
        self.next_seed = r.seed + 1
        self.n += 1
        for k, st in enumerate(r.stages):
            self.reached[k] += 1
            self.cleared[k] += st.won
            self.outcomes[k]["win" if st.won else "draw" if st.winner is None else "loss"] += 1
            self.rounds[k][st.rounds] += 1
            if not st.won:
                continue
            self.party_hp[k][sum(m.hp for m in st.members)] += 1
            for i, m in enumerate(st.members):
                self.hp[k][i][m.hp] += 1
                self.down[k][i] += m.went_down
                self.dead[k][i] += m.status in (DEAD, OUT)
                self.ammo[k][i] += m.rounds_held
                self.items[k][i].update(dict(m.items))
        self.anyone_down += any(m.went_down for st in r.stages for m in st.members)
        self.anyone_died += any(m.status == DEAD for st in r.stages for m in st.members)

    @property
    def all_cleared(self) -> int:
        return self.cleared[-1]

    def win_interval(self) -> tuple[float, float]:
        from .stats import wilson

        return wilson(self.all_cleared, self.n)

    def report(self) -> dict[str, Any]:
        from .stats import distribution, rate

        n, spec = self.n, self.spec
        stages = []
        for k, st in enumerate(spec.stages):
            won = self.cleared[k]
            per = 1 / max(won, 1)
            stages.append({
                "scenario": st.scenario.id,
                "party_side": st.scenario.sides[st.party].name,
                "agents": dict(zip([s.name for s in st.scenario.sides], st.agents)),
                "reached": self.reached[k],
                "cleared": rate(won, n),
                "cleared_if_reached": rate(won, self.reached[k]),
                "outcome": dict(self.outcomes[k]),
                "rounds": distribution(self.rounds[k]),
                "after": {
                    "party_hp": distribution(self.party_hp[k]),
                    "members": [
                        {"id": mid, "creature": cr, "hp": distribution(self.hp[k][i]),
                         "down": rate(self.down[k][i], won), "dead": rate(self.dead[k][i], won),
                         "rounds_held_mean": self.ammo[k][i] * per,
                         "items_mean": {x: v * per for x, v in sorted(self.items[k][i].items())}}
                        for i, (mid, cr) in enumerate(zip(spec.member_ids,
                                                          spec.member_creatures))]},
            })
        stops = Counter({k: self.reached[k] - self.cleared[k] for k in range(len(spec.stages))})
        return {"chain": [s.scenario.id for s in spec.stages], "fights": n,
                "cleared_all": rate(self.all_cleared, n),
                "anyone_down": rate(self.anyone_down, n),
                "anyone_dies": rate(self.anyone_died, n),
                # how many chains ended at each stage, by its number from 1
                "stopped_at": {str(k + 1): stops[k] for k in range(len(spec.stages))},
                "stages": stages, "summary": self.summary()}

    def summary(self) -> str:
        from .verdict import pct

        n = max(self.n, 1)
        lo, hi = self.win_interval()
        steps = ", ".join(f"{k + 1} {s.scenario.id} {pct(self.cleared[k] / n)}%"
                          for k, s in enumerate(self.spec.stages))
        return (f"the party clears all {len(self.spec.stages)} encounters in "
                f"{pct(self.all_cleared / n)}% [{pct(lo)}-{pct(hi)}] (cleared from the start: "
                f"{steps}), someone goes down in {pct(self.anyone_down / n)}%, someone dies "
                f"in {pct(self.anyone_died / n)}%")


MAX_STAGES = 20


def build_chain(req: SimRequest) -> ChainSpec:
    """The chain ``req`` describes, each stage checked by building its battle with the
    whole party, so that anything wrong is one line before the first fight."""
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.errors import WastelandError
    from wasteland.rules.rulesets import get_ruleset
    from wasteland.sim.encounter import encounter, resolve_side

    from .spec import SimSpec, side_agents

    names = [x.strip() for x in str(req.chain).split(",") if x.strip()]
    if not 1 <= len(names) <= MAX_STAGES:
        raise WastelandError(f"--chain: 1 to {MAX_STAGES} scenarios, comma-separated, got "
                             f"{len(names)}")
    rs = get_ruleset(req.ruleset)
    kinds, side = req.agent_names, req.side_text
    first, me = encounter(names[0], side, req.party, None, options=("--party", "--enemies"))
    stages = [Stage(first, me, side_agents(first, kinds, req.ruleset))]
    for name in names[1:]:
        sc = load_scenario(name)
        stages.append(Stage(sc, resolve_side(sc, side), side_agents(sc, kinds, req.ruleset)))
    head = SimSpec(req.ruleset, first, stages[0].agents, me)
    spec = ChainSpec(req.ruleset, tuple(stages), tuple(head.party_ids),
                     tuple(head.party_creatures))
    for k in range(len(stages)):
        b = rs.new_battle(spec.scenario_for(k, spec.member_ids), req.seed, keep_log=False)
        if len(set(b.ids)) != len(b.ids):
            twice = next(i for i in b.ids if b.ids.count(i) > 1)
            raise WastelandError(f"--chain: in {stages[k].scenario.id} a party member and an "
                                 f"enemy are both called {twice!r}")
    return spec


def run_chain(req: SimRequest, backend: Backend | None) -> dict[str, Any]:
    """`simulate --chain`'s report: how far the party gets."""
    import time

    from .simulate import report_of, simulate

    req.refuse("--chain names the encounters", ("--scenario", "--enemies", "--balance",
                                                "--plot"))
    req.check_numbers()
    spec = build_chain(req)
    start = time.perf_counter()
    sim = simulate(spec, req.fights, req.seed, req.procs, req.until_precision, fn=fight_chain,
                   tally=ChainTally(spec), backend=backend)
    return report_of(sim, req.procs, start)
