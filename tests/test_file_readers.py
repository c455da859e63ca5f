"""The files read outside the loaders (issue 39): a save's session id when choosing where
to save, the files an arena entrant's hash is made of, the bestiary's schema files. Each
is read as a regular file through wasteland.limits, never blocking on a named pipe nor
reading a device or a huge file whole."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.pipes import fifo, unblocked
from wasteland import limits
from wasteland.limits import LimitError


# --- limits.file_digest: the hash of a file too large to load -------------------------------
def test_file_digest_hashes_a_regular_file_a_chunk_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "agent.bin"
    data = bytes(range(256)) * 20_000  # 5 MB: several chunks
    path.write_bytes(data)
    assert limits.file_digest(path) == hashlib.sha256(data).hexdigest()
    path.write_bytes(b"")
    assert limits.file_digest(path) == hashlib.sha256(b"").hexdigest()


@pytest.mark.parametrize("what, answer", [("fifo", "a named pipe, not a regular file"),
                                          ("dev_zero", "a device, not a regular file"),
                                          ("folder", "a folder, not a regular file")])
def test_file_digest_refuses_what_is_not_a_regular_file(what: str, answer: str,
                                                        tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    path = {"fifo": lambda: fifo(pipe), "dev_zero": lambda: Path("/dev/zero"),
            "folder": lambda: tmp_path}[what]()
    with pytest.raises(LimitError) as e:
        unblocked(lambda: limits.file_digest(path), pipe)
    assert str(e.value) == f"{path}: {answer}; only regular files are read"


# --- where a game saves: the session id of the saves already there --------------------------
def _save_of(session: str) -> str:
    return json.dumps({"format": "x", "session": {"id": session}})


def test_a_named_pipe_among_the_numbered_saves_is_passed_over(tmp_path: Path) -> None:
    """choose_save_path read each numbered save's session id; a named pipe there blocked."""
    from wasteland.cli.session import choose_save_path, session_id_of

    (tmp_path / "game.json").write_text(_save_of("other"), encoding="utf-8")
    pipe = fifo(tmp_path / "game-2.json")
    path, why = unblocked(lambda: choose_save_path(tmp_path / "game.json", "mine"), pipe)
    assert path == tmp_path / "game-3.json" and why is not None and "game-3.json" in why
    assert unblocked(lambda: session_id_of(pipe), pipe) is None


@pytest.mark.parametrize("data", [b'{"session": ' * 100_000 + b"1" + b"}" * 100_000,
                                  b'{"session": {"id": NaN}}', b"\xff not text", b"[1, 2]"],
                         ids=["deep", "nan", "not-utf8", "a-list"])
def test_a_save_whose_session_cannot_be_read_has_none(data: bytes, tmp_path: Path) -> None:
    """The deep one raised RecursionError while choosing where to save."""
    from wasteland.cli.session import session_id_of

    path = tmp_path / "game.json"
    path.write_bytes(data)
    assert session_id_of(path) is None
    path.write_text(_save_of("abc"), encoding="utf-8")
    assert session_id_of(path) == "abc"


def test_a_save_past_the_save_cap_has_no_session(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from wasteland.cli.session import session_id_of

    path = tmp_path / "game.json"
    path.write_text(_save_of("abc"), encoding="utf-8")
    monkeypatch.setitem(limits.MAX_FILE_BYTES, "save", path.stat().st_size - 1)
    assert session_id_of(path) is None


# --- what an arena entrant's hash is made of ----------------------------------------------
def test_a_program_s_files_are_hashed_by_their_content_and_pipes_are_passed_over(
        tmp_path: Path) -> None:
    from wasteland.arena.fingerprint import agent_hash

    prog = tmp_path / "agent.py"
    prog.write_text("print('hello')\n", encoding="utf-8")
    pipe = fifo(tmp_path / "pipe")
    kind = f"cmd:python {prog} {pipe} /dev/zero"
    first = unblocked(lambda: agent_hash(kind), pipe)
    assert unblocked(lambda: agent_hash(kind), pipe) == first
    prog.write_text("print('changed')\n", encoding="utf-8")
    assert unblocked(lambda: agent_hash(kind), pipe) != first


def test_a_policy_whose_file_became_a_named_pipe_is_one_line_in_its_hash(tmp_path: Path) -> None:
    """The policy is loaded (and checked) before its files are hashed; swapped in between
    for a named pipe, the hash refuses it instead of blocking."""
    from wasteland.arena.fingerprint import agent_hash, policy_files

    npz, js = policy_files("robot_pnp")
    for f in (npz, js):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    kind = f"policy:{tmp_path / npz.name}"
    assert agent_hash(kind) == agent_hash("policy:robot_pnp")
    (tmp_path / js.name).unlink()
    pipe = fifo(tmp_path / js.name)
    with pytest.raises(LimitError) as e:
        unblocked(lambda: agent_hash(kind), pipe)
    assert str(e.value).startswith(f"{pipe}: a named pipe, not a regular file")


# --- the bestiary's schema files ------------------------------------------------------------
def test_a_schema_file_that_is_a_named_pipe_is_stale_not_a_hang(tmp_path: Path) -> None:
    from wasteland.bestiary.schema import MODELS, schema_path, stale, write_schemas

    write_schemas(tmp_path)
    assert stale(tmp_path) == []
    kind = sorted(MODELS)[0]
    path = schema_path(kind, tmp_path)
    path.unlink()
    fifo(path)
    assert unblocked(lambda: stale(tmp_path), path) == [kind]
