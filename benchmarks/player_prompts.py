"""How many questions a player answers in one fight (issue 13: "a 2d20 ruined_street fight
takes a player about 215 decisions").

The player's side is played by the packet agent (what the `d` key takes in the full-screen
game), every other side by the packet too, for fights with seeds 0 .. N-1. For each fight
it counts the player's decisions three ways:

- every decision: what both games asked before decisions with one legal action were
  taken for the player (the line game until this benchmark was written);
- a real choice: what both games ask now (a decision with one legal action, a `buy 0`
  with no AP, a `boost 0` with nothing to boost, an `end` after the last action, is taken
  for the player and logged as "the only choice");
- by kind of decision (slot), to see where the questions come from.

    .venv/bin/python benchmarks/player_prompts.py [--ruleset f2d20] [--fights 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.packets import PacketAgent  # noqa: E402
from wasteland.bestiary.loader import load_scenario  # noqa: E402
from wasteland.rules.protocol import get_ruleset  # noqa: E402


def one_fight(ruleset: str, scenario: str, seed: int, side: int = 0) -> dict[str, object]:
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed, keep_log=False)
    b.quiet = True
    player, npcs = PacketAgent(seed), PacketAgent(seed + 1)
    every = real = 0
    kinds: Counter[str] = Counter()
    forced: Counter[str] = Counter()
    while not b.over:
        dec = rs.decider(b)
        view = view_of(rs, b)
        mine = b.combatants[dec.combatant].side == side
        action = (player if mine else npcs).act(view)
        if mine:
            every += 1
            kind = dec.reaction or dec.slot
            kinds[kind] += 1
            if len(view.legal_ids) > 1:
                real += 1
            else:
                forced[f"{kind}: {action.text()}"] += 1
        rs.apply(b, action)
    return {"every": every, "real": real, "rounds": b.round, "kinds": dict(kinds),
            "forced": dict(forced)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="f2d20")
    ap.add_argument("--scenario", default="ruined_street")
    ap.add_argument("--fights", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [one_fight(args.ruleset, args.scenario, s) for s in range(args.fights)]
    every = [int(r["every"]) for r in rows]  # type: ignore[call-overload]
    real = [int(r["real"]) for r in rows]  # type: ignore[call-overload]
    kinds: Counter[str] = Counter()
    forced: Counter[str] = Counter()
    for r in rows:
        kinds.update(r["kinds"])  # type: ignore[arg-type]
        forced.update(r["forced"])  # type: ignore[arg-type]
    out = {"ruleset": args.ruleset, "scenario": args.scenario, "fights": args.fights,
           "every_mean": statistics.mean(every), "real_mean": statistics.mean(real),
           "drop": 1 - sum(real) / max(1, sum(every)),
           "rounds_mean": statistics.mean(int(r["rounds"]) for r in rows),  # type: ignore[call-overload]
           "by_kind_mean": {k: round(v / args.fights, 1) for k, v in kinds.most_common()},
           "forced_mean": {k: round(v / args.fights, 1) for k, v in forced.most_common(8)}}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{args.scenario} under {args.ruleset}, {args.fights} fights, the packet in the "
          f"player's seat:")
    print(f"  decisions of the player's side (all asked, before): {out['every_mean']:.1f} "
          f"a fight")
    print(f"  real choices (all that is asked now):               {out['real_mean']:.1f} "
          f"a fight ({out['drop']:.0%} fewer)")
    print(f"  rounds: {out['rounds_mean']:.1f}; by kind: {out['by_kind_mean']}")
    print(f"  taken for the player: {out['forced_mean']}")


if __name__ == "__main__":
    main()
