"""The tactical questions agents, envs and menus ask a ruleset, and the ruleset answers
(``ruleset.tactics``, or ``tactics_of(battle)``).

DESIGN.md: a new ruleset implements the protocol and touches nothing in envs/ or
agents/. So nothing outside a ruleset's package reads its stat blocks, odds or maps; it
asks a ``Tactics`` instead. Two kinds of answer:

- questions: the chance to hit and the expected damage of an attack (``hit_chance``,
  ``damage_per_hit``, ``odds``), reach (``can_attack``), the cover within a move
  (``cover_within_move``), where a move ends (``destination``; ``move_end`` with nobody
  answering it, how far a pace goes: ``pace_limit``, ``walk_distances``), who threatens a square
  (``threats_on_leaving``), how far and whether one sees another (``distance``,
  ``sees``, ``cover_level``), what a turn can still buy (``extra_dice_cost``,
  ``buyable_dice``), what its stat blocks say of a combatant (``full_hp``,
  ``medicine_rank``, ``target_number`` ...);
- capabilities: facts about a ruleset's own decision structure (``ap_economy``: actions
  paid from a side's AP pool after a free minor; ``phases``: a decision per phase;
  ``magazines``, ``staged_reload``, ``multi_shot``, ``friendly_fire``, ``pairs``,
  ``values_shots``, ``aims``, ``refusable``), which a caller tests instead of the
  ruleset's name.

This base class answers as a ruleset without the feature would (no zones, no AP, no
pairing), so a new ruleset overrides only what it has. Each ruleset package holds its
subclass (``rules/<name>/tactics.py``), built from its own rules functions. The packet
agent asks these per decision, so this module and the subclasses are compiled (mypyc):
plain native classes, typed, no dynamic attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Final, NamedTuple

from .dice import Dice

if TYPE_CHECKING:
    from .actions import Action
    from .battle import Battle, Combatant
    from .zones import Zones


class AttackOdds(NamedTuple):
    """An attack's chance to hit and the expected damage of one hit, after armor."""

    p_hit: float
    expected_damage: float


@cache
def dice_mean(text: str) -> float:
    """The mean of a dice expression such as ``2d6+3``."""
    return Dice.parse(text).mean


