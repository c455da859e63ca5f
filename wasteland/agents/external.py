"""Any program as an agent: ``cmd:COMMAND`` runs COMMAND (split like a shell line, not
run by one) and speaks the agent protocol with it over its stdin and stdout
(``wasteland.agents.protocol``, docs/protocol.md).

``cmd@SECONDS:COMMAND`` sets the time allowed per decision and for the program's hello
(default DEFAULT_TIMEOUT per decision and HANDSHAKE_MIN for the hello, or the
environment's WASTELAND_CMD_TIMEOUT for both); that time is one deadline for writing the
request and reading its reply, which nothing the program writes moves (agents/pipes.py).
A reply that is not JSON or names no action (malformed), an action that is not legal
(illegal), no reply in time (timeout) or a program that exits (crash) costs that decision
only: one line is logged, a fallback action is played (``end``, else the first legal
action) and the fault is counted in ``faults``. A program out of step - it does not take a
request in time (it stopped reading), writes a line past P.MAX_LINE, or repeats a reply
to an earlier request - is killed as well; a crashed or killed program is started again
at its next decision, and given up after MAX_FAILED_STARTS in a row without a good reply.

Programs are kept running between games: an agent that is done (``close``) hands its
program back to this process's pool, and the next agent made with the same command
takes it (a ``start`` message begins each game), so a simulation of a thousand fights
starts a program once per process and side. The pool's programs are told ``bye`` and
ended when the process exits; a forked worker never touches its parent's programs.
"""

from __future__ import annotations

import atexit
import logging
import os
import shlex
import shutil
import subprocess
import time
from collections import deque
from collections.abc import Collection, Iterable
from typing import Any

from wasteland.rules.actions import ACTION_INDEX, ACTION_TABLE, Action
from wasteland.rules.battle import Battle
from wasteland.rules.errors import WastelandError

from . import protocol as P
from .base import View
from .pipes import Closed, LinePipe, Overlong, Stalled

PREFIX = "cmd"
DEFAULT_TIMEOUT = 10.0
HANDSHAKE_MIN = 20.0  # seconds a program has to start and say hello, unless a time is given
# programs in a row stopped before a good reply (no hello, a crash, a flood, not
# reading) before the command is given up
MAX_FAILED_STARTS = 3
MAX_UNANSWERED = 64  # requests without a reply whose late replies are still skipped
LOGGED_PER_KIND = 5  # faults of one kind logged per command and process; the rest are counted
FAULTS = ("malformed", "illegal", "timeout", "crash")
END = ACTION_INDEX[Action("end")]

log = logging.getLogger(__name__)


def parse_spec(name: str) -> tuple[list[str], float]:
    """``cmd:COMMAND`` or ``cmd@SECONDS:COMMAND`` as (argv, timeout); a one-line
    WastelandError for an empty command, a bad timeout or a program not found."""
    head, sep, command = name.partition(":")
    if not sep or not (head == PREFIX or head.startswith(PREFIX + "@")):
        raise WastelandError(f"{name!r} is not a program agent; write cmd:COMMAND or "
                             f"cmd@SECONDS:COMMAND")
    timeout = default_timeout()
    if head != PREFIX:
        raw = head[len(PREFIX) + 1:]
        try:
            timeout = float(raw)
        except ValueError:
            timeout = -1.0
        if not 0 < timeout <= 3600:
            raise WastelandError(f"cmd@SECONDS: SECONDS must be a number from 0 to 3600 "
                                 f"(the time per decision), got {raw!r}")
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise WastelandError(f"cmd: cannot split {command!r}: {e}") from None
    if not argv:
        raise WastelandError("cmd: the command is empty; write cmd:\"python my_agent.py\"")
    if shutil.which(argv[0]) is None:
        raise WastelandError(f"cmd: program {argv[0]!r} not found (not on PATH, or not an "
                             f"executable file)")
    return argv, timeout


def default_timeout() -> float:
    raw = os.environ.get("WASTELAND_CMD_TIMEOUT")
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise WastelandError(f"WASTELAND_CMD_TIMEOUT must be seconds from 0 to 3600, got {raw!r}")
    return value


