"""Pydantic models of the bestiary files: weapons, armor, items, creatures, scenarios.

A creature has one identity (name, kind, size, hit locations, AI personality) and one
stat block per ruleset. Unknown fields are errors, so a typo in a file never passes
silently.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from wasteland.limits import MAX_ROUNDS, map_size_problem, rounds_problem
from wasteland.rules.dice import Dice


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _dice(v: str) -> str:
    Dice.parse(v)  # raises NotationError (a ValueError) with the accepted form
    return v


class Qualities(Strict):
    """The twelve weapon qualities of seed 000; zero or false means absent."""

    lucky: int = Field(0, ge=0, description="bonus to landing critical hits")
    brutal: float = Field(0.0, ge=0, description="added to the x2 critical multiplier")
    spread: int = Field(0, ge=0, description="extra adjacent foes hit for half damage")
    lethal: int = Field(0, ge=0, description="kills a target left at or under this HP")
    warm_up: bool = Field(False, description="RoF starts at 1 and rises each round")
    recharging: int = Field(0, ge=0, description="shots restored each turn")
    stunted_range: bool = Field(False, description="cannot fire beyond its range")
    lobbed: bool = Field(False, description="may fire over full cover at -5")
    splash: bool = Field(False, description="damage falls off 1 per foot from the target")
    burning: int = Field(0, ge=0, description="burn damage per turn from a second roll")
    armor_vulnerable: float = Field(1.0, ge=1, description="target DT multiplier")
    armor_piercing: int = Field(0, ge=0, description="target DT reduction")


Skill2d20 = Literal["small_guns", "energy_weapons", "big_guns", "melee_weapons", "unarmed",
                    "explosives", "throwing"]
RANGES_2D20 = ("close", "medium", "long", "extreme")


class Effects2d20(Strict):
    """Damage effects of Fallout 2d20 (seeds 002/003); each fires on a combat-die effect."""

    piercing: int = Field(0, ge=0, description="ignore this much DR per effect rolled")
    vicious: bool = Field(False, description="+1 damage per effect rolled")
    burst: bool = Field(False, description="each effect hits one more foe near the target")
    spread: bool = Field(False, description="each effect: another hit, half damage, random spot")
    stun: bool = Field(False, description="any effect: the target loses its next major action")
    persistent: bool = Field(False, description="damage again at the end of the target's turns")
    breaking: bool = Field(False, description="each effect lowers the location's DR by 1")
    radioactive: bool = Field(False, description="each effect adds 1 radiation damage")


class Weapon2d20(Strict):
    """A weapon's Fallout 2d20 profile."""

    cd: int = Field(ge=1, le=20, description="combat dice of damage")
    damage_type: Literal["physical", "energy", "radiation", "poison"] = "physical"
    effects: Effects2d20 = Effects2d20()
    range: Literal["close", "medium", "long", "extreme"] = Field(
        "close", description="ideal range band (ranged weapons)")
    fire_rate: int = Field(0, ge=0, le=10, description="extra ammunition a shot may spend")
    skill: Skill2d20


SkillSimple = Literal["guns", "big_guns", "energy_weapons", "melee", "unarmed", "throwing",
                     "medic", "mechanics"]
SKILLS_SIMPLE = ("guns", "big_guns", "energy_weapons", "melee", "unarmed", "throwing",
                 "medic", "mechanics")
SizeSimple = Literal["minute", "tiny", "small", "large", "great"]
SIZES_SIMPLE = ("minute", "tiny", "small", "large", "great")  # smallest first; humans: large
DAMAGE_TYPES_SIMPLE = ("normal", "laser", "plasma", "fire", "explosive", "electrical", "poison")


class DTSimple(Strict):
    """Damage Threshold per damage type under Simple (seed 001, Causing Damage): taken off
    every hit of that type."""

    normal: int = Field(0, ge=0)
    laser: int = Field(0, ge=0)
    plasma: int = Field(0, ge=0)
    fire: int = Field(0, ge=0)
    explosive: int = Field(0, ge=0)
    electrical: int = Field(0, ge=0)
    poison: int = Field(0, ge=0)


class WeaponSimple(Strict):
    """A weapon's profile under J.E. Sawyer's Simple (seed 001)."""

    skill: Literal["guns", "big_guns", "energy_weapons", "melee", "unarmed", "throwing"]
    damage: str = Field(description="damage dice of one hit, e.g. 1d6+2")
    damage_type: Literal["normal", "laser", "plasma", "fire", "explosive", "electrical",
                         "poison"] = "normal"
    range: int = Field(0, ge=0, le=60, description="hexes of point blank range; 0 for melee")
    crit: int = Field(2, ge=1, le=6, description="critical damage multiplier (they add)")
    size: Literal["small", "large"] = Field(
        "small", description="item size: taking it out or putting it away while moving")
    heavy: bool = Field(False, description="a heavy weapon: no action phase after moving")
    scope: bool = Field(False, description="-10 to hit within point blank range")
    shots: int = Field(1, ge=1, le=10, description=(
        "rounds (or strikes) one attack fires; on a hit each deals its damage less DT"))

    _check_damage = field_validator("damage")(_dice)


