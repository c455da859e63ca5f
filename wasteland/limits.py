"""Caps on what a file or a command line may ask for, and the checks that enforce them
without recursion, so a crafted input gets a one-line error instead of minutes of work,
gigabytes of memory or a RecursionError.

Why each value (measured on the development machine, 2 cores; peak RSS of a fresh
process including its imports, about 60 MB; benchmarks/map_size.py):

* ``MAX_MAP_WIDTH`` = ``MAX_MAP_HEIGHT`` = 32 squares and ``MAX_MAP_CELLS`` = 400: a map
  costs memory and time by the square of its squares times its diameter (the grid traces
  line of sight and walking distance between every pair of squares; rules/grid.py). An
  open map at the caps, a battle and a reset combat_v0 env under both rulesets, the
  imports included (0.3 s): 32x12 (384 squares) 114 MB and 0.24 s to build, 12x32 the
  same, 25x16 (400) 110 MB and 0.13 s, 20x20 108 MB and 0.12 s; 24x14 92 MB. Past the
  caps it grows fast: 32x16 164 MB, 64x8 250 MB, 40x40 1.7 GB and 4-8 s,
  50x50 over 3 GB and a numpy MemoryError. The built-in maps are at most 24x14 (336);
  the widest test maps are 30 and 32 squares.
* ``MAX_ROUNDS`` = 1000: the built-in scenarios ask for 20 to 40 rounds; a fight whose
  sides cannot reach each other runs to the limit, and a billion rounds printed 105 MB
  and never ended.
* ``MAX_YAML_BYTES`` = 1 MB: bestiary and scenario files are under 2 KB; the size is
  checked while reading, so /dev/zero or a growing file cannot be read without end.
* ``MAX_DEPTH`` = 64 levels of nested mappings and lists (YAML or JSON): real files use
  under 10; 100,000 levels end in RecursionError in the YAML composer, json.loads and
  pydantic. The checks count depth iteratively and stop at the first level too deep.
* ``MAX_YAML_NODES`` = 10,000 values, aliases counted as the values they copy: real files
  have under 200. An alias bomb ("billion laughs": each anchor a list of ten aliases of
  the one before) is a few hundred bytes that expand to billions of values when loaded
  and validated. Dense YAML costs about 10 us a value to build, so this also keeps any
  accepted file well under a second.
* File sizes, by kind (``MAX_FILE_BYTES``): every file Wasteland reads goes through
  ``read_file``, which opens it only if it is a regular file (a named pipe would block the
  open for ever, /dev/zero would be read without end) and reads at most its kind's cap plus
  one byte, so a larger file is refused without being read. YAML (bestiary, scenarios,
  training configs) 1 MB, real files under 2 KB; a save 16 MB (a 1,000-round fight with its
  log stays well under); a policy's weights 64 MB (the shipped ones are 0.54 MB); a
  manifest or a results file 4 MB (shipped manifests 5 KB, results files under 100 KB).
* ``MAX_FIGHTS`` = 1,000,000 fights for `wasteland simulate -n`: the win rate's 95%
  interval is then under 0.2 points wide, past any question a GM asks; at a few
  milliseconds a fight it is minutes to an hour of work, not days.
"""

from __future__ import annotations

import math
import numbers
import os
import re
import stat
from collections.abc import Callable
from typing import Any

from wasteland.rules.errors import WastelandError

MAX_MAP_WIDTH = 32
MAX_MAP_HEIGHT = 32
MAX_MAP_CELLS = 400
MAX_ROUNDS = 1000
# a seed a save can hold (a signed 64-bit integer), so every battle begun can be saved
MAX_SEED = 2**63 - 1
MAX_YAML_BYTES = 1_000_000
MAX_DEPTH = 64
MAX_YAML_NODES = 10_000
MAX_FIGHTS = 1_000_000

