"""Writing a save file so that no crash, full disk or second writer can lose or corrupt it.

`write_atomic(path, text)` never writes into ``path`` itself. It writes a new file next to
it, under a name nobody else can hold (``tempfile.mkstemp`` in the same folder: a random
name created with O_EXCL, so a symlink planted at a guessable temp name cannot redirect
the write), flushes and fsyncs it, renames it over ``path`` (``os.replace``: atomic on
POSIX, so a reader sees the old save or the new one, never a mix), and fsyncs the folder
so the rename itself survives a power cut. Any failure, including KeyboardInterrupt in
the middle of the write, removes the temp file and leaves the old save as it was; an
OSError becomes a one-line SaveError.

A process killed with SIGKILL between creating the temp file and the rename leaves that
temp file behind (``.<name>.<random>.tmp``, a hidden file next to the save). It is never
read and never reused; the save itself stays whole.

Concurrent writers need no lock: each has its own temp file, and the rename is atomic, so
two processes saving to one path both succeed and the file holds one complete save (the
last rename wins). A lock could only order the writers, not keep both fights; refusing to
overwrite a different fight is the session's job, not the writer's.

`check_target(path)` is the check callers run before a fight starts, so a bad save path
is refused at once rather than after the fight; `check_writable(path)` adds a real try
(a temp file made and removed where the save would go), since the permission bits can say
yes where no file can be made (as root every folder looks writable, /proc included).
They accept an existing regular file or a new name in an existing, writable folder. A
symlink to a regular file is accepted: the rename replaces the link itself with the new
save, and the file it pointed to is left as it was (nothing outside the link's folder is
written). A symlink to anything else, or to nothing, is refused, as is a folder, a device
(``/dev/null``), a FIFO or a socket.

File mode: a new save gets ``0o666 & ~umask``, as ``open()`` would give it (mkstemp makes
its temp files 0600); a save that replaces an existing one keeps that file's mode (and,
where the process may, its owner).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from .errors import SaveError

__all__ = ["check_target", "check_writable", "write_atomic"]

ACCEPTED = "a save must be a regular file or a new name in an existing, writable folder"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(path: Path, why: str) -> SaveError:
    return SaveError(f"cannot save to {path}: {why} ({ACCEPTED})")


def _existing(path: Path) -> os.stat_result | None:
    """The stat of what ``path`` names (following a symlink), None if nothing is there;
    SaveError if it is there but not a regular file."""
    try:
        lst = os.lstat(path)
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise _refuse(path, f"{path.parent} is not a folder") from None
    except OSError as e:
        raise _refuse(path, e.strerror or str(e)) from None
    if not stat.S_ISLNK(lst.st_mode):
        if not stat.S_ISREG(lst.st_mode):
            raise _refuse(path, f"it is {_kind(lst.st_mode)}")
        return lst
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _refuse(path, "it is a symlink to a missing file") from None
    except OSError as e:
        raise _refuse(path, f"it is a symlink that cannot be followed ({e.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(path, f"it is a symlink to {_kind(st.st_mode)}")
    return st


def check_target(path: str | Path) -> Path:
    """``path`` as a Path if a save may be written there: an existing regular file (or a
    symlink to one), or a new name in an existing, writable folder; otherwise SaveError
    (one line). Run it before a fight starts to refuse a bad save path early."""
    p = Path(path)
    _existing(p)
    folder = p.parent
    try:
        fst = os.stat(folder)
    except FileNotFoundError:
        raise _refuse(p, f"folder {folder} does not exist") from None
    except NotADirectoryError:
        raise _refuse(p, f"{folder} is not a folder") from None
    except OSError as e:
        raise _refuse(p, f"folder {folder}: {e.strerror}") from None
    if not stat.S_ISDIR(fst.st_mode):
        raise _refuse(p, f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _refuse(p, f"folder {folder} is not writable")
    return p


def check_writable(path: str | Path) -> Path:
    """``check_target``, and a file can really be made in the save's folder now: a temp
    file is created there (as write_atomic's would be) and removed. SaveError (one line)."""
    p = check_target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name[:200]}.", suffix=".tmp")
    except OSError as e:
        raise _refuse(p, f"no file can be made in {p.parent}: {e.strerror or e}") from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    return p


def _umask() -> int:
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)  # no /proc: read it by setting it (and put it back at once)
    os.umask(mask)
    return mask


def _fsync_folder(folder: Path, target: Path) -> None:
    """Make the rename durable. Some filesystems refuse a folder fsync (EINVAL), and a
    folder may be writable but not readable (EACCES on open); the save is whole either
    way, so only an I/O error is reported."""
    try:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as e:
        if e.errno == errno.EIO:
            raise SaveError(f"cannot write {target}: {e.strerror} (syncing its folder)") from None


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (str as UTF-8, or bytes) atomically (unique temp
    file, fsync, rename, fsync of the folder). The old save stays as it was if anything
    fails; SaveError (one line)."""
    target = check_target(path)
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    old = _existing(target)
    mode = stat.S_IMODE(old.st_mode) & 0o777 if old else 0o666 & ~_umask()
    folder = target.parent
    try:
        # the name stays under NAME_MAX (255) however long the save's own name is
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name[:200]}.", suffix=".tmp")
    except OSError as e:
        raise SaveError(f"cannot write {target}: {e.strerror or e}") from None
    try:
        try:
            with open(fd, "wb") as f:
                f.write(data)
                f.flush()
                if hasattr(os, "fchmod"):  # POSIX (Windows has no file modes to keep)
                    os.fchmod(fd, mode)
                if old and hasattr(os, "fchown") and (old.st_uid, old.st_gid) != (
                        os.geteuid(), os.getegid()):
                    with contextlib.suppress(OSError):
                        os.fchown(fd, old.st_uid, old.st_gid)
                        os.fchmod(fd, mode)  # chown may clear bits
                os.fsync(fd)
            _existing(target)  # again, just before the rename: still nothing but a file
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as e:
        raise SaveError(f"cannot write {target}: {e.strerror or e}") from None
    _fsync_folder(folder, target)
