"""Plain words everywhere a person reads (issue 41, item 4): a short fight in each
ruleset, walked decision by decision, and a GM session, and every text a GM or player
reads of them - each menu entry of each legal action, the full-screen panel's rows and
explanations, every NPC's choice and reason, proposals, hints, help, the log - holds no
snake_case token (a word with an underscore) other than a combatant's id, which is the
name the GM types, and no field of the AI packet ("aggression 80", "chem_use ...").

The fights mix the packet and the search agent at a small budget on both sides, on maps
with chems, grenades, 2d20's d20s to buy and combat dice to add, first aid and reloads,
so that most kinds of action reach a menu."""

from __future__ import annotations

import io
import re
import typing
from collections.abc import Iterator

import pytest
from rich.console import Console

from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import load_scenario
from wasteland.bestiary.models import AIPacket
from wasteland.cli.gm import start_gm
from wasteland.cli.menu import labelled
from wasteland.cli.play import GameSetup
from wasteland.rules.events import CombatDiceRolled, Healed
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.words import explain, kind_name, plainly
from wasteland.tui.choices import choices

SNAKE = re.compile(r"[A-Za-z0-9.]+(?:_[A-Za-z0-9]+)+")
SEARCH = "search:rollouts=4,candidates=3,horizon=1"


def field_names() -> re.Pattern[str]:
    """A packet field named with its value, as a reason used to say it ("aggression 80",
    "distance snipe"); the snake_case fields are caught as snake_case already."""
    alts = []
    for name, info in AIPacket.model_fields.items():
        args = typing.get_args(info.annotation)
        values = [str(v) for v in args] if args else [r"\d+"]
        alts.append(rf"\b{name}\b[ :=]+(?:{'|'.join(values)})\b")
    return re.compile("|".join(alts))


FIELDS = field_names()


# what says nothing to a reader: empty brackets ("Medicine () = 1"), a spread of "?"
# ("-100% +-?")
EMPTY = re.compile(r"\(\)|\+-\?")


def internal(text: str, ids: set[str]) -> list[str]:
    """The snake_case tokens of ``text`` that are no combatant id, any packet field
    given with its value, and empty brackets or an unknown spread."""
    bad = [w for w in SNAKE.findall(text) if w not in ids]
    return bad + [m.group(0) for m in (*FIELDS.finditer(text), *EMPTY.finditer(text))]


