"""A GM sees the NPC think (issue 40, item 5): after about 0.3 s of an NPC's decision the
plain-lines games say "grunt is thinking (deadly)... 40%" on stderr, rewritten in place
on a terminal and written once elsewhere; stdout stays what it was; Ctrl-C while it
thinks saves, and the resumed game goes on as if nothing had happened. Clocks here are
fake: nothing sleeps, nothing is timed."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from wasteland.agents.make import make_agent
from wasteland.cli.game import Game
from wasteland.cli.gm import GmSession
from wasteland.cli.play import begin
from wasteland.cli.session import rng_snapshot
from wasteland.cli.thinking import AFTER, LineStatus, Thinking, level_of, listening
from wasteland.rules import saves

SEARCH = "search:rollouts=8,candidates=3,horizon=1"


class Clock:
    """Time that moves only when read: ``step`` seconds a reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def recorder() -> tuple[Thinking, list[str]]:
    said: list[str] = []
    return Thinking(said.append, lambda: said.append("<clear>"), clock=Clock(0.1)), said


def test_nothing_is_said_before_the_time_and_the_progress_after():
    t, said = recorder()
    t.begin("grunt", "deadly")  # read at 0.1
    t.progress(1, 96)  # 0.2: 0.1 s in
    assert said == [] and AFTER == 0.3
    t.progress(2, 96)  # 0.3
    t.progress(3, 96)  # 0.4: past 0.3 s
    t.progress(48, 96)
    t.progress(48, 96)  # the same text is not said again
    t.end()
    assert said == ["grunt is thinking (deadly)... 3%", "grunt is thinking (deadly)... 50%",
                    "<clear>"]


def test_a_quick_decision_says_nothing_and_clears_nothing():
    said: list[str] = []
    t = Thinking(said.append, lambda: said.append("<clear>"), clock=lambda: 5.0)
    t.begin("grunt", "deadly")
    for done in range(1, 97):
        t.progress(done, 96)
    t.end()
    assert said == []


def test_a_proposal_names_its_decisions_and_a_time_budget_its_continuations():
    t, said = recorder()
    t.begin("grunt", "hard")
    t.deciding("brute")  # the proposal's second decision, by another of the side
    for done in (1, 2, 3):
        t.progress(done, 0)
    assert said == ["brute is thinking (hard)... decision 2, 3 continuations"]


def test_on_a_terminal_the_line_is_rewritten_in_place_and_erased():
    out = io.StringIO()
    s = LineStatus(out, live=True)
    s.show("grunt is thinking (deadly)... 9%")
    s.show("grunt is thinking (deadly)... 10%")
    s.clear()
    assert out.getvalue() == ("\rgrunt is thinking (deadly)... 9%"
                              "\rgrunt is thinking (deadly)... 10%"
                              "\r" + " " * 33 + "\r")


def test_in_a_pipe_the_line_is_written_once_a_wait():
    out = io.StringIO()
    s = LineStatus(out, live=False)
    for pct in range(10, 60):
        s.show(f"grunt is thinking (deadly)... {pct}%")
    s.clear()
    s.show("brute is thinking (deadly)... decision 2, 5%")
    assert out.getvalue() == ("grunt is thinking (deadly)...\n"
                              "brute is thinking (deadly)...\n")
    assert "\r" not in out.getvalue()


def test_the_level_is_the_agents_level_or_kind():
    assert level_of(make_agent("deadly")) == "deadly"
    assert level_of(make_agent("hard")) == "hard"
    assert level_of(make_agent(SEARCH)) == SEARCH


def test_an_agent_without_progress_is_left_alone_and_the_listener_goes_after():
    t, said = recorder()
    packet = make_agent("packet")
    with listening(packet, t):
        pass
    assert not hasattr(packet, "on_progress")
    search = make_agent(SEARCH)
    with pytest.raises(KeyboardInterrupt), listening(search, t):
        assert search.on_progress == t.progress  # type: ignore[attr-defined]
        raise KeyboardInterrupt
    assert search.on_progress is None  # type: ignore[attr-defined]


