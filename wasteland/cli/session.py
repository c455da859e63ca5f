"""What play, gm and fight share so that a session never loses work: the session record
kept in every save, agents' random state, the choice of a save path that never overwrites
another fight, and the refusal of options that contradict the save being resumed."""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

from wasteland.limits import load_json, read_text
from wasteland.rules.battle import rng_from_json, rng_to_json
from wasteland.rules.errors import SaveError, WastelandError
from wasteland.rules.savefile import check_writable


def new_session(command: str, options: dict[str, Any], humans: list[int] | None = None
                ) -> dict[str, Any]:
    return {"id": uuid.uuid4().hex, "command": command, "options": dict(options),
            "humans": sorted(humans or []), "agents": []}


def _rngs(agent: object) -> dict[str, random.Random]:
    """An agent's random generators by the name a save gives them: its own, and that of
    the packet a policy agent falls back on for the creatures it was not trained for."""
    out: dict[str, random.Random] = {}
    rng = getattr(agent, "rng", None)
    if isinstance(rng, random.Random):
        out["rng"] = rng
    fallback = getattr(getattr(agent, "fallback", None), "rng", None)
    if isinstance(fallback, random.Random):
        out["fallback_rng"] = fallback
    return out


def rng_snapshot(agent: object) -> dict[str, Any]:
    """The agent's random state now, and what else it remembers between decisions (the
    search's turn plan): restore_agent puts both back."""
    out = {name: rng_to_json(rng) for name, rng in _rngs(agent).items()}
    memory = getattr(agent, "memory", None)
    if callable(memory):
        out["memory"] = memory()
    return out


def agent_record(kind: str, agent: object, side: int | None = None) -> dict[str, Any]:
    """What a save keeps of an agent: the name make_agent makes it from, its side and its
    random state."""
    return {"kind": kind, "side": side, "rng": None, **rng_snapshot(agent)}


def restore_agent(agent: object, record: dict[str, Any]) -> None:
    for name, rng in _rngs(agent).items():
        if record.get(name) is not None:
            rng_from_json(rng, record[name])
    recall = getattr(agent, "recall", None)
    if callable(recall) and "memory" in record:
        recall(record["memory"])


def check_resume_options(saved: dict[str, Any], given: dict[str, Any], resume: Path) -> None:
    """Options typed along with --resume must agree with the save; one line if not."""
    for name, value in given.items():
        if value is None or value is False:
            continue  # not given
        if name in saved and saved[name] != value:
            flag = "--" + name.replace("_", "-")
            was = f"{flag} {saved[name]}" if saved[name] is not None else f"no {flag}"
            raise WastelandError(
                f"{flag} {value} conflicts with {resume}, saved with {was}; "
                f"leave {flag} out to resume, or start a new game without --resume")


def session_id_of(path: Path) -> str | None:
    """The session id in an existing save, or None if it holds none (or is unreadable: not
    a regular file, too large, too deep, not JSON)."""
    try:
        d = load_json(read_text(path, "save", SaveError), str(path), SaveError)
        sid = d.get("session", {}).get("id") if isinstance(d, dict) else None
        return sid if isinstance(sid, str) else None
    except (SaveError, AttributeError):
        return None


def choose_save_path(path: Path, session_id: str, resumed: Path | None = None
                     ) -> tuple[Path, str | None]:
    """Where this session saves: ``path``, unless it holds another fight (the save it was
    resumed from is its own); then the first free ``name-2.json``, ``name-3.json``... The
    second value says why it moved. A path no save can be written to is refused now (one
    line), before anything is played."""
    path = check_writable(path)
    if (not path.exists() or session_id_of(path) == session_id
            or (resumed is not None and path.resolve() == resumed.resolve())):
        return path, None
    for n in range(2, 10_000):
        other = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not other.exists() or session_id_of(other) == session_id:
            return other, f"{path} holds another fight; this one saves to {other}"
    raise WastelandError(f"{path}: no free numbered save name next to it; choose --save-to")