class _Program:
    """A running program (agents/pipes.py: every write and read has a deadline, lines are
    capped as they are read) and what it was last asked: the requests that got no reply,
    whose late replies are skipped."""

    def __init__(self, argv: list[str]) -> None:
        try:
            self.pipe = LinePipe(argv, P.MAX_LINE)
        except OSError as e:
            raise WastelandError(f"cmd: cannot start {argv[0]!r}: {e.strerror or e}") from None
        self.proc = self.pipe.proc
        self.owner = os.getpid()
        self.name = ""
        # requests that timed out or were answered wrongly: a reply to one of them may still
        # come and is skipped; a reply to any other earlier request is a program out of step
        self.unanswered: deque[int] = deque(maxlen=MAX_UNANSWERED)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, msg: dict[str, Any], deadline: float, what: str) -> None:
        """Write one message by ``deadline``; _Fault "crash" if the program closed its
        input, "timeout" (the program to be stopped) if it does not take the message in
        time: it stopped reading, and a half-written message cannot be taken back."""
        try:
            self.pipe.write((P.dump(msg) + "\n").encode("utf-8"), deadline)
        except Closed:
            raise _Fault("crash", f"closed its input before {what}") from None
        except Stalled:
            raise _Fault("timeout", f"did not read {what} in time (its input stayed full: "
                                    f"it stopped reading); stopped", stop=True) from None

    def line(self, deadline: float, timeout: float, what: str) -> str:
        """The next line by ``deadline``; _Fault "timeout" at the deadline (the bytes that
        came before it do not move it), "malformed" (to be stopped) for a line past
        P.MAX_LINE, "crash" if the program closed its output."""
        try:
            raw = self.pipe.read_line(deadline)
        except Stalled:
            raise _Fault("timeout", f"no reply to {what} in {timeout:g} s") from None
        except Overlong:
            raise _Fault("malformed", f"a line longer than {P.MAX_LINE:,} bytes in reply to "
                                      f"{what}; stopped", stop=True) from None
        if raw is None:
            try:  # its output closes a moment before it exits: wait for the exit code
                code: int | None = self.proc.wait(1.0)
            except subprocess.TimeoutExpired:
                code = None
            how = "closed its output" if code is None else f"exited (code {code})"
            raise _Fault("crash", f"{how} instead of answering {what}")
        return raw.decode("utf-8", errors="replace")

    def stop(self, grace: float = 0.5) -> None:
        """Ask it to exit (bye, end of input), then end it if it does not in ``grace``
        seconds; reaped, and our ends of its pipes closed."""
        if self.owner != os.getpid():
            return  # a forked copy: the program belongs to the parent
        if self.alive:
            try:
                self.pipe.write((P.dump(P.bye()) + "\n").encode(), time.monotonic() + grace)
            except (Closed, Stalled):
                pass
        self.pipe.close(grace)

    def kill(self) -> None:
        """End it now, without a word: it floods or stopped reading."""
        if self.owner == os.getpid():
            self.pipe.close(0)


# idle programs by command line, owned by this process
_idle: dict[tuple[str, ...], list[_Program]] = {}
_running: set[_Program] = set()
# request and game numbers count up for the whole process: a program handed from one
# agent to the next never sees a number again, so a late reply is never taken for a new one
_counter = {"seq": 0, "game": 0}
# faults logged by (command, kind): a simulation makes an agent per fight, and its log
# must not grow with the number of fights
_logged: dict[tuple[str, str], int] = {}


def _next(what: str) -> int:
    _counter[what] += 1
    return _counter[what]


def _take(argv: list[str]) -> _Program | None:
    pool = _idle.get(tuple(argv), [])
    while pool:
        p = pool.pop()
        if p.alive and p.owner == os.getpid():
            return p
        p.stop(0)
    return None


def _give_back(argv: list[str], p: _Program) -> None:
    if p.alive and p.owner == os.getpid():
        _idle.setdefault(tuple(argv), []).append(p)
    else:
        _running.discard(p)
        p.stop(0)


def shutdown() -> None:
    """Stop every program this process started (at exit, and in tests)."""
    pid = os.getpid()
    for p in list(_running):
        if p.owner == pid:
            p.stop()
    _running.clear()
    _idle.clear()
    _logged.clear()


def _forget_after_fork() -> None:
    # a forked worker inherits the parent's pool: its programs and pipes are the parent's
    _running.clear()
    _idle.clear()


atexit.register(shutdown)
os.register_at_fork(after_in_child=_forget_after_fork)


def _register_worker_exit() -> None:
    # a multiprocessing worker leaves by os._exit: atexit does not run there, its own
    # finalizers do
    from multiprocessing import util

    util.Finalize(None, shutdown, exitpriority=10)


