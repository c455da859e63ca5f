"""The search agent against the packet, seat by seat, and what a decision costs.

A seat is a scenario, a ruleset and the side the agent plays (the others are packets).
For each seat, fights 0..N-1 are played twice on the same seeds: once with the packet in
the seat, once with the agent; the table gives both win rates, their paired difference
with its 95% interval, and the agent's mean and 99th-percentile seconds a decision.

    .venv/bin/python benchmarks/search.py --seats duel:pnp:1 --fights 200 --agent search
    .venv/bin/python benchmarks/search.py --family robots --ruleset pnp --fights 1000
    .venv/bin/python benchmarks/search.py --seats docs --fights 1000 --jobs 2 --json results.json
    .venv/bin/python benchmarks/search.py --speed     # fork, rollouts/s, decisions/s

--seats suite (the default): the seat suite's seats with a bar (docs/seats.md), filtered
by --family and --ruleset; there the agent plays the family's creatures and the rest of
their side is packets, as in training/seats.py, so the packet's column reproduces the
suite's recorded counts. --seats docs: the seats docs/search.md first measured. Or a list
of scenario:ruleset:side, where the agent plays the whole side.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import wasteland  # noqa: E402,F401  - the OpenBLAS setting a user gets
from wasteland.training.stats import wilson  # noqa: E402

Z95 = 1.959964
DEFAULT_SEATS = ("duel:pnp:1,vault_corridor:pnp:1,duel:simple:1,robot_depot:simple:1,"
                 "night_field:simple:1,ruined_street:simple:1,duel:f2d20:1,robot_depot:f2d20:1,"
                 "night_field:f2d20:1,ruined_street:f2d20:1")


class Waits:
    """The waits a GM sees: the seconds the seat's side thinks between two decisions of
    the other side (every decision of the seat's agent in that stretch together)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.done: list[float] = []

    def think(self, dt: float) -> None:
        self.now += dt

    def party(self) -> None:
        if self.now:
            self.done.append(self.now)
            self.now = 0.0

    def all(self) -> list[float]:
        self.party()
        return self.done


class Party:
    """An opponent whose decisions (those with a choice) end the seat side's wait."""

    def __init__(self, agent, waits: Waits) -> None:
        self.agent, self.waits = agent, waits

    def act(self, view):
        if len(view.legal_ids) > 1:
            self.waits.party()
        return self.agent.act(view)


Played = tuple[int, int, list[float], float, list[float], int, float]


def play(args: tuple[str, str, int, str, int]) -> Played:
    """One fight: (1 if the seat's side won, else 0; 1 if it lost, else 0; the agent's
    seconds per decision; the seconds of its longest turn; the waits between the other
    side's decisions; continuations played; seconds the agent thought)."""
    from wasteland.agents.base import view_of
    from wasteland.agents.make import make_agent
    from wasteland.bestiary.loader import load_scenario
    from wasteland.rules.actions import ACTION_TABLE
    from wasteland.rules.rulesets import get_ruleset

    scenario, ruleset, side, agent, seed = args
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed, keep_log=False)
    b.quiet = True
    agents = [make_agent(agent if s == side else "packet", seed + s)
              for s in range(len(b.side_names))]
    times = []
    turns: dict[tuple[int, int], float] = {}
    waits = Waits()
    while not b.over:
        v = view_of(rs, b)
        who = b.combatants[v.decision.combatant].side
        if len(v.legal_ids) == 1 and (who != side or agent == "packet"):
            action = ACTION_TABLE[v.legal_ids[0]]
        elif who == side:
            t = time.perf_counter()
            action = agents[who].act(v)
            times.append(time.perf_counter() - t)
            waits.think(times[-1])
            key = (b.round, v.decision.combatant)
            turns[key] = turns.get(key, 0.0) + times[-1]
        else:
            waits.party()
            action = agents[who].act(v)
        rs.apply(b, action, check=False)
    return (int(b.winner == side), int(b.winner not in (None, side)), times,
            max(turns.values(), default=0.0), waits.all(),
            int(getattr(agents[side], "continuations", 0)), sum(times))


