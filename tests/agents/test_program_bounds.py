"""`cmd:` programs cannot hold the engine (issue 39, item 2; docs/protocol.md): a program
that repeats a reply for ever, one that stops reading its input while big requests come,
one that writes a line without end, one that trickles its reply past the time per
decision. Each costs its decisions a counted fault and a fallback, the program is stopped
where it is out of step, the fight finishes, the memory stays small and every program
started is reaped with its pipes closed. Outcomes only: no test measures time."""

from __future__ import annotations

import shlex
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest

from wasteland.agents import external
from wasteland.agents import protocol as P
from wasteland.agents.base import view_of
from wasteland.agents.make import make_agent
from wasteland.bestiary.loader import load_scenario
from wasteland.cli.fight import run_fight
from wasteland.rules.rulesets import get_ruleset

HELLO = """\
import json, sys, time
def send(msg):
    sys.stdout.write(json.dumps(msg) + "\\n")
    sys.stdout.flush()
hello = sys.stdin.readline()
send({"type": "hello", "protocol": "wasteland-agent", "version": 1, "name": "test"})
def requests():
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "decide":
            yield msg
"""

PROGRAMS = {
    # answers its first request, then writes that reply again and again, reading no more
    "repeats_its_reply": """
        msg = next(requests())
        line = json.dumps({"seq": msg["seq"], "id": msg["legal"][0]["id"]}) + "\\n"
        while True:
            sys.stdout.write(line * 1000)
            sys.stdout.flush()
    """,
    # answers request 0 (never asked) again and again
    "repeats_request_0": """
        next(requests())
        line = json.dumps({"seq": 0, "action": "end"}) + "\\n"
        while True:
            sys.stdout.write(line * 1000)
            sys.stdout.flush()
    """,
    # never reads past the hello: the engine's big requests fill its input pipe (it exits
    # after a while, so that an engine whose write blocks fails this test, not hangs)
    "stops_reading": """
        time.sleep(20)
    """,
    # one line of 200 MB without a newline
    "never_ends_its_line": """
        next(requests())
        sys.stdout.write('{"seq": 1, "reason": "')
        block = "x" * 2**20
        for _ in range(200):
            sys.stdout.write(block)
        sys.stdout.flush()
        time.sleep(600)
    """,
    # its first reply a character at a time, over about 3 s: each character came in time
    "trickles": """
        for n, msg in enumerate(requests()):
            reply = json.dumps({"seq": msg["seq"], "action": "end"}) + "\\n"
            if n:
                send({"seq": msg["seq"], "action": "end"})
                continue
            for c in reply:
                sys.stdout.write(c)
                sys.stdout.flush()
                time.sleep(3 / len(reply))
    """,
}


def program(tmp_path: Path, name: str, seconds: float = 0.5) -> str:
    script = tmp_path / f"{name}.py"
    script.write_text(HELLO + textwrap.dedent(PROGRAMS[name]))
    return f"cmd@{seconds:g}:{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


@pytest.fixture()
def started(monkeypatch):
    """Every program started in the test; at its end, each is reaped with its pipes closed."""
    made: list[external._Program] = []

    class Recorded(external._Program):
        def __init__(self, argv: list[str]) -> None:
            super().__init__(argv)
            made.append(self)

    monkeypatch.setattr(external, "_Program", Recorded)
    yield made
    external.shutdown()
    for p in made:
        assert p.proc.returncode is not None, "a program left running"
        assert p.proc.stdin.closed and p.proc.stdout.closed, "a pipe left open"


def faults(result, side: int = 0) -> tuple[dict[str, int], int]:
    """A side's faults and how many decisions it made."""
    b = result.battle
    name = b.side_names[side]
    made = sum(1 for d in result.decisions if b.side_names[
        next(c.side for c in b.combatants if c.id == d["actor"])] == name)
    return result.faults[name], made


def test_a_program_repeating_its_reply_is_stopped_each_time_and_the_fight_goes_on(
        tmp_path, started):
    result = run_fight("pnp", "duel", 2, [program(tmp_path, "repeats_its_reply"), "packet"])
    assert result.battle.over
    got, made = faults(result)
    # each program answers one request, and repeats that answer at the next: stopped
    assert made > 3 and got["malformed"] == made // 2
    assert got["timeout"] == got["crash"] == got["illegal"] == 0
    assert len(started) == (made + 1) // 2
    assert all(not p.alive for p in started[:-1])


def test_a_program_answering_request_0_for_ever_is_given_up(tmp_path, started, caplog):
    result = run_fight("pnp", "duel", 2, [program(tmp_path, "repeats_request_0"), "packet"])
    assert result.battle.over
    got, made = faults(result)
    assert made > external.MAX_FAILED_STARTS
    assert got["malformed"] == external.MAX_FAILED_STARTS
    assert got["crash"] == made - external.MAX_FAILED_STARTS  # given up: no more programs
    assert len(started) == external.MAX_FAILED_STARTS
    logged = [r.getMessage() for r in caplog.records if r.name == external.__name__]
    assert "a reply to request 0, which was answered or never asked" in logged[0]
    assert "given up after 3 starts in a row" in logged[external.MAX_FAILED_STARTS - 1]


def test_a_program_that_stops_reading_is_stopped_at_the_deadline(tmp_path, started,
                                                                   monkeypatch):
    decide = P.decide

    def big(*args, **kwargs):  # type: ignore[no-untyped-def]
        # a request well past a pipe's 64 KB, as a long fight's start or text can be
        return {**decide(*args, **kwargs), "padding": "x" * 1_000_000}

    monkeypatch.setattr(P, "decide", big)
    result = run_fight("pnp", "duel", 2, [program(tmp_path, "stops_reading"), "packet"])
    assert result.battle.over
    got, made = faults(result)
    assert got["timeout"] == external.MAX_FAILED_STARTS
    assert got["crash"] == made - external.MAX_FAILED_STARTS
    assert len(started) == external.MAX_FAILED_STARTS


def _one_decision(spec: str) -> tuple[object, object]:
    agent = make_agent(spec, 1)
    rs = get_ruleset("pnp")
    action = agent.act(view_of(rs, rs.new_battle(load_scenario("duel"), 1)))
    return agent, action


def test_a_line_without_end_is_cut_at_the_cap_with_the_memory_small(tmp_path, started):
    spec = program(tmp_path, "never_ends_its_line")
    make_agent(spec).start()  # the program running before the measure begins
    tracemalloc.start()
    try:
        agent, action = _one_decision(spec)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert action.kind == "end" and agent.faults["malformed"] == 1
    assert f"a line longer than {P.MAX_LINE:,} bytes" in agent.last_reason
    assert agent.program is None and not started[-1].alive  # stopped
    # the cap and a few copies of it, not the 200 MB the program writes
    assert peak < 8 * P.MAX_LINE, peak


def test_a_reply_trickled_past_the_deadline_times_out(tmp_path, started):
    agent, action = _one_decision(program(tmp_path, "trickles"))
    # the characters came in time, one by one; the reply was not whole by the deadline
    assert action.kind == "end" and agent.faults["timeout"] == 1
    assert "no reply to request" in agent.last_reason
    assert sum(agent.faults.values()) == 1
