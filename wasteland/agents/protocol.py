"""The agent protocol's messages: one JSON object per line over a program's stdin and
stdout, in the spirit of chess's UCI (docs/protocol.md; JSON Schemas in
wasteland/agents/schema/).

The engine writes ``hello`` once (the program answers ``hello`` with its name), then for
each game a ``start``, a ``decide`` per decision (the program answers with ``seq`` and an
``action`` in notation or an ``id``) and an ``over``; ``bye`` asks the program to exit.
This module builds the engine's messages and reads the program's replies; the process
handling is in ``external`` (the engine's side) and ``serve`` (a built-in agent's side).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from wasteland.observe import text
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.protocol import Decision, Ruleset

PROTOCOL = "wasteland-agent"
VERSION = 1
REASON_MAX = 200
# a start message carries a whole battle: a few KB; a line past this is not one of ours
MAX_LINE = 4_000_000
# request.schema.json (engine to program) and reply.schema.json (program to engine)
SCHEMA_DIR = Path(__file__).resolve().parent / "schema"


class ReplyError(WastelandError):
    """A reply that is not a well-formed answer to the request (``kind``: malformed or
    illegal)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def dump(msg: dict[str, Any]) -> str:
    """One message as one line (no newline inside: JSON escapes them)."""
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


def hello(engine: str = "wasteland") -> dict[str, Any]:
    from wasteland import __version__

    return {"type": "hello", "protocol": PROTOCOL, "version": VERSION,
            "engine": f"{engine} {__version__}"}


def start(game: int, battle: Battle, side: int, seed: int) -> dict[str, Any]:
    """A game begins: the agent's seed, its side, and the battle as it began (with the
    moves made before this agent joined, a resumed game's) for a program that follows it."""
    from wasteland.rules.saves import beginning

    return {"type": "start", "game": game, "seed": seed, "ruleset": battle.ruleset,
            "scenario": battle.scenario.id, "side": battle.side_names[side],
            "sides": list(battle.side_names), "combatants": list(battle.ids),
            "battle": {**beginning(battle), "history": new_history(battle, 0)}}


def new_history(battle: Battle, known: int) -> list[str]:
    """The battle's history lines from ``known`` on."""
    return battle.history[known:]


def decide(seq: int, game: int, battle: Battle, ruleset: Ruleset, d: Decision,
           legal_ids: list[int], known: int) -> dict[str, Any]:
    """The request for one decision: who decides in which slot or window, the legal
    actions (notation and id), the battle as JSON values and as English, and the moves
    made since the ``known`` first ones (those the program was last sent)."""
    me = d.combatant
    return {"type": "decide", "seq": seq, "game": game,
            "history": new_history(battle, known),
            "decision": text.decision_dict(battle, d),
            "legal": [{"id": i, "action": text.notation(battle, i, me)} for i in legal_ids],
            "hit_chances": text.hit_chances(battle, ruleset, legal_ids, me),
            "state": text.state(battle, ruleset, d),
            "text": text.describe(battle, ruleset, d, legal_ids)}


def over(game: int, battle: Battle, side: int) -> dict[str, Any]:
    w = battle.winner
    result = "draw" if w is None else ("win" if w == side else "loss")
    return {"type": "over", "game": game,
            "winner": None if w is None else battle.side_names[w], "result": result}


def bye() -> dict[str, Any]:
    return {"type": "bye"}


def load(line: str) -> dict[str, Any]:
    """A line as a JSON object; ReplyError("malformed") if it is not one, or nests too
    deep, or holds a number JSON cannot carry back (limits.load_json)."""
    from wasteland.limits import load_json

    if len(line) > MAX_LINE:
        raise ReplyError("malformed", f"a line of {len(line):,} characters; at most "
                                      f"{MAX_LINE:,} are accepted")

    def malformed(message: str) -> ReplyError:  # what is wrong first, then the line
        return ReplyError("malformed", f"{message}: {line.strip()[:80]!r}")

    msg = load_json(line, "", malformed)
    if not isinstance(msg, dict):
        raise ReplyError("malformed", f"not a JSON object: {line.strip()[:80]!r}")
    return msg


def check_hello(msg: dict[str, Any]) -> str:
    """The program's name from its hello; ReplyError if it is not one of this protocol."""
    if msg.get("type") != "hello" or msg.get("protocol") != PROTOCOL:
        raise ReplyError("malformed", f"expected a hello of protocol {PROTOCOL!r}, got "
                                      f"{dump(msg)[:80]}")
    if msg.get("version") != VERSION:
        raise ReplyError("malformed", f"speaks version {msg.get('version')!r} of "
                                      f"{PROTOCOL}; this engine speaks {VERSION}")
    name = msg.get("name")
    return name[:80] if isinstance(name, str) and name else "unnamed"


def reply_action(msg: dict[str, Any], battle: Battle, legal_ids: list[int], actor: int
                 ) -> tuple[int, str]:
    """The action id a reply names and its reason. A reply names ``action`` (notation)
    or ``id`` (the action table's id), not both; ReplyError "malformed" if it names
    neither or a wrong type, "illegal" if the action does not parse or is not legal."""
    has_text, has_id = "action" in msg, "id" in msg
    if has_text == has_id:
        raise ReplyError("malformed", "a reply names 'action' (notation) or 'id', one of them")
    reason = msg.get("reason")
    reason = reason[:REASON_MAX] if isinstance(reason, str) else ""
    if has_id:
        i = msg["id"]
        if not isinstance(i, int) or isinstance(i, bool):
            raise ReplyError("malformed", f"'id' must be an integer, got {i!r}"[:120])
        if i not in legal_ids:
            raise ReplyError("illegal", f"id {i} is not legal now; legal ids: "
                                        f"{', '.join(map(str, legal_ids))}")
        return i, reason
    words = msg["action"]
    if not isinstance(words, str):
        raise ReplyError("malformed", f"'action' must be a string, got {words!r}"[:120])
    try:
        return text.parse(battle, words, legal_ids, actor), reason
    except WastelandError as e:
        raise ReplyError("illegal", str(e)) from None
