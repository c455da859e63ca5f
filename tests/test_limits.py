"""The caps of wasteland/limits.py: where each is enforced and the helpers the loaders
share (the files that run into them are walked in tests/test_bad_inputs.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from wasteland import limits
from wasteland.bestiary.loader import BestiaryError, load_scenario, parse_entry, read_yaml
from wasteland.bestiary.models import Scenario
from wasteland.envs import combat_v0
from wasteland.limits import (
    MAX_DEPTH,
    MAX_ROUNDS,
    LimitError,
    check_json_nesting,
    json_depth,
    json_depth_ok,
)
from wasteland.rules.errors import SaveError, WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset


def scenario_data(w: int, h: int, max_rounds: int = 30) -> dict:
    rows = ["." * w for _ in range(h)]
    return {"id": "t", "name": "T", "map": "\n".join(rows), "legend": {".": "floor"},
            "max_rounds": max_rounds,
            "sides": [{"name": "A", "combatants": [{"creature": "vault_dweller", "at": [0, 0]}]},
                      {"name": "B", "combatants": [{"creature": "raider", "at": [w - 1, h - 1]}]}]}


# --- JSON nesting, for the save loader -----------------------------------------------------
def test_json_depth_counts_brackets_outside_strings() -> None:
    assert json_depth('{"a": [1, {"b": []}], "c": "[[[[{{{{{{"}') == 4
    assert json_depth(r'["\"[[[[", "\\", [[]]]') == 3  # escaped quotes end no string
    assert json_depth("3") == 0
    assert json_depth("[" * 10 + "]" * 10) == 10


def test_json_depth_counts_outside_strings_only() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert json_depth(deep, stop=MAX_DEPTH) > MAX_DEPTH
    assert json_depth('[1, {"a": "[[[{{", "b": [[2]]}], "\\"[["') == 4
    assert json_depth('"\\\"[[["') == 0 and json_depth("") == 0
    assert not json_depth_ok(deep)
    assert json_depth_ok("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert not json_depth_ok("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)  # what the cap lets through loads


def test_check_json_nesting_raises_the_callers_error_in_one_line() -> None:
    deep = '{"a": ' * 500 + "1" + "}" * 500
    with pytest.raises(SaveError) as err:
        check_json_nesting(deep, "game.json", SaveError)
    assert str(err.value) == (f"game.json: lists and objects nested more than {MAX_DEPTH} deep; "
                              f"at most {MAX_DEPTH} are accepted")
    with pytest.raises(LimitError):
        check_json_nesting(deep, "x")
    check_json_nesting('{"a": [1, 2]}', "x")


# --- YAML: with libyaml and without ------------------------------------------------------
@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
@pytest.mark.parametrize(("text", "answer"), [
    ("[" * 100_000 + "]" * 100_000, f"nested more than {MAX_DEPTH} deep"),
    ("".join(f"{'  ' * i}k:\n" for i in range(100)) + "  " * 100 + "1\n",
     f"nested more than {MAX_DEPTH} deep"),
    ("a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nb: &b [" + ", ".join(["*a"] * 10) + "]\n"
     "c: &c [" + ", ".join(["*b"] * 10) + "]\nd: [" + ", ".join(["*c"] * 10) + "]\n",
     "more than 10000 values"),
    ("a: &a {b: *a}", "refers to a collection that contains it"),
], ids=["flow", "block", "aliases", "recursive"])
def test_yaml_caps_with_either_parser(text: str, answer: str, libyaml: bool, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    if not libyaml:
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BestiaryError) as err:
        read_yaml(path)
    assert answer in str(err.value) and "\n" not in str(err.value)


def test_yaml_within_the_caps_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    deepest = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)  # in the top mapping: 64 levels
    text = f"a: &a [1, 2]\nb: [*a, *a]\nc: {deepest}\n"
    path.write_text(text, encoding="utf-8")
    assert read_yaml(path)["b"] == [[1, 2], [1, 2]]


def test_yaml_size_is_capped_while_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("#" * limits.MAX_YAML_BYTES, encoding="utf-8")
    assert read_yaml(path) is None  # exactly at the cap: read
    path.write_text("#" * (limits.MAX_YAML_BYTES + 1), encoding="utf-8")
    with pytest.raises(BestiaryError, match="file larger than 1,000,000 bytes"):
        read_yaml(path)


# --- scenario names and paths --------------------------------------------------------------
@pytest.mark.parametrize("name", ["Duel", "duel ", "du-el", "../duel", "duel\n", "nosuch", "",
                                  "duel.json"])
def test_a_name_that_is_not_built_in_is_refused_with_the_names(name: str) -> None:
    if "/" in name:
        with pytest.raises(BestiaryError, match="cannot read"):
            load_scenario(name)  # a path, read as given (relative to the tmp_path cwd)
        return
    with pytest.raises(BestiaryError) as err:
        load_scenario(name)
    msg = str(err.value)
    close = name.strip().lower().replace("-", "") == "duel"
    hint = " (did you mean 'duel'?)" if close else ""
    assert msg.startswith(f"unknown scenario {name!r}{hint}; built-in: ") and "duel" in msg
    assert "\n" not in msg


def test_a_path_is_read_as_given_never_rewritten(tmp_path: Path) -> None:
    with pytest.raises(BestiaryError, match="duel: cannot read"):
        load_scenario(Path("duel"))  # a Path is a file, even without a suffix
    text = yaml.safe_dump(scenario_data(6, 4))
    (tmp_path / "mine.yml").write_text(text, encoding="utf-8")
    assert load_scenario("mine.yml").id == "t"
    sub = tmp_path / "maps"
    sub.mkdir()
    (sub / "arena").write_text(text, encoding="utf-8")
    assert load_scenario("maps/arena").id == "t"
    assert load_scenario("duel").id == "duel"


# --- the map and the round limit ------------------------------------------------------------
@pytest.mark.parametrize(("w", "h", "ok"), [(32, 12, True), (20, 20, True), (25, 16, True),
                                            (12, 32, True), (32, 13, False), (33, 1, False),
                                            (1, 33, False), (21, 20, False)])
def test_map_size_cap_in_the_model(w: int, h: int, ok: bool) -> None:
    if ok:
        parse_entry(Scenario, scenario_data(w, h), "s.yaml", "scenario")
        return
    with pytest.raises(BestiaryError, match=f"map: .*{w}x{h} squares is too large"):
        parse_entry(Scenario, scenario_data(w, h), "s.yaml", "scenario")


@pytest.mark.parametrize("rounds", [0, -1, MAX_ROUNDS + 1, 10**9])
def test_max_rounds_cap_in_the_model(rounds: int) -> None:
    with pytest.raises(BestiaryError, match=f"from 1 to {MAX_ROUNDS}, got {rounds}"):
        parse_entry(Scenario, scenario_data(6, 4, rounds), "s.yaml", "scenario")
    parse_entry(Scenario, scenario_data(6, 4, MAX_ROUNDS), "s.yaml", "scenario")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("rounds", [0, MAX_ROUNDS + 1, 10**9, True, 2.5])
def test_max_rounds_cap_in_new_battle(ruleset: str, rounds: object) -> None:
    with pytest.raises(WastelandError, match=f"max_rounds must be a whole number from 1 to "
                                             f"{MAX_ROUNDS}"):
        get_ruleset(ruleset).new_battle(load_scenario("duel"), 1, max_rounds=rounds)  # type: ignore[arg-type]
    b = get_ruleset(ruleset).new_battle(load_scenario("duel"), 1, max_rounds=np.int64(MAX_ROUNDS))
    assert b.max_rounds == MAX_ROUNDS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_seed_a_battle_accepts_a_save_can_hold(ruleset: str, tmp_path: Path) -> None:
    """A battle begun with a seed past a save's 64-bit field used to save and then refuse
    to load; now it is refused at once, in one line, and the largest seed round-trips."""
    from wasteland.rules import saves

    rs = get_ruleset(ruleset)
    for seed in (limits.MAX_SEED + 1, -limits.MAX_SEED - 1, 10**20):
        with pytest.raises(WastelandError, match="seed must be a whole number from"):
            rs.new_battle(load_scenario("duel"), seed)
    b = rs.new_battle(load_scenario("duel"), limits.MAX_SEED)
    saves.save(b, tmp_path / "s.json")
    assert saves.load(tmp_path / "s.json").seed == limits.MAX_SEED


def test_map_cap_in_new_battle_for_a_scenario_made_in_code() -> None:
    big = Scenario.model_construct(**{**parse_entry(Scenario, scenario_data(6, 4), "s",
                                                    "scenario").__dict__,
                                      "map": "\n".join(["." * 40] * 40)})
    with pytest.raises(LimitError, match="scenario 't': map: 40x40 squares is too large"):
        get_ruleset("pnp").new_battle(big, 1)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("w", "h"), [(32, 12), (20, 20)])
def test_the_largest_maps_build_a_battle_and_an_env(ruleset: str, w: int, h: int) -> None:
    s = parse_entry(Scenario, scenario_data(w, h), "s.yaml", "scenario")
    e = combat_v0.env(ruleset=ruleset, scenario=s)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    assert obs["action_mask"].any()


# --- an empty map (issue 39) ----------------------------------------------------------------
EMPTY_MAP = "the map is empty (0x0 squares); a map needs at least one row of at least one square"


def _one_line(err: pytest.ExceptionInfo[BaseException], *fragments: str) -> None:
    msg = str(err.value)
    assert "\n" not in msg, msg
    for f in fragments:
        assert f in msg, (f, msg)


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_an_empty_map_is_refused_by_the_model(text: str) -> None:
    with pytest.raises(BestiaryError) as err:
        parse_entry(Scenario, {**scenario_data(6, 4), "map": text}, "s.yaml", "scenario")
    _one_line(err, "s.yaml", "map: " + EMPTY_MAP)


def _empty_in_code() -> Scenario:
    """A scenario built past the model's checks (model_construct), as code may build one."""
    ok = parse_entry(Scenario, scenario_data(6, 4), "s", "scenario")
    return Scenario.model_construct(**{**ok.__dict__, "map": ""})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_empty_map_is_refused_by_new_battle_and_the_env(ruleset: str, tmp_path: Path) -> None:
    """An IndexError in fight, evaluate and the env before; each reader now gets one line."""
    with pytest.raises(LimitError) as err:
        get_ruleset(ruleset).new_battle(_empty_in_code(), 1)
    _one_line(err, "scenario 't': map: " + EMPTY_MAP)
    with pytest.raises(WastelandError) as err:
        combat_v0.env(ruleset=ruleset, scenario=_empty_in_code()).reset(seed=1)
    _one_line(err, EMPTY_MAP)
    path = tmp_path / "empty.yaml"
    path.write_text(yaml.safe_dump({**scenario_data(6, 4), "map": ""}), encoding="utf-8")
    with pytest.raises(WastelandError) as err:
        combat_v0.env(ruleset=ruleset, scenario=str(path)).reset(seed=1)
    _one_line(err, "empty.yaml", EMPTY_MAP)


