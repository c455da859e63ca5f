"""Held-out maps with larger line-ups than any training seat (issue 40, item 6), and the
shipped policies against the packet on them.

The suite's seats hold at most four of a family on the creatures' side, and the training
arenas one to three. A policy that learned only those line-ups may fall apart with six or
eight radscorpions to move, or a side outnumbered two to one. `make` draws, per family and
ruleset, procedural arenas (training/arenas.py) one to eight a side (at most ten in all) where
one side holds five or more, screens each with the packet in the creatures' seat (100 fights, seeds
1000..1099) and keeps the first where the packet wins 25-75%, so the comparison has room
both ways; the kept scenario is written to wasteland/training/heldout/wide/. No training
config lists that folder.

`check` plays each shipped policy in its family's creatures' seat on its ruleset's map and
the packet on the same seeds, and prints the paired difference with Newcombe's 95% interval.

    .venv/bin/python benchmarks/wide_heldout.py make
    .venv/bin/python benchmarks/wide_heldout.py check [--fights 200] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from wasteland.arena.tuner import dump_scenario  # noqa: E402
from wasteland.bestiary.loader import load_scenario  # noqa: E402
from wasteland.bestiary.suite import SUITE_ORDER  # noqa: E402
from wasteland.training.arenas import FAMILIES, FOES, random_arena  # noqa: E402
from wasteland.training.seats import difference_interval, seat  # noqa: E402

FOLDER = Path(__file__).resolve().parent.parent / "wasteland" / "training" / "heldout" / "wide"
# the maps were drawn walking the rulesets in the suite's order, and a map's arena seed
# counts its place in that walk: another order would draw other maps
RULESETS = SUITE_ORDER
POLICY_OF = {"radscorpions": "radscorpion", "super_mutants": "super_mutant", "robots": "robot"}
COUNT = (1, 8)  # either side
LARGEST = 5  # the larger side holds at least this many: more than any seat's creatures' side
SCREEN = (1000, 100)  # first seed, fights
BAND = (0.25, 0.75)
TRIES = 400


def make(families: list[str], rulesets: list[str]) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for fi, family in enumerate(FAMILIES):
        if family not in families:
            continue
        for ri, ruleset in enumerate(RULESETS):
            if ruleset not in rulesets:
                continue
            kinds = FAMILIES[family]
            name = f"wide_{family}_{ruleset}"
            r = None
            for k in range(TRIES):
                arena_seed = 7000 + 1000 * fi + 100 * ri + k
                sc = random_arena(np.random.default_rng(arena_seed), kinds, FOES,
                                  creature_count=COUNT, foe_count=COUNT,
                                  name=name, ruleset=ruleset)
                sizes = [len(s.combatants) for s in sc.sides]
                if max(sizes) < LARGEST:
                    continue
                r = seat("packet", sc, ruleset, kinds, fights=SCREEN[1], first_seed=SCREEN[0])
                print(f"{name} arena seed {arena_seed}: sides {sizes}, packet "
                      f"{r.wins}/{r.fights}", flush=True)
                if BAND[0] <= r.win_rate <= BAND[1]:
                    break
            else:
                print(f"{name}: no arena in {TRIES} tries within {BAND}; the last is kept")
            if r is None:
                raise SystemExit(f"{name}: no arena with a side of {LARGEST} in {TRIES} tries")
            data = sc.model_dump(mode="json", exclude_defaults=True)
            data["id"] = name
            data["name"] = f"Wide {family.replace('_', ' ')} ({ruleset})"
            data["description"] = (f"A procedural arena for {family.replace('_', ' ')} with a "
                                   f"side larger than any training seat's, drawn for the "
                                   f"held-out check.")
            header = [f"Held-out arena {name}: arena seed {arena_seed}, sides {sizes}.",
                      f"Packet in the creatures' seat: {r.wins}/{r.fights} on seeds "
                      f"{SCREEN[0]}..{SCREEN[0] + SCREEN[1] - 1}.",
                      "Written by benchmarks/wide_heldout.py make; never used in training."]
            (FOLDER / f"{name}.yaml").write_text(dump_scenario(data, header), encoding="utf-8")


def check(fights: int, families: list[str], rulesets: list[str], out: Path | None,
          policy: str | None = None) -> None:
    rows = []
    for family in families:
        for ruleset in rulesets:
            path = FOLDER / f"wide_{family}_{ruleset}.yaml"
            sc = load_scenario(str(path))
            kinds = FAMILIES[family]
            t = time.perf_counter()
            base = seat("packet", sc, ruleset, kinds, fights=fights)
            pol = f"policy:{policy or POLICY_OF[family] + '_' + ruleset}"
            mine = seat(pol, sc, ruleset, kinds, fights=fights)
            lo, hi = difference_interval(mine, base)
            d = mine.win_rate - base.win_rate
            verdict = "worse" if hi < 0 else ("better" if lo > 0 else "not worse")
            row = {"policy": pol[7:], "map": sc.id, "fights": fights,
                   "packet": base.as_dict(), "policy_record": mine.as_dict(),
                   "difference": round(d, 4), "interval": [round(lo, 4), round(hi, 4)],
                   "verdict": verdict, "seconds": round(time.perf_counter() - t, 1)}
            rows.append(row)
            print(f"{pol[7:]:22} {sc.id:28} packet {base.win_rate:6.1%}  policy "
                  f"{mine.win_rate:6.1%}  {100 * d:+6.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"
                  f"  {verdict}  ({row['seconds']} s)", flush=True)
    if out is not None:
        out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=("make", "check"))
    p.add_argument("--fights", type=int, default=200)
    p.add_argument("--family", action="append", choices=list(FAMILIES))
    p.add_argument("--ruleset", action="append", choices=RULESETS)
    p.add_argument("--json", type=Path, help="write the check's rows here")
    p.add_argument("--policy", help="check this policy file instead of the shipped one "
                   "(with one --family and one --ruleset)")
    a = p.parse_args()
    families, rulesets = a.family or list(FAMILIES), a.ruleset or list(RULESETS)
    if a.what == "make":
        make(families, rulesets)
    else:
        if a.policy and (len(families) != 1 or len(rulesets) != 1):
            p.error("--policy needs one --family and one --ruleset")
        check(a.fights, families, rulesets, a.json, a.policy)


if __name__ == "__main__":
    main()
