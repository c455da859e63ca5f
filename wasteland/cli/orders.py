"""Fewer questions for the player (issue 13): one answer carries what the decisions right
after it need, and standing table rules answer 2d20's windows, so a player is asked real
choices only, and fewer of them. Nothing is removed: every choice stays reachable (a word
added to an answer, a `set` command, a key), and every decision taken for the player is
logged with its reason.

An answer is an action and what goes with it (2d20):

- ``+N``: the d20s to buy for the attack (0-3; 1, 3, 6 AP), answered in the dice window
  that follows without asking. Without it the ``buy`` rule decides: ``auto`` takes what
  the AI (the packet agent) buys there, ``ask`` asks.
- ``aim`` / ``noaim``: aim first (a minor action, a reroll on the round's first attack),
  then attack. Without either the ``aim`` rule decides: ``auto`` aims first when the
  minor action is still free and the attack is the round's first (Aim helps, costs
  nothing), ``no`` never unless asked.
- ``; ...``: the rest of the turn, typed after the first action ("move toward
  raider_0; attack raider_0"): each part is taken at the combatant's next decision of
  the same turn (not a reaction, not a 2d20 window) while it is legal; one that is not
  is dropped, said, and the player is asked.
- ``keep``: keep the turn open after this action. Without it the ``end`` rule decides:
  ``auto`` ends the turn once the major action is spent (what is left then is an extra
  action bought with AP, or a minor action a player takes before the major one), ``ask``
  asks. Simple (a decision per phase) has the same rule and ``keep`` for its move phase:
  once the move-phase option is spent, what is left is ``end`` or a free drop (prone,
  the item in hand), so its move phase ends. Its charge and action phases end with their
  one option by themselves.

The ``boost`` rule answers the window after a hit (combat dice paid with AP or
ammunition): ``auto`` the AI's choice, ``max`` the most, ``none`` nothing, ``ask``.

The rules are kept in the save (the session's options, ``rule_*``). ``auto_answer`` is
the one place that decides whether a decision is answered without asking; the line game,
the full-screen game and benchmarks/player_prompts.py all call it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from wasteland.rules.actions import Action
from wasteland.rules.battle import Battle
from wasteland.rules.protocol import Ruleset

RULES: dict[str, tuple[str, ...]] = {
    "buy": ("auto", "ask"),
    "boost": ("auto", "ask", "max", "none"),
    "aim": ("auto", "no"),
    "end": ("auto", "ask"),
}
DEFAULTS = {name: values[0] for name, values in RULES.items()}
MEANING = {
    ("buy", "auto"): "an attack without +N buys the d20s the AI would",
    ("buy", "ask"): "an attack without +N asks how many d20s to buy",
    ("boost", "auto"): "after a hit, the combat dice the AI would add",
    ("boost", "ask"): "after a hit, asks how many combat dice to add",
    ("boost", "max"): "after a hit, as many combat dice as allowed",
    ("boost", "none"): "after a hit, no extra combat dice",
    ("aim", "auto"): "an attack aims first while the minor action is free (noaim: not)",
    ("aim", "no"): "an attack does not aim first unless it says aim",
    ("end", "auto"): "the turn (Simple: the move phase) ends once the major action (Simple: "
                     "the move) is spent (keep: goes on)",
    ("end", "ask"): "asks whether to end the turn",
}
PREFIX = "rule_"
SAVED_ORDERS = "answer_orders"  # the session option that keeps the last answer's orders
ATTACKS = ("attack", "called")
MAX_BUY = 3


class OrderError(ValueError):
    """An answer whose extras do not fit the action or the moment; one line."""


def rules_of(b: Battle) -> dict[str, str]:
    """The table rules in force: the save's, else the defaults."""
    opts = b.session.get("options", {}) if b.session else {}
    out = {}
    for name, values in RULES.items():
        v = opts.get(PREFIX + name)
        out[name] = v if v in values else DEFAULTS[name]
    return out


def rules_changed(b: Battle) -> str:
    """The rules that differ from the defaults ("default" when none does), short."""
    r = rules_of(b)
    changed = [f"{n} {r[n]}" for n in RULES if r[n] != DEFAULTS[n]]
    return ", ".join(changed) if changed else "default (all auto)"