# One set of caps for what a bestiary, a scenario, a save and a config may hold, so that
# whatever loads can also be saved and resumed (the save schema, rules/savemodel.py, bounds
# the state a fight of these reaches). The built-in creatures stay far under them: HP at
# most a few hundred, stats and thresholds under 100, ammunition under 100.
MAX_HP = 100_000
MAX_STAT = 10_000       # any other number of a stat block, a weapon or an item
MAX_MODIFIER = 100      # signed modifiers: initiative, attributes, attack bonuses
MAX_MULTIPLIER = 10.0   # the real-valued qualities: Brutal, Armor Vulnerable
MAX_COUNT = 10_000      # ammunition and items a combatant carries
# ids of creatures, weapons, items, scenarios and combatants: they are words of the action
# notation and of a save's history lines, so no space, newline or punctuation
ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
ID_RULE = "1 to 64 letters, digits, '_' or '-'"
MAX_NAME = 80


class LimitError(WastelandError, ValueError):
    """An input past one of the caps above; the message is one line naming the cap."""


MAX_SAVE_BYTES = 16 * 2**20
MAX_POLICY_BYTES = 64 * 2**20
MAX_MANIFEST_BYTES = 4 * 2**20
MAX_RESULTS_BYTES = 4 * 2**20
# the most a file of each kind may hold, in bytes; read_file's ``kind`` is one of these keys
MAX_FILE_BYTES = {
    "yaml": MAX_YAML_BYTES,        # bestiary entries, scenarios, training configs
    "save": MAX_SAVE_BYTES,
    "policy": MAX_POLICY_BYTES,    # a policy's .npz of weights
    "manifest": MAX_MANIFEST_BYTES,  # a policy's .json manifest, a run's summary
    "results": MAX_RESULTS_BYTES,  # benchmark results, sweeps, eval.csv
}


