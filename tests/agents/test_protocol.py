"""The agent protocol (issue 14 item 2, docs/protocol.md): requests that validate against
the shipped JSON Schemas, replies read strictly, `wasteland serve` playing the packet's
own fight, and cmd: programs - one in another language, one that replies garbage, one
that times out, one that crashes - whose fights finish with their faults counted."""

from __future__ import annotations

import io
import json
import os
import random
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest

import wasteland
from wasteland.agents import external
from wasteland.agents import protocol as P
from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.agents.serve import serve
from wasteland.bestiary.loader import load_scenario
from wasteland.cli.fight import fight_on, new_fight, resumed_fight, run_fight
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.errors import WastelandError
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import get_ruleset

ROOT = Path(wasteland.__file__).resolve().parent.parent
AGENTS = ROOT / "tests" / "data" / "agents"
EXAMPLES = ROOT / "examples"
SCHEMA = P.SCHEMA_DIR


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMA / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def py(script: Path, timeout: float = 5.0) -> str:
    """A cmd: spec running a Python script (this interpreter)."""
    return f"cmd@{timeout:g}:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.fixture(autouse=True)
def _same_code_in_programs(monkeypatch):
    # a program that imports wasteland (serve) runs this checkout's code, as the test does
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    yield
    external.shutdown()


# --- the messages against the schemas ------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_real_requests_validate_against_the_request_schema(ruleset):
    requests = validator("request")
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), 4)
    rng = random.Random(4)
    msgs = [P.hello(), P.start(1, b, 0, 7)]
    known = 0
    while not b.over and len(msgs) < 80:
        d = rs.decider(b)
        legal = rs.legal_ids(b)
        msgs.append(P.decide(len(msgs), 1, b, rs, d, legal, known))
        known = len(b.moves)
        rs.apply(b, ACTION_TABLE[rng.choice(legal)])
    msgs += [P.over(1, b, 0), P.bye()]
    kinds = set()
    for m in msgs:
        wire = json.loads(P.dump(m))  # as the program reads it
        requests.validate(wire)
        kinds.add(wire["type"])
    assert kinds == {"hello", "start", "decide", "over", "bye"}
    assert any(m.get("hit_chances") for m in msgs)
    # the schema does reject what the engine must not send
    bad = json.loads(P.dump(msgs[2]))
    del bad["legal"]
    assert not requests.is_valid(bad)


def test_the_reply_schema_takes_an_action_or_an_id_with_its_seq():
    replies = validator("reply")
    assert replies.is_valid({"seq": 3, "action": "attack raider_0 head", "reason": "why not"})
    assert replies.is_valid({"seq": 3, "id": 75})
    assert replies.is_valid({"type": "hello", "protocol": "wasteland-agent", "version": 1,
                             "name": "x"})
    for bad in ({"seq": 3, "action": "end", "id": 0}, {"action": "end"}, {"seq": 3},
                {"seq": 3, "id": "75"}):
        assert not replies.is_valid(bad), bad


def test_replies_are_read_strictly():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 1)
    legal, me = rs.legal_ids(b), rs.decider(b).combatant
    assert P.reply_action({"seq": 1, "action": "end", "reason": "r"}, b, legal, me) == (0, "r")
    assert P.reply_action({"seq": 1, "id": legal[-1]}, b, legal, me) == (legal[-1], "")
    for msg, kind in (({"seq": 1}, "malformed"), ({"seq": 1, "id": 0, "action": "end"}, "malformed"),
                      ({"seq": 1, "id": True}, "malformed"), ({"seq": 1, "action": 3}, "malformed"),
                      ({"seq": 1, "id": 1}, "illegal"), ({"seq": 1, "action": "reload"}, "illegal"),
                      ({"seq": 1, "action": "dance"}, "illegal")):
        with pytest.raises(P.ReplyError) as e:
            P.reply_action(msg, b, legal, me)
        assert e.value.kind == kind, msg
    for line in ("not json", "[1, 2]", ""):
        with pytest.raises(P.ReplyError):
            P.load(line)


