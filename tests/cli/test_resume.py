"""Stopping and resuming never changes a fight (issue 8): a fight, a piped `play` game and
a `gm` session with table dice, newcomers and undo, stopped at a random point, saved,
loaded and finished, equal the same session run without a stop: result, state, history
and the whole log."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from menus import last_menu
from rich.console import Console

from wasteland.bestiary.loader import scenario_names
from wasteland.cli.fight import fight_on, new_fight, resumed_fight, save_fight
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules import saves
from wasteland.rules.battle import Battle

# NPCs whose packets call shots by coin flips, so a lost agent random state shows
ENEMIES = "raider,mr_handy"
SQUAD = "wastelander,brawler"
AGENTS = [["packet", "random"], ["random", "packet"], ["packet"], ["scripted", "random"]]


def same(a: Battle, b: Battle) -> None:
    assert b.over == a.over and b.winner == a.winner
    assert b.state() == a.state()
    assert b.history == a.history
    assert [e.text() for e in b.log] == [e.text() for e in a.log]


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_200_fights_stopped_at_random_points_resume_exactly(ruleset, tmp_path):
    rng = random.Random(8)
    names = scenario_names()
    path = tmp_path / "f.json"
    for i in range(200):
        scenario, agents = names[i % len(names)], AGENTS[i % len(AGENTS)]
        whole, per_side = new_fight(ruleset, scenario, i, agents)
        fight_on(whole, per_side)
        cut = rng.randrange(len(whole.history))
        b, per_side = new_fight(ruleset, scenario, i, agents)
        fight_on(b, per_side, stop_after=cut)
        save_fight(b, per_side, path)
        resumed, per_side = resumed_fight(path, {})
        fight_on(resumed, per_side)
        same(whole, resumed)


@pytest.mark.parametrize("where", ["decided", "applied", "mid-action"])
def test_the_fight_command_saves_every_round_and_resumes(where, tmp_path, monkeypatch):
    """Ctrl-C after an agent has decided but before its action (its random state already
    moved), after an action, and in the middle of one (between two of its dice): the
    save follows the rounds and the resumed fight is the uninterrupted one."""
    from wasteland.cli.fight import Interrupted

    path = tmp_path / "f.json"
    whole, agents = new_fight("pnp", "vault_corridor", 3, ["packet", "random"])
    fight_on(whole, agents)
    b, agents = new_fight("pnp", "vault_corridor", 3, ["packet", "random"])
    seen: list[int] = []

    def watch(line: str) -> None:  # what is on disk while the fight goes on
        if path.exists() and line.startswith("  > "):
            seen.append(saves.load(path).round)
        if len(seen) > 8:
            if where == "decided" and line.startswith("  > "):
                raise KeyboardInterrupt  # the agent chose; the action is not applied
            if where == "applied" and not line.startswith("  > "):
                raise KeyboardInterrupt
            if where == "mid-action":
                # the battle's own dice hook (the engine may be compiled: Battle.roll
                # cannot be patched); once, since the rebuild rolls its dice again
                def hook(who, sides, n, why):  # noqa: ANN001, ANN202
                    if why != "initiative":
                        b.dice_hook = None
                        raise KeyboardInterrupt
                    return None
                b.dice_hook = hook

    with pytest.raises(Interrupted):
        fight_on(b, agents, on_event=watch, save_to=path)
    assert len(set(seen)) > 1  # the save followed the rounds
    resumed, agents = resumed_fight(path, {})
    fight_on(resumed, agents)
    same(whole, resumed)


# --- play and gm, piped ---------------------------------------------------------------------
def cut(answers: Iterator[str], skip: int, quit_at: int | None) -> Iterator[str]:
    """The answers from number ``skip`` on (the earlier ones were given before a resume),
    with "quit" in place of number ``quit_at``."""
    for n, answer in enumerate(answers):
        if n == quit_at:
            yield "quit"
            return
        if n >= skip:
            yield answer


def player(con: Console) -> Iterator[str]:
    """A player who picks the first attack on the menu, else a fixed mix of the others,
    from the output alone, so a resumed game gets the same answers."""
    n = 0
    while True:
        parts = [text for _, text in last_menu(con.file.getvalue())]
        hits = [i for i, p in enumerate(parts) if p.startswith("attack ")]
        yield (str(hits[0] + 1) if hits else str(2 + n % (len(parts) - 1))
               if len(parts) > 2 else "1")
        n += 1


def play_lines(con: Console, skip: int, quit_at: int | None) -> Iterator[str]:
    return cut(player(con), skip, quit_at)


def final(path: Path) -> Battle:
    return saves.load(path)


@pytest.mark.parametrize("ruleset, seeds", [("pnp", range(6)), ("f2d20", range(4))])
def test_piped_play_quit_and_resume_is_the_uninterrupted_game(ruleset, seeds, tmp_path):
    rng = random.Random(3)
    for seed in seeds:
        con = Console(file=io.StringIO(), width=200)
        start(GameSetup(ruleset, "duel", "0", seed, save_to=tmp_path / f"whole{seed}.json",
                        character=SQUAD, enemies=ENEMIES), con, play_lines(con, 0, None))
        whole = final(tmp_path / f"whole{seed}.json")
        assert whole.over
        answers = con.file.getvalue().count("\n> ")
        assert answers > 3
        cut = rng.randrange(1, answers)
        part = tmp_path / f"part{seed}.json"
        con = Console(file=io.StringIO(), width=200)
        start(GameSetup(ruleset, "duel", "0", seed, save_to=part, character=SQUAD, enemies=ENEMIES),
              con, play_lines(con, 0, cut))
        assert "quit." in con.file.getvalue()
        con2 = Console(file=io.StringIO(), width=200)
        start(GameSetup(resume=part), con2, play_lines(con2, cut, None))
        same(whole, final(part))


def the_gm(con: Console, script: list[str], said: list[bool] | None = None
           ) -> Iterator[str]:
    """The GM: the script first, then 3s for every die, Enter for every proposal and the
    first attack for the party (a roll asked before a scripted line, as the party's
    initiative is, gets 3s too). ``said`` notes for each answer whether it was a line of
    the script."""
    said = [] if said is None else said
    for line in script:
        while True:
            last = con.file.getvalue().rstrip().splitlines()[-1]
            if not last.startswith("Roll "):
                break
            k, sides = last.split()[1].split("d")
            said.append(False)
            yield " ".join([str(min(3, int(sides)))] * int(k))
        said.append(True)
        yield line
    while True:
        said.append(False)
        lines = [ln for ln in con.file.getvalue().splitlines() if ln.strip()]
        last = lines[-1]
        if last.startswith("Roll "):
            k, sides = last.split()[1].split("d")
            yield " ".join([str(min(3, int(sides)))] * int(k))
        elif "proposes:" in last:
            yield ""
        else:
            parts = [text for _, text in last_menu("\n".join(lines))]
            hits = [i for i, p in enumerate(parts) if p.startswith("attack ")]
            yield str(hits[0] + 1) if hits else "1"


def gm_lines(con: Console, script: list[str], quit_at: int | None,
             said: list[bool] | None = None) -> Iterator[str]:
    return cut(the_gm(con, script, said), 0, quit_at)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20"])
def test_gm_with_table_dice_newcomers_and_undo_resumes_exactly(ruleset, tmp_path):
    script = ["2", "add raider 5 2 1", "undo", "add raider 5 2 1", "", "undo", "",
              "add wastelander 2 2 0"]
    rng = random.Random(5)
    con = Console(file=io.StringIO(), width=200)
    said: list[bool] = []
    start_gm(GameSetup(ruleset, "duel", "0", 4, save_to=tmp_path / "whole.json", character=SQUAD,
                       enemies=ENEMIES, physical_dice=True), con,
             gm_lines(con, script, None, said))
    whole = final(tmp_path / "whole.json")
    assert whole.over and any(h.startswith("@dice ") for h in whole.history)
    assert any(h.startswith("@join ") for h in whole.history)
    out = con.file.getvalue()
    answers = out.count("\n> ")
    # the party's set-up rolls (initiative) come before the fight and its first save; a
    # resumed session replays them without asking, so its answers start after them
    setup = out.split("this game saves to")[0].count("> ")
    assert setup >= (2 if ruleset == "pnp" else 0)
    for cut in sorted(rng.sample(range(setup + 1, answers), 4)) + [setup + 3, setup + 6]:
        part = tmp_path / f"part{cut}.json"
        con = Console(file=io.StringIO(), width=200)
        start_gm(GameSetup(ruleset, "duel", "0", 4, save_to=part, character=SQUAD, enemies=ENEMIES,
                           physical_dice=True), con, gm_lines(con, script, cut))
        # the resumed session gets the rest of the script, then answers what it asks
        # (a roll it was quit in is asked again: the action under way was not taken)
        con2 = Console(file=io.StringIO(), width=200)
        start_gm(GameSetup(resume=part), con2, gm_lines(con2, script[sum(said[:cut]):], None))
        same(whole, final(part))
