"""The full-screen game while an NPC thinks (issue 40, item 5): the NPC decides in a
thread, the hint line says "... is thinking (deadly)... 25%" while it does, the choice is
taken when it comes, and Ctrl-C meanwhile saves (the NPC decides again on resume) and
exits 130. The NPC here is a stand-in that reports progress and then waits on an Event:
nothing is timed."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from pathlib import Path

from textual.widgets import Static

from wasteland.agents.base import View
from wasteland.agents.make import make_agent
from wasteland.cli.play import begin
from wasteland.cli.session import rng_snapshot
from wasteland.rules import saves
from wasteland.rules.actions import Action
from wasteland.tui.app import PlayApp
from wasteland.tui.game import ScreenGame


class Slow:
    """A deadly NPC that thinks until ``go`` is set: progress 1 of 4, then it waits."""

    name = kind = "deadly"

    def __init__(self) -> None:
        self.packet = make_agent("packet", 2)
        self.rng = random.Random(9)
        self.last_reason = "slow"
        self.on_progress = None
        self.go = threading.Event()
        self.before: dict[str, object] | None = None
        self.finished = False  # its last decision thought to the end (not stopped)
        self.hold = True  # wait for go (else it decides at once)

    def act(self, view: View) -> Action:
        self.before = rng_snapshot(self)
        self.finished = False
        self.rng.random()  # as the search draws its seed first
        report = self.on_progress
        assert report is not None
        report(1, 4)
        if self.hold:
            self.go.wait(60)
        report(2, 4)  # raises when the screen stopped it
        report(4, 4)
        self.finished = True
        return self.packet.act(view)


def _app(tmp_path: Path) -> tuple[PlayApp, Slow]:
    b = begin("play", {"ruleset": "pnp", "scenario": "duel", "side": "0", "seed": 3}, None)
    game = ScreenGame(b, tmp_path / "save.json")
    slow = Slow()
    game.npcs[1] = slow  # type: ignore[assignment]
    return PlayApp(game, npc_pause=0.01, think_after=0.0), slow


async def _until(pilot, ok, tries: int = 3000) -> None:  # noqa: ANN001
    """Pause until ``ok()`` (up to 30 s, room for a loaded machine: a stuck app fails, not
    hangs)."""
    for _ in range(tries):
        if ok():
            return
        await pilot.pause(0.01)
    raise AssertionError("the screen never got there")


def _hint(app: PlayApp) -> str:
    return str(app.query_one("#hint", Static).render())


async def _to_the_npc(app: PlayApp, pilot) -> None:  # noqa: ANN001
    """Take the player's decisions (d) until the NPC thinks and the hint says so."""
    for _ in range(20):
        if app.thinker is not None and "thinking" in _hint(app):
            return
        if app.game.needs_player():
            await pilot.press("d")
        await pilot.pause(0.01)
    await _until(pilot, lambda: app.thinker is not None and "thinking" in _hint(app))


def test_the_hint_line_shows_the_npc_thinking_and_its_choice_is_taken(tmp_path):
    app, slow = _app(tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            try:
                await _to_the_npc(app, pilot)
                assert _hint(app) == "young_radscorpion_0 is thinking (deadly)... 25%"
                app.redraw()  # a redraw while it thinks (a resize, a key) keeps the line
                assert _hint(app) == "young_radscorpion_0 is thinking (deadly)... 25%"
                moves = len(app.battle.moves)
                assert app.battle.combatants[app.game.decision().combatant].side == 1
                slow.go.set()
                await _until(pilot, lambda: len(app.battle.moves) > moves)
                assert app.battle.history[moves].startswith("young_radscorpion_0: ")
                await _until(pilot, lambda: "thinking" not in _hint(app))
            finally:
                slow.go.set()  # a failure must not leave its thread waiting
            await pilot.press("q")
    asyncio.run(main())


def test_ctrl_c_while_the_npc_thinks_saves_and_exits_130(tmp_path):
    app, slow = _app(tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            try:
                await _to_the_npc(app, pilot)
                await pilot.press("ctrl+c")
            finally:
                slow.go.set()  # its next report ends it
            await pilot.pause()
    asyncio.run(main())
    assert app.return_code == 130 and not slow.finished  # stopped at its next report
    saved = saves.load(tmp_path / "save.json")
    assert saved.history == app.battle.history  # the NPC's choice was not taken
    record = next(r for r in saved.session["agents"] if r["side"] == 1)
    assert slow.before is not None
    assert json.dumps(record["rng"]) == json.dumps(slow.before["rng"])
    assert rng_snapshot(slow)["rng"] != slow.before["rng"]  # it had drawn: the save undid it


def test_undo_while_the_npc_thinks_stops_it_and_takes_the_players_decision_back(tmp_path):
    app, slow = _app(tmp_path)

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            try:
                slow.hold = False  # until the player has decided once
                await _until(pilot, lambda: app.game.needs_player())
                slow.hold = True
                await _to_the_npc(app, pilot)
                assert app.game.marks  # the player's decision before it
                moves = app.game.marks[-1].moves
                # undo waits for the NPC's thread to end (at its next report), so nothing
                # it does after can move its random state: let it report
                threading.Timer(0.05, slow.go.set).start()
                await pilot.press("u")
                await _until(pilot, lambda: app.thinker is None and app.game.needs_player())
                assert len(app.battle.moves) == moves and "thinking" not in _hint(app)
                assert not slow.finished and rng_snapshot(slow) == slow.before
            finally:
                slow.go.set()
            await pilot.press("q")
    asyncio.run(main())
    record = next(r for r in saves.load(tmp_path / "save.json").session["agents"]
                  if r["side"] == 1)
    assert json.dumps(record["rng"]) == json.dumps(slow.before and slow.before["rng"])