# --- serve ---------------------------------------------------------------------------------
def test_serve_answers_hello_and_decisions_that_validate_and_stops_at_bye():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 2)
    d, legal = rs.decider(b), rs.legal_ids(b)
    lines = [P.dump(m) for m in (P.hello(), P.start(1, b, d.combatant, 2),
                                 P.decide(1, 1, b, rs, d, legal, 0), P.bye(),
                                 P.decide(2, 1, b, rs, d, legal, 0))]
    out = io.StringIO()
    assert serve("packet", lines, out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    assert len(replies) == 2  # nothing after bye
    for r in replies:
        validator("reply").validate(r)
    assert replies[1]["seq"] == 1 and replies[1]["id"] in legal
    # and it is the packet's own choice with that seed
    assert ACTION_TABLE[replies[1]["id"]] == make_agent("packet", 2).act(view_of(rs, b))


def _served(*lines: str) -> list[dict]:
    out = io.StringIO()
    assert serve("packet", list(lines), out) == 0
    replies = [json.loads(x) for x in out.getvalue().splitlines()]  # JSON, not Infinity
    assert all(isinstance(r, dict) for r in replies)
    return replies


@pytest.mark.parametrize("line, fragment", [
    ('{"type":"start","game":1,"battle":"x"}', "'battle' must be an object"),
    ('{"type":"start","game":1,"battle":[1,2]}', "'battle' must be an object"),
    ('{"type":"start","game":1,"battle":{},"seed":[1]}', "'seed' must be a whole number"),
    ("[" * 100_000 + "]" * 100_000, "nested more than 64 deep"),
    ('{"type":"decide","seq":' + "9" * 5000 + "}", "an integer of 5,000 digits"),
    ('{"type":"decide","seq":1e999}', "past a float's range"),
    ('{"type":"decide","seq":NaN}', "NaN is not a JSON number"),
    ('{"type":"decide","seq":' + "9" * 30 + "}", "'seq' must be a whole number from 0 to"),
    ('{"type":"decide","seq":"1"}', "'seq' must be a whole number from 0 to"),
])
def test_serve_answers_garbage_with_an_error_message_not_a_traceback(line, fragment):
    """Issue 23: each of these raised AttributeError, RecursionError, TypeError or
    ValueError in `wasteland serve`, or answered with Infinity, which is not JSON."""
    replies = _served(line)
    assert len(replies) == 1 and replies[0]["type"] == "error", replies
    assert fragment in replies[0]["message"], replies[0]


def test_serve_answers_a_decide_with_odd_legal_or_history_by_a_fallback():
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 2)
    d = rs.decider(b)
    start = P.dump(P.start(1, b, d.combatant, 2))
    for legal, history, want in ((["end", 3], [], None),
                                 ([{"action": "reload"}], [], None),
                                 ([{"action": "reload"}], [1, 2], "reload"),
                                 (["reload", {"action": 5}], [1], "end"),
                                 ("x", "not a list", "end")):
        msg = {"type": "decide", "seq": 4, "game": 1, "legal": legal, "history": history}
        reply = _served(start, P.dump(msg))[-1]
        assert reply["seq"] == 4
        if want is None:  # a good history: the packet decides
            assert "id" in reply
        else:
            assert reply["action"] == want, reply
            validator("reply").validate(reply)
    bad_start = P.dump({"type": "start", "game": 1, "battle": "x"})
    reply = _served(bad_start, P.dump({"type": "decide", "seq": 1, "legal": ["end"]}))[-1]
    assert reply == {"seq": 1, "action": "end", "reason": "no game to follow"}


def test_serve_refuses_an_unknown_agent_in_one_line():
    with pytest.raises(WastelandError, match="unknown agent 'pakcet'"):
        serve("pakcet", [], io.StringIO())


@pytest.mark.parametrize("ruleset,seed,kind", [("pnp", 3, "packet"), ("f2d20", 5, "packet"),
                                               ("simple", 2, "random")])
def test_cmd_wasteland_serve_plays_the_in_process_agent_s_fight(ruleset, seed, kind):
    served = f"cmd@30:{shlex.quote(sys.executable)} -m wasteland.cli.main serve --agent {kind}"
    a = run_fight(ruleset, "duel", seed, [kind, "packet"])
    b = run_fight(ruleset, "duel", seed, [served, "packet"])
    assert [x["action"] for x in b.decisions] == [x["action"] for x in a.decisions]
    assert [e.text() for e in b.battle.log] == [e.text() for e in a.battle.log]
    assert b.faults == {b.battle.side_names[0]: dict.fromkeys(external.FAULTS, 0)}
    assert any(x["reason"].startswith(f"wasteland serve --agent {kind}: ") for x in b.decisions)


