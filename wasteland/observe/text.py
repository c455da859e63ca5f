"""The text view of a battle: the decision at hand in plain English, a structured view of
the same (JSON values), and the actions in notation, for a language model or any program
that reads words rather than vectors.

The same view feeds the agent protocol (``wasteland.agents.protocol``) and can be used
directly on ``combat_v0``:

    from wasteland.envs import combat_v0
    from wasteland.observe import text

    env = combat_v0.env(scenario="duel")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        prompt = text.observe(env)           # the situation, hit chances, legal actions
        reply = "attack raider_0"            # what a language model answered
        env.step(text.action_id(env, reply)) # notation -> action id (one-line error if not legal)

Distances are in squares (PnP), hexes (Simple) or range bands (Fallout 2d20, whose map
is read as zones); cover is that of the square (or zone) a combatant stands on; the hit
chances are the ruleset's exact odds, those the packet agent weighs.
"""

from __future__ import annotations

from typing import Any

from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, parse_action
from wasteland.rules.battle import ACTIVE, Battle, Combatant
from wasteland.rules.errors import IllegalActionError
from wasteland.rules.grid import COVER_NAMES
from wasteland.rules.protocol import Decision, Ruleset
from wasteland.rules.tactics import tactics_of

BANDS = ("close", "medium", "long", "extreme")
# the attacks whose odds the ruleset's hit_chance gives (the option is the body part)
AIMED_KINDS = ("attack", "vats", "aimed", "called")
SLOT_WORDS = {
    "small": "a small action", "large": "a large action", "free": "a free action",
    "act": "an action (minor or major)", "dice": "how many extra d20s to buy",
    "boost": "how many combat dice to add", "defend": "whether to defend",
    "move": "the move phase", "charge": "the charge phase", "action": "the action phase",
}


# --- notation ---------------------------------------------------------------------------
def notation(battle: Battle, action: int, actor: int | None = None) -> str:
    """The notation of action id ``action`` (``self`` for the actor's own slot)."""
    return ACTION_TABLE[action].text(battle.ids, actor)


def legal_notation(battle: Battle, legal_ids: list[int], actor: int) -> dict[str, int]:
    """Each legal action's notation and its id, in id order."""
    return {notation(battle, i, actor): i for i in legal_ids}


def parse(battle: Battle, text: str, legal_ids: list[int], actor: int) -> int:
    """The id of the legal action ``text`` names. Raises NotationError (it does not parse)
    or IllegalActionError (not legal now), each naming what is accepted."""
    a = parse_action(text, battle.ids, actor)
    i = ACTION_INDEX[a]
    if i not in legal_ids:
        shown = ", ".join(notation(battle, j, actor) for j in legal_ids)
        raise IllegalActionError(f"{a.text(battle.ids, actor)!r} is not legal now; legal: {shown}")
    return i


# --- measures ---------------------------------------------------------------------------
def distance(battle: Battle, a: Combatant, b: Combatant) -> tuple[int, str]:
    """How far ``b`` is from ``a`` and in what unit: squares, hexes or a range band, as
    the ruleset measures."""
    tac = tactics_of(battle)
    return tac.distance(battle, a.pos, b.pos), tac.unit


def sees(battle: Battle, a: Combatant, b: Combatant) -> bool:
    """Whether ``a`` has a line of sight to ``b`` (Simple: across hexes)."""
    if a is b:
        return True
    return tactics_of(battle).sees(battle, a.pos, b.pos)


def cover(battle: Battle, c: Combatant) -> str:
    """The cover of the square (2d20: the zone) ``c`` stands on: none, light, heavy, full."""
    return COVER_NAMES[tactics_of(battle).cover_level(battle, c.pos)]


