"""How many questions a player answers in one fight (issue 13: "a 2d20 ruined_street fight
takes a player about 215 decisions").

The player's side is played by the packet agent (what the `d` key takes in the full-screen
game), every other side by the packet too, for fights with seeds 0 .. N-1. Each fight is
played once, its decisions recorded, and the player's decisions are counted three ways:

- every decision: what both games asked before decisions with one legal action were
  taken for the player (the line game until this benchmark was written);
- a real choice: a decision with more than one legal action (what the games asked
  before the merges of wasteland/cli/orders.py);
- a question: what the games ask now, under their default table rules. The recorded
  fight is replayed through the games' own rules: at each decision of the player's,
  ``orders.auto_answer`` (the function both games call) says whether it is answered
  without asking, and must answer what the player did; where it does not, the player is
  asked, and answers as a player of the merged game would: the action, with ``aim`` when
  it aimed and then attacked, ``noaim`` when it attacked without aiming first where the
  aim rule would, ``keep`` when it went on after the action; the answer is typed as text
  and read back by the line game's parser. So the fights are the same, decision for
  decision, and the count cannot drift from what the games do.

    .venv/bin/python benchmarks/player_prompts.py [--ruleset f2d20] [--fights 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wasteland.agents.base import view_of  # noqa: E402
from wasteland.agents.packets import PacketAgent  # noqa: E402
from wasteland.bestiary.loader import load_scenario  # noqa: E402
from wasteland.cli.orders import (  # noqa: E402
    ATTACKS,
    Answer,
    Orders,
    aims_first,
    auto_answer,
    begin,
    split_extras,
)
from wasteland.cli.prompt import match  # noqa: E402
from wasteland.rules.actions import Action  # noqa: E402
from wasteland.rules.battle import Battle  # noqa: E402
from wasteland.rules.protocol import Ruleset  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402


@dataclass(frozen=True)
class Step:
    who: int
    slot: str
    reaction: str | None
    round: int
    turn: int
    action: Action
    mine: bool
    legal: int

    @property
    def own_turn(self) -> bool:
        return self.slot == "act" and self.reaction is None


def new_battle(ruleset: str, scenario: str, seed: int) -> tuple[Ruleset, Battle]:
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed, keep_log=False)
    b.quiet = True
    return rs, b


def record(ruleset: str, scenario: str, seed: int, side: int) -> list[Step]:
    """The fight with the packet on every side, decision by decision."""
    rs, b = new_battle(ruleset, scenario, seed)
    player, npcs = PacketAgent(seed), PacketAgent(seed + 1)
    steps = []
    while not b.over:
        dec = rs.decider(b)
        view = view_of(rs, b)
        mine = b.combatants[dec.combatant].side == side
        action = (player if mine else npcs).act(view)
        steps.append(Step(dec.combatant, dec.slot, dec.reaction, b.round, b.turn, action,
                          mine, len(view.legal_ids)))
        rs.apply(b, action)
    return steps


def answer_at(b: Battle, rs: Ruleset, steps: list[Step], i: int) -> tuple[Answer, int]:
    """What the player types at step ``i`` in the merged game, and the last step it
    covers: Aim then an attack is one answer; noaim where the rule would aim and it did
    not; keep when its turn goes on after the answer."""
    s = steps[i]
    a, last, aim = s.action, i, None
    if s.own_turn and a.kind == "aim" and i + 1 < len(steps):
        nxt = steps[i + 1]
        if (nxt.who == s.who and nxt.own_turn and nxt.action.kind in ATTACKS
                and aims_first(b, rs, s.who, nxt.action, True)):
            a, last = nxt.action, i + 1
            aim = None if aims_first(b, rs, s.who, a) else True
    elif s.own_turn and aims_first(b, rs, s.who, a):
        aim = False
    keep = False
    if s.own_turn:
        after = next((t for t in steps[last + 1:] if t.who == s.who and t.own_turn
                      or (t.round, t.turn) != (s.round, s.turn)), None)
        keep = (after is not None and (after.round, after.turn) == (s.round, s.turn)
                and after.action.kind != "end")
    return Answer(a, None, aim, keep), last


def replay(ruleset: str, scenario: str, seed: int, steps: list[Step]
           ) -> tuple[int, Counter[str], Counter[str]]:
    """The questions the games ask in the recorded fight: (count, by kind, what was
    answered without asking by its reason's first words)."""
    rs, b = new_battle(ruleset, scenario, seed)
    advisor = PacketAgent(seed)

    def advice() -> tuple[Action, str]:
        a = advisor.act(view_of(rs, b))
        return a, str(advisor.last_reason)

    orders: Orders | None = None
    asked = 0
    kinds: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for i, s in enumerate(steps):
        dec = rs.decider(b)
        assert (dec.combatant, dec.slot) == (s.who, s.slot), f"seed {seed} step {i}"
        if not s.mine:
            rs.apply(b, s.action)
            continue
        got = auto_answer(b, rs, orders, advice)
        if got is not None:
            if got[0] != s.action:
                raise AssertionError(f"seed {seed} step {i}: the game takes "
                                     f"{got[0].text(b.ids, s.who)} ({got[1]}), the player "
                                     f"did {s.action.text(b.ids, s.who)}")
            taken[got[1].split(":")[0]] += 1
            if orders is not None:
                orders.taken(got[0])
            rs.apply(b, s.action)
            continue
        if orders is not None and orders.attack is not None and orders.current(b, s.who):
            pass  # an attack after Aim that is not legal: asked (begin replaces the orders)
        answer, _ = answer_at(b, rs, steps, i)
        legal = rs.legal_actions(b)
        labels = [a.text(b.ids, s.who) for a in legal]
        typed = answer.text(b.ids, s.who)
        rest, buy, aim, keep = split_extras(typed)  # read back as the line game reads it
        parsed = Answer(match(rest, legal, labels), buy, aim, keep)
        assert parsed == answer, (typed, parsed, answer)
        first, orders = begin(b, rs, s.who, parsed)
        assert first == s.action, (seed, i, typed, first)
        asked += 1
        kinds[s.reaction or (s.slot if s.slot != "act" else "act: " + typed.split()[0]
                             + (" ..." if answer.action != s.action else ""))] += 1
        rs.apply(b, s.action)
    return asked, kinds, taken


def one_fight(ruleset: str, scenario: str, seed: int, side: int = 0) -> dict[str, object]:
    steps = record(ruleset, scenario, seed, side)
    mine = [s for s in steps if s.mine]
    asked, kinds, taken = replay(ruleset, scenario, seed, steps)
    return {"every": len(mine), "real": sum(s.legal > 1 for s in mine), "asked": asked,
            "rounds": max(s.round for s in steps), "kinds": dict(kinds),
            "taken": dict(taken)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="f2d20")
    ap.add_argument("--scenario", default="ruined_street")
    ap.add_argument("--fights", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [one_fight(args.ruleset, args.scenario, s) for s in range(args.fights)]

    def mean(key: str) -> float:
        return statistics.mean(int(r[key]) for r in rows)  # type: ignore[call-overload]

    kinds: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    for r in rows:
        kinds.update(r["kinds"])  # type: ignore[arg-type]
        taken.update(r["taken"])  # type: ignore[arg-type]
    out = {"ruleset": args.ruleset, "scenario": args.scenario, "fights": args.fights,
           "every_mean": mean("every"), "real_mean": mean("real"),
           "asked_mean": mean("asked"),
           "drop": 1 - mean("asked") / max(1.0, mean("every")),
           "rounds_mean": mean("rounds"),
           "asked_by_kind_mean": {k: round(v / args.fights, 1) for k, v in kinds.most_common()},
           "taken_mean": {k: round(v / args.fights, 1) for k, v in taken.most_common()}}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{args.scenario} under {args.ruleset}, {args.fights} fights, the packet in the "
          f"player's seat:")
    print(f"  (a) every decision of the player's side (before):    {out['every_mean']:.1f} "
          f"a fight")
    print(f"  (b) real choices (more than one legal action):       {out['real_mean']:.1f}")
    print(f"  (c) questions asked now (default table rules):       {out['asked_mean']:.1f} "
          f"({out['drop']:.0%} fewer than (a))")
    print(f"  rounds: {out['rounds_mean']:.1f}")
    print(f"  asked, by kind: {out['asked_by_kind_mean']}")
    print(f"  taken for the player: {out['taken_mean']}")


if __name__ == "__main__":
    main()
