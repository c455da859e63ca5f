"""`evaluate --plot DIR`: the tournament as three PNGs: who beats whom (the win-rate
matrix), the ratings with their intervals, and each agent's win rate on each scenario
under each ruleset.

matplotlib is imported here only, with the Agg backend (no display needed).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from wasteland.rules.errors import WastelandError

FILES = ("win_matrix.png", "ratings.png", "by_scenario.png")
CMAP = "RdYlGn"


def check_folder(path: Path) -> Path:
    """The plots' folder, refused in one line before any game when it cannot be written."""
    if path.exists() and not path.is_dir():
        raise WastelandError(f"--plot {path}: not a folder; give a folder for the PNGs")
    if not path.exists() and path.suffix.lower() in (".png", ".svg", ".pdf", ".jpg", ".jpeg"):
        # a new folder named ev.png is not what anyone who typed it wanted
        raise WastelandError(f"--plot {path}: a picture's name, but evaluate draws three "
                             f"PNGs ({', '.join(FILES)}) into a folder; give a folder "
                             f"(e.g. {path.with_suffix('')}/)")
    parent = path if path.exists() else path.parent if str(path.parent) else Path(".")
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not os.access(parent, os.W_OK):
        raise WastelandError(f"--plot {path}: no permission to write there")
    return path


def _heat(ax: Any, values: list[list[float | None]], labels: list[list[str]], rows: list[str],
          cols: list[str]) -> Any:
    import numpy as np

    data = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    im = ax.imshow(data, cmap=CMAP, vmin=0, vmax=100, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    for i, row in enumerate(labels):
        for j, text in enumerate(row):
            v = data[i, j]
            # dark text on the light middle of the colour map, white on its dark ends
            colour = "black" if np.isnan(v) or 25 <= v <= 80 else "white"
            ax.text(j, i, text, ha="center", va="center", fontsize=8, color=colour)
    return im


def win_matrix(rep: dict[str, Any], path: Path) -> None:
    import matplotlib.pyplot as plt

    names = rep["agents"]
    k = len(names)
    fig, ax = plt.subplots(figsize=(max(6.5, 2.2 + 1.5 * k), max(4.0, 1.6 + 1.1 * k)))
    try:
        values: list[list[float | None]] = []
        labels: list[list[str]] = []
        for row in rep["matrix"]:
            values.append([None if c is None else 100 * c["win"]["rate"] for c in row])
            labels.append(["-" if c is None else
                           f"{100 * c['win']['rate']:.0f}%\n[{100 * c['win']['ci'][0]:.0f}-"
                           f"{100 * c['win']['ci'][1]:.0f}]\ndraw {100 * c['draw']['rate']:.0f}%"
                           for c in row])
        im = _heat(ax, values, labels, names, names)
        ax.set_xlabel("opponent")
        ax.set_ylabel("agent")
        fig.colorbar(im, ax=ax, label="agent's win rate (%)")
        ax.set_title(f"Win rate of each agent (row) against each opponent (column)\n"
                     f"{_games(rep)}, 95% intervals", fontsize=10)
        fig.tight_layout()
        _save(fig, path)
    finally:
        plt.close(fig)


def ratings(rep: dict[str, Any], path: Path) -> None:
    import matplotlib.pyplot as plt

    rows = rep["ratings"][::-1]  # best at the top
    fig, ax = plt.subplots(figsize=(7.5, 1.8 + 0.55 * len(rows)))
    try:
        mus = [r["mu"] for r in rows]
        err = [[r["mu"] - r["ci"][0] for r in rows], [r["ci"][1] - r["mu"] for r in rows]]
        anchor = rep["anchor"]
        colours = ["#4a6fa5" if not anchor or r["agent"] != anchor["agent"] else "#8d8d8d"
                   for r in rows]
        y = range(len(rows))
        ax.errorbar(mus, y, xerr=err, fmt="none", ecolor="black", capsize=5, zorder=2)
        ax.scatter(mus, y, s=60, color=colours, zorder=3)
        for i, r in enumerate(rows):
            ax.annotate(f"{r['mu']:.1f} ± {1.96 * r['sigma']:.1f}", (r["mu"], i),
                        textcoords="offset points", xytext=(0, 8), ha="center", fontsize=8)
        ax.set_yticks(list(y), [f"{r['rank']}{'=' if r['tied'] else ''}  {r['agent']}" for r in rows])
        ax.set_ylim(-0.7, len(rows) - 0.3)
        if anchor:
            ax.axvline(anchor["mu"], color="#8d8d8d", linestyle="--", linewidth=1, zorder=1)
            what = f"{anchor['agent']} anchored at {anchor['mu']:g} (dashed)"
        else:
            what = "unanchored (no packet in the field)"
        ax.set_xlabel("openskill rating (mu), bars: 95% interval (mu ± 1.96 sigma)")
        ax.set_title(f"Ratings: {what}\nagents not told apart share a rank (1=)\n{_games(rep)}",
                     fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        _save(fig, path)
    finally:
        plt.close(fig)


def by_scenario(rep: dict[str, Any], path: Path) -> None:
    import matplotlib.pyplot as plt

    names = rep["agents"]
    rows: list[str] = []
    values: list[list[float | None]] = []
    labels: list[list[str]] = []
    for sc, per_r in rep["by_scenario"].items():
        for r, recs in per_r.items():
            rows.append(f"{sc} ({r})")
            values.append([100 * x["win"]["rate"] for x in recs])
            labels.append([f"{100 * x['win']['rate']:.0f}%" for x in recs])
    # a floor on each side: one scenario and two agents still leave room for the titles
    fig, ax = plt.subplots(figsize=(max(6.5, 3.2 + 1.3 * len(names)), max(3.2, 1.6 + 0.42 * len(rows))))
    try:
        im = _heat(ax, values, labels, rows, names)
        fig.colorbar(im, ax=ax, label="win rate against the field (%)")
        ax.set_title(f"Win rate of each agent against all the others,\nper scenario and "
                     f"ruleset ({rep['n']} games per pairing and side order)", fontsize=10)
        fig.tight_layout()
        _save(fig, path)
    finally:
        plt.close(fig)


def _games(rep: dict[str, Any]) -> str:
    return f"{rep['games']:,} games ({rep['n']} per pairing, side order, scenario and ruleset)"


def _save(fig: Any, path: Path) -> None:
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as e:
        raise WastelandError(f"--plot {path}: cannot write: {e.strerror or e}") from None


def plot_all(rep: dict[str, Any], folder: Path) -> list[Path]:
    """The three PNGs in ``folder`` (made if missing); their paths."""
    import matplotlib

    matplotlib.use("Agg")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise WastelandError(f"--plot {folder}: cannot make the folder ({e.strerror or e})") from None
    paths = [folder / f for f in FILES]
    for draw, p in zip((win_matrix, ratings, by_scenario), paths):
        draw(rep, p)
    return paths
