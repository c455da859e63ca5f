"""Adding up fight records, one at a time, into the report `wasteland simulate` prints."""

from __future__ import annotations

from collections import Counter
from typing import Any

from wasteland.agents.external import FAULTS

from .record import FightRecord
from .spec import Encounter
from .stats import distribution, rate, wilson
from .verdict import RUNGS, summary_line, verdict


class Member:
    def __init__(self) -> None:
        self.down = self.died = self.ammo = 0
        self.hp_lost: Counter[int] = Counter()
        self.hp_left: Counter[int] = Counter()
        self.items: Counter[str] = Counter()


class Tally:
    """Counts, and each number's values with how often they came, over the fights added."""

    def __init__(self, spec: Encounter) -> None:
        self.spec = spec
        self.n = self.decisions = 0
        self.outcomes = Counter[str]()
        self.anyone_down = self.anyone_died = self.lethal = 0
        self.rounds: Counter[int] = Counter()
        self.party_hp_lost: Counter[int] = Counter()
        self.members = [Member() for _ in spec.party_ids]
        self.next_seed: int | None = None
        self.faults: Counter[str] = Counter()

    def add(self, r: FightRecord) -> None:
        # records must come in seed order: the numbers of a run are those of a seed range
        assert self.next_seed in (None, r.seed), f"fight {r.seed} came out of seed order"
        self.next_seed = r.seed + 1
        self.n += 1
        self.decisions += r.decisions
        for _side, kind, k in r.faults:
            self.faults[kind] += k
        result = ("draw" if r.winner is None
                  else "win" if r.winner == self.spec.party else "loss")
        self.outcomes[result] += 1
        down = any(m.went_down for m in r.members)
        died = any(m.died for m in r.members)
        self.anyone_down += down
        self.anyone_died += died
        self.lethal += died or result == "loss"
        self.rounds[r.rounds] += 1
        self.party_hp_lost[sum(m.hp_lost for m in r.members)] += 1
        for acc, m in zip(self.members, r.members):
            acc.down += m.went_down
            acc.died += m.died
            acc.ammo += m.ammo_used
            acc.hp_lost[m.hp_lost] += 1
            acc.hp_left[m.hp_left] += 1
            for item, k in m.items_used:
                acc.items[item] += k

    def win_interval(self) -> tuple[float, float]:
        return wilson(self.outcomes["win"], self.n)

    def verdict(self) -> str:
        n = max(self.n, 1)
        return verdict(self.outcomes["win"] / n, self.anyone_down / n, self.lethal / n)

    def report(self) -> dict[str, Any]:
        n, spec = self.n, self.spec
        per = 1 / max(n, 1)
        items: Counter[str] = Counter()
        for m in self.members:
            items.update(m.items)
        rounds = distribution(self.rounds)
        name = self.verdict()
        win = self.outcomes["win"] * per
        return {
            "verdict": name,
            "summary": summary_line(name, win, self.win_interval(), self.outcomes["loss"] * per,
                                    self.anyone_down * per, self.anyone_died * per,
                                    rounds.get("median", 0.0)),
            "fights": n,
            "outcome": {k: rate(self.outcomes[k], n) for k in ("win", "loss", "draw")},
            "anyone_down": rate(self.anyone_down, n),
            "anyone_dies": rate(self.anyone_died, n),
            "lethal": rate(self.lethal, n),
            "rounds": rounds,
            "decisions_mean": self.decisions * per,
            "party_hp_lost": distribution(self.party_hp_lost),
            "ammo_used_mean": sum(m.ammo for m in self.members) * per,
            "items_used_mean": {k: items[k] * per for k in sorted(items)},
            "stimpaks_used_mean": items["stimpak"] * per,
            "members": [
                {"id": cid, "creature": creature, "down": rate(m.down, n),
                 "dies": rate(m.died, n), "hp_lost": distribution(m.hp_lost),
                 "hp_left": distribution(m.hp_left),
                 "ammo_used_mean": m.ammo * per,
                 "items_used_mean": {k: m.items[k] * per for k in sorted(m.items)}}
                for cid, creature, m in zip(spec.party_ids, spec.party_creatures, self.members)
            ],
            "thresholds": [{"verdict": r.name, "min_win": r.min_win, "max_down": r.max_down,
                            "max_lethal": r.max_lethal} for r in RUNGS],
            # faults of program agents (cmd:), each decision replaced by a fallback
            **({"agent_faults": {k: self.faults[k] for k in FAULTS}}
               if any(str(a).startswith("cmd") for a in getattr(spec, "agents", ())) else {}),
        }