def cycle_rule(b: Battle, name: str) -> str:
    """The rule ``name`` set to its next value; the line saying what it does now."""
    values = RULES[name]
    now = rules_of(b)[name]
    return set_rule(b, [name, values[(values.index(now) + 1) % len(values)]])


def rules_line(b: Battle) -> str:
    """The rules in one short line, as the screens show them."""
    r = rules_of(b)
    if len(set(r.values())) == 1:
        return f"all {r['buy']}"
    return ", ".join(f"{n} {r[n]}" for n in RULES)


def set_rule(b: Battle, words: list[str]) -> str:
    """``set`` (show), ``set NAME VALUE``, or ``set ask`` / ``set auto`` (every rule);
    the line to show. Raises OrderError for a name or value that is not one."""
    if not words:
        r = rules_of(b)
        return "table rules (set NAME VALUE; set ask / set auto for all): " + "; ".join(
            f"{n} {r[n]} ({MEANING[n, r[n]]}; or {'/'.join(v for v in RULES[n] if v != r[n])})"
            for n in RULES)
    opts = b.session.setdefault("options", {})
    if len(words) == 1 and words[0] in ("ask", "auto"):
        for n in RULES:
            opts[PREFIX + n] = words[0] if words[0] in RULES[n] else DEFAULTS[n]
        if words[0] == "ask":
            opts[PREFIX + "aim"] = "no"
        return f"table rules: {rules_line(b)}"
    if len(words) != 2 or words[0] not in RULES:
        raise OrderError(f"usage: set NAME VALUE, NAME one of {', '.join(RULES)} "
                         f"(or set ask / set auto)")
    name, value = words
    if value not in RULES[name]:
        raise OrderError(f"set {name}: one of {', '.join(RULES[name])}")
    opts[PREFIX + name] = value
    return f"{name} {value}: {MEANING[name, value]}"


@dataclass(frozen=True)
class Answer:
    """What one answer of the player's asks for: an action, and (2d20) the extras."""

    action: Action
    buy: int | None = None  # +N: d20s to buy for the attack; None: the buy rule
    aim: bool | None = None  # aim first; None: the aim rule
    keep: bool = False  # keep the turn open after it

    def text(self, ids: list[str], actor: int) -> str:
        """The answer as a player types it: ``aim attack raider_1 +2 keep``."""
        parts = [self.action.text(ids, actor)]
        if self.aim is True:
            parts.insert(0, "aim")
        elif self.aim is False:
            parts.append("noaim")
        if self.buy is not None:
            parts.append(f"+{self.buy}")
        if self.keep:
            parts.append("keep")
        return " ".join(parts)

    def said(self, b: Battle, actor: int) -> str:
        """The answer as a line tells it: its action in plain words where the notation
        reads as code (words.plainly), the extras as typed."""
        from wasteland.rules.words import plainly

        notation = self.action.text(b.ids, actor)
        return self.text(b.ids, actor).replace(notation, plainly(b, self.action, actor), 1)


def split_extras(text: str) -> tuple[str, int | None, bool | None, bool]:
    """The typed answer without its extras, and the extras: ``+N``, ``aim`` (with other
    words: the action alone is Aim), ``noaim``, ``keep``."""
    words = text.split()
    buy: int | None = None
    aim: bool | None = None
    keep = False
    rest = []
    for w in words:
        lw = w.lower()
        if len(lw) > 1 and lw[0] == "+" and lw[1:].isascii() and lw[1:].isdigit():
            buy = int(lw[1:])
        elif lw == "noaim":
            aim = False
        elif lw == "keep":
            keep = True
        else:
            rest.append(w)
    if len(rest) > 1 and rest[0].lower() == "aim":
        aim = True
        rest = rest[1:]
    return " ".join(rest), buy, aim, keep


def aim_helps(b: Battle, rs: Ruleset, slot: int) -> bool:
    """2d20, the combatant's own turn: Aim is legal, costs nothing (the minor action is
    free) and would reroll (no attack yet this round)."""
    if not rs.tactics.aims or b.over or b.book.open_window() is not None or b.reactions:
        return False
    c = b.combatants[slot]
    econ = b.book.economy()
    return (econ is not None and econ.minor == 0 and c.cond.get("attacked") != b.round
            and Action("aim") in rs.legal_actions(b))