def _gm(tmp_path: Path, thinking: Thinking | None) -> tuple[str, Console]:
    tmp_path.mkdir()
    b = begin("gm", {"ruleset": "pnp", "scenario": "duel", "party": "0", "seed": 3,
                     "ai": SEARCH}, None, side_option="party")
    con = Console(file=io.StringIO(), width=200)
    lines = iter(["attack young_radscorpion_0", ""] * 6)
    g = GmSession(b, con, lines, tmp_path / "gm.json")
    g.thinking = thinking
    g.run()
    return con.file.getvalue(), con  # type: ignore[attr-defined]


def test_gm_says_it_thinks_on_stderr_and_stdout_stays_the_same(tmp_path):
    err = io.StringIO()
    status = LineStatus(err, live=False)
    slow, _ = _gm(tmp_path / "a", Thinking(status.show, status.clear, clock=Clock(0.2)))
    fast_err = io.StringIO()
    quick = LineStatus(fast_err, live=False)
    fast, _ = _gm(tmp_path / "b", Thinking(quick.show, quick.clear, clock=lambda: 0.0))
    assert "young_radscorpion_0 proposes" in slow
    assert f"young_radscorpion_0 is thinking ({SEARCH})...\n" in err.getvalue()
    assert fast_err.getvalue() == ""  # no time passed: nothing said
    assert slow.replace(str(tmp_path / "a"), "X") == fast.replace(str(tmp_path / "b"), "X")
    assert "thinking" not in slow


class CtrlC(Thinking):
    """Ctrl-C in the middle of a search: at its ``at``-th progress report."""

    def __init__(self, status: LineStatus, at: int) -> None:
        super().__init__(status.show, status.clear, clock=Clock(1.0), after=0.0)
        self.at, self.reports = at, 0
        self.agent: object = None
        self.before: dict[str, object] = {}  # the agent's random state as it began

    def begin(self, who: str, level: str) -> None:
        super().begin(who, level)
        if self.reports < self.at:
            self.before = rng_snapshot(self.agent)

    def progress(self, done: int, total: int) -> None:
        self.reports += 1
        super().progress(done, total)
        if self.reports == self.at:
            raise KeyboardInterrupt


def _play(lines: Iterator[str], path: Path, thinking: Thinking | None,
          resume: bool = False) -> tuple[int, Game]:
    b = begin("play", {} if resume else {"ruleset": "pnp", "scenario": "duel", "side": "0",
                                         "seed": 3, "ai": SEARCH}, path if resume else None)
    g = Game(b, Console(file=io.StringIO(), width=200), lines, path, path if resume else None)
    g.thinking = thinking
    if isinstance(thinking, CtrlC):
        thinking.agent = g.npcs[1]
    return g.run(), g


def test_ctrl_c_while_it_thinks_saves_and_the_resumed_game_is_the_same(tmp_path):
    answers = ["attack young_radscorpion_0"] * 8
    code, whole = _play(iter(answers), tmp_path / "whole.json", None)
    assert code == 0 and len(whole.b.history) > 8

    lines = iter(answers)
    err = io.StringIO()
    ctrl_c = CtrlC(LineStatus(err, live=True), at=5)
    code, cut = _play(lines, tmp_path / "cut.json", ctrl_c)
    said = cut.console.file.getvalue()  # type: ignore[attr-defined]
    assert code == 130 and "interrupted." in said and "saved to" in said
    assert "is thinking" in err.getvalue() and err.getvalue().endswith(" \r")  # erased
    assert len(cut.b.history) < len(whole.b.history)
    # the save holds the NPC's random state from before the decision it was making, so
    # the resumed game makes it again the same
    record = next(r for r in saves.load(tmp_path / "cut.json").session["agents"]
                  if r["side"] == 1)
    assert ctrl_c.before and json.dumps(record["rng"]) == json.dumps(ctrl_c.before["rng"])
    assert rng_snapshot(cut.npcs[1]) != ctrl_c.before  # it had drawn its seed
    code, resumed = _play(lines, tmp_path / "cut.json", None, resume=True)
    assert code == 0 and resumed.b.history == whole.b.history
