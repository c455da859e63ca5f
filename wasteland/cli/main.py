"""`wasteland`: fights, scenarios and the bestiary from the command line.

Heavy libraries are never imported here: the command starts fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from wasteland.cli.flags import command
from wasteland.cli.options import AGENT_NAMES, lowered
from wasteland.rules.errors import WastelandError, did_you_mean, one_line
from wasteland.rules.names import RULESETS


class WholeLines(typer.core.TyperGroup):
    """A command group whose list of commands gives each one's first sentence whole,
    wrapped at the terminal's width, where click would cut it to the width left ("...")."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


EXAMPLES = """Start here:

\b
  wasteland play             fight the AI alone (full-screen at a terminal)
  wasteland gm --scenario ruined_street --physical-dice
                             run the NPCs at your table, your dice typed in
  wasteland fight            AI against AI, every roll printed
  wasteland scenarios        the built-in maps and who fights on them

wasteland COMMAND --help says more of each; README.md has a tour."""

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None,  # help texts say "[default: x]": not markup
                  cls=WholeLines, epilog=EXAMPLES,
                  help="Wasteland: Fallout tabletop combat run by AI agents.")
bestiary_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, cls=WholeLines,
                           help="Creatures, weapons, armor and items.")
app.add_typer(bestiary_app, name="bestiary")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def _emit_json(data: object) -> None:
    typer.echo(json.dumps(data, indent=2))


SEED_HELP = ("Seed of the battle's dice: the same seed and the same choices give the same "
             "fight. [default: a fresh one, printed at the start]")
SCENARIO_HELP = "Built-in scenario name, or a scenario file (a path: with / or .yaml)."
AI_HELP = (f"How the NPCs / enemies play: {AGENT_NAMES}. [default: the agent the "
           f"scenario names for a side, else normal]")


