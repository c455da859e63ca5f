"""`simulate --plot FILE`: the report as a picture a GM can keep (PNG, SVG or PDF, as the
file's name ends): the outcomes with their intervals, the rounds, and each party member's
HP left.

matplotlib is imported here only, with the Agg backend: the command starts without it and
draws with no display (a server, a pipe, CI).
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from wasteland.rules.errors import WastelandError

COLUMNS = 3
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}  # the file's suffix -> its format
OUTCOME_COLOURS = {"win": "#3a7d44", "loss": "#b23a48", "draw": "#8d8d8d"}


def check_path(path: str | Path) -> Path:
    """The PNG's path, refused in one line before any fight when it cannot be written."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise WastelandError(f"--plot {p}: a directory; give a file name (e.g. odds.png)")
    if p.suffix.lower() not in FORMATS:
        # the picture's format is the file's: a PNG named odds.txt helps nobody
        raise WastelandError(f"--plot {p}: the picture is written as "
                             f"{', '.join(f.upper() for f in FORMATS.values())}; end the "
                             f"name with {', '.join(FORMATS)} (e.g. {p.with_suffix('.png').name})")
    if not folder.is_dir():
        raise WastelandError(f"--plot {p}: no such directory {folder}")
    if not os.access(folder, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise WastelandError(f"--plot {p}: no permission to write there")
    return p


def _bars(ax: Any, hist: dict[str, list[int]], colour: str) -> None:
    """A report's histogram (bin i holds edges[i] .. edges[i+1] - 1) as bars."""
    edges, counts = hist.get("edges", []), hist.get("counts", [])
    if not counts:
        ax.text(0.5, 0.5, "no fights", ha="center", va="center", transform=ax.transAxes)
        return
    total = sum(counts)
    width = edges[1] - edges[0]
    ax.bar(edges[:-1], [100 * c / total for c in counts], width=width * 0.9, align="edge",
           color=colour)
    ax.set_ylabel("% of fights")


def plot(rep: dict[str, Any], path: str | Path) -> None:
    """Write the report ``rep`` (Simulation.report) as a PNG at ``path``: one panel for
    the outcomes, one for the rounds, one per party member for its HP left."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = 2 + len(rep["members"])
    cols = min(COLUMNS, panels)
    rows = math.ceil(panels / cols)
    fig, grid = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), squeeze=False)
    axes = list(grid.flat)
    for extra in axes[panels:]:
        fig.delaxes(extra)
    try:
        ax = axes[0]
        names = ["win", "loss", "draw"]
        shares = [100 * rep["outcome"][k]["rate"] for k in names]
        # max(0, ...): at 0% or 100% the interval's end and the share differ by rounding
        low = [max(0.0, s - 100 * rep["outcome"][k]["ci"][0]) for s, k in zip(shares, names)]
        high = [max(0.0, 100 * rep["outcome"][k]["ci"][1] - s) for s, k in zip(shares, names)]
        ax.bar(names, shares, yerr=[low, high], capsize=6,
               color=[OUTCOME_COLOURS[k] for k in names])
        for i, s in enumerate(shares):
            ax.text(i, min(s + high[i] + 2, 104), f"{s:.0f}%", ha="center", va="bottom")
        ax.set_ylim(0, 110)
        ax.set_ylabel("% of fights (95% interval)")
        ax.set_title(f"outcome for {rep['party_side']}")
        _bars(axes[1], rep["rounds"].get("histogram", {}), "#4a6fa5")
        axes[1].set_title("rounds")
        axes[1].set_xlabel("rounds")
        for ax, m in zip(axes[2:], rep["members"]):
            _bars(ax, m["hp_left"].get("histogram", {}), "#c98b2b")
            dies = m["dies"]["rate"]
            ax.set_title(f"{m['id']}: HP left (down {100 * m['down']['rate']:.0f}%"
                         + (f", dies {100 * dies:.0f}%)" if dies else ")"))
            ax.set_xlabel("HP at the end (0: down)")
        fig.suptitle(f"{rep['scenario']} under {rep['ruleset']}, {rep['fights']:,} fights\n"
                     f"{rep['summary']}", fontsize=10)
        fig.tight_layout()
        try:
            fmt = FORMATS.get(Path(path).suffix.lower(), "png")
            fig.savefig(path, format=fmt, dpi=100)
        except OSError as e:
            raise WastelandError(f"--plot {path}: cannot write: {e.strerror or e}") from None
    finally:
        plt.close(fig)
