"""`wasteland play`: fight the AI alone in a terminal.

You play one side (one combatant or a squad); every other combatant is an NPC driven by
an agent (``--ai``: packet by default, or scripted, random, a trained ``policy:NAME``; else
the agent a scenario names for its side), and each NPC decision is shown with its reason.
The map, everybody's HP, ammunition and conditions, and the log with every die are drawn
with rich. On your turn
the legal actions are numbered; type a number, or the action in notation with any word
shortened ("att rad he"), or help / look / save [FILE] / quit. Input may be piped in, so a
whole game can be scripted.

Nothing is lost: the game is saved at the start of every round, on quit, when the input
ends and on Ctrl-C, to a file that holds this game only (another game's save is never
overwritten), and `--resume FILE` continues exactly where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console

from wasteland.bestiary.models import Scenario
from wasteland.rules import saves
from wasteland.rules.battle import Battle, DiceHook
from wasteland.rules.errors import clip
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.savefile import check_writable

from .dice_prompts import Quit, setup_dice
from .game import INTERRUPTED, Game
from .orders import set_rule
from .prompt import echoes
from .seeds import fresh_seed, seed_line
from .session import check_resume_options, new_session

# the full-screen game (tui/app.py run_full_screen: battle, save path, the save resumed,
# the log's first line), handed in by the entry point, which sits above the full screen
FullScreen = Callable[[Battle, Path, "Path | None", "str | None"], int]


def begin(command: str, options: dict[str, Any], resume: Path | None,
          side_option: str = "side",
          dice_hook_for: Callable[[Scenario, int], DiceHook] | None = None) -> Battle:
    """A new battle for the chosen encounter, or the saved one (whose options the given
    ones must not contradict); its session records the options and the humans' sides.
    ``dice_hook_for(scenario, people's side)``: who rolls the dice of a new battle's
    set-up (a GM's table dice for the party's initiative)."""
    if resume is not None:
        b = saves.load(resume)
        ours = bool(b.session) and b.session["command"] in ("play", "gm")
        if not b.session:  # a save made by `fight` or the API: side 0 is the people's
            b.session = new_session(command, {}, [0])
        if ours:
            # a save from before --ai was played by packets
            b.session["options"].setdefault("ai", None)
        else:  # a fight's save: its agents stay behind; the NPCs play as a new game's would
            b.session["agents"] = []
            b.session["options"]["ai"] = options.get("ai")
        check_resume_options(b.session.get("options", {}), options, resume)
        from wasteland.agents.external import check_saved_programs

        check_saved_programs([rec["kind"] for rec in b.session.get("agents", [])],
                             options.get("ai"), resume, "--ai", b.session["options"].get("ai"))
        if b.session["command"] not in ("play", "gm") or not b.session.get("humans"):
            b.session["humans"] = b.session.get("humans") or [0]
        b.session["command"] = command
        return b
    from wasteland.sim.encounter import encounter

    # every option is recorded, those not given as None, so that a resume can tell; the
    # seed drawn without --seed too, so that the save replays these dice
    opts = {**options, "ruleset": "pnp", "scenario": "vault_corridor", side_option: "0",
            **{k: v for k, v in options.items() if v is not None}}
    if opts.get("seed") is None:
        opts["seed"] = fresh_seed()
    sc, me = encounter(opts["scenario"], str(opts[side_option]), opts.get("character"),
                       opts.get("enemies"))
    hook = dice_hook_for(sc, me) if dice_hook_for is not None else None
    b = get_ruleset(opts["ruleset"]).new_battle(sc, int(opts["seed"]), dice_hook=hook)
    b.session = new_session(command, opts, [me])
    return b


def begin_at_table(command: str, options: dict[str, Any], resume: Path | None,
                   console: Console, lines: Iterator[str], side_option: str = "side"
                   ) -> Battle | int:
    """``begin``, with the people's set-up rolls (initiative, sequence) asked at the table
    when ``options`` say physical_dice; quitting or the input ending during them gives
    the exit code instead (nothing is saved: the fight had not started)."""
    def say(text: str, style: str | None = None) -> None:
        console.print(text, style=style, highlight=False, markup=False)

    echo = echoes(lines)
    if resume is None and options.get("seed") is None:
        options = {**options, "seed": fresh_seed()}
        if options.get("physical_dice"):  # said before the set-up rolls at the table
            say(seed_line(options["seed"]), "bold")

    def read() -> str | None:
        line = next(lines, None)
        if line is not None and echo:  # a terminal shows it already
            say(f"> {clip(line)}", "dim")
        return None if line is None else line.strip()

    try:
        b = begin(command, options, resume, side_option=side_option,
                  dice_hook_for=setup_dice(say, read) if options.get("physical_dice")
                  else None)
    except Quit as q:
        why = "input ended" if str(q).startswith("input ended") else "quit"
        say(f"{why} during the set-up rolls; nothing was saved: the fight had not started.")
        return 0
    except KeyboardInterrupt:
        say("interrupted during the set-up rolls; nothing was saved: the fight had not "
            "started.")
        return INTERRUPTED
    b.session["options"].setdefault("physical_dice", False)
    return b


@dataclass(frozen=True)
class GameSetup:
    """What a game at the table (`play`, `gm`) is begun or resumed with, as typed; None:
    not given (a new game's default, or the save's). ``side``: the people's side (play's
    --side, gm's --party); ``save_to``: where it is saved (else the resumed file, else the
    command's own file); ``physical_dice``: the people's rolls are asked at the table."""

    ruleset: str | None = None
    scenario: str | None = None
    side: str | None = None
    seed: int | None = None
    resume: Path | None = None
    save_to: Path | None = None
    character: str | None = None
    enemies: str | None = None
    ai: str | None = None
    physical_dice: bool = False


def start(setup: GameSetup, console: Console, lines: Iterator[str],
          full_screen: FullScreen | None = None, piped: bool = False) -> int:
    """``piped``: the answers come from a program, not a person; a new game then asks every
    question, as the line game did before the table rules (a script's answers to the buy
    and boost windows stay in step), until the script says `set auto`. ``physical_dice``:
    your side's rolls are asked, each saying what it is for (the line game)."""
    o, seed, resume = setup, setup.seed, setup.resume
    options = {"ruleset": o.ruleset, "scenario": o.scenario, "side": o.side, "seed": seed,
               "character": o.character, "enemies": o.enemies, "ai": o.ai,
               "physical_dice": o.physical_dice}
    path = o.save_to or resume or Path("wasteland-save.json")
    check_writable(path)  # before the set-up rolls: a game that cannot be saved is not begun
    got = begin_at_table("play", options, resume, console, lines)
    if isinstance(got, int):
        return got
    b = got
    if b.session["options"]["physical_dice"]:
        full_screen = None  # the dice are asked on lines (cli/dice_prompts.py)
    if piped and resume is None:
        set_rule(b, ["ask"])
    if full_screen is not None:  # a person at a terminal: the Textual game, on this Game
        drawn = seed is None and resume is None  # the log begins with it
        return full_screen(b, path, resume, seed_line(b.seed) if drawn else None)
    return seed_said(Game(b, console, lines, path, resume), seed, resume).run()


def seed_said(game: Game, seed: int | None, resume: Path | None) -> Game:
    """``game``, having said the seed its new session drew (without --seed), unless it
    was said before the set-up rolls; once the game is made, so that a session refused
    (an unknown --ai) says nothing but why."""
    b = game.b
    if seed is None and resume is None and not b.session["options"].get("physical_dice"):
        game.say(seed_line(b.seed), "bold")
    return game
