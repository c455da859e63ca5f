"""The rules tables (docs/rules/pnp.md, f2d20.md, simple.md) against the test suite.

Every row of a table with a Test column is checked:

(a) every test it names exists. Names are in backticks: ``tests/rules/test_x.py::test_y``
    (a path from the project root), ``test_x.py::test_y`` (a test file anywhere under
    tests/), ``::test_y`` (the file named last before it, in this row or, for a row that
    begins "same", the row above), ``test_y`` alone (any test file), and
    ``...::Class::test_y``; a parametrized test is named without its brackets (brackets
    are ignored). Test files are read with ast, nothing is imported.
(b) every row names a test, says "same" (the row above's tests, which must be valid), or
    is a **reading** row whose Test column says "none: <why there is nothing to test>".
(c) a row that says "not modelled" gives the reason in the same cell: words before it
    ("it matters for perks, not modelled") or after it ("not modelled: ...", "not
    modelled because ...", "not modelled (...)"); a bare "(not modelled)" is refused.

A failure lists every bad row as file:line: what is wrong.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("docs/rules/pnp.md", "docs/rules/f2d20.md", "docs/rules/simple.md")
REF = re.compile(r"^(?P<file>[\w./-]*\.py)?(?P<names>(?:::\w+)+)$|^(?P<bare>test_\w+)$")
MIN_REASON_WORDS = 3


@cache
def defined_tests(path: Path) -> frozenset[str]:
    """The tests a file defines: ``name`` for functions, ``Class::name`` for methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.add(node.name)
        elif isinstance(node, ast.ClassDef):
            out.update(f"{node.name}::{m.name}" for m in node.body
                       if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef))
    return frozenset(out)


@cache
def all_test_files() -> tuple[Path, ...]:
    return tuple(sorted((ROOT / "tests").rglob("test_*.py")))


def split_row(line: str) -> list[str]:
    """A table row's cells: split at pipes outside backticks and not escaped."""
    cells, cur, code = [], [], False
    prev = ""
    for ch in line.strip().strip("|"):
        if ch == "`":
            code = not code
        if ch == "|" and not code and prev != "\\":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        prev = ch
    cells.append("".join(cur).strip())
    return cells


def check_ref(ref: str, last_file: str | None) -> tuple[str | None, str | None]:
    """(problem or None, the file this reference names, for a following ``::name``)."""
    ref = re.sub(r"\[.*?\]", "", ref)  # a parametrized test's id: the name without it
    m = REF.match(ref)
    if m is None:
        return f"{ref}: not a test name", last_file
    if m["bare"]:
        name = m["bare"]
        if any(name in defined_tests(p) for p in all_test_files()):
            return None, last_file
        return f"test {name} not found in any test file", last_file
    file, name = m["file"] or last_file, m["names"][2:]
    if file is None:
        return f"{ref}: no file named before it", last_file
    if "/" in file:
        paths = [ROOT / file] if (ROOT / file).is_file() else []
    else:
        paths = [p for p in all_test_files() if p.name == file]
    if not paths:
        return f"{file}: no such test file", file
    if not any(name in defined_tests(p) for p in paths):
        return f"{file}::{name} not found", file
    return None, file


def is_ref(span: str) -> bool:
    return REF.match(re.sub(r"\[.*?\]", "", span)) is not None


def gives_reason(cell: str) -> bool:
    """Whether every "not modelled" in the cell comes with a reason (see (c))."""
    low = cell.lower()
    for m in re.finditer(r"not modell?ed", low):
        before = re.sub(r"[`*()]", " ", low[:m.start()]).split()
        after = low[m.end():].lstrip()
        tail = re.sub(r"^(:|because|since|as|-|—|\()", "", after)
        said_after = tail != after and len(re.sub(r"[`*()|]", " ", tail).split()) >= MIN_REASON_WORDS
        if len(before) < MIN_REASON_WORDS and not said_after:
            return False
    return True


