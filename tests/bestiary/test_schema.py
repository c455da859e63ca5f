"""The committed JSON Schemas (wasteland/bestiary/schema/*.schema.json) match the pydantic
models, and the data files validate against them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from wasteland.bestiary import schema
from wasteland.bestiary.loader import DATA, SCENARIOS, SINGULAR


def test_schema_files_are_in_sync_with_the_models() -> None:
    stale = schema.stale()
    assert not stale, (
        f"JSON Schemas out of date for: {', '.join(stale)}. The bestiary models changed; "
        f"run `{schema.REGENERATE}` and commit wasteland/bestiary/schema/."
    )


def test_one_schema_per_kind() -> None:
    files = sorted(p.name for p in schema.SCHEMA_DIR.glob("*.json"))
    assert files == sorted(f"{k}.schema.json" for k in schema.MODELS)
    for kind in schema.MODELS:
        doc = json.loads(schema.schema_path(kind).read_text(encoding="utf-8"))
        assert doc["$schema"].endswith("2020-12/schema")
        assert doc["additionalProperties"] is False  # typos are errors, as in the loader
        assert "id" in doc["required"]


def test_regenerating_writes_exactly_the_committed_files(tmp_path: Path) -> None:
    written = schema.write_schemas(tmp_path)
    assert [p.name for p in written] == [f"{k}.schema.json" for k in schema.MODELS]
    for p in written:
        assert p.read_text(encoding="utf-8") == (schema.SCHEMA_DIR / p.name).read_text("utf-8")
    assert schema.stale(tmp_path) == []
    (tmp_path / "armor.schema.json").write_text("{}\n", encoding="utf-8")
    (tmp_path / "item.schema.json").unlink()
    assert schema.stale(tmp_path) == ["armor", "item"]


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert schema.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out
    assert schema.main(["--bogus"]) == 2
    assert "--check" in capsys.readouterr().out
    assert schema.main(["--help"]) == 0


def test_the_qualities_and_their_descriptions_reach_the_schema() -> None:
    doc = schema.json_schema("weapon")
    quals = doc["$defs"]["Qualities"]["properties"]
    assert len(quals) == 12
    assert all(q.get("description") for q in quals.values())


def test_data_files_validate_against_the_schemas() -> None:
    import jsonschema
    for folder, kind in SINGULAR.items():
        validator = jsonschema.Draft202012Validator(schema.json_schema(kind))
        for path in sorted((DATA / folder).glob("*.yaml")):
            validator.validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    validator = jsonschema.Draft202012Validator(schema.json_schema("scenario"))
    for path in sorted(SCENARIOS.glob("*.yaml")):
        validator.validate(yaml.safe_load(path.read_text(encoding="utf-8")))
