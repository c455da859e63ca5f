"""Does the packet win by seeing what a player could not? The observation shows an enemy out
of a combatant's line of sight where it was last seen (issue 25); the packet reads every
enemy's true square. This plays each benchmark seat of a family with the packet as is and
with a packet whose view of each hidden enemy is moved, for its decision only, to the square
where that combatant last saw it (never seen: left where it is), on the same seeds, and
counts the decisions where that changed anything.

    .venv/bin/python benchmarks/packet_hidden.py radscorpions f2d20 -n 1000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.base import make_agent  # noqa: E402
from wasteland.arena.suite import FAMILIES, load_suite  # noqa: E402
from wasteland.training.seats import difference_interval, seat  # noqa: E402


class LastSeenPacket:
    """The packet deciding on enemies' last-seen squares; the battle is put back after."""

    def __init__(self, seed: int) -> None:
        self.inner = make_agent("packet", seed)
        self.last: dict[int, dict[int, int]] = {}
        self.decisions = self.changed = 0

    def act(self, view: Any) -> Any:
        b, me = view.battle, view.me
        sight = b.grid.sight[me.pos]
        last = self.last.setdefault(me.slot, {})
        moved = []
        for e in b.combatants:
            if e.side == me.side or not e.up:
                continue
            if sight[e.pos]:
                last[e.slot] = e.pos
            elif last.get(e.slot, e.pos) != e.pos:
                moved.append((e, e.pos))
                e.pos = last[e.slot]
        self.decisions += 1
        self.changed += bool(moved)
        try:
            return self.inner.act(view)
        finally:
            for e, pos in moved:
                e.pos = pos

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("family", choices=sorted(FAMILIES))
    ap.add_argument("ruleset", choices=["pnp", "simple", "f2d20"])
    ap.add_argument("-n", "--fights", type=int, default=1000)
    args = ap.parse_args()
    if not 1 <= args.fights <= 100_000:
        raise SystemExit(f"--fights must be 1 to 100000, got {args.fights}")
    print(f"{args.family} under {args.ruleset}, seeds 0..{args.fights - 1}")
    for s in load_suite():
        if s.family != args.family or s.ruleset != args.ruleset or s.kind == "mirror":
            continue
        sc, kinds = s.load(), list(FAMILIES[args.family])
        made: list[LastSeenPacket] = []

        def last_seen(seed: int, made: list[LastSeenPacket] = made) -> LastSeenPacket:
            made.append(LastSeenPacket(seed))
            return made[-1]

        fair = seat(last_seen, sc, args.ruleset, kinds, seat_side=s.side, fights=args.fights)
        packet = seat("packet", sc, args.ruleset, kinds, seat_side=s.side, fights=args.fights)
        lo, hi = difference_interval(fair, packet)
        changed = sum(a.changed for a in made)
        decisions = sum(a.decisions for a in made)
        print(f"  {s.kind:<9} {s.id:<40} last-seen {fair.win_rate:6.1%}  packet "
              f"{packet.win_rate:6.1%}  diff {fair.win_rate - packet.win_rate:+.1%} "
              f"[{lo:+.1%}, {hi:+.1%}]  decisions with a hidden enemy moved: "
              f"{changed:,} of {decisions:,}")


if __name__ == "__main__":
    main()
