"""`wasteland serve`: a built-in agent on the program's side of the agent protocol.

It reads the engine's requests from stdin and writes its replies to stdout, one JSON
object a line (docs/protocol.md). Like a chess engine told "position startpos moves
...", it keeps its own copy of the battle: the ``start`` message carries the battle as
it began (ruleset, seed, scenario, bestiary; a save file's fields) and each ``decide``
the moves made since the last one, which it replays. The agent is made anew at each
``start`` from the game's seed, so ``cmd:"wasteland serve --agent packet"`` plays the
fight the packet agent plays in process.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from wasteland.rules import saves
from wasteland.rules.actions import ACTION_INDEX, parse_action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError
from wasteland.rules.rulesets import get_ruleset

from . import protocol as P
from .base import Agent, check_ruleset, intent_of, view_of
from .make import make_agent

# the engine counts requests from 1; JSON numbers past 2**53 lose digits in other readers
SEQ_MAX = 2**53


class Follower:
    """The battle of one game, kept in step with the engine's from its history."""

    def __init__(self, begin: dict[str, Any]) -> None:
        self.begin = begin
        self.battle = self._rebuild(list(begin.get("history", [])))

    def _rebuild(self, history: list[str]) -> Battle:
        return saves.replay_beginning(self.begin, history, "start.battle")

    def advance(self, lines: list[str]) -> None:
        b = self.battle
        if any(line.startswith("@") for line in lines):  # table dice, newcomers: replay all
            self.battle = self._rebuild([*b.history, *lines])
            return
        rs = get_ruleset(b.ruleset)
        for line in lines:
            _, _, text = line.partition(": ")
            rs.apply(b, parse_action(text, b.ids, rs.decider(b).combatant))


def serve(kind: str, lines: Iterable[str], out: TextIO,
          make: Callable[[str, int], Agent] = make_agent) -> int:
    """Answer the engine's requests in ``lines`` with agent ``kind`` until ``bye`` or the
    end of input; returns the exit code. A request this side cannot follow is answered
    with an error message and an ``end`` it cannot vouch for, never a traceback."""
    make(kind, 0)  # an unknown agent fails here, before any game

    def say(msg: dict[str, Any]) -> None:
        out.write(P.dump(msg) + "\n")
        out.flush()

    agent: Agent | None = None
    game: Follower | None = None
    for line in lines:
        if not line.strip():
            continue
        try:
            msg = P.load(line)
        except P.ReplyError as e:
            say({"type": "error", "message": str(e)})
            continue
        kind_of_msg = msg.get("type")
        if kind_of_msg == "hello":
            say({"type": "hello", "protocol": P.PROTOCOL, "version": P.VERSION,
                 "name": f"wasteland serve --agent {kind}"})
        elif kind_of_msg == "start":
            game, agent = None, None
            try:
                begin, seed = _start(msg)
                game = Follower(begin)
                agent = make(kind, seed)
                check_ruleset(agent, game.battle.ruleset)
            except (KeyError, TypeError, WastelandError) as e:
                say({"type": "error", "message": f"cannot follow this game: {e}"})
        elif kind_of_msg == "decide":
            say(_answer(msg, agent, game))
        elif kind_of_msg == "bye":
            return 0
    return 0


def _start(msg: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """A start message's battle and seed; WastelandError naming what is wrong."""
    from wasteland.limits import MAX_SEED

    begin, seed = msg.get("battle"), msg.get("seed", 0)
    if not isinstance(begin, dict):
        raise WastelandError(f"'battle' must be an object (a save's fields), got "
                             f"{type(begin).__name__}")
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise WastelandError(f"'seed' must be a whole number from 0 to {MAX_SEED}, got "
                             f"{str(seed)[:40]}")
    return begin, seed


def _fallback(legal: Any) -> str:
    """The first legal action's notation, else ``end``: what an answer names when this
    side cannot decide."""
    if isinstance(legal, list):
        for entry in legal:
            if isinstance(entry, dict) and isinstance(entry.get("action"), str):
                return str(entry["action"])
    return "end"


def _answer(msg: dict[str, Any], agent: Agent | None, game: Follower | None) -> dict[str, Any]:
    seq = msg.get("seq")
    if type(seq) is not int or not 0 <= seq <= SEQ_MAX:
        return {"type": "error", "message": f"'seq' must be a whole number from 0 to {SEQ_MAX}, "
                                           f"got {str(seq)[:40]}"}
    fallback = _fallback(msg.get("legal"))
    if agent is None or game is None:
        return {"seq": seq, "action": fallback, "reason": "no game to follow"}
    history = msg.get("history", [])
    if not isinstance(history, list) or not all(isinstance(h, str) for h in history):
        return {"seq": seq, "action": fallback,
                "reason": "lost the game: 'history' must be a list of move lines"}
    try:
        game.advance(history)
        b = game.battle
        rs = get_ruleset(b.ruleset)
        v = view_of(rs, b)
        action = intent_of(agent, agent.act(v))
        return {"seq": seq, "id": ACTION_INDEX[action], "reason": agent.last_reason}
    except WastelandError as e:
        return {"seq": seq, "action": fallback, "reason": f"lost the game: {e}"}


def main(kind: str) -> int:
    return serve(kind, sys.stdin, sys.stdout)
