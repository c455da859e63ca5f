"""DESIGN.md: a new ruleset touches nothing in envs/ or agents/. Agents and envs ask the
ruleset (its Tactics, rules/tactics.py) instead of importing its package or comparing its
name; the few exceptions are listed here with their reasons."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "wasteland"
IMPORT = re.compile(r"(from|import)\s+wasteland\.rules\.(pnp|f2d20|simple)\b")
NAME_TEST = re.compile(r"""ruleset\s*[!=]=\s*["'](pnp|f2d20|simple)["']|"""
                       r"""["'](pnp|f2d20|simple)["']\s*[!=]=\s*\S*ruleset|"""
                       r"""\.name\s*[!=]=\s*["'](pnp|f2d20|simple)["']""")

# path -> why it may still name a ruleset's package
ALLOWED_IMPORTS = {
    # Simple's packet plugin: a decision per phase (move, charge, action) by stances,
    # charge paths and disarms, which no other ruleset has; the packet reaches it through
    # the ``phases`` capability, never by name
    "agents/packets/phases.py",
}
ALLOWED_NAME_TESTS: dict[str, str] = {}


def sources(*dirs: str) -> list[Path]:
    return sorted(p for d in dirs for p in (ROOT / d).rglob("*.py"))


def test_agents_and_envs_import_no_ruleset_package() -> None:
    bad = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
           for p in sources("agents", "envs", "cli", "tui")
           if str(p.relative_to(ROOT)) not in ALLOWED_IMPORTS
           for i, line in enumerate(p.read_text().splitlines(), 1) if IMPORT.search(line)]
    assert not bad, "ask the ruleset's tactics instead:\n" + "\n".join(bad)


def test_agents_and_envs_compare_no_ruleset_name() -> None:
    bad = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
           for p in sources("agents", "envs", "cli", "tui")
           if str(p.relative_to(ROOT)) not in ALLOWED_NAME_TESTS
           for i, line in enumerate(p.read_text().splitlines(), 1) if NAME_TEST.search(line)]
    assert not bad, "ask a capability of the ruleset's tactics instead:\n" + "\n".join(bad)


def test_the_patterns_catch_what_they_guard() -> None:
    assert IMPORT.search("from wasteland.rules.f2d20 import stats as S")
    assert IMPORT.search("    from wasteland.rules.pnp.odds import hit_chance")
    assert not IMPORT.search("from wasteland.rules.tactics import tactics_of")
    assert NAME_TEST.search('if b.ruleset == "f2d20":')
    assert NAME_TEST.search('if battle.ruleset != "pnp" or x:')
    assert NAME_TEST.search('if rs.name == "pnp" and a.kind == "vats":')
    assert not NAME_TEST.search('ruleset: str | Ruleset = "pnp",')
