"""The full-screen game's layout follows the terminal (issue 26, items 1 and 4): every
panel fits 80x24 on ruined_street in each ruleset, the map is drawn larger on a large
screen, a message below 80x24, the log wrapped again after a resize, the turn-order
line, Ctrl-C that saves and exits 130, and the palette's Screenshot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.widget import Widget

from wasteland.cli.play import begin
from wasteland.rules.events import round_name
from wasteland.rules.rulesets import get_ruleset
from wasteland.tui.app import PlayApp
from wasteland.tui.game import ScreenGame
from wasteland.tui.layout import LOG_MIN, plan
from wasteland.tui.log import LogPanel
from wasteland.tui.mapview import MapView
from wasteland.tui.screentext import screen_text
from wasteland.tui.status import StatusPanel
from wasteland.tui.turns import turn_line, upcoming

RULESETS = ["pnp", "simple", "f2d20"]


def _app(tmp_path: Path, ruleset: str, scenario: str = "ruined_street", seed: int = 3,
         resume: Path | None = None) -> PlayApp:
    options = {} if resume else {"ruleset": ruleset, "scenario": scenario, "side": "0",
                                 "seed": seed, "ai": None}
    b = begin("play", options, resume)
    return PlayApp(ScreenGame(b, resume or tmp_path / "save.json", resume))


async def _settle(pilot) -> None:  # noqa: ANN001
    """Let pending work and refreshes finish (a busy machine can need more than a pause)."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def _run(app: PlayApp, body: Callable[[PlayApp, object], Awaitable[None]],
         size: tuple[int, int] = (80, 24)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await _settle(pilot)
            await body(app, pilot)
    asyncio.run(main())


def region_text(app: PlayApp, w: Widget, content: bool = True) -> list[str]:
    """The screen's text inside widget ``w`` (its content, or its whole region)."""
    r = w.content_region if content else w.region
    rows = screen_text(app).split("\n")
    return [rows[y][r.x:r.x + r.width] if y < len(rows) else "" for y in range(r.y, r.bottom)]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_80x24_ruined_street_shows_the_whole_hint_every_combatant_and_4_log_lines(
        tmp_path, ruleset):
    app = _app(tmp_path, ruleset)

    async def body(app, pilot):
        for _ in range(2):  # a few decisions, so the log has more than its first notes
            await pilot.press("d")
            await _settle(pilot)
        b = app.battle
        text = screen_text(app)
        assert all(len(row) <= 80 for row in text.split("\n"))
        hint = app.hint()
        assert hint.startswith("d: ")
        hint_rows = [row.strip() for row in region_text(app, app.query_one("#hint"))]
        assert " ".join(hint_rows).split() == hint.split()  # whole, on its own rows
        status = "\n".join(region_text(app, app.query_one(StatusPanel)))
        for c in b.combatants:
            assert f" {c.id}" in status, c.id
        log = app.query_one(LogPanel)
        assert log.content_region.height >= LOG_MIN
        shown = [row.strip() for row in region_text(app, log)]
        assert sum(bool(row) for row in shown) >= LOG_MIN
        assert shown[-1] and shown[-1] in " ".join(log.lines_written)  # the newest, in view
    _run(app, body)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_160x48_draws_the_map_larger_than_80x24(tmp_path, ruleset):
    seen = {}

    for size in ((80, 24), (160, 48)):
        app = _app(tmp_path, ruleset)

        async def body(app, pilot, size=size):
            view = app.query_one(MapView)
            b = app.battle
            seen[size] = (view.zoom, view.content_region.width, view.content_region.height)
            # the zoomed map on screen: each square a block (a wall: '#' repeated)
            row = region_text(app, view)[0]
            assert "#" * view.zoom[0] in row
            assert view.content_region.height >= b.grid.height * view.zoom[1]
        _run(app, body, size)
    small, large = seen[(80, 24)], seen[(160, 48)]
    assert small[0] == (1, 1)
    assert large[0][0] * large[0][1] > 1 and large[1] > small[1] and large[2] > small[2]


@pytest.mark.parametrize("size", [(20, 6), (79, 24), (80, 23)])
def test_a_terminal_under_80x24_says_it_is_too_small(tmp_path, size):
    app = _app(tmp_path, "pnp", "duel")

    async def body(app, pilot):
        text = " ".join(screen_text(app).split())
        assert "The terminal is too small (needs 80x24; this one is" in text
        assert "MOVE" not in text
        await pilot.resize_terminal(80, 24)
        await _settle(pilot)
        text = screen_text(app)
        assert "too small" not in text and "MOVE" in text and "ted decides" in text
    _run(app, body, size)


