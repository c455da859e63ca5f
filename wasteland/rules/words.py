"""Actions in plain words (issue 26, item 5): for every kind of action each ruleset
offers, a short label that says what this very action does ("two-weapon attack on
raider_0: 10mm pistol and knife, -8 each", "draw hunting rifle") and a one-line
explanation of the kind under that ruleset's rules.

Display and input matching only: the notation ("attack2 raider_0", "draw 1") stays what
a player may type, what the log prints and what saves and replays read."""

from __future__ import annotations

from wasteland.rules.actions import Action, parse_action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import NotationError
from wasteland.rules.tactics import tactics_of

# what any ruleset means by a kind, unless it says otherwise below
COMMON: dict[str, str] = {
    "end": "End the turn; in a reaction, let the moment pass.",
    "move": "Walk toward or away from that combatant, as far as this move allows.",
    "attack": "Attack with the weapon in hand; naming a body part makes it a called shot "
              "(harder to hit, worse for the target).",
    "reload": "Reload the weapon in hand from the ammunition you carry.",
    "draw": "Put the weapon in hand away and take out another (the number is its place "
            "in your gear).",
    "cover": "Move to the nearest spot that gives cover against your enemies.",
    "stimpak": "Use a stimpak on yourself or on an ally next to you.",
    "first_aid": "First aid on yourself or an ally next to you: a Medicine check to heal "
                 "or stop the bleeding.",
    "ready": "Ready an attack with the weapon in hand: it goes off when an enemy comes "
             "into reach or sight.",
    "attack2": "Attack with both one-handed weapons at once; each attack takes -8 "
               "(two weapons).",
    "prone": "Drop prone: harder to hit from afar, easier up close, slow to move.",
    "stand": "Get up from prone.",
    "sprint": "Run toward or away from that combatant: farther than a walk, at the cost "
              "of your other action.",
}

