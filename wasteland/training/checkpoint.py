"""A MaskablePPO checkpoint read without running anything it holds.

An SB3 zip keeps the parameters in ``*.pth`` entries (torch archives) and everything else
in ``data``, a JSON object in which the spaces, the schedules and the policy class are
cloudpickled, base64 inside JSON. ``MaskablePPO.load`` unpickles those, so a crafted
``final.zip`` runs its own code the moment it is loaded. Here the ``.pth`` entries are
read with torch's ``weights_only=True`` (a restricted unpickler that builds tensors and
plain containers, nothing else) and ``data`` is parsed as JSON with every pickled value
left out; what those values described (network, spaces, schedules) comes from the run's
own config, which is YAML read safely. A run folder someone sends you can be exported or
resumed without trusting it.
"""

from __future__ import annotations

import io
import json
import os
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wasteland.rules.errors import WastelandError

# the entries SB3 writes; another name is a file this code did not write
PARAMETER_ENTRIES = ("policy.pth", "policy.optimizer.pth", "pytorch_variables.pth")
TEXT_ENTRIES = ("data", "_stable_baselines3_version", "system_info.txt")
# a checkpoint of the configs' networks is well under 10 MB; the cap keeps a zip bomb
# (a small file that inflates to gigabytes) from being read
MAX_ENTRY_BYTES = 200_000_000
# the plain values of ``data`` a resume carries over: counters, never objects
COUNTERS = ("num_timesteps", "_n_updates", "_episode_num")


@dataclass(frozen=True)
class Checkpoint:
    """The tensors of a checkpoint by entry (``policy``, ``policy.optimizer``, ...) and
    its plain counters (``num_timesteps`` ...)."""

    path: Path
    params: dict[str, Any]
    counters: dict[str, int]

    @property
    def policy(self) -> dict[str, Any]:
        return dict(self.params["policy"])


def _refuse(path: Path, why: str) -> WastelandError:
    return WastelandError(f"{path}: not a readable MaskablePPO checkpoint ({why})")


def _entry(archive: zipfile.ZipFile, path: Path, name: str) -> bytes:
    info = archive.getinfo(name)
    if info.file_size > MAX_ENTRY_BYTES:
        raise _refuse(path, f"its entry {name} is {info.file_size:,} bytes, more than "
                            f"{MAX_ENTRY_BYTES:,}")
    with archive.open(info) as f:
        data = f.read(MAX_ENTRY_BYTES + 1)
    if len(data) > MAX_ENTRY_BYTES:
        raise _refuse(path, f"its entry {name} inflates past {MAX_ENTRY_BYTES:,} bytes")
    return data


def _counters(path: Path, text: bytes) -> dict[str, int]:
    try:
        data = json.loads(text)
    except ValueError as e:
        raise _refuse(path, f"its data entry is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise _refuse(path, "its data entry is not a JSON object")
    out = {}
    for key in COUNTERS:
        value = data.get(key, 0)
        if type(value) is not int or not 0 <= value < 2**62:
            raise _refuse(path, f"its {key} is {str(value)[:40]!r}, not a count")
        out[key] = value
    return out


def _open_regular(path: Path) -> Any:
    """``path`` opened for reading if it is a regular file: a named pipe would block the
    open (and zipfile's reads) for ever, a device would be read without end. Opened
    without blocking and checked on the descriptor, as limits.read_file does; not read
    whole (a checkpoint of the largest networks a config allows passes 64 MB)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise _refuse(path, e.strerror or type(e).__name__) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _refuse(path, "not a regular file; only regular files are read")
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_checkpoint(path: Path) -> Checkpoint:
    """The parameters and counters of an SB3 zip, unpickling nothing from its data; a
    truncated, foreign or crafted file is one line."""
    f = _open_regular(path)
    try:
        archive = zipfile.ZipFile(f)
    except (OSError, zipfile.BadZipFile) as e:
        f.close()
        raise _refuse(path, " ".join(str(e).split()) or type(e).__name__) from None
    with f, archive:
        names = archive.namelist()
        unknown = sorted(set(names) - set(PARAMETER_ENTRIES) - set(TEXT_ENTRIES))
        if unknown:
            raise _refuse(path, f"unexpected entries {', '.join(unknown)[:120]}; a checkpoint "
                                f"holds {', '.join(PARAMETER_ENTRIES + TEXT_ENTRIES)}")
        if "policy.pth" not in names or "data" not in names:
            raise _refuse(path, "it lacks policy.pth or data")
        counters = _counters(path, _entry(archive, path, "data"))
        import torch

        params: dict[str, Any] = {}
        for name in PARAMETER_ENTRIES:
            if name not in names or name == "pytorch_variables.pth":
                continue  # PPO keeps no variables outside its modules
            raw = _entry(archive, path, name)
            try:
                params[name[:-len(".pth")]] = torch.load(io.BytesIO(raw), map_location="cpu",
                                                         weights_only=True)
            except Exception as e:  # noqa: BLE001 - torch's refusal of what is not weights
                why = " ".join(str(e).split())[:160] or type(e).__name__
                raise _refuse(path, f"{name} holds more than weights: {why}") from None
            if not isinstance(params[name[:-len(".pth")]], dict):
                raise _refuse(path, f"{name} is not a state dict")
    return Checkpoint(path, params, counters)


def policy_layers(ckpt: Checkpoint) -> list[tuple[Any, Any]]:
    """The actor's (weight, bias) tensors in order: the hidden layers of
    ``mlp_extractor.policy_net``, then ``action_net``; one line if they are not there or
    do not chain."""
    import torch

    state = ckpt.policy
    prefix = "mlp_extractor.policy_net."
    hidden = sorted({int(k[len(prefix):].split(".")[0]) for k in state
                     if k.startswith(prefix) and k[len(prefix):].split(".")[0].isdigit()})
    keys = [f"{prefix}{i}" for i in hidden] + ["action_net"]
    layers = []
    width = None
    for key in keys:
        w, b = state.get(f"{key}.weight"), state.get(f"{key}.bias")
        if not (isinstance(w, torch.Tensor) and isinstance(b, torch.Tensor)):
            raise _refuse(ckpt.path, f"its policy has no tensors {key}.weight and {key}.bias")
        if (w.dim() != 2 or b.shape != (w.shape[0],) or not w.is_floating_point()
                or not b.is_floating_point() or (width is not None and w.shape[1] != width)):
            raise _refuse(ckpt.path, f"its layer {key} has shape {tuple(w.shape)} with a bias "
                                     f"of {tuple(b.shape)}; the layers do not chain")
        if not (torch.isfinite(w).all() and torch.isfinite(b).all()):
            raise _refuse(ckpt.path, f"its layer {key} holds inf or NaN")
        width = w.shape[0]
        layers.append((w, b))
    return layers
