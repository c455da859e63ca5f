"""Agent lists as the command line and the config files write them: ``packet,random`` or
``search:rollouts=8,candidates=3,packet``. The comma separates agents and also the keys of a
search budget, so a piece that is only ``key=value`` belongs to the search agent before it."""

from __future__ import annotations

import re

# a budget key (agents/search.py, Budget.LIMITS) with its value, and nothing else
_BUDGET_KEY = re.compile(r"\s*[a-z_]+\s*=[^:]*")


def split_agents(text: str) -> list[str]:
    """The agents named in ``text``, split at the commas that separate agents: a piece of
    the form ``key=value`` after a ``search:`` agent is one more key of its budget, so
    ``search:rollouts=8,candidates=3,packet`` is two agents. Empty pieces are dropped."""
    out: list[str] = []
    for piece in text.split(","):
        if (out and _BUDGET_KEY.fullmatch(piece)
                and out[-1].strip().startswith("search:")):
            out[-1] += "," + piece
        elif piece.strip():
            out.append(piece)
    return [a.strip() for a in out]