def aims_first(b: Battle, rs: Ruleset, slot: int, action: Action, aim: bool | None = None,
               helps: bool | None = None) -> bool:
    """Whether the answer ``action`` (with ``aim`` as typed) aims before it attacks: an
    attack on the combatant's own turn with Aim legal, asked for or (the aim rule
    ``auto``) free and helpful. ``helps``: aim_helps, when the caller has it."""
    if action.kind not in ATTACKS or aim is False or not rs.tactics.aims:
        return False
    if aim is True:
        return (b.book.open_window() is None and not b.reactions
                and Action("aim") in rs.legal_actions(b))
    if rules_of(b)["aim"] != "auto":
        return False
    return aim_helps(b, rs, slot) if helps is None else helps


@dataclass
class Orders:
    """What the player's last answer asked of the decisions after it, for the turn it was
    given in (they lapse with it)."""

    who: int
    round: int
    turn: int
    attack: Action | None = None  # to make once aimed
    buy: int | None = None  # d20s to buy in the attack's dice window
    keep: bool = False
    # the rest of the turn typed with the answer ("move toward raider_0; attack raider_0"):
    # each taken at the combatant's next decision of this turn, if it is legal then
    then: tuple[str, ...] = ()

    def current(self, b: Battle, who: int) -> bool:
        return self.who == who and self.round == b.round and self.turn == b.turn

    def taken(self, action: Action) -> None:
        """An action taken for the player: the attack that followed Aim is made."""
        if action == self.attack:
            self.attack = None

    def dumps(self) -> str:
        """As a save keeps them (the session's options), so a resumed game goes on
        answering as the player asked."""
        a = self.attack
        return json.dumps([self.who, self.round, self.turn,
                           None if a is None else [a.kind, a.target, a.option],
                           self.buy, self.keep, list(self.then)])


def load_orders(text: object) -> Orders | None:
    """Orders.dumps read back; None for nothing saved, or anything else."""
    if not isinstance(text, str):
        return None
    try:
        who, rnd, turn, a, buy, keep, then = json.loads(text)
        attack = None if a is None else Action(str(a[0]), a[1], a[2])
        return Orders(int(who), int(rnd), int(turn), attack,
                      None if buy is None else int(buy), bool(keep),
                      tuple(str(t) for t in then))
    except (ValueError, TypeError, IndexError):
        return None


def following(b: Battle, old: Orders | None, new: Orders) -> Orders:
    """The orders in force after an answer whose own orders are ``new``: those, unless
    the answer was another combatant's (a reaction to the move under way: a party
    member's 5-ft step) and asks nothing of the decisions after it, while the turn typed
    before it ("move toward x; attack x") still has parts to take in this turn: then
    those go on once the reaction is answered."""
    if (old is not None and old.who != new.who and old.current(b, old.who)
            and (old.then or old.attack is not None)
            and new.attack is None and new.buy is None and not new.keep and not new.then):
        return old
    return new


def begin(b: Battle, rs: Ruleset, slot: int, answer: Answer) -> tuple[Action, Orders]:
    """The first engine action of ``answer`` (Aim, when it aims first) and the orders for
    the decisions after it. Raises OrderError when the extras do not fit."""
    a = answer.action
    if (answer.buy is not None or answer.aim is not None) and not rs.tactics.ap_economy:
        raise OrderError("+N, aim and noaim go with 2d20 actions only")
    if answer.keep and not (rs.tactics.ap_economy or rs.tactics.phases):
        raise OrderError("keep goes with 2d20 and Simple actions only")
    if answer.buy is not None:
        costs = rs.tactics.extra_dice_cost
        if a.kind not in ATTACKS:
            raise OrderError(f"+{answer.buy} buys d20s for an attack; "
                             f"{Answer(a).said(b, slot)} is not one")
        if answer.buy > MAX_BUY:
            raise OrderError(f"+{answer.buy}: at most +{MAX_BUY} d20s")
        pool = b.book.pool(b.combatants[slot].side)
        cost = costs[answer.buy]
        if cost > pool:
            raise OrderError(f"+{answer.buy} d20s cost {cost} AP; the pool has {pool}")
    if answer.aim is True and not aims_first(b, rs, slot, a, True):
        raise OrderError("aim goes with an attack on your turn, while Aim is legal")
    orders = Orders(slot, b.round, b.turn, buy=answer.buy, keep=answer.keep)
    if aims_first(b, rs, slot, a, answer.aim):
        orders.attack = a
        return Action("aim"), orders
    return a, orders


