"""What the actions panel shows of a decision, worked out without any widget: the legal
actions grouped (move, attack, items, other), each labelled with its notation and, for an
attack, its exact chance to hit and expected damage (the rulesets' odds helpers and the
packet agent's damage estimate, so a player sees what an NPC weighs), the 2d20 windows'
options with the odds they buy, and a one-line explanation of every kind of action."""

from __future__ import annotations

from dataclasses import dataclass

from wasteland.agents.packets.odds import damage_per_hit
from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle, Combatant
from wasteland.rules.protocol import Decision, Ruleset
from wasteland.rules.words import coded, label

GROUPS = ("move", "attack", "items", "other")
_GROUP = {
    "move": "move", "sprint": "move", "step": "move", "cover": "move", "prone": "move",
    "stand": "move", "crouch": "move", "evade": "move",
    "attack": "attack", "vats": "attack", "attack2": "attack", "whip": "attack",
    "called": "attack", "aimed": "attack", "charge": "attack", "overwatch": "attack",
    "aim": "attack", "buy": "attack", "boost": "attack", "noroll": "attack",
    "reload": "items", "draw": "items", "stimpak": "items", "first_aid": "items",
    "draw_chem": "items", "radaway": "items", "unload": "items", "repair": "items",
    "warmup": "items", "extinguish": "items", "pair": "items",
}
# attacks whose chance the ruleset can state for the weapon in hand

EXPLAIN = {
    "end": "End this turn (or let the moment pass when it is a reaction).",
    "move": "Walk toward or away from that combatant, as far as this action allows.",
    "sprint": "Run further than a walk, giving up the major action (2d20).",
    "step": "A 5-ft step toward or away, taken as a reaction.",
    "cover": "Move to the nearest square that gives cover against the enemies.",
    "prone": "Drop prone: harder to hit from afar, easier up close.",
    "stand": "Get up from prone.",
    "crouch": "Crouch: a steadier, smaller target, slower to move.",
    "evade": "Spend the action dodging: attacks on you are harder until your next turn.",
    "attack": "Attack with the weapon in hand; a body part is a called shot (harder, "
              "more effect).",
    "vats": "V.A.T.S.: a called shot paid with Action Points, at a better chance.",
    "attack2": "Attack with both one-handed weapons at once, each at a penalty.",
    "whip": "Strike with the gun's butt as a club (no ammunition).",
    "called": "A called shot at the torso (2d20).",
    "aimed": "A called shot at the eyes or groin: hard, but it blinds or stuns.",
    "charge": "Run into melee and attack in one go.",
    "overwatch": "Watch a cone toward that combatant and shoot the first who moves in it.",
    "aim": "Aim: your next attack this round may reroll one d20.",
    "buy": "Buy extra d20s for this test with the side's AP (1, 3, 6 AP for 1, 2, 3).",
    "boost": "After a hit: add combat dice, paid with AP (melee) or ammunition (guns).",
    "noroll": "Take the automatic success at difficulty 0 without rolling.",
    "reload": "Reload the weapon in hand from the ammunition carried.",
    "draw": "Take another weapon in hand.",
    "stimpak": "Use a stimpak on yourself or an ally next to you.",
    "first_aid": "First aid: a Medicine test to heal or stabilise.",
    "draw_chem": "Get a chem ready to take.",
    "radaway": "Take RadAway against radiation.",
    "unload": "Clear the weapon's jam.",
    "repair": "Mend a damaged weapon (a Mechanics check).",
    "warmup": "Spin up the weapon (it needs it before firing).",
    "extinguish": "Put out the fire on yourself or an ally.",
    "pair": "Two one-handed actions at once.",
    "ready": "Ready an attack: it goes off when an enemy comes in reach or sight.",
    "ready_to": "Ready a defence for when you are attacked.",
    "defend": "Defend: harder to hit until your next turn.",
    "rally": "Rally: a test that gains AP for your side.",
    "rally_with": "Rally with Charisma + Speech instead.",
    "assist": "Help an ally's next test with your own die.",
    "speak": "Say something (a free action).",
    "prepare": "Ready a non-attack action for later in the round.",
}


def group_of(a: Action) -> str:
    return _GROUP.get(a.kind, "other")


def explain(a: Action, decision: Decision | None = None) -> str:
    """One line saying what ``a`` does; inside a 2d20 window the window's own meaning."""
    if decision is not None and decision.slot == "defend" and a.kind == "boost":
        return ("Spend 2 AP for another +1 Defense against this attack."
                if a.option == "1" else "Keep the AP; no extra Defense.")
    return EXPLAIN.get(a.kind, a.kind.replace("_", " ") + ".")


@dataclass(frozen=True)
class Odds:
    hit: float  # chance to hit
    per_hit: float  # expected damage when it hits

    @property
    def expected(self) -> float:
        return self.hit * self.per_hit

    def text(self) -> str:
        return f"{self.hit:.0%} ~{self.expected:.1f}"


