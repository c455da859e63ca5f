"""Signed RLlib checkpoints: only a run this machine's wasteland wrote is restored.

RLlib writes every checkpoint component with pickle (``class_and_ctor_args.pkl``, and the
states as ``.pkl``), and restoring one unpickles it: a crafted run folder would run its
own code. Unlike an SB3 zip (training/checkpoint.py), there is no weights-only way in, so
``train --backend rllib`` signs the checkpoint it saves with a key kept outside the run
folder (HMAC-SHA256 over every file's path and contents), and ``export`` and ``--resume``
refuse a checkpoint whose signature is missing or wrong before RLlib reads a byte of it.
A folder copied from elsewhere cannot carry a valid signature without the key.

The key is ``$WASTELAND_KEY_FILE``, else ``$XDG_CONFIG_HOME/wasteland/run.key`` (default
``~/.config/wasteland/run.key``): 32 random bytes, made on first use, readable only by you.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from wasteland.rules.errors import WastelandError

SIGNATURE = "checkpoint.sig"
KEY_BYTES = 32


def key_path() -> Path:
    if os.environ.get("WASTELAND_KEY_FILE"):
        return Path(os.environ["WASTELAND_KEY_FILE"])
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "wasteland" / "run.key"


def _key(create: bool) -> bytes | None:
    path = key_path()
    if not path.is_file() and create:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another run made it first
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(secrets.token_bytes(KEY_BYTES))
    try:
        key = path.read_bytes()
    except OSError:
        return None
    return key if len(key) == KEY_BYTES else None


def digest(folder: Path, key: bytes) -> str:
    """HMAC-SHA256 of every file under ``folder``: its relative path and its contents."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for p in sorted(folder.rglob("*")):
        if p.is_symlink():
            raise WastelandError(f"{p}: a symbolic link inside a checkpoint; refusing it")
        if p.is_file():
            mac.update(p.relative_to(folder).as_posix().encode() + b"\0")
            mac.update(hashlib.sha256(p.read_bytes()).digest())
    return mac.hexdigest()


def sign(folder: Path) -> Path:
    """Write the signature of checkpoint ``folder`` beside it."""
    key = _key(create=True)
    if key is None:
        raise WastelandError(f"{key_path()}: cannot make or read the key that signs checkpoints")
    out = folder.parent / SIGNATURE
    out.write_text(digest(folder, key) + "\n")
    return out


def verify(folder: Path) -> None:
    """One line unless checkpoint ``folder`` carries this machine's signature."""
    sig = folder.parent / SIGNATURE
    key = _key(create=False)
    why = ("it has no signature" if not sig.is_file() else
           f"no key at {key_path()} to check it" if key is None else None)
    if why is None:
        assert key is not None
        got = sig.read_text(encoding="utf-8", errors="replace").strip()
        if not hmac.compare_digest(got, digest(folder, key)):
            why = "its signature does not match its files"
    if why is not None:
        raise WastelandError(
            f"{folder}: not an RLlib checkpoint this machine's wasteland wrote ({why}); RLlib "
            f"checkpoints are pickles, so only runs trained here are loaded")
