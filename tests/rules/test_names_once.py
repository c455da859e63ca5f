"""The ruleset names are written once, in wasteland/rules/names.py (issue 43): a tuple,
list or set literal holding two or more of them anywhere else in the package or the
benchmarks is a second spelling that a new ruleset would have to find. An order of its
own (the suite's walk, the strength tables fitted first) is derived from names.py or
from the data it orders. A dict keyed by ruleset is not a list of names but a table of
what differs per ruleset (the registry's makers, the words, the turn orders), so it is
not counted here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import wasteland
from wasteland.rules.names import RULESETS

PACKAGE = Path(wasteland.__file__).resolve().parent
BENCHMARKS = PACKAGE.parent / "benchmarks"
HOME = PACKAGE / "rules" / "names.py"


def ruleset_lists(source: str) -> list[tuple[int, list[str]]]:
    """(line, names) of every tuple, list or set literal in ``source`` with two or more
    ruleset names (a ``Literal[...]``'s names are a tuple too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = [e.value for e in node.elts
                     if isinstance(e, ast.Constant) and e.value in RULESETS]
            if len(set(names)) >= 2:
                found.append((node.lineno, names))
    return found


@pytest.mark.parametrize("source", [
    'RULESETS = ("pnp", "simple", "f2d20")  # the suite\'s order',
    'MEAN_OVER = ("pnp", "f2d20")',
    'ap.add_argument("ruleset", choices=["pnp", "simple", "f2d20"])',
    'ruleset: Literal["pnp", "simple", "f2d20"]',
    'if ruleset in {"f2d20", "simple"}:\n    pass',
])
def test_a_second_spelling_is_found(source):
    assert ruleset_lists(source)


@pytest.mark.parametrize("source", [
    'MAKERS = {"pnp": PnP, "f2d20": F2d20, "simple": Simple}',
    'ORDER = tuple(sorted(RULESETS, key=lambda r: r == "f2d20"))',
    'if ruleset == "pnp":\n    pass',
])
def test_a_table_or_one_name_is_not(source):
    assert not ruleset_lists(source)


def test_the_names_are_written_only_in_names_py():
    files = [p for root in (PACKAGE, BENCHMARKS) for p in sorted(root.rglob("*.py"))]
    assert HOME in files
    found = [f"  {p.relative_to(PACKAGE.parent)}:{line}: {names}" for p in files if p != HOME
             for line, names in ruleset_lists(p.read_text(encoding="utf-8"))]
    assert not found, "ruleset names written out again (derive them from " \
                      "wasteland/rules/names.py):\n" + "\n".join(found)
    assert ruleset_lists(HOME.read_text(encoding="utf-8"))  # the one place the scan reads
