"""The held-out maps with larger line-ups (wasteland/training/heldout/wide/, written by
benchmarks/wide_heldout.py for issue 40, item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wasteland.bestiary.loader import load_scenario
from wasteland.training import arenas
from wasteland.training.arenas import FAMILIES
from wasteland.training.config import config_names, load_config

WIDE = Path(arenas.__file__).parent / "heldout" / "wide"
# the most creatures of one family on a training seat's side (docs/seats.md): a wide map
# must hold a side larger than that
SEAT_MOST = 4


def test_one_wide_map_per_family_and_ruleset():
    names = sorted(p.stem for p in WIDE.glob("*.yaml"))
    assert names == sorted(f"wide_{f}_{r}" for f in FAMILIES for r in ("pnp", "simple", "f2d20"))


@pytest.mark.parametrize("path", sorted(WIDE.glob("*.yaml")), ids=lambda p: p.stem)
def test_wide_map_has_a_side_larger_than_any_seat(path):
    sc = load_scenario(path)
    sizes = [len(s.combatants) for s in sc.sides]
    assert max(sizes) > SEAT_MOST and sum(sizes) <= 10
    family = next(f for f in FAMILIES if path.stem.startswith(f"wide_{f}_"))
    kinds = {p.creature for s in sc.sides for p in s.combatants}
    assert kinds & set(FAMILIES[family])


def test_no_training_config_names_a_wide_map():
    for name in config_names():
        cfg = load_config(name)
        named = [*cfg.scenarios, *(cfg.evaluation.scenarios or []), *cfg.expert.teachers]
        assert not [s for s in named if "heldout" in str(s)], name