class CmdAgent:
    """An agent played by a program speaking the agent protocol."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.argv, self.timeout = parse_spec(spec)
        # a time the user gave (cmd@SECONDS:, WASTELAND_CMD_TIMEOUT) holds for the hello
        # too: who asks for 1 s does not want to wait 20 for a program that never answers
        given = spec.startswith(PREFIX + "@") or "WASTELAND_CMD_TIMEOUT" in os.environ
        self.hello_timeout = self.timeout if given else max(self.timeout, HANDSHAKE_MIN)
        self.kind = spec
        self.name = spec
        self.seed = seed
        self.last_reason = ""
        self.faults: dict[str, int] = dict.fromkeys(FAULTS, 0)
        self.decisions = 0
        self.program: _Program | None = None
        self.game = 0  # 0 until this agent's game has started
        self.known = 0  # history lines the program has been sent
        self.followed: Battle | None = None  # the battle the program's game is
        self.side: int | None = None
        self.failed_starts = 0

    # --- the program's lifetime ------------------------------------------------------
    def _program(self) -> _Program:
        """A program that has said hello; raises _Fault if none can be had now."""
        if self.program is not None and self.program.alive:
            return self.program
        if self.program is not None:
            _running.discard(self.program)
            self.program.stop(0)
            self.program = None
            self.game = 0
        if self.failed_starts >= MAX_FAILED_STARTS:
            raise _Fault("crash", f"given up after {MAX_FAILED_STARTS} programs in a row "
                                  f"were stopped before a good reply", quiet=True)
        p = _take(self.argv)
        if p is None:
            p = _Program(self.argv)
            if not _running:
                _register_worker_exit()
            _running.add(p)
            try:
                p.name = self._handshake(p)
            except _Fault as f:
                _running.discard(p)
                p.stop(0)
                self._dropped(f)
                raise
        self.program = p
        return p

    def _dropped(self, f: _Fault) -> None:
        """A program of this agent was stopped for ``f``: once MAX_FAILED_STARTS have been
        in a row without a good reply, the command is given up."""
        self.failed_starts += 1
        if self.failed_starts == MAX_FAILED_STARTS:
            f.message += (f"; given up after {MAX_FAILED_STARTS} starts in a row "
                          f"(each later decision is a counted crash)")

    def start(self) -> None:
        """Start the program now and have it say hello, so that a program that cannot
        play is one line before the fight rather than a fight played on fallbacks."""
        try:
            self._program()
        except _Fault as f:
            raise WastelandError(f"{self.kind}: the program cannot play: {f.message} "
                                 f"(docs/protocol.md says what it must answer)") from None

    def _handshake(self, p: _Program) -> str:
        # one deadline for writing the hello and reading the answer
        deadline = time.monotonic() + self.hello_timeout
        p.send(P.hello(), deadline, "the hello")
        line = p.line(deadline, self.hello_timeout, "the hello")
        try:
            return P.check_hello(P.load(line))
        except P.ReplyError as e:
            raise _Fault(e.kind, f"bad hello: {e}") from None

    def close(self, battle: Battle | None = None) -> None:
        """The game is done: tell the program how it ended (if it did) and hand the
        program back to the pool for the next game (or stop it, if it takes no more)."""
        p, self.program = self.program, None
        if p is None:
            return
        if battle is not None and battle.over and self.game and self.side is not None:
            try:
                p.send(P.over(self.game, battle, self.side), time.monotonic() + self.timeout,
                       "the game's end")
            except _Fault:
                _running.discard(p)
                p.kill()
                return
        _give_back(self.argv, p)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - at interpreter exit nothing may be left to use
            pass

    # --- deciding ---------------------------------------------------------------------
    def act(self, view: View) -> Action:
        self.decisions += 1
        b, d, legal = view.battle, view.decision, view.legal_ids
        actor = d.combatant
        try:
            p = self._program()
            # one deadline for the request: the writes and the reply, whatever comes before
            deadline = time.monotonic() + self.timeout
            if self.game and (b is not self.followed or len(b.moves) < self.known):
                self.game = 0  # a GM's undo or a rewound fight: the program starts again
            if not self.game:
                self.game = _next("game")
                self.followed = b
                self.side = b.combatants[actor].side
                p.send(P.start(self.game, b, self.side, self.seed), deadline,
                       "the game's start")
                self.known = len(b.moves)
            seq = _next("seq")
            p.unanswered.append(seq)  # until its reply is read
            p.send(P.decide(seq, self.game, b, view.ruleset, d, legal, self.known), deadline,
                   f"request {seq}")
            self.known = len(b.moves)
            msg = self._reply(p, seq, deadline)
            self.failed_starts = 0  # a program in step with its requests
            try:
                i, reason = P.reply_action(msg, b, legal, actor)
            except P.ReplyError as e:
                raise _Fault(e.kind, str(e)) from None
            self.last_reason = f"{p.name}: {reason}" if reason else p.name
            return ACTION_TABLE[i]
        except _Fault as f:
            return self._fallback(f, view)

    def _reply(self, p: _Program, seq: int, deadline: float) -> dict[str, Any]:
        """The reply to request ``seq``. A late reply to a request that got none is
        skipped (once: it is then answered); a reply to any other earlier request is a
        program out of step, stopped (a program repeating a reply would otherwise be
        read for ever)."""
        while True:
            try:
                msg = P.load(p.line(deadline, self.timeout, f"request {seq}"))
            except P.ReplyError as e:
                raise _Fault(e.kind, str(e)) from None
            got = msg.get("seq")
            if got == seq and type(got) is int:
                p.unanswered.remove(seq)
                return msg
            if type(got) is not int or got > seq:
                raise _Fault("malformed", f"the reply's 'seq' must be {seq}, got {got!r}"[:200])
            if got not in p.unanswered:
                raise _Fault("malformed", f"a reply to request {got}, which was answered or "
                                          f"never asked (the reply's 'seq' must be {seq}); "
                                          f"stopped", stop=True)
            p.unanswered.remove(got)

    def _fallback(self, f: _Fault, view: View) -> Action:
        self.faults[f.kind] += 1
        i = END if END in view.legal_ids else view.legal_ids[0]
        b = view.battle
        played = ACTION_TABLE[i].text(b.ids, view.decision.combatant)
        if (f.kind == "crash" or f.stop) and self.program is not None:
            _running.discard(self.program)
            if f.stop:
                self.program.kill()
            else:
                self.program.stop(0)
            self.program = None
            self.game = 0
            self._dropped(f)
        self.last_reason = f"fallback after {f.kind}: {f.message}"
        key = (self.kind, f.kind)
        _logged[key] = n = _logged.get(key, 0) + 1
        if not f.quiet and n <= LOGGED_PER_KIND:
            more = (" (further faults of this kind are counted, not logged)"
                    if n == LOGGED_PER_KIND else "")
            log.warning("%s: %s at round %d (%s): %s; played %r instead%s",
                        self.kind, f.kind, b.round, b.ids[view.decision.combatant],
                        _short(f.message), played, more)
        return ACTION_TABLE[i]


def _short(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


class _Fault(Exception):
    """A decision's fault of ``kind`` (FAULTS); ``stop``: the program is out of step (it
    floods, or stopped reading) and is ended at once, to be started again if need be."""

    def __init__(self, kind: str, message: str, quiet: bool = False, stop: bool = False
                 ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.quiet = quiet
        self.stop = stop


def is_program(kind: str) -> bool:
    """Whether the agent ``kind`` runs a program (``cmd:``, ``cmd@SECONDS:``)."""
    return kind.strip().startswith((PREFIX + ":", PREFIX + "@"))


def unnamed_programs(kinds: Iterable[str], named: Collection[str]) -> list[str]:
    """The program agents among ``kinds`` (read from a file: a save, a training config, a
    run folder) that are not in ``named`` (those the command line names). A file never
    starts a program by itself: one someone sends you could name any command."""
    return [k for k in kinds if is_program(k) and k not in named]


def check_saved_programs(kinds: Iterable[str], given: str | None, where: object,
                         flag: str, saved: str | None) -> None:
    """A save never starts a program by itself (a save someone sends you could name any
    command): each ``cmd:`` agent it names must be named again on the command line
    (``given``, the value of ``flag``); else one line saying how to resume."""
    from .names import split_agents

    # the flag's whole value too: play's --ai names one agent, whatever commas it holds
    named = {*split_agents(given or ""), (given or "").strip()}
    for k in unnamed_programs(kinds, named):
        again = shlex.quote(saved or k)
        raise WastelandError(f"{where}: a side is played by the program {k!r}, and a save "
                             f"never starts a program by itself; to run it, resume with "
                             f"{flag} {again}")


def start_programs(agents: Iterable[object]) -> None:
    """Before a fight: each program agent among ``agents`` starts and says hello, or the
    command stops with one line (WastelandError)."""
    for a in agents:
        if isinstance(a, CmdAgent):
            a.start()


def check_program(agent: object) -> None:
    """An agent made only to check it (simulate, evaluate): a program starts and says
    hello, then goes to the pool, where the first fight takes it."""
    try:
        if isinstance(agent, CmdAgent):
            agent.start()
    finally:
        close = getattr(agent, "close", None)  # any agent that holds a resource gives it back
        if callable(close):
            close()


def faults_of(agents: Iterable[object]) -> dict[str, int]:
    """The faults of the program agents among ``agents``, summed by kind (all zero if
    none is a program)."""
    out = dict.fromkeys(FAULTS, 0)
    for a in agents:
        for k, n in getattr(a, "faults", {}).items():
            out[k] = out.get(k, 0) + n
    return out


def close_agents(agents: Iterable[object], battle: Battle | None = None) -> None:
    """A game is done: each agent that holds a program tells it the result (when the
    battle is over) and hands the program back."""
    for a in agents:
        close = getattr(a, "close", None)
        if callable(close):
            close(battle)
