"""Regenerate the crafted bad YAML files of tests/data/bad/scenarios and
tests/data/bad/bestiary (deterministic; run from anywhere):

    .venv/bin/python tests/data/bad/make_yaml_cases.py

The answers.yaml files next to them are written by hand, not by this script. Files too
big to commit (over the 1 MB cap) are not made here: answers.yaml describes them under
``generated:`` and the walker (tests/test_bad_inputs.py) writes them into its tmp_path.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scenario(rows: list[str], max_rounds: int = 30, name: str = "bad") -> str:
    """A scenario that is fine except for its map and round limit."""
    w, h = len(rows[0]), len(rows)
    body = "\n".join("  " + r for r in rows)
    return (f"id: {name}\nname: {name}\nmax_rounds: {max_rounds}\nlegend:\n  \".\": floor\n"
            f"  \"#\": wall\nmap: |\n{body}\nsides:\n  - name: A\n    combatants:\n"
            f"      - {{creature: vault_dweller, at: [1, 1]}}\n  - name: B\n    combatants:\n"
            f"      - {{creature: raider, at: [{w - 2}, {h - 2}]}}\n")


def room(w: int, h: int) -> list[str]:
    return ["#" * w] + ["#" + "." * (w - 2) + "#" for _ in range(h - 2)] + ["#" * w]


def laughs(levels: int = 9) -> str:
    """Each anchor a list of ten aliases of the one before: 10**levels values loaded."""
    out = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        out.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(out) + "\n"


def block_nest(depth: int) -> str:
    """A mapping nested ``depth`` deep in block style (small: two spaces a level)."""
    return "".join(f"{'  ' * i}k{i}:\n" for i in range(depth)) + f"{'  ' * depth}x\n"


DATA = HERE.parents[2] / "wasteland" / "bestiary" / "data"


def raider(old: str, new: str) -> str:
    """The built-in raider renamed bad_raider, with ``old`` replaced by ``new`` once."""
    text = (DATA / "creatures" / "raider.yaml").read_text(encoding="utf-8")
    assert old in text, old
    return text.replace(old, new, 1).replace("id: raider", "id: bad_raider", 1)


def pistol(line: str) -> str:
    """The built-in 10mm pistol renamed bad_pistol, with ``line`` added to its qualities."""
    text = (DATA / "weapons" / "10mm_pistol.yaml").read_text(encoding="utf-8")
    return text.replace("id: 10mm_pistol", "id: bad_pistol", 1).replace(
        "qualities: {lucky: 1}", "qualities: {lucky: 1, " + line + "}", 1)


WALLED = ["########", "#..#...#", "#..#...#", "########"]

CASES: dict[str, bytes | str] = {
    # scenarios
    "scenarios/map_50x50.yaml": scenario(room(50, 50)),
    "scenarios/map_33_wide.yaml": scenario(room(33, 5)),
    "scenarios/map_21x20.yaml": scenario(room(21, 20)),
    "scenarios/max_rounds_1000000000.yaml": scenario(room(8, 5), max_rounds=1_000_000_000),
    "scenarios/max_rounds_0.yaml": scenario(room(8, 5), max_rounds=0),
    "scenarios/deep_100000.yaml": "[" * 100_000 + "]" * 100_000 + "\n",
    "scenarios/deep_block_100.yaml": block_nest(100),
    "scenarios/billion_laughs.yaml": laughs(),
    "scenarios/recursive_alias.yaml": "id: &a [1, *a]\n",
    "scenarios/random_bytes.yaml": random.Random(8).randbytes(512),
    "scenarios/nul_byte.yaml": "id: bad\x00\nname: x\n",
    "scenarios/integer_5000_digits.yaml": "id: x\nmax_rounds: " + "9" * 5000 + "\n",
    "scenarios/python_tag.yaml": "id: !!python/object/apply:os.system [echo hi]\n",
    # issue 23: what loaded but could not be saved, or played silently wrong
    "scenarios/walled_off.yaml": scenario(WALLED).replace("at: [6, 2]", "at: [5, 2]"),
    "scenarios/side_name_newline.yaml": scenario(room(8, 5)).replace(
        "- name: B", '- name: "B\\nResult: A"'),
    "scenarios/side_names_twice.yaml": scenario(room(8, 5)).replace("- name: B", "- name: A"),
    "scenarios/combatant_id_space.yaml": scenario(room(8, 5)).replace(
        "at: [1, 1]}", 'at: [1, 1], id: "Big Ted"}'),
    "scenarios/combatant_id_newline.yaml": scenario(room(8, 5)).replace(
        "at: [1, 1]}", 'at: [1, 1], id: "ted\\nraider_0: end"}'),
    "scenarios/at_booleans.yaml": scenario(room(8, 5)).replace("at: [1, 1]", "at: [true, true]"),
    "scenarios/max_rounds_true.yaml": scenario(room(8, 5)).replace("max_rounds: 30",
                                                                   "max_rounds: true"),
    # issue 39: an IndexError in fight, evaluate, the env and `serve`
    "scenarios/map_empty.yaml": scenario(room(8, 5)).replace(
        "map: |\n" + "".join(f"  {r}\n" for r in room(8, 5)), 'map: ""\n'),
    "bestiary/creatures/hp_1e18.yaml": raider("  hp: 24\n", "  hp: 1000000000000000000\n"),
    "bestiary/creatures/hp_float.yaml": raider("  hp: 24\n", "  hp: 1.0e+18\n"),
    "bestiary/creatures/initiative_1e100.yaml": raider("  initiative: 1\n",
                                                       "  initiative: 1.0e+100\n"),
    "bestiary/creatures/initiative_huge.yaml": raider("  initiative: 1\n",
                                                      "  initiative: " + "9" * 40 + "\n"),
    "bestiary/creatures/ammo_negative.yaml": raider('ammo: {".38": 18}', 'ammo: {".38": -5}'),
    "bestiary/creatures/stimpaks_negative.yaml": raider("items: {healing_powder: 1}",
                                                        "items: {healing_powder: -1}"),
    "bestiary/creatures/hp_true.yaml": raider("  hp: 24\n", "  hp: true\n"),
    "bestiary/creatures/id_space.yaml": raider("id: raider", "id: bad raider"),
    "bestiary/creatures/name_newline.yaml": raider("name: Raider", 'name: "Raider\\nResult: x"'),
    "bestiary/weapons/armor_vulnerable_inf.yaml": pistol("armor_vulnerable: .inf"),
    "bestiary/weapons/armor_vulnerable_1e308.yaml": pistol("armor_vulnerable: 1.0e+308"),
    "bestiary/weapons/brutal_inf.yaml": pistol("brutal: .inf"),
    "bestiary/weapons/brutal_nan.yaml": pistol("brutal: .nan"),
    "bestiary/weapons/lucky_true.yaml": pistol("lethal: true"),
    "bestiary/weapons/damage_bonus_huge.yaml": pistol("burning: 2").replace(
        "damage: 2d6\n", "damage: 2d6+" + "9" * 5000 + "\n", 1),
    # bestiary entries, each dropped into a copy of the built-in data
    "bestiary/creatures/deep_flow_100000.yaml": "id: deep\nhit_locations: "
    + "[" * 100_000 + "]" * 100_000 + "\n",
    "bestiary/creatures/deep_block_100.yaml": block_nest(100),
    "bestiary/creatures/aliases_bomb.yaml": laughs() + "id: bomb\n",
    "bestiary/creatures/random_bytes.yaml": random.Random(9).randbytes(512),
    "bestiary/weapons/python_tag.yaml": "id: !!python/object/apply:os.system [echo hi]\n",
    "bestiary/items/utf16.yaml": "id: stimpak\nname: Stimpak\n".encode("utf-16"),
}


def main() -> None:
    for name, content in CASES.items():
        path = HERE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
    print(f"wrote {len(CASES)} files under {HERE}")


if __name__ == "__main__":
    main()