BY_RULESET: dict[str, dict[str, str]] = {
    "pnp": {
        "move": "Walk up to your Speed in squares toward or away from that combatant.",
        "step": "A free 5-ft step toward or away from that combatant, offered between "
                "turns.",
        "vats": "V.A.T.S.: a called shot at a body part paid with AP (head 3, arm or leg "
                "2), without the called-shot penalty.",
        "whip": "Pistol whip: club the target with the gun in hand (melee, -1 to hit, no "
                "ammunition spent).",
        "pair": "Two one-handed actions at once, each at -8: an attack and a stimpak on "
                "yourself, or an attack and a pistol whip with the other gun.",
        "reload": "Reload the weapon in hand: 2 rounds per action for an internal "
                  "magazine; a clip or battery takes 2 actions, a complex one 3.",
        "warmup": "Spin up the weapon in hand: its rate of fire rises for the next shot.",
        "speak": "Say a short line (the free action between turns).",
        "extinguish": "Put out the fire on yourself or an ally next to you (the Large "
                      "action).",
        "prepare": "Ready a non-attack for later in the round (cover, a stimpak or a "
                   "reload): taken when an enemy you see ends a move.",
        "first_aid": "First aid (Medicine) on yourself or an ally next to you.",
        "draw": "Take another weapon in hand (a Small action; the number is its place in "
                "your gear).",
        "cover": "Walk to the nearest square with cover against your enemies.",
    },
    "simple": {
        "move": "Walk toward or away from that combatant (your move this round).",
        "sprint": "Run toward or away from that combatant: farther, but no charge or "
                  "action this round.",
        "draw": "Put away what you hold and take out another weapon; two items or a "
                "large one cost the round's charge and action.",
        "crouch": "Crouch (free from standing): a smaller target, slower to move.",
        "prone": "Drop prone (free): a much smaller target, you crawl.",
        "stand": "Stand up (your move; from prone, no charge or action this round).",
        "evade": "Evade: -5 to attacks on you this round; no charge or action.",
        "charge": "Charge: run into melee with that combatant and strike in one go.",
        "overwatch": "Watch a narrow cone toward that combatant: you fire at the first "
                     "enemy to enter it next move phase.",
        "unload": "Unload the weapon in hand to clear its jam.",
        "aimed": "A called shot at the eyes or groin: hard to hit, with an extra effect.",
        "called": "A called shot at the torso.",
        "repair": "Mend the damaged weapon in hand (a Mechanics check).",
        "disarm": "Take the weapon out of that combatant's hands (a Melee check); it "
                  "needs your hands free.",
        "drop": "Drop the weapon in hand (free); it stays on the ground.",
        "stow": "Put away the item in hand (a large one costs the round's action).",
        "first_aid": "First aid (a Medic check) on yourself or an ally next to you: heals, "
                     "and stops bleeding out.",
    },
    "f2d20": {
        "move": "Move one zone toward or away from that combatant (a minor action).",
        "sprint": "Sprint two zones toward or away from that combatant (the major "
                  "action).",
        "cover": "Burrow out of sight (the turn's movement).",
        "attack": "Attack with the weapon in hand: a test of attribute + skill against "
                  "the difficulty; a hit rolls the weapon's combat dice.",
        "called": "A called shot at the torso: you pick where it hits, +1 difficulty.",
        "aim": "Aim (a minor action): reroll one d20 of your first attack this round.",
        "defend": "Defend (the major action): harder to hit until your next turn.",
        "rally": "Rally (the major action): a test whose successes add AP to your side's "
                 "pool.",
        "rally_with": "Rally with Charisma + Speech instead.",
        "buy": "Buy extra d20s for this test from your side's AP (1, 3 or 6 AP for 1, 2 "
               "or 3 dice).",
        "boost": "After a hit: more combat dice, paid with AP (melee) or ammunition (guns).",
        # in the defend window (a reaction to an attack) a boost buys Defense instead
        "boost@defend": "Spend 2 AP for another +1 Defense against this attack, or keep "
                        "them.",
        "noroll": "Take the automatic success (difficulty 0) without rolling.",
        "draw_chem": "Take a chem out (a minor action) so you can use it next.",
        "stimpak": "Use the stimpak you took out on yourself or an ally in reach.",
        "radaway": "Use the RadAway you took out: it removes radiation damage.",
        "assist": "Help an ally: your die joins its next test.",
        "ready_to": "Ready a Defend for when an enemy comes within striking distance.",
        "first_aid": "First aid (a Medicine test) on an ally or yourself: stabilises the "
                     "dying, treats an injury.",
        "draw": "Take another weapon in hand (a minor action; the number is its place in "
                "your gear).",
        "prone": "Drop prone (a minor action): harder to hit from afar, easier up close.",
        "stand": "Stand up from prone (the turn's movement).",
    },
}


def explain(a: Action | str, ruleset: str, slot: str | None = None) -> str:
    """One line saying what the kind of ``a`` does under ``ruleset``; 2d20's defend
    window (``slot`` "defend") gives its boost a meaning of its own."""
    kind = a if isinstance(a, str) else a.kind
    own = BY_RULESET.get(ruleset, {})
    got = (own.get(f"{kind}@{slot}") if slot else None) or own.get(kind) or COMMON.get(kind)
    return got or kind.replace("_", " ") + "."


def _who(b: Battle, slot: int | None, actor: int) -> str:
    if slot is None:
        return "?"
    return "yourself" if slot == actor else b.ids[slot]


