"""Programs as agents in the interactive commands (issue 14 item 2): `play --ai cmd:...`
and `gm --ai cmd:...` run a program for the NPCs, save it by its spec and start it again
on --resume; `wasteland serve` and `fight` from the command line."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_policy_agents import console, out, player
from test_resume import cut as upto

import wasteland
from wasteland.agents import external
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules import saves
from wasteland.rules.errors import WastelandError

ROOT = Path(wasteland.__file__).resolve().parent.parent
RANDOM = ROOT / "examples" / "random_agent.py"
GARBAGE = ROOT / "tests" / "data" / "agents" / "garbage.py"


def spec(script: Path) -> str:
    return f"cmd@10:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.fixture(autouse=True)
def _programs_end():
    yield
    external.shutdown()


def test_play_with_a_program_for_the_npcs_saves_it_and_resumes(tmp_path):
    ai = spec(RANDOM)
    con = console()
    start(GameSetup("pnp", "duel", "0", 5, save_to=tmp_path / "whole.json", ai=ai), con,
          upto(player(con), 0, None))
    whole = saves.load(tmp_path / "whole.json")
    assert whole.over and "(random_agent.py: picked at random)" in out(con)
    assert [(a["kind"], a["side"]) for a in whole.session["agents"]] == [(ai, 1)]
    part = tmp_path / "part.json"
    con = console()
    start(GameSetup("pnp", "duel", "0", 5, save_to=part, ai=ai), con, upto(player(con), 0, 3))
    assert "quit." in out(con)
    with pytest.raises(WastelandError, match="to run it, resume with --ai "):
        start(GameSetup(resume=part), console(), iter([]))
    con2 = console()
    start(GameSetup(resume=part, ai=ai), con2, upto(player(con2), 3, None))
    assert saves.load(part).over and "(random_agent.py: picked at random)" in out(con2)


def test_play_prints_a_misbehaving_program_s_faults_at_the_end(tmp_path):
    con = console()
    start(GameSetup("pnp", "duel", "0", 5, save_to=tmp_path / "g.json", ai=spec(GARBAGE)), con,
          upto(player(con), 0, None))
    text = out(con)
    assert "fallback after malformed: not JSON" in text
    line = next(ln for ln in text.splitlines() if ln.startswith("program agent faults"))
    assert "malformed " in line and "illegal " in line and "malformed 0" not in line


def test_gm_proposes_the_program_s_choice(tmp_path):
    def the_gm(con) -> Iterator[str]:  # Enter for proposals, else the first entry
        while True:
            yield "" if "proposes:" in out(con).rstrip().splitlines()[-1] else "1"

    con = console()
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / "gm.json", ai=spec(RANDOM)), con,
             upto(the_gm(con), 0, None))
    assert "young_radscorpion_0 proposes: " in out(con)
    # the reasons come on the line above the proposal (issue 26: the proposal first)
    assert re.search(r"young_radscorpion_0's AI: .*: random_agent.py: picked at random",
                     out(con))
    assert saves.load(tmp_path / "gm.json").over


def cli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wasteland.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def test_fight_json_reports_faults_and_serve_speaks_on_the_command_line(tmp_path):
    p = cli("fight", "--scenario", "duel", "--json", "--seed", "1", "--agents",
            f"{spec(GARBAGE)},packet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    faults = json.loads(p.stdout)["agent_faults"]
    assert list(faults) == ["Vault"] and faults["Vault"]["malformed"] > 0
    assert "played 'end' instead" in p.stderr and "Traceback" not in p.stderr
    hello = json.dumps({"type": "hello", "protocol": "wasteland-agent", "version": 1})
    s = cli("serve", "--agent", "random", cwd=tmp_path, stdin=hello + "\n" + '{"type":"bye"}\n')
    assert s.returncode == 0, s.stderr
    assert json.loads(s.stdout)["name"] == "wasteland serve --agent random"
    bad = cli("serve", "--agent", "cmd:python x.py", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "built-in agent" in bad.stderr


def test_gm_undo_restarts_the_program_s_game_from_the_history(tmp_path):
    """After an undo the battle is rebuilt: the program gets a new start with the history
    so far, and `serve` proposes what the in-process packet proposes."""
    served = f"cmd@30:{shlex.quote(sys.executable)} -m wasteland.cli.main serve --agent packet"

    def the_gm(con) -> Iterator[str]:  # undo the party's end, and move away instead
        n = 0
        while True:
            n += 1
            if n in (4, 9):
                yield "undo"
            elif n in (5, 10):
                yield "move away"
            else:
                yield "" if "proposes:" in out(con).rstrip().splitlines()[-1] else "1"

    runs = {}
    for ai in ("packet", served):
        con = console()
        start_gm(GameSetup("pnp", "duel", "0", 4, save_to=tmp_path / f"{len(runs)}.json", ai=ai),
                 con, upto(the_gm(con), 0, 30))
        runs[ai] = out(con).replace("wasteland serve --agent packet: ", "")
    assert runs["packet"].count("undone: ") == 2
    assert runs["packet"].count("> move away") == 2
    # the program's reasons carry a prefix, so the reasons line wraps elsewhere
    assert " ".join(runs[served].split()) == " ".join(runs["packet"].replace(
        str(tmp_path / "0.json"), str(tmp_path / "1.json")).split())
