"""The seat suite (docs/seats.md): tune its line-ups, re-measure the packet in every seat,
print its table.

    .venv/bin/python benchmarks/seat_suite.py tune [--family F] [--ruleset R] [--map M]
    .venv/bin/python benchmarks/seat_suite.py check [--family F] [--ruleset R] [--fights N]
    .venv/bin/python benchmarks/seat_suite.py table [--markdown]

tune: for each seat, line-ups screened on 200 seeds and confirmed on 2,000
(wasteland/arena/tuner.py); writes the tuned scenario files and suite.yaml.
check: the packet's record in each seat again, compared with the recorded one: "same"
(the exact counts; the engine is deterministic), "changed" (other counts, the rate within
the recorded interval) or "DRIFTED" (the rate outside the recorded 95% interval or out
of the band where the seat carries a bar). Exits 1 when a seat drifted. One process.
check --record: after a rule change, the new records (and first100) written to suite.yaml
for the seats still in the band, the line-ups kept; a seat out of the band is left as it
was and reported, for `tune`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.arena.suite import measure  # noqa: E402
from wasteland.bestiary.suite import BAND, FAMILIES, SUITE_ORDER, Seat, load_suite, select  # noqa: E402
from wasteland.rules.errors import WastelandError  # noqa: E402
from wasteland.training.stats import wilson  # noqa: E402


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(seats: list[Seat], markdown: bool) -> None:
    if markdown:
        print("| family | ruleset | map | kind | line-up change | packet rate | 95% interval "
              "| fights | bar |")
        print("|---|---|---|---|---|---|---|---|---|")
    for s in seats:
        lo, hi = wilson(s.wins, s.fights)
        if markdown:
            print(f"| {s.family} | {s.ruleset} | {s.map} | {s.kind} | {s.change} | "
                  f"{pct(s.rate)} | {pct(lo)}-{pct(hi)} | {s.fights:,} | "
                  f"{'yes' if s.bar else 'no'} |")
        else:
            print(f"{s.id:34} {s.kind:8} {pct(s.rate):>6} [{pct(lo)}, {pct(hi)}] "
                  f"{'bar' if s.bar else 'NO BAR'}  {s.change}")


def check(seats: list[Seat], fights: int | None, record: bool = False) -> int:
    from wasteland.arena.tuner import existing_entries, write_suite
    from wasteland.training.seats import Record

    drifted = 0
    entries = {e["id"]: e for e in existing_entries()} if record else {}
    out_of_band: list[str] = []
    for s in seats:
        n = fights or s.fights
        t = time.perf_counter()
        r: Record = measure(s, "packet", fights=n)
        lo, hi = wilson(s.wins, s.fights)
        same = n == s.fights and (r.wins, r.losses, r.draws) == (s.wins, s.losses, s.draws)
        out = (not lo <= r.win_rate <= hi) or (s.bar and not BAND[0] <= r.win_rate <= BAND[1])
        word = "same" if same else ("DRIFTED" if out else "changed")
        drifted += word == "DRIFTED"
        print(f"{s.id:34} recorded {pct(s.rate):>6} ({s.wins}/{s.fights})  now "
              f"{pct(r.win_rate):>6} ({r.wins}/{r.fights})  {word}  "
              f"{time.perf_counter() - t:.1f}s", flush=True)
        if record and not same:
            if s.bar and not BAND[0] <= r.win_rate <= BAND[1]:
                out_of_band.append(s.id)
                continue
            first = measure(s, "packet", fights=100).wins
            entries[s.id]["packet"] = {"fights": n, "wins": r.wins, "losses": r.losses,
                                       "draws": r.draws, "first100": first}
    if record:
        write_suite(list(entries.values()))
        print(f"records written; out of the band, left for `tune`: "
              f"{', '.join(out_of_band) or 'none'}")
        return 1 if out_of_band else 0
    print(f"{len(seats)} seats, {drifted} drifted")
    return 1 if drifted else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=("tune", "check", "table"))
    ap.add_argument("--family", choices=tuple(FAMILIES))
    ap.add_argument("--ruleset", choices=SUITE_ORDER)
    ap.add_argument("--map", help="tune: only this map (e.g. duel, mirror)")
    ap.add_argument("--screen", type=int, default=200, help="tune: fights a screened line-up")
    ap.add_argument("--fights", type=int, default=None,
                    help="fights a confirmed line-up (tune, default 2000) or a check "
                         "(default: the recorded count)")
    ap.add_argument("--markdown", action="store_true", help="table: as Markdown")
    ap.add_argument("--record", action="store_true",
                    help="check: write the new records of seats still in the band")
    a = ap.parse_args(argv)
    try:
        if a.command == "tune":
            from wasteland.arena.tuner import plan, tune

            todo = plan(a.family, a.ruleset, a.map)
            if not todo:
                ap.error("no seat of the suite's plan matches the filters")
            tune(todo, a.screen, a.fights or 2000)
            return 0
        seats = select(load_suite(), a.family, a.ruleset)
        if a.command == "table":
            table(seats, a.markdown)
            return 0
        if a.record and a.fights is not None:
            ap.error("--record keeps each seat's recorded count of fights: drop --fights")
        return check(seats, a.fights, a.record)
    except WastelandError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
