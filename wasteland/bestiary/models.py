"""Pydantic models of the bestiary files: weapons, armor, items, creatures, scenarios.

A creature has one identity (name, kind, size, hit locations, AI personality) and one
stat block per ruleset. Unknown fields are errors, so a typo in a file never passes
silently.
"""

from __future__ import annotations

import os
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from wasteland.limits import (
    ID_PATTERN,
    ID_RULE,
    MAX_COUNT,
    MAX_HP,
    MAX_MODIFIER,
    MAX_MULTIPLIER,
    MAX_NAME,
    MAX_ROUNDS,
    MAX_STAT,
    map_size_problem,
    rounds_problem,
)
from wasteland.rules.dice import Dice


class Strict(BaseModel):
    # numbers are never inf or NaN; the Strict* types below keep a boolean from passing as
    # a number (true as 1) and a number as a boolean
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _printable(v: str) -> str:
    if not v.isprintable():
        raise ValueError(f"{v[:40]!r} holds a line break or a control character; names are "
                         f"one printable line")
    return v


# the shared caps of wasteland/limits.py as field types
def _id(pattern: str, rule: str) -> Any:
    def check(v: str) -> str:
        if not re.match(pattern, v):
            raise ValueError(f"{v[:40]!r} is not an id: ids are {rule}")
        return v

    return AfterValidator(check)


Id = Annotated[StrictStr, Field(json_schema_extra={"pattern": ID_PATTERN}), _id(ID_PATTERN, ID_RULE)]
Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_printable)]
Count = Annotated[StrictInt, Field(ge=0, le=MAX_COUNT)]
# ammunition is named as the books print it (.38, 5.56mm): an id that may hold dots
AMMO_PATTERN = r"^[A-Za-z0-9_.-]{1,64}$"
AmmoId = Annotated[StrictStr, Field(json_schema_extra={"pattern": AMMO_PATTERN}),
                   _id(AMMO_PATTERN, "1 to 64 letters, digits, '_', '-' or '.'")]
Stock = dict[AmmoId, Count]


def _dice(v: str) -> str:
    Dice.parse(v)  # raises NotationError (a ValueError) with the accepted form
    return v


class Qualities(Strict):
    """The twelve weapon qualities of seed 000; zero or false means absent."""

    lucky: StrictInt = Field(0, ge=0, le=MAX_STAT, description="bonus to landing critical hits")
    brutal: StrictFloat = Field(0.0, ge=0, le=MAX_MULTIPLIER,
                                description="added to the x2 critical multiplier")
    spread: StrictInt = Field(0, ge=0, le=MAX_STAT, description="extra adjacent foes hit for half damage")
    lethal: StrictInt = Field(0, ge=0, le=MAX_STAT, description="kills a target left at or under this HP")
    warm_up: StrictBool = Field(False, description="RoF starts at 1 and rises each round")
    recharging: StrictInt = Field(0, ge=0, le=MAX_STAT, description="shots restored each turn")
    stunted_range: StrictBool = Field(False, description="cannot fire beyond its range")
    lobbed: StrictBool = Field(False, description="may fire over full cover at -5")
    splash: StrictBool = Field(False, description="damage falls off 1 per foot from the target")
    burning: StrictInt = Field(0, ge=0, le=MAX_STAT, description="burn damage per turn from a second roll")
    armor_vulnerable: StrictFloat = Field(1.0, ge=1, le=MAX_MULTIPLIER, description="target DT multiplier")
    armor_piercing: StrictInt = Field(0, ge=0, le=MAX_STAT, description="target DT reduction")


Skill2d20 = Literal["small_guns", "energy_weapons", "big_guns", "melee_weapons", "unarmed",
                    "explosives", "throwing"]
RANGES_2D20 = ("close", "medium", "long", "extreme")