class Weapon(Strict):
    id: str
    name: str
    description: str = ""
    kind: Literal["melee", "unarmed", "ranged"]
    damage: str
    damage_type: Literal["physical", "energy", "radiation", "toxic"] = "physical"
    range_ft: int = Field(0, ge=0, description="ranged: optimum maximum distance in feet")
    min_range_ft: int = Field(0, ge=0)
    reach: int = Field(1, ge=1, le=3, description="melee: squares it reaches")
    rof: int = Field(1, ge=1, le=20)
    hands: Literal[0, 1, 2] = Field(1, description="0 for natural weapons")
    magazine: Literal["none", "internal", "clip", "complex"] = "none"
    capacity: int = Field(0, ge=0)
    ammo: str | None = None
    style: Literal["none", "single", "semi", "auto"] = "none"
    qualities: Qualities = Qualities()
    f2d20: Weapon2d20 | None = None
    simple: WeaponSimple | None = None

    _check_damage = field_validator("damage")(_dice)

    @field_validator("capacity")
    @classmethod
    def _cap(cls, v: int, info: ValidationInfo) -> int:
        if info.data.get("magazine", "none") != "none" and v < 1:
            raise ValueError("a weapon with a magazine needs capacity >= 1")
        return v


class DR2d20(Strict):
    physical: int = Field(0, ge=0)
    energy: int = Field(0, ge=0)
    radiation: int = Field(0, ge=0)
    poison: int = Field(0, ge=0)


class ArmorSimple(Strict):
    """Armor under Simple (seed 001): DT per damage type; heavy armor (power armor and
    the like) forbids running and going from prone to standing in one move."""

    dt: DTSimple = DTSimple()
    heavy: bool = False


class Armor(Strict):
    id: str
    name: str
    description: str = ""
    pdt: int = Field(0, ge=0)
    edt: int = Field(0, ge=0)
    f2d20: DR2d20 | None = Field(None, description="2d20 DR added on every location")
    simple: ArmorSimple | None = Field(None, description="Simple DT, added to the wearer's")


class Item(Strict):
    id: str
    name: str
    description: str = ""
    kind: Literal["healing", "radaway"]
    heal: str
    f2d20_heal: int = Field(4, ge=0, description="HP a dose restores under 2d20")
    f2d20_rads: int = Field(0, ge=0, description="radiation damage a dose removes under 2d20")
    _check_heal = field_validator("heal")(_dice)


class HitLocation(Strict):
    name: str
    kind: Literal["head", "torso", "arm", "leg", "other"]
    count: int = Field(1, ge=1, le=8)
    d20: tuple[int, int] | None = Field(None, description="2d20 hit-location roll range")


class WeaponRef(Strict):
    id: str
    bonus: int = Field(0, description="skill and lesser-perk attack bonus with this weapon")


class PnPStats(Strict):
    """Fallout PnP stat block (seed 000); fields the seed leaves to the Overseer."""

    hp: int = Field(ge=1)
    defense: int = Field(ge=0)
    initiative: int
    speed: int = Field(ge=0, description="squares per move action")
    strength: int = 0
    perception: int = 0
    luck: int = 0
    pdt: int = Field(0, ge=0)
    edt: int = Field(0, ge=0)
    rad_resistance: int = Field(0, ge=0, le=100, description="percent")
    poison_resistance: int = Field(0, ge=0, le=100, description="percent")
    ap: int = Field(0, ge=0, description="action points per turn, spent on V.A.T.S.")
    vats: bool = Field(False, description="has a Pip-Boy, so may use V.A.T.S.")
    medicine: int = Field(0, ge=-5, le=10, description="Medicine skill ranks, for first aid")
    weapons: list[WeaponRef] = Field(min_length=1)
    armor: str | None = None
    ammo: dict[str, int] = Field(default_factory=dict)
    items: dict[str, int] = Field(default_factory=dict)


SPECIAL = ("strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck")
SKILLS_2D20 = ("small_guns", "energy_weapons", "big_guns", "melee_weapons", "unarmed",
               "explosives", "throwing", "athletics", "medicine", "survival", "speech")