def walk(ruleset: str, scenario: str, agents: tuple[str, str], seed: int, decisions: int
         ) -> tuple[list[str], set[str], set[str]]:
    """A fight played by ``agents`` (one per side) for at most ``decisions`` decisions:
    every text a person would read of it, the names a GM types (the combatants' ids, the
    scenario's), and the kinds offered."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario(scenario), seed)
    per_side = [make_agent(k, seed + i) for i, k in enumerate(agents)]
    texts = [e.text() for e in b.log]
    kinds: set[str] = set()
    for _ in range(decisions):
        if b.over:
            break
        v = view_of(rs, b)
        dec = v.decision
        me = dec.combatant
        legal = rs.legal_actions(b)
        kinds.update(a.kind for a in legal)
        texts += labelled(b, rs, dec.slot, legal, [a.text(b.ids, me) for a in legal])
        for c in choices(b, rs, dec, legal):
            texts += [c.shown, c.explanation]
        texts += [f"{kind_name(a.kind)}: {explain(a, ruleset, dec.slot)}" for a in legal]
        agent = per_side[b.combatants[me].side]
        action = agent.act(v)
        texts += [plainly(b, action, me, dec.slot), agent.last_reason]
        shown = len(b.log)
        rs.apply(b, action)
        texts += [e.text() for e in b.log[shown:]]
    return texts, {*b.ids, scenario}, kinds


FIGHTS = {rs: [("ruined_street", ("packet", SEARCH), 3, 100),
              ("robot_depot", (SEARCH, "packet"), 1, 70),
              (third, ("packet", "packet"), 2, 300)]
          for rs, third in (("pnp", "vault_corridor"), ("simple", "night_field"),
                            ("f2d20", "desert_wash"))}
# the kinds the walks must offer somewhere, so that their words are checked
WANTED = {
    "pnp": {"reload", "first_aid", "draw", "stimpak", "attack"},
    "simple": {"reload", "first_aid", "draw", "stimpak", "charge"},
    # 2d20 guns fire from the supply: no reload
    "f2d20": {"draw_chem", "first_aid", "rally_with", "ready_to", "buy", "boost", "draw"},
}


@pytest.mark.parametrize("ruleset", ["pnp", "simple", "f2d20"])
def test_every_text_of_a_fight_is_in_plain_words(ruleset):
    kinds: set[str] = set()
    bad: dict[str, str] = {}
    n = 0
    for scenario, agents, seed, decisions in FIGHTS[ruleset]:
        texts, ids, seen = walk(ruleset, scenario, agents, seed, decisions)
        kinds |= seen
        n += len(texts)
        for t in texts:
            for w in internal(t, ids):
                bad.setdefault(w, t)
    assert WANTED[ruleset] <= kinds, WANTED[ruleset] - kinds
    assert n > 2000
    assert not bad, "\n".join(f"{w!r}: {t}" for w, t in bad.items())


def driver(first: list[str]) -> Iterator[str]:
    """The GM's lines: ``first``, then at every decision the alternatives, the hint, and
    Enter (the hint, or the NPC's proposal); a bad action and an undo on the way; quit
    after sixty decisions."""
    yield from first
    for i in range(60):
        if i == 30:
            yield "fly"
            yield "undo"
        if i == 45:
            yield "help 1"
        yield from ("?", "hint", "")
    yield "quit"


@pytest.mark.parametrize("ruleset,scenario", [("pnp", "ruined_street"),
                                              ("simple", "ruined_street"),
                                              ("f2d20", "ruined_street")])
def test_a_gm_session_reads_in_plain_words(ruleset, scenario, tmp_path):
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup(ruleset, scenario, "0", 2, save_to=tmp_path / "gm.json", ai=SEARCH), con,
             driver(["help", "look", "set ask"]))
    out = con.file.getvalue().replace(str(tmp_path), "")
    assert "proposes:" in out and "hint:" in out and "undone:" in out
    assert out.rstrip().endswith(("won.", "Draw.")) or "resume with:\n  wasteland gm --resume" in out
    b_ids = set(re.findall(r"^\S.*? (\w+) (?:decides|could) \(", out, re.M))
    ids = b_ids | set(re.findall(r"^│ [ >] *\d+ (\S+) ", out, re.M))
    bad: dict[str, str] = {}
    for line in out.splitlines():
        if re.match(r"│ [#.]", line):  # a row of the map: its glyphs are no words
            continue
        for w in internal(line, ids):
            bad.setdefault(w, line)
    assert not bad, "\n".join(f"{w!r}: {t}" for w, t in bad.items())


def test_a_2d20_damage_line_adds_up_as_printed():
    e = CombatDiceRolled("ted", "torso", [1, 2, 3, 4, 5, 6, 1], 8, 2, [("Vicious", 2)], 3,
                         "physical DR", 5, "physical", 11, 16)
    text = e.text()
    assert "7 CD (1, 2, blank, blank, 1+effect, 1+effect, 1) = 6, 2 effects +2 Vicious = 8 " \
           "- physical DR 3 = 5 physical damage" in text
    half = CombatDiceRolled("ted", "torso", [2, 5, 3], 1, 1, [], 0, "physical DR", 1,
                            "physical", 15, 16)
    assert "3 CD (2, 1+effect, blank) = 3, 1 effect, halved = 1 - physical DR 0 = 1" in half.text()


def test_healing_without_dice_says_what_it_healed():
    aid = Healed("val", "ted", "first aid", "Medicine rank 2", [], 2, 14, 16)
    assert aid.text() == "val gives first aid to ted: Medicine rank 2, 2 HP healed (HP 14/16)"
    stim = Healed("ann", "ann", "stimpak", "4", [], 3, 12, 12)
    assert stim.text() == "ann uses a stimpak: up to 4, 3 HP healed (HP 12/12)"
    assert "()" not in Healed("ann", "ann", "stimpak", "4", [], 4, 9, 12).text()


def test_a_coded_notation_is_shown_in_words_and_still_taken_typed():
    """2d20: the menu says "take out a stimpak" and "draw <weapon>", not `draw_chem
    stimpak` or `draw 1`; the words and the old notation both choose it (saves and
    scripts keep the notation)."""
    from tests.agents.test_packets import scenario, start
    from wasteland.cli.prompt import ChoiceError, match
    from wasteland.rules.actions import Action
    from wasteland.rules.words import label

    rs, b = start("f2d20", scenario([[("vault_dweller", (2, 3))], [("raider", (8, 3))]]))
    me = b.combatants[0]
    legal = rs.legal_actions(b)
    chem, draw = Action("draw_chem", None, "stimpak"), Action("draw", None, "1")
    assert chem in legal and draw in legal
    notations = [a.text(b.ids, 0) for a in legal]
    menu = dict(zip(legal, labelled(b, rs, "act", legal, notations)))
    assert menu[chem] == "take out a stimpak"
    assert menu[draw] == f"draw {me.weapons[1].name}"
    plain = [label(b, a, 0, "act") for a in legal]
    for typed in ("draw_chem stimpak", "take out a stim", "draw_c st"):
        assert match(typed, legal, notations, plain) == chem, typed
    assert match("draw 1", legal, notations, plain) == draw
    # an error lists the actions as the menu names them
    with pytest.raises(ChoiceError) as e:
        match("fly", legal, notations, plain)
    assert "take out a stimpak" in str(e.value) and "draw_chem" not in str(e.value)