def hit_chances(battle: Battle, ruleset: Ruleset, legal_ids: list[int], actor: int
                ) -> dict[str, float]:
    """The ruleset's exact chance to hit of each legal attack, by its notation."""
    tac = ruleset.tactics
    out: dict[str, float] = {}
    me = battle.combatants[actor]
    for i in legal_ids:
        a = ACTION_TABLE[i]
        if a.kind not in AIMED_KINDS or a.target is None:
            continue
        try:
            p = tac.hit_chance(battle, me, battle.combatants[a.target], a.option)
        except (ValueError, KeyError, TypeError, IndexError):
            continue  # a ruleset that cannot price this shot: no number rather than a wrong one
        out[a.text(battle.ids, actor)] = round(p, 4)
    return out


# --- the structured view ----------------------------------------------------------------
def _weapon(battle: Battle, c: Combatant) -> dict[str, Any]:
    w = c.weapon
    out: dict[str, Any] = {"name": w.name}
    if not tactics_of(battle).magazines:  # guns fire from the ammunition carried
        if w.ammo:
            out["ammo"] = c.ammo.get(w.ammo, 0)
    elif w.magazine != "none":
        out["loaded"] = c.wstate.loaded
        out["capacity"] = w.capacity
        if w.ammo:
            out["ammo"] = c.ammo.get(w.ammo, 0)
    return out