class Attack2d20(Strict):
    """A creature's attack: the weapon and, for non-characters, the test it uses."""

    id: str
    attribute: Literal["body", "mind"] = "body"
    skill: Literal["melee", "guns", "other"] | None = Field(
        None, description="default: melee for melee/unarmed weapons, guns otherwise")


class Stats2d20(Strict):
    """Fallout 2d20 stat block. Creatures use Body / Mind with Melee / Guns / Other;
    player characters (kind: character) use SPECIAL, skills and tag skills."""

    hp: int = Field(ge=1)
    initiative: int = Field(ge=0)
    defense: int = Field(ge=0, le=5)
    body: int | None = Field(None, ge=1, le=12)
    mind: int | None = Field(None, ge=1, le=12)
    melee: int = Field(0, ge=0, le=6)
    guns: int = Field(0, ge=0, le=6)
    other: int = Field(0, ge=0, le=6)
    special: dict[Literal["strength", "perception", "endurance", "charisma", "intelligence",
                          "agility", "luck"], int] | None = None
    skills: dict[Literal["small_guns", "energy_weapons", "big_guns", "melee_weapons", "unarmed",
                         "explosives", "throwing", "athletics", "medicine", "survival",
                         "speech"],
                 int] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    dr: DR2d20 = DR2d20()
    dr_by_location: dict[str, DR2d20] = Field(
        default_factory=dict, description="hit-location name or kind -> DR replacing `dr`")
    attacks: list[Attack2d20] = Field(min_length=1)
    armor: str | None = None
    ammo: dict[str, int] = Field(default_factory=dict)
    items: dict[str, int] = Field(default_factory=dict)
    abilities: list[Literal["big", "little", "burrow", "radiant"]] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_kind_of_block(self) -> Stats2d20:
        if self.special is None and (self.body is None or self.mind is None):
            raise ValueError("needs body and mind (creatures) or special (characters)")
        if self.special is not None and set(self.special) != set(SPECIAL):
            missing = sorted(set(SPECIAL) - set(self.special))
            raise ValueError(f"special needs all seven attributes; missing: {', '.join(missing)}")
        for t in self.tags:
            if t not in SKILLS_2D20:
                raise ValueError(f"tag {t!r} is not a skill; skills: {', '.join(SKILLS_2D20)}")
        return self


class StatsSimple(Strict):
    """Stat block under J.E. Sawyer's Simple (seed 001). ``skills`` are totals (ranks plus
    the skill's bonus) added to 2d10 in a skill check; an unlisted skill is 0."""

    hp: int = Field(ge=1)
    size: SizeSimple = Field("large", description="target size; humans are large")
    sequence: int = Field(ge=0, le=30, description="combat sequence, added to a d10")
    endurance: int = Field(ge=1, le=10, description="bleeding out: dies after 10 + END more")
    luck: int = Field(ge=1, le=10, description="criticals on a d100 at or above 95 - Luck")
    crit_perks: list[Annotated[int, Field(ge=2, le=6)]] = Field(
        default_factory=list, max_length=4, description=(
            "critical damage multipliers of its perks (Better Criticals and the like); "
            "multipliers add: each adds its excess over x1 to the weapon's (x2 and x3 make "
            "x4, not x6)"))
    defense: int = Field(0, ge=0, le=10, description="added to the difficulty to hit it")
    skills: dict[SkillSimple, int] = Field(default_factory=dict)
    dt: DTSimple = Field(DTSimple(), description="natural DT (hide, plating), plus armor's")
    stances: bool = Field(True, description="false: it cannot crouch or go prone")
    eyes: int = Field(2, ge=0, le=8)
    legs: int = Field(2, ge=0, le=8)
    weapons: list[WeaponRef] = Field(min_length=1)
    armor: str | None = None
    ammo: dict[str, int] = Field(default_factory=dict)
    items: dict[str, int] = Field(default_factory=dict)

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        for k, n in v.items():
            if not -10 <= n <= 30:
                raise ValueError(f"skill {k!r}: {n} is outside -10..30")
        return v


RUN_AWAY_HP = {"none": 0, "coward": 90, "finger_hurts": 75, "bleeding": 50,
               "not_feeling_good": 25, "tourniquet": 10, "never": 0}


