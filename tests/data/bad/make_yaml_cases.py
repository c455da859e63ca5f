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
