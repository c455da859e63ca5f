"""Plain-text picture of a battle: the command's fight view and the envs' "ansi" and
"human" render modes.

The map shows each standing combatant as its slot digit (the number the action table's
targets use), the fallen as ``_`` while they live (unconscious, dying) and ``x`` once
dead, walls ``#``, cover ``,`` light, ``=`` heavy, ``%``
full, high ground ``^`` and obscured squares ``~``; ``legend=True`` adds a line under
the map naming the marks it shows (the line games' map). Below it: one status line per
combatant and the text of the last few events.

Under a ruleset that measures by zones (Fallout 2d20, which has a ``zones(battle)``
method) the zone map stands beside the terrain: each passable square as its zone's letter,
with the combatants on it; a legend line gives each zone's cover, a line each side's AP
pool, and each status line the combatant's zone, injuries and conditions.

Under Simple the map is drawn as hexes (odd rows half a hex to the right, rules/hexes.py).

``render_zones`` draws a map's 2d20 zones instead: each passable square as its zone's
letter, walls ``#``, then one legend line per zone.
"""

from __future__ import annotations

from wasteland.rules.battle import ACTIVE, DEAD, Battle
from wasteland.rules.events import round_name
from wasteland.rules.grid import COVER_NAMES, Grid, terrain_glyph
from wasteland.rules.protocol import Ruleset
from wasteland.rules.zones import zone_glyph, zones_for

LAST_EVENTS = 6
# each terrain mark and what it means, for the legends under the maps (the line games'
# one line, the full-screen game's panel)
TERRAIN_NAMES = (("#", "# wall"), (",", ", light cover"), ("=", "= heavy cover"),
                 ("%", "% full cover"), ("^", "^ high ground"),
                 ("~", "~ obscured (dark, smoke, fog)"), ("w", "w water"), ("H", "H climb"))
FALLEN_NAMES = (("_", "_ down"), ("x", "x dead"))


