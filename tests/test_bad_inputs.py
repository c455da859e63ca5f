"""Every crafted bad input in tests/data/bad gets its one-line answer (issue 8).

The layout is described in tests/data/bad/README.md: folders of case files, each with an
answers.yaml (file name -> a fragment of the one-line error), and commands/answers.yaml
(command lines and their one line on stderr). New files are picked up by themselves; a
file without an answer, or an answer without a file, fails.

benchmarks/bad_inputs.py imports the walking functions below to time every case and
measure its memory in a fresh process (tests make no timing assertions).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "tests" / "data" / "bad"
ANSWERS = "answers.yaml"
# folder (relative to BAD) -> the suffix of its case files
FILE_FOLDERS = {"scenarios": ".yaml", **{f"bestiary/{k}": ".yaml"
                                         for k in ("creatures", "weapons", "armor", "items")},
                "saves": ".json"}


@dataclass(frozen=True)
class FileCase:
    folder: str
    name: str
    answer: str
    generated: dict[str, Any] | None = field(default=None, compare=False)

    @property
    def id(self) -> str:
        return f"{self.folder}/{self.name}"


def read_answers(folder: str) -> dict[str, Any] | None:
    """A folder's answers.yaml, or None when it has none (yet)."""
    path = BAD / folder / ANSWERS
    if not path.exists():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    assert isinstance(data, dict), f"{path}: expected a mapping of file name -> answer"
    return data


def case_files(folder: str) -> list[str]:
    return sorted(p.name for p in (BAD / folder).glob(f"*{FILE_FOLDERS[folder]}")
                  if p.name != ANSWERS)


def file_cases(folder: str) -> list[FileCase]:
    answers = read_answers(folder) or {}
    generated = answers.pop("generated", None) or {}
    cases = [FileCase(folder, name, str(answer)) for name, answer in answers.items()]
    cases += [FileCase(folder, name, str(spec["answer"]), spec)
              for name, spec in generated.items()]
    return cases


def all_file_cases() -> list[Any]:
    """Every file case as a pytest param; a folder without answers.yaml is one skip."""
    out: list[Any] = []
    for folder in FILE_FOLDERS:
        if not (BAD / folder).is_dir():
            continue
        if read_answers(folder) is None:
            out.append(pytest.param(None, id=f"{folder}/(no {ANSWERS} yet)",
                                    marks=pytest.mark.skip(reason=f"{folder}: no {ANSWERS}")))
            continue
        out += [pytest.param(c, id=c.id) for c in file_cases(folder)]
    return out


def command_cases() -> list[dict[str, Any]]:
    path = BAD / "commands" / ANSWERS
    data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.exists() else []
    assert isinstance(data, list), f"{path}: expected a list of command cases"
    return data


# --- running one case ------------------------------------------------------------------

def _write_generated(path: Path, spec: dict[str, Any]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(spec.get("head", ""))
        f.write(spec["text"] * int(spec["times"]))


def prepare(case: FileCase, tmp: Path) -> tuple[Path, Path | None]:
    """The file to load (a generated one is written under ``tmp``) and, for a bestiary
    kind, the copy of the built-in data it was dropped into."""
    from wasteland.bestiary.loader import DATA

    src = BAD / case.folder / case.name
    if case.folder.startswith("bestiary/"):
        root = tmp / "data"
        shutil.copytree(DATA, root)
        dest = root / case.folder.split("/", 1)[1] / case.name
        if case.generated:
            _write_generated(dest, case.generated)
        else:
            shutil.copy(src, dest)
        return dest, root
    if case.generated:
        src = tmp / case.name
        _write_generated(src, case.generated)
    return src, None


def load(case: FileCase, path: Path, root: Path | None) -> None:
    """What a user's program does with the file; it must raise."""
    if case.folder == "saves":
        from wasteland.rules import saves

        saves.load(path)
    elif root is not None:
        from wasteland.bestiary.loader import load_bestiary

        load_bestiary(root)
    else:
        from wasteland.bestiary.loader import load_scenario

        load_scenario(path)


def expected_error(case: FileCase) -> type[Exception]:
    if case.folder == "saves":
        from wasteland.rules.errors import SaveError

        return SaveError
    from wasteland.bestiary.loader import BestiaryError

    return BestiaryError


def error_of(case: FileCase, tmp: Path) -> BaseException | None:
    """The exception loading the case raises (None if it loads)."""
    path, root = prepare(case, tmp)
    try:
        load(case, path, root)
    except BaseException as e:  # noqa: BLE001 - a RecursionError must be reported, not fatal
        return e
    return None


def command_argv(case: dict[str, Any]) -> list[str]:
    return [sys.executable, "-m", "wasteland.cli.main",
            *(str(a).replace("{bad}", str(BAD)) for a in case["args"])]


def command_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="200", NO_COLOR="1")
    env.pop("PYTHONSTARTUP", None)
    return env


