"""Game results kept between runs in one SQLite file, keyed by fingerprint.game_key: a
run fights only the games no earlier run has (a new agent's, a new seed's).

SQLite because a run adds results as they come (a Ctrl-C keeps what was fought) and a
file of a million games stays quick to look up; it ships with Python.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path

from wasteland.rules.errors import WastelandError, one_line

from .games import GameResult

FILE_NAME = "arena.sqlite"
DRAW = -1  # a winner column value: no side won
COLUMNS = [("key", "TEXT"), ("winner", "INTEGER"), ("rounds", "INTEGER")]


def default_path() -> Path:
    """The user's cache folder: $XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on
    macOS, %LOCALAPPDATA% on Windows; then wasteland/arena.sqlite."""
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "wasteland" / FILE_NAME


class ResultCache:
    """Results by game key. ``path`` None keeps them in memory for this run only."""

    def __init__(self, path: Path | None, make_folder: bool = False) -> None:
        self.path = path
        where = ":memory:"
        if path is not None:
            if path.is_dir():
                raise WastelandError(f"--cache {path}: a directory; give a file name "
                                     f"(e.g. {path / FILE_NAME})")
            if not make_folder and not path.parent.is_dir():
                # a mistyped folder would otherwise be made, and the cache lost in it
                raise WastelandError(f"--cache {path}: no folder {path.parent}; give a file "
                                     f"in an existing folder")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise WastelandError(f"--cache {path}: cannot create its folder "
                                     f"({one_line(e.strerror or str(e))})") from None
            where = str(path)
        try:
            self.db = sqlite3.connect(where)
            self.db.execute("CREATE TABLE IF NOT EXISTS games "
                            "(key TEXT PRIMARY KEY, winner INTEGER NOT NULL, rounds INTEGER NOT NULL)")
            self.db.commit()
            columns = [(r[1], r[2].upper()) for r in self.db.execute("PRAGMA table_info(games)")]
        except sqlite3.Error as e:
            raise WastelandError(f"--cache {path}: not a usable arena cache ({one_line(str(e))}); "
                                 f"give another file or delete this one") from None
        self._check(columns)

    def _check(self, columns: list[tuple[str, str]]) -> None:
        if columns != COLUMNS:
            have = ", ".join(f"{n} {t}" for n, t in columns)
            raise WastelandError(f"--cache {self.path}: its games table has columns ({have}), "
                                 f"not an arena cache's; give another file or delete this one")

    def get(self, keys: list[str]) -> dict[str, GameResult]:
        """The results held for any of ``keys``."""
        out: dict[str, GameResult] = {}
        step = 500  # SQLite's limit on parameters of one statement is 999 on old builds
        for i in range(0, len(keys), step):
            part = keys[i:i + step]
            marks = ",".join("?" * len(part))
            rows = self.db.execute(f"SELECT key, winner, rounds FROM games WHERE key IN ({marks})",
                                   part)
            for key, winner, rounds in rows:
                if type(winner) is not int or type(rounds) is not int or winner < DRAW or rounds < 0:
                    continue  # a row no run wrote: the game is fought again, and replaced
                out[key] = GameResult(None if winner == DRAW else winner, rounds)
        return out

    def put(self, items: Iterable[tuple[str, GameResult]]) -> None:
        try:
            self.db.executemany(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?)",
                [(k, DRAW if r.winner is None else r.winner, r.rounds) for k, r in items])
            self.db.commit()
        except sqlite3.Error as e:
            raise WastelandError(f"--cache {self.path}: cannot write ({one_line(str(e))})") from None

    def close(self) -> None:
        self.db.close()