def test_a_resize_wraps_the_log_again_and_resizes_its_column(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        for _ in range(3):
            await pilot.press("d")
            await _settle(pilot)
        log = app.query_one(LogPanel)
        wide_left, wide_lines = app.query_one("#left").size.width, len(log.lines)
        await pilot.resize_terminal(80, 24)
        await _settle(pilot)
        assert app.query_one("#left").size.width == app.lay.left < wide_left
        width = log.scrollable_content_region.width
        assert all(strip.cell_length <= width for strip in log.lines)
        assert len(log.lines) > wide_lines  # the same text in more, narrower lines
        def squeezed(texts: list[str]) -> str:  # (a path longer than a line is cut in two)
            return "".join("".join(texts).split())
        assert squeezed([s.text for s in log.lines]) == squeezed(log.lines_written)
        await pilot.resize_terminal(160, 48)
        await _settle(pilot)
        assert len(log.lines) == wide_lines
    _run(app, body, (160, 48))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_turn_order_line_names_who_decides_and_who_acts_next(tmp_path, ruleset):
    app = _app(tmp_path, ruleset)

    async def body(app, pilot):
        b, rs = app.battle, app.game.rs
        rest, then = upcoming(b, rs)
        line = turn_line(b, rs)
        assert line.startswith(round_name(b.round))  # 2d20's opening turn is not "Round 0"
        assert f"{b.ids[rs.decider(b).combatant]} decides" in line
        names = ", ".join(b.ids[s] for s in rest)
        assert f"| next: {names}" in line and then in line
        top = region_text(app, app.query_one("#order"))[0]
        assert top.startswith(round_name(b.round)) and "next:" in top
    _run(app, body)


def test_upcoming_follows_each_rulesets_order():
    b = begin("play", {"ruleset": "simple", "scenario": "ruined_street", "side": "0",
                       "seed": 3}, None)
    rs = get_ruleset("simple")
    b.slot, b.turn = "move", 3  # Simple's move phase: lowest sequence first, down the order
    assert upcoming(b, rs) == ([b.order[2], b.order[1], b.order[0]], "charge phase")
    b.slot = "action"  # its action phase: up the order, then the next round
    assert upcoming(b, rs) == (b.order[4:], f"round {b.round + 1}")
    b.combatants[b.order[5]].status = "dead"  # the dead act no more
    assert b.order[5] not in upcoming(b, rs)[0]
    p = begin("play", {"ruleset": "pnp", "scenario": "ruined_street", "side": "0",
                       "seed": 3}, None)
    p.turn = 0
    assert upcoming(p, get_ruleset("pnp"))[0] == p.order[1:]


def test_the_plan_zooms_only_with_room_and_keeps_the_log():
    def rows(width: int, mode: str) -> int:
        return {"full": 3, "short": 2, "bare": 1}[mode]
    small = plan(80, 24, 24, 14, False, rows, 2)
    assert small.compact and small.zoom == (1, 1) and small.legend == "short"
    assert 20 - 14 - rows(small.left - small.pad, small.legend) >= LOG_MIN
    assert plan(80, 24, 24, 14, False, rows, 3).legend == "bare"  # a longer hint
    assert plan(160, 48, 24, 14, False, rows).zoom == (4, 2)
    assert plan(120, 40, 24, 14, False, rows).zoom == (2, 1)
    assert plan(160, 48, 48, 14, True, rows).zoom == (2, 2)  # hexes: both ways at once
    assert plan(120, 40, 48, 14, True, rows).zoom == (1, 1)  # no room for it
    big = plan(120, 40, 24, 14, False, rows)
    assert not big.compact and big.legend == "full"


# --- Ctrl-C and the palette -------------------------------------------------------------

def test_ctrl_c_saves_exits_130_and_resume_continues_the_same_fight(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        for _ in range(2):
            await pilot.press("d")
            await _settle(pilot)
        await pilot.press("ctrl+c")
        await _settle(pilot)
    _run(app, body)
    assert app.return_code == 130
    history = list(app.battle.history)
    save = tmp_path / "save.json"
    again = _app(tmp_path, "pnp", resume=save)
    assert again.battle.history == history
    assert again.battle.session["id"] == app.battle.session["id"]

    async def more(app, pilot):
        await pilot.press("d")
        await _settle(pilot)
        await pilot.press("q")
        await _settle(pilot)
    _run(again, more)
    assert again.battle.history[:len(history)] == history
    assert len(again.battle.history) > len(history)


def test_run_full_screen_returns_130_after_ctrl_c_and_says_how_to_resume(
        tmp_path, monkeypatch, capsys):
    from textual.app import App

    from wasteland.tui import app as app_module

    async def press_ctrl_c(pilot) -> None:  # noqa: ANN001
        await _settle(pilot)
        await pilot.press("ctrl+c")
        await _settle(pilot)
        if pilot.app.is_running:  # Ctrl-C did not end it: fail, not hang
            pilot.app.exit(-1)

    def headless(self, **_: object) -> int | None:
        return App.run(self, headless=True, size=(80, 24), auto_pilot=press_ctrl_c)
    monkeypatch.setattr(PlayApp, "run", headless)
    b = begin("play", {"ruleset": "pnp", "scenario": "duel", "side": "0", "seed": 3}, None)
    save = tmp_path / "save.json"
    assert app_module.run_full_screen(b, save) == 130
    out = capsys.readouterr().out
    assert f"interrupted; saved to {save}; resume with:\n  wasteland play --resume {save}\n" in out
    assert begin("play", {}, save).session["id"] == b.session["id"]


def test_the_palettes_screenshot_is_saved_beside_the_save_file(tmp_path):
    app = _app(tmp_path, "pnp", "duel")

    async def body(app, pilot):
        shot = next(c for c in app.get_system_commands(app.screen) if c.title == "Screenshot")
        shot.callback()
        for _ in range(20):
            await pilot.pause(0.05)
            if list(tmp_path.glob("*.svg")):
                break
        await _settle(pilot)
        files = list(tmp_path.glob("*.svg"))
        assert len(files) == 1 and "<svg" in files[0].read_text()
        assert not [n for n in app._notifications if n.severity == "error"]
        assert any(str(files[0]) in n.message for n in app._notifications)
    _run(app, body)