def decision_dict(battle: Battle, d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {"combatant": battle.ids[d.combatant], "slot_index": d.combatant,
                           "slot": d.slot, "reaction": d.reaction,
                           "subject": None if d.subject is None else battle.ids[d.subject]}
    return out


def state(battle: Battle, ruleset: Ruleset, d: Decision) -> dict[str, Any]:
    """The battle as JSON values, seen from the decider: every combatant with its place,
    distance, line of sight, cover, HP, status and weapon in hand."""
    b = battle
    me = b.combatants[d.combatant]
    people = []
    for c in b.combatants:
        x, y = b.grid.xy(c.pos)
        far, unit = distance(b, me, c)
        people.append({
            "id": c.id, "slot": c.slot, "side": b.side_names[c.side],
            "ally": c.side == me.side, "creature": c.creature.id, "hp": c.hp,
            "max_hp": c.max_hp, "status": c.status, "x": x, "y": y,
            "distance": far, "distance_unit": unit,
            "in_sight": sees(b, me, c),
            "cover": cover(b, c), "weapon": _weapon(b, c),
            "weapons": [w.name for w in c.weapons],
            "items": {k: v for k, v in c.items.items() if v},
            "ap": c.ap,
        })
    out: dict[str, Any] = {"ruleset": b.ruleset, "scenario": b.scenario.id, "round": b.round,
                           "you": me.id, "your_side": b.side_names[me.side],
                           "combatants": people, "map": {"width": b.grid.width,
                                                         "height": b.grid.height}}
    econ = b.book.economy()
    if econ is not None:
        out["ap_pools"] = dict(zip(b.side_names, econ.pools))
    return out


# --- the plain-English description ------------------------------------------------------
def _far(n: int, unit: str) -> str:
    if unit == "band":
        return f"at {BANDS[min(n, 3)]} range"
    return f"{n} {unit[:-1] if n == 1 else unit} away"


def _line(battle: Battle, me: Combatant, c: Combatant) -> str:
    w = _weapon(battle, c)
    held = w["name"]
    if "loaded" in w:
        held += f" ({w['loaded']}/{w['capacity']} loaded" + (
            f", {w['ammo']} more" if "ammo" in w else "") + ")"
    elif "ammo" in w:
        held += f" ({w['ammo']} rounds)"
    x, y = battle.grid.xy(c.pos)
    status = "" if c.status == ACTIVE else f", {c.status}"
    where = f"at ({x},{y})"
    if c is not me:
        far, unit = distance(battle, me, c)
        sight = "in sight" if sees(battle, me, c) else "out of sight"
        where += f", {_far(far, unit)}, {sight}"
    return (f"{c.id} ({c.creature.id}): HP {c.hp}/{c.max_hp}{status}, {where}, "
            f"cover {cover(battle, c)}, holding {held}")


def describe(battle: Battle, ruleset: Ruleset, d: Decision | None = None,
             legal_ids: list[int] | None = None) -> str:
    """The decision at hand in plain English: who decides and for what, everyone's place,
    distance, cover and HP, the chance to hit of each legal attack, the legal actions."""
    b = battle
    d = d if d is not None else ruleset.decider(b)
    ids = legal_ids if legal_ids is not None else ruleset.legal_ids(b)
    me = b.combatants[d.combatant]
    what = SLOT_WORDS.get(d.slot, d.slot)
    if d.reaction:
        what = f"a reaction ({d.reaction}" + (
            f" to {b.ids[d.subject]}" if d.subject is not None else "") + ")"
    elif d.subject is not None and d.subject != me.slot:
        what += f" (for the attack on {b.ids[d.subject]})"
    lines = [f"{b.scenario.name}, {b.ruleset} rules, round {b.round}. You are {me.id} "
             f"of side {b.side_names[me.side]}; you choose {what}.",
             "You: " + _line(b, me, me) + (f", {me.ap} AP" if me.ap else "") + "."]
    for label, same in (("Allies", True), ("Enemies", False)):
        group = [c for c in b.combatants if c is not me and (c.side == me.side) == same]
        if group:
            lines.append(f"{label}:")
            lines.extend(f"- {_line(b, me, c)}." for c in group)
    econ = b.book.economy()
    if econ is not None:
        lines.append("AP pools: " + ", ".join(f"{n} {p}" for n, p in
                                              zip(b.side_names, econ.pools)) + ".")
    odds = hit_chances(b, ruleset, ids, me.slot)
    if odds:
        lines.append("Chance to hit: " + "; ".join(f"{k} {round(100 * p)}%"
                                                   for k, p in odds.items()) + ".")
    lines.append("Legal actions: " + "; ".join(legal_notation(b, ids, me.slot)) + ".")
    return "\n".join(lines)


# --- on the env ---------------------------------------------------------------------------
# the env's action ids are egocentric: a target is an observation block, the decider's own
# order of the combatants (observe/encoding.py); these translate to and from them
def _env_parts(env: Any) -> tuple[Any, Battle, Ruleset]:
    inner = getattr(env, "unwrapped", env)
    b = getattr(inner, "battle", None)
    if b is None:
        raise IllegalActionError("the env has no battle yet; call reset() first")
    return inner, b, inner.ruleset


def observe(env: Any) -> str:
    """The current decision of a combat_v0 env (AEC, or wrapped) as text."""
    _, b, rs = _env_parts(env)
    if b.over:
        return "The battle is over: " + (f"{b.side_names[b.winner]} won." if b.winner is not None
                                         else "a draw.")
    return describe(b, rs)


def legal_actions(env: Any) -> dict[str, int]:
    """The legal actions of the env's current decision: notation -> env action id."""
    from .encoding import to_ego

    inner, b, rs = _env_parts(env)
    if b.over:
        return {}
    order = inner.order()
    return {k: to_ego(i, order) for k, i in
            legal_notation(b, rs.legal_ids(b), rs.decider(b).combatant).items()}


def action_id(env: Any, text: str) -> int:
    """The env action id of the legal action ``text`` names; NotationError or
    IllegalActionError (one line, naming what is accepted) if none."""
    from .encoding import to_ego

    inner, b, rs = _env_parts(env)
    if b.over:
        raise IllegalActionError("the battle is over; no action is legal")
    return to_ego(parse(b, text, rs.legal_ids(b), rs.decider(b).combatant), inner.order())


def action_text(env: Any, action: int) -> str:
    """The notation of env action id ``action`` for the agent deciding now (the env's
    action_text: an id off the table or not an integer is one line)."""
    inner, _, _ = _env_parts(env)
    return str(inner.action_text(action))