# --- programs that misbehave ---------------------------------------------------------------
def side_of(result, side: int) -> tuple[dict[str, int], int]:
    """A side's faults and how many decisions it made."""
    b = result.battle
    name = b.side_names[side]
    made = sum(1 for d in result.decisions if b.side_names[
        next(c.side for c in b.combatants if c.id == d["actor"])] == name)
    return result.faults[name], made


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_node_program_plays_properly_while_a_garbage_one_is_counted(caplog):
    node = f"cmd@5:node {shlex.quote(str(EXAMPLES / 'agent.js'))}"
    result = run_fight("pnp", "duel", 2, [node, py(AGENTS / "garbage.py")])
    assert result.battle.over
    good, made = side_of(result, 0)
    assert good == dict.fromkeys(external.FAULTS, 0) and made > 3
    assert any(d["reason"].startswith("example.js: best shot") for d in result.decisions)
    bad, made = side_of(result, 1)
    # by turns not JSON, then an action that does not parse: every decision a fault
    assert bad["malformed"] == (made + 1) // 2 and bad["illegal"] == made // 2 and made > 3
    assert bad["timeout"] == bad["crash"] == 0
    logged = [r.getMessage() for r in caplog.records if r.name == external.__name__]
    assert len(logged) == min(bad["malformed"], external.LOGGED_PER_KIND) + min(
        bad["illegal"], external.LOGGED_PER_KIND)
    assert all("\n" not in m and "played 'end' instead" in m for m in logged)


def test_a_late_program_times_out_once_and_a_crashing_one_is_restarted(caplog):
    result = run_fight("pnp", "duel", 2, [py(AGENTS / "late.py", 0.5), py(AGENTS / "crash.py")])
    assert result.battle.over
    late, made = side_of(result, 0)
    # the first request times out; its late answer, sent with the second, is skipped
    assert late == {"malformed": 0, "illegal": 0, "timeout": 1, "crash": 0} and made > 3
    crash, made = side_of(result, 1)
    # each program answers once and exits at its second request, then a new one starts
    assert crash == {"malformed": 0, "illegal": 0, "timeout": 0, "crash": made // 2}
    assert made > 3


def test_a_program_that_never_says_hello_is_given_up_after_three_starts(tmp_path, monkeypatch,
                                                                       caplog):
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    monkeypatch.setattr(external, "HANDSHAKE_MIN", 0.2)
    agent = make_agent(py(script, 0.2), 1)
    rs = get_ruleset("pnp")
    b = rs.new_battle(load_scenario("duel"), 1)
    for _ in range(5):
        assert agent.act(view_of(rs, b)).kind == "end"
    assert agent.faults["timeout"] == external.MAX_FAILED_STARTS
    assert agent.faults["crash"] == 5 - external.MAX_FAILED_STARTS
    assert agent.program is None and not [p for p in external._running if p.alive]
    logged = [r.getMessage() for r in caplog.records if r.name == external.__name__]
    assert len(logged) == external.MAX_FAILED_STARTS and "given up after 3 starts" in logged[-1]


def test_a_time_given_with_the_spec_holds_for_the_hello_too(tmp_path, monkeypatch):
    # issue 26: cmd@1: waited 20 s for a program that never says hello
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    monkeypatch.delenv("WASTELAND_CMD_TIMEOUT", raising=False)
    assert make_agent(py(script, 0.3)).hello_timeout == 0.3
    assert make_agent(f"cmd:{shlex.quote(sys.executable)} x").hello_timeout == \
        external.HANDSHAKE_MIN  # no time given: room for a slow start
    monkeypatch.setenv("WASTELAND_CMD_TIMEOUT", "0.4")
    assert make_agent(f"cmd:{shlex.quote(sys.executable)} x").hello_timeout == 0.4
    agent = make_agent(py(script, 0.3), 1)
    rs = get_ruleset("pnp")
    began = time.monotonic()
    assert agent.act(view_of(rs, rs.new_battle(load_scenario("duel"), 1))).kind == "end"
    assert time.monotonic() - began < external.HANDSHAKE_MIN / 2
    assert "no reply to the hello in 0.3 s" in agent.last_reason


EXITS = f"cmd:{shlex.quote(sys.executable)} -c 'raise SystemExit(2)'"


def test_a_program_that_cannot_play_is_one_line_before_the_fight(tmp_path):
    # issue 26: a program that exits at once played the whole fight on fallbacks
    p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", "fight", "--scenario",
                        "duel", "--agents", f"{EXITS},packet"], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert p.returncode != 0 and p.stdout == "" and "Traceback" not in p.stderr
    assert p.stderr.count("\n") == 1
    assert "the program cannot play: exited (code 2) instead of answering the hello" in p.stderr