def glyph(slot: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[slot] if slot < 36 else "?"


def legend_line(map_rows: list[str]) -> str:
    """What the marks drawn on ``map_rows`` mean, those drawn only (the digits are the
    combatants of the lines below the map)."""
    drawn = set("".join(map_rows))
    return "  ".join(label for ch, label in TERRAIN_NAMES + FALLEN_NAMES if ch in drawn)


def ammo_name(ammo: str) -> str:
    """An ammunition id as a person reads it: "40mm grenade", not "40mm_grenade"."""
    return ammo.replace("_", " ")


def render_text(battle: Battle, ruleset: Ruleset, last_events: int = LAST_EVENTS,
                legend: bool = False) -> str:
    """``legend``: a line under the map saying what its marks mean (legend_line)."""
    b = battle
    g = b.grid
    rows: list[list[str]] = []
    for y in range(g.height):
        row = []
        for x in range(g.width):
            i = y * g.width + x
            row.append(terrain_glyph(g.passable[i], g.move_cap[i], g.cover[i],
                                     g.heights[i], g.vis[i]))
        rows.append(row)
    for c in sorted(b.combatants, key=lambda c: c.status != DEAD):
        # the dead, then the fallen (who may still be saved: not drawn as dead), then the
        # standing, so that the one most worth seeing on a square shows
        if c.status != ACTIVE:
            x, y = g.xy(c.pos)
            rows[y][x] = "x" if c.status == DEAD else "_"
    for c in b.combatants:
        if c.status == ACTIVE:
            x, y = g.xy(c.pos)
            rows[y][x] = glyph(c.slot)
    zoned = callable(getattr(ruleset, "zones", None))
    if zoned:
        zones = zones_for(g)
        zrows = [[zone_glyph(zones.zone_of[y * g.width + x]) if g.passable[y * g.width + x]
                  else "#" for x in range(g.width)] for y in range(g.height)]
        for c in b.combatants:  # the same combatant glyphs as the terrain map
            x, y = g.xy(c.pos)
            zrows[y][x] = rows[y][x]
        lines = ["".join(r) + "   " + "".join(z) for r, z in zip(rows, zrows)]
        lines.append("Zone cover: " + ", ".join(f"{zone_glyph(z)} ({zones.name(z)}) "
                                                f"{COVER_NAMES[zones.cover(z)]}"
                                                for z in range(zones.count))
                     + " (against shots from other zones)")
    elif b.ruleset == "simple":  # hexes: odd rows half a hex to the right
        from wasteland.rules.hexes import hexes_for

        marks = {y * g.width + x: ch for y, r in enumerate(rows) for x, ch in enumerate(r)
                 if ch in "x_" or ch.isalnum()}
        lines = hexes_for(g).text(marks)
    else:
        lines = ["".join(r) for r in rows]
    if legend:  # under the map; a zone map's letters have their own line already
        lines.insert(g.height, legend_line(["".join(r) for r in rows]))
    deciding = None if b.over else ruleset.decider(b)
    head = round_name(b.round)
    if b.over:
        if b.winner is not None:
            head += f", over: {b.side_names[b.winner]} won"
        else:
            head += ", over: draw" + (" (round limit)" if b.end_reason == "max_rounds"
                                      else "")
    lines.append(head)
    econ = b.book.economy()
    if zoned and econ is not None:
        lines.append("AP pools: " + ", ".join(f"{name} {econ.pools[si]}"
                                             for si, name in enumerate(b.side_names)))
    for c in b.combatants:
        w = c.weapon
        st = c.wstate
        ammo = ""
        if zoned:  # no magazines: the weapon fires from the supply
            if w.ammo:
                ammo = f" ({c.ammo.get(w.ammo, 0)} {ammo_name(w.ammo)})"
        elif w.magazine != "none":
            ammo = f" {st.loaded}/{w.capacity}"
            if w.ammo:
                ammo += f" (+{c.ammo.get(w.ammo, 0)})"
        flags = []
        if c.status != ACTIVE:
            flags.append(c.status)
        stats = getattr(c.creature, b.ruleset, None)
        if getattr(stats, "ap", 0) and c.status == ACTIVE:  # V.A.T.S. points (PnP)
            flags.append(f"AP {c.ap}")
        if c.burn_left:
            flags.append(f"burning {c.burn_rate}/turn")
        if c.readied:
            flags.append("readied")
        if c.unguarded:
            flags.append("unguarded")
        crip = [f"{k}x{v}" for k, v in c.crippled.items() if v]
        if crip:
            flags.append(("injured " if zoned else "crippled ") + " ".join(crip))
        if zoned:
            flags.extend(k for k in ("dying", "stable", "stunned", "burrowed", "defend")
                         if c.cond.get(k))
        mark = "  "
        if deciding is not None and deciding.combatant == c.slot:
            mark = "> "
            flags.append(f"deciding: {deciding.slot}"
                         + (f" reaction {deciding.reaction}" if deciding.reaction else ""))
            if (zoned and deciding.reaction is None and deciding.subject is not None
                    and deciding.subject != c.slot):  # 2d20's attack windows
                flags[-1] += f" (attack on {b.ids[deciding.subject]})"
            if zoned and deciding.slot == "act" and econ is not None:
                flags.append(f"minor {econ.minor}, major {econ.major}"
                             + (", moved" if econ.moved else ""))
        x, y = g.xy(c.pos)
        where = f"({x},{y})"
        if zoned:
            zc = zones.zone_of[c.pos]
            where += f" zone {zones.name(zc)} ({zone_glyph(zc)})"
        lines.append(
            f"{mark}{glyph(c.slot)} {c.id:<16} {b.side_names[c.side]:<14} "
            f"HP {c.hp:>3}/{c.max_hp:<3} {w.name}{ammo} at {where}"
            + (f" [{', '.join(flags)}]" if flags else "")
        )
    if last_events and b.log:
        lines.extend(ev.text() for ev in b.log[-last_events:])
    return "\n".join(lines)


def render_zones(grid: Grid) -> str:
    """The map with each passable square drawn as its zone's letter (A..Z, then a..z)
    and walls as ``#``, then a line per zone: name, squares, cover, adjacent zones."""
    zones = zones_for(grid)
    lines = []
    for y in range(grid.height):
        lines.append("".join(
            zone_glyph(zones.zone_of[y * grid.width + x]) if grid.passable[y * grid.width + x] else "#"
            for x in range(grid.width)))
    for z in range(zones.count):
        near = ", ".join(f"{zone_glyph(o)} {zones.name(o)}" for o in zones.adjacent(z)) or "none"
        cx, cy = grid.xy(zones.centre(z))
        lines.append(f"{zone_glyph(z)} {zones.name(z)}: {len(zones.cells(z))} squares, centre ({cx},{cy}), "
                     f"cover {COVER_NAMES[zones.cover(z)]}, adjacent {near}")
    return "\n".join(lines)