def check_doc(rel: str) -> tuple[list[str], int]:
    """Every bad row of the tables with a Test column in ``rel``, one line each, and how
    many test names were checked."""
    bad: list[str] = []
    checked = 0
    lines = (ROOT / rel).read_text(encoding="utf-8").splitlines()
    header: list[str] | None = None
    test_col = -1
    prev_ok, prev_file = False, None
    for no, line in enumerate(lines, 1):
        if not line.lstrip().startswith("|"):
            header = None
            continue
        cells = split_row(line)
        if header is None:
            header = [c.lower() for c in cells]
            test_col = header.index("test") if "test" in header else -1
            prev_ok, prev_file = False, None
            continue
        if set("".join(cells)) <= set("-: "):
            continue  # the separator row
        where = f"{rel}:{no}"
        for cell in cells:
            if not gives_reason(cell):
                bad.append(f"{where}: says 'not modelled' without a reason ({cell!r})")
        if test_col < 0:
            continue  # not a rules table (e.g. the balance changes)
        if len(cells) != len(header):
            bad.append(f"{where}: {len(cells)} cells, the header has {len(header)}")
            prev_ok = False
            continue
        cell = cells[test_col]
        reading = "**reading**" in cells[0].lower() or cells[0].lower().startswith("reading")
        low = cell.lower()
        last_file = prev_file if low.startswith("same") else None
        refs = [s for s in re.findall(r"`([^`]*)`", cell) if is_ref(s)]
        problems = []
        for ref in refs:
            checked += 1
            problem, last_file = check_ref(ref, last_file)
            if problem:
                problems.append(problem)
        bad.extend(f"{where}: {p}" for p in problems)
        if refs:
            ok = not problems
        elif low.startswith("same"):
            ok = prev_ok
            if not ok:
                bad.append(f"{where}: 'same', but the row above names no valid test")
        elif low.startswith("none"):
            reason = cell[4:].lstrip(" :")
            ok = False
            if not reading:
                bad.append(f"{where}: a stated rule (not a reading) with no test ({cell!r})")
            elif not cell[4:].lstrip().startswith(":") or len(reason.split()) < 2:
                bad.append(f"{where}: 'none' without 'none: <why there is nothing to test>' "
                           f"({cell!r})")
            else:
                ok = True
        else:
            ok = False
            bad.append(f"{where}: names no test ({cell!r})")
        prev_ok, prev_file = ok, last_file
    return bad, checked


def test_the_checker_finds_what_it_should(tmp_path: Path) -> None:
    """The checker itself, on a made-up table: each kind of bad row is reported, the good
    ones are not."""
    me = Path(__file__).relative_to(ROOT).as_posix()
    rows = [
        "| Rule | Seed | Code | Test |",
        "|---|---|---|---|",
        f"| ok | s | c | `{me}::test_the_checker_finds_what_it_should`, `::test_rules_docs` |",
        "| ok bare | s | c | `test_the_checker_finds_what_it_should` |",
        "| ok same | s | c | same |",
        "| missing | s | c | `test_rules_docs.py::test_no_such_thing` |",
        "| no file | s | c | `test_no_such_file.py::test_x` |",
        "| **reading**: fine | s | (not modelled: no fight on these maps uses it) | "
        "none: nothing happens in a fight |",
        "| **reading**: bare none | s | c | none |",
        "| stated rule | s | c | none: nothing to test |",
        "| **reading**: no reason | s | (not modelled) | none: nothing to test |",
        "| no test named | s | c | see the code |",
        "| same after a bad one | s | c | same |",
        "| **reading**: param | s | c | `test_rules_docs.py::test_rules_docs[pnp]` |",
    ]
    doc = tmp_path / "t.md"
    doc.write_text("\n".join(rows) + "\n", encoding="utf-8")
    bad, checked = check_doc(str(doc))  # an absolute path: ROOT / path is the path itself
    lines = sorted({int(b.split(":")[1]) for b in bad})
    assert lines == [6, 7, 9, 10, 11, 12, 13], "\n".join(bad)
    said = "\n".join(bad)
    for what in ("test_rules_docs.py::test_no_such_thing not found",
                 "test_no_such_file.py: no such test file", "'none' without 'none: <why",
                 "a stated rule (not a reading) with no test", "'not modelled' without a reason",
                 "names no test", "'same', but the row above names no valid test"):
        assert what in said, (what, said)
    assert checked == 6


@pytest.mark.parametrize("doc", DOCS)
def test_rules_docs(doc: str) -> None:
    """Every row of the rules table names tests that exist, or says why none is needed."""
    bad, checked = check_doc(doc)
    assert checked >= 50, f"only {checked} test names found in {doc}: is the table still read?"
    assert not bad, f"{len(bad)} bad rows in {doc}:\n" + "\n".join(bad)
