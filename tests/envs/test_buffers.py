"""The env's float32 and mask buffers: the C module (observe/_buffers.c) and its Python twin
give the same bytes, and both refuse what does not fit."""

from __future__ import annotations

import importlib
import random
import struct

import numpy as np
import pytest

import wasteland
from wasteland.observe import buffers
from wasteland.observe.encoding import mask_of


def _c():
    if wasteland.ENGINE != "compiled":
        pytest.skip("the engine runs as plain Python here: no C buffers to compare")
    return importlib.import_module("wasteland.observe._buffers")


def _values(rng: random.Random, n: int) -> list:
    out: list = []
    for _ in range(n):
        k = rng.random()
        out.append(rng.uniform(-1, 1) if k < 0.6 else
                   (rng.random() < 0.5) if k < 0.8 else rng.randint(-3, 3))
    return out


def test_the_compiled_engine_fills_buffers_in_c() -> None:
    _c()
    assert buffers.NATIVE and buffers.floats32 is not buffers.floats32_py


@pytest.mark.parametrize("fn", ["c", "py"])
def test_floats32_packs_like_struct_and_pads_with_zeros(fn: str) -> None:
    floats32 = _c().floats32 if fn == "c" else buffers.floats32_py
    rng = random.Random(4)
    for n in (0, 1, 39, 215, 259):
        values = _values(rng, n)
        want = struct.pack(f"={n}f", *values) + bytes(4 * (259 - n))
        got = floats32(values, 259)
        assert isinstance(got, bytearray) and bytes(got) == want
    # float32 rounding: a value between two float32s lands where struct puts it
    third = [1 / 3, -2 / 3, 0.1]
    assert bytes(floats32(third, 3)) == struct.pack("=3f", *third)


@pytest.mark.parametrize("fn", ["c", "py"])
def test_floats32_refuses_what_does_not_fit(fn: str) -> None:
    floats32 = _c().floats32 if fn == "c" else buffers.floats32_py
    with pytest.raises(ValueError, match="3 values do not fit in 2 floats"):
        floats32([0.0, 1.0, 2.0], 2)
    with pytest.raises(TypeError):
        floats32([0.0, "x"], 4)


@pytest.mark.parametrize("fn", ["c", "py"])
def test_flags8_sets_each_id(fn: str) -> None:
    flags8 = _c().flags8 if fn == "c" else buffers.flags8_py
    ids = [0, 5, 17, 318]
    got = flags8(ids, 319)
    assert isinstance(got, bytearray) and len(got) == 319
    assert [i for i, v in enumerate(got) if v] == ids and set(got) == {0, 1}
    with pytest.raises(IndexError, match="id 319 is outside 0..318"):
        flags8([319], 319)
    with pytest.raises(IndexError):
        flags8([-1], 319)


def test_a_mask_is_fresh_and_writable() -> None:
    a = mask_of([1, 2])
    b = mask_of((1, 2))  # any sequence of ids
    assert a.dtype == np.int8 and a.flags.writeable
    a[0] = 1
    assert b[0] == 0 and list(np.flatnonzero(b)) == [1, 2]
    assert mask_of([3], dtype=bool).dtype == bool


@pytest.mark.parametrize("fn", ["c", "py"])
def test_ego_flags_is_the_mask_of_the_egocentric_ids(fn: str) -> None:
    from wasteland.observe import encoding as E

    ego_flags = _c().ego_flags if fn == "c" else buffers.ego_flags_py
    rng = random.Random(9)
    for _ in range(300):
        n = rng.randint(2, E.MAX_COMBATANTS)
        order = list(range(n))
        rng.shuffle(order)
        legal = sorted({i for i in rng.sample(range(E.N_ACTIONS), 30)
                        if E.TARGET_OF[i] < n})
        want = E.mask_of(E.ego_ids(legal, order))
        got = ego_flags(legal, order, E._TARGET_BYTES, E._RETARGET_BYTES, E.N_ACTIONS)
        assert bytes(got) == want.tobytes()
        assert (E.ego_mask(legal, order) == want).all()
    with pytest.raises(IndexError):
        ego_flags([E.N_ACTIONS], [0, 1], E._TARGET_BYTES, E._RETARGET_BYTES, E.N_ACTIONS)


def _parts(rng: random.Random, packed: float) -> tuple[list, list]:
    """Values for floats32 and the flat numbers they stand for: float32 rows packed already
    (a share ``packed`` of them), tuples, and single numbers, in a random mix."""
    parts: list = []
    flat: list = []
    for _ in range(rng.randint(0, 40)):
        r = rng.random()
        t = tuple(_values(rng, rng.randint(0, 9)))
        if r < packed:
            row = struct.pack(f"={len(t)}f", *t)
            parts.append(row)
            flat.extend(struct.unpack(f"={len(t)}f", row))
        elif r < packed + (1.0 - packed) / 2:
            parts.append(t)
            flat.extend(t)
        elif t:
            parts.append(t[0])
            flat.append(t[0])
    return parts, flat


