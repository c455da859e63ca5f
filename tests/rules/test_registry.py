"""The ruleset registry (rules/rulesets.py) and the ruleset a battle holds (issue 43): the
engine asks the battle, not the registry, so nothing under the registry imports it."""

from __future__ import annotations

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.rules.errors import WastelandError
from wasteland.rules.fork import fork
from wasteland.rules.names import RULESETS
from wasteland.rules.rulesets import MAKERS, get_ruleset
from wasteland.rules.tactics import tactics_of


def test_the_registry_names_every_ruleset_once():
    assert tuple(MAKERS) == RULESETS
    assert [get_ruleset(n).name for n in RULESETS] == list(RULESETS)


@pytest.mark.parametrize("name", RULESETS)
def test_a_battle_and_its_fork_hold_the_ruleset_that_laid_it_out(name):
    rs = get_ruleset(name)
    b = rs.new_battle(load_scenario("duel"), seed=3)
    assert b.rules is rs and b.ruleset == name
    assert fork(b, 9).rules is rs
    assert type(tactics_of(b)) is type(rs.tactics)


def test_an_unknown_name_is_one_line_naming_the_rulesets():
    with pytest.raises(WastelandError) as e:
        get_ruleset("gurps")
    assert str(e.value) == "unknown ruleset 'gurps'; available: pnp, f2d20, simple"
