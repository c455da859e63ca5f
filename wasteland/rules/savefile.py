"""Writing a save file so that no crash, full disk or second writer can lose or corrupt
it. (Interface fixed here; the implementation is being written.)"""

from __future__ import annotations

from pathlib import Path


def check_target(path: str | Path) -> Path:
    """``path`` as a Path if a save may be written there: an existing regular file, or a
    new name in an existing, writable folder; otherwise SaveError (one line)."""
    return Path(path)


def write_atomic(path: str | Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically (unique temp file, fsync, rename)."""
    path = check_target(path)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