class Timed:
    """An agent whose decisions are timed (not those with one legal action, which no agent
    thinks about), and the seconds each combatant's turn took in all."""

    def __init__(self, agent, times: list[float], turns: dict, waits: Waits) -> None:
        self.agent, self.times, self.turns, self.waits = agent, times, turns, waits

    def act(self, view):
        t = time.perf_counter()
        action = self.agent.act(view)
        if len(view.legal_ids) > 1:
            dt = time.perf_counter() - t
            self.times.append(dt)
            self.waits.think(dt)
            key = (view.battle.round, view.me.slot)
            self.turns[key] = self.turns.get(key, 0.0) + dt
        return action


@functools.cache
def suite_seat(seat_id: str):
    """A suite seat by id and its scenario, read once a process."""
    from wasteland.bestiary.suite import load_suite

    s = next(x for x in load_suite() if x.id == seat_id)
    return s, s.load()


def play_suite(args: tuple[str, str, int]) -> Played:
    """One fight in a suite seat (its seed picks a mirror seat's side, as in
    training/seats.py's ``mirror``), counted as ``play`` counts one."""
    from wasteland.agents.make import make_agent
    from wasteland.training.seats import fight

    seat_id, agent, seed = args
    s, scenario = suite_seat(seat_id)
    side = s.sides_for(seed)
    times: list[float] = []
    turns: dict = {}
    waits = Waits()
    mine: list[Timed] = []

    def seat_agent(sd: int) -> Timed:
        mine.append(Timed(make_agent(agent, sd), times, turns, waits))
        return mine[-1]

    winner = fight(scenario, s.ruleset, seed, side, s.kinds, seat_agent,
                   lambda sd: Party(make_agent("packet", sd), waits))
    spent = sum(int(getattr(t.agent, "continuations", 0)) for t in mine)
    return (int(winner == side), int(winner not in (None, side)), times,
            max(turns.values(), default=0.0), waits.all(), spent, sum(times))


def seat_result(seat: tuple[str, str, int | None], agent: str, fights: int, first: int,
                pool: ProcessPoolExecutor | None) -> dict:
    scenario, ruleset, side = seat
    if side is None:  # a suite seat, by id
        jobs_s = [(scenario, a, first + k) for a in ("packet", agent) for k in range(fights)]
        out = list(pool.map(play_suite, jobs_s, chunksize=4) if pool else map(play_suite, jobs_s))
    else:
        jobs = [(scenario, ruleset, side, a, first + k) for a in ("packet", agent)
                for k in range(fights)]
        out = list(pool.map(play, jobs, chunksize=4) if pool else map(play, jobs))
    base, mine = out[:fights], out[fights:]
    d = [m[0] - p[0] for p, m in zip(base, mine)]
    mean = sum(d) / fights
    sd = statistics.stdev(d) if fights > 1 else 0.0
    turn_max = max(m[3] for m in mine)
    times = [t for m in mine for t in m[2]]
    times.sort()
    waits = sorted(w for m in mine for w in m[4])
    thought = sum(m[6] for m in mine)
    wins, losses = sum(m[0] for m in mine), sum(m[1] for m in mine)
    lo_decided = wilson(wins, wins + losses)[0]
    return {"seat": scenario if side is None else f"{scenario}:{ruleset}:{side}", "fights": fights,
            "packet": sum(p[0] for p in base) / fights, "agent": sum(m[0] for m in mine) / fights,
            "diff": mean, "lo": mean - Z95 * sd / math.sqrt(fights),
            "hi": mean + Z95 * sd / math.sqrt(fights),
            "mean_s": sum(times) / max(len(times), 1),
            "p99_s": _p99(times),
            "decisions": len(times), "turn_max_s": turn_max,
            "wait_p99_s": _p99(waits), "wait_max_s": waits[-1] if waits else 0.0,
            "continuations_per_s": sum(m[5] for m in mine) / thought if thought else 0.0,
            "mirror": side is None and _is_mirror(scenario),
            "decided": wins + losses, "wilson_lo_decided": lo_decided,
            "bar": (lo_decided > 0.5 if side is None and _is_mirror(scenario)
                    else mean >= 0.10 and mean - Z95 * sd / math.sqrt(fights) > 0)}


