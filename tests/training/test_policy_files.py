"""Policy files (issue 10, item 3): NAME.npz (plain float32 arrays, read with
allow_pickle=False) and NAME.json round-trip exactly, and a file that does not match the
running code, or is broken, is refused with one line, never a traceback and never by
unpickling."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

from wasteland.agents.policy import FORMAT, load_policy
from wasteland.observe.encoding import OBS_SIZE
from wasteland.rules.errors import WastelandError
from wasteland.training.export import write_policy

from .kit import policy_arrays, random_policy


@pytest.fixture
def written(tmp_path):
    pol = random_policy("tiny", hidden=(16, 8))
    npz, js = write_policy(pol, tmp_path / "out")
    return pol, npz, js


def test_write_then_load_round_trips_exactly(written, tmp_path):
    pol, npz, js = written
    assert npz.name == "tiny.npz" and js.name == "tiny.json"
    arrays = policy_arrays(npz)
    assert sorted(arrays) == ["b0", "b1", "b2", "w0", "w1", "w2"]
    assert all(a.dtype == np.float32 for a in arrays.values())
    back = load_policy(npz)
    assert back.name == "tiny" and back.activation == "tanh"
    assert back.kinds == pol.kinds and back.ruleset == "pnp"
    assert back.manifest == pol.manifest
    for a, b in zip(back.weights + back.biases, pol.weights + pol.biases):
        assert a.shape == b.shape
        assert np.array_equal(a, b)  # float32 values survive bit for bit
    obs = np.random.default_rng(1).random((5, OBS_SIZE)).astype(np.float32)
    assert np.array_equal(back.logits(obs), pol.logits(obs))
    # the same policy by its manifest's path, or by the path without a suffix
    assert np.array_equal(load_policy(js).weights[0], back.weights[0])
    assert np.array_equal(load_policy(str(npz.with_suffix(""))).weights[2], back.weights[2])


def test_relu_policy_round_trips(tmp_path):
    pol = random_policy("r", activation="relu", hidden=(4,))
    npz, _ = write_policy(pol, tmp_path)
    back = load_policy(npz)
    assert back.activation == "relu"
    x = np.random.default_rng(0).random(OBS_SIZE)
    assert np.allclose(back.logits(x), np.maximum(x @ pol.weights[0] + pol.biases[0], 0)
                       @ pol.weights[1] + pol.biases[1])


def _edit(js, **changes):
    m = json.loads(js.read_text())
    for k, v in changes.items():
        if v is None:
            m.pop(k, None)
        else:
            m[k] = v
    js.write_text(json.dumps(m))


def _refused(path, *fragments):
    with pytest.raises(WastelandError) as e:
        load_policy(path)
    msg = str(e.value)
    assert "\n" not in msg, msg
    for f in fragments:
        assert f in msg, (f, msg)
    return msg


@pytest.mark.parametrize("key", ["observation_hash", "action_hash"])
def test_a_manifest_with_another_hash_is_refused_naming_it(written, key):
    _, npz, js = written
    _edit(js, **{key: "0123456789abcdef"})
    msg = _refused(npz, "tiny", key, "0123456789abcdef", "retrain")
    other = ({"observation_hash", "action_hash"} - {key}).pop()
    assert other not in msg
    assert load_policy(npz, check=False).name == "tiny"  # check=False reads it anyway


def test_a_manifest_without_hashes_is_refused(written):
    _, npz, js = written
    _edit(js, observation_hash=None)
    _refused(npz, "observation_hash")


def test_missing_files(written):
    _, npz, js = written
    npz.rename(npz.with_suffix(".bak"))
    _refused(js, "no weights file", "tiny.npz")
    npz.with_suffix(".bak").rename(npz)
    js.unlink()
    _refused(npz, "no manifest", "tiny.json")


@pytest.mark.parametrize("text", ["{not json", "", "\x00\x01", "[1, 2]", '"a string"'])
def test_a_manifest_that_is_not_a_json_object(written, text):
    _, npz, js = written
    js.write_text(text)
    _refused(npz, "tiny.json")


@pytest.mark.parametrize("fmt", ["wasteland-policy/0", "wasteland-policy/2", None])
def test_a_wrong_format_tag(written, fmt):
    _, npz, js = written
    _edit(js, format=fmt)
    _refused(npz, f"not a {FORMAT} manifest")


def _rewrite(npz, arrays):
    with open(npz, "wb") as f:
        np.savez(f, **arrays)


def test_a_missing_array(written):
    _, npz, _ = written
    arrays = policy_arrays(npz)
    del arrays["b1"]
    _rewrite(npz, arrays)
    _refused(npz, "tiny.npz has no array", "b1")


@pytest.mark.parametrize("key, value, fragment", [
    ("b1", np.array(["0.5"] * 8), "array b1 holds <U3 values"),
    ("w0", None, "array w0 holds complex128 values"),
    ("b0", np.full(16, np.inf), "array b0 holds inf or NaN"),
    ("w1", None, "array w1 holds inf or NaN"),
])
def test_weights_that_are_not_finite_real_numbers_are_refused(written, key, value, fragment):
    """Issue 23: a string bias raised ValueError in fight and evaluate, complex weights only
    warned, inf played on silently."""
    _, npz, _ = written
    arrays = policy_arrays(npz)
    if value is None:
        value = arrays[key].astype(np.complex128) if key == "w0" else arrays[key] * np.nan
    arrays[key] = value
    _rewrite(npz, arrays)
    _refused(npz, fragment)


def test_more_layers_in_the_manifest_than_arrays(written):
    _, npz, js = written
    _edit(js, layers=4)
    _refused(npz, "no array", "w3")


@pytest.mark.parametrize("name, shape, fragments", [
    ("w0", (OBS_SIZE + 1, 16), ["layer 0 has shape", f"expected ({OBS_SIZE}, k)"]),
    ("w1", (17, 8), ["layer 1 has shape"]),
    ("b1", (7,), ["layer 1", "bias"]),
    ("w0", (OBS_SIZE * 16,), ["layer 0 has shape"]),
    ("b2", (5,), ["layer 2"]),
])
def test_wrong_shapes(written, name, shape, fragments):
    _, npz, _ = written
    arrays = policy_arrays(npz)
    arrays[name] = np.zeros(shape, dtype=np.float32)
    _rewrite(npz, arrays)
    _refused(npz, *fragments)


def test_an_output_that_is_not_the_action_table(written):
    _, npz, _ = written
    arrays = policy_arrays(npz)
    arrays["w2"], arrays["b2"] = np.zeros((8, 5), np.float32), np.zeros(5, np.float32)
    _rewrite(npz, arrays)
    # 5 outputs would be the table's first 5 actions, which its hash does not name
    _refused(npz, "action_hash", "for the first 5 of this version's", "retrain")


def test_zero_layers_is_refused(written):
    _, npz, js = written
    _edit(js, layers=0)
    _refused(npz, "layers 0", "1..16")


def test_an_unknown_activation(written):
    _, npz, js = written
    _edit(js, activation="sigmoid")
    _refused(npz, "unknown activation 'sigmoid'", "tanh", "relu")


class Boom:
    """Unpickling this runs code: a loader that unpickles fails the test."""

    def __reduce__(self):
        return (pytest.fail, ("the .npz was unpickled",))


def test_an_object_array_is_refused_without_unpickling(written, monkeypatch):
    _, npz, _ = written
    arrays = policy_arrays(npz)
    obj = np.empty(2, dtype=object)
    obj[0], obj[1] = Boom(), "x"
    arrays["w1"] = obj
    _rewrite(npz, arrays)
    monkeypatch.setattr(pickle, "loads", lambda *a, **k: pytest.fail("pickle.loads called"))
    monkeypatch.setattr(pickle, "load", lambda *a, **k: pytest.fail("pickle.load called"))
    _refused(npz, "tiny.npz", "not a readable .npz of arrays")


def test_a_corrupt_npz(written):
    _, npz, _ = written
    npz.write_bytes(b"\x93NUMPY not an array")
    _refused(npz, "tiny.npz")


def _npy_bytes():
    import io

    buf = io.BytesIO()
    np.save(buf, np.zeros(3))
    return buf.getvalue()


@pytest.mark.parametrize("data", [b"", b"PK\x03\x04 broken zip", "npy"],
                         ids=["empty", "bad-zip", "npy-not-npz"])
def test_a_truncated_or_foreign_npz(written, data):
    """An empty file raises EOFError, a broken zip zipfile.BadZipFile, and a .npy under an
    .npz name makes np.load return an ndarray (no context manager: TypeError)."""
    _, npz, _ = written
    npz.write_bytes(_npy_bytes() if data == "npy" else data)
    _refused(npz, "tiny.npz")


@pytest.mark.parametrize("key, value", [("layers", "two"), ("layers", None), ("creatures", 5)])
def test_a_manifest_field_of_the_wrong_type(written, key, value):
    _, npz, js = written
    m = json.loads(js.read_text())
    m[key] = value
    js.write_text(json.dumps(m))
    _refused(npz, key)


def test_an_unknown_shipped_name_lists_the_shipped_ones():
    from wasteland.agents.policy import shipped_names

    with pytest.raises(WastelandError) as e:
        load_policy("no_such_policy")
    msg = str(e.value)
    assert "unknown policy 'no_such_policy'" in msg and "\n" not in msg
    assert all(n in msg for n in shipped_names())


def test_write_policy_replaces_files_atomically(written, tmp_path):
    pol, npz, _ = written
    pol2 = random_policy("tiny", seed=9)
    write_policy(pol2, npz.parent)
    assert np.array_equal(load_policy(npz).weights[0], pol2.weights[0])
    assert sorted(p.name for p in npz.parent.iterdir()) == ["tiny.json", "tiny.npz"]


def _trained_on_first(pol, n: int):
    """``pol`` as if trained when the action table had only its first ``n`` entries."""
    from wasteland.agents.policy import action_hash

    pol.weights[-1] = pol.weights[-1][:, :n]
    pol.biases[-1] = pol.biases[-1][:n]
    pol.manifest["action_hash"] = action_hash(n)
    return pol


def test_a_policy_trained_before_an_append_to_the_action_table_still_loads(tmp_path):
    """The table grows only at the end (rules/actions.py), so a policy whose outputs are
    the first entries of today's table names the same actions; it never picks one added
    after it was trained."""
    from wasteland.rules.actions import ACTION_INDEX, N_ACTIONS, Action

    old = ACTION_INDEX[Action("crouch")]  # the first Simple kind: what the table was before
    pol = _trained_on_first(random_policy("older", hidden=(16,)), old)
    npz, _ = write_policy(pol, tmp_path / "out")
    back = load_policy(npz)
    z = back.logits(np.zeros(OBS_SIZE, dtype=np.float32))
    assert z.shape == (N_ACTIONS,)
    assert np.array_equal(z[:old], pol.logits(np.zeros(OBS_SIZE, dtype=np.float32))[:old])
    assert (z[old:] < -1e8).all() and (z[:old] > -1e8).all()


def test_a_policy_whose_prefix_hash_does_not_match_is_refused(tmp_path):
    """Outputs for the first n actions, but a hash of some other table of n entries."""
    from wasteland.agents.policy import action_hash

    pol = _trained_on_first(random_policy("older", hidden=(16,)), 200)
    pol.manifest["action_hash"] = action_hash(201)
    npz, _ = write_policy(pol, tmp_path / "out")
    _refused(npz, "older", "action_hash", "retrain")


def test_a_policy_with_more_actions_than_the_table_is_refused(tmp_path):
    from wasteland.rules.actions import N_ACTIONS

    pol = random_policy("wider", hidden=(16,))
    pol.weights[-1] = np.concatenate([pol.weights[-1], pol.weights[-1][:, :3]], axis=1)
    pol.biases[-1] = np.concatenate([pol.biases[-1], pol.biases[-1][:3]])
    npz, _ = write_policy(pol, tmp_path / "out")
    _refused(npz, "wider", f"{N_ACTIONS + 3} actions", f"the table {N_ACTIONS}")
