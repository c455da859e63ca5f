"""Sessions never lose work (issue 8): where play, gm and fight save, that a save never
lands on another fight, that quit, end of input and Ctrl-C save and say where, that the
save path is checked before the fight, and that a resume refuses contradicting options."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.rules import saves
from wasteland.rules.errors import WastelandError


def console() -> Console:
    return Console(file=io.StringIO(), width=200)


def out(con: Console) -> str:
    return con.file.getvalue()  # type: ignore[attr-defined]


def cli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wasteland.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def test_quit_after_resume_saves_to_the_resumed_file(tmp_path):
    a = tmp_path / "a.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=a), console(), iter(["1", "quit"]))
    first = saves.load(a)
    con = console()
    start(GameSetup(resume=a), con, iter(["1", "quit"]))
    assert f"saved to {a}" in out(con)
    assert not (tmp_path / "wasteland-save.json").exists()
    again = saves.load(a)
    assert len(again.history) > len(first.history)
    assert again.session["id"] == first.session["id"]


def test_a_new_game_never_overwrites_another_games_save(tmp_path):
    a = tmp_path / "game.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=a), console(), iter(["quit"]))
    before = a.read_bytes()
    con = console()
    start(GameSetup("f2d20", "duel", "0", 5, save_to=a), con, iter(["1", "quit"]))
    assert a.read_bytes() == before
    other = tmp_path / "game-2.json"
    assert f"{a} holds another fight; this one saves to {other}" in out(con)
    assert saves.load(other).ruleset == "f2d20"


def test_the_save_command_never_overwrites_another_game(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=a), console(), iter(["quit"]))
    kept = a.read_bytes()
    con = console()
    start(GameSetup("pnp", "duel", "0", 4, save_to=b), con, iter([f"save {a}", "quit"]))
    assert a.read_bytes() == kept and (tmp_path / "a-2.json").exists()
    assert "holds another fight" in out(con)


def test_end_of_input_saves_and_says_where(tmp_path):
    con = console()
    code = start(GameSetup("pnp", "duel", "0", 3, save_to=tmp_path / "p.json"), con, iter(["1"]))
    text = out(con)
    assert code == 0 and "input ended." in text and f"saved to {tmp_path / 'p.json'}" in text
    # the command on a line of its own, whole (issue 41: it broke inside --resume)
    assert f"resume with:\n  wasteland play --resume {tmp_path / 'p.json'}\n" in text


def interrupt_after(lines: list[str]) -> Iterator[str]:
    yield from lines
    raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_saves_and_returns_130(tmp_path):
    path = tmp_path / "p.json"
    con = console()
    code = start(GameSetup("pnp", "duel", "0", 3, save_to=path), con, interrupt_after(["1"]))
    assert code == 130
    assert "interrupted." in out(con) and f"saved to {path}" in out(con)
    b = saves.load(path)
    assert len([h for h in b.history if h.startswith("ted: ")]) == 1


def test_ctrl_c_inside_an_action_saves_the_fight_as_before_it(tmp_path, monkeypatch):
    """Ctrl-C while the engine is half-way through an attack (between two of its dice):
    the save holds the battle as it was before the action, and it loads."""
    path = tmp_path / "p.json"
    ref = tmp_path / "ref.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=ref), console(), iter(["quit"]))
    before = saves.load(ref)
    calls = {"n": 0, "raised": 0}

    def hook(who, sides, n, why):  # noqa: ANN001, ANN202 - the battle's own dice hook
        calls["n"] += 1
        if not calls["raised"] and (why == "damage" or calls["n"] > 200):
            calls["raised"] = 1
            raise KeyboardInterrupt
        return None  # the battle's RNG rolls

    # the game saves its battle first thing: that is where the hook goes in (the engine
    # may be compiled, so Battle.roll itself cannot be patched)
    real_save = saves.save

    def save(b, where, parts=None):  # noqa: ANN001, ANN202
        if not calls["raised"] and b.dice_hook is None:
            b.dice_hook = hook
        return real_save(b, where, parts)

    con = console()
    monkeypatch.setattr(saves, "save", save)
    lines = iter(["move toward young_radscorpion_0"] * 3 + ["attack young_radscorpion_0"] * 20)
    code = start(GameSetup("pnp", "duel", "0", 3, save_to=path), con, lines)
    monkeypatch.setattr(saves, "save", real_save)
    assert calls["raised"]
    assert code == 130 and f"saved to {path}" in out(con)
    b = saves.load(path)  # the replay reaches the saved state: nothing half-applied
    assert b.history[:len(before.history)] == before.history
    assert not any("damage" in e.text() and "takes" in e.text() for e in b.log)


def test_ctrl_c_at_a_gm_dice_prompt_saves_without_the_action(tmp_path):
    path = tmp_path / "gm.json"
    con = console()
    # ted's initiative (3d6, asked at the table), then an attack whose roll is interrupted
    code = start_gm(GameSetup("pnp", "duel", "0", 4, save_to=path, physical_dice=True), con,
                    interrupt_after(["3 3 3", "6"]))
    assert code == 130
    text = out(con)
    assert "Roll " in text and "interrupted." in text and f"saved to {path}" in text
    b = saves.load(path)
    assert not any(h.startswith("ted: ") for h in b.history)
    assert b.session["options"]["physical_dice"] is True


def test_quit_at_a_dice_prompt_saves_without_the_action(tmp_path):
    path = tmp_path / "gm.json"
    con = console()
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=path, physical_dice=True), con,
             iter(["3 3 3", "6", "quit"]))
    assert "quit during a roll; the action was not taken." in out(con)
    assert not any(h.startswith("ted: ") for h in saves.load(path).history)


def test_ctrl_c_during_the_set_up_rolls_saves_nothing_and_returns_130(tmp_path):
    path = tmp_path / "gm.json"
    con = console()
    code = start_gm(GameSetup("pnp", "duel", "0", 4, save_to=path, physical_dice=True), con,
                    interrupt_after([]))
    assert code == 130 and "interrupted during the set-up rolls" in out(con)
    assert not path.exists()


def test_the_game_saves_itself_every_round(tmp_path):
    path = tmp_path / "p.json"
    rounds: list[int] = []

    def player() -> Iterator[str]:
        for _ in range(60):
            rounds.append(saves.load(path).round)  # what a crash right now would leave
            yield "1"

    start(GameSetup("f2d20", "duel", "0", 3, save_to=path, enemies="raider"), console(), player())
    assert len(set(rounds)) >= 3
    assert rounds == sorted(rounds)


@pytest.mark.parametrize("given, fragment", [
    ({"seed": 9}, "--seed 9 conflicts with"),
    ({"ruleset": "f2d20"}, "--ruleset f2d20 conflicts with"),
    ({"scenario": "vault_corridor"}, "--scenario vault_corridor conflicts with"),
])
def test_options_that_contradict_the_save_are_refused(given, fragment, tmp_path):
    path = tmp_path / "p.json"
    start(GameSetup("pnp", "duel", "0", 3, save_to=path), console(), iter(["quit"]))
    opts = {"ruleset": None, "scenario": None, "side": None, "seed": None} | given
    with pytest.raises(WastelandError) as e:
        start(GameSetup(opts["ruleset"], opts["scenario"], opts["side"], opts["seed"], resume=path),
              console(), iter(["quit"]))
    assert fragment in str(e.value) and "\n" not in str(e.value)
    # the same options as the save are fine
    start(GameSetup("pnp", "duel", seed=3, resume=path), console(), iter(["quit"]))


def test_physical_dice_given_on_resume_of_a_session_without_them_is_refused(tmp_path):
    path = tmp_path / "gm.json"
    start_gm(GameSetup("pnp", "duel", "0", 4, save_to=path), console(), iter(["quit"]))
    with pytest.raises(WastelandError, match="--physical-dice True conflicts with"):
        start_gm(GameSetup(resume=path, physical_dice=True), console(), iter(["quit"]))


@pytest.mark.parametrize("args", [
    ("play", "--save-to", "/nonexistent/x.json"),
    ("gm", "--save-to", "/nonexistent/x.json"),
    ("fight", "--save", "/nonexistent/x.json"),
])
def test_a_save_path_that_cannot_work_is_refused_before_the_fight(args, tmp_path):
    p = cli(*args, cwd=tmp_path, stdin="1\n1\nquit\n")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.count("\n") == 1 and "/nonexistent" in p.stderr
    assert "Round" not in p.stdout  # nothing was played


def test_fight_save_and_resume_from_the_command_line(tmp_path):
    p = cli("fight", "--scenario", "duel", "--seed", "2", "--save", "f.json", cwd=tmp_path)
    assert p.returncode == 0 and p.stdout.rstrip().endswith("saved to f.json")
    again = cli("fight", "--resume", "f.json", cwd=tmp_path)
    assert again.returncode == 0 and "Result: " in again.stdout
    clash = cli("fight", "--resume", "f.json", "--seed", "3", cwd=tmp_path)
    assert clash.returncode == 2 and "--seed 3 conflicts with f.json" in clash.stderr
    start(GameSetup("pnp", "duel", "0", 3, save_to=tmp_path / "p.json"), console(), iter(["quit"]))
    wrong = cli("fight", "--resume", "p.json", cwd=tmp_path)
    assert wrong.returncode == 2 and "a play game, not a fight" in wrong.stderr


def _default_sigint() -> None:
    """A shell runs background jobs (a CI script's, say) with SIGINT ignored, and Python
    then never turns it into KeyboardInterrupt: give the game a terminal's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_a_real_ctrl_c_saves_the_game(tmp_path):
    """SIGINT to `wasteland play` waiting at its prompt: exit 130, the game saved."""
    proc = subprocess.Popen([sys.executable, "-m", "wasteland.cli.main", "play", "--scenario",
                             "duel", "--seed", "1", "--save-to", "g.json"], cwd=tmp_path, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=_default_sigint)
    assert proc.stdin is not None
    proc.stdin.write("1\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (tmp_path / "g.json").exists() and json.loads(
                (tmp_path / "g.json").read_text()).get("history"):
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted." in stdout and "saved to g.json" in stdout
    assert "Traceback" not in stderr
    assert saves.load(tmp_path / "g.json").history
    assert os.path.exists(tmp_path / "g.json")