def attack_odds(b: Battle, rs: Ruleset, me: Combatant, a: Action, aim: bool | None = None,
                extra_dice: int = 0) -> Odds | None:
    """The exact chance that attack ``a`` hits (the ruleset's helper, with the weapon in
    hand; 2d20: aimed first or not, with ``extra_dice`` d20s bought) and the damage a hit
    is expected to do after armor (the packet agent's estimate); None for an action that
    is not such an attack."""
    from wasteland.cli.menu import chance

    hit = chance(b, rs, me, a, aim, extra_dice)
    if hit is None:
        return None
    return Odds(hit, damage_per_hit(b, me, me.active_weapon, b.combatants[a.target or 0]))


def window_odds(b: Battle, rs: Ruleset, dec: Decision, a: Action) -> str:
    """2d20's windows: what each choice buys. ``buy n``: the chance to hit with n more
    d20s and its AP cost; ``boost n``: the expected damage with n more combat dice."""
    w = b.book.open_window() or {}
    if not w or dec.slot not in ("dice", "boost"):
        return ""
    me = b.combatants[w["attacker"]]
    t = b.combatants[w["target"]]
    n = int(a.option or 0)
    if dec.slot == "dice":
        if a.kind == "noroll":
            return "100% no roll"
        tac = rs.tactics
        held = me.active_weapon
        me.active_weapon = w["ws"]  # the odds read the weapon in hand; the window's is
        try:
            hit = tac.hit_chance(b, me, t, w.get("location"), n)
        finally:
            me.active_weapon = held
        return f"{hit:.0%} {tac.extra_dice_cost[n]}AP"
    got = rs.tactics.boost_damage(me, w["ws"], t, w["loc"], n)
    if got is None:
        return ""
    dmg, dr = got
    return f"~{dmg:.1f}dmg DR{dr}"


@dataclass(frozen=True)
class Choice:
    action: Action
    group: str
    label: str  # the notation, as the plain game and the log write it
    odds: str
    explanation: str
    shown: str = ""  # what the panel shows: the notation with the target named last
    aim: bool = False  # 2d20: the answer aims first (orders.py)
    buy: int | None = None  # 2d20: d20s the player set for this attack (None: the rule)
    # 0% to hit: listed last in its group, greyed (the line games leave it out; here a
    # row is the only way to take it)
    hopeless: bool = False


def shown_text(a: Action, ids: list[str], actor: int) -> str:
    """The notation with what tells a choice apart first and the target last ("attack
    head  young_radscorpion_0"), so a narrow panel crops the name, not the body part."""
    if a.target is None:
        return a.text(ids, actor)
    who = "self" if a.target == actor else ids[a.target]
    return " ".join(p for p in (a.kind, a.option or "") if p) + "  " + who


def coded_text(b: Battle, a: Action, actor: int, slot: str) -> str:
    """An action whose notation reads as code ("draw_chem stimpak") in plain words, its
    target last ("first aid  self")."""
    if a.target is None:
        return label(b, a, actor, slot)
    who = "self" if a.target == actor else b.ids[a.target]
    return f"{label(b, a, actor, slot, short=True)}  {who}"


def choices(b: Battle, rs: Ruleset, dec: Decision, legal: list[Action],
            aim: dict[Action, bool] | None = None, buys: dict[Action, int] | None = None
            ) -> list[Choice]:
    """The decision's legal actions in table order, each with its group, odds and
    explanation; the number in each label is the one the plain game would take. 2d20
    attacks (orders.py): ``aim`` the player's aim first or not by action (else the aim
    rule), ``buys`` the d20s set by action; the odds count both, and the row says
    ``aim+`` and ``+N``."""
    from wasteland.cli.menu import hopeless
    from wasteland.cli.orders import ATTACKS, aims_first

    me = b.combatants[dec.combatant]
    aim, buys = aim or {}, buys or {}
    helps = any(a.kind in ATTACKS for a in legal) and aims_first(
        b, rs, me.slot, Action("attack", 0))
    out = []
    for a in legal:
        first = a.kind in ATTACKS and aims_first(b, rs, me.slot, a, aim.get(a), helps)
        n = buys.get(a) if a.kind in ATTACKS else None
        o = attack_odds(b, rs, me, a, True if first else None, n or 0)
        odds = o.text() if o is not None else window_odds(b, rs, dec, a)
        text = a.text(b.ids, me.slot)
        shown = (coded_text(b, a, me.slot, dec.slot) if coded(a) else
                 shown_text(a, b.ids, me.slot))
        if n is not None:
            head, _, who = shown.partition("  ")
            shown = f"{head} +{n}  {who}"
        lost = o is not None and round(100 * o.hit) == 0 and hopeless(b, rs, a, first)
        out.append(Choice(a, group_of(a), text, odds, explain(a, dec),
                          ("aim+" if first else "") + shown, first, n, lost))
    return out


def grouped(cs: list[Choice]) -> list[tuple[str, list[Choice]]]:
    """The non-empty groups in GROUPS order, each in table order but its choices at 0%
    to hit last."""
    return [(g, sorted((c for c in cs if c.group == g), key=lambda c: c.hopeless))
            for g in GROUPS if any(c.group == g for c in cs)]
