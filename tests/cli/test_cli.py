"""The `wasteland` command (issue: fight, scenarios, bestiary; one-line errors)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wasteland.bestiary.loader import scenario_names
from wasteland.rules.names import RULESETS


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wasteland.cli.main", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scenario", scenario_names())
def test_fight_ends_with_a_result_and_is_reproducible(ruleset, scenario):
    a = run("fight", "--ruleset", ruleset, "--scenario", scenario, "--seed", "1")
    b = run("fight", "--ruleset", ruleset, "--scenario", scenario, "--seed", "1")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    lines = a.stdout.splitlines()
    last = [ln for ln in lines if ln.startswith("Result: ")]
    assert last and (last[0].endswith("rounds") and (" won after " in last[0] or "draw" in last[0]))
    zoned = ruleset == "f2d20"  # the start and end maps show the zones, the summary the pools
    assert sum(ln.startswith("Zone cover: ") for ln in lines) == (2 if zoned else 0)
    assert sum(ln.startswith("AP pools: ") for ln in lines) == (3 if zoned else 0)
    assert lines[-1].startswith("AP pools: ") == zoned


def test_fight_f2d20_json_has_the_pools():
    p = run("fight", "--ruleset", "f2d20", "--scenario", "ruined_street", "--seed", "2", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["ruleset"] == "f2d20" and d["result"] in ("win", "draw")
    assert set(d["ap_pools"]) == {"Party", "Raiders"}
    assert all(0 <= n <= 6 for n in d["ap_pools"].values())
    assert any(e["event"] == "test" for e in d["events"])


def test_fight_help_lists_the_rulesets():
    out = run("fight", "--help").stdout
    assert all(r in out for r in RULESETS)


def test_help_shows_the_defaults_written_in_brackets():
    """Help texts say "[default: x]"; read as rich markup, the brackets vanished."""
    out = " ".join(run("fight", "--help").stdout.split())
    assert "[default: vault_corridor]" in out and "[default: pnp]" in out
    out = " ".join(run("train", "--help").stdout.split())
    assert "[default: runs/CONFIG_ID]" in out


def test_fight_json_has_result_and_events():
    p = run("fight", "--scenario", "vault_corridor", "--seed", "2", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["result"] in ("win", "draw")
    assert d["events"][0]["event"] == "battle_started"
    assert any(e["event"] == "attack" for e in d["events"])
    assert all({"actor", "action", "reason"} <= set(x) for x in d["decisions"])


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("fight", "--scenario", "nowhere"), "unknown scenario 'nowhere'; built-in:"),
        (("fight", "--ruleset", "gurps"), f"unknown ruleset 'gurps'; available: {', '.join(RULESETS)}"),
        (("fight", "--agents", "genius"), "unknown agent 'genius'; available: random, scripted"),
        (("bestiary", "show", "deathclaw_king"), "unknown bestiary entry 'deathclaw_king'; known:"),
        (("fight", "--seed", "seven"), "Invalid value for '--seed'"),
        (("fight", "--sede", "7"), "No such option: --sede (Possible options: --save, --seed)"),
        (("brawl",), "No such command 'brawl'"),
    ],
)
def test_bad_input_is_one_line_without_traceback(args, fragment):
    p = run(*args)
    assert p.returncode == 2
    assert fragment in p.stderr
    assert "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_scenarios_and_bestiary_json():
    s = json.loads(run("scenarios", "--json").stdout)
    assert {r["id"] for r in s} == set(scenario_names())
    lst = json.loads(run("bestiary", "list", "--json").stdout)
    assert "radscorpion" in {r["id"] for r in lst}
    show = json.loads(run("bestiary", "show", "radscorpion", "--json").stdout)
    assert show["entry"] == "creature" and show["pnp"]["hp"] > 0
    ok = json.loads(run("bestiary", "validate", "--json").stdout)
    assert ok["ok"] is True


def test_validate_reports_a_broken_file(tmp_path):
    d = tmp_path / "creatures"
    d.mkdir()
    (d / "x.yaml").write_text("id: x\nname: [unclosed\n")
    p = run("bestiary", "validate", str(d / "x.yaml"))
    assert p.returncode == 2
    assert "x.yaml: bad YAML" in p.stderr and "Traceback" not in p.stderr


def test_validate_lists_every_broken_file_of_a_folder(tmp_path):
    # issue 26: it stopped at the first bad file
    import shutil

    from wasteland.bestiary.loader import DATA

    root = tmp_path / "data"
    shutil.copytree(DATA, root)
    (root / "weapons" / "w.yaml").write_text("id: w\nname: [unclosed\n")
    (root / "items" / "i.yaml").write_text("- a list\n")
    p = run("bestiary", "validate", str(root))
    assert p.returncode == 2 and "Traceback" not in p.stderr
    lines = p.stderr.splitlines()
    assert len(lines) == 3 and lines[-1] == "2 problems"
    assert "w.yaml: bad YAML" in lines[0] and "i.yaml: expected a mapping" in lines[1]
    out = json.loads(run("bestiary", "validate", str(root), "--json").stdout)
    assert out["ok"] is False and len(out["errors"]) == 2 and out["error"] == out["errors"][0]


def test_show_suggests_a_close_name():
    p = run("bestiary", "show", "radscorpoin")
    assert p.returncode == 2 and "'radscorpoin' (did you mean 'radscorpion'" in p.stderr


def test_a_ruleset_named_in_capitals_is_accepted():
    # issue 26: --ruleset F2D20 was refused
    p = run("fight", "--ruleset", "F2D20", "--scenario", "duel", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["ruleset"] == "f2d20"
    p = run("simulate", "--ruleset", " PnP", "--scenario", "duel", "-n", "2", "--json",
            "--jobs", "1")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["ruleset"] == "pnp"


def test_fight_plays_the_packet_by_default_as_play_gm_and_simulate_do(tmp_path):
    # issue 26: fight defaulted to scripted
    path = tmp_path / "f.json"
    p = run("fight", "--scenario", "duel", "--seed", "3", "--save", str(path))
    assert p.returncode == 0, p.stderr
    from wasteland.rules import saves

    assert [a["kind"] for a in saves.load(path).session["agents"]] == ["packet", "packet"]
    assert "[default: the scenario's, else packet]" in " ".join(run("fight", "--help").stdout.split())


def test_fight_save_then_load(tmp_path):
    path = tmp_path / "f.json"
    p = run("fight", "--scenario", "vault_corridor", "--seed", "3", "--save", str(path))
    assert p.returncode == 0, p.stderr
    from wasteland.rules import saves

    b = saves.load(path)
    assert b.over