class AIPacket(Strict):
    """Personality fields after Fallout 2's AI packets (AI.TXT), read by the packet agent."""

    aggression: int = Field(50, ge=0, le=100,
                            description="percent: how readily it attacks rather than waits")
    min_to_hit: int = Field(0, ge=0, le=100,
                            description="percent: it does not attack at lower odds")
    min_hp: int = Field(0, ge=0, le=100,
                        description="percent of HP at or under which it runs away")
    run_away_mode: Literal["none", "coward", "finger_hurts", "bleeding", "not_feeling_good",
                           "tourniquet", "never"] = Field(
        "none", description="Fallout 2's names for a run-away threshold; min_hp wins if set")
    hurt_too_much: list[Literal["arm", "leg", "head", "blind"]] = Field(
        default_factory=list, description="crippled or injured locations that make it flee")
    distance: Literal["stay_close", "charge", "snipe", "stay"] = "charge"
    attack_who: Literal["closest", "weakest", "strongest", "whomever_attacking_me"] = "closest"
    chem_use: Literal["never", "sometimes", "always", "stims_when_hurt"] = "stims_when_hurt"
    best_weapon: Literal["any", "melee", "ranged", "unarmed"] = "any"
    called_freq: int = Field(0, ge=0, le=100, description="percent of attacks aimed at a spot")
    area_attack_mode: Literal["always", "be_careful", "never"] = Field(
        "be_careful", description="area weapons (splash, burst, spread) near its allies")

    @property
    def flee_below(self) -> int:
        """Percent of HP at or under which it runs away."""
        return self.min_hp or RUN_AWAY_HP[self.run_away_mode]


class Creature(Strict):
    id: str
    name: str
    description: str = ""
    kind: Literal["animal", "insect", "mutant", "robot", "ghoul", "human", "character"]
    size: Literal["tiny", "small", "normal", "large", "huge"] = "normal"
    hit_locations: list[HitLocation] = Field(min_length=1)
    ai: AIPacket = AIPacket()
    pnp: PnPStats
    f2d20: Stats2d20 | None = None
    simple: StatsSimple | None = None


Lighting = Literal["clear", "obscured", "heavily_obscured", "barely_visible", "unseen"]
Feature = Literal[
    "floor", "wall", "light_cover", "heavy_cover", "full_cover", "high_ground", "darkness", "smoke",
    "fog", "water", "climb"
]


class Placement(Strict):
    creature: str
    at: tuple[int, int]
    id: str | None = Field(None, description="combatant id; default creature_N")
    ai: dict[str, Any] | None = Field(
        None, description="AI packet fields that override the creature's, for this fight")


AGENT_KINDS = ("random", "scripted", "packet")
AGENT_CHOICES = "random, scripted, packet, policy:NAME (a shipped policy, or a path to NAME.npz)"


def agent_problem(name: str) -> str | None:
    """Why ``name`` is not an agent name (random, scripted, packet or policy:NAME), or None.
    Only the form is checked here; whether the policy exists is the loader's business."""
    if name in AGENT_KINDS:
        return None
    rest = name[len("policy:"):] if name.startswith("policy:") else None
    if rest and rest.strip() == rest and "," not in rest:
        return None
    return f"unknown agent {name!r}; accepted: {AGENT_CHOICES}"


class Side(Strict):
    name: str
    alert: bool = Field(True, description="false: unguarded until each one's first turn")
    agent: str | None = Field(
        None, description="the agent that plays this side by default: random, scripted, packet, "
                          "or policy:NAME (a shipped policy, or a path to NAME.npz, relative to "
                          "the scenario file). fight --agents and play/gm --ai override it")
    combatants: list[Placement] = Field(min_length=1)

    @field_validator("agent")
    @classmethod
    def _agent(cls, v: str | None) -> str | None:
        problem = agent_problem(v) if v is not None else None
        if problem:
            raise ValueError(problem)
        return v


class Scenario(Strict):
    id: str
    name: str
    description: str = ""
    map: str
    legend: dict[str, Feature | list[Feature]]
    lighting: Lighting = "clear"
    max_rounds: int = Field(30, json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS})
    sides: list[Side] = Field(min_length=2)

    @field_validator("max_rounds")
    @classmethod
    def _rounds(cls, v: int) -> int:  # the message names the accepted range
        problem = rounds_problem(v)
        if problem:
            raise ValueError(problem)
        return v

    @field_validator("map")
    @classmethod
    def _size(cls, v: str) -> str:
        """A map past the caps of wasteland/limits.py would take gigabytes to lay out."""
        rows = v.strip("\n").splitlines()
        problem = map_size_problem(max((len(r) for r in rows), default=0), len(rows))
        if problem:
            raise ValueError(problem)
        return v

    @field_validator("legend")
    @classmethod
    def _chars(cls, v: dict) -> dict:
        for k in v:
            if len(k) != 1:
                raise ValueError(f"legend key {k!r} must be a single character")
        return v

    def rows(self) -> list[str]:
        return [r for r in self.map.strip("\n").splitlines()]
