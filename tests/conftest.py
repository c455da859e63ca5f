"""Tests write nothing outside their tmp_path, and a run that does is noticed (issue 8).

Three guards:
- Every test runs with its own tmp_path as the current folder and temp folder (TMPDIR,
  tempfile.tempdir), so default relative names (wasteland-save.json, wasteland-gm.json,
  runs/) and libraries' temp files land there and not in the checkout or /tmp.
  Tests find their fixtures through ``__file__`` (tests/rules/kit.py), never the cwd.
- While a test runs, an audit hook (sys.addaudithook) watches this process's file
  writes, renames, removals, mkdir and chmod. One outside the pytest temp folder (other
  than caches, the terminal and /dev/null) fails that test at teardown, naming the path;
  one that would rename, remove or change anything in /dev is blocked outright.
- At the end of the session the run fails if /dev/null is no longer a character device
  or the checkout changed (`git status --porcelain --untracked-files=all
  --ignored=matching`, before and after, ignoring .venv and caches; skipped without
  git). This also catches subprocesses, which the audit hook cannot see.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHES = {".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}


# --- the session check: /dev/null and the checkout ------------------------------------------

def checkout_state() -> set[str] | None:
    """The checkout's changed, new and ignored paths as `git status` lines, caches left
    out; None without git."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=all",
             "--ignored=matching"], capture_output=True, text=True, timeout=120, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    lines = set()
    for line in out.splitlines():
        for path in line[3:].split(" -> "):
            parts = Path(path.strip('"').rstrip("/")).parts
            if not (CACHES & set(parts) or parts[-1].endswith(".egg-info")):
                lines.add(line)
    return lines


def machine_problems(before: set[str] | None) -> list[str]:
    problems = []
    try:
        mode = os.stat(os.devnull).st_mode
        if not stat.S_ISCHR(mode):
            problems.append(f"{os.devnull} is no longer a character device (mode {mode:o})")
    except OSError as e:
        problems.append(f"{os.devnull} is gone: {e.strerror}")
    after = checkout_state()
    if before is not None and after is not None:
        for line in sorted(after - before):
            problems.append(f"the run changed the checkout: {line}")
    return problems


_before_key = pytest.StashKey[set[str] | None]()
_problems_key = pytest.StashKey[list[str]]()


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_before_key] = checkout_state()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller checks
        return
    problems = machine_problems(session.config.stash.get(_before_key, None))
    session.config.stash[_problems_key] = problems
    if problems:
        if session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if session.config.pluginmanager.get_plugin("terminalreporter") is None:
            print("\n".join(["FAILED: a test wrote outside its tmp_path:", *problems]),
                  file=sys.stderr)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    problems = config.stash.get(_problems_key, [])
    if problems:
        terminalreporter.section("a test wrote outside its tmp_path", sep="=", red=True, bold=True)
        for p in problems:
            terminalreporter.line(p, red=True)


# --- the audit hook: this process's writes, test by test -------------------------------------

