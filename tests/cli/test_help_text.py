"""`--help` a GM can read (issue 41, item 7): `wasteland --help` gives every command's
description whole (wrapped, never cut with "...") and a first example; the levels easy,
normal, hard and deadly are named where the NPCs' agent is chosen (gm, play, fight,
simulate)."""

from __future__ import annotations

import sys

import pytest
import typer.main

from wasteland.cli.main import app, main


def help_of(args: list[str], monkeypatch, capsys, columns: int) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setattr(sys, "argv", ["wasteland", *args, "--help"])
    with pytest.raises(SystemExit) as e:
        main()
    assert e.value.code == 0
    return capsys.readouterr().out


def first_sentence(text: str) -> str:
    """A command's description up to its first full stop, as one line."""
    words = []
    for w in text.split("\n\n")[0].split():
        words.append(w)
        if w.endswith("."):
            break
    return " ".join(words)


@pytest.mark.parametrize("columns", [80, 60])
def test_every_commands_description_is_whole(columns, monkeypatch, capsys):
    out = help_of([], monkeypatch, capsys, columns)
    listed = out.split("Commands:")[1]
    assert "..." not in listed
    flat = " ".join(listed.split())
    group = typer.main.get_command(app)
    commands = group.commands  # type: ignore[attr-defined]
    assert {"play", "gm", "fight", "simulate"} <= set(commands)
    for name, cmd in commands.items():
        assert cmd.help
        assert f"{name} {first_sentence(cmd.help)}" in flat, name
    # wrapped to the width; the examples under them keep their lines (80 columns at least)
    commands_part = listed.split("Start here:")[0]
    assert all(len(line) <= columns for line in commands_part.splitlines())
    assert all(len(line) <= max(columns, 80) for line in out.splitlines())


def test_the_main_help_opens_with_a_first_example(monkeypatch, capsys):
    out = help_of([], monkeypatch, capsys, 80)
    flat = " ".join(out.split())
    assert "Start here:" in out
    assert "wasteland play " in flat
    assert "wasteland gm --scenario ruined_street --physical-dice" in flat


@pytest.mark.parametrize("command, option", [("gm", "--ai"), ("play", "--ai"),
                                             ("fight", "--agents"),
                                             ("simulate", "--agents")])
def test_the_levels_are_named_where_the_npcs_agent_is_chosen(command, option, monkeypatch,
                                                              capsys):
    out = help_of([command], monkeypatch, capsys, 80)
    flat = " ".join(out.split())
    said = flat.split(f"{option} ", 1)[1].split(" --", 1)[0]  # that option's help alone
    for level in ("easy", "normal", "hard", "deadly"):
        assert level in said, (command, level, said)
