"""How many lines a GM types per round of ruined_street with physical dice (issue 26,
item 3: "a round took about 23 typed lines plus 9 for initiative").

`wasteland gm --physical-dice` is run in-process on ruined_street (4 party members, 5
NPCs) under each ruleset, answered by a script that types what a GM at the table
would:

- a roll the session asks for ("Roll NdS for ..."): N faces (the battle's own dice are
  not read; the faces cycle 1..S so the fight moves); when the prompt lists the later
  rolls of the same attack or test ("(or all: 3d6 / 2d8)", issue 41) all of them on
  that one line, as a GM who rolls them together types them;
- an NPC's proposal: Enter (accepted);
- a party member's decision: the action the packet agent would take in its place
  (its own agent, seeded), typed as its notation, as a GM types what a player says;
  with --party-turns, its turn up to its next roll in one line, as a player declares
  it ("move toward raider_0; attack raider_0", which the game takes since issue 26).

Every typed line is counted, by what it answered and by the round it was typed in;
the lines typed before the fight starts (the party's initiative or sequence rolls) are
counted apart. A fight stops at --rounds rounds, so each run stays short. Each ruleset's
count is printed next to its bar (issue 41: at most 12 a round under PnP and 2d20, 16
under Simple); --transcript prints every session as the GM saw it.

    .venv/bin/python benchmarks/gm_lines.py [--seeds 3] [--rounds 3] [--json] [--transcript]
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import re
import statistics
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rich.console import Console  # noqa: E402

import wasteland.cli.gm as gm  # noqa: E402
from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.packets import PacketAgent  # noqa: E402
from wasteland.cli.dice_ahead import groups  # noqa: E402
from wasteland.cli.orders import Answer, begin  # noqa: E402
from wasteland.cli.play import GameSetup  # noqa: E402
from wasteland.rules.names import RULESETS  # noqa: E402

ROLL = re.compile(r"Roll (\d+)d(\d+) for ")
ALL = re.compile(r"\(or all: ([^)]*)\)$")  # the later rolls a first prompt lists
BARS = {"pnp": 12, "simple": 16, "f2d20": 12}  # typed lines a round, issue 41


class Stop(Exception):
    """The run reached its round limit."""


def session(ruleset: str, seed: int, rounds: int, tmp: Path, party_turns: bool = False,
            transcript: bool = False) -> dict[str, Any]:
    """One scripted session: typed lines by kind, before the fight and per round."""
    con = Console(file=io.StringIO(), width=2000)  # a prompt is one line however long
    spied: list[gm.GmSession] = []

    class Spy(gm.GmSession):  # to read whose decision it is, as the GM at the table sees
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            spied.append(self)

    party = PacketAgent(seed + 7)
    faces = itertools.cycle(range(1, 21))
    kinds: Counter[str] = Counter()
    per_round: Counter[int] = Counter()
    setup = 0

    def typed(dice: list[str]) -> str:
        """The script's faces for these groups ("3d6", "2d8"), apart by "/"."""
        return " / ".join(" ".join(str((next(faces) - 1) % sides + 1) for _ in range(n))
                          for n, sides in (map(int, g.split("d")) for g in dice))

    def last_line() -> str:
        text = con.file.getvalue().rstrip().splitlines()  # type: ignore[attr-defined]
        return text[-1] if text else ""

    def answers() -> Iterator[str]:
        nonlocal setup
        while True:
            m = ROLL.search(last_line())
            s = spied[0] if spied else None
            if s is not None and (s.b.over or s.b.round > rounds):
                raise Stop
            if m:
                every = ALL.search(last_line())
                line = typed(every.group(1).split(" / ") if every
                             else [f"{m.group(1)}d{m.group(2)}"])
                kind = "dice"
            elif s is None:
                raise RuntimeError(f"asked before the fight, not a roll: {last_line()!r}")
            else:
                b, rs = s.b, s.rs
                dec = rs.decider(b)
                who = b.combatants[dec.combatant]
                if who.side in s.humans and party_turns:
                    # 2d20's windows are not typed with a turn, unless one is asked now
                    plan = [a.text(b.ids, who.slot)
                            for i, (_, a, _) in enumerate(s.plan(party, who.slot))
                            if i == 0 or a.kind not in ("buy", "boost")]
                    line, kind = "; ".join(plan), "party"
                elif who.side in s.humans:
                    a = party.act(view_of(rs, b))
                    line, kind = a.text(b.ids, who.slot), "party"
                    # its dice on the same line, the groups its first prompt would list;
                    # an attack that aims first (2d20) rolls after the aim: left to it
                    if begin(b, rs, who.slot, Answer(a))[0] == a:
                        ahead = groups(s.rolls_ahead(a))
                        line += f" / {typed(ahead)}" if ahead else ""
                else:
                    line, kind = "", "npc"
            if s is None:
                setup += 1
            else:
                kinds[kind] += 1
                per_round[s.b.round] += 1
            yield line

    real = gm.GmSession
    gm.GmSession = Spy  # type: ignore[misc]
    try:
        gm.start_gm(GameSetup(ruleset, "ruined_street", "0", seed,
                              save_to=tmp / f"{ruleset}{seed}.json", physical_dice=True),
                    con, answers())
    except Stop:
        pass
    finally:
        gm.GmSession = real  # type: ignore[misc]
    if transcript:
        print(f"==== {ruleset}, seed {seed}")
        print(con.file.getvalue())  # type: ignore[attr-defined]
    played = [r for r in per_round if r <= rounds]
    return {"setup": setup, "kinds": dict(kinds), "rounds": len(played),
            "lines": sum(per_round[r] for r in played)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, default=3, help="sessions per ruleset (seeds 0..N-1)")
    p.add_argument("--rounds", type=int, default=3, help="rounds played per session")
    p.add_argument("--ruleset", choices=RULESETS, action="append",
                   help="only this ruleset (repeatable; default: all three)")
    p.add_argument("--party-turns", action="store_true",
                   help="type a party member's turn up to its next roll in one line")
    p.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    p.add_argument("--transcript", action="store_true",
                   help="print each session as the GM saw it, then the counts")
    args = p.parse_args()
    if args.seeds < 1 or args.rounds < 1:
        p.error("--seeds and --rounds must be at least 1")
    out = {}
    with TemporaryDirectory() as d:
        for ruleset in args.ruleset or RULESETS:
            runs = [session(ruleset, seed, args.rounds, Path(d), args.party_turns,
                            args.transcript) for seed in range(args.seeds)]
            kinds: Counter[str] = Counter()
            for r in runs:
                kinds.update(r["kinds"])
            n_rounds = sum(r["rounds"] for r in runs)
            per_round = round(sum(r["lines"] for r in runs) / max(1, n_rounds), 1)
            out[ruleset] = {
                "per_round": per_round,
                "bar": BARS[ruleset],
                "meets_bar": per_round <= BARS[ruleset],
                "setup": statistics.mean(r["setup"] for r in runs),
                "by_kind_per_round": {k: round(v / max(1, n_rounds), 1)
                                      for k, v in sorted(kinds.items())},
                "rounds": n_rounds,
            }
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"typed lines per round of ruined_street, gm --physical-dice "
          f"({args.seeds} seeds x {args.rounds} rounds"
          f"{', party turns in one line' if args.party_turns else ''})")
    for ruleset, r in out.items():
        kinds_text = ", ".join(f"{k} {v}" for k, v in r["by_kind_per_round"].items())
        meets = "meets it" if r["meets_bar"] else "NOT met"
        print(f"  {ruleset:7} {r['per_round']:5.1f} per round (bar {r['bar']}: {meets}; "
              f"{kinds_text}); {r['setup']:.0f} before round 1")


if __name__ == "__main__":
    main()
