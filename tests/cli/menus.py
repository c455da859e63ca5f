"""Reading the numbered menu a scripted player sees, as a person would: the entries of
the last menu printed (it may run over several lines), each with its number."""

from __future__ import annotations

import re

ENTRY = re.compile(r"^\s+\d+\) ")


def last_menu(text: str) -> list[tuple[str, str]]:
    """(number, entry) of the last menu in ``text``; [] when none was printed."""
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith("  1)")]
    if not starts:
        return []
    rows = []
    for ln in lines[starts[-1]:]:
        if not ENTRY.match(ln):
            break
        rows.append(ln.strip())
    return re.findall(r"(\d+)\) (.*?)(?=\s{3}\d+\) |$)", "   ".join(rows))
