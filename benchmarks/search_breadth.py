"""Where a guided search's choices sit in the shipped policy's ranking.

For a suite seat and a search agent, fights 0..N-1 are played against the packet; at each
of the agent's decisions with a choice, the policy that guides it (agents/guide.py) ranks
the legal actions first. The count says how often the search played the policy's most
likely action, and how often it played one the policy gives less than PRUNE (2%): such
an action is no candidate of `base=policy` unless `wide=1` (docs/search.md, "Wide
candidates and a budget in work").

    .venv/bin/python benchmarks/search_breadth.py radscorpions_quarry_pit_f2d20 \\
        'search:level=deadly,base=packet,rollouts=640' --fights 20
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import wasteland  # noqa: E402,F401  - the OpenBLAS setting a user gets


class Counted:
    """The agent, its choices counted against its side's policy."""

    def __init__(self, agent, counts: Counter, show: bool) -> None:
        self.agent, self.counts, self.show = agent, counts, show
        self.guide = None

    def __getattr__(self, name):
        return getattr(self.agent, name)

    def act(self, view):
        from wasteland.agents.guide import Guide
        from wasteland.agents.search import PRUNE
        from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE
        from wasteland.rules.words import plainly

        b = view.battle
        if self.guide is None:
            self.guide = Guide(b.ruleset, view.me.side)
        p = self.guide.policy(b, view.me.slot)
        ranked = None
        if p is not None and len(view.legal_ids) > 1:
            if hasattr(self.agent, "memory_of"):
                self.guide.bind(b, self.agent.memory_of(b))
            ranked = self.guide.ranked(view, p)
        action = self.agent.act(view)
        if ranked is not None:
            got, prob = ACTION_INDEX[action], dict(ranked)
            self.counts["decisions"] += 1
            if got == ranked[0][0]:
                self.counts["the policy's most likely"] += 1
            elif prob[got] >= PRUNE:
                self.counts[f"another the policy gives {PRUNE:.0%} or more"] += 1
            else:
                self.counts[f"one the policy gives less than {PRUNE:.0%}"] += 1
                if self.show:
                    print(f"  {plainly(b, action, view.me.slot)} (policy: "
                          f"{plainly(b, ACTION_TABLE[ranked[0][0]], view.me.slot)} "
                          f"{ranked[0][1]:.0%}): {self.agent.last_reason[:160]}")
        return action


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seat", help="a suite seat id (docs/seats.md)")
    ap.add_argument("agent", help="the agent in the seat, e.g. search:level=deadly")
    ap.add_argument("--fights", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--show", action="store_true", help="print each unlikely choice")
    args = ap.parse_args(argv)
    from wasteland.agents.make import make_agent
    from wasteland.bestiary.suite import load_suite
    from wasteland.rules.errors import WastelandError
    from wasteland.training.seats import fight

    seats = {s.id: s for s in load_suite()}
    if args.seat not in seats:
        print(f"unknown seat {args.seat[:60]!r}; known: {', '.join(sorted(seats))}",
              file=sys.stderr)
        return 2
    from wasteland.limits import MAX_SEED

    if not 1 <= args.fights <= 100_000:
        print(f"--fights is 1 to 100000, got {args.fights}", file=sys.stderr)
        return 2
    if not 0 <= args.first_seed <= MAX_SEED - args.fights:
        print(f"--first-seed is 0 to {MAX_SEED - args.fights:,} (the last seed played, "
              f"first + fights - 1, at most {MAX_SEED:,}), got {str(args.first_seed)[:30]}",
              file=sys.stderr)
        return 2
    s = seats[args.seat]
    scenario = s.load()
    counts: Counter = Counter()
    won = 0
    try:
        make_agent(args.agent, 0)
        for k in range(args.fights):
            side = s.sides_for(args.first_seed + k)
            w = fight(scenario, s.ruleset, args.first_seed + k, side, s.kinds,
                      lambda sd: Counted(make_agent(args.agent, sd), counts, args.show),
                      lambda sd: make_agent("packet", sd))
            won += w == side
    except WastelandError as e:
        print(e, file=sys.stderr)
        return 2
    n = counts.pop("decisions", 0)
    print(f"{args.agent} in {args.seat}: won {won} of {args.fights}; "
          f"{n} decisions of the policy's kinds")
    for what, c in counts.most_common():
        print(f"  {what}: {c} ({c / max(n, 1):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
