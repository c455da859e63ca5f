"""The search agent: the packet's choice, checked by playing the fight on.

For each decision it takes the packet's own choice and the first actions of a few plans
(the deciding combatant's packet with one field changed: another target, another
distance, no fleeing, aimed shots...), and scores each by continuations: the battle
forked with fresh dice (rules/fork.py: it never reads the battle's own RNG, so it cannot
see the future dice), the candidate applied, then the fight played on for ``horizon``
rounds (or to the end), the decider following the candidate's plan and everyone else
their packets, and scored by ``value``. Continuation k of every candidate rolls the same
dice (common random numbers), so their differences are not drowned in the dice's noise;
successive halving spends the continuations on the candidates still close to the best,
and stops once none beats the packet's choice; the packet's choice is kept unless another
beats it by more than ``z`` standard errors of the paired difference. This is Bertsekas'
rollout algorithm over the packet with Churchill and Buro's portfolio of scripts (here:
packet variants) as the candidates. With ``base=policy`` (2d20's default) a shipped policy
takes the packet's place where it knows the combatant's kind: its choice is the one to
beat and it plays the continuations (agents/guide.py), the packet's choice still weighed.

Names, wherever an agent is named: ``search`` (the default budget), ``search@0.2`` (as
many continuations as 0.2 s a decision allows: faster machines search more, and the
fight is no longer a function of its seed), ``search:rollouts=64,horizon=2,candidates=6``
(keys in ``Budget.LIMITS``).
docs/search.md says what each budget buys.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Final

from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, Action
from wasteland.rules.battle import ACTIVE, Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.fork import fork
from wasteland.rules.protocol import Ruleset

from .base import View, share_memory
from .loop import play
from .standing import features

if TYPE_CHECKING:
    from wasteland.observe.memory import Memory

    from .guide import Guide

# a learned value (agents/valuenet.py): a battle, a side, what its combatants have seen
Judge = Callable[[Battle, int, "Memory | None"], float]

# a continuation that runs this many decisions without ending its horizon is cut there
MAX_DECISIONS = 4000


@dataclass(frozen=True)
class Budget:
    """How hard the search looks: ``rollouts`` continuations a decision in all (``seconds``
    instead: a time budget), shared by at most ``candidates`` actions, each continuation
    ``horizon`` rounds long (0: to the end of the fight); ``z``: how many standard errors
    a candidate must beat the packet's choice by; ``plans``: 1, the candidates are plans
    (the packet with one field changed, followed through the continuation), 0, single
    actions followed by the packet, 2, plans first, then single actions that do not wait,
    hide or back off (``putting_off``); ``full``: continuations are played to the end,
    whatever the horizon, when at most this many combatants stand (small fights are cheap
    to play out, and a cut misjudges a plan that waits: its cost falls past the cut).
    ``taper``: 1, each action the combatant has already taken this turn (2d20's minor and
    major actions, read from the battle, so a resumed game searches the same) halves the
    continuations, to at least an eighth: a 2d20 turn is many decisions (aim, attack, d20s
    to buy, damage to boost, a second attack), and a GM should not wait on one for long.
    ``turn``: 1, the turn is planned once (a turn of several decisions costs one search):
    the plan that won the combatant's first decision of its turn (the packet, when its
    choice was kept) plays the rest of that turn without searching again, as it did in the
    continuations that chose it; it plans again when someone falls or rises, or a decision
    comes outside that turn (a reaction).
    ``value``: what judges a continuation cut at its horizon, ``logistic`` (``value`` below)
    or ``learned`` (agents/valuenet.py, the ruleset's shipped network).
    ``base``: who plays the searching side's continuations, ``packet``, ``policy``, or
    ``both``: the candidates are played out under the policy and again under the packet,
    and the better of the two searches' choices is taken (a rollout with two base policies
    takes the action the better base values most; where the policy is weak the packet's
    play finds what the policy's cannot). ``policy``: where
    a shipped policy was trained for a combatant's kind under the ruleset (agents/guide.py),
    it plays that combatant in the continuations, its choice is the one the other candidates
    (the packet's among them) must beat, and its likelier actions are the single-action
    candidates. ``wide``: 1, after the policy's likelier actions the rest of the legal ones
    are candidates too, one of each kind and target first (as without a policy): a policy
    on a map it never saw can be sure of the wrong thing (2d20 quarry pit: "cover" at 100%
    where leaving it won 0.8 against 0.4 in the continuations).
    ``work``: a budget in decisions played (0: none), as deterministic as ``rollouts``: one
    continuation of each candidate says what one costs in this fight (its decisions and a
    fork's worth, FORK, times the combatants standing: a decision observes each of them),
    and the search plays as many as the work pays for, never fewer than ``rollouts`` nor
    more than SPREAD times as many. A fight of three buys four to eight times what a 4v4
    map does in the same wait, so a budget sized on the 4v4 maps' waits is not the small
    fights' limit (taper halves it as it halves ``rollouts``).
    ``cap``: a safety cap in seconds on a combatant's turn (every decision of it together;
    0: none): a search still running when its turn has taken that long stops and plays the
    best it has found so far, and its reason says the cap cut it and after how many
    continuations (``SearchAgent.stop_after`` set to that number makes the same decision
    again, cap or no cap). The levels' budgets keep a GM's wait far below it: it is there
    for a slow or loaded machine.
    ``level``: ``hard`` (these defaults) or ``deadly``, a larger budget (LEVEL_BUDGETS) that
    each ruleset sizes to what a GM can wait for on this machine.
    A ruleset may default otherwise (RULESET_DEFAULTS, then the level's, applied by
    ``under``): keys the name sets (``given``) keep its values."""

    rollouts: int = 48
    candidates: int = 6
    horizon: int = 2
    z: float = 1.0
    plans: int = 1
    full: int = 4
    taper: int = 0
    turn: int = 0
    seconds: float = 0.0
    value: str = "logistic"
    base: str = "packet"
    wide: int = 0
    work: int = 0
    cap: float = 3.0
    level: str = "hard"
    given: frozenset[str] = frozenset()  # the keys its name set (the rest: defaults)

    LIMITS = {"rollouts": (1, 10_000), "candidates": (1, 64), "horizon": (0, 1000),
              "z": (0.0, 10.0), "plans": (0, 2), "full": (0, 100), "taper": (0, 1),
              "turn": (0, 1), "wide": (0, 1), "work": (0, 10_000_000),
              "seconds": (0.001, 60.0), "cap": (0.0, 600.0)}
    FLOATS = ("z", "seconds", "cap")  # the LIMITS keys that take any number, not whole ones
    # keys named by a word, and the words each accepts
    CHOICES = {"value": ("logistic", "learned"), "base": ("packet", "policy", "both"),
               "level": ("hard", "deadly")}

    def text(self) -> str:
        """The name that makes this budget again (a save records it, its resume parses it):
        ``search@SECONDS`` only when the time is all it sets, and every number written so
        that it reads back as the same number."""
        default = Budget()
        named = [f.name for f in fields(self)
                 if f.name in (*self.LIMITS, *self.CHOICES) and (f.name in self.given or
                                               getattr(self, f.name) != getattr(default, f.name))]
        if named == ["seconds"]:
            return f"search@{_number(self.seconds)}"
        parts = [f"{k}={_number(getattr(self, k))}" for k in named]
        return "search" + (":" + ",".join(parts) if parts else "")

    def under(self, ruleset: str) -> Budget:
        """This budget under ``ruleset``: its RULESET_DEFAULTS for the keys the name left
        unset."""
        level = LEVEL_BUDGETS.get(self.level, {})
        extra = {k: v for k, v in {**RULESET_DEFAULTS.get(ruleset, {}), **level.get("*", {}),
                                   **level.get(ruleset, {})}.items()
                 if k not in self.given}
        return replace(self, **extra) if extra else self


# where a ruleset's fights want another default (docs/search.md, "2d20, second round"): a
# 2d20 fight runs 12 rounds and more on a 4v4 map, and a cut after two says little (it
# names the candidate full playouts find best in 16 of 40 decisions of the ruined street),
# so its continuations play to the end, with a stricter bar for leaving the base's choice;
# its turns are many decisions, planned once (turn=1), and where a shipped policy knows a
# kind it guides the search (base=policy: the radscorpion duel +18.0 and the desert wash
# +14.5 over the packet, where the packet-based search made +5.5 and +4.0). Continuations
# played to the end cost 4-9 ms on a 4v4 map, so 20 of them keep the wait between two
# decisions of the party within what docs/search.md gives hard ("Budgets a GM never waits
# on": at 40 it was 1.78 s in the ruined street, at 24 0.96 s in the robot depot; the bar
# is 1 s).
RULESET_DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "f2d20": {"horizon": 0, "rollouts": 20, "z": 1.5, "taper": 1, "turn": 1,
              "base": "policy"},
}


# the levels' budgets above the default (``hard``): for every ruleset ("*"), then a
# ruleset's own, sized so that the wait a GM sees stays within docs/search.md's bars
# ("Budgets a GM never waits on"). 2d20's deadly weighs what its policy all but rules
# out (wide) and buys continuations by work: 40 on a 4v4 map, 100-600 in a fight of three,
# where the radscorpions' quarry pit and vault corridor went from +3.5 and +8.5 over the
# packet to +12.5 and +15.5 (docs/search.md, "Wide candidates and a budget in work"); its
# continuations are cut and judged by the learned value while more than four stand (full=4:
# smaller fights are played to the end): the same work then buys several times the
# continuations, and the super mutants' ruined street went from +3.0 to +9.5 and the desert
# wash from +14.5 to +23.0 (docs/search.md, "2d20 deadly cut at two rounds"). The cut is at
# four rounds: in the suite's 2d20 seats it plays as two did (0.8 points a seat apart over
# nine seats, within the noise) and the cut picks the full playouts' clearly best candidate in
# 21 of 30 decisions where two rounds picked 6 (docs/search.md, "Four rounds against two")
# Under PnP deadly weighs plans alone (plans=1): with single actions after them (plans=2,
# cut at two rounds) it won 143 of 200 fights in the robots' tram platform where `hard`
# won 166 and plans alone 177, and no fewer in the radscorpion duel (116 against 114) or
# the super mutants' ruined street (86 against 83 of 100) (docs/search.md, "deadly under
# PnP: plans alone")
LEVEL_BUDGETS: Final[dict[str, dict[str, dict[str, Any]]]] = {
    "deadly": {"*": {"rollouts": 128, "candidates": 10, "plans": 2, "full": 4},
               "pnp": {"plans": 1},
               "f2d20": {"rollouts": 40, "wide": 1, "work": 40_000, "horizon": 4,
                         "value": "learned"}},
}


def _number(x: float | str) -> str:
    """``x`` as short as it reads back exactly (``1`` for 1.0, ``0.15``, ``1e-05``); a
    word as it is."""
    if isinstance(x, (int, str)):
        return str(x)
    short = f"{x:g}"
    return short if float(short) == x else repr(float(x))


def parse_budget(name: str) -> Budget:
    """The budget ``search``, ``search@SECONDS`` or ``search:key=value,...`` names; one
    line naming what is wrong and what is accepted."""
    keys = ", ".join([*(f"{k} ({lo:g}-{hi:g})" for k, (lo, hi) in Budget.LIMITS.items()),
                      *(f"{k} ({'|'.join(w)})" for k, w in Budget.CHOICES.items())])
    form = f"search, search@SECONDS or search:key=value,... with keys {keys}"
    if name == "search":
        return Budget()
    if name.startswith("search@"):
        text = name[len("search@"):]
        try:
            seconds = float(text)
        except ValueError:
            raise WastelandError(f"agent {name!r}: {text!r} is not a number of seconds; "
                                 f"accepted: {form}") from None
        lo, hi = Budget.LIMITS["seconds"]  # the same range as the key form's
        if not lo <= seconds <= hi:
            raise WastelandError(f"agent {name!r}: a time budget is {lo:g} to {hi:g} seconds a "
                                 f"decision, got {text[:20]}")
        return Budget(seconds=seconds, given=frozenset({"seconds"}))
    if not name.startswith("search:") or name == "search:":
        raise WastelandError(f"unknown agent {name!r}; accepted: {form}")
    values: dict[str, Any] = {}
    for part in name[len("search:"):].split(","):
        key, eq, text = part.partition("=")
        key = key.strip()
        if key not in (*Budget.LIMITS, *Budget.CHOICES) or not eq:
            raise WastelandError(f"agent {name!r}: {part.strip()!r} is not key=value with a key "
                                 f"of {', '.join([*Budget.LIMITS, *Budget.CHOICES])}")
        if key in Budget.CHOICES:
            words = Budget.CHOICES[key]
            if text.strip() not in words:
                raise WastelandError(f"agent {name!r}: {key} must be one of {', '.join(words)}, "
                                     f"got {text.strip()[:20]!r}")
            values[key] = text.strip()
            continue
        lo, hi = Budget.LIMITS[key]
        try:
            value: float = float(text) if key in Budget.FLOATS else int(text)
        except ValueError:
            value = math.nan
        if not lo <= value <= hi:
            kind = "a number" if key in Budget.FLOATS else "a whole number"
            raise WastelandError(f"agent {name!r}: {key} must be {kind} from {lo:g} to {hi:g}, "
                                 f"got {text.strip()[:20]!r}")
        values[key] = value
    return Budget(**values, given=frozenset(values))


def value(b: Battle, side: int) -> float:
    """How good ``b`` looks for ``side``, 0 to 1: 1 won, 0 lost or drawn (the round
    limit is no win: a side that plays for time to reach it has not won); a fight still
    going is the chance of winning it that a logistic model of ``features`` gives,
    fitted per ruleset to full playouts by packets (benchmarks/search_value.py;
    docs/search.md has its calibration)."""
    if b.over:
        return float(b.winner == side)
    w = WEIGHTS.get(b.ruleset, FALLBACK)
    x = features(b, side)
    z = w[0] + sum(wi * xi for wi, xi in zip(w[1:], x))
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


# the value's weights per ruleset: intercept, then one per FEATURES entry, fitted by
# benchmarks/search_value.py (docs/search.md: how, and how well they predict)
FALLBACK: Final = (0.0, 2.0, -2.0, 0.0, 0.0, 0.0, 0.0)
WEIGHTS: Final[dict[str, tuple[float, ...]]] = {
    "pnp": (-0.250, 8.308, -8.353, 1.634, -1.559, -4.287, 0.201),
    "simple": (-0.624, 6.158, -6.309, 1.611, -1.605, -2.024, 0.751),
    "f2d20": (-0.572, 1.215, -1.501, 2.714, -2.412, 2.060, 0.380),
}


@dataclass(frozen=True)
class Outlook:
    """What a continuation knows beside the battle: the learned value that judges where it
    ends (``judge``; None: the logistic ``value``) and what the combatants have seen
    (``memory``, observe/memory.py), which the fork's observers start from a copy of."""

    judge: Judge | None = None
    memory: Memory | None = None
    tally: list[int] | None = None  # the decisions played, added to its one number


def continuation(rs: Ruleset, b: Battle, first: int, side: int, seed: int, horizon: int,
                 base: Any, plan: Plan | None = None, slot: int = -1,
                 outlook: Outlook | None = None) -> float:
    # params: what one continuation varies (first, seed, plan, slot) beside what a decision fixes
    """The value for ``side`` of fork(b, seed) after action id ``first``, played on by
    ``base(seed + s)`` agents on every side s for ``horizon`` rounds (0: to the end);
    with a ``plan``, combatant ``slot`` follows it (its packet with the plan's fields).
    ``outlook``: what values where it ends (default ``value``), and what was seen."""
    f = fork(b, seed)
    judge, memory = (outlook.judge, outlook.memory) if outlook is not None else (None, None)
    fm = memory.copy() if memory is not None else None
    rs.apply(f, ACTION_TABLE[first], check=False)
    agents = [base(seed + s) for s in range(len(f.side_names))]
    mine = base(seed + 99, {f.combatants[slot].id: plan.fields}) if plan is not None else None
    last = f.round + horizon
    seats = [mine if c.slot == slot and mine is not None else agents[c.side]
             for c in f.combatants]
    if fm is not None:
        share_memory([*agents, mine], f, fm)
    # a decision with one legal action is taken for every agent here: a continuation only
    # values where play leads, and asking would cost time for nothing
    n, _ = play(rs, f, seats, forced=[True] * len(seats), limit=MAX_DECISIONS,
                stop=(lambda f: f.round >= last) if horizon else None)
    if outlook is not None and outlook.tally is not None:
        outlook.tally[0] += n
    return value(f, side) if judge is None else judge(f, side, fm)


FORECAST_SEED: Final = 0x5EED  # offsets the decision's seed: no draw of its own
FORECAST_LIMIT: Final = 12       # decisions of one turn shown at most


def forecast(rs: Ruleset, b: Battle, first: int, slot: int, agent: Any, seed: int,
             memory: Memory | None = None) -> list[str]:
    """The turn of combatant ``slot`` as the plan that won would play it, in a GM's words:
    action id ``first``, then ``agent`` deciding for ``slot`` on fork(b, seed) (its own
    dice, never the battle's) until the turn passes to someone else; the closing `end`
    left unsaid. One roll of the dice: a miss or a fall at the table plays otherwise."""
    from wasteland.rules.words import plainly

    f = fork(b, seed)
    steps = [plainly(b, ACTION_TABLE[first], slot)]
    rs.apply(f, ACTION_TABLE[first], check=False)
    if memory is not None:
        share_memory([agent], f, memory.copy())

    def take(v: View, _agent: Any, action: Action) -> None:
        if action.kind != "end":
            steps.append(plainly(v.battle, action, slot))
        rs.apply(v.battle, action, False)

    seats = [agent if c.slot == slot else None for c in f.combatants]
    play(rs, f, seats, apply=take, stop=lambda g: not _own_turn(g, slot),
         limit=FORECAST_LIMIT - 1)
    return steps


@dataclass(frozen=True)
class Plan:
    """A way to play one combatant for a while: its packet with ``fields`` changed (the
    portfolio of Churchill and Buro's Portfolio Greedy Search, from the packet's own
    fields). Followed through a continuation, a plan cannot look good by putting off what
    it would have to do next (taking cover now, then again, then again)."""

    name: str
    fields: dict[str, Any]


PLANS: Final = (
    Plan("the weakest enemy first", {"attack_who": "weakest"}),
    Plan("the strongest enemy first", {"attack_who": "strongest"}),
    Plan("the closest enemy first", {"attack_who": "closest"}),
    Plan("whoever hurt it", {"attack_who": "whomever_attacking_me"}),
    Plan("charge", {"distance": "charge"}),
    Plan("keep its distance", {"distance": "snipe"}),
    Plan("stay close to friends", {"distance": "stay_close"}),
    Plan("hold its ground", {"distance": "stay"}),
    Plan("fight on whatever its wounds", {"run_away_mode": "none", "min_hp": 0,
                                          "hurt_too_much": []}),
    Plan("aimed shots", {"called_freq": 100}),
    Plan("no aimed shots", {"called_freq": 0}),
    Plan("melee", {"best_weapon": "melee"}),
    Plan("ranged", {"best_weapon": "ranged"}),
    Plan("all out", {"aggression": 100}),
    Plan("sparing", {"aggression": 10}),
    Plan("only good shots", {"min_to_hit": 60}),
)


@dataclass(frozen=True)
class TurnPlan:
    """The plan a combatant follows for the rest of its turn (``turn=1``): made in round
    ``round`` by combatant ``slot``; ``plan`` None is the packet; ``facts`` is who stood
    then (``_standing``): a fall or a rise since is something the plan did not choose on."""

    round: int
    slot: int
    plan: Plan | None
    facts: int


def _standing(b: Battle) -> int:
    """Who stands, as bits over the combatants' slots."""
    return sum(1 << i for i, c in enumerate(b.combatants) if c.status == ACTIVE)


def _own_turn(b: Battle, slot: int) -> bool:
    return 0 <= b.turn < len(b.order) and b.order[b.turn] == slot


PLAN_NAMES: Final = {p.name: p for p in PLANS}


@dataclass
class Arm:
    """A candidate action and the values of its continuations, continuation k of every
    arm rolled with the same seed."""

    id: int
    values: list[float]
    plan: Plan | None = None

    @property
    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0


def paired(a: Arm, b: Arm) -> tuple[float, float, int]:
    """Mean and standard error of a - b over the continuations both have."""
    n = min(len(a.values), len(b.values))
    if n == 0:
        return 0.0, math.inf, 0
    d = [x - y for x, y in zip(a.values[:n], b.values[:n])]
    m = sum(d) / n
    if n < 2:
        return m, math.inf, n
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    return m, math.sqrt(var / n), n


def _choice_of(arms: list[Arm], z: float) -> Arm:
    """The arm a search keeps: the first (the one to beat) unless another is ahead of it by
    more than ``z`` standard errors over the continuations both played."""
    anchor = arms[0]
    best = max(arms, key=lambda a: (a.mean, a is anchor))
    if best is anchor:
        return anchor
    d, se, _ = paired(best, anchor)
    return best if d > z * se else anchor


def candidates(view: View, base_id: int, k: int) -> list[int]:
    """The base agent's choice first, then up to ``k - 1`` other legal actions, one per
    kind and target before a second of any (attacks first, then the rest in table order):
    the packet names no scores, so breadth stands in for its preferences."""
    rest = [i for i in view.legal_ids if i != base_id]
    rest.sort(key=lambda i: (ACTION_TABLE[i].kind != "attack", i))
    seen: set[tuple[str, Any]] = set()
    first: list[int] = []
    second: list[int] = []
    for i in rest:
        a = ACTION_TABLE[i]
        key = (a.kind, a.target)
        (second if key in seen else first).append(i)
        seen.add(key)
    return [base_id, *(first + second)][:k]


# kinds of action that wait, hide or back off: scored as a single action followed by the
# packet they look good at every decision (what they put off falls past the horizon), so
# they are candidates only as the first action of a plan
WAITING: Final = frozenset({"cover", "ready", "ready_to", "defend", "end", "prepare", "prone",
                            "crouch", "evade", "overwatch", "speak", "noroll", "stow", "drop",
                            "unload"})


def putting_off(a: Action) -> bool:
    """Whether ``a`` waits, hides or backs off (WAITING, or a move away)."""
    return a.kind in WAITING or (a.kind in ("move", "sprint", "step") and a.option == "away")


class SearchAgent:
    """Plays its side by the packet's choice checked by continuations (module docstring).
    ``rng`` is its only random state: each decision draws one seed from it, which seeds
    the packet it asks and every continuation, so a saved game resumes the same.

    ``on_progress(done, total)``, when set, hears after each continuation how many of the
    decision's budget are played (``total`` 0 under a time budget: it is not known), and
    once more when the search ends (``done == total``, even when it stopped early): how
    a game at the table shows the search thinking. It only listens, so a decision is the
    same with or without it; an exception it raises (Ctrl-C, a screen closing) ends the
    search."""

    def __init__(self, name: str = "search", seed: int = 0) -> None:
        self.budget = parse_budget(name)
        self.name = self.kind = self.budget.text()
        self.rng = random.Random(seed)
        self.last_reason = ""
        self.on_progress: Callable[[int, int], None] | None = None
        self.turn_plan: TurnPlan | None = None
        self.continuations = 0  # played in all, for benchmarks/search.py's rate
        # the cap's clock, and the seconds the combatant's turn (round, slot) has taken
        self.clock: Callable[[], float] = time.perf_counter
        self._turn: tuple[int, int] = (-1, -1)
        self._turn_used = 0.0
        self.cut = 0  # after how many continuations the cap cut this decision (0: it did not)
        self.stop_after = 0  # cut after this many continuations (a cut decision made again)
        self._start = self._cap_at = 0.0
        from .packets import PacketAgent

        self.base = PacketAgent
        # what plays the continuations of this decision (the packet, or agents/guide.py's
        # policies for the searching side), and the guides made so far
        self.runner: Callable[..., Any] = PacketAgent
        self._guides: dict[tuple[str, int, frozenset[str]], Guide | None] = {}
        # what judges this decision's cut continuations (None: the logistic ``value``)
        self.judge: Judge | None = None
        # what the combatants have seen (observe/memory.py): the game's, handed by
        # ``observe_with``, else its own for the battle it plays
        self._memory: tuple[Battle, Memory] | None = None

    def observe_with(self, battle: Battle, memory: Memory) -> None:
        """Observe ``battle`` with the game's ``memory`` (agents/base.py ``share_memory``):
        its guide's encoder and the continuations' forks (a copy each) start from it."""
        self._memory = (battle, memory)

    def memory_of(self, b: Battle) -> Memory:
        """The memory it observes ``b`` with: the one handed for it, else its own."""
        got = self._memory
        if got is None or got[0] is not b:
            from wasteland.observe.memory import Memory

            got = self._memory = (b, Memory())
        return got[1]

    def _judge(self, ruleset: str) -> Judge | None:
        """The value the budget names for ``ruleset`` (None: the logistic ``value``); a
        learned value file that is missing or refused is one line."""
        # the level's value under this ruleset, not the name's own (2d20 deadly sets it)
        if self.budget.under(ruleset).value != "learned":
            return None
        from .valuenet import shipped_value

        return shipped_value(ruleset)

    def act(self, view: View) -> Action:
        b = view.battle
        key = (b.round, view.me.slot)
        if key != self._turn:
            self._turn, self._turn_used = key, 0.0
        self._start = self.clock()
        try:
            return self._act(view)
        finally:
            self._turn_used += self.clock() - self._start
            self._start = 0.0

    def _act(self, view: View) -> Action:
        b, rs = view.battle, view.ruleset
        seed = self.rng.getrandbits(62)
        self.cut = 0
        bud = self.budget.under(b.ruleset)
        me = view.me.slot
        guide = self._guide(bud, b, view.me.side)
        self.runner = self._runner(guide)
        if guide is not None:
            guide.bind(b, self.memory_of(b))
        if bud.turn:
            planned = self._follow(view, seed)
            if planned is not None:
                return planned
        packet = self.base(seed)
        choice = packet.act(view)
        base_id = ACTION_INDEX[choice]
        policy = guide.policy(b, me) if guide is not None else None
        ranked = guide.ranked(view, policy) if guide is not None and policy is not None else []
        horizon = bud.horizon
        if bud.full and sum(c.status == ACTIVE for c in b.combatants) <= bud.full:
            horizon = 0
        arms = [Arm(base_id, [])]
        if ranked and ranked[0][0] != base_id:
            # the policy's choice is the one to beat, the packet's stays a candidate (in the
            # radscorpion duel the other way round lost 6 points of the policy's own lead)
            arms.insert(0, Arm(ranked[0][0], []))
        anchor_id = arms[0].id
        # single actions to weigh: the policy's likelier ones, or one of each kind and target
        singles = ([i for i, p in ranked if p >= PRUNE] if ranked else
                   candidates(view, base_id, 64))
        if ranked and bud.wide:
            # then one of each kind and target the policy all but ruled out: on a map it
            # never saw it may be sure of the wrong thing (docs/search.md, "wide")
            have = set(singles)
            singles += [i for i in candidates(view, base_id, 64) if i not in have]
        if bud.plans:
            arms += self._plans(view, seed, {a.id for a in arms}, bud.candidates - len(arms) + 1)
            if bud.plans == 2 or ranked:  # the rest of the candidates: single actions
                # (played out to the end, one that waits no longer hides what it puts off)
                taken = {a.id for a in arms}
                arms += [Arm(i, []) for i in singles
                         if i not in taken and (not horizon or not putting_off(ACTION_TABLE[i]))
                         ][:max(0, bud.candidates - len(arms))]
        else:
            arms += [Arm(i, []) for i in singles if i not in {a.id for a in arms}
                     ][:max(0, bud.candidates - len(arms))]
        if len(arms) == 1:
            why = ("the only legal action" if len(view.legal_ids) == 1 else
                   "every plan it weighs starts this way" if bud.plans else
                   "the only candidate")
            self.last_reason = f"search: {why}; packet: {packet.last_reason}"
            self.turn_plan = None
            return choice
        side = view.me.side
        self.judge = judge = self._judge(b.ruleset)
        self._spend(rs, b, side, seed, arms, me, horizon)
        other = ""  # with base=both, what the other base's search valued its choice at
        if bud.base == "both" and policy is not None:
            # the same candidates played on by the packet, its own choice the one to beat
            alt = sorted((Arm(a.id, [], a.plan) for a in arms), key=lambda a: a.id != base_id)
            guided = self.runner
            self.runner = self.base
            try:
                self._spend(rs, b, side, seed, alt, me, horizon)
            finally:
                self.runner = guided
            mine, theirs = _choice_of(arms, bud.z), _choice_of(alt, bud.z)
            if theirs.mean > mine.mean:  # the packet's play values its choice higher
                other = f", the policy's play {_pct(mine.mean)}"
                arms, policy, ranked, anchor_id = alt, None, [], base_id
            else:
                other = f", the packet's play {_pct(theirs.mean)}"
        anchor = arms[0]
        best = max(arms, key=lambda a: (a.mean, a is anchor))
        rival = best if best is not anchor else max((a for a in arms if a is not anchor),
                                                    key=lambda a: a.mean)
        d, se, paired_runs = paired(rival, anchor)
        runs = sum(len(a.values) for a in arms)
        # what played the continuations and judged the cut ones (packet and logistic go
        # unsaid: the plain search)
        from .policy import policy_words

        used = (f", policy {policy_words(policy.name)} playing "
                f"{b.combatants[me].creature.name}" if policy is not None
                else "") + (", learned value" if judge is not None else "") + (
                f", cut by the {_number(bud.cap)} s cap on its turn" if self.cut and
                not self.stop_after else f", stopped after {self.cut}" if self.cut else ""
                ) + other
        whose = ("the packet's" if policy is None else
                 "the policy's and packet's" if anchor_id == base_id else "the policy's")
        anchor_text = _words(b, ACTION_TABLE[anchor.id], me)
        rival_text = _words(b, ACTION_TABLE[rival.id], me) + (
            f" (plan: {rival.plan.name})" if rival.plan is not None else "")
        why_packet = (packet.last_reason if anchor_id == base_id else
                      f"policy {policy_words(policy.name) if policy else ''} "
                      f"p={ranked[0][1]:.2f}; the packet's "
                      f"{_words(b, ACTION_TABLE[base_id], me)}")
        if _choice_of(arms, bud.z) is anchor:
            # a better-looking rival inside the noise is said to be so: a GM reading "+8%"
            # alone would ask why the search did not take it
            lead = f"{d:+.0%}"
            close = ", too close to switch" if d > 0 and lead != "+0%" else ""
            versus = (f"; next best {rival_text} {_margin(d, se, paired_runs)}{close}"
                      if paired_runs else "")
            self.last_reason = (f"search: keeps {whose} {anchor_text} ({_pct(anchor.mean)}, "
                                f"{runs} continuations{used}{versus}): {why_packet}")
            self._commit(bud, b, me, anchor, True, guided=policy is not None or not other)
            self._say_plan(rs, b, me, anchor_id, seed)
            return choice if anchor_id == base_id else ACTION_TABLE[anchor_id]
        self.last_reason = (f"search: {rival_text}: {_pct(rival.mean)} "
                            f"({_margin(d, se, paired_runs)}, "
                            f"{runs} continuations{used}); {whose} {anchor_text} "
                            f"{_pct(anchor.mean)}")
        self._commit(bud, b, me, rival, False, guided=policy is not None or not other)
        self._say_plan(rs, b, me, rival.id, seed)
        return ACTION_TABLE[rival.id]

    def _guide(self, bud: Budget, b: Battle, side: int) -> Guide | None:
        """With ``base=policy``, the guide of ``side`` under the battle's ruleset (None
        when no shipped policy plays any of its combatants' kinds)."""
        if bud.base == "packet":
            return None
        # by the side's kinds too: an agent may play more than one battle
        kinds = frozenset(c.creature.id for c in b.combatants if c.side == side)
        key = (b.ruleset, side, kinds)
        if key not in self._guides:
            from .guide import Guide

            g = Guide(b.ruleset, side)
            self._guides[key] = g if kinds & set(g.policies) else None
        return self._guides[key]

    def _runner(self, guide: Guide | None) -> Callable[..., Any]:
        """What plays a continuation's sides: ``runner(seed)`` for a side, and
        ``runner(seed, fields)`` for a combatant following a plan (always its packet)."""
        if guide is None:
            return self.base
        packet = self.base

        def runner(seed: int, fields: dict[str, Any] | None = None) -> Any:
            if fields is not None:
                return packet(seed, fields)
            return guide.agent(packet(seed))
        return runner

    def _commit(self, bud: Budget, b: Battle, slot: int, arm: Arm, packet: bool,
                guided: bool = True) -> None:
        """With ``turn=1``, in the combatant's own turn: the winning arm's plan (the packet,
        when its choice was kept) plays the rest of the turn. A single action that won is no
        plan for the turn: the next decision searches again, as it does when the packet's
        pass of ``base=both`` won (``guided`` false: the turn would be followed by the
        policy, not by the packet that chose it)."""
        self.turn_plan = None
        if bud.turn and guided and _own_turn(b, slot) and (packet or arm.plan is not None):
            self.turn_plan = TurnPlan(b.round, slot, None if packet else arm.plan,
                                      _standing(b))

    def _say_plan(self, rs: Ruleset, b: Battle, slot: int, first: int, seed: int) -> None:
        """With a turn plan just made, the turn it plans at the end of the reason line (a
        GM reads the whole turn at its first decision, not one step at a time)."""
        tp = self.turn_plan
        if tp is None:
            return
        seed += FORECAST_SEED
        agent = self.runner(seed, {b.combatants[slot].id: tp.plan.fields}
                            if tp.plan is not None else None)
        steps = forecast(rs, b, first, slot, agent, seed, self.memory_of(b))
        self.last_reason += f"; its turn as planned (one roll of the dice): {', '.join(steps)}"

    def _follow(self, view: View, seed: int) -> Action | None:
        """The turn plan's action, when this decision is in the turn it was made for and
        nobody has fallen or risen since; else None (and the plan is dropped)."""
        tp, b, me = self.turn_plan, view.battle, view.me
        if (tp is None or (tp.round, tp.slot) != (b.round, me.slot)
                or not _own_turn(b, me.slot) or tp.facts != _standing(b)):
            self.turn_plan = None
            return None
        agent = self.runner(seed, {me.id: tp.plan.fields} if tp.plan is not None else None)
        choice = agent.act(view)
        guide = self._guide(self.budget.under(b.ruleset), b, me.side)
        name = (f"plan: {tp.plan.name}" if tp.plan is not None else
                "the policy's" if guide is not None and guide.policy(b, me.slot) is not None
                else "the packet's")
        self.last_reason = f"search: follows its turn ({name}): {agent.last_reason}"
        return choice

    def memory(self) -> dict[str, int | str] | None:
        """What a save keeps beside the random state to resume exactly: the turn plan."""
        tp = self.turn_plan
        if tp is None:
            return None
        return {"round": tp.round, "slot": tp.slot,
                "plan": tp.plan.name if tp.plan is not None else "", "facts": tp.facts}

    def recall(self, memory: dict[str, Any] | None) -> None:
        """Puts back what ``memory`` gave (a save's record, checked by its schema)."""
        if not memory:
            self.turn_plan = None
            return
        name = memory["plan"]
        if name and name not in PLAN_NAMES:
            raise WastelandError(f"search memory: unknown plan {name[:60]!r}; known: "
                                 f"{', '.join(PLAN_NAMES)}")
        self.turn_plan = TurnPlan(int(memory["round"]), int(memory["slot"]),
                                  PLAN_NAMES[name] if name else None, int(memory["facts"]))

    def _plans(self, view: View, seed: int, taken: set[int], limit: int) -> list[Arm]:
        """Arms for the plans whose first action differs from the ``taken`` ones (and from
        each other's), at most ``limit - 1``."""
        me = view.me
        own = self.base(seed).packet(me, view.battle)
        seen = set(taken)
        out: list[Arm] = []
        if limit <= 1:
            return out
        for plan in PLANS:
            if all(getattr(own, k) == v for k, v in plan.fields.items()):
                continue  # its own packet already plays this way
            a = ACTION_INDEX[self.base(seed, {me.id: plan.fields}).act(view)]
            if a not in seen:
                seen.add(a)
                out.append(Arm(a, [], plan))
                if len(out) + 1 >= limit:
                    break
        return out

    def _spend(self, rs: Ruleset, b: Battle, side: int, seed: int, arms: list[Arm],
               slot: int, horizon: int | None = None) -> None:
        """Successive halving: rungs of continuations, each rung keeping the better half
        (the base always kept, as the one every other is compared with), until the
        continuations (or the seconds) of the budget are spent, or, after a rung, no
        candidate has done better than the packet's choice on the continuations so far
        (most decisions: the packet's choice is sound, and the rest of the budget would
        only confirm it)."""
        bud = self.budget.under(b.ruleset)
        if bud.taper and 0 <= b.turn < len(b.order) and b.order[b.turn] == slot:
            econ = b.book.economy()
            done = econ.minor + econ.major if econ is not None else 0
            if done:
                bud = replace(bud, rollouts=max(bud.rollouts // 8, bud.rollouts >> min(done, 3)),
                              work=max(bud.work // 8, bud.work >> min(done, 3)))
        deadline = time.perf_counter() + bud.seconds if bud.seconds else 0.0
        # the cap: what is left of the turn's seconds (checked on the same clock it counts)
        start = self._start or self.clock()  # (a search called outside ``act``: from now)
        self._cap_at = start + bud.cap - self._turn_used if bud.cap else 0.0
        total = bud.rollouts if not bud.seconds else 1 << 30
        spent = self._halve(rs, b, side, seed, arms, slot, horizon, bud, total, deadline)
        if self.on_progress is not None:
            end = total if not (bud.seconds or bud.work) else spent
            self.on_progress(end, end)

    def _halve(self, rs: Ruleset, b: Battle, side: int, seed: int, arms: list[Arm],
               slot: int, horizon: int | None, bud: Budget, total: int,
               deadline: float) -> int:  # params: _spend's state handed to its rungs, one call per decision
        """The rungs of ``_spend``; the continuations played."""
        alive = list(arms)
        rungs = max(1, math.ceil(math.log2(len(arms))))
        spent = pilot = 0
        rung = 0
        told = total if not bud.seconds else 0
        tally = [0]  # decisions played in the continuations (``work``)
        outlook = Outlook(self.judge, self.memory_of(b), tally if bud.work else None)
        length = bud.horizon if horizon is None else horizon

        def one(arm: Arm) -> bool:
            """Plays one more continuation of ``arm``; whether the search must stop now."""
            nonlocal spent
            k = len(arm.values)
            arm.values.append(continuation(rs, b, arm.id, side, seed + 7919 * k, length,
                                           self.runner, arm.plan, slot, outlook))
            spent += 1
            self.continuations += 1
            if self.on_progress is not None:
                self.on_progress(min(spent, told) if told else spent, told)
            if deadline and time.perf_counter() > deadline:
                return True
            if (self.stop_after and spent >= self.stop_after) or (
                    self._cap_at and not self.stop_after and self.clock() > self._cap_at):
                self.cut = spent
                return True
            return False

        if bud.work and not bud.seconds:
            # one continuation of each candidate says what one costs in this fight; the
            # work buys as many as it pays for (never fewer than ``rollouts``)
            for arm in alive:
                if one(arm):
                    return spent
            pilot = spent
            # a decision costs about one observation of each standing combatant (the
            # policies read one, the packets look around), and a continuation's fork about
            # as much as FORK decisions; never more than SPREAD times ``rollouts``
            standing = sum(c.status == ACTIVE for c in b.combatants)
            per = (tally[0] / spent + FORK) * standing
            total = told = max(total, min(total * SPREAD, int(bud.work / per)))
        while spent < total:
            share = (max(1, ((total - pilot) // rungs) // len(alive)) if not bud.seconds
                     else 4)
            for arm in alive:
                for _ in range(share):
                    if one(arm):
                        return spent
            rung += 1
            if all(paired(a, alive[0])[0] <= 0 for a in alive[1:]):
                break  # no candidate has done better than the base's choice so far
            if len(alive) > 2 and rung < rungs:
                keep = sorted(alive[1:], key=lambda a: -a.mean)[:max(1, (len(alive) - 1) // 2)]
                alive = [alive[0], *keep]
            elif not bud.seconds and rung >= rungs:
                break
        return spent


# a single action the policy gives less than this is no candidate
PRUNE: Final = 0.02
# ``work``: what a fork costs in decisions (174-248 us, docs/search.md "What it costs",
# against 25-40 us a decision), and at most how many times ``rollouts`` it buys
FORK: Final = 6
SPREAD: Final = 16


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _margin(d: float, se: float, n: int) -> str:
    """How far a candidate is ahead of another, in words a GM reads: ``+8% give or take
    3%``; after one shared continuation there is no spread to give, so it says so."""
    if n < 2 or math.isinf(se):
        return f"{d:+.0%} in the one continuation both played"
    return f"{d:+.0%} give or take {se:.0%}"


def _words(b: Battle, a: Action, me: int) -> str:
    """An action as a GM reads it (rules/words.py): "take out a stimpak", not its
    notation "draw_chem stimpak"."""
    from wasteland.rules.words import plainly

    return plainly(b, a, me)