@app.command()
def fight(
    scenario: Annotated[str | None, typer.Option(help=SCENARIO_HELP + " [default: vault_corridor]")
                        ] = None,
    ruleset: Annotated[str | None, typer.Option(
        callback=lowered,
        help=f"Rules: {', '.join(RULESETS)}. [default: pnp]")] = None,
    seed: Annotated[int | None, typer.Option(help=SEED_HELP)] = None,
    agents: Annotated[str | None, typer.Option(
        help=f"Agent per side, comma-separated: {AGENT_NAMES}. One name plays every side; "
             f"a side not named plays by its scenario's agent. [default: the scenario's, "
             f"else packet]")
    ] = None,
    max_rounds: Annotated[int | None, typer.Option(help="Round limit (default: the scenario's).")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Save the fight to this JSON file every round, at the end and on Ctrl-C.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue a fight saved with --save.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run an AI-vs-AI fight and print the log (every roll) and the result."""
    from wasteland.agents.names import split_agents
    from wasteland.cli.fight import Interrupted, fight_on, new_fight, resumed_fight
    from wasteland.cli.session import choose_save_path
    from wasteland.limits import MAX_ROUNDS

    if max_rounds is not None and not 1 <= max_rounds <= MAX_ROUNDS:
        raise WastelandError(f"--max-rounds must be 1 to {MAX_ROUNDS}, got {max_rounds}")
    if resume is not None:
        b, per_side = resumed_fight(resume, {"ruleset": ruleset, "scenario": scenario,
                                             "seed": seed, "agents": agents,
                                             "max_rounds": max_rounds})
        save = save or resume
    else:
        from wasteland.cli.seeds import fresh_seed

        b, per_side = new_fight(ruleset or "pnp", scenario or "vault_corridor",
                                fresh_seed() if seed is None else seed,
                                split_agents(agents) if agents is not None else None,
                                max_rounds)
    from wasteland.agents.external import start_programs

    start_programs(per_side)  # a program that cannot play: one line, before the fight
    if save is not None:  # checked before the fight, so a bad path costs nothing
        save, moved = choose_save_path(save, b.session["id"], resume)
        if moved:
            typer.echo(moved, err=True)
    if seed is None and resume is None:  # drawn: said once the fight is sure to begin
        from wasteland.cli.seeds import seed_line

        typer.echo(seed_line(b.seed), err=as_json)  # --json keeps stdout JSON only
    try:
        result = fight_on(b, per_side, on_event=None if as_json else typer.echo, save_to=save)
    except Interrupted:
        where = f"; saved to {save} (resume with --resume {save})" if save else ""
        typer.echo(f"interrupted{where}", err=True)
        sys.exit(130)
    if as_json:
        out = result.summary()
        out["decisions"] = result.decisions
        out["events"] = [e.to_dict() for e in result.battle.log]
        _emit_json(out)
        return
    s = result.summary()
    typer.echo("")
    typer.echo(f"Result: {s['winner'] + ' won' if s['winner'] else 'draw'} after {s['rounds']} rounds")
    if "ap_pools" in s:
        typer.echo("AP pools: " + ", ".join(f"{side} {n}" for side, n in s["ap_pools"].items()))
    for side, faults in s.get("agent_faults", {}).items():
        typer.echo(f"{side}'s program faults (each played by a fallback): "
                   + ", ".join(f"{k} {n}" for k, n in faults.items()))
    if save is not None:
        typer.echo(f"saved to {save}")


def _full_screen(plain: bool) -> bool:
    """The full-screen game: a person at the terminal (input and output both terminals)
    who did not ask for --plain."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


def _lines() -> Iterator[str]:
    """Lines typed at the terminal (which shows them: the games do not echo them), or
    piped in."""
    from wasteland.cli.prompt import typed_lines

    return typed_lines()


@dataclass(frozen=True)
class PlayOptions:
    """`wasteland play`'s flags as typed (cli/flags.py)."""

    scenario: Annotated[str | None, typer.Option(help=SCENARIO_HELP + " [default: vault_corridor]")
                        ] = None
    ruleset: Annotated[str | None, typer.Option(
        callback=lowered,
        help=f"Rules: {', '.join(RULESETS)}. [default: pnp]")] = None
    side: Annotated[str | None, typer.Option(
        help="The side you play (name or number). [default: 0]")] = None
    seed: Annotated[int | None, typer.Option(help=SEED_HELP)] = None
    resume: Annotated[Path | None, typer.Option(help="Continue a saved game.")] = None
    save_to: Annotated[Path | None, typer.Option(
        help="Where the game is saved (every round, save, quit, Ctrl-C); another game's save "
             "is never overwritten. [default: the resumed file, else wasteland-save.json]")
    ] = None
    character: Annotated[str | None, typer.Option(
        help="Your character or squad: creature ids, comma-separated (default: the map's).")] = None
    enemies: Annotated[str | None, typer.Option(
        help="The enemies: creature ids, comma-separated (default: the map's).")] = None
    ai: Annotated[str | None, typer.Option("--ai", metavar="AGENT", help=AI_HELP)] = None
    plain: Annotated[bool, typer.Option(
        "--plain", help="Numbered menus on plain lines, not the full-screen game (piped "
                        "input always gets these, and is asked every question until it "
                        "says `set auto`).")] = False
    physical_dice: Annotated[bool, typer.Option(
        "--physical-dice", help="Roll your side's dice yourself: each roll is asked, "
                                "saying what it is for (on plain lines).")] = False


def play(o: PlayOptions) -> None:
    """Fight the AI alone: you play one side, the NPCs play by their AI packets (or --ai).
    At a terminal the game is full-screen (map, status, log, actions; keys and mouse)."""
    from rich.console import Console

    from wasteland.cli.play import FullScreen, GameSetup, start

    setup = GameSetup(o.ruleset, o.scenario, o.side, o.seed, o.resume, o.save_to, o.character,
                      o.enemies, o.ai, o.physical_dice)
    screen: FullScreen | None = None
    if _full_screen(o.plain):  # the entry point sits above the full screen (the layers)
        from wasteland.tui.app import run_full_screen

        screen = run_full_screen
    code = start(setup, Console(highlight=False), _lines(), full_screen=screen,
                 piped=not sys.stdin.isatty())
    sys.exit(code)


app.command()(command(PlayOptions, play))


@dataclass(frozen=True)
class GmOptions:
    """`wasteland gm`'s flags as typed (cli/flags.py)."""

    scenario: Annotated[str | None, typer.Option(help=SCENARIO_HELP + " [default: vault_corridor]")
                        ] = None
    ruleset: Annotated[str | None, typer.Option(
        callback=lowered,
        help=f"Rules: {', '.join(RULESETS)}. [default: pnp]")] = None
    party: Annotated[str | None, typer.Option(
        help="The players' side (name or number). [default: 0]")] = None
    seed: Annotated[int | None, typer.Option(help=SEED_HELP.replace("battle's", "NPCs'"))
                    ] = None
    physical_dice: Annotated[bool, typer.Option(
        "--physical-dice", help="Ask for every roll a party member makes.")] = False
    resume: Annotated[Path | None, typer.Option(help="Continue a saved session.")] = None
    save_to: Annotated[Path | None, typer.Option(
        help="Where the session is saved (every round, save, quit, Ctrl-C); another "
             "session's save is never overwritten. [default: the resumed file, else "
             "wasteland-gm.json]")] = None
    character: Annotated[str | None, typer.Option(
        help="The party: creature ids, comma-separated (default: the map's).")] = None
    enemies: Annotated[str | None, typer.Option(
        help="The enemies: creature ids, comma-separated (default: the map's).")] = None
    ai: Annotated[str | None, typer.Option("--ai", metavar="AGENT", help=AI_HELP)] = None


def gm(o: GmOptions) -> None:
    """Run an encounter at the table: type the party's actions, accept or override the
    NPCs' choices (proposed by their AI packets, or --ai), undo, add newcomers, optionally
    roll real dice."""
    from rich.console import Console

    from wasteland.cli.gm import start_gm
    from wasteland.cli.play import GameSetup

    setup = GameSetup(o.ruleset, o.scenario, o.party, o.seed, o.resume, o.save_to, o.character,
                      o.enemies, o.ai, o.physical_dice)
    code = start_gm(setup, Console(highlight=False), _lines())
    sys.exit(code)


app.command()(command(GmOptions, gm))


@app.command()
def scenarios(as_json: JsonOpt = False) -> None:
    """List the built-in scenarios."""
    from wasteland.bestiary.loader import load_scenario, scenario_names

    rows: list[dict[str, Any]] = []
    for name in scenario_names():
        s = load_scenario(name)
        rows.append({"id": s.id, "name": s.name, "size": f"{len(s.rows()[0])}x{len(s.rows())}",
                     "lighting": s.lighting,
                     "sides": [{"name": side.name, "combatants": [p.creature for p in side.combatants]}
                               for side in s.sides],
                     "description": s.description})
    if as_json:
        _emit_json(rows)
        return
    for r in rows:
        sides = " vs ".join(f"{s['name']} ({', '.join(s['combatants'])})" for s in r["sides"])
        typer.echo(f"{r['id']:<16} {r['size']:>6}  {r['lighting']:<16} {sides}")


@bestiary_app.command("list")
def bestiary_list(as_json: JsonOpt = False) -> None:
    """List every creature with its essentials under each ruleset."""
    from wasteland.bestiary.loader import default_bestiary

    b = default_bestiary()
    rows: list[dict[str, Any]] = []
    for c in sorted(b.creatures.values(), key=lambda c: c.id):
        row: dict[str, Any] = {"id": c.id, "name": c.name, "kind": c.kind, "hp": c.pnp.hp,
                               "defense": c.pnp.defense,
                               "weapons": [w.id for w in c.pnp.weapons]}
        if c.f2d20 is not None:
            row["f2d20"] = {"hp": c.f2d20.hp, "defense": c.f2d20.defense,
                            "initiative": c.f2d20.initiative}
        rows.append(row)
    if as_json:
        _emit_json(rows)
        return
    typer.echo(f"{'id':<20} {'kind':<10} {'pnp HP/Def':>10} {'2d20 HP/Def':>11}  weapons")
    for r in rows:
        f = r.get("f2d20")
        f2 = f"{f['hp']}/{f['defense']}" if f else "-"
        typer.echo(f"{r['id']:<20} {r['kind']:<10} {str(r['hp']) + '/' + str(r['defense']):>10} "
                   f"{f2:>11}  {', '.join(r['weapons'])}")


@bestiary_app.command("show")
def bestiary_show(name: str, as_json: JsonOpt = False) -> None:
    """Show one creature, weapon, armor or item in full."""
    from wasteland.bestiary.loader import BestiaryError, default_bestiary

    b = default_bestiary()
    for kind in ("creatures", "weapons", "armor", "items"):
        entry = getattr(b, kind).get(name)
        if entry is not None:
            data = entry.model_dump(mode="json")
            if as_json:
                _emit_json({"entry": kind[:-1] if kind != "armor" else "armor", **data})
            else:
                import yaml

                typer.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True).rstrip())
            return
    known = sorted([*b.creatures, *b.weapons, *b.armor, *b.items])
    raise BestiaryError(f"unknown bestiary entry {name!r}{did_you_mean(name, known)}; known: "
                        f"{', '.join(known)}")


