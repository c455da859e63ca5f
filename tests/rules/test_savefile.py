"""The save writer (wasteland/rules/savefile.py): a unique temp file in the target's
folder, fsync, atomic rename, fsync of the folder; the old save survives any failure and
no temp file is left; a target that is not a regular file, or a path in a missing or
unwritable folder, is refused in one line (issue 8, item 1).

Everything here happens in tmp_path. /dev/null is only ever checked, never written.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from wasteland.rules import savefile
from wasteland.rules.errors import SaveError
from wasteland.rules.savefile import check_target, write_atomic


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def one_line(e: pytest.ExceptionInfo[BaseException]) -> str:
    msg = str(e.value)
    assert "\n" not in msg, msg
    return msg


# --- writing -------------------------------------------------------------------------

def test_writes_a_new_save_and_leaves_nothing_else(tmp_path: Path):
    target = tmp_path / "save.json"
    write_atomic(target, "first")
    assert target.read_text(encoding="utf-8") == "first"
    write_atomic(str(target), "second ☢")
    assert target.read_text(encoding="utf-8") == "second ☢"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_relative_name_lands_in_the_current_folder(tmp_path: Path):
    # conftest chdirs every test into its tmp_path, so default names land there
    assert Path.cwd() == tmp_path
    write_atomic("wasteland-save.json", "x")
    assert (tmp_path / "wasteland-save.json").read_text(encoding="utf-8") == "x"
    assert leftovers(tmp_path) == []


def test_the_temp_file_is_unique_hidden_and_in_the_targets_folder(tmp_path, monkeypatch):
    made: list[str] = []
    real = tempfile.mkstemp

    def spy(*args: Any, **kw: Any) -> tuple[int, str]:
        fd, name = real(*args, **kw)
        made.append(name)
        return fd, name

    monkeypatch.setattr(tempfile, "mkstemp", spy)
    target = tmp_path / "save.json"
    write_atomic(target, "a")
    write_atomic(target, "b")
    assert len(made) == 2 and made[0] != made[1]
    for name in made:
        p = Path(name)
        assert p.parent == tmp_path  # same folder, so same filesystem: the rename is atomic
        assert p.name.startswith(".save.json.") and p.name.endswith(".tmp")
    assert leftovers(tmp_path) == []


def test_file_fsync_then_rename_then_folder_fsync(tmp_path, monkeypatch):
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")

    def fsync(fd: int) -> None:
        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        if kind == "file":  # synced with its whole content, while the target is still old
            events.append(f"fsync file {os.pread(fd, 100, 0).decode()}")
        else:
            events.append("fsync folder")
        real_fsync(fd)

    def replace(src: Any, dst: Any) -> None:
        events.append(f"replace, target was {Path(dst).read_text(encoding='utf-8')}")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_atomic(target, "new")
    assert events == ["fsync file new", "replace, target was old", "fsync folder"]
    assert target.read_text(encoding="utf-8") == "new"


@pytest.mark.parametrize("err", [errno.EINVAL, errno.EACCES, errno.ENOTSUP])
def test_a_filesystem_that_refuses_folder_fsync_is_tolerated(tmp_path, monkeypatch, err):
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(err, os.strerror(err))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_atomic(tmp_path / "s.json", "ok")
    assert (tmp_path / "s.json").read_text(encoding="utf-8") == "ok"


def test_an_io_error_on_folder_fsync_is_reported(tmp_path, monkeypatch):
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(SaveError) as e:
        write_atomic(tmp_path / "s.json", "ok")
    assert one_line(e).startswith(f"cannot write {tmp_path / 's.json'}: ")


# --- failures: the old save stays, the temp goes ---------------------------------------

class HalfWriter:
    """The file object write_atomic writes through, failing after half the data."""

    def __init__(self, f: Any, exc: BaseException):
        self.f, self.exc = f, exc

    def __enter__(self) -> HalfWriter:
        return self

    def __exit__(self, *a: Any) -> None:
        self.f.close()

    def write(self, data: bytes) -> int:
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        raise self.exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self.f, name)


def _fail_at(monkeypatch: pytest.MonkeyPatch, where: str, exc: BaseException) -> None:
    def boom(*a: Any, **kw: Any) -> None:
        raise exc

    if where == "write":
        def fake_open(file: Any, *a: Any, **kw: Any) -> Any:
            f = open(file, *a, **kw)
            return HalfWriter(f, exc) if isinstance(file, int) else f  # the temp file's fd

        monkeypatch.setattr(savefile, "open", fake_open, raising=False)
    elif where == "fsync":
        monkeypatch.setattr(os, "fsync", boom)
    elif where == "replace":
        monkeypatch.setattr(os, "replace", boom)
    elif where == "mkstemp":
        monkeypatch.setattr(tempfile, "mkstemp", boom)


FAILURES = [
    ("write", OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))),
    ("fsync", OSError(errno.EIO, os.strerror(errno.EIO))),
    ("replace", OSError(errno.EXDEV, os.strerror(errno.EXDEV))),
    ("mkstemp", PermissionError(errno.EACCES, os.strerror(errno.EACCES))),
    ("write", KeyboardInterrupt()),
    ("fsync", KeyboardInterrupt()),
    ("replace", KeyboardInterrupt()),
    ("write", SystemExit(1)),
]


@pytest.mark.parametrize("where,exc", FAILURES, ids=lambda x: type(x).__name__ if
                         isinstance(x, BaseException) else x)
def test_a_failure_keeps_the_old_save_and_removes_the_temp(tmp_path, monkeypatch, where, exc):
    target = tmp_path / "save.json"
    target.write_text("old save", encoding="utf-8")
    _fail_at(monkeypatch, where, exc)
    if isinstance(exc, OSError):
        with pytest.raises(SaveError) as e:
            write_atomic(target, "new save " * 1000)
        assert one_line(e) == f"cannot write {target}: {exc.strerror}"
    else:
        with pytest.raises(type(exc)):
            write_atomic(target, "new save " * 1000)
    monkeypatch.undo()
    assert target.read_text(encoding="utf-8") == "old save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


@pytest.mark.parametrize("exc", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_first_save_leaves_no_file_at_all(tmp_path, monkeypatch, exc):
    _fail_at(monkeypatch, "write", exc)
    with pytest.raises((SaveError, KeyboardInterrupt)):
        write_atomic(tmp_path / "new.json", "data")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


def test_a_write_error_as_root_is_one_line_too(tmp_path, monkeypatch):
    # As root os.access() says every folder is writable, so check_target passes; the
    # error of the real write must still come out as one line.
    monkeypatch.setattr(os, "access", lambda *a, **kw: True)
    _fail_at(monkeypatch, "mkstemp", PermissionError(errno.EACCES, "Permission denied"))
    with pytest.raises(SaveError) as e:
        write_atomic(tmp_path / "s.json", "x")
    assert one_line(e) == f"cannot write {tmp_path / 's.json'}: Permission denied"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_an_unwritable_folder_is_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(SaveError) as e:
            write_atomic(ro / "s.json", "x")
        assert one_line(e) == (f"cannot save to {ro / 's.json'}: folder {ro} is not writable "
                               f"({savefile.ACCEPTED})")
    finally:
        ro.chmod(0o700)


def test_an_unwritable_folder_is_refused_by_the_access_check(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "access", lambda *a, **kw: False)
    with pytest.raises(SaveError) as e:
        check_target(tmp_path / "s.json")
    assert f"folder {tmp_path} is not writable" in one_line(e)


# --- refusals ----------------------------------------------------------------------------

def test_a_missing_folder_is_refused(tmp_path):
    target = tmp_path / "nonexistent" / "x.json"
    for call in (lambda: check_target(target), lambda: write_atomic(target, "x")):
        with pytest.raises(SaveError) as e:
            call()
        assert one_line(e).startswith(
            f"cannot save to {target}: folder {tmp_path / 'nonexistent'} does not exist (")
    assert list(tmp_path.iterdir()) == []


def test_a_file_used_as_a_folder_is_refused(tmp_path):
    (tmp_path / "f").write_text("x", encoding="utf-8")
    with pytest.raises(SaveError) as e:
        write_atomic(tmp_path / "f" / "x.json", "x")
    assert one_line(e).startswith(
        f"cannot save to {tmp_path / 'f' / 'x.json'}: {tmp_path / 'f'} is not a folder (")


def test_dev_null_is_refused_by_the_check(tmp_path):
    # only the read-only check: write_atomic is never pointed at /dev/null
    with pytest.raises(SaveError) as e:
        check_target(os.devnull)
    assert one_line(e) == f"cannot save to {os.devnull}: it is a character device ({savefile.ACCEPTED})"
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_symlink_to_a_character_device_is_refused(tmp_path):
    link = tmp_path / "null.json"
    link.symlink_to(os.devnull)
    with pytest.raises(SaveError) as e:
        write_atomic(link, "x")
    assert "it is a symlink to a character device" in one_line(e)
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null.json"]


def test_a_fifo_is_refused_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(SaveError) as e:
        write_atomic(fifo, "x")
    assert one_line(e) == f"cannot save to {fifo}: it is a named pipe (FIFO) ({savefile.ACCEPTED})"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.json"]


def test_a_folder_is_refused_and_left_alone(tmp_path):
    d = tmp_path / "saves"
    d.mkdir()
    (d / "keep").write_text("k", encoding="utf-8")
    with pytest.raises(SaveError) as e:
        write_atomic(d, "x")
    assert one_line(e) == f"cannot save to {d}: it is a folder ({savefile.ACCEPTED})"
    assert d.is_dir() and [p.name for p in d.iterdir()] == ["keep"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves"]


def test_a_socket_is_refused(tmp_path):
    path = tmp_path / "s.sock"
    if len(str(path)) > 100:
        pytest.skip("tmp_path too long for a unix socket name")
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(path))
        with pytest.raises(SaveError) as e:
            write_atomic(path, "x")
        assert "it is a socket" in one_line(e)
        assert stat.S_ISSOCK(os.lstat(path).st_mode)
    finally:
        s.close()


@pytest.mark.parametrize("what", ["folder", "fifo", "missing"])
def test_a_symlink_to_anything_but_a_regular_file_is_refused(tmp_path, what):
    thing = tmp_path / "thing"
    if what == "folder":
        thing.mkdir()
    elif what == "fifo":
        os.mkfifo(thing)
    link = tmp_path / "save.json"
    link.symlink_to(thing)
    with pytest.raises(SaveError) as e:
        write_atomic(link, "x")
    msg = one_line(e)
    assert msg.startswith(f"cannot save to {link}: it is a symlink to ")
    assert link.is_symlink() and leftovers(tmp_path) == []


def test_a_symlink_to_a_regular_file_is_replaced_by_the_save(tmp_path):
    # The documented choice: accepted, and the rename replaces the link itself; the file
    # it pointed to is not written.
    real = tmp_path / "elsewhere.json"
    real.write_text("untouched", encoding="utf-8")
    link = tmp_path / "save.json"
    link.symlink_to(real)
    assert check_target(link) == link
    write_atomic(link, "new")
    assert not link.is_symlink() and link.read_text(encoding="utf-8") == "new"
    assert real.read_text(encoding="utf-8") == "untouched"


@pytest.mark.parametrize("planted", ["save.json.tmp", ".save.json.tmp"])
def test_a_symlink_planted_at_a_temp_name_cannot_redirect_the_write(tmp_path, planted):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (tmp_path / planted).symlink_to(victim)
    write_atomic(tmp_path / "save.json", "save")
    assert victim.read_text(encoding="utf-8") == "precious"
    assert (tmp_path / planted).is_symlink()
    assert (tmp_path / "save.json").read_text(encoding="utf-8") == "save"


def test_check_target_accepts_a_new_name_or_a_regular_file_and_creates_nothing(tmp_path):
    assert check_target(str(tmp_path / "new.json")) == tmp_path / "new.json"
    (tmp_path / "old.json").write_text("x", encoding="utf-8")
    assert check_target(tmp_path / "old.json") == tmp_path / "old.json"
    assert [p.name for p in tmp_path.iterdir()] == ["old.json"]


# --- file mode -----------------------------------------------------------------------------

@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_save_gets_the_mode_open_would_give_it(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "s.json", "x")
        (tmp_path / "plain.json").write_text("x", encoding="utf-8")
    finally:
        os.umask(old)
    mode = stat.S_IMODE(os.stat(tmp_path / "s.json").st_mode)
    assert mode == 0o666 & ~umask == stat.S_IMODE(os.stat(tmp_path / "plain.json").st_mode)


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664])
def test_an_existing_save_keeps_its_mode(tmp_path, mode):
    target = tmp_path / "s.json"
    target.write_text("old", encoding="utf-8")
    target.chmod(mode)
    write_atomic(target, "new")
    assert stat.S_IMODE(os.stat(target).st_mode) == mode
    assert target.read_text(encoding="utf-8") == "new"


def test_the_umask_is_read_without_proc_too(tmp_path, monkeypatch):
    real_open = open

    def no_proc(path: Any, *a: Any, **kw: Any) -> Any:
        if str(path).startswith("/proc"):
            raise FileNotFoundError(errno.ENOENT, "No such file or directory")
        return real_open(path, *a, **kw)

    monkeypatch.setattr(savefile, "open", no_proc, raising=False)
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "s.json", "x")
        assert os.umask(0o027) == 0o027  # put back as it was
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "s.json").st_mode) == 0o640


# --- concurrency ---------------------------------------------------------------------------

def test_a_second_writer_in_the_middle_of_a_save_does_not_break_either(tmp_path, monkeypatch):
    """Writer B saves the same path from start to end while writer A is between writing
    its temp file and renaming it. With one fixed temp name B would take A's temp file and
    A's rename would fail (FileNotFoundError: the bug of issue 8)."""
    target = tmp_path / "save.json"
    target.write_text("old", encoding="utf-8")
    real_fsync = os.fsync
    seen: list[str] = []

    def fsync(fd: int) -> None:
        real_fsync(fd)
        if not seen and not stat.S_ISDIR(os.fstat(fd).st_mode):
            seen.append(target.read_text(encoding="utf-8"))  # a reader during A's write
            write_atomic(target, "B" * 5000)                   # B, all of it
            seen.append(target.read_text(encoding="utf-8"))

    monkeypatch.setattr(os, "fsync", fsync)
    write_atomic(target, "A" * 3000)
    assert seen == ["old", "B" * 5000]  # whole saves only, never A's half-written file
    assert target.read_text(encoding="utf-8") == "A" * 3000  # the last rename wins
    assert leftovers(tmp_path) == []


def test_threads_saving_to_one_path_never_fail_and_readers_see_whole_saves(tmp_path):
    target = tmp_path / "save.json"
    write_atomic(target, json.dumps({"writer": -1, "n": 0, "pad": "x" * 20000}))
    errors: list[BaseException] = []
    reads = [0]
    stop = threading.Event()

    def writer(w: int) -> None:
        try:
            for n in range(60):
                write_atomic(target, json.dumps({"writer": w, "n": n, "pad": "x" * 20000}))
        except BaseException as e:
            errors.append(e)

    def reader() -> None:
        try:
            while not stop.is_set():
                d = json.loads(target.read_text(encoding="utf-8"))
                assert len(d["pad"]) == 20000
                reads[0] += 1
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    r = threading.Thread(target=reader)
    r.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    r.join()
    assert errors == [] and reads[0] > 0
    assert json.loads(target.read_text(encoding="utf-8"))["n"] == 59
    assert leftovers(tmp_path) == []


def test_dev_null_is_a_character_device():
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_save_with_a_very_long_name(tmp_path):
    target = tmp_path / ("x" * 250 + ".json")
    write_atomic(target, "long")
    assert target.read_text(encoding="utf-8") == "long" and leftovers(tmp_path) == []
