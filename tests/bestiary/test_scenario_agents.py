"""A scenario side's optional ``agent`` (issue 10, item 4): random, scripted, packet or
policy:NAME; a policy path is relative to the scenario file and must exist; anything else
is one line naming the file, the side and the accepted values."""

from __future__ import annotations

from pathlib import Path

import pytest

from wasteland.bestiary.loader import BestiaryError, load_scenario
from wasteland.bestiary.schema import json_schema
from wasteland.rules.errors import one_line

SCENARIO = """\
id: two
name: Two
legend: {".": floor}
map: |
  .....
  .....
sides:
  - name: Us
    combatants: [{creature: vault_dweller, at: [0, 0]}]
  - name: Them
    agent: AGENT
    combatants: [{creature: raider, at: [4, 1]}]
"""


def scenario(tmp_path: Path, agent: str) -> Path:
    (tmp_path / "maps").mkdir(exist_ok=True)
    path = tmp_path / "maps" / "two.yaml"
    path.write_text(SCENARIO.replace("AGENT", agent))
    return path


@pytest.mark.parametrize("agent", ["random", "scripted", "packet"])
def test_the_built_in_agents_are_accepted(agent: str, tmp_path: Path) -> None:
    s = load_scenario(scenario(tmp_path, agent))
    assert [side.agent for side in s.sides] == [None, agent]


def test_a_policy_path_is_relative_to_the_scenario_file(tmp_path: Path) -> None:
    (tmp_path / "pol").mkdir()
    for ext in ("npz", "json"):  # only their presence is checked when the scenario loads
        (tmp_path / "pol" / f"tiny.{ext}").write_text("")
    s = load_scenario(scenario(tmp_path, "policy:../pol/tiny.npz"))
    assert s.sides[1].agent == f"policy:{tmp_path / 'pol' / 'tiny.npz'}"
    (tmp_path / "pol" / "tiny.json").unlink()
    with pytest.raises(BestiaryError) as e:
        load_scenario(scenario(tmp_path, "policy:../pol/tiny"))
    assert one_line(str(e.value)) == (
        f"{tmp_path / 'maps' / 'two.yaml'}: scenario 'two': sides[1].agent: no policy file "
        f"{tmp_path / 'pol' / 'tiny.json'}; accepted: random, scripted, packet, policy:NAME "
        f"(a shipped policy, or a path to NAME.npz), search (search@SECONDS, "
        f"search:rollouts=N,...), sloppy, or a level: easy, normal, hard, deadly")


@pytest.mark.parametrize("agent, why", [
    ("human", "unknown agent 'human'; accepted: random, scripted, packet, policy:NAME"),
    ("'policy: x'", "unknown agent 'policy: x'; accepted:"),
    ("'packet,random'", "unknown agent 'packet,random'; accepted:"),
    ("3", "Input should be a valid string"),
    ("policy:no_such_policy", "unknown policy 'no_such_policy'; shipped policies:"),
])
def test_a_bad_agent_names_file_side_and_choices(agent: str, why: str, tmp_path: Path) -> None:
    path = scenario(tmp_path, agent)
    with pytest.raises(BestiaryError) as e:
        load_scenario(path)
    msg = one_line(str(e.value))
    assert msg.startswith(f"{path}: scenario 'two': sides[1].agent: {why}"), msg


def test_the_schema_describes_the_agent_field() -> None:
    side = json_schema("scenario")["$defs"]["Side"]["properties"]["agent"]
    assert "policy:NAME" in side["description"]