Advice = Callable[[], tuple[Action, str]]


def auto_answer(b: Battle, rs: Ruleset, orders: Orders | None, advice: Advice
                ) -> tuple[Action, str] | None:
    """The action the game takes for the player at this decision without asking, and
    why (what the log says), or None when the player is asked. ``orders``: those of the
    player's last answer; ``advice()``: what the AI would choose now, and why."""
    if b.over:
        return None
    legal = rs.legal_actions(b)
    if len(legal) == 1:
        return legal[0], "the only choice"
    if rs.tactics.phases:
        return phase_end(b, rs, orders, legal)
    if not rs.tactics.ap_economy:  # the rules below pace an AP economy's windows (2d20)
        return None
    dec = rs.decider(b)
    mine = orders is not None and orders.current(b, dec.combatant)
    rules = rules_of(b)
    if dec.slot == "dice":
        if mine and orders is not None and orders.buy is not None:
            a = Action("buy", None, str(orders.buy))
            if a in legal:
                return a, f"+{orders.buy} with the attack"
        if rules["buy"] == "auto":
            a, why = advice()
            return a, f"buy auto: {why}"
        return None
    if dec.slot == "boost":
        mode = rules["boost"]
        if mode == "auto":
            a, why = advice()
            return a, f"boost auto: {why}"
        if mode in ("max", "none"):
            n = max(int(x.option or 0) for x in legal) if mode == "max" else 0
            return Action("boost", None, str(n)), f"boost {mode}"
        return None
    if dec.slot != "act" or dec.reaction is not None or not mine or orders is None:
        return None
    if orders.attack is not None:  # Orders.taken clears it once made
        a = orders.attack
        return (a, "aimed first, then the attack") if a in legal else None
    econ = b.book.economy()
    if (rules["end"] == "auto" and not orders.keep and econ is not None and econ.major >= 1
            and Action("end") in legal):
        return Action("end"), "end auto: the major action is spent; keep goes on"
    return None


def phase_end(b: Battle, rs: Ruleset, orders: Orders | None, legal: list[Action]
              ) -> tuple[Action, str] | None:
    """Simple's ``end`` rule: once the combatant's move-phase option is spent (``main``),
    what is left is ``end`` or a free drop, so its move phase ends unless the answer
    said ``keep``. Only right after its own answer (the orders of it), never for a
    reaction; the charge and action phases end with their option by themselves."""
    if (rules_of(b)["end"] != "auto" or b.reactions or b.slot != "move"
            or not b.book.main_taken() or Action("end") not in legal):
        return None
    if orders is None or orders.keep or not orders.current(b, rs.decider(b).combatant):
        return None
    return Action("end"), "end auto: the move is spent; keep goes on"


def ai_buy(b: Battle, rs: Ruleset, slot: int, action: Action, aim: bool
           ) -> tuple[int, str] | None:
    """What the AI (a packet agent) would buy in the dice window that attack ``action``
    opens (after Aim when ``aim``): (d20s, why), worked out on the battle and put back;
    None when no d20 can be bought (an empty pool: no window)."""
    if not rs.tactics.extra_dice_cost or b.book.pool(b.combatants[slot].side) < 1:
        return None
    from wasteland.agents.base import view_of
    from wasteland.agents.packets import PacketAgent

    snap = (b.state(), len(b.log), len(b.moves))
    try:
        if aim:
            rs.apply(b, Action("aim"))
        rs.apply(b, action)
        if rs.decider(b).slot != "dice":
            return None
        agent = PacketAgent(b.seed)  # its windows use no dice: any seed decides alike
        a = agent.act(view_of(rs, b))
        return int(a.option or 0) if a.kind == "buy" else 0, str(agent.last_reason)
    finally:
        b.restore(snap[0])
        del b.log[snap[1]:]
        del b.moves[snap[2]:]
