"""The envs' ``"rgb_array"`` render: a picture of the battle as an H x W x 3 uint8 array,
drawn with numpy alone (no figure, no font), so a frame a step costs little and the same
battle always gives the same pixels.

Each map square is ``CELL`` x ``CELL`` pixels, coloured by its terrain (the marks of the
text map: floor, wall, the three covers, high ground, obscured, water, climb), with a thin
darker line on its top and left edges so squares can be counted. Under a ruleset that
measures by zones (2d20) a dark line also runs between squares of different zones.
Every combatant is a square of its side's colour (``SIDE_COLOURS``, by side index) with
an HP bar above it (green for the HP left, dark red for the rest); a fallen one that may
still be saved is drawn at half brightness, a dead one as a dark cross on its square. The
combatant deciding now has a yellow frame round its square. Simple's hexes are drawn as
the squares of the map they are read from.
"""

from __future__ import annotations

import numpy as np

from wasteland.rules.battle import ACTIVE, DEAD, Battle
from wasteland.rules.grid import Grid, terrain_glyph
from wasteland.rules.protocol import Ruleset
from wasteland.rules.zones import zones_for

CELL = 16
TERRAIN_COLOURS: dict[str, tuple[int, int, int]] = {
    ".": (205, 195, 170),  # floor
    "#": (70, 66, 60),  # wall
    ",": (170, 190, 130),  # light cover
    "=": (150, 128, 95),  # heavy cover
    "%": (112, 94, 70),  # full cover
    "^": (228, 218, 150),  # high ground
    "~": (150, 150, 168),  # obscured
    "w": (95, 140, 190),  # water
    "H": (182, 150, 112),  # climb
}
# saturated, so no side is taken for terrain; a seventh side reuses the first colour
SIDE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 100, 240), (225, 40, 40), (30, 165, 60), (240, 150, 10), (160, 60, 215), (10, 185, 195))
HP_LEFT = (40, 215, 40)
HP_LOST = (120, 20, 20)
DEAD_MARK = (35, 30, 30)
DECIDING = (255, 225, 0)
ZONE_EDGE = (60, 50, 90)
BAR = CELL - 4  # HP bar width in pixels


def side_colour(side: int) -> tuple[int, int, int]:
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


def square_centre(grid: Grid, pos: int) -> tuple[int, int]:
    """The (row, column) pixel at the middle of map square ``pos``: on a combatant's body."""
    x, y = grid.xy(pos)
    return y * CELL + CELL // 2, x * CELL + CELL // 2


def _terrain(grid: Grid, zoned: bool) -> np.ndarray:
    """The map without combatants; cached on the grid, which never changes once built."""
    key = "rgb_terrain_zoned" if zoned else "rgb_terrain"
    img = grid.caches.get(key)
    if img is not None:
        return img
    w, h = grid.width, grid.height
    colours = np.array([TERRAIN_COLOURS[terrain_glyph(grid.passable[i], grid.move_cap[i],
                                                      grid.cover[i], grid.heights[i], grid.vis[i])]
                        for i in range(w * h)], dtype=np.uint8).reshape(h, w, 3)
    img = np.repeat(np.repeat(colours, CELL, axis=0), CELL, axis=1)
    edge = (img[::CELL, :] * 0.85).astype(np.uint8)
    img[::CELL, :] = edge
    img[:, ::CELL] = (img[:, ::CELL] * 0.85).astype(np.uint8)
    if zoned:
        zone = np.array(zones_for(grid).zone_of).reshape(h, w)
        # a border where two passable neighbours lie in different zones (walls are -1)
        vertical = (zone[:, 1:] != zone[:, :-1]) & (zone[:, 1:] >= 0) & (zone[:, :-1] >= 0)
        for y, x in zip(*np.nonzero(vertical)):
            img[y * CELL:(y + 1) * CELL, (x + 1) * CELL - 1:(x + 1) * CELL + 1] = ZONE_EDGE
        horizontal = (zone[1:, :] != zone[:-1, :]) & (zone[1:, :] >= 0) & (zone[:-1, :] >= 0)
        for y, x in zip(*np.nonzero(horizontal)):
            img[(y + 1) * CELL - 1:(y + 1) * CELL + 1, x * CELL:(x + 1) * CELL] = ZONE_EDGE
    img.setflags(write=False)
    grid.caches[key] = img
    return img


def frame(battle: Battle, ruleset: Ruleset) -> np.ndarray:
    """The battle now as an RGB picture (see the module docstring): a new array each call,
    ``(height * CELL, width * CELL, 3)`` uint8."""
    b = battle
    g = b.grid
    img = _terrain(g, callable(getattr(ruleset, "zones", None))).copy()
    # the dead first, then the fallen, then the standing: the one most worth seeing on a
    # square is drawn last, as on the text map
    for c in sorted(b.combatants, key=lambda c: (c.status != DEAD, c.status == ACTIVE)):
        x, y = g.xy(c.pos)
        top, left = y * CELL, x * CELL
        if c.status == DEAD:
            for k in range(3, CELL - 3):
                img[top + k, left + k] = DEAD_MARK
                img[top + k, left + CELL - 1 - k] = DEAD_MARK
            continue
        colour = np.array(side_colour(c.side), dtype=np.uint8)
        if c.status != ACTIVE:
            colour //= 2
        body = img[top + 5:top + CELL - 2, left + 3:left + CELL - 3]
        body[:] = colour
        for r, k in ((0, 0), (0, -1), (-1, 0), (-1, -1)):  # round the corners off
            body[r, k] = img[top + 1, left + 1]
        left_hp = max(0, min(BAR, round(BAR * c.hp / max(1, c.max_hp))))
        bar = img[top + 2:top + 4, left + 2:left + 2 + BAR]
        bar[:] = HP_LOST
        bar[:, :left_hp] = HP_LEFT
    if not b.over:
        x, y = g.xy(b.combatants[ruleset.decider(b).combatant].pos)
        top, left = y * CELL, x * CELL
        img[top, left:left + CELL] = DECIDING
        img[top + CELL - 1, left:left + CELL] = DECIDING
        img[top:top + CELL, left] = DECIDING
        img[top:top + CELL, left + CELL - 1] = DECIDING
    return img