def open_regular(path: str | os.PathLike[str], error: Callable[[str], Exception]
                  ) -> tuple[int, os.stat_result]:
    """An open descriptor of ``path`` and its stat, if it is a regular file; else ``error``.
    Opened without blocking and checked on the descriptor, so a named pipe never blocks
    the open and a file swapped for one after a check is still caught."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror}") from None
    try:
        st = os.fstat(fd)
    except OSError as e:
        os.close(fd)
        raise error(f"{path}: cannot read: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        what = ("a folder" if stat.S_ISDIR(st.st_mode) else
                "a named pipe" if stat.S_ISFIFO(st.st_mode) else
                "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                "a socket" if stat.S_ISSOCK(st.st_mode) else "not a plain file")
        raise error(f"{path}: {what}, not a regular file; only regular files are read")
    return fd, st


def read_file(path: str | os.PathLike[str], kind: str,
              error: Callable[[str], Exception] = LimitError) -> bytes:
    """The bytes of ``path``, or ``error`` with one line naming it: not there, not a regular
    file (a folder, a named pipe, a device), unreadable, or larger than MAX_FILE_BYTES[kind].

    At most the cap plus one byte is read, so a file that grows while it is read cannot
    be read without end."""
    cap = MAX_FILE_BYTES[kind]
    fd, st = open_regular(path, error)
    try:
        if st.st_size > cap:
            raise error(_too_large(path, cap))
        chunks: list[bytes] = []
        got = 0
        while got <= cap:
            chunk = os.read(fd, min(cap + 1 - got, 2**20))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror}") from None
    finally:
        os.close(fd)
    if got > cap:  # it grew while being read
        raise error(_too_large(path, cap))
    return b"".join(chunks)


def file_digest(path: str | os.PathLike[str],
                error: Callable[[str], Exception] = LimitError) -> str:
    """The SHA-256 of a regular file's bytes (as far as its size when opened), read a
    chunk at a time: for files that are hashed, not loaded (the programs a ``cmd:`` agent
    names, which may be large), so no size cap; the same refusals as ``read_file``."""
    import hashlib

    fd, st = open_regular(path, error)
    h = hashlib.sha256()
    left = st.st_size
    try:
        while left > 0:
            chunk = os.read(fd, min(left, 2**20))
            if not chunk:
                break
            h.update(chunk)
            left -= len(chunk)
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror}") from None
    finally:
        os.close(fd)
    return h.hexdigest()


def read_text(path: str | os.PathLike[str], kind: str,
              error: Callable[[str], Exception] = LimitError) -> str:
    """``read_file`` decoded as UTF-8, or ``error`` with one line naming the first bad byte."""
    raw = read_file(path, kind, error)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise error(f"{path}: not UTF-8 text (byte {e.start}: {e.reason})") from None


def _too_large(path: str | os.PathLike[str], cap: int) -> str:
    return f"{path}: file larger than {cap:,} bytes; at most {cap:,} are accepted"


def map_size_problem(width: int, height: int) -> str | None:
    """Why a ``width`` x ``height`` map is empty or too large, or None if it is within the
    caps."""
    if width < 1 or height < 1:  # every reader of a map takes its first row and square
        return (f"the map is empty ({width}x{height} squares); a map needs at least one row "
                f"of at least one square")
    if width <= MAX_MAP_WIDTH and height <= MAX_MAP_HEIGHT and width * height <= MAX_MAP_CELLS:
        return None
    return (f"{width}x{height} squares is too large; at most {MAX_MAP_WIDTH} wide, "
            f"{MAX_MAP_HEIGHT} high and {MAX_MAP_CELLS} squares in all")


def rounds_problem(max_rounds: Any) -> str | None:
    """Why ``max_rounds`` is not an accepted round limit, or None if it is one."""
    whole = isinstance(max_rounds, numbers.Integral) and not isinstance(max_rounds, bool)
    if whole and 1 <= max_rounds <= MAX_ROUNDS:
        return None
    return f"max_rounds must be a whole number from 1 to {MAX_ROUNDS}, got {max_rounds!r}"


# a JSON string, escapes included: brackets inside it do not nest
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def json_depth(text: str, stop: int = MAX_DEPTH) -> int:
    """How deep lists and objects nest in JSON ``text``, counted without parsing or
    recursion, at C speed (numpy over the bytes, a slice at a time: a 16 MB save in about
    0.1 s and little memory); counting stops once a slice passes ``stop``. Text that is
    not valid JSON gets a number too; json.loads refuses it after."""
    import numpy as np

    data = np.frombuffer(_JSON_STRING.sub('""', text).encode("utf-8"), dtype=np.uint8)
    deepest = base = 0
    for start in range(0, len(data), 2**20):
        chunk = data[start:start + 2**20]
        step = (((chunk == 91) | (chunk == 123)).astype(np.int32)
                - ((chunk == 93) | (chunk == 125)))
        depth = np.cumsum(step) + base
        deepest = max(deepest, int(depth.max()))
        base = int(depth[-1])
        if deepest > stop:
            break
    return deepest


def json_depth_ok(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests at most ``limit`` deep (safe to give json.loads)."""
    return json_depth(text, limit) <= limit


def check_json_nesting(text: str, where: str, error: Callable[[str], Exception] = LimitError,
                       limit: int = MAX_DEPTH) -> None:
    """Raise ``error`` (default LimitError; the save loader passes SaveError) with one line
    naming ``where`` when JSON ``text`` nests deeper than ``limit``. Call before json.loads."""
    if not json_depth_ok(text, limit):
        raise error(f"{where}: lists and objects nested more than {limit} deep; "
                    f"at most {limit} are accepted")


# integers a file or a message may hold: a seed (MAX_SEED) has 19 digits; int() of more
# than 4,300 digits raises ValueError, and a few thousand digits cost quadratic time
MAX_INT_DIGITS = 40


