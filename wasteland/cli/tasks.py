"""`wasteland tasks`: the registered Gymnasium tasks (envs/tasks.py), one a seat of the
benchmark suite, with the packet's record in each (docs/tasks.md has every baseline).

Only typer is imported here; the envs load when the command runs.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from wasteland.cli.options import lowered
from wasteland.rules.errors import WastelandError

KINDS = ("built-in", "held-out", "mirror")


def rows(family: str | None, ruleset: str | None, kind: str | None) -> list[dict[str, Any]]:
    """One row a task, filtered; an unknown family, ruleset or kind is one line."""
    from wasteland.envs.tasks import tasks
    from wasteland.training.stats import wilson

    every = tasks()
    for option, value, known in (
            ("--family", family, dict.fromkeys(t.seat.family for t in every)),
            ("--ruleset", ruleset, dict.fromkeys(t.seat.ruleset for t in every)),
            ("--kind", kind, KINDS)):
        if value is not None and value not in known:
            raise WastelandError(f"{option}: unknown {option[2:]} {value[:40]!r}; known: "
                                 f"{', '.join(known)}")
    out = []
    for t in every:
        s = t.seat
        if (family, ruleset, kind) != (family and s.family, ruleset and s.ruleset,
                                       kind and s.kind):
            continue
        sc = s.load()
        lo, hi = wilson(s.wins, s.fights)
        out.append({
            "id": t.id, "family": s.family, "ruleset": s.ruleset, "kind": s.kind,
            "map": s.map, "seat": s.id, "version": t.version,
            "learner_side": s.side, "learner_kinds": list(s.kinds),
            "lineup": [{"name": side.name, "creatures": [c.creature for c in side.combatants]}
                       for side in sc.sides],
            "max_rounds": sc.max_rounds, "definition_hash": t.definition_hash(),
            "packet": {"fights": s.fights, "wins": s.wins, "losses": s.losses,
                       "draws": s.draws, "win_rate": round(s.rate, 4),
                       "wilson95": [round(lo, 4), round(hi, 4)]}})
    return out


def lineup_text(row: dict[str, Any]) -> str:
    """The sides, the learner's marked with *: both sides for a mirror seat."""
    side = row["learner_side"]
    return " | ".join(("*" if side in (None, i) else "") + f"{s['name']}: "
                      + ", ".join(s["creatures"]) for i, s in enumerate(row["lineup"]))


def packet_text(p: dict[str, Any]) -> str:
    lo, hi = p["wilson95"]
    return f"{100 * p['win_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {p['fights']:,}"


def register(app: typer.Typer) -> None:
    @app.command()
    def tasks(
        family: Annotated[str | None, typer.Option(
            help="Only this family: radscorpions, super_mutants, robots.")] = None,
        ruleset: Annotated[str | None, typer.Option(
            callback=lowered, help="Only this ruleset: pnp, simple, f2d20.")] = None,
        kind: Annotated[str | None, typer.Option(
            help="Only this kind of seat: built-in, held-out (maps no shipped policy trained "
                 "on), mirror.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")
                           ] = False,
    ) -> None:
        """List the registered Gymnasium tasks: gymnasium.make(ID) after import wasteland.envs.

        One a seat of the benchmark suite (docs/seats.md): the learner plays the family's
        creatures on the marked (*) side, the packet everyone else. The packet column is
        the packet's own record in that seat (the baseline to beat); docs/tasks.md has
        every measured baseline with the command that reproduces it.
        """
        got = rows(family, ruleset, kind)
        if as_json:
            typer.echo(json.dumps(got, indent=2))
            return
        if not got:
            typer.echo("no task matches")
            return
        width = max(len(r["id"]) for r in got)
        typer.echo(f"{'id':<{width}}  {'family':<13} {'ruleset':<7} {'kind':<8} "
                   f"{'map':<14} packet (win %, 95%, fights)")
        for r in got:
            typer.echo(f"{r['id']:<{width}}  {r['family']:<13} {r['ruleset']:<7} "
                       f"{r['kind']:<8} {r['map']:<14} {packet_text(r['packet'])}")
            typer.echo(f"    {lineup_text(r)}")
        typer.echo(f"{len(got)} tasks; * marks the learner's side (a mirror: either, drawn "
                   f"at reset)")