# --- the checks ------------------------------------------------------------------------

def check_one_line(text: str, answer: str, what: str) -> None:
    assert "Traceback" not in text, f"{what}: a traceback:\n{text}"
    lines = text.strip("\n").split("\n")
    assert len(lines) == 1 and "\r" not in text, f"{what}: not one line:\n{text}"
    assert answer in lines[0], f"{what}: {answer!r} not in {lines[0]!r}"


@pytest.mark.parametrize("case", all_file_cases())
def test_file_gets_its_one_line_answer(case: FileCase, tmp_path: Path) -> None:
    err = error_of(case, tmp_path)
    assert err is not None, f"{case.id}: loaded without an error"
    want = expected_error(case)
    assert isinstance(err, want), (f"{case.id}: {type(err).__name__} ({err}), "
                                   f"expected {want.__name__}")
    check_one_line(str(err), case.answer, case.id)


@pytest.mark.parametrize("case", command_cases(), ids=lambda c: " ".join(map(str, c["args"])))
def test_command_gets_its_one_line_answer(case: dict[str, Any], tmp_path: Path) -> None:
    p = subprocess.run(command_argv(case), cwd=tmp_path, input=case.get("stdin", ""),
                       capture_output=True, text=True, env=command_env(), timeout=300)
    what = " ".join(map(str, case["args"]))
    if "exit" in case:
        assert p.returncode == case["exit"], f"{what}: exit {p.returncode}\n{p.stderr}"
    else:
        assert p.returncode != 0, f"{what}: exit 0\n{p.stderr}"
    check_one_line(p.stderr, str(case["answer"]), what)


@pytest.mark.parametrize("folder", list(FILE_FOLDERS))
def test_every_file_has_an_answer_and_every_answer_a_file(folder: str) -> None:
    if not (BAD / folder).is_dir() or read_answers(folder) is None:
        pytest.skip(f"{folder}: no {ANSWERS} yet")
    cases = file_cases(folder)
    answered = {c.name for c in cases if c.generated is None}
    files = set(case_files(folder))
    assert not files - answered, f"{folder}: no answer for {sorted(files - answered)}"
    assert not answered - files, f"{folder}: answers for missing {sorted(answered - files)}"
    for c in cases:
        if c.generated is not None:
            assert c.name not in files, f"{folder}/{c.name}: both generated and committed"


def test_answers_are_one_line_fragments() -> None:
    answers = [(c.id, c.answer) for f in FILE_FOLDERS if (BAD / f).is_dir()
               for c in file_cases(f)]
    answers += [(" ".join(map(str, c["args"])), str(c["answer"])) for c in command_cases()]
    assert answers
    for what, answer in answers:
        assert answer.strip() and "\n" not in answer and "\r" not in answer, (what, answer)


def test_no_folder_is_left_out() -> None:
    """A new folder under tests/data/bad must be added to the walk, not silently skipped."""
    known = {"commands", "bestiary", *FILE_FOLDERS}
    found = {str(p.relative_to(BAD)) for p in BAD.rglob("*") if p.is_dir()
             and "__pycache__" not in p.parts}
    assert found <= known, f"not walked: {sorted(found - known)}"
