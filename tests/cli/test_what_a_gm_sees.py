"""What a GM looks at in the line games (issue 41, item 6): Simple's phase headers, the
legend under the map, menus without the options at 0% to hit, and the summary at the end
of a plain game."""

from __future__ import annotations

import io
import re
from itertools import cycle, islice
from pathlib import Path

from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.menu import hopeless as is_hopeless
from wasteland.cli.menu import menu_order
from wasteland.cli.play import GameSetup, begin, start
from wasteland.cli.summary import table_lines
from wasteland.rules import saves
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.textmap import legend_line, render_text


def console() -> Console:
    return Console(file=io.StringIO(), width=100)


def text_of(con: Console) -> str:
    return con.file.getvalue()  # type: ignore[attr-defined]


def gm_session(tmp_path: Path, ruleset: str, lines: list[str], seed: int = 1) -> str:
    con = console()
    start_gm(GameSetup(ruleset, "ruined_street", seed=seed, save_to=tmp_path / "g.json"), con,
             iter(lines))
    return text_of(con)


# --- Simple's phases -----------------------------------------------------------------

def test_simple_gm_says_each_phase_as_it_begins_where_it_begins(tmp_path):
    # the party takes the AI's choice (hint, then Enter), the NPCs' proposals are accepted
    out = gm_session(tmp_path, "simple", list(islice(cycle(["hint", ""]), 160)))
    lines = out.splitlines()
    marks = [(i, line) for i, line in enumerate(lines) if line.startswith("-- ")]
    heads = [line for _, line in marks]
    assert heads[0] == "-- move phase: lowest sequence first"  # before the first decision
    rounds = [k for k, h in enumerate(heads) if h.startswith("-- Round")]
    assert len(rounds) >= 2
    for a, z in zip(rounds, rounds[1:]):  # a whole round: each phase once, in order
        phases = [h.split(":")[0] for h in heads[a + 1:z]]
        assert phases == ["-- move phase", "-- charge phase", "-- action phase"], heads[a:z]
    # a phase nobody acts in is said too (this fight's first charge phase)
    assert "-- charge phase: nobody can charge" in heads
    # a phase someone acts in is said just before the turn that opens it
    for i, line in marks[1:]:
        if line.endswith(" first"):
            assert lines[i + 1].endswith("'s turn."), lines[i - 1:i + 2]


def test_no_phase_headers_under_the_other_rulesets(tmp_path):
    out = gm_session(tmp_path, "pnp", list(islice(cycle(["hint", ""]), 40)))
    assert " phase: " not in out


# --- the legend under the map ------------------------------------------------------

def test_the_legend_names_the_marks_this_map_has_and_no_others(tmp_path):
    rs = get_ruleset("pnp")
    b = begin("play", {"ruleset": "pnp", "scenario": "ruined_street", "seed": 1}, None)
    text = render_text(b, rs, last_events=0, legend=True).split("\n")
    assert text[b.grid.height] == ("# wall  , light cover  = heavy cover  % full cover  "
                                   "^ high ground")
    duel = begin("play", {"ruleset": "pnp", "scenario": "duel", "seed": 1}, None)
    assert legend_line(render_text(duel, rs, 0).split("\n")[:duel.grid.height]) == (
        "# wall  , light cover")
    assert legend_line(["#.x_~"]) == "# wall  ~ obscured (dark, smoke, fog)  _ down  x dead"
    # the map the GM looks at has it, in each ruleset
    for ruleset in ("simple", "f2d20"):
        out = gm_session(tmp_path, ruleset, ["quit"])
        assert "^ high ground" in out and "% full cover" in out, ruleset


# --- options at 0% to hit ----------------------------------------------------------

def test_attacks_at_0_percent_are_not_numbered_but_typed_by_name_they_are_taken(tmp_path):
    # 2d20's ruined_street, seed 3: drifter's called shots on raider_1 have no chance
    b = begin("play", {"ruleset": "f2d20", "scenario": "ruined_street", "seed": 3}, None)
    rs = get_ruleset("f2d20")
    legal = rs.legal_actions(b)
    order, numbered = menu_order(b, rs, legal)
    hidden = [legal[i].text(b.ids, 1) for i in order[numbered:]]
    assert "attack raider_1 head" in hidden and len(hidden) == 4
    assert sorted(order) == list(range(len(legal)))
    con = console()
    start(GameSetup("f2d20", "ruined_street", "0", 3, save_to=tmp_path / "p.json"), con,
          iter([str(numbered + 1), "3", "attack raider_1 head", "quit"]))
    out = text_of(con)
    menu = out.split("drifter decides (act):")[1].split("> ")[0]
    assert "raider_1 head" not in menu and f"{numbered}) " in menu
    assert f"{numbered + 1}) " not in menu
    assert "(4 more at 0% to hit are not listed; typed by name, they are taken)" in menu
    # a number past the list is refused; the numbers shown are the numbers taken
    assert f"no action number {numbered + 1}; choose 1-{numbered}" in out
    third = re.search(r" 3\) (\S+)", menu)
    assert third is not None and third.group(1) == "aim"
    assert "drifter takes aim." in out.split("> 3")[1]
    assert "drifter attacks raider_1" in out  # the hidden one, typed by name


def test_a_menu_keeps_two_choices_at_least():
    b = begin("play", {"ruleset": "f2d20", "scenario": "ruined_street", "seed": 3}, None)
    rs = get_ruleset("f2d20")
    legal = rs.legal_actions(b)
    hopeless = [a for a in legal if is_hopeless(b, rs, a)]
    assert len(hopeless) == 4
    order, numbered = menu_order(b, rs, [legal[0], *hopeless])
    assert numbered == 1 + len(hopeless)  # "end" alone is no choice: all are shown
    order, numbered = menu_order(b, rs, legal[:2] + hopeless)
    assert numbered == 2 and order[2:] == list(range(2, 2 + len(hopeless)))


# --- the summary at the end ---------------------------------------------------------

def test_a_plain_game_ends_on_the_summary_table(tmp_path):
    con = console()
    save = tmp_path / "p.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=save), con,
          iter(["set auto", *islice(cycle(["hint", ""]), 300)]))
    out = text_of(con)
    b = saves.load(save)
    assert b.over
    table = table_lines(b)
    block = "\n".join(table)
    assert block in out and out.rstrip().endswith(f"{b.side_names[b.winner]} won.")
    assert f"The fight in numbers, {b.round} rounds:" in out
    ted = b.combatants[0]
    assert re.search(rf"^  ted +{ted.damage_dealt} +{ted.damage_taken} ", block, re.M)
    # every side heads its combatants, the winner marked; every id and side is whole
    assert f"{b.side_names[b.winner]} (won)" in block
    for c in b.combatants:
        assert f"  {c.id} " in block and b.side_names[c.side] in block
    assert max(map(len, table)) <= 76  # inside the full-screen summary's box at 80