class Effects2d20(Strict):
    """Damage effects of Fallout 2d20 (seeds 002/003); each fires on a combat-die effect."""

    piercing: StrictInt = Field(0, ge=0, le=MAX_STAT, description="ignore this much DR per effect rolled")
    vicious: StrictBool = Field(False, description="+1 damage per effect rolled")
    burst: StrictBool = Field(False, description="each effect hits one more foe near the target")
    spread: StrictBool = Field(False, description="each effect: another hit, half damage, random spot")
    stun: StrictBool = Field(False, description="any effect: the target loses its next major action")
    persistent: StrictBool = Field(False, description="damage again at the end of the target's turns")
    breaking: StrictBool = Field(False, description="each effect lowers the location's DR by 1")
    radioactive: StrictBool = Field(False, description="each effect adds 1 radiation damage")


class Weapon2d20(Strict):
    """A weapon's Fallout 2d20 profile."""

    cd: StrictInt = Field(ge=1, le=20, description="combat dice of damage")
    damage_type: Literal["physical", "energy", "radiation", "poison"] = "physical"
    effects: Effects2d20 = Effects2d20()
    range: Literal["close", "medium", "long", "extreme"] = Field(
        "close", description="ideal range band (ranged weapons)")
    fire_rate: StrictInt = Field(0, ge=0, le=10, description="extra ammunition a shot may spend")
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

    normal: StrictInt = Field(0, ge=0, le=MAX_STAT)
    laser: StrictInt = Field(0, ge=0, le=MAX_STAT)
    plasma: StrictInt = Field(0, ge=0, le=MAX_STAT)
    fire: StrictInt = Field(0, ge=0, le=MAX_STAT)
    explosive: StrictInt = Field(0, ge=0, le=MAX_STAT)
    electrical: StrictInt = Field(0, ge=0, le=MAX_STAT)
    poison: StrictInt = Field(0, ge=0, le=MAX_STAT)


class WeaponSimple(Strict):
    """A weapon's profile under J.E. Sawyer's Simple (seed 001)."""

    skill: Literal["guns", "big_guns", "energy_weapons", "melee", "unarmed", "throwing"]
    damage: str = Field(description="damage dice of one hit, e.g. 1d6+2")
    damage_type: Literal["normal", "laser", "plasma", "fire", "explosive", "electrical",
                         "poison"] = "normal"
    range: StrictInt = Field(0, ge=0, le=60, description="hexes of point blank range; 0 for melee")
    crit: StrictInt = Field(2, ge=1, le=6, description="critical damage multiplier (they add)")
    size: Literal["small", "large"] = Field(
        "small", description="item size: taking it out or putting it away while moving")
    heavy: StrictBool = Field(False, description="a heavy weapon: no action phase after moving")
    scope: StrictBool = Field(False, description="-10 to hit within point blank range")
    shots: StrictInt = Field(1, ge=1, le=10, description=(
        "rounds (or strikes) one attack fires; on a hit each deals its damage less DT"))

    _check_damage = field_validator("damage")(_dice)


class Weapon(Strict):
    id: Id
    name: Name
    description: str = ""
    kind: Literal["melee", "unarmed", "ranged"]
    damage: str
    damage_type: Literal["physical", "energy", "radiation", "toxic"] = "physical"
    range_ft: StrictInt = Field(0, ge=0, le=MAX_STAT, description="ranged: optimum maximum distance in feet")
    min_range_ft: StrictInt = Field(0, ge=0, le=MAX_STAT)
    reach: StrictInt = Field(1, ge=1, le=3, description="melee: squares it reaches")
    rof: StrictInt = Field(1, ge=1, le=20)
    hands: Literal[0, 1, 2] = Field(1, description="0 for natural weapons")
    magazine: Literal["none", "internal", "clip", "complex"] = "none"
    capacity: StrictInt = Field(0, ge=0, le=MAX_STAT)
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
    physical: StrictInt = Field(0, ge=0, le=MAX_STAT)
    energy: StrictInt = Field(0, ge=0, le=MAX_STAT)
    radiation: StrictInt = Field(0, ge=0, le=MAX_STAT)
    poison: StrictInt = Field(0, ge=0, le=MAX_STAT)


