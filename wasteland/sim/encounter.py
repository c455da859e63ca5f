"""Choosing the encounter for play, gm and simulate: which side the people at the table
play, and optionally who fights (your character or squad, and the enemies) on a
scenario's map. Here, under sim/, because the simulations build encounters too and the
commands sit above them."""

from __future__ import annotations

from typing import Any

from wasteland.bestiary.loader import check_scenario, default_bestiary, load_scenario
from wasteland.bestiary.models import Scenario
from wasteland.rules.errors import WastelandError
from wasteland.rules.grid import Grid, grid_for


def resolve_side(scenario: Scenario, text: str) -> int:
    names = [s.name.lower() for s in scenario.sides]
    if text.isascii() and text.isdigit() and int(text) < len(names):
        return int(text)
    if text.lower() in names:
        return names.index(text.lower())
    raise WastelandError(f"unknown side {text!r}; sides: "
                         + ", ".join(f"{i} {s.name}" for i, s in enumerate(scenario.sides)))


def creature_ids(text: str, option: str) -> list[str]:
    """Comma-separated creature ids, each optionally preceded by a count: "3 radscorpion,
    super_mutant" is three radscorpions and a super mutant."""
    out: list[str] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        count = 1
        if len(words) == 2 and words[0].isdigit():
            count = _count(words[0], part.strip(), option)
            words = words[1:]
        if len(words) != 1:
            raise WastelandError(f"{option}: {part.strip()!r} is not a creature id or "
                                 f"'COUNT creature_id' (e.g. '3 radscorpion')")
        out += [words[0]] * count
    return out


def _count(digits: str, part: str, option: str) -> int:
    """The count ``digits`` that begins ``part`` of a creature list, checked."""
    from wasteland.rules.actions import MAX_COMBATANTS

    # int() refuses more than 4,300 digits, and digits such as '²' at all, with a
    # ValueError; no count that long fits in a battle anyway
    if digits.isdecimal() and len(digits.lstrip("0")) <= len(str(MAX_COMBATANTS)):
        count = int(digits)
        if 1 <= count <= MAX_COMBATANTS:
            return count
    shown = repr(part)
    if len(digits) > 20:  # the whole number would make the one line thousands long
        rest = part[len(digits):]
        shown = f"'{digits[:3]}...{digits[-3:]}{rest}' (a count of {len(digits):,} digits)"
    raise WastelandError(f"{option}: {shown}: a count from 1 to {MAX_COMBATANTS} (a battle "
                         f"holds {MAX_COMBATANTS} combatants)")


def encounter(name: str, side: str, character: str | None = None,
              enemies: str | None = None,
              options: tuple[str, str] = ("--character", "--enemies")) -> tuple[Scenario, int]:
    """The scenario, with your side's and the other sides' creatures replaced when given
    (comma-separated creature ids, each with an optional count: "3 radscorpion, raider");
    extra creatures stand on the free squares nearest to where their side starts.
    ``options`` names the two lists in errors, as the command calls them."""
    sc = load_scenario(name)
    me = resolve_side(sc, side)
    if not character and not enemies:
        return sc, me
    bestiary = default_bestiary()
    lists = {"character": creature_ids(character or "", options[0]),
             "enemies": creature_ids(enemies or "", options[1])}
    for named in lists.values():
        for cid in named:
            bestiary.creature(cid)  # one-line error for an unknown creature
    legend: dict[str, list[str]] = {
        k: ([v] if isinstance(v, str) else list(v)) for k, v in sc.legend.items()}
    grid = grid_for(sc.rows(), legend)
    data = sc.model_dump()
    taken: set[tuple[int, int]] = set()
    wanted: dict[int, list[str]] = {}
    for si in range(len(sc.sides)):
        ids = (lists["character"] if si == me
               else lists["enemies"] if si == (1 if me == 0 else 0) else [])
        if ids:
            wanted[si] = ids
        else:
            taken.update((p.at[0], p.at[1]) for p in sc.sides[si].combatants)
    for si, creatures in wanted.items():
        data["sides"][si]["combatants"] = place(sc, grid, si, creatures, taken)
        # the enemies, often named for the creatures they had ("Radscorpions"), take their
        # new creatures' names; your side keeps its name ("Vault", "Party")
        name = side_name([bestiary.creature(c).name for c in creatures])
        if si != me and name not in (s["name"] for s in data["sides"]):
            data["sides"][si]["name"] = name
    custom = Scenario.model_validate(data)
    check_scenario(custom, bestiary, f"{sc.id} (custom encounter)")
    return custom, me


def side_name(names: list[str]) -> str:
    """A side's name from its creatures' names: "Super mutant and Raider", each kind once
    in the order given; "Super mutant, Raider and 2 more" past three kinds."""
    from wasteland.limits import MAX_NAME

    kinds = list(dict.fromkeys(names))
    shown = kinds if len(kinds) <= 3 else [*kinds[:2], f"{len(kinds) - 2} more"]
    text = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    return text[:MAX_NAME]


def place(sc: Scenario, grid: Grid, si: int, creatures: list[str],
          taken: set[tuple[int, int]]) -> list[dict[str, Any]]:
    """Placements for ``creatures`` of side ``si`` on the free squares (not in ``taken``,
    which grows) nearest by walking to where the side's first combatant stands."""
    start = grid.index(*sc.sides[si].combatants[0].at)
    walk = grid.walk_distances(start)
    squares = sorted((c for c in range(grid.n_cells) if walk[c] < 1 << 20),
                     key=lambda c: (walk[c], c))
    placed: list[dict[str, Any]] = []
    for creature in creatures:
        cell = next((c for c in squares if grid.xy(c) not in taken), None)
        if cell is None:
            raise WastelandError(f"no free square left for {creature} on {sc.id}")
        taken.add(grid.xy(cell))
        placed.append({"creature": creature, "at": list(grid.xy(cell))})
    return placed
