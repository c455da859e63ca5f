"""How the full-screen game divides the terminal, worked out from its size: whether the
panels keep their borders, how large the map is drawn (its zoom), how wide the left
column is and how much of the legend it shows. Pure arithmetic, so it is tested without
a screen; the app applies it on every resize."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MIN_WIDTH, MIN_HEIGHT = 80, 24  # below this the screen says it is too small
SHORT_SCREEN = 30  # rows: below this the panels lose their borders (a row each)
LOG_MIN = 4  # lines of the log that stay in view, whatever the map's size
LOG_ZOOMED = 8  # ... and what a larger map must still leave it
RIGHT_MIN = 28  # columns the status and the actions need
# (columns, rows) per square, smallest first. A terminal cell is about twice as tall as
# wide, so two columns per square look square; hexes are drawn two columns apart already
ZOOMS = {"squares": ((1, 1), (2, 1), (4, 2)), "hexes": ((1, 1), (2, 2))}
LEGENDS = ("full", "short", "bare")  # the legend's modes, most complete first (mapview)


@dataclass(frozen=True)
class Layout:
    compact: bool  # no borders: every row of a short screen goes to what it shows
    zoom: tuple[int, int]  # (columns, rows) each map square takes
    left: int  # the left column's width (map, legend, log)
    legend: str  # one of LEGENDS

    @property
    def pad(self) -> int:
        """Columns around the map's text in its panel (border and padding)."""
        return 2 if self.compact else 4

    def rows_around(self) -> int:
        """Rows the left column's borders take (map and log)."""
        return 0 if self.compact else 4


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


def plan(width: int, height: int, map_cols: int, map_rows: int, hexes: bool,
         legend_rows: Callable[[int, str], int], hint_rows: int = 2) -> Layout:
    """The layout for a ``width`` x ``height`` terminal and a map ``map_cols`` x
    ``map_rows`` as textmap draws it. ``legend_rows(width, mode)``: the lines the legend
    takes at that width; ``hint_rows``: the lines of the hint under the panels. The map
    is drawn at the largest zoom that leaves the right column its room and the log
    LOG_ZOOMED lines; then the legend is the most complete one that leaves the log
    LOG_MIN."""
    compact = height < SHORT_SCREEN
    body = height - 2 - hint_rows  # the turn-order line and the keys take one row each
    zooms = ZOOMS["hexes" if hexes else "squares"]

    def make(zoom: tuple[int, int], legend: str) -> Layout:
        probe = Layout(compact, zoom, 0, legend)
        need = max(map_cols * zoom[0], 30) + probe.pad
        left = min(max(need, width * 45 // 100), max(need, width - RIGHT_MIN))
        return Layout(compact, zoom, left, legend)

    def log_room(lay: Layout) -> int:
        inner = lay.left - lay.pad
        return (body - lay.rows_around() - map_rows * lay.zoom[1]
                - legend_rows(inner, lay.legend))

    best = make(zooms[0], LEGENDS[0])
    for zoom in zooms[1:]:
        lay = make(zoom, "full")
        if (map_cols * zoom[0] + lay.pad <= width * 65 // 100 and lay.left <= width - RIGHT_MIN
                and log_room(lay) >= LOG_ZOOMED):
            best = lay
    for legend in LEGENDS:
        lay = make(best.zoom, legend)
        if log_room(lay) >= LOG_MIN or legend == LEGENDS[-1]:
            return lay
    return best  # (not reached: the last legend is always taken)
