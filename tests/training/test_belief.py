"""A teacher that decides on what the network can know (wasteland/training/belief.py and
`expert.last_seen`, issue 25): each enemy out of the decider's sight stands, for the
decision only, where the decider last saw it, and the battle is put back after."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

pytest.importorskip("sb3_contrib")

from wasteland.agents.make import make_agent  # noqa: E402
from wasteland.bestiary.models import Placement, Scenario, Side  # noqa: E402
from wasteland.observe.encoding import Encoder  # noqa: E402
from wasteland.rules.errors import WastelandError  # noqa: E402
from wasteland.rules.rulesets import get_ruleset  # noqa: E402
from wasteland.training.belief import last_seen  # noqa: E402
from wasteland.training.config import load_config  # noqa: E402
from wasteland.training.expert import label  # noqa: E402

from .test_config import _refused_in_one_line  # noqa: E402

# a wall between the west and the east half, with a gap in the bottom row
SPLIT = ["###########", "#....#....#", "#....#....#", "#.........#", "###########"]


def split_battle():  # type: ignore[no-untyped-def]
    rs = get_ruleset("f2d20")
    sc = Scenario(id="split", name="Split", map="\n".join(SPLIT),
                  legend={".": "floor", "#": "wall"}, max_rounds=10,
                  sides=[Side(name="Vault", combatants=[
                             Placement(creature="vault_dweller", at=(2, 1), id="ted")]),
                         Side(name="Raiders", combatants=[
                             Placement(creature="raider", at=(4, 2), id="rex"),
                             Placement(creature="raider", at=(8, 1), id="pip"),
                             Placement(creature="raider", at=(3, 3), id="kit")])])
    return rs, rs.new_battle(sc, 0)


def test_a_hidden_enemy_stands_where_it_was_last_seen_and_is_put_back() -> None:
    rs, b = split_battle()
    g = b.grid
    ted, rex, pip, kit = b.combatants
    enc = Encoder(b, rs)
    enc.look(0)  # ted sees rex and kit; pip, behind the wall, never
    seen_at = rex.pos
    b.set_pos(rex, g.index(7, 2))  # rex slips behind the wall
    assert not g.sight[ted.pos][rex.pos] and not g.sight[ted.pos][pip.pos]
    before = (rex.pos, pip.pos, kit.pos, dict(b.occupied))
    with last_seen(b, 0, enc.memory) as moved:
        assert moved == 1
        assert rex.pos == seen_at and b.occupied[seen_at] == rex.slot
        assert g.index(7, 2) not in b.occupied
        assert pip.pos == before[1]  # never seen: left where it is
        assert kit.pos == before[2]  # in sight: as it is
    assert (rex.pos, pip.pos, kit.pos, dict(b.occupied)) == before


def test_a_remembered_square_someone_stands_on_is_left_alone() -> None:
    rs, b = split_battle()
    ted, rex, _, kit = b.combatants
    enc = Encoder(b, rs)
    enc.look(0)
    seen_at = rex.pos
    b.set_pos(rex, b.grid.index(7, 2))
    b.set_pos(kit, seen_at)  # kit steps onto the square ted last saw rex on
    before = dict(b.occupied)
    with last_seen(b, 0, enc.memory) as moved:
        assert moved == 0 and rex.pos == b.grid.index(7, 2)
    assert b.occupied == before


def test_the_battle_is_put_back_when_the_decision_fails() -> None:
    rs, b = split_battle()
    rex = b.combatants[1]
    enc = Encoder(b, rs)
    enc.look(0)
    hidden = b.grid.index(7, 2)
    b.set_pos(rex, hidden)
    with pytest.raises(RuntimeError), last_seen(b, 0, enc.memory):
        raise RuntimeError("the teacher broke")
    assert rex.pos == hidden and b.occupied[hidden] == rex.slot


STORM = ["n_envs=2", "vec_env=dummy", "network=[16,16]", "arenas.share=0.0",
         "scenarios=[seat:radscorpions_storm_drain_f2d20]", "expert.teachers={}"]


@pytest.mark.parametrize("fair", [False, True])
def test_the_teacher_decides_on_what_the_decider_last_saw(monkeypatch, fair: bool) -> None:
    """In the dark culverts of the storm drain, with `expert.last_seen` the packet is asked
    with each enemy it cannot see on the square where the decider last saw it (unless
    someone stands there); without it, on its true square."""
    import wasteland.training.expert as expert

    truth: dict[int, int] = {}
    real = expert.last_seen

    @contextmanager
    def spied(b, me, memory):  # type: ignore[no-untyped-def]
        truth.update({e.slot: e.pos for e in b.combatants})
        with real(b, me, memory) as n:
            yield n

    asked = {"hidden": 0, "at_memory": 0, "elsewhere": 0}

    class Spy:
        def __init__(self, name: str, seed: int) -> None:
            self.inner = make_agent(name, seed)
            self.memory = None

        def observe_with(self, battle, memory):  # type: ignore[no-untyped-def]
            self.memory = memory  # the env's (agents/base.py share_memory)

        def act(self, view):  # type: ignore[no-untyped-def]
            b, me = view.battle, view.me
            true = dict(truth) or {e.slot: e.pos for e in b.combatants}
            truth.clear()
            rows = self.memory.rows if self.memory is not None else []
            row = rows[me.slot] if me.slot < len(rows) else []
            for e in b.combatants:
                rec = row[e.slot] if e.slot < len(row) else None
                if e.side == me.side or not e.up or rec is None or rec.square == true[e.slot] \
                        or b.grid.sight[me.pos][true[e.slot]]:
                    continue
                asked["hidden"] += 1
                if e.pos == rec.square:
                    asked["at_memory"] += 1
                elif not (e.pos == true[e.slot] and rec.square in true.values()):
                    asked["elsewhere"] += 1
            return self.inner.act(view)

    monkeypatch.setattr(expert, "make_agent", Spy)
    monkeypatch.setattr(expert, "last_seen", spied)
    cfg = load_config("radscorpion_f2d20", [*STORM, f"expert.last_seen={str(fair).lower()}"])
    got = label(cfg, None, 600, seed=4, beta=1.0, teacher="packet")
    assert all(got["mask"][i, a] for i, a in enumerate(got["action"]))
    assert asked["hidden"] > 20, asked
    if fair:
        assert asked["at_memory"] > 20 and asked["elsewhere"] == 0, asked
    else:
        assert asked["at_memory"] == 0, asked


def test_last_seen_keeps_the_hash_while_off_and_takes_only_a_bool() -> None:
    base = load_config("radscorpion_f2d20")
    assert load_config("radscorpion_f2d20", ["expert.last_seen=false"]).hash() == base.hash()
    assert load_config("radscorpion_f2d20", ["expert.last_seen=true"]).hash() != base.hash()
    _refused_in_one_line("radscorpion_f2d20", "expert.last_seen=3", WastelandError,
                         ["last_seen"])


def test_two_combatants_are_never_stood_on_one_square() -> None:
    from wasteland.training.belief import standing_at

    _, b = split_battle()
    _, rex, pip, _ = b.combatants
    free = b.grid.index(6, 3)
    before = dict(b.occupied)
    with standing_at(b, {rex.slot: free, pip.slot: free}) as moved:
        assert moved == 1 and rex.pos == free and pip.pos == b.grid.index(8, 1)
        assert b.occupied[free] == rex.slot
    assert b.occupied == before


@pytest.mark.parametrize("fair", [False, True])
def test_the_teacher_is_offered_only_actions_legal_on_the_board_it_is_shown(
        monkeypatch, fair: bool) -> None:
    """A search plays its candidates on copies of the board it is given, unchecked. The
    learner's mask is judged on the board it believes in, where a hidden enemy is not on
    its true square, so an action in it (a move toward a friend, ending on the square a
    hidden enemy truly stands on) may be illegal on the true board or on ``last_seen``'s;
    such an action is not offered to the teacher there (a 2d20 search teacher stopped
    training with an assertion on exactly that)."""
    import wasteland.training.expert as expert

    offered = {"decisions": 0, "fogged": 0, "illegal": 0}

    class Strict:
        def __init__(self, name: str, seed: int) -> None:
            self.inner = make_agent(name, seed)

        def act(self, view):  # type: ignore[no-untyped-def]
            ok = set(view.ruleset.legal_ids(view.battle))
            offered["decisions"] += 1
            offered["fogged"] += len(ok) != len(view.legal_ids) or any(
                i not in ok for i in view.legal_ids)
            offered["illegal"] += sum(i not in ok for i in view.legal_ids)
            return self.inner.act(view)

    monkeypatch.setattr(expert, "make_agent", Strict)
    cfg = load_config("radscorpion_f2d20", [*STORM, f"expert.last_seen={str(fair).lower()}"])
    got = label(cfg, None, 1500, seed=4, beta=1.0, teacher="packet")
    assert all(got["mask"][i, a] for i, a in enumerate(got["action"]))
    assert offered["decisions"] >= 1500 and offered["fogged"] > 20, offered
    assert offered["illegal"] == 0, offered