@bestiary_app.command("validate")
def bestiary_validate(
    path: Annotated[Path | None, typer.Argument(
        help="A bestiary folder, or one scenario or entry file.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check bestiary files (default: the built-in ones) and the scenarios; every problem
    is listed, one line each."""
    from wasteland.bestiary.loader import (
        DATA,
        KINDS,
        BestiaryError,
        bestiary_problems,
        default_bestiary,
        load_scenario,
        parse_entry,
        read_yaml,
        scenario_names,
    )

    checked: list[str] = []
    problems: list[str] = []
    try:
        if path is None or path.is_dir():
            b, problems = bestiary_problems(path or DATA)
            checked = [f"{len(getattr(b, k))} {k}" for k in KINDS]
            if path is None:
                for n in scenario_names():
                    try:
                        load_scenario(n, b)
                    except BestiaryError as e:
                        problems.append(str(e))
                checked.append(f"{len(scenario_names())} scenarios")
        else:
            data = read_yaml(path)
            if isinstance(data, dict) and "map" in data:
                load_scenario(path, default_bestiary())
                checked = ["1 scenario"]
            else:
                kind = path.parent.name if path.parent.name in KINDS else None
                if kind is None:
                    raise BestiaryError(
                        f"{path}: cannot tell the entry kind; put it in a folder named one of "
                        f"{', '.join(KINDS)} or pass the folder")
                parse_entry(KINDS[kind], data, path, kind[:-1])
                checked = [f"1 {kind[:-1]}"]
    except BestiaryError as e:
        problems.append(str(e))
    if problems:
        if as_json:
            _emit_json({"ok": False, "error": problems[0], "errors": problems})
            raise typer.Exit(1)
        for p in problems:
            typer.echo(f"error: {one_line(p)}", err=True)
        if len(problems) > 1:
            typer.echo(f"{len(problems)} problems", err=True)
        raise typer.Exit(2)
    if as_json:
        _emit_json({"ok": True, "checked": checked})
    else:
        typer.echo(f"ok: {', '.join(checked)}")


@app.command()
def serve(
    agent: Annotated[str, typer.Option(
        help="The built-in agent to serve: packet, scripted, random, policy:NAME.")] = "packet",
) -> None:
    """Play a built-in agent over the agent protocol on stdin/stdout (docs/protocol.md):
    the other side of --agents cmd:"wasteland serve --agent packet"."""
    from wasteland.agents.serve import main as serve_main

    if agent.startswith(("cmd:", "cmd@")):
        raise WastelandError("serve runs a built-in agent (packet, scripted, random, "
                             "policy:NAME), not another program")
    sys.exit(serve_main(agent))


def _register_training() -> None:
    from wasteland.cli.train_cmds import register

    register(app)


_register_training()


def _register_simulate() -> None:
    from wasteland.cli.simulate import register

    register(app)


_register_simulate()


def _register_evaluate() -> None:
    from wasteland.cli.evaluate import register

    register(app)


_register_evaluate()


def _register_tasks() -> None:
    from wasteland.cli.tasks import register

    register(app)


_register_tasks()


def _usage_error(e: Exception) -> str | None:
    """A mistyped command line (typer's usage error: unknown option, bad value) as one
    line naming what is wrong and where help is; None for any other exception. Matched by
    shape, since typer keeps its own copy of click's exception classes."""
    if not (hasattr(e, "format_message") and isinstance(getattr(e, "exit_code", None), int)):
        return None
    ctx = getattr(e, "ctx", None)
    where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    return f"error: {' '.join(str(e.format_message()).split())}{where}"


def main() -> None:
    """Entry point: any Wasteland error or mistyped command line becomes one line on
    stderr and exit code 2; a bare command group prints its help."""
    from wasteland.cli import one_blas_thread

    one_blas_thread()  # before anything imports numpy
    try:
        code = app(standalone_mode=False)
    except WastelandError as e:
        typer.echo(f"error: {one_line(str(e))}", err=True)
        sys.exit(2)
    except (KeyboardInterrupt, typer.Abort):
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except Exception as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # `wasteland` or `wasteland bestiary`
            typer.echo(e.format_message(), err=True)  # type: ignore[attr-defined]
            sys.exit(2)
        line = _usage_error(e)
        if line is None:
            raise
        typer.echo(line, err=True)
        sys.exit(2)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