def load_json(text: str, where: str, error: Callable[[str], Exception] = LimitError) -> Any:
    """JSON ``text`` as values, or ``error`` with one line naming ``where`` (left out when
    empty): too deep, an integer of more than MAX_INT_DIGITS digits, NaN, Infinity or a
    number past a float's range (none of them can be written back as JSON), or not JSON."""
    import json

    def fail(message: str) -> Exception:
        return error(f"{where}: {message}" if where else message)

    if not json_depth_ok(text):
        raise fail(f"lists and objects nested more than {MAX_DEPTH} deep; at most "
                   f"{MAX_DEPTH} are accepted")

    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise fail(f"an integer of {len(digits.lstrip('-')):,} digits; at most "
                       f"{MAX_INT_DIGITS} are accepted")
        return int(digits)

    def real(digits: str) -> float:
        x = float(digits)
        if not math.isfinite(x):
            raise fail(f"the number {digits[:40]} is past a float's range")
        return x

    def constant(name: str) -> float:
        raise fail(f"{name} is not a JSON number")

    try:
        return json.loads(text, parse_int=whole, parse_float=real, parse_constant=constant)
    except json.JSONDecodeError as e:
        raise fail(f"not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except RecursionError:  # a depth the counter allowed but the C parser did not
        raise fail("nested too deep") from None


def _line(ev: Any) -> int | str:
    mark = ev.start_mark
    return mark.line + 1 if mark is not None else "?"


def check_yaml(text: str, where: str, error: type[Exception] = LimitError) -> None:
    """Raise ``error`` with one line naming ``where`` when YAML ``text`` nests deeper than
    ``MAX_DEPTH`` or holds more than ``MAX_YAML_NODES`` values once its aliases are
    expanded (or an alias refers to a collection that contains it). Walks the parser's
    event stream, which needs no recursion, and stops at the first excess; YAML syntax
    errors pass through as yaml.YAMLError for the caller to report."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _walk_yaml(yaml.parse(text, Loader=loader), where, error)
    except yaml.MarkedYAMLError as e:
        # libyaml stops at its own depth of 1000 while looking ahead, before the walk sees
        # level 65: the same excess, reported as ours
        if "nesting depth" not in (e.problem or ""):
            raise
        line = e.problem_mark.line + 1 if e.problem_mark is not None else "?"
        raise error(_too_deep(where, line)) from None


def _too_deep(where: str, line: int | str) -> str:
    return (f"{where}: mappings and lists nested more than {MAX_DEPTH} deep at line {line}; "
            f"at most {MAX_DEPTH} are accepted")


def _walk_yaml(events: Any, where: str, error: type[Exception]) -> None:
    import yaml

    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    total = 0
    sizes: dict[str, int] = {}  # anchor -> the values one alias of it copies
    open_: list[tuple[str | None, int]] = []  # collections open now: anchor, total at start
    for ev in events:
        if isinstance(ev, yaml.ScalarEvent):
            total += 1
            if ev.anchor is not None:
                sizes[ev.anchor] = 1
        elif isinstance(ev, starts):
            total += 1
            open_.append((ev.anchor, total - 1))
            if len(open_) > MAX_DEPTH:
                raise error(_too_deep(where, _line(ev)))
        elif isinstance(ev, ends):
            anchor, before = open_.pop()
            if anchor is not None:
                sizes[anchor] = total - before
        elif isinstance(ev, yaml.AliasEvent):
            if ev.anchor in sizes:
                total += sizes[ev.anchor]
            elif any(a == ev.anchor for a, _ in open_):
                raise error(f"{where}: alias *{ev.anchor} at line {_line(ev)} "
                            f"refers to a collection that contains it; recursive data is not "
                            f"accepted")
            # an undefined alias: yaml.safe_load reports it
        else:
            continue
        if total > MAX_YAML_NODES:
            raise error(f"{where}: more than {MAX_YAML_NODES} values (aliases counted as the "
                        f"values they copy) by line {_line(ev)}; at most "
                        f"{MAX_YAML_NODES} are accepted")