def test_simulate_evaluate_and_the_npcs_of_play_check_their_programs_first(tmp_path):
    from wasteland.arena.field import entrants
    from wasteland.cli.game import npc_agents
    from wasteland.cli.play import begin
    from wasteland.sim.spec import side_agents

    sc = load_scenario("duel")
    with pytest.raises(WastelandError, match=r"cannot play: exited \(code 2\)"):
        side_agents(sc, [EXITS, "packet"])
    with pytest.raises(WastelandError, match=r"cannot play: exited \(code 2\)"):
        entrants(f"{EXITS},packet")
    b = begin("play", {"scenario": "duel", "ai": EXITS}, None)
    with pytest.raises(WastelandError, match=r"cannot play: exited \(code 2\)"):
        npc_agents(b)
    # a program that answers is started once and its program kept for the first fight
    ok = py(EXAMPLES / "random_agent.py")
    assert side_agents(sc, [ok, "packet"])[0] == ok
    assert len([p for p in external._idle.get(tuple(make_agent(ok).argv), []) if p.alive]) == 1


# --- specs, saves, simulate ----------------------------------------------------------------
@pytest.mark.parametrize("spec,fragment", [
    ("cmd:", "the command is empty"), ("cmd:   ", "the command is empty"),
    ("cmd:no_such_program_xq --x", "program 'no_such_program_xq' not found"),
    ("cmd@abc:x", "SECONDS must be a number"), ("cmd@0:x", "SECONDS must be a number"),
    ("cmd:x 'unclosed", "cannot split"),
])
def test_bad_cmd_specs_are_one_line_errors(spec, fragment):
    with pytest.raises(WastelandError) as e:
        make_agent(spec)
    assert fragment in str(e.value) and "\n" not in str(e.value)


def test_the_time_per_decision_comes_from_the_spec_else_the_environment(monkeypatch):
    exe = shlex.quote(sys.executable)
    monkeypatch.setenv("WASTELAND_CMD_TIMEOUT", "2.5")
    assert make_agent(f"cmd:{exe} -V").timeout == 2.5
    assert make_agent(f"cmd@0.25:{exe} -V").timeout == 0.25
    monkeypatch.delenv("WASTELAND_CMD_TIMEOUT")
    assert make_agent(f"cmd:{exe} -V").timeout == external.DEFAULT_TIMEOUT
    monkeypatch.setenv("WASTELAND_CMD_TIMEOUT", "soon")
    with pytest.raises(WastelandError, match="WASTELAND_CMD_TIMEOUT must be seconds"):
        make_agent(f"cmd:{exe} -V")


