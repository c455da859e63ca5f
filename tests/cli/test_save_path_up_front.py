"""play and gm refuse a save path no file can be written to before anything is played,
as fight does (issue 39, item 6): saving under /proc said "cannot save" only at quit,
exit 0, and the game was lost. As root the permission bits call /proc writable, so the
check makes a real file where the save would go; here a folder in tmp_path plays /proc
(no file can be made in it)."""

from __future__ import annotations

import errno
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from wasteland.cli.gm import start_gm
from wasteland.cli.play import GameSetup, start
from wasteland.cli.session import choose_save_path
from wasteland.rules import saves
from wasteland.rules.errors import SaveError


@pytest.fixture
def proc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder whose permissions say writable but in which no file can be made."""
    folder = tmp_path / "proc"
    folder.mkdir()
    real = tempfile.mkstemp

    def mkstemp(*args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(kwargs.get("dir") or args[2]).resolve() == folder.resolve():
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    return folder


class Lines:
    """Input lines that remember whether any was read."""

    def __init__(self, lines: list[str]) -> None:
        self.read = 0
        self.it = iter(lines)

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        self.read += 1
        return next(self.it)


@pytest.mark.parametrize("command", ["play", "gm"])
@pytest.mark.parametrize("physical_dice", [False, True])
def test_play_and_gm_refuse_an_unwritable_save_before_anything_is_asked(
        proc, command, physical_dice):
    """One line naming the path and why; nothing shown, no set-up roll asked at the table
    (those answers would be lost with the game), nothing written."""
    con = Console(file=io.StringIO(), width=120)
    lines = Lines(["3 3 3", "quit"] * 5)
    target = proc / "x.json"
    with pytest.raises(SaveError) as e:
        if command == "play":
            start(GameSetup("pnp", "duel", "0", 3, save_to=target, physical_dice=physical_dice),
                  con, lines)
        else:
            start_gm(GameSetup("pnp", "duel", "0", 3, save_to=target, physical_dice=physical_dice),
                     con, lines)
    assert str(e.value) == (f"cannot save to {target}: no file can be made in {proc}: No such "
                            "file or directory (a save must be a regular file or a new name "
                            "in an existing, writable folder)")
    assert lines.read == 0 and con.file.getvalue() == ""  # type: ignore[attr-defined]
    assert list(proc.iterdir()) == []


def test_the_commands_exit_non_zero_with_one_line(proc, monkeypatch, capsys):
    from wasteland.cli.main import main

    for args in (["play", "--plain"], ["gm"], ["fight"]):
        flag = "--save" if args[0] == "fight" else "--save-to"
        monkeypatch.setattr(sys, "argv", ["wasteland", *args, "--scenario", "duel", flag,
                                          str(proc / "x.json")])
        with pytest.raises(SystemExit) as e:
            main()
        out = capsys.readouterr()
        assert e.value.code == 2, args
        assert out.out == ""  # fight no longer prints the map first
        assert out.err.startswith(f"error: cannot save to {proc / 'x.json'}: no file can be "
                                  "made in") and out.err.count("\n") == 1


def test_a_first_save_that_fails_for_another_reason_stops_the_game_too(tmp_path, monkeypatch):
    """Past the up-front check (a disk that fills, a save refused), the save before the
    first decision fails the command rather than the game going on unsaved."""
    def full(*_a, **_k):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(saves, "save", full)
    con = Console(file=io.StringIO(), width=120)
    lines = Lines(["1"] * 50)
    with pytest.raises(SaveError, match=r"No space left on device; nothing was played"):
        start(GameSetup("pnp", "duel", "0", 3, save_to=tmp_path / "x.json"), con, lines)
    assert lines.read == 0


def test_a_named_pipe_beside_the_save_does_not_hang_the_choice_of_a_path(tmp_path):
    """The save's name holds another fight, so the session looks at name-2.json for its
    own id: a named pipe there is skipped, not opened (which would block for ever)."""
    other = tmp_path / "s.json"
    other.write_text('{"session": {"id": "theirs"}}', encoding="utf-8")
    os.mkfifo(tmp_path / "s-2.json")
    (tmp_path / "s-3.json").write_text("[" * 100_000, encoding="utf-8")  # too deep: skipped
    got, moved = choose_save_path(other, "mine")
    assert got == tmp_path / "s-4.json" and moved is not None
