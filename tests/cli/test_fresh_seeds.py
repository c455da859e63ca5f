"""Fresh dice every session (issue 41, item 1): `play`, `gm` and `fight` without --seed
draw a seed, say it once, keep it in the save, and that seed rolls the same dice again.
The seed source is replaced here by one the test controls: no test waits on luck."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from wasteland.cli import seeds
from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules import saves


def draws(*values: int) -> Iterator[int]:
    yield from values


def use_source(monkeypatch: pytest.MonkeyPatch, *values: int) -> None:
    it = draws(*values)
    monkeypatch.setattr(seeds, "source", lambda: next(it))


def gm(tmp_path: Path, name: str, lines: list[str], seed: int | None = None,
       resume: Path | None = None) -> str:
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup("pnp", "ruined_street", seed=seed, resume=resume, save_to=tmp_path / name),
             con, iter(lines))
    return con.file.getvalue()


def npc_dice(out: str) -> list[str]:
    """The initiative lines of the set-up: the first dice the NPCs roll."""
    return [ln for ln in out.splitlines() if "initiative 3d6 (" in ln]


def test_two_gm_sessions_without_seed_draw_different_seeds_and_say_them(tmp_path,
                                                                        monkeypatch):
    use_source(monkeypatch, 48213, 7)
    first = gm(tmp_path, "a.json", ["quit"])
    second = gm(tmp_path, "b.json", ["quit"])
    assert first.splitlines()[0] == "seed 48213: `--seed 48213` replays these dice"
    assert second.splitlines()[0] == "seed 7: `--seed 7` replays these dice"
    assert first.count("--seed 48213") == 1  # said once
    assert saves.load(tmp_path / "a.json").seed == 48213  # the save keeps it
    assert saves.load(tmp_path / "b.json").session["options"]["seed"] == 7
    assert npc_dice(first) != npc_dice(second)  # different seeds, different NPC dice


def test_the_printed_seed_replays_the_same_dice(tmp_path, monkeypatch):
    use_source(monkeypatch, 48213)
    drawn = gm(tmp_path, "a.json", ["", "", "quit"])
    again = gm(tmp_path, "b.json", ["", "", "quit"], seed=48213)
    assert "replays these dice" not in again  # a seed given is not said again
    assert npc_dice(drawn) == npc_dice(again) and npc_dice(drawn)
    a, b = saves.load(tmp_path / "a.json"), saves.load(tmp_path / "b.json")
    assert a.history == b.history and [str(e) for e in a.log] == [str(e) for e in b.log]


def test_a_resumed_session_keeps_its_drawn_seed_and_draws_none(tmp_path, monkeypatch):
    use_source(monkeypatch, 555)
    gm(tmp_path, "a.json", ["quit"])
    monkeypatch.setattr(seeds, "source", lambda: pytest.fail("a resume drew a seed"))
    out = gm(tmp_path, "a.json", ["quit"], resume=tmp_path / "a.json")
    assert "replays these dice" not in out
    assert saves.load(tmp_path / "a.json").seed == 555


def test_play_says_its_drawn_seed_and_fight_too(tmp_path, monkeypatch, capsys):
    use_source(monkeypatch, 321, 654, 987)
    con = Console(file=io.StringIO(), width=200)
    start(GameSetup("pnp", "duel", save_to=tmp_path / "p.json"), con, iter(["quit"]))
    assert con.file.getvalue().splitlines()[0] == "seed 321: `--seed 321` replays these dice"
    assert saves.load(tmp_path / "p.json").seed == 321
    from wasteland.cli.main import main

    for extra, stream in (([], "out"), (["--json"], "err")):
        monkeypatch.setattr(sys, "argv", ["wasteland", "fight", "--scenario", "duel",
                                          "--max-rounds", "1", *extra])
        with pytest.raises(SystemExit) as e:
            main()
        got = capsys.readouterr()
        assert e.value.code == 0
        said = getattr(got, stream)
        want = 654 if not extra else 987
        assert said.splitlines()[0] == f"seed {want}: `--seed {want}` replays these dice"
        if extra:  # --json keeps stdout JSON: the seed goes to stderr, and is in the JSON
            assert json.loads(got.out)["seed"] == 987


def test_the_default_source_draws_from_the_operating_system(monkeypatch):
    """Not a constant: two different draws of OS entropy give two different seeds, each
    in 1..99999."""
    monkeypatch.setattr(seeds, "source", seeds.os_seed)
    entropy = iter([b"\x00\x00\x00\x07", b"\xff\xff\xff\xff", b"\x00\x01\x86\x9f"])
    monkeypatch.setattr(seeds.os, "urandom", lambda n: next(entropy)[:n])
    got = [seeds.fresh_seed() for _ in range(3)]
    assert got == [8, 4294967295 % 99_999 + 1, 1]
    assert all(1 <= s <= seeds.MAX_SEED for s in got)


def test_with_physical_dice_the_seed_is_said_before_the_set_up_rolls(tmp_path, monkeypatch):
    use_source(monkeypatch, 42)
    con = Console(file=io.StringIO(), width=200)
    start_gm(GameSetup("pnp", "duel", save_to=tmp_path / "g.json", physical_dice=True), con,
             iter(["quit"]))
    out = con.file.getvalue().splitlines()
    assert out[0] == "seed 42: `--seed 42` replays these dice"
    assert any(ln.startswith("Roll 3d6 for ted") for ln in out[1:])
    assert sum("replays these dice" in ln for ln in out) == 1


def test_the_full_screen_game_begins_its_log_with_the_drawn_seed(tmp_path, monkeypatch,
                                                                 capsys):
    from wasteland.tui import app

    use_source(monkeypatch, 99)
    seen: list[list[tuple[str, str | None]]] = []

    class Screen:  # stands in for the Textual app: what its log would begin with
        def __init__(self, game, npc_pause: float) -> None:
            seen.append(list(game.notes))

        def run(self) -> int:
            return 0

    monkeypatch.setattr(app, "PlayApp", Screen)
    con = Console(file=io.StringIO(), width=200)
    start(GameSetup("pnp", "duel", save_to=tmp_path / "p.json"), con, iter(()),
          full_screen=app.run_full_screen)
    assert seen and seen[0][0][0] == "seed 99: `--seed 99` replays these dice"
    start(GameSetup("pnp", "duel", resume=tmp_path / "p.json"), con, iter(()),
          full_screen=app.run_full_screen)
    assert not any("replays these dice" in text for text, _ in seen[1])  # a resume