def label(b: Battle, a: Action, actor: int, slot: str | None = None, short: bool = False
          ) -> str:
    """``a`` in plain words for combatant ``actor`` at a decision in ``slot``; ``short``:
    without the target, for a menu that shows the notation (which names it) beside."""
    c = b.combatants[actor]
    k, o = a.kind, a.option
    t = _who(b, a.target, actor)
    weapon = c.weapon.name
    if short and a.target is not None:
        got = _short(c, a, weapon)
        if got is not None:
            return got
    if k == "end":
        return "let it pass" if b.reactions else "end the turn"
    if k in ("move", "sprint", "step"):
        verb = {"move": "walk", "sprint": "sprint", "step": "5-ft step"}[k]
        return f"{verb} {'toward' if o == 'toward' else 'away from'} {t}"
    if k in ("attack", "called", "aimed"):
        return f"called shot at {t}'s {o}" if o else f"attack {t} with {weapon}"
    if k == "vats":
        cost = tactics_of(b).vats_cost.get(o or "", 0)
        return f"V.A.T.S. shot at {t}'s {o}, {cost} AP"
    if k == "attack2":
        other = _second_weapon(c)
        both = f"{weapon} and {other}" if other else "both weapons"
        return f"two-weapon attack on {t}: {both}, -8 each"
    if k == "whip":
        return f"pistol whip {t} with {weapon}"
    if k == "pair":
        if o == "stimpak":
            return f"attack {t} and stimpak yourself at once, -8 to the attack"
        other = _second_weapon(c) or "the other gun"
        return f"attack {t} and pistol whip with {other} at once, -8 each"
    if k == "draw":
        i = int(o or 0)
        return f"draw {c.weapons[i].name}" if i < len(c.weapons) else f"draw weapon {i}"
    if k == "prepare":
        return {"cover": "ready to take cover", "stimpak": "ready a stimpak",
                "reload": "ready a reload"}.get(o or "", f"ready {o}")
    if k == "ready_to":
        return "ready a Defend"
    if k == "draw_chem":
        return "take out RadAway" if o == "radaway" else "take out a stimpak"
    if k == "buy":
        n = int(o or 0)
        if n == 0:
            return "no extra d20s"
        costs = tactics_of(b).extra_dice_cost
        price = f" for {costs[n]} AP" if n < len(costs) else ""
        return f"buy {n} more d20{'s' if n > 1 else ''}{price}"
    if k == "boost":
        n = int(o or 0)
        # a line that does not name the decision's slot: the window open now says it
        window = slot or (b.book.open_window() or {}).get("kind")
        if window == "defend":
            return "2 AP for +1 Defense" if n else "keep the AP"
        return ("no extra combat dice" if n == 0 else
                f"{n} more combat di{'c' if n > 1 else ''}e")
    simple_words = {
        "reload": f"reload {weapon}", "ready": f"ready an attack with {weapon}",
        "warmup": f"warm up {weapon}", "cover": "take cover", "aim": "aim",
        "defend": "defend", "rally": "rally (AP for your side)",
        "rally_with": "rally with Charisma + Speech", "speak": "say a line",
        "prone": "drop prone", "stand": "stand up", "noroll": "succeed without rolling",
        "crouch": "crouch", "evade": "evade", "unload": f"unload {weapon} to clear the jam",
        "repair": f"repair {weapon}", "drop": f"drop {weapon}", "stow": f"put away {weapon}",
    }
    if k in simple_words:
        return simple_words[k]
    targeted = {
        "stimpak": "stimpak {t}", "first_aid": "first aid on {t}", "radaway": "RadAway on {t}",
        "extinguish": "put out the fire on {t}", "assist": "assist {t}",
        "charge": "charge {t}", "overwatch": "overwatch toward {t}", "disarm": "disarm {t}",
    }
    if k in targeted:
        return targeted[k].format(t=t)
    return a.text(b.ids, actor).replace("_", " ")


def _short(c, a: Action, weapon: str) -> str | None:  # noqa: ANN001 - a Combatant
    """The label of a targeted action without its target, where it reads well so."""
    k, o = a.kind, a.option
    if k in ("attack", "called", "aimed") and o:
        return f"called shot at the {o}"
    if k == "vats":
        return f"V.A.T.S. shot at the {o}"
    if k == "attack2":
        other = _second_weapon(c)
        return f"two weapons: {weapon} and {other}, -8 each" if other else (
            "two weapons, -8 each")
    if k == "whip":
        return f"pistol whip with {weapon}"
    if k == "pair":
        if o == "stimpak":
            return "attack and stimpak yourself at once, -8 to the attack"
        return f"attack and pistol whip with {_second_weapon(c) or 'the other gun'}, -8 each"
    if k == "step":
        return "5-ft step"
    return {"first_aid": "first aid", "extinguish": "put out the fire",
            "radaway": "use RadAway", "overwatch": "watch a cone that way"}.get(k)