class ArmorSimple(Strict):
    """Armor under Simple (seed 001): DT per damage type; heavy armor (power armor and
    the like) forbids running and going from prone to standing in one move."""

    dt: DTSimple = DTSimple()
    heavy: StrictBool = False


class Armor(Strict):
    id: Id
    name: Name
    description: str = ""
    pdt: StrictInt = Field(0, ge=0, le=MAX_STAT)
    edt: StrictInt = Field(0, ge=0, le=MAX_STAT)
    f2d20: DR2d20 | None = Field(None, description="2d20 DR added on every location")
    simple: ArmorSimple | None = Field(None, description="Simple DT, added to the wearer's")


class Item(Strict):
    id: Id
    name: Name
    description: str = ""
    kind: Literal["healing", "radaway"]
    heal: str
    f2d20_heal: StrictInt = Field(4, ge=0, le=MAX_STAT, description="HP a dose restores under 2d20")
    f2d20_rads: StrictInt = Field(0, ge=0, le=MAX_STAT,
                                  description="radiation damage a dose removes under 2d20")
    _check_heal = field_validator("heal")(_dice)


class HitLocation(Strict):
    name: Name
    kind: Literal["head", "torso", "arm", "leg", "other"]
    count: StrictInt = Field(1, ge=1, le=8)
    d20: tuple[StrictInt, StrictInt] | None = Field(None, description="2d20 hit-location roll range")


class WeaponRef(Strict):
    id: Id
    bonus: StrictInt = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER,
                             description="skill and lesser-perk attack bonus with this weapon")


class PnPStats(Strict):
    """Fallout PnP stat block (seed 000); fields the seed leaves to the Overseer."""

    hp: StrictInt = Field(ge=1, le=MAX_HP)
    defense: StrictInt = Field(ge=0, le=MAX_STAT)
    initiative: StrictInt = Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)
    speed: StrictInt = Field(ge=0, le=MAX_STAT, description="squares per move action")
    strength: StrictInt = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER)
    perception: StrictInt = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER)
    luck: StrictInt = Field(0, ge=-MAX_MODIFIER, le=MAX_MODIFIER)
    pdt: StrictInt = Field(0, ge=0, le=MAX_STAT)
    edt: StrictInt = Field(0, ge=0, le=MAX_STAT)
    rad_resistance: StrictInt = Field(0, ge=0, le=100, description="percent")
    poison_resistance: StrictInt = Field(0, ge=0, le=100, description="percent")
    ap: StrictInt = Field(0, ge=0, le=MAX_STAT, description="action points per turn, spent on V.A.T.S.")
    vats: StrictBool = Field(False, description="has a Pip-Boy, so may use V.A.T.S.")
    medicine: StrictInt = Field(0, ge=-5, le=10, description="Medicine skill ranks, for first aid")
    weapons: list[WeaponRef] = Field(min_length=1)
    armor: str | None = None
    ammo: Stock = Field(default_factory=dict)
    items: Stock = Field(default_factory=dict)


SPECIAL = ("strength", "perception", "endurance", "charisma", "intelligence", "agility", "luck")
SKILLS_2D20 = ("small_guns", "energy_weapons", "big_guns", "melee_weapons", "unarmed",
               "explosives", "throwing", "athletics", "medicine", "survival", "speech")


class Attack2d20(Strict):
    """A creature's attack: the weapon and, for non-characters, the test it uses."""

    id: Id
    attribute: Literal["body", "mind"] = "body"
    skill: Literal["melee", "guns", "other"] | None = Field(
        None, description="default: melee for melee/unarmed weapons, guns otherwise")


