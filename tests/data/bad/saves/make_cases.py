"""Regenerate the crafted bad saves in this folder (deterministic; run from anywhere):

    .venv/bin/python tests/data/bad/saves/make_cases.py

Three real saves are built from the rules (a PnP fight, a 2d20 fight, and a GM session
under PnP with physical dice and a newcomer), then each case below edits one thing in
one of them and is written as ``<case>.json`` (whatever its content: not every case is
JSON). answers.yaml, next to them, gives the fragment of the one-line SaveError each file
must get from ``wasteland.rules.saves.load``; it is written by hand, not by this script.
Every ``*.json`` file here that is not made by this script is removed.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wasteland.bestiary.loader import load_scenario
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.newcomers import join
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.savemodel import MAX_HISTORY

HERE = Path(__file__).resolve().parent
Save = dict[str, Any]


# --- the real saves the cases are made from ------------------------------------------------
def fight(ruleset: str, seed: int, moves: int) -> Save:
    """vault_corridor played for ``moves`` legal actions, always the middle legal one."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), seed)
    for _ in range(moves):
        ids = rs.legal_ids(b)
        rs.apply(b, ACTION_TABLE[ids[len(ids) // 2]])
    assert not b.over
    return saves.to_dict(b)


def gm_session() -> Save:
    """A GM's table under PnP: the Vault side's dice rolled at the table (physical dice),
    a raider joins the Radscorpions after a few actions."""
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("vault_corridor"), 5)
    table = random.Random(5)

    def physical(who: int, sides: int, n: int, why: str) -> list[int] | None:
        if who < 0 or b.combatants[who].side != 0:
            return None
        return [table.randint(1, sides) for _ in range(n)]

    b.session = {"id": "0" * 32, "command": "gm",
                 "options": {"ruleset": "pnp", "scenario": "vault_corridor", "party": None,
                             "seed": 5, "physical_dice": True, "character": None,
                             "enemies": None},
                 "humans": [0], "agents": []}
    b.dice_hook = physical
    for i in range(30):
        if i == 4:
            join(b, "raider", (10, 3), 1)
        ids = rs.legal_ids(b)
        # prefer attacks so that table dice are rolled
        attacks = [a for a in ids if ACTION_TABLE[a].kind == "attack"]
        rs.apply(b, ACTION_TABLE[(attacks or ids)[0]])
        if b.over:
            break
    b.dice_hook = None
    assert not b.over
    d = saves.to_dict(b)
    assert any(h.startswith("@dice ") for h in d["history"]), d["history"]
    assert any(h.startswith("@join ") for h in d["history"]), d["history"]
    return d


# --- small editing helpers -----------------------------------------------------------------
def edit(base: Save, change: Callable[[Save], None]) -> Save:
    d = copy.deepcopy(base)
    change(d)
    return d


def combatant(d: Save, i: int) -> dict[str, Any]:
    c: dict[str, Any] = d["state"]["combatants"][i]
    return c


def setc(i: int, field: str, value: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        combatant(d, i)[field] = value
    return change


def settop(field: str, value: Any) -> Callable[[Save], None]:
    def change(d: Save) -> None:
        d[field] = value
    return change


def js(d: Any) -> str:
    return json.dumps(d, separators=(",", ":"))


def first_index(d: Save, pred: Callable[[str], bool]) -> int:
    return next(i for i, h in enumerate(d["history"]) if pred(h))


def cases() -> dict[str, str | bytes]:
    pnp = fight("pnp", 3, 12)
    f2d = fight("f2d20", 3, 12)
    gm = gm_session()
    out: dict[str, Any] = {}

    # the three bases must load; they are not bad cases, so they are not written
    for name, d in (("pnp", pnp), ("f2d20", f2d), ("gm", gm)):
        saves.loads(js(d), f"base {name}")

    # --- state: bounds and types -----------------------------------------------------------
    out["hp_minus_50_active"] = edit(pnp, setc(1, "hp", -50))
    out["hp_lots"] = edit(pnp, setc(1, "hp", "lots"))
    out["hp_over_max"] = edit(pnp, lambda d: combatant(d, 1).update(
        hp=combatant(d, 1)["max_hp"] + 5))
    out["ammo_negative"] = edit(pnp, lambda d: combatant(d, 0)["ammo"].update(
        {k: -3 for k in combatant(d, 0)["ammo"]}))
    out["pos_negative"] = edit(pnp, setc(2, "pos", -1))
    out["on_wall"] = edit(pnp, setc(2, "pos", 0))                     # (0, 0) is a wall
    out["off_map"] = edit(pnp, setc(2, "pos", 500))                   # 20x6 map
    out["occupied"] = edit(pnp, lambda d: combatant(d, 2).update(pos=combatant(d, 3)["pos"]))
    out["status_zombie"] = edit(pnp, setc(3, "status", "zombie"))
    out["hp_true"] = edit(pnp, setc(1, "hp", True))
    out["winner_out_of_range"] = edit(pnp, lambda d: d["state"].update(winner=5))
    out["state_extra_edited"] = edit(pnp, lambda d: d["state"]["extra"].update(max_rounds=5))

    def append_copies(total: int) -> Callable[[Save], None]:
        def change(d: Save) -> None:
            cs = d["state"]["combatants"]
            while len(cs) < total:
                cs.append(copy.deepcopy(cs[-1]))
        return change
    out["combatant_appended"] = edit(pnp, append_copies(5))
    out["eleven_combatants"] = edit(pnp, append_copies(11))
    out["combatant_removed"] = edit(pnp, lambda d: d["state"]["combatants"].pop())
    out["turn_out_of_range"] = edit(pnp, lambda d: d["state"].update(turn=7))
    out["order_unknown_slot"] = edit(pnp, lambda d: d["state"]["order"].__setitem__(0, 9))
    out["rng_too_short"] = edit(pnp, lambda d: d["state"]["rng"].__setitem__(
        1, d["state"]["rng"][1][:100]))
    out["rng_wrong_values"] = edit(pnp, lambda d: d["state"]["rng"][1].__setitem__(
        0, (d["state"]["rng"][1][0] + 1) % 2**32))
    out["rng_value_out_of_range"] = edit(pnp, lambda d: d["state"]["rng"][1].__setitem__(
        5, 2**40))
    out["state_hp_one_lower"] = edit(pnp, lambda d: combatant(d, 0).update(
        hp=combatant(d, 0)["hp"] - 1))
    out["f2d20_hp_one_lower"] = edit(f2d, lambda d: combatant(d, 1).update(
        hp=combatant(d, 1)["hp"] - 1))

    # --- top level -------------------------------------------------------------------------
    out["seed_string"] = edit(pnp, settop("seed", "3"))
    out["seed_10_pow_30"] = edit(pnp, settop("seed", 10**30))
    out["pnp_as_f2d20"] = edit(pnp, settop("ruleset", "f2d20"))
    out["f2d20_as_pnp"] = edit(f2d, settop("ruleset", "pnp"))
    out["unknown_ruleset"] = edit(pnp, settop("ruleset", "gurps"))
    out["version_99"] = edit(pnp, settop("version", 99))
    out["format_missing"] = edit(pnp, lambda d: d.pop("format"))
    out["extra_top_level_field"] = edit(pnp, settop("cheats", True))
    out["max_rounds_10_pow_9"] = edit(pnp, settop("max_rounds", 10**9))
    out["session_unknown_command"] = edit(gm, lambda d: d["session"].update(command="cheat"))

    # --- history and log -------------------------------------------------------------------
    out["history_wrong_actor"] = edit(pnp, lambda d: d["history"].__setitem__(
        0, "ted: " + d["history"][0].partition(": ")[2]))
    # radscorpion_1 acts first and carries no weapon that loads
    out["history_illegal_action"] = edit(pnp, lambda d: d["history"].__setitem__(
        0, d["history"][0].partition(": ")[0] + ": reload"))
    out["history_unknown_directive"] = edit(pnp, lambda d: d["history"].insert(
        2, "@teleport ted 5 3"))

    def dice_face(d: Save) -> None:
        i = first_index(d, lambda h: h.startswith("@dice "))
        head, _, why = d["history"][i].partition(" (")
        parts = head.split()
        sides = int(parts[2].split("d")[1])
        parts[3] = str(sides + 1)
        d["history"][i] = " ".join(parts) + " (" + why
    out["dice_face_out_of_range"] = edit(gm, dice_face)

    def dice_unasked(d: Save) -> None:
        # after the first NPC action (no table dice are asked for an NPC)
        i = first_index(d, lambda h: h.startswith("radscorpion_"))
        d["history"].insert(i + 1, "@dice radscorpion_1 3d6 4 4 4 (initiative)")
    out["dice_never_asked"] = edit(gm, dice_unasked)

    def join_on_wall(d: Save) -> None:
        i = first_index(d, lambda h: h.startswith("@join "))
        p = d["history"][i].split()
        p[3], p[4] = "0", "0"
        d["history"][i] = " ".join(p)
    out["join_on_wall"] = edit(gm, join_on_wall)

    # MAX_HISTORY + 1 entries of the shortest line: ~300 KB
    out["history_too_long"] = edit(pnp, settop("history", [""] * (MAX_HISTORY + 1)))
    out["history_line_too_long"] = edit(pnp, lambda d: d["history"].__setitem__(
        1, d["history"][1] + " " * 500))
    out["log_line_added"] = edit(pnp, lambda d: d["log"].append("ted wins the fight."))
    out["log_edited"] = edit(pnp, lambda d: d["log"].__setitem__(
        3, d["log"][3].replace("=", "= 18 ; was")))

    # --- scenario and bestiary carried in the save -----------------------------------------
    def big_map(d: Save) -> None:
        rows = ["#" * 50] + ["#" + "." * 48 + "#" for _ in range(48)] + ["#" * 50]
        d["scenario"]["map"] = "\n".join(rows) + "\n"
    out["scenario_map_50x50"] = edit(pnp, big_map)
    out["creature_unknown_field"] = edit(pnp, lambda d: d["bestiary"]["creatures"][0].update(
        colour="blue"))
    out["scenario_eleven_combatants"] = edit(pnp, lambda d: d["scenario"]["sides"][1].update(
        combatants=[{"creature": "radscorpion", "at": [x, 2], "id": f"rs{x}", "ai": None}
                    for x in range(5, 14)]))
    out["bestiary_creature_missing"] = edit(pnp, lambda d: d["bestiary"].update(
        creatures=[c for c in d["bestiary"]["creatures"] if c["id"] != "radscorpion"]))

    # --- a newline in a name the message repeats: the answer must stay one line -------------
    out["newline_in_top_level_key"] = edit(pnp, settop("cheat\nmode", True))
    out["newline_in_ammo_key"] = edit(pnp, lambda d: combatant(d, 0)["ammo"].update(
        {"10mm\nx": -1}))
    out["newline_in_history_actor"] = edit(pnp, lambda d: d["history"].__setitem__(
        0, "ted\nkat: " + d["history"][0].partition(": ")[2]))
    out["newline_in_creature_field"] = edit(pnp, lambda d: d["bestiary"]["creatures"][0].update(
        {"col\nour": "blue"}))
    out["newline_in_state_extra_key"] = edit(pnp, lambda d: d["state"]["extra"].update(
        {"max\nrounds": 5}))

    # --- not a save at all -----------------------------------------------------------------
    text = js(pnp)
    result: dict[str, str | bytes] = {k: js(v) for k, v in out.items()}
    result["not_json"] = "This is not a save. It is a shopping list: stimpaks, 10mm, Nuka.\n"
    result["truncated"] = text[: len(text) // 2]
    result["random_bytes"] = bytes([0xFF, 0xFE, 0x80]) + random.Random(8).randbytes(509)
    result["empty"] = ""
    result["json_null"] = "null"
    result["json_list"] = js([pnp["format"], pnp["version"]])
    result["json_number"] = "42"
    result["nested_100000"] = "[" * 100_000 + "]" * 100_000
    result["seed_100000_digits"] = text.replace(f'"seed":{pnp["seed"]},',
                                                '"seed":' + "9" * 100_000 + ",", 1)
    result["seed_1e999999"] = text.replace(f'"seed":{pnp["seed"]},', '"seed":1e999999,', 1)
    assert result["seed_100000_digits"] != text and result["seed_1e999999"] != text
    return result


def main() -> int:
    made = cases()
    for old in HERE.glob("*.json"):
        if old.stem not in made:
            old.unlink()
    for name, content in sorted(made.items()):
        path = HERE / f"{name}.json"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    print(f"{len(made)} cases written to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
