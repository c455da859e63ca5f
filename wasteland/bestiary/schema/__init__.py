"""JSON Schemas of the bestiary files, generated from the pydantic models.

The ``<kind>.schema.json`` files next to this module (``wasteland/bestiary/schema/``) let
editors validate and complete the YAML files (e.g. with a ``# yaml-language-server:
$schema=...`` comment). They are generated, never edited by hand; a test fails when they
drift from the models. This is a package rather than a ``schema.py`` module so that the
module and the folder of JSON files are one import path, not two that tools may confuse.

Regenerate with::

    python -m wasteland.bestiary.schema
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pydantic import BaseModel

from wasteland.limits import LimitError, read_text

from ..models import Armor, Creature, Item, Scenario, Weapon

SCHEMA_DIR = Path(__file__).parent
REGENERATE = "python -m wasteland.bestiary.schema"
MODELS: dict[str, type[BaseModel]] = {
    "weapon": Weapon,
    "armor": Armor,
    "item": Item,
    "creature": Creature,
    "scenario": Scenario,
}
_TITLES = {
    "weapon": "a weapon file (wasteland/bestiary/data/weapons/*.yaml)",
    "armor": "an armor file (wasteland/bestiary/data/armor/*.yaml)",
    "item": "an item file (wasteland/bestiary/data/items/*.yaml)",
    "creature": "a creature file (wasteland/bestiary/data/creatures/*.yaml)",
    "scenario": "a scenario file (wasteland/bestiary/scenarios/*.yaml)",
}


def schema_path(kind: str, directory: Path | None = None) -> Path:
    return (directory or SCHEMA_DIR) / f"{kind}.schema.json"


def json_schema(kind: str) -> dict:
    """The JSON Schema (draft 2020-12) of one kind of bestiary file."""
    schema = MODELS[kind].model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$comment": f"Generated from wasteland.bestiary.models; regenerate with `{REGENERATE}`.",
        "description": f"Wasteland bestiary: {_TITLES[kind]}",
        **schema,
    }


def render(kind: str) -> str:
    """The exact text of a schema file: stable key order, two-space indent, final newline."""
    return json.dumps(json_schema(kind), indent=2, ensure_ascii=False) + "\n"


def stale(directory: Path | None = None) -> list[str]:
    """Kinds whose schema file is missing or differs from the models."""
    out = []
    for kind in MODELS:
        path = schema_path(kind, directory)
        try:
            current = read_text(path, "manifest")
        except LimitError:  # missing, not a regular file, too large: rewritten
            current = None
        if current != render(kind):
            out.append(kind)
    return out


def write_schemas(directory: Path | None = None) -> list[Path]:
    """Write every schema file; returns the paths written."""
    directory = directory or SCHEMA_DIR
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind in MODELS:
        path = schema_path(kind, directory)
        path.write_text(render(kind), encoding="utf-8")
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(f"usage: {REGENERATE} [--check]\n"
              f"Writes the JSON Schemas of the bestiary files to {SCHEMA_DIR}; "
              "--check only reports whether they are up to date.")
        return 0
    if args and args[0] == "--check":
        kinds = stale()
        if kinds:
            print(f"out of date: {', '.join(kinds)}; run `{REGENERATE}`")
            return 1
        print("bestiary schemas are up to date")
        return 0
    if args:
        print(f"unknown argument {args[0]!r}; accepted: --check, --help")
        return 2
    for path in write_schemas():
        print(f"wrote {path}")
    return 0
