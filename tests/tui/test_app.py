"""The full-screen `wasteland play` (issue 13, item 1), driven by Textual's pilot without a
terminal: what the map, the actions and the summary show, keys and clicks."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from itertools import product
from pathlib import Path

import pytest

from wasteland.agents.packets.odds import damage_per_hit
from wasteland.cli.orders import set_rule
from wasteland.cli.play import begin
from wasteland.rules.f2d20.dice import EXTRA_DICE_COST
from wasteland.rules.pnp.odds import hit_chance as pnp_hit
from wasteland.rules.words import plain_move
from wasteland.tui.app import PlayApp
from wasteland.tui.game import ScreenGame
from wasteland.tui.mapview import MapView, cell_of, render_map
from wasteland.tui.screentext import screen_text
from wasteland.tui.summary import SummaryScreen, summary_lines


def _app(tmp_path: Path, ruleset: str, scenario: str = "duel", seed: int = 3,
         ai: str | None = None) -> PlayApp:
    b = begin("play", {"ruleset": ruleset, "scenario": scenario, "side": "0", "seed": seed,
                       "ai": ai}, None)
    return PlayApp(ScreenGame(b, tmp_path / "save.json"))


def _run(app: PlayApp, body: Callable[[PlayApp, object], Awaitable[None]],
         size: tuple[int, int] = (80, 24)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            # the first layout can land after one pause on a busy machine (CI once read
            # the screen before the legend was drawn): let pending work and refreshes finish
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            await pilot.pause()
            await body(app, pilot)
    asyncio.run(main())


async def _click_square(app: PlayApp, pilot, pos: int) -> None:  # noqa: ANN001
    """A click on square ``pos`` of the map, wherever the layout put it (border and
    padding or none, zoomed or not)."""
    view = app.query_one(MapView)
    col, row = view.screen_cell(pos)
    dx = view.content_region.x - view.region.x
    dy = view.content_region.y - view.region.y
    await pilot.click("#map", offset=(col + dx, row + dy))
    await pilot.pause()


async def _to_the_end(app: PlayApp, pilot, limit: int = 400) -> None:  # noqa: ANN001
    """Press d (the AI's choice) until the summary shows."""
    for _ in range(limit):
        if isinstance(app.screen, SummaryScreen):
            return
        await pilot.press("d")
        await pilot.pause()
    raise AssertionError("the fight did not end")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_pnp_screen_shows_legend_odds_and_fits(tmp_path, size):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        text = screen_text(app)
        b = app.battle
        for part in ("# wall", ", light", "0 Vault", "1 Radscorpion", "o down",
                     "+ dying", "x dead", "MOVE", "ATTACK", "ted decides"):
            assert part in text, part
        # the duel's small map leaves room for the whole legend, even at 80x24
        assert ", light cover" in text
        # the map's rows are drawn whole (no wrapping inside the map panel)
        rows = render_map(b, app.game.rs, zoom=app.query_one(MapView).zoom).plain.splitlines()
        assert len(rows) == 6 * app.query_one(MapView).zoom[1]
        for row in rows:
            assert f" {row} " in text
        ted, scorp = b.combatants
        chance = pnp_hit(b, ted, scorp, None)
        per_hit = damage_per_hit(b, ted, ted.active_weapon, scorp)
        # at 80 columns the expected damage is left out, so the target's name fits
        odds = f"{chance:.0%}" if size[0] < 100 else f"{chance:.0%} ~{chance * per_hit:.1f}"
        line = f"{odds} attack  {scorp.id}"
        assert re.search(re.escape(line) + r" *(│|$)", text, re.M), line
        head = pnp_hit(b, ted, scorp, "head")
        assert head != chance and f"{head:.0%} " in text
        assert all(len(line) <= size[0] for line in text.splitlines())
    _run(app, body, size)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20", "simple"])
def test_a_duel_to_the_end_by_keys_shows_the_summary(tmp_path, ruleset):
    app = _app(tmp_path, ruleset)

    async def body(app, pilot):
        await _to_the_end(app, pilot)
        text = screen_text(app)
        b = app.battle
        assert b.over
        for line in summary_lines(b):
            assert line.strip() in text
        assert f"after {b.round} round" in text
        ted = b.combatants[0]
        # each side heads its rows, its name whole (it was cut to "Radscorpio")
        assert re.search(r"│ Vault( \(won\))? +│", text)
        assert re.search(r"│ Radscorpion( \(won\))? +│", text)
        assert re.search(rf"  ted +{ted.damage_dealt:>5} {ted.damage_taken:>5} ", text)
        assert "Vault won" in text or "Radscorpion won" in text or "Draw" in text
    _run(app, body)
    assert (tmp_path / "save.json").exists()


def test_summary_counts_kills_and_damage(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        await _to_the_end(app, pilot)
    _run(app, body)
    b = app.battle
    from wasteland.tui.summary import tally

    t = tally(b)
    loser = next(c for c in b.combatants if c.side != b.winner)
    winner = next(c for c in b.combatants if c.side == b.winner)
    assert t[winner.id].dealt == loser.damage_taken > 0
    fell = 1 if loser.status != "active" else 0
    assert t[winner.id].kills + t[winner.id].downs == fell


def test_enter_takes_the_highlighted_action_and_its_explanation_shows(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        panel = app.query_one("#actions")
        first = panel.current
        assert first is not None
        assert first.explanation in screen_text(app).replace("\n", " ") or (
            first.explanation[:30] in screen_text(app))
        moves = len(app.battle.moves)
        await pilot.press("enter")
        await pilot.pause()
        assert app.battle.history[moves] == f"ted: {first.label}"
    _run(app, body)


def test_tab_and_click_pick_a_target_and_narrow_the_actions(tmp_path):
    app = _app(tmp_path, "pnp", "ruined_street")

    async def body(app, pilot):
        b = app.battle
        panel = app.query_one("#actions")
        everything = len(panel.choices)
        await pilot.press("tab")
        await pilot.pause()
        first = app.targets()[0]
        assert app.target == first and b.combatants[first].side != 0  # enemies first
        shown = [panel.choice_of(o.id) for o in panel.options if not o.disabled]
        assert shown and all(c.action.target in (None, first) for c in shown)
        assert len(shown) < everything
        assert panel.current.action.target == first
        await pilot.press("tab")
        await pilot.pause()
        assert app.target == app.targets()[1]
        scorp = next(c for c in b.combatants if c.side != 0)
        await pilot.press("escape")
        await pilot.pause()
        assert app.target is None
        await _click_square(app, pilot, scorp.pos)  # a click on its square on the map
        assert app.target == scorp.slot
    _run(app, body)


def test_undo_takes_back_the_players_last_decision(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        before = list(app.battle.history)
        await pilot.press("d")
        await pilot.pause()
        assert len(app.battle.history) > len(before)
        await pilot.press("u")
        await pilot.pause()
        assert app.battle.history == before
        assert "undone: ted:" in screen_text(app) or any(
            "undone" in line for line in app.query_one("#log").lines_written)
        await pilot.press("u")
        await pilot.pause()
        assert app.battle.history == before
    _run(app, body)


def test_undo_then_the_same_choice_gives_the_same_fight(tmp_path):
    """Undo puts back the NPCs' random state too: the same decisions replay the same
    (NPCs that choose at random, so their state matters)."""
    app = _app(tmp_path, "pnp", "vault_corridor", seed=2, ai="random")

    async def body(app, pilot):
        for _ in range(3):
            await pilot.press("d")
            await pilot.pause()
        first = list(app.battle.history)
        for _ in range(3):
            await pilot.press("u")
            await pilot.pause()
        assert len(app.battle.history) < len(first)
        for _ in range(3):
            await pilot.press("d")
            await pilot.pause()
        assert app.battle.history == first
    _run(app, body)


@pytest.mark.parametrize("ruleset, name", [("pnp", "Fallout PnP"), ("f2d20", "Fallout 2d20"),
                                           ("simple", "Simple")])
def test_help_screen_has_the_rules_in_short(tmp_path, ruleset, name):
    app = _app(tmp_path, ruleset)

    async def body(app, pilot):
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert name in text and "Keys:" in text
        await pilot.press("escape")
        await pilot.pause()
        assert name not in screen_text(app)
    _run(app, body)


def _cd_mean(n: int, dr: int, vicious: bool, piercing: int) -> float:
    """Expected damage of n combat dice after DR, by listing every face (seed 003:
    1, 2, 0, 0, 1 + effect, 1 + effect)."""
    faces = ((1, 0), (2, 0), (0, 0), (0, 0), (1, 1), (1, 1))
    total = 0.0
    for roll in product(faces, repeat=n):
        dmg = sum(d for d, _ in roll)
        eff = sum(e for _, e in roll)
        dmg += eff if vicious else 0
        total += max(0, dmg - max(0, dr - piercing * eff))
    return total / 6 ** n


def test_f2d20_buy_and_boost_windows_show_the_odds_of_each_choice(tmp_path):
    """Under `set ask`: the default table rules answer these windows (see
    test_the_default_rules_answer_the_windows_and_say_why)."""
    app = _app(tmp_path, "f2d20", seed=6)
    set_rule(app.battle, ["ask"])
    seen = set()

    async def body(app, pilot):
        g = app.game
        while not g.b.over:
            b, dec = g.b, g.decision()
            w = b.book.open_window()
            if dec.slot in ("dice", "boost"):
                me, t = b.combatants[w["attacker"]], b.combatants[w["target"]]
                text = screen_text(app)
                for a in g.rs.legal_actions(b):
                    n = int(a.option or 0)
                    if a.kind == "buy":
                        p = g.rs.hit_chance(b, me, t, w.get("location"), extra_dice=n)
                        assert f"{p:.0%} {EXTRA_DICE_COST[n]}AP" in text
                    elif a.kind == "boost":
                        from wasteland.rules.f2d20 import stats as S

                        prof = me.weapons[w["ws"]].f2d20
                        dr = S.dr(t, w["loc"], prof.damage_type)
                        mean = _cd_mean(prof.cd + n, dr, prof.effects.vicious,
                                        prof.effects.piercing)
                        assert f"~{mean:.1f}dmg DR{dr}" in text
                seen.add(dec.slot)
            # the d key takes what the screen says it will
            advice = str(app.query_one("#hint").render())
            moves = len(b.moves)
            await pilot.press("d")
            await pilot.pause()
            took = plain_move(g.b, g.b.history[moves]).split(": ", 1)[1]
            assert f"d: {took} (" in advice
        await _to_the_end(app, pilot)
        assert "round" in screen_text(app)
    _run(app, body)
    assert seen == {"dice", "boost"}


def test_simple_draws_hexes_and_reaches_the_end(tmp_path):
    app = _app(tmp_path, "simple")

    async def body(app, pilot):
        text = screen_text(app)
        assert "# # # # #" in text  # hexes: a character and a space per cell
        assert " # . ." in text  # an odd row indented by one
        await _to_the_end(app, pilot)
        assert "after" in screen_text(app)
    _run(app, body)


def test_o_puts_the_sides_chances_in_the_log_without_touching_the_fight(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        before = (list(app.battle.history), app.battle.state())
        await pilot.press("o")
        await pilot.pause()
        assert any(line.startswith("odds: your side wins")
                   for line in app.query_one("#log").lines_written)
        assert (list(app.battle.history), app.battle.state()) == before
    _run(app, body)


def test_with_a_pause_each_npc_decision_is_drawn_and_offers_no_choice(tmp_path):
    """npc_pause > 0 (a real terminal): the NPCs' decisions come one at a time, and while
    one is on screen the actions panel is empty and the keys choose nothing."""
    app = _app(tmp_path, "pnp", "vault_corridor", seed=2)
    app.npc_pause = 0.5

    async def body(app, pilot):
        g = app.game
        saw_npc = False
        for _ in range(200):
            await pilot.pause(0.01)
            if not g.b.over and not g.human_decides():
                saw_npc = True
                assert not app.query_one("#actions").choices
                moves = len(g.b.moves)
                await pilot.press("enter")
                assert all(not m.startswith("ted:") and not m.startswith("kat:")
                           for m in g.b.history[moves:]), (g.b.history[moves:], g.b.ids)
                break
            if g.human_decides():
                await pilot.press("d")
        assert saw_npc
    _run(app, body)


def test_u_at_the_summary_takes_back_the_last_decision(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        await _to_the_end(app, pilot)
        await pilot.press("u")
        await pilot.pause()
        assert not isinstance(app.screen, SummaryScreen)
        assert not app.battle.over and app.game.human_decides()
        await _to_the_end(app, pilot)  # and the fight can be finished again
    _run(app, body)


def test_a_full_screen_game_saves_and_resumes_where_it_stopped(tmp_path):
    app = _app(tmp_path, "f2d20")

    async def body(app, pilot):
        for _ in range(4):
            await pilot.press("d")
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    _run(app, body)
    history = app.battle.history
    assert history
    b = begin("play", {}, tmp_path / "save.json")
    assert b.history == history and b.session["id"] == app.battle.session["id"]


def test_a_forced_decision_is_taken_without_asking(tmp_path):
    """2d20 ruined_street: some of the party's decisions have one legal action (a buy
    window with no AP, say); the screen never asks them, the log says why."""
    app = _app(tmp_path, "f2d20", "ruined_street", seed=1)

    async def body(app, pilot):
        g = app.game
        asked = 0
        while not isinstance(app.screen, SummaryScreen):
            assert g.b.over or len(g.rs.legal_ids(g.b)) > 1
            assert app.query_one("#actions").choices
            asked += 1
            await pilot.press("d")
            await pilot.pause()
        forced = [line for line in app.query_one("#log").lines_written
                  if line.endswith("(the only choice)")]
        assert forced and asked > len(forced)
    _run(app, body)


def test_a_click_on_an_action_takes_it(tmp_path):
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        panel = app.query_one("#actions")
        row = next(i for i, o in enumerate(panel.options)
                   if not o.disabled and panel.choice_of(o.id).action.kind == "attack")
        want = panel.choice_of(panel.options[row].id).label
        moves = len(app.battle.moves)
        top = panel.content_region.y - panel.region.y  # below its border, if it has one
        await pilot.click("#actions", offset=(4, top + row))
        await pilot.pause()
        assert app.battle.history[moves] == f"ted: {want}"
    _run(app, body)


@pytest.mark.parametrize("ruleset", ["pnp", "f2d20", "simple"])
def test_reachable_squares_are_shaded_and_a_click_on_one_moves_there(tmp_path, ruleset):
    """Issue 13, item 1: the squares a move can reach are highlighted, with the reach in
    the explanation, and a click on one is `goto X Y` (the same legality as the line game)."""
    from wasteland.cli.menu import destinations
    from wasteland.tui.mapview import REACH_STYLE, square_at

    app = _app(tmp_path, ruleset)

    async def body(app, pilot):
        b, rs = app.battle, app.game.rs
        for _ in range(5):  # to the player's first decision that can move
            if destinations(b, rs):
                break
            await pilot.press("d")
            await pilot.pause()
        reach = destinations(b, rs)
        assert reach
        me = b.combatants[app.game.decision().combatant]
        text = render_map(b, rs, None, frozenset(), frozenset(reach))
        lines = text.plain.split("\n")
        for pos in reach:  # every reachable square shaded, and only those
            col, row = cell_of(b, rs, pos)
            offset = sum(len(line) + 1 for line in lines[:row]) + col
            assert any(REACH_STYLE in str(sp.style) and sp.start <= offset < sp.end
                       for sp in text.spans), pos
        assert sum(REACH_STYLE in str(sp.style) for sp in text.spans) == len(reach)
        assert f"{len(reach)} in reach" in screen_text(app)
        pos = max(reach, key=lambda p: (reach[p], p))
        assert square_at(b, rs, *cell_of(b, rs, pos)) == pos
        before = len(b.history)
        await _click_square(app, pilot, pos)
        x, y = b.grid.xy(pos)
        assert b.history[before] == f"{me.id}: goto {x} {y}"
        assert me.pos == pos
    _run(app, body, size=(160, 48))


def test_a_hex_maps_cells_back_to_squares_and_the_gaps_between_hexes_to_none(tmp_path):
    from wasteland.tui.mapview import square_at

    app = _app(tmp_path, "simple", "ruined_street")
    b, rs = app.game.b, app.game.rs
    for pos in range(b.grid.width * b.grid.height):
        assert square_at(b, rs, *cell_of(b, rs, pos)) == pos
    col, row = cell_of(b, rs, 0)
    assert square_at(b, rs, col + 1, row) is None


def test_the_move_line_names_who_an_attack_of_opportunity_would_come_from(tmp_path):
    """PnP (seed 000, Free Actions: attack of opportunity on movement): walking off a
    square beside an armed melee enemy provokes it; the explanation says so first."""
    app = _app(tmp_path, "pnp")

    async def body(app, pilot):
        b = app.battle
        ted, scorp = b.combatants[0], b.combatants[1]
        assert app.game.needs_player()
        g = b.grid
        sx, sy = g.xy(scorp.pos)
        for far in (True, False):  # a free square away from it, then one beside it
            pos = min(p for p in app.reach() if (max(abs(g.xy(p)[0] - sx),
                                                     abs(g.xy(p)[1] - sy)) > 1) is far)
            b.set_pos(ted, pos)
            app.redraw()
            await pilot.pause()
            said = f"leaving provokes {scorp.id}" in str(app.query_one("#explain").render())
            assert said is not far, pos
        scorp.free_used = True  # its free action spent: no attack of opportunity left
        app.redraw()
        await pilot.pause()
        assert "leaving provokes" not in str(app.query_one("#explain").render())
    _run(app, body, size=(160, 48))


# --- issue 13, fewer questions (wasteland/cli/orders.py) on the full screen -------------

def _duel_with_ap(tmp_path: Path) -> PlayApp:
    """f2d20 duel, ted's first decision, the party's pool at 6 AP (d20s to buy)."""
    app = _app(tmp_path, "f2d20")
    app.battle.book.pools[0] = 6
    return app


async def _focus(app: PlayApp, pilot, kind: str, option: str | None = None) -> None:  # noqa: ANN001
    panel = app.query_one("#actions")
    panel.highlighted = next(i for i, o in enumerate(panel.options) if not o.disabled
                             and panel.choice_of(o.id).action.kind == kind
                             and panel.choice_of(o.id).action.option == option)
    await pilot.pause()


def _mine(app: PlayApp) -> list[str]:
    return [h.split(": ", 1)[1] for h in app.battle.history if h.startswith("ted: ")]


def test_the_default_rules_answer_the_windows_and_say_why(tmp_path):
    """Under the default table rules the player is never shown a buy or boost window:
    the AI's choice is taken, and the log says so."""
    app = _app(tmp_path, "f2d20", "ruined_street", seed=1)

    async def body(app, pilot):
        g = app.game
        for _ in range(400):  # bounded: a decision nobody takes must fail, not hang
            if isinstance(app.screen, SummaryScreen):
                break
            assert g.decision().slot not in ("dice", "boost") or g.b.over
            await pilot.press("d")
            await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        log = app.query_one("#log").lines_written
        assert any("(buy auto: buys" in line for line in log)
        assert any("(boost auto: adds" in line for line in log)
        assert any("(end auto: the major action is spent" in line for line in log)
    _run(app, body)


def test_plus_and_minus_set_the_d20s_of_the_highlighted_attack(tmp_path):
    app = _duel_with_ap(tmp_path)

    async def body(app, pilot):
        scorp = app.battle.ids[1]
        await _focus(app, pilot, "attack")
        explain = str(app.query_one("#explain").render())
        ai = app.game.ai_buy(app.query_one("#actions").current.action, True)
        assert ai is not None and f"+{ai[0]}* " in explain  # the AI's choice marked
        for _ in range(4):  # at most +3
            await pilot.press("plus")
        await pilot.pause()
        c = app.query_one("#actions").current
        assert c.buy == 3 and "aim+attack +3" in c.shown
        assert "[+3 " in str(app.query_one("#explain").render())
        await pilot.press("minus")
        await pilot.pause()
        assert app.query_one("#actions").current.buy == 2
        await pilot.press("enter")
        await pilot.pause()
        assert _mine(app)[:3] == ["aim", f"attack {scorp}", "buy 2"]
    _run(app, body)


def test_a_toggles_aiming_first_and_d_takes_aim_and_attack_as_one(tmp_path):
    app = _duel_with_ap(tmp_path)

    async def body(app, pilot):
        scorp = app.battle.ids[1]
        assert "d: aim+attack" in str(app.query_one("#hint").render())  # aim, attack: one answer
        await _focus(app, pilot, "attack")
        await pilot.press("a")
        await pilot.pause()
        c = app.query_one("#actions").current
        assert not c.aim and not c.shown.startswith("aim+")
        await pilot.press("enter")
        await pilot.pause()
        assert _mine(app)[0] == f"attack {scorp}"
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert _mine(app)[:2] == ["aim", f"attack {scorp}"]
    _run(app, body)


def test_k_keeps_the_turn_open_after_the_major_action(tmp_path):
    app = _duel_with_ap(tmp_path)

    async def body(app, pilot):
        await _focus(app, pilot, "defend")
        await pilot.press("enter")
        await pilot.pause()
        assert _mine(app)[-1] == "end"  # the end rule
        await pilot.press("u")
        await pilot.pause()
        await _focus(app, pilot, "defend")
        await pilot.press("k")
        await pilot.pause()
        assert "k: the turn goes on after this" in str(app.query_one("#explain").render())
        assert "; k: the turn" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert _mine(app) == ["defend"] and app.game.needs_player()
        assert app.game.decision().combatant == 0
    _run(app, body)


def test_b_and_t_change_the_table_rules_shown_on_screen(tmp_path):
    from wasteland.cli.orders import rules_of

    app = _duel_with_ap(tmp_path)

    async def body(app, pilot):
        def rules() -> str:  # the explanation, and its rules line on screen
            assert "rules (t): " in screen_text(app)
            return str(app.query_one("#explain").render())
        # 80x24: the default rules leave their line to the d line's reason
        assert "rules (t)" not in screen_text(app)
        assert "d: " in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert rules_of(app.battle)["boost"] == "ask"
        assert "rules (t): boost ask" in rules()
        await pilot.press("t")
        await pilot.pause()
        await pilot.press("enter")  # the highlighted rule, buy, to its next value
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert rules_of(app.battle)["buy"] == "ask"
        assert "rules (t): buy ask, boost ask" in rules()
        scorp = app.battle.ids[1]
        await _focus(app, pilot, "attack")
        await pilot.press("enter")
        await pilot.pause()
        assert app.game.decision().slot == "dice" and _mine(app) == ["aim", f"attack {scorp}"]
    _run(app, body)


def test_a_tall_screen_names_the_default_table_rules(tmp_path):
    app = _duel_with_ap(tmp_path)

    async def body(app, pilot):
        assert "rules (t): default (all auto)" in screen_text(app)
    _run(app, body, size=(160, 48))