class Tactics:
    """What a ruleset answers about the fight as it stands (see the module docstring).
    The answers read the battle and put back any what-if at once; none rolls dice."""

    def __init__(self) -> None:
        self.name = ""
        # capabilities: what the ruleset's decisions are made of
        self.ap_economy = False  # a side's AP pool pays for actions past a free minor
        self.phases = False  # a decision per phase (move, charge, action), not per turn
        self.magazines = True  # guns fire from a loaded magazine, not the ammunition carried
        self.multi_shot = False  # a weapon's RoF fires several shots, each rolled to hit
        self.friendly_fire = True  # an area attack endangers the target's neighbours
        self.pairs = False  # an attack and an item in one action, at a penalty (``pair``)
        self.values_shots = False  # ``shot_value`` prices a shot (V.A.T.S. against plain)
        self.aims = False  # Aim, a free minor action that rerolls an attack's d20
        self.staged_reload = False  # a clip reloads over actions, emptying it first
        self.vats_cost: dict[str, int] = {}  # AP a V.A.T.S. shot at a body part costs
        self.large_only: frozenset[str] = frozenset()  # kinds that spend a whole turn's slots
        self.extra_dice_cost: tuple[int, ...] = ()  # total AP for 0, 1, 2 ... extra d20s
        self.max_pool = 0  # the most AP a side's pool holds
        self.unit = "squares"  # what ``distance`` counts
        self.move_unit = "steps"  # what a chosen move's cost counts
        # kinds an agent deciding on a board it only believes in (observe/fog.py) may pick and
        # the true battle cannot play when someone unseen is in the way: refused then (any
        # other move so blocked stops short, as the ruleset's walks do)
        self.refusable: frozenset[str] = frozenset()

    # --- geometry ------------------------------------------------------------------------
    def zones(self, b: Battle) -> Zones | None:
        """The map read as zones, for a ruleset whose ranges and moves count zones."""
        return None

    def distance(self, b: Battle, a: int, c: int) -> int:
        """How far square ``c`` is from square ``a``, in ``unit``."""
        return b.grid.dist(a, c)

    def sees(self, b: Battle, a: int, c: int) -> bool:
        """Whether square ``a`` has a line of sight to square ``c``."""
        return b.grid.los(a, c)

    def cover_level(self, b: Battle, pos: int) -> int:
        """The cover (0 none ... 3 full) of the square (or its zone) at ``pos``."""
        return int(b.grid.cover[pos])

    def walk_distances(self, b: Battle, goal: int) -> list[int]:
        """The steps a walk from each square to ``goal`` takes on this ruleset's board,
        around walls (a fresh list)."""
        return list(b.grid.walk_distances(goal))

    # --- attacks -------------------------------------------------------------------------
    def hit_chance(self, b: Battle, c: Combatant, t: Combatant, location: str | None = None,
                   extra_dice: int = 0) -> float:
        """The exact chance that ``c``'s next attack on ``t`` with the weapon in hand hits,
        aimed at ``location``, with ``extra_dice`` d20s bought; 0.5 when it cannot say."""
        return 0.5

    def attack_chance(self, b: Battle, c: Combatant, t: Combatant, kind: str,
                      location: str | None = None, extra_dice: int = 0,
                      aim: bool | None = None) -> float:
        """The chance that an attack of ``kind`` (attack, vats, charge ...) hits, as a menu
        shows it; ``aim``: with Aim's reroll (True), without (False), as things stand
        (None), for a ruleset that has Aim."""
        return self.hit_chance(b, c, t, location, extra_dice)

    def damage_per_hit(self, b: Battle, c: Combatant, i: int, t: Combatant) -> float:
        """A rough expected damage of one hit with weapon slot ``i`` on ``t``, after armor
        (here: the mean of the weapon's damage dice)."""
        return c.arm(i).damage_mean  # dice_mean of its damage, parsed once

    def odds(self, b: Battle, c: Combatant, t: Combatant, location: str | None = None
             ) -> AttackOdds:
        """The chance to hit and expected damage of ``c``'s attack on ``t`` with the
        weapon in hand."""
        return AttackOdds(self.hit_chance(b, c, t, location),
                          self.damage_per_hit(b, c, c.active_weapon, t))

    def boost_damage(self, c: Combatant, ws: int, t: Combatant, location: str, n: int
                     ) -> tuple[float, int] | None:
        """A window to add ``n`` damage dice after a hit at ``location`` (2d20's boost):
        the expected damage then, and the armor there; None without such a window."""
        return None

    def can_attack(self, b: Battle, c: Combatant, t: Combatant, ws: int) -> bool:
        """Whether ``c`` can attack ``t`` with weapon slot ``ws`` from where it stands:
        reach, sight, range (here: sight, and reach for a weapon used in hand)."""
        w = c.weapons[ws]
        if not b.grid.sight[c.pos][t.pos]:
            return False
        return w.kind == "ranged" or b.grid.dist(c.pos, t.pos) <= w.reach

    def menu_chances(self, b: Battle, c: Combatant, a: Action) -> tuple[float, ...] | None:
        """The chances that the attacks of an action the other answers do not price (a
        two-weapon attack, a pistol whip, a paired action, a disarm) hit, the weapon in
        hand's first; None for another kind, or one this ruleset does not have."""
        return None

    def pair_hit_chance(self, b: Battle, c: Combatant, t: Combatant) -> float:
        """The chance that an attack made with another action at once (``pairs``) hits."""
        return 0.0

    def shot_value(self, b: Battle, c: Combatant, t: Combatant, location: str | None,
                   vats: bool) -> tuple[float, float, str]:
        """``values_shots``: what an attack on ``t`` is worth in HP taken off it or its
        equivalent, its chance to hit, and what the spot aimed at is for."""
        p = self.hit_chance(b, c, t, location)
        return p * self.damage_per_hit(b, c, c.active_weapon, t), p, ""

    def likely_cripple(self, t: Combatant, location: str, damage: float) -> float:
        """How likely a hit dealing ``damage`` is to cripple ``t``'s ``location`` (here: a
        quarter of its maximum HP dealt to the limb)."""
        left = max(1, -(-t.max_hp // 4) - t.limb_damage.get(location, 0))
        return min(1.0, damage / left)

    def area_weapon(self, c: Combatant, i: int) -> bool:
        """Whether weapon slot ``i`` hits around its target (splash, spread)."""
        return c.arm(i).area_pnp

    def buyable_dice(self, b: Battle, side: int) -> int:
        """How many extra d20s side ``side``'s pool can buy for an attack now."""
        costs = self.extra_dice_cost
        econ = b.book.economy()
        if not costs or econ is None:
            return 0
        pool = int(econ.pools[side])
        return max(k for k, cost in enumerate(costs) if cost <= pool)

    # --- moving --------------------------------------------------------------------------
    def cover_within_move(self, b: Battle, c: Combatant) -> int | None:
        """The square with cover a move takes ``c`` to, or None."""
        return None

    def destination(self, b: Battle, c: Combatant, t: Combatant, mode: str, steps: int
                    ) -> int | None:
        """Where a move of ``steps`` (zones, for a zoned ruleset) toward or away from
        ``t`` (``mode``) ends, or None when the ruleset does not say."""
        return None

    def move_end(self, b: Battle, c: Combatant, t: Combatant, kind: str, mode: str
                 ) -> int | None:
        """The square a move of ``kind`` (move, sprint, step) of ``c`` toward or away
        from ``t`` (``mode``) ends on with nobody answering it, the battle put back; None
        when the ruleset cannot say without playing the move out (then play it on a fork),
        or, for a ruleset whose moves need a free square to end on, when there is none."""
        return None

    def pace_limit(self, c: Combatant, sprint: bool) -> int | None:
        """The most a move of ``c`` (``sprint``: a sprint) covers, in the cost
        ``Ruleset.destinations`` gives, when those destinations reach farther (a run, a
        sprint); None when they are what that pace reaches."""
        return None

    def threats_on_leaving(self, b: Battle, c: Combatant) -> list[Combatant]:
        """The enemies that may strike ``c`` when it leaves its square."""
        return []

    # --- the combatant -------------------------------------------------------------------
    def full_hp(self, c: Combatant) -> int:
        """``c``'s maximum HP before anything (radiation) lowers it."""
        return c.max_hp

    def rounds_ready(self, c: Combatant, i: int) -> int:
        """Shots ``c`` can fire with weapon slot ``i`` without reloading first (99 for a
        weapon that uses no ammunition): from the magazine, none while reloading."""
        a = c.arm(i)
        if not self.magazines:
            return 99 if a.ammo is None else c.ammo.get(a.ammo, 0)
        if a.magazine == "none":
            return 99
        st = c.weapon_states[i]
        return st.loaded if st.reload_step == 0 else 0

    def can_hold(self, c: Combatant, hands: int) -> bool:
        """Whether ``c``'s arms left (crippled or injured) hold a weapon of ``hands``."""
        if hands == 0:
            return True
        return c.loc_counts.get("arm", 0) - c.crippled.get("arm", 0) >= hands

    def medicine_rank(self, c: Combatant) -> int:
        """``c``'s ranks in Medicine (first aid)."""
        return 0

    def injuries(self, c: Combatant) -> int:
        """How many injuries ``c`` carries (a ruleset that counts them)."""
        return 0

    # --- tests (a ruleset that rolls skill tests against a target number) ---------------
    def target_number(self, c: Combatant, skill: str, attrs: tuple[str, str] | None = None
                      ) -> tuple[int, int]:
        """(target number, tag range) of ``c``'s test of ``skill``; (0, 0) without tests."""
        return 0, 0

    def mean_successes(self, tn: int, tag: int, dice: int) -> float:
        """The expected successes of ``dice`` d20s at target number ``tn``."""
        return 0.0

    def zero_roll(self, b: Battle, c: Combatant) -> tuple[float, float]:
        """An attack at difficulty 0, rolled anyway: (AP expected to bank, complications
        expected)."""
        return 0.0, 0.0


def walked_unanswered(b: Battle, c: Combatant, walk: Callable[[], None]) -> int:
    """The square ``walk`` (a ruleset's walk of ``c``) takes ``c`` to with every reaction
    held back: no attack of opportunity, readied attack, step or overwatch offered, nothing
    logged. Everything is put back after: ``c``'s square, the occupancy in its order, the
    others' free actions and overwatch, the log switches, the pending move."""
    start = c.pos
    occ = dict(b.occupied)
    others = [o for o in b.combatants if o is not c]
    used = [o.free_used for o in others]
    watch = [o.cond.get("overwatch") for o in others]
    quiet, keep = b.quiet, b.keep_log
    b.quiet, b.keep_log = True, False
    try:
        for o, w in zip(others, watch):
            o.free_used = True
            if w:
                o.cond["overwatch"] = None
        walk()
        return c.pos
    finally:
        b.pending_move = None
        c.pos = start
        b.occupied.clear()
        b.occupied.update(occ)
        b.quiet, b.keep_log = quiet, keep
        for o, u, w in zip(others, used, watch):
            o.free_used = u
            if w:
                o.cond["overwatch"] = w


_BY_NAME: Final[dict[str, Tactics]] = {}


def tactics_of(b: Battle) -> Tactics:
    """The tactics of the ruleset ``b`` is fought under, asked of the ruleset object the
    battle holds once per ruleset name (2d20 builds its answers anew on each ask)."""
    got = _BY_NAME.get(b.ruleset)
    if got is None:
        got = _BY_NAME[b.ruleset] = b.rules.tactics
    return got