def _second_weapon(c) -> str | None:  # noqa: ANN001 - a Combatant
    """The other one-handed weapon a two-weapon action uses, by name."""
    if c.weapon.hands != 1:
        return None
    for i, w in enumerate(c.weapons):
        if i != c.active_weapon and w.hands == 1:
            return str(w.name)
    return None


# kinds whose notation already reads as plain words: the menu shows no label for them
PLAIN = frozenset({"end", "move", "sprint", "attack", "reload", "cover", "aim", "defend",
                   "prone", "stand", "crouch", "evade", "charge", "stimpak", "assist",
                   "rally", "speak", "repair", "drop", "disarm"})


# plain kinds whose word means something else under a ruleset: 2d20's cover is a burrow
RELABELLED: dict[str, frozenset[str]] = {"f2d20": frozenset({"cover"})}


# kinds whose notation reads as code ("draw_chem stimpak", "draw 1", "buy 0"): what a
# person is shown of them is their plain words, which may be typed as well as the
# notation (still accepted: saves and replays hold it)
CODED = frozenset({"draw", "buy", "boost", "noroll", "prepare", "first_aid", "draw_chem",
                   "rally_with", "ready_to"})


def coded(a: Action) -> bool:
    return a.kind in CODED


def plainly(b: Battle, a: Action, actor: int, slot: str | None = None) -> str:
    """``a`` as a line tells it (an NPC's choice, a proposal, a hint, an answer taken for
    the player): the notation where it reads as words ("attack raider_0"), else its plain
    words ("take out a stimpak")."""
    return label(b, a, actor, slot) if coded(a) else a.text(b.ids, actor)


def plain_move(b: Battle, move: str) -> str:
    """A line of the history ("raider_0: draw_chem stimpak") as a line tells it
    ("raider_0: take out a stimpak"); anything else (dice, a newcomer, a GM's edit) as
    it is."""
    who, sep, notation = move.partition(": ")
    if not sep or who not in b.ids:
        return move
    actor = b.ids.index(who)
    try:
        a = parse_action(notation, b.ids, actor)
    except NotationError:
        return move
    return f"{who}: {plainly(b, a, actor)}"


def entry(b: Battle, a: Action, actor: int, slot: str | None = None, short: bool = True
          ) -> str:
    """``a`` as a menu lists it: the notation, with its plain words beside it where they
    add something ("attack2 raider_0 - two weapons: ..."), or the plain words alone where
    the notation reads as code ("take out a stimpak"); ``short`` False: the words beside
    the notation in full, its target named again (a hint's line)."""
    if coded(a):
        return label(b, a, actor, slot)
    plain = shown_label(b, a, actor, slot) if short else label(b, a, actor, slot)
    notation = a.text(b.ids, actor)
    return f"{notation} - {plain}" if plain else notation


# what a kind is called where a line names the kind itself (help's list of the actions)
KIND_NAMES = {"draw_chem": "take out a chem", "rally_with": "rally with Speech",
              "ready_to": "ready a Defend", "noroll": "no roll", "buy": "buy d20s",
              "boost": "boost", "attack2": "two-weapon attack", "whip": "pistol whip",
              "pair": "two actions at once", "vats": "V.A.T.S.", "warmup": "warm up",
              "draw": "draw a weapon"}


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind) or kind.replace("_", " ")


def shown_label(b: Battle, a: Action, actor: int, slot: str | None = None) -> str | None:
    """The label a menu shows beside the notation, or None where the notation says it
    (``attack raider_0``, ``reload``); f2d20's cover is a burrow, so it is labelled."""
    if (a.kind in PLAIN and a.option is None
            and a.kind not in RELABELLED.get(b.ruleset, frozenset())):
        return None
    if a.kind in ("move", "sprint"):
        return None
    return label(b, a, actor, slot, short=True)
