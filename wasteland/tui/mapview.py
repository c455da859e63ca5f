"""The map: textmap's terrain (PnP squares, Simple's hexes; 2d20's zone letters) with each
combatant in its side's colour and its condition told apart (crippled underlined, ``o``
down, ``+`` dying, ``x`` dead), a legend under it, the selected target highlighted, the
squares a move can reach now shaded, a click on a combatant selecting it and a click on a
shaded square moving there (``goto``)."""

from __future__ import annotations

from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widgets import Static

from wasteland.rules.battle import ACTIVE, DEAD, Battle, Combatant
from wasteland.rules.protocol import Ruleset
from wasteland.rules.textmap import TERRAIN_NAMES, glyph, render_text

SIDE_COLOURS = ("bold green", "bold red", "bold cyan", "bold yellow", "bold magenta",
                "bold blue")
TERRAIN_STYLE = {"#": "grey50", ",": "dark_khaki", "=": "yellow", "%": "bright_yellow",
                 "^": "orange3", "~": "blue", ".": "grey35", "w": "bright_blue", "H": "tan"}



def side_colour(side: int) -> str:
    return SIDE_COLOURS[side % len(SIDE_COLOURS)]


def zoned(rs: Ruleset) -> bool:
    return callable(getattr(rs, "zones", None))


def condition(c: Combatant) -> str:
    """standing, crippled, down, dying or dead."""
    if c.status == DEAD:
        return "dead"
    if c.status != ACTIVE:
        dying = not c.cond.get("stable") and bool(
            c.cond.get("dying") or c.cond.get("bleeding") or c.hp < 0)
        return "dying" if dying else "down"
    return "crippled" if any(c.crippled.values()) else "standing"


DOWN_GLYPH = {"down": "o", "dying": "+", "dead": "x"}


def cell_of(b: Battle, rs: Ruleset, pos: int) -> tuple[int, int]:
    """The (column, row) of square ``pos`` in the map text."""
    x, y = b.grid.xy(pos)
    if rs.tactics.unit == "hexes":  # textmap draws hex rows offset by one column
        return 2 * x + (y & 1), y
    return x, y


def map_lines(b: Battle, rs: Ruleset) -> list[str]:
    """The map rows as textmap draws them; under zones only the zone map (its letters
    carry the positions; each zone's cover is in the legend)."""
    lines = render_text(b, rs, last_events=0).split("\n")[:b.grid.height]
    if zoned(rs):
        lines = [line[b.grid.width + 3:] for line in lines]
    return lines


def square_at(b: Battle, rs: Ruleset, col: int, row: int) -> int | None:
    """The square drawn at (col, row) (the inverse of cell_of); None off the map or
    between two hexes."""
    x = col
    if rs.tactics.unit == "hexes":  # textmap draws hex rows offset by one column
        if (col - (row & 1)) % 2:
            return None
        x = (col - (row & 1)) // 2
    if not (0 <= x < b.grid.width and 0 <= row < b.grid.height):
        return None
    return row * b.grid.width + x


def combatant_at(b: Battle, rs: Ruleset, col: int, row: int) -> Combatant | None:
    """The combatant drawn at (col, row): a standing one before a downed one."""
    found = [c for c in b.combatants if cell_of(b, rs, c.pos) == (col, row)]
    found.sort(key=lambda c: c.status != ACTIVE)
    return found[0] if found else None


REACH_STYLE = "on grey23"


def render_map(b: Battle, rs: Ruleset, selected: int | None = None,
               targets: frozenset[int] = frozenset(),
               reach: frozenset[int] = frozenset(), zoom: tuple[int, int] = (1, 1)) -> Text:
    """The coloured map; ``targets`` (slots the decision can act on) in reverse video,
    ``selected`` (the target picked on the map) on a white background, ``reach`` (the
    squares a move can end on now) shaded. ``zoom`` (columns, rows): each character of
    the map drawn as a block that size (terrain repeated; a combatant's mark once, in
    the block's first cell, the rest of the block in its style)."""
    rows = [list(line) for line in map_lines(b, rs)]
    styles: dict[tuple[int, int], str] = {}
    for pos in reach:
        col, row = cell_of(b, rs, pos)
        styles[(col, row)] = TERRAIN_STYLE.get(rows[row][col], "grey70") + " " + REACH_STYLE
    for c in sorted(b.combatants, key=lambda c: c.status == ACTIVE):
        col, row = cell_of(b, rs, c.pos)
        cond = condition(c)
        rows[row][col] = DOWN_GLYPH.get(cond, glyph(c.slot))
        style = side_colour(c.side)
        if cond == "dead":
            style = "dim " + style.replace("bold ", "")
        elif cond == "crippled":
            style += " underline"
        if c.slot in targets:
            style += " reverse"
        if c.slot == selected:
            style += " on white"
        styles[(col, row)] = style
    sx, sy = zoom
    marks = {cell_of(b, rs, c.pos) for c in b.combatants}
    text = Text(no_wrap=True)
    for r, cells in enumerate(rows):
        for dy in range(sy):
            for col, ch in enumerate(cells):
                st = styles.get((col, r))
                if st is None:
                    st = TERRAIN_STYLE.get(ch, "grey70" if ch.isalpha() else "")
                if (col, r) in marks:
                    text.append((ch if dy == 0 else " ") + " " * (sx - 1), st)
                else:
                    text.append(ch * sx, st)
            text.append("\n")
    return text


