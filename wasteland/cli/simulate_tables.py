"""The tables and lines `wasteland simulate` prints for a report of each mode (the
reports: wasteland/sim/modes.py). rich is imported when a table is drawn."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def ci(r: dict[str, Any]) -> str:
    lo, hi = r["ci"]
    return f"{pct(r['rate'])} [{100 * lo:.1f}-{100 * hi:.1f}]"


def spread(d: dict[str, Any]) -> str:
    """mean, median and the middle 80% of a distribution."""
    if not d.get("n"):
        return "-"
    return f"{d['mean']:.1f} (median {d['median']:g}, 10-90%: {d['p10']:g}-{d['p90']:g})"


def render(rep: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    sides = " vs ".join(f"{s} ({a})" for s, a in rep["agents"].items())
    lo, hi = rep["seeds"]
    console.print(f"{rep['scenario']} under {rep['ruleset']}: {sides}; {rep['fights']:,} "
                  f"fights, seeds {lo}-{hi}; the party is {rep['party_side']}")
    if rep.get("from"):
        at = rep["from"]
        console.print(f"from {at['save']}, round {at['round']}, {at['decides']} to decide: "
                      f"the rest of the fight, each with its own dice (seed + i); HP lost, "
                      f"rounds, going down and dying count from here")
    out = Table(title="Outcome", title_justify="left")
    for col in ("", "fights", "share [95% interval]"):
        out.add_column(col, justify="right" if col else "left")
    for k in ("win", "loss", "draw"):
        r = rep["outcome"][k]
        out.add_row(k, f"{r['count']:,}", ci(r))
    for k, label in (("anyone_down", "someone goes down"), ("anyone_dies", "someone dies"),
                     ("lethal", "lethal (dies or loses)")):
        r = rep[k]
        out.add_row(label, f"{r['count']:,}", ci(r))
    console.print(out)
    if "agent_faults" in rep:
        console.print("program agents' faults (each decision played by a fallback): "
                      + ", ".join(f"{k} {n}" for k, n in rep["agent_faults"].items()))
    party = Table(title="Party", title_justify="left")
    for col in ("member", "goes down", "dies", "HP lost: mean (median, 10-90%)", "ammo",
                "stimpaks"):
        party.add_column(col, justify="left" if col == "member" else "right")
    for m in rep["members"]:
        party.add_row(f"{m['id']} ({m['creature']})", ci(m["down"]), ci(m["dies"]),
                      spread(m["hp_lost"]), f"{m['ammo_used_mean']:.1f}",
                      f"{m['items_used_mean'].get('stimpak', 0.0):.2f}")
    console.print(party)
    items = ", ".join(f"{k} {v:.2f}" for k, v in rep["items_used_mean"].items()) or "none"
    console.print(f"rounds: {spread(rep['rounds'])}")
    console.print(f"party HP lost: {spread(rep['party_hp_lost'])}")
    console.print(f"per fight the party fires {rep['ammo_used_mean']:.1f} rounds and uses: "
                  f"{items}")
    if rep["interrupted"]:
        console.print(f"interrupted after {rep['fights']:,} of {rep['requested']:,} fights: the "
                      f"numbers are those of seeds {lo}-{hi}", style="yellow")
    elif rep["until_precision"] is not None:
        width = rep["win_interval_width"]
        if rep["precision_reached"]:
            console.print(f"stopped after {rep['fights']:,} fights: the win rate's interval is "
                          f"{width:.3f} wide (asked: {rep['until_precision']:g})")
        else:
            console.print(f"the cap of -n {rep['requested']:,} fights was hit: the win rate's "
                          f"interval is {width:.3f} wide, not yet {rep['until_precision']:g}",
                          style="yellow")
    console.print(rep["summary"], style="bold")


def render_balance(out: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    bal = out["balance"]
    first = bal["candidates"][0]
    console.print(f"{first['scenario']} under {first['ruleset']}: balancing {bal['vary']} for "
                  f"'{bal['target']}', {first['requested']:,} fights a count, seeds from "
                  f"{first['seed']}")
    table = Table()
    for col in ("enemies", "verdict", "party wins", "goes down", "lethal", "rounds"):
        table.add_column(col, justify="left" if col in ("enemies", "verdict") else "right")
    for i, r in enumerate(bal["candidates"]):
        mark = " <" if i == bal["best"] else ""
        table.add_row(r["enemies"] + mark, r["verdict"], ci(r["outcome"]["win"]),
                      pct(r["anyone_down"]["rate"]), pct(r["lethal"]["rate"]),
                      f"{r['rounds'].get('median', 0):g}")
    console.print(table)
    if bal["interrupted"]:
        console.print("interrupted: the search stopped early", style="yellow")
    elif bal["stopped"]:
        console.print(f"no harder encounter fits: {bal['stopped']}", style="yellow")
    best = bal["candidates"][bal["best"]]
    console.print(f"closest to {bal['target']}: --enemies \"{bal['enemies']}\"", style="bold")
    console.print(best["summary"], style="bold")


def render_chain(rep: dict[str, Any], console: Console) -> None:
    from rich.table import Table

    lo, hi = rep["seeds"]
    console.print(f"chain of {len(rep['chain'])} under {rep['ruleset']}: "
                  f"{' -> '.join(rep['chain'])}; {rep['fights']:,} runs, seeds {lo}-{hi}; "
                  f"the party: {', '.join(m['id'] for m in rep['stages'][0]['after']['members'])}")
    table = Table(title="How far the party gets", title_justify="left")
    for col in ("#", "encounter", "reached", "clears if reached", "cleared from the start",
                "party HP after", "ammo left", "stimpaks left", "dead so far"):
        table.add_column(col, justify="left" if col in ("#", "encounter") else "right")
    for k, st in enumerate(rep["stages"]):
        after = st["after"]
        ms = after["members"]
        table.add_row(str(k + 1), st["scenario"], f"{st['reached']:,}",
                      ci(st["cleared_if_reached"]), ci(st["cleared"]),
                      spread(after["party_hp"]),
                      f"{sum(m['rounds_held_mean'] for m in ms):.1f}",
                      f"{sum(m['items_mean'].get('stimpak', 0.0) for m in ms):.2f}",
                      f"{sum(m['dead']['rate'] for m in ms):.2f}")
    console.print(table)
    members = Table(title="HP left after each fight won (mean; dead count as 0)",
                    title_justify="left")
    members.add_column("member")
    for k, st in enumerate(rep["stages"]):
        members.add_column(f"{k + 1} {st['scenario']}", justify="right")
    for i, m in enumerate(rep["stages"][0]["after"]["members"]):
        cells = []
        for st in rep["stages"]:
            d = st["after"]["members"][i]
            cells.append(f"{d['hp']['mean']:.1f} (dead {pct(d['dead']['rate'])})"
                         if d["hp"].get("n") else "-")
        members.add_row(f"{m['id']} ({m['creature']})", *cells)
    console.print(members)
    if rep["interrupted"]:
        console.print(f"interrupted after {rep['fights']:,} of {rep['requested']:,} runs: the "
                      f"numbers are those of seeds {lo}-{hi}", style="yellow")
    console.print(rep["summary"], style="bold", soft_wrap=True)  # one line, for grep