class WriteGuard:
    """Records file system changes made by this process outside the allowed folders while
    a test runs; blocks those that would change /dev."""

    PATH_ARGS = {  # event -> positions of the paths it changes (dir_fd position or None)
        "open": ((0, None),),
        "os.rename": ((0, 2), (1, 3)),
        "os.remove": ((0, 1),),
        "os.rmdir": ((0, 1),),
        "os.mkdir": ((0, 2),),
        "os.chmod": ((0, 2),),
        "os.chown": ((0, 3),),
        "os.truncate": ((0, None),),
        "os.symlink": ((1, 2),),
        "os.link": ((1, 3),),
        "shutil.rmtree": ((0, 1),),
    }
    DEVICES_OK = ("/dev/null", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/full")
    DEVICE_FOLDERS_OK = ("/dev/pts/", "/dev/shm/", "/dev/fd/", "/proc/self/fd/")
    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND

    def __init__(self) -> None:
        self.active = False
        self.allowed: tuple[str, ...] = ()
        self.hits: list[str] = []
        home = Path.home()
        self.caches = tuple(str(p) + os.sep for p in (home / ".cache", home / ".config")
                            ) + tuple(os.environ[v].rstrip(os.sep) + os.sep for v in
                                      ("MPLCONFIGDIR", "XDG_CACHE_HOME") if os.environ.get(v))

    def __call__(self, event: str, args: tuple[Any, ...]) -> None:
        spec = self.PATH_ARGS.get(event)
        if spec is None or not self.active:
            return
        if event == "open" and not self._writes(args):
            return
        for i, fd_i in spec:
            if fd_i is not None and len(args) > fd_i and args[fd_i] not in (None, -1, -100):
                continue  # relative to an open folder (dir_fd): not resolvable here
            p = args[i] if len(args) > i else None
            if p is None or isinstance(p, int):
                continue
            self._check(event, os.fsdecode(os.fspath(p)))

    def _writes(self, args: tuple[Any, ...]) -> bool:
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 else 0
        if isinstance(mode, str):
            return any(c in mode for c in "wax+")
        return isinstance(flags, int) and bool(flags & self.WRITE_FLAGS)

    def _check(self, event: str, path: str) -> None:
        full = os.path.abspath(path)
        real = os.path.join(os.path.realpath(os.path.dirname(full)), os.path.basename(full))
        where = [real]
        if event == "open":
            where.append(os.path.realpath(full))  # writing through a symlink writes its target
        for p in where:
            if self._ok(event, p):
                continue
            self.hits.append(f"{event} {p}")
            if p.startswith("/dev/") and not (event == "open" and p in self.DEVICES_OK):
                raise PermissionError(f"blocked by tests/conftest.py: {event} {p} during a test")

    def _ok(self, event: str, p: str) -> bool:
        if any(p == a or p.startswith(a + os.sep) for a in self.allowed):
            return True
        # caches, and the cache folder itself (matplotlib's first run on a new machine
        # makes ~/.cache for its font list)
        if CACHES & set(Path(p).parts) or (p + os.sep).startswith(self.caches):
            return True
        if event == "open" and (p in self.DEVICES_OK or p.startswith(self.DEVICE_FOLDERS_OK)):
            return True
        return False


# Audit hooks cannot be removed: one guard per process, switched on and off per test.
GUARD: WriteGuard = getattr(sys, "_wasteland_write_guard", None) or WriteGuard()


def pytest_configure(config: pytest.Config) -> None:
    if getattr(sys, "_wasteland_write_guard", None) is None:
        sys.addaudithook(GUARD)
        sys._wasteland_write_guard = GUARD  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _inside_tmp_path(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)
    # libraries' temp files (stable-baselines3's logger, torch) land in tmp_path too
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    base = os.path.realpath(tmp_path_factory.getbasetemp())
    # pytest's own temp root: the first tmp_path of a run clears old runs' folders there
    root = os.path.dirname(base)
    GUARD.allowed = (base, root) if os.path.basename(root).startswith("pytest-of-") else (base,)
    GUARD.hits = []
    GUARD.active = True
    try:
        yield
    finally:
        GUARD.active = False
    if GUARD.hits:
        hits = sorted(set(GUARD.hits))
        pytest.fail(f"this test wrote outside its tmp_path: {'; '.join(hits[:5])}"
                    + (f" and {len(hits) - 5} more" if len(hits) > 5 else ""), pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def _signing_key_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The key that signs RLlib checkpoints (training/signature.py) lives in the session's
    temp folder, not in ~/.config; module fixtures that train see it too."""
    before = os.environ.get("WASTELAND_KEY_FILE")
    os.environ["WASTELAND_KEY_FILE"] = str(tmp_path_factory.mktemp("key") / "run.key")
    yield
    if before is None:
        os.environ.pop("WASTELAND_KEY_FILE", None)
    else:
        os.environ["WASTELAND_KEY_FILE"] = before


@pytest.fixture(autouse=True)
def _known_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session without --seed draws a fresh seed (wasteland/cli/seeds.py); in the
    tests it draws 1, the seed sessions had before, so each test's dice stay known.
    tests/cli/test_fresh_seeds.py puts its own sources in."""
    from wasteland.cli import seeds

    monkeypatch.setattr(seeds, "source", lambda: 1)