def _packs_like_struct(floats32, rng: random.Random, packed: float) -> None:
    for _ in range(50):
        parts, flat = _parts(rng, packed)
        if len(flat) > 259:
            continue
        assert bytes(floats32(parts, 259)) == struct.pack(f"={len(flat)}f", *flat) + bytes(
            4 * (259 - len(flat)))


@pytest.mark.parametrize("fn", ["c", "py"])
def test_floats32_reads_tuples_as_runs_of_numbers(fn: str) -> None:
    floats32 = _c().floats32 if fn == "c" else buffers.floats32_py
    _packs_like_struct(floats32, random.Random(7), packed=0.0)
    with pytest.raises(ValueError, match="5 values do not fit in 4 floats"):
        floats32([1.0, (2.0, 3.0), (4.0, 5.0)], 4)


@pytest.mark.parametrize("fn", ["c", "py"])
def test_ids_may_be_numpy_integers(fn: str) -> None:
    """What np.flatnonzero gives, listed: numpy integers index like ints."""
    flags8 = _c().flags8 if fn == "c" else buffers.flags8_py
    ids = list(np.flatnonzero(np.array([0, 1, 0, 1, 1], dtype=np.int8)))
    assert [i for i, v in enumerate(flags8(ids, 5)) if v] == [1, 3, 4]
    assert list(np.flatnonzero(mask_of(np.array([2, 7])))) == [2, 7]
    with pytest.raises(TypeError):
        flags8([1.0], 5)


@pytest.mark.parametrize("fn", ["c", "py"])
def test_a_negative_size_or_a_wrong_argument_is_refused(fn: str) -> None:
    from wasteland.observe import encoding as E

    c = _c() if fn == "c" else None
    floats32 = c.floats32 if c else buffers.floats32_py
    flags8 = c.flags8 if c else buffers.flags8_py
    ego_flags = c.ego_flags if c else buffers.ego_flags_py
    with pytest.raises(ValueError):
        floats32([], -1)
    with pytest.raises(ValueError):
        flags8([], -1)
    if c is not None:  # the C module checks its argument types itself
        with pytest.raises(TypeError, match="floats32"):
            c.floats32((1.0,), 4)
        with pytest.raises(TypeError, match="ego_flags"):
            c.ego_flags([0], (0,), E._TARGET_BYTES, E._RETARGET_BYTES, E.N_ACTIONS)
        with pytest.raises(ValueError, match="tables shorter"):
            c.ego_flags([0], [0], b"", E._RETARGET_BYTES, E.N_ACTIONS)
    assert bytes(ego_flags([0], [0], E._TARGET_BYTES, E._RETARGET_BYTES, 4)) == b"\x01\0\0\0"


@pytest.mark.parametrize("fn", ["c", "py"])
def test_tables_that_aim_out_of_range_are_refused(fn: str) -> None:
    """A target slot past the blocks, or a retarget past n, is an error, not a write past
    the buffer."""
    from wasteland.observe import encoding as E

    ego_flags = _c().ego_flags if fn == "c" else buffers.ego_flags_py
    targeted = next(i for i in range(E.N_ACTIONS) if E.TARGET_OF[i] >= 0)
    bad_target = bytearray(E._TARGET_BYTES)
    bad_target[targeted] = 12
    with pytest.raises(IndexError):
        ego_flags([targeted], [0, 1], bytes(bad_target), E._RETARGET_BYTES, E.N_ACTIONS)
    first = next(i for i in range(E.N_ACTIONS) if E.TARGET_OF[i] == 0)
    assert E.RETARGET[first][1] > first  # slot 0 seen in block 1 aims at a later id
    with pytest.raises(IndexError):
        ego_flags([first], [1, 0], E._TARGET_BYTES, E._RETARGET_BYTES, first + 1)


@pytest.mark.parametrize("fn", ["c", "py"])
def test_floats32_copies_packed_rows_as_they_are(fn: str) -> None:
    """Bytes among the values are float32 already packed (the encoder's kept rows): they
    join the buffer as those numbers, among numbers and tuples, and count as them when
    they do not fit."""
    floats32 = _c().floats32 if fn == "c" else buffers.floats32_py
    _packs_like_struct(floats32, random.Random(9), packed=0.4)
    with pytest.raises(ValueError, match="5 values do not fit in 4 floats"):
        floats32([1.0, struct.pack("=2f", 2.0, 3.0), (4.0, 5.0)], 4)
    with pytest.raises(ValueError, match="a packed row of 5 bytes is not whole float32s"):
        floats32([1.0, b"\0" * 5], 8)