def _p99(sorted_values: list[float]) -> float:
    v = sorted_values
    return v[min(len(v) - 1, int(0.99 * len(v)))] if v else 0.0


def _is_mirror(seat_id: str) -> bool:
    return suite_seat(seat_id)[0].kind == "mirror"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seats", default="suite",
                    help="suite (default), docs, or suite seat ids and scenario:ruleset:side, "
                         "comma-separated")
    ap.add_argument("--family", help="--seats suite: only this family's seats")
    ap.add_argument("--ruleset", help="--seats suite: only this ruleset's seats")
    ap.add_argument("--agent", default="search")
    ap.add_argument("--fights", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default="")
    ap.add_argument("--speed", action="store_true",
                    help="only the costs: fork, rollouts and decisions a second per ruleset "
                         "beside connect_four (benchmarks/search_speed.py)")
    a = ap.parse_args(argv)
    if a.speed:
        import search_speed

        return search_speed.main(["--agent", a.agent])
    seats: list[tuple[str, str, int | None]] = []
    if a.seats == "suite":
        from wasteland.bestiary.suite import load_suite, select
        from wasteland.rules.errors import WastelandError

        try:
            seats = [(s.id, s.ruleset, None)
                     for s in select(load_suite(), a.family, a.ruleset, bar_only=True)]
        except WastelandError as e:
            ap.error(str(e))
    elif a.family or a.ruleset:
        ap.error("--family and --ruleset filter the suite's seats (--seats suite)")
    for s in (DEFAULT_SEATS if a.seats == "docs" else "" if a.seats == "suite"
              else a.seats).split(","):
        if not s:
            continue
        parts = s.split(":")
        if len(parts) == 1:
            from wasteland.bestiary.suite import load_suite

            known = {x.id: x for x in load_suite()}
            if s not in known:
                ap.error(f"--seats: {s!r} is neither a suite seat's id nor scenario:ruleset:side")
            seats.append((s, known[s].ruleset, None))
            continue
        if len(parts) != 3 or not parts[2].isdigit():
            ap.error(f"--seats: {s!r} is not a suite seat's id nor scenario:ruleset:side")
        seats.append((parts[0], parts[1], int(parts[2])))
    pool = ProcessPoolExecutor(a.jobs) if a.jobs > 1 else None
    rows = []
    print(f"{'seat':34} {'packet':>7} {a.agent[:18]:>18} {'diff [95%]':>20} {'mean s':>7} "
          f"{'p99 s':>6} {'wait p99':>8} {'max':>6} {'cont/s':>7}")
    for seat in seats:
        r = seat_result(seat, a.agent, a.fights, a.first_seed, pool)
        rows.append(r)
        print(f"{r['seat']:34} {r['packet']:7.1%} {r['agent']:18.1%} "
              f"{r['diff']:+6.1%} [{r['lo']:+.1%}, {r['hi']:+.1%}] {r['mean_s']:7.3f} "
              f"{r['p99_s']:6.3f} {r['wait_p99_s']:8.2f} {r['wait_max_s']:6.2f} "
              f"{r['continuations_per_s']:7.0f} turn<={r['turn_max_s']:.2f}s "
              + (f"decided {r['decided']}, Wilson lower {r['wilson_lo_decided']:.1%} "
                 if r["mirror"] else "") + ("bar met" if r["bar"] else "bar missed"),
              flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps({"agent": a.agent, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
