"""The full-screen game as the line games (issue 41, item 6): the turn order with every
roll in the log at the start, the log of the fight so far after a resume, and the
attacks at 0% to hit listed last in their group, greyed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from wasteland.cli.play import begin
from wasteland.rules.turnorder import order_lines
from wasteland.tui.actions import ActionsPanel
from wasteland.tui.app import PlayApp
from wasteland.tui.game import ScreenGame
from wasteland.tui.log import LogPanel

OPTIONS = {"ruleset": "f2d20", "scenario": "ruined_street", "side": "0", "seed": 3,
           "ai": None}


def _app(save: Path, resume: Path | None = None) -> PlayApp:
    b = begin("play", {} if resume else OPTIONS, resume)
    return PlayApp(ScreenGame(b, save, resume))


def _run(app: PlayApp, body: Callable[[PlayApp, object], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            # let the first layout and the NPCs' turns settle, as the other screen tests do
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            await body(app, pilot)
    asyncio.run(main())


def test_the_log_starts_with_the_rolls_and_a_resume_brings_it_back(tmp_path):
    save = tmp_path / "save.json"
    expected = order_lines(begin("play", OPTIONS, None))  # the turn order before anything
    seen: dict[str, list[str]] = {}

    async def play(app, pilot):
        seen["start"] = list(app.query_one(LogPanel).lines_written)
        for _ in range(3):
            await pilot.press("d")
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    first = _app(save)
    _run(first, play)
    log = seen["start"]
    at = log.index(expected[0])
    assert log[at:at + len(expected)] == expected  # each combatant's roll, in order
    assert any("Initiative 15" in line for line in expected)

    said = [e.text() for e in first.battle.log]
    assert len(said) > 10

    async def look(app, pilot):
        seen["resumed"] = list(app.query_one(LogPanel).lines_written)
    _run(_app(save, save), look)
    log = seen["resumed"]
    at = log.index(said[0])
    assert log[at:at + len(said)] == said  # the fight so far, as it was logged
    assert f"resumed from {save}" in log and expected[0] in log


def test_attacks_at_0_percent_come_last_in_their_group_and_greyed(tmp_path):
    seen: dict[str, list] = {}

    async def look(app, pilot):
        panel = app.query_one(ActionsPanel)
        rows = [(panel.choice_of(o.id), o.prompt) for o in panel.options]
        seen["rows"] = rows
    _run(_app(tmp_path / "save.json"), look)
    rows = seen["rows"]
    # the attack group's rows, as the panel lists them (up to the next heading)
    start = next(i for i, (c, _) in enumerate(rows) if c is not None and c.group == "attack")
    end = next(i for i in range(start, len(rows)) if rows[i][0] is None)
    attacks = rows[start:end]
    lost = ["attack raider_1 head", "attack raider_1 arm", "attack raider_1 leg",
            "called raider_1 torso"]  # drifter's shots at raider_1 behind full cover
    assert [c.label for c, _ in attacks[-4:]] == lost
    assert not any(c.hopeless for c, _ in attacks[:-4]) and len(attacks) > 4
    def grey(prompt) -> bool:  # noqa: ANN001 - the whole row, the notation with the odds
        n = len(prompt.plain)
        return {s.style for s in prompt.spans} == {"dim"} and any(
            s.end == n for s in prompt.spans)

    for c, prompt in attacks[-4:]:
        assert c.hopeless and c.odds.startswith("0%") and grey(prompt)
    assert not any(grey(prompt) for _, prompt in attacks[:-4])
