"""`simulate --plot FILE`: a PNG with one panel for the outcomes, one for the rounds and one
per party member; a path that cannot be written is one line before any fight."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys

import pytest

from .kit import cli


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def test_the_png_has_a_panel_for_outcomes_rounds_and_each_member(capsys, monkeypatch, tmp_path):
    import matplotlib.pyplot as plt

    figures = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig: (figures.append(fig), real_close(fig)))
    out = tmp_path / "odds.png"
    code, text, err = cli(capsys, monkeypatch, "simulate", "--scenario", "ruined_street", "-n",
                          "10", "--jobs", "1", "--json", "--plot", str(out))
    assert code == 0, err
    rep = json.loads(text)
    assert len(rep["members"]) == 4
    # 2 + 4 panels on a 3-column grid: 2 rows of 420 x 340 pixels each
    assert png_size(out.read_bytes()) == (1260, 680)
    (fig,) = figures
    titles = [ax.get_title() for ax in fig.axes]
    assert len(fig.axes) == 6
    assert titles[0] == "outcome for Party" and titles[1] == "rounds"
    assert [t.split(":")[0] for t in titles[2:]] == [m["id"] for m in rep["members"]]
    bars = fig.axes[0].patches
    assert [round(b.get_height(), 6) for b in bars] == [
        round(100 * rep["outcome"][k]["rate"], 6) for k in ("win", "loss", "draw")]


def test_a_duel_has_three_panels_on_one_row(capsys, monkeypatch, tmp_path):
    out = tmp_path / "duel.png"
    code, text, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "5",
                          "--jobs", "1", "--plot", str(out))
    assert code == 0, err
    assert err.strip().endswith(f"plot: {out}")
    assert png_size(out.read_bytes()) == (3 * 420, 340)


@pytest.mark.parametrize(("where", "answer"), [
    ("missing/odds.png", "no such directory"),
    (".", "a directory; give a file name"),
    # issue 26: odds.txt got a PNG named .txt
    ("odds.txt", "end the name with .png, .svg, .pdf (e.g. odds.png)"),
    ("odds", "end the name with .png"),
])
def test_a_bad_plot_path_is_one_line_before_any_fight(capsys, monkeypatch, tmp_path, where,
                                                      answer):
    import wasteland.sim.simulate as sim

    monkeypatch.setattr(sim, "run_fights", lambda *a, **k: pytest.fail("fought anyway"))
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", "--plot",
                         str(tmp_path / where))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: --plot ") and answer in err, err


def test_an_svg_name_gets_an_svg(capsys, monkeypatch, tmp_path):
    out = tmp_path / "duel.SVG"
    code, text, err = cli(capsys, monkeypatch, "simulate", "--scenario", "duel", "-n", "3",
                          "--jobs", "1", "--plot", str(out))
    assert code == 0, err
    assert b"<svg" in out.read_bytes()[:400]


def test_no_permission_to_write_is_one_line(capsys, monkeypatch, tmp_path):
    """As root every folder is writable, so the refusal is checked with os.access
    answering no, as it does for a user in a read-only folder."""
    import wasteland.sim.plot as plot

    monkeypatch.setattr(plot.os, "access", lambda path, mode: False)
    code, out, err = cli(capsys, monkeypatch, "simulate", "-n", "5", "--plot",
                         str(tmp_path / "odds.png"))
    assert code == 2 and err.startswith("error: --plot ") and "no permission" in err
    assert len(err.splitlines()) == 1


def test_a_write_that_fails_late_is_one_line(tmp_path):
    from wasteland.rules.errors import WastelandError
    from wasteland.sim.plot import plot
    from wasteland.sim.simulate import simulate

    from .kit import spec

    rep = simulate(spec("duel"), 3, 0, 1).report()
    target = tmp_path / "gone" / "odds.png"  # checked, then the folder vanished
    with pytest.raises(WastelandError, match=r"^--plot .*: cannot write: "):
        plot(rep, target)


def test_the_command_starts_without_matplotlib():
    code = ("import sys; from wasteland.cli.main import app; import wasteland.cli.simulate; "
            "print('matplotlib' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "MPLBACKEND": ""})
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"
