"""The observation and mask buffers: float32 and 0/1 bytes from Python lists, filled by
the C module ``_buffers`` (``_buffers.c``) when the engine is compiled, else by the same
functions in Python below. Both give the same bytes (tests/envs/test_buffers.py)."""

from __future__ import annotations

import importlib
import struct
from collections.abc import Callable
from typing import Any

import wasteland
from wasteland.rules.actions import MAX_COMBATANTS


def floats32_py(values: list[Any], n: int) -> bytearray:
    """``n`` float32 in native order, ``values`` first and zeros after them; a tuple among
    the values stands for the numbers in it, and bytes for the float32 packed in them."""
    for v in values:
        if type(v) is bytes and len(v) % 4:
            raise ValueError(f"floats32: a packed row of {len(v)} bytes is not whole float32s")
    values = [x for v in values for x in (
        v if type(v) is tuple else struct.unpack(f"={len(v) // 4}f", v) if type(v) is bytes
        else (v,))]
    if len(values) > n:
        raise ValueError(f"floats32: {len(values)} values do not fit in {n} floats")
    buf = bytearray(4 * n)
    try:
        struct.pack_into(f"={len(values)}f", buf, 0, *values)
    except struct.error as e:  # as the C module: a value that is not a number
        raise TypeError(f"floats32: {e}") from None
    return buf


def flags8_py(ids: list[int], n: int) -> bytearray:
    """``n`` bytes, 1 at each of ``ids``."""
    m = bytearray(n)
    for i in ids:
        if not 0 <= i < n:
            raise IndexError(f"flags8: id {i} is outside 0..{n - 1}")
        m[i] = 1
    return m


def ego_flags_py(ids: list[int], order: list[int], target_of: bytes, retarget: bytes,
                 n: int) -> bytearray:
    """``flags8`` of the egocentric ids of table ids ``ids`` (``encoding.ego_ids``), from
    the tables ``encoding`` packs: ``target_of`` a signed byte per id (-1: no target),
    ``retarget`` per id the id aimed at each of the MAX_COMBATANTS blocks, as little-endian
    uint16."""
    block = [0] * MAX_COMBATANTS
    for k, slot in enumerate(order):
        block[slot] = k
    ego = []
    for i in ids:
        if not 0 <= i < n:
            raise IndexError(f"ego_flags: id {i} is outside 0..{n - 1}")
        t = struct.unpack_from("b", target_of, i)[0]
        at = 2 * (i * MAX_COMBATANTS + block[t]) if t >= 0 else -1
        ego.append(i if t < 0 else struct.unpack_from("<H", retarget, at)[0])
    return flags8_py(ego, n)


def _native() -> Any:
    """The C module when the engine runs compiled and it was built with it: a plain or
    stale engine (the sources changed since the build) keeps to the Python functions."""
    if wasteland.ENGINE != "compiled":
        return None
    try:
        return importlib.import_module("wasteland.observe._buffers")
    except ImportError:
        return None


_C = _native()
NATIVE = _C is not None
floats32: Callable[[list[Any], int], bytearray] = _C.floats32 if NATIVE else floats32_py
flags8: Callable[[list[int], int], bytearray] = _C.flags8 if NATIVE else flags8_py
ego_flags: Callable[[list[int], list[int], bytes, bytes, int], bytearray] = (
    _C.ego_flags if NATIVE else ego_flags_py)
