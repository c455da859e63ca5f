"""Hostile and careless policy files (issue 39): every file is read as a regular file under
its kind's cap, the manifest under the JSON caps with each field checked, and only the
arrays the manifest names, each checked from its .npy header before its data is read."""

from __future__ import annotations

import io
import json
import zipfile

import numpy as np
import pytest

from tests.pipes import fifo, unblocked
from wasteland import limits
from wasteland.agents.policy import MAX_POLICY_VALUES, action_hash, load_policy
from wasteland.observe.encoding import OBS_SIZE
from wasteland.rules.actions import N_ACTIONS
from wasteland.rules.errors import WastelandError
from wasteland.training.export import write_policy

from .kit import random_policy


@pytest.fixture
def written(tmp_path):
    pol = random_policy("tiny", hidden=(16, 8))
    npz, js = write_policy(pol, tmp_path / "out")
    return pol, npz, js


def _refused(load, *fragments):
    with pytest.raises(WastelandError) as e:
        load()
    msg = str(e.value)
    assert "\n" not in msg and len(msg) < 600, msg
    for f in fragments:
        assert f in msg, (f, msg)
    return msg


def _npy(shape, dtype="<f4", data=b"", fortran=False):
    """An .npy member: a header declaring ``shape`` and ``dtype``, then ``data``."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {
        "descr": np.lib.format.dtype_to_descr(np.dtype(dtype)), "fortran_order": fortran,
        "shape": shape})
    return buf.getvalue() + data


def _array(a):
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


def _rezip(npz, members, drop=()):
    """Rewrite ``npz`` with ``members`` (name without .npy -> bytes) added or replaced."""
    with zipfile.ZipFile(npz) as z:
        old = {i.filename: z.read(i) for i in z.infolist()}
    old.update({f"{k}.npy": v for k, v in members.items()})
    with zipfile.ZipFile(npz, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in old.items():
            if name[:-4] not in drop:
                z.writestr(name, data)


def _edit(js, **changes):
    m = json.loads(js.read_text())
    m.update(changes)
    js.write_text(json.dumps(m))


# --- files that are not regular files, or too large ---------------------------------------
@pytest.mark.parametrize("which", ["json", "npz"])
def test_a_policy_file_that_is_a_named_pipe_is_refused_without_blocking(written, which):
    _, npz, js = written
    path = js if which == "json" else npz
    path.unlink()
    fifo(path)
    _refused(lambda: unblocked(lambda: load_policy(npz), path),
             "policy tiny: ", f"{path}: a named pipe, not a regular file")


def test_a_manifest_that_is_dev_zero_or_a_folder_is_refused(written):
    _, npz, js = written
    js.unlink()
    js.symlink_to("/dev/zero")
    _refused(lambda: load_policy(npz), f"{js}: a device, not a regular file")
    js.unlink()
    js.mkdir()
    _refused(lambda: load_policy(npz), f"{js}: a folder, not a regular file")


def test_weights_that_are_a_folder_are_refused(written):
    _, npz, _ = written
    npz.unlink()
    npz.mkdir()
    _refused(lambda: load_policy(npz), f"{npz}: a folder, not a regular file")


@pytest.mark.parametrize("kind", ["manifest", "policy"])
def test_files_over_their_cap_are_refused_unread(written, kind, monkeypatch):
    _, npz, js = written
    path = js if kind == "manifest" else npz
    monkeypatch.setitem(limits.MAX_FILE_BYTES, kind, path.stat().st_size - 1)
    _refused(lambda: load_policy(npz), f"{path}: file larger than")


# --- the manifest: JSON caps and every field checked --------------------------------------
@pytest.mark.parametrize("edit, fragments", [
    ('"config": ' + "[" * 100_000 + "]" * 100_000, ["nested more than 64 deep"]),
    ('"steps": 1e999', ["the number 1e999 is past a float's range"]),
    ('"steps": NaN', ["NaN is not a JSON number"]),
    ('"layers": ' + "9" * 50, ["an integer of 50 digits; at most 40"]),
])
def test_a_manifest_past_the_json_caps_is_one_line(written, edit, fragments):
    _, npz, js = written
    text = js.read_text()
    js.write_text(text[:text.rindex("}")] + ", " + edit + "}")
    _refused(lambda: load_policy(npz), "policy tiny: ", "tiny.json", *fragments)


@pytest.mark.parametrize("key, value, fragments", [
    ("ruleset", 5, ["ruleset 5; accepted: pnp"]),
    ("ruleset", "x" * 100_000, ["ruleset 'xxx", "characters)"]),
    ("sight", "far", ["sight 'far'; accepted: own, side"]),
    ("creatures", ["Big Ted"], ["creatures must be a list of creature ids"]),
    ("creatures", [["radscorpion"]], ["creatures must be a list of creature ids"]),
    ("activation", ["tanh"], ["unknown activation ['tanh']"]),
    ("observation_hash", ["0123"], ["observation_hash ['0123']; a hash is 1 to 64 hex digits"]),
    ("action_hash", "f" * 100_000, ["action_hash 'ffff", "a hash is 1 to 64 hex digits"]),
    ("action_hash", "0123\nResult: A", ["action_hash '0123\\nResult: A'"]),
    ("layers", 17, ["layers 17; a whole number 1..16"]),
    ("layers", True, ["layers True"]),
])
def test_a_manifest_field_of_the_wrong_type_or_range(written, key, value, fragments):
    _, npz, js = written
    _edit(js, **{key: value})
    for check in (True, False):
        _refused(lambda c=check: load_policy(npz, check=c), "policy tiny: ", *fragments)


# --- the arrays: only the named ones, each checked from its header -------------------------
def test_a_shape_of_a_trillion_numbers_is_refused_from_its_header(written, monkeypatch):
    """np.load allocated what the header declared; here no array is made for it."""
    _, npz, _ = written
    made = []
    real = np.frombuffer
    monkeypatch.setattr(np, "frombuffer", lambda b, *a, **k: made.append(len(b)) or real(b, *a, **k))
    _rezip(npz, {"w1": _npy((16, 62_500_000_000))})
    _refused(lambda: load_policy(npz), "tiny.npz: layer 1 of shape (16, 62500000000) and its "
             "bias hold 1,062,500,000,000 numbers", f"{MAX_POLICY_VALUES:,}")
    assert max(made) < 100_000  # w0 and b0, read before: nothing of the declared size
    _rezip(npz, {"w1": _array(np.zeros((16, 8), np.float32)), "w2": _npy((8, 10**12))})
    _refused(lambda: load_policy(npz), f"its output has 1,000,000,000,000 actions, the table "
             f"{N_ACTIONS}")


def test_the_arrays_of_a_wide_network_are_capped_in_all(written):
    """Each layer fits the one before, but together they pass MAX_POLICY_VALUES."""
    pol, npz, js = written
    wide = MAX_POLICY_VALUES // (OBS_SIZE + 1)  # layer 0 fits, with 640 numbers left
    _rezip(npz, {"w0": _array(np.zeros((OBS_SIZE, wide), np.float16)),
                 "b0": _array(np.zeros(wide, np.float16)), "w1": _npy((wide, 8))})
    _refused(lambda: load_policy(npz), f"layer 1 of shape ({wide}, 8) and its bias hold "
             f"{wide * 8 + 8:,} numbers, past what is left of the {MAX_POLICY_VALUES:,}")


def test_a_policy_with_no_outputs_is_refused(written):
    """It loaded (with a matching action hash) and played `end` for ever."""
    _, npz, js = written
    _rezip(npz, {"w2": _array(np.zeros((8, 0), np.float32)), "b2": _array(np.zeros(0, np.float32))})
    _edit(js, action_hash=action_hash(0))
    for check in (True, False):
        _refused(lambda c=check: load_policy(npz, check=c), "its output has 0 actions",
                 f"a policy has 1 to {N_ACTIONS} outputs")


def test_a_hidden_layer_with_no_outputs_is_refused(written):
    _, npz, _ = written
    _rezip(npz, {"w0": _array(np.zeros((OBS_SIZE, 0), np.float32)),
                 "b0": _array(np.zeros(0, np.float32))})
    _refused(lambda: load_policy(npz), f"layer 0 has shape ({OBS_SIZE}, 0): no outputs")


def test_arrays_the_manifest_does_not_name_are_never_read(written, monkeypatch):
    """A member beside the weights that would take a terabyte (np.load read every member)."""
    pol, npz, _ = written
    _rezip(npz, {"unused": _npy((10**12,), "<f8", b"\0" * 64), "w3": _npy((10**9, 10**9))})
    monkeypatch.setattr(np, "load", lambda *a, **k: pytest.fail("np.load reads every array"))
    back = load_policy(npz)
    for a, b in zip(back.weights + back.biases, pol.weights + pol.biases):
        assert np.array_equal(a, b)


def test_fortran_order_and_big_endian_arrays_load_as_written(written):
    pol, npz, _ = written
    _rezip(npz, {"w0": _array(np.asfortranarray(pol.weights[0].astype(">f4"))),
                 "b1": _array(pol.biases[1].astype(">f8"))})
    back = load_policy(npz)
    assert np.array_equal(back.weights[0], pol.weights[0])
    assert np.array_equal(back.biases[1], pol.biases[1])


@pytest.mark.parametrize("member, fragment", [
    (_npy((16,), data=b"\0" * 60), "member b0.npy holds 188 bytes, its header declares 192"),
    (_npy((16,), data=b"\0" * 70), "member b0.npy holds 198 bytes, its header declares 192"),
    (b"\x93NUMPY\x03\x00" + b"\0" * 40, ".npy format 3.0; 1.0 and 2.0 are read"),
    (b"not an npy at all", "the magic string is not correct"),
    (_npy((16,), "|O"), "array b0 holds Python objects, which are never unpickled"),
    (_npy((16,), "<c8", b"\0" * 128), "array b0 holds complex64 values"),
    (_npy((16,), "<f8", b"\0" * 120), "holds 248 bytes, its header declares 256"),
])
def test_a_member_whose_data_does_not_fit_its_header(written, member, fragment):
    _, npz, _ = written
    _rezip(npz, {"b0": member})
    _refused(lambda: load_policy(npz), "tiny.npz", fragment)


def test_an_archive_whose_index_is_too_large_is_refused_before_zipfile_reads_it(written):
    _, npz, _ = written
    _rezip(npz, {f"x{i:05}": b"" for i in range(2000)})
    _refused(lambda: load_policy(npz), "its index of members takes", "at most 65,536")


def test_a_zip64_archive_is_refused(written, monkeypatch):
    _, npz, _ = written
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 1)  # so the writer says zip64
    _rezip(npz, {})
    monkeypatch.undo()
    _refused(lambda: load_policy(npz), "a zip64 archive")


# --- names that name no policy ------------------------------------------------------------
@pytest.mark.parametrize("spec, fragment", [
    ("policy:/", "policy:/ is a folder, not a policy"),
    ("policy:./", "policy:./ is a folder, not a policy"),
    ("policy:runs/", "policy:runs/ is a folder, not a policy"),
    ("policy:runs/..", "policy:runs/.. is a folder, not a policy"),
    ("policy:", "policy: needs a NAME"),
])
def test_a_policy_name_that_is_a_folder_or_empty_is_one_line(spec, fragment, tmp_path):
    """`policy:/` raised ValueError (a path with an empty name) in every command."""
    from wasteland.agents.make import make_agent

    _refused(lambda: make_agent(spec), fragment)


def test_a_folder_named_as_a_policy_on_the_command_line_or_in_a_scenario(capsys, monkeypatch,
                                                                          tmp_path):
    import yaml

    from wasteland.bestiary.loader import BestiaryError, load_scenario

    from .kit import cli, one_line_error

    one_line_error(cli(capsys, monkeypatch, "fight", "--agents", "policy:/,packet"),
                   "policy:/ is a folder, not a policy")
    data = {"id": "t", "name": "T", "map": "......\n......", "legend": {".": "floor"},
            "sides": [{"name": "A", "combatants": [{"creature": "vault_dweller", "at": [0, 0]}]},
                      {"name": "B", "agent": "policy:/",
                       "combatants": [{"creature": "raider", "at": [5, 1]}]}]}
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(BestiaryError) as e:
        load_scenario(tmp_path / "s.yaml")
    assert "sides[1].agent" in str(e.value) and "policy:/ is a folder" in str(e.value)
