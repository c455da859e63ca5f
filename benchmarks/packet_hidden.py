"""Does the packet win by seeing what a player could not? The observation shows an enemy out
of a combatant's line of sight where it was last seen (issue 25); the packet reads every
enemy's true square. This plays each benchmark seat of a family with the packet as is and
with a packet whose view of each hidden enemy is moved, for its decision only, to the square
where that combatant last saw it (never seen: left where it is), on the same seeds, and
counts the decisions where that changed anything. With ``--ignore-never-seen`` the packet
also decides as if an enemy its combatant has never seen were not there (while it knows of
at least one enemy): the packet limited to what the observation shows.

    .venv/bin/python benchmarks/packet_hidden.py radscorpions f2d20 -n 1000 [--ignore-never-seen]
        [--first-seed 0] [--seats ID,ID]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.bestiary.suite import FAMILIES, load_suite  # noqa: E402
from wasteland.rules.battle import ACTIVE  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402
from wasteland.training.belief import standing_at  # noqa: E402
from wasteland.training.seats import difference_interval, seat  # noqa: E402

# a status no rule counts as standing, for the length of one decision
NOT_THERE = "not_there"


class LastSeenPacket:
    """The packet deciding on enemies' last-seen squares (one taken by someone now: left
    where it is) and, with ``ignore_never_seen``, without the enemies never seen; the
    battle is put back after."""

    def __init__(self, seed: int, ignore_never_seen: bool = False,
                 side_sight: bool = False) -> None:
        self.inner = make_agent("packet", seed)
        self.ignore_never_seen = ignore_never_seen
        self.side_sight = side_sight
        self.last: dict[int, dict[int, int]] = {}
        self.decisions = self.changed = 0

    def act(self, view: Any) -> Any:
        b, me = view.battle, view.me
        eyes = ([a for a in b.combatants if a.side == me.side and a.status == ACTIVE]
                if self.side_sight else [me])
        rows = [b.grid.sight[a.pos] for a in eyes]
        last = self.last.setdefault(-1 - me.side if self.side_sight else me.slot, {})
        enemies = [e for e in b.combatants if e.side != me.side and e.status == ACTIVE]
        in_sight = {e.slot for e in enemies if any(r[e.pos] for r in rows)}
        for e in enemies:
            if e.slot in in_sight:
                last[e.slot] = e.pos
        hidden = {e.slot: last[e.slot] for e in enemies
                  if e.slot not in in_sight and e.slot in last}
        unknown = [e for e in enemies if self.ignore_never_seen and e.slot not in last]
        if len(unknown) == len(enemies):  # it knows of no enemy yet: it hunts as it would
            unknown = []
        self.decisions += 1
        with standing_at(b, hidden) as moved:
            self.changed += bool(moved or unknown)
            try:
                for e in unknown:
                    e.status = NOT_THERE
                return self.inner.act(view)
            finally:
                for e in unknown:
                    e.status = ACTIVE

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("family", choices=sorted(FAMILIES))
    ap.add_argument("ruleset", choices=RULESETS)
    ap.add_argument("-n", "--fights", type=int, default=1000)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--ignore-never-seen", action="store_true",
                    help="the packet also decides as if enemies never seen were not there")
    ap.add_argument("--side-sight", action="store_true",
                    help="what any standing ally sees counts as seen (a side shares sight)")
    ap.add_argument("--seats", default="", help="seat ids, comma-separated (default: all)")
    args = ap.parse_args()
    if not 1 <= args.fights <= 100_000:
        raise SystemExit(f"--fights must be 1 to 100000, got {args.fights}")
    if not 0 <= args.first_seed <= 2**40:
        raise SystemExit(f"--first-seed must be 0 to 2**40, got {args.first_seed}")
    seats = [s for s in load_suite() if s.family == args.family
             and s.ruleset == args.ruleset and s.kind != "mirror"]
    wanted = [w for w in args.seats.split(",") if w]
    unknown = sorted(set(wanted) - {s.id for s in seats})
    if unknown:
        raise SystemExit(f"--seats: unknown seat {', '.join(unknown)}; seats: "
                         f"{', '.join(s.id for s in seats)}")
    view = "last-seen squares" + (", never-seen enemies ignored" if args.ignore_never_seen
                                  else "") + (", a side sharing sight" if args.side_sight
                                              else "")
    print(f"{args.family} under {args.ruleset}, seeds {args.first_seed}.."
          f"{args.first_seed + args.fights - 1}; the packet on {view} against the packet")
    for s in seats:
        if wanted and s.id not in wanted:
            continue
        sc, kinds = s.load(), list(FAMILIES[args.family])
        made: list[LastSeenPacket] = []

        def last_seen(seed: int, made: list[LastSeenPacket] = made) -> LastSeenPacket:
            made.append(LastSeenPacket(seed, args.ignore_never_seen, args.side_sight))
            return made[-1]

        fair = seat(last_seen, sc, args.ruleset, kinds, seat_side=s.side, fights=args.fights,
                    first_seed=args.first_seed)
        packet = seat("packet", sc, args.ruleset, kinds, seat_side=s.side, fights=args.fights,
                      first_seed=args.first_seed)
        lo, hi = difference_interval(fair, packet)
        changed = sum(a.changed for a in made)
        decisions = sum(a.decisions for a in made)
        print(f"  {s.kind:<9} {s.id:<40} last-seen {fair.win_rate:6.1%}  packet "
              f"{packet.win_rate:6.1%}  diff {fair.win_rate - packet.win_rate:+.1%} "
              f"[{lo:+.1%}, {hi:+.1%}]  decisions with a hidden enemy moved or ignored: "
              f"{changed:,} of {decisions:,}")


if __name__ == "__main__":
    main()