def legend(b: Battle, rs: Ruleset, width: int = 40, reach: bool = False,
           mode: str = "full") -> Text:
    """What the marks mean, wrapped to ``width``: terrain, then each side in its colour,
    then the conditions. ``mode`` (layout.LEGENDS; a short screen, where every line the
    legend saves is a line of the log): "full"; "short", shorter words, one space between
    entries, 2d20's zones grouped by cover; "bare", short without the conditions (the
    status panel draws each combatant's mark and names its condition)."""
    compact = mode != "full"
    parts: list[tuple[str, str]] = []
    if zoned(rs):
        from wasteland.rules.grid import COVER_NAMES
        from wasteland.rules.zones import zone_glyph, zones_for

        zones = zones_for(b.grid)
        parts += [("# wall", "grey50")]
        # each zone's letter and its cover against shots from other zones
        if compact:  # the letters of each cover together: "ABDEF light"
            by_cover: dict[int, str] = {}
            for z in range(zones.count):
                by_cover[zones.cover(z)] = by_cover.get(zones.cover(z), "") + zone_glyph(z)
            parts += [(f"{letters} {COVER_NAMES[cov]}", "grey70")
                      for cov, letters in by_cover.items()]
        else:
            parts += [(f"{zone_glyph(z)} {COVER_NAMES[zones.cover(z)]}", "grey70")
                      for z in range(zones.count)]
    else:  # only the marks this map has
        drawn = set("".join(map_lines(b, rs)))
        parts += [(_short(label) if compact else label, TERRAIN_STYLE[ch])
                  for ch, label in TERRAIN_NAMES if ch in drawn]
    for si, name in enumerate(b.side_names):
        digits = "".join(glyph(c.slot) for c in b.combatants if c.side == si)
        parts.append((f"{digits} {name}", side_colour(si)))
    if mode != "bare":
        parts += [("0 crippled", "underline"), ("o down", ""), ("+ dying", ""),
                  ("x dead", "dim")]
    if reach and not compact:  # (the explanation under the actions says it too)
        parts.append(("shaded: move reach", REACH_STYLE))
    gap = " " if compact else "  "
    text = Text(no_wrap=True)
    used = 0
    for label, style in parts:
        if used and used + len(gap) + len(label) > width:
            text.append("\n")
            used = 0
        elif used:
            text.append(gap)
            used += len(gap)
        text.append(label, style)
        used += len(label)
    return text


def _short(label: str) -> str:
    """A terrain's label on a short screen: "^ high", ", light", "~ obscured"."""
    return label.split(" (")[0].replace(" cover", "").replace(" ground", "")


def map_width(b: Battle, rs: Ruleset) -> int:
    """The columns the map and its legend take: the map's, at least 30."""
    return max(30, max((len(line) for line in map_lines(b, rs)), default=0))


class MapView(Static):
    """The map and its legend; a click on a combatant posts Picked, on a shaded square
    GoTo."""

    class Picked(Message):
        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    class GoTo(Message):
        def __init__(self, x: int, y: int) -> None:
            super().__init__()
            self.x, self.y = x, y

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.battle: Battle | None = None
        self.rules: Ruleset | None = None
        self.reach: frozenset[int] = frozenset()
        self.zoom = (1, 1)

    def show(self, b: Battle, rs: Ruleset, selected: int | None,
             targets: frozenset[int], reach: frozenset[int] = frozenset(),
             zoom: tuple[int, int] = (1, 1), width: int = 30, mode: str = "full") -> None:
        """``width``: the columns inside the panel (the legend fills them); ``mode``:
        the legend's (layout.plan chooses both, and the zoom)."""
        self.battle, self.rules, self.reach, self.zoom = b, rs, reach, zoom
        text = render_map(b, rs, selected, targets, reach, zoom)
        text.append_text(legend(b, rs, width, bool(reach), mode))
        self.update(text)

    def screen_cell(self, pos: int) -> tuple[int, int]:
        """Where square ``pos`` is drawn inside the panel (its block's first cell)."""
        assert self.battle is not None and self.rules is not None
        col, row = cell_of(self.battle, self.rules, pos)
        return col * self.zoom[0], row * self.zoom[1]

    def on_click(self, event: Click) -> None:
        off = event.get_content_offset(self)
        if off is None or self.battle is None or self.rules is None:
            return
        col, row = off.x // self.zoom[0], off.y // self.zoom[1]
        if row >= self.battle.grid.height:
            return
        c = combatant_at(self.battle, self.rules, col, row)
        if c is not None:
            self.post_message(self.Picked(c.slot))
            return
        pos = square_at(self.battle, self.rules, col, row)
        if pos is not None and pos in self.reach:
            x, y = self.battle.grid.xy(pos)
            self.post_message(self.GoTo(x, y))
