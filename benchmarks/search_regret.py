"""Where the search has room, and whether it finds it: decisions sampled from packet fights
in a suite seat, each candidate scored by many full playouts (the "truth"), and by the
same number cut at the search's horizon and scored by the value.

For every sampled decision of the seat's creatures it prints the packet's choice, the best
candidate by full playouts (the room: how much a perfect chooser among the candidates
would gain there), the best by the cut continuations (does the value agree?), and what
the agents named by --agents chose, with that choice's gain by full playouts (negative:
the search left a better action for a worse one, as noise can make it). The summary gives
per agent the mean gain a decision, how often it switched, and how often a switch was
worse than the packet's choice beyond two standard errors.

    .venv/bin/python benchmarks/search_regret.py --seat super_mutants_ruined_street_f2d20
    .venv/bin/python benchmarks/search_regret.py --seat radscorpions_duel_f2d20 --states 40
    .venv/bin/python benchmarks/search_regret.py --seat super_mutants_ruined_street_f2d20 \
        --values logistic,learned --agents "search;search:value=learned"

``--values``: the cut is scored by each value named (agents/search.py's logistic
``value``, agents/valuenet.py's learned one, or ``learned@FOLDER``: a value file made
elsewhere, e.g. by ``python -m wasteland.training.cut_value --out FOLDER``), on the same
continuations' seeds; the summary says how often each picks the full playouts' best, in all
decisions and in those where that best beats the packet's choice by more than two standard
errors. ``full`` is no cut at all: as many full playouts again on other dice, so its line
says how often the full playouts agree with themselves, the most any cut can reach when the
best is picked from continuations this many and this noisy.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.agents.packets import PacketAgent  # noqa: E402
from wasteland.agents.search import (  # noqa: E402
    Arm,
    Outlook,
    SearchAgent,
    candidates,
    continuation,
    paired,
)
from wasteland.agents.valuenet import load_value, shipped_value  # noqa: E402
from wasteland.bestiary.suite import load_suite  # noqa: E402
from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE  # noqa: E402
from wasteland.rules.errors import WastelandError  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402

ARMS = 12
OTHER_DICE = 1_000_003  # ``full``'s seeds: none of them a truth continuation's


def arms_for(view, seed: int) -> list[Arm]:
    """The packet's choice, the plans' first actions, then single actions, up to ARMS."""
    base_id = ACTION_INDEX[PacketAgent(seed).act(view)]
    probe = SearchAgent(f"search:plans=2,candidates={ARMS}", 0)
    arms = [Arm(base_id, []), *probe._plans(view, seed, {base_id}, ARMS)]
    seen = {a.id for a in arms}
    arms += [Arm(i, []) for i in candidates(view, base_id, 64) if i not in seen]
    return arms[:ARMS]


def score(rs, b, arms: list[Arm], side: int, slot: int, seed: int, n: int, horizon: int,
          judge=None) -> list[Arm]:
    out = []
    outlook = Outlook(judge) if judge is not None else None
    for a in arms:
        got = Arm(a.id, [], a.plan)
        got.values = [continuation(rs, b, a.id, side, seed + 7919 * k, horizon, PacketAgent,
                                   a.plan, slot, outlook) for k in range(n)]
        out.append(got)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seat", required=True, help="a suite seat's id")
    ap.add_argument("--states", type=int, default=20)
    ap.add_argument("--rollouts", type=int, default=120, help="continuations per candidate")
    ap.add_argument("--horizon", type=int, default=2, help="the cut to compare (rounds)")
    ap.add_argument("--agents", default="search",
                    help="agents, separated by semicolons (a search budget has commas)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--values", default="logistic",
                    help="the values that judge the cut, separated by commas: logistic, "
                         "learned, learned@FOLDER (a value file made elsewhere), full (full "
                         "playouts again on other dice: the noise's ceiling)")
    a = ap.parse_args(argv)
    values = [x for x in a.values.split(",") if x]
    if not values or any(x not in ("logistic", "learned", "full")
                         and not x.startswith("learned@") for x in values):
        ap.error(f"--values: logistic, learned, learned@FOLDER or full, got {a.values!r}")
    for key, lo, hi in (("states", 1, 10_000), ("rollouts", 2, 10_000), ("horizon", 0, 1000)):
        if not lo <= getattr(a, key) <= hi:
            ap.error(f"--{key}: {lo} to {hi}, got {getattr(a, key)}")
    seats = {s.id: s for s in load_suite()}
    if a.seat not in seats:
        ap.error(f"--seat: {a.seat!r} is not a suite seat; e.g. {', '.join(list(seats)[:3])}")
    s = seats[a.seat]
    sc, rs, kinds = s.load(), get_ruleset(s.ruleset), set(s.kinds)
    judges = {}
    for x in values:
        try:
            judges[x] = (shipped_value(s.ruleset) if x == "learned" else
                         load_value(s.ruleset, x.split("@", 1)[1]) if x.startswith("learned@")
                         else None)
        except WastelandError as e:
            ap.error(f"--values: {e}")
    names = [x for x in a.agents.split(";") if x]
    for n in names:
        try:
            make_agent(n, 0)
        except WastelandError as e:
            ap.error(f"--agents: {e}")
    pick = random.Random(a.seed)
    gains: dict[str, list[float]] = {n: [] for n in names}
    worse: dict[str, int] = {n: 0 for n in names}
    switched: dict[str, int] = {n: 0 for n in names}
    room: list[float] = []
    agree = {x: 0 for x in values}
    clear = 0  # decisions whose best by full playouts beats the packet's beyond 2 se
    agree_clear = {x: 0 for x in values}
    taken = g = 0
    while taken < a.states:
        b = rs.new_battle(sc, 500 + g, keep_log=False)
        b.quiet = True
        side = s.sides_for(500 + g)
        g += 1
        players = [make_agent("packet", g + k) for k in range(len(b.side_names))]
        here = 0
        while not b.over and taken < a.states:
            v = view_of(rs, b)
            me = b.combatants[v.decision.combatant]
            if (len(v.legal_ids) > 1 and me.side == side and me.creature.id in kinds
                    and here < 3 and pick.random() < 0.15):
                here += 1
                taken += 1
                seed = pick.getrandbits(40)
                arms = arms_for(v, seed)
                truth = score(rs, b, arms, side, me.slot, seed, a.rollouts, 0)
                true_of = {t.id: t for t in truth}
                best_t = max(truth, key=lambda t: t.mean)
                d_best, se_best, _ = paired(best_t, truth[0])
                ahead = best_t is not truth[0] and d_best > 2 * se_best
                clear += ahead
                room.append(best_t.mean - truth[0].mean)
                text = [ACTION_TABLE[x.id].text(b.ids, me.slot)[:22] for x in (truth[0], best_t)]
                line = (f"{v.decision.slot:6} {len(arms):2} arms  packet {text[0]:22} "
                        f"{truth[0].mean:.2f} | best full {text[1]:22}"
                        f" {best_t.mean - truth[0].mean:+.2f}{'*' if ahead else ' '}")
                for x, judge in judges.items():
                    cut = (score(rs, b, arms, side, me.slot, seed + OTHER_DICE, a.rollouts, 0)
                           if x == "full" else
                           score(rs, b, arms, side, me.slot, seed, a.rollouts, a.horizon, judge))
                    best_c = max(cut, key=lambda t: t.mean)
                    agree[x] += best_t.id == best_c.id
                    agree_clear[x] += ahead and best_t.id == best_c.id
                    line += (f" | cut ({x}) "
                             f"{ACTION_TABLE[best_c.id].text(b.ids, me.slot)[:22]:22}")
                for n in names:
                    chosen = ACTION_INDEX[make_agent(n, seed).act(v)]
                    t = true_of.get(chosen)
                    if t is None:  # outside the ARMS scored: score it
                        t = score(rs, b, [Arm(chosen, [])], side, me.slot, seed, a.rollouts, 0)[0]
                    d, se, _ = paired(t, truth[0])
                    gains[n].append(d)
                    if chosen != truth[0].id:
                        switched[n] += 1
                        worse[n] += d < -2 * se
                    line += f" | {n} {d:+.2f}"
                print(line, flush=True)
            action = (ACTION_TABLE[v.legal_ids[0]] if len(v.legal_ids) == 1
                      else players[me.side].act(v))
            rs.apply(b, action, check=False)
        if g > 10 * a.states:
            break
    print(f"\n{a.seat}: {taken} decisions, {a.rollouts} continuations a candidate; room (best "
          f"candidate by full playouts minus the packet's) mean {statistics.mean(room):+.3f}; "
          f"{clear} decisions (*) where that best beats the packet's beyond 2 se")
    for x in values:
        what = ("full playouts on other dice pick" if x == "full" else
                f"the cut at {a.horizon} rounds, {x} value, picks")
        print(f"  {what} the same best in {agree[x]}/{taken} ({agree_clear[x]}/{clear} of "
              f"those *)")
    for n in names:
        print(f"  {n}: mean gain a decision {statistics.mean(gains[n]):+.4f}, switched "
              f"{switched[n]}/{taken}, worse beyond 2 se {worse[n]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
