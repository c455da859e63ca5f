"""A battle's state is typed (issue 43): the fields every battle has are Battle's own, each
ruleset's bookkeeping is a class of its package (rules/battle.py RulesBook), and the save
format did not move: saves written before the change (tests/data/saves/, made by the
build before it from ``fight`` below) are written again alike (byte for byte but for the
observer's memory, a save part now written last: observe/memory.py), load, and resume
exactly."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.observe.encoding import Encoder
from wasteland.observe.memory import Memory, parts
from wasteland.rules import saves
from wasteland.rules.actions import ACTION_TABLE
from wasteland.rules.battle import Battle, RulesBook
from wasteland.rules.f2d20.book import F2d20Book
from wasteland.rules.fork import fork
from wasteland.rules.names import RULESETS
from wasteland.rules.newcomers import join
from wasteland.rules.pnp.book import PnpBook
from wasteland.rules.rulesets import get_ruleset
from wasteland.rules.simple.book import SimpleBook

DATA = Path(__file__).parent / "data" / "saves"
BOOKS = {"pnp": PnpBook, "simple": SimpleBook, "f2d20": F2d20Book}
# (seed, step of the first look, step of the newcomer, steps played before the save)
FIGHTS = {"pnp": (1, 3, 8, 20), "simple": (1, 9, 2, 25), "f2d20": (1, 3, 8, 25)}


def fight(ruleset: str, seed: int, look_at: int, join_at: int, steps: int,
          seen: Memory | None = None) -> Battle:
    """Seeded random play with what a battle gains on the way: a newcomer (and Simple's
    disarms, which random play makes), and in ``seen`` memories of what was seen (an
    observation's look)."""
    rs = get_ruleset(ruleset)
    b = rs.new_battle(load_scenario("vault_corridor"), seed, max_rounds=6)
    rng = random.Random(seed)
    for step in range(steps):
        if b.over:
            break
        if step == look_at:
            Encoder(b, rs, memory=seen).look(rs.decider(b).combatant)
        if step == join_at:
            join(b, "raider", (10, 2), 1)
        rs.apply(b, ACTION_TABLE[rng.choice(rs.legal_ids(b))])
    return b


def finish(b: Battle, seed: int) -> str:
    rs = get_ruleset(b.ruleset)
    rng = random.Random(seed)
    while not b.over:
        rs.apply(b, ACTION_TABLE[rng.choice(rs.legal_ids(b))])
    return saves.dumps(b)


def test_a_battle_has_no_untyped_dict() -> None:
    b = get_ruleset("pnp").new_battle(load_scenario("vault_corridor"), 1)
    assert not hasattr(b, "extra")
    assert b.max_rounds == 30 and b.ambient == 0 and b.end_reason is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_ruleset_makes_its_own_book(ruleset: str) -> None:
    b = get_ruleset(ruleset).new_battle(load_scenario("vault_corridor"), 1)
    assert type(b.book) is BOOKS[ruleset]
    # what the code outside the rulesets asks, answered by the book, never by the name
    assert (b.book.economy() is not None) == (ruleset == "f2d20")
    assert (b.book.round_order() is not None) == (ruleset == "f2d20")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fork_and_a_copy_share_no_state_with_their_battle(ruleset: str) -> None:
    seed, look, joins, steps = FIGHTS[ruleset]
    b = fight(ruleset, seed, look, joins, steps)
    before = saves.dumps(b)
    twins = [fork(b, 0), copy.deepcopy(b), pickle.loads(pickle.dumps(b))]
    for twin in twins:
        assert type(twin.book) is type(b.book) and twin.book is not b.book
        assert twin.extra_json() == b.extra_json()
        # the twin plays on to the end of the fight: the battle it came from does not move
        finish(twin, 7)
        assert twin.over
    assert saves.dumps(b) == before


def test_a_fork_keeps_2d20s_pools_and_window_to_itself() -> None:
    b = fight("f2d20", *FIGHTS["f2d20"])
    f = fork(b, 0)
    f.book.pools[0] += 5
    f.book.base_order.append(99)
    assert b.book.pools != f.book.pools and 99 not in b.book.base_order
    f.joined[0]["at"].append(1)
    assert b.joined[0]["at"] == [10, 2]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_saves_from_before_typed_state_are_written_alike_and_resume(ruleset: str) -> None:
    text = (DATA / f"{ruleset}_before_typed_state.json").read_text()
    seed, look, joins, steps = FIGHTS[ruleset]
    seen = Memory()
    b = fight(ruleset, seed, look, joins, steps, seen)
    mine = saves.dumps(b, parts(seen))
    assert json.loads(mine) == json.loads(text)
    keys = list(json.loads(text)["state"]["extra"])
    assert {"sightings", "joined"} <= set(keys) and not b.over
    if ruleset == "simple":
        assert {"late", "armory"} <= set(keys)
    # every key of "extra" in the same order, but the memory, a part written last
    assert mine == json.dumps({**json.loads(text), "state": {
        **json.loads(text)["state"], "extra": {
            **{k: v for k, v in json.loads(text)["state"]["extra"].items() if k != "sightings"},
            "sightings": json.loads(text)["state"]["extra"]["sightings"]}}},
        separators=(",", ":"))
    back = saves.loads(text)
    assert json.loads(finish(back, 5)) == json.loads(finish(b, 5))


def test_the_save_checks_still_read_the_keys_a_new_battle_has() -> None:
    d = json.loads((DATA / "f2d20_before_typed_state.json").read_text())
    d["ruleset"] = "pnp"
    with pytest.raises(saves.SaveError) as e:
        saves.from_dict(d)
    assert "but the state is a f2d20 battle's; was the ruleset edited?" in str(e.value)


def test_the_base_book_answers_none() -> None:
    x = RulesBook()
    assert (x.economy(), x.open_window(), x.main_taken(), x.round_order(), x.pool(0)) == (
        None, None, False, None, 0)