def test_serve_answers_a_start_with_an_empty_map_in_one_line_and_goes_on() -> None:
    """`wasteland serve` died of the IndexError; it now says why it cannot follow that game
    and answers the next one."""
    import io

    from wasteland.agents import protocol as P
    from wasteland.agents.serve import serve

    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 2)
    d, legal = rs.decider(b), rs.legal_ids(b)
    start = P.start(1, b, d.combatant, 2)
    bad = json.loads(P.dump(start))
    bad["battle"]["scenario"]["map"] = ""
    lines = [json.dumps(bad), P.dump(start), P.dump(P.decide(1, 1, b, rs, d, legal, 0))]
    out = io.StringIO()
    assert serve("packet", lines, out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert replies[0]["type"] == "error" and EMPTY_MAP in replies[0]["message"], replies[0]
    assert "\n" not in replies[0]["message"]
    assert replies[1]["seq"] == 1 and replies[1]["id"] in legal  # the next game is played


# --- read_file: regular files only, and at most the kind's cap (issue 39) --------------------
def test_read_file_reads_a_regular_file_up_to_its_cap(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(limits.MAX_FILE_BYTES, "manifest", 10)
    path = tmp_path / "m.json"
    path.write_bytes(b"0123456789")
    assert limits.read_file(path, "manifest") == b"0123456789"  # exactly at the cap
    assert limits.read_text(path, "manifest") == "0123456789"
    path.write_bytes(b"0123456789A")
    with pytest.raises(LimitError) as err:
        limits.read_file(path, "manifest")
    assert str(err.value) == f"{path}: file larger than 10 bytes; at most 10 are accepted"


@pytest.mark.parametrize("what, answer", [
    ("missing", "cannot read: No such file or directory"),
    ("folder", "a folder, not a regular file; only regular files are read"),
    ("fifo", "a named pipe, not a regular file; only regular files are read"),
    ("dev_zero", "a device, not a regular file; only regular files are read"),
    ("link_to_fifo", "a named pipe, not a regular file"),
])
def test_read_file_refuses_what_is_not_a_regular_file_without_blocking(
        what: str, answer: str, tmp_path: Path) -> None:
    from tests.pipes import fifo, unblocked

    path = tmp_path / "x.yaml"
    pipe = tmp_path / "pipe"
    if what == "folder":
        path.mkdir()
    elif what == "fifo":
        pipe = path = fifo(path)
    elif what == "dev_zero":
        path = Path("/dev/zero")
    elif what == "link_to_fifo":
        path.symlink_to(fifo(pipe))
    with pytest.raises(BestiaryError) as err:  # the caller's error class
        unblocked(lambda: limits.read_file(path, "yaml", BestiaryError), pipe)
    _one_line(err, f"{path}: {answer}")


def test_read_text_names_the_first_byte_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(LimitError) as err:
        limits.read_text(path, "manifest")
    _one_line(err, f"{path}: not UTF-8 text (byte 7: invalid start byte)")


def test_a_scenario_or_a_bestiary_entry_that_is_a_named_pipe_is_refused(tmp_path: Path) -> None:
    """Both hung the loader before read_file (issue 39)."""
    import shutil

    from tests.pipes import fifo, unblocked
    from wasteland.bestiary.loader import DATA, load_bestiary

    pipe = fifo(tmp_path / "pipe.yaml")
    with pytest.raises(BestiaryError) as err:
        unblocked(lambda: load_scenario(pipe), pipe)
    _one_line(err, f"{pipe}: a named pipe, not a regular file")
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    entry = fifo(data / "creatures" / "zz_pipe.yaml")
    with pytest.raises(BestiaryError) as err:
        unblocked(lambda: load_bestiary(data), entry)
    _one_line(err, f"{entry}: a named pipe, not a regular file")