class Stats2d20(Strict):
    """Fallout 2d20 stat block. Creatures use Body / Mind with Melee / Guns / Other;
    player characters (kind: character) use SPECIAL, skills and tag skills."""

    hp: StrictInt = Field(ge=1, le=MAX_HP)
    initiative: StrictInt = Field(ge=0, le=MAX_MODIFIER)
    defense: StrictInt = Field(ge=0, le=5)
    body: StrictInt | None = Field(None, ge=1, le=12)
    mind: StrictInt | None = Field(None, ge=1, le=12)
    melee: StrictInt = Field(0, ge=0, le=6)
    guns: StrictInt = Field(0, ge=0, le=6)
    other: StrictInt = Field(0, ge=0, le=6)
    special: dict[Literal["strength", "perception", "endurance", "charisma", "intelligence",
                          "agility", "luck"], StrictInt] | None = None
    skills: dict[Literal["small_guns", "energy_weapons", "big_guns", "melee_weapons", "unarmed",
                         "explosives", "throwing", "athletics", "medicine", "survival",
                         "speech"],
                 StrictInt] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    dr: DR2d20 = DR2d20()
    dr_by_location: dict[str, DR2d20] = Field(
        default_factory=dict, description="hit-location name or kind -> DR replacing `dr`")
    attacks: list[Attack2d20] = Field(min_length=1)
    armor: str | None = None
    ammo: Stock = Field(default_factory=dict)
    items: Stock = Field(default_factory=dict)
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

    hp: StrictInt = Field(ge=1, le=MAX_HP)
    size: SizeSimple = Field("large", description="target size; humans are large")
    sequence: StrictInt = Field(ge=0, le=30, description="combat sequence, added to a d10")
    endurance: StrictInt = Field(ge=1, le=10, description="bleeding out: dies after 10 + END more")
    luck: StrictInt = Field(ge=1, le=10, description="criticals on a d100 at or above 95 - Luck")
    crit_perks: list[Annotated[StrictInt, Field(ge=2, le=6)]] = Field(
        default_factory=list, max_length=4, description=(
            "critical damage multipliers of its perks (Better Criticals and the like); "
            "multipliers add: each adds its excess over x1 to the weapon's (x2 and x3 make "
            "x4, not x6)"))
    defense: StrictInt = Field(0, ge=0, le=10, description="added to the difficulty to hit it")
    skills: dict[SkillSimple, StrictInt] = Field(default_factory=dict)
    dt: DTSimple = Field(DTSimple(), description="natural DT (hide, plating), plus armor's")
    stances: StrictBool = Field(True, description="false: it cannot crouch or go prone")
    eyes: StrictInt = Field(2, ge=0, le=8)
    legs: StrictInt = Field(2, ge=0, le=8)
    weapons: list[WeaponRef] = Field(min_length=1)
    armor: str | None = None
    ammo: Stock = Field(default_factory=dict)
    items: Stock = Field(default_factory=dict)

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

    aggression: StrictInt = Field(50, ge=0, le=100,
                            description="percent: how readily it attacks rather than waits")
    min_to_hit: StrictInt = Field(0, ge=0, le=100,
                            description="percent: it does not attack at lower odds")
    min_hp: StrictInt = Field(0, ge=0, le=100,
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
    called_freq: StrictInt = Field(0, ge=0, le=100, description="percent of attacks aimed at a spot")
    area_attack_mode: Literal["always", "be_careful", "never"] = Field(
        "be_careful", description="area weapons (splash, burst, spread) near its allies")

    @property
    def flee_below(self) -> int:
        """Percent of HP at or under which it runs away."""
        return self.min_hp or RUN_AWAY_HP[self.run_away_mode]


# the kinds that can give first aid unless a creature's file says otherwise: people
MEDIC_KINDS = ("human", "character")


class Creature(Strict):
    id: Id
    name: Name
    description: str = ""
    kind: Literal["animal", "insect", "mutant", "robot", "ghoul", "human", "character"]
    size: Literal["tiny", "small", "normal", "large", "huge"] = "normal"
    hit_locations: list[HitLocation] = Field(min_length=1)
    ai: AIPacket = AIPacket()
    first_aid: StrictBool | None = Field(
        None, description="whether it can give first aid: hands that can dress a wound and "
                          "the know-how; default by kind: people (human, character) can, "
                          "animals, insects, ghouls, mutants and robots cannot")
    pnp: PnPStats
    f2d20: Stats2d20 | None = None
    simple: StatsSimple | None = None

    @property
    def medic(self) -> bool:
        """Whether it can give first aid (``first_aid``, else its kind's default)."""
        return self.first_aid if self.first_aid is not None else self.kind in MEDIC_KINDS


Lighting = Literal["clear", "obscured", "heavily_obscured", "barely_visible", "unseen"]
Feature = Literal[
    "floor", "wall", "light_cover", "heavy_cover", "full_cover", "high_ground", "darkness", "smoke",
    "fog", "water", "climb"
]


class Placement(Strict):
    creature: Id
    at: tuple[StrictInt, StrictInt]
    id: Id | None = Field(None, description="combatant id; default creature_N")
    ai: dict[str, Any] | None = Field(
        None, description="AI packet fields that override the creature's, for this fight")


AGENT_KINDS = ("random", "scripted", "packet")
# the difficulty levels (agents/levels.py) and the agent the easiest stands for
LEVEL_KINDS = ("sloppy", "easy", "normal", "hard", "deadly")
AGENT_CHOICES = ("random, scripted, packet, policy:NAME (a shipped policy, or a path to "
                 "NAME.npz), search (search@SECONDS, search:rollouts=N,...), sloppy, or a "
                 "level: easy, normal, hard, deadly")


def agent_problem(name: str) -> str | None:
    """Why ``name`` is not an agent name (random, scripted, packet or policy:NAME), or None.
    Only the form is checked here; whether the policy exists is the loader's business."""
    if (name in AGENT_KINDS or name in LEVEL_KINDS or name == "search"
            or name.startswith(("search@", "search:"))):
        return None  # a search budget is checked when the agent is made
    rest = name[len("policy:"):] if name.startswith("policy:") else None
    if rest and rest.strip() == rest and "," not in rest:
        return policy_name_problem(rest)
    return f"unknown agent {name!r}; accepted: {AGENT_CHOICES}"


def policy_name_problem(name: str) -> str | None:
    """Why NAME of ``policy:NAME`` can name no policy, or None: it is empty, or a path
    whose last part is a folder (``/``, ``dir/``, ``.``, ``..``), which has no NAME to find
    NAME.npz and NAME.json by."""
    if not name:
        return ("policy: needs a NAME: a shipped policy, or the path of a policy's NAME.npz "
                "(`wasteland agents` lists the shipped ones)")
    last = name.replace(os.sep, "/").rsplit("/", 1)[-1]
    if last in ("", ".", ".."):
        return (f"policy:{name} is a folder, not a policy; give the path of a policy's "
                f"NAME.npz (its NAME.json beside it)")
    return None


class Side(Strict):
    name: Name
    alert: StrictBool = Field(True, description="false: unguarded until each one's first turn")
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
    id: Id
    name: Name
    description: str = ""
    map: str
    legend: dict[str, Feature | list[Feature]]
    lighting: Lighting = "clear"
    max_rounds: StrictInt = Field(30, json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS})
    sides: list[Side] = Field(min_length=2)

    @field_validator("sides")
    @classmethod
    def _side_names(cls, v: list[Side]) -> list[Side]:
        names = [s.name for s in v]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:  # --side NAME and the log's "Result: NAME" must say which side
            raise ValueError(f"side names must differ; {', '.join(map(repr, twice))} is used "
                             f"more than once")
        return v

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