def test_bad_cmd_spec_on_the_command_line_is_one_line(tmp_path):
    p = subprocess.run([sys.executable, "-m", "wasteland.cli.main", "fight", "--scenario",
                        "duel", "--agents", "cmd:no_such_program_xq"], capture_output=True,
                       text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert "program 'no_such_program_xq' not found" in p.stderr


def test_a_saved_fight_with_a_program_agent_reloads_and_resumes(tmp_path):
    spec = py(EXAMPLES / "random_agent.py")
    save = tmp_path / "fight.json"
    b, agents = new_fight("pnp", "duel", 3, [spec, "packet"])
    fight_on(b, agents, save_to=save, stop_after=6)
    loaded = saves.load(save)
    assert [a["kind"] for a in loaded.session["agents"]] == [spec, "packet"]
    # a save never starts a program by itself: the command line names it again
    with pytest.raises(WastelandError, match=r"a save never starts a program by itself; "
                                             r"to run it, resume with --agents "):
        resumed_fight(save, {})
    b2, agents2 = resumed_fight(save, {"agents": f"{spec},packet"})
    assert isinstance(agents2[0], external.CmdAgent) and agents2[0].kind == spec
    result = fight_on(b2, agents2, save_to=save)
    assert result.battle.over and saves.load(save).over
    assert result.faults[b2.side_names[0]] == dict.fromkeys(external.FAULTS, 0)


def test_simulate_with_a_program_agent_is_the_same_on_two_processes_and_cleans_up(tmp_path):
    from wasteland.sim.runner import run_fights
    from wasteland.sim.spec import SimSpec, side_agents
    from wasteland.sim.tally import Tally

    script = tmp_path / "sim_agent.py"  # a path no other process runs
    shutil.copy(EXAMPLES / "random_agent.py", script)
    sc = load_scenario("duel")
    spec = SimSpec("pnp", sc, side_agents(sc, [py(script), "packet"]), 0)
    one = list(run_fights(spec, 10, 6, jobs=1))
    two = list(run_fights(spec, 10, 6, jobs=2))
    assert one == two and all(r.faults == () for r in one)
    t = Tally(spec)
    for r in one:
        t.add(r)
    assert t.report()["agent_faults"] == dict.fromkeys(external.FAULTS, 0)
    # one program served the six fights of this process, and it goes at shutdown
    mine = [p for p in external._running if str(script) in p.proc.args]
    assert len(mine) == 1
    external.shutdown()
    assert mine[0].proc.poll() is not None
    if os.path.isdir("/proc"):  # the workers' programs end when the workers' pipes close
        for _ in range(200):  # a bound on the wait, not a measure of speed
            if not running(script):
                break
            time.sleep(0.05)
        assert running(script) == []


def running(script: Path) -> list[str]:
    """Live processes (not zombies) whose command line names ``script``."""
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if str(script).encode() in cmd and state != b"Z":
            out.append(pid)
    return out


RECORDER = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)
    log.flush()
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": "wasteland-agent", "version": 1}), flush=True)
    elif msg["type"] == "decide":
        print(json.dumps({"seq": msg["seq"], "action": msg["legal"][-1]["action"]}), flush=True)
"""


def test_a_program_sees_each_game_start_and_end_on_the_wire_and_bye_at_shutdown(tmp_path):
    from wasteland.sim.runner import run_fights
    from wasteland.sim.spec import SimSpec, side_agents

    script, wire = tmp_path / "recorder.py", tmp_path / "wire.jsonl"
    script.write_text(RECORDER)
    spec_text = f"{py(script)} {shlex.quote(str(wire))}"
    sc = load_scenario("duel")
    spec = SimSpec("pnp", sc, side_agents(sc, [spec_text, "packet"]), 0)
    records = list(run_fights(spec, 1, 3))
    external.shutdown()
    msgs = [json.loads(x) for x in wire.read_text().splitlines()]
    requests = validator("request")
    for m in msgs:
        requests.validate(m)
    kinds = [m["type"] for m in msgs]
    assert kinds[0] == "hello" and kinds[-1] == "bye" and kinds.count("hello") == 1
    assert kinds.count("start") == kinds.count("over") == 3
    overs = [m for m in msgs if m["type"] == "over"]
    names = sc.sides[0].name, sc.sides[1].name
    assert [o["winner"] for o in overs] == [None if r.winner is None else names[r.winner]
                                            for r in records]
    assert [o["result"] for o in overs] == ["draw" if r.winner is None else
                                            "win" if r.winner == 0 else "loss" for r in records]
    assert any(r.winner is not None for r in records)  # so that win and loss are told apart
    starts = [m for m in msgs if m["type"] == "start"]
    assert [s["seed"] for s in starts] == [1, 2, 3]  # side 0's agent seed = the fight's seed


def test_simulate_reports_a_misbehaving_program_s_faults():
    from wasteland.sim.runner import run_fights
    from wasteland.sim.spec import SimSpec, side_agents
    from wasteland.sim.tally import Tally

    sc = load_scenario("duel")
    spec = SimSpec("pnp", sc, side_agents(sc, [py(AGENTS / "garbage.py"), "packet"]), 0)
    t = Tally(spec)
    records = list(run_fights(spec, 1, 3))
    for r in records:
        t.add(r)
    faults = t.report()["agent_faults"]
    assert faults["malformed"] > 0 and faults["illegal"] > 0
    assert faults["timeout"] == faults["crash"] == 0
    # each record says whose faults they are: the program's side, 0
    assert all(side == 0 and n > 0 for r in records for side, _, n in r.faults)
    assert sum(n for r in records for _, k, n in r.faults if k == "malformed") == faults["malformed"]
